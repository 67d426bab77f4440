"""Where the frontier counter's hash table puts a state: spread evenly even when the states
come in the order of the last step's table and differ from it by a constant.

A step reads its states in the order the previous step's table left them (by home slot),
and many successors differ from their state by one digit: key + d. With a product by one
odd constant as the hash (Fibonacci hashing), h(key + d) = h(key) + h(d), so the first half
of a step's states sent their successors into one half of the table: twice the fill there,
runs of slots a million long at 86 % of the table (8 x 10's last column), inserts at a few
thousand a second. The keys are now mixed first (MurmurHash3's finaliser)."""

from __future__ import annotations

import numpy as np
import pytest

from kt_formal.counting.frontier_hash import HASH_SPACE, home_slot, pass_hash
from kt_formal.engines.compiled import cached_njit

W = 17  # eight across: positions in base 11


@cached_njit
def _homes(keys, logT, capp):  # pragma: no cover - compiled
    out = np.empty(keys.shape[0], np.int64)
    for i in range(keys.shape[0]):
        p, g = home_slot(keys[i], logT, capp)
        out[i] = p * capp + g
    return out


@cached_njit
def _passes(keys):  # pragma: no cover - compiled
    out = np.empty(keys.shape[0], np.int64)
    for i in range(keys.shape[0]):
        out[i] = pass_hash(keys[i])
    return out


def _keys(n, seed=1):
    """Keys of the shape of eight-across states in base 11: 17 digits (the first a
    finished square), times 3."""
    rng = np.random.default_rng(seed)
    dig = rng.integers(0, 8, (n, W))
    dig[:, 0] = 1
    return (dig * (11 ** np.arange(W, dtype=np.int64))).sum(1) * 3


def _spread(values, top, bins=64):
    """(fullest, emptiest) bin against the mean, ``values`` in ``0..top - 1``."""
    c = np.bincount(values * bins // top, minlength=bins)
    return c.max() / c.mean(), c.min() / c.mean()


@pytest.mark.parametrize("change", ["one digit", "top digit", "shift down", "shift up"])
def test_successors_of_half_a_step_in_table_order_fill_the_whole_table(change):
    logT, capp = 1, 150_001
    keys = _keys(200_000)
    first_half = keys[np.argsort(_homes(keys, logT, capp), kind="stable")][:100_000]
    y = first_half // 3
    succ = {"one digit": y + 11 ** 5, "top digit": y + 2 * 11 ** 16,
            "shift down": y // 11 + 3 * 11 ** 16, "shift up": (y * 11) % 11 ** W + 1}[change] * 3
    hi, lo = _spread(_homes(succ, logT, capp), 2 * capp)
    assert hi < 1.25 and lo > 0.75, (hi, lo)  # the product hash: 2.06 and 0.0


def test_the_pass_hash_is_even_and_apart_from_the_home_slot():
    logT, capp = 1, 150_001
    keys = _keys(200_000, seed=2)
    h2 = _passes(keys)
    assert h2.min() >= 0 and h2.max() < HASH_SPACE
    hi, lo = _spread(h2, HASH_SPACE)
    assert hi < 1.25 and lo > 0.75, (hi, lo)
    # the keys of one pass (a quarter of the range) still spread over the whole table
    quarter = keys[h2 < HASH_SPACE // 4]
    hi, lo = _spread(_homes(quarter, logT, capp), 2 * capp, bins=32)
    assert hi < 1.3 and lo > 0.7, (hi, lo)
