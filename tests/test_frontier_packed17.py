"""Closed tours eight across on packed keys (:mod:`kt_formal.counting.frontier_packed17`): the
keys, the kernel's choice, and counts equal to the pure-Python reference's and to those of the
kernel of keys in base 11."""

from __future__ import annotations

import random

import pytest

from kt_formal.question import Question
from kt_formal.board import Board
from kt_formal.counting import frontier_jit as fj
from kt_formal.counting import frontier_packed17 as p17
from kt_formal.counting.frontier_checkpoint import board_checkpointer
from kt_formal.counting.frontier import count_request, sweep_layout


def _states(rng, n):
    """``n`` random closed states of 17 places (place 0 finished or label 2, place 1 at most 3)."""
    return [[rng.choice((1, 2)), rng.randrange(4)] + [rng.randrange(10) for _ in range(15)] for _ in range(n)]


def test_keys_round_trip_and_fit_63_bits():
    rng = random.Random(17)
    states = _states(rng, 2000) + [[2, 3] + [9] * 15, [1, 0] + [0] * 15]
    keys = [p17.pack17(s) for s in states]
    assert [p17.unpack17(k) for k in keys] == states
    assert all(0 <= k < 1 << 63 for k in keys)
    assert len(set(keys)) == len({tuple(s) for s in states})  # one key a state
    assert p17.unpack17(p17.start_key(17, True)) == [1] * 17


@pytest.mark.parametrize("values", [[0, 1] + [1] * 15, [1, 4] + [1] * 15, [1] * 16, [1, 1] + [16] + [1] * 14])
def test_a_state_the_keys_cannot_hold_is_refused(values):
    with pytest.raises(ValueError, match="not a closed state of 17 places"):
        p17.pack17(values)


def test_eight_across_closed_tours_take_the_packed_kernel():
    assert fj.fill_kernel(17, True) is p17.fill_closed17
    assert fj.fill_kernel(17, False) is fj.fill_wide  # open tours keep base 11
    assert fj.fill_kernel(15, True) is fj.fill_closed16 and fj.fill_kernel(15, False) is fj.fill_open16
    assert p17.key_encoding(17, True) == "closed17"
    assert p17.key_encoding(17, False) is None and p17.key_encoding(15, True) is None


def test_a_checkpoint_of_the_other_keys_is_another_count(tmp_path):
    """Checkpoints hold keys: the same board's count on other keys has another name."""
    lay = sweep_layout(Question(Board(8, 8), True, None, None, (), ()), 0.0)
    names = {board_checkpointer(lay, True, str(tmp_path), None, True, 62, keys).key for keys in (None, "closed17")}
    assert len(names) == 2


def _holed(rng, c0, dominoes):
    """An 8x8 board with columns ``c0..7`` holed (or ``0..7-c0``, turned over) and ``dominoes``
    dominoes more: still swept eight across."""
    holes = {(r, c) for r in range(8) for c in range(c0, 8)}
    for _ in range(dominoes):
        r, c = rng.randrange(8), rng.randrange(c0 - 1)
        holes |= {(r, c), (r, c + 1)}
    if rng.random() < 0.5:
        holes = {(r, 7 - c) for r, c in holes}
    return Board(8, 8, holes=sorted(holes))


@pytest.mark.parametrize("seed", range(3))
def test_holed_boards_count_as_the_reference_counts(seed):
    """Random 8x8 boards holed down to eight by five less two dominoes, swept eight across:
    the compiled count equals the pure-Python reference's, with and without merging mirror
    images."""
    rng = random.Random(seed)
    seen = 0
    for _ in range(4):
        b = _holed(rng, 5, 2)
        got = fj.count_request_jit(Question(b), threads=1)
        lay = sweep_layout(Question(b, True, None, None, (), ()), 0.0)
        assert getattr(lay, "W", 17) == 17  # swept eight across, or answered at once
        assert got.count == count_request(Question(b)).count
        assert fj.count_request_jit(Question(b), symmetry=False).count == got.count
        seen += got.count > 0
    assert seen, "every board had no tour: the test does not test"


def test_5x8_swept_eight_across():
    """5x8's 44,202 closed tours (OEIS A383661's 5 x 8 term; docs/counts.md) on an 8x8 board
    holed to eight by five: the board looks the same upside down, so mirror images merge."""
    holed = Board(8, 8, holes=[(r, c) for r in range(8) for c in range(5, 8)])
    merged, apart = fj.count_request_jit(Question(holed)), fj.count_request_jit(Question(holed), symmetry=False)
    assert merged.count == apart.count == 44202
    assert merged.max_states < apart.max_states


def _force_base_11(monkeypatch):
    """Closed tours eight across on the keys of base 11 (the kernel, the first key and the
    checkpoints' name all follow ``key_encoding``)."""
    for module in (p17, fj):
        monkeypatch.setattr(module, "key_encoding", lambda W, closed: None)
    assert fj.fill_kernel(17, True) is fj.fill_wide


@pytest.mark.slow  # the kernel of keys in base 11: a compile of its own
def test_counts_and_states_equal_those_of_base_11_keys(monkeypatch):
    """Boards of larger counts: the packed kernel's counts and state counts are the base-11
    kernel's (which steps the same states on an array of digits)."""
    rng = random.Random(8)
    boards = [_holed(rng, 6, rng.randint(0, 2)) for _ in range(3)] + [Board(8, 8, holes=[(r, c) for r in range(8) for c in range(6, 8)])]
    packed = [fj.count_request_jit(Question(b)) for b in boards]
    _force_base_11(monkeypatch)
    wide = [fj.count_request_jit(Question(b)) for b in boards]
    assert [(p.count, p.max_states, p.states_per_column) for p in packed] == \
        [(w.count, w.max_states, w.states_per_column) for w in wide]
    assert packed[-1].count == 55488142  # 6x8 (docs/counting.md), here swept eight across
