"""The squares of a board as the sweep sees them, computed when asked rather than listed.

A sweep numbers square ``(row, col)`` of its short side ``k`` as ``col * k + row``. What it
asks of square ``i`` (is it live, how many live squares come after it, which later squares
share a move with it, the colour balance of the squares still to come) used to be lists of
every square, made before the count began: a pass of Python over 7 x 10^8 squares takes
minutes and gigabytes before a time limit can stop it. Here each answer comes from the
board's holes alone (a sorted array and a set), so laying out a board costs its holes, not
its squares, and the time limit governs the rest.
"""

from __future__ import annotations

from bisect import bisect_left
from functools import lru_cache

import numpy as np

__all__ = ["square_colour", "dead_indices", "LiveSquares", "LiveAfter", "LaterMoves", "FutureBalance"]

#: The moves to squares later in the sweep: (row change, column change).
FORWARD = ((-1, 2), (1, 2), (-2, 1), (2, 1))


def dead_indices(board, k: int, transpose: bool) -> list:
    """The sweep indices of the board's holes, ascending."""
    if not board.has_holes:
        return []
    mask = board.hole_mask.T if transpose else board.hole_mask  # (k, n): row r, column c
    r, c = np.nonzero(mask)
    return np.sort(c.astype(np.int64) * k + r.astype(np.int64)).tolist()


def _colour_prefix(t: int, k: int) -> int:
    """The sum of the colours (+1 light: row + column even, -1 dark) of squares 0 .. t - 1 of
    the full rectangle: whole columns sum to +-1 when k is odd and to 0 when it is even,
    alternating, and the first m squares of a column to +-1 when m is odd."""
    c, m = divmod(t, k)
    whole = (k % 2) * (c % 2)
    part = (m % 2) * (1 if c % 2 == 0 else -1)
    return whole + part


def square_colour(j: int, k: int) -> int:
    """+1 for a light square of the sweep (row + column even), -1 for a dark one."""
    return 1 if (j % k + j // k) % 2 == 0 else -1


class LiveSquares:
    """``live[i]``: whether sweep square ``i`` (0 <= i < N) is on the board and not a hole."""

    def __init__(self, N: int, dead: list):
        self.N = N
        self.dead = frozenset(dead)

    def __len__(self) -> int:
        return self.N

    def __getitem__(self, i: int) -> bool:
        if not 0 <= i < self.N:
            raise IndexError(f"square {i} is not on the sweep's board of {self.N} squares")
        return i not in self.dead

    def count(self) -> int:
        return self.N - len(self.dead)


class LiveAfter:
    """``live_after[i]``: the live squares from ``i`` on (0 <= i <= N)."""

    def __init__(self, N: int, dead: list):
        self.N, self._dead = N, dead

    def __getitem__(self, i: int) -> int:
        if not 0 <= i <= self.N:
            raise IndexError(i)
        return (self.N - i) - (len(self._dead) - bisect_left(self._dead, i))


class LaterMoves:
    """``later[j]``: the live squares after ``j`` that share an allowed move with it (the
    sweep asks of the squares near its window many times a step: the recent answers are kept)."""

    def __init__(self, k: int, n: int, live: LiveSquares, forbidden: set):
        self.k, self.n, self.live, self.forbidden = k, n, live, forbidden
        self._recent = lru_cache(maxsize=8 * k + 64)(self._moves)

    def __getitem__(self, j: int) -> list:
        return self._recent(j)

    def _moves(self, j: int) -> list:
        if not self.live[j]:
            return []
        k, out = self.k, []
        rj, cj = j % k, j // k
        for dr, dc in FORWARD:
            rr, cc = rj + dr, cj + dc
            if 0 <= rr < k and cc < self.n:
                t = cc * k + rr
                if self.live[t] and frozenset((j, t)) not in self.forbidden:
                    out.append(t)
        return out


class FutureBalance:
    """``future_balance[i]``: the colour balance of the moves the live squares from ``i`` on
    will take (each square's colour, +1 or -1, twice, once for a fixed end)."""

    def __init__(self, k: int, N: int, dead: list, ends: set, live: LiveSquares):
        self.k, self.N = k, N
        self._dead = dead
        # the colours of the holes before each of them, to take from the rectangle's
        self._dead_prefix = [0]
        for d in self._dead:
            self._dead_prefix.append(self._dead_prefix[-1] + square_colour(d, k))
        self._ends = sorted(e for e in ends if 0 <= e < N and live[e])

    def __getitem__(self, i: int) -> int:
        if not 0 <= i <= self.N:
            raise IndexError(i)
        k = self.k
        rect = _colour_prefix(self.N, k) - _colour_prefix(i, k)
        at = bisect_left(self._dead, i)
        holes = self._dead_prefix[-1] - self._dead_prefix[at]
        ends = sum(square_colour(e, k) for e in self._ends if e >= i)
        return 2 * (rect - holes) - ends
