"""Hole repair: a tour of the whole rectangle, re-routed around the holes window by window.

For boards with many small holes spread over a large rectangle (scattered squares,
small rectangles), cutting the board into blocks around every hole leaves blocks whose
colour counts do not balance. This construction starts instead from a closed tour of
the *whole* rectangle (divide and conquer, :mod:`kt_formal.combine.divide`) and removes
the holes a few at a time:

1. The holes are grouped into *clusters* whose dark and light squares balance: the
   connected groups of holes, then each unbalanced group paired with groups of the
   opposite excess (least total squared distance, scipy's assignment solvers), joined
   by a corridor. A pair further apart than :data:`HOP` squares is walked in hops
   (:func:`plan`): a *waypoint* square is removed a hop away, put back by the next
   window, which removes the next one, and so on; every window stays small.
2. Around each step of the plan a *window* is opened: every square within
   :data:`MARGIN` of its holes and waypoints (a knight moves at most two squares, so
   every tour move at a hole stays inside) and its corridors. Inside the window the
   tour is a set of paths, each entering at a square ``b`` and leaving at a square
   ``a``; outside, the tour runs from each ``a`` to the next entry ``b'`` in tour order.
3. One CP-SAT circuit model re-routes the window: its nodes are the window's squares
   minus the holes it removes plus the waypoints it puts back, its arcs the knight
   moves among them, plus one *fixed* arc ``a -> b'`` standing for each stretch of the
   tour outside. A circuit through them all is exactly one tour of the board as it is
   after the step. A window that cannot be re-routed is widened and tried again.

Windows that share no square are re-routed in a *batch*, side by side (threads: CP-SAT
runs without Python's lock), each for the tour as it was before the batch. A new route
may join the window's paths in a new order, which changes the order of every other
window's stretches: the routes are taken one by one while the batch's *contracted
cycle* (its paths in tour order, each path leading to the next) stays one cycle, and a
window whose route would split it is solved again for the order its paths now come in.
The tour is walked once per batch (positions along it order the next batch's paths).
The work is proportional to the windows' area (the holes' count times the length of
the pairs) plus one walk of the board per batch.

Uniformly random holes at 2000 x 2000 (4,000, half of each colour) used to fail: the
pairing leaves some pairs 100 to 200 squares apart, and a corridor that long is crossed
by hundreds of the tour's paths, so its window had no circuit (or none CP-SAT found in
time) even widened. Walked in hops of :data:`HOP`, every window is small. Measured with
``python benchmarks/bench_holes.py --full --family random``. Every tour is checked by
the kernel before it leaves the engine that calls this.

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

from kt_formal.engines.successors import compile_once
from kt_formal.board import Board
from kt_formal.combine.repair_plan import RepairNotApplicable, Step, KNIGHT_MOVES, plan

__all__ = ["repair_tour", "RepairNotApplicable", "plan", "Step", "pick_batch", "window_squares",
           "batch_size", "MARGIN", "window_kernels"]

#: Squares a window reaches beyond its cluster's holes.
MARGIN = 3
#: Half-width of the corridor between paired holes (widened with the margin).
CORRIDOR = 2
#: Widening steps tried for a window that cannot be re-routed.
WIDEN = (0, 2, 4)
#: Largest window (squares) given to CP-SAT.
MAX_WINDOW = 4000
#: CP-SAT's deterministic time (``max_deterministic_time``) for the first, light attempt at a
#: window (no linear relaxation; see :func:`_solve_window`): about the 0.05 s of wall clock it
#: had before on an idle machine (the windows' solves count 0.6 units a CPU second when they
#: run that long). A budget of deterministic time does not shrink on a busy machine, so which
#: windows are solved, and the tour, do not depend on the load.
QUICK_WORK = 0.03
#: CP-SAT's deterministic time for one window, both attempts (about the 1.5 s of wall clock
#: it had before on an idle machine).
WINDOW_WORK = 0.6


# ====================================================================== clusters


# ====================================================================== compiled loops
def _number(succ, start, length, pos):  # pragma: no cover - compiled
    cur = start
    for k in range(length):
        pos[cur] = k
        cur = succ[cur]


def _one_cycle(jump):  # pragma: no cover - compiled
    n = jump.shape[0]
    cur = 0
    for k in range(1, n + 1):
        cur = jump[cur]
        if cur == 0:
            return k == n
    return False


def _cycle_pos(jump, out):  # pragma: no cover - compiled
    cur = 0
    for k in range(jump.shape[0]):
        out[cur] = k
        cur = jump[cur]


def _exits(succ, win, w, entries, out):  # pragma: no cover - compiled
    for i in range(entries.shape[0]):
        u = entries[i]
        while win[succ[u]] == w:
            u = succ[u]
        out[i] = u


_MAKERS = (compile_once(_number, nogil=True), compile_once(_one_cycle, nogil=True),
           compile_once(_cycle_pos, nogil=True), compile_once(_exits, nogil=True))


def window_kernels():
    """The numbering walk of the tour, the two loops over the contracted cycle and the walk
    of a window's paths to their exits (numba)."""
    return tuple(make() for make in _MAKERS)


