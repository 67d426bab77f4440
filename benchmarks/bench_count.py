"""Counting tours: the compiled frontier counter beside the pure-Python one and the exhaustive engine.

Each figure is measured in a fresh process: its time is the count's own (from the call to
its answer), with the compiled counter's loading of its kernel from numba's disk cache
("load", the first call's share, about 0.3 s) shown apart; its peak memory is the
process's maximum resident size (getrusage). graphillion's frontier ZDD
is run where it installs (`pip install graphillion`); otherwise its figures measured on
this kind of machine are printed from ../shared/reference.md (6x6 9.7 s, 6x7 52 s and
1.5 GB, 6x8 out of 20 GB).

    python benchmarks/bench_count.py            # under 2 minutes
    python benchmarks/bench_count.py --full     # + 6x7 in Python, the 5 x n open and 6 x n
                                                #   closed rows, the 7 x n boards with their
                                                #   last column partly filled to n = 30
                                                #   (about 9 min) and 7x8
    python benchmarks/bench_count.py --eight    # 8x8 closed (McKay's count): about 7
                                                #   minutes and 22 GB on an idle machine
    python benchmarks/bench_count.py --open     # open tours: 6x6, 5x10, 6x8 (directed and
                                                #   undirected), the fullest step beside the
                                                #   closed count of the same board
    python benchmarks/bench_count.py --dask     # the Dask counter on a LocalCluster of 2
                                                #   workers beside the single-machine one
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
import json, resource, sys, threading, time
if __name__ != "__main__":
    raise SystemExit  # a Dask worker process re-importing the main module: nothing to do
from kt_formal.board import Board
from kt_formal.question import Question
from kt_formal.question import Question
from kt_formal.exceptions import LimitReached, ResourceLimit
spec = json.loads(sys.argv[1])
method, closed, limit = spec["method"], spec["closed"], spec["limit"]
out = {"states": None, "load": None}
anon = [0]  # the largest resident anonymous memory seen (files mapped by a spilling count aside)
def watch():
    while True:
        try:
            with open("/proc/self/status") as f:
                for line in f:
                    if line.startswith("RssAnon:"):
                        anon[0] = max(anon[0], int(line.split()[1]) / 1024)
        except OSError:
            return
        time.sleep(0.5)
threading.Thread(target=watch, daemon=True).start()
if method in ("jit", "row", "partial"):  # load the compiled kernel from numba's disk cache first
    from kt_formal.counting.frontier_jit import count_request_jit
    t = time.perf_counter()
    count_request_jit(Question(Board(3, 4), False))
    out["load"] = time.perf_counter() - t
t = time.perf_counter()
try:
    if method == "row":
        from kt_formal.counting.frontier_jit import count_row
        row = count_row(spec["k"], spec["a"], spec["b"], closed, time_limit=limit)
        out["count"] = str(row[spec["b"]])
        out["largest"] = str(max(row.values()))
    elif method == "partial":
        from kt_formal.counting.frontier_jit import count_row
        row = count_row(spec["k"], spec["a"], spec["b"], closed, time_limit=limit, partial=True)
        out["count"] = f"{len(row)} boards, {sum(1 for v in row.values() if v)} with tours"
        out["largest"] = str(max(row.values()))
        out["last"] = [str(row[(spec["b"], j)]) for j in range(1, spec["k"] + 1)]
    else:
        b = Board(spec["rows"], spec["cols"], holes=[tuple(h) for h in spec["holes"]] or None)
        if method == "python":
            from kt_formal.counting.frontier import count_request
            r = count_request(Question(b, closed), time_limit=limit)
            out.update(count=str(r.count), states=r.max_states)
        elif method == "jit":
            from kt_formal.counting.frontier_jit import count_request_jit
            if spec.get("spill"):  # steps past memory run in passes, their states in files
                import tempfile
                r = count_request_jit(Question(b, closed), time_limit=limit, max_states=10**10,
                                      spill_dir=tempfile.gettempdir())
            else:
                r = count_request_jit(Question(b, closed), time_limit=limit)
            out.update(count=str(r.count), states=r.max_states, passes=r.passes, spilled=r.spilled)
            if r.directed is not None:
                out["count"] += f" ({r.directed} directed)"
        elif method == "dask":
            from kt_formal.counting.frontier_dask import DaskCluster, count_request_dask
            with DaskCluster("local", 2) as cl:
                w = time.perf_counter()
                count_request_dask(Question(Board(3, 4), closed), parts=2, cluster=cl)  # the workers load the kernels
                out["load"] = time.perf_counter() - w
                t = time.perf_counter()
                r = count_request_dask(Question(b, closed), parts=2, cluster=cl, time_limit=limit)
                out.update(count=str(r.count), states=r.max_states, steps=len(r.states_per_column))
        else:
            from kt_formal.counting.exhaustive import count
            from kt_formal.question import Limits
            r = count(Question(b, closed=closed), Limits(limit))
            out["count"] = str(r.count) if r.complete else "unknown"
except (LimitReached, ResourceLimit) as exc:
    out["count"] = "stopped: " + str(exc)
out["seconds"] = time.perf_counter() - t
out["peak_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
out["anon_mb"] = anon[0]
print(json.dumps(out))
"""

