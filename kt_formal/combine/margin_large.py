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

Pieces: divide's 36 port pieces and, when the first pass finds no cut, the 108 *shift
pieces* of :mod:`kt_formal.combine.margin_pieces` (a port moved one square along its
side), so that two rectangles can also be joined where their blocks start one square
apart; each is verified on load. A margin of 3 is one closed 3 x W strip
(:mod:`kt_formal.combine.margin_band`), a margin of 4 one open 4 x W lane inserted into
the cycle below its left end (:mod:`kt_formal.combine.margin_lanes`). When no cut exists
and the side bands have odd area (class E1), the sheared frame builds the board
(:func:`kt_formal.combine.margin_odd.frame_tour` tries this construction, then that one). The statements and
the case analyses are in ``docs/theorems/margin-three.md`` (sections "Holes of any
size", "Shift pieces", "Margins of three" and "Margins of four").

>>> from kt_formal.board import Board
>>> t = large_tour(Board.from_spec(30, 33, ["6,7,13x16"]))
>>> t.check() is None, t.closed, len(t)
(True, True, 782)
"""

from __future__ import annotations

import itertools
from functools import lru_cache
from typing import NamedTuple

import numpy as np

from kt_formal.board import Board, ensure_memory
from kt_formal.combine.divide import assemble, split_side
from kt_formal.combine.library import load_piece
from kt_formal.combine.margin_lanes import LANE, LANE_MIN, lane_local
from kt_formal.combine.walk import estimate_bytes, walk
from kt_formal.engines.successors import follow
from kt_formal.exceptions import InvalidInput, NotApplicable
from kt_formal.tours import Tour

__all__ = ["LARGE_THEOREM", "MIN_MARGIN", "SYMMETRIES", "Rect", "in_statement", "large_plan", "large_applies",
           "large_tour", "oriented_tour", "reverse_cycle", "swap_ends", "swap_in", "swap_join",
           "transform_case"]

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
    special: tuple | None = None  # (band, column part, side): the block holding a shift piece

    @property
    def rows(self) -> int:
        return sum(self.row_parts)

    @property
    def cols(self) -> int:
        return sum(self.col_parts)


@lru_cache(maxsize=1 << 16)
def _chunks(lines: tuple[int, ...], start: int, end: int, even: bool) -> tuple[list[int], frozenset] | None:
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


@lru_cache(maxsize=1 << 16)
def _rect(y0, y1, x0, x1, ylines: tuple, xlines: tuple) -> Rect | None:
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


def _candidates(rects: list[Rect], shifted: bool) -> list[tuple]:
    """Possible joins ``(i, j, kind, line, at, shift)``: rectangle i above (left of) j.

    ``shift`` is None for divide's swap at a common cut point ``at``; with ``shifted``,
    also cut points one apart: ``("a", x)`` when i's block starts at x and j's at x + 1
    (i's block takes a shift piece), ``("b", x)`` when j's block starts at x = at - 1
    (j's block takes one). The swap's squares are divide's at ``at`` in every case.
    """
    cand, near = [], []
    for i, p in enumerate(rects):
        for j, q in enumerate(rects):
            if "lane" in (_tag(p), _tag(q)):  # a lane joins once: the block below its left end
                if _tag(p) == "lane" and _tag(q) is None and p.y0 + p.rows == q.y0 and p.x0 in q.col_cuts:
                    cand.append((i, j, "w", q.y0, p.x0, None))
                continue
            for kind, touch, mine, theirs, line in (
                    ("v", p.y0 + p.rows == q.y0, p.col_cuts, q.col_cuts, q.y0),
                    ("h", p.x0 + p.cols == q.x0, p.row_cuts, q.row_cuts, q.x0)):
                if not touch or q.special in (("strip", kind),):  # a strip has no left (top) port
                    continue
                cand += [(i, j, kind, line, x, None) for x in sorted(mine & theirs)]
                if shifted:
                    near += [(i, j, kind, line, x + 1, ("a", x)) for x in sorted(mine) if x + 1 in theirs]
                    near += [(i, j, kind, line, x, ("b", x - 1)) for x in sorted(mine) if x - 1 in theirs]
    return cand + near


def _tag(r: Rect) -> str | None:
    """``"strip"`` or ``"lane"`` for a rectangle that is one, else None."""
    return r.special[0] if r.special is not None and r.special[0] in ("strip", "lane") else None


def _joins(rects: list[Rect], shifted: bool = False) -> list[tuple] | None:
    """A spanning tree of swaps ``[(i, j, kind, line, at, shift)]`` (:func:`_candidates`), or None.

    Each block side takes at most one join, and each rectangle at most one shift piece.
    """
    cand = _candidates(rects, shifted)
    seen, tree, used = {0}, [], set()
    special = {k for k, r in enumerate(rects) if r.special is not None}  # a strip takes none
    grew = True
    while grew and len(seen) < len(rects):
        grew = False
        for i, j, kind, line, at, shift in cand:
            start_i = at if shift is None or shift[0] == "b" else shift[1]
            start_j = at if shift is None or shift[0] == "a" else shift[1]
            key = "v" if kind == "w" else kind  # a lane's join uses the top port below it
            keys = {(i, key, start_i, "a"), (j, key, start_j, "b")}
            owner = None if shift is None else (i if shift[0] == "a" else j)
            if (i in seen) == (j in seen) or keys & used or owner in special:
                continue
            used |= keys
            if owner is not None:
                special.add(owner)
            tree.append((i, j, kind, line, at, shift))
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


def transform_case(m: int, n: int, hole: tuple, sym: tuple[bool, bool, bool]) -> tuple[int, int, tuple]:
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


def large_plan(m: int, n: int, hole: tuple[int, int, int, int], shift: bool = True) -> tuple[tuple, list[Rect], list]:
    """The frame's cut around ``hole = (row, col, h, w)``: ``(sym, rects, tree)``.

    ``rects`` and the joins ``tree`` are in the frame of the board seen under ``sym``
    (:data:`SYMMETRIES`): the first symmetry under which a cut with a spanning tree of
    joins exists.

    Raises
    ------
    NotApplicable
        A margin under 3, unbalanced colours, or a case the cut misses.
    """
    r0, c0, h, w = hole
    margins = sorted((r0, c0, m - r0 - h, n - c0 - w))
    if margins[0] < 3:
        raise NotApplicable("the frame construction needs margins of at least 3")
    if (m * n) % 2 != ((h * w) % 2) or ((m * n) % 2 and (r0 + c0) % 2):
        raise NotApplicable("the board minus the hole has unequal colour counts")
    strips = margins[0] < MIN_MARGIN  # margins of 3: closed 3 x W strips; of 4: open 4 x W lanes
    for shifted in (False, True) if shift else (False,):
        for sym in SYMMETRIES:
            found = _plan_frame(*transform_case(m, n, hole, sym), shifted=shifted, strips=strips)
            if found is not None:
                return (sym, *found)
    raise NotApplicable("the frame construction has no cut for this case (see docs/theorems/margin-three.md)")


def _near(lines: tuple[int, ...]) -> tuple[int, ...]:
    """The frame's lines and the lines one square either side of them (the shift pass)."""
    return tuple(sorted({y + d for y in lines for d in (0, -1, 1)}))


def _strip_rect(y0: int, y1: int, x0: int, x1: int) -> Rect | None:
    """The band [y0, y1) x [x0, x1) of a margin of 3 as one closed strip (3 x W, W even >= 10), or None.

    A strip offers cut point 0 only, and divide's ports there (top, bottom and right of a
    3-row strip; left, right and bottom of a 3-column one): the squares (1, 1) and the
    corners of a 3-row board have exactly two knight moves, so every closed tour holds them.
    """
    H, W = y1 - y0, x1 - x0
    if H == 3 and W % 2 == 0 and W >= 10:
        kind = "h"
    elif W == 3 and H % 2 == 0 and H >= 10:
        kind = "v"
    else:
        return None
    return Rect(y0, x0, (H,), (W,), frozenset({y0}), frozenset({x0}), special=("strip", kind))


def _lane_rect(y0: int, y1: int, x0: int, x1: int) -> Rect | None:
    """The band [y0, y1) x [x0, x1) of a top margin of 4 as one lane (4 x W, W >= 8), or None.

    Its only cut point is its first row and column; it joins only the rectangle below its
    left end, through the lane's ends (3, 0), (3, 1) (:func:`~kt_formal.combine.margin_lanes.lane_local`).
    """
    if y1 - y0 != LANE or x1 - x0 < LANE_MIN:
        return None
    return Rect(y0, x0, (LANE,), (x1 - x0,), frozenset({y0}), frozenset({x0}), special=("lane", "h"))


def _plan_frame(m: int, n: int, hole: tuple[int, int, int, int], shifted: bool = False, strips: bool = False):
    """Rectangles and the tree of joins in this orientation, or None.

    The first pass (``shifted`` False) cuts at the frame's lines and joins at common cut
    points only. The second keeps no slabs, may cut one square either side of a line, and
    joins cut points one apart through a shift piece (:func:`_candidates`). With
    ``strips``, the band of each margin of 3 is a closed strip (:func:`_strip_rect`).
    """
    r0, c0, h, w = hole
    y1, x1 = r0 + h, c0 + w
    for (st, sb, sl, sr), (tl, tr, bl, br) in _frames(m, n, r0, c0, h, w):
        if shifted and st + sb + sl + sr:
            continue
        Y0, Y1, X0, X1 = st, m - sb, sl, n - sr  # the frame inside the slabs
        ylines, xlines = (Y0, r0, y1, Y1), (X0, c0, x1, X1)
        if shifted:
            ylines, xlines = _near(ylines), _near(xlines)
        boxes = [(Y0, r0, X0 if tl else c0, X1 if tr else x1),   # top band (with its corners)
                 (y1, Y1, X0 if bl else c0, X1 if br else x1),   # bottom band
                 (r0 if tl else Y0, y1 if bl else Y1, X0, c0),   # left band
                 (r0 if tr else Y0, y1 if br else Y1, x1, X1)]   # right band
        boxes += [box for box, s in zip([(0, st, 0, n), (m - sb, m, 0, n), (st, m - sb, 0, sl),
                                         (st, m - sb, n - sr, n)], (st, sb, sl, sr)) if s]
        thin = {k for k, margin in enumerate((r0, m - y1, c0, n - x1)) if strips and margin == 3}
        rects = [_strip_rect(*box) if k in thin else _rect(*box, ylines, xlines) for k, box in enumerate(boxes)]
        if strips and r0 == LANE:  # a top margin of 4: the top band is an open lane (margin_lanes)
            rects[0] = _lane_rect(*boxes[0])
        if any(r is None for r in rects):
            continue
        tree = _joins(rects, shifted)
        if tree is not None:
            return _mark_special(rects, tree), tree
    return None


def _mark_special(rects: list[Rect], tree: list) -> list[Rect]:
    """The rectangles with ``special`` set for the blocks the tree gives a shift piece."""
    out = list(rects)
    for i, j, kind, _line, _at, shift in tree:
        if shift is None:
            continue
        k = i if shift[0] == "a" else j
        p = out[k]
        rs = list(itertools.accumulate(p.row_parts, initial=p.y0))
        cs = list(itertools.accumulate(p.col_parts, initial=p.x0))
        if kind == "v":  # the block's bottom (a) or top (b) side, at column shift[1]
            blk = (len(p.row_parts) - 1 if shift[0] == "a" else 0, cs.index(shift[1]))
            side = "bottom" if shift[0] == "a" else "top"
        else:
            blk = (rs.index(shift[1]), len(p.col_parts) - 1 if shift[0] == "a" else 0)
            side = "right" if shift[0] == "a" else "left"
        out[k] = p._replace(special=(*blk, side))
    return out


def in_statement(m: int, n: int, hole: tuple[int, int, int, int]) -> bool:
    """Whether the board is one the theorem's section "Holes of any size" names.

    Margins >= 5 (a above, b below, l left, r right), colours balanced, the hole not
    within 3 x 3, and one of

    * (i) h, w >= 5, and not one of the two boards with every margin 5 and a hole of
      5 x 5 or 6 x 6 (15 x 15 and 16 x 16: centred ringboards, which the ringboard
      theorem settles); the class E1 (a, b even and < 10, l, r odd, h odd, w even, or
      the transpose) is built by the sheared frame (:mod:`kt_formal.combine.margin_odd`);
    * (ii) h <= 4 < w: exactly one of a, b odd, or a, b even and l, r not both odd;
      or the transpose (w <= 4 < h);
    * (iii) h, w <= 4: at most one margin odd.

    >>> in_statement(30, 33, (6, 7, 13, 16)), in_statement(15, 15, (5, 5, 5, 5))
    (True, False)
    """
    r0, c0, h, w = hole
    a, b, le, ri = r0, m - r0 - h, c0, n - c0 - w
    if min(a, b, le, ri) < MIN_MARGIN or max(h, w) <= 3:
        return False
    if (m * n) % 2 != (h * w) % 2 or ((m * n) % 2 and (r0 + c0) % 2):
        return False
    odd = [x % 2 == 1 for x in (a, b, le, ri, h, w)]
    if max(h, w) <= 4:
        return sum(odd[:4]) <= 1
    if min(h, w) <= 4:
        if w <= 4:  # the transpose: the thin side across the rows
            odd = [odd[2], odd[3], odd[0], odd[1]]
        return odd[0] != odd[1] or not (odd[0] or (odd[2] and odd[3]))
    return not ((a, b, le, ri) == (5, 5, 5, 5) and h == w and h in (5, 6))


def large_applies(board: Board) -> bool:
    """Whether :func:`large_tour` builds this board (one rectangular hole it covers)."""
    from kt_formal.combine.frame_large import single_hole

    hole = single_hole(board)
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


def swap_in(succ: np.ndarray, ends: tuple[int, int, int, int], new: np.ndarray) -> None:
    """The 2-move swap (a1, a2, b1, b2); ``new`` (a cycle of its own) is reversed if needed."""
    if not swap_join(succ, *ends):
        reverse_cycle(succ, new)
        if not swap_join(succ, *ends):  # pragma: no cover - a port move missing: a bug
            raise RuntimeError(f"frame construction: the join {ends} has no port moves")


def swap_ends(kind: str, line: int, at: int, n: int) -> tuple[int, int, int, int]:
    """Divide's swap across ``line`` at ``at`` as indices (a1, a2, b1, b2), ``n`` columns."""
    if kind == "v":
        ends = ((line - 1, at), (line - 2, at + 2), (line + 1, at + 1), (line, at + 3))
    elif kind == "w":  # a lane's ends (line-1, at), (line-1, at+1) instead of a port move
        ends = ((line - 1, at), (line - 1, at + 1), (line + 1, at + 1), (line, at + 3))
    else:
        ends = ((at, line - 1), (at + 2, line - 2), (at + 1, line + 1), (at + 3, line))
    return tuple(r * n + c for r, c in ends)


def _special_local(p: Rect) -> np.ndarray:
    """Local successors (index row * cols + col) of a rectangle with one shift piece.

    The shift block is left out of divide's assembly (``missing``) and placed alone; it
    keeps divide's ports on its other sides, so it is joined by divide's swap to one
    neighbouring block of each part of the rest: one part, unless the blocks form a
    single row or column and the shift block is not at its end (then two).
    """
    i, j, side = p.special
    rp, cp = list(p.row_parts), list(p.col_parts)
    rs, cs = [0, *itertools.accumulate(rp)], [0, *itertools.accumulate(cp)]
    H, W = rs[-1], cs[-1]
    succ = np.full(H * W, -1, dtype=np.int64)
    h, w = rp[i], cp[j]
    order = np.asarray(load_piece(f"margin-shift-{side}-{h}x{w}").tour.order, dtype=np.int64)
    cell = (order // w + rs[i]) * W + order % w + cs[j]
    succ[cell] = np.roll(cell, -1)
    parts = []  # (band range, column range, missing) of each part of the rest
    if len(rp) == 1 and 0 < j < len(cp) - 1:
        parts = [((0, 1), (0, j), ()), ((0, 1), (j + 1, len(cp)), ())]
    elif len(cp) == 1 and 0 < i < len(rp) - 1:
        parts = [((0, i), (0, 1), ()), ((i + 1, len(rp)), (0, 1), ())]
    elif len(rp) * len(cp) > 1:
        parts = [((0, len(rp)), (0, len(cp)), ((i, j),))]
    for (b0, b1), (k0, k1), missing in parts:
        sub = assemble(rp[b0:b1], cp[k0:k1], {(a - b0, c - k0) for a, c in missing}).astype(np.int64)
        sw = cs[k1] - cs[k0]
        idx = ((np.arange(rs[b1] - rs[b0])[:, None] + rs[b0]) * W + np.arange(sw)[None, :] + cs[k0]).ravel()
        keep = sub >= 0
        succ[idx[keep]] = (sub[keep] // sw + rs[b0]) * W + sub[keep] % sw + cs[k0]
        for (a, c), ends in (((i - 1, j), swap_ends("v", rs[i], cs[j], W)),
                             ((i + 1, j), swap_ends("v", rs[i + 1] if i + 1 < len(rs) else 0, cs[j], W)),
                             ((i, j - 1), swap_ends("h", cs[j], rs[i], W)),
                             ((i, j + 1), swap_ends("h", cs[j + 1] if j + 1 < len(cs) else 0, rs[i], W))):
            if b0 <= a < b1 and k0 <= c < k1 and (a, c) not in missing:
                break
        else:  # pragma: no cover - every part touches the shift block
            raise RuntimeError("frame construction: a part of a rectangle misses its shift block")
        swap_in(succ, ends, idx[keep])
    return succ


def _strip_local(p: Rect) -> np.ndarray:
    """Local successors (index row * cols + col) of the closed strip ``p`` (3 x W, or W x 3)."""
    from kt_formal.combine.strips import strip_construct

    long = max(p.rows, p.cols)
    tour = strip_construct(3, long, closed=True)
    if tour is None:  # pragma: no cover - the plan asks only for even lengths >= 10
        raise RuntimeError(f"no closed 3 x {long} strip")
    order = np.asarray(tour.order, dtype=np.int64)
    if p.special[1] == "v":  # the transpose: (r, c) of 3 x long is (c, r) of long x 3
        r, c = np.divmod(order, long)
        order = c * 3 + r
    succ = np.empty(3 * long, dtype=np.int64)
    succ[order] = np.roll(order, -1)
    return succ


def _succ(n: int, rects: list[Rect], tree: list, size: int) -> np.ndarray:
    """Successor array (index row * n + col, -1 on the hole) of the frame's tour in the plan's frame."""
    m = size // n
    dtype = np.int32 if m * n < 2**31 else np.int64
    succ = np.full(m * n, -1, dtype=dtype)
    cells = []
    for p in rects:
        hs, ws = p.rows, p.cols
        if p.special is None:
            s = assemble(list(p.row_parts), list(p.col_parts)).astype(np.int64, copy=False)
        elif p.special[0] == "strip":
            s = _strip_local(p)
        elif p.special[0] == "lane":
            s = lane_local(p.cols)
        else:
            s = _special_local(p)
        idx = ((np.arange(hs)[:, None] + p.y0) * n + np.arange(ws)[None, :] + p.x0).ravel()
        succ[idx] = ((s // ws + p.y0) * n + s % ws + p.x0).astype(dtype)
        cells.append(idx)
    joined = {0}
    for i, j, kind, line, at, _shift in tree:
        new = j if i in joined else i
        swap_in(succ, swap_ends(kind, line, at, n), cells[new])
        joined.add(new)
    return succ


def large_tour(board: Board) -> Tour:
    """A closed tour of ``board`` (one rectangular hole of any size, margins >= 5, balanced).

    Raises
    ------
    NotApplicable
        With the reason, when the board is not one the construction covers.
    """
    from kt_formal.combine.frame_large import the_hole

    hole = the_hole(board, "frame construction")
    m, n = board.rows, board.cols
    sym, rects, tree = large_plan(m, n, hole)
    ensure_memory(estimate_bytes(m, n, 8.0), f"the frame construction on {m}x{n}")
    ms, ns, _ = transform_case(m, n, hole, sym)
    return oriented_tour(board, _succ(ns, rects, tree, m * n), ms, ns, sym)


def oriented_tour(board: Board, succ: np.ndarray, ms: int, ns: int, sym: tuple) -> Tour:
    """The closed tour of ``board`` that ``succ`` (successors on the ms x ns board seen under
    ``sym``, :func:`transform_case`) walks from square 0, mapped back to the board."""
    n = board.cols
    order = follow(succ, 0, board.n_squares) if board.n_squares <= _PYTHON_WALK else walk(succ, 0, board.n_squares)
    del succ
    r, c = np.divmod(order, ns)  # back to the board: undo the flips, then the transposition
    if sym[1]:
        r = ms - 1 - r
    if sym[2]:
        c = ns - 1 - c
    order = c * n + r if sym[0] else r * n + c
    return Tour(board, order, closed=True)
