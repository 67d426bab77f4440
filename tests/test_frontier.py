"""The frontier counter against published counts, the exhaustive engine and its own invariants."""

from __future__ import annotations

import random
import re

import pytest

from kt_formal.board import Board
from kt_formal.question import Question
from kt_formal.counting.exhaustive import count as exhaustive_count
from kt_formal.counting.frontier import count_request, count_tours


# Published values (../shared/reference.md): closed tours 5x6 = 8 (OEIS A175881, closed
# tours of 6 x n: a(5)); 3x10 = 16 and 3x12 = 176 (OEIS A070030, closed tours of 3 x 2n:
# a(5) and a(6), Knuth and Elkies 1994; also Knuth's A383660); 6x6 = 9862 (OEIS A001230,
# closed tours of 2n x 2n: a(3); A175881: a(6)); open tours of 5x5 = 864 undirected
# (OEIS A165134: 1728 directed).
@pytest.mark.parametrize("rows, cols, closed, published", [
    (5, 6, True, 8), (6, 5, True, 8), (3, 10, True, 16), (10, 3, True, 16), (3, 12, True, 176),
])
def test_published_counts(rows, cols, closed, published):
    assert count_tours(rows, cols, closed) == published


@pytest.mark.slow
@pytest.mark.parametrize("rows, cols, closed, published", [(6, 6, True, 9862), (5, 5, False, 864)])
def test_published_counts_slow(rows, cols, closed, published):
    assert count_tours(rows, cols, closed) == published


def _random_case(rng: random.Random):
    while True:
        rows = rng.randint(3, 5)
        cols = rng.randint(3, 7)
        if rows * cols > 24:
            continue
        squares = [(r, c) for r in range(rows) for c in range(cols)]
        holes = rng.sample(squares, rng.randint(0, 3))
        live = [q for q in squares if q not in holes]
        if len(live) < 3:
            continue
        closed = rng.random() < 0.5
        start = end = None
        if not closed and rng.random() < 0.6:
            start = rng.choice(live)
            if rng.random() < 0.6:
                end = rng.choice(live)
        return Board(rows, cols, holes=holes or None), closed, start, end


CASES = 220


@pytest.mark.parametrize("i", range(CASES))
def test_frontier_equals_exhaustive_on_random_holed_boards(i):
    board, closed, start, end = _random_case(random.Random(1000 + i))
    if start is not None and start == end:
        return  # an ends question: no tour of two or more squares, both methods agree trivially
    expected = exhaustive_count(Question(board, closed=closed, start=start, end=end)).count
    assert count_request(Question(board, closed, start, end)).count == expected, (board, closed, start, end)


@pytest.mark.parametrize("rows, cols", [(3, 4), (3, 7), (4, 5)])
def test_open_counts_with_fixed_ends_sum_to_the_open_count(rows, cols):
    b = Board(rows, cols)
    squares = [(r, c) for r in range(rows) for c in range(cols)]
    total = sum(count_request(Question(b, False, s, e)).count
                for i, s in enumerate(squares) for e in squares[i + 1:])
    assert total == count_request(Question(b, False)).count > 0


@pytest.mark.parametrize("rows, cols, closed", [
    (3, 10, True), (3, 7, False), pytest.param(5, 6, True, marks=pytest.mark.slow)])
def test_forced_and_forbidden_moves_split_the_count(rows, cols, closed):
    """Every tour uses a given move or not: forced + forbidden = all, for every move."""
    b = Board(rows, cols)
    total = count_request(Question(b, closed)).count
    moves = {tuple(sorted(((r, c), (r + dr, c + dc)))) for r in range(rows) for c in range(cols)
             for dr, dc in ((1, 2), (2, 1), (1, -2), (2, -1)) if b.is_live(r + dr, c + dc)}
    at = {}
    for m in sorted(moves):
        used = count_request(Question(b, closed, forced=[m])).count
        unused = count_request(Question(b, closed, forbidden=[m])).count
        assert used + unused == total, m
        for q in m:
            at[q] = at.get(q, 0) + used
    if closed:  # a closed tour uses exactly two moves at every square
        assert all(v == 2 * total for v in at.values())


