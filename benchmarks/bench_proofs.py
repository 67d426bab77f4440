"""Benchmark: certified "no" answers, cheap proofs or the SAT route with a DRUP proof.

Run from the repository root::

    python benchmarks/bench_proofs.py           # closed tours, m x n minus one square, 3..10 (< 2 min)
    python benchmarks/bench_proofs.py --full    # open tours too, and 4 x n up to the 60 s limit

Prints

1. for every single-square removal of an m x n board, 3 <= m <= n <= 10: how many "no"
   answers a cheap proof (:func:`kt_formal.proofs.find_proof`) certifies, how many the SAT
   route (:mod:`kt_formal.engines.sat`, checked by :mod:`kt_formal.kernel.rup`), the total
   time to find and check them, the proof sizes (median, max) and the ratio of the
   kernel's check time to the solver's time (CaDiCaL's cut loop plus the run with proof
   logging) per board, median and max;
2. the 4 x 6 proof checked by the kernel, by the compiled replay
   (:mod:`rupfast`) and by the ``drup`` package, side by side;
3. the largest 4 x n board (closed tours) whose "no" the SAT route certifies, found and
   checked, within 60 s (the cheap alternation proof is not used here).
"""

from __future__ import annotations

import argparse
from pathlib import Path
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from kt_formal.board import Board  # noqa: E402
from kt_formal.solve import run_engine  # noqa: E402
from kt_formal.question import Status, Question  # noqa: E402
from kt_formal.claims import check_drup_certificate  # noqa: E402
from kt_formal.proofs import check_proof, find_proof  # noqa: E402


def removals(lo: int, hi: int):
    for m in range(lo, hi + 1):
        for n in range(m, hi + 1):
            for r in range(m):
                for c in range(n):
                    yield Board(m, n, holes=[(r, c)])


def sweep(closed: bool, hi: int, time_limit: float) -> None:
    kind = "closed" if closed else "open"
    print(f"\n{kind} tours on m x n minus one square, 3 <= m <= n <= {hi}")
    t_all = time.perf_counter()
    cheap = cheap_t = 0
    drup_no = []  # (board, find s, check s, solver s, bytes, lemmas)
    yes = unknown = 0
    yes_t = 0.0
    for b in removals(3, hi):
        t = time.perf_counter()
        p = find_proof(Question(b, closed=closed))
        if p is not None:
            check_proof(p)
            cheap += 1
            cheap_t += time.perf_counter() - t
            continue
        r = run_engine("sat", Question(b, closed=closed), time_limit=time_limit)
        t_find = time.perf_counter() - t
        if r.status is Status.FOUND:
            yes += 1
            yes_t += t_find
            continue
        if r.status is Status.UNKNOWN:
            unknown += 1
            print(f"  unknown: {b.describe()} {b.holes()} ({r.message})")
            continue
        t = time.perf_counter()
        check_drup_certificate(r.proof)
        t_check = time.perf_counter() - t
        solver = r.stats["search_seconds"] + r.stats["proof_seconds"]
        drup_no.append((b, t_find, t_check, solver, r.proof["proof"]["size"], r.proof["proof"]["lemmas"]))
    total = time.perf_counter() - t_all
    print(f"  cheap proofs: {cheap} boards, found + checked in {cheap_t:.2f} s")
    print(f"  SAT route   : {len(drup_no)} 'no' boards, found {sum(x[1] for x in drup_no):.2f} s "
          f"+ checked {sum(x[2] for x in drup_no):.2f} s")
    if drup_no:
        sizes = [x[4] for x in drup_no]
        ratios = [x[2] / max(x[3], 1e-4) for x in drup_no]
        worst = max(drup_no, key=lambda x: x[2] / max(x[3], 1e-4))
        big = max(drup_no, key=lambda x: x[4])
        print(f"  proof sizes : median {statistics.median(sizes):,.0f} B, max {max(sizes):,} B "
              f"({big[0].describe()} {big[0].holes()}, {big[5]} lemmas)")
        print(f"  check / solver time per board: median {statistics.median(ratios):.2f}x, "
              f"max {max(ratios):.2f}x ({worst[0].describe()} {worst[0].holes()}: "
              f"check {worst[2] * 1e3:.1f} ms, solver {worst[3] * 1e3:.1f} ms)")
        print(f"  summed check / summed solver time: "
              f"{sum(x[2] for x in drup_no) / max(sum(x[3] for x in drup_no), 1e-4):.2f}x")
    print(f"  tours found by the SAT route: {yes} boards in {yes_t:.2f} s; unknown: {unknown}")
    print(f"  total (every 'no' certified and checked, plus the searches): {total:.2f} s")


