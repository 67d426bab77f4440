"""``kt-formal frame``: the rotation and support models around a centred hole.

Build a closed tour around a centred hole from element A (n x m, from (1,1) to (2,m-1),
1-based) and element B (n1 x m1, from (1,1) to (n1,3)), verify it and print it.
"""

from __future__ import annotations

from kt_formal import api
from kt_formal.cli.common import add_picture_arguments, bounded, command, notify, write_output, write_pictures


FRAME_EXAMPLES = """\
examples:
  kt-formal frame rotation --element 3x8 --wh 1 --wv 1      14x8 board, 8x2 hole, 96 moves
  kt-formal frame support --a 3x10 --b 4x3 --wh 1 --wv 1    10x10 board, 4x4 hole, 84 moves
  kt-formal frame rotation --element 5x5 --wh 2 --wv 3      m = n: a 25x10 board, no hole
"""


def add_frame(sub) -> None:
    p = command(sub, __doc__, FRAME_EXAMPLES)
    p.add_argument("model", choices=["rotation", "support"],
                   help="rotation: A on all four sides; support: A top and bottom, B on the sides")
    p.add_argument("--element", metavar="NxM", help="element A of the rotation model")
    p.add_argument("--a", metavar="NxM", help="element A of the support model")
    p.add_argument("--b", metavar="N1xM1", help="element B of the support model")
    p.add_argument("--wh", type=bounded(int, 1, 1000, "--wh"), default=1, metavar="K", help="elements along top and bottom (default 1)")
    p.add_argument("--wv", type=bounded(int, 1, 1000, "--wv"), default=1, metavar="K", help="elements down each side (default 1)")
    p.add_argument("--format", default="grid", choices=["grid", "coords", "chess", "json"],
                   help="output format (default grid: numbered squares, 1 at the top-left, # holes)")
    p.add_argument("--out", metavar="FILE", help="write the tour to FILE instead of standard output")
    add_picture_arguments(p)
    p.set_defaults(run=_run_frame)


def _run_frame(args) -> int:
    tour, what, hole = api.frame_model(args.model, args.wh, args.wv, element=args.element, a=args.a, b=args.b)
    b = tour.board
    hole_text = "no hole" if hole is None else f"the hole {hole[2]}x{hole[3]} at ({hole[0]}, {hole[1]})"
    line = (f"{what}, wh={args.wh}, wv={args.wv}: closed tour of the {b.rows}x{b.cols} board with "
            f"{hole_text}, {len(tour)} moves; verified")
    text = tour.format(args.format) if args.format != "json" else tour.to_json(engine="frame")
    write_output(text, args.out)
    pictures = write_pictures(args, tour)
    if pictures:
        line += f"; drawn to {', '.join(pictures)}"
    if args.format == "grid" and not args.out:
        print(line)
    else:
        notify(args, line + (f"; written to {args.out}" if args.out else ""))
    return 0
