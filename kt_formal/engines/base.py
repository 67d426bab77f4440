"""The result type every engine returns, and the steps every engine shares.

An engine answers FOUND (with a verified tour), IMPOSSIBLE (it proved that no tour
exists) or UNKNOWN (a limit ran out). UNKNOWN is never reported as impossible.

>>> Status.FOUND.exit_code, Status.IMPOSSIBLE.exit_code, Status.UNKNOWN.exit_code
(0, 1, 3)
"""

from __future__ import annotations

import difflib
import enum
import inspect
import math
import time
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

from kt_formal.board import Board
from kt_formal.exceptions import InvalidInput
from kt_formal.tour import Tour

__all__ = ["Status", "Result", "TourRequest", "Engine", "check_options", "found", "impossible", "unknown",
           "Stopwatch"]


class Status(enum.Enum):
    """What an engine established."""

    FOUND = "found"
    IMPOSSIBLE = "impossible"
    UNKNOWN = "unknown"

    @property
    def exit_code(self) -> int:
        return {"found": 0, "impossible": 1, "unknown": 3}[self.value]


@dataclass
class TourRequest:
    """What is asked of an engine: the board, closed or open, fixed ends, forced/forbidden moves.

    ``start``/``end`` are (row, col) squares or None. For a closed tour ``start`` only
    fixes where the numbering begins, and ``end`` (if given) must be the square visited
    last, i.e. the move end-start is on the cycle. ``forced`` and ``forbidden`` are
    moves given as pairs of (row, col) squares.
    """

    board: Board
    closed: bool = True
    start: tuple[int, int] | None = None
    end: tuple[int, int] | None = None
    forced: tuple = ()
    forbidden: tuple = ()

    def __post_init__(self):
        b = self.board
        if self.start is not None:
            self.start = b.parse_live_square(self.start)
        if self.end is not None:
            self.end = b.parse_live_square(self.end)
        self.forced = tuple(self._move(m, "forced") for m in self.forced)
        self.forbidden = tuple(self._move(m, "forbidden") for m in self.forbidden)

    def _move(self, m, what: str):
        try:
            a, b = m
        except (TypeError, ValueError):
            raise InvalidInput(f"{what} move {m!r} is not a pair of squares") from None
        a = self.board.parse_live_square(a)
        b = self.board.parse_live_square(b)
        if (a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2 != 5:
            raise InvalidInput(f"{what} move {a} -> {b} is not a knight move")
        return a, b

    def describe(self) -> str:
        kind = "closed tour" if self.closed else "open tour"
        text = f"{kind} of the {self.board.describe()} board"
        if self.start is not None:
            text += f" from {self.start}"
        if self.end is not None:
            text += f" to {self.end}"
        return text


@dataclass
class Result:
    """An engine's answer.

    Attributes
    ----------
    status : Status
    request : TourRequest
    tour : Tour or None
        Present exactly when ``status`` is FOUND; already verified.
    proof : object or None
        Evidence for IMPOSSIBLE where the engine has some (e.g. exhaustive search record).
    engine : str
    wall_time : float
        Seconds spent in the engine.
    stats : dict
        Engine-specific counters (nodes, branches, conflicts, squares covered, ...).
    message : str
        One human sentence on what happened.
    """

    status: Status
    request: TourRequest
    tour: Tour | None = None
    proof: object | None = None
    engine: str = ""
    wall_time: float = 0.0
    stats: dict = field(default_factory=dict)
    message: str = ""

    @property
    def found(self) -> bool:
        return self.status is Status.FOUND

    @property
    def board(self) -> Board:
        return self.request.board

    def __repr__(self) -> str:
        return (
            f"<Result {self.status.value} by {self.engine} in {self.wall_time:.3f}s: "
            f"{self.request.describe()}>"
        )


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
_MAX_NODES = 2**62


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
            _number(name, value, True, 1 if name == "node_limit" else 0, _MAX_NODES)
        if name in takes:
            passed[name] = value
        elif name not in RUN_SETTINGS:
            raise InvalidInput(f"the {engine.NAME} engine takes no option {name!r}; it takes "
                               f"{', '.join(sorted(takes)) or 'none'}")
    return passed


class Stopwatch:
    """Wall time since construction (``time.perf_counter``)."""

    __slots__ = ("t0",)

    def __init__(self):
        self.t0 = time.perf_counter()

    def __call__(self) -> float:
        return time.perf_counter() - self.t0


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
