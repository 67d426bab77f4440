"""Frames for large boards: a tour of a big rectangle with one rectangular hole (or slabs of holes), assembled from bands of element tours around it, joined by single moves."""

from __future__ import annotations

import numpy as np
from kt_formal.board import Board, ensure_memory
from kt_formal.exceptions import NotApplicable
from kt_formal.tours import Tour
from kt_formal.combine.frame import place_path, band_path

__all__ = ["single_hole", "the_hole", "frame_tour"]


def single_hole(board: Board) -> tuple[int, int, int, int] | None:
    """(row, col, height, width) if the board's holes form exactly one rectangle, else None."""
    if not board.has_holes:
        return None
    mask = board.hole_mask
    rows = np.flatnonzero(mask.any(axis=1))
    cols = np.flatnonzero(mask.any(axis=0))
    r0, r1, c0, c1 = int(rows[0]), int(rows[-1]) + 1, int(cols[0]), int(cols[-1]) + 1
    if (r1 - r0) * (c1 - c0) != board.n_holes:
        return None
    return r0, c0, r1 - r0, c1 - c0


def the_hole(board: Board, construction: str) -> tuple[int, int, int, int]:
    """:func:`single_hole`, or NotApplicable naming ``construction`` when there is no one hole."""
    hole = single_hole(board)
    if hole is None:
        raise NotApplicable(f"the {construction} is for a board with one rectangular hole")
    return hole


def _frame_rows(R: int, C: int, hole) -> np.ndarray:
    """Frame order as (k, 2) squares: full-width top and bottom bands, sides beside the hole."""
    r0, c0, h, w = hole
    bot, right = R - r0 - h, C - c0 - w
    top = place_path(band_path(r0, C), r0, C, "rot180", 0, 0)
    left = place_path(band_path(c0, h), c0, h, "transpose", r0, 0)
    bottom = band_path(bot, C) + np.array([r0 + h, 0])
    right_sq = place_path(band_path(right, h), right, h, "antitranspose", r0, c0 + w)
    return np.concatenate([left, bottom, right_sq, top])


def _one_hole_order(R: int, C: int, hole) -> np.ndarray:
    """Cycle (indices r * C + c) of R x C minus one hole: the frame, else the transposed frame."""
    r0, c0, h, w = hole
    if min(r0, c0, R - r0 - h, C - c0 - w) < 3:
        raise NotApplicable(f"the hole {h}x{w} at ({r0}, {c0}) leaves a margin under 3 squares")
    try:
        order = _frame_rows(R, C, hole)
    except NotApplicable as first:
        try:
            order = _frame_rows(C, R, (c0, r0, w, h))[:, ::-1]
        except NotApplicable as second:
            raise NotApplicable(f"{first}; transposed: {second}") from None
    return order[:, 0] * C + order[:, 1]


_KNIGHT = np.array([(-2, -1), (-1, -2), (1, -2), (2, -1), (2, 1), (1, 2), (-1, 2), (-2, 1)])


def _join(a: np.ndarray, b: np.ndarray, y: int, C: int) -> np.ndarray:
    """Join cycle ``a`` (rows < y) and cycle ``b`` (rows >= y) into one by a 2-move swap.

    Finds a move p-q of ``a`` and a move s-t of ``b`` with p-s and q-t knight moves, deletes
    the two and adds the other two (the move-swap of the reference; any such pair joins
    two disjoint cycles into one).
    """
    nb = len(b)
    rb = b // C
    bj = np.flatnonzero((rb <= y + 1) & (np.roll(rb, -1) <= y + 1))
    edges = {}
    for j in bj.tolist():
        u, v = int(b[j]), int(b[(j + 1) % nb])
        edges[(u, v)] = (j, True)
        edges[(v, u)] = (j, False)
    ra = a // C
    na = len(a)
    ai = np.flatnonzero((ra >= y - 2) & (np.roll(ra, -1) >= y - 2))
    for i in ai.tolist():
        p, q = int(a[i]), int(a[(i + 1) % na])
        pr, pc = divmod(p, C)
        qr, qc = divmod(q, C)
        ns = [(pr + dr) * C + pc + dc for dr, dc in _KNIGHT.tolist()
              if pr + dr >= y and 0 <= pc + dc < C]
        nt = [(qr + dr) * C + qc + dc for dr, dc in _KNIGHT.tolist()
              if qr + dr >= y and 0 <= qc + dc < C]
        for s_ in ns:
            for t in nt:
                hit = edges.get((s_, t))
                if hit is None:
                    continue
                j, forward = hit  # b[j] = s_, b[j+1] = t when forward
                path_a = np.roll(a, -(i + 1))  # q ... p
                path_b = np.roll(b, -(j + 1))  # forward: t ... s_; else s_ ... t
                if forward:
                    path_b = path_b[::-1]      # s_ ... t
                return np.concatenate([path_a, path_b])  # q..p, s_..t, back to q
    raise NotApplicable(f"no pair of moves joins the cycles across row {y}")


