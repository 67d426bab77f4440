"""Divide and conquer, kt_formal side by side with seed 000's C++ (../shared/peers).

For each size, a fresh process builds the tour (successor array), walks it into the
visiting order (numba) and checks it with the independent checker; its peak memory is
read with os.wait4. Seed 000's binary is built with ../shared/peers/build.sh into a
temporary folder and run on the same size (its "walk" follows the cycle and checks
every move). Ratios are kt_formal / seed000; absolute times drift, compare in one run.

    python benchmarks/bench_divide.py            # 1000, 4000, 10000 squared
    python benchmarks/bench_divide.py --huge     # also 31622 x 31624 (1e9 squares, ~12 GiB)
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def shared_dir() -> Path | None:
    for base in (ROOT.parent, ROOT.parent.parent):  # a git worktree may sit one level deeper
        if (base / "shared" / "peers" / "build.sh").exists():
            return base / "shared"
    return None


def run_measured(cmd, cwd=None, env=None):
    """Run a command; return (stdout, peak RSS in bytes) of that child."""
    proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    out_chunks = []
    # small outputs only: read after exit via communicate-like handling
    _, status, usage = os.wait4(proc.pid, 0)
    out_chunks.append(proc.stdout.read())
    err = proc.stderr.read()
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(map(str, cmd))} failed ({proc.returncode}): {err.strip()[:300]}")
    return "".join(out_chunks), usage.ru_maxrss * 1024


def child(rows: int, cols: int) -> None:
    """Time one size in this process and print JSON."""
    sys.path.insert(0, str(ROOT))
    from kt_formal.board import Board
    from kt_formal.certificate import check_tour
    from kt_formal.combine.divide import construct, construct_succ
    from kt_formal.combine.walk import walk

    construct(12, 12)  # numba compile / cache load and piece loading, not timed
    t0 = time.perf_counter()
    succ, start, closed = construct_succ(rows, cols)
    t1 = time.perf_counter()
    order = walk(succ, start, rows * cols)
    t2 = time.perf_counter()
    del succ
    reason = check_tour(Board(rows, cols), order, closed)
    t3 = time.perf_counter()
    if reason is not None:
        raise SystemExit(f"checker rejected the tour: {reason}")
    print(json.dumps({"build": t1 - t0, "walk": t2 - t1, "check": t3 - t2}))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--huge", action="store_true", help="also 31622 x 31624 (1e9 squares)")
    ap.add_argument("--sizes", type=int, nargs="*", default=[1000, 4000, 10000])
    ap.add_argument("--repeat", type=int, default=3,
                    help="fresh processes per size and program; the best time of each column is shown "
                         "(the machine is shared: first-touch page faults and other load vary)")
    ap.add_argument("--child", type=int, nargs=2, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child(*args.child)
        return
    sizes = [(n, n) for n in args.sizes] + ([(31622, 31624)] if args.huge else [])
    shared = shared_dir()
    peers = None
    if shared is None:
        print("../shared/peers not found: seed 000 columns left empty", file=sys.stderr)
    else:
        tmp = tempfile.mkdtemp(prefix="kt_peers_")
        peers = Path(subprocess.run(["bash", str(shared / "peers" / "build.sh"), tmp], check=True,
                                    capture_output=True, text=True).stdout.strip())
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    head = (f"{'board':>13} | {'kt build':>8} {'walk':>6} {'check':>6} {'b+verify':>8} {'peak GiB':>8} | "
            f"{'seed build':>10} {'walk':>6} {'b+walk':>7} {'peak GiB':>8} | {'build x':>7} {'b+v x':>6}")
    print(head)
    print("-" * len(head))
    for rows, cols in sizes:
        repeat = 1 if rows * cols > 2 * 10**8 else max(1, args.repeat)
        kt = {"build": [], "walk": [], "check": [], "total": []}
        kt_peak = 0
        seed_runs = []
        for _ in range(repeat):
            out, peak = run_measured([sys.executable, __file__, "--child", str(rows), str(cols)], env=env)
            res = json.loads(out.strip().splitlines()[-1])
            for k in ("build", "walk", "check"):
                kt[k].append(res[k])
            kt["total"].append(res["build"] + res["walk"] + res["check"])
            kt_peak = max(kt_peak, peak)
            if peers is not None and rows * cols <= 2**31 - 1:
                try:
                    sout, seed_peak = run_measured(["./seed000_dc", str(rows), str(cols)], cwd=peers)
                    b = float(re.search(r"build_ms=([\d.]+)", sout).group(1)) / 1000
                    w = float(re.search(r"walk_ms=([\d.]+)", sout).group(1)) / 1000
                    seed_runs.append((b, w, b + w, seed_peak))
                except (RuntimeError, AttributeError) as exc:
                    print(f"seed000 {rows}x{cols}: {exc}", file=sys.stderr)
        kt = {k: min(v) for k, v in kt.items()}
        kt_total = kt["total"]
        seed = None
        if seed_runs:
            seed = (min(r[0] for r in seed_runs), min(r[1] for r in seed_runs),
                    max(r[3] for r in seed_runs), min(r[2] for r in seed_runs))
        line = (f"{f'{rows}x{cols}':>13} | {kt['build']:8.3f} {kt['walk']:6.3f} {kt['check']:6.3f} "
                f"{kt_total:8.3f} {kt_peak / 2**30:8.2f} | ")
        if seed:
            b, w, sp, bw = seed
            line += (f"{b:10.3f} {w:6.3f} {bw:7.3f} {sp / 2**30:8.2f} | "
                     f"{kt['build'] / b:7.2f} {kt_total / bw:6.2f}")
        else:
            line += f"{'-':>10} {'-':>6} {'-':>7} {'-':>8} | {'-':>7} {'-':>6}"
        print(line, flush=True)
    print(f"best of {args.repeat} fresh processes per size (1 above 2e8 squares); "
          "times in seconds; kt b+verify = build + numba walk + independent check_tour; "
          "seed b+walk = its build + its checking walk; x = kt_formal / seed000")


if __name__ == "__main__":
    main()
