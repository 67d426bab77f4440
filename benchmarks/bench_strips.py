"""Narrow boards: the strip construction against plain CP-SAT, side by side.

Run from the repository root::

    python benchmarks/bench_strips.py                       # n = 1e4, 1e5, 1e6, 1e7
    python benchmarks/bench_strips.py --sizes 10000 100000 --cpsat-limit 10

Part 1 times :func:`kt_formal.combine.strips.strip_construct` (build: order array from
the library pieces, pieces already loaded) and the independent checker (verify)
separately, for closed 3 x n, open 3 x n and open 4 x n, median of ``--repeat`` runs.
Boards beyond the board size limit (``Board`` refuses a side above ``MAX_SIDE``) get
the order built without a Board and no verification; the table says so.

Part 2 doubles n for plain CP-SAT (one add_circuit, 2 workers) until a solve does not
finish within ``--cpsat-limit`` seconds, and compares the largest size it solved with
the strip construction on the same board.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from kt_formal.board import MAX_SIDE, Board  # noqa: E402
from kt_formal.combine import strips  # noqa: E402
from kt_formal.solve import find_tour  # noqa: E402

KINDS = [(3, True, "closed"), (3, False, "open"), (4, False, "open")]


def _time(fn, repeat):
    times, out = [], None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), out


def strip_table(sizes, repeat):
    for name in strips.STRIP_PIECES:  # load (and verify) the pieces once, outside the timing
        strips.piece_paths(name)
    print(f"{'board':>14} {'kind':>6} {'squares':>10} {'build s':>9} {'verify s':>9} {'Msq/s build':>12}")
    for n in sizes:
        for rows, closed, kind in KINDS:
            if n > MAX_SIDE:
                t, order = _time(lambda: strips._strip_order(rows, n, closed), repeat)
                print(f"{rows:>4}x{n:<9} {kind:>6} {len(order):>10} {t:>9.3f} "
                      f"{'n/a':>9} {len(order) / t / 1e6:>12.1f}  (side > MAX_SIDE = {MAX_SIDE}: "
                      "no Board, not verified)")
                del order
                continue
            tb, tour = _time(lambda: strips.strip_construct(rows, n, closed), repeat)
            tv, reason = _time(tour.check, repeat)
            assert reason is None, reason
            print(f"{rows:>4}x{n:<9} {kind:>6} {len(tour):>10} {tb:>9.3f} {tv:>9.3f} "
                  f"{len(tour) / tb / 1e6:>12.1f}")
            del tour


def cpsat_side_by_side(limit, start, cap):
    print(f"\nplain CP-SAT (2 workers, {limit:g} s limit) vs strips on the largest board CP-SAT solved")
    print(f"{'board':>12} {'kind':>6} {'cpsat s':>9} {'strips s':>9} {'ratio':>9}")
    for rows, closed, kind in [(3, True, "closed"), (4, False, "open")]:
        n, best = start, None
        while n <= cap:
            r = find_tour(Board(rows, n), closed=closed, engine="cpsat", time_limit=limit, seed=0)
            if not r.found or r.wall_time > limit:
                break
            best = (n, r.wall_time)
            n *= 2
        if best is None:
            print(f"{rows:>4}x{start:<7} {kind:>6} CP-SAT solved nothing within {limit:g} s")
            continue
        n, tc = best
        ts, tour = _time(lambda: strips.strip_construct(rows, n, closed), 3)
        tv, reason = _time(tour.check, 3)
        assert reason is None
        print(f"{rows:>4}x{n:<7} {kind:>6} {tc:>9.3f} {ts + tv:>9.4f} {tc / (ts + tv):>8.0f}x"
              f"   (strips = build + verify; next size {2 * n} failed or passed the cap)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[10**4, 10**5, 10**6, 10**7])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--cpsat-limit", type=float, default=30.0)
    ap.add_argument("--cpsat-start", type=int, default=16)
    ap.add_argument("--cpsat-cap", type=int, default=100_000)
    ap.add_argument("--no-cpsat", action="store_true", help="skip part 2")
    args = ap.parse_args()
    strip_table(args.sizes, args.repeat)
    if not args.no_cpsat:
        cpsat_side_by_side(args.cpsat_limit, args.cpsat_start, args.cpsat_cap)


if __name__ == "__main__":
    main()
