"""Shared fixtures: run the command line in-process or as a real subprocess."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import pytest

try:
    import fcntl
except ImportError:  # pragma: no cover - not on Windows: the workers compile for themselves
    fcntl = None

from kt_formal.cli import main, quiet_blas

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"

# OpenBLAS on one thread in the test processes and every process they start, as the command
# runs it (kt_formal.cli.quiet_blas): its threads spin for about 0.1 s of processor time each
# time NumPy or SciPy loads, in each of the run's processes and scripts
quiet_blas()


@dataclass
class Run:
    code: int
    out: str
    err: str


@pytest.fixture
def cli(capsys):
    """``cli("tour", "8", "8")`` runs kt-formal in-process; returns Run(code, out, err)."""

    def run(*args) -> Run:
        try:
            code = main([str(a) for a in args])
        except SystemExit as exc:  # --help / --version
            code = exc.code if isinstance(exc.code, int) else 0
        cap = capsys.readouterr()
        return Run(code, cap.out, cap.err)

    return run


# ---------------------------------------------------------------- kernels compiled aside
# On a fresh clone the first count compiles the frontier counter's kernels of its kind
# (closed, open, eight across: 20 to 30 s each on 2 cores, more on a busy machine). The
# session compiles the kinds it uses in a process of its own from the start, beside the
# tests that need no count (the default run, ``-m 'not slow'``, counts nothing eight
# across: every test that does is marked slow); a test that counts waits for its kind
# (instead of compiling the same kernels a second time) and then loads them from the disk
# cache; with pytest-xdist the workers wait for the locks the compiling process holds.
# Other kernels (the searches', a few seconds) compile where needed.
_WARM: dict = {"proc": None, "lock": None}
# One lock a kind of count (:data:`~kt_formal.counting.frontier_jit.FILLS`), each let go as
# soon as its kernels are compiled: a test of closed tours waits only for theirs.
_COMPILE_THE_COUNTER = """
import os, sys
from kt_formal.counting import frontier_jit as fj
for arg in sys.argv[1:]:  # "kind:fd": the index of a kind in FILLS and its lock
    kind, fd = map(int, arg.split(":"))
    fj.prepare_fill(fj.FILLS[kind], note=False)
    os.close(fd)
