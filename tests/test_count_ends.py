"""Fixed ends in every counter: the frontier counters (the reference, the compiled one), the
exhaustive search and a brute force written here answer the same question.

The question, as the search counts it: a closed tour from ``start`` to ``end`` visits ``end``
last and closes with the move ``end -> start`` (the cycles through that move, each once; 0
when it is no knight move); one fixed square of a closed tour changes nothing; an open tour
with fixed ends is a path from ``start`` (to ``end``), each once. The brute force knows
nothing of the package beyond the board: a depth-first walk over the knight graph of
networkx.
"""

from __future__ import annotations

import json

import networkx as nx
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from kt_formal.board import Board
from kt_formal.counting.frontier_jit import count_request_jit
from kt_formal.counting.exhaustive import count as search_count
from kt_formal.counting.frontier import count_request
from kt_formal.question import Question

_KNIGHT = ((1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1))


def knight_graph(rows: int, cols: int, holes) -> nx.Graph:
    """The knight's graph of a ``rows x cols`` board less ``holes``."""
    g = nx.Graph()
    live = [(r, c) for r in range(rows) for c in range(cols) if (r, c) not in holes]
    g.add_nodes_from(live)
    g.add_edges_from((q, (q[0] + dr, q[1] + dc)) for q in live for dr, dc in _KNIGHT
                     if (q[0] + dr, q[1] + dc) in g)
    return g


def _walks(g: nx.Graph, root, last=None) -> int:
    """Paths from ``root`` through every node, ending in ``last`` (a set; None: anywhere).

    A walk stops where a node not yet visited has fewer free neighbours (not visited yet,
    or the walk's head) than it needs (two, one for the node the walk may end on), or where
    two of them have one only (both would have to be the walk's last node)."""
    n = g.number_of_nodes()
    seen = {root}

    def stuck(v) -> bool:
        ends = 0
        for u in g:
            if u in seen:
                continue
            free = sum(1 for w in g[u] if w not in seen or w == v)
            if free < 2:
                if free == 0 or (last is not None and u not in last):
                    return True
                ends += 1
        return ends > 1

    def go(v) -> int:
        if len(seen) == n:
            return int(last is None or v in last)
        if stuck(v):
            return 0
        total = 0
        for w in g[v]:
            if w not in seen:
                seen.add(w)
                total += go(w)
                seen.discard(w)
        return total

    return go(root)


def brute_count(rows: int, cols: int, holes, closed: bool, start=None, end=None) -> int:
    """The tours of the question, each undirected tour once, by brute force."""
    g = knight_graph(rows, cols, set(holes))
    n = g.number_of_nodes()
    if closed:
        if n < 3:
            return 0
        if start is not None and end is not None:
            return _walks(g, start, {end}) if end in g[start] else 0
        root = min(g)
        return _walks(g, root, set(g[root])) // 2  # each cycle both ways
    if start is not None and end is not None:
        return int(n == 1) if start == end else _walks(g, start, {end})
    if start is not None or end is not None:
        return _walks(g, start if start is not None else end)
    return 1 if n == 1 else sum(_walks(g, q) for q in g) // 2  # each path from both ends


def answers(rows: int, cols: int, holes, closed: bool, start=None, end=None) -> dict:
    """The count of each counter on one question."""
    board = Board(rows, cols, holes=list(holes) or None)
    return {
        "reference": count_request(Question(board, closed, start, end)).count,
        "compiled": count_request_jit(Question(board, closed, start, end)).count,
        "search": search_count(Question(board, closed=closed, start=start, end=end)).count,
        "brute": brute_count(rows, cols, holes, closed, start, end),
    }


@st.composite
def questions(draw, closed_squares: int = 30, open_squares: int = 20):
    """A board of at most ``closed_squares`` squares (``open_squares`` for an open tour) with
    up to five holes, closed or open, with no, one or two fixed ends. The holes mostly keep
    the colours as even as they can be (else most boards have no tour and every counter
    agrees on a quick 0); the two ends of a closed tour are a knight's move apart mostly."""
    closed = draw(st.booleans())
    most = closed_squares if closed else open_squares
    rows, cols = draw(st.sampled_from([(r, c) for r in range(1, 7) for c in range(r, 11) if r * c <= most][::-1]))
    if draw(st.booleans()):
        rows, cols = cols, rows
    squares = [(r, c) for r in range(rows) for c in range(cols)]
    dark = [q for q in squares if sum(q) % 2]
    light = [q for q in squares if not sum(q) % 2]
    if len(squares) >= 4 and draw(st.booleans()):
        pairs = draw(st.integers(0, min(2, len(dark) - 1, len(light) - 1)))
        holes = set(draw(st.lists(st.sampled_from(dark), min_size=pairs, max_size=pairs, unique=True)))
        holes |= set(draw(st.lists(st.sampled_from(light), min_size=pairs, max_size=pairs, unique=True)))
        if len(dark) != len(light):
            holes.add(draw(st.sampled_from([q for q in max(dark, light, key=len) if q not in holes])))
    else:
        holes = draw(st.sets(st.sampled_from(squares), max_size=min(4, len(squares) - 1)))
    live = [q for q in squares if q not in holes]
    ends = draw(st.sampled_from(("both", "none", "start", "end", "both")))
    start = end = None
    if ends != "none":
        q = draw(st.sampled_from(live))
        if ends == "both":
            near = [(q[0] + dr, q[1] + dc) for dr, dc in _KNIGHT if (q[0] + dr, q[1] + dc) in live]
            end = draw(st.sampled_from(near if near and draw(st.booleans()) else live))
            start = q
        elif ends == "start":
            start = q
        else:
            end = q
    return rows, cols, tuple(sorted(holes)), closed, start, end


