"""The margin-three construction: its pieces, its cuts, the atlas boards it covers, big random boards, the pipeline."""

from __future__ import annotations

import csv
import gzip
import json
import random
from pathlib import Path

import numpy as np
import pytest

from kt_formal.board import Board
from kt_formal.combine import library
from kt_formal.combine.margin import (margin_applies, margin_open_applies, margin_open_tour, margin_plan, margin_slabs,
                                      margin_tour)
from kt_formal.combine.margin_check import PARTS, balanced, cases, check_cuts, check_pieces, check_tours, main
from kt_formal.combine.divide import port_edges
from kt_formal.combine.margin_pieces import HOLE_SIZES, hole_offsets, hole_piece_specs, shift_piece_specs, shifted_port_edges
from kt_formal.exceptions import CertificateRejected, NotApplicable
from kt_formal.question import Question

from conftest import closed_tour_of

ATLAS = Path(__file__).resolve().parent.parent / "docs" / "atlas" / "atlas.csv.gz"


def _atlas_rows(kind: str = "closed"):
    """Atlas questions (closed or open) with margin >= 3 and a hole of a size the library holds."""
    out = []
    with gzip.open(ATLAS, "rt") as f:
        for r in csv.DictReader(f):
            if r["tour"] != kind:
                continue
            m, n, t, le, h, w = (int(r[k]) for k in ("rows", "cols", "top", "left", "height", "width"))
            if min(t, le, m - t - h, n - le - w) >= 3 and (h, w) in HOLE_SIZES:
                out.append((m, n, (t, le, h, w), r["answer"], r["method"]))
    return out


def _check(board: Board):
    return closed_tour_of(board, margin_tour(board))


def test_every_hole_piece_loads_checks_and_matches_its_spec():
    specs = hole_piece_specs()
    assert len(specs) == len({s.name for s in specs}) == 2898
    assert check_pieces() == []


def test_a_tampered_hole_piece_is_refused(tmp_path):
    spec = hole_piece_specs()[0]
    d = json.loads((library.models_dir() / f"{spec.name}.json").read_text())
    sq = d["tour"]["squares"]
    sq[0], sq[1] = sq[1], sq[0]
    (tmp_path / f"{spec.name}.json").write_text(json.dumps(d))
    with pytest.raises(Exception, match="checksum"):
        library.load_piece(spec.name, tmp_path)


def test_a_shift_piece_with_a_broken_tour_is_refused(tmp_path):
    """A shift piece whose tour is corrupted (checksum recomputed) fails the kernel's check on load;
    the genuine one holds its shifted port, which is not divide's."""
    spec = shift_piece_specs()[0]
    d = json.loads((library.models_dir() / f"{spec.name}.json").read_text())
    tour = json.loads(d["tour"]) if isinstance(d["tour"], str) else d["tour"]
    sq = tour["squares"]
    sq[3], sq[4] = sq[4], sq[3]
    d["tour"] = json.dumps(tour) if isinstance(d["tour"], str) else tour
    d["sha256"] = library._checksum(d)
    (tmp_path / f"{spec.name}.json").write_text(json.dumps(d))
    with pytest.raises(CertificateRejected):
        library.load_piece(spec.name, tmp_path)
    good = library.load_piece(spec.name)
    assert library.spec_violation(spec, good.tour) is None
    unshifted = dict(port_edges(spec.rows, spec.cols))
    moves = set(map(frozenset, good.tour.edges().tolist()))
    side = spec.name.split("-")[2]
    a, b = shifted_port_edges(spec.rows, spec.cols, side)[side]
    assert frozenset((a[0] * spec.cols + a[1], b[0] * spec.cols + b[1])) in moves
    assert unshifted[side] != (a, b)


def test_offsets_leave_block_lengths():
    for a in range(3, 60):
        t, f = hole_offsets(a, "even"), hole_offsets(a, "free")
        assert 3 <= t <= 8 and (a - t == 0 or (a - t >= 6 and (a - t) % 2 == 0))
        assert 3 <= f <= 7 and (a - f == 0 or a - f >= 5)


def test_every_cut_uses_block_sizes_and_library_pieces():
    assert check_cuts(plan_limit=13)["cuts"] > 20000


def test_balance_is_the_colour_count():
    for m, n, (r, c, h, w) in [(9, 9, (3, 3, 1, 1)), (9, 9, (3, 4, 1, 1)), (10, 9, (3, 3, 1, 2)), (9, 9, (3, 3, 2, 2))]:
        b = Board.from_spec(m, n, [(r, c, h, w)])
        light, dark = b.colour_counts()
        assert balanced(m, n, r, c, h, w) == (light == dark)