def test_sequence_command(cli):
    run = cli("count", "--sequence", "3", "10..12")
    assert run.code == 0
    assert run.out.splitlines() == ["3x10 16", "3x11 0", "3x12 176"]


def test_count_command_picks_the_frontier_on_long_boards(cli):
    run = cli("count", "3", "30")
    assert run.code == 0 and "frontier method" in run.out
    assert run.out.split()[0] == str(count_tours(3, 30))


@pytest.mark.parametrize("args, match", [
    (("count", "13", "13"), "out of reach"),
    (("count", "--sequence", "3", "12..10"), "empty"),
    (("count", "--sequence", "9", "10..12"), "at most 8"),
    (("count", "--sequence", "3", "10"), "range A..B"),
    (("count", "10", "10", "--method", "frontier"), "at most 8"),
    # a million across: its estimate is a figure, not a float that overflows
    (("count", "1000000", "1000000"), "about 4e+1505146 states per step"),
    (("count", "1000000", "1000000", "--method", "frontier"), "about 3.7e+1505146 states per step"),
    (("count", "8", "1000000001"), "from 1 to 1,000,000,000, not '1000000001'"),  # MAX_SIDE, the largest side
    (("count", "8", "0"), "N (columns) must be at least 1, not '0'"),
    (("count", "--sequence", "0", "3..5"), "K (rows) must be at least 1, not '0'"),
])
def test_count_bad_input(cli, args, match):
    run = cli(*args)
    assert run.code == 2 and match in run.err and len(run.err.strip().splitlines()) == 1


def test_colours_that_rule_every_tour_out_answer_at_once_and_agree_with_the_search():
    """A knight's move changes colour: a board with more squares of one colour than the other
    has no closed tour, and one with two more no open tour (nor one whose fixed ends have the
    wrong colours). The count says 0 at once, with the reason and no states, and where the
    rule speaks the exhaustive search finds nothing either; where it does not, the sweep runs."""
    rng = random.Random(11)
    spoke = quiet = 0
    for _ in range(100):
        rows, cols = rng.randint(3, 5), rng.randint(3, 5)
        squares = [(r, c) for r in range(rows) for c in range(cols)]
        holes = rng.sample(squares, rng.randint(0, 3))
        board = Board(rows, cols, holes=holes or None)
        live = [q for q in squares if q not in holes]
        closed = rng.random() < 0.5
        start = None if closed or rng.random() < 0.4 else rng.choice(live)
        end = None if start is None or rng.random() < 0.5 else rng.choice([q for q in live if q != start])
        got = count_request(Question(board, closed, start, end))
        if got.reason:
            spoke += 1
            assert got.count == 0 and got.max_states == 0 and got.states_per_column == []
            assert exhaustive_count(Question(board, closed=closed, start=start, end=end)).count == 0
            assert f"{board.dark_light_counts()[0]} dark" in got.reason or "the start is" in got.reason
        else:
            quiet += 1
            assert got.max_states > 0
    assert spoke > 20 and quiet > 20
    # before the squares are laid out: a board of 700 million answers at once
    huge = count_request(Question(Board(7, 100_000_001)))
    assert huge.count == 0 and "350000004 dark and 350000003 light" in huge.reason
    # 5x5 (13 squares of the corners' colour, 12 of the other): the open tours from a corner,
    # 304 (OEIS A165134, the table of starting squares in its example), and none from a2
    corner = count_request(Question(Board(5, 5), False, (4, 0)))
    assert (corner.reason, corner.count) == ("", 304)
    beside = count_request(Question(Board(5, 5), False, (3, 0)))
    assert beside.count == 0 and "the start is light" in beside.reason


