"""The block construction's layout: the board cut into cells of library sizes, their colour balance and owners, groups of cells (union-find), the cells' neighbourhoods and paths, and one group's tour by CP-SAT (cached); the walk that reads the assembled tour."""

from __future__ import annotations

from collections import deque
import numpy as np
from kt_formal.board import Board
from kt_formal.combine.divide import PART_SIZES
from kt_formal.exceptions import InvalidInput
import os
from kt_formal.engines.successors import compile_once

__all__ = ["BlocksNotApplicable", "cut_parts", "solve_group", "group_work", "GROUP_WORK", "walk_neighbours",
           "MAX_GROUP_SQUARES", "ENDS_GROUP_SQUARES", "GROUP_CACHE", "DEBUG", "Layout", "DisjointSets",
           "adjacent_member", "cell_path", "group_mask", "low_degree_cells", "neighbour_cells",
           "nearest_route", "walker"]


#: Largest group (live squares) handed to CP-SAT; beyond it the construction gives up.
MAX_GROUP_SQUARES = 6000


#: Largest group holding both fixed ends of an open tour (the cells between them join it).
ENDS_GROUP_SQUARES = 2500


_MOVES = np.array([(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)])


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


#: the solved groups, by their mask and ends (cleared when it holds too many)
GROUP_CACHE: dict = {}


_CACHE_MAX = 20000

#: CP-SAT's deterministic time (``max_deterministic_time``) for a group of ``n`` squares:
#: ``min(GROUP_WORK[0] + n / GROUP_WORK[1], GROUP_WORK[2])``. Calibrated on the groups of
#: the 40 x 40, 30 x 30 and 200 x 200 boards of the tests (CPU seconds measured beside each
#: solve): about the wall-clock limits of ``0.3 + n / 500`` seconds used before on an idle
#: machine (CP-SAT counts 0.35 deterministic units a CPU second on groups of 100 squares,
#: 0.27 at 1,000, 0.08 at 6,000). Unlike seconds it does not shrink on a busy machine, so a
#: group's answer, and the tour, do not depend on the load.
GROUP_WORK = (0.1, 1500.0, 1.0)


def group_work(n: int, share: float = 1.0) -> float:
    """The deterministic time CP-SAT gets for a group of ``n`` squares (times ``share``).

    >>> group_work(60), group_work(10 ** 6)
    (0.14, 1.0)
    """
    lo, per, cap = GROUP_WORK
    return round(share * min(lo + n / per, cap), 6)


def solve_group(live: np.ndarray, *, closed: bool = True, start=None, end=None, need=(),
                time_limit: float = 10.0, seed: int = 0, workers: int = 1, work: float | None = None):
    """A tour of a small board given by ``live`` (bool array) holding one move from each set in ``need``.

    Parameters
    ----------
    live : (h, w) bool array
        The squares of the group (True = part of the group).
    closed : bool
        A cycle or a path.
    start, end : (r, c) or None
        Fixed ends of a path.
    need : sequence of sequences of ((r, c), (r, c))
        For each set, at least one of its moves must be in the tour.
    time_limit, seed, workers
        CP-SAT parameters (seconds of wall clock, ``random_seed``, ``num_workers``).
    work : float, optional
        CP-SAT's deterministic time limit (``max_deterministic_time``): with one worker
        the answer is the same on a busy machine as on an idle one, as long as
        ``time_limit`` (the caller's overall deadline) does not end the search first.

    Returns
    -------
    list of (int, int) or None or str
        The tour's moves as pairs of local indices ``r * w + c`` (a path's moves in
        order), ``"infeasible"`` when CP-SAT proved there is none, None at the limit.
        Results are cached by the arguments.

    >>> live = np.ones((5, 6), dtype=bool)
    >>> len(solve_group(live, need=[[((0, 5), (2, 4))]]))
    30
    """
    key = (live.shape, np.packbits(live).tobytes(), closed, start, end,
           tuple(tuple(sorted(s)) for s in need))
    if key in GROUP_CACHE:
        return GROUP_CACHE[key]
    res = _solve_group(live, closed, start, end, need, time_limit, seed, workers, work)
    if res is not None:
        if len(GROUP_CACHE) > _CACHE_MAX:
            GROUP_CACHE.clear()
        GROUP_CACHE[key] = res
    return res


