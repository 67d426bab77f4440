"""Errors in Python's words: a message the package raises to a Python caller names the keyword
arguments, never a command-line option; the command names its own options, as it always did."""

import json
import re

import pytest

from kt_formal import api
from kt_formal.board import Board
from kt_formal.api import in_command_words
from kt_formal.exceptions import InvalidInput, Worded, message_in
from kt_formal.question import Question

#: An exhaustive-search record too large to replay in half a second (as tests/test_hostile.py).
FORGED_RECORD = {"format": "kt-formal/1", "kind": "proof", "method": "exhaustive",
                 "board": {"rows": 7, "cols": 16, "holes": []}, "closed": True, "start": None, "end": None,
                 "engine": "exhaustive", "nodes": 2000000000, "pruning": "none"}

OPTION = re.compile(r"(?<![\w-])--[a-z]")


def python_words(text: str) -> str:
    assert not OPTION.search(text), text
    return text


def raised(call) -> BaseException:
    with pytest.raises(api.KtFormalError) as info:
        call()
    return info.value


def an_old_checkpoint(tmp_path):
    d = tmp_path / "ckpt"
    d.mkdir()
    (d / "result.json").write_text("not json")
    return d


def test_a_worded_message_names_each_option_its_way():
    text = Worded("{resume} goes on from {x}; {a} {b}", {"resume": "resume=True", "a": "{b}", "b": "B"})
    assert str(text) == "resume=True goes on from {x}; {b} B"  # braces that are no field stay
    assert text.in_words({"resume": "--resume"}) == "--resume goes on from {x}; {b} B"
    exc = InvalidInput(text)
    assert message_in(exc, {"resume": "--resume"}).startswith("--resume goes")
    assert message_in(ValueError("--plain"), {"plain": "x"}) == "--plain"


def test_an_old_checkpoint_is_refused_in_each_ones_words(tmp_path, cli):
    d = an_old_checkpoint(tmp_path)
    exc = raised(lambda: api.count(5, 6, checkpoint=str(d)))
    assert python_words(str(exc)).endswith("resume=True goes on from it, discard_checkpoint=True removes it")
    r = cli("count", "5", "6", "--checkpoint", d)
    assert r.code == 2
    assert r.err == (f"kt-formal: the directory {d} holds a checkpoint that cannot be read: --resume goes on "
                     "from it, --discard-checkpoint removes it\n")


def test_dask_with_a_checkpoint_is_refused_in_each_ones_words(tmp_path, cli):
    d = tmp_path / "ckpt"
    exc = raised(lambda: api.count(5, 6, checkpoint=str(d), dask="local"))
    assert python_words(str(exc)) == "checkpoint and resume are not taken with dask yet: count on one machine"
    r = cli("count", "5", "6", "--checkpoint", tmp_path / "other", "--dask", "local")
    assert r.code == 2
    assert r.err == "kt-formal: --checkpoint and --resume are not taken with --dask yet: count on one machine\n"


def test_a_row_on_dask_is_refused_in_each_ones_words(cli):
    exc = raised(lambda: api.count_sequence(5, 5, 6, True, lambda key, n: None, dask="local"))
    assert python_words(str(exc)) == "dask counts one board at a time, not a row of boards"
    r = cli("count", "--sequence", "5", "5..6", "--dask", "local")
    assert r.code == 2 and r.err == "kt-formal: --dask counts one board at a time, not a --sequence\n"


def test_no_second_count_is_refused_in_each_ones_words(cli):
    exc = raised(lambda: api.second_count(Question(Board(8, 8)), "frontier"))
    assert python_words(str(exc)).startswith("a second count: no second way to count the 8x8 board fits here: ")
    r = cli("count", "8", "8", "--check")
    assert r.code == 2 and r.err.startswith("kt-formal: --check: no second way to count the 8x8 board fits here: ")
    assert r.err.removeprefix("kt-formal: --check") == "\n".join([str(exc).removeprefix("a second count"), ""])


def test_forced_moves_for_a_path_search_are_refused_in_python_words():
    question = Question(Board(6, 6), forced=(((0, 0), (1, 2)),))
    exc = raised(lambda: api.tour(question, engine="warnsdorff"))
    assert python_words(str(exc)) == "the warnsdorff engine does not take forced moves; use engine='cpsat'"
    assert in_command_words(exc).endswith("; use --engine cpsat")


def test_a_tour_too_large_for_json_is_refused_in_each_ones_words(tmp_path, cli):
    text = api.json_limit_message(2_000_000)
    assert python_words(text).endswith("use a file FILE.ktour (compact binary), FILE.npy or fmt='succ'")
    r = cli("tour", "1000", "2000", "--format", "json")
    assert r.code == 2
    assert r.err == ("kt-formal: JSON lists every square and is limited to 1,000,000 squares; this board has "
                     "2,000,000 squares: use --out FILE.ktour (compact binary), --out FILE.npy or --format succ\n")


