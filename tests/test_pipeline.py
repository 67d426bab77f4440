"""The one pipeline (kt_formal.pipeline) on holed boards, and the commands behind it.

For every hole generator on boards up to 40 x 40 the verdict must agree with CP-SAT run
to completion, every tour must pass the kernel's check, every "no" must carry a proof
the checker accepts; "unknown" is a failure here.
"""

from __future__ import annotations

import re
import time

import numpy as np
import pytest

import importlib
from kt_formal.board import Board
from kt_formal.certificate import verify_certificate
from kt_formal.combine import blocks
from kt_formal.solve import blocks_engine, policy
from kt_formal.combine.hole_masks import random_rectangles, scattered_squares
from kt_formal.api import decide
from kt_formal.solve import ENGINES, find_tour, shape_of
from kt_formal.question import Status
from kt_formal.solve import run_engine

decide_module = importlib.import_module("kt_formal.pipeline")


def cpsat_truth(board, closed=True, start=None, end=None) -> str:
    r = find_tour(board, closed=closed, start=start, end=end, engine="cpsat", time_limit=None)
    assert r.status is not Status.UNKNOWN
    return "yes" if r.status is Status.FOUND else "no"


def agree(board, closed=True, start=None, end=None, **kw):
    v = decide(board, closed=closed, start=start, end=end, time_limit=60, **kw)
    assert v.answer != "unknown", v.explanation
    assert v.answer == cpsat_truth(board, closed, start, end), (board.to_mask(), v.route)
    if v.answer == "yes":
        assert v.tour.check() is None
        assert verify_certificate(v.certificate)[0] is not None
    else:
        assert verify_certificate(v.certificate)[0] is not None  # the kernel checks the DRUP proof
    return v


def _boards():
    out = []
    for seed in range(3):
        out.append((f"rect{seed}", Board(30, 30, holes=random_rectangles(30, 30, 3, 6, seed=seed))))
    for seed in range(2):
        out.append((f"scatter{seed}", Board(24, 24, holes=scattered_squares(24, 24, 6, seed=seed))))
    for m in (0, 1, 2, 3, 4):
        out.append((f"margin{m}", Board.from_spec(36, 36, [f"{m},{m},8x10"])))
    out.append(("edge", Board.from_spec(30, 30, ["0,11,3x8"])))
    out.append(("corner", Board.from_spec(30, 30, ["0,0,2x2"])))
    out.append(("close", Board.from_spec(30, 30, ["8,8,3x4", "8,14,3x4", "13,8,2x2"])))
    out.append(("colour", Board.from_spec(30, 30, ["2,2,3x3"])))
    mask = np.zeros((20, 20), dtype=bool)
    mask[5:8, 5:7] = True
    mask[12, 3] = mask[12, 4] = True
    out.append(("mask", Board.from_mask(Board(20, 20, holes=mask).to_mask())))
    return out


BOARDS = _boards()


@pytest.mark.parametrize("name,board", BOARDS, ids=[n for n, _ in BOARDS])
def test_verdicts_agree_with_cpsat(name, board):
    agree(board)


def test_open_tours_on_holed_boards():
    b = Board.from_spec(25, 25, ["10,10,2x3"])  # odd count
    agree(b, closed=False)
    b = Board.from_spec(24, 24, ["10,10,2x2"])
    agree(b, closed=False, start=(0, 0), end=(23, 22))
    agree(b, closed=False, start=(0, 0), end=(23, 23))  # same colour: a colour proof


# ---------------------------------------------------------------- stages
def test_cheap_proofs_come_first_for_tour_too(cli_proc):
    v = decide(Board.from_spec(50, 50, ["2,2,3x3"]))
    assert v.answer == "no" and v.route == "proof:colour"
    assert [s.name for s in v.stages] == ["proofs"]  # nothing ran after the cheap proof
    r = cli_proc("tour", 50, 50, "--hole", "2,2,3x3")
    assert r.code == 1 and r.err.startswith("impossible: no closed tour") and r.out == ""