def _solve_group(live, closed, start, end, need, time_limit, seed, workers, work=None):
    """One group's tour by a circuit model: its moves as (square, next square) pairs of the
    group's mask, "infeasible" (proved, or a join's ports are missing) or None (no answer
    in time). ``need``: groups of moves of which the tour must use one each."""
    from kt_formal.engines.circuit import Circuit

    h, w = live.shape
    idx = np.flatnonzero(live.ravel())
    k = idx.size
    if k == 0 or (closed and k < 3):
        return "infeasible"
    if not closed and k == 1:
        return []
    node = np.full(h * w, -1, dtype=np.int64)
    node[idx] = np.arange(k)
    r, c = np.divmod(idx, w)
    circuit = Circuit(k, open_path=not closed)
    for dr, dc in _MOVES.tolist():
        rr, cc = r + dr, c + dc
        ok = (rr >= 0) & (rr < h) & (cc >= 0) & (cc < w)
        ok[ok] = live[rr[ok], cc[ok]]
        circuit.add_arcs(np.flatnonzero(ok), node[rr[ok] * w + cc[ok]], names="arc")
    if not closed:
        circuit.add_path_ends([int(node[start[0] * w + start[1]])] if start is not None else range(k),
                              [int(node[end[0] * w + end[1]])] if end is not None else range(k))
    for group in need:
        terms = []
        for a, b in group:
            u, v = int(node[a[0] * w + a[1]]), int(node[b[0] * w + b[1]])
            if u >= 0 and v >= 0 and circuit.literal(u, v) is not None:
                terms += [circuit.literal(u, v), circuit.literal(v, u)]
        if not terms:
            return "infeasible"
        circuit.model.add_bool_or(terms)
    extra = {} if work is None else {"max_deterministic_time": max(1e-3, float(work))}
    status = circuit.solve(time_limit=max(0.01, float(time_limit)), workers=workers, seed=seed, **extra)
    if status != "found":
        return "infeasible" if status == "infeasible" else None
    order = idx[circuit.order(closed)].tolist()
    if closed:
        return [(order[i], order[(i + 1) % k]) for i in range(k)]
    return [(order[i], order[i + 1]) for i in range(k - 1)] or [(order[0], -1)]


def _walk_py(nb, start, out):  # pragma: no cover - compiled by numba
    prev = -1
    cur = start
    for k in range(out.shape[0]):
        out[k] = cur
        a = nb[cur, 0]
        nxt = nb[cur, 1] if a == prev else a
        prev = cur
        cur = nxt
        if cur < 0:
            return k + 1
    return out.shape[0]


#: The compiled :func:`_walk_py`, made on first use.
walker = compile_once(_walk_py, nogil=True)


def walk_neighbours(nb: np.ndarray, start: int, length: int) -> np.ndarray:
    """Visiting order along an undirected neighbour array ``nb`` (n, 2) from ``start`` (numba).

    From ``start`` the walk goes to ``nb[start, 0]`` first (an open tour's first square
    has its one neighbour there), then always to the neighbour it did not come from.

    >>> walk_neighbours(np.array([[1, 2], [0, 2], [1, 0]]), 0, 3).tolist()
    [0, 1, 2]
    """
    out = np.empty(length, dtype=np.int64)
    n = walker()(nb, np.int64(start), out)
    if n != length:
        raise RuntimeError(f"the walk covered {n} of {length} squares")
    return out


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
        for dr, dc in _MOVES.tolist():
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
    for dr, dc in _MOVES.tolist():
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
        for dr, dc in _MOVES.tolist():
            y, x = r + dr, c + dc
            inside = 0 <= y < h and 0 <= x < w and live[y, x]
            y, x = y + r0, x + c0
            if 0 <= y < L.R and 0 <= x < L.C and L.live[y, x] and not inside:
                out.add(L.cell_of(y, x))
    return sorted(out)
