"""The block construction: tours of boards with holes of any shape, at any scale.

The board is cut along row and column cut lines into *cells* whose sides come from the
library's palette (5..10, the sizes of :mod:`kt_formal.combine.divide`'s port pieces);
the cut lines are put on the edges of the holes where the palette allows. A cell
without holes and with even area takes the library's port piece of its shape (a closed
tour holding the four port moves). Every other cell (touched by holes, or odd x odd)
belongs to a *group*: a set of edge-adjacent cells solved as one small board by CP-SAT,
with the port moves its joins need forced in, and cached by its mask and ports. Groups
are formed so that they can be solved:

* colour balance: a closed tour alternates colours, so a group with more dark than
  light squares is merged with the nearest group with the opposite excess (the cells on
  the way join too); a partner far away is reached instead by *handing over* single
  squares: every cell on the route gives its predecessor one border square of the
  colour it lacks, so each stays a small group;
* degree: a square with fewer than two moves inside its group merges the group with the
  groups of its other neighbours;
* ports: a group with no live port toward the rest is merged with a neighbour;
* failure: a group CP-SAT cannot solve (infeasible, or its time slice ran out) is merged
  with its neighbours and solved again, bigger.

Groups and library cells are joined along a spanning tree by the 2-move swap of
``../shared/reference.md`` ("Two cycles side by side"): the left block holds the move
(r, X-1)-(r+2, X-2), the right one (r+1, X+1)-(r+3, X); both are deleted and
(r, X-1)-(r+1, X+1), (r+2, X-2)-(r+3, X) added (vertical joins transposed). The tour is
kept as an undirected neighbour array (two neighbours per square), so the swaps need no
orientation bookkeeping; a numba walk turns it into the visiting order, and the result
passes the kernel's tour check.

Open tours: with an odd colour excess one group is solved as a path (its ends free, or
at given end squares); a cycle spliced into a path by the same swap leaves one path with
the same ends.

>>> from kt_formal.board import Board
>>> t = block_tour(Board.from_spec(30, 30, ["0,0,2x3", "13,17,2x2"]))
>>> t.check() is None, t.closed
(True, True)

References
----------
A. J. Schwenk, "Which rectangular chessboards have a knight's tour?", Math. Mag. 64
(1991); I. Parberry, "An efficient algorithm for the knight's tour problem", Discrete
Applied Mathematics 73 (1997) (divide and conquer with joins of two moves).
"""

from __future__ import annotations

import time
from collections import deque

import numpy as np

from kt_formal.board import Board, ensure_memory
from kt_formal.combine.divide import PART_SIZES, _port_piece, port_edges
from kt_formal.exceptions import InvalidInput
from kt_formal.tour import Tour

__all__ = ["block_tour", "BlocksNotApplicable", "cut_parts", "solve_group", "walk_neighbours",
           "random_rectangles", "scattered_squares", "MAX_GROUP_SQUARES", "ENDS_GROUP_SQUARES"]

#: Largest group (live squares) handed to CP-SAT; beyond it the construction gives up.
MAX_GROUP_SQUARES = 6000
#: Largest group holding both fixed ends of an open tour (the cells between them join it).
ENDS_GROUP_SQUARES = 2500

_MOVES = np.array([(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)])


import os
_DEBUG = bool(os.environ.get("KT_BLOCKS_DEBUG"))


class BlocksNotApplicable(Exception):
    """The block construction found no tour for this board (the message says why)."""


# ====================================================================== cuts
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


# ====================================================================== union-find
class _DSU:
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


# ====================================================================== group solver
_CACHE: dict = {}
_CACHE_MAX = 20000


def solve_group(live: np.ndarray, *, closed: bool = True, start=None, end=None, need=(),
                time_limit: float = 10.0, seed: int = 0, workers: int = 1):
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
        CP-SAT parameters.

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
    if key in _CACHE:
        return _CACHE[key]
    res = _solve_group(live, closed, start, end, need, time_limit, seed, workers)
    if res is not None:
        if len(_CACHE) > _CACHE_MAX:
            _CACHE.clear()
        _CACHE[key] = res
    return res


