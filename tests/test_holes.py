"""Groups of touching holes from row runs: the same groups as scipy's image labelling."""

from __future__ import annotations

import numpy as np
import pytest

from kt_formal.combine.holes import hole_groups, hole_runs
from kt_formal.combine.repair_plan import hole_groups as labelled_groups


def test_runs_cover_every_hole_once():
    rng = np.random.default_rng(0)
    m = rng.random((17, 23)) < 0.4
    row, first, last = hole_runs(m)
    back = np.zeros_like(m)
    for r, a, b in zip(row, first, last):
        assert not back[r, a:b + 1].any()
        back[r, a:b + 1] = True
    assert np.array_equal(back, m)
    assert int((last - first + 1).sum()) == int(m.sum())


@pytest.mark.parametrize("seed", range(40))
def test_the_same_groups_as_image_labelling(seed):
    rng = np.random.default_rng(seed)
    rows, cols = (int(x) for x in rng.integers(1, 30, 2))
    m = rng.random((rows, cols)) < rng.random() * 0.7
    assert sorted(hole_groups(m).tolist()) == sorted(labelled_groups(m).tolist())


def test_corners_touch_and_gaps_do_not():
    m = np.zeros((5, 7), dtype=bool)
    m[0, 0:2] = True
    m[1, 2] = True        # touches the run above at its corner
    m[3, 4:7] = True      # a row apart: a group of its own
    assert sorted(hole_groups(m).tolist()) == [3, 3]
    assert len(hole_groups(np.zeros((3, 3), dtype=bool))) == 0
