"""Compiled kernels cached on disk, with a graceful fallback and a one-line compile note.

numba compiles a kernel on its first call (seconds); with ``cache=True`` it keeps the
machine code next to the source (``__pycache__``), else in ``NUMBA_CACHE_DIR`` or the
user's cache folder, so later processes load it in a fraction of a second.
:func:`cached_njit` asks for that cache and, where no cache folder is writable (numba
then refuses ``cache=True``), compiles in every process instead of failing.
:func:`announce_compile` prints one line on standard error before the first compile.

>>> @cached_njit
... def double(x):
...     return 2 * x
>>> double(21)
42
>>> kernels_compiled(double)
True
"""

from __future__ import annotations

import os
import sys

from numba import njit as _numba_njit

__all__ = ["cached_njit", "kernels_compiled", "announce_compile"]


def cached_njit(fn=None, **options):
    """``numba.njit(cache=True, **options)``, or without the disk cache when none is writable.

    Use as ``@cached_njit`` or ``@cached_njit(nogil=True)``.
    """
    def wrap(f):
        try:
            return _numba_njit(cache=True, **options)(f)
        except RuntimeError:  # "cannot cache function ...: no locator available"
            return _numba_njit(**options)(f) if options else _numba_njit(f)

    return wrap(fn) if fn is not None else wrap


def kernels_compiled(kernel) -> bool:
    """Whether ``kernel`` runs without compiling: loaded in this process, or on disk.

    The disk test asks numba's own index of the function, which is empty when missing
    or stale (numba compares a stamp of the source file, not only its time: a reinstall
    of the same source keeps the cache); when that is not available, the index file
    newer than its source file.
    """
    if kernel.signatures:
        return True
    cache_file = getattr(getattr(kernel, "_cache", None), "_cache_file", None)
    index = getattr(cache_file, "_index_path", None)
    if index is None:
        return False
    try:
        return bool(cache_file._load_index())
    except Exception:  # numba's private API changed: fall back to the file times
        pass
    try:
        return os.stat(index).st_mtime >= os.stat(kernel.py_func.__code__.co_filename).st_mtime
    except OSError:
        return False


_ANNOUNCED = False


def announce_compile(kernel) -> None:
    """One line on standard error the first time a kernel must be compiled (once a process)."""
    global _ANNOUNCED
    if _ANNOUNCED or kernels_compiled(kernel):
        return
    _ANNOUNCED = True
    print("kt-formal: compiling the search kernels once, up to about 10 s (cached on disk for later runs)",
          file=sys.stderr, flush=True)
