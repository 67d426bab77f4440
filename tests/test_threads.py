"""The threads of the parallel kernels (they sleep while they wait, one for a small step) and
compiling outside a count's clock."""

from __future__ import annotations

import ctypes.util
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import numba
import pytest

from kt_formal.board import Board
from kt_formal.engines import kernel_threads
from kt_formal.counting.frontier_jit import count_request_jit, count_row
from kt_formal.exceptions import InvalidInput
from kt_formal.question import Question
from tests.conftest import ROOT

#: The environment of a fresh process that leaves every choice to kt_formal.
_CLEAN = {k: v for k, v in os.environ.items()
          if k not in ("OMP_WAIT_POLICY", "NUMBA_THREADING_LAYER", "NUMBA_NUM_THREADS", kernel_threads.ENV,
                       "KT_FORMAL_DEBUG")}
_CLEAN["PYTHONPATH"] = str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")

#: Prints numba's threading layer after a small parallel count, and OpenMP's own view of its
#: settings (``omp_display_env``, on standard error) when the layer is OpenMP.
_PROBE = """
import ctypes, sys
{before}
from kt_formal.board import Board
from kt_formal.counting.frontier_jit import count_request_jit
from kt_formal.question import Question
import numba
count_request_jit(Question(Board(6, 6)), threads=2)
layer = numba.threading_layer()
print(layer)
sys.stdout.flush()
if layer == "omp" and sys.platform.startswith("linux"):
    lib = next(line.split()[-1] for line in open("/proc/self/maps") if "libgomp" in line or "libiomp" in line)
    ctypes.CDLL(lib).omp_display_env(0)
"""


def _probe(before: str = "", **env) -> subprocess.CompletedProcess:
    proc = subprocess.run([sys.executable, "-c", _PROBE.format(before=before)], capture_output=True, text=True,
                          cwd=ROOT, timeout=300, env={**_CLEAN, **env})
    assert proc.returncode == 0, proc.stderr
    return proc


def test_openmp_waits_passively_in_a_fresh_process():
    """Nothing in the environment: numba runs OpenMP (or its work queue, which waits on
    a condition) and OpenMP itself reports the passive wait policy."""
    proc = _probe()
    layer = proc.stdout.split()[0]
    assert layer in ("omp", "workqueue")
    if layer == "omp" and sys.platform.startswith("linux"):
        assert re.search(r"OMP_WAIT_POLICY\s*=\s*'PASSIVE'", proc.stderr), proc.stderr


def test_a_policy_in_the_environment_is_kept():
    proc = _probe(OMP_WAIT_POLICY="ACTIVE")
    if proc.stdout.split()[0] == "omp" and sys.platform.startswith("linux"):
        assert re.search(r"OMP_WAIT_POLICY\s*=\s*'ACTIVE'", proc.stderr), proc.stderr


@pytest.mark.skipif(not sys.platform.startswith("linux") or not ctypes.util.find_library("gomp"),
                    reason="needs GNU OpenMP on Linux")
def test_an_openmp_loaded_before_without_the_policy_gives_the_work_queue():
    """An OpenMP runtime loaded before kt_formal has read its (spinning) policy already:
    numba's work queue is taken instead."""
    proc = _probe(before=f"ctypes.CDLL({ctypes.util.find_library('gomp')!r}, mode=ctypes.RTLD_GLOBAL)")
    assert proc.stdout.split()[0] == "workqueue"


@pytest.mark.slow  # 30 to 50 s with a busy neighbour: CI runs it with the slow tests
def test_one_thread_gives_the_same_count_and_every_step_takes_one():
    default = count_request_jit(Question(Board(6, 6)))
    one = count_request_jit(Question(Board(6, 6)), threads=1)
    assert one.count == default.count == 9862  # reference.md: 6x6 closed, 9,862
    assert one.states_per_column == default.states_per_column
    assert one.threads and all(n == 1 for _s, n in one.threads)
    assert count_row(5, 5, 10, closed=False, threads=1) == count_row(5, 5, 10, closed=False)


