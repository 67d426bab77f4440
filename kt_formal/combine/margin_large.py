"""The frame construction for holes of any size at margin five: a closed tour of a board
minus one h x w rectangle standing at least five squares from every edge, when the
colours balance, for every case of :func:`in_statement` (and more: every case whose cut
exists, :func:`large_plan`).

The region around the hole is a *frame*: four side bands (above, below, left and right of
the hole) and four corner rectangles. Each corner is given to one of its two bands, so the
frame is cut into four rectangles (a *corner assignment*), and, when a margin is at least
10 and the parity asks for it, a slab of 5 rows or columns along that edge. Every
rectangle has both sides >= 5 and even area, so divide and conquer
(:mod:`kt_formal.combine.divide`) tours it from its certified port pieces. Its cut along
each side keeps the frame's lines (the hole's and the slabs' edges) where the parity
allows. Two rectangles that touch along a line where both have a block starting at the
same place are joined by divide's 2-move swap through those blocks' ports (unused: the
blocks face the other rectangle, not one of their own); the joins form a spanning tree,
so the result is one cycle (Lemma 3 of the margin-three theorem).

No new pieces: only divide's 36 port pieces, each verified on load. The statement and the
case analysis are in ``docs/theorems/margin-three.md`` (section "Holes of any size").

>>> from kt_formal.board import Board
>>> t = large_tour(Board.from_spec(30, 33, ["6,7,13x16"]))
>>> t.check() is None, t.closed, len(t)
(True, True, 782)
"""

from __future__ import annotations

import itertools
from typing import NamedTuple

import numpy as np

from kt_formal.board import Board, ensure_memory
from kt_formal.combine.divide import assemble, split_side
from kt_formal.combine.walk import estimate_bytes, walk
from kt_formal.engines.successors import follow
from kt_formal.exceptions import InvalidInput, NotApplicable
from kt_formal.tours import Tour

__all__ = ["LARGE_THEOREM", "MIN_MARGIN", "SYMMETRIES", "Rect", "in_statement", "large_plan", "large_applies",
           "large_tour", "reverse_cycle", "swap_join"]

#: The section of the theorem this construction proves.
LARGE_THEOREM = "margin-three theorem (holes of any size at margin five)"

#: The smallest margin the frame construction takes.
MIN_MARGIN = 5

#: Boards up to this many squares are walked in Python (no compiled kernel to load).
_PYTHON_WALK = 40_000


class Rect(NamedTuple):
    """One rectangle of the frame: top-left (y0, x0), its divide cut (row and column parts),
    and its *cut points*: the frame lines it keeps, with its own first row and column."""

    y0: int
    x0: int
    row_parts: tuple
    col_parts: tuple
    row_cuts: frozenset
    col_cuts: frozenset

    @property
    def rows(self) -> int:
        return sum(self.row_parts)

    @property
    def cols(self) -> int:
        return sum(self.col_parts)


def _chunks(lines: list[int], start: int, end: int, even: bool) -> tuple[list[int], frozenset] | None:
    """Parts of [start, end) keeping as many of ``lines`` (inside it) as cut points as allowed.

    Every chunk between kept points is >= 5 (>= 6 and even when ``even``), then cut by
    :func:`~kt_formal.combine.divide.split_side`. Returns the parts and the chunks' starts;
    None when no choice works.
    """
    inner = [x for x in lines if start < x < end]
    for k in range(len(inner), -1, -1):
        for kept in itertools.combinations(inner, k):
            pts = [start, *kept, end]
            sizes = [b - a for a, b in zip(pts, pts[1:])]
            if all(s >= 5 and (not even or s % 2 == 0) for s in sizes):
                try:
                    return [p for s in sizes for p in split_side(s, s % 2 == 1)], frozenset(pts[:-1])
                except InvalidInput:
                    continue
    return None


