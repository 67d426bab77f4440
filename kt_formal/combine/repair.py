"""Hole repair: a tour of the whole rectangle, re-routed around the holes one window at a time.

For boards with many small holes spread over a large rectangle (scattered squares,
small rectangles), cutting the board into blocks around every hole leaves blocks whose
colour counts do not balance. This construction starts instead from a closed tour of
the *whole* rectangle (divide and conquer, :mod:`kt_formal.combine.divide`) and removes
the holes a few at a time:

1. The holes are grouped into *clusters* whose dark and light squares balance: the
   connected groups of holes, then each unbalanced group merged with its nearest groups
   of the opposite excess (least total squared distance, scipy's assignment solvers),
   joined by a corridor.
2. Around each cluster a *window* is opened: its bounding box widened by
   :data:`MARGIN` squares (a knight moves at most two squares, so every tour move at a
   hole stays inside). Inside the window the tour is a set of paths, each entering at a
   square ``b`` and leaving at a square ``a``; outside, the tour runs from each ``a`` to
   the next entry ``b'`` in tour order.
3. One CP-SAT circuit model re-routes the window: its nodes are the window's squares
   minus the cluster's holes, its arcs the knight moves among them, plus one *fixed*
   arc ``a -> b'`` standing for each stretch of the tour outside. A circuit through them
   all is exactly one tour of the board without these holes. A window that cannot be
   re-routed is widened and tried again.

The order of the tour's stretches is read from a position array (float, refined by
interpolation when a window keeps its entry/exit pairs, recomputed by a walk when it does
not). The work is proportional to the windows' area plus one walk of the board per
window that changes its pairs. Every tour is checked by the kernel before it leaves
the engine that calls this.

On large boards with many clusters the rows are cut into bands that are repaired side by
side (each band a tour of its own, so no window waits for another band's), then spliced
into one tour by two knight moves at each cut; the clusters near a cut are repaired last,
on the joined tour. Measured with ``python benchmarks/bench_holes.py --full --family
scattered``: 2000 x 2000 with 4,000 single holes in 68 s on 2 cores (223 s one window at
a time).

>>> import numpy as np
>>> from kt_formal.board import Board
>>> holes = np.zeros((16, 16), dtype=bool); holes[5, 5] = holes[9, 8] = True
>>> t = repair_tour(Board(16, 16, holes=holes))
>>> t.check() is None, len(t.order)
(True, 254)
"""

from __future__ import annotations

import time

import numpy as np

from kt_formal.board import Board
from kt_formal.combine.blocks import _DSU

__all__ = ["repair_tour", "RepairNotApplicable", "clusters", "hole_groups", "MARGIN"]

#: Squares a window reaches beyond its cluster's holes.
MARGIN = 3
#: Half-width of the corridor between paired holes (widened with the margin).
CORRIDOR = 2
#: Widening steps tried for a window that cannot be re-routed.
WIDEN = (0, 2, 4)
#: Largest window (squares) given to CP-SAT.
MAX_WINDOW = 4000

_MOVES = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))


class RepairNotApplicable(Exception):
    """The hole repair does not apply to this board, or a window could not be re-routed."""


# ====================================================================== clusters
def _components(hole_rc: np.ndarray, rows: int, cols: int) -> np.ndarray:
    """Label of each hole's 8-connected group of holes (scipy's image labelling)."""
    from scipy.ndimage import label

    mask = np.zeros((rows, cols), dtype=bool)
    mask[hole_rc[:, 0], hole_rc[:, 1]] = True
    labels, _ = label(mask, structure=np.ones((3, 3), dtype=bool))
    return labels[hole_rc[:, 0], hole_rc[:, 1]].astype(np.int64)


#: Above this many tokens the matching uses a sparse graph of near neighbours.
DENSE_MATCH = 2500


