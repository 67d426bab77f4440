"""Make the README's gallery: docs/gallery/*.png and *.svg, every tour verified first.

Run from the repository root::

    python scripts/gallery.py            # writes docs/gallery/
    python scripts/gallery.py --out DIR  # somewhere else

Each picture is what the command shown next to it in the README writes; the tours come
from CP-SAT with one worker and a fixed seed, so a rerun gives the same pictures.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from kt_formal import Board, find_tour  # noqa: E402
from kt_formal.render import save_picture  # noqa: E402

OPTIONS = {"engine": "cpsat", "seed": 0, "workers": 1, "time_limit": 120}

# name, board, closed, numbers, PNG pixels per square, the command that draws the same picture
PICTURES = [
    ("tour_8x8_closed", Board(8, 8), True, True, 64,
     "kt-formal tour 8 8 --png tour_8x8_closed.png --cell 64 --svg tour_8x8_closed.svg --numbers"),
    ("tour_14x14_holes", Board.from_spec(14, 14, ["2,2,3x4", "8,7,4x4", "6,0,2x1"]), True, False, 48,
     "kt-formal tour 14 14 --hole 2,2,3x4 --hole 8,7,4x4 --hole 6,0,2x1 --png tour_14x14_holes.png --cell 48"),
    # TODO(seed 003): switch to the binary support model of kt_formal/combine/frame.py
    # (element B 4x3 around element A 3x10) once it is merged; CP-SAT draws the same board for now.
    ("seed003_10x10_hole4x4", Board.from_spec(10, 10, ["3,3,4x4"]), True, False, 56,
     "kt-formal tour 10 10 --hole 3,3,4x4 --png seed003_10x10_hole4x4.png --cell 56"),
    ("tour_40x40_closed", Board(40, 40), True, False, 16,
     "kt-formal tour 40 40 --png tour_40x40_closed.png --cell 16"),
]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=str(ROOT / "docs" / "gallery"), help="output folder")
    args = ap.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for name, board, closed, numbers, cell, command in PICTURES:
        result = find_tour(board, closed=closed, **OPTIONS)
        if not result.found:
            print(f"{name}: {result.status.value}: {result.message}", file=sys.stderr)
            return 1
        tour = result.tour.verify()  # the independent checker, again
        for suffix in (".png", ".svg"):
            if suffix == ".svg" and max(board.rows, board.cols) > 20:
                continue  # big boards: PNG only, the SVG would be needlessly large
            path = save_picture(tour, out / f"{name}{suffix}", numbers=numbers, cell=cell)
            print(f"{path.relative_to(out.parent.parent) if path.is_relative_to(ROOT) else path}: "
                  f"{path.stat().st_size // 1024} KB  ({command})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
