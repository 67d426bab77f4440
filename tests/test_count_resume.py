"""Checkpoints of the frontier counter: a count stopped (killed, interrupted) goes on from its
last checkpoint with the same answer."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from kt_formal.question import Question
from kt_formal.board import Board
from kt_formal.counting.frontier_jit import count_request_jit, count_row
from kt_formal.exceptions import InvalidInput

ROOT = Path(__file__).resolve().parents[1]


class _Stop(Exception):
    pass


def _stop_at(column):
    def progress(done, total, text):
        assert f"column {done} of {total}" in text
        if done == column:
            raise _Stop
    return progress


def _steps(d):
    return sorted(n for n in os.listdir(d) if n.startswith("step-"))


@pytest.mark.parametrize("rows, cols, closed, start", [(5, 8, True, None), (4, 9, False, None),
                                                        (5, 7, False, (0, 0))])
def test_interrupted_count_resumes_with_the_same_answer(tmp_path, rows, cols, closed, start):
    b = Board(rows, cols)
    want = count_request_jit(Question(b, closed, start))
    d = str(tmp_path / "ck")
    with pytest.raises(_Stop):
        count_request_jit(Question(b, closed, start), progress=_stop_at(5), checkpoint=d, checkpoint_every=0)
    # the checkpoint of the last step done is there, and only that one: the square before
    # the last of column 5 (the stop comes at the column's end), so the count goes on
    # from inside a column, with four whole columns counted
    k = min(rows, cols)
    assert _steps(d) == [f"step-{5 * k - 2:08d}"]
    got = count_request_jit(Question(b, closed, start), checkpoint=d, resume=True)
    assert got.resumed == 4
    assert got.count == want.count > 0
    assert got.max_states == want.max_states
    assert got.states_per_column == want.states_per_column
    # finished: the answer is kept, the states are gone; asking again reads the answer
    assert _steps(d) == [] and json.loads(Path(d, "result.json").read_text())["count"] == str(want.count)
    again = count_request_jit(Question(b, closed, start), checkpoint=d, resume=True)
    assert again.count == want.count and again.resumed == max(rows, cols)


def test_a_checkpoint_of_another_count_is_refused(tmp_path):
    d = str(tmp_path / "ck")
    with pytest.raises(_Stop):
        count_request_jit(Question(Board(5, 8), True), progress=_stop_at(5), checkpoint=d, checkpoint_every=0)
    with pytest.raises(InvalidInput, match="another count"):
        count_request_jit(Question(Board(5, 8), False), checkpoint=d, resume=True)
    with pytest.raises(InvalidInput, match="another count"):
        count_request_jit(Question(Board(5, 8, holes=[(0, 0), (0, 1)]), True), checkpoint=d, resume=True)
    with pytest.raises(InvalidInput, match="another count"):  # its states are not merged: other states
        count_request_jit(Question(Board(5, 8), True), checkpoint=d, resume=True, symmetry=False)
    r = str(tmp_path / "row")
    with pytest.raises(_Stop):
        count_row(5, 6, 8, progress=_stop_at(5), checkpoint=r, checkpoint_every=0)
    with pytest.raises(InvalidInput, match="another count"):
        count_row(5, 6, 8, checkpoint=r, resume=True, symmetry=False)


def test_without_a_checkpoint_resume_starts_afresh(tmp_path):
    got = count_request_jit(Question(Board(5, 6), True), checkpoint=str(tmp_path / "new"), resume=True)
    assert got.count == 8 and got.resumed == 0


def test_interrupted_row_resumes_and_goes_further(tmp_path):
    want = count_row(4, 5, 20, False, partial=True)
    d = str(tmp_path / "row")
    seen = {}
    with pytest.raises(_Stop):
        count_row(4, 5, 16, False, partial=True, progress=_stop_at(12), checkpoint=d, checkpoint_every=0,
                  on_count=seen.__setitem__)
    assert len(seen) == 4 * (11 - 4) + 3 and all(want[key] == v for key, v in seen.items())
    again = {}
    # asked further than the first time: the sweep's states do not depend on the last width
    got = count_row(4, 5, 20, False, partial=True, checkpoint=d, resume=True, on_count=again.__setitem__)
    assert got == want and again == want


def _count_cli(*args, **kw):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.Popen([sys.executable, "-m", "kt_formal", "count", *args], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)


@pytest.mark.slow
def test_count_killed_half_way_resumes_with_the_same_number(tmp_path):
    """SIGKILL once the checkpoint of column 4 of 8 is written; --resume gives the count."""
    want = count_request_jit(Question(Board(5, 8), False)).count
    d = tmp_path / "ck"
    proc = _count_cli("5", "8", "--open", "--checkpoint", str(d), "--checkpoint-every", "0",
                      "--time-limit", "600")
    deadline = time.monotonic() + 300
    try:
        while time.monotonic() < deadline:
            steps = _steps(d) if d.exists() else []
            if steps and int(steps[-1][5:]) >= 4 * 5 - 1:
                break
            assert proc.poll() is None, "the count ended before it could be killed"
            time.sleep(0.02)
        proc.send_signal(signal.SIGKILL)
    finally:
        proc.kill()
        proc.wait()
    assert proc.returncode == -signal.SIGKILL
    assert not (d / "result.json").exists()
    res = _count_cli("5", "8", "--open", "--checkpoint", str(d), "--resume", "--time-limit", "600")
    out, err = res.communicate(timeout=600)
    assert res.returncode == 0, err
    assert out.startswith(f"{want} open tours of the 5x8 board ({2 * want} directed)")
    assert "resumed from the checkpoint" in err and "were counted already" in err


@pytest.mark.parametrize("args, match", [
    (["5", "8", "--resume"], "--resume goes with --checkpoint"),
    (["5", "8", "--checkpoint-every", "5"], "--checkpoint-every goes with --checkpoint"),
    (["5", "8", "--checkpoint-every", "nan", "--checkpoint", "x"], "number"),
    (["5", "8", "--checkpoint-every", "-1", "--checkpoint", "x"], "number"),
    (["5", "5", "--open", "--method", "search", "--checkpoint", "x"], "go with the frontier method"),
    (["6", "6", "--method", "search", "--no-mirror"], "go with the frontier method"),
])
def test_checkpoint_options_bad_input(cli, args, match):
    r = cli("count", *args)
    assert r.code == 2 and match in r.err and "Traceback" not in r.err


def test_a_damaged_checkpoint_is_a_one_line_error(cli, tmp_path):
    d = tmp_path / "ck"
    with pytest.raises(_Stop):
        count_request_jit(Question(Board(5, 8), True), progress=_stop_at(5), checkpoint=str(d), checkpoint_every=0)
    step = d / _steps(d)[0]
    (step / "keys-0.npy").write_bytes(b"not an array")
    r = cli("count", "5", "8", "--checkpoint", str(d), "--resume")
    assert r.code == 2 and "damaged" in r.err and "Traceback" not in r.err


def test_a_checkpoint_asks_for_the_frontier_on_a_small_board(cli, tmp_path):
    r = cli("count", "5", "6", "--checkpoint", tmp_path / "ck")
    assert r.code == 0 and r.out.startswith("8 closed tours of the 5x6 board;") and "frontier method" in r.out
    assert (tmp_path / "ck" / "result.json").exists()


def test_a_resumed_count_compiles_nothing(tmp_path):
    """The states read back from a checkpoint have the types of a running count's states
    (writable arrays: a read-only memory map is another type to numba, and made a resumed
    count compile the step kernel again, inside its clock: 25 s with an empty cache)."""
    from numba.core.registry import CPUDispatcher

    from kt_formal.counting import frontier_jit as F

    def signatures():
        return {n: set(map(str, getattr(F, n).signatures)) for n in dir(F)
                if isinstance(getattr(F, n), CPUDispatcher)}

    b = Board(5, 8)
    d = str(tmp_path / "ck")
    with pytest.raises(_Stop):
        count_request_jit(Question(b, True), progress=_stop_at(5), checkpoint=d, checkpoint_every=0)
    before = signatures()
    got = count_request_jit(Question(b, True), checkpoint=d, resume=True)
    assert got.resumed == 4 and got.count > 0
    after = signatures()
    assert {n: after[n] - before[n] for n in after if after[n] - before[n]} == {}


def _stop_after_checkpoint(monkeypatch, step):
    """The checkpoint of sweep step ``step`` (the only one written), then a stop."""
    from kt_formal.counting.frontier_checkpoint import Checkpointer

    write = Checkpointer.write

    def write_then_stop(self, i, chunks, meta):
        if i == step:
            write(self, i, chunks, meta)
            raise _Stop

    monkeypatch.setattr(Checkpointer, "write", write_then_stop)


@pytest.mark.parametrize("rows, cols, closed", [(5, 6, False), (5, 6, True)])
def test_a_count_resumes_from_any_square(tmp_path, monkeypatch, rows, cols, closed):
    """A checkpoint may be of any step, inside a column too (a last column can take hours):
    stopped after each step in turn and resumed, the count and its states are the same."""
    b = Board(rows, cols)
    want = count_request_jit(Question(b, closed))
    steps = rows * cols + 2 * min(rows, cols)  # the sweep's steps, the window's emptying included
    seen = 0
    for j in range(steps):
        d = str(tmp_path / f"ck{j}")
        with monkeypatch.context() as m:
            _stop_after_checkpoint(m, j)
            try:
                count_request_jit(Question(b, closed), checkpoint=d, checkpoint_every=0)
                continue  # no checkpoint after the last steps: the count ended
            except _Stop:
                seen += 1
        assert _steps(d) == [f"step-{j:08d}"]
        got = count_request_jit(Question(b, closed), checkpoint=d, resume=True)
        k, n = min(rows, cols), max(rows, cols)
        assert got.count == want.count
        # what the command's note says: whole columns, and squares of the next one
        assert (got.resumed, got.resumed_squares) == (min((j + 1) // k, n), (j + 1) % k if j + 1 < rows * cols else 0)
        assert got.states_per_column == want.states_per_column and got.max_states == want.max_states
    assert seen >= rows * cols


def test_a_row_resumes_from_any_square(tmp_path, monkeypatch):
    want = count_row(4, 3, 7, False, partial=True)
    for j in range(4 * 7 - 1):
        d = str(tmp_path / f"row{j}")
        with monkeypatch.context() as m:
            _stop_after_checkpoint(m, j)
            with pytest.raises(_Stop):
                count_row(4, 3, 7, False, partial=True, checkpoint=d, checkpoint_every=0)
        assert count_row(4, 3, 7, False, partial=True, checkpoint=d, resume=True) == want