def side_by_side() -> None:
    import drup

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # a test-only checker
    from rupfast import check_drup_certificate_fast
    from kt_formal.kernel.rup import decode_proof, prepare_drup

    print("\nthe 4 x 6 board, closed tours: one DRUP certificate, three checkers")
    r = run_engine("sat", Question(Board(4, 6)))
    cert = r.proof
    print(f"  proof: {cert['proof']['lemmas']} lemmas, {cert['proof']['size']} B binary DRAT, "
          f"{len(cert['cuts'])} cuts; solver {(r.stats['search_seconds'] + r.stats['proof_seconds']) * 1e3:.1f} ms, "
          f"trim {r.stats['trim_seconds'] * 1e3:.1f} ms")
    check_drup_certificate_fast(cert)  # compile once
    rows = []
    for name, fn in (("kernel (pure Python)", check_drup_certificate),
                     ("rupfast (numba)", check_drup_certificate_fast)):
        t = time.perf_counter()
        fn(cert)
        rows.append((name, time.perf_counter() - t))
    task = prepare_drup(cert)
    dec = lambda c: [-(x >> 1) if x & 1 else x >> 1 for x in c]  # noqa: E731
    formula = [dec(c) for c in task.clauses]
    lemmas = [dec(lits) for add, lits in decode_proof(task.raw, task.n_vars) if add]
    t = time.perf_counter()
    outcome = drup.check_proof(formula, lemmas).outcome
    rows.append((f"drup package ({outcome.name})", time.perf_counter() - t))
    base = rows[0][1]
    for name, s in rows:
        print(f"  {name:<24}{s * 1e3:9.2f} ms  {s / base:7.2f}x the kernel")


def largest_4xn(limit: float, n_max: int) -> None:
    print(f"\nlargest 4 x n (closed) certified by the SAT route within {limit:g} s (find + check)")
    print(f"{'n':>5}{'find s':>9}{'check s':>9}{'cuts':>7}{'lemmas':>9}{'bytes':>10}")
    best = None
    n = 6
    while n <= n_max:
        t = time.perf_counter()
        r = run_engine("sat", Question(Board(4, n)), time_limit=limit)
        t_find = time.perf_counter() - t
        if r.status is not Status.IMPOSSIBLE:
            print(f"{n:>5}{t_find:>9.2f}  {r.status.value}: {r.message}")
            break
        t = time.perf_counter()
        check_drup_certificate(r.proof)
        t_check = time.perf_counter() - t
        p = r.proof["proof"]
        print(f"{n:>5}{t_find:>9.2f}{t_check:>9.2f}{len(r.proof['cuts']):>7}{p['lemmas']:>9}{p['size']:>10,}")
        if t_find + t_check > limit:
            break
        best = n
        n = n + 2 if n < 12 else int(n * 1.25) // 2 * 2
    print(f"  largest: 4 x {best}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--full", action="store_true", help="open tours too; 4 x n up to the 60 s limit")
    ap.add_argument("--max", type=int, default=10, help="largest side of the sweep (default 10)")
    args = ap.parse_args()
    t0 = time.perf_counter()
    sweep(True, args.max, 60.0)
    if args.full:
        sweep(False, args.max, 60.0)
    side_by_side()
    largest_4xn(60.0 if args.full else 15.0, 400 if args.full else 40)
    print(f"\nbenchmark total {time.perf_counter() - t0:.1f} s")


if __name__ == "__main__":
    main()
