"""CP-SAT circuit models for knight's tours (OR-Tools).

One Boolean literal ``arc_u_v`` per directed knight move between live squares and
one ``add_circuit`` constraint:

* closed tour: the circuit runs through every live square;
* open tour: a dummy node closes the path; arcs dummy -> s exist for the allowed
  start squares and e -> dummy for the allowed end squares (all squares when free);
* forced move {u, v}: ``arc_u_v + arc_v_u == 1``; forbidden move: both arcs false;
* holes are simply absent from the model.

Every status is translated explicitly: OPTIMAL/FEASIBLE -> FOUND, INFEASIBLE ->
IMPOSSIBLE (the solver proved it), UNKNOWN -> UNKNOWN (a limit ran out). A found
tour passes the independent checker before it is returned.

>>> from kt_formal.board import Board
>>> solve(TourRequest(Board(3, 4), closed=False), seed=1).status
<Status.FOUND: 'found'>
>>> solve(TourRequest(Board(4, 4))).status
<Status.IMPOSSIBLE: 'impossible'>
"""

from __future__ import annotations

import contextlib
import signal
import threading

import numpy as np

from kt_formal.question import Budget, TourRequest
from kt_formal.engines.successors import follow

from kt_formal.engines.base import found, impossible, unknown  # noqa: F401
from kt_formal.graph import neighbour_table

__all__ = ["solve", "DEFAULT_TIME_LIMIT"]

NAME = "cpsat"
DEFAULT_TIME_LIMIT = 60.0


@contextlib.contextmanager
def _keep_sigint():
    """CP-SAT installs its own Ctrl-C handler (it stops the search) and leaves it behind;
    put Python's back afterwards so a later Ctrl-C is the usual KeyboardInterrupt."""
    main = threading.current_thread() is threading.main_thread()
    old = signal.getsignal(signal.SIGINT) if main else None
    try:
        yield
    finally:
        if main and old is not None:
            signal.signal(signal.SIGINT, old)


