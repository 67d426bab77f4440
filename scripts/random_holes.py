"""Write a mask file of a board with single holes placed uniformly at random, half of each colour.

Run from the repository root::

    python scripts/random_holes.py 2000 2000 4000 --seed 0 --out board.txt
    kt-formal tour --mask board.txt --time-limit 600

The holes are :func:`kt_formal.combine.hole_masks.scattered_squares` with no margin: every
square is equally likely, the only rule being as many dark as light holes (else the
colour count alone rules out a closed tour). The same seed gives the same board; the
file is the ASCII mask ``--mask`` reads (``.`` a square, ``#`` a hole, one line a row).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402

from kt_formal.combine.hole_masks import scattered_squares  # noqa: E402

#: Largest board written (the mask reader takes files up to 64 MiB).
MAX_SQUARES = 60_000_000


def mask_text(holes: np.ndarray) -> str:
    """The ASCII mask of a hole mask (``#`` on the holes)."""
    cols = holes.shape[1]
    grid = np.where(holes, ord("#"), ord(".")).astype(np.uint8)
    lines = np.concatenate([grid, np.full((holes.shape[0], 1), ord("\n"), dtype=np.uint8)], axis=1)
    return lines.tobytes().decode("ascii") if cols else ""


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("rows", type=int)
    ap.add_argument("cols", type=int)
    ap.add_argument("count", type=int, help="number of holes (even: half dark, half light)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", help="file to write (default: standard output)")
    args = ap.parse_args(argv)
    m, n, k = args.rows, args.cols, args.count
    if m < 1 or n < 1 or m * n > MAX_SQUARES:
        print(f"random_holes: a board of {m}x{n} is not between 1 and {MAX_SQUARES:,} squares",
              file=sys.stderr)
        return 2
    dark = (m * n) // 2  # squares with (row + col) odd
    if k < 0 or k % 2 or k // 2 > min(dark, m * n - dark) or k >= m * n:
        print(f"random_holes: {k} holes (half of each colour) do not fit a {m}x{n} board",
              file=sys.stderr)
        return 2
    text = mask_text(scattered_squares(m, n, k, seed=args.seed, margin=0))
    if args.out:
        Path(args.out).write_text(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
