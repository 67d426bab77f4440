"""Divide and conquer: every tour is passed through the independent checker."""

import numpy as np
import pytest

from kt_formal.board import Board
from kt_formal.combine import walk
from kt_formal.combine.divide import (
    PART_SIZES, assemble, assemble_tour, construct, construct_succ, plan_parts, port_edges,
    split_side, tour_exists,
)
from kt_formal.solve import choose_engine, find_tour
from kt_formal.question import Question
from kt_formal.exceptions import InvalidInput, ProvenImpossible
from kt_formal.combine.library import load_piece


def schwenk_closed(m, n):
    m, n = sorted((m, n))
    return not (m % 2 and n % 2) and m not in (1, 2, 4) and not (m == 3 and n in (4, 6, 8))


def open_exists(m, n):
    m, n = sorted((m, n))
    return (m, n) in ((1, 1), (3, 4)) or (m == 3 and n >= 7) or (m == 4 and n >= 5) or m >= 5


@pytest.mark.parametrize("m", range(5, 41))
def test_every_board_from_5_to_40(m):
    for n in range(5, 41):
        t = construct(m, n)
        assert t.check() is None, (m, n)
        assert t.board == Board(m, n)
        assert t.closed == schwenk_closed(m, n), (m, n)  # closed exactly when one exists
        if not t.closed:
            assert (m * n) % 2 == 1


@pytest.mark.parametrize("m, n, closed", [
    (6, 1000, True), (1000, 7, True), (5, 2001, False), (2001, 5, False), (97, 103, False),
    (200, 300, True), (5, 100000, True), (100000, 6, True), (11, 11, False), (5, 5, False),
    (333, 334, True), (25, 4002, True),
])
def test_larger_and_unequal_boards(m, n, closed):
    t = construct(m, n)
    assert t.closed is closed
    assert t.check() is None


def test_open_tour_of_an_even_board_drops_the_closing_move():
    t = construct(10, 12, closed=False)
    assert not t.closed and t.check() is None


def test_closed_tour_of_odd_board_is_refused_by_the_theorem():
    with pytest.raises(ProvenImpossible, match="Schwenk"):
        construct(9, 11, closed=True)


def test_successor_array_matches_the_tour():
    succ, start, closed = construct_succ(30, 34)
    t = construct(30, 34)
    assert closed and succ.dtype == np.int32
    assert np.array_equal(t.successor(), succ)


def test_parts_have_pieces_and_the_right_parity():
    for s in range(6, 200, 2):
        parts = split_side(s, False)
        assert sum(parts) == s and all(p in PART_SIZES and p % 2 == 0 for p in parts)
    for s in range(5, 200, 2):
        parts = split_side(s, True)
        assert sum(parts) == s and all(p in PART_SIZES for p in parts)
        assert sum(p % 2 for p in parts) == 1
    rp, cp = plan_parts(13, 17)
    odd_blocks = sum(1 for h in rp for w in cp if h * w % 2)
    assert odd_blocks == 1


def test_every_port_piece_holds_its_ports():
    for h in PART_SIZES:
        for w in PART_SIZES:
            piece = load_piece(f"port-{h}x{w}")  # verified on load, spec included
            assert piece.tour.closed == ((h * w) % 2 == 0)
            moves = set(map(frozenset, piece.tour.edges().tolist()))
            for a, b in port_edges(h, w).values():
                assert frozenset((a[0] * w + a[1], b[0] * w + b[1])) in moves


# ---------------------------------------------------------------- assembler with missing blocks
def test_assembler_with_a_block_aligned_hole():
    t = assemble_tour([6, 8, 6, 10], [10, 6, 8, 6, 8], missing={(1, 1), (1, 2), (2, 1), (2, 2)})
    assert t.board.n_holes == 14 * 14
    assert t.board.hole_mask[6:20, 10:24].all()
    assert t.closed and t.check() is None


