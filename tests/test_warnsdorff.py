"""Warnsdorff engine: verified tours, honest UNKNOWN with coverage, seed 002 reproduced."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

import conftest
from kt_formal.board import Board
from kt_formal.solve import find_tour
from kt_formal.question import Status, Question
from kt_formal.exceptions import InvalidInput
from kt_formal.solve import run_engine

# ../shared beside the repository; KT_FORMAL_SHARED may point elsewhere (e.g. from a worktree)
SHARED = Path(os.environ.get("KT_FORMAL_SHARED", conftest.SHARED))

RULES = ["first", "last", "centre", "pohl", "random"]


@pytest.mark.parametrize("rule", RULES)
def test_every_start_on_8x8_is_found_and_verified_or_unknown(rule):
    found = 0
    for r in range(8):
        for c in range(8):
            res = run_engine("warnsdorff", Question(Board(8, 8), closed=False, start=(r, c)), tiebreak=rule)
            assert res.status in (Status.FOUND, Status.UNKNOWN)  # a heuristic never proves anything
            if res.found:
                found += 1
                assert res.tour.check() is None
                assert res.tour.start == (r, c)
                assert res.stats["covered"] == 64
            else:
                assert res.stats["covered"] < 64
                assert f"covered {res.stats['covered']} of 64 squares" in res.message
    assert found >= 48  # Warnsdorff's rule succeeds from most squares of the chessboard


def test_seed002_walk_gets_stuck_at_9976_of_10000():
    # seed 002's order with its `<=` comparison (last of the tied candidates)
    res = run_engine("warnsdorff", Question(Board(100, 100), closed=False, start=(0, 0)),
                           order="clockwise-from-7", tiebreak="last")
    assert res.status is Status.UNKNOWN
    assert res.stats["covered"] == 9976
    assert "covered 9976 of 10000 squares" in res.message


def test_same_as_the_seed002_peer_program(tmp_path):
    if shutil.which("g++") is None or not (SHARED / "peers" / "build.sh").exists():
        pytest.skip("g++ or ../shared/peers is not available")
    out = subprocess.run(["bash", str(SHARED / "peers" / "build.sh"), str(tmp_path)],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    for n in (8, 50, 100, 237):
        peer = subprocess.run([str(tmp_path / "seed002_warnsdorff"), str(n), "1", "1"],
                              capture_output=True, text=True, timeout=60).stdout
        visited = int(re.search(r"visited=(\d+)/", peer).group(1))
        res = run_engine("warnsdorff", Question(Board(n, n), closed=False, start=(0, 0)),
                               order="clockwise-from-7", tiebreak="last")
        assert res.stats["covered"] == visited, n


def test_other_rules_complete_100x100_from_the_corner():
    for rule in ("pohl", "first"):
        res = run_engine("warnsdorff", Question(Board(100, 100), closed=False, start=(0, 0)), tiebreak=rule)
        assert res.found and res.tour.check() is None


def test_retries_are_seeded_and_repeat():
    req = Question(Board(12, 12), closed=True, start=(0, 0))
    a = run_engine("warnsdorff", req, retries=30, seed=7)
    b = run_engine("warnsdorff", req, retries=30, seed=7)
    assert a.status == b.status and a.stats["walks"] == b.stats["walks"]
    if a.found:
        assert a.tour == b.tour
        assert a.tour.closed and a.tour.check() is None and a.tour.start == (0, 0)


def test_closed_walk_found_or_honestly_unknown():
    res = run_engine("warnsdorff", Question(Board(8, 8), closed=True, start=(3, 3)), tiebreak="centre", retries=20)
    assert res.status in (Status.FOUND, Status.UNKNOWN)
    if res.found:
        assert res.tour.closed and res.tour.check() is None


def test_fixed_end_and_holes():
    board = Board(10, 10, holes=[(r, c) for r in range(4, 6) for c in range(4, 6)])
    res = run_engine("warnsdorff", Question(board, closed=False, start=(0, 0), end=(9, 9)), tiebreak="pohl",
                           retries=200)
    if res.found:
        assert res.tour.check() is None and res.tour.start == (0, 0) and res.tour.end == (9, 9)
    else:
        assert res.status is Status.UNKNOWN


def test_forbidden_moves_are_avoided_and_forced_refused():
    forbidden = (((0, 0), (1, 2)),)
    res = run_engine("warnsdorff", Question(Board(8, 8), closed=False, start=(0, 0), forbidden=forbidden))
    if res.found:
        assert res.tour.squares()[1] != (1, 2)
    with pytest.raises(InvalidInput, match="forced"):
        run_engine("warnsdorff", Question(Board(8, 8), forced=forbidden))


def test_bad_tiebreak():
    with pytest.raises(InvalidInput, match="tie-break"):
        run_engine("warnsdorff", Question(Board(8, 8)), tiebreak="nearest")


def test_find_tour_routes_options():
    res = find_tour(Board(8, 8), closed=False, start="a1", engine="warnsdorff", tiebreak="centre")
    assert res.found and res.engine == "warnsdorff" and res.tour.start == (7, 0)


def test_cli_stuck_is_unknown_with_coverage(cli):
    run = cli("tour", 100, 100, "--open", "--start", "0,0", "--engine", "warnsdorff",
              "--order", "clockwise-from-7", "--tiebreak", "last")
    assert run.code == 3
    assert run.out == ""
    assert run.err.startswith("unknown:") and "covered 9976 of 10000 squares" in run.err


def test_cli_bad_tiebreak_is_one_line(cli):
    run = cli("tour", 8, 8, "--engine", "warnsdorff", "--tiebreak", "nearest")
    assert run.code == 2 and run.err.count("\n") == 1 and "tie-break" in run.err
