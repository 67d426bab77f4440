"""A margin of 4: the frame construction with an open 4 x W lane inserted into the frame's cycle.
Its statement, its classes, the lane itself; atlas boards, random boards and the pipeline are in
tests/test_margin_band.py, with the margins of three. Every tour checked by the kernel."""

from __future__ import annotations

import numpy as np
import pytest

from kt_formal.board import Board
from kt_formal.combine.margin import margin_applies, margin_tour, theorem_of
from kt_formal.combine.margin_band import in_lane_statement
from kt_formal.combine.margin_check import balanced, check_lanes, lane_classes
from kt_formal.combine.margin_lanes import lane_order
from kt_formal.combine.margin_large import large_plan
from kt_formal.combine.margin_odd import frame_applies, frame_tour

from conftest import closed_tour_of


def _check(board: Board):
    return closed_tour_of(board, frame_tour(board))


@pytest.mark.parametrize("width", [8, 9, 10, 11, 12, 21, 40])
def test_the_lane_is_a_path_of_knight_moves_between_its_ends(width):
    order = lane_order(width)
    assert sorted(order.tolist()) == list(range(4 * width))
    r, c = np.divmod(order, width)
    steps = sorted({(abs(a), abs(b)) for a, b in zip(np.diff(r), np.diff(c))})
    assert steps == [(1, 2), (2, 1)]
    assert (r[0], c[0]) == (3, 0) and (r[-1], c[-1]) == (3, 1)


def test_the_statement():
    assert in_lane_statement(24, 30, (4, 6, 14, 12))
    assert in_lane_statement(30, 24, (6, 4, 12, 14))  # the transpose: the 4 on the left
    assert in_lane_statement(24, 30, (6, 6, 14, 12))  # the 4 at the bottom
    assert in_lane_statement(23, 24, (4, 5, 13, 12))  # G1 (b 6, l 5, q 7, h 13, w 12): the sheared frame
    assert in_lane_statement(19, 22, (4, 5, 5, 12))  # G1 with b 10
    assert not in_lane_statement(14, 16, (4, 5, 5, 6))  # G2: b 5, l 5, q 5, h 5, w 6
    assert not in_lane_statement(15, 16, (4, 5, 6, 6))  # G3: b 5, l = q = 5, h 6, w 6
    assert not in_lane_statement(19, 16, (4, 5, 8, 6))  # G3: b 7, h 8
    assert in_lane_statement(16, 16, (4, 5, 6, 6))  # b 6: outside G3
    assert not in_lane_statement(24, 30, (4, 4, 14, 12))  # two margins 4
    assert not in_lane_statement(24, 30, (4, 6, 4, 12))  # a hole side under 5
    assert not in_lane_statement(23, 31, (4, 6, 13, 12))  # colours unequal
    for m, n, hole in lane_classes():
        assert balanced(m, n, *hole)


@pytest.mark.parametrize("m,n,hole", [(24, 30, "4,6,14x12"), (30, 24, "6,4,12x14"), (24, 30, "6,6,14x12"),
                                      (30, 31, "9,4,15x20"),
                                      (16, 16, "4,5,6x6"), (41, 41, "4,8,31x27"), (40, 44, "4,6,20x30")])
def test_construction_on_chosen_boards(m, n, hole):
    board = Board.from_spec(m, n, [hole])
    assert frame_applies(board) and margin_applies(board)
    _check(board)
    assert margin_tour(board).check() is None
    assert "a margin of four" in theorem_of(board)


def test_a_lane_is_a_leaf_joined_below_its_left_end():
    for m, n, hole in [(24, 30, (4, 6, 14, 12)), (16, 16, (4, 5, 6, 6)), (41, 41, (4, 8, 31, 27))]:
        sym, rects, tree = large_plan(m, n, hole)
        lanes = [k for k, r in enumerate(rects) if r.special == ("lane", "h")]
        assert len(lanes) == 1 and rects[lanes[0]].rows == 4 and rects[lanes[0]].y0 == 0
        joins = [j for j in tree if lanes[0] in j[:2]]
        assert len(joins) == 1 and joins[0][2] == "w" and joins[0][4] == rects[lanes[0]].x0
        assert len(tree) == len(rects) - 1


@pytest.mark.slow
def test_every_class_is_built():
    out = check_lanes()
    assert out["covered"] == out["tours"] > 1000
