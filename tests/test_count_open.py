"""Open tours counted by the compiled frontier counter against exhaustive search: every board of
at most 30 squares, with and without fixed ends, and 200 random holed boards."""

from __future__ import annotations

import random

import pytest

from kt_formal.board import Board
from kt_formal.counting.frontier_jit import count_request_jit
from kt_formal.question import Question
from kt_formal.counting.exhaustive import count as exhaustive_count

BOARDS = [(r, c) for r in range(1, 7) for c in range(r, 31) if r * c <= 30]


def pathsearch(board, start=None, end=None):
    return exhaustive_count(Question(board, closed=False, start=start, end=end))


@pytest.mark.parametrize("rows, cols", BOARDS)
def test_open_count_equals_the_search_on_every_small_board(rows, cols):
    b = Board(rows, cols)
    want = pathsearch(b)
    got = count_request_jit(Question(b, closed=False))
    assert got.count == want.count
    assert got.directed == want.directed_count  # free ends: each path both ways


@pytest.mark.parametrize("rows, cols", [bc for bc in BOARDS if bc[0] >= 3])
def test_open_count_from_every_start_square_equals_the_search(rows, cols):
    b = Board(rows, cols)
    squares = [(r, c) for r in range(rows) for c in range(cols)]
    total = 0
    for s in squares:
        got = count_request_jit(Question(b, closed=False, start=s))
        assert got.count == pathsearch(b, start=s).count, s
        assert got.directed == got.count  # every such tour runs from its start
        total += got.count
    # every path has two ends: summed over its start squares, each is counted twice
    assert total == 2 * count_request_jit(Question(b, closed=False)).count


@pytest.mark.parametrize("rows, cols", [(3, 4), (3, 7), (4, 5), (3, 8), (4, 6), (5, 5),
                                        pytest.param(5, 6, marks=pytest.mark.slow),
                                        pytest.param(4, 7, marks=pytest.mark.slow)])
def test_open_count_between_every_pair_of_ends_equals_the_search(rows, cols):
    b = Board(rows, cols)
    squares = [(r, c) for r in range(rows) for c in range(cols)]
    total = 0
    for i, s in enumerate(squares):
        for e in squares[i + 1:]:
            got = count_request_jit(Question(b, closed=False, start=s, end=e)).count
            assert got == pathsearch(b, s, e).count, (s, e)
            total += got
    assert total == count_request_jit(Question(b, closed=False)).count > 0


def _random_holed(rng: random.Random):
    """A board of 12 to 32 squares less one to four holes, its colours balanced to within one
    (else it has no open tour and both counters agree on a quick 0), random fixed ends."""
    while True:
        rows = rng.randint(3, 5)
        cols = rng.randint(4, 8)
        if not 12 <= rows * cols <= 32:
            continue
        squares = [(r, c) for r in range(rows) for c in range(cols)]
        holes = rng.sample(squares, rng.randint(1, 4))
        live = [q for q in squares if q not in holes]
        if abs(sum((r + c) % 2 for r, c in live) * 2 - len(live)) > 1:
            continue
        # ends of a colour a path can have: both of the larger colour when the number of
        # squares is odd, one of each when it is even (a few of any colour, to test 0 too)
        odd = sum((r + c) % 2 for r, c in live)
        big = int(2 * odd > len(live))
        start = end = None
        u = rng.random()
        if u < 0.6:
            fair = rng.random() < 0.85
            start = rng.choice([q for q in live if not fair or len(live) % 2 == 0 or sum(q) % 2 == big])
            if u < 0.3:
                want = big if len(live) % 2 else 1 - sum(start) % 2
                end = rng.choice([q for q in live if q != start and (not fair or sum(q) % 2 == want)])
        return Board(rows, cols, holes=holes), start, end


@pytest.mark.parametrize("i", range(200))
def test_open_count_equals_the_search_on_random_holed_boards(i):
    board, start, end = _random_holed(random.Random(24_000 + i))
    want = pathsearch(board, start, end)
    got = count_request_jit(Question(board, closed=False, start=start, end=end))
    assert got.count == want.count, (board, start, end)


def test_the_random_holed_boards_reach_tours():
    """The random cases are not all empty: a good part of them (68 of 200) have open tours."""
    with_tours = sum(bool(count_request_jit(Question(b, False, s, e)).count)
                     for b, s, e in (_random_holed(random.Random(24_000 + i)) for i in range(200)))
    assert with_tours >= 50


# Published values (../shared/reference.md): open tours of 5x5, 864 undirected and 1728
# directed; of 6x6, 6,637,920 directed (OEIS A165134), so 3,318,960 undirected.
@pytest.mark.parametrize("n, directed", [(5, 1728), pytest.param(6, 6_637_920, marks=pytest.mark.slow)])
def test_published_open_counts(n, directed):
    got = count_request_jit(Question(Board(n, n), closed=False))
    assert got.directed == directed
    assert 2 * got.count == directed


def test_count_command_names_directed_and_undirected_open_counts(cli):
    import json

    jsonschema = pytest.importorskip("jsonschema")
    from kt_formal.io.jsonout import load_schema

    validator = jsonschema.Draft202012Validator(load_schema())

    r = cli("count", "5", "6", "--open", "--method", "frontier")
    n = count_request_jit(Question(Board(5, 6), closed=False)).count
    assert r.code == 0 and r.out.startswith(f"{n} open tours of the 5x6 board ({2 * n} directed)")
    r = cli("count", "5", "6", "--open", "--start", "0,0", "--method", "frontier", "--json")
    d = json.loads(r.out)
    validator.validate(d)
    want = count_request_jit(Question(Board(5, 6), closed=False, start=(0, 0))).count
    assert d["count"] == d["directed_count"] == want > 0 and d["method"] == "frontier"


