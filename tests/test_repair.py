"""The hole repair: a tour of the whole rectangle re-routed around scattered holes."""

from __future__ import annotations

import numpy as np
import pytest

from kt_formal.board import Board
from kt_formal.combine import repair, repair_plan
from kt_formal.combine.hole_masks import random_rectangles, scattered_squares
from kt_formal.solve.blocks_engine import construct
from kt_formal.api import decide
from kt_formal.question import Limits, Question
from kt_formal.proofs import find_proof
from kt_formal.kernel.shape import Shape
from kt_formal.kernel.tourcheck import check_tour


def _kernel_ok(tour) -> None:
    """The kernel's own check of the tour against the board's live squares."""
    b = tour.board
    assert tour.check() is None
    assert check_tour(Shape(b.rows, b.cols, b.holes()), np.asarray(tour.order), tour.closed) is None


def _colour_excess(holes) -> int:
    return int(sum(1 if (r + c) % 2 else -1 for r, c in holes.tolist()))


@pytest.mark.parametrize("seed", range(6))
def test_clusters_balance_and_cover_every_hole(seed):
    mask = scattered_squares(60, 50, 40, seed=seed, margin=0)
    mask |= random_rectangles(60, 50, 3, 3, seed=seed)  # touching groups too
    # keep the colours balanced: drop squares of the colour in excess
    rc = np.argwhere(mask)
    excess = _colour_excess(rc)
    for r, c in rc.tolist():
        if excess == 0:
            break
        if (excess > 0) == ((r + c) % 2 == 1):
            mask[r, c] = False
            excess += -1 if excess > 0 else 1
    groups = repair_plan.clusters(mask)
    seen = np.zeros_like(mask)
    for holes, pairs in groups:
        assert _colour_excess(holes) == 0
        assert not seen[holes[:, 0], holes[:, 1]].any()
        seen[holes[:, 0], holes[:, 1]] = True
        for p, q in pairs:  # a pair joins two groups of the cluster
            assert p != q
    assert (seen == mask).all()


def test_unbalanced_holes_are_not_repaired():
    mask = np.zeros((20, 20), dtype=bool)
    mask[3, 3] = mask[5, 5] = True  # both light
    with pytest.raises(repair.RepairNotApplicable, match="colour"):
        repair_plan.clusters(mask)


@pytest.mark.parametrize("rows,cols,count,seed", [(30, 30, 10, 0), (40, 40, 24, 1), (40, 36, 30, 2),
                                                  (25, 40, 16, 3), (36, 36, 40, 4), (40, 40, 60, 5),
                                                  (32, 40, 50, 6), (40, 40, 80, 7)])
def test_scattered_holes_give_a_checked_tour(rows, cols, count, seed):
    """A tour where one exists; where the repair fails, a proof the board has none."""
    board = Board(rows, cols, holes=scattered_squares(rows, cols, count, seed=seed, margin=0))
    stats = {}
    try:
        tour = repair.repair_tour(board, stats=stats, time_limit=60)
    except repair.RepairNotApplicable:
        assert find_proof(Question(board, closed=True)) is not None, "the repair failed on a board with no cheap proof"
        return
    assert find_proof(Question(board, closed=True)) is None
    _kernel_ok(tour)
    assert tour.closed and len(tour.order) == board.n_squares
    assert stats["clusters"] >= 1 and stats["windows"] >= stats["clusters"]


@pytest.mark.parametrize("holes", [
    [(0, 0), (0, 1)],                      # a corner and its neighbour
    [(0, 0), (29, 29), (0, 29), (29, 0)][:2] + [(0, 1), (29, 28)],  # two corners, far apart
    [(14, 14), (14, 15), (15, 14), (15, 15)],  # a 2x2 block in the middle
    [(2, 5), (4, 20), (20, 3), (27, 23), (10, 11), (11, 11)],
])
def test_edges_corners_and_groups(holes):
    rc = np.array(holes)
    assert _colour_excess(rc) == 0
    board = Board(30, 30, holes=holes)
    _kernel_ok(repair.repair_tour(board, time_limit=60))


def test_boards_the_repair_does_not_take():
    with pytest.raises(repair.RepairNotApplicable, match="no closed tour"):
        repair.repair_tour(Board(31, 31, holes=[(3, 3)]))
    with pytest.raises(repair.RepairNotApplicable, match="side below 5"):
        repair.repair_tour(Board(4, 40, holes=[(1, 1), (1, 2)]))


