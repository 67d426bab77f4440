"""The portfolio: engines side by side in threads within one Limits; the first answer wins.

It runs whatever engines the policy names (:func:`kt_formal.solve.policy.portfolio_engines`),
each through :meth:`~kt_formal.engines.base.Engine.run` with a share of the run's
:class:`~kt_formal.question.Limits` and the portfolio's one stop event, which a
construction running meanwhile watches too. Each engine is given the run's threads, less
one core while another engine runs next to it.
"""

from __future__ import annotations

import os
import threading
import time

from kt_formal.exceptions import ResourceLimit
from kt_formal.question import DEFAULT_THREADS, Limits, Result, Stage, Status, Question
from kt_formal.solve import policy

__all__ = ["Portfolio", "run_portfolio"]


class Portfolio:
    """Engines run side by side in threads; the first decisive answer stops the others."""

    def __init__(self, question: Question, limits: Limits):
        self.request = question
        self.limits = limits
        self.stop = threading.Event()
        self.lock = threading.Lock()
        self.results = {}
        self.started = {}
        self.threads = []
        self.winner = []
        self.cores = os.cpu_count() or 1

    def part(self, time_limit, node_limit=None) -> Limits:
        """The limits of one engine: ``time_limit`` seconds (None: none), ``node_limit``,
        the run's seed and progress, the portfolio's stop event, and the run's threads
        (less one core when another engine runs next to it)."""
        threads = DEFAULT_THREADS if self.limits.threads is None else self.limits.threads
        if len(self.started) > 1:
            threads = max(1, min(threads, self.cores - 1))
        return self.limits.share(1.0, time_limit=time_limit, stop=self.stop, threads=threads, node_limit=node_limit)

    def start(self, name, time_limit, node_limit=None):
        """Start engine ``name`` with ``time_limit`` seconds (None: none) in a thread of its own."""
        th = threading.Thread(target=self._run, args=(name, time_limit, node_limit), daemon=True)
        self.started[name] = time.perf_counter()
        self.threads.append(th)
        th.start()

    def _run(self, name, time_limit, node_limit=None):
        from kt_formal.solve import run_engine

        t = time.perf_counter()
        try:
            res = run_engine(name, self.request, self.part(time_limit, node_limit))
            if node_limit is not None and res.status is Status.LIMIT and not self.stop.is_set():
                res.message = (f"no tour within one walk ({res.stats.get('nodes', node_limit):,} "
                               "nodes); given up next to the constructions")
            if not res.status.decided and self.stop.is_set():
                res = None  # stopped: another answer came first, or the time is up
        except ResourceLimit as exc:  # the engine would not fit in memory: it never started
            res = Result(Status.UNKNOWN, self.request, engine=name, message=f"not run: {exc}")
        with self.lock:
            self.results[name] = (res, time.perf_counter() - t)
            if res is not None and res.status.decided and not self.winner:
                self.winner.append(res)
                self.stop.set()

    def run_inline(self, name, time_limit, node_limit):
        """Run ``name`` in the calling thread, capped at ``node_limit`` nodes: a decisive
        answer wins as from a thread; otherwise nothing is kept, and the engine starts in
        a thread of its own, uncapped, as any other."""
        self.started[name] = time.perf_counter()
        self._run(name, time_limit, node_limit)
        if not self.winner:
            del self.started[name]
            self.results.pop(name, None)

    def wait(self, timeout):
        """Until a winner, every engine done, or ``timeout`` seconds (None: no limit)."""
        end = None if timeout is None else time.perf_counter() + timeout
        while not self.winner:
            alive = [th for th in self.threads if th.is_alive()]
            if not alive:
                return
            left = None if end is None else end - time.perf_counter()
            if left is not None and left <= 0:
                return
            step = 0.02 if left is None else min(0.02, left)
            if len(alive) == 1:  # back the moment it ends, not at the next tick
                alive[0].join(step)
            else:  # back the moment one of them wins
                self.stop.wait(step)

    def finish(self, stages, names, why=None, wait=0.3):
        """Stop the engines (waiting ``wait`` seconds at most for each) and note their stages."""
        self.stop.set()
        for th in self.threads:
            th.join(wait)
        winner = bool(self.winner)
        for nm in names:
            if nm in self.results:
                res, secs = self.results[nm]
                if res is None:
                    outcome = ("stopped: another answer came first" if winner else
                               f"stopped: {why}" if why else "stopped at the time limit")
                elif res.status is Status.FOUND:
                    outcome = "found a tour"
                elif res.status is Status.IMPOSSIBLE:
                    outcome = "reports no tour" + (" (CP-SAT infeasible)" if nm == "cpsat" else " (complete search)")
                else:
                    outcome = res.message or "limit reached"
                stages.append(Stage(nm, outcome, secs))
            elif nm in self.started:
                stages.append(Stage(nm, "stopped: another answer came first" if wait == 0 else
                                    "still running at the time limit; abandoned",
                                    time.perf_counter() - self.started[nm]))
        return self.winner[0] if self.winner else None

    def at_limit(self) -> bool:
        """Whether an engine stopped at a limit (rather than giving up)."""
        return any(r is not None and r.status is Status.LIMIT for r, _ in self.results.values())


def run_portfolio(question: Question, shape: str, limits: Limits, stages, pf: Portfolio | None = None):
    """Run the engines that suit the board's shape side by side within ``limits``; the first
    answer wins.

    ``pf`` is a portfolio already running (backtracking started next to the
    constructions). Returns ``(decisive result or None, portfolio)``.
    """
    request, budget = question, limits
    n = request.board.n_squares
    names = policy.portfolio_engines(n, shape)
    if pf is None:
        pf = Portfolio(request, limits)
    parallel = (os.cpu_count() or 1) >= 2
    if names[0] == "backtrack" and n <= policy.INLINE_MAX_SQUARES and not pf.started:
        pf.run_inline("backtrack", budget.left(), int(policy.BACKGROUND_NODES_PER_SQUARE * n) + 1000)
    for i, nm in enumerate(names):
        if pf.winner:
            break
        if nm in pf.started:
            continue
        left = budget.left()
        if left is not None and left <= 0:
            break
        if parallel:
            pf.start(nm, left)
            if i < len(names) - 1:
                pf.wait(policy.STAGGER_SECONDS)  # the next engine joins unless this one answered
        else:  # one core: slices of the budget, one after the other
            pf.start(nm, None if left is None else (left * 0.6 if i < len(names) - 1 else left))
            pf.wait(None)
    left = budget.left()
    pf.wait(None if left is None else left + 0.5)
    result = pf.finish(stages, names)
    if n > policy.CPSAT_MAX_SQUARES:
        stages.append(Stage("cpsat", f"skipped: above {policy.CPSAT_MAX_SQUARES} squares", 0.0))
    for nm in names:
        if nm not in pf.started:
            stages.append(Stage(nm, "not started: another answer came first" if pf.winner
                                else "not started: no time left", 0.0))
    return result, pf