def test_theorem_stage():
    v = decide(Board(3, 8))  # Schwenk: no closed tour; no cheap proof, a thorough one
    assert v.answer == "no" and [s.name for s in v.stages][:2] == ["proofs", "theorem"]
    assert v.route.startswith("theorem+")


def test_divide_stage():
    v = decide(Board(40, 42))
    assert v.answer == "yes" and v.route.endswith("construction:divide")


def test_construction_stages_frame_and_blocks(monkeypatch):
    monkeypatch.setattr(policy, "FAST_FIRST", False)  # the stages behind the fast attempt
    monkeypatch.setattr(policy, "BACKGROUND_BACKTRACK", False)
    v = decide(Board.from_spec(60, 60, ["3,25,10x10", "30,20,10x12"]))  # two large holes: the frame's slabs
    assert v.answer == "yes" and v.route == "construction:frame"
    assert shape_of(v.tour.board) == "sparse"
    v = decide(Board.from_spec(60, 60, ["2,20,4x6"]))  # margin 2: the frame needs >= 3
    assert v.answer == "yes" and v.route == "construction:blocks", v.stages
    assert [s.name for s in v.stages][:3] == ["proofs", "frame", "blocks"]


def test_background_backtracking_and_portfolio_stages(monkeypatch):
    monkeypatch.setattr(policy, "FAST_FIRST", False)  # the stages behind the fast attempt
    v = decide(Board.from_spec(60, 60, ["3,25,10x10", "30,20,10x12"]))  # the frame first: milliseconds
    assert v.answer == "yes" and v.route == "construction:frame"
    assert [s.name for s in v.stages] == ["proofs", "frame"]
    v = decide(Board.from_spec(60, 60, ["2,20,4x6"]))  # no frame: backtracking, next to the blocks
    assert v.answer == "yes" and v.route in ("portfolio:backtrack", "construction:blocks")
    names = [s.name for s in v.stages]
    assert names[:2] == ["proofs", "frame"] and "backtrack" in names
    v = decide(Board.from_spec(20, 20, ["2,5,4x2"]))  # small: straight to the portfolio
    assert v.answer == "yes" and v.route.startswith("portfolio:")
    assert any(s.name == "constructions" and "skipped" in s.outcome for s in v.stages)


def test_unknown_names_every_stage(monkeypatch):
    monkeypatch.setattr(policy, "FAST_FIRST", False)  # the stages behind the fast attempt
    monkeypatch.setattr(policy, "PROBE_SECONDS", 0.0)
    monkeypatch.setattr(blocks, "MAX_GROUP_SQUARES", 5)
    # the block construction first, then the hole repair (as for holes that are not all small)
    monkeypatch.setattr(blocks_engine, "SMALL_HOLE_GROUP", 0)
    b = Board(80, 80, holes=scattered_squares(80, 80, 40, seed=3))
    v = decide(b, time_limit=1.0)
    names = [s.name for s in v.stages]
    assert names[0] == "proofs" and "blocks" in names and "backtrack" in names
    if v.answer == "unknown":
        for n in names:
            assert f"{n}:" in v.explanation
        assert v.exit_code == 3