# ====================================================================== the tour
class _State:
    """The current tour as successor / predecessor arrays with positions along it."""

    def __init__(self, succ: np.ndarray, rows: int, cols: int):
        """``succ``: each square's successor on one cycle, -1 on squares already removed."""
        self.rows, self.cols = rows, cols
        self.succ = succ
        self.alive = self.succ >= 0
        live = np.nonzero(self.alive)[0]
        self.pred = np.full_like(self.succ, -1)
        self.pred[self.succ[live]] = live
        self.n_alive = len(live)
        self.pos = np.empty(len(self.succ), dtype=self.succ.dtype)  # int32 below 2**31 squares
        self.walks = 0
        self.renumber()

    def renumber(self):
        """Positions 0, 1, ... along the tour (one walk, in place)."""
        start = int(np.argmax(self.alive))
        window_kernels()[0](self.succ, start, self.n_alive, self.pos)
        self.walks += 1

    def order(self) -> np.ndarray:
        from kt_formal.combine.walk import walk

        return walk(self.succ, int(np.argmax(self.alive)), self.n_alive)


# ====================================================================== one window
def window_squares(usable: np.ndarray, rows: int, cols: int, spots: np.ndarray, segs, margin: int) -> np.ndarray:
    """The usable squares of a window (sorted): every square within ``margin`` of a spot,
    and an L-shaped corridor of half-width ``margin - 1`` along each segment (row first)."""
    lo = np.maximum(spots.min(axis=0) - margin, 0)
    hi = np.minimum(spots.max(axis=0) + margin + 1, (rows, cols))
    for p, q in segs:
        lo = np.minimum(lo, np.maximum(np.minimum(p, q) - margin, 0))
        hi = np.minimum(np.maximum(hi, np.maximum(p, q) + margin + 1), (rows, cols))
    h, w = int(hi[0] - lo[0]), int(hi[1] - lo[1])
    win = np.zeros((h, w), dtype=bool)

    def fill(r0, r1, c0, c1, m):  # global rows r0..r1, cols c0..c1 inclusive, widened by m
        win[max(r0 - m - lo[0], 0):max(r1 + m + 1 - lo[0], 0),
            max(c0 - m - lo[1], 0):max(c1 + m + 1 - lo[1], 0)] = True

    for r, c in spots.tolist():
        fill(r, r, c, c, margin)
    half = margin - (MARGIN - CORRIDOR)
    for (r1, c1), (r2, c2) in segs:
        fill(r1, r1, min(c1, c2), max(c1, c2), half)
        fill(min(r1, r2), max(r1, r2), c2, c2, half)
    rr, cc = np.nonzero(win)
    sq = (rr + lo[0]) * cols + (cc + lo[1])
    return sq[usable[sq]]


def _window_graph(rows: int, cols: int, keep: np.ndarray):
    """The knight moves among the window's squares ``keep``: local neighbour table (N, 8), -1 padded.

    The squares are numbered in a box around them (two squares wider on every side, so
    that no move leaves it); off the board or outside ``keep`` reads -1.
    """
    kr, kc = np.divmod(keep, cols)
    r0, c0 = (int(kr.min()) - 2, int(kc.min()) - 2) if len(keep) else (0, 0)
    box = np.full((int(kr.max()) - r0 + 3 if len(keep) else 1, int(kc.max()) - c0 + 3 if len(keep) else 1),
                  -1, dtype=np.int64)
    lr, lc = kr - r0, kc - c0
    box[lr, lc] = np.arange(len(keep))
    nb = np.empty((len(keep), 8), dtype=np.int64)
    for k, (dr, dc) in enumerate(KNIGHT_MOVES):
        nb[:, k] = box[lr + dr, lc + dc]
    return nb


