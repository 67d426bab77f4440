"""Exhaustive search: published counts, an independent brute-force count, proofs, limits."""

from __future__ import annotations

import json
import time

import pytest

from kt_formal.board import Board
from kt_formal.certificate import board_to_dict, check_tour
from kt_formal.counting import exhaustive as exhaustive_counter
from kt_formal.engines import exhaustive
from kt_formal.question import Limits, Status, Question
from kt_formal.graph import knight_graph
from kt_formal.solve import run_engine


def _count(m, n, closed=True, holes=None, **kw):
    return exhaustive_counter.count(Question(Board(m, n, holes=holes), closed=closed, **kw))


@pytest.mark.parametrize("m,n,expected", [(5, 6, 8), (3, 10, 16), (3, 12, 176), (6, 6, 9862)])
def test_published_closed_counts(m, n, expected):
    res = _count(m, n)
    assert res.complete and res.count == expected and res.directed_count is None
    assert _count(n, m).count == expected  # the transposed board has the same tours


def test_published_open_count_5x5():
    res = _count(5, 5, closed=False)
    assert res.complete and res.count == 864 and res.directed_count == 1728


def _brute_force(board: Board, closed: bool, start=None, end=None) -> int:
    """Directed Hamiltonian paths/cycles by plain recursion over networkx (no pruning at all)."""
    G = knight_graph(board)
    nodes = list(G.nodes)
    k = len(nodes)
    total = 0

    def walk(path, seen):
        nonlocal total
        if len(path) == k:
            if closed and not G.has_edge(path[-1], path[0]):
                return
            if end is not None and path[-1] != end:
                return
            total += 1
            return
        for w in G.neighbors(path[-1]):
            if w not in seen:
                seen.add(w)
                path.append(w)
                walk(path, seen)
                path.pop()
                seen.discard(w)

    starts = [start] if start is not None else ([nodes[0]] if closed else nodes)
    for s in starts:
        walk([s], {s})
    if closed:
        return total // 2 if k > 2 else total
    if start is None and end is None and k > 1:
        return total // 2
    return total


def _small_boards():
    # small boards with and without tours (found by a random scan; the expected numbers
    # come from the brute force below, not from this list)
    spec = [
        (3, 4, []), (3, 3, [(1, 1)]), (4, 4, []), (3, 5, []), (4, 5, []), (3, 6, []), (3, 7, []),
        (2, 2, []), (1, 1, []), (1, 3, []),
        (4, 6, [(3, 1), (3, 0), (3, 4), (2, 0), (0, 5), (3, 5)]),
        (5, 5, [(3, 0), (0, 0), (4, 0)]),
        (5, 5, [(0, 0), (1, 3), (4, 0), (3, 4), (4, 3)]),
        (4, 5, [(0, 0), (3, 0)]), (4, 6, [(3, 1), (0, 5)]), (3, 8, [(2, 7), (1, 1)]),
        (4, 5, [(0, 1)]), (5, 4, [(1, 0)]), (5, 4, [(0, 0)]), (4, 5, [(1, 1)]),
        (4, 4, [(0, 1), (3, 0), (1, 3)]), (4, 5, [(2, 0), (3, 0)]), (4, 4, [(3, 3), (1, 0)]),
        (4, 5, [(3, 2)]), (3, 5, [(1, 2)]), (3, 4, [(0, 0), (2, 3)]),
    ]
    return [Board(m, n, holes=h or None) for m, n, h in spec]


# the boards of 22 squares take 5 to 11 s each beside another test process: with the slow tests
@pytest.mark.parametrize("board", [pytest.param(b, marks=pytest.mark.slow) if b.n_squares >= 22 else b
                                   for b in _small_boards()], ids=lambda b: b.describe().replace(" ", ""))
def test_counts_match_an_unpruned_brute_force(board):
    # the pruning must never cut a tour: compare with plain enumeration
    for closed in (True, False):
        res = exhaustive_counter.count(Question(board, closed=closed))
        assert res.complete and res.count == _brute_force(board, closed), closed
    start = board.squares()[0]
    res = exhaustive_counter.count(Question(board, closed=False, start=start))
    assert res.count == _brute_force(board, False, start=start)
    end = board.squares()[-1]
    if end != start:
        res = exhaustive_counter.count(Question(board, closed=False, start=start, end=end))
        assert res.count == _brute_force(board, False, start=start, end=end)


def _canonical(squares, closed):
    seq = [tuple(s) for s in squares]
    if closed:
        i = seq.index(min(seq))
        seq = seq[i:] + seq[:i]
        rev = [seq[0]] + seq[1:][::-1]
        return tuple(min(seq, rev))
    return tuple(min(seq, seq[::-1]))