def _solve_group(live, closed, start, end, need, time_limit, seed, workers):
    from ortools.sat.python import cp_model

    h, w = live.shape
    idx = np.flatnonzero(live.ravel())
    k = idx.size
    if k == 0:
        return "infeasible"
    node = np.full(h * w, -1, dtype=np.int64)
    node[idx] = np.arange(k)
    r, c = np.divmod(idx, w)
    model = cp_model.CpModel()
    arcs = []
    lit = {}
    for dr, dc in _MOVES.tolist():
        rr, cc = r + dr, c + dc
        ok = (rr >= 0) & (rr < h) & (cc >= 0) & (cc < w)
        ok[ok] = live[rr[ok], cc[ok]]
        for u, v in zip(np.flatnonzero(ok).tolist(), node[rr[ok] * w + cc[ok]].tolist()):
            x = model.new_bool_var(f"arc_{u}_{v}")
            lit[(u, v)] = x
            arcs.append((u, v, x))
    if closed and k < 3:
        return "infeasible"
    if not closed:
        d = k
        s = [int(node[start[0] * w + start[1]])] if start is not None else range(k)
        e = [int(node[end[0] * w + end[1]])] if end is not None else range(k)
        for u in s:
            x = model.new_bool_var(f"start_{u}")
            arcs.append((d, u, x))
        for u in e:
            x = model.new_bool_var(f"end_{u}")
            arcs.append((u, d, x))
        if k == 1:
            return []
    model.add_circuit(arcs)
    for group in need:
        terms = []
        for a, b in group:
            u, v = int(node[a[0] * w + a[1]]), int(node[b[0] * w + b[1]])
            if u >= 0 and v >= 0 and (u, v) in lit:
                terms += [lit[(u, v)], lit[(v, u)]]
        if not terms:
            return "infeasible"
        model.add_bool_or(terms)
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = max(0.01, float(time_limit))
    solver.parameters.num_workers = int(workers)
    solver.parameters.random_seed = int(seed)
    status = solver.solve(model)
    if status == cp_model.INFEASIBLE:
        return "infeasible"
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return None
    succ = np.full(k + 1, -1, dtype=np.int64)
    for u, v, x in arcs:
        if solver.boolean_value(x):
            succ[u] = v
    cur = 0 if closed else int(succ[k])
    order = []
    for _ in range(k):
        order.append(cur)
        cur = int(succ[cur])
    order = idx[np.array(order)].tolist()
    if closed:
        return [(order[i], order[(i + 1) % k]) for i in range(k)]
    return [(order[i], order[i + 1]) for i in range(k - 1)] or [(order[0], -1)]


# ====================================================================== walk
_WALK = None


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


def _walker():
    """The compiled :func:`_walk_py`, made on first use."""
    global _WALK
    if _WALK is None:
        from kt_formal.engines._jit import cached_njit

        _WALK = cached_njit(nogil=True)(_walk_py)
    return _WALK


def walk_neighbours(nb: np.ndarray, start: int, length: int) -> np.ndarray:
    """Visiting order along an undirected neighbour array ``nb`` (n, 2) from ``start`` (numba).

    From ``start`` the walk goes to ``nb[start, 0]`` first (an open tour's first square
    has its one neighbour there), then always to the neighbour it did not come from.

    >>> walk_neighbours(np.array([[1, 2], [0, 2], [1, 0]]), 0, 3).tolist()
    [0, 1, 2]
    """
    out = np.empty(length, dtype=np.int64)
    n = _walker()(nb, np.int64(start), out)
    if n != length:
        raise RuntimeError(f"the walk covered {n} of {length} squares")
    return out


# ====================================================================== the construction
class _Layout:
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
        self.dsu = _DSU(p * q)
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


def _nbr_cells(L: _Layout, cell):
    i, j = divmod(cell, L.q)
    if i > 0:
        yield cell - L.q
    if i + 1 < L.p:
        yield cell + L.q
    if j > 0:
        yield cell - 1
    if j + 1 < L.q:
        yield cell + 1


def block_tour(board: Board, closed: bool = True, start=None, end=None, *, time_limit: float = 30.0,
               seed: int = 0, workers: int = 1, stats: dict | None = None, stop=None) -> Tour:
    """A tour of ``board`` by the block construction (see the module docstring).

    Two strategies for colour excesses are tried in turn: merging groups with partners up
    to eight cells away (few, larger groups: suits holes that are rectangles), then
    merging only close partners and handing single squares along the routes to far ones
    (many small groups: suits scattered single holes).

    Parameters
    ----------
    board : Board
        Both sides at least 5.
    closed : bool
    start, end : (row, col) or None
        Fixed ends of an open tour (a closed tour is renumbered by the caller).
    time_limit : float
        Seconds for the whole construction (the CP-SAT calls share it).
    seed, workers
        CP-SAT parameters for the groups.
    stats : dict, optional
        Filled with counts: cells, groups, CP-SAT calls, merges, squares handed over.
    stop : threading.Event, optional
        Set by another thread to end the construction early (BlocksNotApplicable).

    Returns
    -------
    Tour
        Checked by the kernel's tour check before it is returned.

    Raises
    ------
    BlocksNotApplicable
        When no tour was built (the reason says which step failed); never a claim that
        no tour exists.

    Notes
    -----
    Time linear in the area outside the groups (numpy stamping of library pieces),
    plus CP-SAT on the groups.
    """
    t0 = time.perf_counter()
    try:
        return _block_tour(board, closed, start, end, time_limit=time_limit, seed=seed,
                           workers=workers, stats=stats, eager=True, stop=stop)
    except BlocksNotApplicable as exc:
        left = time_limit - (time.perf_counter() - t0)
        if left <= 0.5 or "grew" not in str(exc) or (stop is not None and stop.is_set()):
            raise
        return _block_tour(board, closed, start, end, time_limit=left, seed=seed,
                           workers=workers, stats=stats, eager=False, stop=stop)