@st.composite
def closed_moves(draw):
    """A closed tour through a move on a board with closed tours (5x6 and 3x10, turned or not,
    at times less two squares of unlike colours), or from a square to one a knight's move
    away or not."""
    rows, cols = draw(st.sampled_from([(5, 6), (6, 5), (3, 10), (10, 3)]))
    squares = [(r, c) for r in range(rows) for c in range(cols)]
    holes = ()
    if draw(st.booleans()):
        holes = (draw(st.sampled_from([q for q in squares if sum(q) % 2])),
                 draw(st.sampled_from([q for q in squares if not sum(q) % 2])))
    live = [q for q in squares if q not in holes]
    start = draw(st.sampled_from(live))
    near = [(start[0] + dr, start[1] + dc) for dr, dc in _KNIGHT if (start[0] + dr, start[1] + dc) in live]
    end = draw(st.sampled_from(near if near and draw(st.integers(0, 3)) else live))
    return rows, cols, tuple(sorted(holes)), True, start, end


def _agree(q) -> None:
    got = answers(*q)
    assert len(set(got.values())) == 1, (q, got)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(questions())
def test_every_counter_answers_the_same_question(q):
    _agree(q)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(closed_moves())
def test_every_counter_counts_the_closed_tours_through_a_move(q):
    _agree(q)


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(closed_moves())
def test_every_counter_counts_the_closed_tours_through_a_move_wide(q):
    _agree(q)


