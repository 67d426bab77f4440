"""The compiled frontier counter against the pure-Python reference and published counts."""

from __future__ import annotations

import random
import re

import pytest

from kt_formal.board import Board
from kt_formal.counting.frontier_jit import count_request_jit, count_row
from kt_formal.counting.frontier import count_request
from kt_formal.exceptions import InvalidInput, LimitReached, ResourceLimit
from kt_formal.question import Question


def _moves(board: Board):
    return sorted({tuple(sorted(((r, c), (r + dr, c + dc))))
                   for r in range(board.rows) for c in range(board.cols) if board.is_live(r, c)
                   for dr, dc in ((1, 2), (2, 1), (1, -2), (2, -1)) if board.is_live(r + dr, c + dc)})


def _random_case(rng: random.Random):
    """A small holed board, closed or open, random fixed ends, forced and forbidden moves."""
    while True:
        rows = rng.randint(3, 5)
        cols = rng.randint(4, 7)
        if rows * cols > 28:
            continue
        squares = [(r, c) for r in range(rows) for c in range(cols)]
        holes = rng.sample(squares, rng.choice((0, 0, 1, 1, 2, 3)))
        live = [q for q in squares if q not in holes]
        if len(live) < 3:
            continue
        board = Board(rows, cols, holes=holes or None)
        closed = rng.random() < 0.5
        start = end = None
        if not closed and rng.random() < 0.6:
            start = rng.choice(live)
            if rng.random() < 0.6:
                end = rng.choice(live)
        moves = _moves(board)
        forced = rng.sample(moves, min(len(moves), rng.choice((0, 0, 0, 1, 1, 2))))
        rest = [m for m in moves if m not in forced]
        forbidden = rng.sample(rest, min(len(rest), rng.choice((0, 0, 1, 3))))
        return board, closed, start, end, forced, forbidden


CASES = 100


@pytest.mark.parametrize("i", range(CASES))
def test_compiled_equals_the_reference_on_random_holed_boards(i):
    board, closed, start, end, forced, forbidden = _random_case(random.Random(5000 + i))
    ref = count_request(Question(board, closed, start, end, forced, forbidden))
    got = count_request_jit(Question(board, closed, start, end, forced, forbidden), symmetry=False)
    assert got.count == ref.count, (board, closed, start, end, forced, forbidden)
    # the same dynamic programme, the same pruning: the same states column by column
    assert got.states_per_column == ref.states_per_column
    # the mirror images merged at the ends of columns: the same count, never more states
    merged = count_request_jit(Question(board, closed, start, end, forced, forbidden))
    assert merged.count == ref.count
    assert all(a <= b for a, b in zip(merged.states_per_column, ref.states_per_column))


def test_the_random_cases_reach_tours():
    """The random cases are not all zero: both kinds of tours are counted somewhere."""
    found = set()
    for i in range(CASES):
        board, closed, start, end, forced, forbidden = _random_case(random.Random(5000 + i))
        if count_request_jit(Question(board, closed, start, end, forced, forbidden)).count:
            found.add((closed, start is not None, bool(forced or forbidden)))
    assert {c for c, _s, _f in found} == {True, False}
    assert any(s for _c, s, _f in found) and any(f for _c, _s, f in found)


# Published values (../shared/reference.md), as in test_frontier.py: closed tours 5x6 = 8
# (OEIS A175881, closed tours of 6 x n: a(5)); 3x10 = 16 and 3x12 = 176 (OEIS A070030,
# closed tours of 3 x 2n: a(5) and a(6), Knuth and Elkies 1994; also Knuth's A383660);
# 6x6 = 9862 (OEIS A001230, closed tours of 2n x 2n: a(3); A175881: a(6)); open tours of
# 5x5 = 864 undirected (OEIS A165134: 1728 directed).
@pytest.mark.parametrize("rows, cols, closed, published", [
    (5, 6, True, 8), (6, 5, True, 8), (3, 10, True, 16), (10, 3, True, 16), (3, 12, True, 176),
    (6, 6, True, 9862), (5, 5, False, 864),
])
def test_published_counts(rows, cols, closed, published):
    assert count_request_jit(Question(Board(rows, cols), closed)).count == published


def _a070030(terms: int) -> list[int]:
    """The first ``terms`` terms of OEIS A070030 (closed tours of 3 x 2n, n = 1, 2, ...) from
    its published generating function (Knuth and Elkies, transfer matrices, 1994):
    16 z^5 P(z) / Q(z), expanded here as a power series."""
    p = [1, 5, -34, -116, 505, 616, -3179, -4, 9536, -8176, -13392, 15360, 13888, 2784, -3328, -22016,
         5120, 2048]
    q = [1, -6, -64, 200, 1000, -3016, -3488, 24256, -23776, -104168, 203408, 184704, -443392, -14336,
         151296, -145920, 263424, -317440, -36864, 966656, -573440, -131072]
    num = [0] * 5 + [16 * c for c in p]  # the coefficient of z^k at k
    a = [0]  # a[n], the coefficient of z^n: a[0] = 0
    for n in range(1, terms + 1):
        a.append((num[n] if n < len(num) else 0) - sum(q[k] * a[n - k] for k in range(1, min(n, len(q) - 1) + 1)))
    return a[1:]