def test_small_steps_take_one_thread_and_large_ones_those_asked_for():
    res = count_request_jit(Question(Board(6, 7)), threads=2)
    small = [n for s, n in res.threads if s < kernel_threads.SMALL_STEP]
    large = [n for s, n in res.threads if s >= kernel_threads.SMALL_STEP]
    assert small and large  # 6x7 has both
    assert set(small) == {1}
    assert set(large) == {min(2, numba.config.NUMBA_NUM_THREADS)}
    assert res.count == 1067638  # reference.md: 6x7 closed (frontier ZDD), 1,067,638
    assert numba.get_num_threads() == numba.config.NUMBA_NUM_THREADS  # put back after the count


def test_the_environment_variable_is_honoured(monkeypatch):
    monkeypatch.setenv(kernel_threads.ENV, "1")
    res = count_request_jit(Question(Board(6, 7)))
    assert {n for _s, n in res.threads} == {1} and res.count == 1067638
    for bad in ("0", "-2", "nan", "1.5", "two", "99999"):
        monkeypatch.setenv(kernel_threads.ENV, bad)
        with pytest.raises(InvalidInput, match=kernel_threads.ENV):
            count_request_jit(Question(Board(5, 6)))
    monkeypatch.setenv(kernel_threads.ENV, "")  # set but empty: as if unset
    assert kernel_threads.requested_threads() is None


def test_without_a_request_large_steps_take_the_cores_free(monkeypatch):
    monkeypatch.delenv(kernel_threads.ENV, raising=False)
    monkeypatch.setattr(kernel_threads, "cores_free", lambda: 1)
    res = count_request_jit(Question(Board(6, 7)))
    assert {n for _s, n in res.threads} == {1}


def test_a_long_step_takes_its_threads_afresh_between_slices(monkeypatch):
    """Between slices of :data:`SLICE_STATES` states a step without a request asks the cores
    free again (a neighbour that came or went): here one core, then two, then one..., in
    slices of 20,000 states; the count is the one every other way gives. With threads asked
    for, the slices keep them."""
    from kt_formal.counting import frontier_jit

    if numba.config.NUMBA_NUM_THREADS < 2:
        pytest.skip("numba has one thread here")
    monkeypatch.delenv(kernel_threads.ENV, raising=False)
    monkeypatch.setattr(frontier_jit, "SLICE_STATES", 20_000)
    free = iter([1, 2] * 10_000)
    monkeypatch.setattr(kernel_threads, "cores_free", lambda: next(free))
    asked = []
    real = numba.set_num_threads
    monkeypatch.setattr(numba, "set_num_threads", lambda n: (asked.append(n), real(n)))
    res = count_request_jit(Question(Board(6, 7)))
    assert res.count == 1067638  # reference.md: 6x7 closed (frontier ZDD), 1,067,638
    steps = [n for s, n in res.threads if s >= kernel_threads.SMALL_STEP]
    assert len(asked) > len(res.threads) + 5  # the slices asked as well as the steps
    assert {1, 2} <= set(asked) and steps
    asked.clear()
    res = count_request_jit(Question(Board(6, 7)), threads=2)
    assert res.count == 1067638 and set(asked) <= {1, 2, numba.config.NUMBA_NUM_THREADS}
    assert len(asked) <= len(res.threads) + 1  # once a step (and put back at the end)


def test_cores_free_counts_the_other_runnable_tasks(monkeypatch):
    monkeypatch.setattr(kernel_threads, "cores_available", lambda: 4)
    monkeypatch.setattr(os, "cpu_count", lambda: 4)
    for others, free in ((0, 4), (1, 3), (3, 1), (9, 1)):
        monkeypatch.setattr(kernel_threads, "_runnable_others", lambda o=others: o)
        assert kernel_threads.cores_free() == free
    # a container sees the host's tasks: 16 busy on a 64-core host leave 3 of its 4 cores
    monkeypatch.setattr(os, "cpu_count", lambda: 64)
    monkeypatch.setattr(kernel_threads, "_runnable_others", lambda: 16)
    assert kernel_threads.cores_free() == 3
    monkeypatch.setattr(kernel_threads, "_runnable_others", lambda: None)  # no /proc/loadavg
    assert kernel_threads.cores_free() == 4


