"""The one policy of a count, shared by ``kt-formal count`` and ``kt_formal.count``.

Which method counts a board (:func:`choose_method`), whether the count fits memory and the
spill directory before it starts, the threads of its steps and the loading of the compiled
kernels all happen here, in :func:`run_count` (one board) and :func:`run_row` (a row of
boards in one sweep); the command and the Python API only parse and render. A count that
reaches a limit is not a count: its :class:`Count` has ``count`` None and ``complete``
False, and the tours found so far (a search's) under ``lower_bound``.

:func:`second_way` and :func:`check_count` count a board a second, independent way
(``count --check``): the exhaustive search where the board is small, else the frontier
method swept across the board's other side (the board turned a quarter and made square
with holes), where that fits.

>>> from kt_formal.board import Board
>>> from kt_formal.question import Question
>>> choose_method(Question(Board(6, 6), closed=True)), choose_method(Question(Board(6, 6), closed=False))
('search', 'frontier')
"""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from dataclasses import dataclass

from kt_formal.board import Board
from kt_formal.counting.frontier import MAX_SHORT_SIDE, colours_rule_out, estimate_figure
from kt_formal.exceptions import InvalidInput, LimitReached, ResourceLimit, Worded
from kt_formal.question import DEFAULT_TIME_LIMIT, Limits, Question, check_time_limit

__all__ = ["Count", "PYTHON_WORDS", "COMMAND_WORDS", "choose_method", "method_for", "run_count", "run_row", "parse_threads", "second_way", "no_second_way", "check_count",
           "SEARCH_SQUARES", "SEARCH_OPEN_SQUARES"]

#: Closed tours of boards this small (or smaller) are counted by the exhaustive search
#: (6x6: 0.2 s); the frontier method takes the rest that it can (a side of at most 8).
SEARCH_SQUARES = 36

#: The open tours a second count (``--check``) leaves to the exhaustive search: boards of at
#: most this many squares (5x6 open: 1.4 s; 6x6 open takes about a minute).
SEARCH_OPEN_SQUARES = 30

#: How the messages name the options: the Python API's parameters (the default) ...
PYTHON_WORDS = {"method search": "method='search'", "time limit": "time_limit", "out": "out",
                "node limit": "node_limit", "spill dir": "spill_dir", "resume": "resume",
                "checkpoint": "checkpoint", "checkpoint DIR": "checkpoint",
                "checkpoint every": "checkpoint_every", "discard checkpoint": "discard_checkpoint",
                "frontier only": "checkpoint, resume, dask and symmetry=False"}
#: ... or the command's options (:func:`kt_formal.api.words.in_command_words` rewrites the
#: :class:`~kt_formal.exceptions.Worded` messages with these).
COMMAND_WORDS = {"method search": "--method search", "time limit": "--time-limit", "out": "--out",
                 "node limit": "--node-limit", "spill dir": "--spill-dir", "resume": "--resume",
                 "checkpoint": "--checkpoint", "checkpoint DIR": "--checkpoint DIR",
                 "checkpoint every": "--checkpoint-every", "discard checkpoint": "--discard-checkpoint",
                 "frontier only": "--checkpoint, --resume, --dask and --no-mirror"}


@dataclass
class Count:
    """A count's outcome.

    Attributes
    ----------
    method : str
        ``frontier`` or ``search``.
    complete : bool
        False when a limit ran out: then ``count`` is None.
    count : int or None
        The tours, each undirected tour once; None unless complete.
    lower_bound : int or None
        An incomplete search's tours found so far (at least this many); None otherwise.
    wall_time : float
    directed_count, nodes, max_states : int or None
    reason : str
        Why there is no tour (the colours of the squares), or why the count is unknown.
    details : object
        The frontier counter's :class:`~kt_formal.counting.frontier.FrontierCount` (columns,
        passes, resume), or None.
    way : str
        The method in words (``frontier method``, ``exhaustive search``, ...).
    """

    method: str
    complete: bool
    count: int | None
    lower_bound: int | None
    wall_time: float
    directed_count: int | None = None
    nodes: int | None = None
    max_states: int | None = None
    reason: str = ""
    details: object = None
    way: str = ""


def parse_threads(text, what: str = "--threads") -> int:
    """A number of threads from a command line: a whole number from 1 to 1024."""
    from kt_formal.engines.kernel_threads import parse_threads as parse

    return parse(text, what)


def _bad(text: str) -> InvalidInput:
    """Bad input whose message names options: in Python's words, the command's when it shows it."""
    return InvalidInput(Worded(text, PYTHON_WORDS))


