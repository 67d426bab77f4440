"""Following successor links: the one walk from a successor array to a visiting order.

A *successor array* ``succ`` holds, for each square (or node), the next one on the tour,
-1 where there is none (a hole, an open tour's last square). :func:`follow` turns it into
the visiting order from a given start; every caller that reads a tour off successor links
(divide and conquer's assembly, CP-SAT's circuit, tour files in the ``succ`` format) uses
it. Small walks run in plain Python (nothing to compile or load); long ones in one numba
kernel, made once a process by :func:`compile_once`, a helper that also serves every other
kernel that must not load numba before it is needed.

>>> follow(np.array([2, 0, 1]), 0, 3).tolist()
[0, 2, 1]
>>> follow(np.array([1, -1, 0]), 2, 5).tolist()   # stops after the last square
[2, 0, 1]
"""

from __future__ import annotations

import threading

import numpy as np

__all__ = ["follow", "compile_once", "PYTHON_WALK_SQUARES"]

#: Walks of at most this many squares run in plain Python (no compiled code to load).
PYTHON_WALK_SQUARES = 2_000_000


class compile_once:
    """A numba kernel made by :func:`kt_formal.engines.compiled.cached_njit` the first time it is
    asked for (``kernel = maker()``): a module holding one imports neither numba nor the
    compiler until a caller needs it, and the kernel is made once a process, whichever
    thread asks first.

    >>> def twice(x):
    ...     return 2 * x
    >>> maker = compile_once(twice)
    >>> maker()(21), maker() is maker()
    (42, True)
    """

    def __init__(self, fn, **options):
        self.fn, self.options = fn, options
        self.kernel = None
        self._lock = threading.Lock()

    def __call__(self):
        if self.kernel is None:
            with self._lock:
                if self.kernel is None:
                    from kt_formal.engines.compiled import cached_njit

                    self.kernel = cached_njit(**self.options)(self.fn)
        return self.kernel


def _follow(succ, start, out):  # pragma: no cover - compiled
    cur = start
    for k in range(out.shape[0]):
        if cur < 0:
            return k
        out[k] = cur
        cur = succ[cur]
    return out.shape[0]


#: The compiled walk: ``follow_kernel()(succ, start, out)`` fills ``out`` and returns the
#: number of squares walked (fewer than ``len(out)`` when a -1 came first).
follow_kernel = compile_once(_follow, nogil=True)


def follow(succ: np.ndarray, start: int, length: int, dtype=np.int64, out: np.ndarray | None = None,
           note: bool = False) -> np.ndarray:
    """The visiting order from ``start`` along ``succ``: at most ``length`` squares, fewer
    when a -1 comes first. ``out`` (of ``length`` entries) is filled when given (a big
    caller's own buffer); ``note``: say so on standard error when the walk must be compiled.
    The order is checked by the kernel's checker, not here."""
    if length <= PYTHON_WALK_SQUARES and out is None:
        nxt = succ.tolist()
        order = []
        v = int(start)
        while v >= 0 and len(order) < length:
            order.append(v)
            v = nxt[v]
        return np.array(order, dtype=dtype)
    kernel = follow_kernel()
    if note:
        from kt_formal.engines.compiled import announce_compile

        announce_compile(kernel, "the walk along a tour", 2)
    if out is None:
        out = np.empty(length, dtype=dtype)
    n = kernel(succ, np.int64(start), out)
    return out if n == len(out) else out[:n]