def _match(pd: np.ndarray, pl: np.ndarray) -> np.ndarray:
    """For each point of ``pd`` the index of its partner in ``pl`` (least total squared distance)."""
    n = len(pd)
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    if n <= DENSE_MATCH:
        from scipy.optimize import linear_sum_assignment

        cost = ((pd[:, None, :] - pl[None, :, :]) ** 2).sum(axis=2)
        rows, cols = linear_sum_assignment(cost)
        out = np.empty(n, dtype=np.int64)
        out[rows] = cols
        return out
    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import min_weight_full_bipartite_matching
    from scipy.spatial import cKDTree

    tree = cKDTree(pl)
    for k in (16, 48, 128):
        dist, idx = tree.query(pd, k=min(k, n))
        graph = csr_matrix(((dist.ravel() ** 2) + 1e-9, (np.repeat(np.arange(n), idx.shape[1]), idx.ravel())),
                           shape=(n, n))
        try:
            rows, cols = min_weight_full_bipartite_matching(graph)
        except ValueError:  # no full matching among the near neighbours: take more
            continue
        out = np.empty(n, dtype=np.int64)
        out[rows] = cols
        return out
    raise RepairNotApplicable("the holes' colours could not be paired among near neighbours")


def hole_groups(holes: np.ndarray) -> np.ndarray:
    """The sizes of the 8-connected groups of holes.

    >>> m = np.zeros((6, 6), dtype=bool); m[0, 0] = m[1, 1] = m[4, 4] = True
    >>> sorted(hole_groups(m).tolist())
    [1, 2]
    """
    hole_rc = np.argwhere(holes)
    if len(hole_rc) == 0:
        return np.zeros(0, dtype=np.int64)
    comp = _components(hole_rc, *holes.shape)
    return np.unique(comp, return_counts=True)[1]


def clusters(holes: np.ndarray) -> list[tuple[np.ndarray, list]]:
    """Groups of holes with as many dark as light squares, and the pairs that balance them.

    The 8-connected groups of holes are the units. A unit with more dark than light
    squares is paired with nearby units with more light ones (each square of excess once),
    shortest pairs first; a cluster is a unit with the units paired with it, transitively.

    Parameters
    ----------
    holes : bool array (rows, cols)
        True on the holes.

    Returns
    -------
    list of (int array (k, 2), list of ((r, c), (r, c)))
        Each cluster's holes (row, col) and the centres of its paired units, to be joined
        by corridors.

    Raises
    ------
    RepairNotApplicable
        When the holes as a whole do not balance (then no closed tour exists at all).

    >>> m = np.zeros((10, 10), dtype=bool); m[2, 2] = m[2, 3] = m[7, 7] = m[8, 9] = True
    >>> sorted((len(h), len(p)) for h, p in clusters(m))
    [(2, 0), (2, 1)]
    """
    rows, cols = holes.shape
    hole_rc = np.argwhere(holes)
    if len(hole_rc) == 0:
        return []
    comp = _components(hole_rc, rows, cols)
    labels, inv = np.unique(comp, return_inverse=True)
    k = len(labels)
    dark = ((hole_rc[:, 0] + hole_rc[:, 1]) % 2 == 1).astype(np.int64)
    excess = np.bincount(inv, weights=2 * dark - 1, minlength=k).astype(np.int64)
    if excess.sum() != 0:
        raise RepairNotApplicable("the holes take more squares of one colour than of the other")
    centre = np.stack([np.bincount(inv, weights=hole_rc[:, 0], minlength=k),
                       np.bincount(inv, weights=hole_rc[:, 1], minlength=k)], axis=1)
    centre /= np.bincount(inv, minlength=k)[:, None]
    members = [[] for _ in range(k)]
    for i, g in enumerate(inv.tolist()):
        members[g].append(i)
    # one token per square of excess; dark-excess tokens matched to light-excess ones
    # at the least total squared distance (scipy's assignment solvers)
    tok_d = np.repeat(np.nonzero(excess > 0)[0], excess[excess > 0])
    tok_l = np.repeat(np.nonzero(excess < 0)[0], -excess[excess < 0])
    pairs = list(zip(tok_d.tolist(), tok_l[_match(centre[tok_d], centre[tok_l])].tolist()))
    dsu = _DSU(k)
    for g, h in pairs:
        dsu.union(g, h)
    by_root = {}
    for g in range(k):
        by_root.setdefault(dsu.find(g), []).append(g)
    pair_of = {}
    for g, h in pairs:
        pair_of.setdefault(dsu.find(g), []).append((tuple(centre[g].round().astype(int).tolist()),
                                                tuple(centre[h].round().astype(int).tolist())))
    out = []
    for root, group in by_root.items():
        out.append((hole_rc[[i for x in group for i in members[x]]], pair_of.get(root, [])))
    return out


