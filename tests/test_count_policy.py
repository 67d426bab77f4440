"""One policy for ``kt-formal count`` and ``kt_formal.count``: the same method for the same
question, never a partial number given as the count, and ``--check``'s second count."""

from __future__ import annotations

import json

import pytest

import kt_formal as kt
from kt_formal.board import Board
from kt_formal.counting import policy
from kt_formal.question import Question
from kt_formal.exceptions import InvalidInput

#: (command line, keyword arguments of kt.count): the same question both ways
QUESTIONS = [
    (["3", "4", "--open"], dict(board=3, cols=4, closed=False)),
    (["5", "6"], dict(board=5, cols=6)),
    (["5", "6", "--open"], dict(board=5, cols=6, closed=False)),
    (["6", "6"], dict(board=6, cols=6)),
    (["6", "6", "--open"], dict(board=6, cols=6, closed=False)),
    (["3", "10"], dict(board=3, cols=10)),
    (["4", "5", "--open", "--start", "a1"], dict(board=4, cols=5, closed=False, start="a1")),
    (["5", "8"], dict(board=5, cols=8)),
    (["5", "5", "--open", "--node-limit", "1000000"], dict(board=5, cols=5, closed=False, node_limit=10**6)),
    (["6", "6", "--hole", "2,2,2x2"], dict(board=6, cols=6, hole="2,2,2x2")),
    (["5", "7", "--hole", "0,0,1x1", "--open"], dict(board=5, cols=7, hole="0,0,1x1", closed=False)),
]


@pytest.mark.parametrize("argv, kwargs", [pytest.param(a, k, id=" ".join(a), marks=[pytest.mark.slow] * (a == ["6", "6", "--open"]))
                                           for a, k in QUESTIONS])  # 6x6 open, 8 s: the test below counts it by default
def test_command_and_api_choose_the_same_method_and_count(cli, argv, kwargs):
    r = cli("count", *argv, "--json")
    assert r.code == 0, r.err
    got = json.loads(r.out)
    api = kt.count(**kwargs)
    assert api.method == got["method"] and api.count == got["count"] and api.complete
    assert api.method == policy.choose_method(api.question, node_limit=kwargs.get("node_limit"))


def test_api_counts_the_open_tours_of_6x6_by_the_frontier_method():
    """3,318,960 (A165134: 6,637,920 directed), as the command counts them."""
    got = kt.count(6, 6, closed=False)
    assert got.complete and got.method == "frontier"
    assert got.count == 3_318_960 and got.directed_count == 6_637_920


def test_an_unfinished_frontier_count_gives_no_number():
    got = kt.count(7, 7, closed=False, time_limit=1)
    assert got.complete is False and got.count is None and got.lower_bound is None
    assert got.exit_code == 3 and "time limit" in got.reason
    doc = got.to_json()
    assert doc["count"] is None and doc["answer"] == "unknown" and doc["exit_code"] == 3


def test_an_unfinished_search_gives_its_tours_as_a_lower_bound_only():
    got = kt.count(5, 5, closed=False, method="search", node_limit=20_000)
    assert got.complete is False and got.count is None
    assert isinstance(got.lower_bound, int) and 0 <= got.lower_bound < 864
    assert got.to_json()["count"] is None and got.to_json()["lower_bound"] == got.lower_bound


@pytest.mark.parametrize("options", [dict(time_limit=float("nan")), dict(time_limit=-1), dict(time_limit=0),
                                     dict(checkpoint_every=float("nan")), dict(checkpoint_every=-5)])
def test_the_api_refuses_limits_that_are_no_number(options, tmp_path):
    """kt.count as kt.decide: a NaN or negative limit is bad input (NaN counted without a limit,
    -1 ended unknown at once, a NaN checkpoint interval never wrote one)."""
    if "checkpoint_every" in options:
        options["checkpoint"] = str(tmp_path / "ck")
    with pytest.raises(InvalidInput, match="time limit|checkpoint"):
        kt.count(5, 5, closed=False, **options)
    with pytest.raises(InvalidInput):
        kt.count(3, 5, closed=False, method="frontier", **options)


