"""Two independent deciders agree: exhaustive search and CP-SAT, closed and open, small boards.

Every rectangle m <= n with m * n <= 40, and every board of up to 36 squares made by
removing one square from a rectangle. The default run takes one representative of each
class of one-square removals under the rectangle's symmetries (a symmetric image of a
board has a tour exactly when the board has one); the ``slow`` run takes every square.
Every tour found by either engine passes the independent checker.
"""

from __future__ import annotations

import pytest

from kt_formal.board import Board
from kt_formal.question import Status, Question
from kt_formal.solve import run_engine

RECTANGLES = [(m, n) for m in range(1, 41) for n in range(m, 41) if m * n <= 40]
HOLED = [(m, n) if (m, n) != (4, 9) else pytest.param(m, n, marks=pytest.mark.slow)  # 4x9: 3 to 6 s
         for m in range(1, 38) for n in range(m, 38) if 2 <= m * n <= 37]


def _agree(board: Board) -> None:
    for closed in (True, False):
        req = Question(board, closed=closed)
        ex = run_engine("exhaustive", req, time_limit=120)
        cp = run_engine("cpsat", req, time_limit=120)
        assert Status.UNKNOWN not in (ex.status, cp.status), (board.describe(), closed)
        assert ex.status == cp.status, (board.describe(), board.holes(), closed, ex.message, cp.message)
        for res in (ex, cp):
            if res.found:
                assert res.tour.check() is None and res.tour.closed == closed
                assert len(res.tour) == board.n_squares
            else:
                assert res.status is Status.IMPOSSIBLE
        if ex.status is Status.IMPOSSIBLE:
            assert ex.proof["kind"] == "proof" and ex.proof["closed"] == closed


def _one_square_removals(m: int, n: int, reduce: bool):
    syms = ["identity", "rot180", "flip_lr", "flip_ud"]
    if m == n:
        syms += ["transpose", "antitranspose", "rot90", "rot270"]
    seen = set()
    for r in range(m):
        for c in range(n):
            b = Board(m, n, holes=[(r, c)])
            if reduce:
                key = min(b.transformed(s).to_mask() for s in syms)
                if key in seen:
                    continue
                seen.add(key)
            yield b


@pytest.mark.parametrize("m,n", RECTANGLES)
def test_rectangles(m, n):
    _agree(Board(m, n))


@pytest.mark.parametrize("m,n", HOLED)
def test_one_square_removed_up_to_symmetry(m, n):
    for board in _one_square_removals(m, n, reduce=True):
        _agree(board)


@pytest.mark.slow
@pytest.mark.parametrize("m,n", HOLED)
def test_one_square_removed_every_square(m, n):
    for board in _one_square_removals(m, n, reduce=False):
        _agree(board)


def test_the_theorems_on_rectangles():
    # Schwenk (closed) and Cull & De Curtins / Conrad et al. (open), m <= n, m * n <= 40
    for m, n in RECTANGLES:
        closed = not (m % 2 and n % 2) and m not in (1, 2, 4) and not (m == 3 and n in (4, 6, 8))
        closed = closed and m * n > 1
        opened = (m, n) == (1, 1) or (m == 3 and (n == 4 or n >= 7)) or (m == 4 and n >= 5) or m >= 5
        assert run_engine("exhaustive", Question(Board(m, n))).found == closed, (m, n)
        assert run_engine("exhaustive", Question(Board(m, n), closed=False)).found == opened, (m, n)


@pytest.mark.parametrize("engine", ["cpsat", "warnsdorff", "backtrack", "dfs", "exhaustive"])
def test_cli_every_engine(cli, engine):
    run = cli("tour", 5, 5, "--open", "--start", "0,0", "--engine", engine, "--format", "json")
    assert run.code == 0 and "verified" in run.err
    from kt_formal.certificate import tour_from_dict
    import json

    tour = tour_from_dict(json.loads(run.out))
    assert tour.start == (0, 0) and not tour.closed


@pytest.mark.parametrize("args", [["--node-limit", "-3"], ["--time-limit", "-1"]])
def test_cli_bad_limits(cli, args):
    run = cli("tour", 6, 6, "--engine", "backtrack", *args)
    assert run.code == 2 and run.err.count("\n") == 1
    run = cli("count", 5, 6, *args)
    assert run.code == 2 and run.err.count("\n") == 1
