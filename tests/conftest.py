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

from kt_formal.cli import main

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"


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
# On a fresh clone the first count compiles the frontier counter's kernels (about 35 s on
# 2 cores, more on a busy machine). The session compiles them in a process of its own
# from the start, beside the tests that need no count; the first test that counts waits
# for it (instead of compiling the same kernels a second time) and then loads them from
# the disk cache; with pytest-xdist the workers wait for the lock the compiling process
# holds. Other kernels (the searches', a few seconds) compile where needed.
_WARM: dict = {"proc": None, "lock": None}
_COMPILE_THE_COUNTER = ("from kt_formal.counting._frontier_jit import prepare_kernels; "
                        "prepare_kernels(note=False)")


def _checkout_env(env_extra=None) -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    env.pop("KT_FORMAL_DEBUG", None)
    env.update(env_extra or {})
    return env


def wait_for_warm() -> None:
    """Wait until the session's background compile (if any) has finished: in the process
    that started it by waiting for it, in a pytest-xdist worker by taking the lock it holds."""
    proc = _WARM["proc"]
    if proc is not None:
        proc.wait()
        _WARM["proc"] = None
    lock = os.environ.get(_LOCK_VARIABLE)
    if lock and fcntl is not None:
        fd = os.open(lock, os.O_RDONLY)
        try:
            fcntl.flock(fd, fcntl.LOCK_SH)  # granted once the compiling process has exited
        finally:
            os.close(fd)


#: The file whose lock the background compile holds while it runs (pytest-xdist workers
#: inherit the variable from the process that starts them).
_LOCK_VARIABLE = "KT_FORMAL_TEST_WARM_LOCK"


def pytest_configure(config):
    from kt_formal.counting import _frontier_jit
    from kt_formal.engines._jit import kernels_compiled

    worker = hasattr(config, "workerinput")
    if worker and not os.environ.get(_LOCK_VARIABLE):
        return
    if not worker:
        os.environ.pop(_LOCK_VARIABLE, None)
        if os.environ.get("KT_FORMAL_TEST_WARM", "1") == "0" or config.option.collectonly or \
                all(kernels_compiled(k) for k in _frontier_jit.KERNELS):
            return
        lock = _WARM["lock"] = os.path.join(tempfile.mkdtemp(prefix="kt-warm-"), "lock")
        fd = os.open(lock, os.O_RDWR | os.O_CREAT)
        try:
            if fcntl is not None:  # the compiling process keeps this lock until it exits
                fcntl.flock(fd, fcntl.LOCK_EX)
                os.environ[_LOCK_VARIABLE] = lock
            _WARM["proc"] = subprocess.Popen([sys.executable, "-c", _COMPILE_THE_COUNTER], env=_checkout_env(),
                                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, pass_fds=(fd,))
        finally:
            os.close(fd)
    prepare = _frontier_jit.prepare_kernels

    class AfterTheBackgroundCompile:
        """``prepare_kernels`` of the frontier counter, once the session's compile is done."""

        def __getattr__(self, name):
            return getattr(prepare, name)

        def __call__(self, note: bool = True) -> float:
            if not prepare.ready:
                wait_for_warm()
            return prepare(note)

    _frontier_jit.prepare_kernels = AfterTheBackgroundCompile()


def pytest_unconfigure(config):
    proc = _WARM["proc"]
    if proc is not None:
        proc.kill()
        proc.wait()
    if _WARM["lock"] is not None:
        shutil.rmtree(os.path.dirname(_WARM["lock"]), ignore_errors=True)


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
