"""The frame construction for holes of any size at margin five: its statement, its cuts, boards
of every class it covers, big random boards, the pipeline; every tour checked by the kernel."""

from __future__ import annotations

import csv
import gzip
import random
from pathlib import Path

import pytest

from kt_formal.board import Board
from kt_formal.combine.margin import margin_applies, margin_tour
from kt_formal.combine.margin_check import balanced, check_large, check_shift, large_cases, shift_classes
from kt_formal.combine.margin_large import in_statement, large_plan
from kt_formal.combine.margin_odd import frame_applies, frame_tour, sheared_only
from kt_formal.exceptions import NotApplicable

from conftest import closed_tour_of

ATLAS = Path(__file__).resolve().parent.parent / "docs" / "atlas" / "atlas.csv.gz"


def _atlas_margin_five():
    """Closed-tour atlas questions with one hole at margin >= 5: (m, n, hole, answer)."""
    out = []
    with gzip.open(ATLAS, "rt") as f:
        for r in csv.DictReader(f):
            m, n, t, le, h, w = (int(r[k]) for k in ("rows", "cols", "top", "left", "height", "width"))
            if r["tour"] == "closed" and min(t, le, m - t - h, n - le - w) >= 5:
                out.append((m, n, (t, le, h, w), r["answer"]))
    return out


def _atlas_agrees(rows) -> int:
    """Build every row the construction covers; the atlas must say yes there, and every
    statement case must be covered. Returns how many were built."""
    built = 0
    for m, n, hole, answer in rows:
        board = Board.from_spec(m, n, [hole])
        assert frame_applies(board) or not in_statement(m, n, hole)
        if frame_applies(board):
            assert answer == "yes"
            _check(board)
            built += 1
    return built


def test_atlas_boards_at_margin_five_sample():
    rows = _atlas_margin_five()
    covered = [r for r in rows if frame_applies(Board.from_spec(r[0], r[1], [r[2]]))]
    assert _atlas_agrees(random.Random(3).sample(covered, 20)) == 20


@pytest.mark.slow
def test_atlas_boards_at_margin_five_all():
    assert _atlas_agrees(_atlas_margin_five()) > 100


def _check(board: Board):
    return closed_tour_of(board, frame_tour(board))


