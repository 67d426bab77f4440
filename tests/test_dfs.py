"""Plain DFS: the seeds' move orders replayed exactly, exhaustion as proof, limits."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import conftest
from kt_formal.board import Board
from kt_formal.engines.pathsearch import ORDER_ALIASES, ORDERS, parse_order
from kt_formal.question import Status, Question
from kt_formal.exceptions import InvalidInput
from kt_formal.solve import run_engine

# ../shared beside the repository; KT_FORMAL_SHARED may point elsewhere (e.g. from a worktree)
SHARED = Path(os.environ.get("KT_FORMAL_SHARED", conftest.SHARED))


def _seed004_reference() -> str:
    files = sorted((SHARED / "seeds").glob("004_*")) if (SHARED / "seeds").is_dir() else []
    if not files:
        pytest.skip("seed 004 (../shared/seeds/004_*) is not available beside the repository")
    lines = files[0].read_text(encoding="utf-8").splitlines()
    i = next(i for i, ln in enumerate(lines) if ln.startswith("(0, 0) (1, 2)"))
    return "".join(ln.rstrip() + "\n" for ln in lines[i:i + 8])


def test_cli_reproduces_seed004_output_exactly(cli_proc):
    # the clockwise order is seed 004's; the coords output after its header line is the seed's
    expected = _seed004_reference()
    run = cli_proc("tour", 8, 8, "--engine", "dfs", "--order", "clockwise", "--start", "0,0", "--open",
                   "--format", "coords")
    assert run.code == 0, run.err
    head, _, body = run.out.partition("\n")
    assert head == "# kt-formal coords: open tour, board 8x8"
    assert body == expected


def test_old_order_names_still_work_with_a_note(cli_proc):
    run = cli_proc("tour", 8, 8, "--engine", "dfs", "--order", "seed004", "--start", "0,0", "--open",
                   "--format", "coords")
    assert run.code == 0, run.err
    assert "--order seed004 is now called --order clockwise" in run.err
    assert run.out.partition("\n")[2] == _seed004_reference()
    for old, new in ORDER_ALIASES.items():
        assert parse_order(old) == ORDERS[new]


def test_seed004_tour_and_node_count():
    res = run_engine("dfs", Question(Board(8, 8), closed=False, start=(0, 0)), order="clockwise")
    assert res.found and res.tour.check() is None
    assert round(res.stats["nodes"] / 1e5) == 32  # reference: 3.2e6 nodes


@pytest.mark.slow
def test_seed001_order_from_2_0_runs_to_completion():
    res = run_engine("dfs", Question(Board(8, 8), closed=False, start=(2, 0)), order="down-first", time_limit=600)
    assert res.found and res.tour.check() is None
    sq = res.tour.squares()
    assert sq[0] == (2, 0) and sq[1] == (4, 1)  # (2+2, 0-1) is off the board, the next case is (4, 1)
    assert 1.5e8 < res.stats["nodes"] < 3e8  # "about 2e8 nodes"


def test_first_moves_follow_the_order():
    # a plain DFS takes the first legal move of its order at each step while it can
    for name in ORDERS:
        res = run_engine("dfs", Question(Board(5, 5), closed=False, start=(2, 2)), order=name)
        assert res.found and res.tour.check() is None
        dr, dc = ORDERS[name][0]
        assert res.tour.squares()[1] == (2 + dr, 2 + dc)


def test_custom_order_and_bad_orders():
    text = "1,2;2,1;2,-1;1,-2;-1,-2;-2,-1;-2,1;-1,2"
    assert parse_order(text)[0] == (1, 2)
    res = run_engine("dfs", Question(Board(5, 5), closed=False, start=(0, 0)), order=text)
    assert res.found and res.tour.check() is None and res.tour.squares()[:2] == [(0, 0), (1, 2)]
    for bad in ("1,2;2,1", "1,2;1,2;2,-1;1,-2;-1,-2;-2,-1;-2,1;-1,2", "nonsense", "1,1;2,1;2,-1;1,-2;-1,-2;-2,-1;-2,1;-1,2"):
        with pytest.raises(InvalidInput):
            run_engine("dfs", Question(Board(6, 6)), order=bad)


@pytest.mark.parametrize("m,n", [(3, 4), (4, 4), (3, 5), (3, 7), (4, 5)])
def test_exhaustion_agrees_with_cpsat_from_every_start(m, n):
    board = Board(m, n)
    for start in board.squares():
        req = Question(board, closed=False, start=start)
        res = run_engine("dfs", req)
        assert res.status == run_engine("cpsat", req).status, start
        if res.found:
            assert res.tour.check() is None and res.tour.start == start
        else:
            assert res.proof["engine"] == "dfs" and res.proof["nodes"] == res.stats["nodes"]


def test_closed_exhaustion_is_impossible():
    res = run_engine("dfs", Question(Board(3, 4)))
    assert res.status is Status.IMPOSSIBLE and res.proof["method"] == "exhaustive"


def test_node_limit_gives_unknown(cli):
    res = run_engine("dfs", Question(Board(8, 8), closed=False, start=(2, 0)), order="down-first", node_limit=10_000)
    assert res.status is Status.LIMIT and res.stats["nodes"] == 10_000
    run = cli("tour", 8, 8, "--engine", "dfs", "--order", "down-first", "--start", "2,0", "--open",
              "--node-limit", "1000")
    assert run.code == 3 and run.err.startswith("unknown:")
    run = cli("tour", 8, 8, "--engine", "dfs", "--order", "nonsense")
    assert run.code == 2 and run.err.count("\n") == 1
