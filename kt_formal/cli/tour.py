"""``kt-formal tour``: find a tour of a board and print it.

Find a knight's tour, verify it independently, and print it.
"""

from __future__ import annotations

from kt_formal import api
from kt_formal.cli.parsing import RenamedChoice
from kt_formal.api import InvalidInput
from kt_formal.cli.common import add_board_arguments, add_picture_arguments, add_question_arguments, add_search_arguments, board_from_args, bounded, check_pictures, command, EngineNames, notify, write_pictures, write_tour, time_limit_of
from kt_formal.cli.scripting import check_json_tour, json_verdict, next_step, style_line, add_script_arguments


TOUR_EXAMPLES = """\
examples:
  kt-formal tour 8 8                         closed tour of the chessboard, numbered grid
  kt-formal tour 8 8 --open --start a1 --end h1
  kt-formal tour 10 10 --hole 3,3,4x4        a 10x10 board minus its centre 4x4
  kt-formal tour 6 6 --format json --out t.json && kt-formal verify t.json
  kt-formal tour 8 8 --svg tour.svg --png tour.png --numbers    pictures too
  kt-formal tour 12 12 --format npy --out t.npy && kt-formal verify t.npy --closed
  kt-formal tour 10000 10000 --out t.npy     divide and conquer; numbered grid as .npy
  kt-formal tour 1000 1001 --format succ --out s.npy   successor array (next square index, -1 = none)
  kt-formal tour 2000 2000 --hole 300,1200,500x300 --out big.ktour   compact binary, any size
"""




def add_tour(sub) -> None:
    p = command(sub, __doc__, TOUR_EXAMPLES)
    add_board_arguments(p)
    add_question_arguments(p)
    p.add_argument("--engine", default="auto", choices=EngineNames(), metavar="ENGINE",
                   help="auto (default): the whole pipeline (cheap proofs, constructions, a "
                        "portfolio of searches, as 'exists'); or one of %(choices)s: the cheap "
                        "proofs, then only that engine")
    p.add_argument("--format", default=None, choices=["grid", "coords", "chess", "json", "npy", "succ", "ktour"],
                   action=RenamedChoice, old={"bin": "ktour"},
                   help="output format (default: by the suffix of --out: .json, .npy, .ktour, else "
                        "grid: numbered squares, 1 at the start; coords, chess: the squares in "
                        "order after a header line; json: the certificate, up to 1e6 squares; "
                        "npy: the numbered grid as a .npy array; succ: .npy array of the board's "
                        "shape holding the next square's index row*cols+col, -1 on holes and "
                        "after an open tour's last square; ktour: compact binary order file "
                        "(.ktour, 4 bytes a square, any size; 'bin' is its old name). verify and render read them all")
    p.add_argument("--out", metavar="FILE", help="write the tour to FILE instead of standard output")
    add_picture_arguments(p)
    add_search_arguments(p)
    p.add_argument("--node-limit", type=bounded(int, 1, 10**15, "--node-limit"), metavar="N",
                   help="search engines: give up after N nodes and report unknown")
    p.add_argument("--order", metavar="ORDER",
                   help="move order for dfs/warnsdorff: knight (anticlockwise from 11 o'clock, the default), "
                        "down-first, clockwise-from-7, clockwise (from 1 o'clock) or 'dr,dc;...'")
    p.add_argument("--tiebreak", metavar="RULE",
                   help="warnsdorff tie-break: first, last, centre, pohl or random (default first)")
    p.add_argument("--retries", type=bounded(int, 0, 10**6, "--retries"), metavar="R",
                   help="warnsdorff, extend-rotate: up to R more walks with random tie-breaks after a failure")
    add_script_arguments(p, "tour")
    p.set_defaults(run=_run_tour)








def _check_tour_output(args, board) -> str:
    """The output format, refusing what cannot be written for this board size (before any work)."""
    fmt = args.format or api.format_for_path(args.out)
    if fmt == "ktour":  # the writers' name for it
        fmt = "bin"
    if fmt in ("npy", "succ", "bin") and not args.out:
        suffix = ".ktour" if fmt == "bin" else ".npy"
        raise InvalidInput(f"--format {args.format} writes a binary file: give --out FILE{suffix}")
    if fmt == "json" and board.n_squares > api.JSON_MAX_SQUARES:
        raise InvalidInput(api.json_limit_message(board.n_squares, "board"))
    if fmt in ("coords", "chess") and board.n_squares > api.TEXT_SLOW_SQUARES:
        raise InvalidInput(f"--format {fmt} is limited to {api.TEXT_SLOW_SQUARES:,} squares; "
                           "use grid, npy, succ or bin")
    return fmt




#: old --order spellings (kept in step with kt_formal.engines.pathsearch.ORDER_ALIASES, which
#: the CLI does not import before a search: numba is slow to load)
_ORDER_ALIASES = {"seed000": "knight", "seed001": "down-first", "seed002": "clockwise-from-7",
                  "seed004": "clockwise"}


def _run_tour(args) -> int:
    board = board_from_args(args)
    fmt = _check_tour_output(args, board)
    check_json_tour(args, board)
    check_pictures(args, board)
    options = {}
    for name in ("node_limit", "order", "tiebreak", "retries"):
        if getattr(args, name, None) is not None:
            options[name] = getattr(args, name)
    if options.get("order") in _ORDER_ALIASES:
        new = _ORDER_ALIASES[options["order"]]
        notify(args, f"--order {options['order']} is now called --order {new}")
        options["order"] = new
    engine_label = args.engine if args.engine != "auto" else "search"
    with api.progress_for(enabled=not getattr(args, "quiet", False), label=engine_label) as progress:
        verdict = api.tour(board, closed=not args.open, start=args.start, end=args.end,
                           time_limit=time_limit_of(args), engine=args.engine, seed=args.seed,
                           threads=args.workers, progress=progress if progress.active else None, **options)
    if getattr(args, "json", False):
        return json_verdict(args, "tour", board, verdict, fmt)
    if verdict.answer == "yes":
        tour = verdict.tour
        write_tour(tour, fmt, args.out, verdict.engine)
        pictures = write_pictures(args, tour)
        notify(args, style_line(args, board, f"{verdict.message} by {verdict.engine} in {verdict.wall_time:.2f} s; verified")
              + (f"; written to {args.out}" if args.out else "")
              + (f"; drawn to {', '.join(pictures)}" if pictures else ""))
        return 0
    hint = _open_hint(args, board, verdict)
    text = verdict.explanation.rstrip(".") if hint else verdict.explanation
    if text[:3] in ("No ", "No\n"):
        text = "n" + text[1:]  # "impossible: no closed tour: ..."
    if text.startswith("Unknown: "):
        text = text[len("Unknown: "):]  # "unknown: the search for ...", said once
    notify(args, next_step(style_line(args, board, f"{'impossible' if verdict.answer == 'no' else 'unknown'}: "
                                                f"{text}{hint}"), verdict.limit_reached))
    return verdict.exit_code


def _open_hint(args, board, result) -> str:
    """For a closed tour proven impossible: point to ``--open`` when an open tour may exist."""
    if args.open or result.exit_code != 1:
        return ""
    if board.has_holes or args.start or args.end:
        return "; for an open tour (a path) add --open"
    if api.open_tour_exists(board.rows, board.cols):
        return f"; an open tour exists: kt-formal tour {board.rows} {board.cols} --open"
    return ""