def _rect(y0, y1, x0, x1, ylines, xlines) -> Rect | None:
    """The rectangle [y0, y1) x [x0, x1) cut for divide, or None (a side < 5, odd area)."""
    h, w = y1 - y0, x1 - x0
    if min(h, w) < 5 or (h * w) % 2:
        return None
    if h % 2:
        options = [(False, True)]
    elif w % 2:
        options = [(True, False)]
    else:
        options = [(True, False), (False, True)]
    for rows_even, cols_even in options:
        rp = _chunks(ylines, y0, y1, rows_even)
        cp = _chunks(xlines, x0, x1, cols_even)
        if rp is not None and cp is not None:
            return Rect(y0, x0, tuple(rp[0]), tuple(cp[0]), rp[1], cp[1])
    return None


def _joins(rects: list[Rect]) -> list[tuple[int, int, str, int, int]] | None:
    """A spanning tree of swaps: ``[(i, j, kind, line, at)]``, piece j new when joined; None if none."""
    cand = []
    for i, p in enumerate(rects):
        for j, q in enumerate(rects):
            if p.y0 + p.rows == q.y0:  # p above q: a vertical join at a common column start
                common = p.col_cuts & q.col_cuts
                cand += [(i, j, "v", q.y0, x) for x in sorted(common)]
            if p.x0 + p.cols == q.x0:  # p left of q: a horizontal join at a common row start
                common = p.row_cuts & q.row_cuts
                cand += [(i, j, "h", q.x0, y) for y in sorted(common)]
    seen, tree, used = {0}, [], set()
    grew = True
    while grew and len(seen) < len(rects):
        grew = False
        for i, j, kind, line, at in cand:
            if (i in seen) != (j in seen) and (i, kind, at, "a") not in used and (j, kind, at, "b") not in used:
                used |= {(i, kind, at, "a"), (j, kind, at, "b")}
                tree.append((i, j, kind, line, at))
                seen.add(j if i in seen else i)
                grew = True
    return tree if len(seen) == len(rects) else None


def _frames(m: int, n: int, r0: int, c0: int, h: int, w: int):
    """Candidate cuts of the frame: (slabs, corner assignment) in a fixed order."""
    a, b, le, ri = r0, m - r0 - h, c0, n - c0 - w
    slab_opts = [(0, 0, 0, 0)]
    for side, margin in enumerate((a, b, le, ri)):
        if margin >= 2 * MIN_MARGIN:
            slab_opts.append(tuple(MIN_MARGIN if k == side else 0 for k in range(4)))
    for slabs in slab_opts:
        for corners in itertools.product((True, False), repeat=4):
            yield slabs, corners


def _sym(m: int, n: int, hole: tuple, sym: tuple[bool, bool, bool]) -> tuple[int, int, tuple]:
    """The board and hole seen under ``sym = (transpose, flip rows, flip columns)`` (in that order)."""
    r0, c0, h, w = hole
    if sym[0]:
        m, n, r0, c0, h, w = n, m, c0, r0, w, h
    if sym[1]:
        r0 = m - r0 - h
    if sym[2]:
        c0 = n - c0 - w
    return m, n, (r0, c0, h, w)


#: The eight symmetries of the board, tried in this order.
SYMMETRIES = tuple(itertools.product((False, True), repeat=3))


def large_plan(m: int, n: int, hole: tuple[int, int, int, int]) -> tuple[tuple, list[Rect], list]:
    """The frame's cut around ``hole = (row, col, h, w)``: ``(sym, rects, tree)``.

    ``rects`` and the joins ``tree`` are in the frame of the board seen under ``sym``
    (:data:`SYMMETRIES`): the first symmetry under which a cut with a spanning tree of
    joins exists.

    Raises
    ------
    NotApplicable
        A margin under 5, unbalanced colours, or a case the cut misses.
    """
    r0, c0, h, w = hole
    if min(r0, c0, m - r0 - h, n - c0 - w) < MIN_MARGIN:
        raise NotApplicable(f"the frame construction needs margins >= {MIN_MARGIN}")
    if (m * n) % 2 != ((h * w) % 2) or ((m * n) % 2 and (r0 + c0) % 2):
        raise NotApplicable("the board minus the hole has unequal colour counts")
    for sym in SYMMETRIES:
        found = _plan_frame(*_sym(m, n, hole, sym))
        if found is not None:
            return (sym, *found)
    raise NotApplicable("the frame construction has no cut for this case (see docs/theorems/margin-three.md)")


