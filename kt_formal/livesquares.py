"""Squares of a board without an array of the whole board.

A board that is mostly hole (a frame two squares wide round a 20000 x 20000 board: 160,000
squares of 4 x 10^8) is kept as the sorted flat indices ``row * cols + col`` of its
squares; :func:`rect_squares` lists them from the hole rectangles a band of rows at a time,
and :func:`square_degrees` counts their knight moves. On a board without holes the degree
of a square depends only on how near (up to 2) it lies to each side, which
:func:`plain_low_squares` uses to name the first squares of low degree of a 1 x 10^9 strip
without looking at the others.

>>> rect_squares(4, 4, [(1, 1, 2, 2)], [], most=100).tolist()
[0, 1, 2, 3, 4, 7, 8, 11, 12, 13, 14, 15]
>>> plain_low_squares(2, 10**9, 1, 3)
[((0, 0), 1), ((0, 1), 1), ((0, 999999998), 1)]
"""

from __future__ import annotations

import numpy as np

from kt_formal.kernel.geometry import KNIGHT_MOVES

__all__ = ["rect_squares", "square_degrees", "plain_low_squares", "plain_degree"]


def _union(intervals: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Half-open intervals merged, in order."""
    out: list[list[int]] = []
    for lo, hi in sorted(intervals):
        if out and lo <= out[-1][1]:
            out[-1][1] = max(out[-1][1], hi)
        else:
            out.append([lo, hi])
    return [(a, b) for a, b in out]


def rect_squares(rows: int, cols: int, rects, squares, most: int) -> np.ndarray | None:
    """Sorted flat indices of the squares left by hole rectangles ``(r, c, h, w)`` and hole
    squares ``(r, c)``, or None when there are more than ``most``.

    Rows are taken in bands over which the holes do not change (at most two a rectangle),
    so the work is the number of squares left plus the square of the number of holes given.
    """
    rects = list(rects) + [(r, c, 1, 1) for r, c in squares]
    cuts = sorted({0, rows} | {r for r, *_ in rects} | {r + h for r, _, h, _ in rects})
    bands, total = [], 0
    for a, b in zip(cuts, cuts[1:]):
        covered = _union([(c, c + w) for r, c, h, w in rects if r <= a < r + h])
        free, at = [], 0
        for lo, hi in covered + [(cols, cols)]:
            if lo > at:
                free.append(np.arange(at, lo, dtype=np.int64))
            at = max(at, hi)
        width = sum(len(f) for f in free)
        total += (b - a) * width
        if total > most:
            return None
        if width:
            bands.append((a, b, np.concatenate(free)))
    parts = [(np.arange(a, b, dtype=np.int64)[:, None] * cols + live[None, :]).ravel() for a, b, live in bands]
    return np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)


def square_degrees(rows: int, cols: int, live: np.ndarray) -> np.ndarray:
    """Knight moves from each square of ``live`` (sorted flat indices) to squares of ``live``."""
    r, c = np.divmod(live, cols)
    deg = np.zeros(len(live), dtype=np.int16)
    for dr, dc in KNIGHT_MOVES:
        r2, c2 = r + dr, c + dc
        on = (r2 >= 0) & (r2 < rows) & (c2 >= 0) & (c2 < cols)
        target = r2[on] * cols + c2[on]
        at = np.minimum(np.searchsorted(live, target), len(live) - 1)
        deg[np.flatnonzero(on)[live[at] == target]] += 1
    return deg


def plain_degree(rows: int, cols: int, r: int, c: int) -> int:
    """Knight moves from ``(r, c)`` on a rows x cols board without holes."""
    return sum(1 for dr, dc in KNIGHT_MOVES if 0 <= r + dr < rows and 0 <= c + dc < cols)


def _spans(n: int) -> list[tuple[int, int]]:
    """``[0, n)`` cut where the distance to an end (up to 2) changes: within a span every
    place is as near to each end as the others, so a knight has the same moves."""
    cuts = sorted({x for x in (0, 1, 2, n - 2, n - 1, n) if 0 <= x <= n})
    return list(zip(cuts, cuts[1:]))


def plain_low_squares(rows: int, cols: int, at_most: int, first: int) -> list[tuple[tuple[int, int], int]]:
    """The first ``first`` squares in row-major order of a rows x cols board without holes with
    at most ``at_most`` knight moves, with their degrees: a few degrees computed, whatever the
    size (the squares of one span of rows and one of columns all have one degree)."""
    out: list[tuple[tuple[int, int], int]] = []
    col_spans = _spans(cols)
    for r0, r1 in _spans(rows):
        low = [(c0, c1, d) for c0, c1 in col_spans if (d := plain_degree(rows, cols, r0, c0)) <= at_most]
        if not low:
            continue
        for r in range(r0, r1):
            for c0, c1, d in low:
                for c in range(c0, min(c1, c0 + first - len(out))):
                    out.append(((r, c), d))
                if len(out) >= first:
                    return out
    return out