@pytest.mark.parametrize("m,n,closed,expected", [(5, 6, True, 8), (3, 10, True, 16), (5, 5, False, 864)])
def test_enumerate_writes_each_tour_once(tmp_path, m, n, closed, expected):
    out = tmp_path / "tours.jsonl"
    board = Board(m, n)
    res = exhaustive_counter.enumerate_tours(Question(board, closed=closed), out)
    lines = out.read_text().splitlines()
    assert res.count == expected == len(lines)
    tours = [json.loads(ln) for ln in lines]
    for t in tours:
        assert check_tour(board, t, closed=closed) is None
    assert len({_canonical(t, closed) for t in tours}) == expected


def test_decide_found_and_impossible_with_proof():
    res = run_engine("exhaustive", Question(Board(5, 6), start=(2, 3)))
    assert res.found and res.tour.check() is None and res.tour.start == (2, 3)
    req = Question(Board(4, 6))
    res = run_engine("exhaustive", req)
    assert res.status is Status.IMPOSSIBLE and run_engine("cpsat", req).status is Status.IMPOSSIBLE
    assert res.proof == {
        "format": "kt-formal/1", "kind": "proof", "method": "exhaustive",
        "board": board_to_dict(Board(4, 6)), "closed": True, "start": None, "end": None,
        "engine": "exhaustive", "nodes": res.stats["nodes"], "pruning": exhaustive.PRUNING,
    }
    assert res.proof["nodes"] > 0
    assert json.loads(json.dumps(res.proof)) == res.proof
    req = Question(Board(3, 6), closed=False, start=(0, 0), end=(2, 5))
    res = run_engine("exhaustive", req)
    assert res.status == run_engine("cpsat", req).status
    if res.status is Status.IMPOSSIBLE:
        assert res.proof["start"] == [0, 0] and res.proof["end"] == [2, 5] and res.proof["closed"] is False


def test_limits_are_unknown_and_incomplete():
    res = run_engine("exhaustive", Question(Board(4, 10)), node_limit=1000)
    assert res.status is Status.LIMIT and res.proof is None
    c = exhaustive_counter.count(Question(Board(8, 8)), Limits(node_limit=100_000))
    assert not c.complete and c.nodes == 100_000
    c = exhaustive_counter.count(Question(Board(8, 8)), Limits(0.2))
    assert not c.complete and c.wall_time < 5


def test_progress_is_rate_limited():
    stamps = []
    t0 = time.perf_counter()
    res = exhaustive_counter.count(Question(Board(8, 8)), Limits(
        1.0, progress=lambda done, total, text: stamps.append((time.perf_counter(), done, total, text))))
    wall = time.perf_counter() - t0
    assert stamps, "a one-second count reports progress"
    assert len(stamps) <= wall * 10 + 1
    assert all(b[0] - a[0] >= 0.09 for a, b in zip(stamps, stamps[1:]))
    assert all(isinstance(d, float) and t is None and "nodes" in s for _, d, t, s in stamps)
    assert [d for _, d, _, _ in stamps] == sorted(d for _, d, _, _ in stamps)
    assert not res.complete


def test_cli_count(cli, tmp_path):
    run = cli("count", 5, 6)
    assert run.code == 0 and run.out.startswith("8 closed tours of the 5x6 board") and " s" in run.out
    run = cli("count", 5, 5, "--open")
    assert run.code == 0 and run.out.startswith("864 open tours") and "1728 directed" in run.out
    run = cli("count", 5, 5, "--open", "--start", "0,0")
    assert run.code == 0 and run.out.startswith("304 open tours")
    run = cli("count", 3, 4, "--open", "--remove", "0,0")
    assert run.code == 0 and run.out.split()[0] == str(_brute_force(Board(3, 4, holes=[(0, 0)]), False))
    out = tmp_path / "t.jsonl"
    run = cli("count", 3, 10, "--out", out)
    assert run.code == 0 and len(out.read_text().splitlines()) == 16
    run = cli("count", 8, 8, "--node-limit", "1000")
    assert run.code == 3 and run.err.startswith("unknown:") and run.out == ""
    run = cli("count", 4, 4)
    assert run.code == 0 and run.out.startswith("0 closed tours")


def test_cli_tour_exhaustive(cli):
    run = cli("tour", 4, 6, "--engine", "exhaustive")
    assert run.code == 1 and run.err.startswith("impossible:")
    run = cli("tour", 5, 6, "--engine", "exhaustive", "--format", "coords")
    assert run.code == 0 and run.out.partition("\n")[2].startswith("(")


def test_proofs_can_be_rerun_from_the_record_alone():
    for req in [Question(Board(4, 6)), Question(Board(3, 6), closed=False),
                Question(Board(5, 5, holes=[(2, 2)]), closed=False, start=(0, 0), end=(4, 4)),
                Question(Board(4, 5), start=(0, 0))]:
        res = run_engine("exhaustive", req)
        assert res.status is Status.IMPOSSIBLE, req.describe()
        again = exhaustive.rerun_proof(json.loads(json.dumps(res.proof)))
        assert again.status is Status.IMPOSSIBLE and again.proof == res.proof
        assert run_engine("cpsat", req).status is Status.IMPOSSIBLE
