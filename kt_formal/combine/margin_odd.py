"""The sheared frame: a closed tour around a hole whose side bands have odd area (class E1,
and the classes F1 and G1 with a margin of 3 or 4 opposite an even one).

In the class E1 of the margin-three theorem (seen with the even margins a, b above and
below: a, b even, l, q odd, h odd, w even) the bands left and right of the hole have odd
height and odd width, so no cut of the frame into rectangles gives them even area. The
*sheared frame* moves one square across. In its view (:func:`odd_view`; a even >= 6):

* the *top band* T, rows [0, a) of the whole width, has its last row shifted one square to
  the right: it gives the square (a-1, 2) to the left band and takes (a, n-1), the right
  band's top-right corner. Its last 6, 8 or 10 rows are blocks of the pieces
  ``margin-shear-first``, ``margin-shear`` and ``margin-shear-end`` of
  :mod:`kt_formal.combine.margin_odd_pieces` (widths from divide's even parts of l + w - 1
  and q + 1, so that one block starts at column l + w - 1), joined left to right by divide's
  swap at their top rows; for a >= 12 a plain band of divide's blocks lies over them;
* the *left band* L, rows [a, m) x columns [0, l), takes (a-1, 2): its top-left block
  (odd x odd) is the piece ``margin-bump``; the *right band* R, rows [a, m) x columns
  [l + w, n), loses (a, n-1): its top-right block (odd x odd) is ``margin-notch``. The rest
  of each is divide's assembly, joined to the special block through a neighbouring block;
* the *bottom band* B, rows [a + h, m) x columns [l, l + w), is divide's assembly.

The four cycles are joined by three swaps: T to R at column l + w (T's block starting one
column earlier holds its bottom port one square on), R to B and B to L at row a + h
(divide's horizontal swap). Each swap joins two cycles (Lemma 3), so the result is one.

With a bottom margin b of 3 (F1) or 4 (G1) instead, L and R end at row m - b, and the
bottom b rows of the whole width are one closed 3 x n strip (joined below L's bottom-left
block, Lemma 9) or one open 4 x n lane upside down, its ends (m-4, 0) and (m-4, 1)
inserted at L's bottom-left block, which holds the *lane port* (m-5, 2)-(m-6, 0)
(``margin-lane-port`` or ``margin-bump-lane``). T then joins L directly: its first block's
move (a-1, 4)-(a-2, 2) and the bump's (a+1, 3)-(a, 1).

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
from kt_formal.combine.margin_band import BAND
from kt_formal.combine.margin_lanes import LANE, lane_local
from kt_formal.combine.margin_large import (SYMMETRIES, large_applies, large_plan, large_tour, swap_ends, swap_in,
                                           oriented_tour, transform_case)
from kt_formal.combine.walk import estimate_bytes
from kt_formal.exceptions import NotApplicable
from kt_formal.tours import Tour

__all__ = ["ODD_THEOREM", "is_sheared_case", "odd_view", "odd_succ", "odd_tour", "sheared_only", "frame_applies",
           "frame_tour"]

#: The section of the theorem this construction proves.
ODD_THEOREM = "margin-three theorem (the sheared frame: classes E1, F1 and G1)"


def is_sheared_case(a: int, b: int, le: int, q: int, h: int, w: int) -> bool:
    """Whether the sheared frame builds the view with margins a (top), b, l, q and hole h x w.

    >>> is_sheared_case(6, 6, 7, 5, 11, 8), is_sheared_case(6, 6, 7, 5, 11, 9)
    (True, False)
    """
    return (a % 2 == 0 and a >= 6 and (b in (BAND, LANE) or b % 2 == 0 and b >= 6) and le % 2 == 1 and q % 2 == 1
            and min(le, q) >= 5 and h % 2 == 1 and h >= 5 and w % 2 == 0 and w >= 6)


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


def _rect(succ: np.ndarray, n: int, y0: int, x0: int, rp: list, cp: list, specials=()) -> np.ndarray:
    """Divide's tour of the rectangle at (y0, x0) with parts ``rp`` x ``cp``; its squares' indices.

    ``specials``: ``(band, column part, piece, dy)`` for blocks left out of the assembly that
    hold a library piece instead (placed ``dy`` rows above the block). Each is joined by
    divide's swap to a neighbouring block already in the cycle (below, above, right, left:
    the first that is), the piece holding divide's port on that side; when every block is
    special, the first is the cycle the others join.
    """
    H, W = sum(rp), sum(cp)
    rs, cs = list(itertools.accumulate(rp, initial=y0)), list(itertools.accumulate(cp, initial=x0))
    spots = {(i, j) for i, j, _, _ in specials}
    out, done = [], set()
    if len(spots) < len(rp) * len(cp):
        idx = ((np.arange(H)[:, None] + y0) * n + np.arange(W)[None, :] + x0).ravel()
        s = assemble(rp, cp, frozenset(spots)).astype(np.int64, copy=False)
        keep = s >= 0
        succ[idx[keep]] = (s[keep] // W + y0) * n + s[keep] % W + x0
        out.append(idx[keep])
        done = {(i, j) for i in range(len(rp)) for j in range(len(cp))} - spots
    for i, j, name, dy in specials:
        cells = _place(succ, n, name, rs[i] - dy, cs[j])
        out.append(cells)
        for nb, ends in (((i + 1, j), ("v", rs[i + 1], cs[j])), ((i - 1, j), ("v", rs[i], cs[j])),
                         ((i, j + 1), ("h", cs[j + 1], rs[i])), ((i, j - 1), ("h", cs[j], rs[i]))):
            if nb in done:
                swap_in(succ, swap_ends(*ends, n), cells)
                break
        else:
            if done:  # pragma: no cover - every special block has a neighbour in the cycle
                raise RuntimeError(f"sheared frame: the block {(i, j)} has no neighbour to join")
        done.add((i, j))
    return np.concatenate(out)


def _top_band(succ: np.ndarray, n: int, a: int, le: int, w: int, q: int) -> None:
    """The top band, rows [0, a): its last rows a band of sheared blocks (height 6, 8 or 10),
    under a plain band of divide's blocks when a >= 12 (joined at column 0)."""
    p = a if a <= 10 else 6
    parts = split_side(le + w - 1, False) + split_side(q + 1, False)
    xs = list(itertools.accumulate(parts, initial=0))
    for k, width in enumerate(parts):
        kind = "first-" if k == 0 else "end-" if k == len(parts) - 1 else ""
        cells = _place(succ, n, f"margin-shear-{kind}{p}x{width}", a - p, xs[k])
        if k:
            swap_in(succ, swap_ends("h", xs[k], a - p, n), cells)
    if a > p:
        plain = _rect(succ, n, 0, 0, split_side(a - p, False), split_side(n, False))
        swap_in(succ, swap_ends("v", a - p, 0, n), plain)  # its bottom port, the first block's top port


