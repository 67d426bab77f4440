"""Margins of 3 and 4 on every side: closed tours by stretching certified base tours that are
periodic in a window. The statement, the window conditions, forged pieces refused on load, atlas
boards, every class up to hole sides 16, random boards up to 2000 x 2000 and the pipeline; every
tour checked by the kernel."""

from __future__ import annotations

import csv
import gzip
import json
import random
from pathlib import Path

import numpy as np
import pytest

from kt_formal.board import Board
from kt_formal.combine.library import Piece, load_piece
from kt_formal.combine.margin import margin_applies, margin_tour, theorem_of
from kt_formal.combine.margin_check import balanced
from kt_formal.combine.margin_stretch import (MARGIN_TUPLES, PERIOD, base_specs, check_stretch, in_stretch_statement,
                                              load_base, stretch_applies, stretch_plan, stretch_tour,
                                              window_violation, windows)
from kt_formal.exceptions import CertificateRejected
from kt_formal.tours import Tour

from conftest import closed_tour_of

ATLAS = Path(__file__).resolve().parent.parent / "docs" / "atlas" / "atlas.csv.gz"


def _check(board: Board):
    return closed_tour_of(board, stretch_tour(board))


def test_the_statement():
    assert in_stretch_statement(1000, 1000, (3, 3, 994, 994))
    assert in_stretch_statement(1000, 1000, (4, 4, 992, 992))
    assert in_stretch_statement(1000, 1000, (3, 4, 994, 993))
    assert in_stretch_statement(11, 16, (4, 3, 4, 10))  # a hole 4 high between margins 4 and 3
    assert in_stretch_statement(9, 30, (4, 4, 1, 22))  # a hole one row high
    assert not in_stretch_statement(11, 12, (4, 4, 3, 5))  # colours unequal (m n even, h w odd)
    assert not in_stretch_statement(13, 13, (3, 4, 7, 6))  # colours unequal (m n odd, h w even)
    assert in_stretch_statement(1000, 1000, (3, 3, 994, 992))  # margins 3, 3, 3, 5
    assert in_stretch_statement(30, 31, (8, 3, 18, 24))  # 8, 4, 3, 4
    assert not in_stretch_statement(20, 20, (3, 5, 11, 12))  # two margins of 5 and 6
    assert not in_stretch_statement(20, 20, (3, 3, 14, 8))  # a margin of 9
    assert not in_stretch_statement(9, 9, (3, 3, 3, 3))  # within 3 x 3: the small-hole theorem's
    assert not in_stretch_statement(20, 20, (2, 3, 14, 14))  # a margin of 2


def test_thirty_margin_tuples_and_a_piece_for_every_class():
    thin = [k for k in MARGIN_TUPLES if max(k) <= 4]
    assert len(thin) == 6  # all 3; one 4; two adjacent; two opposite; three; all 4
    assert len(MARGIN_TUPLES) == 6 + 24  # one margin of 5..8, the others 3 or 4
    assert all(sum(x > 4 for x in k) <= 1 and min(k) >= 3 and max(k) <= 8 for k in MARGIN_TUPLES)
    names = {s.name for s in base_specs()}
    assert len(names) == len(base_specs())
    for m, n, hole in [(10, 10, (3, 3, 4, 4)), (14, 10, (3, 3, 8, 4)), (10, 18, (3, 3, 4, 12)),
                       (14, 14, (3, 3, 8, 8)), (22, 18, (3, 3, 16, 12))]:
        _, spec = stretch_plan(m, n, hole)
        assert spec.name in names
        _check(Board.from_spec(m, n, [hole]))


@pytest.mark.parametrize("name", ["margin-stretch-3333-5x5-rc", "margin-stretch-4444-2x6-c",
                                  "margin-stretch-3434-7x4-rc"])
def test_every_window_is_periodic_with_straight_strands(name):
    piece = load_piece(name)
    assert window_violation(piece.spec, piece.tour) is None
    n = piece.spec.cols
    moves = {tuple(sorted((divmod(int(a), n), divmod(int(b), n)))) for a, b in piece.tour.edges().tolist()}
    for axis, x in windows(piece.spec):
        def crossing(s):
            return {e for e in moves if min(q[axis] for q in e) < s <= max(q[axis] for q in e)}
        near, far = crossing(x), crossing(x + PERIOD)
        assert len(near) == len(far) > 0
        shifted = {tuple(sorted(tuple(q[i] + PERIOD * (i == axis) for i in range(2)) for q in e)) for e in near}
        assert shifted == far