def _block_tour(board: Board, closed: bool, start, end, *, time_limit: float,
                seed: int, workers: int, stats: dict | None, eager: bool, stop=None) -> Tour:
    """One attempt of :func:`block_tour`; ``eager`` merges far colour partners."""
    t0 = time.perf_counter()
    deadline = t0 + max(0.0, float(time_limit))
    st = stats if stats is not None else {}

    def on_the_clock(phase):
        # every phase keeps to the time limit (the grouping of a huge board takes minutes)
        if time.perf_counter() > deadline:
            raise BlocksNotApplicable(f"the time limit ({time_limit:g} s) ran out while {phase}")
        if stop is not None and stop.is_set():
            raise BlocksNotApplicable("stopped: another answer came first")

    R, C = board.rows, board.cols
    if min(R, C) < min(PART_SIZES):
        raise BlocksNotApplicable(f"both sides must be at least {min(PART_SIZES)}")
    if closed and (start is not None and end is not None):
        raise BlocksNotApplicable("closed tours with a fixed last square are not built here")
    ensure_memory(R * C * 40.0, f"the block construction on the {R}x{C} board")
    L = _Layout(board, closed, start, end)
    p, q = L.p, L.q
    ncell = p * q
    total_imb = int(L.imb.sum())
    n_live = int(L.nlive.sum())
    if closed and total_imb != 0:
        raise BlocksNotApplicable(f"the colours are unbalanced ({total_imb:+d})")
    if not closed and abs(total_imb) > 1:
        raise BlocksNotApplicable(f"the colours differ by {abs(total_imb)}")
    # The open group (if any) and what it must hold.
    open_ends = [x for x in (start, end) if x is not None]
    need_open = (not closed) and (total_imb != 0 or len(open_ends) == 2)
    # An open tour with even count and at most one fixed end: a closed tour, cut afterwards.
    build_closed = closed or not need_open
    st.update(cells=ncell, cpsat_calls=0, merges=0, cache_hits=0)

    dsu = L.dsu
    special = np.zeros(ncell, dtype=bool)  # cells that belong to a solved group
    special[:] = ~L.lib.ravel() & ~L.empty.ravel()
    imb = {}  # group root -> imbalance
    members = {}
    for cell in np.flatnonzero(special).tolist():
        imb[cell] = int(L.imb.flat[cell])
        members[cell] = [cell]
    open_root = None

    def root(cell):
        return dsu.find(cell)

    def merge(cells):
        """Merge the groups of ``cells`` (library cells become part of the group)."""
        cells = [c for c in cells if not L.empty.flat[c]]
        roots = []
        for c in cells:
            if not special[c]:
                special[c] = True
                imb[c] = int(L.imb.flat[c])
                members[c] = [c]
            r = root(c)
            if r not in roots:
                roots.append(r)
        if len(roots) < 2:
            return roots[0] if roots else None
        a = roots[0]
        for b in roots[1:]:
            x = dsu.union(a, b)
            y = b if x == a else a
            imb[x] = imb.pop(x, 0) + imb.pop(y, 0)
            members[x] = members.pop(x) + members.pop(y)
            a = x
        st["merges"] += 1
        return a

    # fixed ends of an open group: their cells are merged (with the cells between them)
    if need_open and len(open_ends) == 2:
        c1, c2 = L.cell_of(*open_ends[0]), L.cell_of(*open_ends[1])
        route = _cell_path(L, c1, c2)
        if sum(int(L.nlive.flat[c]) for c in route) > ENDS_GROUP_SQUARES:
            raise BlocksNotApplicable("the fixed ends lie too far apart for one group "
                                      f"(more than {ENDS_GROUP_SQUARES} squares)")
        merge(route)
        open_root = root(c1)
    elif need_open and len(open_ends) == 1:
        c1 = L.cell_of(*open_ends[0])
        merge([c1])
        open_root = root(c1)

    def target(r):
        if need_open and open_root is not None and root(open_root) == r:
            return total_imb
        return 0

    def excess(r):
        return imb[r] - target(r)

    def balance():
        """Merge groups with a colour excess with near groups of the opposite excess.

        Greedy matching by distance: first partners with exactly the opposite excess,
        one cell away, then two, ...; then any opposite excess. Routes run through
        library cells (then balanced groups, then anything).
        """
        nonlocal open_root
        if eager:
            plans = [(True, d) for d in (1, 2, 3, 4, 6)] + [(False, d) for d in (1, 2, 4, 8, None)]
        else:
            plans = [(True, d) for d in (1, 2)] + [(False, d) for d in (1, 2, 3, None)]
        plans.append((False, None))  # again, now also through groups with an excess
        for k, (exact, depth) in enumerate(plans):
            last_resort = k == len(plans) - 1
            progress = True
            while progress:
                progress = False
                for g in [r for r in list(imb) if root(r) == r]:
                    if root(g) != g or excess(g) == 0:
                        continue
                    on_the_clock("pairing the holes' colours")
                    if need_open and open_root is None and total_imb != 0 and imb[g] == total_imb:
                        continue  # may end as the open group
                    e = excess(g)

                    def accept(c, g=g, e=e):
                        if not special[c] or root(c) == root(g):
                            return False
                        x = excess(root(c))
                        if need_open and open_root is None and total_imb != 0:
                            x = min(x, imb[root(c)] - total_imb, key=abs) if x * e >= 0 else x
                        return x == -e if exact else x * e < 0

                    path = None
                    throughs = [lambda c: not special[c],
                                lambda c: not special[c] or excess(root(c)) == 0]
                    if last_resort:
                        throughs.append(None)
                    for through in throughs:
                        path = _nearest(L, members[g], accept, through, depth)
                        if path is not None:
                            break
                    if path is not None and depth is None:
                        if hand_along(g, path, e):
                            progress = True
                            continue
                        if not last_resort:
                            continue
                    if path is not None:
                        merge([g] + path)
                        progress = True
            if _DEBUG:
                print("plan", exact, depth, sorted(len(m) for m in members.values())[-5:],
                      [(r, excess(r)) for r in imb if root(r) == r and excess(r) != 0])
        left = [r for r in imb if root(r) == r and excess(r) != 0]
        if not left:
            return True
        if need_open and open_root is None and total_imb != 0:
            if len(left) == 1 and imb[left[0]] == total_imb:
                open_root = left[0]
                return True
        raise BlocksNotApplicable(f"{len(left)} groups keep a colour excess no route can match")

    def hand_along(g, path, e):
        """Pass one square of colour excess from group g to the end of ``path``: each cell
        of the route hands its predecessor a square of the colour g lacks (g's excess goes
        down by one, the last cell's group's excess toward zero). The cells on the route
        become groups of their own. False (nothing changed) when a cell has no such square."""
        first = _adjacent_member(L, members[g], path[0])
        if first is None:
            if _DEBUG:
                print("no adjacent member", g, path[:3])
            return False
        chain = [first] + list(path)
        dark = e < 0  # g has too many light squares: it takes a dark one
        ends = tuple(open_ends)
        done = []
        for taker, giver in zip(chain[:-1], chain[1:]):
            sq = L.hand_over(giver, taker, dark, ends)
            if sq is None and _DEBUG:
                print("hand_over failed", giver, taker, dark, L.cell_rect(giver), len(chain))
            if sq is None:
                for (r, c), t, gv in reversed(done):  # undo
                    L.owner[r, c] = gv
                    L.moved.discard((r, c))
                    d = 1 if dark else -1
                    L.nlive.flat[t] -= 1
                    L.nlive.flat[gv] += 1
                    L.imb.flat[t] -= d
                    L.imb.flat[gv] += d
                return False
            done.append((sq, taker, giver))
        d = 1 if dark else -1
        for sq, taker, giver in done:
            for c in (taker, giver):
                if not special[c]:
                    special[c] = True
                    imb[c] = int(L.imb.flat[c])
                    members[c] = [c]
            imb[root(taker)] += d
            imb[root(giver)] -= d
        st["handed"] = st.get("handed", 0) + len(done)
        return True

    def degree_fix():
        """Merge a group with the groups of the outside neighbours of its squares of degree < 2."""
        changed = False
        for r in [r for r in list(members) if root(r) == r]:
            if r not in members:
                continue
            grp = _group_mask(L, members[r])
            bad_out = _low_degree(L, grp, r == (root(open_root) if open_root is not None else -1))
            if bad_out:
                merge([r] + bad_out)
                changed = True
        return changed

    # phases: balance, degree, connectivity of the join graph, then solve
    on_the_clock("grouping the holes")
    balance()
    if _DEBUG:
        print("after balance", sorted(len(m) for m in members.values())[-10:])
    for _ in range(200):
        on_the_clock("grouping the holes")
        if not degree_fix():
            break
        balance()
    for g in [r for r in members if root(r) == r]:
        if sum(int(L.nlive.flat[c]) for c in members[g]) > MAX_GROUP_SQUARES:
            raise BlocksNotApplicable("a group grew beyond "
                                      f"{MAX_GROUP_SQUARES} squares")

    solutions = {}
    attempts = 0
    while True:
        attempts += 1
        if attempts > 400:
            raise BlocksNotApplicable("too many merge rounds")
        on_the_clock("joining the groups")
        tree, joins, fail = _tree(L, special, root)
        if fail is not None:
            merge(list(fail))
            balance()
            while degree_fix():
                on_the_clock("joining the groups")
                balance()
            continue
        # solve groups in BFS order of the tree
        order = _bfs_groups(tree, [r for r in members if root(r) == r])
        chosen = {}
        failed = None
        solutions = {}
        for g in order:
            on_the_clock("solving groups")
            cells = members[g]
            if sum(int(L.nlive.flat[c]) for c in cells) > MAX_GROUP_SQUARES:
                raise BlocksNotApplicable(f"a group grew beyond {MAX_GROUP_SQUARES} squares")
            local, r0, c0 = _group_mask(L, cells)
            c1 = c0 + local.shape[1]
            needs = []
            keys = []
            for other, cands in tree.get(g, {}).items():
                sel = []
                for cand in cands:
                    mine, theirs = _halves(cand, g, root, L)
                    if other in solutions:
                        if not _has_move(solutions[other], theirs, C):
                            continue
                    sel.append((cand, mine))
                if not sel:
                    failed = (g, other)
                    break
                needs.append([((a[0] - r0, a[1] - c0), (b[0] - r0, b[1] - c0)) for _, (a, b) in sel])
                keys.append((other, sel))
            if failed:
                break
            is_open = (not build_closed) and open_root is not None and root(open_root) == g
            s_loc = e_loc = None
            if is_open:
                if start is not None:
                    s_loc = (start[0] - r0, start[1] - c0)
                if end is not None:
                    e_loc = (end[0] - r0, end[1] - c0)
            left = deadline - time.perf_counter()
            n_sq = int(local.sum())
            before = len(_CACHE)
            res = solve_group(local, closed=not is_open, start=s_loc, end=e_loc, need=needs,
                              time_limit=min(left, 0.3 + n_sq / 500.0), seed=seed, workers=workers)
            st["cpsat_calls"] += 1 if len(_CACHE) != before or res is None else 0
            if not isinstance(res, list):
                # Without the joins' ports: if the group has a tour, the ports are the trouble
                # and the group merges with the neighbour of its tightest join; otherwise it
                # grows on every side.
                free = solve_group(local, closed=not is_open, start=s_loc, end=e_loc, need=(),
                                   time_limit=min(deadline - time.perf_counter(), 0.2 + n_sq / 800.0),
                                   seed=seed, workers=workers)
                tight = sorted((len(sel), other) for other, sel in keys)
                failed = (g, tight[0][1] if isinstance(free, list) and tight else None)
                break
            w = c1 - c0
            glob = [((a // w + r0) * C + a % w + c0, -1 if b < 0 else (b // w + r0) * C + b % w + c0)
                    for a, b in res]
            moves = set(frozenset(e) for e in glob)
            solutions[g] = (glob, moves, is_open)
            for other, sel in keys:
                for cand, mine in sel:
                    if frozenset((mine[0][0] * C + mine[0][1], mine[1][0] * C + mine[1][1])) in moves:
                        if other in solutions or other not in members or True:
                            chosen.setdefault(frozenset((g, other)), []).append(cand)
                        break
        if failed is None:
            break
        g, other = failed
        nb_groups = set()
        for c in members[g]:
            for d in _nbr_cells(L, c):
                if not L.empty.flat[d] and root(d) != g:
                    nb_groups.add(d)
        if other is not None:
            merge([g, other])
        elif nb_groups:
            merge([g] + sorted(nb_groups))
        else:
            raise BlocksNotApplicable(f"CP-SAT found no tour of a group of {len(members[g])} cells "
                                      "that cannot grow further")
        balance()
        while degree_fix():
            balance()

    # ---------------------------------------------------------------- assembly
    N = R * C
    dt = np.int32 if N < 2**31 else np.int64
    nb = np.full((N, 2), -1, dtype=dt)
    _stamp_library(L, special, nb)
    for g, (glob, _moves, is_open) in solutions.items():
        if is_open:
            if glob and glob[0][1] == -1:
                continue  # a single square
            a = np.array(glob, dtype=np.int64)
            seq = np.concatenate([a[:, 0], a[-1:, 1]])
            nb[seq[1:], 0] = seq[:-1]
            nb[seq[:-1], 1] = seq[1:]
        else:
            a = np.array(glob, dtype=np.int64)
            seq = a[:, 0]
            nb[seq, 0] = np.roll(seq, 1)
            nb[seq, 1] = np.roll(seq, -1)
    # the joins: for a tree edge between a solved group and a library cell or two groups,
    # the candidate chosen by the solve; library-library edges have exactly one candidate
    n_join = 0
    for (g, other), cands in _tree_edges(tree):
        if isinstance(cands, tuple) and cands[0] == "std":
            cands = _join_candidates(L, cands[1], cands[2], True, True)
        pick = None
        for cand in cands:
            if _present(nb, cand, C):
                pick = cand
                break
        if pick is None:
            if _DEBUG:
                print("missing join", g, other, special[g], special[other], g in solutions,
                      other in solutions, cands[:3])
            raise RuntimeError("a join's port moves are missing")
        _swap(nb, pick, C)
        n_join += 1
    st["joins"] = n_join
    st["groups"] = len(solutions)
    st["group_squares"] = int(sum(len(s[0]) for s in solutions.values()))
    if need_open and not build_closed:
        ends = np.flatnonzero((nb[:, 0] < 0) & (nb[:, 1] >= 0) | (nb[:, 1] < 0) & (nb[:, 0] >= 0))
        s0 = int(L.board.index(*start)) if start is not None else int(ends[0]) if ends.size else None
        if s0 is None:
            raise RuntimeError("an open tour without an end")
        if nb[s0, 0] >= 0 and nb[s0, 1] < 0:
            pass
        elif nb[s0, 0] < 0:
            nb[s0] = nb[s0, ::-1]
        order = walk_neighbours(nb, s0, n_live)
        tour = Tour(board, order, False)
    else:
        s0 = int(np.argmax(L.live.ravel()))
        order = walk_neighbours(nb, s0, n_live)
        tour = Tour(board, order, True)
        if not closed:
            tour = _cut(tour, start, end)
    reason = tour.check()
    if reason is not None:
        raise RuntimeError(f"the block construction produced an invalid tour: {reason}")
    st["seconds"] = time.perf_counter() - t0
    return tour


def _cut(tour: Tour, start, end) -> Tour:
    """An open tour from a closed one: cut next to ``start`` (or ``end``)."""
    b = tour.board
    order = tour.order
    if start is not None:
        i = int(np.flatnonzero(order == b.index(*start))[0])
        order = np.roll(order, -i)
    elif end is not None:
        i = int(np.flatnonzero(order == b.index(*end))[0])
        order = np.roll(order, -(i + 1))
    return Tour(b, np.ascontiguousarray(order), False)


def _cell_path(L: _Layout, c1: int, c2: int) -> list[int]:
    """Cells of an L-shaped route from cell c1 to c2 (rows first), skipping empty cells by BFS."""
    path = _nearest(L, [c1], lambda c: c == c2)
    return [c1] + (path or [])


def _nearest(L: _Layout, sources, accept, through=None, depth=None):
    """Shortest route of cells (BFS over non-empty cells ``through`` allows) from ``sources``
    to a cell ``accept`` takes; the route's cells, the accepted one last, or None."""
    prev = {s: None for s in sources}
    dist = {s: 0 for s in sources}
    dq = deque(sources)
    while dq:
        c = dq.popleft()
        if depth is not None and dist[c] >= depth:
            continue
        for d in _nbr_cells(L, c):
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


def _bbox(L: _Layout, cells):
    rs = [L.cell_rect(c) for c in cells]
    return min(r[0] for r in rs), max(r[1] for r in rs), min(r[2] for r in rs), max(r[3] for r in rs)


def _group_mask(L: _Layout, cells):
    """``(local, r0, c0)``: the group's live squares in its bounding box, and the box corner.

    The box is the cells' rectangles grown by one square (squares handed over from a
    neighbouring cell lie on its border next to the group)."""
    r0, r1, c0, c1 = _bbox(L, cells)
    r0, c0 = max(0, r0 - 1), max(0, c0 - 1)
    r1, c1 = min(L.R, r1 + 1), min(L.C, c1 + 1)
    own = L.owner[r0:r1, c0:c1]
    out = np.isin(own, np.asarray(list(cells), dtype=own.dtype)) & L.live[r0:r1, c0:c1]
    return out, r0, c0


def _adjacent_member(L: _Layout, cells, target):
    """A cell of ``cells`` edge-adjacent to ``target``, or None."""
    for c in cells:
        if target in _nbr_cells(L, c):
            return c
    return None


def _low_degree(L: _Layout, grp, is_open: bool):
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


# ---------------------------------------------------------------------- joins
def _join_candidates(L: _Layout, a: int, b: int, lib_a: bool, lib_b: bool):
    """Port positions for a join between adjacent cells a and b (a above or left of b).

    Each candidate is ``(kind, a1, a2, b1, b2)`` with squares as (r, c); a1-a2 lies in a,
    b1-b2 in b. A library cell only offers its standard port (offset 0).
    """
    ia, ja = divmod(a, L.q)
    ib, jb = divmod(b, L.q)
    live = L.live
    out = []
    if ia == ib:  # horizontal: a left of b, border at X
        X = int(L.co[jb])
        y0, y1 = int(L.ro[ia]), int(L.ro[ia + 1])
        rows = [y0] if (lib_a or lib_b) else range(y0, y1 - 3)
        for r in rows:
            sq = ((r, X - 1), (r + 2, X - 2), (r + 1, X + 1), (r + 3, X))
            if all(live[y, x] for y, x in sq) and _owned(L, sq, a, b):
                out.append(("h",) + sq)
    else:  # vertical: a above b, border at Y
        Y = int(L.ro[ib])
        x0, x1 = int(L.co[ja]), int(L.co[ja + 1])
        cols = [x0] if (lib_a or lib_b) else range(x0, x1 - 3)
        for x in cols:
            sq = ((Y - 1, x), (Y - 2, x + 2), (Y + 1, x + 1), (Y, x + 3))
            if all(live[y, z] for y, z in sq) and _owned(L, sq, a, b):
                out.append(("v",) + sq)
    return out


def _owned(L: _Layout, sq, a: int, b: int) -> bool:
    o = L.owner
    return (o[sq[0]] == a and o[sq[1]] == a and o[sq[2]] == b and o[sq[3]] == b)


def _tree(L: _Layout, special, root):
    """Spanning tree of groups and library cells (Kruskal, library-library joins first).

    Returns ``(tree, joins, fail)``: ``tree[g][h]`` the candidate joins between nodes g
    and h on the tree (a library-library join as ``("std", a, b)``, made when needed);
    ``fail`` a pair of adjacent nodes to merge when the join graph is disconnected.
    """
    p, q = L.p, L.q
    n = p * q
    node = np.arange(n)
    sp = np.flatnonzero(special)
    if sp.size:
        node[sp] = [root(int(c)) for c in sp.tolist()]
    empty = L.empty.ravel()
    lib = ~special & ~empty
    cell = np.arange(n).reshape(p, q)
    pa = np.concatenate([cell[:, :-1].ravel(), cell[:-1, :].ravel()])
    pb = np.concatenate([cell[:, 1:].ravel(), cell[1:, :].ravel()])
    ok = ~empty[pa] & ~empty[pb] & (node[pa] != node[pb])
    pa, pb = pa[ok], pb[ok]
    both = lib[pa] & lib[pb]
    dsu = _DSU(n)
    tree: dict = {}
    for a, b in zip(pa[both].tolist(), pb[both].tolist()):
        if dsu.find(a) != dsu.find(b):
            dsu.union(a, b)
            tree.setdefault(a, {})[b] = ("std", a, b)
            tree.setdefault(b, {})[a] = ("std", a, b)
    edges = {}
    for a, b in zip(pa[~both].tolist(), pb[~both].tolist()):
        cands = _join_candidates(L, a, b, bool(lib[a]), bool(lib[b]))
        if not cands:
            continue
        key = (int(node[a]), int(node[b]))
        if key[0] > key[1]:
            key = key[::-1]
        edges.setdefault(key, []).extend(cands)
    # joins to library cells before joins between two groups (fewer ports per group)
    for (x, y), cands in sorted(edges.items(), key=lambda kv: (special[kv[0][0]] and special[kv[0][1]],
                                                               -len(kv[1]))):
        if dsu.find(x) != dsu.find(y):
            dsu.union(x, y)
            tree.setdefault(x, {})[y] = cands
            tree.setdefault(y, {})[x] = cands
    nodes = np.unique(node[~empty])
    roots = {dsu.find(int(x)) for x in nodes.tolist()}
    if len(roots) > 1:
        # merge two adjacent nodes of different components
        cell_a = np.concatenate([cell[:, :-1].ravel(), cell[:-1, :].ravel()])
        cell_b = np.concatenate([cell[:, 1:].ravel(), cell[1:, :].ravel()])
        for a, b in zip(cell_a.tolist(), cell_b.tolist()):
            if not empty[a] and not empty[b] and dsu.find(int(node[a])) != dsu.find(int(node[b])):
                return tree, None, (a, b)
        raise BlocksNotApplicable("the board falls apart into pieces no join connects")
    return tree, None, None


def _tree_edges(tree):
    seen = set()
    for x, nbrs in tree.items():
        for y, cands in nbrs.items():
            k = (min(x, y), max(x, y))
            if k not in seen:
                seen.add(k)
                yield k, cands


def _bfs_groups(tree, groups):
    """Groups in BFS order from the library cells and the first group."""
    gs = set(groups)
    out, seen = [], set()
    for g0 in groups:
        if g0 in seen:
            continue
        dq = deque([g0])
        seen.add(g0)
        while dq:
            x = dq.popleft()
            if x in gs:
                out.append(x)
            for y in tree.get(x, {}):
                if y not in seen:
                    seen.add(y)
                    dq.append(y)
    return out


def _halves(cand, g, root, L):
    """(my half, their half) of a candidate join for group g."""
    _, a1, a2, b1, b2 = cand
    ca = L.cell_of(*a1)
    ga = root(ca) if True else ca
    if ga == g:
        return (a1, a2), (b1, b2)
    return (b1, b2), (a1, a2)


def _has_move(sol, half, C):
    (a, b) = half
    return frozenset((a[0] * C + a[1], b[0] * C + b[1])) in sol[1]


def _present(nb, cand, C):
    _, a1, a2, b1, b2 = cand
    i = lambda s: s[0] * C + s[1]  # noqa: E731
    return i(a2) in nb[i(a1)] and i(b2) in nb[i(b1)]


def _replace(nb, x, old, new):
    if nb[x, 0] == old:
        nb[x, 0] = new
    elif nb[x, 1] == old:
        nb[x, 1] = new
    else:  # pragma: no cover - a bug
        raise RuntimeError("join: move missing")


def _swap(nb, cand, C):
    """Delete a1-a2 and b1-b2, add a1-b1 and a2-b2."""
    _, a1, a2, b1, b2 = cand
    a1, a2, b1, b2 = (s[0] * C + s[1] for s in (a1, a2, b1, b2))
    _replace(nb, a1, a2, b1)
    _replace(nb, a2, a1, b2)
    _replace(nb, b1, b2, a1)
    _replace(nb, b2, b1, a2)


def _stamp_library(L: _Layout, special, nb):
    """Library port pieces on every library cell, stamped per shape with numpy."""
    C = L.C
    lib = np.flatnonzero(~special & L.lib.ravel())
    if lib.size == 0:
        return
    i, j = np.divmod(lib, L.q)
    hs = np.asarray(L.rp)[i]
    ws = np.asarray(L.cp)[j]
    base = L.ro[i] * C + L.co[j]
    for h in np.unique(hs).tolist():
        for w in np.unique(ws[hs == h]).tolist():
            sel = (hs == h) & (ws == w)
            piece = _port_piece(h, w)
            fwd, bwd = piece.succ[0], piece.succ[1]
            k = np.arange(h * w)
            loc = (k // w) * C + k % w
            n0 = (fwd // w) * C + fwd % w
            n1 = (bwd // w) * C + bwd % w
            b = base[sel]
            for lo in range(0, b.size, 4096):
                bb = b[lo:lo + 4096][:, None]
                sq = (bb + loc[None, :]).ravel()
                nb[sq, 0] = (bb + n0[None, :]).ravel()
                nb[sq, 1] = (bb + n1[None, :]).ravel()
    _ = port_edges  # the port layout these pieces follow


# ====================================================================== hole families
def random_rectangles(rows: int, cols: int, count: int, max_side: int, seed: int = 0,
                      margin: int = 0, gap: int = 1) -> np.ndarray:
    """A hole mask of ``count`` random rectangles with sides 1..``max_side`` (seeded).

    The rectangles have even area (so as many dark as light squares), keep ``margin``
    squares from the edges and ``gap`` squares from each other (a rectangle that does
    not fit is drawn again, up to 100 times): the colour count never rules a closed tour
    out by itself.

    >>> m = random_rectangles(40, 40, 3, 6, seed=1)
    >>> m.shape, int(m.sum()) % 2
    ((40, 40), 0)
    """
    rng = np.random.default_rng(seed)
    mask = np.zeros((rows, cols), dtype=bool)
    placed = 0
    for _ in range(100 * count):
        if placed == count:
            break
        h = int(rng.integers(1, max_side + 1))
        w = int(rng.integers(1, max_side + 1))
        if h * w % 2:
            if w < max_side:
                w += 1
            elif h > 1:
                h -= 1
            else:
                w -= 1
        if h < 1 or w < 1 or h > rows - 2 * margin or w > cols - 2 * margin:
            continue
        r = int(rng.integers(margin, rows - margin - h + 1))
        c = int(rng.integers(margin, cols - margin - w + 1))
        if mask[max(0, r - gap):r + h + gap, max(0, c - gap):c + w + gap].any():
            continue
        mask[r:r + h, c:c + w] = True
        placed += 1
    return mask


def scattered_squares(rows: int, cols: int, count: int, seed: int = 0, margin: int = 3) -> np.ndarray:
    """A hole mask of ``count`` random single squares, colour-balanced, ``margin`` from the edges.

    Half the squares are dark and half light (``count`` even), so the colour count
    allows a closed tour.

    >>> m = scattered_squares(20, 20, 6, seed=2)
    >>> int(m.sum()), int((m & (np.add.outer(np.arange(20), np.arange(20)) % 2 == 1)).sum())
    (6, 3)
    """
    rng = np.random.default_rng(seed)
    mask = np.zeros((rows, cols), dtype=bool)
    want = [count // 2, count - count // 2]  # light, dark
    while sum(want) > 0:
        r = int(rng.integers(margin, rows - margin))
        c = int(rng.integers(margin, cols - margin))
        k = (r + c) % 2
        if not mask[r, c] and want[k] > 0:
            mask[r, c] = True
            want[k] -= 1
    return mask
