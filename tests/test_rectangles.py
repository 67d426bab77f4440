"""Every rectangle up to 40 x 40, through the public API: a verified tour exactly when one exists.

The theorems are written out here again, independently of the engines:
Schwenk (1991) for closed tours; Cull & De Curtins (1978) / Conrad et al. (1994) for open ones.
"""

import pytest

from kt_formal.board import Board
from kt_formal.solve import Status, find_tour


def closed_exists(m, n):
    m, n = sorted((m, n))
    if m % 2 and n % 2:
        return False
    if m in (1, 2, 4):
        return False
    return not (m == 3 and n in (4, 6, 8))


def open_exists(m, n):
    m, n = sorted((m, n))
    return (m, n) == (1, 1) or (m, n) == (3, 4) or (m == 3 and n >= 7) or (m == 4 and n >= 5) or m >= 5


SIZES = [(m, n) for m in range(1, 41) for n in range(m, 41)]


@pytest.mark.slow
@pytest.mark.parametrize("closed", [True, False], ids=["closed", "open"])
def test_every_rectangle_up_to_40(closed):
    exists = closed_exists if closed else open_exists
    wrong = []
    for m, n in SIZES:
        result = find_tour(Board(m, n), closed=closed)  # engine "auto"
        if exists(m, n):
            ok = (result.status is Status.FOUND and result.tour.closed == closed
                  and result.tour.check() is None)
        else:
            ok = result.status is Status.IMPOSSIBLE and result.tour is None and result.message
        if not ok:
            wrong.append((m, n, result.status.value, result.message))
    assert not wrong, wrong[:10]


@pytest.mark.parametrize("m,n,closed", [
    (6, 1000, True), (1000, 7, True), (3, 5000, True), (5000, 3, False), (4, 3001, False),
    (5, 2001, False), (97, 103, False), (201, 300, True), (7, 9999, False), (11, 4000, True),
])
def test_larger_and_very_unequal(m, n, closed):
    result = find_tour(Board(m, n), closed=closed)
    assert result.status is Status.FOUND
    assert result.tour.check() is None and len(result.tour) == m * n
