"""What every engine is, and the steps every engine shares to give its answer.

An engine is a subclass of :class:`Engine`: a ``name``, an ``Options`` dataclass (its own
options with their defaults, each value checked once where the options are made),
:meth:`Engine.supports` (None, or why it cannot take a question) and its own search
(:meth:`Engine.search`). :meth:`Engine.run` is the one way to ask an engine: it owns the
clock (the :class:`~kt_formal.question.Limits` it is handed), the stop event, progress and
the kernel's check of every tour (:func:`found`: the tour oriented to the question's ends
and passed through the kernel's checker before anyone sees it). A search answers FOUND,
IMPOSSIBLE (only what it proved), LIMIT (its time or node limit, or the stop event, ended
it) or UNKNOWN (it gave up; nothing is claimed).

>>> from kt_formal.board import Board
>>> from kt_formal.question import Question
>>> found(Question(Board(3, 4), closed=False), [0, 5, 10, 3, 4, 9, 2, 7, 8, 1, 6, 11], "demo", 0.0).status
Traceback (most recent call last):
...
RuntimeError: engine demo produced an invalid tour: ...
"""

from __future__ import annotations

import dataclasses
import difflib
from typing import ClassVar

import numpy as np

from kt_formal.exceptions import InvalidInput
from kt_formal.question import DEFAULT_TIME_LIMIT, Limits, Question, Result, Status
from kt_formal.tours import Tour

__all__ = ["Engine", "NoOptions", "orient", "found", "impossible", "unknown", "limit", "with_article",
           "KNOWN_OPTIONS", "RUN_SETTINGS"]

#: Settings of a run every engine is handed, in :class:`~kt_formal.question.Limits`
#: (``workers`` is its ``threads``); an engine with no use for one does without it.
RUN_SETTINGS = ("time_limit", "seed", "workers", "progress")

#: Every option some engine takes (its ``Options`` fields, or ``node_limit`` of the
#: searches that count nodes), for "did you mean" suggestions without importing every engine.
KNOWN_OPTIONS = frozenset(RUN_SETTINGS) | {
    "node_limit", "order", "tiebreak", "retries", "log", "trim", "scheme", "base", "base_path", "method",
    "small", "cpsat_max",
}


@dataclasses.dataclass(frozen=True)
class NoOptions:
    """The options of an engine that takes none."""


class _Stopped(Exception):
    """Raised inside a progress hook when the stop event is set: the run ends at a limit."""


class Engine:
    """One finder of tours behind the one template :meth:`run`.

    Subclasses set :attr:`name` and :attr:`Options` and write :meth:`search`; they answer
    through :meth:`found`, :meth:`impossible`, :meth:`unknown` and :meth:`limit`.

    Attributes
    ----------
    name : str
        The name in :data:`kt_formal.solve.ENGINES`.
    Options : type
        A frozen dataclass of the engine's own options; its ``__post_init__`` checks them.
    counts_nodes : bool
        Whether the engine honours a node limit (``Limits.node_limit``).
    """

    name: ClassVar[str] = ""
    Options: ClassVar[type] = NoOptions
    counts_nodes: ClassVar[bool] = False

    def supports(self, question: Question) -> str | None:
        """None when the engine can take ``question``, else why not (refused by :meth:`run`)."""
        return None

    def options(self, given=None):
        """``given`` (None, a dict or an :attr:`Options`) as this engine's :attr:`Options`.

        Raises
        ------
        InvalidInput
            For an option the engine does not take, naming the closest one; for a bad value.
        """
        if given is None:
            return self.Options()
        if isinstance(given, self.Options):
            return given
        names = [f.name for f in dataclasses.fields(self.Options)]
        for key in given:
            if key not in names:
                if key in KNOWN_OPTIONS:
                    raise InvalidInput(f"the {self.name} engine takes no option {key!r}; it takes "
                                       f"{', '.join(self.takes()) or 'none'}")
                close = difflib.get_close_matches(key, sorted(KNOWN_OPTIONS | set(names)), n=1)
                hint = f" (did you mean {close[0]!r}?)" if close else ""
                raise InvalidInput(f"unknown option {key!r}{hint}")
        return self.Options(**given)

    def takes(self) -> list[str]:
        """Every option name this engine takes: its own, the run's settings and ``node_limit``."""
        own = [f.name for f in dataclasses.fields(self.Options)]
        return sorted({*own, *RUN_SETTINGS, *(["node_limit"] if self.counts_nodes else [])})

    def run(self, question: Question, limits: Limits | None = None, options=None) -> Result:
        """Answer ``question`` within ``limits`` (default: :data:`DEFAULT_TIME_LIMIT` seconds).

        The engine's clock starts here (it gets what is left of ``limits``); a set stop
        event ends the run at the engine's next check or progress report (LIMIT); a tour
        passes the kernel's check (:func:`found`) before it is returned.

        Raises
        ------
        InvalidInput
            For a bad option, or a question the engine does not take (:meth:`supports`).
        """
        opts = self.options(options)
        reason = self.supports(question)
        if reason is not None:
            raise InvalidInput(reason)
        limits = Limits(DEFAULT_TIME_LIMIT) if limits is None else limits
        own = limits.share(1.0)  # the engine's clock starts now, with what is left:
        own.time_limit = limits.left()  # exactly (a spent limit ends the engine at its first check)
        if own.stop is not None and own.progress is not None:
            own.progress = _watching(own.progress, own.stop)
        try:
            result = self.search(question, own, opts)
        except _Stopped:
            result = self.limit(question, own, "stopped: another answer came first")
        if result.status is Status.FOUND and not result.verified:
            result = found(question, result.tour.order, result.engine, own.elapsed(), result.stats, result.message)
        return result

    def search(self, question: Question, limits: Limits, options) -> Result:
        """The engine's own search (called by :meth:`run` only)."""
        raise NotImplementedError

    # ------------------------------------------------------------ the answers of a search
    def found(self, question: Question, limits: Limits, order, stats=None, message: str = "") -> Result:
        """A tour (board indices in order) to be checked by :meth:`run` before it leaves."""
        return Result(Status.FOUND, question, tour=Tour(question.board, order, question.closed), engine=self.name, wall_time=limits.elapsed(),
                      stats=dict(stats or {}), message=message)

    def impossible(self, question: Question, limits: Limits, message: str, proof=None, stats=None) -> Result:
        """What the search proved: no tour."""
        return impossible(question, self.name, limits.elapsed(), message, proof, stats)

    def unknown(self, question: Question, limits: Limits, message: str, stats=None) -> Result:
        """The search gave up before any limit; nothing is claimed."""
        return unknown(question, self.name, limits.elapsed(), message, stats)

    def limit(self, question: Question, limits: Limits, message: str, stats=None) -> Result:
        """A time or node limit (or the stop event) ended the search; nothing is claimed."""
        return limit(question, self.name, limits.elapsed(), message, stats)

    def __repr__(self) -> str:
        return f"<engine {self.name}>"