def test_python_api_counts_open_tours_with_fixed_ends():
    import kt_formal as kt

    free = kt.count(5, 6, closed=False, method="frontier")
    assert free.directed_count == 2 * free.count == 2 * pathsearch(Board(5, 6)).count
    one = kt.count(5, 6, closed=False, start=(0, 0), method="frontier")
    both = kt.count(5, 6, closed=False, start=(0, 0), end=(4, 5), method="frontier")
    assert one.count == pathsearch(Board(5, 6), (0, 0)).count == one.directed_count > 0
    assert both.count == pathsearch(Board(5, 6), (0, 0), (4, 5)).count
    assert one.to_json()["directed_count"] == one.count


def test_open_counts_take_the_frontier_by_default_even_on_small_boards(cli):
    """The exhaustive search grows with the tours, and open tours are many: 6x6 has
    3,318,960 (OEIS A165134: 6,637,920 directed), over a minute by search, a few seconds by
    the frontier, which ``--method auto`` takes for open tours on every board it can."""
    run = cli("count", "5", "6", "--open")  # OEIS A083386 (5 x n open, undirected): 5x6 has 18,784
    assert run.code == 0 and "frontier method" in run.out and run.out.startswith("18784 open tours"), run.out
    closed = cli("count", "5", "6")  # closed, the smallest boards: the search, quick (Schwenk: 8)
    assert closed.code == 0 and "nodes in" in closed.out and closed.out.startswith("8 closed tours"), closed.out


@pytest.mark.parametrize("rows, cols, holes, start", [(5, 5, None, None), (4, 6, None, None),
                                                      (5, 6, [(2, 2)], None), (5, 5, [(0, 0)], (2, 2))])
def test_the_colour_check_of_the_ends_prunes_states_and_keeps_the_count(rows, cols, holes, start, monkeypatch):
    """A knight's move joins a light and a dark square, so an open tour's ends have the colours
    the board's light/dark balance asks for (opposite on an even board, both of the larger
    colour on an odd one): states whose ends cannot are dropped. The reference with the check
    switched off counts the same tours through more states; the compiled counter holds the
    reference's states with it, column for column."""
    from kt_formal.counting import frontier

    b = Board(rows, cols, holes=holes)
    checked = frontier.count_request(Question(b, closed=False, start=start))
    assert count_request_jit(Question(b, closed=False, start=start), symmetry=False).states_per_column == checked.states_per_column
    monkeypatch.setattr(frontier, "_colours_dead", lambda *a: False)
    unchecked = frontier.count_request(Question(b, closed=False, start=start))
    assert unchecked.count == checked.count == pathsearch(b, start).count
    assert checked.max_states < unchecked.max_states


@pytest.mark.parametrize("k, a, b", [(4, 3, 9), pytest.param(6, 3, 5, marks=pytest.mark.slow), (3, 4, 8)])  # 6 across: 8 s
def test_open_counts_of_a_row_of_widths_equal_each_board_alone(k, a, b):
    """The row counter checks the ends' colours only where the squares still to come weigh
    the same whatever the width (an even height); every width's count is the single board's."""
    from kt_formal.counting.frontier_jit import count_row

    row = count_row(k, a, b, closed=False)
    assert row == {n: count_request_jit(Question(Board(k, n), closed=False)).count for n in range(a, b + 1)}


def _eight_across(cols, extra=()):
    """An 8x8 board holed to 8 x ``cols`` (and at ``extra``): swept 8 across."""
    return [(r, c) for r in range(8) for c in range(cols, 8)] + list(extra)


@pytest.mark.parametrize("rows, cols, closed, holes, start", [
    (5, 6, True, None, None), (5, 6, True, [(2, 2), (2, 3)], None), (5, 5, False, None, None), (4, 6, False, None, (0, 0)),
    (4, 7, True, [(0, 0), (3, 6)], None),
    pytest.param(6, 6, True, None, None, marks=pytest.mark.slow),
    # the keys of base 11 (slow: that kernel is a compile of its own)
    pytest.param(8, 8, False, _eight_across(3), None, marks=pytest.mark.slow),
    pytest.param(8, 8, True, _eight_across(5, [(0, 0), (7, 4), (3, 2), (4, 2)]), None, marks=pytest.mark.slow)])
def test_the_look_ahead_prunes_states_and_keeps_the_count(rows, cols, closed, holes, start, monkeypatch):
    """A square still to come whose neighbours ahead are fewer than the moves it needs takes
    the rest from the window: a state whose window squares able to take a move are too few
    for it is dead (closed), or makes it an end (open). The reference without the look-ahead
    counts the same tours through more states; the compiled counter (eight across too) holds
    the reference's states with it, column for column."""
    from kt_formal.counting import frontier

    b = Board(rows, cols, holes=holes)
    checked = frontier.count_request(Question(b, closed=closed, start=start))
    jit = count_request_jit(Question(b, closed=closed, start=start), symmetry=False)
    assert jit.states_per_column == checked.states_per_column and jit.count == checked.count
    monkeypatch.setattr(frontier, "_short_of_moves", lambda *a: [])
    unchecked = frontier.count_request(Question(b, closed=closed, start=start))
    want = exhaustive_count(Question(b, closed=closed, start=start)).count
    assert unchecked.count == checked.count == want
    assert checked.max_states < unchecked.max_states
