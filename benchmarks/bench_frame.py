"""Benchmark: the generalised frame construction on large holed boards, next to plain CP-SAT.

Run from the repository root::

    python benchmarks/bench_frame.py            # 10 s CP-SAT limit, boards up to 80 x 80 (under 2 minutes)
    python benchmarks/bench_frame.py --full     # 60 s limit and the whole doubling search (minutes)

Prints build and verify times of the frame construction (medians of a few runs; the
first, "cold", run also builds with CP-SAT any band piece the library lacks), then a
doubling search for the largest N x N board minus a centred hole that CP-SAT solves
within the limit, and the frame construction on that same board.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from kt_formal.board import Board  # noqa: E402
from kt_formal.certificate import check_tour  # noqa: E402
from kt_formal.combine import frame, frame_large  # noqa: E402
from kt_formal.solve import Status, find_tour  # noqa: E402


def time_frame(board: Board, repeats: int):
    frame._PATHS.clear()
    t0 = time.perf_counter()
    tour = frame_large.frame_tour(board)
    cold = time.perf_counter() - t0
    builds, checks = [], []
    for _ in range(repeats):
        t0 = time.perf_counter()
        tour = frame_large.frame_tour(board)
        builds.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        reason = check_tour(board, tour, closed=True)
        checks.append(time.perf_counter() - t0)
        assert reason is None, reason
    return cold, statistics.median(builds), statistics.median(checks), len(tour)


def centred(n: int) -> Board:
    h = max(2, (2 * n // 5) // 2 * 2)
    r = (n - h) // 2
    return Board.from_spec(n, n, [f"{r},{r},{h}x{h}"])


def cpsat(board: Board, limit: float):
    r = find_tour(board, engine="cpsat", time_limit=limit, seed=0, workers=2)
    if r.found:
        assert check_tour(board, r.tour, closed=True) is None
    return r.status, r.wall_time


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--full", action="store_true",
                    help="a 60 s CP-SAT limit and the whole doubling search (long)")
    ap.add_argument("--quick", action="store_true", help=argparse.SUPPRESS)  # the default now
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--limit", type=float, default=None, help="CP-SAT time limit (default 10 s, 60 with --full)")
    args = ap.parse_args(argv)
    args.quick = not args.full
    limit = args.limit or (10.0 if args.quick else 60.0)
    big = [(1000, 1000, ["300,300,400x400"]), (2000, 2000, ["300,1200,500x300"]),
           (2000, 2000, ["300,300,500x300", "1200,1000,400x600"])]
    if args.quick:  # the construction is fast at any size: only the CP-SAT part is cut short
        big = [(500, 500, ["150,150,200x200"]), (1000, 1000, ["150,600,250x150"]), *big[1:]]

    print("frame construction (build = frame_tour, verify = independent checker)")
    print(f"{'board':>12} {'hole':>18} {'squares':>10} {'cold s':>8} {'build s':>8} {'verify s':>9}")
    for R, C, holes in big:
        board = Board.from_spec(R, C, holes)
        cold, build, check, k = time_frame(board, args.repeats)
        print(f"{R}x{C:<7} {' + '.join(holes):>18} {k:>10} {cold:8.3f} {build:8.3f} {check:9.3f}")

    print(f"\nplain CP-SAT (2 workers, seed 0, limit {limit:g} s) on N x N minus a centred hole")
    print(f"{'N':>6} {'hole':>8} {'status':>10} {'CP-SAT s':>9} {'frame cold s':>13} "
          f"{'frame warm s':>13} {'CP-SAT/cold':>12}")
    n, best, lo_bad = 20, None, None
    largest = 400 if args.full else 80  # the default stops early: each step may take the limit
    while n <= largest:
        board = centred(n)
        status, t = cpsat(board, limit)
        line = f"{n:>6} {board.n_holes ** 0.5:>6.0f}^2 {status.value:>10} {t:9.2f}"
        try:
            cold, fb, _, _ = time_frame(board, 1)
            line += f" {cold:13.3f} {fb:13.4f}"
            if status is Status.FOUND:
                line += f" {t / cold:12.0f}"
        except frame.NotApplicable as exc:
            line += f" {'n/a':>13}  ({exc})"
        print(line, flush=True)
        if status is Status.FOUND:
            best = (n, t)
            n *= 2
        else:
            lo_bad = n
            break
    while args.full and best and lo_bad and lo_bad - best[0] > 10:  # bisect between success and failure
        mid = (best[0] + lo_bad) // 2 // 2 * 2
        board = centred(mid)
        status, t = cpsat(board, limit)
        print(f"{mid:>6} {board.n_holes ** 0.5:>6.0f}^2 {status.value:>10} {t:9.2f}", flush=True)
        if status is Status.FOUND:
            best = (mid, t)
        else:
            lo_bad = mid
    if best:
        board = centred(best[0])
        cold, warm, check, k = time_frame(board, args.repeats)
        print(f"\nlargest holed board CP-SAT solved within {limit:g} s"
              f"{'' if args.full else f' (of those tried, up to {largest}; --full searches further)'}: "
              f"{best[0]}x{best[0]} "
              f"minus a centred hole ({k} squares): CP-SAT {best[1]:.2f} s; frame construction "
              f"{cold:.3f} s cold, {warm:.4f} s warm, verify {check:.4f} s; "
              f"CP-SAT / frame cold = {best[1] / cold:.0f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