def test_the_hole_repair_is_a_named_stage(monkeypatch):
    """Many small holes: the repair comes first; when it fails the stage says so and the
    other stages follow."""
    from kt_formal.combine import repair

    monkeypatch.setattr(policy, "FAST_FIRST", False)  # the stages behind the fast attempt
    monkeypatch.setattr(policy, "PROBE_SECONDS", 0.0)
    monkeypatch.setattr(repair, "WIDEN", (0,))  # one try a window, and every try fails at once
    monkeypatch.setattr(repair._Window, "solve", lambda self, seconds, work, seed: False)
    b = Board(80, 80, holes=scattered_squares(80, 80, 40, seed=3))
    v = decide(b, time_limit=5.0)  # the repair's share is more than its plan takes on a busy machine
    names = [s.name for s in v.stages]
    stages = {s.name: s.outcome for s in v.stages}
    assert stages["repair"].startswith("no tour built: the window around the holes")
    assert names[:4] == ["proofs", "frame", "backtrack", "repair"]  # backtracking paused after its probe
    assert v.stages[2].outcome == "stopped: paused for the hole repair" or re.fullmatch(
        r"no tour within one walk \([\d,]+ nodes\); (given up next to the constructions|the constructions go "
        r"on alone)", v.stages[2].outcome)  # the second: its walk in the calling thread (6,400 squares)
    assert "blocks" in names[4:]
    if v.answer == "unknown":
        assert "repair: no tour built" in v.explanation


@pytest.mark.slow
def test_solver_infeasible_is_not_a_proof(cli_proc, tmp_path):
    """200x200 minus 196x196: CP-SAT's infeasible alone was once reported as proven; now the
    answer is "no" only with a certificate that the kernel checks (the moves forced by the
    squares of two moves, since they close into separate cycles on a frame two wide, or a
    DRUP proof), and both commands say the same."""
    cert = tmp_path / "p.json"
    r = cli_proc("exists", 200, 200, "--hole", "2,2,196x196", "--time-limit", "20", "--cert", cert)
    if r.code == 3:  # no certificate in time: unknown, never "impossible"
        assert "not certified" in r.out or "unknown" in r.out.lower(), (r.out, r.err)
        return
    assert r.code == 1 and ("SAT solver's proof" in r.out or "after the moves forced" in r.out), (r.out, r.err)
    v = cli_proc("verify", cert)
    assert v.code == 0 and v.out.startswith("OK: no closed tour of the 200x200 board minus 38416 squares")
    r2 = cli_proc("tour", 200, 200, "--hole", "2,2,196x196", "--time-limit", "20")
    assert r2.code == 1 and r2.err.startswith("impossible: no closed tour")


def test_time_limit_is_a_promise(monkeypatch):
    """Every solver call is given at most what is left of the limit when it starts, on the
    pipeline's own clock (started when its limits are made), so the limit holds however busy
    the machine is: no wall-time bound is asserted."""
    from ortools.sat.python import cp_model

    budgets, asked = [], []
    real_budget, real_solve = decide_module.Limits.__init__, cp_model.CpSolver.solve

    def budget_spy(self, *args, **kwargs):
        real_budget(self, *args, **kwargs)
        budgets.append(self)

    def solve_spy(self, *args, **kwargs):
        asked.append((time.perf_counter(), self.parameters.max_time_in_seconds))
        return real_solve(self, *args, **kwargs)

    monkeypatch.setattr(decide_module.Limits, "__init__", budget_spy)
    monkeypatch.setattr(cp_model.CpSolver, "solve", solve_spy)
    b = Board(40, 40, holes=[(1, 1), (2, 3), (20, 20), (20, 21), (30, 5), (31, 5)])
    v = decide(b, time_limit=0.3, engine="cpsat")
    budgets = [b for b in budgets if b.time_limit is not None]  # engines' own clocks have no limit
    assert len(budgets) == 1 and budgets[0].time_limit == 0.3
    # the engine asked for is CP-SAT; on a busy machine building its model may use the whole
    # limit, and then no search is run (and none is given a limit already spent)
    assert asked or (v.answer == "unknown" and "no search was run" in v.explanation), v.explanation
    # the engine's own clock starts a moment after the pipeline reads what is left (a few
    # milliseconds of its set-up are not charged): ``drift`` bounds that gap, not the run's time
    drift = 0.05
    for at, limit in asked:
        assert 0 < limit <= 0.3 - (at - budgets[0].t0) + drift, (at - budgets[0].t0, limit)
    if v.answer == "unknown":
        assert "0.3 s" in v.explanation