@pytest.mark.slow
@settings(max_examples=3000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(questions(closed_squares=32, open_squares=24))
def test_every_counter_answers_the_same_question_wide(q):
    _agree(q)


def test_the_brute_force_meets_published_counts():
    """Schwenk's 5x6 (8 closed tours) and the 3x4 board's 8 open tours, as the brute force counts them;
    the cycles through each move at one square, summed, are each cycle twice."""
    assert brute_count(5, 6, (), True) == 8
    assert brute_count(3, 4, (), False) == 8
    through = [brute_count(5, 6, (), True, (2, 2), q) for q in knight_graph(5, 6, set())[(2, 2)]]
    assert sum(through) == 2 * 8  # each cycle takes two of the square's moves


@pytest.mark.parametrize("q", [
    pytest.param((6, 6, (), True, (3, 2), (1, 3)), marks=pytest.mark.slow),  # c3 -> d5 (rows from the top)
    (5, 6, (), True, (0, 0), (1, 2)),
    (5, 6, (), True, (0, 0), (0, 1)),  # no knight move: 0
    (5, 6, (), True, (0, 0), (0, 0)),
    (4, 6, ((1, 1),), False, (0, 0), None),
    (4, 5, ((0, 0), (3, 4)), False, None, (1, 1)),
    (4, 5, (), False, (0, 0), (3, 4)),
    (4, 4, (), False, (0, 1), None),
])
def test_fixed_ends_on_chosen_boards(q):
    _agree(q)


def test_the_compiled_closed_count_through_a_move_splits_the_count():
    """Summed over the moves at one square, the cycles through each move are each cycle
    twice (a cycle takes two of that square's moves): 6x6's 9,862 closed tours."""
    b = Board(6, 6)
    total = count_request_jit(Question(b, True)).count
    through = [count_request_jit(Question(b, True, (0, 0), q)).count for q in ((1, 2), (2, 1))]
    assert through == [total, total]  # a corner has two moves, both on every cycle
    through = [count_request_jit(Question(b, True, (2, 2), q)).count for q in b.neighbours(2, 2)]
    assert sum(through) == 2 * total and 0 not in through


@pytest.mark.slow
def test_the_closed_tours_of_6x8_through_the_moves_at_c3_are_each_tour_twice():
    """6x8 (over 36 squares: the frontier method by default): the cycles through each of c3's
    eight moves, summed, are its 55,488,142 closed tours twice, and none is all or none of them."""
    b = Board(6, 8)
    total = count_request_jit(Question(b, True)).count
    c3 = b.parse_square("c3")
    through = [count_request_jit(Question(b, True, c3, q)).count for q in b.neighbours(*c3)]
    assert sum(through) == 2 * total and all(0 < t < total for t in through)


@pytest.mark.parametrize("method", ["auto", "frontier"])
def test_count_6x8_from_a1_to_a2_is_zero(cli, method):
    r = cli("count", "6", "8", "--start", "a1", "--end", "a2", "--method", method, "--quiet")
    assert r.code == 0 and r.out.startswith("0 closed tours of the 6x8 board from a1 to a2"), (r.out, r.err)
    assert "is not a knight move" in r.out


@pytest.mark.parametrize("method", ["auto", "frontier", "search"])
def test_count_6x6_from_c3_to_d5_is_620(cli, method):
    r = cli("count", "6", "6", "--start", "c3", "--end", "d5", "--method", method, "--quiet")
    assert r.code == 0 and r.out.startswith("620 closed tours of the 6x6 board from c3 to d5"), (r.out, r.err)


#: A board less some squares three ways (holes, removed squares, a mask), and a question on it.
_HOLED = {
    "closed": (["6", "6", "--hole", "3,2,1x2"], ["6", "6", "--remove", "c3", "--remove", "d3"],
               "......\n......\n......\n..##..\n......\n......\n"),
    "open": (["5", "5", "--hole", "2,2,1x1"], ["5", "5", "--remove", "c3"], ".....\n.....\n..#..\n.....\n.....\n"),
}


@pytest.mark.parametrize("how", [0, 1, 2])
@pytest.mark.parametrize("kind, ends", [
    ("closed", ["--start", "a1", "--end", "b3"]), ("closed", ["--start", "a1", "--end", "a2"]),
    ("closed", ["--start", "a1"]), ("open", ["--open", "--start", "a1"]), ("open", ["--open", "--end", "b1"]),
    ("open", ["--open", "--start", "a1", "--end", "b1"]), ("open", ["--open", "--start", "a1", "--end", "e5"]),
])
def test_holed_counts_with_ends_agree_by_both_methods(cli, tmp_path, how, kind, ends):
    """A board less some squares, given as holes, removed squares or a mask: the frontier
    method and the search give the same count of the same question."""
    args = _HOLED[kind][how]
    if how == 2:
        (tmp_path / "board.txt").write_text(args)
        args = ["--mask", str(tmp_path / "board.txt")]
    by = {}
    for method in ("frontier", "search"):
        r = cli("count", *args, *ends, "--method", method, "--json")
        assert r.code == 0, (r.out, r.err)
        by[method] = json.loads(r.out)["count"]
    assert by["frontier"] == by["search"], by


@pytest.mark.parametrize("method", ["frontier", "search"])
def test_the_api_counts_the_closed_tours_through_a_move(method):
    """``kt.count`` asks the same question of either method: 5x6 from b2 to c4 (4 of its 8
    closed tours use the move), and none from a1 to a2."""
    import kt_formal as kt

    through = kt.count(5, 6, start="b2", end="c4", method=method)
    assert through.count == brute_count(5, 6, (), True, through.start, through.end) == 4
    assert kt.count(5, 6, start="a1", end="a2", method=method).count == 0


@pytest.mark.slow
def test_the_dask_counter_counts_the_closed_tours_through_a_move():
    pytest.importorskip("dask.distributed")
    from kt_formal.counting.frontier_dask import DaskCluster, count_request_dask

    holes = [(0, 5), (4, 0)]
    b = Board(5, 6, holes=holes)
    with DaskCluster("local", 2) as cluster:
        for start, end in (((1, 1), (2, 3)), ((0, 0), (0, 1)), ((1, 1), (3, 2))):
            got = count_request_dask(Question(b, True, start, end), parts=2, cluster=cluster).count
            assert got == brute_count(5, 6, holes, True, start, end), (start, end)


@pytest.mark.parametrize("ends", [["--start", "a1"], ["--end", "b3"], ["--open", "--start", "a1", "--end", "b3"]])
def test_a_sequence_with_fixed_ends_is_refused(cli, ends):
    """``--sequence`` counts every board without fixed ends: asked with one, it says so
    instead of answering the question without it."""
    r = cli("count", "--sequence", "3", "10..11", *ends)
    assert r.code == 2 and r.out == "" and "--start and --end go with one board" in r.err
    assert len(r.err.strip().splitlines()) == 1


@pytest.mark.slow
@pytest.mark.parametrize("closed, cols, ends", [
    (True, 5, [((0, 0), (1, 2)), ((3, 2), (5, 3)), ((3, 2), (4, 4)), ((3, 2), (3, 3))]),
    (False, 4, [((0, 0), None), ((0, 0), (7, 3)), (None, (1, 1)), (None, (2, 1))]),
])
def test_ends_eight_across_as_on_the_narrow_board(closed, cols, ends):
    """An 8 x ``cols`` board (less a corner for open tours) swept eight across, as an 8x8
    board with holes (closed tours on the packed keys, open ones in base 11), and swept
    ``cols`` across: the same counts with fixed ends."""
    extra = [] if closed else [(0, cols - 1)]
    narrow = Board(8, cols, holes=extra or None)
    wide = Board(8, 8, holes=[(r, c) for r in range(8) for c in range(cols, 8)] + extra)
    wants = [count_request_jit(Question(narrow, closed, start, end)).count for start, end in ends]
    assert [count_request_jit(Question(wide, closed, start, end)).count for start, end in ends] == wants
    assert 0 in wants and len(set(wants)) == len(wants)  # a 0 among them, and no two alike
