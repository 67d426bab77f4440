"""The question a user asks, its answer, and the budget it may spend.

A :class:`TourRequest` is the question: the board, closed or open, fixed ends, forced and
forbidden moves. A :class:`Result` is an answer: FOUND (with a verified tour), IMPOSSIBLE
(proved) or UNKNOWN (a limit ran out; never reported as impossible). A :class:`Budget`
owns the time limit of a run; it is checked once, where it is made, and
handed down from the command line to the engine under that one name.

>>> Status.FOUND.exit_code, Status.IMPOSSIBLE.exit_code, Status.UNKNOWN.exit_code
(0, 1, 3)
>>> b = Budget(time_limit=10)
>>> b.left() <= 10, b.share(0.5, at_most=2.0) <= 2.0, Budget().left() is None
(True, True, True)
"""

from __future__ import annotations

import enum
import math
import time
from dataclasses import dataclass, field

from kt_formal.board import Board
from kt_formal.exceptions import InvalidInput
from kt_formal.tour import Tour

__all__ = ["Status", "Result", "TourRequest", "Budget", "Stage", "check_number"]

#: The largest node limit a search accepts.
MAX_NODES = 2**62


def check_number(name: str, value, integer: bool, low, high=None):
    """``value`` if it is a number (a whole one with ``integer``) from ``low`` to ``high``
    (no upper bound when None), else InvalidInput naming option ``name``."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or (integer and not isinstance(value, int)):
        kind = "a whole number" if integer else "a number"
        raise InvalidInput(f"option {name} must be {kind}, got {value!r}")
    if not integer and not math.isfinite(value):
        raise InvalidInput(f"option {name} must be a finite number, got {value!r}")
    if value < low or (high is not None and value > high):
        bound = f"at least {low}" if high is None else f"from {low} to {high}"
        raise InvalidInput(f"option {name} must be {bound}, got {value!r}")
    return value


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


class Budget:
    """The time limit of one run; the clock starts when the budget is made.

    ``time_limit`` is in seconds (None: no limit), checked by :meth:`check_time_limit`,
    the one check of a time limit. (Node limits are a search's own option, checked with
    the other options by :func:`kt_formal.solve.check_options`.)

    >>> Budget(time_limit=float("nan"))
    Traceback (most recent call last):
    ...
    kt_formal.kernel.errors.InvalidInput: the time limit must be a finite number of seconds, not nan
    """

    __slots__ = ("time_limit", "t0")

    def __init__(self, time_limit=None):
        self.time_limit = self.check_time_limit(time_limit)
        self.t0 = time.perf_counter()

    @staticmethod
    def check_time_limit(time_limit):
        """``time_limit`` as seconds (a float, or None for no limit), or InvalidInput: the
        one check of a time limit, wherever one is given (``math.inf`` is refused: no
        limit is None)."""
        if time_limit is None:
            return None
        if isinstance(time_limit, bool) or not isinstance(time_limit, (int, float)):
            raise InvalidInput(f"the time limit must be a number of seconds, not {time_limit!r}")
        if not math.isfinite(time_limit):
            raise InvalidInput(f"the time limit must be a finite number of seconds, not {time_limit!r}")
        if time_limit == 0:
            raise InvalidInput("the time limit must be above 0 seconds")
        if time_limit < 0:
            raise InvalidInput(f"the time limit must be a positive number of seconds, not {time_limit!r}")
        return float(time_limit)

    def elapsed(self) -> float:
        """Seconds since the budget was made."""
        return time.perf_counter() - self.t0

    def left(self) -> float | None:
        """Seconds left (never below 0), or None without a time limit."""
        return None if self.time_limit is None else max(0.0, self.time_limit - self.elapsed())

    def share(self, fraction: float, at_most: float | None = None) -> float | None:
        """``fraction`` of the time left, at most ``at_most``; ``at_most`` without a limit."""
        left = self.left()
        if left is None:
            return at_most
        x = left * fraction
        return x if at_most is None else min(x, at_most)

    def __repr__(self) -> str:
        return f"<Budget time_limit={self.time_limit} elapsed={self.elapsed():.3f}>"


@dataclass
class Stage:
    """One stage of the pipeline: its name, what came of it, and the seconds it took."""

    name: str
    outcome: str
    seconds: float

    def __str__(self) -> str:
        return f"{self.name}: {self.outcome} ({self.seconds:.2f} s)"
