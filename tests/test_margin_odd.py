"""The sheared frame (class E1 of the margin-three theorem): its pieces, every view of its
case analysis, every refined class of E1, big and random boards; every tour checked by the kernel."""

from __future__ import annotations

import csv
import gzip
import random
from pathlib import Path

import pytest

from kt_formal.board import Board
from kt_formal.combine.library import load_piece
from kt_formal.combine.margin import margin_applies, margin_tour, theorem_of
from kt_formal.combine.margin_band import in_band_statement, in_lane_statement
from kt_formal.combine.margin_check import band_classes, check_sheared, lane_classes, sheared_cases, shift_classes
from kt_formal.combine.margin_large import in_statement, large_plan
from kt_formal.combine.margin_odd import (ODD_THEOREM, frame_applies, frame_tour, is_sheared_case, odd_succ, odd_tour,
                                         odd_view, sheared_only)
from kt_formal.combine.margin_odd_pieces import odd_piece_specs
from kt_formal.exceptions import NotApplicable

from conftest import closed_tour_of

ATLAS = Path(__file__).resolve().parent.parent / "docs" / "atlas" / "atlas.csv.gz"


def test_every_odd_piece_loads_and_keeps_its_colours_equal():
    for spec in odd_piece_specs():
        piece = load_piece(spec.name)
        assert piece.spec == spec
        squares = [(r, c) for r in range(spec.rows) for c in range(spec.cols) if (r, c) not in spec.holes]
        light = sum((r + c) % 2 == 0 for r, c in squares)
        assert 2 * light == len(squares) == len(piece.tour)


@pytest.mark.parametrize("m,n,hole", [(17, 16, (6, 5, 5, 6)), (23, 20, (6, 7, 11, 8)), (16, 17, (5, 6, 6, 5)),
                                      (21, 22, (8, 9, 7, 6)), (31, 30, (6, 11, 17, 14))])
def test_e1_boards_are_built_by_the_sheared_frame(m, n, hole):
    board = Board.from_spec(m, n, [hole])
    with pytest.raises(NotApplicable):  # no cut into rectangles
        large_plan(m, n, hole)
    assert in_statement(m, n, hole) and sheared_only(m, n, hole)
    assert frame_applies(board) and margin_applies(board)
    assert theorem_of(board) == ODD_THEOREM
    closed_tour_of(board, frame_tour(board))
    closed_tour_of(board, margin_tour(board))


def test_every_refined_class_of_e1_has_a_sheared_view_and_a_tour():
    built = 0
    for m, n, hole in shift_classes():
        if in_statement(m, n, hole) and sheared_only(m, n, hole):
            board = Board.from_spec(m, n, [hole])
            closed_tour_of(board, odd_tour(board, hole))
            built += 1
    assert built == 72  # the classes the frame cut left open (docs/theorems/margin-three.md)


def test_a_sample_of_the_case_analysis():
    cases = list(sheared_cases())
    assert len(cases) == 3840
    for m, n, hole in random.Random(5).sample(cases, 40):
        closed_tour_of(Board.from_spec(m, n, [hole]), odd_tour(Board.from_spec(m, n, [hole]), hole))


@pytest.mark.slow
def test_the_whole_case_analysis():
    out = check_sheared()
    assert out == {"classes": 72, "tours": 3840}


def test_the_layout_is_one_cycle_covering_every_square_but_the_hole():
    m, n, hole = 25, 24, (8, 5, 9, 14)
    succ = odd_succ(m, n, hole)
    on_hole = [(r, c) for r in range(8, 17) for c in range(5, 19)]
    assert all(succ[r * n + c] == -1 for r, c in on_hole)
    seen, v = set(), 0
    while v not in seen:
        seen.add(v)
        v = int(succ[v])
    assert len(seen) == m * n - len(on_hole)


