"""The block construction's layout: the board cut into cells of library sizes, their colour
balance and owners, groups of cells (union-find), the cells' neighbourhoods and routes, and a
group's squares as a small board (:mod:`~kt_formal.combine.blocks_groups` solves it).

>>> cut_parts(20, {})
[10, 10]
"""

from __future__ import annotations

from collections import deque
import numpy as np
from kt_formal.board import Board
from kt_formal.combine.divide import PART_SIZES
from kt_formal.exceptions import InvalidInput
import os

__all__ = ["BlocksNotApplicable", "cut_parts", "DEBUG", "MOVES", "Layout", "DisjointSets", "adjacent_member",
           "cell_path", "group_mask", "low_degree_cells", "neighbour_cells", "nearest_route"]


#: the eight knight moves (row change, column change), in the order the layout and the groups'
#: circuit models take them
MOVES = np.array([(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)])


#: print the blocks construction's steps (environment variable KT_BLOCKS_DEBUG)
DEBUG = bool(os.environ.get("KT_BLOCKS_DEBUG"))


class BlocksNotApplicable(Exception):
    """The block construction found no tour for this board (the message says why)."""


def cut_parts(length: int, wanted, sizes=PART_SIZES) -> list[int]:
    """Cut a side into parts in ``sizes``, putting cut lines on ``wanted`` positions where possible.

    Dynamic programming over the positions 0..length: a cut on a wanted position scores
    its weight. Odd parts come in adjacent pairs (where an odd row pair meets an odd
    column pair, the four odd x odd cells have alternating colour excesses and pair up
    next to each other), plus one unpaired odd part when ``length`` is odd.

    Parameters
    ----------
    length : int
        At least ``min(sizes)``.
    wanted : dict or iterable
        Positions (0 < p < length) where a cut is welcome, with weights if a dict.

    >>> cut_parts(26, {})
    [6, 10, 10]
    >>> cut_parts(30, {8: 5, 20: 5})
    [8, 6, 6, 10]
    """
    if length < min(sizes):
        raise InvalidInput(f"a side of {length} cannot be cut into parts of {min(sizes)}..{max(sizes)}")
    w = np.zeros(length + 1)
    if isinstance(wanted, dict):
        for p, x in wanted.items():
            if 0 < p < length:
                w[p] += x
    else:
        for p in wanted:
            if 0 < p < length:
                w[p] += 1
    # state: (an odd part waits for its partner, the one unpaired odd part is used)
    NEG = -1e18
    single = length % 2
    best = np.full((length + 1, 2, 2), NEG)
    back = np.zeros((length + 1, 2, 2, 3), dtype=np.int64)
    best[0, 0, 0] = 0.0
    order = sorted(sizes, key=lambda s: (s % 2, -s))  # ties: even, then large parts
    for p in range(1, length + 1):
        gain = w[p] - 1.0
        for s in order:
            if s > p:
                continue
            q = p - s
            for po in (0, 1):
                for su in (0, 1):
                    v0 = best[q, po, su]
                    if v0 <= NEG:
                        continue
                    if s % 2 == 0:
                        nxt = [] if po else [(0, su)]
                    else:
                        nxt = [(1 - po, su)]
                        if po == 0 and su == 0 and single:
                            nxt.append((0, 1))
                    for npo, nsu in nxt:
                        v = v0 + gain - (0.3 if s % 2 else 0.0)
                        if v > best[p, npo, nsu] + 1e-9:
                            best[p, npo, nsu] = v
                            back[p, npo, nsu] = (s, po, su)
    if best[length, 0, single] <= NEG:
        raise InvalidInput(f"a side of {length} cannot be cut into parts of {sorted(sizes)}")
    parts = []
    p, po, su = length, 0, single
    while p > 0:
        s, po2, su2 = (int(x) for x in back[p, po, su])
        parts.append(s)
        p, po, su = p - s, po2, su2
    return parts[::-1]


def _wanted(mask: np.ndarray, axis: int) -> dict:
    """Positions where the hole pattern changes between consecutive rows (axis 0) / columns."""
    m = mask if axis == 0 else mask.T
    d = m[1:] != m[:-1]
    run = (d[:, :-2] & d[:, 1:-1] & d[:, 2:]).sum(axis=1)  # edges at least 3 squares long
    return {int(i) + 1: float(run[i]) for i in np.flatnonzero(run)}