def _forge(tmp_path: Path, name: str, tour: Tour) -> None:
    """Write ``name`` with ``tour`` in place of its own, checksum recomputed: a well-formed forgery."""
    piece = load_piece(name)
    forged = Piece(piece.spec, tour, piece.made_by)
    (tmp_path / f"{name}.json").write_text(json.dumps(forged.to_dict()))


def test_a_forged_or_altered_base_piece_is_refused(tmp_path):
    name = "margin-stretch-3333-5x5-rc"  # 11 x 11, symmetric: its mirror image is a tour of the same board
    piece = load_piece(name)
    n = piece.spec.cols
    r, c = np.divmod(piece.tour.order, n)
    mirrored = Tour(piece.tour.board, r * n + (n - 1 - c), closed=True)
    assert mirrored.check() is None  # a valid closed tour, holding the spec
    _forge(tmp_path, name, mirrored)
    assert load_piece(name, tmp_path).tour.check() is None
    with pytest.raises(CertificateRejected, match="window"):
        load_base.__wrapped__(name, tmp_path)
    src = json.loads((tmp_path / f"{name}.json").read_text())  # altered without a new checksum
    src["tour"] = json.loads(json.dumps(piece.to_dict()["tour"]))
    src["spec"]["seed"] = 1
    (tmp_path / f"{name}.json").write_text(json.dumps(src))
    with pytest.raises(CertificateRejected, match="checksum"):
        load_base.__wrapped__(name, tmp_path)


def test_every_class_with_one_copy_is_built():
    out = check_stretch(side_limit=12, thick_limit=8)
    assert out["pieces"] == len(base_specs()) and out["windows"] > out["pieces"]
    assert out["tours"] > 1000 and out["thick tours"] > 1000


@pytest.mark.slow
def test_every_class_up_to_hole_sides_16_is_built():
    out = check_stretch()
    assert out["tours"] > 2000 and out["thick tours"] > 10000


def test_atlas_boards_with_every_margin_three_or_four():
    """Every atlas closed question with one hole, margins 3 or 4 but at most one of 5..8, and a
    hole not within 3 x 3: built when balanced (the atlas answers yes on each), refused when
    not (the atlas: colour)."""
    built = refused = 0
    with gzip.open(ATLAS, "rt") as f:
        for r in csv.DictReader(f):
            m, n, t, le, h, w = (int(r[k]) for k in ("rows", "cols", "top", "left", "height", "width"))
            margins = (t, le, m - t - h, n - le - w)
            if r["tour"] != "closed" or min(margins) < 3 or max(margins) > 8 or max(h, w) < 4 \
                    or sum(x > 4 for x in margins) > 1:
                continue
            board = Board.from_spec(m, n, [(t, le, h, w)])
            if balanced(m, n, t, le, h, w):
                assert r["answer"] == "yes" and in_stretch_statement(m, n, (t, le, h, w))
                _check(board)
                built += 1
            else:
                assert r["answer"] == "no" and not stretch_applies(board)
                refused += 1
    assert built > 0 and refused > 0


def _random_case(rng: random.Random, top: int):
    while True:
        t, b, le, q = (rng.choice((3, 4)) for _ in range(4))
        if rng.random() < 0.5:  # one margin of 5..8
            t = rng.randint(5, 8)
        if rng.random() < 0.5:
            t, b, le, q = le, q, t, b
        h, w = rng.randint(1, top - 8), rng.randint(1, top - 8)
        m, n = t + h + b, le + w + q
        if max(h, w) >= 4 and balanced(m, n, t, le, h, w):
            return m, n, (t, le, h, w)


def test_random_boards_up_to_150():
    rng = random.Random(51)
    for _ in range(40):
        m, n, hole = _random_case(rng, 150)
        _check(Board.from_spec(m, n, [hole]))


@pytest.mark.slow
def test_random_boards_up_to_2000():
    rng = random.Random(1951)
    for top in (600, 1000, 1500, 2000, 2000):
        m, n, hole = _random_case(rng, top)
        _check(Board.from_spec(m, n, [hole]))


@pytest.mark.parametrize("m,n,hole", [(1000, 1000, "3,3,994x994"), (1000, 1000, "4,4,992x992"),
                                      (1000, 1000, "3,4,994x993"), (42, 13, "4,3,34x6"),
                                      (1000, 1000, "3,3,994x992"), (1000, 999, "7,4,990x991")])
def test_margin_tour_and_the_theorem_name(m, n, hole):
    board = Board.from_spec(m, n, [hole])
    assert margin_applies(board)
    assert margin_tour(board).check() is None
    assert "stretched base tours" in theorem_of(board)
