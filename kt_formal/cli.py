"""The ``kt-formal`` command.

Exit codes: 0 found or verified, 1 proven impossible or certificate rejected,
2 bad input, 3 unknown (a limit ran out). Errors are one line on stderr.

>>> main(["tour", "0", "8"])  # prints "kt-formal: board sizes must be at least 1, got 0x8"
2
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time

from kt_formal.commandline import Renamed, RenamedChoice, print_renamed_notes
from kt_formal.exceptions import InvalidInput, KtFormalError, ResourceLimit

__all__ = ["main", "build_parser"]

PROG = "kt-formal"


class _Parser(argparse.ArgumentParser):
    """argparse with one-line errors (exit 2) instead of a usage dump."""

    def error(self, message):  # noqa: D401 - argparse API
        raise InvalidInput(f"{message} (see '{self.prog} --help')")


def _version() -> str:
    from kt_formal import __version__

    return __version__


# ---------------------------------------------------------------------- shared options
def add_board_arguments(p: argparse.ArgumentParser) -> None:
    """``M N [--hole R,C,HxW ...] [--square-hole SQ ...] [--mask FILE]``."""
    p.add_argument("rows", nargs="?", help="number of rows M (omit with --mask)")
    p.add_argument("cols", nargs="?", help="number of columns N (omit with --mask)")
    p.add_argument("--hole", action="append", default=[], metavar="R,C,HxW",
                   help="remove an H x W rectangle with top-left corner (R, C), 0-based; repeatable")
    p.add_argument("--remove", action="append", default=[], metavar="SQ",
                   help="remove one square, as R,C (0-based) or a chess name like d4; repeatable")
    p.add_argument("--mask", metavar="FILE",
                   help="read the board from an ASCII mask file: '.' square, '#' hole")


def _size(text, what: str) -> int:
    text = str(text).strip()
    if not (text.isascii() and text.isdigit()) or len(text) > 12:
        shown = text[:20] + ("..." if len(text) > 20 else "")
        raise InvalidInput(f"{what} must be a whole number from 1 to 10^12, not {shown!r}")
    return int(text)


def board_from_args(args):
    """Build the Board described by :func:`add_board_arguments` options."""
    from kt_formal.board import Board

    if args.mask:
        if args.rows is not None:
            raise InvalidInput("give either M N or --mask, not both")
        board = Board.from_mask_file(args.mask)
        if args.hole or args.remove:
            board = Board.from_spec(board.rows, board.cols, args.hole,
                                    [*board.holes(), *(board.parse_square(s) for s in args.remove)])
        return board
    if args.rows is None or args.cols is None:
        raise InvalidInput("give the board size M N (or --mask FILE)")
    rows = _size(args.rows, "M (rows)")
    cols = _size(args.cols, "N (columns)")
    probe = Board(rows, cols)
    return Board.from_spec(rows, cols, args.hole, [probe.parse_square(s) for s in args.remove])


def _bounded(kind, low, high, what: str):
    """An argparse type: a number of ``kind`` from ``low`` to ``high`` (finite), named ``what``."""

    def parse(text: str):
        text = text.strip()
        if len(text) > 40 or not text.isascii():
            raise argparse.ArgumentTypeError(f"a number from {low} to {high} is wanted, "
                                             f"not {text[:20]!r}{'...' if len(text) > 20 else ''}")
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"a {'whole ' if kind is int else ''}number from "
                                             f"{low} to {high} is wanted, not {text!r}") from None
        if not (low <= value <= high):  # NaN fails this too
            raise argparse.ArgumentTypeError(f"a number from {low} to {high} is wanted, not {text}")
        return value

    parse.__name__ = what  # argparse names the type in its messages
    return parse


#: Limits of the run settings on the command line.
MAX_SECONDS = 10**7
MAX_WORKERS = 64
MAX_SEED = 2**31 - 1


def add_search_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--time-limit", type=_bounded(float, 0.001, MAX_SECONDS, "--time-limit"),
                   default=60.0, metavar="S",
                   help="give up after S seconds and report unknown (default 60)")
    p.add_argument("--seed", type=_bounded(int, 0, MAX_SEED, "--seed"), default=0, metavar="K",
                   help="random seed (default 0); runs repeat")
    p.add_argument("--threads", type=_bounded(int, 1, MAX_WORKERS, "--threads"), default=2, dest="workers",
                   metavar="T", help=f"solver threads, 1 to {MAX_WORKERS} (default 2)")
    p.add_argument("--workers", type=_bounded(int, 1, MAX_WORKERS, "--threads"), dest="workers",
                   metavar="T", action=Renamed, new="--threads", help=argparse.SUPPRESS)


def _write_output(text: str, out: str | None) -> None:
    if out:
        try:
            with open(out, "w", encoding="utf-8") as fh:
                fh.write(text)
        except OSError as exc:
            raise InvalidInput(f"cannot write {out}: {exc.strerror}") from None
    else:
        sys.stdout.write(text)


def _note(args, text: str) -> None:
    if not getattr(args, "quiet", False):
        print(text, file=sys.stderr)


# ---------------------------------------------------------------------- tour
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


class _EngineNames:
    """``auto`` and the engine registry's names, looked up only when needed.

    The registry's package imports numpy; ``kt-formal --help`` and ``verify`` do not
    need it, so the parser is built without it (start-up stays fast).
    """

    def _names(self):
        from kt_formal.solve import ENGINES

        return ["auto", *ENGINES]

    def __contains__(self, name):
        return name in self._names()

    def __iter__(self):
        return iter(self._names())


def _add_tour(sub) -> None:
    p = sub.add_parser("tour", help="find a tour of a board and print it",
                       description="Find a knight's tour, verify it independently, and print it.",
                       epilog=TOUR_EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_board_arguments(p)
    p.add_argument("--open", action="store_true", help="an open tour (a path) instead of a closed one")
    p.add_argument("--start", metavar="SQ", help="first square (R,C 0-based, or a chess name like a1)")
    p.add_argument("--end", metavar="SQ", help="last square")
    p.add_argument("--engine", default="auto", choices=_EngineNames(), metavar="ENGINE",
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
    p.add_argument("--node-limit", type=_bounded(int, 1, 10**15, "--node-limit"), metavar="N",
                   help="search engines: give up after N nodes and report unknown")
    p.add_argument("--order", metavar="ORDER",
                   help="move order for dfs/warnsdorff: knight (anticlockwise from 11 o'clock, the default), "
                        "down-first, clockwise-from-7, clockwise (from 1 o'clock) or 'dr,dc;...'")
    p.add_argument("--tiebreak", metavar="RULE",
                   help="warnsdorff tie-break: first, last, centre, pohl or random (default first)")
    p.add_argument("--retries", type=_bounded(int, 0, 10**6, "--retries"), metavar="R",
                   help="warnsdorff, extend-rotate: up to R more walks with random tie-breaks after a failure")
    add_script_arguments(p, "tour")
    p.set_defaults(run=_run_tour)


def add_picture_arguments(p: argparse.ArgumentParser) -> None:
    """``--svg FILE --png FILE --numbers`` (pictures, see :mod:`kt_formal.io.render`)."""
    p.add_argument("--svg", metavar="FILE", help="also draw the tour as an SVG picture")
    p.add_argument("--png", metavar="FILE", help="also draw the tour as a PNG picture")
    p.add_argument("--numbers", action="store_true", help="write step numbers on the squares of pictures")
    p.add_argument("--cell", type=_bounded(int, 1, 400, "--cell"), metavar="PX", help="pixels per square in PNG pictures (default: automatic)")


def _check_pictures(args, board) -> None:
    """Refuse picture sizes above the caps before any search starts."""
    for fmt in ("svg", "png"):
        if getattr(args, fmt, None):
            from kt_formal.io.render import check_picture_size  # only when a picture is asked for

            check_picture_size(board, fmt)


def _write_pictures(args, tour) -> list[str]:
    """Write the ``--svg`` / ``--png`` pictures of a tour; return the paths written."""
    written = []
    for fmt in ("svg", "png"):
        path = getattr(args, fmt, None)
        if path:
            from kt_formal.io import render  # only when a picture is asked for
            from kt_formal.progress import progress_for

            with progress_for(enabled=not getattr(args, "quiet", False), label="render") as p:
                p(0, None, f"drawing {path}")
                data = (render.tour_svg(tour, numbers=args.numbers).encode() if fmt == "svg"
                        else render.tour_png(tour, numbers=args.numbers, cell=args.cell))
            try:
                with open(path, "wb") as fh:
                    fh.write(data)
            except OSError as exc:
                raise InvalidInput(f"cannot write {path}: {exc.strerror}") from None
            written.append(path)
    return written


def _check_tour_output(args, board) -> str:
    """The output format, refusing what cannot be written for this board size (before any work)."""
    from kt_formal.io.formats import JSON_MAX_SQUARES, format_for_path, json_limit_message
    from kt_formal.io.gridio import TEXT_SLOW_SQUARES

    fmt = args.format or format_for_path(args.out)
    if fmt == "ktour":  # the writers' name for it
        fmt = "bin"
    if fmt in ("npy", "succ", "bin") and not args.out:
        suffix = ".ktour" if fmt == "bin" else ".npy"
        raise InvalidInput(f"--format {args.format} writes a binary file: give --out FILE{suffix}")
    if fmt == "json" and board.n_squares > JSON_MAX_SQUARES:
        raise InvalidInput(json_limit_message(board.n_squares, "board"))
    if fmt in ("coords", "chess") and board.n_squares > TEXT_SLOW_SQUARES:
        raise InvalidInput(f"--format {fmt} is limited to {TEXT_SLOW_SQUARES:,} squares; "
                           "use grid, npy, succ or bin")
    return fmt


def _write_tour(tour, fmt: str, out, engine: str) -> None:
    from kt_formal.io.formats import save_tour, tour_text

    if out:
        save_tour(tour, out, fmt, engine=engine)
        return
    if fmt == "grid" and tour.board.size > 100_000:
        from kt_formal.io.gridio import write_grid

        sys.stdout.flush()
        write_grid(tour, sys.stdout.buffer)
        return
    _write_output(tour.to_json(engine=engine) if fmt == "json" else tour_text(tour, fmt), None)


#: old --order spellings (kept in step with kt_formal.engines._search.ORDER_ALIASES, which
#: the CLI does not import before a search: numba is slow to load)
_ORDER_ALIASES = {"seed000": "knight", "seed001": "down-first", "seed002": "clockwise-from-7",
                  "seed004": "clockwise"}


def _run_tour(args) -> int:
    from kt_formal.decide import decide
    from kt_formal.progress import progress_for

    board = board_from_args(args)
    fmt = _check_tour_output(args, board)
    _check_json_tour(args, board)
    _check_pictures(args, board)
    options = {}
    for name in ("node_limit", "order", "tiebreak", "retries"):
        if getattr(args, name, None) is not None:
            options[name] = getattr(args, name)
    if options.get("order") in _ORDER_ALIASES:
        new = _ORDER_ALIASES[options["order"]]
        _note(args, f"--order {options['order']} is now called --order {new}")
        options["order"] = new
    engine_label = args.engine if args.engine != "auto" else "search"
    with progress_for(enabled=not getattr(args, "quiet", False), label=engine_label) as progress:
        verdict = decide(board, closed=not args.open, start=args.start, end=args.end,
                         time_limit=args.time_limit, engine=args.engine, seed=args.seed,
                         workers=args.workers, progress=progress if progress.active else None, **options)
    if getattr(args, "json", False):
        return _json_verdict(args, "tour", board, verdict, fmt)
    if verdict.answer == "yes":
        tour = verdict.tour
        _write_tour(tour, fmt, args.out, verdict.engine)
        pictures = _write_pictures(args, tour)
        _note(args, _styled(args, board, f"{verdict.message} by {verdict.engine} in {verdict.wall_time:.2f} s; verified")
              + (f"; written to {args.out}" if args.out else "")
              + (f"; drawn to {', '.join(pictures)}" if pictures else ""))
        return 0
    hint = _open_hint(args, board, verdict)
    text = verdict.explanation.rstrip(".") if hint else verdict.explanation
    if text[:3] in ("No ", "No\n"):
        text = "n" + text[1:]  # "impossible: no closed tour: ..."
    if text.startswith("Unknown: "):
        text = text[len("Unknown: "):]  # "unknown: the search for ...", said once
    _note(args, _next_step(_styled(args, board, f"{'impossible' if verdict.answer == 'no' else 'unknown'}: "
                                                f"{text}{hint}")))
    return verdict.exit_code


def _open_hint(args, board, result) -> str:
    """For a closed tour proven impossible: point to ``--open`` when an open tour may exist."""
    if args.open or result.exit_code != 1:
        return ""
    if board.has_holes or args.start or args.end:
        return "; for an open tour (a path) add --open"
    from kt_formal.theorems import rectangle_tour

    if rectangle_tour(board.rows, board.cols, False)[0]:
        return f"; an open tour exists: kt-formal tour {board.rows} {board.cols} --open"
    return ""


# ---------------------------------------------------------------------- verify
VERIFY_EXAMPLES = """\
examples:
  kt-formal tour 8 8 --format json --out t.json && kt-formal verify t.json
  kt-formal tour 8 8 --out t.txt && kt-formal verify t.txt --closed
  kt-formal tour 8 8 --format npy --out t.npy && kt-formal verify t.npy
  kt-formal tour 10000 10000 --out t.ktour && kt-formal verify t.ktour
  kt-formal verify --db census.sqlite        every certificate stored by 'kt-formal census'
                                             (--replay re-runs exhaustive records there too)