def test_no_search_once_building_the_model_used_the_limit(monkeypatch):
    """A model whose building outlasts the limit (as on a busy machine) is not searched with
    a limit already spent: the answer is unknown and says so."""
    from kt_formal.engines import cpsat

    asked, real_model = [], cpsat._model
    monkeypatch.setattr(cpsat, "_model", lambda *a: time.sleep(0.4) or real_model(*a))
    monkeypatch.setattr(cpsat.Circuit, "solve", lambda self, **kw: asked.append(kw) or "unknown")
    v = decide(Board(40, 40, holes=[(1, 1), (2, 3), (20, 20), (20, 21), (30, 5), (31, 5)]),
               time_limit=0.3, engine="cpsat")
    assert v.answer == "unknown" and "no search was run" in v.explanation and asked == []


def test_gave_up_early_does_not_claim_the_whole_limit(monkeypatch):
    monkeypatch.setattr(policy, "CPSAT_MAX_SQUARES", 0)
    b = Board.from_spec(60, 60, ["2,20,4x6"])
    v = decide(b, time_limit=60, engine="frame", options={"method": "construct"})
    if v.answer == "unknown":
        assert "60 s" not in v.explanation.split("Stages")[0]


@pytest.mark.slow
# ---------------------------------------------------------------- commands
def test_tour_and_exists_agree(cli_proc):
    for args in (["30", "30", "--hole", "10,10,2x2"], ["30", "30", "--hole", "1,1,1x1"],
                 ["9", "9", "--open", "--start", "0,0", "--end", "8,8"]):
        a = cli_proc("tour", *args, "--time-limit", "30")
        b = cli_proc("exists", *args, "--time-limit", "30")
        assert a.code == b.code and a.code in (0, 1), (args, a, b)


#: a board in each engine's domain (narrow: a side of at most 4; Warnsdorff: open walks;
#: plain DFS: its closed tour of 6x6 takes 5 s, an open one under 1 s)
ENGINE_BOARDS = {"narrow": ["3", "10"], "warnsdorff": ["8", "8", "--open"], "dfs": ["6", "6", "--open"]}


@pytest.mark.parametrize("engine", list(ENGINES))
def test_exists_engine_works_for_every_engine(cli_proc, engine):
    args = ENGINE_BOARDS.get(engine, ["6", "6"])
    r = cli_proc("exists", *args, "--engine", engine, "--time-limit", "30")
    assert r.code == 0 and r.out.startswith("Yes, a"), (r.out, r.err)
    assert f"{engine}" in r.out or engine in ("divide", "narrow", "blocks", "frame")


@pytest.mark.parametrize("args,match", [
    (["8", "8", "--hole", "9,0,2x2"], "outside"),
    (["8", "8", "--hole", "0,0,8x8"], "no squares"),
    (["8", "8", "--open", "--start", "0,0", "--hole", "0,0,1x1"], "hole"),
    (["8", "8", "--time-limit", "nan"], "time"),
    (["8", "8", "--time-limit", "-1"], "time"),
])
def test_bad_input_one_line_exit_2(cli_proc, args, match):
    for cmd in ("tour", "exists"):
        r = cli_proc(cmd, *args)
        assert r.code == 2 and r.err.count("\n") == 1 and match in r.err, (cmd, r)


def test_empty_mask_file(cli_proc, tmp_path):
    p = tmp_path / "empty.txt"
    p.write_text("")
    r = cli_proc("exists", "--mask", p)
    assert r.code == 2 and r.err.count("\n") == 1


def test_open_tours_with_fixed_ends_on_100_boards_by_default():
    for n, end in ((100, (99, 98)), (101, (100, 100))):
        v = decide(Board(n, n), closed=False, start=(0, 0), end=end, time_limit=60)
        assert v.answer == "yes" and v.tour.start == (0, 0) and v.tour.end == end
        assert v.tour.check() is None


