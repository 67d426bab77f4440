"""Shared fixtures: run the command line in-process or as a real subprocess."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

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
# the disk cache. Other kernels (the searches', a few seconds) compile where needed.
_WARM: dict = {"proc": None}
_COMPILE_THE_COUNTER = ("from kt_formal.counting._frontier_jit import prepare_kernels; "
                        "prepare_kernels(note=False)")


def _checkout_env(env_extra=None) -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    env.pop("KT_FORMAL_DEBUG", None)
    env.update(env_extra or {})
    return env


def wait_for_warm() -> None:
    """Wait until the session's background compile (if any) has finished."""
    proc = _WARM["proc"]
    if proc is not None:
        proc.wait()
        _WARM["proc"] = None


def pytest_configure(config):
    if os.environ.get("KT_FORMAL_TEST_WARM", "1") == "0" or hasattr(config, "workerinput"):
        return
    from kt_formal.counting import _frontier_jit
    from kt_formal.engines._jit import kernels_compiled

    if config.option.collectonly or all(kernels_compiled(k) for k in _frontier_jit.KERNELS):
        return
    _WARM["proc"] = subprocess.Popen([sys.executable, "-c", _COMPILE_THE_COUNTER], env=_checkout_env(),
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
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
