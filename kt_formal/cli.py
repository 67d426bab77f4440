"""The ``kt-formal`` command.

Exit codes: 0 found or verified, 1 proven impossible or certificate rejected,
2 bad input, 3 unknown (a limit ran out). Errors are one line on stderr.

>>> main(["tour", "0", "8"])  # prints "kt-formal: board sizes must be at least 1, got 0x8"
2
"""

from __future__ import annotations

import argparse
import os
import sys

from kt_formal.exceptions import InvalidInput, KtFormalError

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
    try:
        return int(text)
    except (TypeError, ValueError):
        raise InvalidInput(f"{what} must be a whole number, not {text!r}") from None


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


def add_search_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--time-limit", type=float, default=60.0, metavar="S",
                   help="give up after S seconds and report unknown (default 60)")
    p.add_argument("--seed", type=int, default=0, metavar="K", help="random seed (default 0); runs repeat")
    p.add_argument("--workers", type=int, default=2, metavar="W", help="solver threads (default 2)")


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
"""


def _add_tour(sub) -> None:
    from kt_formal.engines import ENGINES

    p = sub.add_parser("tour", help="find a tour of a board and print it",
                       description="Find a knight's tour, verify it independently, and print it.",
                       epilog=TOUR_EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_board_arguments(p)
    p.add_argument("--open", action="store_true", help="an open tour (a path) instead of a closed one")
    p.add_argument("--start", metavar="SQ", help="first square (R,C 0-based, or a chess name like a1)")
    p.add_argument("--end", metavar="SQ", help="last square")
    p.add_argument("--engine", default="auto", choices=["auto", *ENGINES],
                   help="search engine (default auto)")
    p.add_argument("--format", default="grid", choices=["grid", "coords", "chess", "json"],
                   help="output format (default grid: numbered squares, 1 at the start)")
    p.add_argument("--out", metavar="FILE", help="write the tour to FILE instead of standard output")
    add_search_arguments(p)
    p.set_defaults(run=_run_tour)


def _run_tour(args) -> int:
    from kt_formal.engines import find_tour

    board = board_from_args(args)
    options = {"time_limit": args.time_limit, "seed": args.seed, "workers": args.workers}
    result = find_tour(board, closed=not args.open, start=args.start, end=args.end,
                       engine=args.engine, **options)
    if result.found:
        tour = result.tour
        text = tour.format(args.format) if args.format != "json" else tour.to_json(engine=result.engine)
        _write_output(text, args.out)
        _note(args, f"{result.message} by {result.engine} in {result.wall_time:.2f} s; verified"
              + (f"; written to {args.out}" if args.out else ""))
        return 0
    _note(args, f"{result.status.value}: {result.message}")
    return result.status.exit_code


# ---------------------------------------------------------------------- verify
def _add_verify(sub) -> None:
    p = sub.add_parser("verify", help="check a certificate file independently",
                       description="Re-check a certificate (JSON) from the board and the knight rule alone.",
                       epilog="example:\n  kt-formal tour 8 8 --format json --out t.json && kt-formal verify t.json",
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("file", help="certificate to check")
    p.set_defaults(run=_run_verify)


def _run_verify(args) -> int:
    from kt_formal.certificate import read_certificate, verify_certificate
    from kt_formal.exceptions import CertificateRejected

    data = read_certificate(args.file)
    try:
        _, summary = verify_certificate(data)
    except CertificateRejected as exc:
        print(f"REJECTED: {exc}")
        return 1
    print(f"OK: {summary}")
    return 0


# ---------------------------------------------------------------------- graph
def _add_graph(sub) -> None:
    p = sub.add_parser("graph", help="describe the knight graph of a board",
                       description="Squares, edges, colour counts and degree histogram of the knight graph.",
                       epilog="example:\n  kt-formal graph 8 8 --hole 3,3,2x2",
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    add_board_arguments(p)
    p.set_defaults(run=_run_graph)


def _run_graph(args) -> int:
    import numpy as np

    from kt_formal.graph import neighbour_table

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
    add_search_arguments(p)
    p.set_defaults(run=_run_exists)


def _run_exists(args) -> int:
    import json

    from kt_formal.decide import decide

    board = board_from_args(args)
    if args.time_limit is not None and not args.time_limit > 0:
        raise InvalidInput(f"--time-limit must be positive, got {args.time_limit:g}")
    verdict = decide(board, closed=not args.open, start=args.start, end=args.end,
                     time_limit=args.time_limit, seed=args.seed, workers=args.workers)
    if args.cert and verdict.certificate is not None:
        _write_output(json.dumps(verdict.certificate, separators=(",", ":")) + "\n", args.cert)
    print(verdict.explanation)
    if args.cert:
        where = (f"certificate written to {args.cert}" if verdict.certificate is not None
                 else "no certificate to write")
        _note(args, f"{verdict.answer} ({verdict.route}, {verdict.wall_time:.2f} s); {where}")
    return verdict.exit_code


# ---------------------------------------------------------------------- main
COMMANDS = [_add_tour, _add_verify, _add_graph, _add_exists]


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog=PROG, description="Find, build and certify knight's tours.",
                     epilog="example:\n  kt-formal tour 8 8\nrun 'kt-formal COMMAND --help' for each command's options",
                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for add in COMMANDS:
        add(sub)
    return parser


def main(argv=None) -> int:
    """Run the command; return the exit code (never raise for expected errors)."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        if not getattr(args, "run", None):
            parser.print_help()
            return 2
        return args.run(args)
    except KtFormalError as exc:
        print(f"{PROG}: {exc}", file=sys.stderr)
        return exc.exit_code
    except MemoryError:
        print(f"{PROG}: out of memory; try a smaller board", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # output piped into a command that stopped reading (e.g. head)
        try:
            sys.stdout = open(os.devnull, "w")
        except OSError:
            pass
        return 0
    except Exception as exc:  # a bug: one line, with a way to see the traceback
        if os.environ.get("KT_FORMAL_DEBUG"):
            raise
        print(f"{PROG}: internal error: {type(exc).__name__}: {exc} "
              "(set KT_FORMAL_DEBUG=1 for a traceback)", file=sys.stderr)
        return 4
