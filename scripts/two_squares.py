"""Write the mask files of every board minus two squares of opposite colours at a margin, one per symmetry class.

Run from the repository root::

    python scripts/two_squares.py 8..14 --margin 3 --out two-squares/
    kt-formal census 8..14 8..14 --mask-dir two-squares/ --db two.sqlite
    kt-formal census-report two.sqlite --findings two.md

Boards are m x n with m <= n in the range and m n even (an odd board minus two squares has
an odd number of squares: no closed tour). Both squares stand at least ``--margin`` squares
from every edge and have opposite colours (squares of one colour leave the colours
unequal: no closed tour). Of the images of a pair under the board's symmetries only the
least is written, so each file is one class. The files are the ASCII masks ``kt-formal
tour --mask`` reads (``.`` a square, ``#`` a hole, one line a row), named
``MxN-r1-c1-r2-c2.txt``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from kt_formal.board import Board  # noqa: E402
from kt_formal.exceptions import InvalidInput  # noqa: E402
from kt_formal.survey.families import board_sizes, canonical, parse_range  # noqa: E402

#: Largest side asked (the number of pairs grows as the fourth power of the side).
MAX_SIDE = 40
#: Most boards written in one run (before symmetry, an upper bound on the files).
MAX_PAIRS = 2_000_000


def pairs(m: int, n: int, margin: int):
    """The classes of pairs of opposite colours at ``margin`` on an m x n board, as sorted square pairs."""
    inner = [(r, c) for r in range(margin, m - margin) for c in range(margin, n - margin)]
    seen = set()
    for i, a in enumerate(inner):
        for b in inner[i + 1:]:
            if (a[0] + a[1] + b[0] + b[1]) % 2 == 0:
                continue  # one colour: the colours do not balance
            rep, _ = canonical((m, n, (a, b), True, None, None))
            if rep[2] not in seen:
                seen.add(rep[2])
                yield rep[2]


def _sides(text: str) -> str:
    """The sides asked, checked: a number or a range like 8..14, at most :data:`MAX_SIDE`."""
    try:
        sides = parse_range(text, "side")
    except InvalidInput as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    if sides[-1] > MAX_SIDE:
        raise argparse.ArgumentTypeError(f"sides of at most {MAX_SIDE}, got {sides[-1]}")
    return text


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("sides", type=_sides, help="the sides of the boards: a number or a range like 8..14")
    ap.add_argument("--margin", type=int, default=3, choices=range(0, 11), metavar="K",
                    help="least distance of each square from every edge (default 3)")
    ap.add_argument("--out", type=Path, required=True, help="the folder the mask files go to (created)")
    args = ap.parse_args(argv)
    boards = [(m, n) for m, n in board_sizes(args.sides, args.sides) if (m * n) % 2 == 0]
    inner = [max(m - 2 * args.margin, 0) * max(n - 2 * args.margin, 0) for m, n in boards]
    if sum(k * k // 4 for k in inner) > MAX_PAIRS:
        ap.error(f"over {MAX_PAIRS:,} pairs: ask fewer sides or a larger margin")
    args.out.mkdir(parents=True, exist_ok=True)
    written = 0
    for m, n in boards:
        for (r1, c1), (r2, c2) in pairs(m, n, args.margin):
            board = Board(m, n, holes=[(r1, c1), (r2, c2)])
            (args.out / f"{m}x{n}-{r1}-{c1}-{r2}-{c2}.txt").write_text(board.to_mask())
            written += 1
    print(f"{written} boards written to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