def test_construct_reaches_the_repair_and_cuts_open_tours():
    board = Board(64, 64, holes=scattered_squares(64, 64, 40, seed=7))
    for closed, start in ((True, None), (False, None), (False, (31, 17))):
        if start is not None and not board.is_live(*start):
            continue
        notes = []
        tour, how = construct(Question(board, closed=closed, start=start), Limits(60.0, seed=0), notes)
        assert how == "repair", notes
        assert [n for n, _, _ in notes][-1] == "repair"
        assert tour.closed == closed
        _kernel_ok(tour)
        if start is not None:
            assert tuple(tour.start) == start


def test_pipeline_answers_yes_on_scattered_holes():
    board = Board(120, 120, holes=scattered_squares(120, 120, 120, seed=3))
    v = decide(board, time_limit=60)
    assert v.answer == "yes", v.explanation
    _kernel_ok(v.tour)


@pytest.mark.slow
def test_two_hundred_square_board_with_four_hundred_holes():
    """The holes issue's family: 200 x 200 with 400 scattered single holes."""
    board = Board(200, 200, holes=scattered_squares(200, 200, 400, seed=0))
    v = decide(board, time_limit=120)
    assert v.answer == "yes", v.explanation
    _kernel_ok(v.tour)


def _colour(spots) -> int:
    return int(sum(1 if (r + c) % 2 else -1 for r, c in np.asarray(spots).reshape(-1, 2).tolist()))


@pytest.mark.parametrize("seed", range(4))
def test_plan_balances_every_window_and_removes_exactly_the_holes(seed):
    n = 160
    mask = scattered_squares(n, n, 120, seed=seed, margin=0)
    steps, n_clusters = repair.plan(mask)
    assert n_clusters == sum(1 for s in steps if mask[s.remove[:, 0], s.remove[:, 1]].any())
    removed = np.zeros_like(mask, dtype=np.int64)
    hops = 0
    for i, s in enumerate(steps):
        assert _colour(s.remove) - _colour(s.restore) == 0  # each window keeps the colours balanced
        assert all(j != i for j in s.after)
        for r, c in s.restore.tolist():  # put back only what an earlier step took out
            assert not mask[r, c]
            assert any((steps[j].remove == (r, c)).all(axis=1).any() for j in s.after)
        for p, q in s.segs:
            hops += 1
            assert abs(p[0] - q[0]) + abs(p[1] - q[1]) <= 2 * repair_plan.HOP + 16
        removed[s.remove[:, 0], s.remove[:, 1]] += 1
        removed[s.restore[:, 0], s.restore[:, 1]] -= 1
    assert (removed == mask).all()  # waypoints removed and put back once each
    assert hops > 0
    # the order "after" has no cycle: a topological order exists
    indeg = {i: len(s.after) for i, s in enumerate(steps)}
    later = {i: [] for i in indeg}
    for i, s in enumerate(steps):
        for j in s.after:
            later[j].append(i)
    ready = [i for i, d in indeg.items() if d == 0]
    seen = 0
    while ready:
        i = ready.pop()
        seen += 1
        for k in later[i]:
            indeg[k] -= 1
            if indeg[k] == 0:
                ready.append(k)
    assert seen == len(steps)