_NUMBER = None


def _numberer():
    global _NUMBER
    if _NUMBER is None:
        from kt_formal.engines._jit import cached_njit

        @cached_njit(nogil=True)
        def _number(succ, start, length, pos):  # pragma: no cover - compiled
            cur = start
            for k in range(length):
                pos[cur] = k
                cur = succ[cur]

        _NUMBER = _number
    return _NUMBER


# ====================================================================== one window
class _State:
    """The current tour as successor / predecessor arrays with positions along it."""

    def __init__(self, succ: np.ndarray, rows: int, cols: int, renumber: bool = True):
        """``succ``: each square's successor on one cycle, -1 on squares already removed."""
        self.rows, self.cols = rows, cols
        self.succ = succ.astype(np.int64, copy=False)
        self.alive = self.succ >= 0
        live = np.nonzero(self.alive)[0]
        self.pred = np.full_like(self.succ, -1)
        self.pred[self.succ[live]] = live
        self.n_alive = len(live)
        self.pos = np.empty(len(self.succ), dtype=np.float64)
        self.in_window = np.zeros(len(self.succ), dtype=bool)
        self.walks = 0
        if renumber:
            self.renumber()

    def renumber(self):
        """Positions 0, 1, ... along the tour (one walk, in place)."""
        start = int(np.argmax(self.alive))
        _numberer()(self.succ, start, self.n_alive, self.pos)
        self.period = float(self.n_alive)  # positions lie in [0, period), cyclically
        self.walks += 1

    def order(self) -> np.ndarray:
        from kt_formal.combine.walk import walk

        return walk(self.succ, int(np.argmax(self.alive)), self.n_alive)


def window_squares(st_alive: np.ndarray, rows: int, cols: int, holes: np.ndarray, pairs, margin: int) -> np.ndarray:
    """The live squares of a cluster's window: every square within ``margin`` of a hole,
    and an L-shaped corridor of half-width ``margin`` between the units of each pair."""
    lo = np.maximum(holes.min(axis=0) - margin, 0)
    hi = np.minimum(holes.max(axis=0) + margin + 1, (rows, cols))
    for p, q in pairs:
        lo = np.minimum(lo, np.maximum(np.minimum(p, q) - margin, 0))
        hi = np.minimum(np.maximum(hi, np.maximum(p, q) + margin + 1), (rows, cols))
    h, w = int(hi[0] - lo[0]), int(hi[1] - lo[1])
    win = np.zeros((h, w), dtype=bool)

    def fill(r0, r1, c0, c1, m):  # global rows r0..r1, cols c0..c1 inclusive, widened by m
        win[max(r0 - m - lo[0], 0):max(r1 + m + 1 - lo[0], 0),
            max(c0 - m - lo[1], 0):max(c1 + m + 1 - lo[1], 0)] = True

    for r, c in holes.tolist():
        fill(r, r, c, c, margin)
    half = margin - (MARGIN - CORRIDOR)
    for (r1, c1), (r2, c2) in pairs:
        fill(r1, r1, min(c1, c2), max(c1, c2), half)
        fill(min(r1, r2), max(r1, r2), c2, c2, half)
    rr, cc = np.nonzero(win)
    sq = (rr + lo[0]) * cols + (cc + lo[1])
    return sq[st_alive[sq]]