@pytest.mark.parametrize("threads", [0, -1, 1.5, float("nan"), True, "two"])
@pytest.mark.parametrize("board", [(5, 5), (3, 4), (5, 6)])
def test_the_api_refuses_threads_that_are_no_count_whichever_method_counts(board, threads):
    """kt.count(5, 5, threads=0) counted by the search, which takes no threads, and said
    nothing; the frontier refused it. Now both refuse it, before counting."""
    assert policy.method_for(Question(Board(*board))) == "search"  # the route that let it pass
    with pytest.raises(InvalidInput, match="threads"):
        kt.count(*board, threads=threads)
    with pytest.raises(InvalidInput, match="threads"):
        kt.count(*board, closed=False, method="frontier", threads=threads)


def test_the_command_says_unknown_without_a_count(cli):
    r = cli("count", "7", "7", "--open", "--time-limit", "1")
    assert r.code == 3 and r.out == "" and "unknown" in r.err
    r = cli("count", "7", "7", "--open", "--time-limit", "1", "--json")
    doc = json.loads(r.out)
    assert r.code == 3 and doc["count"] is None and doc["complete"] is False


@pytest.mark.parametrize("argv, way", [(["5", "6", "--open"], "search"), (["6", "6"], "frontier"),
                                        (["5", "7", "--open"], "across"), (["4", "7", "--open"], "search")])
def test_check_counts_twice_and_states_both(cli, argv, way):
    board = Board(int(argv[0]), int(argv[1]))
    request = Question(board, closed="--open" not in argv)
    first = policy.choose_method(request)
    assert policy.second_way(request, first) == way
    r = cli("count", *argv, "--check", "--json")
    assert r.code == 0, r.err
    doc = json.loads(r.out)
    assert doc["check"]["agree"] is True and doc["check"]["count"] == doc["count"] > 0
    assert doc["check"]["method"] != doc["method"] or way == "across"
    text = cli("count", *argv, "--check")
    assert text.code == 0 and f"checked: {doc['count']} by the" in text.out and "agree" in text.out


def test_check_says_when_the_two_counts_differ(cli, monkeypatch):
    real = policy.check_count

    def off_by_one(request, way, note=None, **options):
        got = real(request, way, note, **options)
        got.count += 1
        return got

    monkeypatch.setattr(policy, "check_count", off_by_one)
    r = cli("count", "5", "6", "--open", "--check")
    assert r.code == 4 and "DIFFER" in r.out
    assert len(r.err.strip().splitlines()) == 1 and "the two counts differ" in r.err
    r = cli("count", "5", "6", "--open", "--check", "--json")
    doc = json.loads(r.out)
    assert r.code == 4 and doc["exit_code"] == 4 and doc["check"]["agree"] is False


def test_check_refuses_a_board_with_no_second_way(cli):
    r = cli("count", "8", "8", "--check")
    assert r.code == 2 and r.out == "" and "--check" in r.err and len(r.err.strip().splitlines()) == 1


def test_check_says_why_the_sweep_across_does_not_fit(cli, monkeypatch):
    """Two different sides of at most 8 whose states exceed the memory: the refusal names the
    states the sweep across would take and what fits (it said only "two different sides of at
    most 8", which such a board has)."""
    from kt_formal.counting import frontier_memory

    monkeypatch.setattr(frontier_memory, "DEFAULT_MAX_STATES", 1000)
    r = cli("count", "5", "7", "--open", "--check")
    assert r.code == 2 and r.out == "" and len(r.err.strip().splitlines()) == 1, r.err
    assert "7-square side" in r.err and "1,000 fit" in r.err, r.err
    r = cli("count", "9", "9", "--method", "search", "--check")  # a search first: the frontier second
    assert r.code == 2 and "side of at most 8" in r.err and "too large" not in r.err, r.err
