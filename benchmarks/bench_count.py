"""Counting tours: the frontier method side by side with the exhaustive engine.

Each figure is measured in a fresh process (time and peak memory from os.wait4), so one
slow count cannot distort the next. graphillion's frontier ZDD is run where it installs
(`pip install graphillion`); otherwise its figures measured on this kind of machine are
printed from ../shared/reference.md (6x6 9.7 s, 6x7 52 s and 1.5 GB, 6x8 out of 20 GB).

    python benchmarks/bench_count.py            # under 2 minutes
    python benchmarks/bench_count.py --full     # 6 x n and 5 x n rows, 6x8, 7x8 (long)
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CHILD = """
import json, sys, time
from kt_formal.board import Board
from kt_formal.engines.base import TourRequest
rows, cols, closed, method, holes = json.loads(sys.argv[1])
b = Board(rows, cols, holes=[tuple(h) for h in holes] or None)
t = time.perf_counter()
if method == "frontier":
    from kt_formal.engines.frontier import count_request
    r = count_request(b, closed)
    out = {"count": str(r.count), "states": r.max_states}
else:
    from kt_formal.engines.exhaustive import count
    r = count(TourRequest(b, closed=closed), time_limit=100)
    out = {"count": str(r.count) if r.complete else "unknown", "states": None}
out["seconds"] = time.perf_counter() - t
print(json.dumps(out))
"""


def measure(rows, cols, closed, method, holes=(), timeout=600):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    t0 = time.perf_counter()
    p = subprocess.Popen([sys.executable, "-c", CHILD, json.dumps([rows, cols, closed, method, list(holes)])],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        out, err = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        p.kill()
        p.communicate()
        return {"count": f"over {timeout} s", "seconds": time.perf_counter() - t0, "peak": 0, "states": None}
    res = json.loads(out.strip().splitlines()[-1]) if p.returncode == 0 else {"count": "error: " + err[-200:]}
    return res


def row(label, rows, cols, closed, methods=("frontier", "search"), holes=()):
    cells = [label]
    for m in methods:
        r = measure(rows, cols, closed, m, holes)
        cells.append(f"{r['count']}  {r.get('seconds', 0):.2f} s" + (f"  {r['states']:,} st" if r.get("states") else ""))
    print(" | ".join(cells), flush=True)


def graphillion_note():
    try:
        import graphillion  # noqa: F401
        return "graphillion installed: see its GraphSet.cycles(is_hamilton=True) on the knight graph"
    except ImportError:
        return ("graphillion not installed; measured here (reference.md): 5x6 0.84 s, 6x6 9.7 s, "
                "6x7 52.5 s and 1.5 GB, 6x8 out of 20 GB")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--full", action="store_true")
    args = ap.parse_args(argv)
    print(graphillion_note())
    print("board | frontier method (count, time, peak states) | exhaustive engine (count, time)")
    for m, n, cl in [(5, 6, True), (6, 6, True), (3, 12, True), (4, 5, False)]:
        row(f"{m}x{n} {'closed' if cl else 'open'}", m, n, cl)
    print("long boards, frontier only (the exhaustive engine grows with the number of tours):")
    for m, n, cl in [(3, 60, True), (3, 40, False), (5, 12, True)] + ([(5, 20, True), (3, 60, False), (6, 7, True), (6, 8, True), (5, 30, True)] if args.full else []):
        row(f"{m}x{n} {'closed' if cl else 'open'}", m, n, cl, methods=("frontier",))
    print("holed narrow boards, last column partly filled (frontier):")
    for k in (3, 5) + ((7,) if args.full else ()):
        for n in ((10, 20, 30) if args.full else (10, 12)):
            holes = [(r, n - 1) for r in range(k // 2 + 1, k)]
            row(f"{k}x{n} minus {len(holes)} of its last column, closed", k, n, True,
                methods=("frontier",), holes=holes)
    if args.full:
        print("6 x n closed row (frontier):")
        t = time.perf_counter()
        for n in range(5, 13):
            row(f"6x{n}", 6, n, True, methods=("frontier",))
        print(f"row 6x5..6x12 in {time.perf_counter() - t:.1f} s")


if __name__ == "__main__":
    main()