def test_assembler_with_scattered_holes_and_an_open_piece():
    t = assemble_tour([5, 6, 6, 8], [7, 6, 6, 10, 6], missing={(1, 1), (2, 3), (0, 4), (3, 0)})
    assert not t.closed and t.check() is None


def test_assembler_successor_marks_holes():
    succ = assemble([6, 6, 6], [6, 6, 6], missing={(1, 1)})
    grid = succ.reshape(18, 18)
    assert (grid[6:12, 6:12] == -1).all() and (np.delete(grid.ravel(), np.flatnonzero(grid.ravel() < 0)) >= 0).all()


def test_assembler_refuses_bad_layouts():
    with pytest.raises(InvalidInput, match="not connected"):
        assemble([6, 6, 6], [6, 6, 6], missing={(0, 1), (1, 0), (1, 1)})
    with pytest.raises(InvalidInput, match="odd x odd"):
        assemble([5, 7], [5, 7])
    with pytest.raises(InvalidInput, match="no library pieces"):
        assemble([6, 12], [6])
    with pytest.raises(InvalidInput, match="outside"):
        assemble([6], [6, 6], missing={(3, 0)})


# ---------------------------------------------------------------- engine and existence
@pytest.mark.parametrize("m", range(1, 41))
def test_theorem_answers_for_every_board_up_to_40(m):
    for n in range(m, 41):
        for closed in (True, False):
            exists = schwenk_closed(m, n) if closed else open_exists(m, n)
            assert tour_exists(m, n, closed)[0] == exists
            if not exists:
                r = find_tour(Board(m, n), closed=closed, engine="divide")
                assert r.status.value == "impossible" and r.tour is None
                assert ("Schwenk" in r.message) if closed else ("Conrad" in r.message)


def test_divide_engine_returns_verified_tours():
    for m, n, closed in [(20, 21, True), (21, 23, False), (30, 30, False), (17, 18, True)]:
        r = find_tour(Board(m, n), closed=closed, engine="divide")
        assert r.found and r.engine == "divide" and r.tour.closed == closed
        assert r.tour.check() is None


def test_closed_start_is_a_renumbering():
    r = find_tour(Board(16, 18), start=(7, 9), engine="divide")
    assert r.found and r.tour.start == (7, 9) and r.tour.check() is None


def test_constrained_requests_fall_back_to_cpsat_on_small_boards():
    b = Board(8, 8, holes=[(0, 0)])
    r = find_tour(b, closed=False, engine="divide", time_limit=20)
    assert r.found and r.engine == "cpsat" and r.tour.check() is None
    big = Board(100, 100, holes=[(50, 50)])
    r = find_tour(big, closed=False, engine="divide")
    assert r.status.value == "unknown" and "plain rectangles" in r.message


def test_strip_boards_use_the_strip_construction():
    for board, closed in ((Board(3, 10), True), (Board(4, 2000), False), (Board(2001, 3), False)):
        r = find_tour(board, closed=closed, engine="divide", time_limit=20)
        assert r.found and r.tour.check() is None and r.tour.closed == closed
        assert r.engine == "divide" and "strip pieces" in r.message


def test_choose_engine():
    assert choose_engine(Question(Board(8, 8))) == "cpsat"
    assert choose_engine(Question(Board(13, 13), closed=False)) == "divide"
    assert choose_engine(Question(Board(4, 20))) == "divide"  # theorem, where CP-SAT is slow
    assert choose_engine(Question(Board(20, 20), start=(1, 2))) == "divide"
    assert choose_engine(Question(Board(20, 20), end=(1, 2))) == "cpsat"
    # holed boards by their shape: CP-SAT when small, constructions + backtracking when big
    assert choose_engine(Question(Board(20, 20, holes=[(0, 0)]))) == "cpsat"
    assert choose_engine(Question(Board(100, 100, holes=[(0, 0)]))) == "blocks"


