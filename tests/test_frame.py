"""Seed 003's rotation and support models, the generalised frame, and the frame engine."""

import json
import random

import numpy as np
import pytest

from kt_formal.combine import library
from kt_formal.board import Board
from kt_formal.certificate import check_tour
from kt_formal.combine import frame, frame_large
from kt_formal.combine.frame import (
    PAPER_A_ELEMENTS,
    PAPER_B_ELEMENTS,
    NotApplicable,
    band_path,
    element_a_spec,
    element_b_spec,
    rotation_model,
    support_model,
)
from kt_formal.combine.frame_large import frame_tour, single_hole
from kt_formal.solve import Status, Question, choose_engine, find_tour
from kt_formal.exceptions import InvalidInput


def _verified(tour):
    """The independent checker on the tour's own board (and the closed flag)."""
    assert tour.closed
    assert check_tour(tour.board, tour.order, closed=True) is None
    return tour


# ---------------------------------------------------------------------- the paper's examples
def test_seed_rotation_example_14x8_with_8x2_hole_96_moves():
    t = _verified(rotation_model("3x8", 1, 1))
    assert (t.board.rows, t.board.cols) == (14, 8)
    assert single_hole(t.board) == (3, 3, 8, 2)
    assert t.board == Board.from_spec(14, 8, ["3,3,8x2"])
    assert len(t) == 96
    assert t.start == (0, 0)


def test_seed_support_example_10x10_with_4x4_hole_84_moves():
    t = _verified(support_model("3x10", "4x3", 1, 1))
    assert (t.board.rows, t.board.cols) == (10, 10)
    assert single_hole(t.board) == (3, 3, 4, 4)
    assert len(t) == 84
    assert t.start == (0, 0)


def test_numbering_follows_the_paper_down_the_left_side_first():
    """1 at the top-left; the paper's order: the top-left element, then down the left side."""
    n, m = 3, 8
    t = rotation_model("3x8", 1, 1)
    num = t.numbering()
    assert num[0, 0] == 1
    a = library.load_piece("element-A-3x8").tour
    # the top-left corner is A's last-but-... square (n, m) of the paper, rotated 180 degrees:
    # after it the tour runs through the rest of that element, then enters the left side
    k = a.position((n - 1, m - 1))
    rest = len(a) - k  # squares of the top-left element numbered 1..rest
    left_rc = np.argwhere((num > rest) & (num <= rest + m * n))
    assert left_rc[:, 1].max() < n and left_rc[:, 0].min() >= n  # the left side


@pytest.mark.parametrize("wv", [1, 2, 3])
def test_hole_free_rotation_when_m_equals_n(wv):
    t = _verified(rotation_model("5x5", 2, wv))
    assert (t.board.rows, t.board.cols) == ((wv + 2) * 5, 10)
    assert not t.board.has_holes


def test_hole_free_support_when_m_is_twice_m1():
    t = _verified(support_model("3x10", "4x5", 1, 1))
    assert (t.board.rows, t.board.cols) == (2 * 3 + 4, 10)
    assert not t.board.has_holes


# ---------------------------------------------------------------------- elements
@pytest.mark.parametrize("n, m", PAPER_A_ELEMENTS)
def test_every_listed_element_a_is_in_the_library(n, m):
    piece = library.load_piece(f"element-A-{n}x{m}")  # verified on load
    assert piece.spec == element_a_spec(n, m)
    assert (piece.tour.start, piece.tour.end) == ((0, 0), (1, m - 2))
    assert piece.tour.check() is None and not piece.tour.closed


@pytest.mark.parametrize("n1, m1", PAPER_B_ELEMENTS)
def test_every_listed_element_b_is_in_the_library(n1, m1):
    piece = library.load_piece(f"element-B-{n1}x{m1}")
    assert piece.spec == element_b_spec(n1, m1)
    assert (piece.tour.start, piece.tour.end) == ((0, 0), (n1 - 1, 2))
    assert piece.tour.check() is None


def test_an_element_that_does_not_exist_is_proven_by_cpsat_and_refused():
    spec = element_a_spec(3, 5)  # passes the colour count; 3x5 has no open tour at all
    assert frame._colour_feasible(spec)
    r = find_tour(spec.board(), closed=False, start=spec.start, end=spec.end, engine="cpsat")
    assert r.status is Status.IMPOSSIBLE
    with pytest.raises(InvalidInput, match="element A 3x5 does not exist"):
        rotation_model("3x5", 3, 1)
    with pytest.raises(InvalidInput, match="element A 4x8 does not exist"):
        rotation_model("4x8", 2, 1)  # colour count: 32 squares, both ends on one colour