def test_a_replay_out_of_time_is_unknown_in_each_ones_words(tmp_path, cli):
    path = tmp_path / "forged.json"
    path.write_text(json.dumps(FORGED_RECORD))
    v = api.verify(path, replay=True, time_limit=0.5)
    assert v.answer == "unknown"
    assert python_words(v.claim).endswith("(neither accepted nor rejected; a longer time_limit gives it longer)")
    r = cli("verify", "--replay", "--time-limit", "0.5", path)
    assert r.code == 3
    assert r.err.endswith("(neither accepted nor rejected; --time-limit gives it longer)\n")


def test_a_record_the_kernel_does_not_check_is_named_in_each_ones_words(tmp_path, cli):
    path = tmp_path / "forged.json"
    path.write_text(json.dumps(FORGED_RECORD))
    v = api.verify(path)
    assert v.answer == "not-checked"
    assert python_words(v.claim).endswith("the kernel runs no search (verify(..., replay=True) re-runs it)")
    r = cli("verify", path)
    assert r.code == 1
    assert r.out.endswith("the kernel runs no search (kt-formal verify --replay FILE re-runs it)\n")


def test_a_one_dimensional_array_is_refused_in_each_ones_words(tmp_path, cli):
    import numpy as np

    path = tmp_path / "line.npy"
    np.save(path, np.arange(5))
    exc = raised(lambda: api.verify(path))
    assert python_words(str(exc)).endswith("as Tour.save(path, 'succ') writes it")
    r = cli("verify", path)
    assert r.code == 2 and r.err.endswith("(rows, cols), as 'kt-formal tour --format succ' writes it\n")


def test_an_open_grid_is_read_in_each_ones_words(tmp_path, cli):
    path = tmp_path / "tour.txt"
    api.tour(5, 6, closed=False, threads=1).tour.save(path)
    text = path.read_text().splitlines()
    path.write_text("\n".join(line for line in text if not line.startswith("#")) + "\n")  # no header: a plain grid
    v = api.verify(path)
    assert v.answer == "verified"
    assert python_words(v.claim).endswith("(closed=True also checks the closing move))")
    r = cli("verify", path)
    assert r.code == 0 and r.out.endswith("(--closed also checks the closing move))\n")


@pytest.mark.parametrize("options, words, option", [
    ({"spill_dir": "/nonexistent/spill"}, "spill_dir '/nonexistent/spill' is not a directory", "--spill-dir"),
    ({"resume": True}, "resume goes with checkpoint (the directory of the stopped count)", "--resume"),
    ({"method": "frontier", "out": "tours.txt"}, "out lists every tour: use method='search'", "--out")])
def test_the_counts_refusals_are_in_each_ones_words(cli, options, words, option):
    """The count's own refusals (the policy's), once worded by a words= table passed down, now
    Worded like every other message: Python reads keywords, the command its options."""
    exc = raised(lambda: api.count(5, 6, closed=False, **options))
    assert python_words(str(exc)) == words
    argv = {"spill_dir": ["--spill-dir", "/nonexistent/spill"], "resume": ["--resume"],
            "method": ["--method", "frontier"], "out": ["--out", "tours.txt"]}
    r = cli("count", "5", "6", "--open", *[a for k in options for a in argv[k]])
    assert r.code == 2 and r.err.startswith("kt-formal: " + in_command_words(exc)) and option in r.err


def test_a_census_family_is_refused_in_each_ones_words(tmp_path, cli):
    exc = raised(lambda: api.census(api.Family(rows=4, cols=5, rect_holes=True, start=(0, 0)), db=tmp_path / "c.db"))
    assert python_words(str(exc)) == "rect_holes asks tours without fixed ends: start and end do not go with it"
    r = cli("census", "4", "5", "--rect-holes", "--start", "a1", "--db", tmp_path / "d.db")
    assert r.code == 2 and r.err == ("kt-formal: --rect-holes asks tours without fixed ends: --start and --end "
                                     "do not go with it\n")


def test_the_note_before_a_large_count_is_in_each_ones_words(cli):
    notes: list = []
    api.count(8, 8, time_limit=0.2, note=notes.append)
    assert len(notes) == 1 and python_words(notes[0]).endswith("; time_limit (now 0.2 s) bounds the run")
    r = cli("count", "8", "8", "--time-limit", "0.2")
    assert r.code == 3 and "; --time-limit (now 0.2 s) bounds the run\n" in r.err
