"""Benchmark: existence verdicts per second, and the size of Posa's proof for 4 x n.

Run from the repository root::

    python benchmarks/bench_exists.py            # rectangles up to 20 x 20 (under 2 minutes)
    python benchmarks/bench_exists.py --full     # all rectangles up to 30 x 30 (long)

Prints, for closed and open tours, how many verdicts were reached by a proof and
how many by a tour search, with the verdicts per second of each route; then the
proof size (JSON bytes, squares listed) and the find / re-check times of the
alternation proof for 4 x n.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from kt_formal.board import Board  # noqa: E402
from kt_formal.api import decide  # noqa: E402
from kt_formal.proofs import check_proof, find_proof  # noqa: E402
from kt_formal.question import Question  # noqa: E402


def sweep(max_side: int, time_limit: float) -> None:
    print(f"verdicts on every m x n board, 1 <= m <= n <= {max_side}")
    print(f"{'tour':<7}{'route':<10}{'boards':>8}{'seconds':>10}{'verdicts/s':>12}{'slowest':>16}")
    for closed in (True, False):
        rows = {}
        for m in range(1, max_side + 1):
            for n in range(m, max_side + 1):
                t = time.perf_counter()
                v = decide(Board(m, n), closed=closed, time_limit=time_limit)
                t = time.perf_counter() - t
                kind = "proof" if v.answer == "no" else ("search" if v.answer == "yes" else "unknown")
                cnt, tot, worst = rows.get(kind, (0, 0.0, (0.0, "")))
                rows[kind] = (cnt + 1, tot + t, max(worst, (t, f"{m}x{n}")))
        total_n = sum(r[0] for r in rows.values())
        total_t = sum(r[1] for r in rows.values())
        label = "closed" if closed else "open"
        for kind, (cnt, tot, worst) in sorted(rows.items()):
            print(f"{label:<7}{kind:<10}{cnt:>8}{tot:>10.2f}{cnt / tot:>12.1f}"
                  f"{worst[1]:>9} {worst[0]:5.2f}s")
        print(f"{label:<7}{'all':<10}{total_n:>8}{total_t:>10.2f}{total_n / total_t:>12.1f}")


def posa(sizes) -> None:
    print("\nPosa's alternation proof for the 4 x n board (closed tours)")
    print(f"{'n':>7}{'squares listed':>16}{'JSON bytes':>12}{'bytes/n':>9}{'find s':>9}{'check s':>9}")
    for n in sizes:
        b = Board(4, n)
        t = time.perf_counter()
        p = find_proof(Question(b, closed=True))
        t_find = time.perf_counter() - t
        t = time.perf_counter()
        check_proof(p)
        t_check = time.perf_counter() - t
        size = len(json.dumps(p, separators=(",", ":")))
        print(f"{n:>7}{len(p['independent']):>16}{size:>12}{size / n:>9.1f}{t_find:>9.4f}{t_check:>9.4f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--max", type=int, default=None, help="largest side (default 20, 30 with --full)")
    ap.add_argument("--full", action="store_true", help="every rectangle up to 30 x 30 (long)")
    ap.add_argument("--time-limit", type=float, default=60.0)
    args = ap.parse_args()
    posa([10, 100, 1000, 10000])
    print()
    sweep(args.max or (30 if args.full else 20), args.time_limit)


if __name__ == "__main__":
    main()