def test_3_x_2n_closed_counts_agree_with_the_published_generating_function():
    """The counter's closed tours of 3 x 10 to 3 x 24 are the terms of A070030 (16, 176,
    1536, ..., 136947616), which a transfer-matrix method found: a second, independent way
    for the counts cited above, eight terms instead of two."""
    series = _a070030(12)
    assert series[4:6] == [16, 176] and series[:4] == [0, 0, 0, 0]
    assert [count_request_jit(Question(Board(3, 2 * n), True)).count for n in range(5, 13)] == series[4:12]


@pytest.mark.slow
def test_6x8_closed():
    """55,488,142 closed tours of 6x8 (the count the frontier method is benchmarked on, OEIS
    A175855's 6 x n row; the row test below checks it against the one-sweep route)."""
    assert count_request_jit(Question(Board(6, 8))).count == 55488142


@pytest.mark.parametrize("k, a, b, closed", [
    (1, 1, 4, False), (1, 1, 4, True), (2, 1, 8, False), (2, 1, 8, True),
    (3, 1, 16, True), (3, 1, 16, False), (4, 1, 8, False), (4, 3, 8, True),
    (5, 1, 9, True), (5, 1, 5, False), (6, 1, 6, True),
    pytest.param(6, 7, 8, True, marks=pytest.mark.slow), pytest.param(5, 7, 8, False, marks=pytest.mark.slow),
    pytest.param(6, 4, 5, False, marks=pytest.mark.slow),
])
def test_one_sweep_row_equals_the_boards_one_by_one(k, a, b, closed):
    row = count_row(k, a, b, closed)
    assert list(row) == list(range(a, b + 1))
    for n in range(a, b + 1):
        single = (count_request if k * n <= 15 else count_request_jit)(Question(Board(k, n), closed)).count
        assert row[n] == single, (k, n, closed)


def test_counts_past_64_bits_equal_the_reference():
    """3x44 open: a count of more than 64 bits, carried over two limbs."""
    ref = count_request(Question(Board(3, 44), closed=False)).count
    assert ref.bit_length() > 64
    assert count_request_jit(Question(Board(3, 44), closed=False)).count == ref
    assert count_row(3, 43, 44, closed=False)[44] == ref


def test_a_merge_whose_count_outgrows_its_limbs_starts_again_at_once(monkeypatch):
    """A count past the top limb makes the merge start again with a limb more: at the first
    slice that overflows, not after every state of the step (8x10's steps of 600 million
    states took twice their time so). 3x44 open with slices of 50 states: after a slice
    that overflowed, the next call of the kernel has one limb more, and the count is the
    reference's."""
    from kt_formal.counting import frontier_jit as fj

    calls = []  # (limbs, overflowed after the call)
    real = fj.fill_kernel

    def spying(W, closed):
        kernel = real(W, closed)

        def fill(*args):
            out = kernel(*args)
            calls.append((args[10], bool(args[18].any())))
            return out
        return fill

    monkeypatch.setattr(fj, "fill_kernel", spying)
    monkeypatch.setattr(fj, "SLICE_STATES", 50)
    got = count_request_jit(Question(Board(3, 44), closed=False), threads=1)
    assert got.count == count_request(Question(Board(3, 44), closed=False)).count
    restarts = [j for j, (_lo, over) in enumerate(calls) if over]
    assert restarts, "no count outgrew a limb: the test does not test"
    for j in restarts:
        assert calls[j + 1][0] == calls[j][0] + 1


@pytest.mark.slow
def test_3x60_open_equals_the_reference():
    """3x60 open: more than 100 bits."""
    ref = count_request(Question(Board(3, 60), closed=False)).count
    assert ref.bit_length() > 100
    assert count_request_jit(Question(Board(3, 60), closed=False)).count == ref
    assert count_row(3, 58, 60, closed=False)[60] == ref


def test_row_past_64_bits_equals_the_boards():
    row = count_row(5, 23, 24, closed=True)
    assert row[24].bit_length() > 64
    assert row[24] == count_request_jit(Question(Board(5, 24))).count
    assert row[23] == count_request_jit(Question(Board(5, 23))).count == 0  # odd area: no closed tour


def test_limits():
    with pytest.raises(ResourceLimit, match="out of reach"):
        count_request_jit(Question(Board(6, 6)), max_states=1000)
    with pytest.raises(LimitReached, match="time limit"):
        count_request_jit(Question(Board(6, 7)), time_limit=0.001)
    with pytest.raises(LimitReached, match="time limit"):
        count_row(5, 5, 30, time_limit=0.001)
    with pytest.raises(InvalidInput, match="at most 8"):
        count_request_jit(Question(Board(9, 9)))
    with pytest.raises(InvalidInput, match="at most 8"):
        count_row(9, 5, 6)
    with pytest.raises(InvalidInput, match="empty"):
        count_row(3, 6, 5)


def test_progress_is_called_once_a_column():
    seen = []
    res = count_request_jit(Question(Board(5, 6)), progress=lambda done, total, text: seen.append((done, total)))
    assert seen == [(c, 6) for c in range(1, 7)] and len(res.states_per_column) == 6


