"""Census speed: families of boards answered, stored and re-checked on 2 cores.

    python benchmarks/bench_census.py            # 35 s to 1.5 min on 2 shared cores
    python benchmarks/bench_census.py --full     # adds every 6x6 hole position in 30x30

1. every single-square removal of every m x n, 3 <= m <= n <= 10, closed and open (the issue's
   3,084 questions: sum of 2 m n over 3 <= m <= n <= 10 = 2 x 1,542), local pool of 2 processes;
   target < 60 s and 0 unknown;
2. the same family on a Dask LocalCluster with 2 worker processes: the table (question, answer,
   proof method) must be identical;
3. 100,000 trivial questions (closed tours of 20x20 minus 3 random squares: 397 squares, an odd
   number, so a colour proof each): end-to-end rows/s, and the store alone (rows/s of writes);
   target > 2,000 rows/s;
4. (--full, or --hole to force) every position of a 6x6 hole in 30x30, closed tours: 625
   questions; target < 5 min and 0 unknown.

Timings on a shared machine are noisy; the ratios printed side by side come from one run.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from kt_formal.survey import families  # noqa: E402
from kt_formal.survey.report import census_table  # noqa: E402
from kt_formal.survey.runners import run_census  # noqa: E402
from kt_formal.survey.store import Store  # noqa: E402


def single_square_family():
    qs = []
    for m, n in families.board_sizes("3..10", "3..10"):
        for closed in (True, False):
            qs += families.remove_squares(m, n, 1, closed)
    return qs


def census(path, qs, **kw):
    with Store.open(path) as s:
        run = run_census(qs, s, **kw)
        table = census_table(s)
    unknown = sum(1 for r in table if r[6] == "unknown")
    return run, table, unknown


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--full", action="store_true", help="also the 6x6 hole in 30x30 (minutes)")
    ap.add_argument("--hole", action="store_true", help="only add the 6x6 hole in 30x30")
    ap.add_argument("--no-dask", action="store_true")
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args(argv)
    tmp = Path(tempfile.mkdtemp(prefix="bench_census_"))
    w = args.workers
    ok = True

    qs = single_square_family()
    print(f"1. single-square removals, 3 <= m <= n <= 10, closed + open: {len(qs):,} questions "
          f"({'matches' if len(qs) == 3084 else 'DIFFERS FROM'} the issue's 3,084), "
          f"{len(families.group_by_symmetry(qs)):,} up to symmetry")
    run, table, unknown = census(tmp / "one.sqlite", qs, time_limit=10.0, workers=w)
    print(f"   local pool, {w} processes: {run.seconds:6.1f} s, {run.written / run.seconds:7.0f} rows/s, "
          f"{unknown} unknown   (target < 60 s, 0 unknown)")
    ok &= unknown == 0 and run.seconds < 60

    if not args.no_dask:
        run_d, table_d, unknown_d = census(tmp / "one_dask.sqlite", qs, time_limit=10.0, workers=w, dask="local")
        same = table_d == table
        print(f"2. Dask LocalCluster, {w} worker processes: {run_d.seconds:6.1f} s "
              f"({run_d.seconds / run.seconds:.2f}x the pool), {unknown_d} unknown; "
              f"table {'IDENTICAL to' if same else 'DIFFERS FROM'} the pool's")
        ok &= same

    t0 = time.perf_counter()
    trivial = list(families.random_holes(20, 20, 3, 100_000, seed=1, closed=True))
    gen = time.perf_counter() - t0
    run_t, table_t, unknown_t = census(tmp / "trivial.sqlite", trivial, time_limit=10.0, workers=w)
    rate = run_t.written / run_t.seconds
    print(f"3. {len(trivial):,} colour-odd questions (generated in {gen:.1f} s, "
          f"{run_t.orbits:,} orbits): {run_t.seconds:6.1f} s end to end, {rate:7.0f} rows/s "
          "(solve + check + store; target > 2,000)")
    rows = [(*q, "no", '{"kind":"proof"}', 0.0, "bench") for q in trivial]
    path = tmp / "writes.sqlite"
    t0 = time.perf_counter()
    with Store.open(path) as s:
        for i in range(0, len(rows), 500):  # as results arrive: batches, commits every 0.2 s
            s.add(rows[i:i + 500])
    store_rate = len(rows) / (time.perf_counter() - t0)
    print(f"   the store alone: {store_rate:9.0f} rows/s of writes ({store_rate / rate:.1f}x end to end)")
    ok &= rate > 2000

    if args.full or args.hole:
        holes = list(families.hole_positions(30, 30, 6, 6, closed=True))
        run_h, _, unknown_h = census(tmp / "hole.sqlite", holes, time_limit=60.0, workers=w)
        print(f"4. every 6x6 hole position in 30x30, closed: {len(holes)} questions "
              f"({run_h.orbits} orbits): {run_h.seconds:6.1f} s, {unknown_h} unknown "
              "(target < 300 s, 0 unknown)")
        ok &= unknown_h == 0 and run_h.seconds < 300
    else:
        print("4. the 6x6 hole in 30x30: run with --full")
    for p in tmp.iterdir():
        p.unlink()
    os.rmdir(tmp)
    print("all targets met" if ok else "SOME TARGETS MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
