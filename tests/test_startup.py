"""A newcomer's first runs: fast start-up (lazy imports) and the numba compile note."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.conftest import ROOT

HEAVY = ("numba", "ortools", "networkx", "scipy")


def _modules_after(code: str) -> set[str]:
    script = (f"import sys\n{code}\n"
              "print(' '.join(sorted({m.split('.')[0] for m in sys.modules})))")
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr
    return set(proc.stdout.splitlines()[-1].split())


def test_help_imports_neither_numpy_nor_the_solvers():
    mods = _modules_after("from kt_formal.cli import main\n"
                          "try:\n    main(['--help'])\nexcept SystemExit:\n    pass")
    assert "kt_formal" in mods
    assert not mods & {"numpy", *HEAVY}


@pytest.mark.parametrize("command", ["tour", "exists", "count", "verify"])
def test_a_commands_help_names_the_default_time_limit_without_numpy(command, cli):
    """The help text is built from the one default (kt_formal.defaults, which imports nothing;
    the command's ``--help`` stays without NumPy, above), and loads no solver."""
    from kt_formal.defaults import DEFAULT_TIME_LIMIT

    mods = _modules_after("from kt_formal.cli import main\n"
                          f"try:\n    main([{command!r}, '--help'])\nexcept SystemExit:\n    pass")
    assert not mods & set(HEAVY)
    r = cli(command, "--help")
    assert r.code == 0 and f"(default {DEFAULT_TIME_LIMIT:g}" in " ".join(r.out.split())


def test_verify_imports_no_solver(tmp_path):
    from kt_formal import Board, find_tour

    t = find_tour(Board(6, 6), engine="cpsat", workers=1).tour
    path = tmp_path / "t.json"
    path.write_text(t.to_json())
    mods = _modules_after(f"from kt_formal.cli import main\nassert main(['verify', {str(path)!r}]) == 0")
    assert not mods & set(HEAVY)


#: What a small board's answer must not load: the compiled kernels, the solvers, the
#: graph library, the cluster, and what they drag in.
NOT_FOR_SMALL_BOARDS = {*HEAVY, "dask", "pysat", "pandas", "llvmlite"}


def test_version_imports_neither_numpy_nor_the_solvers():
    mods = _modules_after("from kt_formal.cli import main\n"
                          "try:\n    main(['--version'])\nexcept SystemExit:\n    pass")
    assert "kt_formal" in mods
    assert not mods & {"numpy", *NOT_FOR_SMALL_BOARDS}


@pytest.mark.parametrize("args", [
    ["tour", "8", "8"],
    ["tour", "60", "60", "--hole", "25,25,10x10"],
    ["tour", "10", "10", "--hole", "3,3,4x4", "--open", "--start", "a1"],
    ["exists", "20", "20", "--hole", "5,5,3x2"],
], ids=lambda a: " ".join(a))
def test_a_small_board_loads_no_solver_and_no_compiled_kernel(args):
    """Small boards are answered by the fast first attempt (plain Python) before numba or
    CP-SAT is imported; the tour is still checked by the kernel."""
    mods = _modules_after(f"from kt_formal.cli import main\nassert main({[*args, '--quiet']!r}) == 0")
    assert {"kt_formal", "numpy"} <= mods
    assert not mods & NOT_FOR_SMALL_BOARDS, mods & NOT_FOR_SMALL_BOARDS


def test_the_small_tour_says_how_it_was_found(cli_proc):
    r = cli_proc("tour", 8, 8)
    assert r.code == 0 and r.err.startswith("found a closed tour of the 8x8 board by extend-rotate in ")
    assert r.err.rstrip().endswith("verified")
    assert len(r.out.split()) == 64


def test_compile_note_once(monkeypatch, capsys):
    from kt_formal.engines import compiled, pathsearch

    monkeypatch.setattr(compiled, "_ANNOUNCED", False)
    monkeypatch.setattr(compiled, "kernels_compiled", lambda kernel: False)
    compiled.announce_compile(pathsearch.search_kernel)
    compiled.announce_compile(pathsearch.plain_kernel)
    err = capsys.readouterr().err
    assert err.count("compiling the search kernels once") == 1 and err.count("\n") == 1


def test_no_note_when_cached(monkeypatch, capsys):
    from kt_formal.engines import compiled, pathsearch

    monkeypatch.setattr(compiled, "_ANNOUNCED", False)
    monkeypatch.setattr(compiled, "kernels_compiled", lambda kernel: True)
    compiled.announce_compile(pathsearch.search_kernel)
    assert capsys.readouterr().err == ""


def test_loaded_kernel_counts_as_compiled():
    from kt_formal.board import Board
    from kt_formal.engines import pathsearch
    from kt_formal.question import Question
    from kt_formal.engines.dfs import Dfs

    assert Dfs().run(Question(Board(5, 5), closed=False, start=(0, 0))).found
    assert pathsearch.kernels_compiled(pathsearch.plain_kernel)


def test_unwritable_cache_falls_back_to_compiling(monkeypatch):
    from kt_formal.engines import compiled

    calls = []

    def fake_njit(*args, **kwargs):
        calls.append(kwargs)
        if kwargs.get("cache"):
            raise RuntimeError("cannot cache function 'f': no locator available for file 'f.py'")
        if args:  # njit(fn)
            return ("compiled", args[0])
        return lambda fn: ("compiled", fn)

    monkeypatch.setattr(compiled, "_numba_njit", fake_njit)

    def f(x):
        return x

    assert compiled.cached_njit(f) == ("compiled", f)
    assert calls[0] == {"cache": True}
    calls.clear()
    assert compiled.cached_njit(nogil=True)(f) == ("compiled", f)
    assert calls == [{"cache": True, "nogil": True}, {"nogil": True}]


@pytest.mark.parametrize("old,new", [("seed001", "down-first"), ("seed002", "clockwise-from-7")])
def test_old_order_names_in_the_cli(old, new, cli):
    r = cli("tour", 5, 5, "--engine", "dfs", "--order", old, "--start", "0,0", "--open", "--format", "coords")
    assert r.code == 0 and f"--order {old} is now called --order {new}" in r.err


def _probe_kernel(folder, module):
    """In a fresh process with its numba cache in ``folder``: whether ``module.twice`` was
    compiled before its first call, and ``twice(3)``."""
    import os

    probe = ("import sys; sys.path.insert(0, sys.argv[1])\n"
             f"import {module} as m\n"
             "from kt_formal.engines.compiled import kernels_compiled\n"
             "print(kernels_compiled(m.twice), m.twice(3))")
    proc = subprocess.run([sys.executable, "-c", probe, str(folder)], capture_output=True, text=True,
                          cwd=ROOT, timeout=120, env={**os.environ, "NUMBA_CACHE_DIR": str(folder / "cache")})
    assert proc.returncode == 0, proc.stderr
    cached, value = proc.stdout.split()
    return cached == "True", int(value)


@pytest.mark.slow  # compiles a kernel group into a new cache: 6 s
def test_a_reinstalled_source_with_its_cache_counts_as_compiled(tmp_path):
    """A newer file time on the same source (as a reinstall leaves it) keeps numba's cache:
    no compile note then; an edited source does need compiling."""
    import os
    import time

    mod = tmp_path / "kt_cached_probe.py"
    mod.write_text("from kt_formal.engines.compiled import cached_njit\n\n"
                   "@cached_njit\ndef twice(x):\n    return 2 * x\n")

    def compiled_before_call():
        return _probe_kernel(tmp_path, "kt_cached_probe")[0]

    assert not compiled_before_call()   # nothing on disk yet
    assert compiled_before_call()       # the first run cached it
    later = time.time() + 5
    os.utime(mod, (later, later))       # same text, newer time
    assert compiled_before_call()
    mod.write_text(mod.read_text().replace("2 * x", "3 * x"))
    os.utime(mod, (later + 5, later + 5))
    assert not compiled_before_call()   # an edited source is compiled again


@pytest.mark.slow  # compiles twice into a new cache: 6 s
def test_editing_a_called_kernels_file_compiles_its_callers_again(tmp_path):
    """numba's stamp of a cached kernel hashes its own file only, so a kernel whose callee
    (inlined or not) lives in another file kept its old machine code after that file was
    edited; the stamp now covers the callee's file too."""

    (tmp_path / "kt_probe_callee.py").write_text(
        "from kt_formal.engines.compiled import cached_njit\n\n"
        "@cached_njit(inline='always')\ndef step(x):\n    return 2 * x\n")
    (tmp_path / "kt_probe_caller.py").write_text(
        "from kt_formal.engines.compiled import cached_njit\nfrom kt_probe_callee import step\n\n"
        "@cached_njit\ndef twice(x):\n    return step(x) + 0\n")

    def run():
        return _probe_kernel(tmp_path, "kt_probe_caller")

    assert run() == (False, 6)
    assert run() == (True, 6)
    callee = tmp_path / "kt_probe_callee.py"
    callee.write_text(callee.read_text().replace("2 * x", "5 * x"))
    assert run() == (False, 15)  # the old code said (True, 6)
    assert run() == (True, 15)


def test_the_frontier_kernels_know_the_files_they_are_made_of():
    import os

    from kt_formal.counting import frontier_tables as T
    from kt_formal.engines.compiled import kernel_sources

    names = {os.path.basename(p) for p in kernel_sources(T.fill_closed16)}
    assert names == {"frontier_tables.py", "frontier_successors.py", "frontier_keys.py", "frontier_hash.py"}
    assert {os.path.basename(p) for p in kernel_sources(T.compact)} <= {"frontier_tables.py", "frontier_keys.py", "frontier_hash.py"}


def test_quiet_blas_asks_for_one_thread_unless_the_user_chose():
    from kt_formal.cli import BLAS_THREAD_VARIABLES, quiet_blas

    env: dict = {}
    assert quiet_blas(env) and env == {"OPENBLAS_NUM_THREADS": "1"}
    for name in BLAS_THREAD_VARIABLES:
        env = {name: "3"}
        assert not quiet_blas(env) and env == {name: "3"}
    env = {"OPENBLAS_NUM_THREADS": ""}  # empty: not a choice
    assert quiet_blas(env) and env["OPENBLAS_NUM_THREADS"] == "1"


_THREADS_OF_THE_COMMAND = """
import atexit, os, sys
def report():
    print("report", os.environ.get("OPENBLAS_NUM_THREADS"), len(os.listdir("/proc/self/task")),
          "numpy" in sys.modules, file=sys.stderr)
atexit.register(report)
sys.argv = ["kt-formal", "count", "3", "8"]
from kt_formal.cli import run
run()
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="counts the threads in /proc")
@pytest.mark.parametrize("user", [None, "2"])
def test_the_command_starts_openblas_on_one_thread(user):
    """The command's own process (its entry point, not :func:`main`) sets the variable before
    NumPy loads, so OpenBLAS starts no thread besides the main one: a count by search (one
    thread, NumPy loaded with the search's kernels) ends with the process on one thread.
    A user's choice is kept."""
    import os

    from kt_formal.cli import BLAS_THREAD_VARIABLES

    env = {k: v for k, v in os.environ.items() if k not in BLAS_THREAD_VARIABLES}
    env.update(KT_FORMAL_THREADS="1", PYTHONPATH=str(ROOT))
    if user:
        env["OPENBLAS_NUM_THREADS"] = user
    proc = subprocess.run([sys.executable, "-c", _THREADS_OF_THE_COMMAND], capture_output=True, text=True,
                          cwd=ROOT, env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "closed tours of the 3x8 board" in proc.stdout
    _word, value, threads, numpy_loaded = proc.stderr.strip().splitlines()[-1].split()
    assert value == (user or "1") and numpy_loaded == "True"
    if user is None:
        assert threads == "1"
    else:  # OpenBLAS's own thread beside the main one
        assert int(threads) >= 2


_TOY_GROUP = '''
import time
from kt_formal.engines.compiled import Preparation, cached_njit


@cached_njit
def toy(n):
    s = 0
    for i in range(n):
        s += i * i % 7
    return s


def warm_up():
    time.sleep(1.5)  # both processes are past their check of the cache before either compiles
    toy(10)


prepare = Preparation((toy,), "a toy kernel", 1, warm_up)
'''


@pytest.mark.slow  # processes compiling one group into a new cache: 5 s
@pytest.mark.skipif(sys.platform.startswith("win"), reason="the lock is fcntl's")
def test_processes_started_together_compile_a_group_once(tmp_path):
    """Two processes preparing the same group on an empty cache: one compiles, the other
    waits for its lock and loads the kernel from the disk cache (without the lock both would
    compile: each warm-up waits before it compiles)."""
    import os

    (tmp_path / "toygroup.py").write_text(_TOY_GROUP)
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"),
               PYTHONPATH=os.pathsep.join([str(tmp_path), str(ROOT)]))
    code = "import toygroup; toygroup.prepare(note=False); print(toygroup.prepare.compiled, toygroup.toy(100))"
    procs = [subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True, env=env, cwd=tmp_path) for _ in range(2)]
    outs = [p.communicate(timeout=120) for p in procs]
    assert all(p.returncode == 0 for p in procs), outs
    answers = sorted(out.split()[0] for out, _err in outs)
    assert answers == ["False", "True"], outs
    assert {out.split()[1] for out, _err in outs} == {str(sum(i * i % 7 for i in range(100)))}


def _plain_install(tmp_path):
    """The package installed as users get it (``pip install .``, not editable) in a new virtual
    environment that borrows the dependencies already installed (and pip); the build backend
    is the installed one when it is recent enough, else pip's own fetch of it. Returns the
    environment's Python."""
    import os
    import shutil

    src = tmp_path / "src"  # a copy: the build leaves its folders where it runs
    shutil.copytree(ROOT, src, ignore=shutil.ignore_patterns(".git", "__pycache__", "build", "*.egg-info", ".ci"))
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", "--without-pip", str(venv)], check=True, timeout=300)
    python = venv / ("Scripts" if os.name == "nt" else "bin") / "python"
    from importlib.metadata import PackageNotFoundError, version

    try:
        backend = int(version("setuptools").split(".")[0]) >= 77  # what pyproject.toml asks
    except (PackageNotFoundError, ValueError):
        backend = False
    proc = subprocess.run([python, "-m", "pip", "install", "--no-deps", "--quiet",
                           *(["--no-build-isolation"] if backend else []), str(src)],
                          capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stderr
    return python


@pytest.mark.slow  # a virtual environment, an install and a compile of the search kernels
def test_a_plain_install_compiles_the_search_kernels_once(tmp_path):
    """A fresh plain install, numba's default cache (beside the installed source): three runs
    of a question the portfolio answers while its search is still compiling print the compile
    note at most once, and the search kernels are in the cache afterwards (the compile used to
    be cut off at exit: noted, paid for and lost on every run)."""
    import os

    python = _plain_install(tmp_path)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "NUMBA_CACHE_DIR")}
    where = subprocess.run([python, "-c", "import kt_formal.engines as e, kt_formal.api as a, kt_formal.survey as s; "
                                          "print(e.__path__[0]); print(a.__path__[0]); print(s.__path__[0])"],
                           cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    engines, *others = where.stdout.split()
    # every package from the install itself (the borrowed site-packages hold the editable one)
    assert where.returncode == 0 and all(p.startswith(str(tmp_path / "venv")) for p in (engines, *others)), (
        where.stdout, where.stderr)
    command = python.parent / "kt-formal"
    notes = 0
    for _ in range(3):
        proc = subprocess.run([command, "exists", "3", "9", "--remove", "b2"], cwd=tmp_path, env=env,
                              capture_output=True, text=True, timeout=900)
        assert proc.returncode == 1, proc.stderr  # no closed tour, with its proof
        notes += proc.stderr.count("compiling the search kernels once")
    assert notes <= 1
    cached = {name.split("-")[0] for name in os.listdir(os.path.join(engines, "__pycache__")) if name.endswith(".nbi")}
    assert {"pathsearch_kernels.search_kernel", "pathsearch_kernels.plain_kernel",
            "pathsearch_kernels.warnsdorff_kernel"} <= cached, cached


_LEFT_COMPILING = """
import atexit, os, sys, threading, time
from kt_formal.engines.compiled import Preparation

started = threading.Event()


def warm_up():  # a compile in a thread the process leaves, as the portfolio leaves a search
    started.set()
    time.sleep(1.0)
    with open(sys.argv[1], "w") as fh:
        fh.write("cached")


group = Preparation((), "a toy group", 1, warm_up)
threading.Thread(target=group, kwargs={"note": False}, daemon=True).start()
started.wait()
if sys.argv[2] == "command":  # the command's own exit (kt_formal.cli.run)
    atexit._run_exitfuncs()
    os._exit(0)
sys.exit(0)  # a library user's script
"""


@pytest.mark.parametrize("how", ["command", "script"])
def test_a_compile_left_running_ends_before_the_process_does(tmp_path, how):
    """A warm-up still running in another thread when the process exits is waited for, so
    what it compiles reaches the disk cache (numba writes a kernel when its compile ends)."""
    marker = tmp_path / "done"
    proc = subprocess.run([sys.executable, "-c", _LEFT_COMPILING, str(marker), how], capture_output=True,
                          text=True, cwd=ROOT, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert marker.read_text() == "cached"
