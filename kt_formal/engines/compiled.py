"""Compiled kernels cached on disk, with a graceful fallback and a one-line compile note.

Every numba kernel of the package is made by :func:`cached_njit` (a test holds to it):
numba compiles a kernel on its first call (seconds); with ``cache=True`` it keeps the
machine code in ``NUMBA_CACHE_DIR`` when that is set, else next to the source
(``__pycache__``) or in the user's cache folder, so later processes load it in a
fraction of a second. :func:`cached_njit` asks for that cache and, where no cache
folder is writable (numba then refuses ``cache=True``), compiles in every process
instead of failing; it also lists the kernel in :data:`KERNELS` (``kt-formal warm``
checks each one is loaded). numba tells a stale cache by a hash of the kernel's own source
file, but a kernel's machine code also holds the kernels it calls, which may live in other
files: :func:`cached_njit` folds those files' hashes into the stamp (:func:`_sources`), so
editing a called kernel's file compiles its callers again. Importing this module sets numba's threading layer and
OpenMP's wait policy (:func:`kt_formal.engines.kernel_threads.prepare`) before any parallel
kernel starts numba's threads.
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

import atexit
import contextlib
import functools
import hashlib
import os
import sys
import tempfile
import threading
import time

try:
    import fcntl
except ImportError:  # pragma: no cover - not on Windows: each process compiles for itself
    fcntl = None

from numba import njit as _numba_njit

from kt_formal.engines import kernel_threads

__all__ = ["Preparation", "cached_njit", "kernel_sources", "kernels_compiled", "announce_compile", "start_compiler_without_blas", "KERNELS"]

kernel_threads.prepare()

#: Every kernel made by :func:`cached_njit` in this process, with its options: ``(kernel, options)``.
KERNELS: list = []


def cached_njit(fn=None, **options):
    """``numba.njit(cache=True, **options)``, or without the disk cache when none is writable.

    Use as ``@cached_njit`` or ``@cached_njit(nogil=True)``.
    """
    def wrap(f):
        try:
            kernel = _numba_njit(cache=True, **options)(f)
        except RuntimeError:  # "cannot cache function ...: no locator available"
            kernel = _numba_njit(**options)(f) if options else _numba_njit(f)
        _stamp_with_callees(kernel, f)
        KERNELS.append((kernel, dict(options)))
        return kernel

    return wrap(fn) if fn is not None else wrap


def kernel_sources(kernel) -> frozenset:
    """The source files a kernel's machine code comes from (its cache is stale when one changes)."""
    return getattr(kernel, "_kt_sources", frozenset())


def _global_names(code):
    """The global names ``code`` and the code nested in it read."""
    names = set(code.co_names)
    for const in code.co_consts:
        if hasattr(const, "co_names"):
            names |= _global_names(const)
    return names


def _sources(f) -> frozenset:
    """The source files whose code a kernel made of ``f`` compiles in: its own, and those of
    the kernels it calls by a global name, theirs in turn (each kernel carries its set)."""
    files = {f.__code__.co_filename}
    for name in _global_names(f.__code__):
        files |= kernel_sources(f.__globals__.get(name))
    return frozenset(files)


@functools.lru_cache(maxsize=None)
def _file_digest(path: str) -> bytes:
    try:
        with open(path, "rb") as fh:
            return hashlib.sha256(fh.read()).digest()
    except OSError:
        return b""


def _stamp_with_callees(kernel, f) -> None:
    """Record the kernel's source files and, when they are more than its own, make numba's
    stamp of its cache a hash of all of them (numba's own stamp hashes one file)."""
    try:
        kernel._kt_sources = files = _sources(f)
    except (AttributeError, TypeError):  # not a numba dispatcher (a test's stand-in)
        return
    others = sorted(files - {f.__code__.co_filename})
    cache_file = getattr(getattr(kernel, "_cache", None), "_cache_file", None)
    if not others or not hasattr(cache_file, "_source_stamp"):
        return
    h = hashlib.sha256(repr(cache_file._source_stamp).encode())
    for path in others:
        h.update(_file_digest(path))
    cache_file._source_stamp = h.digest()


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


def start_compiler_without_blas() -> None:
    """Start numba's compiler context without SciPy's linear algebra, for a process that
    runs only this package's kernels (the command line's own).

    numba imports ``scipy.linalg`` when its context starts (about a quarter of a second,
    more than loading every kernel of a count) to offer ``np.dot`` and ``np.linalg`` in
    kernels; no kernel of this package uses them. Kernels compiled later in the same
    process cannot use them either, so a library user's process is left alone. Does
    nothing when the context has started already.
    """
    if "numba.np.arraymath" in sys.modules:
        return
    from numba.core.registry import cpu_target

    name = "scipy.linalg.cython_blas"
    blocked = name not in sys.modules
    if blocked:
        sys.modules[name] = None  # numba's import of it fails at once: no BLAS for kernels
    try:
        cpu_target.target_context.refresh()
    finally:
        if blocked and sys.modules.get(name, False) is None:
            del sys.modules[name]


