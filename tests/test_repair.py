"""The hole repair: a tour of the whole rectangle re-routed around scattered holes."""

from __future__ import annotations

import numpy as np
import pytest

from kt_formal.board import Board
from kt_formal.combine import repair
from kt_formal.combine.blocks import random_rectangles, scattered_squares
from kt_formal.combine.blocks_engine import construct
from kt_formal.decide import decide
from kt_formal.engines.base import TourRequest
from kt_formal.proofs import find_proof
from kt_formal.kernel.tourcheck import Grid, check_tour


def _kernel_ok(tour) -> None:
    """The kernel's own check of the tour against the board's live squares."""
    b = tour.board
    assert tour.check() is None
    assert check_tour(Grid(b.rows, b.cols, b.hole_mask), np.asarray(tour.order), tour.closed) is None


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
    groups = repair.clusters(mask)
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
        repair.clusters(mask)


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
        assert find_proof(board, True) is not None, "the repair failed on a board with no cheap proof"
        return
    assert find_proof(board, True) is None
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
        tour, how = construct(TourRequest(board, closed=closed, start=start), 60.0, 0, notes)
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


@pytest.mark.parametrize("rows,cols", [(96, 60), (96, 61), (100, 45)])
def test_bands_re_routed_side_by_side_give_one_checked_tour(monkeypatch, rows, cols):
    """Small bands forced: each band's tour, the splices at the cuts, the clusters left near the cuts."""
    monkeypatch.setattr(repair, "BAND_ROWS", 20)
    monkeypatch.setattr(repair, "BAND_CLUSTERS", 5)
    board = Board(rows, cols, holes=scattered_squares(rows, cols, 60, seed=rows + cols))
    cuts = repair._bands(rows, cols, 50)
    assert len(cuts) == repair.BANDS + 1 and cuts[0] == 0 and cuts[-1] == rows
    assert all(b - a >= 20 and (cols % 2 == 0 or (b - a) % 2 == 0) for a, b in zip(cuts, cuts[1:]))
    groups = repair.clusters(board.hole_mask)
    placed = [repair._band_of(g, p, cuts) for g, p in groups]
    assert -1 in placed and any(b >= 0 for b in placed)  # some wait for the joined tour
    orders = []
    for workers in (1, 2):
        stats = {}
        tour = repair.repair_tour(board, stats=stats, time_limit=120, workers=workers)
        _kernel_ok(tour)
        assert stats["bands"] == repair.BANDS and stats["clusters"] == len(groups)
        orders.append(np.asarray(tour.order))
    # the bands depend on the board, not on the workers: the same tour either way
    assert np.array_equal(orders[0], orders[1])


def test_a_cluster_is_placed_in_a_band_only_with_room_for_its_widest_window():
    cuts = [0, 50, 100]
    near = np.array([[50 - repair.REACH, 7]])
    assert repair._band_of(near, [], cuts) == -1
    inside = np.array([[50 - repair.REACH - 1, 7]])
    assert repair._band_of(inside, [], cuts) == 0
    below = np.array([[50 + repair.REACH, 3]])
    assert repair._band_of(below, [], cuts) == 1
    # a pair's corridor reaching across the cut keeps the cluster out of both bands
    assert repair._band_of(np.array([[20, 5]]), [((20, 5), (60, 5))], cuts) == -1


def test_splice_joins_two_band_cycles_into_one():
    from kt_formal.combine.divide import construct_succ
    from kt_formal.combine.walk import walk

    top, _, _ = construct_succ(10, 12)
    bottom, _, _ = construct_succ(8, 12)
    succ = np.concatenate([top, bottom + top.size]).astype(np.int64)
    pred = np.empty_like(succ)
    pred[succ] = np.arange(succ.size)
    assert repair._splice(succ, pred, 18, 12, 10)
    order = walk(succ, 0, succ.size)
    assert len(set(order.tolist())) == succ.size  # one cycle through both bands
    assert np.array_equal(pred[succ], np.arange(succ.size))
    r, c = np.divmod(order, 12)
    r2, c2 = np.roll(r, -1), np.roll(c, -1)
    assert (np.sort(np.stack([abs(r - r2), abs(c - c2)]), axis=0) == np.array([[1], [2]])).all()
