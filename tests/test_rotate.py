"""Extension and rotation: every tour verified and honouring the request, an honest UNKNOWN,
the rotation itself a permutation of the path."""

from __future__ import annotations

import numpy as np
import pytest

from kt_formal.board import Board
from kt_formal.certificate import verify_certificate
from kt_formal.combine.hole_masks import random_rectangles, scattered_squares
from kt_formal.engines import rotate
from kt_formal.question import Limits, Status, Question
from kt_formal.exceptions import InvalidInput
from kt_formal.solve import find_tour
from kt_formal.solve import run_engine


def _check(result, request):
    assert result.status is Status.FOUND, result.message
    t = result.tour
    assert t.check() is None  # the kernel's check, once more
    assert verify_certificate(t.to_dict(engine=result.engine))[0] is not None
    assert t.closed == request.closed and len(t) == request.board.n_squares
    if request.start is not None:
        assert t.start == request.start
    if request.end is not None:
        assert t.end == request.end
    assert result.engine == "extend-rotate"


CLOSED = [
    Board(6, 6), Board(8, 8), Board(10, 12), Board.from_spec(10, 10, ["3,3,4x4"]),
    Board.from_spec(60, 60, ["25,25,10x10"]), Board.from_spec(60, 60, ["0,0,12x10"]),
    Board(40, 40, holes=[(1, 1), (2, 3)]),
    Board(30, 30, holes=random_rectangles(30, 30, 3, 6, seed=0)),
    Board(24, 24, holes=scattered_squares(24, 24, 6, seed=0)),
]


@pytest.mark.parametrize("board", CLOSED, ids=[b.describe() for b in CLOSED])
def test_closed_tours_verified(board):
    req = Question(board)
    _check(run_engine("extend-rotate", req), req)


@pytest.mark.parametrize("kw", [
    {"closed": False},
    {"closed": False, "start": (0, 0)},
    {"closed": False, "end": (3, 4)},
    {"closed": False, "start": (7, 0), "end": (7, 7)},
    {"closed": True, "start": (2, 2)},
    {"closed": True, "end": (5, 5)},
    {"closed": True, "start": (0, 0), "end": (1, 2)},
])
def test_fixed_ends_honoured(kw):
    req = Question(Board(8, 8), **kw)
    _check(run_engine("extend-rotate", req), req)


def test_open_tour_with_both_ends_on_a_holed_board():
    req = Question(Board.from_spec(24, 24, ["10,10,2x2"]), closed=False, start=(0, 0), end=(23, 22))
    _check(run_engine("extend-rotate", req), req)


def test_forbidden_moves_are_left_out():
    forbidden = (((2, 2), (0, 3)), ((4, 4), (6, 5)), ((3, 3), (5, 4)))
    req = Question(Board(8, 8), forbidden=forbidden)
    r = run_engine("extend-rotate", req)
    _check(r, req)
    b = req.board
    used = {frozenset(e) for e in r.tour.edges().tolist()}
    for a, c in forbidden:
        assert frozenset((b.index(*a), b.index(*c))) not in used


def test_no_tour_is_unknown_never_impossible():
    # 5x5 has no closed tour (13 dark, 12 light squares) and 4x4 no open one
    for req in (Question(Board(5, 5)), Question(Board(4, 4), closed=False)):
        r = run_engine("extend-rotate", req)
        assert r.status is Status.UNKNOWN and r.tour is None
        k = req.board.n_squares
        assert f"of {k} squares" in r.message and r.stats["walks"] == rotate.WALKS
        assert r.stats["covered"] <= k


def test_forced_moves_are_refused_as_unknown():
    r = run_engine("extend-rotate", Question(Board(8, 8), forced=(((0, 0), (1, 2)),)))
    assert r.status is Status.UNKNOWN and "forced" in r.message


def test_a_spent_time_limit_is_unknown():
    r = run_engine("extend-rotate", Question(Board(8, 8)), Limits(1e-9))
    assert r.status is Status.LIMIT and "time limit" in r.message


def test_runs_repeat_and_retries_are_checked():
    req = Question(Board.from_spec(14, 14, ["2,2,3x4", "8,7,4x4", "6,0,2x1"]))
    a, b = run_engine("extend-rotate", req, seed=3), run_engine("extend-rotate", req, seed=3)
    assert a.found and np.array_equal(a.tour.order, b.tour.order)
    with pytest.raises(InvalidInput, match="retries"):
        run_engine("extend-rotate", req, retries=-1)
    assert run_engine("extend-rotate", Question(Board(5, 5)), retries=0).stats["walks"] == 1


def test_through_the_registry():
    r = find_tour(Board(6, 6), engine="extend-rotate")
    assert r.found and r.tour.check() is None and r.tour.start == (0, 0)


def test_rotation_keeps_a_permutation():
    rng = np.random.default_rng(0)
    for _ in range(50):
        n = int(rng.integers(3, 40))
        path = rng.permutation(n).astype(np.int64)
        pos = np.empty(n, dtype=np.int64)
        pos[path] = np.arange(n)
        length = int(rng.integers(3, n + 1))
        i = int(rng.integers(0, length - 2))
        before = path[:length].tolist()
        rotate._do_rotation(path, pos, i, length)
        after = path[:length].tolist()
        assert after == before[:i + 1] + before[i + 1:][::-1]
        assert np.array_equal(pos[path], np.arange(n))


def test_the_neighbour_lists_are_made_a_slice_at_a_time_and_stop_at_the_deadline(monkeypatch):
    """The walk's neighbour lists, made a slice of the table at a time (the deadline looked
    at between slices), are those of the whole table; a deadline already past stops them, and
    the engine then answers UNKNOWN before its first walk, saying so (a board of millions of
    squares took seconds to list, past its time limit)."""
    from kt_formal.graph import neighbour_table

    board = Board(9, 11, holes=[(0, 0), (4, 5), (8, 10)])
    table = neighbour_table(board).table
    monkeypatch.setattr(rotate, "LIST_ROWS", 7)
    whole = [[w for w in row if w >= 0] for row in table.tolist()]
    assert rotate._neighbour_lists(table, None) == whole
    assert rotate._neighbour_lists(table, 0.0) is None  # perf_counter() is past 0 at once
    res = run_engine("extend-rotate", Question(Board(40, 40)), Limits(1e-9))
    assert res.status is Status.LIMIT and res.stats["walks"] == 0 and res.stats["timed_out"]
    assert "before its first walk" in res.message and "1,600 squares" in res.message


@pytest.mark.parametrize("rows, cols", [(8, 8), (7, 10), (5, 5), (1, 4), (6, 9)])
def test_the_centre_square_is_the_nearest_and_first_of_equals(rows, cols):
    """The root of a closed walk: the square nearest the centre (rows plus columns), the first
    in board order among those as near."""
    board = Board(rows, cols)
    r, c = np.divmod(np.arange(rows * cols), cols)
    mr, mc = (rows - 1) / 2, (cols - 1) / 2
    ref = min(range(rows * cols), key=lambda v: (abs(r[v] - mr) + abs(c[v] - mc), v))
    assert rotate._centre_node(r, c, board) == ref