Every format 'kt-formal tour' writes is read: JSON certificate, numbered grid (text:
rows of step numbers, holes as '#', '.', '-' or 0; or a .npy integer array, 0 on
holes), coords or chess list, successor array (.npy), binary order file (.ktour).
A JSON certificate, a list, a successor array and a binary file say whether the tour
is closed; a numbered grid is checked as an open tour unless --closed is given.
"""


def _add_verify(sub) -> None:
    p = sub.add_parser("verify", help="check a certificate or a tour file independently",
                       description="Re-check a certificate (JSON) or a tour file (any format "
                                   "'kt-formal tour' writes) from the board and the knight rule alone.",
                       epilog=VERIFY_EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("files", nargs="*", metavar="FILE",
                   help="tour file to check (any format 'kt-formal tour' writes) or a proof "
                        "certificate (.json); several files give one line each and a total")
    p.add_argument("--closed", action="store_true",
                   help="check a grid as a closed tour (the last square a knight move from the first)")
    p.add_argument("--replay", action="store_true",
                   help="re-run the search an 'exhaustive' record names (the kernel runs no search, "
                        "so without --replay such a record is NOT CHECKED)")
    p.add_argument("--db", metavar="FILE", help="re-check every certificate stored in a census database")
    add_script_arguments(p, "verify")
    p.set_defaults(run=_run_verify)


def _is_json_file(path: str) -> bool:
    """True for a JSON certificate, and for anything that is not a regular file (a pipe,
    a FIFO, a device): those are read only by the kernel's bounded reader."""
    import stat

    if path == "-":
        return True
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)  # a FIFO without writer must not block
    except OSError:
        return True  # the reader reports the error
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return True
        head = os.read(fd, 4096)
    except OSError:
        return True
    finally:
        os.close(fd)
    return head.lstrip().startswith(b"{")


def _verify_one(path: str, closed: bool, replay: bool = False) -> str:
    """The claim of one checked file; raises CertificateRejected or InvalidInput."""
    from kt_formal import kernel
    from kt_formal.exceptions import CertificateNotChecked, CertificateRejected

    if _is_json_file(path):
        d = kernel.read_certificate(path)
        try:
            claim = kernel.check_certificate(d)
        except CertificateNotChecked:
            if not replay:
                raise
            from kt_formal.proofs.replay import replay_exhaustive

            return "REPLAYED: " + replay_exhaustive(d)
        if closed and d.get("kind") == "tour" and d.get("closed") is False:
            raise CertificateRejected("the certificate is of an open tour; --closed was asked")
        return "OK: " + claim
    from kt_formal.io.formats import read_tour_file

    from kt_formal.kernel.proofcheck import describe_question
    from kt_formal.kernel.shape import Shape

    tour, how = read_tour_file(path, closed=True if closed else None)  # checked by the kernel's tour check
    b = tour.board
    cols = b.cols
    first, last = divmod(int(tour.order[0]), cols), divmod(int(tour.order[-1]), cols)
    what = describe_question(Shape(b.rows, cols, b.holes()), tour.closed, first, last)
    closing = ", the closing move included" if tour.closed else ""
    return (f"OK: {what}: every square visited once, every step a knight move{closing} "
            f"({len(tour)} squares; read as a {how})")


