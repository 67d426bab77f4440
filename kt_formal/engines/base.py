"""What every engine provides, and the steps every engine shares to give its answer.

An engine module has a ``NAME`` and ``solve(request, **options)`` returning a
:class:`~kt_formal.question.Result`. :func:`found` orients a tour to the question's ends and
passes it through the kernel's checker before anyone sees it; :func:`impossible` is only for
what the engine proved; :func:`unknown` claims nothing.

>>> from kt_formal.board import Board
>>> from kt_formal.question import Question
>>> found(Question(Board(3, 4), closed=False), [0, 5, 10, 3, 4, 9, 2, 7, 8, 1, 6, 11], "demo", 0.0).status
Traceback (most recent call last):
...
RuntimeError: engine demo produced an invalid tour: ...
"""

from __future__ import annotations

from typing import Protocol

import numpy as np

from kt_formal.question import Result, Status, Question
from kt_formal.tours import Tour

__all__ = ["Engine", "orient", "found", "impossible", "unknown", "with_article"]


class Engine(Protocol):
    """What every engine module provides: a name and ``solve``.

    ``solve(request, **options)`` takes its options as keyword-only parameters and
    returns a :class:`Result`; :func:`kt_formal.solve.check_options` validates what a
    caller passes before the engine runs.
    """

    NAME: str

    def solve(self, request: Question, **options) -> Result: ...


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
                  stats=dict(stats or {}), message=message or f"found {with_article(request.describe())}")


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
    """An UNKNOWN result: a limit ran out, nothing is claimed."""
    return Result(Status.UNKNOWN, request, engine=engine, wall_time=wall_time,
                  stats=dict(stats or {}), message=message)
