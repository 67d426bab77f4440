"""Make the README's gallery: docs/gallery/*.png and *.svg, every tour verified first.

Run from the repository root::

    python scripts/gallery.py            # writes docs/gallery/
    python scripts/gallery.py --out DIR  # somewhere else

Each picture is what the command shown next to it in the README writes; searches use one
worker and a fixed seed and constructions are deterministic, so a rerun gives the same pictures.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from kt_formal import Board, find_tour  # noqa: E402
from kt_formal.io.render import save_picture  # noqa: E402

OPTIONS = {"seed": 0, "workers": 1, "time_limit": 120}


def search(board: Board, closed: bool = True, engine: str = "auto"):
    """A tour from an engine (CP-SAT with one worker and seed 0 repeats exactly, as does extension and rotation)."""
    def make():
        result = find_tour(board, closed=closed, engine=engine, **OPTIONS)
        if not result.found:
            raise SystemExit(f"{board.describe()}: {result.status.value}: {result.message}")
        return result.tour
    return make


def support_model():
    from kt_formal.combine.frame import support_model

    return support_model("3x10", "4x3", 1, 1)


# name, how the tour is made, numbers, PNG pixels per square, the command that draws the same picture
PICTURES = [
    ("tour_8x8_closed", search(Board(8, 8), engine="cpsat"), True, 64,
     "kt-formal tour 8 8 --engine cpsat --threads 1 --png tour_8x8_closed.png --cell 64 --numbers"),
    # the command's pipeline answers a board this small with its fast first attempt
    ("tour_14x14_holes", search(Board.from_spec(14, 14, ["2,2,3x4", "8,7,4x4", "6,0,2x1"]), engine="extend-rotate"),
     False, 48, "kt-formal tour 14 14 --hole 2,2,3x4 --hole 8,7,4x4 --hole 6,0,2x1 --png t.png --cell 48"),
    ("support_10x10_hole4x4", support_model, True, 56,
     "kt-formal frame support --a 3x10 --b 4x3 --wh 1 --wv 1 --png t.png --cell 56 --numbers"),
    ("tour_60x60_divide", search(Board(60, 60)), False, 12,
     "kt-formal tour 60 60 --png t.png --cell 12   (divide and conquer: joined library blocks)"),
]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=str(ROOT / "docs" / "gallery"), help="output folder")
    args = ap.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for name, make, numbers, cell, command in PICTURES:
        tour = make().verify()  # the independent checker, again
        board = tour.board
        for suffix in (".png", ".svg"):
            if suffix == ".svg" and max(board.rows, board.cols) > 20:
                continue  # big boards: PNG only, the SVG would be needlessly large
            path = save_picture(tour, out / f"{name}{suffix}", numbers=numbers, cell=cell)
            print(f"{path.relative_to(out.parent.parent) if path.is_relative_to(ROOT) else path}: "
                  f"{path.stat().st_size // 1024} KB  ({command})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