def test_a_long_pair_is_walked_in_hops():
    mask = np.zeros((30, 200), dtype=bool)
    mask[10, 10] = mask[12, 181] = True  # one light, one dark, 173 squares apart
    steps, n_clusters = repair.plan(mask)
    assert n_clusters == 2 and len(steps) == -(-173 // repair_plan.HOP)  # one window a hop
    for s in steps:
        for p, q in s.segs:
            assert abs(p[0] - q[0]) + abs(p[1] - q[1]) <= repair_plan.HOP + 4
    _kernel_ok(repair.repair_tour(Board(30, 200, holes=mask), time_limit=60))


def _depth(steps) -> int:
    """Windows one after the other at most (the longest chain of ``Step.after``)."""
    depth = {}
    for i in sorted(range(len(steps)), key=lambda i: len(steps[i].after)):
        todo = [i]
        while todo:
            j = todo[-1]
            wait = [x for x in steps[j].after if x not in depth]
            if wait:
                todo.extend(wait)
                continue
            depth[j] = 1 + max((depth[x] for x in steps[j].after), default=0)
            todo.pop()
    return max(depth.values())


def test_a_pair_across_the_board_is_walked_in_stretches_side_by_side():
    mask = np.zeros((30, 620), dtype=bool)
    mask[10, 10] = mask[12, 583] = True  # 575 squares apart: 23 waypoints, three stretches
    steps, n_clusters = repair.plan(mask)
    k = -(-575 // repair_plan.HOP) - 1
    assert n_clusters == 2 and len(steps) == 2 + k - 1  # as many windows as hops from one end
    assert all(not s.after for s in steps[:2])  # neither cluster waits for the other
    assert _depth(steps) <= repair_plan.STRETCH // 2 + 2  # was one window a hop, 24 deep
    assert sum(1 for s in steps[2:] if len(s.remove) == 2 and not len(s.restore)) == 2  # between stretches
    for s in steps:
        assert _colour(s.remove) == _colour(s.restore)
    _kernel_ok(repair.repair_tour(Board(30, 620, holes=mask), time_limit=60))


@pytest.mark.parametrize("seed,size", [(0, 8), (1, 3), (2, 1000)])
def test_windows_of_one_batch_never_share_a_square(seed, size):
    n = 150
    board = Board(n, n, holes=scattered_squares(n, n, 200, seed=seed, margin=0))
    steps, _ = repair.plan(board.hole_mask)
    done = np.zeros(len(steps), dtype=bool)
    win = np.full(n * n, -1, dtype=np.int32)
    usable = np.ones(n * n, dtype=bool)

    def squares_of(s):
        return repair.window_squares(usable, n, n, s.spots, s.segs, repair.MARGIN + 4)

    pending = list(range(len(steps)))
    batches = 0
    while pending:
        chosen, rest = repair.pick_batch(steps, pending, done, win, squares_of, size)
        assert chosen and len(chosen) <= size
        assert sorted([i for i, _ in chosen] + rest) == sorted(pending)
        assert rest == [i for i in pending if i in set(rest)]  # the order is kept
        cover = np.zeros(n * n, dtype=np.int64)
        for k, (i, sq) in enumerate(chosen):
            assert all(done[j] for j in steps[i].after)  # only steps whose predecessors are done
            assert (win[sq] == k).all()
            cover[sq] += 1
        assert cover.max() == 1  # no square in two windows of the batch
        assert ((win >= 0) == (cover > 0)).all()
        for i, sq in chosen:
            win[sq] = -1
            done[i] = True
        pending = rest
        batches += 1
    assert done.all()
    if size == 1:
        assert batches == len(steps)


def test_random_holes_batched_give_a_verified_tour_like_one_window_at_a_time():
    """Uniformly random holes (edges and corners too): batches of windows side by side."""
    n = 100
    board = Board(n, n, holes=scattered_squares(n, n, 100, seed=11, margin=0))
    assert find_proof(Question(board, closed=True)) is None
    tours = {}
    for key, kw in (("one", dict(batch=1, workers=1)), ("b1", dict(workers=1)), ("b2", dict(workers=2))):
        stats = {}
        tour = repair.repair_tour(board, stats=stats, time_limit=120, **kw)
        _kernel_ok(tour)
        tours[key] = np.asarray(tour.order)
        assert stats["done"] == stats["steps"]
        if key == "one":  # a walk after every window; a lone window's route never splits the tour
            assert stats["walks"] == stats["steps"] + 1 and stats["rejected"] == 0
        else:  # windows side by side: a walk per batch
            assert stats["walks"] - 1 <= stats["batches"] < stats["steps"]
    # the threads do not change the answer: each window is solved for the tour before its batch
    assert np.array_equal(tours["b1"], tours["b2"])


def test_the_tour_does_not_depend_on_the_machine_load(busy_cpsat):
    """Each window's budget is CP-SAT's deterministic time and the wall clock bounds only the
    whole repair: on an (emulated) machine a thousand times busier the same windows are
    solved, and the tour is the same. (With a wall-clock limit per window, windows ran out
    of time there: they were widened, or the repair gave up.)"""
    board = Board(40, 40, holes=scattered_squares(40, 40, 24, seed=3, margin=0))
    tours, stats = [], []
    for busy in (False, True):
        if busy:
            busy_cpsat()
        st = {}
        tour = repair.repair_tour(board, stats=st, time_limit=None, workers=1)
        _kernel_ok(tour)
        tours.append(np.asarray(tour.order))
        stats.append(st)
    assert np.array_equal(tours[0], tours[1])
    assert stats[0] == stats[1] and stats[0]["windows"] >= stats[0]["steps"] >= 1


@pytest.mark.slow
def test_two_hundred_square_board_with_four_hundred_random_holes():
    board = Board(200, 200, holes=scattered_squares(200, 200, 400, seed=0, margin=0))
    stats = {}
    _kernel_ok(repair.repair_tour(board, stats=stats, time_limit=300))
    assert stats["batches"] < stats["steps"]


def test_the_random_holes_script_writes_the_board_the_mask_reader_reads(tmp_path):
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "scripts" / "random_holes.py"
    spec = importlib.util.spec_from_file_location("random_holes", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    out = tmp_path / "board.txt"
    assert mod.main(["30", "24", "40", "--seed", "5", "--out", str(out)]) == 0
    board = Board.from_mask_file(out)
    assert (board.rows, board.cols, board.n_holes) == (30, 24, 40)
    assert _colour_excess(np.argwhere(board.hole_mask)) == 0
    assert (board.hole_mask == scattered_squares(30, 24, 40, seed=5, margin=0)).all()
    assert mod.main(["30", "24", "41", "--out", str(out)]) == 2  # colours cannot balance
    assert mod.main(["0", "24", "4"]) == 2


@pytest.mark.parametrize("n,chunk", [(600, 400), (601, 500), (1000, 600)])
def test_the_chunked_matching_pairs_every_point_once_near_the_exact_cost(monkeypatch, n, chunk):
    rng = np.random.default_rng(n)
    pd, pl = rng.random((n, 2)) * 400, rng.random((n, 2)) * 400
    exact = repair_plan._match(pd, pl)
    monkeypatch.setattr(repair_plan, "DENSE_MATCH", chunk)
    approx = repair_plan._match(pd, pl)
    assert sorted(approx.tolist()) == list(range(n))  # a perfect matching
    length = lambda m: np.abs(pd - pl[m]).sum()  # noqa: E731
    # no better than the exact matching, and better than pairing the colours in their order
    # along the curve (the chunks re-match that order locally)
    naive = np.empty(n, dtype=np.int64)
    naive[np.argsort(repair_plan._hilbert(pd.round()))] = np.argsort(repair_plan._hilbert(pl.round()))
    assert length(exact) <= length(approx) < length(naive)


def test_the_time_limit_ends_the_repair_with_an_honest_failure():
    board = Board(100, 100, holes=scattered_squares(100, 100, 100, seed=11, margin=0))
    stats = {}
    with pytest.raises(repair.RepairNotApplicable, match="ran out of time"):
        repair.repair_tour(board, stats=stats, time_limit=0.0)
    assert stats["done"] < stats["steps"]


def test_the_tiled_matching_pairs_every_point_and_the_fewer_waypoints_win(monkeypatch):
    """Tiles matched exactly, their leftovers in tiles twice as wide: a perfect matching;
    _match keeps whichever of it and the curve's matching needs fewer waypoints."""
    rng = np.random.default_rng(7)
    n = 900
    pd, pl = rng.random((n, 2)) * 600, rng.random((n, 2)) * 600
    monkeypatch.setattr(repair_plan, "DENSE_MATCH", 200)
    tiled = repair_plan._match_in_tiles(pd, pl)
    along = repair_plan._match_along_curve(pd, pl)
    for m in (tiled, along):
        assert sorted(m.tolist()) == list(range(n))
    steps = [repair_plan._hop_steps(np.abs(pd - pl[m]).sum(axis=1)) for m in (along, tiled)]
    chosen = repair_plan._match(pd, pl)
    assert repair_plan._hop_steps(np.abs(pd - pl[chosen]).sum(axis=1)) == min(steps)
    # inside one tile the pairs are the exact matching's: one tile for all points
    monkeypatch.setattr(repair_plan, "DENSE_MATCH", 2 * n)
    exact_cost = lambda m: ((pd - pl[m]) ** 2).sum()  # noqa: E731
    from scipy.optimize import linear_sum_assignment
    r, c = linear_sum_assignment(((pd[:, None, :] - pl[None, :, :]) ** 2).sum(axis=2))
    assert np.isclose(exact_cost(repair_plan._match_in_tiles(pd, pl)), ((pd[r] - pl[c]) ** 2).sum())
