"""Checkpoints a count can trust: a damaged, edited or foreign checkpoint is refused in one
line (exit 2), never resumed into a number; a new count does not write over another's."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import numpy as np
import pytest

from kt_formal.question import Question
from kt_formal.board import Board
from kt_formal.counting.frontier_checkpoint import META_BYTES, _digest
from kt_formal.counting.frontier_jit import count_request_jit, count_row
from kt_formal.exceptions import InvalidInput


class _Stop(Exception):
    pass


def _stop_at(column):
    def progress(done, total, text):
        if done == column:
            raise _Stop
    return progress


def _checkpoint(d: Path, closed: bool = False) -> Path:
    """A 5x8 count stopped after column 5, its checkpoint in ``d``; the step's directory."""
    with pytest.raises(_Stop):
        count_request_jit(Question(Board(5, 8), closed), progress=_stop_at(5), checkpoint=str(d), checkpoint_every=0)
    return next(p for p in d.iterdir() if p.name.startswith("step-"))


def _edit(path: Path, change, redigest: bool = False) -> None:
    doc = json.loads(path.read_text())
    change(doc)
    if redigest:  # the digest made to match: the fields' own checks must refuse it
        doc["digest"] = _digest(doc)
    path.write_text(json.dumps(doc))


def _bump_count(step):
    a = np.load(step / "counts-0.npy")
    a[0, 0] += 1
    np.save(step / "counts-0.npy", a)


def _flip_a_key_bit(step):
    b = bytearray((step / "keys-0.npy").read_bytes())
    b[200] ^= 1
    (step / "keys-0.npy").write_bytes(bytes(b))


def _meta(change, redigest=False):
    return lambda step: _edit(step / "meta.json", change, redigest)


def _closed_arrays_in(step):
    other = _checkpoint(step.parent.parent / "closed", closed=True)
    for f in other.glob("*.npy"):
        shutil.copy(f, step / f.name)


def _zero_meta(step):
    (step / "meta.json").unlink()
    os.symlink("/dev/zero", step / "meta.json")


def _zero_keys(step):
    (step / "keys-0.npy").unlink()
    os.symlink("/dev/zero", step / "keys-0.npy")


def _big_meta(step):
    (step / "meta.json").write_text(" " * (META_BYTES + 1) + "{}")


TAMPERING = {
    "counts-0.npy: a count +1": (_bump_count, "SHA-256"),
    "keys-0.npy: a bit flipped": (_flip_a_key_bit, "SHA-256"),
    "done edited": (_meta(lambda m: m.update(done=str(int(m["done"]) + 12345))), "digest"),
    "done negative": (_meta(lambda m: m.update(done="-999999999999999999999999999")), "'done'"),
    "done negative, digest remade": (_meta(lambda m: m.update(done="-1"), True), "'done'"),
    "step edited": (_meta(lambda m: m.update(step=m["step"] + 3)), "digest"),
    "step edited, digest remade": (_meta(lambda m: m.update(step=m["step"] + 3), True), "step or files"),
    "step 'abc'": (_meta(lambda m: m.update(step="abc"), True), "'step'"),
    "ratio 1e308": (_meta(lambda m: m.update(ratio={"0": 1e308}), True), "'ratio'"),
    "a field added": (_meta(lambda m: m.update(extra=1), True), "'extra'"),
    "a closed count's arrays copied in": (_closed_arrays_in, "SHA-256"),
    "meta.json a link to /dev/zero": (_zero_meta, "not a regular file"),
    "keys-0.npy a link to /dev/zero": (_zero_keys, "not a regular file"),
    "meta.json past the byte limit": (_big_meta, "larger than"),
    "an older format, without checksums": (_meta(lambda m: m.update(format=1)), "another format"),
}


def _one_line_exit_2(r) -> None:
    assert r.code == 2, (r.code, r.out, r.err)
    assert r.out == ""  # never a number
    assert len(r.err.strip().splitlines()) == 1 and "Traceback" not in r.err and "internal error" not in r.err


@pytest.mark.parametrize("name", list(TAMPERING))
def test_a_tampered_checkpoint_is_refused_in_one_line(cli, tmp_path, name):
    tamper, match = TAMPERING[name]
    d = tmp_path / "ck"
    tamper(_checkpoint(d))
    r = cli("count", "5", "8", "--open", "--checkpoint", d, "--resume")
    _one_line_exit_2(r)
    assert match in r.err