def _watching(progress, stop):
    def hook(done, total, text):
        if stop.is_set():
            raise _Stopped()
        progress(done, total, text)

    return hook


def orient(request: Question, order: np.ndarray, closed: bool) -> np.ndarray:
    """Rotate/reverse an order so it starts at ``request.start`` and ends at ``request.end``."""
    b = request.board
    order = np.asarray(order)
    if closed:
        if request.start is not None:
            i = int(np.flatnonzero(order == b.index(*request.start))[0])
            order = np.roll(order, -i)
            if request.end is not None and int(order[-1]) != b.index(*request.end):
                order = np.roll(order[::-1], 1)  # the other direction, start still first
        elif request.end is not None:
            i = int(np.flatnonzero(order == b.index(*request.end))[0])
            order = np.roll(order, -(i + 1))  # end last
    else:
        s = b.index(*request.start) if request.start is not None else None
        e = b.index(*request.end) if request.end is not None else None
        if (s is not None and int(order[0]) != s) or (e is not None and int(order[-1]) != e):
            order = order[::-1]
    return np.ascontiguousarray(order)


def found(request: Question, order, engine: str, wall_time: float, stats=None, message="") -> Result:
    """A FOUND result, after orienting the tour and passing it through the independent checker.

    Raises
    ------
    RuntimeError
        If the engine produced a tour the checker rejects, or one that breaks the
        request (wrong ends, a forced move missing, a forbidden move used): a bug.
    """
    order = orient(request, order, request.closed)
    tour = Tour(request.board, order, request.closed)
    reason = tour.check()
    if reason is None:
        reason = _request_violation(request, tour)
    if reason is not None:
        raise RuntimeError(f"engine {engine} produced an invalid tour: {reason}")
    return Result(Status.FOUND, request, tour=tour, engine=engine, wall_time=wall_time,
                  stats=dict(stats or {}), message=message or f"found {with_article(request.describe())}",
                  verified=True)


def with_article(text: str) -> str:
    return ("an " if text[:1] in "aeiou" else "a ") + text


def _request_violation(request: Question, tour: Tour) -> str | None:
    b = request.board
    if request.start is not None and tour.start != request.start:
        return f"starts at {tour.start}, not {request.start}"
    if request.end is not None and tour.end != request.end:
        return f"ends at {tour.end}, not {request.end}"
    if request.forced or request.forbidden:
        e = tour.edges()
        moves = set(map(frozenset, e.tolist()))
        for a, c in request.forced:
            if frozenset((b.index(*a), b.index(*c))) not in moves:
                return f"forced move {a} -> {c} is missing"
        for a, c in request.forbidden:
            if frozenset((b.index(*a), b.index(*c))) in moves:
                return f"forbidden move {a} -> {c} is used"
    return None


def impossible(request: Question, engine: str, wall_time: float, message: str, proof=None, stats=None) -> Result:
    """An IMPOSSIBLE result: only for what the engine has proved."""
    return Result(Status.IMPOSSIBLE, request, proof=proof, engine=engine, wall_time=wall_time,
                  stats=dict(stats or {}), message=message)


def unknown(request: Question, engine: str, wall_time: float, message: str, stats=None) -> Result:
    """An UNKNOWN result: the engine gave up, nothing is claimed."""
    return Result(Status.UNKNOWN, request, engine=engine, wall_time=wall_time,
                  stats=dict(stats or {}), message=message)


def limit(request: Question, engine: str, wall_time: float, message: str, stats=None) -> Result:
    """A LIMIT result: a time or node limit, or the stop event, ended the run; nothing is claimed."""
    return Result(Status.LIMIT, request, engine=engine, wall_time=wall_time,
                  stats=dict(stats or {}), message=message)
