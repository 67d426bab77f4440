"""``kt-formal render``: draw a tour file as an SVG or PNG picture.

Draw a tour (any file 'kt-formal tour' writes), checked first by the independent
verifier.
"""

from __future__ import annotations

import argparse

from kt_formal.cli.parsing import Renamed
from kt_formal import api
from kt_formal.api import STDOUT as STDIN, InvalidInput, output_name
from kt_formal.cli.common import bounded, command, notify


RENDER_EXAMPLES = """\
examples:
  kt-formal tour 8 8 --format json --out t.json && kt-formal render t.json --out t.svg
  kt-formal render t.json --out t.png --numbers
  kt-formal render grid.txt --closed --out grid.png
  kt-formal tour 8 8 | kt-formal render - --closed --out t.svg    standard input (up to 64 MiB)

The picture format follows the suffix of --out (.svg or .png). SVG is limited to boards
of 200 squares a side, PNG to 4000.
"""


def add_render(sub) -> None:
    p = command(sub, __doc__, RENDER_EXAMPLES)
    p.add_argument("file", help="tour to draw: any file 'kt-formal tour' writes (json, grid, coords, "
                                     "chess, npy, succ, ktour); - reads it from standard input")
    p.add_argument("--out", dest="output", metavar="FILE", help="picture to write (.svg or .png; - for SVG on standard output); required")
    p.add_argument("-o", "--output", dest="output", metavar="FILE", action=Renamed, new="--out",
                   help=argparse.SUPPRESS)
    p.add_argument("--numbers", action="store_true", help="write step numbers on the squares")
    p.add_argument("--cell", type=bounded(int, 1, 400, "--cell"), metavar="PX", help="pixels per square of a PNG (default: automatic)")
    p.add_argument("--closed", action="store_true", help="read a grid as a closed tour")
    p.set_defaults(run=_run_render)


def _run_render(args) -> int:
    from kt_formal.io.formats import read_tour_file, standard_input_file
    from kt_formal.io.render import check_picture_path, save_picture

    if not args.output:
        raise InvalidInput("give the picture to write: --out FILE.svg or --out FILE.png")
    check_picture_path(args.output)
    try:
        if args.file == STDIN:
            with standard_input_file() as path:
                tour, _ = read_tour_file(path, closed=True if args.closed else None)
        else:
            tour, _ = read_tour_file(args.file, closed=True if args.closed else None)
    except api.CertificateRejected as exc:
        print(f"REJECTED: {exc}")
        return 1
    with api.progress_for(enabled=not getattr(args, "quiet", False), label="render") as p:
        p(0, None, f"drawing {args.output}")
        save_picture(tour, args.output, numbers=args.numbers, cell=args.cell)
    kind = "closed" if tour.closed else "open"
    notify(args, f"drew the {kind} tour of the {tour.board.describe()} board to {output_name(args.output)}")
    return 0
