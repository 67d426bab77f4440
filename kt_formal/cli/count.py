"""``kt-formal count``: count every tour of a board (frontier method or exhaustive search).

Count closed (or open) tours; each undirected tour once. Boards with a side of at most 8
are counted by the frontier (transfer-matrix) method, which sweeps the board column by
column; others by exhaustive search.
"""

from __future__ import annotations

import argparse
import sys

from kt_formal import api
from kt_formal.api import InvalidInput
from kt_formal.cli.common import add_board_arguments, board_from_args, bounded, command, MAX_SECONDS, notify, board_side, seconds, time_limit_of
from kt_formal.cli.scripting import json_count_line, print_json_array, style_line, add_script_arguments


COUNT_EXAMPLES = ("examples:\n  kt-formal count 6 6            9862 closed tours\n"
                  "  kt-formal count 5 5 --open     864 open tours (1728 directed)\n"
                  "  kt-formal count 6 8            55488142 closed tours (frontier method)\n"
                  "  kt-formal count --sequence 3 10..16   a row of counts, one a line")


def add_count(sub) -> None:
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
                   help="frontier: go on from the last checkpoint in the --checkpoint DIR (afresh if none); "
                        "without it a DIR that holds a checkpoint is refused")
    p.add_argument("--discard-checkpoint", action="store_true",
                   help="frontier: remove the checkpoint the --checkpoint DIR holds (of this count or another) "
                        "and count afresh")
    p.add_argument("--checkpoint-every", type=bounded(float, 0.0, MAX_SECONDS, "--checkpoint-every"),
                   metavar="S", help="seconds between checkpoints (default 60)")
    p.add_argument("--dask", metavar="ADDRESS",
                   help="frontier: step the states on a Dask cluster, parted by a hash of their keys: a "
                        "scheduler's address (tcp://HOST:8786) or 'local' for a cluster of --workers "
                        "processes here")
    p.add_argument("--workers", type=bounded(int, 1, 4096, "--workers"), default=2, metavar="P",
                   help="with --dask: the parts of each step (default 2; with 'local', as many processes)")
    p.add_argument("--table-memory", type=bounded(float, 0.001, 2**20, "--table-memory"), metavar="GIB",
                   help="frontier: the most memory the hash table of one step takes, in GiB (default: "
                        "six tenths of the machine's); a larger step runs in passes, its states in --spill-dir")
    p.add_argument("--check", action="store_true",
                   help="count a second, independent way and state both (the exhaustive search on a small "
                        "board, else the frontier method swept across the other side where it fits); "
                        "exit 4 if they differ")
    p.add_argument("--out", metavar="FILE", help="search: also write every tour to FILE, one JSON list per line")
    p.add_argument("--time-limit", type=seconds, metavar="S",
                   help=f"stop after S seconds and report unknown (default {api.DEFAULT_TIME_LIMIT:g})")
    p.add_argument("--node-limit", type=bounded(int, 1, 10**15, "--node-limit"), metavar="N",
                   help="search: stop after N nodes and report unknown")
    add_script_arguments(p, "count")
    p.add_argument("--threads", type=_threads_option, metavar="T",
                   help="frontier: threads of a large step, 1 to 1024, at most the cores this process may "
                        "use (default: $KT_FORMAL_THREADS, else the cores no other process keeps busy; "
                        "small steps take one)")
    p.set_defaults(run=_run_count)


def _threads_option(text: str) -> int:
    """argparse type of ``--threads``: a whole number from 1 to 1024."""
    try:
        return api.parse_threads(text, "--threads")
    except InvalidInput as exc:
        raise argparse.ArgumentTypeError(str(exc).removeprefix("--threads ")) from None


_threads_option.__name__ = "--threads"


def _options(args) -> dict:
    """The options of :func:`kt_formal.api.count` from the command line's."""
    return dict(time_limit=time_limit_of(args), node_limit=args.node_limit, out=args.out, checkpoint=args.checkpoint,
                resume=args.resume, discard_checkpoint=args.discard_checkpoint,
                checkpoint_every=args.checkpoint_every, dask=args.dask, parts=args.workers, spill_dir=args.spill_dir,
                table_bytes=None if args.table_memory is None else int(args.table_memory * 2**30),
                threads=args.threads, symmetry=not args.no_mirror, quiet=bool(getattr(args, "quiet", False)))


def _frontier_notes(args, board, res) -> str:
    """The resume note (stderr) and the text after the count of a frontier count."""
    n = max(board.rows, board.cols)
    if res.resumed or res.resumed_squares:
        part = f" and {res.resumed_squares} square{'s' if res.resumed_squares > 1 else ''} of the next" \
            if res.resumed_squares else ""
        notify(args, f"resumed from the checkpoint in {args.checkpoint}: {res.resumed} of {n} columns{part} were "
                    "counted already" + (" (the count was finished)" if res.resumed == n else ""))
    gone = f"no partial tour went on past column {res.emptied} of {n}" if res.emptied and not res.count else ""
    how = (f"{res.reason}; nothing to count" if res.reason
           else f"frontier method, at most {res.max_states:,} state{'s' if res.max_states != 1 else ''}")
    return how + (f"; {gone}" if gone else "")


def _verbose(res, columns_shown: bool) -> None:
    if not columns_shown:
        for c, n in enumerate(res.states_per_column, 1):
            print(f"  column {c}: {n:,} states", file=sys.stderr)
    if res.spilled:
        passes = f"the largest step ran in {res.passes} passes; " if res.passes > 1 else ""
        print(f"  {passes}up to {res.spilled:,} states in files", file=sys.stderr)


