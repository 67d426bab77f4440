"""CP-SAT engine: closed, open, fixed ends, forced/forbidden moves, holes, limits."""

import re

import pytest

from kt_formal.board import Board
from kt_formal.solve import Status, find_tour

SIZES = [(m, n) for m in range(5, 13) for n in range(m, 13)]


@pytest.mark.parametrize("m,n", SIZES)
def test_closed_tours_5_to_12(m, n):
    result = find_tour(Board(m, n), engine="cpsat", seed=0)
    if m % 2 and n % 2:  # Schwenk: both odd -> no closed tour (colour counts differ)
        assert result.status is Status.IMPOSSIBLE
        assert result.tour is None
    else:
        assert result.status is Status.FOUND
        assert result.tour.check() is None and result.tour.closed


@pytest.mark.parametrize("m,n", [(3, 4), (3, 6), (3, 8), (4, 4), (4, 6), (4, 8), (5, 5), (5, 7)])
def test_known_impossible_closed(m, n):
    result = find_tour(Board(m, n), engine="cpsat")
    assert result.status is Status.IMPOSSIBLE, result.message
    assert "proved" in result.message


def test_holed_boards():
    for board in (Board.from_spec(8, 8, ["3,3,2x2"]), Board.from_spec(10, 10, ["3,3,4x4"]),
                  Board.from_mask("..........\n..........\n...#......\n....##....\n"
                                  "....##....\n.....#....\n..........\n..........\n")):
        result = find_tour(board, engine="cpsat")
        assert result.found, board
        t = result.tour
        assert t.check() is None and len(t) == board.n_squares
        assert all(board.is_live(*sq) for sq in t.squares())


def test_fixed_ends():
    b = Board(8, 8)
    r = find_tour(b, closed=False, start="a1", end="h1", engine="cpsat")
    assert r.found and r.tour.start == (7, 0) and r.tour.end == (7, 7) and r.tour.check() is None
    r = find_tour(b, closed=False, start="a1", end="h8", engine="cpsat")
    assert r.status is Status.IMPOSSIBLE  # a1 and h8 share a colour; 32/32 squares
    r = find_tour(Board(5, 5), closed=False, start="a1", engine="cpsat")
    assert r.found and r.tour.start == (4, 0) and r.tour.check() is None
    r = find_tour(Board(5, 5), closed=False, start="b1", engine="cpsat")
    assert r.status is Status.IMPOSSIBLE  # b1 is a light square, 12 light vs 13 dark


def test_closed_with_start_and_end():
    r = find_tour(Board(6, 6), start="a1", end="b3", engine="cpsat")
    assert r.found and r.tour.start == (5, 0) and r.tour.end == (3, 1) and r.tour.check() is None
    r = find_tour(Board(6, 6), start="a1", end="a2", engine="cpsat")
    assert r.status is Status.IMPOSSIBLE


def test_forced_and_forbidden_moves():
    b = Board(6, 6)
    corners = [((0, 1), (2, 0)), ((0, 2), (1, 0)), ((5, 4), (3, 5)), ((5, 3), (4, 5))]
    r = find_tour(b, forced=corners, forbidden=[((2, 2), (4, 3))], engine="cpsat", seed=5)
    assert r.found and r.tour.check() is None
    moves = {frozenset((divmod(int(a), 6), divmod(int(c), 6))) for a, c in r.tour.edges()}
    for a, c in corners:
        assert frozenset((a, c)) in moves
    assert frozenset(((2, 2), (4, 3))) not in moves


def test_seed_repeats():
    a = find_tour(Board(12, 12), engine="cpsat", seed=7, workers=2)
    b = find_tour(Board(12, 12), engine="cpsat", seed=7, workers=2)
    assert a.tour == b.tour


def test_degenerate_boards():
    assert find_tour(Board(1, 1), closed=False).tour.squares() == [(0, 0)]
    assert find_tour(Board(1, 1)).status is Status.IMPOSSIBLE
    pair = Board(2, 3, holes=[(0, 1), (0, 2), (1, 0), (1, 1)])
    assert find_tour(pair).status is Status.IMPOSSIBLE  # two squares are no cycle
    r = find_tour(pair, closed=False)
    assert r.found and r.tour.check() is None
    assert find_tour(Board(2, 2), closed=False).status is Status.IMPOSSIBLE
    # an isolated square (no knight move at all) must not be skipped by the circuit
    for board in (Board(3, 3), Board(1, 2), Board(2, 2)):
        for closed in (True, False):
            r = find_tour(board, closed=closed, engine="cpsat")
            assert r.status is Status.IMPOSSIBLE and r.tour is None, (board, closed)


def test_limit_reached_is_unknown_not_impossible():
    r = find_tour(Board(4, 20), engine="cpsat", time_limit=0.05)
    assert r.status in (Status.LIMIT, Status.IMPOSSIBLE)
    if r.status is Status.LIMIT:
        assert "without an answer" in r.message and r.tour is None
    # with enough time the same request is proved impossible (Posa: 4 x n has no closed tour)
    assert find_tour(Board(4, 10), engine="cpsat").status is Status.IMPOSSIBLE


def test_the_time_limit_covers_building_the_model():
    """A board of 2.9 million moves takes seconds to model: past the limit the engine stops
    building and says so (unknown, no search run), where it used to build the whole model
    (2000 x 2000: 54 s and 7.7 GB with a limit of 5 s)."""
    r = find_tour(Board(600, 600), engine="cpsat", time_limit=0.3)
    assert r.status is Status.LIMIT
    assert "building the CP-SAT model reached the time limit (0.3 s) after" in r.message
    made = re.search(r"after ([\d,]+) of the board's 2,865,616 moves; no search was run", r.message)
    assert made and int(made.group(1).replace(",", "")) < 2_865_616, r.message
