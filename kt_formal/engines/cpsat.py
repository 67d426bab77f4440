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
>>> solve(Question(Board(3, 4), closed=False), seed=1).status
<Status.FOUND: 'found'>
>>> solve(Question(Board(4, 4))).status
<Status.IMPOSSIBLE: 'impossible'>
"""

from __future__ import annotations

import contextlib
import signal
import threading
import time

import numpy as np

from kt_formal.question import Budget, Question
from kt_formal.engines.circuit import Circuit

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
    request: Question,
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
    request : Question
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
        used by the portfolio of :mod:`kt_formal.pipeline`.

    Returns
    -------
    Result
    """
    clock = Budget()
    nt = neighbour_table(request.board)
    trivial = _degenerate(request, nt, clock)
    if trivial is not None:
        return trivial
    if progress is not None:
        progress(clock.elapsed(), time_limit, "building the model")
    try:
        circuit = _model(request, nt, None if time_limit is None else time.perf_counter() + time_limit - clock.elapsed())
    except TimeoutError as stop_at:
        return unknown(request, NAME, clock.elapsed(),
                       f"building the CP-SAT model reached the time limit ({time_limit:.3g} s) after "
                       f"{stop_at.args[0]:,} of the board's {int((nt.table >= 0).sum()):,} moves; no search was run")
    if not isinstance(circuit, Circuit):
        return impossible(request, NAME, clock.elapsed(), circuit)
    done = threading.Event()

    def prepare(solver):
        if progress is not None:
            solver.parameters.log_search_progress = True
            solver.parameters.log_to_stdout = bool(log)
            solver.log_callback = lambda _line: progress(clock.elapsed(), time_limit, "searching")
        if stop is not None:
            def watch():
                while not done.wait(0.02):
                    if stop.is_set():
                        solver.stop_search()  # repeated: the search may not have started yet

            threading.Thread(target=watch, daemon=True).start()

    # the limit covers building the model too; none left (a busy machine): no search at all
    limit = None if time_limit is None else float(time_limit) - clock.elapsed()
    if limit is not None and limit <= 0:
        return unknown(request, NAME, clock.elapsed(),
                       f"building the CP-SAT model used the time limit ({time_limit:.3g} s); no search was run")
    try:
        with _keep_sigint():
            status = circuit.solve(time_limit=limit, workers=workers, seed=seed, log=log, prepare=prepare)
    finally:
        done.set()
    solver = circuit.solver
    stats = {"arcs": circuit.n_arcs, "branches": solver.num_branches, "conflicts": solver.num_conflicts,
             "solver_wall_time": solver.wall_time, "workers": int(workers), "seed": int(seed)}
    if status == "found":
        return found(request, nt.squares[circuit.order(request.closed)], NAME, clock.elapsed(), stats)
    if status == "infeasible":
        return impossible(request, NAME, clock.elapsed(),
                          f"CP-SAT proved that no {request.describe()} exists", stats=stats)
    limit_text = f"{time_limit:g} s" if time_limit is not None else "its limit"
    return unknown(request, NAME, clock.elapsed(), f"CP-SAT reached {limit_text} without an answer", stats=stats)


def _degenerate(request: Question, nt, clock):
    """The answer for sizes the circuit constraint would misread, or None."""
    k = len(nt)
    board = request.board
    if request.closed and k < 3:  # a 2-cycle is not a tour
        return impossible(request, NAME, clock.elapsed(),
                          f"a closed tour needs at least 3 squares; the board has {k}")
    if k == 1:
        return found(request, np.array([int(nt.squares[0])]), NAME, clock.elapsed())
    isolated = np.flatnonzero(nt.degree == 0)
    if isolated.size:  # add_circuit would silently leave a square with no arcs out
        r, c = board.square(nt.squares[int(isolated[0])])
        return impossible(request, NAME, clock.elapsed(),
                          f"square ({r}, {c}) has no knight move to another square, "
                          f"so no tour of {k} squares can visit it")
    if not request.closed and request.start is not None and request.start == request.end:
        return impossible(request, NAME, clock.elapsed(),
                          "an open tour of 2 or more squares cannot start and end on the same square")
    return None


def _model(request: Question, nt, deadline: float | None = None):
    """The circuit model of ``request`` (see the module docstring), or the reason it has none;
    :class:`TimeoutError` past ``deadline`` (``time.perf_counter()``) while the arcs are made."""
    k = len(nt)
    circuit = Circuit(k, open_path=not request.closed)
    tails = np.repeat(np.arange(k), 8)
    heads = nt.table.ravel()
    keep = heads >= 0
    circuit.add_arcs(tails[keep], heads[keep], names="arc", deadline=deadline)
    if not request.closed:
        starts = [nt.node(request.start)] if request.start is not None else range(k)
        ends = [nt.node(request.end)] if request.end is not None else range(k)
        circuit.add_path_ends(starts, ends)
    elif request.end is not None and request.start is not None:
        a, b = nt.node(request.end), nt.node(request.start)
        if circuit.literal(a, b) is None:
            return (f"a closed tour ending at {request.end} returns to {request.start}, "
                    "which is not a knight move away")
        circuit.model.add(circuit.literal(a, b) + circuit.literal(b, a) == 1)
    for a, b in request.forced:
        u, v = nt.node(a), nt.node(b)
        circuit.model.add(circuit.literal(u, v) + circuit.literal(v, u) == 1)
    for a, b in request.forbidden:
        u, v = nt.node(a), nt.node(b)
        circuit.model.add(circuit.literal(u, v) == 0)
        circuit.model.add(circuit.literal(v, u) == 0)
    return circuit