def _window_graph(st: _State, keep: np.ndarray):
    """The knight moves among the window's squares ``keep`` (sorted): local neighbour table (N, 8), -1 padded."""
    cols, rows = st.cols, st.rows
    kr, kc = np.divmod(keep, cols)
    nb = np.full((len(keep), 8), -1, dtype=np.int64)
    for k, (dr, dc) in enumerate(_MOVES):
        vr, vc = kr + dr, kc + dc
        ok = (vr >= 0) & (vr < rows) & (vc >= 0) & (vc < cols)
        v = vr * cols + vc
        j = np.minimum(np.searchsorted(keep, v), len(keep) - 1)
        found = ok & (keep[j] == v)
        nb[found, k] = j[found]
    return nb


def _local(keep: np.ndarray, x: np.ndarray) -> np.ndarray:
    """Local indices in ``keep`` (sorted) of squares ``x``; -1 for those not in it."""
    if len(keep) == 0:
        return np.full(len(x), -1, dtype=np.int64)
    j = np.minimum(np.searchsorted(keep, x), len(keep) - 1)
    return np.where(keep[j] == x, j, -1)


def _solve_window(nb, is_entry, is_exit, fixed_next, time_limit, seed, stats):
    """Successor (local) of every node on a cycle through the whole window, or None (CP-SAT's circuit)."""
    n = len(nb)
    nxt = np.full(n, -1, dtype=np.int64)
    from ortools.sat.python import cp_model

    model = cp_model.CpModel()
    u_idx, k_idx = np.nonzero((nb >= 0) & ~is_exit[:, None])
    v_idx = nb[u_idx, k_idx]
    sel = ~is_entry[v_idx]
    u_idx, v_idx = u_idx[sel].tolist(), v_idx[sel].tolist()
    lits = [model.new_bool_var("") for _ in u_idx]
    arcs = list(zip(u_idx, v_idx, lits))
    one = model.new_constant(1)
    for a in np.nonzero(is_exit)[0].tolist():
        arcs.append((a, int(fixed_next[a]), one))
    model.add_circuit(arcs)
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = max(0.05, time_limit)
    solver.parameters.num_workers = 1
    solver.parameters.random_seed = seed
    # measured on 2000 x 2000 with 4,000 holes: 1.6x faster than the defaults
    solver.parameters.symmetry_level = 0
    solver.parameters.cp_model_probing_level = 0
    solver.parameters.search_branching = cp_model.LP_SEARCH
    # a window is small and easy: presolve costs more than it saves (1.4x measured)
    solver.parameters.cp_model_presolve = False
    status = solver.solve(model)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return None
    if stats is not None:
        stats["cp_sat"] = stats.get("cp_sat", 0) + 1
    for u, v, lit in zip(u_idx, v_idx, lits):
        if solver.boolean_value(lit):
            nxt[u] = v
    ex = np.nonzero(is_exit)[0]
    nxt[ex] = fixed_next[ex]
    return nxt