def test_construction_on_small_margins():
    assert check_tours(build_limit=5)["tours"] == sum(1 for _ in cases(5))


def _against_atlas(rows, applies, check) -> int:
    """The construction applies exactly where the atlas has a tour (each built and checked);
    everywhere else the atlas's proof is the colour count. Returns the number built."""
    built = 0
    for m, n, hole, answer, method in rows:
        b = Board.from_spec(m, n, [hole])
        assert applies(b) == (answer == "yes"), (m, n, hole)
        if answer == "yes":
            check(b)
            built += 1
        else:
            assert method == "colour"
    return built


def test_atlas_boards_with_small_holes_are_built_sample():
    assert _against_atlas(random.Random(51).sample(_atlas_rows(), 300), margin_applies, _check) > 0


@pytest.mark.slow
def test_atlas_boards_with_small_holes_are_built_all():
    # the atlas's balanced positions at margin >= 3 with holes up to 3x3
    assert _against_atlas(_atlas_rows(), margin_applies, _check) == 5065


def _random_board(rng, top: int):
    h, w = rng.choice(HOLE_SIZES)
    while True:
        m, n = rng.randint(7, top), rng.randint(7, top)
        if m < h + 6 or n < w + 6:
            continue
        r, c = rng.randint(3, m - h - 3), rng.randint(3, n - w - 3)
        if balanced(m, n, r, c, h, w):
            return Board.from_spec(m, n, [(r, c, h, w)])


def test_random_boards_up_to_120():
    rng = random.Random(7)
    for _ in range(40):
        _check(_random_board(rng, 120))


def test_hole_against_the_edges_of_a_big_board():
    for m, n, hole in [(301, 299, (3, 3, 1, 1)), (300, 301, (295, 3, 2, 2)), (13, 400, (4, 200, 2, 1)),
                       (400, 13, (200, 4, 1, 2)), (9, 9, (3, 3, 1, 1)), (8, 8, (3, 3, 2, 2)), (11, 200, (4, 195, 1, 2))]:
        _check(Board.from_spec(m, n, [hole]))


@pytest.mark.slow
def test_random_boards_up_to_2000():
    rng = random.Random(2000)
    for _ in range(12):
        _check(_random_board(rng, 2000))


@pytest.mark.parametrize("m,n,holes,why", [
    (20, 20, ["2,5,1x2"], "less than 3 squares"),
    (20, 20, ["5,5,1x1"], "colour"),
    (21, 21, ["5,6,1x1"], "colour"),
    (20, 20, ["5,5,1x2", "10,12,1x2"], "horizontal or vertical cuts separate"),
])
def test_boards_outside_the_theorem_are_refused(m, n, holes, why):
    b = Board.from_spec(m, n, holes)
    assert not margin_applies(b)
    with pytest.raises(NotApplicable, match=why):
        margin_tour(b)


def test_no_holes_is_refused():
    with pytest.raises(NotApplicable):
        margin_tour(Board(10, 10))
    assert not margin_applies(Board(10, 10))


def test_the_plan_transposes_an_odd_by_even_board():
    plan = margin_plan(11, 20, (4, 5, 1, 2))
    assert plan.transposed and (plan.rows, plan.cols) == (20, 11)
    assert sum(plan.row_parts) == 20 and sum(plan.col_parts) == 11


def test_the_pipeline_uses_the_construction_first():
    from kt_formal.api import decide

    v = decide(Board.from_spec(40, 50, ["17,20,2x2"]), closed=True, time_limit=30)
    assert v.answer == "yes" and v.route == "construction:margin-three"
    assert v.tour.check() is None
    assert "margin-three" in v.message


def test_the_pipeline_uses_it_without_fixed_ends_only():
    from kt_formal.solve import policy

    b = Board.from_spec(40, 50, ["17,20,2x2"])
    assert policy.builds_margin(Question(b, closed=True))
    assert policy.builds_margin(Question(b, closed=False))  # the closed tour cut open
    assert not policy.builds_margin(Question(b, closed=True, start=(0, 0)))
    assert not policy.builds_margin(Question(b, closed=False, start=(0, 0), end=(0, 1)))
    assert not policy.builds_margin(Question(Board.from_spec(40, 50, ["4,2,29x4"]), closed=True))  # 4, 7, 2, 44


def test_the_cli_answers_by_the_construction(capsys):
    from kt_formal.cli import main as cli

    code = cli(["tour", "60", "61", "--hole", "30,30,1x2", "--json", "-q"])
    d = json.loads(capsys.readouterr().out)
    assert code == 0 and d["method"] == "construction:margin-three"
    order = np.array(d["tour"]["squares"])
    assert len(order) == 60 * 61 - 2


