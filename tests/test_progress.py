"""Progress: a live line on a terminal (tested through a pseudo-terminal), nothing in pipes."""

from __future__ import annotations

import io
import os
import select
import subprocess
import sys
import time

import pytest

from conftest import ROOT
from kt_formal.progress import Progress, format_status, progress_for

pty = pytest.importorskip("pty")  # POSIX only

SCRIPT = """
import sys, time
from kt_formal.progress import progress_for
quiet = len(sys.argv) > 1 and sys.argv[1] == "quiet"
with progress_for(enabled=not quiet, label="demo", delay=0.05) as p:
    for i in range(8):
        p(i, 8, "working")
        time.sleep(0.05)
print("done")
"""


def _env():
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    return env


def run_on_pty(argv, timeout=120.0):
    """Run argv with stderr on a pseudo-terminal; return (exit code, stdout, bytes seen on the pty)."""
    master, slave = os.openpty()
    proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=slave, env=_env())
    os.close(slave)
    seen = b""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        ready, _, _ = select.select([master], [], [], 0.1)
        if ready:
            try:
                chunk = os.read(master, 65536)
            except OSError:  # the child closed its end (Linux raises EIO)
                break
            if not chunk:
                break
            seen += chunk
        elif proc.poll() is not None:
            break
    out = proc.stdout.read().decode()
    proc.wait(timeout=10)
    os.close(master)
    return proc.returncode, out, seen


def run_in_pipe(argv):
    proc = subprocess.run(argv, capture_output=True, env=_env(), timeout=120)
    return proc.returncode, proc.stdout.decode(), proc.stderr


# ---------------------------------------------------------------------- unit
def test_format_status():
    line = format_status("cpsat", 30.0, 60.0, "searching", 31.5, 3)
    assert "cpsat: searching" in line and "30/60" in line and "[#####.....]" in line
    assert "50%" in line and "31.5 s" in line
    line = format_status("count", 1234.0, None, "nodes", 2.0, 0)
    assert "1234" in line and "[" not in line
    assert len(format_status("x" * 200, 1, 2, "y", 0.0, 0, width=40)) == 40


def test_silent_when_not_a_terminal():
    buf = io.StringIO()
    with progress_for(label="x", stream=buf, delay=0.0) as p:
        assert not p.active
        p(1, 2, "t")
        time.sleep(0.15)
    assert buf.getvalue() == ""


class _FakeTTY(io.StringIO):
    def isatty(self):
        return True


def test_draws_and_clears_on_a_terminal_like_stream():
    buf = _FakeTTY()
    with progress_for(label="job", stream=buf, delay=0.0, rate=50) as p:
        assert p.active
        p(3, 4, "step")
        time.sleep(0.2)
    text = buf.getvalue()
    assert "job: step 3/4" in text and text.endswith("\r\x1b[K")
    buf2 = _FakeTTY()
    with progress_for(enabled=False, label="job", stream=buf2, delay=0.0) as p:
        p(3, 4, "step")
        time.sleep(0.1)
    assert buf2.getvalue() == ""


def test_rate_limit():
    buf = _FakeTTY()
    p = Progress("r", buf, rate=10, delay=0.0).start()
    for i in range(20000):          # many calls: the display does not follow each one
        p(i, 20000, "")
    time.sleep(0.35)
    p.close()
    assert 1 <= buf.getvalue().count("\r\x1b[K") <= 8


def test_quick_work_never_draws():
    buf = _FakeTTY()
    with progress_for(label="quick", stream=buf) as p:  # default delay
        p(1, 1, "")
    assert buf.getvalue() == ""


# ---------------------------------------------------------------------- real terminals
def test_pty_shows_progress_and_pipe_does_not():
    code, out, seen = run_on_pty([sys.executable, "-c", SCRIPT])
    assert code == 0 and out == "done\n"
    assert b"demo: working" in seen and seen.rstrip(b"\r\n").endswith(b"\x1b[K")
    code, out, err = run_in_pipe([sys.executable, "-c", SCRIPT])
    assert code == 0 and out == "done\n" and err == b""
    code, out, seen = run_on_pty([sys.executable, "-c", SCRIPT, "quiet"])
    assert code == 0 and seen == b""


# a CP-SAT search that lasts more than a second (model building alone is well over the
# 0.3 s delay); found (0) or limit reached (3) are both fine here
LONG_TOUR = ["tour", "60", "60", "--engine", "cpsat", "--time-limit", "2", "--out", os.devnull]


@pytest.mark.parametrize("quiet", [None, "before", "after"])
def test_cli_tour_progress_on_a_terminal(quiet):
    args = list(LONG_TOUR)
    if quiet == "before":
        args = ["--quiet", *args]
    elif quiet == "after":
        args = [*args, "--quiet"]
    code, _, seen = run_on_pty([sys.executable, "-m", "kt_formal", *args])
    assert code in (0, 3)
    if quiet:
        assert seen == b""
    else:
        assert b"cpsat:" in seen and (b"building the model" in seen or b"searching" in seen)


def test_cli_tour_no_progress_in_a_pipe():
    code, _, err = run_in_pipe([sys.executable, "-m", "kt_formal", *LONG_TOUR])
    assert code in (0, 3)
    text = err.decode()
    assert "\r" not in text and "\x1b" not in text and text.count("\n") == 1


def test_lines_into_a_file_one_each_time_done_moves_on():
    """A long count's -v into a log file: a plain line at each step, nothing redrawn."""
    out = io.StringIO()
    with progress_for(label="count", stream=out, lines=True) as p:
        for done, text in ((1, "column 1 of 3"), (1, "column 1 of 3"), (2, "column 2 of 3"), (3, "")):
            p(done, 3, text)
    lines = out.getvalue().splitlines()
    assert [x.rsplit(" (", 1)[0] for x in lines] == ["count: column 1 of 3", "count: column 2 of 3", "count: 3"]
    assert "\r" not in out.getvalue() and "\x1b" not in out.getvalue()
    quiet = io.StringIO()
    with progress_for(enabled=False, label="count", stream=quiet, lines=True) as p:
        p(1, 3, "column 1 of 3")
    assert quiet.getvalue() == ""


def test_count_verbose_into_a_file_prints_each_column(tmp_path):
    log = tmp_path / "log"
    with open(log, "w") as err:
        run = subprocess.run([sys.executable, "-m", "kt_formal", "count", "5", "6", "--method", "frontier", "-v"],
                             stdout=subprocess.PIPE, stderr=err, text=True, timeout=300, cwd=ROOT)
    assert run.returncode == 0 and run.stdout.startswith("8 closed tours"), run.stdout  # Schwenk: 5x6 has 8
    text = log.read_text()
    assert [f"count: column {c} of 6" in text for c in range(1, 7)] == [True] * 6, text