def _reroute(st: _State, sq: np.ndarray, remove: np.ndarray, time_limit: float, seed: int, stats=None) -> bool:
    """Re-route the tour inside the window ``sq`` without the squares ``remove``; False if it could not.

    The paths inside may pair their entries and exits anew; when every one keeps its own
    exit the positions are refined in place, else a walk recomputes them. (Keeping the
    pairs as a constraint, with a label per square, was measured slower: the harder model
    fails more often.)
    """
    if len(sq) > MAX_WINDOW:
        return False
    st.in_window[sq] = True
    try:
        succ, pred = st.succ, st.pred
        entries = sq[~st.in_window[pred[sq]]]
        exits_ = sq[~st.in_window[succ[sq]]]
        removed = np.isin(sq, remove)
        if len(entries) != len(exits_):  # pragma: no cover - the tour is one cycle
            raise RuntimeError("a window's entries and exits do not pair up")
        # the paths inside, in tour order, each from its entry to its exit
        entries = entries[np.argsort(st.pos[entries], kind="stable")]
        path_exit = []
        for b in entries.tolist():
            u = b
            while st.in_window[succ[u]]:
                u = int(succ[u])
            path_exit.append(u)
        path_exit = np.array(path_exit, dtype=np.int64)
        if np.isin(entries, remove).any() or np.isin(path_exit, remove).any():
            return False  # a hole on the window's edge: widen
        keep = sq[~removed]
        m = len(entries)
        nb = _window_graph(st, keep)
        ent_l, ex_l = _local(keep, entries), _local(keep, path_exit)
        is_entry = np.zeros(len(keep), dtype=bool)
        is_entry[ent_l] = True
        is_exit = np.zeros(len(keep), dtype=bool)
        is_exit[ex_l] = True
        fixed_next = np.full(len(keep), -1, dtype=np.int64)
        fixed_next[ex_l] = np.roll(ent_l, -1)  # the stretches outside, fixed
        nxt = _solve_window(nb, is_entry, is_exit, fixed_next, time_limit, seed, stats)
        if nxt is None:
            return False
        # write the new moves
        inner = ~is_exit
        succ[keep[inner]] = keep[nxt[inner]]
        pred[keep[nxt[inner]]] = keep[inner]
        rem = sq[removed]
        succ[rem] = -1
        pred[rem] = -1
        st.alive[rem] = False
        st.n_alive -= len(rem)
        # positions: interpolate when every path still runs from its entry to its own exit
        paths = []
        same = True
        for b, a in zip(entries.tolist(), path_exit.tolist()):
            path = [b]
            u = b
            while st.in_window[succ[u]]:
                u = int(succ[u])
                path.append(u)
            if u != a:
                same = False
                break
            paths.append(path)
        if same and m:
            total = st.period
            for path in paths:
                p0, p1 = st.pos[path[0]], st.pos[path[-1]]
                span = p1 - p0
                if span < 0:
                    span += total
                if len(path) > 1:
                    st.pos[path] = (p0 + span * np.arange(len(path)) / (len(path) - 1)) % total
        else:
            st.renumber()
        return True
    finally:
        st.in_window[sq] = False


# ====================================================================== construction
#: Bands the board is cut into for the windows to be re-routed side by side (at most).
BANDS = 4
#: Least rows of a band, and least clusters for the board to be cut into bands.
BAND_ROWS, BAND_CLUSTERS = 64, 100
#: Rows a cluster's windows may reach beyond its holes and corridors (the widest window).
REACH = MARGIN + max(WIDEN)


