"""Backtracking engine: the seeds' target boards, fixed ends, limits, and honest IMPOSSIBLE."""

from __future__ import annotations

import json
import time

import pytest

from kt_formal.board import Board
from kt_formal.solve import find_tour
from kt_formal.question import Limits, Status, Question
from kt_formal.exceptions import InvalidInput
from kt_formal.solve import run_engine

TARGETS = [(m, n) for m in range(6, 21, 2) for n in range(6, 21, 2) if abs(m - n) <= 2]


@pytest.mark.parametrize("m,n", TARGETS)
def test_seed_targets_closed_tours_found_and_renumbered(m, n):
    start = (m - 1, 1)
    res = run_engine("backtrack", Question(Board(m, n), start=start), time_limit=60)
    assert res.status is Status.FOUND
    assert res.tour.closed and res.tour.check() is None
    assert res.tour.start == start  # the cycle from the centre is renumbered (seed 000's rule 3)


def test_open_tours_with_fixed_ends():
    for start, end in [((0, 0), (4, 4)), ((0, 0), None), (None, (2, 2)), ((1, 1), (3, 3))]:
        res = run_engine("backtrack", Question(Board(5, 5), closed=False, start=start, end=end))
        ref = run_engine("cpsat", Question(Board(5, 5), closed=False, start=start, end=end))
        assert res.status == ref.status, (start, end)
        if res.found:
            t = res.tour
            assert t.check() is None and not t.closed
            assert start is None or t.start == start
            assert end is None or t.end == end


def test_closed_tour_with_fixed_closing_move():
    res = run_engine("backtrack", Question(Board(6, 6), start=(0, 0), end=(1, 2)))
    assert res.found and res.tour.check() is None
    assert res.tour.start == (0, 0) and res.tour.end == (1, 2)


def test_exhausted_search_is_impossible_with_a_proof():
    res = run_engine("backtrack", Question(Board(4, 5)))
    assert res.status is Status.IMPOSSIBLE
    assert run_engine("cpsat", Question(Board(4, 5))).status is Status.IMPOSSIBLE
    proof = res.proof
    assert proof["kind"] == "proof" and proof["method"] == "exhaustive" and proof["engine"] == "backtrack"
    assert proof["nodes"] == res.stats["nodes"] > 0
    json.dumps(proof)


def test_colour_count_refutes_before_searching():
    res = run_engine("backtrack", Question(Board(5, 5), closed=False, start=(0, 1)))
    assert res.status is Status.IMPOSSIBLE and "colour" in res.message
    assert run_engine("cpsat", Question(Board(5, 5), closed=False, start=(0, 1))).status is Status.IMPOSSIBLE


def test_limits_give_unknown_never_impossible():
    res = run_engine("backtrack", Question(Board(4, 8)), node_limit=50)
    assert res.status is Status.LIMIT and res.stats["nodes"] <= 50
    res = run_engine("backtrack", Question(Board(4, 8)), Limits(1e-9))  # spent before the search starts
    assert res.status is Status.LIMIT


def test_holes_and_forbidden_moves():
    holes = [(r, c) for r in range(3, 7) for c in range(3, 7)]
    board = Board(10, 10, holes=holes)
    bad = ((1, 1), (2, 3))
    res = run_engine("backtrack", Question(board, start=(0, 0), forbidden=(bad,)))
    assert res.found and res.tour.check() is None
    moves = {frozenset(map(tuple, (board.square(a), board.square(b)))) for a, b in res.tour.edges().tolist()}
    assert frozenset(bad) not in moves
    # the corner's only two moves: forbidding one leaves it a single neighbour
    res = run_engine("backtrack", Question(board, forbidden=(((0, 0), (1, 2)),)))
    assert res.status is Status.IMPOSSIBLE
    with pytest.raises(InvalidInput, match="forced"):
        run_engine("backtrack", Question(Board(6, 6), forced=(((0, 0), (1, 2)),)))


def test_progress_hook_is_called_with_nodes():
    calls = []
    res = run_engine("backtrack", Question(Board(4, 10)),
                          progress=lambda d, t, s: calls.append((time.perf_counter(), d, t, s)))
    assert res.status is Status.IMPOSSIBLE and (res.wall_time < 0.1 or calls)
    for _, done, total, text in calls:
        assert isinstance(done, float) and total is None and "nodes" in text
    assert all(b[0] - a[0] >= 0.09 for a, b in zip(calls, calls[1:]))  # at most ~10 a second
    assert [c[1] for c in calls] == sorted(c[1] for c in calls)


def test_cli_engine_backtrack(cli):
    run = cli("tour", 8, 8, "--engine", "backtrack", "--start", "a1")
    assert run.code == 0 and "verified" in run.err
    rows = [list(map(int, line.split())) for line in run.out.splitlines()]
    assert rows[7][0] == 1 and sorted(v for row in rows for v in row) == list(range(1, 65))
    run = cli("tour", 4, 5, "--engine", "backtrack")
    assert run.code == 1 and run.err.startswith("impossible:")
    # the cheap proofs come first, named engine or not: 4x8 is refuted by Posa's alternation
    run = cli("tour", 4, 8, "--engine", "backtrack", "--node-limit", "10")
    assert run.code == 1 and "Posa" in run.err
    run = cli("tour", 8, 8, "--engine", "backtrack", "--node-limit", "10")
    assert run.code == 3 and run.err.startswith("unknown:")


def test_find_tour_backtrack():
    res = find_tour(Board(6, 8), engine="backtrack", start="c3")
    assert res.found and res.tour.check() is None and res.tour.start == Board(6, 8).parse_square("c3")


def test_a_stop_event_ends_the_search_as_a_limit():
    """The portfolio stops backtracking through this event (checked between chunks of nodes)."""
    import threading

    req = Question(Board.from_spec(300, 300, ["149,149,2x2"]))  # backtracking does not find this one
    ev = threading.Event()
    ev.set()
    r = run_engine("backtrack", req, Limits(600, stop=ev))
    assert r.status is Status.LIMIT and r.stats["nodes"] == 0
    ev = threading.Event()
    timer = threading.Timer(0.3, ev.set)
    timer.start()
    r = run_engine("backtrack", req, Limits(600, stop=ev))
    timer.join()
    assert r.status is Status.LIMIT and r.stats["nodes"] > 0


def test_values_kept_across_restarts_match_fresh_ones():
    from kt_formal.engines.pathsearch import centre_distance, node_colours, ordered_table, table_degrees, table_for
    from kt_formal.graph import neighbour_table

    board = Board.from_spec(13, 17, ["4,4,2x3"])
    nt = neighbour_table(board)
    tab = ordered_table(nt)
    assert table_degrees(nt, tab) is table_degrees(nt, tab)  # kept
    assert (table_degrees(nt, tab) == (tab >= 0).sum(axis=1)).all()
    # a table with a forbidden move has degrees of its own
    a, b = (0, 0), (1, 2)
    t2 = table_for(Question(board, forbidden=[(a, b)]), nt)
    d2 = table_degrees(nt, t2)
    assert d2[nt.node(a)] == table_degrees(nt, tab)[nt.node(a)] - 1
    r, c = divmod(nt.squares, board.cols)
    assert (centre_distance(nt) == abs(r - (13 // 2 - 1)) + abs(c - (17 // 2 - 1))).all()
    assert (node_colours(nt) == (r + c) % 2).all()