def _random_statement_case(rng: random.Random, top: int):
    """A random board of the statement with sides up to ``top``."""
    while True:
        a, b, c, d = (rng.randint(5, top // 4) for _ in range(4))
        h, w = rng.randint(5, top // 2), rng.randint(5, top // 2)
        m, n = a + h + b, c + w + d
        if max(m, n) <= top and in_statement(m, n, (a, c, h, w)):
            return m, n, (a, c, h, w)


def test_the_statement_is_the_colour_count_minus_the_listed_classes():
    assert in_statement(30, 33, (6, 7, 13, 16))
    assert not in_statement(30, 33, (6, 7, 13, 17))  # colours unequal
    assert not in_statement(30, 33, (4, 7, 13, 16))  # margin 4
    assert not in_statement(15, 15, (5, 5, 5, 5))  # E3 at every margin 5: a centred ringboard
    assert not in_statement(16, 16, (5, 5, 6, 6))  # E2 at every margin 5: a centred ringboard
    assert in_statement(17, 17, (5, 5, 7, 7))  # E3 with a side of 7: a shift piece
    assert in_statement(18, 18, (5, 5, 6, 6))  # E2 with margins 7: a shift piece
    assert in_statement(17, 16, (6, 5, 5, 6))  # E1: even margins 6, odd margins 5 (the sheared frame)
    assert in_statement(22, 16, (11, 5, 5, 6))  # E1 with a margin >= 10: the slab fixes the parity
    assert in_statement(40, 44, (6, 8, 2, 20))  # (ii): even margins, one side >= 5
    assert not in_statement(40, 44, (7, 8, 2, 20))  # (ii): both margins across the thin side odd
    assert in_statement(41, 44, (7, 8, 2, 20))  # (ii): one of them odd
    assert in_statement(30, 31, (7, 9, 3, 12))  # (ii): the same, three odd margins
    assert in_statement(15, 16, (5, 6, 4, 4)) and not in_statement(15, 16, (5, 5, 4, 4))  # (iii)
    assert not in_statement(20, 20, (6, 6, 3, 3))  # within 3 x 3: the first theorem


def _sample_cuts_and_builds(cases, k: int, seed: int):
    """For a sample of ``k`` cases: a spanning tree of joins, rectangles that tile the frame
    with sides 5..10 and even area, and a tour the kernel accepts."""
    for m, n, hole in random.Random(seed).sample(cases, k):
        sym, rects, tree = large_plan(m, n, hole)
        assert len(tree) == len(rects) - 1
        assert sum(r.rows * r.cols for r in rects) == m * n - hole[2] * hole[3]
        for r in rects:
            assert all(5 <= p <= 10 for p in (*r.row_parts, *r.col_parts))
            assert (r.rows * r.cols) % 2 == 0
        _check(Board.from_spec(m, n, [hole]))


def test_every_statement_case_has_a_cut_sample():
    # E1 has no cut into rectangles: the sheared frame builds it (tests/test_margin_odd.py)
    _sample_cuts_and_builds([c for c in large_cases() if in_statement(*c) and not sheared_only(*c)], 60, 5)


@pytest.mark.parametrize("m,n,hole", [(30, 33, "6,7,13x16"), (40, 41, "7,9,11x14"), (41, 43, "8,10,9x13"),
                                      (22, 16, "11,5,5x6"), (20, 21, "5,5,1x10"), (60, 60, "10,10,2x1"),
                                      (40, 44, "6,8,2x20"), (17, 17, "5,5,7x7"), (18, 18, "5,5,6x6"),
                                      (19, 17, "7,5,5x7"), (41, 44, "7,8,2x20"), (30, 31, "7,9,3x12"),
                                      (15, 16, "5,6,4x4")])
def test_construction_on_chosen_boards(m, n, hole):
    board = Board.from_spec(m, n, [hole])
    assert frame_applies(board) and margin_applies(board)
    _check(board)
    assert margin_tour(board).check() is None


def test_balance_of_the_statement_is_the_count():
    rng = random.Random(2)
    for _ in range(200):
        m, n = rng.randint(16, 40), rng.randint(16, 40)
        h, w = rng.randint(5, m - 10), rng.randint(5, n - 10)
        r0, c0 = rng.randint(5, m - h - 5), rng.randint(5, n - w - 5)
        if in_statement(m, n, (r0, c0, h, w)):
            assert balanced(m, n, r0, c0, h, w)


def test_random_boards_up_to_120():
    rng = random.Random(11)
    for _ in range(25):
        m, n, hole = _random_statement_case(rng, 120)
        _check(Board.from_spec(m, n, [hole]))


def _shift_used(m, n, hole) -> bool:
    return any(j[5] is not None for j in large_plan(m, n, hole)[2])


def test_shift_pieces_close_e2_e3_and_thin_holes():
    for m, n, hole in [(17, 17, (5, 5, 7, 7)), (18, 18, (5, 5, 6, 6)), (15, 16, (5, 6, 4, 4))]:
        sym, rects, tree = large_plan(m, n, hole)
        assert _shift_used(m, n, hole)
        with pytest.raises(NotApplicable):  # the first pass alone has no cut
            large_plan(m, n, hole, shift=False)
        specials = [r.special for r in rects if r.special is not None]
        assert 1 <= len(specials) <= len(rects) - 1
        _check(Board.from_spec(m, n, [hole]))


def test_every_refined_class_sample():
    """A sample of the refined classes of the statement: a cut, only library pieces, a tour."""
    _sample_cuts_and_builds([c for c in shift_classes() if in_statement(*c) and not sheared_only(*c)], 80, 13)


def _random_shift_case(rng: random.Random, top: int):
    """A random board of the statement, up to ``top``, whose cut needs a shift piece."""
    while True:
        a, b, c, d = (rng.randint(5, 14) for _ in range(4))
        h = rng.randint(1, 4) if rng.random() < 0.4 else rng.randint(5, top // 2)
        w = rng.randint(5, top // 2)
        m, n = a + h + b, c + w + d
        if max(m, n) <= top and in_statement(m, n, (a, c, h, w)) and not sheared_only(m, n, (a, c, h, w)) \
                and _shift_used(m, n, (a, c, h, w)):
            return m, n, (a, c, h, w)


def test_random_boards_needing_a_shift_piece_up_to_200():
    rng = random.Random(17)
    for _ in range(15):
        m, n, hole = _random_shift_case(rng, 200)
        _check(Board.from_spec(m, n, [hole]))


@pytest.mark.slow
def test_every_refined_class_and_every_shift_board():
    out = check_shift()
    assert out["shifted"] == out["tours"] > 500 and out["covered"] < out["classes"]


@pytest.mark.slow
def test_every_class_and_every_covered_representative():
    out = check_large()
    assert out["covered"] == out["tours"] > 0


@pytest.mark.slow
def test_random_boards_up_to_2000():
    rng = random.Random(7)
    for top in (300, 800, 2000):
        m, n, hole = _random_statement_case(rng, top)
        _check(Board.from_spec(m, n, [hole]))
    _check(Board.from_spec(1000, 1000, ["300,300,200x250"]))
    for top in (500, 2000):
        m, n, hole = _random_shift_case(rng, top)
        _check(Board.from_spec(m, n, [hole]))