def _strip(succ: np.ndarray, n: int, y0: int) -> np.ndarray:
    """A closed 3 x n strip (:func:`~kt_formal.combine.strips.strip_construct`) in rows [y0, y0 + 3)."""
    from kt_formal.combine.strips import strip_construct

    order = np.asarray(strip_construct(3, n, closed=True).order, dtype=np.int64) + y0 * n
    succ[order] = np.roll(order, -1)
    return order


def _lane(succ: np.ndarray, n: int, y0: int) -> np.ndarray:
    """An open 4 x n lane (:func:`~kt_formal.combine.margin_lanes.lane_local`) upside down in rows
    [y0, y0 + 4): its ends (y0, 0) and (y0, 1), closed by the non-move between them."""
    s = lane_local(n)
    r, c = np.divmod(s, n)
    idx = (LANE - 1 - np.arange(LANE)[:, None] + y0) * n + np.arange(n)[None, :]
    succ[idx.ravel()] = (LANE - 1 - r + y0) * n + c
    return idx.ravel()


def _at(n: int, *squares) -> tuple:
    """The squares (row, col) as indices of a board with ``n`` columns."""
    return tuple(y * n + x for y, x in squares)


def odd_succ(m: int, n: int, hole: tuple[int, int, int, int]) -> np.ndarray:
    """The successor array of the sheared frame's closed tour, the board in its view (see the module)."""
    a, c0, h, w = hole
    b, le, q = m - a - h, c0, n - c0 - w
    if not is_sheared_case(a, b, le, q, h, w):
        raise NotApplicable("the sheared frame needs a, b even (or b = 3 or 4), l, q odd, h odd, w even")
    succ = np.full(m * n, -1, dtype=np.int32 if m * n < 2**31 else np.int64)
    _top_band(succ, n, a, le, w, q)
    rows = split_side(h, True) + (split_side(b, False) if b > LANE else [])
    lcols, rcols = split_side(le, True), split_side(q, True)[::-1]
    bump = [(0, 0, f"margin-bump-{rows[0]}x{lcols[0]}", 1)]
    if b == LANE:  # L's bottom-left block holds the lane port
        bump = ([(0, 0, f"margin-bump-lane-{rows[0]}x{lcols[0]}", 1)] if len(rows) == 1 else
                bump + [(len(rows) - 1, 0, f"margin-lane-port-{rows[-1]}x{lcols[0]}", 0)])
    left = _rect(succ, n, a, 0, rows, lcols, bump)
    right = _rect(succ, n, a, le + w, rows, rcols, [(0, len(rcols) - 1, f"margin-notch-{rows[0]}x{rcols[-1]}", 0)])
    swap_in(succ, swap_ends("v", a, le + w, n), right)  # T's shifted bottom port, R's top port
    if b in (BAND, LANE):  # T joins L; a strip or a lane along the bottom joins L's bottom-left block
        swap_in(succ, _at(n, (a - 1, 4), (a - 2, 2), (a + 1, 3), (a, 1)), left)
        if b == BAND:
            swap_in(succ, swap_ends("v", m - BAND, 0, n), _strip(succ, n, m - BAND))
        else:
            y = m - LANE
            swap_in(succ, _at(n, (y - 1, 2), (y - 2, 0), (y, 0), (y, 1)), _lane(succ, n, y))
        return succ
    bottom = _rect(succ, n, a + h, le, split_side(b, False), split_side(w, False))
    swap_in(succ, swap_ends("h", le + w, a + h, n), bottom)  # B's right port, R's left port
    swap_in(succ, swap_ends("h", le, a + h, n), left)  # L's right port, B's left port
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
    return oriented_tour(board, odd_succ(ms, ns, view), ms, ns, sym)


def frame_applies(board: Board) -> bool:
    """Whether :func:`frame_tour` builds this board: the frame cut (:func:`large_applies`), or
    the sheared frame."""
    from kt_formal.combine.frame_large import single_hole

    hole = single_hole(board)
    return large_applies(board) or (hole is not None and odd_view(board.rows, board.cols, hole) is not None)


def frame_tour(board: Board) -> Tour:
    """A closed tour of ``board`` (one rectangular hole) by the frame construction
    (:func:`~kt_formal.combine.margin_large.large_tour`), or, where it has no cut, by the
    sheared frame (:func:`odd_tour`).

    Raises
    ------
    NotApplicable
        When neither covers the board.
    """
    from kt_formal.combine.frame_large import single_hole

    try:
        return large_tour(board)
    except NotApplicable:
        hole = single_hole(board)
        if hole is None:
            raise
        return odd_tour(board, hole)
