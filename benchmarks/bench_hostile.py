"""Benchmark: the kernel's DRUP check against proofs padded to waste its time.

Run from the repository root::

    python benchmarks/bench_hostile.py            # 10k, 100k, 1M copies (a few seconds)
    python benchmarks/bench_hostile.py --full     # and 10M copies, 1M add/delete pairs

Takes the DRUP certificate of "no closed tour of 3 x 9 minus b2" (what ``kt-formal exists
3 9 --remove b2 --cert c.json`` writes) and puts in front of its proof N copies of a
two-literal clause of the formula, or N pairs adding and deleting a clause one literal
longer, then times the kernel's :func:`kt_formal.kernel.rup.replay` (processor seconds).
A checker linear in its input takes ten times as long for ten times the copies; one that
stores and watches every copy is quadratic (100k copies took 28.8 s before the database
counted repeated clauses).
"""

from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from kt_formal.board import Board  # noqa: E402
from kt_formal.solve import run_engine  # noqa: E402
from kt_formal.kernel.rup import prepare_drup, replay  # noqa: E402
from kt_formal.question import Question  # noqa: E402


def padded(task, n: int, pairs: bool) -> bytes:
    """The proof of ``task`` after ``n`` copies of a formula clause (or add/delete pairs)."""
    two = next(c for c in task.clauses if len(c) == 2)
    if not pairs:
        return (b"a" + bytes(two) + b"\0") * n + task.raw
    other = next(x for x in range(2, 128, 2) if x not in two and x ^ 1 not in two)
    longer = bytes(two + [other])
    return (b"a" + longer + b"\0" + b"d" + longer + b"\0") * n + task.raw


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--full", action="store_true", help="also 10M copies and 1M add/delete pairs")
    args = ap.parse_args()
    cert = run_engine("sat", Question(Board(3, 9, holes=[(1, 1)]))).proof
    task = prepare_drup(cert)
    runs = [(n, False) for n in (10_000, 100_000, 1_000_000)]
    if args.full:
        runs += [(10_000_000, False), (100_000, True), (1_000_000, True)]
    print(f"{'padding':>26} {'proof bytes':>12} {'check s':>8} {'s per 1M steps':>15}")
    for n, pairs in runs:
        raw = padded(task, n, pairs)
        t = time.process_time()
        lemmas = replay(task.n_vars, task.clauses, raw)
        s = time.process_time() - t
        assert lemmas == task.n_lemmas + n
        what = f"{n:,} {'add/delete pairs' if pairs else 'copies'}"
        print(f"{what:>26} {len(raw):>12,} {s:>8.2f} {s / (n * (2 if pairs else 1)) * 1e6:>15.2f}")


if __name__ == "__main__":
    main()
