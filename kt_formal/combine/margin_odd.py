"""The sheared frame: a closed tour around a hole whose side bands have odd area (class E1).

In the class E1 of the margin-three theorem (seen with the even margins a, b above and
below: a, b even, l, q odd, h odd, w even) the bands left and right of the hole have odd
height and odd width, so no cut of the frame into rectangles gives them even area. The
*sheared frame* moves one square across, in this view (``odd_view``), with a under 10:

* the *top band* T, rows [0, a) of the whole width, has its last row shifted one square to
  the right: it gives the square (a-1, 2) to the left band and takes (a, n-1), the right
  band's top-right corner. Its blocks (widths from divide's even parts of l + w - 1 and
  q + 1, so that one block starts at column l + w - 1) are the pieces ``margin-shear-first``,
  ``margin-shear`` and ``margin-shear-end`` of :mod:`kt_formal.combine.margin_odd_pieces`,
  joined left to right by divide's swap at their top rows;
* the *left band* L, rows [a, m) x columns [0, l), takes (a-1, 2): its top-left block
  (odd x odd) is the piece ``margin-bump``; the *right band* R, rows [a, m) x columns
  [l + w, n), loses (a, n-1): its top-right block (odd x odd) is ``margin-notch``. The rest
  of each is divide's assembly, joined to the special block through the block below it;
* the *bottom band* B, rows [a + h, m) x columns [l, l + w), is divide's assembly.

The four cycles are joined by three swaps: T to R at column l + w (T's block starting one
column earlier holds its bottom port one square on), R to B and B to L at row a + h
(divide's horizontal swap). Each swap joins two cycles (Lemma 3), so the result is one.

>>> from kt_formal.board import Board
>>> t = odd_tour(Board.from_spec(23, 20, ["6,7,11x8"]), (6, 7, 11, 8))
>>> t.check() is None, t.closed, len(t)
(True, True, 372)
"""

from __future__ import annotations

import functools
import itertools

import numpy as np

from kt_formal.board import Board, ensure_memory
from kt_formal.combine.divide import assemble, split_side
from kt_formal.combine.library import load_piece
from kt_formal.combine.margin_large import SYMMETRIES, _ends, _swap_in, large_plan, tour_from_view, transform_case
from kt_formal.combine.margin_odd_pieces import SHEAR_HEIGHTS
from kt_formal.combine.walk import estimate_bytes
from kt_formal.exceptions import NotApplicable
from kt_formal.tours import Tour

__all__ = ["ODD_THEOREM", "is_sheared_case", "odd_view", "odd_succ", "odd_tour", "sheared_only"]

#: The section of the theorem this construction proves.
ODD_THEOREM = "margin-three theorem (the sheared frame: class E1)"


def is_sheared_case(a: int, b: int, le: int, q: int, h: int, w: int) -> bool:
    """Whether the sheared frame builds the view with margins a (top), b, l, q and hole h x w.

    >>> is_sheared_case(6, 6, 7, 5, 11, 8), is_sheared_case(6, 6, 7, 5, 11, 9)
    (True, False)
    """
    return (a in SHEAR_HEIGHTS and b % 2 == 0 and b >= 6 and le % 2 == 1 and q % 2 == 1 and min(le, q) >= 5
            and h % 2 == 1 and h >= 5 and w % 2 == 0 and w >= 6)


def odd_view(m: int, n: int, hole: tuple[int, int, int, int]) -> tuple | None:
    """The first symmetry (:data:`~kt_formal.combine.margin_large.SYMMETRIES`) under which the
    sheared frame builds the board, or None."""
    for sym in SYMMETRIES:
        ms, ns, (r0, c0, h, w) = transform_case(m, n, hole, sym)
        if is_sheared_case(r0, ms - r0 - h, c0, ns - c0 - w, h, w):
            return sym
    return None


def sheared_only(m: int, n: int, hole: tuple[int, int, int, int]) -> bool:
    """Whether the board is built by the sheared frame: the frame cut has none, a view has one."""
    try:
        large_plan(m, n, hole)
    except NotApplicable:
        return odd_view(m, n, hole) is not None
    return False


@functools.lru_cache(maxsize=None)
def _piece_squares(name: str) -> tuple[np.ndarray, np.ndarray]:
    """Rows and columns of the library piece ``name``'s tour, in order (loaded and verified once)."""
    tour = load_piece(name).tour
    return np.divmod(np.asarray(tour.order, dtype=np.int64), tour.board.cols)