def _local(keep: np.ndarray, x: np.ndarray) -> np.ndarray:
    """Local indices in ``keep`` (sorted) of squares ``x``; -1 for those not in it."""
    if len(keep) == 0:
        return np.full(len(x), -1, dtype=np.int64)
    j = np.minimum(np.searchsorted(keep, x), len(keep) - 1)
    return np.where(keep[j] == x, j, -1)


def _solve_window(nb, is_entry, is_exit, fixed_next, seconds, work, seed):
    """Successor (local) of every node on a cycle through the whole window, or None (CP-SAT's circuit).

    ``work``: CP-SAT's deterministic time for the window; ``seconds``: the wall clock left
    to the whole repair (None: no limit).

    The model's arcs go straight into CP-SAT's proto (one Boolean per free arc, one
    constant true literal for the fixed arcs) and the answer is read back as one array.
    """
    from ortools.sat.python import cp_model

    from kt_formal.engines.circuit import Circuit

    n = len(nb)
    u_idx, k_idx = np.nonzero((nb >= 0) & ~is_exit[:, None])
    v_idx = nb[u_idx, k_idx]
    sel = ~is_entry[v_idx]
    ex = np.nonzero(is_exit)[0]
    circuit = Circuit(n)
    circuit.add_arcs(u_idx[sel], v_idx[sel])
    circuit.add_fixed_arcs(ex, fixed_next[ex])
    # Two attempts on one model. Most windows are easy: without the circuit's linear
    # relaxation CP-SAT solves them 2x faster (median 4.9 ms against 9.8 ms on the 1,264
    # windows of 500 x 500 with 1,000 random holes), but a few it then takes seconds on;
    # those get the default, with the LP, for the rest of their time (11.8 s -> 7.5 s for
    # all 1,264, the same windows solved).
    attempts = [(seconds, {"linearization_level": 0, "max_deterministic_time": min(QUICK_WORK, work)})]
    if work > QUICK_WORK:
        attempts.append((seconds, {"linearization_level": 1, "max_deterministic_time": work - QUICK_WORK}))
    status = circuit.solve(time_limit=seconds, workers=1, seed=seed, attempts=attempts,
                           # measured on 2000 x 2000 with 4,000 holes: 1.6x faster than the defaults
                           symmetry_level=0, cp_model_probing_level=0, search_branching=cp_model.LP_SEARCH,
                           # a window is small and easy: presolve costs more than it saves (1.4x measured),
                           # and so does inprocessing (3.4x: 5.3 ms -> 1.6 ms a window on 428 windows of
                           # 1000 x 1000 with 2,000 random holes, the same 420 solved)
                           cp_model_presolve=False, use_sat_inprocessing=False)
    if status != "found":
        return None
    return circuit.successors()[:n]