def _plan_frame(m: int, n: int, hole: tuple[int, int, int, int]) -> tuple[list[Rect], list] | None:
    """Rectangles and the tree of joins in this orientation, or None."""
    r0, c0, h, w = hole
    y1, x1 = r0 + h, c0 + w
    for (st, sb, sl, sr), (tl, tr, bl, br) in _frames(m, n, r0, c0, h, w):
        Y0, Y1, X0, X1 = st, m - sb, sl, n - sr  # the frame inside the slabs
        ylines, xlines = [Y0, r0, y1, Y1], [X0, c0, x1, X1]
        boxes = [(Y0, r0, X0 if tl else c0, X1 if tr else x1),   # top band (with its corners)
                 (y1, Y1, X0 if bl else c0, X1 if br else x1),   # bottom band
                 (r0 if tl else Y0, y1 if bl else Y1, X0, c0),   # left band
                 (r0 if tr else Y0, y1 if br else Y1, x1, X1)]   # right band
        boxes += [box for box, s in zip([(0, st, 0, n), (m - sb, m, 0, n), (st, m - sb, 0, sl),
                                         (st, m - sb, n - sr, n)], (st, sb, sl, sr)) if s]
        rects = [_rect(*box, ylines, xlines) for box in boxes]
        if any(r is None for r in rects):
            continue
        tree = _joins(rects)
        if tree is not None:
            return rects, tree
    return None


def in_statement(m: int, n: int, hole: tuple[int, int, int, int]) -> bool:
    """Whether the board is one the theorem's section "Holes of any size" names.

    Margins >= 5, colours balanced, and either (i) hole sides >= 5 and none of the parity
    classes the cut misses (margins a above, b below, l left, r right): (E1) a, b even
    and < 10, l, r odd, h odd, w even, or its transpose; (E2) a, b, l, r odd and < 10,
    h, w even; (E3) a, b, l, r, h, w all odd; or (ii) all four margins even and one hole
    side >= 5 (the other any).

    >>> in_statement(30, 33, (6, 7, 13, 16)), in_statement(15, 15, (5, 5, 5, 5))
    (True, False)
    """
    r0, c0, h, w = hole
    a, b, le, ri = r0, m - r0 - h, c0, n - c0 - w
    if min(a, b, le, ri) < MIN_MARGIN or max(h, w) < 5:
        return False
    if (m * n) % 2 != (h * w) % 2 or ((m * n) % 2 and (r0 + c0) % 2):
        return False
    if min(h, w) < 5:
        return all(x % 2 == 0 for x in (a, b, le, ri))
    odd = [x % 2 == 1 for x in (a, b, le, ri, h, w)]
    small = [x < 2 * MIN_MARGIN for x in (a, b, le, ri)]
    e1 = odd == [False, False, True, True, True, False] and small[0] and small[1]
    e1t = odd == [True, True, False, False, False, True] and small[2] and small[3]
    e2 = odd == [True] * 4 + [False] * 2 and all(small)
    return not (e1 or e1t or e2 or all(odd))


def large_applies(board: Board) -> bool:
    """Whether :func:`large_tour` builds this board (one rectangular hole it covers)."""
    from kt_formal.combine.frame_large import single_hole

    hole = single_hole(board) if board.has_holes else None
    if hole is None:
        return False
    try:
        large_plan(board.rows, board.cols, hole)
    except NotApplicable:
        return False
    return True