def _check_open(board: Board):
    tour = margin_open_tour(board)
    assert not tour.closed and len(tour) == board.n_squares
    assert tour.check() is None


def test_open_tours_minus_one_square_on_the_atlas_sample():
    rows = random.Random(3).sample(_atlas_rows("open"), 200)
    assert _against_atlas(rows, margin_open_applies, _check_open) > 0


@pytest.mark.slow
def test_open_tours_minus_one_square_on_the_atlas_all():
    # the atlas's one-square-removed open questions at margin >= 3 with a tour
    assert _against_atlas(_atlas_rows("open"), margin_open_applies, _check_open) == 1515


def test_open_tours_on_bigger_boards_and_refusals():
    for m, n, sq in [(300, 211, (150, 3)), (7, 8, (3, 3)), (9, 9, (4, 4)), (8, 7, (3, 3)), (120, 121, (116, 117))]:
        _check_open(Board.from_spec(m, n, [(sq[0], sq[1], 1, 1)]))
    with pytest.raises(NotApplicable, match="minority colour"):
        margin_open_tour(Board.from_spec(9, 9, ["3,4,1x1"]))
    with pytest.raises(NotApplicable, match="less than 3"):
        margin_open_tour(Board.from_spec(10, 10, ["2,4,1x1"]))
    with pytest.raises(NotApplicable, match="one square"):
        margin_open_tour(Board.from_spec(20, 20, ["5,5,1x1", "12,12,1x1"]))


def test_the_pipeline_builds_open_tours_minus_one_square():
    from kt_formal.api import decide

    v = decide(Board.from_spec(30, 31, ["10,10,1x1"]), closed=False, time_limit=30)
    assert v.answer == "yes" and v.route == "construction:margin-three" and not v.tour.closed
    assert v.tour.check() is None


def _stacked_holes(rng: random.Random, tries: int, widest: int):
    """Boards with 2 or 3 small holes one below another, gaps of 3 to 9 rows (random)."""
    for _ in range(tries):
        n, holes, top = rng.randint(7, widest), [], 0
        for _ in range(rng.randint(2, 3)):
            h, w = rng.randint(1, 3), rng.randint(1, 3)
            r = top + rng.randint(3, 9)
            holes.append((r, rng.randint(3, max(3, n - w - 3)), h, w))
            top = r + h
        yield Board.from_spec(top + rng.randint(3, 6), n, holes)


def test_several_holes_in_slabs():
    built = 0
    for b in _stacked_holes(random.Random(11), 400, 40):
        light, dark = b.colour_counts()
        if not margin_applies(b):
            continue
        assert light == dark
        _check(b)
        built += 1
    assert built > 20
    _check(Board.from_spec(700, 699, ["100,500,2x2", "400,690,1x2", "690,3,2x3"]))


def test_several_holes_side_by_side_in_vertical_slabs():
    """The transposes of boards the horizontal slabs build: vertical cuts, the same joins."""
    built = 0
    for b in _stacked_holes(random.Random(12), 300, 30):
        if margin_slabs(b) is None:
            continue
        across = b.transformed("transpose")
        assert margin_applies(across)
        t = margin_tour(across)
        assert t.board == across and t.closed and t.check() is None
        built += margin_slabs(across) is None  # only vertical cuts separate its holes
    assert built > 20
    # two single squares of opposite colours beside each other on a 9 x 20 board: no row cut
    # separates them, the column cut after column 7 does
    b = Board(9, 20, holes=[(3, 3), (4, 13)])
    assert margin_slabs(b) is None and margin_slabs(b.transformed("transpose")) == [7]
    _check(b)


def test_the_check_command_runs_the_parts_asked(capsys):
    """The default run: two quick parts by name (the whole check is the slow test below)."""
    assert main(["--check", "--build-limit", "3", "--part", "cuts", "--part", "tours"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(":")[0] for line in lines] == ["cuts", "tours"] and "accepted by the kernel" in lines[1]
    assert main(["--check", "--build-limit", "99"]) == 2
    assert main([]) == 2
    with pytest.raises(SystemExit) as exc:
        main(["--check", "--part", "no-such-part"])
    assert exc.value.code == 2


@pytest.mark.slow  # every part: about a minute and a half of CPU
def test_the_check_command(capsys):
    assert main(["--check", "--build-limit", "3"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == len(PARTS) and all("FAILED" not in line for line in lines)
    assert "3070 of 3070 (hole, shift, lane and odd-area pieces) verified" in lines[0]
    assert all("accepted by the kernel" in line for line in lines[2:])