class DisjointSets:
    """Union-find over ``0..n-1`` (path halving): :meth:`find` a set's root, :meth:`union` two sets."""

    def __init__(self, n):
        self.p = list(range(n))

    def find(self, x):
        p = self.p
        while p[x] != x:
            p[x] = p[p[x]]
            x = p[x]
        return x

    def union(self, a, b):
        a, b = self.find(a), self.find(b)
        if a != b:
            self.p[b] = a
        return a


class Layout:
    """Cells of the cut, their content, and the groups (union-find over cells)."""

    def __init__(self, board: Board, closed: bool, start, end):
        self.board = board
        R, C = board.rows, board.cols
        self.R, self.C = R, C
        mask = np.array(board.hole_mask) if board.has_holes else np.zeros((R, C), dtype=bool)
        self.mask = mask
        self.live = ~mask
        rp = cut_parts(R, _wanted(mask, 0)) if board.has_holes else cut_parts(R, {})
        cp = cut_parts(C, _wanted(mask, 1)) if board.has_holes else cut_parts(C, {})
        self.rp, self.cp = rp, cp
        self.ro = np.concatenate([[0], np.cumsum(rp)]).astype(np.int64)
        self.co = np.concatenate([[0], np.cumsum(cp)]).astype(np.int64)
        p, q = len(rp), len(cp)
        self.p, self.q = p, q
        # per-cell counts of live squares and of dark (r + c odd) live squares
        col = (np.add.outer(np.arange(R), np.arange(C)) % 2 == 1)
        live = self.live

        def cellsum(a):
            s = np.add.reduceat(a.astype(np.int64), self.ro[:-1], axis=0)
            return np.add.reduceat(s, self.co[:-1], axis=1)

        self.nlive = cellsum(live)
        dark = cellsum(live & col)
        self.imb = (2 * dark - self.nlive)  # dark - light
        area = np.outer(rp, cp)
        self.lib = (self.nlive == area) & (area % 2 == 0)
        self.empty = self.nlive == 0
        self.dsu = DisjointSets(p * q)
        # the cell owning each square: the cut's rectangles, until squares are handed over
        ci = np.repeat(np.arange(p), rp)
        cj = np.repeat(np.arange(q), cp)
        self.owner = (ci[:, None] * q + cj[None, :]).astype(np.int32)
        self.moved = set()  # squares handed to a neighbouring cell
        self.closed = closed
        self.start, self.end = start, end

    def cell_of(self, r, c):
        return int(self.owner[r, c])

    def _nbrs(self, r, c):
        for dr, dc in MOVES.tolist():
            y, x = r + dr, c + dc
            if 0 <= y < self.R and 0 <= x < self.C and self.live[y, x]:
                yield y, x

    def _degree(self, r, c, cell):
        """Moves from (r, c) to live squares owned by ``cell``."""
        return sum(1 for y, x in self._nbrs(r, c) if self.owner[y, x] == cell)

    def hand_over(self, giver: int, taker: int, dark: bool, avoid=()):
        """Move one live square of colour ``dark`` from cell ``giver`` to the adjacent cell
        ``taker``: a square on the giver's border row or column next to the taker, away from
        the port squares (the first four and the last of the border). Returns it, or None."""
        a0, a1, b0, b1 = self.cell_rect(giver)
        ti, tj = divmod(taker, self.q)
        gi, gj = divmod(giver, self.q)
        h, w = a1 - a0, b1 - b0
        ports = {(a0 + y, b0 + x) for y, x in ((1, 1), (3, 0), (0, w - 1), (2, w - 2), (0, 3),
                                               (h - 1, 0), (h - 2, 2))}
        if ti == gi:
            cols = (b0, b0 + 1) if tj < gj else (b1 - 1, b1 - 2)
            line = [(r, col) for col in cols for r in range(a0 + 1, a1 - 1)]
        else:
            rows = (a0, a0 + 1) if ti < gi else (a1 - 1, a1 - 2)
            line = [(row, c) for row in rows for c in range(b0 + 1, b1 - 1)]
        for r, c in line:
            if (r, c) in ports:
                continue
            if (self.live[r, c] and self.owner[r, c] == giver and ((r + c) % 2 == 1) == dark
                    and (r, c) not in self.moved and (r, c) not in avoid
                    and self._degree(r, c, taker) >= 3
                    and not any((y, x) in self.moved for y, x in self._nbrs(r, c))
                    and all(self._degree(y, x, giver) >= 3 for y, x in self._nbrs(r, c)
                            if self.owner[y, x] == giver)):
                self.owner[r, c] = taker
                self.moved.add((r, c))
                d = 1 if dark else -1
                self.nlive.flat[giver] -= 1
                self.nlive.flat[taker] += 1
                self.imb.flat[giver] -= d
                self.imb.flat[taker] += d
                return (r, c)
        return None

    def cell_rect(self, cell):
        i, j = divmod(cell, self.q)
        return int(self.ro[i]), int(self.ro[i + 1]), int(self.co[j]), int(self.co[j + 1])


