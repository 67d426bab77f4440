"""Side-by-side timings of the search engines against plain C and the seeds' C++.

Run from the repository root::

    python benchmarks/bench_search.py            # everything (about a minute)
    python benchmarks/bench_search.py --no-c     # kt_formal only

Rows:

1. count all closed tours of 6x6 (9862): kt_formal's exhaustive count (pruned, compiled)
   against a plain C depth-first search without pruning, written and compiled here
   with gcc: from the corner, out by its first neighbour and back by the other, which is
   kept for last, so each cycle is met once (target: under 10 s wall; the plain C
   search takes about 23 s, 1.77e9 nodes);
2. plain DFS from (2, 0) on 8x8 in the ``down-first`` move order (seed 001's):
   kt_formal's dfs engine against the same search in C (target: under 10 s; the search
   visits about 2.1e8 nodes, so the time is nodes / speed: when the target is missed the
   row says how long plain C takes for the same nodes);
3. backtrack: a closed tour of every even m x n, 6 <= m, n <= 20, |m - n| <= 2
   (target: under 1 s each);
4. Warnsdorff coverage from a corner on 100x100 and 1000x1000 against seed 002's C++
   (``../shared/peers``, built with its build.sh into a temp dir).

A column is skipped with a message when gcc/g++ or ../shared is missing. Absolute
times drift on a shared machine; compare the ratios within one run.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from kt_formal.board import Board  # noqa: E402
from kt_formal.counting import exhaustive as exhaustive_counter  # noqa: E402
from kt_formal.solve import run_engine  # noqa: E402
from kt_formal.engines.pathsearch import ORDERS  # noqa: E402
from kt_formal.question import Question  # noqa: E402

SHARED = Path(os.environ.get("KT_FORMAL_SHARED", ROOT.parent / "shared"))

C_DFS = r"""
/* Plain depth-first search for knight's tours: no heuristic, no pruning. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int R, C, K, closed, stop, first = -1, reserve = -1;
static int nb[4096][8], nn[4096], adj_root[4096];
static char vis[4096];
static long long nodes = 0, sols = 0;

static int dfs(int v, int d) {
    if (d == K) {
        if (!closed || adj_root[v]) { sols++; if (stop) return 1; }
        return 0;
    }
    for (int j = 0; j < nn[v]; j++) {
        int w = nb[v][j];
        if (d == 1 && first >= 0 && w != first) continue;
        if (w == reserve && d != K - 1) continue;
        if (!vis[w]) {
            vis[w] = 1; nodes++;
            if (dfs(w, d + 1)) return 1;
            vis[w] = 0;
        }
    }
    return 0;
}

int main(int argc, char **argv) {
    /* R C closed stop root_r root_c dr0 dc0 ... dr7 dc7 */
    R = atoi(argv[1]); C = atoi(argv[2]); closed = atoi(argv[3]); stop = atoi(argv[4]);
    int rr = atoi(argv[5]), rc = atoi(argv[6]);
    int dr[8], dc[8];
    for (int j = 0; j < 8; j++) { dr[j] = atoi(argv[7 + 2 * j]); dc[j] = atoi(argv[8 + 2 * j]); }
    K = R * C;
    for (int r = 0; r < R; r++) for (int c = 0; c < C; c++) {
        int v = r * C + c; nn[v] = 0;
        for (int j = 0; j < 8; j++) {
            int r2 = r + dr[j], c2 = c + dc[j];
            if (r2 >= 0 && r2 < R && c2 >= 0 && c2 < C) nb[v][nn[v]++] = r2 * C + c2;
        }
    }
    int root = rr * C + rc;
    if (closed && nn[root] == 2) {
        /* a corner: go out by its first neighbour, come back by the other (each cycle once) */
        first = nb[root][0]; reserve = nb[root][1]; adj_root[reserve] = 1;
    } else {
        for (int j = 0; j < nn[root]; j++) adj_root[nb[root][j]] = 1;
    }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    vis[root] = 1;
    dfs(root, 1);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double s = (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec);
    printf("solutions=%lld nodes=%lld seconds=%.3f\n", sols, nodes, s);
    return 0;
}
"""

KNIGHT = ORDERS["knight"]


def _fmt_rate(nodes, secs):
    return f"{nodes / secs / 1e6:8.1f} M/s" if secs > 0 else "      - M/s"


def _row(what, ours, peer, target=None):
    """ours/peer: (result text, nodes or None, seconds) or None; a missed target says why."""
    def cell(x):
        if x is None:
            return f"{'(skipped)':<26}{'':>13}{'':>9}"
        text, nodes, secs = x
        rate = _fmt_rate(nodes, secs) if nodes else ""
        return f"{text:<26}{rate:>13}{secs:8.2f}s"
    ratio = ""
    if ours is not None and peer is not None and ours[2] > 0:
        ratio = f"{peer[2] / ours[2]:7.1f}x"
    tgt = ""
    if target is not None and ours is not None:
        tgt = "ok" if ours[2] < target else f"MISSED (<{target:g}s)"
        if ours[2] >= target:
            if ours[1]:
                tgt += f": {ours[1]:.2g} nodes at {ours[1] / ours[2] / 1e6:.0f} M/s"
            if peer is not None:
                tgt += (f"; plain C needs {peer[2]:.1f} s for the same search, so the target is "
                        f"{'out of reach of this machine' if peer[2] >= target else 'missed by the engine'}")
            else:
                tgt += "; no C baseline to compare (gcc missing)"
    print(f"{what:<30} | {cell(ours)} | {cell(peer)} | {ratio:>8} | {tgt}")


def _build_c(tmp: Path):
    gcc = shutil.which("gcc") or shutil.which("cc")
    if gcc is None:
        print("# gcc not found: the plain C column is skipped")
        return None
    src = tmp / "plain_dfs.c"
    src.write_text(C_DFS)
    exe = tmp / "plain_dfs"
    subprocess.run([gcc, "-O2", "-o", str(exe), str(src)], check=True)
    return exe


def _run_c(exe, rows, cols, closed, stop, root, order):
    args = [str(exe), str(rows), str(cols), str(int(closed)), str(int(stop)), str(root[0]), str(root[1])]
    for dr, dc in order:
        args += [str(dr), str(dc)]
    t0 = time.perf_counter()
    out = subprocess.run(args, capture_output=True, text=True, check=True).stdout
    wall = time.perf_counter() - t0
    m = re.search(r"solutions=(\d+) nodes=(\d+)", out)
    return int(m.group(1)), int(m.group(2)), wall


def _build_peers(tmp: Path):
    script = SHARED / "peers" / "build.sh"
    if not script.exists() or shutil.which("g++") is None:
        print(f"# {script} or g++ not available: the seed 002 column is skipped")
        return None
    subprocess.run(["bash", str(script), str(tmp / "peers")], check=True, capture_output=True)
    return tmp / "peers"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--no-c", action="store_true", help="skip the C and C++ columns")
    args = ap.parse_args(argv)

    # warm the compiled kernels (numba cache) so compile time is not measured
    exhaustive_counter.count(Question(Board(5, 6)))
    run_engine("dfs", Question(Board(5, 5), closed=False, start=(0, 0)))
    run_engine("warnsdorff", Question(Board(8, 8), closed=False, start=(0, 0)))

    with tempfile.TemporaryDirectory() as tmpdir:
        tmp = Path(tmpdir)
        exe = None if args.no_c else _build_c(tmp)
        peers = None if args.no_c else _build_peers(tmp)

        print(f"{'benchmark':<30} | {'kt_formal':<48} | {'baseline':<48} | {'speed-up':>8} | target")
        print("-" * 150)

        # 1. count closed tours of 6x6
        res = exhaustive_counter.count(Question(Board(6, 6)))
        ours = (f"{res.count} tours", res.nodes, res.wall_time)
        peer = None
        if exe is not None:
            sols, nodes, wall = _run_c(exe, 6, 6, True, False, (0, 0), KNIGHT)
            peer = (f"{sols} tours (plain C)", nodes, wall)
        _row("count 6x6 closed tours", ours, peer, target=10)

        # 2. seed 001's DFS from (2, 0)
        t0 = time.perf_counter()
        r = run_engine("dfs", Question(Board(8, 8), closed=False, start=(2, 0)), order="down-first", time_limit=None)
        wall = time.perf_counter() - t0
        ours = (f"{r.status.value}", r.stats["nodes"], wall)
        peer = None
        if exe is not None:
            sols, nodes, wall = _run_c(exe, 8, 8, False, True, (2, 0), ORDERS["down-first"])
            peer = ("found (plain C)" if sols else "none (plain C)", nodes, wall)
        _row("dfs down-first 8x8 from (2,0)", ours, peer, target=10)

        # 3. backtrack on the seeds' boards
        worst = 0.0
        for m in range(6, 21, 2):
            for n in range(max(6, m - 2), min(20, m + 2) + 1, 2):
                t0 = time.perf_counter()
                r = run_engine("backtrack", Question(Board(m, n), start=(0, 0)), time_limit=60)
                wall = time.perf_counter() - t0
                worst = max(worst, wall)
                _row(f"backtrack closed {m}x{n}", (r.status.value, r.stats["nodes"], wall), None, target=1)
        print(f"# backtrack: slowest board {worst:.3f} s")

        # 4. Warnsdorff coverage against seed 002's C++
        for n in (100, 1000):
            for rule, order in (("last", "clockwise-from-7"), ("first", "knight"), ("pohl", "knight")):
                t0 = time.perf_counter()
                r = run_engine("warnsdorff", Question(Board(n, n), closed=False, start=(0, 0)), tiebreak=rule,
                               order=order)
                wall = time.perf_counter() - t0
                ours = (f"{r.stats['covered']}/{n * n} {rule},{order}", None, wall)
                peer = None
                if peers is not None and rule == "last":
                    t0 = time.perf_counter()
                    out = subprocess.run([str(peers / "seed002_warnsdorff"), str(n), "1", "1"],
                                         capture_output=True, text=True, check=True).stdout
                    pw = time.perf_counter() - t0
                    visited = re.search(r"visited=(\d+)/(\d+)", out)
                    peer = (f"{visited.group(1)}/{visited.group(2)} seed002 C++", None, pw)
                _row(f"warnsdorff {n}x{n} corner", ours, peer)
    return 0


if __name__ == "__main__":
    sys.exit(main())
