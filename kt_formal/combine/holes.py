"""Groups of touching holes, found from the runs of holes in each row.

Two holes touch when they are 8-neighbours (side or corner). The pipeline sizes its
first steps by these groups (:func:`kt_formal.pipeline.decide`); this module finds them
without an image library: each row's holes form runs (maximal intervals), and runs in
consecutive rows join when they overlap or meet at a corner. The work is linear in the
number of runs, a few per hole rectangle, whatever the board's size.

>>> import numpy as np
>>> m = np.zeros((6, 6), dtype=bool); m[0, 0] = m[1, 1] = m[4, 4] = True
>>> sorted(hole_groups(m).tolist())
[1, 2]
"""

from __future__ import annotations

import numpy as np

__all__ = ["hole_groups", "hole_runs"]


def hole_runs(holes: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The runs of holes: ``(row, first column, last column)`` arrays, in row-major order."""
    cols = holes.shape[1] if holes.ndim == 2 else 0
    idx = np.flatnonzero(holes.ravel()) if cols else np.zeros(0, dtype=np.int64)
    if len(idx) == 0:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty, empty
    r, c = np.divmod(idx, cols)
    cut = np.flatnonzero((np.diff(idx) != 1) | (np.diff(r) != 0))
    first = np.concatenate(([0], cut + 1))
    last = np.concatenate((cut, [len(idx) - 1]))
    return r[first].astype(np.int64), c[first].astype(np.int64), c[last].astype(np.int64)


def hole_groups(holes: np.ndarray) -> np.ndarray:
    """The sizes (squares) of the 8-connected groups of holes of a boolean mask."""
    row, first, last = hole_runs(np.asarray(holes, dtype=bool))
    n = len(row)
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    parent = list(range(n))

    def find(a):
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a

    starts = np.searchsorted(row, np.arange(int(row[-1]) + 2))  # first run of each row
    rl, fl, ll = row.tolist(), first.tolist(), last.tolist()
    for i in range(n):
        r = rl[i]
        # runs of the next row that reach columns first-1 .. last+1
        j, end = int(starts[r + 1]), int(starts[r + 2]) if r + 2 < len(starts) else n
        while j < end and ll[j] < fl[i] - 1:
            j += 1
        while j < end and fl[j] <= ll[i] + 1:
            a, b = find(i), find(j)
            if a != b:
                parent[a] = b
            j += 1
    roots = np.array([find(i) for i in range(n)], dtype=np.int64)
    sizes = np.bincount(roots, weights=(last - first + 1), minlength=n)
    return sizes[np.unique(roots)].astype(np.int64)
