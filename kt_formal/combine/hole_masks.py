"""Hole masks for tests and benchmarks: random rectangles, scattered single squares (colour-balanced)."""

from __future__ import annotations

import numpy as np

__all__ = ["random_rectangles", "scattered_squares"]


def random_rectangles(rows: int, cols: int, count: int, max_side: int, seed: int = 0,
                      margin: int = 0, gap: int = 1) -> np.ndarray:
    """A hole mask of ``count`` random rectangles with sides 1..``max_side`` (seeded).

    The rectangles have even area (so as many dark as light squares), keep ``margin``
    squares from the edges and ``gap`` squares from each other (a rectangle that does
    not fit is drawn again, up to 100 times): the colour count never rules a closed tour
    out by itself.

    >>> m = random_rectangles(40, 40, 3, 6, seed=1)
    >>> m.shape, int(m.sum()) % 2
    ((40, 40), 0)
    """
    rng = np.random.default_rng(seed)
    mask = np.zeros((rows, cols), dtype=bool)
    placed = 0
    for _ in range(100 * count):
        if placed == count:
            break
        h = int(rng.integers(1, max_side + 1))
        w = int(rng.integers(1, max_side + 1))
        if h * w % 2:
            if w < max_side:
                w += 1
            elif h > 1:
                h -= 1
            else:
                w -= 1
        if h < 1 or w < 1 or h > rows - 2 * margin or w > cols - 2 * margin:
            continue
        r = int(rng.integers(margin, rows - margin - h + 1))
        c = int(rng.integers(margin, cols - margin - w + 1))
        if mask[max(0, r - gap):r + h + gap, max(0, c - gap):c + w + gap].any():
            continue
        mask[r:r + h, c:c + w] = True
        placed += 1
    return mask


def scattered_squares(rows: int, cols: int, count: int, seed: int = 0, margin: int = 3) -> np.ndarray:
    """A hole mask of ``count`` random single squares, colour-balanced, ``margin`` from the edges.

    Half the squares are dark and half light (``count`` even), so the colour count
    allows a closed tour.

    >>> m = scattered_squares(20, 20, 6, seed=2)
    >>> int(m.sum()), int((m & (np.add.outer(np.arange(20), np.arange(20)) % 2 == 1)).sum())
    (6, 3)
    """
    rng = np.random.default_rng(seed)
    mask = np.zeros((rows, cols), dtype=bool)
    want = [count // 2, count - count // 2]  # light, dark
    while sum(want) > 0:
        r = int(rng.integers(margin, rows - margin))
        c = int(rng.integers(margin, cols - margin))
        k = (r + c) % 2
        if not mask[r, c] and want[k] > 0:
            mask[r, c] = True
            want[k] -= 1
    return mask
