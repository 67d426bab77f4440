"""CP-SAT circuit models for knight's tours (OR-Tools).

One Boolean literal ``arc_u_v`` per directed knight move between live squares and
one ``add_circuit`` constraint:

* closed tour: the circuit runs through every live square;
* open tour: a dummy node closes the path; arcs dummy -> s exist for the allowed
  start squares and e -> dummy for the allowed end squares (all squares when free);
* forced move {u, v}: ``arc_u_v + arc_v_u == 1``; forbidden move: both arcs false;
* holes are simply absent from the model.

Every status is translated explicitly: OPTIMAL/FEASIBLE -> FOUND, INFEASIBLE ->
IMPOSSIBLE (the solver proved it), UNKNOWN -> LIMIT (a limit ran out). A found
tour passes the independent checker before it is returned.

>>> from kt_formal.board import Board
>>> from kt_formal.question import Limits
>>> CpSat().run(Question(Board(3, 4), closed=False), Limits(60, seed=1)).status
<Status.FOUND: 'found'>
>>> CpSat().run(Question(Board(4, 4))).status
<Status.IMPOSSIBLE: 'impossible'>
"""

from __future__ import annotations

import contextlib
import signal
import threading
import time
from dataclasses import dataclass

import numpy as np

from kt_formal.engines.base import Engine
from kt_formal.engines.circuit import Circuit
from kt_formal.graph import neighbour_table
from kt_formal.question import DEFAULT_THREADS, Limits, Question, Result

__all__ = ["CpSat"]


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


class CpSat(Engine):
    """One CP-SAT circuit model of the question (see the module docstring).

    The limits give ``time_limit`` (None for none; reached: LIMIT), ``seed`` (the solver's
    ``random_seed``: with the same seed, workers and limit a run repeats), ``threads`` (its
    ``num_workers``, :data:`~kt_formal.question.DEFAULT_THREADS` when None), ``stop`` (set by another thread
    to end the search early: LIMIT) and ``progress`` (called as
    ``progress(seconds_elapsed, time_limit, text)`` while the model is built and from the
    solver's log callback during the search).
    """

    name = "cpsat"

    @dataclass(frozen=True)
    class Options:
        """``log``: print the solver's search log."""

        log: bool = False

    def search(self, question: Question, limits: Limits, options) -> Result:
        """Build the model and solve it within ``limits``."""
        time_limit, progress, stop, log = limits.time_limit, limits.progress, limits.stop, options.log
        workers = DEFAULT_THREADS if limits.threads is None else limits.threads
        nt = neighbour_table(question.board)
        trivial = self.degenerate(question, nt, limits)
        if trivial is not None:
            return trivial
        if progress is not None:
            progress(limits.elapsed(), time_limit, "building the model")
        try:
            circuit = _model(question, nt, None if time_limit is None else time.perf_counter() + limits.left())
        except TimeoutError as stop_at:
            return self.limit(question, limits,
                              f"building the CP-SAT model reached the time limit ({time_limit:.3g} s) after "
                              f"{stop_at.args[0]:,} of the board's {int((nt.table >= 0).sum()):,} moves; "
                              "no search was run")
        if not isinstance(circuit, Circuit):
            return self.impossible(question, limits, circuit)
        done = threading.Event()

        def prepare(solver):
            if progress is not None:
                solver.parameters.log_search_progress = True
                solver.parameters.log_to_stdout = bool(log)
                solver.log_callback = lambda _line: progress(limits.elapsed(), time_limit, "searching")
            if stop is not None:
                def watch():
                    while not done.wait(0.02):
                        if stop.is_set():
                            solver.stop_search()  # repeated: the search may not have started yet

                threading.Thread(target=watch, daemon=True).start()

        # the limit covers building the model too; none left (a busy machine): no search at all
        limit = limits.left()
        if limit is not None and limit <= 0:
            return self.limit(question, limits,
                              f"building the CP-SAT model used the time limit ({time_limit:.3g} s); no search was run")
        try:
            with _keep_sigint():
                status = circuit.solve(time_limit=limit, workers=workers, seed=limits.seed, log=log, prepare=prepare)
        finally:
            done.set()
        solver = circuit.solver
        stats = {"arcs": circuit.n_arcs, "branches": solver.num_branches, "conflicts": solver.num_conflicts,
                 "solver_wall_time": solver.wall_time, "workers": int(workers), "seed": int(limits.seed)}
        if status == "found":
            return self.found(question, limits, nt.squares[circuit.order(question.closed)], stats)
        if status == "infeasible":
            return self.impossible(question, limits, f"CP-SAT proved that no {question.describe()} exists",
                                   stats=stats)
        limit_text = f"{time_limit:g} s" if time_limit is not None else "its limit"
        return self.limit(question, limits, f"CP-SAT reached {limit_text} without an answer", stats=stats)

    def degenerate(self, question: Question, nt, limits: Limits):
        """The answer for sizes the circuit constraint would misread, or None."""
        k = len(nt)
        board = question.board
        if question.closed and k < 3:  # a 2-cycle is not a tour
            return self.impossible(question, limits, f"a closed tour needs at least 3 squares; the board has {k}")
        if k == 1:
            return self.found(question, limits, np.array([int(nt.squares[0])]))
        isolated = np.flatnonzero(nt.degree == 0)
        if isolated.size:  # add_circuit would silently leave a square with no arcs out
            r, c = board.square(nt.squares[int(isolated[0])])
            return self.impossible(question, limits, f"square ({r}, {c}) has no knight move to another square, "
                                   f"so no tour of {k} squares can visit it")
        if not question.closed and question.start is not None and question.start == question.end:
            return self.impossible(question, limits,
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