def test_a_tampered_checkpoint_with_json_is_an_error_object(cli, tmp_path):
    d = tmp_path / "ck"
    _meta(lambda m: m.update(step="abc"))(_checkpoint(d))
    r = cli("count", "5", "8", "--open", "--checkpoint", d, "--resume", "--json")
    assert r.code == 2
    doc = json.loads(r.out)
    assert doc["answer"] == "error" and doc["exit_code"] == 2 and "count" not in doc


@pytest.mark.parametrize("redigest", [False, True])
def test_an_edited_result_is_refused(cli, tmp_path, redigest):
    d = tmp_path / "ck"
    want = count_request_jit(Question(Board(5, 6), False), checkpoint=str(d)).count
    assert not [n for n in os.listdir(d) if n != "result.json"]  # written under a temporary name, renamed
    _edit(d / "result.json", lambda r: r.update(count=str(want + 1) if not redigest else "-1"), redigest)
    r = cli("count", "5", "6", "--open", "--checkpoint", d, "--resume")
    _one_line_exit_2(r)


def test_a_foreign_checkpoint_is_kept_unless_discarded(cli, tmp_path):
    """A new count in a directory holding another count's checkpoint is refused and the
    checkpoint kept; --discard-checkpoint removes it and counts afresh."""
    d = tmp_path / "ck"
    step = _checkpoint(d)
    before = sorted(os.listdir(step))
    r = cli("count", "3", "10", "--checkpoint", d)
    _one_line_exit_2(r)
    assert "another count" in r.err and "open tours of a 5x8 board" in r.err and "--discard-checkpoint" in r.err
    assert sorted(os.listdir(step)) == before
    # the same count, not resumed, is refused too (it would start over and remove it)
    r = cli("count", "5", "8", "--open", "--checkpoint", d)
    _one_line_exit_2(r)
    assert "of this count" in r.err
    r = cli("count", "3", "10", "--checkpoint", d, "--discard-checkpoint")
    assert r.code == 0 and r.out.startswith("16 closed tours of the 3x10 board")
    assert os.listdir(d) == ["result.json"]


def test_discard_removes_the_checkpoint_and_nothing_else(cli, tmp_path):
    """--discard-checkpoint removes the steps and the result a count writes, not a directory of
    the user's whose name only begins like a step's (step-notes/ went with it)."""
    d = tmp_path / "ck"
    _checkpoint(d)
    (d / "step-notes").mkdir()
    (d / "step-notes" / "data.txt").write_text("kept\n")
    (d / "notes.txt").write_text("kept\n")
    r = cli("count", "3", "10", "--checkpoint", d, "--discard-checkpoint")
    assert r.code == 0 and r.out.startswith("16 closed tours of the 3x10 board"), r.err
    assert sorted(os.listdir(d)) == ["notes.txt", "result.json", "step-notes"]
    assert (d / "step-notes" / "data.txt").read_text() == "kept\n"


def test_an_untouched_checkpoint_still_resumes(cli, tmp_path):
    want = count_request_jit(Question(Board(5, 8), False)).count
    d = tmp_path / "ck"
    _checkpoint(d)
    r = cli("count", "5", "8", "--open", "--checkpoint", d, "--resume")
    assert r.code == 0 and r.out.startswith(f"{want} open tours of the 5x8 board")


def test_discard_checkpoint_does_not_go_with_resume(cli, tmp_path):
    r = cli("count", "5", "8", "--checkpoint", tmp_path / "ck", "--resume", "--discard-checkpoint")
    _one_line_exit_2(r)


def test_a_row_checkpoint_with_an_edited_count_is_refused(tmp_path):
    d = tmp_path / "row"
    with pytest.raises(_Stop):
        count_row(4, 5, 12, False, progress=_stop_at(9), checkpoint=str(d), checkpoint_every=0)
    step = next(p for p in d.iterdir() if p.name.startswith("step-"))
    _edit(step / "meta.json", lambda m: m["out"][0].__setitem__(1, "-5"), redigest=True)
    with pytest.raises(InvalidInput, match="'out'"):
        count_row(4, 5, 12, False, checkpoint=str(d), resume=True)
