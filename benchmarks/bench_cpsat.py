"""CP-SAT closed-tour wall time by board size, and the cold start of ``kt-formal tour 8 8``.

Run from the repository root::

    python benchmarks/bench_cpsat.py            # 8x8, 16x16, 30x30, 50x50
    python benchmarks/bench_cpsat.py --sizes 8 16 30 50 100 --repeat 3

Each size is solved ``--repeat`` times with seeds 0, 1, ... (2 workers); the table shows
the median wall time of the engine (model building + solving + verification) and the
solver's own wall time. The cold start runs ``python -m kt_formal tour 8 8`` as a fresh
process (the pipeline answers it with its fast first attempt, no solver loaded), then
the same with ``--engine cpsat``, and reports the median wall times.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from kt_formal.board import Board  # noqa: E402
from kt_formal.solve import find_tour  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[8, 16, 30, 50])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()

    print(f"{'board':>9} {'status':>8} {'engine s':>9} {'solver s':>9} {'arcs':>7}")
    for n in args.sizes:
        walls, solver = [], []
        status = "?"
        arcs = 0
        for seed in range(args.repeat):
            r = find_tour(Board(n, n), engine="cpsat", seed=seed, workers=args.workers, time_limit=300)
            status = r.status.value
            walls.append(r.wall_time)
            solver.append(r.stats.get("solver_wall_time", float("nan")))
            arcs = r.stats.get("arcs", 0)
            if r.found:
                assert r.tour.check() is None
        print(f"{n:>4}x{n:<4} {status:>8} {statistics.median(walls):>9.3f} "
              f"{statistics.median(solver):>9.3f} {arcs:>7}")

    env = dict(os.environ, PYTHONPATH=str(ROOT))
    for extra, target in (((), 0.3), (("--engine", "cpsat"), 2.0)):
        times = []
        for _ in range(max(3, args.repeat)):
            t0 = time.perf_counter()
            subprocess.run([sys.executable, "-m", "kt_formal", "tour", "8", "8", *extra], env=env,
                           check=True, capture_output=True)
            times.append(time.perf_counter() - t0)
        label = " ".join(("kt-formal tour 8 8", *extra))
        print(f"{'' if extra else chr(10)}cold start '{label}': median {statistics.median(times):.2f} s wall "
              f"(min {min(times):.2f}, max {max(times):.2f}; target < {target:g} s)")

if __name__ == "__main__":
    main()