LARGEST = [0, ""]


def measure(spec, timeout=900):
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    p = subprocess.Popen([sys.executable, "-c", CHILD, json.dumps(spec)],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        out, err = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        p.kill()
        p.communicate()
        return {"count": f"over {timeout} s", "seconds": timeout, "peak_mb": 0, "states": None}
    if p.returncode != 0:
        return {"count": "error: " + err.strip()[-200:], "seconds": 0, "peak_mb": 0, "states": None}
    res = json.loads(out.strip().splitlines()[-1])
    for text in (res.get("count", ""), res.get("largest", "")):
        if text.isdigit() and int(text) > LARGEST[0]:
            LARGEST[0] = int(text)
            LARGEST[1] = spec.get("label", "")
    return res


def cell(r) -> str:
    text = f"{r['count']}  {r['seconds']:.2f} s"
    if r.get("load") is not None:
        text += f" (+{r['load']:.2f} s load)"
    text += f"  {r['peak_mb']:.0f} MB"
    if r.get("states"):
        text += f"  {r['states']:,} st"
    if r.get("spilled"):
        passes = f"{r['passes']} pass" + ("es" if r["passes"] > 1 else "")
        text += (f"  (largest step in {passes}, {r['spilled']:,} states in files; "
                 f"at most {r['anon_mb'] / 1024:.1f} GB of it in memory, the rest the files' pages)")
    return text


def board_row(label, rows, cols, closed, methods, holes=(), limit=100.0, spill=False):
    cells = [label]
    for m in methods:
        r = measure({"method": m, "rows": rows, "cols": cols, "closed": closed, "holes": list(holes),
                     "limit": limit, "label": label, "spill": spill}, timeout=max(900, limit + 300))
        cells.append(cell(r))
    print(" | ".join(cells), flush=True)


def sweep_row(k, a, b, closed, limit=600.0):
    label = f"{k}x{a}..{k}x{b} {'closed' if closed else 'open'}"
    r = measure({"method": "row", "k": k, "a": a, "b": b, "closed": closed, "limit": limit, "label": label})
    print(f"{label} | one sweep: {k}x{b} = {cell(r)}", flush=True)


def partial_row(k, b, closed=True, limit=900.0):
    """Every k x n board, n = 3..b, with the first j squares of its last column (j = 1..k),
    in one sweep over k x b: how many, the time, and the k x b boards' counts by j."""
    label = f"{k}x3..{k}x{b}, last column j of {k} squares, {'closed' if closed else 'open'}"
    r = measure({"method": "partial", "k": k, "a": 3, "b": b, "closed": closed, "limit": limit, "label": label})
    print(f"{label} | {cell(r)}", flush=True)
    for j, c in enumerate(r.get("last", []), 1):
        print(f"    {k}x{b} with {j} of its last column: {c}", flush=True)


def graphillion_note():
    try:
        import graphillion  # noqa: F401
        return "graphillion installed: see its GraphSet.cycles(is_hamilton=True) on the knight graph"
    except ImportError:
        return ("graphillion not installed; measured here (reference.md): 5x6 0.84 s, 6x6 9.7 s, "
                "6x7 52.5 s and 1.5 GB, 6x8 out of 20 GB")


def open_and_dask(args):
    if args.open:
        print("open tours | compiled frontier, open | the same board's closed tours (fullest step beside)")
        for m, n in [(5, 6), (6, 6), (5, 8), (5, 10), (6, 8)]:
            board_row(f"{m}x{n} open", m, n, False, ("jit",), limit=900.0)
            board_row(f"{m}x{n} closed", m, n, True, ("jit",), limit=900.0)
    if args.dask:
        print("Dask LocalCluster of 2 workers (processes) | single machine; overhead = time difference / steps")
        for m, n, cl in [(5, 6, True), (6, 6, True), (5, 8, False), (6, 7, True)]:
            label = f"{m}x{n} {'closed' if cl else 'open'}"
            rd = measure({"method": "dask", "rows": m, "cols": n, "closed": cl, "holes": [], "limit": 900.0,
                          "label": label}, timeout=1200)
            rj = measure({"method": "jit", "rows": m, "cols": n, "closed": cl, "holes": [], "limit": 900.0,
                          "label": label})
            steps = m * n + 2 * min(m, n) + 1
            over = (rd["seconds"] - rj["seconds"]) / steps
            print(f"{label} | dask {cell(rd)} | one machine {cell(rj)} | {over * 1000:.0f} ms a step more",
                  flush=True)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--full", action="store_true")
    ap.add_argument("--eight", action="store_true",
                    help="8x8 closed (McKay's count): about 7 minutes on 2 idle cores, some 22 GB of memory "
                         "(its large steps in files of the temporary directory when memory is short)")
    ap.add_argument("--max-seconds", type=float, default=7200.0, help="--eight: time limit of the 8x8 count")
    ap.add_argument("--open", action="store_true", help="open tours beside closed ones")
    ap.add_argument("--dask", action="store_true", help="the Dask counter's overhead on a LocalCluster")
    ap.add_argument("--only", action="store_true", help="only the sections asked for (--open, --dask)")
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    if args.only:
        open_and_dask(args)
        print(f"benchmark run: {time.perf_counter() - t0:.0f} s")
        return
    print(graphillion_note())
    print("each cell: count, time, peak memory of the process (MB), peak states of a step "
          "(a stopped count says where it stopped)")
    print("board | compiled frontier | Python frontier | exhaustive engine")
    for m, n, cl in [(5, 6, True), (6, 6, True), (3, 12, True), (4, 5, False), (5, 5, False)]:
        board_row(f"{m}x{n} {'closed' if cl else 'open'}", m, n, cl, ("jit", "python", "search"))
    print("board | compiled frontier | Python frontier")
    for m, n, cl in [(3, 40, False), (5, 12, True)] + ([(6, 7, True)] if args.full else []):
        board_row(f"{m}x{n} {'closed' if cl else 'open'}", m, n, cl, ("jit", "python"))
    print("board | compiled frontier (the Python one: 6x7 35 s, 6x8 about 230 s)")
    for m, n, cl in [(6, 7, True), (6, 8, True), (3, 60, False), (5, 30, True), (5, 20, False)]:
        board_row(f"{m}x{n} {'closed' if cl else 'open'}", m, n, cl, ("jit",))
    print("holed narrow boards, last column partly filled: compiled | Python")
    for k in (3, 5):
        for n in (10, 12):
            holes = [(r, n - 1) for r in range(k // 2 + 1, k)]
            board_row(f"{k}x{n} minus {len(holes)} of its last column, closed", k, n, True,
                      ("jit", "python"), holes=holes)
    print("every board of the family in one sweep (count of boards, time, memory; the longest's counts):")
    for k in (3, 5):
        partial_row(k, 30)
    if args.full:
        partial_row(7, 30)
    print("rows, every width in one sweep over the longest board (count of the last shown):")
    for k, a, b, cl in [(3, 5, 60, True), (3, 5, 60, False), (5, 5, 60, True)]:
        sweep_row(k, a, b, cl)
    if args.full:
        sweep_row(5, 5, 60, False)
        sweep_row(6, 5, 40, True)
        print("7 and 8 rows across (compiled):")
        board_row("7x8 closed", 7, 8, True, ("jit",), limit=900.0)
    if args.eight:
        board_row("8x8 closed (McKay 1997: 13,267,364,410,532)", 8, 8, True, ("jit",), limit=args.max_seconds,
                  spill=True)
    open_and_dask(args)
    print(f"largest count made: {LARGEST[0]} ({LARGEST[1]}, {len(str(LARGEST[0]))} digits)")
    print(f"benchmark run: {time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()