def test_runnable_others_leave_out_this_process_and_passing_tasks(monkeypatch):
    """The fewest other runnable tasks of three reads, this process's own threads left out:
    a task runnable in one read only is no neighbour; one in every read is."""
    monkeypatch.setattr(kernel_threads, "LOAD_GAP", 0.0)
    monkeypatch.setattr(kernel_threads, "_own_runnable", lambda: 2)
    monkeypatch.setattr(kernel_threads, "_kernel_runnable", lambda: 0)
    for reads, others in (([4, 4, 4], 2), ([5, 2, 4], 0), ([2], 0), ([3, 4, 3], 1), ([1, 1, 1], 0)):
        it = iter(reads)
        monkeypatch.setattr(kernel_threads, "_runnable_now", lambda: next(it))
        assert kernel_threads._runnable_others() == others
    monkeypatch.setattr(kernel_threads, "_runnable_now", lambda: None)
    assert kernel_threads._runnable_others() is None
    # kernel threads (writeback, reclaim) runnable beside us are the machine's own work
    monkeypatch.setattr(kernel_threads, "_runnable_now", lambda: 5)
    for kernel, others in ((0, 3), (2, 1), (7, 0)):
        monkeypatch.setattr(kernel_threads, "_kernel_runnable", lambda k=kernel: k)
        assert kernel_threads._runnable_others() == others


@pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="Linux's /proc")
def test_kernel_runnable_reads_proc():
    """Kernel threads are told apart by their flags: never more than the tasks runnable."""
    k = kernel_threads._kernel_runnable()
    assert 0 <= k <= len([p for p in os.listdir("/proc") if p.isdigit()])


@pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="Linux's /proc")
def test_own_runnable_threads_are_counted():
    """A thread of this process hashing (which lets go of the GIL) is seen running beside the
    caller; alone, the caller is the one."""
    import hashlib
    import threading

    assert kernel_threads._own_runnable() >= 1
    stop = threading.Event()
    data = bytes(1 << 20)

    def spin():
        while not stop.is_set():
            hashlib.sha256(data).digest()

    worker = threading.Thread(target=spin)
    worker.start()
    try:
        seen = max(kernel_threads._own_runnable() for _ in range(200))
    finally:
        stop.set()
        worker.join()
    assert seen >= 2


@pytest.mark.parametrize("value", ["0", "-1", "nan", "1.5", "inf", "two", "1e3", "2000"])
def test_bad_thread_counts_are_one_line_errors(cli, value):
    run = cli("count", "6", "6", "--method", "frontier", "--threads", value)
    assert run.code == 2 and run.out == "" and len(run.err.strip().splitlines()) == 1
    assert "--threads" in run.err and "whole number from 1 to" in run.err


def test_a_bad_environment_value_is_a_one_line_error(cli_proc):
    run = cli_proc("count", "--sequence", "3", "10..12", env_extra={kernel_threads.ENV: "0"})
    assert run.code == 2 and run.out == "" and len(run.err.strip().splitlines()) == 1
    assert kernel_threads.ENV in run.err


def test_count_with_one_thread(cli):
    one = cli("count", "6", "7", "--threads", "1")
    default = cli("count", "6", "7")
    assert one.code == default.code == 0
    assert one.out.split()[0] == default.out.split()[0] == "1067638"  # reference.md: 6x7 closed
    seq = cli("count", "--sequence", "3", "10..12", "--threads", "1")
    assert seq.out.splitlines() == ["3x10 16", "3x11 0", "3x12 176"]  # OEIS A175881


# ---------------------------------------------------------------------- compiling
_NOTE = "compiling the frontier counter's kernels once"


@pytest.mark.slow
def test_a_cold_cache_compiles_outside_the_time_limit(tmp_path):
    """With an empty numba cache (NUMBA_CACHE_DIR is where numba looks first), a count
    whose time limit is far shorter than compiling answers (exit 0, the right count),
    and says once that it compiles; the kernels land in that cache."""
    cache = tmp_path / "cache"
    script = ("import sys\nfrom kt_formal.cli import main\n"
              "a = main(['count', '3', '30', '--time-limit', '0.5'])\n"
              "b = main(['count', '--sequence', '3', '10..12', '--time-limit', '0.5'])\n"
              "sys.exit(a or b)")
    t = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, timeout=900,
                          env={**_CLEAN, "NUMBA_CACHE_DIR": str(cache)})
    took = time.perf_counter() - t
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0].split()[0] == str(count_request_jit(Question(Board(3, 30))).count)
    assert lines[1:] == ["3x10 16", "3x11 0", "3x12 176"]  # OEIS A175881
    assert proc.stderr.count(_NOTE) == 1
    assert took > 0.5  # the compile really ran, past the limit
    assert any(Path(cache).rglob("*.nbi")) and any(Path(cache).rglob("*.nbc"))