# ---------------------------------------------------------------- command line
def test_cli_tour_big_board_outputs(cli, tmp_path):
    out = tmp_path / "t.npy"
    run = cli("tour", "300", "301", "--out", out)
    assert run.code == 0 and "divide" in run.err
    num = np.load(out)
    order = np.argsort(num.ravel())
    from kt_formal.certificate import check_tour
    assert check_tour(Board(300, 301), order, True) is None
    s = tmp_path / "s.npy"
    run = cli("tour", "101", "103", "--open", "--format", "succ", "--out", s)
    assert run.code == 0
    succ = np.load(s)
    assert (succ == -1).sum() == 1 and np.unique(succ).size == 101 * 103
    g = tmp_path / "g.txt"
    assert cli("tour", "320", "330", "--out", g).code == 0
    grid = np.loadtxt(g, dtype=np.int64)
    assert check_tour(Board(320, 330), np.argsort(grid.ravel()), True) is None


def test_cli_refusals(cli_proc):
    run = cli_proc("tour", "1000000", "1000000")
    assert run.code == 2 and run.err.count("\n") == 1 and "memory" in run.err and not run.out
    run = cli_proc("tour", "2000", "2000", "--format", "json")
    assert run.code == 2 and run.err.count("\n") == 1 and "JSON" in run.err
    run = cli_proc("tour", "21", "21")  # the colour proof comes first
    assert run.code == 1 and "221 dark and 220 light" in run.err


def test_progress_is_reported():
    calls = []
    construct(40, 42, progress=lambda d, t, s: calls.append((d, t, s)))
    assert calls[0][0] == 0 and calls[-1][0] == calls[-1][1]


def test_memory_estimate_refuses_before_allocating():
    from kt_formal.exceptions import ResourceLimit

    with pytest.raises(ResourceLimit):
        construct(1_000_000, 999_999)
    assert walk.estimate_bytes(10000, 10000) < 4 * 2**30


def test_seed000_scheme_through_the_engine():
    r = find_tour(Board(18, 20), engine="divide", scheme="quadrants")
    assert r.found and r.stats["scheme"] == "quadrants" and r.tour.check() is None
    r = find_tour(Board(18, 20), closed=False, engine="divide", scheme="seed000")  # the old name
    assert r.found and not r.tour.closed and r.tour.check() is None


def test_strip_sizes_up_to_40():
    for m in range(1, 5):
        for n in range(m, 41):
            for closed in (True, False):
                exists = schwenk_closed(m, n) if closed else open_exists(m, n)
                r = find_tour(Board(m, n), closed=closed, engine="divide")
                assert r.found == exists, (m, n, closed)
                if exists:
                    assert r.tour.check() is None and r.tour.closed == closed


from hypothesis import given, settings, strategies as st  # noqa: E402


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from([6, 8, 10]), min_size=1, max_size=5),
       st.lists(st.sampled_from(PART_SIZES), min_size=1, max_size=5),
       st.sets(st.tuples(st.integers(0, 4), st.integers(0, 4)), max_size=6),
       st.booleans())
def test_assembler_property(row_parts, col_parts, missing, odd_row):
    """Any layout either assembles into a verified tour or is refused for a stated reason."""
    if odd_row:
        row_parts = [7] + row_parts  # at most one odd band: odd column parts make odd x odd blocks
    p, q = len(row_parts), len(col_parts)
    missing = {(i, j) for i, j in missing if i < p and j < q}
    try:
        t = assemble_tour(row_parts, col_parts, missing)
    except InvalidInput as exc:
        assert any(s in str(exc) for s in ("not connected", "odd x odd", "every block is missing"))
        return
    assert t.check() is None
    n_odd = sum(1 for i, h in enumerate(row_parts) for j, w in enumerate(col_parts)
                if h * w % 2 and (i, j) not in missing)
    assert t.closed == (n_odd == 0)