def solve(
    request: TourRequest,
    *,
    time_limit: float | None = DEFAULT_TIME_LIMIT,
    seed: int = 0,
    workers: int = 2,
    log: bool = False,
    progress=None,
    stop=None,
):
    """Find a tour for ``request`` with one CP-SAT circuit model.

    Parameters
    ----------
    request : TourRequest
    time_limit : float or None
        Seconds; None for no limit. A limit reached gives UNKNOWN.
    seed : int
        ``random_seed`` of the solver; with the same seed, workers and limit a run repeats.
    workers : int
        ``num_workers`` (search threads).
    log : bool
        Print the solver's search log.
    progress : callable, optional
        The progress contract of :mod:`kt_formal.progress`: called as
        ``progress(seconds_elapsed, time_limit, text)`` while the model is built and from
        the solver's log callback during the search.
    stop : threading.Event, optional
        Set by another thread to end the search early (the result is then UNKNOWN);
        used by the portfolio of :mod:`kt_formal.decide`.

    Returns
    -------
    Result
    """
    from ortools.sat.python import cp_model

    clock = Budget()
    board = request.board
    nt = neighbour_table(board)
    k = len(nt)
    closed = request.closed

    # degenerate sizes that add_circuit would misread (a 2-cycle is not a tour)
    if closed and k < 3:
        return impossible(request, NAME, clock.elapsed(),
                          f"a closed tour needs at least 3 squares; the board has {k}")
    if k == 1:
        sq = int(nt.squares[0])
        return found(request, np.array([sq]), NAME, clock.elapsed())
    isolated = np.flatnonzero(nt.degree == 0)
    if isolated.size:  # add_circuit would silently leave a square with no arcs out
        r, c = board.square(nt.squares[int(isolated[0])])
        return impossible(request, NAME, clock.elapsed(),
                          f"square ({r}, {c}) has no knight move to another square, "
                          f"so no tour of {k} squares can visit it")
    if not closed and request.start is not None and request.start == request.end:
        return impossible(request, NAME, clock.elapsed(), "an open tour of 2 or more squares cannot start and end on the same square")

    if progress is not None:
        progress(clock.elapsed(), time_limit, "building the model")
    model = cp_model.CpModel()
    arcs = []
    lit_of: dict[tuple[int, int], object] = {}
    tails = np.repeat(np.arange(k), 8)
    heads = nt.table.ravel()
    keep = heads >= 0
    for u, v in zip(tails[keep].tolist(), heads[keep].tolist()):
        lit = model.new_bool_var(f"arc_{u}_{v}")
        lit_of[(u, v)] = lit
        arcs.append((u, v, lit))

    dummy = k
    if not closed:
        starts = [nt.node(request.start)] if request.start is not None else range(k)
        ends = [nt.node(request.end)] if request.end is not None else range(k)
        for s in starts:
            lit = model.new_bool_var(f"start_{s}")
            lit_of[(dummy, s)] = lit
            arcs.append((dummy, s, lit))
        for e in ends:
            lit = model.new_bool_var(f"end_{e}")
            lit_of[(e, dummy)] = lit
            arcs.append((e, dummy, lit))
    elif request.end is not None and request.start is not None:
        a, b = nt.node(request.end), nt.node(request.start)
        if (a, b) not in lit_of:
            return impossible(request, NAME, clock.elapsed(),
                              f"a closed tour ending at {request.end} returns to {request.start}, "
                              "which is not a knight move away")
        model.add(lit_of[(a, b)] + lit_of[(b, a)] == 1)
    model.add_circuit(arcs)

    for a, b in request.forced:
        u, v = nt.node(a), nt.node(b)
        model.add(lit_of[(u, v)] + lit_of[(v, u)] == 1)
    for a, b in request.forbidden:
        u, v = nt.node(a), nt.node(b)
        model.add(lit_of[(u, v)] == 0)
        model.add(lit_of[(v, u)] == 0)

    solver = cp_model.CpSolver()
    if time_limit is not None:  # the limit covers building the model too
        solver.parameters.max_time_in_seconds = max(0.001, float(time_limit) - clock.elapsed())
    solver.parameters.num_workers = int(workers)
    solver.parameters.random_seed = int(seed)
    solver.parameters.log_search_progress = bool(log)
    if progress is not None:
        solver.parameters.log_search_progress = True
        solver.parameters.log_to_stdout = bool(log)
        solver.log_callback = lambda _line: progress(clock.elapsed(), time_limit, "searching")
    watcher = None
    if stop is not None:
        import threading

        done = threading.Event()

        def watch():
            while not done.wait(0.02):
                if stop.is_set():
                    solver.stop_search()  # repeated: the search may not have started yet

        watcher = threading.Thread(target=watch, daemon=True)
        watcher.start()
    try:
        with _keep_sigint():
            status = solver.solve(model)
    finally:
        if watcher is not None:
            done.set()
    stats = {
        "arcs": len(arcs),
        "branches": solver.num_branches,
        "conflicts": solver.num_conflicts,
        "solver_wall_time": solver.wall_time,
        "workers": int(workers),
        "seed": int(seed),
    }
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        succ = np.full(k + 1, -1, dtype=np.int64)
        for u, v, lit in arcs:
            if solver.boolean_value(lit):
                succ[u] = v
        order = _walk(succ, k, closed)
        return found(request, nt.squares[order], NAME, clock.elapsed(), stats)
    if status == cp_model.INFEASIBLE:
        return impossible(request, NAME, clock.elapsed(),
                          f"CP-SAT proved that no {request.describe()} exists", stats=stats)
    if status == cp_model.UNKNOWN:
        limit = f"{time_limit:g} s" if time_limit is not None else "its limit"
        return unknown(request, NAME, clock.elapsed(),
                       f"CP-SAT reached {limit} without an answer", stats=stats)
    if status == cp_model.MODEL_INVALID:
        raise RuntimeError(f"CP-SAT model invalid: {model.validate()}")
    raise RuntimeError(f"unexpected CP-SAT status {solver.status_name(status)}")


def _walk(succ: np.ndarray, k: int, closed: bool) -> np.ndarray:
    """Follow successor links: from node 0 for a cycle, from the dummy's successor for a path."""
    return follow(succ, 0 if closed else int(succ[k]), k)