def _check_line(first, second) -> tuple[str, int]:
    """The line stating the second count, and the exit code the two give."""
    if not second.complete:
        return (f"not checked: the second count ({second.way}) is unknown: {second.reason}", 3)
    agree = second.count == first.count
    return (f"checked: {second.count} by the {second.way}, {second.seconds:.2f} s: "
            + ("the two counts agree" if agree else "THE TWO COUNTS DIFFER"), 0 if agree else 4)


def _count_one(args, board, request) -> int:
    """Count one board by the policy's method (and a second way with ``--check``); print it."""
    opts = _options(args)
    method = api.count_method(request, method=args.method, **opts)
    check = api.second_count(request, method) if args.check else None
    with api.progress_for(enabled=not getattr(args, "quiet", False), label="count",
                          lines=args.verbose and method == "frontier") as progress:
        res = api.count(request, method=method,
                        progress=progress if progress.active else None, note=lambda t: notify(args, api.in_command_words(t)), **opts)
        columns_shown = progress.active and progress.lines  # a line a column went to a file already
        second = None
        if check and res.complete:
            second = check[1](lambda t: notify(args, t), progress if progress.active else None,
                              **{k: v for k, v in opts.items()
                                 if k in ("time_limit", "threads", "spill_dir", "table_bytes", "quiet", "words")})
    line, code = _check_line(res, second) if second is not None else ("", 0)
    if getattr(args, "json", False):
        return _json_count(args, request, res, second, code)
    what = res.what()
    if not res.complete:
        bound = f"; at least {res.lower_bound} {what}" if res.lower_bound is not None else ""
        notify(args, f"unknown: {res.reason}{bound} (raise --time-limit {opts['time_limit']:g}"
                    + (" or --node-limit" if method == "search" else "") + " to go further)")
        return 3
    extra = f" ({res.directed_count} directed)" if res.directed_count is not None else ""
    if method == "frontier":
        how = _frontier_notes(args, board, res.details)
        text = f"{res.count} {what}{extra}; {how}, {res.seconds:.2f} s"
    else:
        text = f"{res.count} {what}{extra}; " + (f"{res.reason}; " if res.reason else "") + \
            f"{res.nodes:,} nodes in {res.seconds:.2f} s"
    print(style_line(args, board, text))
    if line:
        print(line)
        if code == 4:
            print(f"kt-formal: the two counts differ: {res.count} by the {res.way}, {second.count} by the "
                  f"{second.way} (a bug: please report it)", file=sys.stderr)
        elif code == 3:
            notify(args, line)
    if args.verbose and method == "frontier":
        _verbose(res.details, columns_shown)
    return code


def _json_count(args, request, res, second, code) -> int:
    """``count --json``: one object, with the second count under ``check``."""
    from kt_formal.io import jsonout

    d = res.to_json(out=args.out)
    d["message"] = style_line(args, request.board, d["message"])
    if second is not None:
        d["check"] = {"method": second.method, "way": second.way, "count": second.count,
                      "complete": second.complete, "seconds": round(float(second.seconds), 6),
                      "agree": second.count == res.count if second.complete else None}
        if code:
            d["exit_code"], d["answer"] = code, "unknown" if code == 3 else "error"
            d["message"] += "; " + _check_line(res, second)[0]
    jsonout.emit(d)
    return code if res.complete else 3


def _count_sequence(args) -> int:
    k_text, span = args.sequence
    k = board_side(k_text, "K (rows)")
    if k > api.MAX_SHORT_SIDE:
        raise InvalidInput(f"--sequence counts boards with K at most {api.MAX_SHORT_SIDE}, not {k}")
    lo, sep, hi = span.partition("..")
    if not sep:
        raise InvalidInput(f"--sequence takes a range A..B, not {span!r}")
    a, b = board_side(lo, "A"), board_side(hi, "B")
    if a > b:
        raise InvalidInput(f"the range {span} is empty")
    if b - a > 1000:
        raise InvalidInput("--sequence counts at most 1001 boards at a time")
    if args.check:
        raise InvalidInput("--check counts one board twice, not a --sequence")
    rows = [] if getattr(args, "json", False) and not args.json_lines else None

    def line(key, count):
        if getattr(args, "json", False):
            return json_count_line(args, k, key, count, rows)
        if args.partial:
            n, j = key
            print(f"{k}x{n} {j}/{k} {count}", flush=True)
        else:
            print(f"{k}x{key} {count}", flush=True)

    opts = {key: v for key, v in _options(args).items() if key not in ("node_limit", "out")}
    with api.progress_for(enabled=not getattr(args, "quiet", False), label="count", lines=args.verbose) as progress:
        api.count_sequence(k, a, b, not args.open, line, lambda t: notify(args, t), partial=args.partial,
                progress=progress if progress.active else None, **opts)
    return _json_array(rows)


def _json_array(rows) -> int:
    """``count --sequence --json``: the objects gathered, as one JSON array (one a line)."""
    if rows is not None:
        print_json_array(rows)
    return 0


def _run_count(args) -> int:
    args.json = args.json or args.json_lines  # one count is one line either way
    if args.sequence:
        if args.rows is not None or args.mask or args.hole or args.remove:
            raise InvalidInput("--sequence takes no board: it counts K x A .. K x B")
        if args.start or args.end:
            raise InvalidInput("--sequence counts tours without fixed ends: --start and --end go with one board")
        return _count_sequence(args)
    if args.partial:
        raise InvalidInput("--partial goes with --sequence K A..B")
    board = board_from_args(args)
    request = api.Question(board, closed=not args.open, start=args.start, end=args.end)
    return _count_one(args, board, request)