@pytest.mark.slow
def test_a_busy_neighbour_costs_at_most_two_and_a_half_times(tmp_path):
    """A frontier count while another process spins on one core takes at most 2.5 times
    what it takes without it (a team that spins at its barriers took 10 times)."""
    from kt_formal.counting.frontier_jit import prepare_kernels

    if int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1")) > 1:
        pytest.skip("it times a count beside one busy process of its own: other test processes "
                    "would be more neighbours (.ci/run runs the slow tests with -n 0)")

    prepare_kernels()

    def best_of(n: int) -> float:
        return min(count_request_jit(Question(Board(6, 8))).wall_time for _ in range(n))

    idle = best_of(2)
    busy = subprocess.Popen([sys.executable, "-c", "import time\nt = time.time() + 120\nwhile time.time() < t: pass"])
    try:
        time.sleep(0.2)
        loaded = best_of(2)
    finally:
        busy.kill()
        busy.wait()
    assert loaded <= 2.5 * idle, (loaded, idle)


def test_every_kernel_of_the_package_goes_through_the_one_helper():
    """No numba decorator but :func:`kt_formal.engines.compiled.cached_njit` (cached on disk,
    listed for ``warm``, after the threading layer is chosen)."""
    pkg = ROOT / "kt_formal"
    raw = re.compile(r"\bnjit\b|numba\.jit|@jit\b|from numba import .*\bjit\b|\bvectorize\b|\bguvectorize\b"
                     r"|\bcfunc\b|\bstencil\b")
    offenders = [f"{p.relative_to(ROOT)}:{n}" for p in pkg.rglob("*.py") if p.name != "compiled.py"
                 for n, line in enumerate(p.read_text().splitlines(), 1)
                 if raw.search(line.replace("cached_njit", "")) and not line.lstrip().startswith(("#", ">>>"))]
    assert offenders == []


@pytest.mark.slow  # every kernel: on an empty cache a compile of a minute and more
def test_warm_loads_every_kernel_and_says_so(cli):
    """``warm`` after every module is imported: each kernel the package made is compiled
    (loaded, or on disk), and each group says what it did and how long it took."""
    import importlib
    import pkgutil

    import kt_formal
    from kt_formal.engines import compiled

    for mod in pkgutil.walk_packages(kt_formal.__path__, "kt_formal."):
        if not mod.name.endswith("__main__"):
            importlib.import_module(mod.name)
    run = cli("warm")
    assert run.code == 0, run.err
    lines = run.out.splitlines()
    for name in ("frontier counter, closed tours", "frontier counter, open tours eight across",
                 "path searches", "walks of the constructions"):
        assert any(re.fullmatch(rf"{name}: \d+ kernels (loaded from the cache|compiled and cached) in [\d.]+ s", ln)
                   for ln in lines), run.out
    made = [k for k, options in compiled.KERNELS if options.get("inline") != "always" and hasattr(k, "signatures")
            and k.py_func.__module__.startswith("kt_formal.")]  # a test module's kernels are not the package's
    assert len(made) >= 14 and all(compiled.kernels_compiled(k) for k in made)
    assert re.match(rf"{len(made)} kernels ready in [\d.]+ s", lines[-2])
    assert re.match(rf"parallel kernels: numba's {numba.threading_layer()}", lines[-1].replace("OpenMP", "omp")
                    .replace("work queue", "workqueue"))


