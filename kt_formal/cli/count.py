"""``kt-formal count``: count every tour of a board (frontier method or exhaustive search).

Count closed (or open) tours; each undirected tour once. Boards with a side of at most 8
are counted by the frontier (transfer-matrix) method, which sweeps the board column by
column; others by exhaustive search.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile

from kt_formal.exceptions import InvalidInput, ResourceLimit
from kt_formal.cli.common import add_board_arguments, board_from_args, _bounded, command, MAX_SECONDS, _note, _size
from kt_formal.cli.scripting import _json_count, _json_count_line, _styled, add_script_arguments


COUNT_EXAMPLES = ("examples:\n  kt-formal count 6 6            9862 closed tours\n"
                  "  kt-formal count 5 5 --open     864 open tours (1728 directed)\n"
                  "  kt-formal count 6 8            55488142 closed tours (frontier method)\n"
                  "  kt-formal count --sequence 3 10..16   a row of counts, one a line")


def _add_count(sub) -> None:
    p = command(sub, __doc__, COUNT_EXAMPLES)
    add_board_arguments(p)
    p.add_argument("--open", action="store_true", help="count open tours (paths) instead of closed ones")
    p.add_argument("--start", metavar="SQ", help="only tours starting here")
    p.add_argument("--end", metavar="SQ", help="only tours ending here")
    p.add_argument("--method", choices=("auto", "frontier", "search"), default="auto",
                   help="frontier: sweep with a frontier of states (a side of at most 8); search: "
                        "exhaustive search; auto (default): the frontier for boards of more than 36 "
                        "squares with a side of at most 8, else the search")
    p.add_argument("--sequence", nargs=2, metavar=("K", "A..B"),
                   help="count the K x n boards for n from A to B, one line each")
    p.add_argument("--partial", action="store_true",
                   help="with --sequence: also the boards whose last column keeps only its first "
                        "J of K squares, one line each ('KxN J/K COUNT'), in the same sweep")
    p.add_argument("--no-mirror", action="store_true",
                   help="frontier: keep a state and its mirror image apart on boards that look the same "
                        "upside down (more states, slower): a second count by other states, to check a first")
    p.add_argument("-v", "--verbose", action="store_true",
                   help="the states per column (frontier): at the end on a terminal; into a file, a line at the end of "
                        "each column as the count goes")
    p.add_argument("--spill-dir", metavar="DIR",
                   help="frontier: where a step too large for memory keeps its states (files deleted "
                        "as they are made, so nothing is left behind; default: the temporary directory)")
    p.add_argument("--checkpoint", metavar="DIR",
                   help="frontier: write the states to DIR after a square every minute (see "
                        "--checkpoint-every), so that a stopped count can go on with --resume")
    p.add_argument("--resume", action="store_true",
                   help="frontier: go on from the last checkpoint in the --checkpoint DIR (afresh if none)")
    p.add_argument("--checkpoint-every", type=_bounded(float, 0.0, MAX_SECONDS, "--checkpoint-every"),
                   metavar="S", help="seconds between checkpoints (default 60)")
    p.add_argument("--dask", metavar="ADDRESS",
                   help="frontier: step the states on a Dask cluster, parted by a hash of their keys: a "
                        "scheduler's address (tcp://HOST:8786) or 'local' for a cluster of --workers "
                        "processes here")
    p.add_argument("--workers", type=_bounded(int, 1, 4096, "--workers"), default=2, metavar="P",
                   help="with --dask: the parts of each step (default 2; with 'local', as many processes)")
    p.add_argument("--table-memory", type=_bounded(float, 0.001, 2**20, "--table-memory"), metavar="GIB",
                   help="frontier: the most memory the hash table of one step takes, in GiB (default: "
                        "six tenths of the machine's); a larger step runs in passes, its states in --spill-dir")
    p.add_argument("--out", metavar="FILE", help="search: also write every tour to FILE, one JSON list per line")
    p.add_argument("--time-limit", type=_bounded(float, 0.001, MAX_SECONDS, "--time-limit"),
                   default=60.0, metavar="S",
                   help="stop after S seconds and report unknown (default 60)")
    p.add_argument("--node-limit", type=_bounded(int, 1, 10**15, "--node-limit"), metavar="N",
                   help="search: stop after N nodes and report unknown")
    add_script_arguments(p, "count")
    p.add_argument("--threads", type=_threads_option, metavar="T",
                   help="frontier: threads of a large step, 1 to 1024, at most the cores this process may "
                        "use (default: $KT_FORMAL_THREADS, else the cores no other process keeps busy; "
                        "small steps take one)")
    p.set_defaults(run=_run_count)


def _threads_option(text: str) -> int:
    """argparse type of ``--threads``: a whole number from 1 to 1024."""
    from kt_formal.engines._threads import parse_threads

    try:
        return parse_threads(text, "--threads")
    except InvalidInput as exc:
        raise argparse.ArgumentTypeError(str(exc).removeprefix("--threads ")) from None


_threads_option.__name__ = "--threads"


def _count_threads(args):
    """The threads of ``count``: ``--threads``, else ``KT_FORMAL_THREADS`` (checked), else None."""
    from kt_formal.engines._threads import requested_threads

    return requested_threads(args.threads)


def _frontier_counters():
    """(count_request, count_row): the compiled frontier counters where numba imports, else
    the pure-Python one and None (no one-sweep rows: the boards are counted one by one)."""
    try:
        from kt_formal.counting._frontier_jit import count_request_jit, count_row
    except ImportError:  # pragma: no cover - numba is a dependency
        from kt_formal.counting.frontier import count_request

        return count_request, None
    return count_request_jit, count_row


def _fullest_step(short: int, both_free: bool) -> tuple[int, str, str]:
    """The states of the fullest step of a count on a board ``short`` (at most 8) across
    without holes: the number, "at least N states" or "about N states", and where it comes
    from. Open tours with both ends free hold many more states than closed ones; with a
    fixed end the closed figure (the lower one) is taken, so that nothing is refused that
    might fit."""
    from kt_formal.counting.frontier import OPEN_OVER_CLOSED, estimate_measured, estimate_states

    est = estimate_states(short, closed=not both_free)
    if estimate_measured(short, closed=not both_free):
        return est, f"at least {est:,} states", f"measured on a board {short} across; a longer board holds more"
    return est, f"about {est:,} states", (f"the closed count's fullest step times {OPEN_OVER_CLOSED}, the least "
                                          "ratio of open to closed measured; docs/counts.md")


def _room_for_the_count(args, short: int, both_free: bool, closed: bool, boards: str, spill: dict) -> None:
    """Before a count of ``boards`` without holes (``short`` across) runs: refuse it at once
    (one line) when its fullest step would fit neither memory nor the spill directory, and
    say so when its large steps will keep their states in files."""
    from kt_formal.counting.frontier import EIGHT_BY_EIGHT_MINUTES
    from kt_formal.counting._frontier_memory import DEFAULT_MAX_STATES, SPILL_BYTES_PER_STATE

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
    if est > DEFAULT_MAX_STATES:
        took = (f"8x8's closed tours took {EIGHT_BY_EIGHT_MINUTES} minutes on 2 cores" if closed else
                "no count of 8x8's open tours has finished here (docs/counts.md)")
        _note(args, f"a count of the {kind} of {boards} holds {amount} a step, "
                    f"near or past what memory holds: a large step that does not fit keeps its states in files "
                    f"in {spill_dir} (up to about {est * SPILL_BYTES_PER_STATE / 1e9:.0f} GB); {took}; "
                    f"--time-limit (now {args.time_limit:g} s) bounds the run")


def _count_frontier(args, board, request) -> int:
    from kt_formal.counting.frontier import MAX_SHORT_SIDE, colours_rule_out, estimate_figure
    from kt_formal.progress import progress_for

    count_request, count_row = _frontier_counters()
    short = min(board.rows, board.cols)
    if short > MAX_SHORT_SIDE:
        raise InvalidInput(f"the frontier method needs a side of at most {MAX_SHORT_SIDE}; the "
                           f"{board.rows}x{board.cols} board would need about "
                           f"{estimate_figure(short)} states per step")
    kwargs = {}
    # colours that rule every tour out answer at once: no room to check, no kernels to load
    ruled_out = colours_rule_out(board, request.closed, request.start, request.end)
    if count_row is not None:  # the compiled counter: memory, then files in the spill directory
        kwargs = _spill_kwargs(args)
        kwargs["threads"] = _count_threads(args)
        kwargs.update(_checkpoint_kwargs(args), **_mirror_kwargs(args))  # the options' errors before any note
        both_free = not request.closed and request.start is None and request.end is None
        if not board.has_holes and not ruled_out:
            _room_for_the_count(args, short, both_free, request.closed, f"the {board.rows}x{board.cols} board", kwargs)
        if not ruled_out:
            _prepare_frontier(args, short)
    elif args.checkpoint or args.resume or args.dask or args.no_mirror:
        raise InvalidInput("--checkpoint, --resume, --dask and --no-mirror need the compiled counter (numba)")
    with progress_for(enabled=not getattr(args, "quiet", False), label="count", lines=args.verbose) as progress:
        if args.dask:
            from kt_formal.counting._frontier_dask import count_request_dask

            kwargs.pop("threads", None)
            res = count_request_dask(board, request.closed, request.start, request.end, address=args.dask,
                                     parts=args.workers, progress=progress if progress.active else None,
                                     time_limit=args.time_limit, **kwargs)
        else:
            res = count_request(board, request.closed, request.start, request.end,
                                progress=progress if progress.active else None, time_limit=args.time_limit,
                                **kwargs)
        columns_shown = progress.active and progress.lines  # a line a column went to a file already
    if res.resumed or res.resumed_squares:
        n = max(board.rows, board.cols)
        part = f" and {res.resumed_squares} square{'s' if res.resumed_squares > 1 else ''} of the next" \
            if res.resumed_squares else ""
        _note(args, f"resumed from the checkpoint in {args.checkpoint}: {res.resumed} of {n} columns{part} were "
                    "counted already" + (" (the count was finished)" if res.resumed == n else ""))
    gone = (f"no partial tour went on past column {res.emptied} of {max(board.rows, board.cols)}"
            if res.emptied and not res.count else "")
    if getattr(args, "json", False):
        return _json_count(args, request, "frontier", res.count, True, res.wall_time, max_states=res.max_states,
                           directed_count=res.directed, reason=res.reason or gone)
    what = request.describe() if res.count == 1 else request.describe().replace("tour", "tours", 1)
    extra = f" ({res.directed} directed)" if res.directed is not None else ""
    how = (f"{res.reason}; nothing to count" if res.reason
           else f"frontier method, at most {res.max_states:,} state{'s' if res.max_states != 1 else ''}")
    if gone:
        how += f"; {gone}"
    print(_styled(args, board, f"{res.count} {what}{extra}; {how}, {res.wall_time:.2f} s"))
    if args.verbose:
        if not columns_shown:
            for c, n in enumerate(res.states_per_column, 1):
                print(f"  column {c}: {n:,} states", file=sys.stderr)
        if res.spilled:
            passes = f"the largest step ran in {res.passes} passes; " if res.passes > 1 else ""
            print(f"  {passes}up to {res.spilled:,} states in files", file=sys.stderr)
    return 0


def _spill_kwargs(args) -> dict:
    """``spill_dir``, ``max_states`` and ``table_bytes`` of the compiled frontier counter: the
    states a step may hold are what memory or the spill directory's free space holds."""
    from kt_formal.counting._frontier_memory import DEFAULT_MAX_STATES, SPILL_BYTES_PER_STATE

    spill_dir = args.spill_dir or tempfile.gettempdir()
    if not os.path.isdir(spill_dir):
        raise InvalidInput(f"--spill-dir {spill_dir!r} is not a directory")
    free = shutil.disk_usage(spill_dir).free
    kwargs = {"max_states": max(DEFAULT_MAX_STATES, free // SPILL_BYTES_PER_STATE), "spill_dir": spill_dir}
    if args.table_memory is not None:
        kwargs["table_bytes"] = int(args.table_memory * 2**30)
    return kwargs


def _checkpoint_kwargs(args) -> dict:
    """``checkpoint``, ``resume``, ``checkpoint_every`` of the frontier counters from ``count``'s options."""
    if args.resume and not args.checkpoint:
        raise InvalidInput("--resume goes with --checkpoint DIR (the directory of the stopped count)")
    if args.checkpoint_every is not None and not args.checkpoint:
        raise InvalidInput("--checkpoint-every goes with --checkpoint DIR")
    if not args.checkpoint:
        return {}
    if os.path.exists(args.checkpoint) and not os.path.isdir(args.checkpoint):
        raise InvalidInput(f"--checkpoint {args.checkpoint!r} is a file, not a directory")
    return {"checkpoint": args.checkpoint, "resume": args.resume, "checkpoint_every": args.checkpoint_every}


def _mirror_kwargs(args) -> dict:
    """``symmetry=False`` of the compiled frontier counters with ``--no-mirror``."""
    return {"symmetry": False} if args.no_mirror else {}


def _count_sequence(args) -> int:
    from kt_formal.board import Board
    from kt_formal.counting.frontier import MAX_SHORT_SIDE
    from kt_formal.progress import progress_for

    k_text, span = args.sequence
    k = _size(k_text, "K (rows)")
    if k > MAX_SHORT_SIDE:
        raise InvalidInput(f"--sequence counts boards with K at most {MAX_SHORT_SIDE}, not {k}")
    lo, sep, hi = span.partition("..")
    if not sep:
        raise InvalidInput(f"--sequence takes a range A..B, not {span!r}")
    a, b = _size(lo, "A"), _size(hi, "B")
    if a > b:
        raise InvalidInput(f"the range {span} is empty")
    if b - a > 1000:
        raise InvalidInput("--sequence counts at most 1001 boards at a time")
    count_request, count_row = _frontier_counters()

    def line(key, count):
        if getattr(args, "json", False):
            return _json_count_line(args, k, key, count)
        if args.partial:
            n, j = key
            print(f"{k}x{n} {j}/{k} {count}", flush=True)
        else:
            print(f"{k}x{key} {count}", flush=True)

    if args.dask:
        raise InvalidInput("--dask counts one board at a time, not a --sequence")
    if count_row is None:  # the pure-Python counter: one board at a time
        if args.checkpoint or args.resume or args.no_mirror:
            raise InvalidInput("--checkpoint, --resume and --no-mirror need the compiled counter (numba)")
        for n in range(a, b + 1):
            for j in range(1, k + 1) if args.partial else (k,):
                board = Board(k, n, holes=[(r, n - 1) for r in range(j, k)] or None)
                res = count_request(board, not args.open, time_limit=args.time_limit)
                line((n, j) if args.partial else n, res.count)
        return 0
    # compiled: every width in one sweep over the longest board, each line as it is known
    spill = _spill_kwargs(args)
    if b >= k:  # the sweep over k x b holds at least the states of the k x k board (the figures
        # that can pass memory, eight across, were measured or estimated on 8 x 8)
        _room_for_the_count(args, k, args.open, not args.open, f"the {k}x{a}..{k}x{b} boards", spill)
    threads = _count_threads(args)
    _prepare_frontier(args, k)
    with progress_for(enabled=not getattr(args, "quiet", False), label="count", lines=args.verbose) as progress:
        count_row(k, a, b, not args.open, progress=progress if progress.active else None,
                  time_limit=args.time_limit, on_count=line, partial=args.partial, threads=threads,
                  **_checkpoint_kwargs(args), **spill, **_mirror_kwargs(args))
    return 0


def _prepare_frontier(args, k: int) -> None:
    """Load (or compile, saying so unless quiet) the frontier kernels of a count ``k`` across
    before the count's clock starts; numba's compiler context without SciPy's linear
    algebra (a quarter of a second)."""
    from kt_formal.counting._frontier_jit import prepare_kernels
    from kt_formal.engines._jit import start_compiler_without_blas

    start_compiler_without_blas()
    prepare_kernels(note=not getattr(args, "quiet", False), k=k, closed=not args.open)


def _run_count(args) -> int:
    from kt_formal.question import TourRequest
    from kt_formal.counting.frontier import MAX_SHORT_SIDE

    if args.sequence:
        if args.rows is not None or args.mask or args.hole or args.remove:
            raise InvalidInput("--sequence takes no board: it counts K x A .. K x B")
        if args.start or args.end:
            raise InvalidInput("--sequence counts tours without fixed ends: --start and --end go with one board")
        return _count_sequence(args)
    if args.partial:
        raise InvalidInput("--partial goes with --sequence K A..B")
    board = board_from_args(args)
    request = TourRequest(board, closed=not args.open, start=args.start, end=args.end)
    method = args.method
    short = min(board.rows, board.cols)
    if method == "auto":
        if short > MAX_SHORT_SIDE and board.n_squares > 64:
            from kt_formal.counting.frontier import estimate_figure

            raise InvalidInput(
                f"counting the tours of the {board.rows}x{board.cols} board is out of reach: the "
                f"frontier method would hold about {estimate_figure(short, 0)} states per step "
                f"(it takes a side of at most {MAX_SHORT_SIDE}), and an exhaustive search grows "
                "with the number of tours (try --method search with a --time-limit)")
        # the exhaustive search is quick for the closed tours of the smallest boards (6x6:
        # 0.2 s), never for open ones (6x6: 3,318,960 tours, over a minute; 5x6 1.4 s where
        # the frontier takes 0.2 s); the frontier method takes any board with a side of at
        # most 8 (compiled: 6x8 in under a second, 7x8 in half a minute and 1.5 GB); a node
        # limit or a list of tours asks for the search
        small = (not args.open and board.n_squares <= 36
                 and not (args.checkpoint or args.resume or args.dask or args.no_mirror))
        method = ("frontier" if short <= MAX_SHORT_SIDE and not args.out and not small
                  and args.node_limit is None else "search")
    if method == "search" and (args.checkpoint or args.resume or args.dask or args.no_mirror):
        raise InvalidInput("--checkpoint, --resume, --dask and --no-mirror go with the frontier method (a side of "
                           f"at most {MAX_SHORT_SIDE}, no --out or --node-limit)")
    if method == "frontier":
        if args.out:
            raise InvalidInput("--out lists every tour: use --method search")
        return _count_frontier(args, board, request)
    from kt_formal.counting.exhaustive import count
    from kt_formal.progress import progress_for

    with progress_for(enabled=not getattr(args, "quiet", False), label="count") as progress:
        res = count(request, node_limit=args.node_limit, time_limit=args.time_limit, out=args.out,
                    progress=progress if progress.active else None)
    from kt_formal.counting.frontier import colours_rule_out

    why = (colours_rule_out(board, request.closed, request.start, request.end)
           if res.complete and res.count == 0 else "")
    if getattr(args, "json", False):
        return _json_count(args, request, "search", res.count, res.complete, res.wall_time, reason=why,
                           directed_count=res.directed_count, nodes=res.nodes)
    what = request.describe() if res.count == 1 else request.describe().replace("tour", "tours", 1)
    if not res.complete:
        _note(args, f"unknown: the count stopped at its limit after {res.nodes:,} nodes and "
                    f"{res.wall_time:.2f} s; at least {res.count} {what} (raise --time-limit "
                    f"{args.time_limit:g} or --node-limit to go further)")
        return 3
    extra = f" ({res.directed_count} directed)" if res.directed_count is not None else ""
    print(_styled(args, board, f"{res.count} {what}{extra}; " + (f"{why}; " if why else "")
                  + f"{res.nodes:,} nodes in {res.wall_time:.2f} s"))
    return 0