def reverse_cycle(succ: np.ndarray, idx: np.ndarray) -> None:
    """Run the cycle on the squares ``idx`` (a whole cycle of ``succ``) the other way."""
    nxt = succ[idx].copy()
    succ[nxt] = idx


def swap_join(succ: np.ndarray, a1: int, a2: int, b1: int, b2: int) -> bool:
    """The 2-move swap: delete a1-a2 and b1-b2, add a1-b1 and a2-b2, if the orientations agree.

    The a-cycle runs a1 -> a2 (or a2 -> a1); the b-cycle must then run b2 -> b1 (or
    b1 -> b2) so the joined cycle keeps one direction. Returns False (nothing changed)
    when they do not: the caller reverses one cycle and swaps again.
    """
    if succ[a1] == a2 and succ[b2] == b1:
        succ[a1], succ[b2] = b1, a2
        return True
    if succ[a2] == a1 and succ[b1] == b2:
        succ[b1], succ[a2] = a1, b2
        return True
    return False


def _swap_in(succ: np.ndarray, ends: tuple[int, int, int, int], new: np.ndarray) -> None:
    """The 2-move swap (a1, a2, b1, b2); ``new`` (a cycle of its own) is reversed if needed."""
    if not swap_join(succ, *ends):
        reverse_cycle(succ, new)
        if not swap_join(succ, *ends):  # pragma: no cover - a port move missing: a bug
            raise RuntimeError(f"frame construction: the join {ends} has no port moves")


def _succ(n: int, rects: list[Rect], tree: list, size: int) -> np.ndarray:
    """Successor array (index row * n + col, -1 on the hole) of the frame's tour in the plan's frame."""
    m = size // n
    dtype = np.int32 if m * n < 2**31 else np.int64
    succ = np.full(m * n, -1, dtype=dtype)
    cells = []
    for p in rects:
        hs, ws = p.rows, p.cols
        s = assemble(list(p.row_parts), list(p.col_parts)).astype(np.int64, copy=False)
        idx = ((np.arange(hs)[:, None] + p.y0) * n + np.arange(ws)[None, :] + p.x0).ravel()
        succ[idx] = ((s // ws + p.y0) * n + s % ws + p.x0).astype(dtype)
        cells.append(idx)
    joined = {0}
    for i, j, kind, line, at in tree:
        if kind == "v":
            ends = ((line - 1, at), (line - 2, at + 2), (line + 1, at + 1), (line, at + 3))
        else:
            ends = ((at, line - 1), (at + 2, line - 2), (at + 1, line + 1), (at + 3, line))
        new = j if i in joined else i
        _swap_in(succ, tuple(r * n + c for r, c in ends), cells[new])
        joined.add(new)
    return succ


def large_tour(board: Board) -> Tour:
    """A closed tour of ``board`` (one rectangular hole of any size, margins >= 5, balanced).

    Raises
    ------
    NotApplicable
        With the reason, when the board is not one the construction covers.
    """
    from kt_formal.combine.frame_large import single_hole

    hole = single_hole(board) if board.has_holes else None
    if hole is None:
        raise NotApplicable("the frame construction is for a board with one rectangular hole")
    m, n = board.rows, board.cols
    sym, rects, tree = large_plan(m, n, hole)
    ensure_memory(estimate_bytes(m, n, 8.0), f"the frame construction on {m}x{n}")
    ms, ns, _ = _sym(m, n, hole, sym)
    succ = _succ(ns, rects, tree, m * n)
    order = follow(succ, 0, board.n_squares) if board.n_squares <= _PYTHON_WALK else walk(succ, 0, board.n_squares)
    del succ
    r, c = np.divmod(order, ns)  # back to the board: undo the flips, then the transposition
    if sym[1]:
        r = ms - 1 - r
    if sym[2]:
        c = ns - 1 - c
    order = c * n + r if sym[0] else r * n + c
    return Tour(board, order, closed=True)