def _place(succ: np.ndarray, n: int, name: str, y: int, x: int) -> np.ndarray:
    """Put the library piece ``name`` (a closed tour) with its (0, 0) at (y, x); its squares' indices."""
    r, c = _piece_squares(name)
    cells = (r + y) * n + c + x
    succ[cells] = np.roll(cells, -1)
    return cells


def _rect(succ: np.ndarray, n: int, y0: int, x0: int, rp: list, cp: list, special=None) -> np.ndarray:
    """Divide's tour of the rectangle at (y0, x0) with parts ``rp`` x ``cp``; its squares' indices.

    ``special = (column part, piece, dy)``: that block of the first band is left out of the
    assembly and holds the piece (placed ``dy`` rows above the block), joined to the block
    below it by divide's swap (the piece holds divide's bottom port).
    """
    H, W = sum(rp), sum(cp)
    missing = frozenset() if special is None else {(0, special[0])}
    s = assemble(rp, cp, missing).astype(np.int64, copy=False)
    idx = ((np.arange(H)[:, None] + y0) * n + np.arange(W)[None, :] + x0).ravel()
    keep = s >= 0
    succ[idx[keep]] = (s[keep] // W + y0) * n + s[keep] % W + x0
    if special is None:
        return idx
    j, name, dy = special
    x = x0 + sum(cp[:j])
    cells = _place(succ, n, name, y0 - dy, x)
    _swap_in(succ, _ends("v", y0 + rp[0], x, n), cells)
    return np.concatenate([idx[keep], cells])  # the piece's squares are the missing block's and its own


def odd_succ(m: int, n: int, hole: tuple[int, int, int, int]) -> np.ndarray:
    """The successor array of the sheared frame's closed tour, the board in its view (see the module)."""
    a, c0, h, w = hole
    b, le, q = m - a - h, c0, n - c0 - w
    if not is_sheared_case(a, b, le, q, h, w):
        raise NotApplicable("the sheared frame needs a in {6, 8}, b even, l, q odd, h odd, w even")
    succ = np.full(m * n, -1, dtype=np.int32 if m * n < 2**31 else np.int64)
    parts = split_side(le + w - 1, False) + split_side(q + 1, False)
    xs = list(itertools.accumulate(parts, initial=0))
    top = []
    for k, width in enumerate(parts):
        kind = "first-" if k == 0 else "end-" if k == len(parts) - 1 else ""
        top.append(_place(succ, n, f"margin-shear-{kind}{a}x{width}", 0, xs[k]))
        if k:
            _swap_in(succ, _ends("h", xs[k], 0, n), top[-1])
    rows = split_side(h, True) + split_side(b, False)
    lcols, rcols = split_side(le, True), split_side(q, True)[::-1]
    left = _rect(succ, n, a, 0, rows, lcols, (0, f"margin-bump-{rows[0]}x{lcols[0]}", 1))
    right = _rect(succ, n, a, le + w, rows, rcols, (len(rcols) - 1, f"margin-notch-{rows[0]}x{rcols[-1]}", 0))
    bottom = _rect(succ, n, a + h, le, split_side(b, False), split_side(w, False))
    _swap_in(succ, _ends("v", a, le + w, n), right)          # T's shifted bottom port, R's top port
    _swap_in(succ, _ends("h", le + w, a + h, n), bottom)     # B's right port, R's left port
    _swap_in(succ, _ends("h", le, a + h, n), left)           # L's right port, B's left port
    return succ


def odd_tour(board: Board, hole: tuple[int, int, int, int]) -> Tour:
    """A closed tour of ``board`` minus ``hole`` by the sheared frame.

    Raises
    ------
    NotApplicable
        When no view of the board is one the sheared frame builds (:func:`odd_view`).
    """
    m, n = board.rows, board.cols
    sym = odd_view(m, n, hole)
    if sym is None:
        raise NotApplicable("the frame construction has no cut for this case (see docs/theorems/margin-three.md)")
    ensure_memory(estimate_bytes(m, n, 8.0), f"the sheared frame on {m}x{n}")
    ms, ns, view = transform_case(m, n, hole, sym)
    return tour_from_view(board, sym, ms, ns, odd_succ(ms, ns, view))
