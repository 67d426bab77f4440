"""The question a user asks, what it may spend, and its answer.

A :class:`Question` is the question: the board, closed or open, fixed ends, forced and
forbidden moves. :class:`Limits` is what a run may spend (time, nodes) and how it is
stopped and watched (a stop event, progress), with its seed and threads; both are checked
once, where they are made, and handed down from the command line or the Python API to the
engine and the kernel's claim. A :class:`Result` is an answer: FOUND (with a verified
tour), IMPOSSIBLE (proved), LIMIT (a time or node limit, or the stop event, ended the run)
or UNKNOWN (the engine gave up); the last two claim nothing and are never reported as
impossible.

>>> Status.FOUND.exit_code, Status.IMPOSSIBLE.exit_code, Status.UNKNOWN.exit_code, Status.LIMIT.exit_code
(0, 1, 3, 3)
>>> Limits(time_limit=10).left() <= 10, DEFAULT_TIME_LIMIT
(True, 60.0)
"""

from __future__ import annotations

import enum
import math
import time
from dataclasses import dataclass, field

from kt_formal.board import Board
from kt_formal.defaults import DEFAULT_THREADS, DEFAULT_TIME_LIMIT
from kt_formal.exceptions import InvalidInput
from kt_formal.tours import Tour

__all__ = ["Status", "Result", "Question", "Limits", "Stage", "check_number", "check_time_limit",
           "DEFAULT_TIME_LIMIT", "DEFAULT_THREADS"]

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
    UNKNOWN = "unknown"  # the engine gave up: nothing is claimed
    LIMIT = "limit"  # a time or node limit, or the stop event, ended it: nothing is claimed

    @property
    def exit_code(self) -> int:
        """0 found, 1 impossible, 3 unknown or limit (the command line's exit codes)."""
        return {"found": 0, "impossible": 1, "unknown": 3, "limit": 3}[self.value]

    @property
    def decided(self) -> bool:
        """Whether the answer claims something (FOUND or IMPOSSIBLE)."""
        return self is Status.FOUND or self is Status.IMPOSSIBLE


@dataclass
class Question:
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
    request : Question
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
    verified : bool
        Whether ``tour`` has passed the kernel's check (every FOUND result that leaves
        :meth:`kt_formal.engines.base.Engine.run` has).
    """

    status: Status
    request: Question
    tour: Tour | None = None
    proof: object | None = None
    engine: str = ""
    wall_time: float = 0.0
    stats: dict = field(default_factory=dict)
    message: str = ""
    verified: bool = field(default=False, repr=False)

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



_MAX_SEED = 2**31 - 1
_MAX_THREADS = 1024


def check_time_limit(time_limit) -> float | None:
    """``time_limit`` as seconds (a float, or None for no limit), or InvalidInput: the one
    check of a time limit, wherever one is given (``math.inf`` is refused: no limit is None).

    >>> check_time_limit(float("nan"))
    Traceback (most recent call last):
    ...
    kt_formal.kernel.errors.InvalidInput: the time limit must be a finite number of seconds, not nan
    """
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


class Limits:
    """What a run may spend, and how it is stopped and watched: made (and checked) once,
    where the question is asked, and handed down to every stage and engine.

    Parameters
    ----------
    time_limit : float or None
        Seconds from the moment the limits are made (None: no limit); the clock starts
        here. Checked by :func:`check_time_limit`.
    node_limit : int or None
        Nodes a search may visit (searches only; None: no limit).
    seed : int
        The seed of randomised engines (0 to 2**31 - 1).
    threads : int or None
        Threads (or worker processes) a run may use; None: the engine's own choice.
    stop : threading.Event or None
        Set by someone else to end the run at its next check (an answer came first).
    progress : callable or None
        ``progress(done, total, text)``, called at most a few times a second.

    A part of the run (a stage, an engine of a portfolio) gets :meth:`share` of what is
    left: the same seed, threads, stop event and progress, a time limit of its own.

    >>> lim = Limits(10, seed=3)
    >>> part = lim.share(0.5, at_most=2.0)
    >>> part.time_limit <= 2.0, part.seed, Limits().left() is None
    (True, 3, True)
    >>> Limits(node_limit=-1)
    Traceback (most recent call last):
    ...
    kt_formal.kernel.errors.InvalidInput: option node_limit must be from 1 to 4611686018427387904, got -1
    """

    __slots__ = ("time_limit", "node_limit", "seed", "threads", "stop", "progress", "t0")

    def __init__(self, time_limit: float | None = None, *, node_limit: int | None = None, seed: int = 0,
                 threads: int | None = None, stop=None, progress=None):
        self.time_limit = check_time_limit(time_limit)
        self.node_limit = None if node_limit is None else check_number("node_limit", node_limit, True, 1, MAX_NODES)
        self.seed = check_number("seed", seed, True, 0, _MAX_SEED)
        self.threads = None if threads is None else check_number("threads", threads, True, 1, _MAX_THREADS)
        if progress is not None and not callable(progress):
            raise InvalidInput(f"progress must be a function (done, total, text), not {progress!r}")
        self.stop = stop
        self.progress = progress
        self.t0 = time.perf_counter()

    def elapsed(self) -> float:
        """Seconds since the limits were made."""
        return time.perf_counter() - self.t0

    def left(self) -> float | None:
        """Seconds left (never below 0), or None without a time limit."""
        return None if self.time_limit is None else max(0.0, self.time_limit - self.elapsed())

    def seconds(self, fraction: float = 1.0, at_most: float | None = None) -> float | None:
        """``fraction`` of the time left, at most ``at_most``; ``at_most`` without a limit."""
        left = self.left()
        if left is None:
            return at_most
        x = left * fraction
        return x if at_most is None else min(x, at_most)

    def share(self, fraction: float = 1.0, at_most: float | None = None, **changes) -> "Limits":
        """The limits of a part of this run: ``fraction`` of the time left (at most
        ``at_most``), the same seed, threads, stop event and progress unless ``changes``
        names others (``node_limit=``, ``stop=``, ...). A spent budget gives a part with
        a time limit of a millisecond, which ends at its first check."""
        seconds = self.seconds(fraction, at_most)
        part = Limits.__new__(Limits)
        part.time_limit = None if seconds is None else max(seconds, 1e-3)
        part.node_limit, part.seed, part.threads = self.node_limit, self.seed, self.threads
        part.stop, part.progress = self.stop, self.progress
        for name, value in changes.items():
            if name not in Limits.__slots__ or name == "t0":
                raise TypeError(f"Limits.share() got an unexpected keyword argument {name!r}")
            setattr(part, name, value)
        if "node_limit" in changes and part.node_limit is not None:
            check_number("node_limit", part.node_limit, True, 1, MAX_NODES)
        part.t0 = time.perf_counter()
        return part

    def stopped(self) -> bool:
        """True when the time is spent or the stop event is set."""
        left = self.left()
        return (left is not None and left <= 0) or (self.stop is not None and self.stop.is_set())

    def report(self, done, total, text: str) -> None:
        """Pass progress on to the hook, if any."""
        if self.progress is not None:
            self.progress(done, total, text)

    def __repr__(self) -> str:
        return (f"<Limits time_limit={self.time_limit} node_limit={self.node_limit} seed={self.seed} "
                f"threads={self.threads} elapsed={self.elapsed():.3f}>")


@dataclass
class Stage:
    """One stage of the pipeline: its name, what came of it, and the seconds it took."""

    name: str
    outcome: str
    seconds: float

    def __str__(self) -> str:
        return f"{self.name}: {self.outcome} ({self.seconds:.2f} s)"
