"""What every engine provides, and the steps every engine shares to give its answer.

An engine module has a ``NAME`` and ``solve(request, **options)`` returning a
:class:`~kt_formal.question.Result`. :func:`found` orients a tour to the question's ends and
passes it through the kernel's checker before anyone sees it; :func:`impossible` is only for
what the engine proved; :func:`unknown` claims nothing.

>>> from kt_formal.board import Board
>>> from kt_formal.question import TourRequest
>>> found(TourRequest(Board(3, 4), closed=False), [0, 5, 10, 3, 4, 9, 2, 7, 8, 1, 6, 11], "demo", 0.0).status
Traceback (most recent call last):
...
RuntimeError: engine demo produced an invalid tour: ...
"""

from __future__ import annotations

import difflib
import inspect
import math
from typing import Protocol

import numpy as np

from kt_formal.exceptions import InvalidInput
from kt_formal.question import MAX_NODES, Result, Status, TourRequest
from kt_formal.tour import Tour

__all__ = ["Engine", "check_options", "orient", "found", "impossible", "unknown", "with_article"]


class Engine(Protocol):
    """What every engine module provides: a name and ``solve``.

    ``solve(request, **options)`` takes its options as keyword-only parameters and
    returns a :class:`Result`; :func:`check_options` validates what a caller passes
    before the engine runs.
    """

    NAME: str

    def solve(self, request: TourRequest, **options) -> Result: ...


#: Settings of a run that every engine is handed; an engine that has no use for one (a
#: deterministic single-threaded search and ``seed`` or ``workers``) does without it.
RUN_SETTINGS = ("time_limit", "seed", "workers", "progress")

#: Every option name some engine takes, for "did you mean" suggestions.
KNOWN_OPTIONS = frozenset(RUN_SETTINGS) | {
    "node_limit", "order", "tiebreak", "retries", "log", "scheme", "base", "base_path", "method",
    "small", "cpsat_max",
}

_MAX_SEED = 2**31 - 1
_MAX_WORKERS = 64


def _number(name: str, value, integer: bool, low, high):
    if isinstance(value, bool) or not isinstance(value, (int, float)) or (integer and not isinstance(value, int)):
        kind = "a whole number" if integer else "a number"
        raise InvalidInput(f"option {name} must be {kind}, got {value!r}")
    if not integer and not math.isfinite(value):
        raise InvalidInput(f"option {name} must be a finite number, got {value!r}")
    if value < low or (high is not None and value > high):
        bound = f"at least {low}" if high is None else f"from {low} to {high}"
        raise InvalidInput(f"option {name} must be {bound}, got {value!r}")
    return value


def check_options(engine, options: dict) -> dict:
    """Validate ``options`` for ``engine`` (a module with ``NAME`` and ``solve``).

    Returns the options to pass to ``engine.solve``: the ones its signature takes.

    Raises
    ------
    InvalidInput
        For an option no engine knows (naming the closest one), an option this engine
        cannot honour (``node_limit`` for CP-SAT), or a value out of range.

    >>> from kt_formal.engines import cpsat
    >>> check_options(cpsat, {"time_limt": 5})
    Traceback (most recent call last):
    ...
    kt_formal.kernel.errors.InvalidInput: unknown option 'time_limt' (did you mean 'time_limit'?)
    """
    params = inspect.signature(engine.solve).parameters
    takes = {n for n, p in params.items() if p.kind is inspect.Parameter.KEYWORD_ONLY}
    passed = {}
    for name, value in options.items():
        if name not in KNOWN_OPTIONS and name not in takes:
            close = difflib.get_close_matches(name, sorted(KNOWN_OPTIONS | takes), n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise InvalidInput(f"unknown option {name!r}{hint}")
        if value is None:
            if name in takes:
                passed[name] = None
            continue
        if name == "time_limit":
            value = _number(name, value, False, 0, None)
            if value == 0:
                raise InvalidInput("option time_limit must be above 0 seconds")
        elif name == "seed":
            _number(name, value, True, 0, _MAX_SEED)
        elif name == "workers":
            _number(name, value, True, 1, _MAX_WORKERS)
        elif name in ("node_limit", "retries"):
            _number(name, value, True, 1 if name == "node_limit" else 0, MAX_NODES)
        if name in takes:
            passed[name] = value
        elif name not in RUN_SETTINGS:
            raise InvalidInput(f"the {engine.NAME} engine takes no option {name!r}; it takes "
                               f"{', '.join(sorted(takes)) or 'none'}")
    return passed


def orient(request: TourRequest, order: np.ndarray, closed: bool) -> np.ndarray:
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


def found(request: TourRequest, order, engine: str, wall_time: float, stats=None, message="") -> Result:
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


def _request_violation(request: TourRequest, tour: Tour) -> str | None:
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


def impossible(request: TourRequest, engine: str, wall_time: float, message: str, proof=None, stats=None) -> Result:
    """An IMPOSSIBLE result: only for what the engine has proved."""
    return Result(Status.IMPOSSIBLE, request, proof=proof, engine=engine, wall_time=wall_time,
                  stats=dict(stats or {}), message=message)


def unknown(request: TourRequest, engine: str, wall_time: float, message: str, stats=None) -> Result:
    """An UNKNOWN result: a limit ran out, nothing is claimed."""
    return Result(Status.UNKNOWN, request, engine=engine, wall_time=wall_time,
                  stats=dict(stats or {}), message=message)