def test_count_of_a_board_with_unequal_colours_says_why_at_once(cli):
    run = cli("count", "7", "9")
    assert run.code == 0
    assert run.out.startswith("0 closed tours of the 7x9 board; a knight's move changes colour")
    assert "32 dark and 31 light" in run.out and "nothing to count" in run.out
    run = cli("count", "6", "6", "--open", "--start", "a1", "--end", "c1", "--json")
    assert run.code == 0 and '"count":0' in run.out and "the start is dark, the end is dark" in run.out
    run = cli("count", "5", "7")  # the search's boards say why too
    assert run.code == 0 and run.out.startswith("0 closed tours of the 5x7 board; a knight's move changes colour")
    assert "18 dark and 17 light" in run.out and "nodes" in run.out


def _listed_layout(board: Board, ends: set, forbidden: set):
    """The sweep's per-square answers as lists of every square, computed directly (the way the
    layout was made before it answered from the holes alone): the oracle for the test below."""
    rows, cols = board.rows, board.cols
    transpose = rows > cols
    k, n = (cols, rows) if transpose else (rows, cols)
    N = k * n
    live = [board.is_live(i // k, i % k) if transpose else board.is_live(i % k, i // k) for i in range(N)]
    live_after = [sum(live[i:]) for i in range(N + 1)]
    later = []
    for j in range(N):
        rj, cj = j % k, j // k
        later.append([t for dr, dc in ((-1, 2), (1, 2), (-2, 1), (2, 1))
                      if live[j] and 0 <= rj + dr < k and cj + dc < n
                      and live[t := (cj + dc) * k + rj + dr] and frozenset((j, t)) not in forbidden])
    colour = [1 if (j % k + j // k) % 2 == 0 else -1 for j in range(N)]
    balance = [sum(colour[t] * (1 if t in ends else 2) for t in range(i, N) if live[t]) for i in range(N + 1)]
    return live, live_after, later, balance


@pytest.mark.parametrize("seed", range(40))
def test_the_layout_answers_from_the_holes_as_lists_of_every_square_would(seed):
    """The sweep's layout keeps the holes, not a list of every square (a board of 10^8 squares
    would spend minutes and gigabytes listing them): each answer it gives agrees with the
    list made square by square, on random holed boards either way up, with fixed ends and
    forbidden moves."""
    from kt_formal.counting.frontier import sweep_layout

    rng = random.Random(seed)
    lay = None
    while not hasattr(lay, "live"):  # until the colours leave the board a tour to lay out
        rows, cols = rng.randint(3, 7), rng.randint(3, 7)
        squares = [(r, c) for r in range(rows) for c in range(cols)]
        board = Board(rows, cols, holes=rng.sample(squares, rng.randint(0, len(squares) // 3)))
        live_sq = board.squares()
        ends = rng.sample(live_sq, 2) if rng.random() < 0.7 else [None, None]
        moves = [(a, b) for a in live_sq for b in live_sq if a < b and {abs(a[0] - b[0]), abs(a[1] - b[1])} == {1, 2}]
        forbidden = rng.sample(moves, min(len(moves), rng.randint(0, 3)))
        lay = sweep_layout(Question(board, False, *ends, (), forbidden), 0.0)
    live, live_after, later, balance = _listed_layout(board, lay.ends, lay.forbidden_set)
    N = lay.N
    assert [lay.live[i] for i in range(N)] == live
    assert [lay.live_after[i] for i in range(N + 1)] == live_after
    assert [lay.later[j] for j in range(N)] == later
    assert [lay.future_balance[i] for i in range(N + 1)] == balance
    with pytest.raises(IndexError):
        lay.live[N]


def test_a_count_of_a_huge_board_stops_at_its_limit_without_listing_its_squares(cli_proc):
    """7 x 10^8 squares with as many light squares as dark: the layout is the holes, so the
    count reaches its time limit and says so, where listing the squares first took minutes
    and then ran out of memory (exit 2)."""
    import resource

    r = cli_proc("count", "7", "100000000", "--time-limit", "2", timeout=300)
    assert r.code == 3, r.err
    assert re.search(r"time limit \(2 s\) in column \d+ of 100000000,", r.err), r.err
    assert resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss < 2_000_000  # KB
