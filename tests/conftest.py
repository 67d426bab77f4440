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


def run_subprocess(*args, stdin: str | None = None, timeout: float = 600, env_extra=None) -> Run:
    """Run ``python -m kt_formal ARGS`` in a fresh interpreter (this checkout on the path)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    env.pop("KT_FORMAL_DEBUG", None)
    env.update(env_extra or {})
    proc = subprocess.run(
        [sys.executable, "-m", "kt_formal", *map(str, args)],
        input=stdin, capture_output=True, text=True, timeout=timeout, env=env,
    )
    return Run(proc.returncode, proc.stdout, proc.stderr)


@pytest.fixture
def cli_proc():
    """Like ``cli`` but in a separate process (checks exit codes and stderr for real)."""
    return run_subprocess
