"""Options and helpers shared by the commands: the board, the search limits, notes, output files and pictures."""

from __future__ import annotations

import argparse
import re
import sys

from kt_formal import api
from kt_formal.cli.parsing import Renamed
from kt_formal.api import InvalidInput


def command(sub, doc: str, examples: str) -> argparse.ArgumentParser:
    """The parser of the command that a command module's docstring ``doc`` documents.

    The docstring's first line, ``"``kt-formal NAME``: summary."``, gives the name and
    the one-line summary of ``kt-formal --help``; its next paragraph is the description;
    ``examples`` (examples and exit codes) is printed after the options as written.
    """
    head, _, rest = doc.strip().partition("\n\n")
    found = re.fullmatch(r"``kt-formal ([a-z-]+)``: (.+)\.", head)
    if found is None:
        raise ValueError(f"a command's docstring starts '``kt-formal NAME``: summary.', not {head!r}")
    description = " ".join(rest.split("\n\n")[0].split())
    return sub.add_parser(found[1], help=found[2], description=description, epilog=examples,
                          formatter_class=argparse.RawDescriptionHelpFormatter)


def add_question_arguments(p: argparse.ArgumentParser) -> None:
    """``[--open] [--start SQ] [--end SQ]``: the tour asked for on the board."""
    p.add_argument("--open", action="store_true", help="an open tour (a path) instead of a closed one")
    p.add_argument("--start", metavar="SQ", help="first square (R,C 0-based, or a chess name like a1)")
    p.add_argument("--end", metavar="SQ", help="last square")


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


def board_side(text, what: str) -> int:
    """A side of a board (or a bound of a range of them): a whole number from 1 to
    :data:`~kt_formal.board.MAX_SIDE`, the largest side a board may have."""
    MAX_SIDE = api.MAX_SIDE
    text = str(text).strip()
    if not (text.isascii() and text.isdigit()) or len(text) > 13 or int(text) > MAX_SIDE:
        shown = text[:20] + ("..." if len(text) > 20 else "")
        raise InvalidInput(f"{what} must be a whole number from 1 to {MAX_SIDE:,}, not {shown!r}")
    if int(text) < 1:
        raise InvalidInput(f"{what} must be at least 1, not {text!r}")
    return int(text)


def board_from_args(args):
    """The Board described by :func:`add_board_arguments` options (:func:`kt_formal.api.make_board`)."""
    if args.mask:
        if args.rows is not None:
            raise InvalidInput("give either M N or --mask, not both")
        return api.make_board(None, hole=args.hole, remove=args.remove, mask=args.mask)
    if args.rows is None or args.cols is None:
        raise InvalidInput("give the board size M N (or --mask FILE)")
    rows = board_side(args.rows, "M (rows)")
    cols = board_side(args.cols, "N (columns)")
    return api.make_board(rows, cols, hole=args.hole, remove=args.remove)


def bounded(kind, low, high, what: str):
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


def seconds(text: str) -> float:
    """An argparse type: a number of seconds, refused by the one check of a time limit
    (:func:`kt_formal.api.check_time_limit`) in its words, after the option's name."""
    text = text.strip()
    try:
        if len(text) > 40 or not text.isascii():
            raise ValueError
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a number of seconds is wanted, not {text[:20]!r}"
                                         f"{'...' if len(text) > 20 else ''}") from None
    try:
        return api.check_time_limit(value)
    except api.InvalidInput as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


seconds.__name__ = "--time-limit"


def time_limit_of(args, default: str = "DEFAULT_TIME_LIMIT") -> float:
    """The ``--time-limit`` given, else the API's default (``default``, a name in :mod:`kt_formal.api`)."""
    return getattr(api, default) if args.time_limit is None else args.time_limit


#: Limits of the run settings on the command line.
MAX_SECONDS = 10**7
MAX_WORKERS = 64
MAX_SEED = 2**31 - 1


def add_search_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--time-limit", type=seconds, metavar="S",
                   help=f"give up after S seconds and report unknown (default {api.DEFAULT_TIME_LIMIT:g})")
    p.add_argument("--seed", type=bounded(int, 0, MAX_SEED, "--seed"), default=0, metavar="K",
                   help="random seed (default 0); runs repeat")
    p.add_argument("--threads", type=bounded(int, 1, MAX_WORKERS, "--threads"), default=api.DEFAULT_THREADS,
                   dest="workers", metavar="T", help=f"solver threads, 1 to {MAX_WORKERS} (default {api.DEFAULT_THREADS})")
    p.add_argument("--workers", type=bounded(int, 1, MAX_WORKERS, "--threads"), dest="workers",
                   metavar="T", action=Renamed, new="--threads", help=argparse.SUPPRESS)


def write_output(text: str, out: str | None) -> None:
    """``text`` to the file ``out`` (whole or not at all, :func:`~kt_formal.files.output_file`),
    or to standard output when ``out`` is None or ``-``."""
    with api.output_file(out or "-") as fh:
        fh.write(text)


def notify(args, text: str) -> None:
    if not getattr(args, "quiet", False):
        print(text, file=sys.stderr)


class EngineNames:
    """``auto`` and the engine registry's names, looked up only when needed.

    The registry's package imports numpy; ``kt-formal --help`` and ``verify`` do not
    need it, so the parser is built without it (start-up stays fast).
    """

    def _names(self):
        return api.engine_names()

    def __contains__(self, name):
        return name in self._names()

    def __iter__(self):
        return iter(self._names())


def add_picture_arguments(p: argparse.ArgumentParser) -> None:
    """``--svg FILE --png FILE --numbers`` (pictures, see :mod:`kt_formal.io.render`)."""
    p.add_argument("--svg", metavar="FILE", help="also draw the tour as an SVG picture")
    p.add_argument("--png", metavar="FILE", help="also draw the tour as a PNG picture")
    p.add_argument("--numbers", action="store_true", help="write step numbers on the squares of pictures")
    p.add_argument("--cell", type=bounded(int, 1, 400, "--cell"), metavar="PX", help="pixels per square in PNG pictures (default: automatic)")


def check_pictures(args, board) -> None:
    """Refuse picture sizes above the caps before any search starts."""
    for fmt in ("svg", "png"):
        if getattr(args, fmt, None):
            from kt_formal.io.render import check_picture_size  # only when a picture is asked for

            check_picture_size(board, fmt)


def write_pictures(args, tour) -> list[str]:
    """Write the ``--svg`` / ``--png`` pictures of a tour; return the paths written."""
    written = []
    for fmt in ("svg", "png"):
        path = getattr(args, fmt, None)
        if path:
            from kt_formal.io import render  # only when a picture is asked for

            with api.progress_for(enabled=not getattr(args, "quiet", False), label="render") as p:
                p(0, None, f"drawing {path}")
                data = (render.tour_svg(tour, numbers=args.numbers).encode() if fmt == "svg"
                        else render.tour_png(tour, numbers=args.numbers, cell=args.cell))
            with api.output_file(path, binary=True) as fh:
                fh.write(data)
            written.append(path)
    return written


def write_tour(tour, fmt: str, out, engine: str) -> None:
    from kt_formal.io.formats import save_tour, tour_text

    if out:  # "-": standard output, as the file would be
        save_tour(tour, out, fmt, engine=engine)
        return
    if fmt == "grid" and tour.board.size > 100_000:
        sys.stdout.flush()
        api.write_grid(tour, sys.stdout.buffer)
        return
    write_output(tour.to_json(engine=engine) if fmt == "json" else tour_text(tour, fmt), None)
