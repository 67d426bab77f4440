"""The frontier counts on a machine with one busy neighbour: wall time alone and beside it.

Each figure is the wall time of the whole command (``python -m kt_formal ...``, start-up
included) in a fresh process, the median of a few runs; "loaded" runs while another
process spins on one core (``python -c 'while True: pass'``, started here and killed
after each run). Runs alternate alone / loaded so that a change in the machine's own
load touches both. The ratio loaded / alone is what the parallel kernels' waiting costs:
a team of threads that spins at its barriers made it 10 (6x8: 2 s alone, 20 s loaded).

    python benchmarks/bench_threads.py               # about 2 minutes
    python benchmarks/bench_threads.py --runs 5
    KT_FORMAL_THREADS=1 python benchmarks/bench_threads.py
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

FIGURES = [("count 6 8", ["count", "6", "8"]),
           ("count 3 60", ["count", "3", "60"]),
           ("count --sequence 5 5..20", ["count", "--sequence", "5", "5..20"])]


def run(args) -> float:
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    t = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "kt_formal", *args, "--quiet"], capture_output=True, text=True,
                          env=env, timeout=600)
    took = time.perf_counter() - t
    if proc.returncode != 0:
        raise SystemExit(f"kt-formal {' '.join(args)} failed: {proc.stderr.strip()}")
    return took


def loaded(args) -> float:
    busy = subprocess.Popen([sys.executable, "-c", "import time\nt = time.time() + 600\nwhile time.time() < t: pass"])
    try:
        time.sleep(0.2)
        return run(args)
    finally:
        busy.kill()
        busy.wait()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3, help="runs of each figure alone and loaded (default 3)")
    runs = ap.parse_args().runs
    run(["warm"])  # compiling is not what is measured
    print(f"{'figure':28} {'alone s':>8} {'loaded s':>9} {'ratio':>6}   (median of {runs}; "
          f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at the start)")
    for name, args in FIGURES:
        alone, beside = [], []
        for _ in range(runs):
            alone.append(run(args))
            beside.append(loaded(args))
        a, b = statistics.median(alone), statistics.median(beside)
        print(f"{name:28} {a:8.2f} {b:9.2f} {b / a:6.2f}   alone {min(alone):.2f}..{max(alone):.2f}, "
              f"loaded {min(beside):.2f}..{max(beside):.2f}", flush=True)


if __name__ == "__main__":
    main()
