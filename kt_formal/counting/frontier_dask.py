"""The frontier counter on a Dask cluster: the states of each step parted by a hash of their keys.

Each step of :func:`kt_formal.counting.frontier_jit.count_request_jit`'s sweep runs as
``2 * P`` tasks for ``P`` parts: a task a part steps its states with the compiled kernels
(:class:`~kt_formal.counting.frontier_jit.Sweep`, one thread: a worker process a core)
and merges their successors in its own table, then cuts them into ``P`` pieces by a hash
of the key; a task a part then merges the pieces meant for it from every part (equal keys
add their counts, exactly, in 31-bit digits). So no state is held twice after a step, no
machine holds more than its parts, and the counts are those of the single-machine counter
(the same states, the same sums). The driver holds no states: it sends each step's
parameters and adds up the tours finished.

Workers need kt_formal (with numba) importable; ``address="local"`` starts a LocalCluster
of ``parts`` processes here. See docs/counting.md for several machines.
"""

from __future__ import annotations

import time

import numpy as np

from kt_formal.counting.frontier_steps import board_steps, upside_down_alike
from kt_formal.counting.frontier import FrontierCount, sweep_layout
from kt_formal.exceptions import InvalidInput, LimitReached, ResourceLimit, Worded
from kt_formal.question import Question

__all__ = ["count_request_dask", "merge_parts", "DaskCluster"]

_PART_HASH = np.uint64(0xBF58476D1CE4E5B9)
_DIGIT = 31


class DaskCluster:
    """A Dask client, and the LocalCluster it started for ``address="local"``.

    ``address`` is a scheduler address (``tcp://HOST:8786``) or ``"local"`` for a
    LocalCluster of ``workers`` worker processes (threads if ``processes`` is False).
    Raises InvalidInput when Dask is missing or the scheduler cannot be reached. The
    census's runner (:class:`kt_formal.survey.runners.DaskConnection`) is one too.
    """

    def __init__(self, address: str, workers: int = 2, processes: bool = True):
        try:
            from dask.distributed import Client, LocalCluster
        except ImportError:  # Dask is the optional "cluster" extra
            raise InvalidInput(Worded('{dask} needs Dask, which is not installed: pip install "kt-formal[cluster]"',
                                      {"dask": "dask"})) from None
        self.cluster = None
        if address == "local":
            import os

            # the workers started here import the same kt_formal as this process (this
            # file is kt_formal/counting/frontier_dask.py: the package's parent is 3 up)
            parent = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
            path = os.environ.get("PYTHONPATH", "")
            if parent not in path.split(os.pathsep):
                os.environ["PYTHONPATH"] = parent + (os.pathsep + path if path else "")
            self.cluster = LocalCluster(n_workers=max(1, workers), threads_per_worker=1, processes=processes,
                                        dashboard_address=None, silence_logs=40)
            self.client = Client(self.cluster)
        else:
            try:
                self.client = Client(address, timeout="10s")
            except (OSError, TimeoutError, ValueError) as exc:
                raise InvalidInput(Worded(f"{{dask}} {address}: cannot reach the scheduler ({exc})",
                                          {"dask": "dask"})) from None

    def close(self) -> None:
        self.client.close()
        if self.cluster is not None:
            self.cluster.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def _part_of(keys: np.ndarray, parts: int) -> np.ndarray:
    h = keys.astype(np.uint64) * _PART_HASH
    return ((h >> np.uint64(32)) % np.uint64(parts)).astype(np.int64)


def _empty(limbs: int = 1):
    return np.zeros(0, np.int64), np.zeros((0, limbs), np.int64)


def _pad(counts: np.ndarray, limbs: int) -> np.ndarray:
    if counts.shape[1] == limbs:
        return counts
    out = np.zeros((counts.shape[0], limbs), np.int64)
    out[:, :counts.shape[1]] = counts
    return out


def merge_parts(*pieces):
    """One part from pieces of states ``(keys, counts)``: equal keys once, their counts
    added (62-bit limbs, summed as 31-bit digits with carries; exact)."""
    pieces = [p for p in pieces if p[0].shape[0]]
    if not pieces:
        return _empty()
    if len(pieces) == 1:
        return np.ascontiguousarray(pieces[0][0]), np.ascontiguousarray(pieces[0][1])
    L = max(c.shape[1] for _k, c in pieces)
    keys = np.concatenate([k for k, _c in pieces])
    counts = np.concatenate([_pad(np.asarray(c), L) for _k, c in pieces])
    order = np.argsort(keys, kind="stable")
    keys = keys[order]
    counts = counts[order]
    first = np.flatnonzero(np.concatenate(([True], keys[1:] != keys[:-1])))
    low = (1 << _DIGIT) - 1
    digits = []
    for j in range(L):
        digits.append(np.add.reduceat(counts[:, j] & low, first))
        digits.append(np.add.reduceat(counts[:, j] >> _DIGIT, first))
    carry = np.zeros(first.shape[0], np.int64)
    for t in range(len(digits)):
        v = digits[t] + carry
        digits[t] = v & low
        carry = v >> _DIGIT
    out = np.zeros((first.shape[0], L + 1), np.int64)
    for j in range(L):
        out[:, j] = digits[2 * j] | (digits[2 * j + 1] << _DIGIT)
    out[:, L] = carry
    if not out[:, L].any():
        out = out[:, :L]
    return keys[first], np.ascontiguousarray(out)


def _prepare_worker(k: int, closed: bool) -> None:
    """Load the kernels in a worker (a module-level function: Dask sends it by reference)."""
    from kt_formal.counting import frontier_jit as fj

    fj.prepare_kernels(note=False, k=k, closed=closed)