def test_a_long_column_reports_its_squares(monkeypatch):
    """Once :data:`STEP_LINE_SECONDS` have passed since the last line (here at once), a square
    within a column reports itself too: column c of n at c - 1 + j / k, square j of k."""
    from kt_formal.counting import frontier_jit

    monkeypatch.setattr(frontier_jit, "STEP_LINE_SECONDS", 0.0)
    seen = []
    res = count_request_jit(Question(Board(5, 6)), progress=lambda done, total, text: seen.append((done, total, text)))
    assert res.count == 8  # Schwenk
    steps = [(d, text) for d, _t, text in seen if d != int(d)]
    assert [d for d, _t, _x in seen] == sorted(d for d, _t, _x in seen)  # never backwards
    assert [int(d) for d, _t, _x in seen if d == int(d)] == list(range(1, 7))
    assert steps and all(f"column {int(d) + 1} of 6, square {round((d - int(d)) * 5)} of 5, " in text
                         and text.endswith(" states") for d, text in steps), steps
    monkeypatch.setattr(frontier_jit, "STEP_LINE_SECONDS", 1e9)
    seen.clear()
    count_request_jit(Question(Board(5, 6)), progress=lambda done, total, text: seen.append(done))
    assert seen == list(range(1, 7))


def test_a_step_in_passes_reports_each_pass(monkeypatch, tmp_path):
    """A step whose table would pass its budget runs in passes, each expanding every state of
    the step: each pass but the last reports itself (a long count's log then says why a step
    takes long), between the lines of the squares around it."""
    from kt_formal.counting import frontier_jit

    monkeypatch.setattr(frontier_jit, "STEP_LINE_SECONDS", 0.0)
    seen = []
    res = count_request_jit(Question(Board(6, 6)), table_bytes=1 << 18, spill_dir=str(tmp_path), progress=lambda done, total, text: seen.append((done, text)))
    assert res.count == 9862 and res.passes > 1
    passes = [(d, text) for d, text in seen if ": pass " in text]
    assert passes and all(" done, " in text and text.endswith(" so far") for _d, text in passes)
    assert [d for d, _x in seen] == sorted(d for d, _x in seen)  # never backwards
    assert all(d != int(d) for d, _x in passes)  # a column's own line keeps the whole numbers


def test_sequence_command_open_row(cli):
    run = cli("count", "--sequence", "3", "3..8", "--open")
    assert run.code == 0
    assert run.out.splitlines() == [f"3x{n} {count_request(Question(Board(3, n), False)).count}" for n in range(3, 9)]


@pytest.mark.parametrize("args", [["6", "6"], ["--sequence", "5", "5..8"], ["5", "6", "--open"]])
def test_no_mirror_counts_the_same_tours_by_more_states(cli, args):
    """``--no-mirror`` keeps a state and its mirror image apart: the same counts (a check of
    the merging), from more states at the fullest step."""
    merged = cli("count", *args, "--method", "frontier")
    apart = cli("count", *args, "--method", "frontier", "--no-mirror")
    assert merged.code == apart.code == 0, (merged.err, apart.err)
    if args[0] == "--sequence":
        assert apart.out == merged.out and len(merged.out.splitlines()) == 4
        return
    most = [int(re.search(r"at most ([\d,]+) states", run.out).group(1).replace(",", "")) for run in (merged, apart)]
    assert apart.out.split()[0] == merged.out.split()[0] and most[1] > most[0], (merged.out, apart.out)


def test_count_command_verbose_states(cli):
    run = cli("count", "5", "8", "--method", "frontier", "-v")
    assert run.code == 0 and run.out.split()[0] == str(count_request_jit(Question(Board(5, 8))).count)
    assert run.err.count("states") == 8


@pytest.mark.slow  # the kernel of keys in base 11: a compile of its own (24 s on an empty cache)
@pytest.mark.parametrize("rows, cols, closed, expected", [(5, 6, True, 8), (8, 3, False, None)])
def test_eight_across_counts_as_the_reference(rows, cols, closed, expected):
    """With 8 squares across, 17 frontier values do not fit 4 bits each: open tours take
    keys in base 11, closed ones keys of their own (:mod:`kt_formal.counting.frontier_packed17`).
    An 8x8 board holed down to a rows x cols corner is that board, swept 8 across."""
    holed = Board(8, 8, holes=[(r, c) for r in range(8) for c in range(8) if r >= rows or c >= cols])
    got = count_request_jit(Question(holed, closed)).count
    assert got == count_request(Question(holed, closed)).count == count_request_jit(Question(Board(rows, cols), closed)).count
    assert expected is None or got == expected  # 5x6: Schwenk's 8


@pytest.mark.slow
def test_eight_across_5x8_closed():
    """5x8's 44,202 closed tours swept 8 across (an 8x8 board holed to 8x5) and 5 across."""
    holed = Board(8, 8, holes=[(r, c) for r in range(8) for c in range(5, 8)])
    assert count_request_jit(Question(holed)).count == count_request_jit(Question(Board(8, 5))).count == 44202
    assert count_row(8, 3, 3, closed=False) == {3: count_request_jit(Question(Board(8, 3), closed=False)).count}


@pytest.mark.parametrize("threads", [1, 4])
def test_table_parts_do_not_change_the_count(monkeypatch, threads):
    """A step over 4,096 states splits its table into one part a thread: 1 part or 4 parts
    (more parts than this machine's threads) give the count of the default split."""
    from kt_formal.counting import frontier_jit

    default = count_request_jit(Question(Board(6, 6)))
    monkeypatch.setattr(frontier_jit, "_THREADS", threads)
    got = count_request_jit(Question(Board(6, 6)))
    assert got.count == default.count == 9862  # reference.md: 6x6 closed, 9,862
    assert got.states_per_column == default.states_per_column


