"""Two or more margins of 5..8: the classes no other construction builds, their stretched thick
base pieces, the coverage analysis, atlas boards, random boards up to 2000 x 2000 and the
pipeline; every tour checked by the kernel."""

from __future__ import annotations

import csv
import gzip
import random
from pathlib import Path

import pytest

from kt_formal.board import Board
from kt_formal.combine.frame_large import single_hole
from kt_formal.combine.margin import margin_applies, margin_tour, theorem_of
from kt_formal.combine.margin_check import balanced
from kt_formal.combine.margin_cover import (built_without_thick, check_cover, check_thick, cover_cases, ring_margins,
                                            thick_cases, uncovered)
from kt_formal.combine.margin_ring import RING_THEOREM
from kt_formal.combine.margin_stretch import load_base, stretch_applies
from kt_formal.combine.margin_thick import (THICK_THEOREM, in_thick_statement, is_thick, thick_applies, thick_class,
                                            thick_classes, thick_specs, thick_tour)

from conftest import closed_tour_of

ATLAS = Path(__file__).resolve().parent.parent / "docs" / "atlas" / "atlas.csv.gz"


def _built(board: Board):
    return closed_tour_of(board, margin_tour(board))


def test_the_statement_and_the_classes():
    assert is_thick((5, 5, 5, 5)) and is_thick((3, 6, 4, 8)) and not is_thick((3, 5, 4, 4))
    assert not is_thick((5, 5, 9, 3)) and not is_thick((2, 5, 5, 5))
    # all margins 5 and a 2 x 5 hole: the bands beside the hole are 2 high (no frame cut)
    assert in_thick_statement(12, 15, (5, 5, 2, 5)) and not built_without_thick(
        Board.from_spec(12, 15, [(5, 5, 2, 5)]), (5, 5, 2, 5))
    assert not in_thick_statement(12, 15, (5, 5, 3, 5))  # colours unequal (m n even, h w odd)
    assert not in_thick_statement(13, 13, (5, 5, 3, 3))  # within 3 x 3: the small-hole theorem's
    assert not in_thick_statement(20, 20, (3, 3, 14, 12))  # one margin of 5..8: the stretch's
    # a class and its transpose and mirror images are one class
    sym, cls = thick_class(12, 15, (5, 5, 2, 5))
    assert cls == ((5, 5, 5, 5), 2, 5) and thick_class(15, 12, (5, 5, 5, 2))[1] == ((5, 5, 5, 5), 5, 2)
    cls = thick_class(16, 19, (3, 7, 6, 6))[1]
    assert cls == thick_class(16, 19, (7, 7, 6, 6))[1] == thick_class(19, 16, (7, 3, 6, 6))[1]
    assert ring_margins((5, 6, 3, 12)) == (5, 6, 3, 4) and ring_margins((9, 10, 11, 8)) == (3, 4, 3, 8)


@pytest.mark.slow  # the analysis over 13,640 boards, 7 s; the check's part thick asserts it too
def test_every_class_the_analysis_finds_has_a_piece():
    need = uncovered(side_limit=9, margins=(3, 4, 5, 6))
    assert need and set(need) <= thick_classes()
    for cls, boards in need.items():
        board = boards[0]
        assert thick_applies(board) and not built_without_thick(board, single_hole(board))
        assert theorem_of(board) == THICK_THEOREM
        _built(board)


def test_every_board_with_small_margins_is_built_by_some_construction():
    out = check_cover(side_limit=7, margins=(3, 4, 5, 6))
    assert out["boards"] == sum(1 for _ in cover_cases(7, (3, 4, 5, 6))) and out["classes needing a thick piece"] > 0
    out = check_cover(side_limit=5, margins=(3, 5, 6, 9, 10), ring_only=True)
    assert out["boards"] > 0


def test_a_sample_of_the_thick_classes_is_built():
    specs = thick_specs()
    assert len(specs) == len(thick_classes()) > 2000
    cases = list(thick_cases())
    for m, n, hole in cases[::25]:
        tour = thick_tour(Board.from_spec(m, n, [hole]))
        assert tour.closed and tour.check() is None
    for spec in specs[::50]:
        *_, loaded = load_base(spec.name)
        assert loaded == spec


@pytest.mark.slow
def test_the_check_of_the_thick_part():
    out = check_thick()
    assert out["pieces"] == len(thick_classes()) and out["tours"] > out["pieces"]
    assert out["classes"] <= out["pieces"] and out["boards"] > 10000 and out["ring boards"] > 10000


@pytest.mark.slow  # 6,633 boards, 33 s; tests/test_margin_theorem.py samples every atlas question by default
def test_atlas_boards_with_two_margins_of_five_to_eight():
    """Every atlas closed question with one hole not within 3 x 3, margins >= 3 and two or more
    of 5..8: built by some construction when balanced (the atlas answers yes on each); the
    thick pieces build those no other construction builds."""
    built = thick = 0
    with gzip.open(ATLAS, "rt") as f:
        for r in csv.DictReader(f):
            m, n, t, le, h, w = (int(r[k]) for k in ("rows", "cols", "top", "left", "height", "width"))
            margins = (t, m - t - h, le, n - le - w)
            if r["tour"] != "closed" or min(margins) < 3 or max(h, w) < 4 \
                    or sum(5 <= x <= 8 for x in margins) < 2 or not balanced(m, n, t, le, h, w):
                continue
            board = Board.from_spec(m, n, [(t, le, h, w)])
            assert r["answer"] == "yes" and margin_applies(board)
            if not built_without_thick(board, (t, le, h, w)):
                _built(board)
                thick += 1
            built += 1
    assert built > 0 and thick > 0


def _random_case(rng: random.Random, top: int):
    while True:
        k = [rng.choice((3, 4, 5, 6, 7, 8)) for _ in range(4)]
        if rng.random() < 0.3:
            k[rng.randrange(4)] = rng.randint(9, top // 3)
        t, b, le, q = k
        h, w = rng.randint(1, top - t - b), rng.randint(1, top - le - q)
        m, n = t + h + b, le + w + q
        board = Board.from_spec(m, n, [(t, le, h, w)])
        if max(h, w) >= 4 and balanced(m, n, t, le, h, w) and sum(5 <= x <= 8 for x in k) >= 2 \
                and not built_without_thick(board, (t, le, h, w)):
            return board


def test_random_boards_up_to_150():
    rng = random.Random(51)
    for _ in range(30):
        _built(_random_case(rng, 150))


@pytest.mark.slow
def test_random_boards_up_to_2000():
    rng = random.Random(2051)
    for top in (600, 1000, 1500, 2000, 2000):
        _built(_random_case(rng, top))


@pytest.mark.parametrize("m,n,hole,theorem", [(1000, 1000, "3,5,994x990", THICK_THEOREM),  # 3, 3, 5, 5
                                              (999, 1000, "4,5,1x990", RING_THEOREM),  # 4, 994, 5, 5
                                              (1000, 1000, "4,5,3x990", RING_THEOREM),  # 4, 993, 5, 5
                                              (12, 15, "5,5,2x5", THICK_THEOREM),  # all 5
                                              (16, 16, "4,5,4x2", RING_THEOREM),  # 4, 8, 5, 9
                                              (15, 15, "5,5,5x5", THICK_THEOREM),  # centred ringboards
                                              (16, 16, "5,5,6x6", THICK_THEOREM)])
def test_margin_tour_and_the_theorem_name(m, n, hole, theorem):
    board = Board.from_spec(m, n, [hole])
    assert margin_applies(board) and not stretch_applies(board)
    assert _built(board) is not None
    assert theorem_of(board) == theorem