def _repair_groups(st: _State, groups, t0: float, time_limit, window_limit: float, seed: int,
                   stop, stats) -> None:
    """Re-route a window around each cluster in turn (widening it on failure), in place."""
    rows, cols = st.rows, st.cols
    # nearby clusters one after the other (row-major order of their first hole)
    groups = sorted(groups, key=lambda g: (int(g[0][:, 0].min()) // 16, int(g[0][:, 1].min())))
    for g, pairs in groups:
        remove = g[:, 0] * cols + g[:, 1]
        lo = g.min(axis=0)
        for extra in WIDEN:
            sq = window_squares(st.alive, rows, cols, g, pairs, MARGIN + extra)
            if stop is not None and stop.is_set():
                raise RepairNotApplicable("stopped: another answer came first")
            left = None if time_limit is None else time_limit - (time.perf_counter() - t0)
            if left is not None and left <= 0:
                raise RepairNotApplicable(f"ran out of time after {stats.get('windows', 0)} windows")
            stats["windows"] = stats.get("windows", 0) + 1
            if _reroute(st, sq, remove, window_limit if left is None else min(window_limit, left), seed, stats):
                break
            stats["widened"] = stats.get("widened", 0) + 1
        else:
            raise RepairNotApplicable(f"the window around the holes near {tuple(int(x) for x in lo)} "
                                      "could not be re-routed")


def _bands(rows: int, cols: int, n_groups: int) -> list[int]:
    """Row cuts ``[0, r1, ..., rows]`` of the bands (one band for small boards).

    Every band has at least :data:`BAND_ROWS` rows and, on an odd number of columns, an
    even number of rows, so that it has a closed tour of its own.
    """
    k = min(BANDS, rows // BAND_ROWS) if n_groups >= BAND_CLUSTERS else 1
    if k <= 1:
        return [0, rows]
    cuts = [round(i * rows / k) for i in range(k + 1)]
    if cols % 2:
        cuts = [c - c % 2 for c in cuts[:-1]] + [rows]
    return cuts


def _band_of(g: np.ndarray, pairs, cuts: list[int]) -> int:
    """The band whose rows hold every window of this cluster, or -1 (the cluster waits)."""
    r = [int(g[:, 0].min()), int(g[:, 0].max())]
    for p, q in pairs:
        r = [min(r[0], p[0], q[0]), max(r[1], p[0], q[0])]
    for b in range(len(cuts) - 1):
        lo_ok = cuts[b] == 0 or r[0] - REACH >= cuts[b]
        hi_ok = cuts[b + 1] == cuts[-1] or r[1] + REACH < cuts[b + 1]
        if lo_ok and hi_ok:
            return b
        if r[0] < cuts[b + 1]:
            return -1
    return -1  # pragma: no cover - every row lies in a band


def _splice(succ: np.ndarray, pred: np.ndarray, rows: int, cols: int, cut: int) -> bool:
    """Join the cycle above row ``cut`` with the cycle below it by two knight moves, in place.

    Finds a move ``a -> b`` above and ``c -> d`` below with ``a - d`` and ``c - b`` knight
    moves, and replaces them by ``a -> d`` and ``c -> b``: one cycle ``a d .. c b .. a``.
    """
    for r in range(cut - 1, max(cut - 3, -1), -1):
        a = r * cols + np.arange(cols)
        b = succ[a]
        ok_a = (a >= 0) & (b >= 0)
        for dr, dc in _MOVES:
            if r + dr < cut or r + dr >= rows:
                continue
            dcol = np.arange(cols) + dc
            okd = ok_a & (dcol >= 0) & (dcol < cols)
            d = np.where(okd, (r + dr) * cols + dcol, 0)
            okd &= succ[d] >= 0
            c = np.where(okd, pred[d], 0)
            br, bc = np.divmod(b, cols)
            cr, cc = np.divmod(c, cols)
            km = ((np.abs(br - cr) == 1) & (np.abs(bc - cc) == 2)) | ((np.abs(br - cr) == 2) & (np.abs(bc - cc) == 1))
            hit = np.nonzero(okd & km & (cr >= cut))[0]
            if len(hit):
                i = int(hit[0])
                aa, bb, cc_, dd = int(a[i]), int(b[i]), int(c[i]), int(d[i])
                succ[aa], pred[dd] = dd, aa
                succ[cc_], pred[bb] = bb, cc_
                return True
    return False


def repair_tour(board: Board, *, time_limit: float | None = 60.0, seed: int = 0, stats=None,
                stop=None, window_limit: float = 1.5, workers: int | None = None):
    """A closed tour of ``board`` (a rectangle with holes) by repairing a tour of the whole rectangle.

    On a large board with many clusters the rows are cut into bands (:data:`BANDS` at
    most): each band gets a tour of its own and re-routes the clusters that lie well
    inside it, the bands side by side (threads: CP-SAT and the walks run without
    Python's lock); then the bands' tours are spliced into one and the clusters near the
    cuts are re-routed on it. The bands depend on the board only, not on the workers.

    Parameters
    ----------
    board : Board
        Both sides at least 5 and an even number of squares in the rectangle.
    time_limit : float or None
        Seconds for the whole construction.
    seed : int
        CP-SAT's seed for the windows.
    stats : dict, optional
        Filled with ``clusters``, ``bands``, ``windows`` (re-routes tried), ``widened``,
        ``walks`` and ``cp_sat`` (windows CP-SAT re-routed).
    stop : threading.Event, optional
        Ends the construction early (RepairNotApplicable).
    window_limit : float
        Seconds CP-SAT may spend on one window.
    workers : int, optional
        Bands re-routed at once (default: the processor count).

    Returns
    -------
    Tour
        Not yet checked (the engine that calls this checks it).

    Raises
    ------
    RepairNotApplicable
        Odd x odd rectangles, a side below 5, holes that do not balance, a window that
        could not be re-routed, the time limit, or ``stop``.
    """
    import os
    from concurrent.futures import ThreadPoolExecutor

    from kt_formal.combine.divide import construct_succ, tour_exists
    from kt_formal.tour import Tour

    t0 = time.perf_counter()
    rows, cols = board.rows, board.cols
    if min(rows, cols) < 5:
        raise RepairNotApplicable("the rectangle has a side below 5")
    if not tour_exists(rows, cols, True)[0]:
        raise RepairNotApplicable(f"the {rows}x{cols} rectangle itself has no closed tour")
    groups = clusters(board.hole_mask)
    cuts = _bands(rows, cols, len(groups))
    nb_ = len(cuts) - 1
    per_band = [[] for _ in range(nb_)]
    later = []
    for g, pairs in groups:
        b = _band_of(g, pairs, cuts) if nb_ > 1 else 0
        if b < 0:
            later.append((g, pairs))
        else:
            r0 = cuts[b]
            per_band[b].append((g - np.array([r0, 0]),
                                [((p[0] - r0, p[1]), (q[0] - r0, q[1])) for p, q in pairs]))
    band_stats = [{} for _ in range(nb_)]

    def band(b):
        h = cuts[b + 1] - cuts[b]
        succ, _start, closed = construct_succ(h, cols)
        if not closed:  # pragma: no cover - an even rectangle gives a closed tour
            raise RepairNotApplicable("the rectangle's tour is not closed")
        st = _State(succ, h, cols)
        _repair_groups(st, per_band[b], t0, time_limit, window_limit, seed, stop, band_stats[b])
        band_stats[b]["walks"] = st.walks
        return st

    if nb_ == 1:
        states = [band(0)]
    else:
        with ThreadPoolExecutor(max_workers=max(1, min(nb_, workers or os.cpu_count() or 1))) as pool:
            states = list(pool.map(band, range(nb_)))
    if nb_ == 1:
        st = states[0]
    else:
        succ = np.empty(rows * cols, dtype=np.int64)
        for b, sb in enumerate(states):
            off = cuts[b] * cols
            sub = sb.succ
            succ[off:off + len(sub)] = np.where(sub >= 0, sub + off, -1)
        del states
        st = _State(succ, rows, cols, renumber=False)  # a cycle per band until spliced
        for cut in cuts[1:-1]:
            if not _splice(st.succ, st.pred, rows, cols, cut):
                raise RepairNotApplicable(f"the bands' tours could not be spliced at row {cut}")
        st.renumber()
    total = {"windows": 0, "widened": 0, "cp_sat": 0}
    for bs in band_stats:
        for k, v in bs.items():
            total[k] = total.get(k, 0) + v
    walks = total.pop("walks", 0)
    _repair_groups(st, later, t0, time_limit, window_limit, seed, stop, total)
    if stats is not None:
        stats.update(total, clusters=len(groups), bands=nb_, walks=walks + (st.walks if nb_ > 1 else 0))
    order = st.order()
    return Tour(board, order, True)
