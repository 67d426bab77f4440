"""The threads of the parallel kernels: a team that sleeps while it waits, sized by the cores free.

numba runs a ``prange`` loop on a team of threads of its threading layer, and each
loop ends at a barrier. A team that spins at the barrier (OpenMP's default, for a
while after every loop) is harmless on an idle machine and ruinous on a busy one: the
spinning thread holds a core while the thread that still has work waits for one.
On 2 cores with one busy neighbour the frontier count of 6x8 (some hundred short
loops) took 20 s instead of 2. So, before numba starts its threads,
:func:`prepare`

* asks OpenMP to wait passively (``OMP_WAIT_POLICY=PASSIVE``; a policy already in the
  environment is kept), and puts numba's OpenMP layer first, then its own work queue
  (which waits on condition variables), then TBB; a threading layer named in
  ``NUMBA_THREADING_LAYER`` is kept;
* takes the work queue when an OpenMP runtime is already loaded without that policy
  (it reads its environment once, when it is loaded).

:func:`step_threads` then chooses the threads of each parallel step: one for a small
step (starting a team costs more than it saves), else the number asked for
(``threads=`` / ``--threads`` / :data:`ENV`), or by default the cores this process may
use (:func:`cores_available`: its CPU affinity and its cgroup's quota) less those
other processes keep busy right now (:func:`cores_free`, from the count of runnable
tasks in ``/proc/loadavg``, less this process's own).

>>> parse_threads("2")
2
>>> step_threads(100, 2)  # a small step
1
"""

from __future__ import annotations

import math
import os
import time

from kt_formal.exceptions import InvalidInput

__all__ = ["ENV", "MAX_THREADS", "SMALL_STEP", "prepare", "parse_threads", "requested_threads",
           "cores_available", "cores_free", "step_threads", "threading_report"]

#: The environment variable that sets the threads of the parallel kernels (``--threads`` wins).
ENV = "KT_FORMAL_THREADS"
#: The most threads one may ask for.
MAX_THREADS = 1024
#: Steps of fewer states than this run on one thread.
SMALL_STEP = 16384

_PREPARED = False


def _numba_launched() -> bool:
    try:
        from numba.np.ufunc import parallel
    except ImportError:  # pragma: no cover - numba is a dependency
        return False
    return bool(getattr(parallel, "_is_initialized", False))


def _openmp_loaded() -> bool:
    """Whether an OpenMP runtime is mapped into this process already (Linux; else False)."""
    try:
        with open("/proc/self/maps", encoding="utf-8", errors="replace") as fh:
            return any(name in line for line in fh for name in ("libgomp", "libiomp", "libomp."))
    except OSError:
        return False


def prepare() -> None:
    """Set the threading layer and OpenMP's wait policy; call before numba starts its threads.

    Later calls do nothing; so does a call after numba's threads are running (the layer
    is then whatever numba took).
    """
    global _PREPARED
    if _PREPARED:
        return
    _PREPARED = True
    if _numba_launched():
        return
    from numba import config

    policy = os.environ.get("OMP_WAIT_POLICY")
    passive = policy is None or policy.strip().upper() == "PASSIVE"
    if policy is None:
        if _openmp_loaded():
            passive = False  # loaded before us: it read its policy already
        else:
            os.environ["OMP_WAIT_POLICY"] = "PASSIVE"
    if str(config.THREADING_LAYER).lower() != "default":
        return  # the user named a layer
    if passive or policy is not None:  # passive, or a policy the user chose
        config.THREADING_LAYER_PRIORITY = ["omp", "workqueue", "tbb"]
    else:
        config.THREADING_LAYER = "workqueue"


def parse_threads(text, what: str = "the number of threads") -> int:
    """A thread count from a command line or the environment: a whole number 1..MAX_THREADS."""
    shown = str(text).strip()
    if isinstance(text, bool):
        shown = repr(text)
    elif isinstance(text, int):
        value = text
    elif isinstance(text, float):
        value = int(text) if math.isfinite(text) and text == int(text) else None
    else:
        value = int(shown) if shown.isascii() and shown.isdigit() and len(shown) <= 6 else None
    if isinstance(text, bool) or value is None or not 1 <= value <= MAX_THREADS:
        shown = shown[:20] + ("..." if len(shown) > 20 else "")
        raise InvalidInput(f"{what} must be a whole number from 1 to {MAX_THREADS}, not {shown!r}")
    return value


def requested_threads(threads=None) -> int | None:
    """The threads asked for: ``threads`` if given, else :data:`ENV` if set, else None (automatic)."""
    if threads is not None:
        return parse_threads(threads)
    text = os.environ.get(ENV)
    if text is None or not text.strip():
        return None
    return parse_threads(text, f"{ENV}")