_ANNOUNCED = False


def announce_compile(kernels, what: str = "the search kernels", seconds: float = 5) -> bool:
    """One line on standard error the first time kernels must be compiled (once a process).

    ``kernels``: one kernel or several (the note is due when any of them is neither loaded
    nor on disk); ``seconds``: what compiling them takes, about (measured on 2 cores).
    Returns whether the note was printed now.
    """
    global _ANNOUNCED
    group = kernels if isinstance(kernels, (list, tuple)) else (kernels,)
    if _ANNOUNCED or all(kernels_compiled(k) for k in group):
        return False
    _ANNOUNCED = True
    print(f"kt-formal: compiling {what} once, about {seconds:g} s, longer on a busy machine (cached on "
          "disk for later runs; not counted in a time limit)", file=sys.stderr, flush=True)
    return True


@contextlib.contextmanager
def _compiling_alone(kernels):
    """Hold a lock file of the machine, one a group of kernels, while they compile: processes
    started together on an empty cache (a script's commands, the test workers) compile a
    group once, and the others wait and load it from the disk cache. Yields whether a kernel
    is still to compile (asked again once the lock is held: another process may have done
    it). Nothing to hold when every kernel is cached, or without ``fcntl`` (not on Windows)."""
    missing = not all(kernels_compiled(k) for k in kernels)
    if fcntl is None or not missing:
        yield missing
        return
    # the lock lives beside the first kernel's cache (numba's folder for it), so it goes
    # with that cache; else in the temporary folder
    folder = getattr(getattr(kernels[0], "_cache", None), "_cache_path", None) or tempfile.gettempdir()
    names = "\0".join(f"{k.py_func.__code__.co_filename}:{k.py_func.__qualname__}" for k in kernels)
    path = os.path.join(folder, f"kt-formal-compile-{hashlib.sha256(names.encode()).hexdigest()[:16]}.lock")
    try:
        os.makedirs(folder, exist_ok=True)
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o666)
    except OSError:  # no lock to be had: compile anyway
        yield missing
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield not all(kernels_compiled(k) for k in kernels)
    finally:
        os.close(fd)  # lets the lock go


#: The groups whose warm-up runs now, in some thread (:func:`_finish_compiles` waits for them).
_RUNNING: set = set()


@atexit.register
def _finish_compiles() -> None:
    """At exit, wait for every warm-up still running in another thread (a search the
    portfolio started and then left, its answer given by another engine): numba writes
    a kernel to the disk cache only when its compile ends, so a compile cut off at exit
    was paid for and thrown away, and the next run started it again, note and all."""
    me = threading.get_ident()
    for group in list(_RUNNING):
        if group._owner != me:
            with group._lock:  # held by the warm-up until it ends
                pass


class Preparation:
    """A group's kernels loaded (or compiled, with the note) once a process, before a clock.

    Calling it runs ``warm_up`` (each kernel once on a small case with the argument types of
    real work) the first time, announcing the compile when any of ``kernels`` is not
    cached; other threads wait for it, and the thread running it gets through at once (a
    warm-up may call what calls it); other processes compiling the same group at the same
    time wait too, then load it from the disk cache (:func:`_compiling_alone`). Returns the
    seconds it took, waiting included (0 when the kernels are ready). ``ready`` says whether
    it has run, ``compiled`` whether this process compiled (a kernel was not on disk when its
    turn came). A compile that has started ends before the process exits
    (:func:`_finish_compiles`), so it lands in the disk cache even when its thread was left.
    """

    def __init__(self, kernels, what: str, seconds: float, warm_up):
        self.kernels, self.what, self.seconds, self.warm_up = kernels, what, seconds, warm_up
        self.ready = self.compiled = False
        self._lock = threading.Lock()
        self._owner = None  # the thread running the warm-up

    def __call__(self, note: bool = True) -> float:
        if self.ready or self._owner == threading.get_ident():
            return 0.0
        t = time.perf_counter()
        with self._lock:
            if not self.ready:
                self._owner = threading.get_ident()
                _RUNNING.add(self)
                try:
                    if note:
                        announce_compile(list(self.kernels), self.what, self.seconds)
                    with _compiling_alone(list(self.kernels)) as self.compiled:
                        self.warm_up()
                    self.ready = True
                finally:
                    self._owner = None
                    _RUNNING.discard(self)
        return time.perf_counter() - t