class _Window:
    """One step's window on the current tour: the paths through it and its circuit model's data.

    Inside the window the tour is a set of paths, path ``i`` entering at ``entries[i]``
    and leaving at ``exits[i]`` (in tour order); ``order`` is the order in which the
    tour outside leads from one path to the next (first: the tour order).
    """

    def __init__(self, st: _State, win: np.ndarray, w: int, step: Step, sq: np.ndarray):
        cols = st.cols
        succ, pred = st.succ, st.pred
        self.step, self.sq = step, sq
        remove = step.remove[:, 0] * cols + step.remove[:, 1]
        restore = step.restore[:, 0] * cols + step.restore[:, 1]
        self.remove, self.restore = remove, restore
        on = sq[st.alive[sq]]
        entries = on[win[pred[on]] != w]
        entries = entries[np.argsort(st.pos[entries], kind="stable")]
        exits = np.empty(len(entries), dtype=np.int64)
        window_kernels()[3](succ, win, w, entries, exits)
        self.entries, self.exits = entries, exits
        ends = np.concatenate([entries, exits])
        self.ok = not (ends[:, None] == remove[None, :]).any()
        if not self.ok:  # a hole on the window's edge: widen
            return
        stay = np.ones(len(on), dtype=bool)
        at = np.minimum(np.searchsorted(on, remove), max(len(on) - 1, 0))
        stay[at[on[at] == remove]] = False
        keep = np.union1d(on[stay], restore) if len(restore) else on[stay]
        self.keep = keep
        self.nb = _window_graph(st.rows, cols, keep)
        self.ent_l, self.ex_l = _local(keep, entries), _local(keep, exits)
        m = len(entries)
        self.is_entry = np.zeros(len(keep), dtype=bool)
        self.is_entry[self.ent_l] = True
        self.is_exit = np.zeros(len(keep), dtype=bool)
        self.is_exit[self.ex_l] = True
        self.path_of_exit = np.full(len(keep), -1, dtype=np.int64)
        self.path_of_exit[self.ex_l] = np.arange(m)
        self.order = np.arange(m)
        self.nxt = None
        self.rank = None

    def solve(self, seconds: float | None, work: float, seed: int) -> bool:
        """Re-route the window for the current ``order`` of its paths; False if CP-SAT could not
        (in ``work`` deterministic seconds, or the ``seconds`` of wall clock left)."""
        fixed_next = np.full(len(self.keep), -1, dtype=np.int64)
        o = self.order
        fixed_next[self.ex_l[o]] = self.ent_l[np.roll(o, -1)]  # the stretches outside, fixed
        self.nxt = _solve_window(self.nb, self.is_entry, self.is_exit, fixed_next, seconds, work, seed)
        return self.nxt is not None

    def sigma(self) -> np.ndarray:
        """For each path's entry, the path whose exit the new route leaves by."""
        nxt, is_exit = self.nxt, self.is_exit
        out = np.empty(len(self.entries), dtype=np.int64)
        for i, u in enumerate(self.ent_l.tolist()):
            while not is_exit[u]:
                u = nxt[u]
            out[i] = self.path_of_exit[u]
        return out

    def write(self, st: _State) -> None:
        """Write the new moves into the tour, remove and put back the step's squares."""
        keep, nxt = self.keep, self.nxt
        inner = ~self.is_exit
        st.succ[keep[inner]] = keep[nxt[inner]]
        st.pred[keep[nxt[inner]]] = keep[inner]
        st.succ[self.remove] = -1
        st.pred[self.remove] = -1
        st.alive[self.remove] = False
        st.alive[self.restore] = True
        st.n_alive += len(self.restore) - len(self.remove)


# ====================================================================== batches
#: Windows re-routed side by side between two walks of the tour (at least; more on big boards).
BATCH = 64
#: Squares of the board per window of a batch above :data:`BATCH` (bigger boards, bigger batches).
BATCH_AREA = 55000
#: Rounds of re-solving, inside one batch, the windows whose new route broke the tour.
ROUNDS = 3


def pick_batch(steps, pending, done, win: np.ndarray, squares_of, size: int):
    """Steps of ``pending`` whose windows share no square, at most ``size``, in the order given.

    A step waits while a step it comes after is not done. ``squares_of(step)`` gives
    the window's squares; ``win`` (-1 everywhere on entry) is marked with each chosen
    window's index. Returns ``(chosen, rest)``: ``chosen`` a list of ``(step index,
    squares)``, ``rest`` the other pending steps in their order.
    """
    chosen, rest = [], []
    for i in pending:
        s = steps[i]
        if len(chosen) >= size or any(not done[j] for j in s.after):
            rest.append(i)
            continue
        sq = squares_of(s)
        if len(sq) and (win[sq] >= 0).any():
            rest.append(i)
            continue
        win[sq] = len(chosen)
        chosen.append((i, sq))
    return chosen, rest


