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
from kt_formal.combine.margin_odd import frame_applies, frame_tour
from kt_formal.combine.margin_ring import ring_applies, ring_tour
from kt_formal.combine.margin_stretch import colours_balance, stretch_applies, stretch_tour
from kt_formal.combine.margin_thick import thick_applies, thick_tour
from kt_formal.exceptions import NotApplicable

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


#: One board of each construction's section: the pipeline builds it first and its message
#: names the section.
SECTION_BOARDS = [
    (60, 70, "12,15,30x33", "holes of any size at margin five"),
    (60, 70, "3,15,40x33", "margins of three"),
    (60, 70, "4,15,40x33", "a margin of four"),
    (1000, 1000, "3,3,994x994", "stretched base tours"),
    (1000, 1000, "3,5,994x990", "two or more margins of 5 to 8"),
    (300, 300, "3,3,294x285", "stretched ring"),
]


@pytest.mark.parametrize("m,n,hole,words", SECTION_BOARDS)
def test_the_pipeline_builds_by_each_construction_and_names_its_section(m, n, hole, words):
    from kt_formal.api import decide

    v = decide(Board.from_spec(m, n, [hole]), closed=True, time_limit=30)
    assert v.answer == "yes" and v.route == "construction:margin-three"
    assert v.tour.check() is None
    assert words in v.message


#: Each construction: whether it applies, and its tour.
CONSTRUCTIONS = {"frame": (frame_applies, frame_tour), "stretch": (stretch_applies, stretch_tour),
                 "thick": (thick_applies, thick_tour), "ring": (ring_applies, ring_tour)}


#: Boards outside each construction's statement (the frame's: from its bands, lanes and
#: large holes; the thick pieces' also outside the ring's).
OUTSIDE = {
    "frame": [(16, 25, "3,6,10x11"), (14, 16, "4,5,5x6"), (36, 40, "3,7,30x26"), (20, 30, "3,2,14x12"),
              (24, 30, "4,4,14x12"), (20, 20, "4,4,4x2"), (15, 15, "5,5,5x5"), (16, 16, "5,5,6x6"),
              (30, 33, "6,7,13x17"), (15, 16, "5,5,4x4")],
    "stretch": [(20, 20, "3,5,11x12"), (11, 12, "4,4,3x5"), (9, 9, "3,3,3x3")],
    "thick": [(20, 20, "3,3,14x12"), (12, 15, "5,5,3x5"), (13, 13, "5,5,3x3")],
    "ring": [(20, 22, "5,6,9x10"), (20, 20, "3,3,14x14"), (21, 21, "3,10,8x8"),
             (20, 20, "3,3,14x12"), (12, 15, "5,5,3x5"), (13, 13, "5,5,3x3")],
}


@pytest.mark.parametrize("name,m,n,hole", [(name, *case) for name, cases in OUTSIDE.items() for case in cases])
def test_each_construction_refuses_boards_outside_its_statement(name, m, n, hole):
    applies, tour = CONSTRUCTIONS[name]
    board = Board.from_spec(m, n, [hole])
    assert not applies(board)
    with pytest.raises(NotApplicable):
        tour(board)
