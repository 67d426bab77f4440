"""Margins of 3, 4 or at least 9: a stretched ring joined to divide rectangles at its corners.
The statement, chosen boards of the families the other sections leave open, atlas boards, random
boards up to 2000 x 2000, the check and the pipeline; every tour checked by the kernel."""

from __future__ import annotations

import csv
import gzip
import random
from pathlib import Path

import pytest

from kt_formal.board import Board
from kt_formal.combine.margin import margin_applies, margin_tour, theorem_of
from kt_formal.combine.margin_check import balanced
from kt_formal.combine.margin_large import large_applies
from kt_formal.combine.margin_ring import check_ring, in_ring_statement, ring_applies, ring_split, ring_tour

from conftest import closed_tour_of

ATLAS = Path(__file__).resolve().parent.parent / "docs" / "atlas" / "atlas.csv.gz"


def _check(board: Board):
    return closed_tour_of(board, ring_tour(board))


def test_the_statement_and_the_split():
    assert in_ring_statement(32, 27, (3, 12, 20, 6))
    assert ring_split(32, 27, (3, 12, 20, 6)) == (0, 6, 8, 6)  # 9 = 6 + 3, 12 = 8 + 4
    assert in_ring_statement(32, 27, (3, 8, 20, 6))  # 3, 9, 8, 13: one margin of 8
    assert in_ring_statement(30, 27, (3, 8, 20, 6))  # 3, 7, 8, 13: a thick ring (every thick class has its piece)
    assert not in_ring_statement(20, 20, (3, 3, 14, 14))  # every margin 3: the stretch section's
    assert not in_ring_statement(24, 24, (9, 9, 3, 3))  # a hole within 3 x 3
    assert not in_ring_statement(25, 25, (9, 9, 4, 5))  # colours unequal: m n odd, h w even
    assert not in_ring_statement(21, 21, (3, 10, 8, 8))  # colours unequal: m n odd, h w even


@pytest.mark.parametrize("m,n,hole", [
    (1000, 1000, "3,3,994x985"),   # margins 3, 3, 3, 12
    (1000, 1000, "4,4,984x984"),   # 4, 12, 4, 12: two margins of 4
    (500, 600, "4,3,492x587"),     # 4 beside 3, the others 4 and 10
    (40, 60, "3,20,2x36"),         # a hole two rows high beside margins 3 and 35
    (41, 40, "9,3,2x33"),          # a hole two rows high: margins 9, 30, 3, 4
    (45, 39, "4,4,29x31"),         # odd x odd: 4, 12, 4, 4
])
def test_families_the_frame_leaves_open(m, n, hole):
    board = Board.from_spec(m, n, [hole])
    assert ring_applies(board) and margin_applies(board) and not large_applies(board)
    _check(board)
    assert margin_tour(board).check() is None
    assert "stretched ring" in theorem_of(board)


def _atlas_boards_of_the_statement(every: int) -> int:
    """Every ``every``-th atlas question the ring's statement covers: the atlas says yes, and
    the construction builds a tour the kernel accepts; the number of questions built."""
    built = seen = 0
    with gzip.open(ATLAS, "rt") as f:
        for r in csv.DictReader(f):
            m, n, t, le, h, w = (int(r[k]) for k in ("rows", "cols", "top", "left", "height", "width"))
            if r["tour"] == "closed" and in_ring_statement(m, n, (t, le, h, w)):
                assert r["answer"] == "yes"
                if seen % every == 0:
                    _check(Board.from_spec(m, n, [(t, le, h, w)]))
                    built += 1
                seen += 1
    return built


def test_atlas_boards_of_the_statement():
    assert _atlas_boards_of_the_statement(every=1) >= 2144  # the ring of three margins or more of 3, 4 and >= 9


def _random_case(rng: random.Random, top: int):
    while True:
        t, b, le, q = (rng.choice((3, 4, rng.randint(9, top // 4))) for _ in range(4))
        h, w = rng.randint(1, top // 2), rng.randint(1, top // 2)
        m, n = t + h + b, le + w + q
        if max(m, n) <= top and in_ring_statement(m, n, (t, le, h, w)):
            return m, n, (t, le, h, w)


def test_random_boards_up_to_150():
    rng = random.Random(9)
    for _ in range(30):
        m, n, hole = _random_case(rng, 150)
        assert balanced(m, n, *hole)
        _check(Board.from_spec(m, n, [hole]))


@pytest.mark.slow
def test_random_boards_up_to_2000():
    rng = random.Random(2009)
    for top in (600, 1000, 1500, 2000, 2000):
        m, n, hole = _random_case(rng, top)
        _check(Board.from_spec(m, n, [hole]))


@pytest.mark.slow
def test_every_case_of_the_check():
    assert check_ring()["tours"] > 5000
