"""Margins of 3 and 4: the frame construction with closed 3 x W strips (and open 4 x W lanes, whose
own tests are in test_margin_lanes.py). The statement, its classes, atlas boards, random boards
up to 2000 x 2000, the pipeline; every tour checked by the kernel."""

from __future__ import annotations

import csv
import gzip
import random
from pathlib import Path

import pytest

from kt_formal.board import Board
from kt_formal.combine.margin import margin_applies, margin_tour, theorem_of
from kt_formal.combine.margin_band import in_band_statement, in_lane_statement
from kt_formal.combine.margin_check import balanced, band_classes, check_band
from kt_formal.combine.margin_large import large_plan
from kt_formal.combine.margin_odd import frame_applies, frame_tour

from conftest import closed_tour_of

ATLAS = Path(__file__).resolve().parent.parent / "docs" / "atlas" / "atlas.csv.gz"


def _check(board: Board):
    return closed_tour_of(board, frame_tour(board))


def test_the_statement():
    assert in_band_statement(24, 30, (3, 6, 14, 12))
    assert in_band_statement(30, 24, (6, 3, 12, 14))  # the transpose: margin 3 on the left
    assert in_band_statement(24, 30, (7, 6, 14, 12))  # margin 3 at the bottom
    assert not in_band_statement(24, 29, (3, 6, 14, 13))  # F2 (the construction happens to cover it)
    assert in_band_statement(22, 24, (3, 5, 13, 12))  # F1 parities, l 5, q 7: the sheared frame
    assert not in_band_statement(22, 22, (3, 3, 13, 12))  # F1: b 6, l 3, q 7, h 13, w 12
    assert not in_band_statement(16, 18, (3, 5, 6, 6))  # F3: b 7, l 5, q 7 odd, h and w even
    assert not in_band_statement(23, 31, (3, 5, 13, 12))  # colours unequal
    assert in_band_statement(20, 30, (3, 6, 14, 12))  # margins 3 above and below
    assert in_band_statement(40, 41, (3, 3, 30, 25))  # margins 3 above and on the left
    assert not in_band_statement(24, 30, (3, 3, 14, 12))  # F3: b 7, l 3, q 15 odd, h and w even
    assert not in_band_statement(36, 40, (3, 7, 30, 26))  # F4: above and below, l and q odd
    assert not in_band_statement(30, 30, (3, 3, 21, 24))  # three margins 3
    assert not in_band_statement(24, 30, (4, 6, 14, 12))  # margin 4 (the lane section, test_margin_lanes.py)
    assert not in_band_statement(24, 30, (3, 6, 4, 12))  # a hole side under 5
    for m, n, hole in band_classes():
        assert balanced(m, n, *hole)


@pytest.mark.parametrize("m,n,hole", [(24, 30, "3,6,14x12"), (25, 30, "7,3,13x12"), (30, 30, "5,6,22x10"),
                                      (24, 31, "3,6,14x12"), (40, 41, "3,9,30x25"), (41, 41, "3,7,31x27"),
                                      (20, 30, "3,6,14x12"), (40, 41, "3,3,30x25"), (41, 40, "3,3,31x26")])
def test_construction_on_chosen_boards(m, n, hole):
    board = Board.from_spec(m, n, [hole])
    assert frame_applies(board) and margin_applies(board)
    _check(board)
    assert margin_tour(board).check() is None
    assert "margins of three" in theorem_of(board)


def test_a_strip_is_one_rectangle_joined_at_cut_point_zero():
    for m, n, hole in [(24, 30, (3, 6, 14, 12)), (20, 30, (3, 6, 14, 12)), (40, 41, (3, 3, 30, 25))]:
        sym, rects, tree = large_plan(m, n, hole)
        strips = [k for k, r in enumerate(rects) if r.special and r.special[0] == "strip"]
        assert strips and all(3 in (rects[k].rows, rects[k].cols) for k in strips)
        for k in strips:
            r = rects[k]
            assert max(r.rows, r.cols) % 2 == 0 and max(r.rows, r.cols) >= 10
            joins = [j for j in tree if k in j[:2]]
            assert joins and all(j[4] == (r.x0 if j[2] == "v" else r.y0) and j[5] is None for j in joins)
        assert len(tree) == len(rects) - 1
        _check(Board.from_spec(m, n, [hole]))


@pytest.mark.parametrize("statement", [in_band_statement, in_lane_statement])
def test_atlas_boards_with_one_margin_three_or_four(statement):
    """Every atlas question (closed, one hole) of the statement is built; the atlas says yes there."""
    built = 0
    with gzip.open(ATLAS, "rt") as f:
        for r in csv.DictReader(f):
            m, n, t, le, h, w = (int(r[k]) for k in ("rows", "cols", "top", "left", "height", "width"))
            if r["tour"] == "closed" and statement(m, n, (t, le, h, w)):
                assert r["answer"] == "yes"
                _check(Board.from_spec(m, n, [(t, le, h, w)]))
                built += 1
    assert built > 0


def _random_case(rng: random.Random, top: int, margin: int = 3):
    """A random board of the statement with a margin of ``margin`` (3: strips, 4: a lane)."""
    statement = in_band_statement if margin == 3 else in_lane_statement
    while True:
        b, c, d = (rng.choice([3, rng.randint(5, top // 4)]) if margin == 3 else rng.randint(5, top // 4)
                   for _ in range(3))
        h, w = rng.randint(5, top // 2), rng.randint(5, top // 2)
        m, n = margin + h + b, c + w + d
        if max(m, n) <= top and statement(m, n, (margin, c, h, w)):
            return (m, n, (margin, c, h, w)) if rng.random() < 0.5 else (n, m, (c, margin, w, h))


@pytest.mark.parametrize("margin", [3, 4])
def test_random_boards_up_to_150(margin):
    rng = random.Random(20 + margin)
    for _ in range(20):
        m, n, hole = _random_case(rng, 150, margin)
        _check(Board.from_spec(m, n, [hole]))


@pytest.mark.slow
def test_every_class_is_built():
    out = check_band()
    assert out["covered"] == out["tours"] > 1000


@pytest.mark.slow
@pytest.mark.parametrize("margin", [3, 4])
def test_random_boards_up_to_2000(margin):
    rng = random.Random({3: 29, 4: 37}[margin])
    for top in (500, 1200, 2000):
        m, n, hole = _random_case(rng, top, margin)
        _check(Board.from_spec(m, n, [hole]))