def cores_available() -> int:
    """The cores this process may run on: its CPU affinity, bounded by its cgroup's CPU quota."""
    try:
        n = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        n = os.cpu_count() or 1
    try:
        with open("/sys/fs/cgroup/cpu.max", encoding="ascii") as fh:
            quota, period = fh.read().split()[:2]
        if quota != "max":
            n = min(n, max(1, math.ceil(int(quota) / int(period))))
    except (OSError, ValueError):
        pass
    return max(1, n)


#: Reads of the runnable tasks a judgement of the cores free takes, and the seconds between them
LOAD_SAMPLES, LOAD_GAP = 3, 0.001


def _runnable_now() -> int | None:
    """Tasks running or runnable on the machine now (``/proc/loadavg``'s fourth field), or None."""
    try:
        with open("/proc/loadavg", encoding="ascii") as fh:
            return int(fh.read().split()[3].split("/")[0])
    except (OSError, ValueError, IndexError):
        return None


def _stat_fields(path: str) -> list[bytes]:
    """The fields of a ``/proc`` ``stat`` file after the command's name (state, ppid, pgrp,
    session, tty, tpgid, flags, ...); none when the task ended meanwhile."""
    try:
        with open(path, "rb") as fh:
            stat = fh.read()
    except OSError:
        return []
    return stat[stat.rfind(b")") + 2:].split()


def _own_runnable() -> int:
    """Threads of this process running or runnable now, the caller among them (at least 1)."""
    try:
        tids = os.listdir("/proc/self/task")
    except OSError:
        return 1
    return max(1, sum(_stat_fields(f"/proc/self/task/{tid}/stat")[:1] == [b"R"] for tid in tids))


_PF_KTHREAD = 0x00200000  # a kernel thread, in the flags of /proc/[pid]/stat


def _kernel_runnable() -> int:
    """Kernel threads running or runnable now (writing files back, reclaiming memory: the
    machine's own work, often for this very count's files), from ``/proc/[pid]/stat``."""
    try:
        pids = [p for p in os.listdir("/proc") if p.isdigit()]
    except OSError:
        return 0
    n = 0
    for pid in pids:
        rest = _stat_fields(f"/proc/{pid}/stat")
        try:
            n += len(rest) > 6 and rest[0] == b"R" and bool(int(rest[6]) & _PF_KTHREAD)
        except ValueError:
            continue
    return n


def _runnable_others() -> int | None:
    """Tasks of other processes runnable now, or None where that is not known: the fewest of
    :data:`LOAD_SAMPLES` reads :data:`LOAD_GAP` apart, this process's own threads and the
    kernel's left out. A parallel step's own threads may still be running as the next one
    is judged, the kernel writes a count's files back and reclaims memory for it, and a task
    that wakes for a moment is no neighbour: each took a core from a whole slice of a step
    (a count of 8x8 on an idle machine so ran most of its time on one thread)."""
    fewest = None
    for i in range(LOAD_SAMPLES):
        if i:
            time.sleep(LOAD_GAP)
        running = _runnable_now()
        if running is None:
            return None
        others = max(0, running - _own_runnable())
        if others:
            others = max(0, others - _kernel_runnable())
        fewest = others if fewest is None else min(fewest, others)
        if fewest == 0:
            break
    return fewest


def cores_free() -> int:
    """The cores of :func:`cores_available` that no other process keeps busy right now (at least 1).

    The machine's runnable tasks are shared out over all its cores: with ``B`` others
    runnable on ``C`` cores, ``B / C`` of each core is taken.
    """
    avail = cores_available()
    others = _runnable_others()
    if others is None:
        return avail
    busy_share = min(1.0, others / max(1, os.cpu_count() or 1))
    return max(1, avail - round(busy_share * avail))


def _pool_size() -> int:
    from numba import config

    return max(1, int(config.NUMBA_NUM_THREADS))


def step_threads(states: int, threads: int | None) -> int:
    """Threads for a parallel step over ``states`` states: one for a small step, else
    ``threads`` (asked for) or the free cores, never more than numba's pool."""
    if states < SMALL_STEP:
        return 1
    n = threads if threads is not None else cores_free()
    return max(1, min(n, _pool_size()))


def threading_report() -> str:
    """The threading layer and how it waits, in one line (starts numba's threads).

    >>> threading_report().startswith("parallel kernels: numba's ")
    True
    """
    import numba

    numba.get_num_threads()  # launches the threads: the layer is chosen
    layer = numba.threading_layer()
    wait = {"omp": f"OpenMP layer, OMP_WAIT_POLICY={os.environ.get('OMP_WAIT_POLICY', 'unset')}",
            "workqueue": "work queue layer (waits asleep)", "tbb": "TBB layer"}.get(layer, f"{layer} layer")
    ask = os.environ.get(ENV)
    return (f"parallel kernels: numba's {wait}; up to {_pool_size()} threads, "
            f"{f'{ENV}={ask}' if ask else f'by default the cores free ({cores_free()} now)'}; "
            f"steps under {SMALL_STEP:,} states on one")