def _accept(st: _State, ws: list, done, stats, back: list, solve_all, failed) -> int:
    """Splice the batch's solved windows into the tour where the tour stays one cycle.

    The batch's paths in tour order make a contracted cycle, each leading to the next; a
    window is accepted when its new paths keep that cycle whole. Rejected windows are
    solved again for the order their paths now come in, up to :data:`ROUNDS` times; then
    the next batch takes them (``back``). Returns how many were accepted.
    """
    _, one_cycle, cycle_pos, _ = window_kernels()
    p = 0
    if ws:
        ranks = np.argsort(np.argsort(np.concatenate([st.pos[w.entries] for w in ws]), kind="stable"))
        off = 0
        for w in ws:
            w.rank = ranks[off:off + len(w.entries)]
            off += len(w.entries)
        p = off
        jump = (np.arange(p, dtype=np.int64) + 1) % p
    accepted = 0
    for rnd in range(ROUNDS + 1):
        rejected = []
        for w in ws:
            old = jump[w.rank]
            jump[w.rank] = (w.rank[w.sigma()] + 1) % p
            if one_cycle(jump):
                w.write(st)
                done[w.index] = True
                accepted += 1
                stats["done"] = stats.get("done", 0) + 1
            else:
                jump[w.rank] = old
                rejected.append(w)
        if not rejected:
            break
        stats["rejected"] = stats.get("rejected", 0) + len(rejected)
        if rnd == ROUNDS:  # the next batch takes them, after a walk
            back.extend(w.index for w in rejected)
            break
        # the rejected windows again, for the order their paths now come in
        where = np.empty(p, dtype=np.int64)
        cycle_pos(jump, where)
        for w in rejected:
            w.order = np.argsort(where[w.rank], kind="stable")
        ws = []
        for w, ok in zip(rejected, solve_all(rejected)):
            if ok:
                ws.append(w)
            else:
                failed(w.step)
                back.append(w.index)
    return accepted


def _run(st: _State, steps: list, t0: float, time_limit, window_work: float, seed: int,
         stop, stats, workers: int, batch: int) -> None:
    """Re-route every step's window, in batches of windows side by side, in place."""
    from concurrent.futures import ThreadPoolExecutor

    rows, cols = st.rows, st.cols
    n = len(steps)
    done = np.zeros(n, dtype=bool)
    # nearby windows one after the other (row-major order of their first spot)
    pending = sorted(range(n), key=lambda i: (int(steps[i].spots[:, 0].min()) // 16,
                                              int(steps[i].spots[:, 1].min())))
    place = np.empty(n, dtype=np.int64)
    place[pending] = np.arange(n)
    win = np.full(rows * cols, -1, dtype=np.int32)
    usable = st.alive.copy()  # alive squares, and the squares a step puts back

    def squares_of(s):
        usable[s.restore[:, 0] * cols + s.restore[:, 1]] = True
        sq = window_squares(usable, rows, cols, s.spots, s.segs, MARGIN + WIDEN[s.level])
        usable[s.restore[:, 0] * cols + s.restore[:, 1]] = False
        return sq if len(sq) <= MAX_WINDOW else sq[:0]

    def left():
        return None if time_limit is None else time_limit - (time.perf_counter() - t0)

    def failed(s, why=""):
        stats["widened"] = stats.get("widened", 0) + 1
        s.level += 1
        if s.level >= len(WIDEN):
            lo = tuple(int(x) for x in s.spots.min(axis=0))
            raise RepairNotApplicable(f"the window around the holes near {lo} could not be re-routed{why}")

    def solve_one(w):
        rest = left()
        if (rest is not None and rest <= 0) or (stop is not None and stop.is_set()):
            raise RepairNotApplicable(f"ran out of time after {stats.get('windows', 0)} windows"
                                      if stop is None or not stop.is_set() else "stopped: another answer came first")
        stats["windows"] = stats.get("windows", 0) + 1
        return w.solve(None if rest is None else max(0.05, rest), window_work, seed)

    def start(w):  # a window is solved while the main thread builds the batch's next ones
        return None if pool is None else pool.submit(solve_one, w)

    def result(w, job) -> bool:
        return solve_one(w) if job is None else job.result()

    def solve_all(ws):  # the limit is checked before each window, not only between batches
        jobs = [start(w) for w in ws]
        return [result(w, job) for w, job in zip(ws, jobs)]

    pool = ThreadPoolExecutor(max_workers=workers) if workers > 1 else None
    try:
        while pending:
            if stop is not None and stop.is_set():
                raise RepairNotApplicable("stopped: another answer came first")
            if left() is not None and left() <= 0:
                raise RepairNotApplicable(f"ran out of time after {stats.get('windows', 0)} windows")
            chosen, pending = pick_batch(steps, pending, done, win, squares_of, batch)
            if not chosen:  # pragma: no cover - the first ready step always fits
                raise RuntimeError("no window could be chosen")
            stats["batches"] = stats.get("batches", 0) + 1
            ws, back, solving = [], [], []
            for w, (i, sq) in enumerate(chosen):
                if len(sq) == 0:  # larger than MAX_WINDOW
                    failed(steps[i], " (too large)")
                    back.append(i)
                    continue
                x = _Window(st, win, w, steps[i], sq)
                x.index = i
                if x.ok:
                    ws.append(x)
                    solving.append(start(x))
                else:
                    failed(steps[i])
                    back.append(i)
            for w, job in zip(list(ws), solving):
                if not result(w, job):
                    failed(w.step)
                    back.append(w.index)
            ws = [w for w in ws if w.nxt is not None]
            accepted = _accept(st, ws, done, stats, back, solve_all, failed)
            for _i, sq in chosen:
                win[sq] = -1
            for i, _sq in chosen:
                if done[i]:
                    s = steps[i]
                    usable[s.remove[:, 0] * cols + s.remove[:, 1]] = False
                    usable[s.restore[:, 0] * cols + s.restore[:, 1]] = True
            if accepted:
                st.renumber()
            if back:
                pending = sorted(pending + back, key=place.__getitem__)
    finally:
        if pool is not None:
            pool.shutdown()