@pytest.mark.parametrize("args, match", [
    (("3x8", 0, 1), "wh must be"),
    (("3x7", 1, 1), "less than 2n"),  # m = 7 > 6: fine, see below; 3x2 would overlap
    (("3x2", 1, 1), "less than 2n"),
    (("3by8", 1, 1), "not of the form"),
])
def test_bad_rotation_parameters(args, match):
    if args[0] == "3x7":
        assert len(_verified(rotation_model(*args))) == 2 * 2 * 21
        return
    with pytest.raises(InvalidInput, match=match):
        rotation_model(*args)


def test_bad_support_parameters():
    with pytest.raises(InvalidInput, match="less than 2\\*m1"):
        support_model("3x8", "4x5", 1, 1)
    with pytest.raises(InvalidInput, match="element B 3x5 does not exist"):
        support_model("3x10", "3x5", 1, 1)


# ---------------------------------------------------------------------- the models, wh, wv <= 4
@pytest.mark.parametrize("n, m", PAPER_A_ELEMENTS)
def test_rotation_model_all_sizes(n, m):
    built = 0
    for wh in range(1, 5):
        for wv in range(1, 5):
            if wh * m < 2 * n:
                with pytest.raises(InvalidInput):
                    rotation_model((n, m), wh, wv)
                continue
            t = _verified(rotation_model((n, m), wh, wv))
            R, C = 2 * n + wv * m, wh * m
            assert (t.board.rows, t.board.cols) == (R, C)
            assert len(t) == 2 * (wv + wh) * m * n
            hole = single_hole(t.board)
            if wh * m > 2 * n:
                assert hole == (n, n, wv * m, wh * m - 2 * n)
            else:
                assert hole is None
            built += 1
    assert built == sum(wh * m >= 2 * n for wh in range(1, 5)) * 4 > 0


@pytest.mark.parametrize("n1, m1", PAPER_B_ELEMENTS)
def test_support_model_all_sizes(n1, m1):
    built = 0
    for n, m in PAPER_A_ELEMENTS:
        for wh in range(1, 5):
            for wv in range(1, 5):
                if wh * m < 2 * m1:
                    with pytest.raises(InvalidInput):
                        support_model((n, m), (n1, m1), wh, wv)
                    continue
                t = _verified(support_model((n, m), (n1, m1), wh, wv))
                assert (t.board.rows, t.board.cols) == (2 * n + wv * n1, wh * m)
                assert len(t) == 2 * wh * m * n + 2 * wv * m1 * n1
                hole = single_hole(t.board)
                if wh * m > 2 * m1:
                    assert hole == (n, m1, wv * n1, wh * m - 2 * m1)
                else:
                    assert hole is None
                built += 1
    expected = sum(wh * m >= 2 * m1 for _, m in PAPER_A_ELEMENTS for wh in range(1, 5)) * 4
    assert built == expected > 0


# ---------------------------------------------------------------------- bands and the frame
@pytest.mark.parametrize("H, W", [(3, 40), (7, 33), (12, 50), (41, 10), (45, 31), (60, 22), (97, 64)])
def test_band_is_an_open_tour_between_its_ends(H, W):
    sq = band_path(H, W)
    b = Board(H, W)
    assert check_tour(b, sq, closed=False) is None
    assert tuple(sq[0]) == (0, 0) and tuple(sq[-1]) == (1, W - 2)


def test_band_refuses_what_the_colour_count_forbids():
    with pytest.raises(NotApplicable, match="colour count"):
        band_path(10, 25)
    with pytest.raises(NotApplicable, match="too thin"):
        band_path(2, 30)
    with pytest.raises(NotApplicable, match="Posa"):
        band_path(4, 30)
    # the Posa argument, checked by CP-SAT on one width
    spec = element_a_spec(4, 8)
    r = find_tour(spec.board(), closed=False, start=spec.start, end=spec.end, engine="cpsat")
    assert r.status is Status.IMPOSSIBLE


@pytest.mark.parametrize("R, C, hole", [
    (60, 70, "10,20,25x30"),      # colour count forces the transposed frame
    (120, 90, "50,3,40x60"),       # off-centre, thin left margin
    (150, 150, "45,45,60x60"),     # centred
    (201, 163, "17,99,101x41"),    # odd sides and bands
    (130, 140, "3,3,124x134"),     # every margin 3
])
def test_frame_construction_large_holed_boards(R, C, hole):
    board = Board.from_spec(R, C, [hole])
    t = frame_tour(board)
    assert t.board == board
    _verified(t)
    r = find_tour(board, engine="frame", method="construct")
    assert r.found and r.stats["method"] == "frame" and r.tour.check() is None


