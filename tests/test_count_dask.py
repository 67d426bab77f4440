"""The frontier counter on a Dask LocalCluster of 2 workers gives the single-machine counts."""

from __future__ import annotations

import random

import numpy as np
import pytest

from kt_formal.question import Question
from kt_formal.board import Board
from kt_formal.counting.frontier_jit import count_request_jit

pytest.importorskip("dask.distributed")

from kt_formal.counting.frontier_dask import DaskCluster, count_request_dask, merge_parts  # noqa: E402


@pytest.fixture(scope="module")
def cluster():
    with DaskCluster("local", 2) as c:
        yield c


def _limbs(v: int, L: int):
    return [(v >> (62 * j)) & ((1 << 62) - 1) for j in range(L)]


def _value(row) -> int:
    return sum(int(x) << (62 * j) for j, x in enumerate(row))


def test_merge_parts_adds_equal_keys_exactly():
    """Pieces of 1 and 2 limbs, counts near the top of a limb: the sums carry exactly."""
    rng = random.Random(7)
    want = {}
    pieces = []
    for L in (1, 2, 2, 1):
        keys = rng.sample(range(40), 25)
        vals = [rng.choice((1, 2**62 - 1, 2**61 + 5, rng.randrange(2**62 * (2**62 if L == 2 else 1))))
                for _ in keys]
        for k, v in zip(keys, vals):
            want[k] = want.get(k, 0) + v
        pieces.append((np.array(keys, np.int64), np.array([_limbs(v, L) for v in vals], np.int64)))
    keys, counts = merge_parts(*pieces)
    assert sorted(keys.tolist()) == sorted(want) and len(set(keys.tolist())) == len(keys)
    assert {int(k): _value(row) for k, row in zip(keys, counts)} == want
    assert merge_parts()[0].shape == (0,)


@pytest.mark.parametrize("rows, cols, closed, start, end, holes", [
    pytest.param(5, 6, True, None, None, None, marks=pytest.mark.slow),  # one Dask count by default (open)
    (5, 6, False, None, None, None),
    pytest.param(4, 9, False, (0, 0), None, None, marks=pytest.mark.slow),
    pytest.param(5, 5, False, (0, 0), (4, 4), None, marks=pytest.mark.slow),
    pytest.param(6, 6, True, None, None, [(2, 2)], marks=pytest.mark.slow),
    pytest.param(3, 40, True, None, None, None, marks=pytest.mark.slow),  # counts past 64 bits
])
def test_dask_counts_equal_the_single_machine_counts(cluster, rows, cols, closed, start, end, holes):
    b = Board(rows, cols, holes=holes)
    want = count_request_jit(Question(b, closed, start, end))
    got = count_request_dask(Question(b, closed, start, end), parts=2, cluster=cluster)
    assert got.count == want.count
    assert got.directed == want.directed
    assert got.states_per_column == want.states_per_column  # the same states, parted


@pytest.mark.slow
def test_dask_with_more_parts_than_workers(cluster):
    b = Board(5, 6)
    assert count_request_dask(Question(b, False), parts=5, cluster=cluster).count == count_request_jit(Question(b, False)).count


@pytest.mark.slow
def test_count_command_dask_local(cli):
    r = cli("count", "5", "6", "--method", "frontier", "--dask", "local", "--workers", "2")
    assert r.code == 0 and r.out.startswith("8 closed tours of the 5x6 board")


@pytest.mark.parametrize("args, match", [
    pytest.param(["5", "6", "--method", "frontier", "--dask", "tcp://127.0.0.1:9"], "cannot reach the scheduler",
                 marks=pytest.mark.slow),
    (["--sequence", "5", "5..6", "--dask", "local"], "one board at a time"),
    (["5", "6", "--method", "frontier", "--dask", "local", "--checkpoint", "x"], "not taken with --dask"),
    (["5", "6", "--dask", "local", "--workers", "0"], "number"),
])
def test_count_command_dask_bad_input(cli, args, match):
    r = cli("count", *args)
    assert r.code == 2 and match in r.err and "Traceback" not in r.err


def test_dask_stops_where_the_states_run_out(cluster):
    """Two whole columns removed: the Dask counter stops at the gap as the single machine does."""
    b = Board(4, 20, holes=[(r, c) for r in range(4) for c in (6, 7)])
    got = count_request_dask(Question(b, False), parts=2, cluster=cluster)
    assert (got.count, got.emptied) == (0, count_request_jit(Question(b, False)).emptied) and got.emptied