def _tables_too_small_and_counted(monkeypatch, kernel: str) -> list:
    """Lay the tables out for a fiftieth of their keys and count the calls of ``kernel``
    (``regrow`` or ``shrink``): the list gets one item a call."""
    from kt_formal.counting import frontier_jit

    calls = []
    real = getattr(frontier_jit, kernel)

    def counting(*args):
        calls.append(1)
        return real(*args)

    monkeypatch.setattr(frontier_jit, "LOAD_FACTOR", 50.0)
    monkeypatch.setattr(frontier_jit, kernel, counting)
    return calls


@pytest.mark.slow  # about 12 s: over the default run's 10 s a test
def test_tables_laid_out_too_small_grow(monkeypatch):
    """A table laid out for a fiftieth of its states grows (the keys moved into a larger
    one) as often as it must, the counts intact: closed, open, and past 64 bits."""
    expected = [count_request_jit(Question(Board(6, 6))).count, count_request_jit(Question(Board(4, 7), closed=False)).count,
                count_row(5, 23, 24)[24]]
    grown = _tables_too_small_and_counted(monkeypatch, "regrow")
    got = [count_request_jit(Question(Board(6, 6))).count, count_request_jit(Question(Board(4, 7), closed=False)).count,
           count_row(5, 23, 24)[24]]
    assert got == expected and expected[2].bit_length() > 64
    assert len(grown) > 10


def test_a_step_past_the_state_bound_stops_with_its_place():
    with pytest.raises(ResourceLimit, match=r"more than 50,000 states at square \d+ \(column \d of 8"):
        count_request_jit(Question(Board(6, 8)), max_states=50_000)


def _spill_room(monkeypatch, free: int) -> None:
    """The count command sees ``free`` bytes free in its spill directory."""
    import collections

    from kt_formal.counting import policy

    usage = collections.namedtuple("usage", "total used free")
    monkeypatch.setattr(policy.shutil, "disk_usage", lambda path: usage(2 * free, free, free))


@pytest.mark.parametrize("size", [("8", "8"), ("8", "11"), ("12", "8")])
def test_count_past_memory_and_the_spill_directory_is_refused_before_it_runs(cli, monkeypatch, size):
    """8 x 8 and longer (no holes) hold more states than memory: their steps keep them in
    files, and with a spill directory of 1 GB free the count is refused at once: one
    line, exit 2, with the measured state count."""
    from kt_formal.counting.frontier_jit import DEFAULT_MAX_STATES
    from kt_formal.counting.frontier import estimate_states

    if estimate_states(8) <= DEFAULT_MAX_STATES:
        pytest.skip("a machine with the memory for 8 x 8")
    _spill_room(monkeypatch, 1 << 30)
    run = cli("count", *size)
    assert run.code == 2 and run.out == ""
    assert len(run.err.strip().splitlines()) == 1
    assert "out of reach here" in run.err and f"{estimate_states(8):,} states" in run.err