def test_a_construction_that_wins_does_not_wait_for_backtracking():
    """One hole group: a short probe, the construction next to backtracking, which is told to
    stop, or has given up already after its one walk (capped in nodes, so it does not hold a
    processor the construction needs). An L-shaped hole of 6 squares in the middle: not a
    rectangle, so no margin-three construction answers first."""
    v = decide(Board.from_spec(300, 300, ["149,149,1x4", "150,149,1x2"]), time_limit=60)
    assert v.answer == "yes" and v.route == "construction:blocks", (v.route, v.stages)
    outcome = {s.name: s.outcome for s in v.stages}
    cap = int(policy.BACKGROUND_NODES_PER_SQUARE * 300 * 300)
    walked = re.fullmatch(r"no tour within one walk \(([\d,]+) nodes\); given up next to the constructions",
                          outcome["backtrack"])
    assert outcome["backtrack"] == "stopped: another answer came first" or (
        walked and cap <= int(walked.group(1).replace(",", "")) <= cap + 1000), outcome["backtrack"]
    assert policy.PROBE_PER_GROUP * 1 < policy.PROBE_SECONDS


# ---------------------------------------------------------------- the fast first attempt
FAST_BOARDS = [
    (Board(8, 8), {}),
    (Board.from_spec(20, 20, ["2,4,10x10"]), {}),  # a margin of 2: not the margin theorem's
    (Board.from_spec(20, 20, ["2,5,4x2"]), {}),  # likewise
    (Board(8, 8), {"closed": False, "start": (0, 0)}),
    (Board.from_spec(24, 24, ["10,10,2x2"]), {"closed": False, "start": (0, 0), "end": (23, 22)}),
]


@pytest.fixture
def cold(monkeypatch):
    """As in a fresh process: the compiled search not loaded yet (other tests load it)."""
    monkeypatch.setattr(policy, "kernels_loaded", lambda: False)


@pytest.mark.parametrize("board,kw", FAST_BOARDS, ids=[f"{b.describe()}-{len(kw)}" for b, kw in FAST_BOARDS])
def test_small_boards_are_answered_by_the_fast_attempt(cold, monkeypatch, board, kw):
    # which route answers, not how fast: on a busy test machine the attempt can need more than
    # its default cap, FAST_SECONDS, and the pipeline then rightly goes on to the constructions
    monkeypatch.setattr(policy, "FAST_SECONDS", 30.0)
    v = decide(board, time_limit=60, **kw)
    assert v.answer == "yes" and v.route.endswith("fast:extend-rotate") and v.engine == "extend-rotate"
    assert v.tour.check() is None and verify_certificate(v.certificate)[0] is not None
    assert v.tour.closed == kw.get("closed", True)
    for key in ("start", "end"):
        if key in kw:
            assert getattr(v.tour, key) == kw[key]
    names = [s.name for s in v.stages]
    assert names[-1] == "extend-rotate" and not {"cpsat", "backtrack", "frame", "blocks"} & set(names)


def _fast_fails(monkeypatch):
    """Inject a fast attempt that finds nothing; returns the list of requests it saw."""
    from kt_formal.engines import rotate

    seen = []

    def attempt(request, **kw):
        seen.append(request)
        return None, {"covered": 0, "squares": request.board.n_squares, "walks": 1, "timed_out": False}

    monkeypatch.setattr(rotate, "attempt", attempt)
    return seen