def choose_method(question: Question, method: str = "auto", *, out=None, node_limit=None,
                  frontier_only: bool = False) -> str:
    """``frontier`` or ``search`` for a count of ``question`` (``method`` as asked).

    ``auto``: the exhaustive search for closed tours of boards of at most
    :data:`SEARCH_SQUARES` squares, for a list of the tours (``out``) and for a node limit;
    else the frontier method where a side is at most :data:`MAX_SHORT_SIDE`. A board past
    both is refused (one line). ``frontier_only``: a checkpoint, Dask or unmerged mirror
    images were asked for.
    """
    board, closed = question.board, question.closed
    if method not in ("auto", "frontier", "search"):
        raise InvalidInput(f"the method must be auto, frontier or search, not {method!r}")
    short = min(board.rows, board.cols)
    if method == "auto":
        if short > MAX_SHORT_SIDE and board.n_squares > 64:
            raise _bad(
                       f"counting the tours of the {board.rows}x{board.cols} board is out of reach: the "
                       f"frontier method would hold about {estimate_figure(short, 0)} states per step "
                       f"(it takes a side of at most {MAX_SHORT_SIDE}), and an exhaustive search grows "
                       "with the number of tours (try {method search} with a {time limit})")
        # the exhaustive search is quick for the closed tours of the smallest boards (6x6:
        # 0.2 s), never for open ones (6x6: 3,318,960 tours, about a minute; 5x6 1.4 s where
        # the frontier takes 0.2 s)
        small = closed and board.n_squares <= SEARCH_SQUARES and not frontier_only
        method = "frontier" if short <= MAX_SHORT_SIDE and not out and not small and node_limit is None else "search"
    if method == "search" and frontier_only:
        raise _bad(f"{{frontier only}} go with the frontier method (a side of at most {MAX_SHORT_SIDE}, "
                   "no {out} or {node limit})")
    if method == "frontier" and out:
        raise _bad("{out} lists every tour: use {method search}")
    if method == "frontier" and short > MAX_SHORT_SIDE:
        raise InvalidInput(f"the frontier method needs a side of at most {MAX_SHORT_SIDE}; the "
                           f"{board.rows}x{board.cols} board would need about {estimate_figure(short)} states per step")
    return method


def _counters():
    """(count_request, count_row): the compiled frontier counters where numba imports, else
    the pure-Python one and None."""
    try:
        from kt_formal.counting.frontier_jit import count_request_jit, count_row
    except ImportError:  # pragma: no cover - numba is a dependency
        from kt_formal.counting.frontier import count_request

        return count_request, None
    return count_request_jit, count_row