def _hole_runs(mask: np.ndarray):
    """Holes separable by horizontal cuts: [(r0, c0, h, w)] top to bottom, or None."""
    rows_any = mask.any(axis=1)
    edges = np.flatnonzero(np.diff(np.concatenate([[0], rows_any.view(np.int8), [0]])))
    rects = []
    for r0, r1 in zip(edges[::2].tolist(), edges[1::2].tolist()):
        sub = mask[r0:r1]
        cols = np.flatnonzero(sub.any(axis=0))
        c0, c1 = int(cols[0]), int(cols[-1]) + 1
        if not sub[:, c0:c1].all() or int(sub.sum()) != (r1 - r0) * (c1 - c0):
            return None
        rects.append((r0, c0, r1 - r0, c1 - c0))
    return rects


def _slabs_order(mask: np.ndarray) -> np.ndarray:
    """Several holes, one per horizontal slab: a frame per slab, the cycles joined."""
    R, C = mask.shape
    rects = _hole_runs(mask)
    if rects is None:
        raise NotApplicable("the holes are not rectangles that horizontal cuts can separate")
    cycle, top = None, 0
    for k, (r0, c0, h, w) in enumerate(rects):
        if k + 1 < len(rects):
            lo, hi = r0 + h + 3, rects[k + 1][0] - 3
            mid = (lo + hi) // 2
            cuts = sorted(range(lo, hi + 1), key=lambda y: abs(y - mid))[:8]
            if not cuts:
                raise NotApplicable(f"holes {k + 1} and {k + 2} are fewer than 6 rows apart")
        else:
            cuts = [R]
        last = None
        for y in cuts:
            try:
                part = _one_hole_order(y - top, C, (r0 - top, c0, h, w)) + top * C
                break
            except NotApplicable as exc:
                last = exc
        else:
            raise NotApplicable(f"slab {k + 1} (rows {top}..): {last}")
        cycle = part if cycle is None else _join(cycle, part, top, C)
        top = y
    return cycle


def frame_tour(board: Board) -> Tour:
    """A closed tour of a board minus rectangular holes, by the generalised frame.

    One hole: the top band (rows above the hole, full width), the left and right sides
    (beside the hole) and the bottom band are bands (:func:`band_path`) placed as in the
    rotation model: top rotated 180 degrees, left transposed, right anti-transposed. When
    the colour count rules out a band, the same frame is tried on the transposed board
    (full-height side bands instead). Several holes that horizontal (or, failing that,
    vertical) cuts separate: one frame per slab, neighbouring cycles joined by a 2-move
    swap across the cut.

    Raises
    ------
    NotApplicable
        With the reason: holes no cut separates, a margin under 3 squares, a band the
        pieces cannot make. The returned tour is not yet verified: callers check it.

    Examples
    --------
    >>> t = frame_tour(Board.from_spec(60, 70, ["10,20,25x30"]))
    >>> t.check() is None, t.start
    (True, (0, 0))
    """
    if not board.has_holes:
        raise NotApplicable("the frame construction is for boards with holes")
    R, C = board.rows, board.cols
    ensure_memory(64.0 * R * C, f"the frame construction on {R}x{C}")
    hole = single_hole(board)
    if hole is not None:
        idx = _one_hole_order(R, C, hole)
    else:
        mask = board.hole_mask
        try:
            idx = _slabs_order(mask)
        except NotApplicable as first:
            try:
                t_idx = _slabs_order(np.ascontiguousarray(mask.T))
            except NotApplicable as second:
                raise NotApplicable(f"{first}; transposed: {second}") from None
            r, c = np.divmod(t_idx, R)
            idx = c * C + r
    i = int(np.argmin(idx))
    return Tour(board, np.roll(idx, -i), closed=True)