def neighbour_cells(L: Layout, cell):
    """The cells edge-adjacent to ``cell`` in the layout's grid."""
    i, j = divmod(cell, L.q)
    if i > 0:
        yield cell - L.q
    if i + 1 < L.p:
        yield cell + L.q
    if j > 0:
        yield cell - 1
    if j + 1 < L.q:
        yield cell + 1


def cell_path(L: Layout, c1: int, c2: int) -> list[int]:
    """Cells of an L-shaped route from cell c1 to c2 (rows first), skipping empty cells by BFS."""
    path = nearest_route(L, [c1], lambda c: c == c2)
    return [c1] + (path or [])


def nearest_route(L: Layout, sources, accept, through=None, depth=None):
    """Shortest route of cells (BFS over non-empty cells ``through`` allows) from ``sources``
    to a cell ``accept`` takes; the route's cells, the accepted one last, or None."""
    prev = {s: None for s in sources}
    dist = {s: 0 for s in sources}
    dq = deque(sources)
    while dq:
        c = dq.popleft()
        if depth is not None and dist[c] >= depth:
            continue
        for d in neighbour_cells(L, c):
            if d in prev or L.empty.flat[d]:
                continue
            prev[d] = c
            if accept(d):
                out = []
                x = d
                while x is not None and x not in sources:
                    out.append(x)
                    x = prev[x]
                return out[::-1]
            if through is None or through(d):
                dist[d] = dist[c] + 1
                dq.append(d)
    return None


def _bbox(L: Layout, cells):
    rs = [L.cell_rect(c) for c in cells]
    return min(r[0] for r in rs), max(r[1] for r in rs), min(r[2] for r in rs), max(r[3] for r in rs)


def group_mask(L: Layout, cells):
    """``(local, r0, c0)``: the group's live squares in its bounding box, and the box corner.

    The box is the cells' rectangles grown by one square (squares handed over from a
    neighbouring cell lie on its border next to the group)."""
    r0, r1, c0, c1 = _bbox(L, cells)
    r0, c0 = max(0, r0 - 1), max(0, c0 - 1)
    r1, c1 = min(L.R, r1 + 1), min(L.C, c1 + 1)
    own = L.owner[r0:r1, c0:c1]
    out = np.isin(own, np.asarray(list(cells), dtype=own.dtype)) & L.live[r0:r1, c0:c1]
    return out, r0, c0


def adjacent_member(L: Layout, cells, target):
    """A cell of ``cells`` edge-adjacent to ``target``, or None."""
    for c in cells:
        if target in neighbour_cells(L, c):
            return c
    return None


def low_degree_cells(L: Layout, grp, is_open: bool):
    """Cells holding outside neighbours of group squares with fewer than 2 moves inside."""
    live, r0, c0 = grp
    h, w = live.shape
    deg = np.zeros((h, w), dtype=np.int64)
    for dr, dc in MOVES.tolist():
        sh = np.zeros((h, w), dtype=bool)
        ys0, ys1 = max(0, -dr), min(h, h - dr)
        xs0, xs1 = max(0, -dc), min(w, w - dc)
        if ys1 > ys0 and xs1 > xs0:
            sh[ys0:ys1, xs0:xs1] = live[ys0 + dr:ys1 + dr, xs0 + dc:xs1 + dc]
        deg += sh
    low = live & (deg < 2)
    if is_open and 0 < int(low.sum()) <= 2 and not (live & (deg < 1)).any():
        return []
    out = set()
    for r, c in np.argwhere(low).tolist():
        for dr, dc in MOVES.tolist():
            y, x = r + dr, c + dc
            inside = 0 <= y < h and 0 <= x < w and live[y, x]
            y, x = y + r0, x + c0
            if 0 <= y < L.R and 0 <= x < L.C and L.live[y, x] and not inside:
                out.add(L.cell_of(y, x))
    return sorted(out)