@pytest.mark.parametrize("board,kw", [
    (Board(8, 8), {}),                                      # portfolio
    (Board.from_spec(60, 60, ["3,25,10x10", "30,20,10x12"]), {}),  # two large holes: the frame construction
    (Board(3, 7), {"closed": False, "end": (1, 3)}),        # no, by the SAT route's DRUP proof
], ids=["8x8", "60x60-hole", "3x7-open-to-d2"])
def test_when_the_fast_attempt_fails_the_pipeline_runs_as_before(cold, monkeypatch, board, kw):
    monkeypatch.setattr(policy, "BACKGROUND_BACKTRACK", False)  # one route, no race
    monkeypatch.setattr(policy, "FAST_FIRST", False)
    before = decide(board, time_limit=60, **kw)
    monkeypatch.setattr(policy, "FAST_FIRST", True)
    seen = _fast_fails(monkeypatch)
    v = decide(board, time_limit=60, **kw)
    assert len(seen) == 1 and seen[0].board == board
    assert v.answer == before.answer and v.answer != "unknown"
    names = [s.name for s in v.stages]
    assert "extend-rotate" in names
    fast = v.stages[names.index("extend-rotate")]
    assert fast.outcome.startswith("extension and rotation ran out of its rotations")
    rest = [n for n in names if n != "extend-rotate"]
    if not board.has_holes and "theorem" in rest:
        assert names.index("extend-rotate") == 2  # after the theorem
    else:  # the quick proofs, the fast attempt, then the proof searches it went ahead of
        assert names[:3] == ["proofs", "extend-rotate", "proofs"]
        assert v.stages[0].outcome.startswith("none of the quick ones applies")
        rest = rest[1:]
    assert rest[:len(rest) - 2] == [s.name for s in before.stages][:len(rest) - 2]  # the portfolio may race
    if v.answer == "yes":
        assert v.engine != "extend-rotate" and v.tour.check() is None
    else:
        # the same route up to which engine of the portfolio reported first
        assert v.route.split(":")[0] == before.route.split(":")[0]
        assert v.route.rsplit("+", 1)[1] == before.route.rsplit("+", 1)[1] and v.certificate["kind"] == "drup"
        assert verify_certificate(v.certificate)[0] is not None  # the kernel checks the DRUP proof


def test_no_answers_from_proofs_never_reach_the_fast_attempt(cold, monkeypatch):
    seen = _fast_fails(monkeypatch)
    assert decide(Board(5, 5)).route == "proof:colour"
    assert decide(Board(3, 8)).answer == "no"
    assert decide(Board.from_spec(30, 30, ["2,2,3x3"])).route == "proof:colour"
    assert seen == []


def test_a_wrong_tour_from_the_fast_attempt_is_caught_by_the_kernel(cold, monkeypatch):
    from kt_formal.engines import rotate

    board = Board(8, 8)
    monkeypatch.setattr(rotate, "attempt", lambda request, **kw: (np.arange(64), {"covered": 64}))
    with pytest.raises(RuntimeError, match="invalid tour"):
        decide(board)


def test_fast_attempt_limits(cold, monkeypatch):
    """Only small boards, only the pipeline (a named engine runs alone), within its share of the budget."""
    from kt_formal.engines import rotate

    limits = []
    real = rotate.ExtendRotate.search

    def spy(self, question, own, options):
        limits.append(own.time_limit)
        return real(self, question, own, options)

    monkeypatch.setattr(rotate.ExtendRotate, "search", spy)
    decide(Board(8, 8), time_limit=1.0)
    decide(Board(8, 8), time_limit=None)
    assert limits == [pytest.approx(0.1, abs=0.01), pytest.approx(policy.FAST_SECONDS, abs=0.01)]
    decide(Board(6, 6), engine="cpsat")
    decide(Board(40, 42))  # divide and conquer builds it
    monkeypatch.setattr(policy, "FAST_MAX_SQUARES", 63)
    decide(Board(8, 8))
    assert len(limits) == 2


def test_with_the_compiled_search_loaded_only_tiny_boards_get_the_fast_attempt(monkeypatch):
    """In a process that has the compiled search already (faster above a few hundred squares)."""
    seen = _fast_fails(monkeypatch)
    monkeypatch.setattr(policy, "kernels_loaded", lambda: True)
    assert decide(Board.from_spec(40, 40, ["4,2,29x4"])).answer == "yes"  # 4, 7, 2, 34: not the margin theorem's
    assert seen == []
    decide(Board(8, 8))
    assert len(seen) == 1
    monkeypatch.setattr(policy, "kernels_loaded", lambda: False)
    decide(Board.from_spec(40, 40, ["4,2,29x4"]))
    assert len(seen) == 2