@pytest.mark.parametrize("wide", [False, pytest.param(True, marks=pytest.mark.slow)])
def test_after_the_preparation_a_count_compiles_nothing(wide):
    """The small cases :func:`prepare_kernels` runs give every kernel the argument types
    of real counts: closed and open, holed, fixed ends, passes in files, tables grown,
    counts past 64 bits, rows and partly filled columns on packed keys; eight across, closed
    tours on their own packed keys and open ones on keys in base 11 (slow: those kernels are
    compiles of their own)."""
    import tempfile

    from kt_formal.counting import frontier_jit as F

    F.prepare_kernels(k=8 if wide else 5)
    kernels = [k for k in F.KERNELS if (k in (F.fill_wide, F.fill_closed17)) == wide or k not in F.FILLS]
    before = {k.__name__: len(k.signatures) for k in kernels}
    assert all(before.values())
    if wide:
        F.count_request_jit(Question(Board(8, 8, holes=[(r, c) for r in range(8) for c in range(8) if r >= 4 or c >= 5])))
        F.count_row(8, 1, 3, closed=False, partial=True)
        with tempfile.TemporaryDirectory() as spill:  # 8 across, in passes and files
            F.count_request_jit(Question(Board(8, 8, holes=[(r, c) for r in range(8) for c in range(3, 8)]), closed=False), table_bytes=1 << 12, spill_dir=spill)
    else:
        F.count_request_jit(Question(Board(5, 6)))
        F.count_request_jit(Question(Board(4, 5), closed=False, start=(0, 0)))
        F.count_request_jit(Question(Board(5, 6, holes=[(2, 2)]), closed=False, start=(0, 0), end=(4, 5)))
        with tempfile.TemporaryDirectory() as spill:
            F.count_request_jit(Question(Board(6, 6)), table_bytes=1 << 18, spill_dir=spill)
            F.count_row(5, 23, 24, table_bytes=1 << 20, spill_dir=spill)
        F.count_row(4, 3, 6, closed=False, partial=True)
        old = F.LOAD_FACTOR
        try:
            F.LOAD_FACTOR = 50.0  # tables laid out far too small: they grow
            F.count_request_jit(Question(Board(5, 6)))
        finally:
            F.LOAD_FACTOR = old
    assert {k.__name__: len(k.signatures) for k in kernels} == before


def test_a_search_time_limit_starts_after_the_kernels_are_loaded(monkeypatch):
    """A NodeMeter clock starts after the search kernels are ready: the time they take to
    load (here made slow) is not the search's."""
    from kt_formal.engines import pathsearch
    from kt_formal.question import Limits

    monkeypatch.setattr(pathsearch.prepare_kernels, "ready", False)
    real = pathsearch.PathSearch.run

    ends = []

    def slow_run(self, limits=None):
        time.sleep(0.3)
        try:
            return real(self, limits)
        finally:
            ends.append(time.perf_counter())

    monkeypatch.setattr(pathsearch.PathSearch, "run", slow_run)  # the preparation's own searches
    limits = pathsearch.NodeMeter(Limits(0.2))
    monkeypatch.setattr(pathsearch.PathSearch, "run", real)
    # the clock started after the last of them ended (no wall time compared: a busy machine
    # may stop this process between any two lines)
    assert pathsearch.prepare_kernels.ready and ends and limits.t0 >= max(ends)
    assert limits.next_chunk(0) > 0  # the limit is not used up


def test_a_count_loads_only_the_kernel_of_its_kind():
    """The four ways to expand a state compile apart (one body took numba three times as
    long): a closed count of 4 across loads the packed closed kernel and no other, an open
    count the open one; 8 across, a closed count the kernel of its own keys, an open one
    the wide one."""
    from conftest import wait_for_warm

    from kt_formal.counting import frontier_jit as F

    assert F.count_fills(4, True) == [F.fill_closed16] and F.count_fills(7, False) == [F.fill_open16]
    assert F.count_fills(8, True) == [F.fill_closed17] and F.count_fills(8, False) == [F.fill_wide]
    assert F.count_fills() == list(F.FILLS) and F.count_fills(5) == [F.fill_closed16, F.fill_open16]
    code = ("import sys; from kt_formal.board import Board; from kt_formal.counting import frontier_jit as F; "
            "from kt_formal.question import Question; "
            "F.count_request_jit(Question(Board(4, 5), closed=sys.argv[1] == 'closed')); "
            "print(*[len(f.signatures) for f in F.FILLS])")
    wait_for_warm([0, 1])  # the session's compile (the subprocess would compile them again)
    for kind, loaded in (("closed", "1 0 0 0"), ("open", "0 1 0 0")):
        out = subprocess.run([sys.executable, "-c", code, kind], capture_output=True, text=True, check=True,
                             env=dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[1])))
        assert out.stdout.split() == loaded.split(), (kind, out.stdout, out.stderr[-500:])
