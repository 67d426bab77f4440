"""The margin-three theorem as one statement: every board minus one rectangle standing at
least 3 squares from every edge has a closed tour if and only if its colours balance, and
the constructions of docs/theorems/margin-three.md (no search) build one.

Checked here against the atlas (every board up to 16 x 16, answered by search and proof,
independently of the constructions) and on random boards up to 1000 x 1000.
"""

from __future__ import annotations

import csv
import gzip
import random
from pathlib import Path

import pytest

from kt_formal.board import Board
from kt_formal.combine.margin import margin_applies, margin_tour, theorem_of
from kt_formal.combine.margin_stretch import colours_balance

ATLAS = Path(__file__).resolve().parent.parent / "docs" / "atlas" / "atlas.csv.gz"


def _built(m: int, n: int, hole: tuple) -> str:
    """The construction's tour of the board, accepted by the kernel; the theorem it names."""
    board = Board.from_spec(m, n, [hole])
    assert margin_applies(board), (m, n, hole)
    tour = margin_tour(board)
    assert tour.closed and tour.check() is None, (m, n, hole)
    return theorem_of(board)


def _atlas_at_margin_three(every: int) -> tuple[int, int, set]:
    """Every ``every``-th closed atlas question at margin >= 3: a balanced one is a "yes" of
    the atlas and built by the constructions; an unbalanced one a "no" by the colours.
    Returns (built, unbalanced, the theorems' sections used)."""
    built = unbalanced = seen = 0
    sections = set()
    with gzip.open(ATLAS, "rt") as f:
        for r in csv.DictReader(f):
            m, n, t, le, h, w = (int(r[k]) for k in ("rows", "cols", "top", "left", "height", "width"))
            if r["tour"] != "closed" or min(t, le, m - t - h, n - le - w) < 3:
                continue
            if not colours_balance(m, n, t, le, h, w):
                assert (r["answer"], r["method"]) == ("no", "colour"), r
                unbalanced += 1
                continue
            assert r["answer"] == "yes", r
            if seen % every == 0:
                sections.add(_built(m, n, (t, le, h, w)))
                built += 1
            seen += 1
    return built, unbalanced, sections


def test_a_sample_of_the_atlas_at_margin_three():
    built, unbalanced, sections = _atlas_at_margin_three(every=50)
    assert built > 300 and unbalanced > 0 and len(sections) >= 4


@pytest.mark.slow  # every balanced atlas question at margin >= 3 (16,152), built and checked
def test_every_atlas_question_at_margin_three():
    built, _, sections = _atlas_at_margin_three(every=1)
    assert built == 16152  # the atlas's count (docs/atlas/findings.md, "margins that always work")
    assert len(sections) >= 6


def _random_hole(rng: random.Random, m: int, n: int) -> tuple:
    """A hole at margin >= 3 on the m x n board leaving its colours balanced."""
    while True:
        h, w = rng.randint(1, m - 6), rng.randint(1, n - 6)
        t, le = rng.randint(3, m - h - 3), rng.randint(3, n - w - 3)
        if colours_balance(m, n, t, le, h, w):
            return t, le, h, w


@pytest.mark.parametrize("seed", range(3))
def test_random_boards_up_to_120(seed):
    rng = random.Random(seed)
    for _ in range(40):
        m, n = rng.randint(7, 120), rng.randint(7, 120)
        _built(m, n, _random_hole(rng, m, n))


@pytest.mark.slow  # 60 boards of 500..1000 a side
def test_random_boards_up_to_1000():
    rng = random.Random(2026)
    for _ in range(60):
        m, n = rng.randint(500, 1000), rng.randint(500, 1000)
        _built(m, n, _random_hole(rng, m, n))