@pytest.mark.parametrize("R, C, holes, reason", [
    (100, 100, ["1,1,5x5"], "margin under 3"),
    (100, 100, ["10,10,30x6", "10,16,6x30"], "cuts can separate"),  # an L: no cut separates
    (100, 100, ["10,10,5x5"], "colour count"),
])
def test_frame_says_when_it_does_not_apply(R, C, holes, reason):
    board = Board.from_spec(R, C, holes)
    with pytest.raises(NotApplicable, match=reason):
        frame_tour(board)
    r = find_tour(board, engine="frame", method="construct")
    assert r.status is Status.UNKNOWN and reason in r.message


@pytest.mark.parametrize("R, C, holes", [
    (100, 100, ["10,10,20x30", "50,40,20x20"]),
    (300, 200, ["20,20,50x50", "100,100,40x60", "200,30,60x100"]),
    (100, 120, ["10,10,80x20", "10,60,80x30"]),   # side by side: vertical cuts
    (400, 300, ["30,200,100x50", "150,20,120x60", "300,150,60x100"]),
])
def test_frame_construction_several_holes(R, C, holes):
    board = Board.from_spec(R, C, holes)
    t = frame_tour(board)
    assert t.board == board and t.start == (0, 0)
    _verified(t)


def test_join_swaps_two_moves_into_one_cycle():
    a = frame_tour(Board.from_spec(20, 30, ["5,5,10x20"])).order
    b = frame_tour(Board.from_spec(20, 30, ["5,5,10x20"])).order + 20 * 30
    joined = frame_large._join(a, b, 20, 30)
    board = Board.from_spec(40, 30, ["5,5,10x20", "25,5,10x20"])
    assert check_tour(board, joined, closed=True) is None