def _step_part(part, spec, i, args):
    """A worker's task: step one part's states; ``(pieces for each part, tours finished)``."""
    from kt_formal.counting import frontier_jit as fj

    keys, counts = part
    P = spec["parts"]
    if keys.shape[0] == 0:
        return [_empty() for _ in range(P)], 0
    fj.prepare_kernels(note=False, k=spec["k"], closed=spec["closed"])
    sweep = fj.Sweep(spec["k"], spec["W"], spec["closed"], spec["free"], spec["max_states"], None, None,
                     time.perf_counter(), spec["n"], spec["table_bytes"], spec["spill_dir"], 1)
    sweep.chunks = [(keys, counts)]
    sweep.mirror = spec.get("mirror", False)
    with fj.threads_restored():
        done, _ = sweep.step(i, *args)
    out = [(np.asarray(k), np.asarray(c)) for k, c in sweep.chunks]
    L = max(c.shape[1] for _k, c in out)
    keys = np.concatenate([k for k, _c in out])
    counts = np.concatenate([_pad(c, L) for _k, c in out])
    where = _part_of(keys, P)
    pieces = []
    for p in range(P):
        sel = where == p
        pieces.append((keys[sel], counts[sel]))
    return pieces, done


def _piece(result, p):
    return result[0][p]


def _finished(result):
    return result[1]


def _size(part):
    return int(part[0].shape[0])


def count_request_dask(question: Question, *, address: str = "local", parts: int = 2, progress=None, max_states: int | None = None,
                       time_limit: float | None = None, table_bytes: int | None = None,
                       spill_dir: str | None = None, checkpoint: str | None = None, resume: bool = False,
                       checkpoint_every: float | None = None, cluster: DaskCluster | None = None,
                       symmetry: bool = True) -> FrontierCount:
    """:func:`~kt_formal.counting.frontier_jit.count_request_jit` on a Dask cluster, its states in
    ``parts`` parts (``address``: a scheduler, or ``"local"``; or an open ``cluster``).

    ``max_states`` bounds the states of one part; compiling the kernels on the workers is not
    counted in ``time_limit`` nor in the wall time. Checkpoints are the single-machine
    counter's (not taken here yet).
    """
    from kt_formal.counting import frontier_jit as fj

    if checkpoint or resume:
        raise InvalidInput(Worded("{checkpoint} and {resume} are not taken with {dask} yet: count on one machine",
                                  {"checkpoint": "checkpoint", "resume": "resume", "dask": "dask"}))
    if not 1 <= int(parts) <= 4096:
        raise InvalidInput(f"the parts of a Dask count are 1 to 4096, not {parts}")
    t0 = time.perf_counter()
    lay = sweep_layout(question, t0)
    if isinstance(lay, FrontierCount):
        return lay
    closed, start, end = question.closed, question.start, question.end
    own = cluster is None
    if own:
        cluster = DaskCluster(address, parts)
    try:
        client = cluster.client
        spec = {"parts": int(parts), "k": lay.k, "W": lay.W, "closed": bool(closed), "free": lay.free_terminals,
                "n": lay.n, "max_states": max_states or fj.DEFAULT_MAX_STATES, "table_bytes": table_bytes,
                "spill_dir": spill_dir, "mirror": symmetry and upside_down_alike(lay)}
        # the kernels loaded (compiled once) on every worker before the clock starts
        client.run(_prepare_worker, lay.k, bool(closed))
        t0 = time.perf_counter()
        first = fj.Sweep(lay.k, lay.W, closed, lay.free_terminals, 1, None, None, t0, lay.n)
        keys, counts = first.chunks[0]
        state = [client.scatter((keys, counts))] + [client.scatter(_empty()) for _ in range(parts - 1)]
        done, peak, per_column = 0, 1, []
        for i, args in board_steps(lay):
            stepped = [client.submit(_step_part, part, spec, i, args, pure=False) for part in state]
            state = [client.submit(merge_parts, *[client.submit(_piece, s, p, pure=False) for s in stepped],
                                   pure=False) for p in range(parts)]
            got = client.gather([client.submit(_size, s, pure=False) for s in state]
                                + [client.submit(_finished, s, pure=False) for s in stepped])  # one round trip
            sizes = got[:parts]
            done += sum(int(d) for d in got[parts:])
            del stepped
            n = sum(sizes)
            peak = max(peak, n)
            stop = lay.emptied_at(i, n)
            if stop:  # no partial tour goes on: nothing more can be finished
                return FrontierCount(done, closed, lay.rows, lay.cols, per_column, peak, time.perf_counter() - t0,
                                     start=None if closed else start, end=None if closed else end, emptied=stop)
            if max(sizes) > spec["max_states"]:
                raise ResourceLimit(f"a part holds more than {spec['max_states']:,} states at square {i}; "
                                    "the count is out of reach with these parts")
            c = i // lay.k
            if time_limit is not None and time.perf_counter() - t0 > time_limit:
                raise LimitReached(f"the frontier count stopped at its time limit ({time_limit:g} s) in column "
                                   f"{min(c, lay.n - 1) + 1} of {lay.n}, with {n:,} states")
            if i % lay.k == lay.k - 1 and c < lay.n:
                per_column.append(n)
                if progress is not None:
                    progress(c + 1, lay.n, f"column {c + 1} of {lay.n}, {n:,} states in {parts} parts")
        return FrontierCount(done, closed, lay.rows, lay.cols, per_column, peak, time.perf_counter() - t0,
                             start=None if closed else start, end=None if closed else end)
    finally:
        if own:
            cluster.close()