def test_the_kernels_loaded_test_follows_the_process():
    from kt_formal.question import Question

    run_engine("backtrack", Question(Board(6, 6)))
    assert policy.kernels_loaded()


# ---------------------------------------------------------------------- memory of the searches
def test_a_search_that_would_not_fit_in_memory_is_refused_before_it_starts(monkeypatch):
    """A path search holds about 320 bytes a square (on 10^8 squares, some 30 GB): with
    too little memory it is refused with the reason (exit 2 on the command line), and
    in the portfolio it is noted as not run instead of taking the machine's memory."""
    from kt_formal import memory
    from kt_formal.exceptions import ResourceLimit, exit_code_of
    from kt_formal.question import Limits, Question
    from kt_formal.solve.portfolio import Portfolio

    board = Board(20, 20, holes=[(3, 3), (7, 8)])
    assert find_tour(board, engine="backtrack", time_limit=30).status is Status.FOUND
    monkeypatch.setattr(memory, "available_memory", lambda: 100_000)  # 20 x 20 x 320 > 80 % of it
    for engine in ("backtrack", "dfs", "exhaustive"):
        with pytest.raises(ResourceLimit, match=rf"a {engine} search of a board of 398 squares \(20x20 minus 2 squares\) needs about 124 KiB; at most 78 KiB of memory may be used \(80% of the 98 KiB available") as exc:
            find_tour(board, engine=engine, time_limit=30)
        assert exit_code_of(exc.value) == 2
    pf = Portfolio(Question(board), Limits(30, threads=1))
    pf.start("backtrack", 30)
    pf.wait(30)
    stages = []
    assert pf.finish(stages, ["backtrack"]) is None
    assert stages[0].name == "backtrack" and stages[0].outcome.startswith("not run: a backtrack search"), stages


def test_the_constructions_take_the_time_a_search_could_not_use(monkeypatch):
    from kt_formal import memory

    small, big = Board(20, 20), Board(600, 600)  # 360,000 squares: above the background search
    assert big.n_squares > policy.BACKGROUND_MAX_SQUARES
    monkeypatch.setattr(memory, "available_memory", lambda: 1 << 40)
    assert (policy.construction_share(small), policy.construction_share(big)) == (0.6, 0.8)
    monkeypatch.setattr(memory, "available_memory", lambda: 100 << 20)  # 100 MiB: no search of 600x600 fits
    assert (policy.construction_share(small), policy.construction_share(big)) == (0.6, 0.97)


def test_a_small_board_is_answered_in_the_calling_thread_first(monkeypatch):
    """One capped walk of backtracking runs before the portfolio starts a thread; when it
    does not answer, backtracking starts in its thread as before, uncapped."""
    from kt_formal.solve.portfolio import Portfolio

    started = []
    real_start = Portfolio.start
    monkeypatch.setattr(Portfolio, "start", lambda self, name, *a, **k: (started.append(name), real_start(self, name, *a, **k)))
    monkeypatch.setattr(policy, "FAST_FIRST", False)  # as in a process with the searches loaded
    board = Board(40, 40, holes=[(1, 1), (2, 3)])
    v = decide(board, time_limit=30)
    assert v.answer == "yes" and v.route == "portfolio:backtrack" and started == []
    assert any(s.name == "backtrack" and s.outcome == "found a tour" for s in v.stages)
    monkeypatch.setattr(policy, "BACKGROUND_NODES_PER_SQUARE", 0)  # a cap of 1,000 nodes: too few for 1,598 squares
    v = decide(board, time_limit=30)
    assert v.answer == "yes" and started[0] == "backtrack" and v.tour.check() is None