def _run_verify(args) -> int:
    """One line per file; exit 0 when every file verifies, 1 if any is rejected or not
    checked, 2 if any is unreadable."""

    if args.db is not None:
        if args.files:
            raise InvalidInput("give either certificate files or --db FILE, not both")
        return _run_verify_db(args)
    if not args.files:
        raise InvalidInput("give a certificate file to check (or --db FILE)")
    return _verify_scripted(args)


# ---------------------------------------------------------------------- render
RENDER_EXAMPLES = """\
examples:
  kt-formal tour 8 8 --format json --out t.json && kt-formal render t.json --out t.svg
  kt-formal render t.json --out t.png --numbers
  kt-formal render grid.txt --closed --out grid.png

The picture format follows the suffix of --out (.svg or .png). SVG is limited to boards
of 200 squares a side, PNG to 4000.
"""


def _add_render(sub) -> None:
    p = sub.add_parser("render", help="draw a tour file as an SVG or PNG picture",
                       description="Draw a tour (any file 'kt-formal tour' writes), "
                                   "checked first by the independent verifier.",
                       epilog=RENDER_EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("file", help="tour to draw: any file 'kt-formal tour' writes (json, grid, coords, "
                                     "chess, npy, succ, ktour)")
    p.add_argument("--out", dest="output", metavar="FILE", help="picture to write (.svg or .png); required")
    p.add_argument("-o", "--output", dest="output", metavar="FILE", action=Renamed, new="--out",
                   help=argparse.SUPPRESS)
    p.add_argument("--numbers", action="store_true", help="write step numbers on the squares")
    p.add_argument("--cell", type=_bounded(int, 1, 400, "--cell"), metavar="PX", help="pixels per square of a PNG (default: automatic)")
    p.add_argument("--closed", action="store_true", help="read a grid as a closed tour")
    p.set_defaults(run=_run_render)


def _run_render(args) -> int:
    from kt_formal.exceptions import CertificateRejected
    from kt_formal.io.formats import read_tour_file
    from kt_formal.io.render import check_picture_path, save_picture

    if not args.output:
        raise InvalidInput("give the picture to write: --out FILE.svg or --out FILE.png")
    check_picture_path(args.output)
    try:
        tour, _ = read_tour_file(args.file, closed=True if args.closed else None)
    except CertificateRejected as exc:
        print(f"REJECTED: {exc}")
        return 1
    from kt_formal.progress import progress_for

    with progress_for(enabled=not getattr(args, "quiet", False), label="render") as p:
        p(0, None, f"drawing {args.output}")
        save_picture(tour, args.output, numbers=args.numbers, cell=args.cell)
    kind = "closed" if tour.closed else "open"
    _note(args, f"drew the {kind} tour of the {tour.board.describe()} board to {args.output}")
    return 0


# ---------------------------------------------------------------------- graph
GRAPH_EXAMPLES = """\
examples:
  kt-formal graph 8 8 --hole 3,3,2x2                 squares, edges, colours, degrees
  kt-formal graph 8 8 --format graphml --out k8.graphml
  kt-formal graph 6 6 --format edgelist --out k6.txt  one edge 'r,c r,c' a line
  kt-formal graph 5 5 --format json --out k5.json     networkx node-link JSON

Nodes are written as 'r,c' (0-based, row 0 at the top) with attributes row, col and
colour; networkx reads the files back (read_graphml, read_edgelist, node_link_graph).
"""


def _add_graph(sub) -> None:
    p = sub.add_parser("graph", help="describe the knight graph of a board, or write it to a file",
                       description="Squares, edges, colour counts and degree histogram of the knight "
                                   "graph; with --format and --out, the graph itself as GraphML, an "
                                   "edge list or node-link JSON.",
                       epilog=GRAPH_EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_board_arguments(p)
    p.add_argument("--format", choices=["graphml", "edgelist", "json"],
                   help="write the graph in this format (networkx's writers) to --out")
    p.add_argument("--out", metavar="FILE", help="file to write the graph to (with --format)")
    p.set_defaults(run=_run_graph)


def _run_graph(args) -> int:
    import numpy as np

    from kt_formal.graph import neighbour_table

    if bool(args.format) != bool(args.out):
        raise InvalidInput("--format and --out go together: kt-formal graph 8 8 --format graphml --out k8.graphml")
    board = board_from_args(args)
    nt = neighbour_table(board)
    edges = int(nt.degree.sum()) // 2
    dark, light = board.dark_light_counts()
    hist = np.bincount(nt.degree, minlength=9)
    print(f"board:   {board.describe()}")
    print(f"squares: {board.n_squares}")
    print(f"edges:   {edges}")
    print(f"colours: {dark} dark, {light} light (a1 is dark)")
    print("degrees: " + ", ".join(f"{d}: {int(n)}" for d, n in enumerate(hist) if n))
    if args.out:
        from kt_formal.io.formats import write_graph
        from kt_formal.graph import knight_graph

        write_graph(knight_graph(board), args.out, args.format)
        _note(args, f"wrote the knight graph ({board.n_squares} nodes, {edges} edges) as {args.format} "
                    f"to {args.out}")
    return 0


# ---------------------------------------------------------------------- models
def _add_models(sub) -> None:
    p = sub.add_parser("models", help="check or rebuild the library of certified pieces",
                       description="The certified base and element tours in models/.",
                       epilog="examples:\n  kt-formal models check\n  kt-formal models build --only structured-6x6",
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("action", choices=["check", "build", "list"],
                   help="check: verify every piece; build: regenerate with CP-SAT; list: show pieces")
    p.add_argument("--only", action="append", default=[], metavar="NAME",
                   help="with build: only these pieces (repeatable)")
    p.add_argument("--dir", metavar="DIR", help="library folder (default: the installed models/)")
    p.set_defaults(run=_run_models)


def _run_models(args) -> int:
    from pathlib import Path

    from kt_formal.combine import library

    directory = Path(args.dir) if args.dir else None
    if args.action == "check":
        report = library.check_library(directory)
        bad = [(n, r) for n, r in report if r is not None]
        for name, reason in report:
            print(f"{'ok' if reason is None else 'BAD'}  {name}" + (f": {reason}" if reason else ""))
        print(f"{len(report) - len(bad)} of {len(report)} pieces verified")
        return 1 if bad else 0
    specs = library.all_specs()
    if args.action == "list":
        for s in specs:
            ends = f" {s.start}->{s.end}" if (s.start or s.end) else ""
            print(f"{s.name:32} {s.rows}x{s.cols} {'closed' if s.closed else 'open'}{ends} "
                  f"[{s.kind}] {len(s.forced)} forced moves")
        return 0
    if args.only:
        names = {s.name for s in specs}
        unknown = [n for n in args.only if n not in names]
        if unknown:
            raise InvalidInput(f"no piece named {unknown[0]!r} (see 'kt-formal models list')")
        specs = [s for s in specs if s.name in args.only]

    from kt_formal.progress import progress_for

    with progress_for(enabled=not getattr(args, "quiet", False), label="models") as progress:
        pieces = library.build_library(specs, directory, progress=progress)
    print(f"built and verified {len(pieces)} piece{'' if len(pieces) == 1 else 's'}")
    return 0


# ---------------------------------------------------------------------- frame
FRAME_EXAMPLES = """\
examples:
  kt-formal frame rotation --element 3x8 --wh 1 --wv 1      14x8 board, 8x2 hole, 96 moves
  kt-formal frame support --a 3x10 --b 4x3 --wh 1 --wv 1    10x10 board, 4x4 hole, 84 moves
  kt-formal frame rotation --element 5x5 --wh 2 --wv 3      m = n: a 25x10 board, no hole
"""


def _add_frame(sub) -> None:
    p = sub.add_parser("frame", help="the rotation and support models around a centred hole (seed 003)",
                       description="Build a closed tour around a centred hole from element A "
                                   "(n x m, from (1,1) to (2,m-1), 1-based) and element B "
                                   "(n1 x m1, from (1,1) to (n1,3)), verify it and print it.",
                       epilog=FRAME_EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("model", choices=["rotation", "support"],
                   help="rotation: A on all four sides; support: A top and bottom, B on the sides")
    p.add_argument("--element", metavar="NxM", help="element A of the rotation model")
    p.add_argument("--a", metavar="NxM", help="element A of the support model")
    p.add_argument("--b", metavar="N1xM1", help="element B of the support model")
    p.add_argument("--wh", type=_bounded(int, 1, 1000, "--wh"), default=1, metavar="K", help="elements along top and bottom (default 1)")
    p.add_argument("--wv", type=_bounded(int, 1, 1000, "--wv"), default=1, metavar="K", help="elements down each side (default 1)")
    p.add_argument("--format", default="grid", choices=["grid", "coords", "chess", "json"],
                   help="output format (default grid: numbered squares, 1 at the top-left, # holes)")
    p.add_argument("--out", metavar="FILE", help="write the tour to FILE instead of standard output")
    add_picture_arguments(p)
    p.set_defaults(run=_run_frame)


def _run_frame(args) -> int:
    from kt_formal.combine.frame import rotation_model, single_hole, support_model

    if args.model == "rotation":
        if not args.element or args.a or args.b:
            raise InvalidInput("the rotation model takes --element NxM (not --a/--b)")
        tour = rotation_model(args.element, args.wh, args.wv)
        what = f"rotation model of element A {args.element}"
    else:
        if not (args.a and args.b) or args.element:
            raise InvalidInput("the support model takes --a NxM and --b N1xM1")
        tour = support_model(args.a, args.b, args.wh, args.wv)
        what = f"support model of A {args.a} and B {args.b}"
    tour.verify()
    b = tour.board
    hole = single_hole(b)
    hole_text = "no hole" if hole is None else f"the hole {hole[2]}x{hole[3]} at ({hole[0]}, {hole[1]})"
    line = (f"{what}, wh={args.wh}, wv={args.wv}: closed tour of the {b.rows}x{b.cols} board with "
            f"{hole_text}, {len(tour)} moves; verified")
    text = tour.format(args.format) if args.format != "json" else tour.to_json(engine="frame")
    _write_output(text, args.out)
    pictures = _write_pictures(args, tour)
    if pictures:
        line += f"; drawn to {', '.join(pictures)}"
    if args.format == "grid" and not args.out:
        print(line)
    else:
        _note(args, line + (f"; written to {args.out}" if args.out else ""))
    return 0


# ---------------------------------------------------------------------- count
def _add_count(sub) -> None:
    p = sub.add_parser("count", help="count every tour of a board (frontier method or exhaustive search)",
                       description="Count closed (or open) tours; each undirected tour once. Boards with "
                                   "a side of at most 8 are counted by the frontier (transfer-matrix) "
                                   "method, which sweeps the board column by column; others by "
                                   "exhaustive search.",
                       epilog="examples:\n  kt-formal count 6 6            9862 closed tours\n"
                              "  kt-formal count 5 5 --open     864 open tours (1728 directed)\n"
                              "  kt-formal count 6 8            55488142 closed tours (frontier method)\n"
                              "  kt-formal count --sequence 3 10..16   a row of counts, one a line",
                       formatter_class=argparse.RawDescriptionHelpFormatter)
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
    p.add_argument("-v", "--verbose", action="store_true", help="print the states per column (frontier)")
    p.add_argument("--spill-dir", metavar="DIR",
                   help="frontier: where a step too large for memory keeps its states (files deleted "
                        "as they are made, so nothing is left behind; default: the temporary directory)")
    p.add_argument("--checkpoint", metavar="DIR",
                   help="frontier: write the states to DIR at a column boundary every minute (see "
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


def _count_frontier(args, board, request) -> int:
    from kt_formal.counting.frontier import EIGHT_BY_EIGHT_MINUTES, MAX_SHORT_SIDE, estimate_states
    from kt_formal.progress import progress_for

    count_request, count_row = _frontier_counters()
    short = min(board.rows, board.cols)
    if short > MAX_SHORT_SIDE:
        raise InvalidInput(f"the frontier method needs a side of at most {MAX_SHORT_SIDE}; the "
                           f"{board.rows}x{board.cols} board would need about "
                           f"{estimate_states(short):.1e} states per step")
    kwargs = {}
    if count_row is not None:  # the compiled counter: memory, then files in the spill directory
        from kt_formal.counting._frontier_jit import DEFAULT_MAX_STATES, SPILL_BYTES_PER_STATE

        kwargs = _spill_kwargs(args)
        spill_dir, max_states = kwargs["spill_dir"], kwargs["max_states"]
        free = shutil.disk_usage(spill_dir).free
        est = estimate_states(short)
        if not board.has_holes and est > max_states:
            raise ResourceLimit(
                f"counting the tours of the {board.rows}x{board.cols} board is out of reach here: one step "
                f"of the frontier method holds at least {est:,} states (measured on {short}x{short}; a longer "
                f"board holds more); memory holds {DEFAULT_MAX_STATES:,} and {spill_dir} has room for "
                f"{free // SPILL_BYTES_PER_STATE:,} ({free / 1e9:.0f} GB free, {SPILL_BYTES_PER_STATE} bytes a "
                "state for a step's input and output)")
        if not board.has_holes and est > DEFAULT_MAX_STATES:
            _note(args, f"the {board.rows}x{board.cols} board holds at least {est:,} states a step, more than "
                        f"memory does: the large steps keep their states in files in {spill_dir} (about "
                        f"{est * SPILL_BYTES_PER_STATE / 1e9:.0f} GB); 8x8 took {EIGHT_BY_EIGHT_MINUTES} minutes "
                        f"on 2 cores; --time-limit (now {args.time_limit:g} s) bounds the run")
        kwargs["threads"] = _count_threads(args)
        kwargs.update(_checkpoint_kwargs(args))
        _prepare_frontier(args)
    elif args.checkpoint or args.resume or args.dask:
        raise InvalidInput("--checkpoint, --resume and --dask need the compiled counter (numba)")
    with progress_for(enabled=not getattr(args, "quiet", False), label="count") as progress:
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
    if res.resumed:
        _note(args, f"resumed from the checkpoint in {args.checkpoint}: {res.resumed} of {max(board.rows, board.cols)} "
                    "columns were counted already" + (" (the count was finished)" if res.resumed ==
                                                       max(board.rows, board.cols) else ""))
    if getattr(args, "json", False):
        return _json_count(args, request, "frontier", res.count, True, res.wall_time, max_states=res.max_states,
                           directed_count=res.directed)
    what = request.describe() if res.count == 1 else request.describe().replace("tour", "tours", 1)
    extra = f" ({res.directed} directed)" if res.directed is not None else ""
    print(_styled(args, board, f"{res.count} {what}{extra}; frontier method, at most {res.max_states:,} states, "
                               f"{res.wall_time:.2f} s"))
    if args.verbose:
        for c, n in enumerate(res.states_per_column, 1):
            print(f"  column {c}: {n:,} states", file=sys.stderr)
        if res.spilled:
            print(f"  the largest step ran in {res.passes} passes; up to {res.spilled:,} states in files",
                  file=sys.stderr)
    return 0


def _spill_kwargs(args) -> dict:
    """``spill_dir``, ``max_states`` and ``table_bytes`` of the compiled frontier counter: the
    states a step may hold are what memory or the spill directory's free space holds."""
    from kt_formal.counting._frontier_jit import DEFAULT_MAX_STATES, SPILL_BYTES_PER_STATE

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
    return {"checkpoint": args.checkpoint, "resume": args.resume, "checkpoint_every": args.checkpoint_every}


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
        if args.checkpoint or args.resume:
            raise InvalidInput("--checkpoint and --resume need the compiled counter (numba)")
        for n in range(a, b + 1):
            for j in range(1, k + 1) if args.partial else (k,):
                board = Board(k, n, holes=[(r, n - 1) for r in range(j, k)] or None)
                res = count_request(board, not args.open, time_limit=args.time_limit)
                line((n, j) if args.partial else n, res.count)
        return 0
    # compiled: every width in one sweep over the longest board, each line as it is known
    threads = _count_threads(args)
    _prepare_frontier(args)
    with progress_for(enabled=not getattr(args, "quiet", False), label="count") as progress:
        count_row(k, a, b, not args.open, progress=progress if progress.active else None,
                  time_limit=args.time_limit, on_count=line, partial=args.partial, threads=threads,
                  **_checkpoint_kwargs(args), **_spill_kwargs(args))
    return 0


def _prepare_frontier(args) -> None:
    """Load (or compile, saying so unless quiet) the frontier kernels before the count's clock
    starts; numba's compiler context without SciPy's linear algebra (a quarter of a second)."""
    from kt_formal.counting._frontier_jit import prepare_kernels
    from kt_formal.engines._jit import start_compiler_without_blas

    start_compiler_without_blas()
    prepare_kernels(note=not getattr(args, "quiet", False))


def _run_count(args) -> int:
    from kt_formal.question import TourRequest
    from kt_formal.counting.frontier import MAX_SHORT_SIDE

    if args.sequence:
        if args.rows is not None or args.mask or args.hole or args.remove:
            raise InvalidInput("--sequence takes no board: it counts K x A .. K x B")
        return _count_sequence(args)
    if args.partial:
        raise InvalidInput("--partial goes with --sequence K A..B")
    board = board_from_args(args)
    request = TourRequest(board, closed=not args.open, start=args.start, end=args.end)
    method = args.method
    short = min(board.rows, board.cols)
    if method == "auto":
        if short > MAX_SHORT_SIDE and board.n_squares > 64:
            from kt_formal.counting.frontier import estimate_states

            raise InvalidInput(
                f"counting the tours of the {board.rows}x{board.cols} board is out of reach: the "
                f"frontier method would hold about {estimate_states(short):.0e} states per step "
                f"(it takes a side of at most {MAX_SHORT_SIDE}), and an exhaustive search grows "
                "with the number of tours (try --method search with a --time-limit)")
        # the exhaustive search is quick on the smallest boards (6x6: 0.2 s); the frontier
        # method takes any board with a side of at most 8 (compiled: 6x8 in under a second,
        # 7x8 in half a minute and 1.5 GB); a node limit or a list of tours asks for the search
        small = board.n_squares <= 36 and not (args.checkpoint or args.resume or args.dask)
        method = ("frontier" if short <= MAX_SHORT_SIDE and not args.out and not small
                  and args.node_limit is None else "search")
    if method == "search" and (args.checkpoint or args.resume or args.dask):
        raise InvalidInput("--checkpoint, --resume and --dask go with the frontier method (a side of at most "
                           f"{MAX_SHORT_SIDE}, no --out or --node-limit)")
    if method == "frontier":
        if args.out:
            raise InvalidInput("--out lists every tour: use --method search")
        return _count_frontier(args, board, request)
    from kt_formal.counting.exhaustive import count
    from kt_formal.progress import progress_for

    with progress_for(enabled=not getattr(args, "quiet", False), label="count") as progress:
        res = count(request, node_limit=args.node_limit, time_limit=args.time_limit, out=args.out,
                    progress=progress if progress.active else None)
    if getattr(args, "json", False):
        return _json_count(args, request, "search", res.count, res.complete, res.wall_time,
                           directed_count=res.directed_count, nodes=res.nodes)
    what = request.describe() if res.count == 1 else request.describe().replace("tour", "tours", 1)
    if not res.complete:
        _note(args, f"unknown: the count stopped at its limit after {res.nodes:,} nodes and "
                    f"{res.wall_time:.2f} s; at least {res.count} {what} (raise --time-limit "
                    f"{args.time_limit:g} or --node-limit to go further)")
        return 3
    extra = f" ({res.directed_count} directed)" if res.directed_count is not None else ""
    print(_styled(args, board, f"{res.count} {what}{extra}; {res.nodes:,} nodes in {res.wall_time:.2f} s"))
    return 0


# ---------------------------------------------------------------------- warm
def _add_warm(sub) -> None:
    p = sub.add_parser("warm", help="compile (or load) every compiled kernel now, once for later runs",
                       description="Compile the numba kernels of the frontier counter, the path searches, "
                                   "and the walks of the constructions, or load them where "
                                   "they are cached on disk, and say what it did and how long it took. "
                                   "Compiling is done once: numba keeps the machine code in NUMBA_CACHE_DIR "
                                   "when that is set, else next to the package's source or in the user's "
                                   "cache folder. Counts and searches compile what they need by themselves, "
                                   "outside their time limits; this command does it up front.",
                       epilog="example:\n  kt-formal warm      e.g. after installing, before timing a count",
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.set_defaults(run=_run_warm)


def _warm_groups():
    """(name, kernels, prepare) of each group of compiled kernels."""
    import numpy as np

    from kt_formal.combine import blocks, repair, walk
    from kt_formal.counting import _frontier_jit
    from kt_formal.engines import _search
    from kt_formal.io import formats

    succ = np.array([1, 0], np.int64)
    small = (walk._walker(), *repair._kernels(), formats._walk_kernel(), blocks._walker())

    def walks():
        walk.walk(succ, 0, 2)
        number, one_cycle, cycle_pos = repair._kernels()
        for dtype in (np.int32, np.int64):  # the repair's positions: int32 below 2**31 squares
            number(succ.astype(dtype), 0, 2, np.zeros(2, dtype))
        one_cycle(succ)
        cycle_pos(succ, np.empty(2, np.int64))
        formats._walk_kernel()(succ, np.int64(0), np.empty(2, np.int64))
        blocks.walk_neighbours(np.array([[1, -1], [0, -1]], np.int32), 0, 2)  # int32 below 2**31 squares

    return [("frontier counter", _frontier_jit.KERNELS, lambda: _frontier_jit.prepare_kernels(note=False)),
            ("path searches", _search.KERNELS, lambda: _search.prepare_kernels(note=False)),
            ("walks of the constructions", small, walks)]


def _run_warm(args) -> int:
    import time

    from kt_formal.engines import _jit

    t0 = time.perf_counter()
    _jit.start_compiler_without_blas()  # as a count does (no kernel of the package uses BLAS)
    for name, kernels, prepare in _warm_groups():
        cached = all(_jit.kernels_compiled(k) for k in kernels)
        if not cached:
            _note(args, f"compiling the kernels of the {name} ...")
        t = time.perf_counter()
        prepare()
        print(f"{name}: {len(kernels)} kernels {'loaded from the cache' if cached else 'compiled and cached'} "
              f"in {time.perf_counter() - t:.1f} s", flush=True)
    # every kernel made so far, those the groups' kernels call included (the inlined aside)
    kernels = [k for k, options in _jit.KERNELS if options.get("inline") != "always" and hasattr(k, "signatures")]
    missing = [k.__name__ for k in kernels if not _jit.kernels_compiled(k)]
    if missing:  # a kernel no group runs: a bug of this command
        raise InvalidInput(f"no group of 'warm' runs the kernels {', '.join(missing)}")
    where = getattr(getattr(kernels[0], "_cache", None), "_cache_path", None)
    print(f"{len(kernels)} kernels ready in {time.perf_counter() - t0:.1f} s" + (f"; cached in {where}" if where else ""))
    from kt_formal.engines._threads import threading_report

    print(threading_report())
    return 0


# ---------------------------------------------------------------------- exists
EXISTS_EXAMPLES = """\
examples:
  kt-formal exists 5 5                       no: 13 dark and 12 light squares
  kt-formal exists 4 1000 --cert p.json      no: Posa's alternation proof, then
  kt-formal verify p.json                    re-checks it
  kt-formal exists 8 8 --open --start a1 --end h8
exit status: 0 yes, 1 no, 3 unknown (a limit ran out), 2 bad input
"""


def _add_exists(sub) -> None:
    p = sub.add_parser("exists", help="decide whether a tour exists, with a certificate either way",
                       description="Decide whether a board has a closed (or open) tour. A yes comes "
                                   "with a verified tour, a no with a proof that 'kt-formal verify' "
                                   "re-checks; unknown when a limit runs out.",
                       epilog=EXISTS_EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_board_arguments(p)
    p.add_argument("--open", action="store_true", help="an open tour (a path) instead of a closed one")
    p.add_argument("--start", metavar="SQ", help="first square (R,C 0-based, or a chess name like a1)")
    p.add_argument("--end", metavar="SQ", help="last square")
    p.add_argument("--cert", metavar="FILE", help="write the certificate (tour or proof, JSON) to FILE")
    p.add_argument("--engine", default="auto", choices=_EngineNames(), metavar="ENGINE",
                   help="auto (default): the whole pipeline (proofs, constructions, a portfolio of "
                        "searches); or one of %(choices)s: the cheap proofs, then only that engine")
    add_search_arguments(p)
    p.add_argument("--exit-zero-on-proof", action="store_true",
                   help="exit 0 for a certified answer either way (yes with a tour, no with a proof), "
                        "3 unknown, 2 bad input: for 'kt-formal exists ... --cert p.json "
                        "--exit-zero-on-proof && kt-formal verify p.json'")
    add_script_arguments(p, "exists")
    p.set_defaults(run=_run_exists)


def _run_exists(args) -> int:
    import json

    from kt_formal.decide import decide

    board = board_from_args(args)
    if args.time_limit is not None and not args.time_limit > 0:
        raise InvalidInput(f"--time-limit must be positive, got {args.time_limit:g}")
    verdict = decide(board, closed=not args.open, start=args.start, end=args.end,
                     time_limit=args.time_limit, engine=args.engine, seed=args.seed, workers=args.workers)
    if args.cert and verdict.certificate is not None:
        _write_output(json.dumps(verdict.certificate, separators=(",", ":")) + "\n", args.cert)
    if getattr(args, "json", False):
        return _json_verdict(args, "exists", board, verdict, None)
    print(_styled(args, board, verdict.explanation))
    if verdict.answer == "unknown" and _next_step(verdict.explanation) != verdict.explanation:
        _note(args, "kt-formal: the time limit ran out; give more time with --time-limit S")
    if args.cert:
        where = (f"certificate written to {args.cert}" if verdict.certificate is not None
                 else "no certificate to write")
        _note(args, f"{verdict.answer} ({verdict.route}, {verdict.wall_time:.2f} s); {where}")
    return _exists_exit(args, verdict)


# ---------------------------------------------------------------------- census
CENSUS_EXAMPLES = """\
examples:
  kt-formal census 3..10 3..10 --remove-squares 1 --db one.sqlite            closed tours
  kt-formal census 3..10 3..10 --remove-squares 1 --open --db one.sqlite     open tours, same file
  kt-formal census 30 30 --hole-size 6x6 --db hole.sqlite --workers 2
  kt-formal census 8 8 --random-holes 4 --samples 500 --seed 1 --db r.sqlite --dask local
  kt-formal census 8 8 --mask-dir masks/ --db m.sqlite --dask tcp://HOST:8786
  kt-formal census 3..16 3..16 --atlas --db atlas.sqlite --workers 2           the atlas (docs/atlas)
  kt-formal census-report one.sqlite --csv one.csv --map one.svg
  kt-formal verify --db one.sqlite

ROWS and COLS are a number or an inclusive range like 3..10; with the same range for
both, only boards with ROWS <= COLS are asked. Every position is its own row of the
database; positions equal under a symmetry of the board are solved once and the
certificate moved and re-checked. Positions that remove a fixed end are skipped.
Running the same command again asks only what is missing; --retry-unknown asks the
stored unknowns again with 4 times the time limit. Exit 0 when every question of the
family has an answer, 3 when some stay unknown, 2 for bad input.
"""


def _add_census(sub) -> None:
    p = sub.add_parser("census", help="answer a whole family of boards into a SQLite database",
                       description="Decide tour existence on every board of a family, storing one "
                                   "certified verdict per board in a resumable SQLite database.",
                       epilog=CENSUS_EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("rows", metavar="ROWS", help="rows: a number or a range like 3..10")
    p.add_argument("cols", metavar="COLS",
                   help="columns: a number or a range; the same range as ROWS asks only ROWS <= COLS")
    fam = p.add_mutually_exclusive_group(required=True)
    fam.add_argument("--remove-squares", type=int, metavar="K", help="every set of K removed squares")
    fam.add_argument("--hole-size", dest="hole", metavar="HxW", help="every position of an H x W hole")
    fam.add_argument("--hole", dest="hole", metavar="HxW", action=Renamed, new="--hole-size",
                     help=argparse.SUPPRESS)
    fam.add_argument("--random-holes", type=int, metavar="K",
                     help="random sets of K removed squares (with --samples and --seed)")
    fam.add_argument("--mask-dir", metavar="DIR", help="every ASCII mask file in DIR ('.' square, '#' hole)")
    fam.add_argument("--rect-holes", action="store_true",
                     help="every position of every H x W hole, 1 <= H <= ROWS-2, 1 <= W <= COLS-2")
    fam.add_argument("--atlas", action="store_true",
                     help="the atlas of holed boards: closed tours with every rectangular hole "
                          "(--rect-holes) and open tours with every single square removed")
    p.add_argument("--samples", type=int, default=100, metavar="S", help="random sets per board size (default 100)")
    p.add_argument("--seed", type=_bounded(int, 0, MAX_SEED, "--seed"), default=0, metavar="K",
                   help="random seed of the random sets (default 0); runs repeat")
    p.add_argument("--db", required=True, metavar="FILE", help="the SQLite database (created if missing)")
    p.add_argument("--open", action="store_true", help="open tours (paths) instead of closed ones")
    p.add_argument("--start", metavar="SQ", help="fixed first square (R,C 0-based, or a chess name like a1)")
    p.add_argument("--end", metavar="SQ", help="fixed last square")
    p.add_argument("--time-limit", type=_bounded(float, 0.001, MAX_SECONDS, "--time-limit"), default=10.0,
                   metavar="S", help="seconds for each question before it is stored as unknown (default 10, "
                                     "not 60 as in tour, exists and count: a census asks many questions, "
                                     "and --retry-unknown asks the unknowns again with 4 times the limit)")
    p.add_argument("--workers", type=int, default=2, metavar="P",
                   help="worker processes: local processes, or workers of --dask local (default 2)")
    p.add_argument("--dask", metavar="ADDRESS",
                   help="run on a Dask cluster: a scheduler address tcp://HOST:8786, or 'local'")
    p.add_argument("--retry-unknown", action="store_true",
                   help="ask the stored unknowns again with 4 times the time limit")
    add_script_arguments(p, "census", squares=False)
    p.set_defaults(run=_run_census)


def _census_questions(args) -> list:
    from kt_formal.census.families import family_questions

    return family_questions(args)


def _run_census(args) -> int:
    import math

    from kt_formal.census.runners import run_census
    from kt_formal.census.store import Store, check_store_file
    from kt_formal.progress import progress_for

    if not (args.time_limit > 0 and math.isfinite(args.time_limit)):
        raise InvalidInput(f"--time-limit must be a positive number of seconds, got {args.time_limit:g}")
    if not 1 <= args.workers <= 1024:
        raise InvalidInput(f"--workers must be between 1 and 1024, got {args.workers}")
    check_store_file(args.db)  # refuse a foreign or newer file before anything else
    questions = _census_questions(args)
    dask = None
    if args.dask:  # connect first: an unreachable scheduler leaves no database behind
        from kt_formal.census.runners import DaskConnection

        dask = DaskConnection(args.dask, args.workers)
    try:
        with Store.open(args.db) as store:
            with progress_for(enabled=not getattr(args, "quiet", False), label="census") as progress:
                run = run_census(questions, store, time_limit=args.time_limit, workers=args.workers,
                                 dask=dask, retry_unknown=args.retry_unknown, progress=progress)
            summary, unknown = _census_summary(store, questions)
    finally:
        if dask is not None:
            dask.close()
    _note(args, f"{run.questions} questions: {run.stored_before} already stored, {run.asked} asked "
                f"({run.orbits} up to symmetry) in {run.seconds:.1f} s; database {args.db}")
    if unknown:
        _note(args, f"kt-formal: {unknown} unknown (a limit ran out); ask them again with more time: "
                    f"the same command with --retry-unknown --time-limit S (now {args.time_limit:g} s)")
    if getattr(args, "json", False):
        return _json_census(args, "census", unknown, run)
    print(summary)
    return 3 if unknown else 0


def _census_summary(store, questions):
    from kt_formal.census import report
    from kt_formal.census.store import question_key

    keys = {question_key(q) for q in questions}
    unknown = sum(1 for r in store.con.execute(
        'SELECT rows, cols, holes, tour, start, "end" FROM verdicts WHERE answer = \'unknown\'')
        if tuple(r) in keys)
    return "\n".join(report.summary_lines(store)), unknown


CENSUS_REPORT_EXAMPLES = """\
examples:
  kt-formal census-report one.sqlite                       the summary table
  kt-formal census-report one.sqlite --csv one.csv         one line per question
  kt-formal census-report hole.sqlite --map hole.svg       one board: answer at each hole position
  kt-formal census-report one.sqlite --map sizes.png       several sizes: a rows x columns grid
  kt-formal census-report atlas.sqlite --board 8x8 --map 8x8.png      one board of many
  kt-formal census-report atlas.sqlite --map 'maps/{board}.svg'       one map per board size
  kt-formal census-report atlas.sqlite --table atlas.csv.gz --findings findings.md --html atlas.html

Map colours: green yes; for a no, by its proof: pink colour count, orange a square of
degree < 2, dark red separator, alternation or Hall's condition, purple DRUP proof; amber a mix of yes and
no, grey unknown. --findings checks the table against published theorems and exits 1
(naming each case on stderr) when a row disagrees.
"""


def _add_census_report(sub) -> None:
    p = sub.add_parser("census-report", help="summary, CSV and map of a census database",
                       description="Print the summary of a census database; write it as CSV or "
                                   "draw a map of the answers. The database is only read.",
                       epilog=CENSUS_REPORT_EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("db", metavar="FILE", help="the census database")
    p.add_argument("--csv", metavar="OUT", help="write one line per question to OUT")
    p.add_argument("--certificates", action="store_true", help="include the certificates in the CSV")
    p.add_argument("--map", metavar="OUT",
                   help="draw the answers (.svg or .png): one board size: a panel per kind of tour and "
                        "hole size, each hole position coloured by its answer; several sizes: a rows x "
                        "columns grid; OUT with {board} (maps/{board}.png): one map per board size")
    p.add_argument("--board", metavar="RxC", help="the map and the findings of this board size only")
    p.add_argument("--axes", choices=("chess", "rc"), default="chess",
                   help="map labels: chess files and ranks (default, up to 26 columns) or row/column numbers")
    p.add_argument("--table", metavar="OUT.csv.gz",
                   help="write the verdict table (board, tour, hole, answer, proof method; no certificates), "
                        "gzip-compressed when OUT ends in .gz")
    p.add_argument("--findings", metavar="OUT.md",
                   help="write what the census says (no-positions and their reasons per hole size, the "
                        "DRUP boards, agreement with published theorems, margins) as Markdown")
    p.add_argument("--html", metavar="OUT.html",
                   help="write one self-contained page: every board's map, filters, and on a click the tour "
                        "or the proof's reason")
    add_script_arguments(p, "census-report", squares=False)
    p.set_defaults(run=_run_census_report)


def _run_census_report(args) -> int:
    from kt_formal.census import report
    from kt_formal.census.store import Store

    if args.map:
        from kt_formal.io.render import check_picture_path

        check_picture_path(args.map)
    status = 0
    if str(args.db).endswith((".csv", ".csv.gz")):  # a verdict table: only its findings
        from kt_formal.census import atlas

        if not args.findings or any((args.csv, args.map, args.table, args.html, getattr(args, "json", False))):
            raise InvalidInput(f"{args.db} is a verdict table: it gives --findings only (the rest needs the "
                               "census database)")
        checks = atlas.write_findings(args.db, args.findings, board=_board_option(args.board))
        disagree = sum(len(c.disagreements) for c in checks)
        _note(args, f"findings written to {args.findings}; theorem checks: {len(checks)} theorems, "
                    f"{sum(c.checked for c in checks)} rows they speak of, {disagree} disagreements")
        for c in checks:
            for d in c.disagreements:
                print(f"DISAGREEMENT with {c.name}: {d}", file=sys.stderr)
        return 1 if disagree else 0
    with Store.open(args.db, readonly=True) as store:
        if not getattr(args, "json", False):
            print("\n".join(report.summary_lines(store)))
        if args.csv:
            n = report.write_csv(store, args.csv, certificates=args.certificates)
            _note(args, f"{n} rows written to {args.csv}")
        board = _board_option(args.board)
        if args.map:
            files = report.write_map(store, args.map, board=board, squares=args.axes)
            _note(args, f"map written to {files[0]}" if len(files) == 1 else
                  f"{len(files)} maps written ({files[0]} ... {files[-1]})")
        if args.table:
            from kt_formal.census import atlas

            n = atlas.write_table(store, args.table)
            _note(args, f"{n} rows written to {args.table}")
        if args.findings:
            from kt_formal.census import atlas

            checks = atlas.write_findings(store, args.findings, board=board)
            disagree = sum(len(c.disagreements) for c in checks)
            _note(args, f"findings written to {args.findings}; theorem checks: {len(checks)} theorems, "
                        f"{sum(c.checked for c in checks)} rows they speak of, {disagree} disagreements")
            for c in checks:
                for d in c.disagreements:
                    print(f"DISAGREEMENT with {c.name}: {d}", file=sys.stderr)
            status = 1 if disagree else status
        if args.html:
            from kt_formal.census import atlas

            size = atlas.write_html(store, args.html, board=board)
            _note(args, f"page written to {args.html} ({size / 1e6:.1f} MB)" if size >= 1e6 else
                  f"page written to {args.html} ({size / 1e3:.0f} kB)")
    if getattr(args, "json", False):
        return max(status, _json_census(args, "census-report", None, None))
    return status


def _board_option(text):
    """``--board 8x10`` as (8, 10), or None."""
    import re

    if text is None:
        return None
    mt = re.fullmatch(r"\s*(\d+)\s*[xX]\s*(\d+)\s*", text)
    if not mt:
        raise InvalidInput(f"--board must look like 8x10, got {text!r}")
    return int(mt.group(1)), int(mt.group(2))


def _run_verify_db(args) -> int:
    from kt_formal.census.report import verify_store
    from kt_formal.progress import progress_for

    with progress_for(enabled=not getattr(args, "quiet", False), label="verify") as progress:
        checked, failed, unknown, failures = verify_store(args.db, progress=progress, replay=args.replay)
    if getattr(args, "json", False):
        from kt_formal.io import jsonout

        for line in failures:
            jsonout.emit(jsonout.verify_json(args.db, "rejected", 1, line))
        text = (f"{checked - failed} of {checked} certificates verified in {args.db}; {unknown} unknown rows "
                "without a certificate")
        jsonout.emit(jsonout.verify_json(args.db, "verified" if not failed else "rejected", 1 if failed else 0,
                                         text, checked={"checked": checked, "failed": failed,
                                                        "unknown_rows": unknown}))
        return 1 if failed else 0
    for line in failures:
        print(line)
    print(f"{checked - failed} of {checked} certificates verified in {args.db}"
          f"{f'; {failed} REJECTED or NOT CHECKED' if failed else ''}; {unknown} unknown rows without a certificate")
    return 1 if failed else 0


# ---------------------------------------------------------------------- scripting
def add_script_arguments(p: argparse.ArgumentParser, command: str, squares: bool = True) -> None:
    """``--json`` (one object per line, schema kt-formal/1, docs/json.md) and ``--squares``."""
    p.add_argument("--json", action="store_true",
                   help="print one JSON object (schema kt-formal/1, see docs/json.md) on standard "
                        "output instead of the text; exit codes unchanged")
    if squares:
        p.add_argument("--squares", choices=("chess", "rc"), default=None,
                       help="print squares as chess names (a1) or ROW,COL (7,0); default: as the "
                            "squares were given, and ROW,COL beyond 26 columns")


def _styled(args, board, text: str) -> str:
    """``text`` with the start, end and removed squares written as ``--squares`` says."""
    from kt_formal.commandline import restyle, square_style

    given = [getattr(args, "start", None), getattr(args, "end", None), *getattr(args, "remove", [])]
    style = square_style(getattr(args, "squares", None), given, board.cols)
    squares = []
    for textsq in given:
        if textsq:
            try:
                squares.append(board.parse_square(textsq))
            except KtFormalError:
                pass
    tour = getattr(args, "_tour", None)
    if tour is not None:
        squares += [tour.start, tour.end]
    return restyle(text, board.rows, squares, style)


def _check_json_tour(args, board) -> None:
    """``tour --json`` without ``--out`` lists the squares in the object: refuse what JSON cannot hold."""
    if getattr(args, "json", False) and not args.out:
        from kt_formal.io.formats import JSON_MAX_SQUARES, json_limit_message

        if board.n_squares > JSON_MAX_SQUARES:
            raise InvalidInput(json_limit_message(board.n_squares, "board"))


def _json_verdict(args, command: str, board, verdict, fmt) -> int:
    """``tour --json`` and ``exists --json``: the tour (or the certificate) to its file, then
    one object on standard output."""
    from kt_formal.io import jsonout

    out = None
    if command == "tour" and verdict.answer == "yes":
        if args.out:
            _write_tour(verdict.tour, fmt, args.out, verdict.engine)
            out = args.out
        _write_pictures(args, verdict.tour)
    cert = args.cert if command == "exists" and args.cert and verdict.certificate is not None else None
    start = board.parse_square(args.start) if args.start else None
    end = board.parse_square(args.end) if args.end else None
    d = jsonout.verdict_json(command, verdict, board, not args.open, start, end,
                             certificate=cert or out, out=out, squares=command == "tour" and not out)
    code = _exists_exit(args, verdict) if command == "exists" else verdict.exit_code
    d["exit_code"] = code
    jsonout.emit(d)
    return code


def _exists_exit(args, verdict) -> int:
    """0 yes, 1 no, 3 unknown; with --exit-zero-on-proof a certified no exits 0 too."""
    if getattr(args, "exit_zero_on_proof", False) and verdict.answer == "no" and verdict.certificate is not None:
        return 0
    return verdict.exit_code


def _json_count(args, request, method: str, count: int, complete: bool, seconds: float, **extra) -> int:
    """``count --json``: one object for one board."""
    from kt_formal.io import jsonout

    what = request.describe() if count == 1 else request.describe().replace("tour", "tours", 1)
    message = f"{count} {what}" if complete else f"at least {count} {what} (a limit ran out)"
    jsonout.emit(jsonout.count_json(request.board, request.closed, request.start, request.end, count=count,
                                    complete=complete, method=method, seconds=seconds,
                                    out=getattr(args, "out", None), message=message, **extra))
    return 0 if complete else 3


def _json_count_line(args, k: int, key, count: int) -> None:
    """``count --sequence --json``: one object a line, as each count is known."""
    from kt_formal.board import Board
    from kt_formal.io import jsonout

    n, j = key if args.partial else (key, k)
    board = Board(k, n, holes=[(r, n - 1) for r in range(j, k)] or None)
    t0 = getattr(args, "_t0", time.perf_counter())
    jsonout.emit(jsonout.count_json(board, not args.open, count=count, complete=True, method="frontier",
                                    seconds=time.perf_counter() - t0, message=f"{k}x{n} {count}",
                                    partial={"kept": j, "of": k} if args.partial else None))


def _verify_scripted(args) -> int:
    """``verify --json`` (one object per file, a line each) and ``verify --squares``."""
    from kt_formal.exceptions import CertificateNotChecked, CertificateRejected
    from kt_formal.io import jsonout

    codes = []
    many = len(args.files) > 1
    for path in args.files:
        try:
            claim = _verify_one(path, args.closed, args.replay)
            answer, code = ("replayed" if claim.startswith("REPLAYED") else "verified"), 0
            claim = claim.split(": ", 1)[1]
            claim = _styled_claim(args, path, claim)
            text = f"{'REPLAYED' if answer == 'replayed' else 'OK'}: {claim}"
        except CertificateNotChecked as exc:
            answer, code, claim, text = "not-checked", 1, str(exc), str(exc)
        except CertificateRejected as exc:
            answer, code, claim, text = "rejected", 1, str(exc), f"REJECTED: {exc}"
        except KtFormalError as exc:
            if not many and not args.json:
                raise
            if args.json:
                print(f"{PROG}: {path}: {exc}", file=sys.stderr)
            answer, code, claim, text = "bad-input", exc.exit_code, str(exc), f"BAD INPUT: {exc}"
        codes.append(code)
        if args.json:
            jsonout.emit(jsonout.verify_json(path, answer, code, claim))
        else:
            print(f"{path + ': ' if many else ''}{text}", flush=True)
    if many and not args.json:
        print(f"{codes.count(0)} of {len(codes)} files verified")
    return max(codes)


def _styled_claim(args, path: str, claim: str) -> str:
    """The claim with its squares written as --squares says (chess names up to 26 columns)."""
    import re

    from kt_formal.commandline import square_style

    m = re.search(r"of the (\d+)x(\d+) board", claim)
    if not m:
        return claim
    rows, cols = int(m.group(1)), int(m.group(2))
    style = square_style(getattr(args, "squares", None), [], cols)
    if style == "chess":
        return claim
    from kt_formal.kernel.geometry import file_name

    # the claim names squares by chess names only: write each as row,col
    def rc(mt):
        letters, rank = mt.group(1), int(mt.group(2))
        col = 0
        for ch in letters:
            col = col * 26 + (ord(ch) - ord("a") + 1)
        col -= 1
        row = rows - rank
        if file_name(col) != letters or not (0 <= row < rows and col < cols):
            return mt.group(0)
        return f"{row},{col}"

    head, sep, tail = claim.partition(":")
    return re.sub(r"(?<![\w,])([a-z]+)(\d+)(?![\w,])", rc, head) + sep + tail if sep else \
        re.sub(r"(?<![\w,])([a-z]+)(\d+)(?![\w,])", rc, claim)


def _json_census(args, command: str, unknown, run) -> int:
    """``census --json`` and ``census-report --json``: the database's summary as one object
    (census: only the family asked decides the exit code, as in the text form)."""
    from kt_formal.census import report
    from kt_formal.census.store import Store
    from kt_formal.io import jsonout

    with Store.open(args.db, readonly=True) as store:
        summary = report.summary_dict(store)
        text = "\n".join(report.summary_lines(store))
    code = 3 if unknown else 0
    if unknown is not None:
        summary["unknown"] = int(unknown)
    answer = "unknown" if unknown else "done"
    run_d = None if run is None else {"questions": run.questions, "stored_before": run.stored_before,
                                      "asked": run.asked, "orbits": run.orbits,
                                      "seconds": round(float(run.seconds), 6)}
    jsonout.emit(jsonout.census_json(command, answer, code, text, db=args.db, summary=summary, run=run_d))
    return code


def _next_step(message: str) -> str:
    """A limit reached names the option that moves it."""
    if ("time limit" in message or "ran out of time" in message) and "--time-limit" not in message:
        return message.rstrip(".") + "; give more time with --time-limit S"
    return message


def _json_error(args, exc_code: int, message: str) -> None:
    """With --json, a failure is one object too (besides the line on standard error)."""
    from kt_formal.io import jsonout

    jsonout.emit(jsonout.error_json(getattr(args, "command", None), exc_code, message))


# ---------------------------------------------------------------------- main
COMMANDS = [_add_tour, _add_exists, _add_verify, _add_graph, _add_count, _add_render, _add_models, _add_frame,
            _add_census, _add_census_report, _add_warm]


def _add_completion(sub) -> None:
    p = sub.add_parser("completion", help="print a shell completion script (bash or zsh)",
                       description="Print a completion script generated from this command's parser.",
                       epilog="examples:\n  source <(kt-formal completion bash)\n"
                              "  kt-formal completion zsh > ~/.zfunc/_kt-formal",
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("shell", choices=("bash", "zsh"), help="the shell")
    p.set_defaults(run=_run_completion)


def _run_completion(args) -> int:
    from kt_formal.commandline import completion

    sys.stdout.write(completion(build_parser(), args.shell))
    return 0


COMMANDS.append(_add_completion)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog=PROG, description="Find, build and certify knight's tours.",
                     epilog="example:\n  kt-formal tour 8 8\nrun 'kt-formal COMMAND --help' for each command's options",
                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    parser.add_argument("-q", "--quiet", action="store_true",
                        help="no notes and no progress line on standard error "
                             "(also accepted after the command: 'kt-formal tour 8 8 --quiet')")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for add in COMMANDS:
        add(sub)
    _add_quiet_everywhere(sub)
    return parser


def _add_quiet_everywhere(sub) -> None:
    """Let ``--quiet`` also follow the command (its default does not reset the global one)."""
    for p in set(sub.choices.values()):
        try:
            p.add_argument("-q", "--quiet", action="store_true", default=argparse.SUPPRESS,
                           help="no notes and no progress line on standard error")
        except argparse.ArgumentError:  # the command defines its own
            pass


def _quiet_stdout() -> None:
    """Drop what is left in stdout's buffer (its flush at exit would fail again)."""
    try:
        sys.stdout = open(os.devnull, "w")
    except OSError:
        pass


def main(argv=None) -> int:
    """Run the command; return the exit code (never raise for expected errors)."""
    parser = build_parser()
    args = None
    try:
        args = parser.parse_args(argv)
        print_renamed_notes(args)
        if not getattr(args, "run", None):
            parser.print_help()
            return 2
        args._t0 = time.perf_counter()
        code = args.run(args)
        sys.stdout.flush()
        return code
    except KtFormalError as exc:
        message = _next_step(str(exc))
        print(f"{PROG}: {message}", file=sys.stderr)
        if getattr(args, "json", False):
            _json_error(args, exc.exit_code, message)
        return exc.exit_code
    except MemoryError:
        print(f"{PROG}: out of memory; try a smaller board", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # output piped into a command that stopped reading (e.g. head)
        _quiet_stdout()
        return 0
    except OSError as exc:  # e.g. output to /dev/full
        _quiet_stdout()
        print(f"{PROG}: cannot write the output: {exc.strerror or exc}", file=sys.stderr)
        return 2
    except Exception as exc:  # a bug: one line, with a way to see the traceback
        if os.environ.get("KT_FORMAL_DEBUG"):
            raise
        print(f"{PROG}: internal error: {type(exc).__name__}: {exc} "
              "(set KT_FORMAL_DEBUG=1 for a traceback)", file=sys.stderr)
        return 4