@pytest.mark.parametrize("ends", [(), ("--start", "a1"), ("--end", "h8")])
def test_an_open_count_is_refused_by_the_open_figure(cli, monkeypatch, ends):
    """Open tours with both ends free hold more states a step than closed ones, so their
    figure decides: with room on disk for 8 x 8's closed figure but not its open one (the
    closed one times the least ratio measured), `count 8 8 --open` is refused at once (one
    line, exit 2, the open figure and where it comes from); a fixed end takes the closed
    figure (so that nothing is refused that might fit), refused only below it."""
    from kt_formal.counting.frontier_jit import DEFAULT_MAX_STATES
    from kt_formal.counting.frontier_memory import SPILL_BYTES_PER_STATE
    from kt_formal.counting.frontier import estimate_states

    closed, opened = estimate_states(8), estimate_states(8, closed=False)
    assert opened > closed
    if closed <= DEFAULT_MAX_STATES:
        pytest.skip("a machine with the memory for 8 x 8")
    if not ends:
        _spill_room(monkeypatch, (closed + opened) // 2 * SPILL_BYTES_PER_STATE)  # the closed figure only
        run = cli("count", "8", "8", "--open")
        assert run.code == 2 and run.out == "" and len(run.err.strip().splitlines()) == 1
        assert "the open tours of the 8x8 board is out of reach here" in run.err
        assert f"about {opened:,} states (the closed count's fullest step times" in run.err
        return
    _spill_room(monkeypatch, closed * SPILL_BYTES_PER_STATE // 2)  # neither: refused by the closed figure
    run = cli("count", "8", "8", "--open", *ends)
    assert run.code == 2 and run.out == "" and len(run.err.strip().splitlines()) == 1
    assert "the tours of the 8x8 board is out of reach here" in run.err
    assert f"at least {closed:,} states" in run.err


@pytest.mark.parametrize("kind", ["closed", "open"])
def test_a_row_past_memory_and_the_spill_directory_is_refused_before_it_runs(cli, monkeypatch, kind):
    """`count --sequence 8 A..B` with B >= 8 sweeps at least 8 x 8's states: with room on
    disk for the closed figure only, the open row is refused at once (one line, exit 2,
    the open figure); with room for neither, the closed row too."""
    from kt_formal.counting.frontier_jit import DEFAULT_MAX_STATES
    from kt_formal.counting.frontier_memory import SPILL_BYTES_PER_STATE
    from kt_formal.counting.frontier import estimate_states

    closed, opened = estimate_states(8), estimate_states(8, closed=False)
    if closed <= DEFAULT_MAX_STATES:
        pytest.skip("a machine with the memory for 8 x 8")
    if kind == "open":
        _spill_room(monkeypatch, (closed + opened) // 2 * SPILL_BYTES_PER_STATE)
        run = cli("count", "--sequence", "8", "5..9", "--open", "--time-limit", "5")  # a bound if it ran
        figure = f"about {opened:,} states"
    else:
        _spill_room(monkeypatch, closed * SPILL_BYTES_PER_STATE // 2)
        run = cli("count", "--sequence", "8", "8..20", "--time-limit", "5")
        figure = f"at least {closed:,} states"
    assert run.code == 2 and run.out == "" and len(run.err.strip().splitlines()) == 1
    what = "open tours" if kind == "open" else "tours"
    assert f"counting the {what} of the 8x{'5' if kind == 'open' else '8'}..8x" in run.err
    assert "out of reach here" in run.err and figure in run.err


@pytest.mark.slow  # 8x8's first columns (some seconds)
def test_count_of_8x8_says_where_its_states_may_go_and_stops_at_its_time_limit(cli, tmp_path):
    """Without a bound from the disk, 8 x 8 runs, says where its states go when memory
    is short, and a time limit of a second ends it as an unknown (exit 3), never as a count."""
    run = cli("count", "8", "8", "--time-limit", "1", "--spill-dir", tmp_path)
    assert run.code == 3 and run.out == ""
    assert f"keeps its states in files in {tmp_path}" in run.err and "stopped at its time limit (1 s)" in run.err
    assert list(tmp_path.iterdir()) == []
    bad = cli("count", "8", "8", "--spill-dir", tmp_path / "missing")
    assert bad.code == 2 and "is not a directory" in bad.err


def test_count_auto_takes_the_frontier_for_seven_across(cli):
    """auto counts with the frontier method whenever a side is at most 8 (a 7x6 board:
    the exhaustive search is left to boards of 36 squares or fewer)."""
    run = cli("count", "7", "6")
    assert run.code == 0 and "frontier method" in run.out
    # reference.md: graphillion's frontier ZDD counted 6x7 = 1,067,638 closed tours
    assert run.out.split()[0] == str(count_request_jit(Question(Board(6, 7))).count) == "1067638"


def _last_column_part(k: int, n: int, j: int) -> Board:
    """The k x n board without the last k - j squares of its last column."""
    return Board(k, n, holes=[(r, n - 1) for r in range(j, k)] or None)


@pytest.mark.parametrize("k, a, b, closed", [(3, 4, 9, True), (3, 3, 7, False), (4, 4, 7, False),
                                              (5, 4, 8, True), (5, 4, 6, False), (6, 5, 6, True)])
def test_one_sweep_counts_every_board_with_its_last_column_partly_filled(k, a, b, closed):
    """count_row(partial=True): the tours of every k x n board with the first j squares of
    its last column, one sweep; each equals the board counted on its own (holes)."""
    row = count_row(k, a, b, closed, partial=True)
    assert sorted(row) == [(n, j) for n in range(a, b + 1) for j in range(1, k + 1)]
    for (n, j), got in row.items():
        assert got == count_request_jit(Question(_last_column_part(k, n, j), closed)).count, (n, j)
    assert {n: row[(n, k)] for n in range(a, b + 1)} == count_row(k, a, b, closed)
    assert any(row.values())


def test_partly_filled_boards_against_the_reference_and_the_search():
    """Small boards of the family also by the pure-Python counter and the exhaustive search."""
    from kt_formal.question import Question
    from kt_formal.counting.exhaustive import count

    row = count_row(4, 4, 5, closed=False, partial=True)
    for (n, j), got in row.items():
        board = _last_column_part(4, n, j)
        assert got == count_request(Question(board, False)).count == count(Question(board, closed=False)).count


# Knuth's tables of the tours of the first cells of a board k rows deep, its columns filled
# from the top one after the other (D. E. Knuth, The Art of Computer Programming, pre-fascicle
# 8a, "Hamiltonian paths and cycles", 2025; OEIS, terms as published there): closed tours of the
# first 2n cells from n = the offset on (A383660: 3 rows, A383661: 5 rows, A383663: 7 rows),
# open tours, undirected, of the first n cells from n = 1 on (A389759: 3 rows, A389755: 5 rows).
_KNUTH = {
    "A383660": (3, True, 11, [4, 0, 4, 24, 16, 56, 306, 176, 456, 2632, 1536, 4828, 26788, 15424, 44952, 254288,
                              147728, 448032, 2502568, 1448416, 4310048, 24228704, 14060048, 42195584,
                              236335248, 136947616, 409403328, 2297294496, 1332257856, 3989883552, 22366625344,
                              12965578752, 38798663104, 217604833360, 126169362176]),
    "A383661": (5, True, 9, [1, 0, 1, 30, 0, 148, 8, 78, 9309, 612, 62749, 44202, 42049, 2916485, 147192,
                             18284136, 13311268, 13008389, 973107552, 51147756, 6190192748, 4557702762,
                             4311375354, 316985255470, 16552301184, 2015267424300, 1495135512514,
                             1417634375316, 104324890543686, 5459334927260, 663068761241948]),
    "A383663": (7, True, 11, [2, 11, 58, 0, 21, 1020, 9309, 1481, 34162, 1295034]),
    "A389759": (3, False, 1, [1, 0, 0, 0, 0, 0, 0, 0, 0, 2, 2, 8, 8, 4, 0, 8, 0, 0, 20, 44, 52, 465, 276, 396, 988,
                              824, 560, 3888, 1384, 3048, 10348, 12796, 10672, 69831, 36962, 57248, 171104,
                              155756, 128864, 815520, 405024, 646272, 2219336, 2132304, 1838784, 11184337,
                              6011834, 8636880, 30354388, 26341332, 23400992, 138689004, 75211944]),
    "A389755": (5, False, 1, [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 4, 95, 144, 82, 16, 125, 1188, 4292,
                              864, 416, 1030, 28229, 40770, 18784, 3858, 38255, 490809, 2422436, 622868, 274910,
                              781472, 19903840, 34518608, 18061054, 3321476, 21614495, 275004291, 1129158488,
                              264895640, 105735266, 308434443, 8657614329, 16039377654]),
}


@pytest.mark.parametrize("name, last", [
    ("A383660", 30), ("A383661", 16), ("A389759", 18), ("A389755", 7),
    # 8 s and 10 s on two idle cores: seven rows swept seven across, and eight columns of open tours
    pytest.param("A389755", 10, marks=pytest.mark.slow), pytest.param("A383663", 5, marks=pytest.mark.slow)])
def test_partly_filled_rows_give_knuths_tables(name, last):
    """``count --sequence K 3..N --partial`` against Knuth's published tables: each board of k
    rows whose last column holds its first j squares is the table's term for its cells."""
    k, closed, offset, terms = _KNUTH[name]
    step = 2 if closed else 1  # the closed tables count the first 2n cells
    published = {(offset + i) * step: v for i, v in enumerate(terms)}
    row = count_row(k, 3, last, closed, partial=True)
    compared = 0
    for (n, j), got in row.items():
        cells = (n - 1) * k + j
        if cells in published:
            assert got == published[cells], (name, n, j)
            compared += 1
    # the row holds the boards of 2k + 1 to last * k cells: every published term among them
    assert compared == sum(1 for c in published if 2 * k < c <= last * k) > 0
    assert any(row.values())


# Open tours of whole k x n boards, published for every n from 1 on: OEIS A079137 (4 x n,
# undirected) and A118067 (3 x n, directed: twice the undirected count).
_OPEN_ROWS = {
    4: [0, 0, 8, 0, 82, 744, 6378, 31088, 189688, 1213112, 6683852, 36486328, 201282470, 1083585304,
        5706117458, 29819231288, 154430502724, 790787799376, 4014945695196, 20241304810488, 101336136490228,
        504096313001272, 2493533648002492, 12270473056485396],
    3: [x // 2 for x in [0, 0, 0, 16, 0, 0, 104, 792, 1120, 6096, 21344, 114496, 257728, 1292544, 3677568,
                         17273760, 46801984, 211731376, 611507360, 2645699504, 7725948608, 32451640000,
                         97488160384, 397346625760, 1214082434112, 4835168968464, 15039729265856,
                         58641619298000]],
}


@pytest.mark.parametrize("k", [3, 4])
def test_open_rows_give_the_published_counts(k):
    """``count --sequence K 3..N --open``: every term of the published row from n = 3 on."""
    terms = _OPEN_ROWS[k]
    row = count_row(k, 3, len(terms), closed=False)
    assert row == {n: terms[n - 1] for n in range(3, len(terms) + 1)}


def test_sequence_command_partial_lines(cli):
    run = cli("count", "--sequence", "5", "6..7", "--partial")
    assert run.code == 0
    expected = [f"5x{n} {j}/5 {count_request_jit(Question(_last_column_part(5, n, j))).count}"
                for n in (6, 7) for j in range(1, 6)]
    assert run.out.splitlines() == expected
    assert "5x6 5/5 8" in expected  # Schwenk: 5x6 has 8 closed tours
    bad = cli("count", "5", "6", "--partial")
    assert bad.code == 2 and "--partial goes with --sequence" in bad.err


@pytest.mark.slow  # 30 to 50 s with a busy neighbour: CI runs it with the slow tests
def test_steps_in_passes_keep_their_states_in_files_and_the_count(tmp_path):
    """A table budget of 256 KB makes the larger steps run in passes (one a range of a
    second hash of the keys) and keep their states in files of the spill directory,
    unlinked as soon as they are mapped: the counts and states per column are those of
    one pass in memory, and the directory is left empty."""
    spill = str(tmp_path)
    got = count_request_jit(Question(Board(6, 6)), table_bytes=1 << 18, spill_dir=spill)
    default = count_request_jit(Question(Board(6, 6)))
    assert got.count == default.count == 9862  # reference.md: 6x6 closed, 9,862
    assert got.states_per_column == default.states_per_column
    assert got.passes > 1 and got.spilled > 0 and default.passes == 1 and default.spilled == 0
    got_open = count_request_jit(Question(Board(4, 7), closed=False), table_bytes=1 << 14, spill_dir=spill)
    ref_open = count_request_jit(Question(Board(4, 7), closed=False))
    assert got_open.passes > 1 and got_open.count == ref_open.count
    assert got_open.states_per_column == ref_open.states_per_column
    # past 64 bits: a pass whose counts overflow their limbs runs again with one limb more
    row = count_row(5, 23, 24, table_bytes=1 << 20, spill_dir=spill)
    assert row == count_row(5, 23, 24) and row[24].bit_length() > 64
    partial = count_row(5, 3, 9, closed=False, partial=True, table_bytes=1 << 23, spill_dir=spill)
    assert partial == count_row(5, 3, 9, closed=False, partial=True)
    assert list(tmp_path.iterdir()) == []


def test_a_step_in_one_pass_keeps_its_states_in_memory_while_they_fit(monkeypatch, tmp_path):
    """A step in one pass lets its input go and keeps its states in memory (in arrays of
    a step before when they are large enough) if they and the next step's table fit in
    the memory available then; else they go to files, still in one pass. Every step
    asks here (no arrays count as small), with room for all and with none."""
    from kt_formal.counting import frontier_jit as F

    monkeypatch.setattr(F, "SPARE_BYTES", 0)
    monkeypatch.setattr(F, "available_memory", lambda: 1 << 50)
    roomy = count_request_jit(Question(Board(6, 6)), spill_dir=str(tmp_path))
    monkeypatch.setattr(F, "available_memory", lambda: 0)
    tight = count_request_jit(Question(Board(6, 6)), spill_dir=str(tmp_path))
    assert roomy.count == tight.count == 9862  # reference.md: 6x6 closed, 9,862
    assert roomy.spilled == 0 and roomy.passes == 1
    assert tight.spilled > 0 and tight.passes == 1
    assert tight.states_per_column == roomy.states_per_column
    assert list(tmp_path.iterdir()) == []


def test_the_output_of_a_step_reuses_arrays_large_enough_and_lets_large_others_go():
    """The states of a step in memory go into the arrays of its input when they are large
    enough (the step is done with its input), else into those of two steps back; arrays
    too small are let go of when large, kept as the spare when small."""
    import numpy as np

    from kt_formal.counting import frontier_jit as F

    sweep = F.Sweep(5, 11, True, 0, 1 << 20, None, None, 0.0, 6)
    big = (np.empty(1000, np.int64), np.empty(2000, np.int64))
    small = (np.empty(10, np.int64), np.empty(10, np.int64))
    sweep.cur, sweep.spare = big, small
    sweep._keep_arrays(900, 2)
    keys, counts = sweep._memory_arrays(900, 2)
    assert np.shares_memory(keys, big[0]) and np.shares_memory(counts, big[1]) and counts.shape == (900, 2)
    assert sweep.cur is big and sweep.spare is small
    sweep.cur, sweep.spare = small, big  # the input too small: the arrays of two steps back
    sweep._keep_arrays(500, 1)
    keys, _counts = sweep._memory_arrays(500, 1)
    assert np.shares_memory(keys, big[0]) and sweep.cur is big and sweep.spare is small
    sweep.cur, sweep.spare = big, small  # neither large enough: new arrays, with room to grow
    sweep._keep_arrays(1500, 1)
    keys, counts = sweep._memory_arrays(1500, 1)
    assert not np.shares_memory(keys, big[0]) and sweep.cur[0].shape[0] >= 1500 + 1500 // 4
    assert sweep.spare is big  # the input's arrays: the spare, while not larger than its limit
    old = F.SPARE_BYTES
    try:
        F.SPARE_BYTES = 100
        sweep.cur, sweep.spare = big, None
        sweep._keep_arrays(1500, 1)
        sweep._memory_arrays(1500, 1)
        assert sweep.spare is None
    finally:
        F.SPARE_BYTES = old


@pytest.mark.slow  # 30 to 50 s with a busy neighbour: CI runs it with the slow tests
def test_a_pass_whose_table_outgrows_the_budget_keeps_half_its_range(monkeypatch, tmp_path):
    """Tables laid out for a fiftieth of their keys under a 256 KB budget: a pass whose
    table would grow past the budget drops the keys of the upper half of its range in
    place (the others moved back along their probe runs) and goes on with the lower
    half; the upper half becomes a pass of its own, and the count is the same."""
    shrunk = _tables_too_small_and_counted(monkeypatch, "shrink")
    got = count_request_jit(Question(Board(6, 6)), table_bytes=1 << 18, spill_dir=str(tmp_path), symmetry=False)
    assert got.count == 9862 and shrunk  # reference.md: 6x6 closed, 9,862
    # every state once: a key moved back out of reach of its probe would be inserted twice
    assert got.states_per_column == count_request(Question(Board(6, 6))).states_per_column
    got = count_request_jit(Question(Board(4, 7), closed=False), table_bytes=1 << 14, spill_dir=str(tmp_path), symmetry=False)
    ref = count_request(Question(Board(4, 7), closed=False))
    assert got.count == ref.count and got.states_per_column == ref.states_per_column


# ---------------------------------------------------------------- mirror images
# The unmerged sweep (symmetry=False) is the reference's, state for state (the random
# cases above); the Python reference itself takes minutes on 6 x 7, so it is compared here
# on the small boards only.
@pytest.mark.parametrize("rows,cols,holes", [
    (5, 6, []), (6, 6, []), (5, 8, []), (6, 7, []), (7, 6, []), (3, 10, []), (4, 7, []),
    (6, 6, [(0, 0), (5, 0)]),            # holes that look the same upside down
    (6, 7, [(2, 3), (3, 3)]),
    (5, 7, [(2, 2)]),  # the middle row's hole leaves as many dark squares as light ones
    (5, 7, [(0, 2), (4, 2), (2, 5)]),
    # eight across: the keys of base 11 (1,724 tours)
    # (slow: that kernel is a compile of its own, 24 s on an empty cache)
    pytest.param(8, 8, [(r, c) for r in (3, 4) for c in range(2, 8)], marks=pytest.mark.slow),
])
def test_mirror_images_merged_on_boards_alike_upside_down(rows, cols, holes):
    """On a board that looks the same upside down, a closed tour's state at the end of a
    column and its mirror image are merged: the count is the unmerged sweep's and some
    column ends hold fewer states (never more)."""
    board = Board(rows, cols, holes=holes)
    ref = count_request_jit(Question(board), symmetry=False)
    got = count_request_jit(Question(board))
    assert got.count == ref.count
    assert all(a <= b for a, b in zip(got.states_per_column, ref.states_per_column))
    assert got.states_per_column != ref.states_per_column or max(ref.states_per_column) < 4
    if board.n_squares <= 30:
        assert got.count == count_request(Question(board)).count


@pytest.mark.parametrize("rows,cols,holes", [(4, 6, []), (5, 5, [(2, 2)]),
                                             # 12 to 17 s each beside another test process (the
                                             # Python reference's open count of 5x6, two 6x6 counts)
                                             pytest.param(5, 6, [], marks=pytest.mark.slow),
                                             pytest.param(6, 6, [], marks=pytest.mark.slow),
                                             pytest.param(5, 6, [(0, 1), (4, 1)], marks=pytest.mark.slow)])
def test_open_tours_merge_mirror_images_too(rows, cols, holes):
    """Open tours with no fixed end on a board alike upside down: a state and its mirror
    image have the same ways to be finished (paths whose other end left as an end of the
    tour, the ends gone, turn over with it); the counts are the unmerged sweep's and, up
    to 30 squares, the Python reference's; the fullest step holds fewer states."""
    board = Board(rows, cols, holes=holes)
    ref = count_request_jit(Question(board, False), symmetry=False)
    got = count_request_jit(Question(board, False))
    assert (got.count, got.directed) == (ref.count, ref.directed)
    assert all(a <= b for a, b in zip(got.states_per_column, ref.states_per_column))
    assert got.max_states < ref.max_states or ref.max_states < 64
    if board.n_squares <= 30:
        assert got.count == count_request(Question(board, False)).count


@pytest.mark.parametrize("case", [
    dict(board=Board(6, 6, holes=[(0, 0), (4, 0)])),                       # holes not alike
    dict(board=Board(4, 6), closed=False, start=(0, 0)),                    # a fixed end
    dict(board=Board(5, 6), closed=True, forced=[((0, 0), (1, 2))]),        # a forced move
])
def test_no_mirror_where_the_board_or_question_is_not_alike_upside_down(case):
    """No merging where a state and its image may count differently: holes that are not
    alike upside down, a fixed end, forced moves: the states are the unmerged sweep's."""
    question = Question(case.pop("board"), **case)
    ref = count_request_jit(question, symmetry=False)
    got = count_request_jit(question)
    assert got.count == ref.count and got.states_per_column == ref.states_per_column


@pytest.mark.slow  # two rows counted twice each: 5 s (single boards compare mirror images by default)
def test_a_row_of_boards_with_and_without_mirror_images():
    """``count_row`` sweeps a full strip, alike upside down: the same counts merged or not
    (5 x n closed, past 64 bits at n = 24), and with ``partial`` (the last column partly
    filled) nothing is merged."""
    assert count_row(5, 5, 24) == count_row(5, 5, 24, symmetry=False)
    assert count_row(5, 3, 12, partial=True) == count_row(5, 3, 12, partial=True, symmetry=False)


@pytest.mark.parametrize("rows, cols, gap, closed", [pytest.param(5, 30, 10, True, marks=pytest.mark.slow),  # 8 s
                                                     (4, 40, 7, False), (3, 26, 4, True)])
def test_a_sweep_whose_states_run_out_stops_there(rows, cols, gap, closed):
    """Two whole columns removed leave no tour (no knight's move crosses two columns): every
    partial tour dies at the gap, and both counters stop there with 0 instead of stepping
    through the empty columns after it; the search agrees on the small board."""
    board = Board(rows, cols, holes=[(r, c) for r in range(rows) for c in (gap, gap + 1)])
    for res in (count_request(Question(board, closed)), count_request_jit(Question(board, closed))):
        assert res.count == 0
        assert gap <= res.emptied <= gap + 2  # the sweep's column where the last state died
        assert len(res.states_per_column) <= res.emptied  # not one a column of the 30 or 40
    whole = Board(rows, cols)  # the same board whole: the sweep runs to the end
    assert count_request_jit(Question(whole, closed)).emptied == 0


def test_the_empty_sweep_stops_on_a_strip_of_a_billion_columns(cli):
    """A strip two squares deep has no move that goes on: 0 at once, not a sweep of 10^9
    columns up to the time limit."""
    r = cli("count", "2", "1000000000", "--time-limit", "30")
    assert r.code == 0, r.err
    assert r.out.startswith("0 closed tours of the 2x1000000000 board")
    assert "no partial tour went on past column 1 of 1000000000" in r.out
