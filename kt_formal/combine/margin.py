"""The margin-three construction: a closed tour of any board minus a small rectangular hole
standing at least three squares from every edge, when the colours balance.

The board is cut along row and column lines into divide-and-conquer blocks
(:mod:`kt_formal.combine.divide`: sides 5..10, a closed port piece each) and one *hole
piece* (:mod:`kt_formal.combine.margin_pieces`): a certified closed tour of the block
of rows and columns around the hole, holding the same four port moves. The cut lines
around the hole piece are chosen from the margins alone (:func:`margin_plan`); the
blocks left over are joined by divide's spanning tree of 2-move swaps, and the hole
piece is joined by one more swap to one block of each connected part of the rest (two
parts when it spans the board's height or width). Each swap deletes a port move of two
disjoint cycles and adds two knight moves, leaving one cycle: the tour.

Corollaries: open tours of a board minus one square (:func:`margin_open_tour`), and
several holes that horizontal or vertical cuts separate into slabs (:func:`margin_slabs_tour`).

The statement, its proof and the command that checks every piece and every case of
the cut are in ``docs/theorems/margin-three.md`` (``python -m kt_formal.combine.margin_check
--check``).

>>> from kt_formal.board import Board
>>> t = margin_tour(Board.from_spec(30, 41, ["11,17,2x1"]))
>>> t.check() is None, t.closed, len(t)
(True, True, 1228)
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

import numpy as np

from kt_formal.board import Board, ensure_memory
from kt_formal.combine.divide import assemble, split_side
from kt_formal.combine.frame_large import single_hole
from kt_formal.combine.library import load_piece
from kt_formal.combine.margin_band import BAND_THEOREM, LANE_THEOREM
from kt_formal.combine.margin_large import LARGE_THEOREM
from kt_formal.combine.margin_large import reverse_cycle as _reverse_at
from kt_formal.combine.margin_large import swap_join as _swap
from kt_formal.combine.margin_odd import ODD_THEOREM, frame_applies, frame_tour, sheared_only
from kt_formal.combine.margin_pieces import HOLE_SIZES, hole_offsets, hole_piece_spec
from kt_formal.combine.margin_ring import RING_THEOREM, ring_applies, ring_tour
from kt_formal.combine.margin_stretch import STRETCH_THEOREM, stretch_applies, stretch_tour
from kt_formal.combine.margin_thick import THICK_THEOREM, thick_applies, thick_tour
from kt_formal.combine.walk import estimate_bytes, walk
from kt_formal.engines.successors import follow
from kt_formal.exceptions import NotApplicable
from kt_formal.tours import Tour

__all__ = ["THEOREM", "MarginPlan", "theorem_of", "margin_applies", "margin_plan", "margin_tour", "margin_open_applies",
           "margin_open_tour", "margin_slabs", "margin_slabs_tour"]

#: Boards up to this many squares are walked in Python (no compiled kernel to load).
_PYTHON_WALK = 40_000

#: The theorem the construction proves (docs/theorems/margin-three.md).
THEOREM = "margin-three theorem (small holes)"


class MarginPlan(NamedTuple):
    """How a board is cut: all in the (possibly transposed) frame where the rows are the even side.

    ``rows``/``cols`` and the hole ``(r0, c0, h, w)`` are in that frame; ``row_parts`` and
    ``col_parts`` the cut; the hole piece covers parts ``i0 .. i0 + ni - 1`` by
    ``j0 .. j0 + nj - 1``; ``spec`` is its library spec.
    """

    transposed: bool
    rows: int
    cols: int
    row_parts: tuple
    col_parts: tuple
    i0: int
    ni: int
    j0: int
    nj: int
    spec: object


def _parts(length: int, even: bool) -> list[int]:
    """Parts of :data:`PART_SIZES` making ``length`` (0: none); all even when ``even``."""
    if length == 0:
        return []
    if length <= 10 and (length % 2 == 0 or not even):
        return [length]
    return split_side(length, length % 2 == 1)


def _balanced(m: int, n: int, r0: int, c0: int, h: int, w: int) -> bool:
    """Whether the board minus the hole has as many squares of each colour."""
    if (m * n) % 2 == 0:
        return (h * w) % 2 == 0
    return (h * w) % 2 == 1 and (r0 + c0) % 2 == 0


def margin_plan(m: int, n: int, hole: tuple[int, int, int, int]) -> MarginPlan:
    """The cut of the m x n board around ``hole = (row, col, h, w)``.

    Raises
    ------
    NotApplicable
        A margin under 3, colours that do not balance, a hole size without pieces.
    """
    r0, c0, h, w = hole
    if min(r0, c0, m - r0 - h, n - c0 - w) < 3:
        raise NotApplicable(f"the hole {h}x{w} at ({r0}, {c0}) stands less than 3 squares from an edge")
    if not _balanced(m, n, r0, c0, h, w):
        raise NotApplicable("the board minus the hole has unequal colour counts")
    transposed = m % 2 == 1 and n % 2 == 0
    if transposed:
        m, n, r0, c0, h, w = n, m, c0, r0, w, h
    if (h, w) not in HOLE_SIZES:
        raise NotApplicable(f"the margin construction holds pieces for holes {HOLE_SIZES}, not {h}x{w}")
    col_mode = "even" if (h * w) % 2 == 1 else "free"
    t, b = hole_offsets(r0, "even"), hole_offsets(m - r0 - h, "even")
    le, ri = hole_offsets(c0, col_mode), hole_offsets(n - c0 - w, col_mode)
    even_cols = col_mode == "even"
    top, mid, bot = _parts(r0 - t, True), _parts(t + h + b, False), _parts(m - r0 - h - b, True)
    left, cen, right = (_parts(c0 - le, even_cols), _parts(le + w + ri, False),
                        _parts(n - c0 - w - ri, even_cols))
    spec = hole_piece_spec(h, w, t, b, le, ri)
    return MarginPlan(transposed, m, n, tuple(top + mid + bot), tuple(left + cen + right),
                      len(top), len(mid), len(left), len(cen), spec)


@lru_cache(maxsize=None)
def _hole_order(name: str) -> tuple[np.ndarray, int]:
    """Local visiting order (row * cols + col) and width of a library hole piece (verified on load)."""
    piece = load_piece(name)
    return np.asarray(piece.tour.order, dtype=np.int64), piece.spec.cols


def _join_moves(side: str, Y0: int, X0: int, P: int, Q: int, n: int) -> tuple[int, int, int, int]:
    """(a1, a2, b1, b2) of the swap joining the hole piece to its neighbour on ``side``.

    The a-moves belong to the upper (or left) block of the pair, as in divide's joins.
    """
    if side in ("top", "bottom"):
        Y = Y0 if side == "top" else Y0 + P
        a1, a2, b1, b2 = (Y - 1, X0), (Y - 2, X0 + 2), (Y + 1, X0 + 1), (Y, X0 + 3)
    else:
        X = X0 if side == "left" else X0 + Q
        a1, a2, b1, b2 = (Y0, X - 1), (Y0 + 2, X - 2), (Y0 + 1, X + 1), (Y0 + 3, X)
    return tuple(r * n + c for r, c in (a1, a2, b1, b2))


def _rest(plan: MarginPlan) -> list[tuple[str, list, list, int, int]]:
    """The parts of the board outside the hole piece, each with the side the piece joins it by.

    One part (the grid minus the piece) unless the piece spans the full height or width;
    then the rectangles on either side. Returns ``[(side, row_parts, col_parts, y0, x0)]``;
    ``row_parts`` None for the one part holding every band (missing the piece's blocks).
    """
    rp, cp = list(plan.row_parts), list(plan.col_parts)
    i1, j1 = plan.i0 + plan.ni, plan.j0 + plan.nj
    full_rows, full_cols = plan.ni == len(rp), plan.nj == len(cp)
    if full_rows and full_cols:
        return []
    if full_rows or full_cols:
        out = []
        if full_rows:
            if plan.j0:
                out.append(("left", rp, cp[:plan.j0], 0, 0))
            if j1 < len(cp):
                out.append(("right", rp, cp[j1:], 0, sum(cp[:j1])))
        else:
            if plan.i0:
                out.append(("top", rp[:plan.i0], cp, 0, 0))
            if i1 < len(rp):
                out.append(("bottom", rp[i1:], cp, sum(rp[:i1]), 0))
        return out
    side = "top" if plan.i0 else "bottom" if i1 < len(rp) else "left" if plan.j0 else "right"
    return [(side, None, None, 0, 0)]


def _succ(plan: MarginPlan) -> np.ndarray:
    """Successor array of the tour in the plan's frame (index row * cols + col, -1 on the hole)."""
    m, n = plan.rows, plan.cols
    rp, cp = plan.row_parts, plan.col_parts
    Y0, X0 = sum(rp[:plan.i0]), sum(cp[:plan.j0])
    spec = plan.spec
    dtype = np.int32 if m * n < 2**31 else np.int64
    order, q = _hole_order(spec.name)
    g = ((order // q + Y0) * n + order % q + X0).astype(dtype)  # the hole piece in board indices
    parts = _rest(plan)
    if len(parts) == 1 and parts[0][1] is None:
        missing = {(i, j) for i in range(plan.i0, plan.i0 + plan.ni) for j in range(plan.j0, plan.j0 + plan.nj)}
        succ = assemble(list(rp), list(cp), missing).astype(dtype, copy=False)
    else:
        succ = np.full(m * n, -1, dtype=dtype)
    succ[g] = np.roll(g, -1)
    grid = succ.reshape(m, n)
    for k, (side, sub_r, sub_c, y0, x0) in enumerate(parts):
        cycle = g
        if sub_r is not None:  # a rectangle of its own: assembled alone and put in place
            ms, ns = sum(sub_r), sum(sub_c)
            s = assemble(list(sub_r), list(sub_c)).astype(dtype, copy=False)
            grid[y0:y0 + ms, x0:x0 + ns] = ((s // ns + y0) * n + s % ns + x0).reshape(ms, ns)
            if k:
                cycle = ((np.arange(ms)[:, None] + y0) * n + np.arange(ns)[None, :] + x0).ravel()
        a1, a2, b1, b2 = _join_moves(side, Y0, X0, spec.rows, spec.cols, n)
        if not _swap(succ, a1, a2, b1, b2):
            _reverse_at(succ, cycle)  # the hole piece (first join) or this part, run backwards
            if not _swap(succ, a1, a2, b1, b2):  # pragma: no cover - a port move missing: a bug
                raise RuntimeError(f"margin construction: the {side} join of the hole piece has no port moves")
    return succ


def margin_applies(board: Board) -> bool:
    """Whether :func:`margin_tour` builds this board: one hole of a size with pieces, margins >= 3,
    balanced, or one the stretch construction (:mod:`kt_formal.combine.margin_stretch`: margins
    3 or 4 but one), the frame construction (:mod:`kt_formal.combine.margin_large`), the thick
    stretch (:mod:`kt_formal.combine.margin_thick`: two or more margins of 5..8) or the ring
    construction covers (:mod:`kt_formal.combine.margin_ring`: margins 3, 4 or >= 9 but one);
    or several small holes in slabs (:func:`margin_slabs`)."""
    if not board.has_holes:
        return False
    hole = single_hole(board)
    if hole is None:
        return margin_slabs(board) is not None or margin_slabs(board.transformed("transpose")) is not None
    try:
        margin_plan(board.rows, board.cols, hole)
    except NotApplicable:
        return stretch_applies(board) or frame_applies(board) or thick_applies(board) or ring_applies(board)
    return True


def theorem_of(board: Board) -> str:
    """The name of the theorem :func:`margin_tour` builds ``board`` by: small holes, or the
    frame construction's sections (holes of any size at margin five; margins of three)."""
    hole = single_hole(board)
    if hole is not None:
        try:
            margin_plan(board.rows, board.cols, hole)
        except NotApplicable:
            if stretch_applies(board):
                return STRETCH_THEOREM
            if not frame_applies(board):
                if thick_applies(board):
                    return THICK_THEOREM
                return RING_THEOREM if ring_applies(board) else THEOREM
            r0, c0, h, w = hole
            margins = (r0, c0, board.rows - r0 - h, board.cols - c0 - w)
            if sheared_only(board.rows, board.cols, hole):
                return ODD_THEOREM
            if 4 in margins:
                return LANE_THEOREM
            return BAND_THEOREM if min(margins) < 5 else LARGE_THEOREM
    return THEOREM


def margin_tour(board: Board) -> Tour:
    """A closed tour of ``board`` (one small rectangular hole, margins >= 3, colours balanced;
    several holes go to :func:`margin_slabs_tour`).

    Returns
    -------
    Tour
        Starting at (0, 0); not yet verified (callers pass it to the kernel's check).

    Raises
    ------
    NotApplicable
        With the reason, when the board is not one the theorem covers.

    Notes
    -----
    Linear in the board: divide's numpy assembly, one hole piece, at most two swaps, one
    walk (compiled above 40,000 squares). No search: every piece comes from the library, verified on load.
    """
    if not board.has_holes:
        raise NotApplicable("the margin construction is for a board with one hole")
    hole = single_hole(board)
    if hole is None:  # several holes: slabs, if horizontal or vertical cuts separate them
        return margin_slabs_tour(board)
    m, n = board.rows, board.cols
    try:
        plan = margin_plan(m, n, hole)
    except NotApplicable as exc:  # not a small hole: stretching (margins 3 and 4), the frame, the ring
        if stretch_applies(board):
            return stretch_tour(board)
        if frame_applies(board):
            return frame_tour(board)
        if thick_applies(board):
            return thick_tour(board)
        if ring_applies(board):
            return ring_tour(board)
        raise exc
    ensure_memory(estimate_bytes(m, n, 8.0), f"the margin construction on {m}x{n}")
    succ = _succ(plan)
    # small boards: a plain Python walk (no compiled kernel to load); big ones: the compiled walk
    order = follow(succ, 0, board.n_squares) if board.n_squares <= _PYTHON_WALK else walk(succ, 0, board.n_squares)
    del succ
    if plan.transposed:  # the plan's frame is the transposed board: (r, c) there is (c, r) here
        r, c = np.divmod(order, m)
        order = c * n + r
    return Tour(board, order, closed=True)


def _domino_partner(board: Board, r: int, c: int) -> tuple[int, int] | None:
    """A square next to (r, c) (a rook step) that keeps the domino of both at margin >= 3."""
    m, n = board.rows, board.cols
    for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0)):
        r2, c2 = r + dr, c + dc
        if 3 <= min(r, r2) and max(r, r2) <= m - 4 and 3 <= min(c, c2) and max(c, c2) <= n - 4:
            return r2, c2
    return None


def margin_open_applies(board: Board) -> bool:
    """Whether :func:`margin_open_tour` builds this board."""
    if margin_applies(board):
        return True
    if board.n_holes != 1 or (board.rows * board.cols) % 2 == 1:
        return False
    r, c = (int(x) for x in np.argwhere(board.hole_mask)[0])
    return _domino_partner(board, r, c) is not None


def margin_open_tour(board: Board) -> Tour:
    """An open tour of ``board``: one the theorem covers, or the board minus one square at margin >= 3.

    Where a closed tour is built (:func:`margin_tour`), it is cut open. Otherwise, when one
    square s is missing from a board of even area, the construction takes a closed tour C
    of the board minus s and a neighbour s' of s (a domino at margin >= 3, balanced) and
    returns s' followed by C, starting at a knight neighbour of s': an open tour. (With an
    odd area and s of the minority colour, the colours differ by two and no open tour
    exists.)

    Raises
    ------
    NotApplicable
        With the reason, for any other board.

    Examples
    --------
    >>> t = margin_open_tour(Board.from_spec(8, 10, ["3,3,1x1"]))
    >>> t.check() is None, t.closed, len(t)
    (True, False, 79)
    """
    if margin_applies(board):
        return Tour(board, margin_tour(board).order, closed=False)
    if board.n_holes != 1:
        raise NotApplicable("the open construction is for a board minus one square (or a hole of the theorem)")
    m, n = board.rows, board.cols
    r, c = (int(x) for x in np.argwhere(board.hole_mask)[0])
    if (m * n) % 2 == 1:
        raise NotApplicable("an odd board minus a square of the minority colour has no open tour (colour count)")
    partner = _domino_partner(board, r, c)
    if partner is None:
        raise NotApplicable(f"the square ({r}, {c}) stands less than 3 squares from an edge")
    r2, c2 = partner
    domino = (min(r, r2), min(c, c2), abs(r - r2) + 1, abs(c - c2) + 1)
    cycle = margin_tour(Board.from_spec(m, n, [domino])).order
    at = np.flatnonzero(np.isin(cycle, [(r2 + dr) * n + c2 + dc for dr, dc in
                                         ((1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1))]))
    order = np.concatenate([[r2 * n + c2], np.roll(cycle, -int(at[0]))]).astype(cycle.dtype)
    return Tour(board, order, closed=False)


def _hole_rects(board: Board) -> list[tuple[int, int, int, int]] | None:
    """The holes as rectangles, one per run of rows holding holes (top to bottom), or None."""
    mask = board.hole_mask
    rows = np.concatenate([[0], mask.any(axis=1).view(np.int8), [0]])
    edges = np.flatnonzero(np.diff(rows))
    out = []
    for r0, r1 in zip(edges[::2].tolist(), edges[1::2].tolist()):
        sub = Board(r1 - r0, board.cols, holes=mask[r0:r1])
        hole = single_hole(sub)
        if hole is None:
            return None
        out.append((hole[0] + r0, hole[1], hole[2], hole[3]))
    return out


def margin_slabs(board: Board) -> list[int] | None:
    """Rows that cut ``board`` into slabs the theorem covers, one hole each; None if there are none.

    A cut y between two holes leaves each slab a board of its own: the hole at margin >= 3
    from the cut too, and the slab's colours balanced (only the parity of y matters, so
    the first two candidates suffice).
    """
    rects = _hole_rects(board) if board.has_holes else None
    if not rects or len(rects) < 2:
        return None
    n = board.cols

    def fits(top, bottom, rect):
        r0, c0, h, w = rect
        try:
            margin_plan(bottom - top, n, (r0 - top, c0, h, w))
        except NotApplicable:
            return False
        return True

    def solve(k, top):  # cuts for holes k.. given the slab of hole k starts at row top
        if k == len(rects) - 1:
            return [] if fits(top, board.rows, rects[k]) else None
        lo = rects[k][0] + rects[k][2] + 3
        for y in range(lo, min(lo + 2, rects[k + 1][0] - 2)):
            if fits(top, y, rects[k]):
                rest = solve(k + 1, y)
                if rest is not None:
                    return [y, *rest]
        return None

    return solve(0, 0)


def margin_slabs_tour(board: Board) -> Tour:
    """A closed tour of a board with several small holes that horizontal (or vertical) cuts separate into slabs the theorem covers.

    Each slab gets its tour from :func:`margin_tour`; neighbouring slabs are joined at
    column 0 by the 2-move swap of the bottom-left block of the upper slab (its bottom
    port) and the top-left block of the lower one (its top port): both blocks start at
    column 0 and have no neighbour across the cut in their own slab, so both ports are there.
    Where only vertical cuts separate the holes, the same on the transposed board.

    Raises
    ------
    NotApplicable
        When no such cuts exist.

    Examples
    --------
    >>> t = margin_slabs_tour(Board.from_spec(24, 13, ["4,5,2x2", "15,3,1x2"]))
    >>> t.check() is None, t.closed, len(t)
    (True, True, 306)
    """
    cuts = margin_slabs(board)
    if cuts is None:
        across = board.transformed("transpose")
        if margin_slabs(across) is None:
            raise NotApplicable("the holes are not small rectangles that horizontal or vertical cuts separate "
                                "into slabs at margin >= 3")
        # vertical cuts: the slabs of the transposed board, whose square (c, r) is (r, c) here
        c, r = np.divmod(margin_slabs_tour(across).order, board.rows)
        return Tour(board, r * board.cols + c, closed=True)
    m, n = board.rows, board.cols
    ensure_memory(estimate_bytes(m, n, 8.0), f"the margin construction on {m}x{n}")
    rects = _hole_rects(board)
    bounds = [0, *cuts, m]
    succ = np.full(m * n, -1, dtype=np.int32 if m * n < 2**31 else np.int64)
    for k, (r0, c0, h, w) in enumerate(rects):
        top, bottom = bounds[k], bounds[k + 1]
        order = margin_tour(Board.from_spec(bottom - top, n, [(r0 - top, c0, h, w)])).order + top * n
        order = order.astype(succ.dtype)
        succ[order] = np.roll(order, -1)
        if k:
            y = top
            a1, a2, b1, b2 = (y - 1) * n, (y - 2) * n + 2, (y + 1) * n + 1, y * n + 3
            if not _swap(succ, a1, a2, b1, b2):
                _reverse_at(succ, order)  # this slab's cycle, run backwards
                if not _swap(succ, a1, a2, b1, b2):  # pragma: no cover - a port move missing: a bug
                    raise RuntimeError(f"margin construction: the join of slabs at row {y} has no port moves")
    order = walk(succ, 0, board.n_squares) if board.n_squares > _PYTHON_WALK else follow(succ, 0, board.n_squares)
    return Tour(board, order, closed=True)

