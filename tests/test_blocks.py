"""The block construction (kt_formal.combine.blocks): tours of boards with holes anywhere.

Every tour built is checked by the kernel's tour check; where the construction gives up
(BlocksNotApplicable) nothing is claimed, and the tests say which boards it must build.
"""

from __future__ import annotations

import numpy as np
import pytest

from kt_formal.board import Board
from kt_formal.combine import blocks_groups
from kt_formal.combine.blocks import BlocksNotApplicable, block_tour, solve_group, walk_neighbours
from kt_formal.combine.blocks_layout import cut_parts
from kt_formal.combine.hole_masks import random_rectangles, scattered_squares
from kt_formal.combine.divide import PART_SIZES
from kt_formal.solve import find_tour
from kt_formal.question import Status


def colour_excess(board: Board) -> int:
    d, lt = board.colour_counts()
    return d - lt


# ---------------------------------------------------------------- cuts
@pytest.mark.parametrize("length", [5, 6, 7, 11, 12, 13, 26, 31, 57, 100, 101])
def test_cut_parts_cover_the_side_with_palette_sizes(length):
    rng = np.random.default_rng(length)
    wanted = {int(p): float(rng.integers(1, 20)) for p in rng.integers(1, length, 4)}
    parts = cut_parts(length, wanted)
    assert sum(parts) == length
    assert all(p in PART_SIZES for p in parts)
    odd = [i for i, p in enumerate(parts) if p % 2]
    # odd parts come in adjacent pairs, plus one when the side is odd
    assert len(odd) % 2 == length % 2


def test_cut_parts_meet_hole_edges_when_the_palette_allows():
    parts = cut_parts(60, {20: 50.0, 40: 50.0})
    cuts = set(np.cumsum(parts).tolist())
    assert {20, 40} <= cuts


def test_cut_parts_refuse_short_sides():
    with pytest.raises(Exception, match="cannot be cut"):
        cut_parts(4, {})


# ---------------------------------------------------------------- pieces
def test_walk_neighbours_follows_an_undirected_cycle():
    nb = np.array([[3, 1], [0, 2], [1, 3], [2, 0]])
    assert walk_neighbours(nb, 0, 4).tolist() in ([0, 3, 2, 1], [0, 1, 2, 3])
    with pytest.raises(RuntimeError, match="covered"):
        walk_neighbours(np.array([[1, -1], [0, -1], [3, 3], [2, 2]]), 0, 4)


def test_solve_group_holds_one_move_of_each_set():
    live = np.ones((6, 6), dtype=bool)
    live[2, 2] = live[2, 3] = False
    need = [[((0, 5), (2, 4))], [((5, 0), (4, 2)), ((1, 1), (3, 0))]]
    moves = solve_group(live, need=need, time_limit=10)
    assert isinstance(moves, list) and len(moves) == int(live.sum())
    got = {frozenset(m) for m in moves}
    assert frozenset((0 * 6 + 5, 2 * 6 + 4)) in got
    assert frozenset((5 * 6 + 0, 4 * 6 + 2)) in got or frozenset((1 * 6 + 1, 3 * 6 + 0)) in got
    # 4x4 has no closed tour: CP-SAT proves it
    assert solve_group(np.ones((4, 4), dtype=bool), time_limit=10) == "infeasible"


# ---------------------------------------------------------------- hole families
def _check(board: Board, closed=True, start=None, end=None, time_limit=60, **kw):
    tour = block_tour(board, closed, start, end, time_limit=time_limit, **kw)
    assert tour.check() is None
    assert tour.closed == closed and len(tour) == board.n_squares
    if start is not None:
        assert tour.start == start
    if end is not None:
        assert tour.end == end
    return tour


@pytest.mark.parametrize("seed", range(4))
def test_random_rectangles(seed):
    mask = random_rectangles(40, 40, 4, 8, seed=seed, margin=3)
    assert colour_excess(Board(40, 40, holes=mask)) == 0
    _check(Board(40, 40, holes=mask))


@pytest.mark.parametrize("seed", range(3))
def test_scattered_single_squares(seed):
    mask = scattered_squares(30, 30, 6, seed=seed, margin=4)
    _check(Board(30, 30, holes=mask))


def test_single_squares_of_both_colours_and_a_1x2_hole():
    _check(Board.from_spec(30, 30, ["14,14,1x2"]))
    _check(Board(30, 30, holes=[(10, 10), (20, 21)]))


@pytest.mark.parametrize("spec", [
    ["0,10,4x6"],                # touching the top edge
    ["10,0,6x4"],                # touching the left edge
    ["0,0,2x4"],                 # in a corner
    ["26,26,4x4"],               # in the opposite corner
    ["0,0,2x30"],                # a whole band
])
def test_holes_touching_an_edge_or_a_corner(spec):
    _check(Board.from_spec(30, 30, spec))


@pytest.mark.parametrize("margin", [0, 2, 3, 4, 5])
def test_every_margin(margin):
    _check(Board.from_spec(40, 40, [f"{margin},{margin + 7},8x10"]))