def batch_size(rows: int, cols: int) -> int:
    """Windows per batch on an m x n board: :data:`BATCH`, more on big boards (fewer walks)."""
    return max(BATCH, rows * cols // BATCH_AREA)


def repair_tour(board: Board, *, time_limit: float | None = 60.0, seed: int = 0, stats=None,
                stop=None, window_work: float = WINDOW_WORK, workers: int | None = None,
                batch: int | None = None):
    """A closed tour of ``board`` (a rectangle with holes) by repairing a tour of the whole rectangle.

    The windows of :func:`plan` are re-routed in batches: windows that share no square
    are re-routed side by side (threads: CP-SAT runs without Python's lock), each for
    the tour as it was before the batch. A window's new route may join its paths in a
    new order; whether the routes of a batch still make one cycle is read from the
    *contracted cycle* (the batch's paths in tour order, each leading to the next), so
    the tour is walked once per batch, not once per window. A window whose route would
    split the tour is solved again for the order its paths now come in.

    Parameters
    ----------
    board : Board
        Both sides at least 5 and an even number of squares in the rectangle.
    time_limit : float or None
        Seconds for the whole construction.
    seed : int
        CP-SAT's seed for the windows.
    stats : dict, optional
        Filled with ``clusters``, ``steps`` (windows of the plan), ``windows`` (re-routes
        tried), ``widened``, ``rejected`` (routes that split the tour, solved again),
        ``batches``, ``walks``, ``done`` (windows re-routed for good); filled also
        when the construction fails.
    stop : threading.Event, optional
        Ends the construction early (RepairNotApplicable).
    window_work : float
        CP-SAT's deterministic time (``max_deterministic_time``) for one window. The wall
        clock bounds only the whole repair (``time_limit``), so the tour is the same on a
        busy machine as on an idle one.
    workers : int, optional
        Windows re-routed at once (default: the processor count). The tour does not
        depend on it.
    batch : int, optional
        Windows per batch (default :func:`batch_size`; 1: one window at a time).

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

    from kt_formal.combine.divide import construct_succ, tour_exists
    from kt_formal.tours import Tour

    t0 = time.perf_counter()
    rows, cols = board.rows, board.cols
    if min(rows, cols) < 5:
        raise RepairNotApplicable("the rectangle has a side below 5")
    if not tour_exists(rows, cols, True)[0]:
        raise RepairNotApplicable(f"the {rows}x{cols} rectangle itself has no closed tour")
    steps, n_clusters = plan(board.hole_mask)
    succ, _start, closed = construct_succ(rows, cols)
    if not closed:  # pragma: no cover - an even rectangle gives a closed tour
        raise RepairNotApplicable("the rectangle's tour is not closed")
    st = _State(succ, rows, cols)
    total = {"windows": 0, "widened": 0, "rejected": 0, "batches": 0}
    workers = max(1, workers or os.cpu_count() or 1)
    try:
        _run(st, steps, t0, time_limit, window_work, seed, stop, total, workers,
             batch or batch_size(rows, cols))
    finally:  # also when it fails: how far it came
        if stats is not None:
            stats.update(total, clusters=n_clusters, steps=len(steps), walks=st.walks,
                         done=total.get("done", 0))
    return Tour(board, st.order(), True)