"""


def _checkout_env(env_extra=None) -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    env.pop("KT_FORMAL_DEBUG", None)
    env.update(env_extra or {})
    return env


def wait_for_warm(kinds=None) -> None:
    """Wait until the session's background compile (if any) has compiled the kernels of
    ``kinds`` (indices into ``FILLS``; all when None): by taking the locks it holds, in the
    process that started it and in pytest-xdist workers alike."""
    locks = os.environ.get(_LOCK_VARIABLE, "").split(os.pathsep)  # "" for a kind not compiled
    if fcntl is None:  # no locks: wait for the whole compile
        if _WARM["proc"] is not None:
            _WARM["proc"].wait()
        return
    for i, lock in enumerate(locks):
        if not lock or (kinds is not None and i not in kinds):
            continue
        fd = os.open(lock, os.O_RDONLY)
        try:
            fcntl.flock(fd, fcntl.LOCK_SH)  # granted once the compiling process has let it go
        finally:
            os.close(fd)


#: The file whose lock the background compile holds while it runs (pytest-xdist workers
#: inherit the variable from the process that starts them).
_LOCK_VARIABLE = "KT_FORMAL_TEST_WARM_LOCK"


def _kinds_of_the_run(config) -> list:
    """The kinds of count (indices into ``FILLS``) the session compiles aside: those of
    packed keys in the default run, which leaves out the slow tests (every test of keys
    in base 11 is one), else all of them."""
    from kt_formal.counting import frontier_jit

    fills = frontier_jit.FILLS
    default_run = " ".join((config.option.markexpr or "").split()) == "not slow"
    return [i for i, fill in enumerate(fills) if not (default_run and fill is frontier_jit.fill_wide)]


def pytest_configure(config):
    from kt_formal.counting import frontier_jit
    from kt_formal.engines.compiled import kernels_compiled

    worker = hasattr(config, "workerinput")
    if worker and not os.environ.get(_LOCK_VARIABLE):
        return
    if not worker:
        os.environ.pop(_LOCK_VARIABLE, None)
        kinds = _kinds_of_the_run(config)
        fills = frontier_jit.FILLS
        if os.environ.get("KT_FORMAL_TEST_WARM", "1") == "0" or config.option.collectonly or \
                all(kernels_compiled(k) for i in kinds for k in frontier_jit.fill_group(fills[i])):
            return
        folder = _WARM["lock"] = tempfile.mkdtemp(prefix="kt-warm-")
        locks = [os.path.join(folder, f"lock{i}") if i in kinds else "" for i in range(len(frontier_jit.FILLS))]
        fds = [os.open(lock, os.O_RDWR | os.O_CREAT) for lock in locks if lock]
        try:
            if fcntl is not None:  # the compiling process keeps each lock until its kernels are done
                for fd in fds:
                    fcntl.flock(fd, fcntl.LOCK_EX)
                os.environ[_LOCK_VARIABLE] = os.pathsep.join(locks)
            _WARM["proc"] = subprocess.Popen([sys.executable, "-c", _COMPILE_THE_COUNTER,
                                              *(f"{i}:{fd}" for i, fd in zip(kinds, fds))],
                                             env=_checkout_env(), stdout=subprocess.DEVNULL,
                                             stderr=subprocess.DEVNULL, pass_fds=fds)
        finally:
            for fd in fds:
                os.close(fd)
    prepare = frontier_jit.prepare_kernels

    def after_the_background_compile(note: bool = True, k=None, closed=None) -> float:
        """``prepare_kernels`` of the frontier counter, once the session has compiled its kernels."""
        wait_for_warm([frontier_jit.FILLS.index(fill) for fill in frontier_jit.count_fills(k, closed)])
        return prepare(note, k=k, closed=closed)

    frontier_jit.prepare_kernels = after_the_background_compile


def pytest_sessionfinish(session, exitstatus):
    _WARM["interrupted"] = exitstatus == pytest.ExitCode.INTERRUPTED


def pytest_unconfigure(config):
    proc = _WARM["proc"]
    if proc is not None:
        # a compile cut off is thrown away (numba writes a kernel when its compile ends), and
        # the next session would start it again: it ends first, unless the run was interrupted
        if _WARM.get("interrupted"):
            proc.kill()
        proc.wait()
    if _WARM["lock"] is not None:
        shutil.rmtree(_WARM["lock"], ignore_errors=True)


def closed_tour_of(board, tour):
    """``tour``, after asserting it is a closed tour of every square of ``board`` that the kernel accepts."""
    assert tour.closed and len(tour) == board.n_squares
    assert tour.check() is None
    return tour


def run_subprocess(*args, stdin: str | None = None, timeout: float = 600, env_extra=None) -> Run:
    """Run ``python -m kt_formal ARGS`` in a fresh interpreter (this checkout on the path)."""
    if args and args[0] in ("count", "warm") and "NUMBA_CACHE_DIR" not in (env_extra or {}):
        wait_for_warm()  # it would compile the same kernels again
    env = _checkout_env(env_extra)
    proc = subprocess.run(
        [sys.executable, "-m", "kt_formal", *map(str, args)],
        input=stdin, capture_output=True, text=True, timeout=timeout, env=env,
    )
    return Run(proc.returncode, proc.stdout, proc.stderr)


@pytest.fixture
def cli_proc():
    """Like ``cli`` but in a separate process (checks exit codes and stderr for real)."""
    return run_subprocess


# ---------------------------------------------------------------- a busy machine, emulated
@pytest.fixture
def busy_cpsat(monkeypatch):
    """``busy_cpsat()`` makes CP-SAT run as on a machine a thousand times busier: every
    wall-clock limit it is given (``Circuit.solve``'s ``time_limit`` and each attempt's
    seconds) is divided by 1000, as if the search got a thousandth of the processor.
    Budgets of deterministic time are left as they are."""
    from kt_formal.engines.circuit import Circuit

    orig = Circuit.solve

    def scaled(seconds, extra):  # set as a parameter: Circuit.solve keeps a floor of 1 ms
        return (None, extra) if seconds is None else (None, {**extra, "max_time_in_seconds": seconds / 1000.0})

    def solve(self, *, time_limit, attempts=None, **kw):
        attempts = [scaled(s, extra) for s, extra in (attempts or [(time_limit, {})])]
        return orig(self, time_limit=None, attempts=attempts, **kw)

    return lambda: monkeypatch.setattr(Circuit, "solve", solve)
