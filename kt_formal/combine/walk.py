"""Successor arrays: allocating them for huge boards and walking them into a visiting order.

A successor array ``succ`` holds, for each square ``i = row * cols + col``, the square
after it (-1 on holes and at the end of an open tour). :func:`walk` follows it with a
numba loop; :func:`big_empty` allocates without touching pages until they are written.

>>> import numpy as np
>>> walk(np.array([1, 2, 0]), 0, 3).tolist()
[0, 1, 2]
"""

from __future__ import annotations

import mmap

import numpy as np

from kt_formal.engines.successors import follow

__all__ = ["estimate_bytes", "big_empty", "walk"]


def estimate_bytes(rows: int, cols: int, extra_per_square: float = 0.0) -> float:
    """Peak bytes of building, walking and checking an m x n tour (succ + order + checker)."""
    n = rows * cols
    item = 4 if n < 2**31 else 8
    return n * (2 * item + 1 + extra_per_square) + (64 << 20)


# ====================================================================== big arrays
_HUGE_BYTES = 32 << 20


def big_empty(n: int, dtype) -> np.ndarray:
    """An uninitialised 1-D array; above 32 MiB backed by an anonymous mmap with
    ``MADV_HUGEPAGE`` (transparent huge pages: far fewer page faults and TLB misses
    when a fresh process first touches hundreds of MiB).

    >>> big_empty(5, np.int32).shape
    (5,)
    """
    dtype = np.dtype(dtype)
    nbytes = int(n) * dtype.itemsize
    if nbytes < _HUGE_BYTES or not hasattr(mmap, "MADV_HUGEPAGE"):
        return np.empty(n, dtype=dtype)
    buf = mmap.mmap(-1, nbytes, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    try:
        buf.madvise(mmap.MADV_HUGEPAGE)
    except OSError:  # pragma: no cover - kernels without THP
        pass
    return np.frombuffer(buf, dtype=dtype, count=n)


# ====================================================================== walk
def walk(succ: np.ndarray, start: int, length: int) -> np.ndarray:
    """Visiting order from ``start`` following ``succ`` for ``length`` squares (compiled
    :func:`kt_formal.engines.successors.follow`, into a buffer on huge pages).

    The result is checked by the independent checker, not here.

    >>> walk(np.array([2, 0, 1]), 0, 3).tolist()
    [0, 2, 1]
    """
    return follow(succ, start, length, out=big_empty(length, succ.dtype))


# ====================================================================== assembler