def test_holes_a_few_squares_apart():
    _check(Board.from_spec(40, 40, ["10,10,4x4", "10,16,4x4", "16,10,2x8"]))


def test_irregular_mask_from_text(tmp_path):
    rows = ["." * 32 for _ in range(32)]
    grid = [list(r) for r in rows]
    for r, c in [(8, 8), (8, 9), (9, 8), (9, 9), (9, 10), (10, 9), (20, 20), (21, 22)]:
        grid[r][c] = "#"
    path = tmp_path / "m.txt"
    path.write_text("\n".join("".join(r) for r in grid) + "\n")
    board = Board.from_mask_file(path)
    if colour_excess(board) == 0:
        _check(board)


def test_open_tours_odd_board_and_fixed_ends():
    b = Board.from_spec(31, 31, ["10,10,4x4"])  # odd count: an open tour
    _check(b, closed=False)
    b = Board.from_spec(30, 30, ["10,10,4x4"])
    _check(b, closed=False, start=(0, 0), end=(0, 1))  # opposite colours, one group
    _check(b, closed=False, start=(5, 5))             # a closed tour cut at its start


def test_plain_rectangles():
    for m, n in [(10, 10), (16, 22), (25, 30)]:
        _check(Board(m, n))


def test_refusals_are_not_claims():
    with pytest.raises(BlocksNotApplicable, match="at least"):
        block_tour(Board(4, 30))
    with pytest.raises(BlocksNotApplicable, match="unbalanced"):
        block_tour(Board(31, 31))


def test_groups_and_cache_are_used(monkeypatch):
    st = {}
    _check(Board.from_spec(60, 60, ["21,21,3x2"]), stats=st)
    assert st["groups"] >= 1 and st["joins"] >= 1
    # the same group again comes from the cache, without CP-SAT
    calls = []
    orig = blocks_groups._solve_group
    monkeypatch.setattr(blocks_groups, "_solve_group", lambda *a: calls.append(1) or orig(*a))
    _check(Board.from_spec(60, 60, ["21,21,3x2"]))
    assert calls == []


@pytest.mark.slow
def test_large_rectangles_board():
    mask = random_rectangles(1000, 1000, 20, 50, seed=1)
    _check(Board(1000, 1000, holes=mask))


def test_agrees_with_cpsat_where_it_builds():
    """Where the construction builds a tour CP-SAT must not prove there is none."""
    for seed in range(3):
        mask = random_rectangles(24, 24, 3, 5, seed=10 + seed, margin=1)
        b = Board(24, 24, holes=mask)
        try:
            _check(b)
        except BlocksNotApplicable:
            continue
        r = find_tour(b, engine="cpsat", time_limit=60)
        assert r.status is Status.FOUND


# ---------------------------------------------------------------- the clock
@pytest.mark.parametrize("board", [
    Board(40, 40, holes=random_rectangles(40, 40, 4, 8, seed=3, margin=3)),
    Board(30, 30, holes=scattered_squares(30, 30, 6, seed=0, margin=4)),
], ids=["rectangles", "squares"])
def test_the_tour_does_not_depend_on_the_machine_load(busy_cpsat, board):
    """Each group's budget is CP-SAT's deterministic time and the wall clock bounds only the
    whole construction: on a (emulated) machine a thousand times busier the same groups are
    solved, and the tour is the same. (With a wall-clock limit per group they ran out of
    time there and grew, until the construction gave up.)"""
    tours, stats = [], []
    for busy in (False, True):
        if busy:
            busy_cpsat()
        blocks_groups.GROUP_CACHE.clear()  # solved again, not taken from the cache
        st = {}
        tours.append(_check(board, time_limit=10 ** 5, stats=st).order)
        stats.append(st)
    assert np.array_equal(tours[0], tours[1])
    assert stats[0]["cpsat_calls"] == stats[1]["cpsat_calls"] >= 1


def test_the_grouping_keeps_to_the_time_limit():
    """Grouping the holes of a big board takes minutes: with no time left the construction
    stops before it groups anything, and says where it stopped (not after the grouping,
    as it did when only the solving of groups looked at the clock)."""
    board = Board(200, 200, holes=scattered_squares(200, 200, 400, seed=1, margin=0))
    with pytest.raises(BlocksNotApplicable, match="ran out while grouping the holes"):
        block_tour(board, time_limit=0.0)


def test_no_block_construction_after_the_repair_used_up_the_time():
    """The constructions' stage keeps to its share: once the hole repair has used the
    time, the block construction is not started (a note says so)."""
    from kt_formal.solve.blocks_engine import construct
    from kt_formal.question import Limits, Question

    board = Board(200, 200, holes=scattered_squares(200, 200, 400, seed=1, margin=0))
    notes = []
    tour, how = construct(Question(board), Limits(1e-9), notes, frame=False)  # the time is spent
    assert tour is None and how is None
    assert ("blocks", "not started: no time left") in [(n, o) for n, o, _s in notes]
    assert any(n == "repair" and "ran out of time" in o for n, o, _s in notes)