# ---------------------------------------------------------------------- random holes, CP-SAT
def _random_cases(k=30, seed=2026):
    rng = random.Random(seed)
    cases = []
    for _ in range(k):
        R, C = rng.randint(6, 40), rng.randint(6, 40)
        holes = []
        for _ in range(rng.choice([1, 1, 1, 2])):
            h, w = rng.randint(1, max(1, R // 3)), rng.randint(1, max(1, C // 3))
            holes.append(f"{rng.randint(0, R - h)},{rng.randint(0, C - w)},{h}x{w}")
        cases.append((R, C, tuple(holes)))
    return cases


RANDOM_CASES = _random_cases()


@pytest.mark.slow  # about 14 s each on 2 busy cores
def test_random_off_centre_holes_every_verdict_is_certified():
    verdicts = {}
    for R, C, holes in RANDOM_CASES:
        board = Board.from_spec(R, C, holes)
        request = Question(board)
        assert choose_engine(request) in ("cpsat", "blocks")  # by the board's shape
        r = find_tour(board, engine="frame", time_limit=30)
        assert r.engine == "frame" and r.stats["method"] == "cpsat"
        if r.found:
            assert check_tour(board, r.tour, closed=True) is None
        else:
            # only a proof counts as impossible; nothing ran out of time here
            assert r.status is Status.IMPOSSIBLE, r.message
            if "has no knight move" in r.message:  # the engine's isolated-square check
                assert (board.degrees() == 0).any()
            else:
                assert "CP-SAT proved" in r.message
        verdicts[(R, C, holes)] = r.status
    found = sum(v is Status.FOUND for v in verdicts.values())
    assert found >= 10 and len(verdicts) == 30
    for (R, C, holes), status in verdicts.items():  # the record (shown with -s)
        print(f"{R}x{C} minus {' '.join(holes)}: {status.value}")
    print(f"random holes: {found} found, {len(verdicts) - found} proven impossible by CP-SAT")


@pytest.mark.slow  # about 14 s each on 2 busy cores
def test_random_impossible_verdicts_confirmed_by_exhaustive_engine():
    """Every IMPOSSIBLE verdict on the random holed boards, confirmed by a second engine."""
    confirmed = 0
    for R, C, holes in RANDOM_CASES:
        board = Board.from_spec(R, C, holes)
        r = find_tour(board, time_limit=30)
        if r.status is Status.IMPOSSIBLE:
            e = find_tour(board, engine="exhaustive", time_limit=30)
            assert e.status is Status.IMPOSSIBLE, (R, C, holes, e.message)
            assert e.proof["method"] == "exhaustive" and e.proof["nodes"] >= 0
            confirmed += 1
    assert confirmed >= 10


# ---------------------------------------------------------------------- engine and CLI
def test_engine_reports_unknown_when_the_time_limit_is_reached():
    board = Board.from_spec(60, 60, ["10,10,5x5"])  # the frame does not apply (colour count)
    r = find_tour(board, engine="frame", time_limit=0.01)
    assert r.status is Status.LIMIT and "does not apply" in r.message


def test_engine_unknown_for_huge_board_it_cannot_build():
    board = Board.from_spec(300, 300, ["1,1,5x5"])
    r = find_tour(board, engine="frame")
    assert r.status is Status.UNKNOWN and "more than CP-SAT" in r.message


def test_cli_frame_commands(cli, tmp_path):
    run = cli("frame", "rotation", "--element", "3x8", "--wh", "1", "--wv", "1")
    assert run.code == 0
    lines = run.out.splitlines()
    assert len(lines) == 15 and lines[0].split()[0] == "1"
    assert "14x8 board" in lines[-1] and "hole 8x2 at (3, 3)" in lines[-1] and "96 moves" in lines[-1]
    assert sum(row.split().count("#") for row in lines[:-1]) == 16
    run = cli("frame", "support", "--a", "3x10", "--b", "4x3", "--wh", "1", "--wv", "1")
    assert run.code == 0 and "10x10 board" in run.out and "84 moves" in run.out
    out = tmp_path / "f.json"
    run = cli("frame", "support", "--a", "3x10", "--b", "4x3", "--wh", "2", "--wv", "3",
              "--format", "json", "--out", out)
    assert run.code == 0 and "written to" in run.err
    assert json.loads(out.read_text())["closed"] is True
    assert cli("verify", out).code == 0


@pytest.mark.parametrize("args, match", [
    (["frame", "rotation", "--element", "3x2"], "overlap"),
    (["frame", "rotation", "--element", "3x5", "--wh", "3"], "does not exist"),
    (["frame", "support", "--a", "3x10"], "takes --a"),
    (["frame", "rotation", "--element", "3x8", "--wh", "-1"], "a number from 1 to 1000"),
])
def test_cli_frame_bad_parameters(cli_proc, args, match):
    run = cli_proc(*args)
    assert run.code == 2
    assert match in run.err and len(run.err.strip().splitlines()) == 1 and "Traceback" not in run.err


def test_cli_tour_with_holes_exit_codes(cli_proc):
    # two large holes: the frame construction's slabs (one hole at margin 3 is the margin theorem's)
    run = cli_proc("tour", "150", "150", "--hole", "3,45,60x60", "--hole", "100,40,20x20", "--format", "coords")
    assert run.code == 0 and "frame construction" in run.err
    # odd numbers of squares: the colour proof answers before any construction or search
    run = cli_proc("tour", "6", "6", "--hole", "0,0,1x1")
    assert run.code == 1 and "18 dark and 17 light" in run.err
    run = cli_proc("tour", "300", "300", "--hole", "1,1,5x5")
    assert run.code == 1 and "no closed tour" in run.err
    run = cli_proc("tour", "60", "60", "--hole", "10,10,5x5", "--time-limit", "0.01")
    assert run.code == 1 and "no closed tour" in run.err
    run = cli_proc("tour", "60", "60", "--hole", "10,10,6x5", "--engine", "cpsat", "--time-limit", "0.01")
    # unknown, never "impossible": CP-SAT reached its limit, building its model used it all, or
    # (on a busy machine) the proofs before it did and CP-SAT never started
    assert run.code == 3 and "impossible" not in run.err and (
        "CP-SAT reached" in run.err or "no search was run" in run.err or "cpsat: not started: no time left" in run.err
    ), run.err


def test_cli_tour_with_a_mask(cli, tmp_path):
    board = Board.from_spec(12, 14, ["2,3,3x4", "8,9,2x2"])  # two holes: CP-SAT
    mask = tmp_path / "m.txt"
    mask.write_text(board.to_mask())
    run = cli("tour", "--mask", mask, "--format", "json")
    assert run.code == 0
    from kt_formal.certificate import board_from_dict

    data = json.loads(run.out)
    assert board_from_dict(data["board"]) == board
    assert cli("tour", "--mask", mask, "--engine", "frame", "--seed", "1").code == 0


@pytest.mark.slow  # twelve boards of 60..200 a side: 7 s
def test_random_single_holes_on_large_boards():
    """Seeded random holes on 60..200-square-sided boards: every built tour verifies,
    every refusal names its reason, and most balanced boards are built."""
    rng = random.Random(5)
    built = refused = 0
    for _ in range(12):
        R, C = rng.randrange(60, 200, 2), rng.randrange(60, 200, 2)
        h, w = rng.randrange(6, R - 10, 2), rng.randint(5, C - 10)
        r0, c0 = rng.randint(5, R - h - 5), rng.randint(5, C - w - 5)
        board = Board.from_spec(R, C, [f"{r0},{c0},{h}x{w}"])
        try:
            t = frame_tour(board)
        except NotApplicable as exc:
            assert str(exc)
            refused += 1
            continue
        _verified(t)
        assert t.board == board
        built += 1
    # even sides and an even hole height: the colour count never forbids a band
    assert built >= 10, (built, refused)