def _spill_options(spill_dir, table_bytes) -> dict:
    """``spill_dir``, ``max_states`` and ``table_bytes`` of the compiled counter: a step may
    hold what memory or the spill directory's free space holds."""
    from kt_formal.counting.frontier_memory import DEFAULT_MAX_STATES, SPILL_BYTES_PER_STATE

    spill_dir = spill_dir or tempfile.gettempdir()
    if not os.path.isdir(spill_dir):
        raise _bad(f"{{spill dir}} {spill_dir!r} is not a directory")
    free = shutil.disk_usage(spill_dir).free
    out = {"max_states": max(DEFAULT_MAX_STATES, free // SPILL_BYTES_PER_STATE), "spill_dir": spill_dir}
    if table_bytes is not None:
        out["table_bytes"] = int(table_bytes)
    return out


def _checkpoint_options(checkpoint, resume, every, discard_old) -> dict:
    """The counters' ``checkpoint``, ``resume``, ``checkpoint_every``, checked together."""
    if resume and not checkpoint:
        raise _bad("{resume} goes with {checkpoint DIR} (the directory of the stopped count)")
    if every is not None and not checkpoint:
        raise _bad("{checkpoint every} goes with {checkpoint DIR}")
    if discard_old and not checkpoint:
        raise _bad("{discard checkpoint} goes with {checkpoint DIR}")
    if discard_old and resume:
        raise _bad("{discard checkpoint} starts afresh: it does not go with {resume}")
    if not checkpoint:
        return {}
    checkpoint = os.fspath(checkpoint)
    if os.path.exists(checkpoint) and not os.path.isdir(checkpoint):
        raise _bad(f"{{checkpoint}} {checkpoint!r} is a file, not a directory")
    return {"checkpoint": checkpoint, "resume": bool(resume), "checkpoint_every": every}


def _fullest_step(short: int, both_free: bool) -> tuple[int, str, str]:
    """The states of the fullest step of a count ``short`` across without holes: the number,
    how it is said, and where it comes from (open tours with a fixed end: the closed figure,
    the lower one, so that nothing is refused that might fit)."""
    from kt_formal.counting.frontier import OPEN_OVER_CLOSED, estimate_measured, estimate_states

    est = estimate_states(short, closed=not both_free)
    if estimate_measured(short, closed=not both_free):
        return est, f"at least {est:,} states", f"measured on a board {short} across; a longer board holds more"
    return est, f"about {est:,} states", (f"the closed count's fullest step times {OPEN_OVER_CLOSED}, the least "
                                          "ratio of open to closed measured; docs/counts.md")


def _room(short: int, both_free: bool, closed: bool, boards: str, spill: dict, time_limit, note) -> None:
    """Before a count of ``boards`` without holes: refuse it (one line) when its fullest step
    fits neither memory nor the spill directory; a note when its steps will spill to files."""
    from kt_formal.counting.frontier import EIGHT_BY_EIGHT_MINUTES
    from kt_formal.counting.frontier_memory import DEFAULT_MAX_STATES, SPILL_BYTES_PER_STATE

    spill_dir, max_states = spill["spill_dir"], spill["max_states"]
    free = shutil.disk_usage(spill_dir).free
    est, amount, why = _fullest_step(short, both_free)
    kind = "open tours" if both_free else "tours"
    if est > max_states:
        raise ResourceLimit(
            f"counting the {kind} of {boards} is out of reach here: one step "
            f"of the frontier method holds {amount} ({why}); memory holds {DEFAULT_MAX_STATES:,} and {spill_dir} has room for "
            f"{free // SPILL_BYTES_PER_STATE:,} ({free / 1e9:.0f} GB free, {SPILL_BYTES_PER_STATE} bytes a "
            "state for a step's input and output)")
    if est > DEFAULT_MAX_STATES and note is not None:
        took = (f"8x8's closed tours took {EIGHT_BY_EIGHT_MINUTES} minutes on 2 cores" if closed else
                "no count of 8x8's open tours has finished here (docs/counts.md)")
        limit = "no time limit" if time_limit is None else f"{{time limit}} (now {time_limit:g} s) bounds the run"
        note(Worded(f"a count of the {kind} of {boards} holds {amount} a step, "
             f"near or past what memory holds: a large step that does not fit keeps its states in files "
             f"in {spill_dir} (up to about {est * SPILL_BYTES_PER_STATE / 1e9:.0f} GB); {took}; {limit}", PYTHON_WORDS))


def _prepare(k: int, closed: bool, quiet: bool) -> None:
    """Load (or compile, saying so unless quiet) the frontier kernels of a count ``k`` across
    before the count's clock starts; numba's compiler context without SciPy's linear algebra."""
    from kt_formal.counting.frontier_jit import prepare_kernels
    from kt_formal.engines.compiled import start_compiler_without_blas

    start_compiler_without_blas()
    prepare_kernels(note=not quiet, k=k, closed=closed)


def kernel_threads(threads):
    from kt_formal.engines.kernel_threads import requested_threads

    return requested_threads(threads)


def _frontier(request: Question, o: dict, note) -> Count:
    """A count by the frontier method, with the policy's checks and preparation."""
    board = request.board
    count_request, count_row = _counters()
    ruled_out = colours_rule_out(request)
    kwargs = {}
    if count_row is not None:  # the compiled counter: memory, then files in the spill directory
        kwargs = _spill_options(o["spill_dir"], o["table_bytes"])
        kwargs["threads"] = kernel_threads(o["threads"])
        kwargs.update(_checkpoint_options(o["checkpoint"], o["resume"], o["checkpoint_every"], o["discard_checkpoint"]))
        if not o["symmetry"]:
            kwargs["symmetry"] = False
        both_free = not request.closed and request.start is None and request.end is None
        if not board.has_holes and not ruled_out:
            _room(min(board.rows, board.cols), both_free, request.closed, f"the {board.rows}x{board.cols} board",
                  kwargs, o["time_limit"], note)
        if not ruled_out:
            _prepare(min(board.rows, board.cols), request.closed, o["quiet"])
    elif o["checkpoint"] or o["resume"] or o["dask"] or not o["symmetry"] or o["discard_checkpoint"]:
        raise _bad("{frontier only} need the compiled counter (numba)")
    if o["discard_checkpoint"]:
        from kt_formal.counting.frontier_checkpoint import discard

        discard(kwargs["checkpoint"])
    t0 = time.perf_counter()
    ask = dict(progress=o["progress"], time_limit=o["time_limit"])
    try:
        if o["dask"]:
            from kt_formal.counting.frontier_dask import count_request_dask

            kwargs.pop("threads", None)
            res = count_request_dask(request, address=o["dask"],
                                     parts=o["parts"], progress=o["progress"], time_limit=o["time_limit"], **kwargs)
        else:
            res = count_request(request, **ask, **kwargs)
    except LimitReached as exc:
        return Count("frontier", False, None, None, time.perf_counter() - t0, reason=str(exc), way="frontier method")
    return Count("frontier", True, int(res.count), None, res.wall_time, res.directed, max_states=int(res.max_states),
                 reason=res.reason, details=res, way="frontier method")


def pathsearch(request: Question, o: dict) -> Count:
    """A count by the exhaustive search."""
    from kt_formal.counting.exhaustive import count

    res = count(request, Limits(o["time_limit"], node_limit=o["node_limit"], progress=o["progress"]), out=o["out"])
    if not res.complete:
        return Count("search", False, None, int(res.count), res.wall_time, nodes=res.nodes, way="exhaustive search",
                     reason=f"the count stopped at its limit after {res.nodes:,} nodes and {res.wall_time:.2f} s")
    why = colours_rule_out(request) if res.count == 0 else ""
    return Count("search", True, int(res.count), None, res.wall_time, res.directed_count, nodes=res.nodes, reason=why,
                 way="exhaustive search")


_DEFAULTS = dict(method="auto", time_limit=DEFAULT_TIME_LIMIT, node_limit=None, out=None, progress=None, checkpoint=None,
                 resume=False, discard_checkpoint=False, checkpoint_every=None, dask=None, parts=2, spill_dir=None,
                 table_bytes=None, threads=None, symmetry=True, quiet=True)


def method_for(request: Question, **options) -> str:
    """The method :func:`run_count` takes for ``request`` with these ``options`` (the same
    keywords): :func:`choose_method` with the options that only the frontier method takes."""
    unknown = set(options) - set(_DEFAULTS)
    if unknown:
        raise TypeError(f"unknown count options: {', '.join(sorted(unknown))}")
    o = dict(_DEFAULTS, **options)
    check_time_limit(o["time_limit"])  # NaN, 0 or negative: bad input, as for a tour
    if o["threads"] is not None:  # 0, negative, NaN or 1.5: bad input whichever method counts
        kernel_threads(o["threads"])
    frontier_only = bool(o["checkpoint"] or o["resume"] or o["dask"] or not o["symmetry"] or o["discard_checkpoint"])
    return choose_method(request, o["method"], out=o["out"], node_limit=o["node_limit"],
                         frontier_only=frontier_only)


def run_count(request: Question, note=None, **options) -> Count:
    """Count the tours ``request`` asks for, by the policy's method; never a partial number
    as the count (an incomplete count has ``count`` None).

    Parameters
    ----------
    request : Question
    note : callable, optional
        ``note(text)``: what the user should know before a long count (its steps will spill
        to files).
    **options
        ``method`` (auto, frontier, search), ``time_limit``, ``node_limit``, ``out`` (a file
        for every tour: search), ``progress``, ``checkpoint``, ``resume``,
        ``discard_checkpoint`` (remove the checkpoint there first), ``checkpoint_every``,
        ``dask``, ``parts``, ``spill_dir``, ``table_bytes``, ``threads``, ``symmetry``
        (False: mirror images kept apart), ``quiet`` (no note of compiling). Messages that
        name options are :class:`~kt_formal.exceptions.Worded` (Python's words).

    Returns
    -------
    Count

    Raises
    ------
    InvalidInput
        Options that do not go together, a board out of the methods' reach, a damaged or
        foreign checkpoint.
    ResourceLimit
        The count would not fit memory and the spill directory.
    """
    method = method_for(request, **options)
    o = dict(_DEFAULTS, **options)
    if method == "frontier":
        return _frontier(request, o, note)
    return pathsearch(request, o)


def run_row(k: int, a: int, b: int, closed: bool, on_count, note=None, **options) -> None:
    """Count the ``k x n`` boards for ``a <= n <= b`` (with ``partial``, also those whose
    last column is partly filled) in one sweep, ``on_count(key, count)`` as each is known;
    options as :func:`run_count` (frontier ones, and ``partial``)."""
    partial = options.pop("partial", False)
    o = dict(_DEFAULTS, **options)
    check_time_limit(o["time_limit"])
    count_request, count_row = _counters()
    if o["dask"]:
        raise InvalidInput(Worded("{dask} counts one board at a time, not {sequence}",
                                  {"dask": "dask", "sequence": "a row of boards"}))
    if count_row is None:  # the pure-Python counter: one board at a time
        if o["checkpoint"] or o["resume"] or not o["symmetry"]:
            raise InvalidInput(Worded("{checkpoint}, {resume} and {no mirror} need the compiled counter (numba)",
                                      {"checkpoint": "checkpoint", "resume": "resume", "no mirror": "symmetry=False"}))
        for n in range(a, b + 1):
            for j in range(1, k + 1) if partial else (k,):
                board = Board(k, n, holes=[(r, n - 1) for r in range(j, k)] or None)
                on_count((n, j) if partial else n, count_request(Question(board, closed), time_limit=o["time_limit"]).count)
        return
    spill = _spill_options(o["spill_dir"], o["table_bytes"])
    ckpt = _checkpoint_options(o["checkpoint"], o["resume"], o["checkpoint_every"], o["discard_checkpoint"])
    if b >= k:  # the sweep over k x b holds at least the states of the k x k board
        _room(k, not closed, closed, f"the {k}x{a}..{k}x{b} boards", spill, o["time_limit"], note)
    threads = kernel_threads(o["threads"])
    _prepare(k, closed, o["quiet"])
    if o["discard_checkpoint"]:
        from kt_formal.counting.frontier_checkpoint import discard

        discard(ckpt["checkpoint"])
    count_row(k, a, b, closed, progress=o["progress"], time_limit=o["time_limit"], on_count=on_count, partial=partial,
              threads=threads, **ckpt, **spill, **({} if o["symmetry"] else {"symmetry": False}))


# ---------------------------------------------------------------- a second computation
def _turned(request: Question) -> Question:
    """The question turned a quarter (rows for columns) and made square with columns of
    holes: the frontier then sweeps across its long side."""
    board = request.board
    side = max(board.rows, board.cols)
    holes = [(c, r) for r, c in board.holes()] + [(r, c) for r in range(side) for c in range(board.rows, side)]

    def flip(q):
        return None if q is None else (q[1], q[0])

    return Question(Board(side, side, holes=holes or None), request.closed, flip(request.start),
                       flip(request.end), tuple((flip(a), flip(b)) for a, b in request.forced),
                       tuple((flip(a), flip(b)) for a, b in request.forbidden))


def second_way(request: Question, first: str) -> str | None:
    """How to count ``request`` a second, independent way after ``first`` (a method):
    ``search`` (the exhaustive search, on a small board), ``frontier`` (after a search),
    ``across`` (the frontier swept across the long side, where it fits in memory), or None."""
    from kt_formal.counting.frontier_memory import DEFAULT_MAX_STATES
    from kt_formal.counting.frontier import estimate_states

    board = request.board
    short, long = sorted((board.rows, board.cols))
    live = board.n_squares
    if first == "search":
        return "frontier" if short <= MAX_SHORT_SIDE else None
    if live <= (SEARCH_SQUARES if request.closed else SEARCH_OPEN_SQUARES):
        return "search"
    both_free = not request.closed and request.start is None and request.end is None
    if short < long <= MAX_SHORT_SIDE and estimate_states(long, closed=not both_free) <= DEFAULT_MAX_STATES:
        return "across"
    return None


def no_second_way(request: Question, first: str) -> str:
    """Why :func:`second_way` found no second way after ``first``: a clause, for the refusal."""
    from kt_formal.counting.frontier_memory import DEFAULT_MAX_STATES
    from kt_formal.counting.frontier import estimate_states

    board = request.board
    short, long = sorted((board.rows, board.cols))
    if first == "search":
        return f"the frontier method needs a side of at most {MAX_SHORT_SIDE}"
    why = "it is too large for the exhaustive search, and "
    if long > MAX_SHORT_SIDE or short == long:
        return why + f"the sweep across the other side needs two different sides of at most {MAX_SHORT_SIDE}"
    both_free = not request.closed and request.start is None and request.end is None
    states = estimate_states(long, closed=not both_free)
    return why + (f"the sweep across its {long}-square side takes about {states:,} states and "
                  f"{DEFAULT_MAX_STATES:,} fit in this machine's memory")


def check_count(request: Question, way: str, note=None, **options) -> Count:
    """The count of ``request`` by ``way`` (:func:`second_way`); ``options`` as
    :func:`run_count` (the time limit, progress, threads, spill directory; no checkpoint)."""
    keep = {k: options[k] for k in ("time_limit", "progress", "threads", "spill_dir", "table_bytes", "quiet")
            if k in options}
    if way == "search":
        return run_count(request, note, method="search", **keep)
    if way == "frontier":
        return run_count(request, note, method="frontier", **keep)
    turned = _turned(request)
    got = run_count(turned, note, method="frontier", **keep)
    got.way = f"frontier method swept across the {turned.board.rows}-square side (the board turned a quarter)"
    return got
