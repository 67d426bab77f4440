"""Benchmark: the margin-three construction against the block construction, on boards with one small hole.

Run from the repository root::

    python benchmarks/bench_margin.py           # boards 250 .. 2000 (under 2 minutes)
    python benchmarks/bench_margin.py --full    # and 4000 x 4000

For each board: the build and kernel-check times of the margin-three construction (median
of three, after a warm-up on a small board), CPU seconds and wall seconds, and the block
construction (a CP-SAT group around the hole) on the same board, with the ratio.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from kt_formal.board import Board  # noqa: E402
from kt_formal.combine.blocks import block_tour  # noqa: E402
from kt_formal.combine.margin import margin_tour  # noqa: E402


def timed(fn, board: Board, repeats: int) -> tuple[float, float]:
    """Median (CPU, wall) seconds of building and checking a tour of ``board``."""
    cpu, wall = [], []
    for _ in range(repeats):
        c, w = time.process_time(), time.perf_counter()
        tour = fn(board)
        assert tour.check() is None and tour.closed
        cpu.append(time.process_time() - c)
        wall.append(time.perf_counter() - w)
    return statistics.median(cpu), statistics.median(wall)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--full", action="store_true", help="also 4000 x 4000")
    args = ap.parse_args(argv)
    sizes = [250, 500, 1000, 2000] + ([4000] if args.full else [])
    margin_tour(Board.from_spec(20, 20, ["5,5,2x2"]))  # warm-up: the compiled walk, a piece
    block_tour(Board.from_spec(60, 60, ["20,20,2x3"]))
    print(f"{'board':>14} {'hole':>10} | {'margin CPU':>10} {'wall':>7} | {'blocks CPU':>10} {'wall':>7} | ratio (CPU)")
    for n in sizes:
        board = Board.from_spec(n, n + 1, [f"{n // 3},{n // 2},2x3"])
        mc, mw = timed(margin_tour, board, 3)
        bc, bw = timed(block_tour, board, 1)
        print(f"{n:>6}x{n + 1:<7} {'2x3':>10} | {mc:>9.3f}s {mw:>6.2f}s | {bc:>9.3f}s {bw:>6.2f}s | {bc / max(mc, 1e-9):.0f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