def test_views_and_refusals():
    assert is_sheared_case(6, 6, 5, 5, 5, 6) and is_sheared_case(6, 3, 5, 5, 5, 6) and is_sheared_case(6, 4, 5, 5, 5, 6)
    assert not is_sheared_case(7, 6, 5, 5, 5, 6) and not is_sheared_case(6, 5, 5, 5, 5, 6)
    assert not is_sheared_case(6, 3, 3, 5, 5, 6)  # F1 with l = 3
    assert odd_view(17, 16, (6, 5, 5, 6)) is not None
    assert odd_view(16, 17, (5, 6, 6, 5)) is not None  # the transpose
    assert odd_view(17, 16, (6, 5, 5, 5)) is None  # colours unequal
    assert odd_view(18, 16, (6, 5, 5, 6)) is None  # b = 7 odd
    board = Board.from_spec(17, 17, [(5, 5, 7, 7)])
    with pytest.raises(NotApplicable):
        odd_tour(board, (5, 5, 7, 7))


def test_random_e1_boards_up_to_300():
    rng = random.Random(11)
    for _ in range(12):
        a, b = rng.choice((6, 8)), rng.choice((6, 8))
        le, q, h = (rng.randrange(5, 101, 2) for _ in range(3))
        w = rng.randrange(6, 101, 2)
        m, n, hole = a + h + b, le + w + q, (a, le, h, w)
        if rng.random() < 0.5:  # the transposed form
            m, n, hole = n, m, (le, a, w, h)
        board = Board.from_spec(m, n, [hole])
        assert in_statement(m, n, hole) and sheared_only(m, n, hole)
        closed_tour_of(board, frame_tour(board))


@pytest.mark.slow
def test_e1_boards_up_to_2000():
    for m, n, hole in [(1000, 999, (301, 6, 400, 987)), (999, 1000, (6, 301, 987, 400)),
                       (2000, 1999, (999, 8, 996, 1985))]:
        board = Board.from_spec(m, n, [hole])
        closed_tour_of(board, frame_tour(board))


@pytest.mark.parametrize("m,n,hole,statement", [(16, 18, (3, 5, 7, 8), in_band_statement),
                                                (14, 16, (3, 5, 5, 6), in_band_statement),
                                                (23, 24, (4, 5, 13, 12), in_lane_statement),
                                                (19, 22, (4, 5, 5, 12), in_lane_statement),
                                                (22, 23, (5, 4, 12, 13), in_lane_statement)])
def test_f1_and_g1_boards_are_built_by_the_sheared_frame(m, n, hole, statement):
    """F1 (a margin of 3 opposite an even margin, l, q >= 5 odd) and G1 (the same with 4): the
    strip or the lane runs along the side opposite the sheared band."""
    board = Board.from_spec(m, n, [hole])
    with pytest.raises(NotApplicable):
        large_plan(m, n, hole)
    assert statement(m, n, hole) and sheared_only(m, n, hole) and theorem_of(board) == ODD_THEOREM
    closed_tour_of(board, frame_tour(board))
    closed_tour_of(board, margin_tour(board))


@pytest.mark.parametrize("classes,statement,count", [(band_classes, in_band_statement, 32),
                                                     (lane_classes, in_lane_statement, 108)])
def test_every_f1_and_g1_class_is_built(classes, statement, count):
    built = 0
    for m, n, hole in classes():
        if sheared_only(m, n, hole):
            assert statement(m, n, hole)
            board = Board.from_spec(m, n, [hole])
            closed_tour_of(board, frame_tour(board))
            built += 1
    assert built == count  # the F1 classes with l >= 5 and all of G1 (docs/theorems/margin-three.md)


def test_atlas_boards_only_the_sheared_frame_builds():
    """The atlas (boards up to 16 x 16) holds F1 and G1 boards but no E1 board (E1 needs a side
    of at least 17); the atlas found a tour on each, and the sheared frame builds each."""
    found = []
    with gzip.open(ATLAS, "rt") as f:
        for r in csv.DictReader(f):
            m, n, t, le, h, w = (int(r[k]) for k in ("rows", "cols", "top", "left", "height", "width"))
            if r["tour"] == "closed" and h and min(t, le, m - t - h, n - le - w) >= 3 \
                    and odd_view(m, n, (t, le, h, w)) is not None and sheared_only(m, n, (t, le, h, w)):
                assert r["answer"] == "yes"
                board = Board.from_spec(m, n, [(t, le, h, w)])
                closed_tour_of(board, frame_tour(board))
                found.append(min(t, le, m - t - h, n - le - w))
    assert sorted(found) == [3] * 10 + [4] * 2
