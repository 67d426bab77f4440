"""The frontier (transfer-matrix) tour counter, compiled: one numba kernel a square.

The dynamic programme is :mod:`kt_formal.counting.frontier`'s, step for step (the same
sweep, the same state values, the same pruning); that pure-Python version stays the
reference the tests compare against. What changes is the bookkeeping:

* a state is one int64 key: the terminal count ``tn`` plus the ``W = 2k + 1`` frontier
  values as digits (base 16, 4 bits each, for ``k <= 7``; base 11 for open tours with
  ``k = 8``, where 17 hexadecimal digits would not fit: at most nine path labels, so digits
  0..10; closed tours eight across have 63-bit keys of their own, two places narrower,
  stepped on one word as well: :mod:`~kt_formal.counting.frontier_packed17`);
* the live states are two arrays, keys and counts; a step merges their successors into
  one open-addressing hash table: the states go in blocks, every thread writes the
  successors of its share of a block into a small buffer (in the processor's cache),
  then every thread inserts those whose hash falls in its own part of the table (so
  no two threads write one slot), prefetching a batch of slots before it inserts them so
  that their loads overlap; a slot holds the key and the count's limbs side by side.
  The table is laid out for the states the same row gave in the last column (grown
  when short) and kept, emptied, for the next step; the merged states are then read
  out into dense arrays. At the peak of a step the input, the table and the output
  are held, about :data:`~kt_formal.counting.frontier_memory.BYTES_PER_STATE` bytes a state and nothing per successor
  (the successors of one block at a time);
* a step whose table would pass :data:`~kt_formal.counting.frontier_memory.TABLE_BYTES` runs in passes: each takes the
  successors whose second hash falls in its range, and a pass whose table fills drops
  the keys of the upper half of its range in place (:func:`shrink`) and leaves that
  half to a pass of its own; the states of such a step, or of one whose states and
  the next step's table would not fit the memory available, go to files (mapped, and
  unlinked as soon as they are made), read back block by block by the next step. A
  step in one pass lets its input go before its states are read out of the table,
  into the input's arrays when they are large enough: 8 x 8 (425 million states at its
  fullest step) runs in 22 GB of memory and no files;
* states of 4-bit digits (``k <= 7``, and closed tours ``k = 8``) are stepped on the packed word itself (open tours
  too: the ends of the tour leaving, the pairing of the two unpartnered path ends once
  both are placed, and the end and whole-path pruning, on masks of nibbles):
  the moves set nibbles, a join renames a label at all its places with one mask
  (nibbles equal to a value, found without a loop), and the labels are renumbered in
  frontier order one label at a time, not one place at a time;
* the threads: a step of fewer than :data:`~kt_formal.engines.kernel_threads.SMALL_STEP` states
  runs on one, a larger one on those asked for (``threads=``, ``KT_FORMAL_THREADS``) or
  the cores free at that step; they sleep while they wait (:mod:`kt_formal.engines.kernel_threads`),
  so a busy machine costs a count its share of the cores, not a spinning team's;
* the kernels are loaded (compiled once, on a cold cache) by :func:`prepare_kernels`
  before a count's clock starts: compiling never uses up a time limit;
* tours of a board that looks the same upside down (its holes too, no fixed ends, no
  forced or forbidden moves; every ``k x n`` strip of :func:`count_row`), closed or open:
  at the end of each column a state and its mirror image (rows turned over, labels
  renumbered) have the same ways to be finished, so both go to the smaller key
  (:func:`_mirror_image`) and the next column starts from fewer states: closed 6 x 8 in
  0.55 s instead of 0.81 s, 476,065 states at most instead of 677,960; open 6 x 6
  737,248 instead of 1,162,993, open 6 x 8 7,646,243 instead of 9,749,051 (an open
  state whose last square of the column before last is still an end of a path has no
  image among the states and is left alone); ``symmetry=False`` merges nothing: the
  reference's states, state for state;
* counts are exact: 62-bit limbs per state with carries. A step keeps its input's
  limbs unless a sum overflows the top one, and then runs again with one limb more,
  so the width follows the largest count actually held; Python integers only at the
  end.

:func:`count_row` counts every ``k x n`` board of a range in one sweep over the longest:
a tour may only finish at the last square of a column (the count of that width), the
room pruning assumes an unbounded strip (valid for every width), and for open tours
every state at the end of a column whose frontier holds one path with both ends free
is a tour of that width (what the closing flush of a single board would find).

>>> count_request_jit(Question(Board(5, 6))).count         # Schwenk: 8 closed tours
8
>>> count_row(3, 10, 12)                          # 3x10, 3x11, 3x12 closed (OEIS A175881)
{10: 16, 11: 0, 12: 176}
"""

from __future__ import annotations

import os
import tempfile
import time

import numba
import numpy as np

from kt_formal.board import Board
from kt_formal.engines import kernel_threads
from kt_formal.engines.compiled import Preparation
from kt_formal.counting.frontier import MAX_SHORT_SIDE, FrontierCount, square_colour, sweep_layout
from kt_formal.exceptions import InvalidInput, LimitReached, ResourceLimit
from kt_formal.counting.frontier_hash import BLOCK, HASH_SPACE, LIMB, limbs_to_int, LOAD_FACTOR, MAX_LOAD, SPARE_BYTES
from kt_formal.counting.frontier_keys import P_MIRROR, step_tables
from kt_formal.counting.frontier_tables import KERNELS as _TABLE_KERNELS, compact, complete_tours, fill_closed16, fill_open16, fill_wide, packed_keys, regrow, shrink
from kt_formal.counting.frontier_packed17 import fill_closed17, fill_kernel, key_encoding, start_key
from kt_formal.counting.frontier_steps import NO_WATCH as _NO_WATCH, board_steps, upside_down_alike, window_colours
from kt_formal.counting.frontier_memory import DEFAULT_MAX_STATES, TABLE_BYTES, physical_memory
from kt_formal.memory import available_memory
from kt_formal.question import Question
from kt_formal.counting.frontier_checkpoint import board_checkpointer, row_checkpointer
from kt_formal.counting.frontier_pace import pace

__all__ = ["count_request_jit", "count_row", "prepare_kernels", "prepare_fill", "fill_group", "count_fills",
           "FILLS", "KERNELS", "COMPILE_SECONDS", "DEFAULT_MAX_STATES", "TABLE_BYTES", "Sweep",
           "threads_restored"]

#: table parts of a large step (a power of two), None: one a thread asked for (at most 16)
_THREADS = None
#: steps of fewer states than this fill one table part
_ONE_PART = 4096
#: seconds after the last line of progress that a step within a column reports itself
STEP_LINE_SECONDS = 60.0
#: states a kernel call expands at most: a larger step takes its threads afresh between calls
SLICE_STATES = 1 << 22

#: Seconds compiling the kernels of one kind of count takes, about, on an idle machine: the
#: processor time each group reports in ``NUMBA_CACHE_DIR=$(mktemp -d) kt-formal warm --verbose``
#: (closed 12 s, open 13 s, open eight across 13 s, closed eight across 8 s, measured on
#: 2 cores; on a busy machine the wall time is longer). The largest, for the note.
COMPILE_SECONDS = 13
#: The same, per kind (the fill kernel that names it).
_SECONDS = {"fill_closed16": 12, "fill_open16": 13, "fill_wide": 13, "fill_closed17": 8}


def _warm_tables() -> None:
    capp, lo = 64, 1
    tab = np.zeros(capp * (1 + lo), np.int64)
    regrow(tab, lo, 0, capp, np.zeros(2 * capp * (1 + lo), np.int64), 2 * capp)
    shrink(tab, lo, 0, capp, 1, np.zeros(1, np.int64))


def _warm(count):
    """A warm-up: one small count of the kind (step_tables, its fill, compact, complete_tours
    for open tours), then the tables' growth and shrinking."""
    return lambda: (count(), _warm_tables())


_COMMON = (step_tables, regrow, shrink, compact)
#: The four ways to expand a state (:func:`~kt_formal.counting.frontier_packed17.fill_kernel`),
#: each compiled apart with the kernels a count of its kind needs.
FILLS = (fill_closed16, fill_open16, fill_wide, fill_closed17)
#: The kernels a count calls from Python (the others are inlined into them).
KERNELS = _TABLE_KERNELS + (fill_closed17,)
_GROUPS = {fill: Preparation(_COMMON + kernels, "the frontier counter's kernels", _SECONDS[fill.__name__], warm)
           for fill, kernels, warm in (
               (fill_closed16, (fill_closed16,), _warm(lambda: count_request_jit(Question(Board(3, 4)), threads=1))),
               (fill_open16, (fill_open16, complete_tours), _warm(lambda: count_row(3, 3, 4, closed=False, threads=1))),
               (fill_wide, (fill_wide, complete_tours), _warm(lambda: count_row(8, 1, 2, closed=False, threads=1))),
               (fill_closed17, (fill_closed17,), _warm(lambda: count_row(8, 1, 3, threads=1))))}


def count_fills(k: int | None = None, closed: bool | None = None) -> list:
    """The kernels of :data:`FILLS` that counts ``k`` across, closed or open tours, use (every
    one when not given), in that order."""
    ks = (3, 8) if k is None else (k,)
    kinds = (True, False) if closed is None else (closed,)
    used = {fill_kernel(2 * kk + 1, c) for kk in ks for c in kinds}
    return [fill for fill in FILLS if fill in used]


def prepare_kernels(note: bool = True, k: int | None = None, closed: bool | None = None) -> float:
    """Load the kernels of a count (``k`` across, closed or open tours; every kind of count
    when not given), compiling those not cached on disk (with a note on standard error,
    once a process), before a count starts its clock; returns the seconds it took (0 when
    they are loaded already). Each kernel runs once on a small case with the argument
    types of a real count, so a count never stops to compile. The four kinds of
    :data:`FILLS` compile apart: a count compiles only its own.
    """
    return sum(prepare_fill(fill, note) for fill in count_fills(k, closed))


def fill_group(fill) -> tuple:
    """The kernels :func:`prepare_fill` of ``fill`` loads or compiles (the fill's own, those
    every count calls, and the open tours' completion where it needs it)."""
    return tuple(_GROUPS[fill].kernels)


def prepare_fill(fill, note: bool = True) -> float:
    """:func:`prepare_kernels` of the counts whose states ``fill`` (one of :data:`FILLS`) expands."""
    return _GROUPS[fill](note)


class threads_restored:
    """Puts back numba's thread count of the calling thread when a sweep ends."""

    def __enter__(self):
        self.saved = numba.get_num_threads()
        return self

    def __exit__(self, *exc):
        numba.set_num_threads(self.saved)
        return False


def _masks(m: int, must: int, cap: int) -> np.ndarray:
    return np.array([mask for mask in range(1 << m) if mask & must == must and bin(mask).count("1") <= cap],
                    dtype=np.int64)


class Sweep:
    """The per-square parameters of a sweep and the loop that runs the kernels.

    The live states are a list of chunks ``(keys, counts)``: one array pair in memory,
    or, for a step too large for memory, one file-backed pair per pass (the files are
    unlinked as soon as they are mapped, so they go with the arrays)."""

    def __init__(self, k, W, closed, free_terminals, max_states, time_limit, progress, t0, n_cols,
                 table_bytes=None, spill_dir=None, threads=None):
        self.k, self.W, self.closed, self.free = k, W, closed, free_terminals
        # threads of a large step: those asked for, else the cores free at that step;
        # its table parts: one a thread that may run (a power of two, at most 16)
        self.threads = threads
        most = threads if threads is not None else kernel_threads.cores_available()
        self.parts = _THREADS or 1 << (max(1, min(most, 16)).bit_length() - 1)
        self.used = []  # (states, threads) of each step
        self.b16 = packed_keys(W)
        self.fill = fill_kernel(W, closed)
        self.max_states, self.time_limit, self.progress, self.t0, self.n_cols = (
            max_states, time_limit, progress, t0, n_cols)
        self.table_bytes = TABLE_BYTES if table_bytes is None else table_bytes
        self.spill_dir = spill_dir
        keys = np.array([start_key(W, closed)], np.int64)
        self.chunks = [(keys, np.ones((1, 1), np.int64))]
        self.gk = np.empty(BLOCK, np.int64)  # a block's successors: keys and source states
        self.gs = np.empty(BLOCK, np.int64)
        self.pool = np.zeros(0, np.int64)  # the table's memory, kept from step to step
        # the arrays under the states (keys, limbs) and a spare pair for the next step's
        # output (small steps only: a large input is let go before the output is made)
        self.cur = self.spare = None
        self.ratio = {}  # next states / states at the same row of the last column
        self.peak = 1
        self.states = 1
        self.passes = 1  # the most passes a step took
        self.spilled = 0  # the most states a step wrote to files
        self.per_column = []
        self.work = 0  # states stepped by this process
        self.t_line = t0  # when progress last had a line
        #: the board looks the same upside down: a state and its mirror image meet at the
        #: end of each column (:func:`_mirror_image`)
        self.mirror = False

    def _table(self, est, T, Lo, grow=False):
        """A table of ``T`` parts for ``est`` keys: the front of the pool, which is all zero
        between steps (``compact`` clears what it reads); a larger pool when it is short,
        or (``grow``) a new one, the old one still holding the table to be moved."""
        capp = int(est / (LOAD_FACTOR * T)) + 64
        size = T * capp * (1 + Lo)
        if grow or self.pool.shape[0] < size:
            if not grow:
                self.pool = None  # the old pool goes before the new one is made
            self.pool = np.zeros(size + size // 4, np.int64)
        return capp, self.pool[:size]

    def _out_of_reach(self, i):
        return ResourceLimit(f"the frontier needs more than {self.max_states:,} states at square {i} "
                             f"(column {i // self.k + 1} of {self.n_cols}); the count is out of reach here")

    def _merge(self, i, chunks, L, T, est, lo, hi, tables):
        """The next states of the hash range ``lo..hi - 1`` in a hash table: ``(table, Lo,
        n, done limbs, hi)``. A table that would outgrow its budget keeps the lower half
        of its range (``hi`` comes back lower; the caller makes the rest a pass)."""
        logT = T.bit_length() - 1
        Lo = L
        while True:  # once more, with a limb more, when a count overflows
            slot = (1 + Lo) * 8
            if est * slot / LOAD_FACTOR > self.table_bytes / 2:  # a large step: the whole budget at once
                est = max(1, int(self.table_bytes * LOAD_FACTOR / slot) - 64 * T)
            capp, tab = self._table(est, T, Lo)
            fill = np.zeros(T, np.int64)
            ovf = np.zeros(T, np.int64)
            dacc = np.zeros((T, L + 1), np.int64)
            for keys, counts in chunks:
                S = keys.shape[0]
                s = 0
                while s < S and not ovf.any():  # a count past the top limb: start again at once
                    # a slice at a time: between slices the threads follow the cores free
                    e = S if S - s <= SLICE_STATES else s + SLICE_STATES
                    s = self.fill(keys[:e], counts[:e], s, *tables, tab, Lo, logT, capp, fill,
                                  int(MAX_LOAD * capp), self.gk, self.gs, dacc, ovf, lo, hi)
                    if s == e:
                        if s < S and self.threads is None:
                            numba.set_num_threads(kernel_threads.step_threads(S, None))
                        continue
                    if T * capp * LOAD_FACTOR >= self.max_states:
                        raise self._out_of_reach(i)
                    if hi - lo > 1 and 2.5 * T * capp * slot > self.table_bytes:
                        # old and new table together would pass the budget: keep half the range
                        hi = (lo + hi) // 2
                        shrink(tab, Lo, logT, capp, hi, fill)
                        continue
                    ncapp, ntab = self._table(int(capp * T * LOAD_FACTOR * 1.5) + 1024, T, Lo, grow=True)
                    regrow(tab, Lo, logT, capp, ntab, ncapp)
                    capp, tab = ncapp, ntab
                    del ntab
            if not ovf.any():
                return tab, Lo, int(fill.sum()), dacc, hi
            Lo += 1
            tab[:] = 0
            del tab

    def _keep_arrays(self, n, Lo) -> None:
        """The step's input done with: of its arrays and those of two steps back, the pair
        that can hold ``n`` states is kept for the output (``cur``; its pages are already
        there, where new ones cost the kernel a fault and a clearing each), a small other
        one as the spare; the rest is let go of."""
        pairs = [a for a in (self.cur, self.spare) if a is not None]
        fit = [a for a in pairs if a[0].shape[0] >= n and a[1].shape[0] >= n * Lo]
        self.cur = fit[0] if fit else None
        rest = [a for a in pairs if a is not self.cur and a[0].nbytes + a[1].nbytes <= SPARE_BYTES]
        self.spare = rest[0] if rest else None

    def _memory_arrays(self, n, Lo):
        """Keys and limbs for ``n`` states in memory: the arrays :meth:`_keep_arrays` kept,
        or new ones."""
        if self.cur is None:
            size = n + n // 4 + 16
            self.cur = (np.empty(size, np.int64), np.empty(size * Lo, np.int64))
        keys, limbs = self.cur
        return keys[:n], limbs[:n * Lo].reshape(n, Lo)

    def _output_fits(self, n, Lo) -> bool:
        """Whether the ``n`` states of a step in one pass may stay in memory: their arrays
        (none new when :meth:`_keep_arrays` kept some), and the table of the next step
        grown to its whole budget beside them, fit in the memory available now with a
        twentieth of this machine's to spare. Else they go to files, which the kernel may
        write out and drop."""
        new = 0 if self.cur is not None else n * (1 + Lo) * 8
        need = new + max(0, self.table_bytes - int(0.8 * self.pool.nbytes))
        return need + physical_memory() // 20 <= available_memory()

    def _file_arrays(self, n, Lo):
        """Keys and limbs for ``n`` states in a file of the spill directory, mapped and
        unlinked at once (its space is freed with the arrays)."""
        fd, path = tempfile.mkstemp(prefix="kt-frontier-", suffix=".states", dir=self.spill_dir)
        os.close(fd)
        try:
            mm = np.memmap(path, np.int64, "w+", shape=(max(1, n * (1 + Lo)),))
        finally:
            os.unlink(path)
        flat = mm.view(np.ndarray)
        return flat[:n], flat[n:n * (1 + Lo)].reshape(n, Lo)

    def step(self, i, nbr, must, cap, new_live, out_live, out_fixed, room, fixed_pos, may_finish, complete_check,
             light=-1, balance=0, watch=_NO_WATCH):
        nbr_p = np.array([p for p, _e in nbr], dtype=np.int64)
        nbr_end = np.array([e for _p, e in nbr], dtype=np.bool_)
        prm, pw, mstart, mlist = step_tables(self.W, self.b16, self.closed, self.free, nbr_p,
                                             _masks(len(nbr), must, cap), new_live, out_live, out_fixed,
                                             np.asarray(room, dtype=np.int64), fixed_pos, may_finish, light, balance, watch)
        if self.mirror and i % self.k == self.k - 1:
            prm[P_MIRROR] = 1
        tables = (prm, nbr_p, nbr_end, pw, mstart, mlist)
        chunks = self.chunks
        S = sum(keys.shape[0] for keys, _c in chunks)
        L = max(counts.shape[1] for _k, counts in chunks)
        T = 1 if S < _ONE_PART else self.parts
        nthreads = kernel_threads.step_threads(S, self.threads)
        numba.set_num_threads(nthreads)
        self.used.append((S, nthreads))
        r = self.ratio.get(i % self.k)
        est = int(S * r * 1.1) + 1024 if r is not None else 2 * S + 1024
        est = max(1, min(est, self.max_states))
        # a step whose table would pass the budget runs in passes, one a range of a
        # second hash of the keys: a pass whose table fills its budget keeps the lower
        # half of its range and leaves the upper half to a pass of its own; the states of
        # a step in passes go to files, and those of a step in one pass stay in memory
        # (its input let go of first) unless they would not fit there
        spill = False
        out, n, done, passes = [], 0, 0, 0
        lo = 0  # each pass takes what is left of the range, or its lower part
        while lo < HASH_SPACE:
            tab, Lo, nr, dacc, mid = self._merge(i, chunks, L, T, est * (HASH_SPACE - lo) // HASH_SPACE + 1024, lo,
                                                 HASH_SPACE, tables)
            if lo == 0 and mid == HASH_SPACE:  # the only pass: the input is no longer needed
                self.chunks = chunks = None
                self._keep_arrays(nr, Lo)
                spill = nr * (1 + Lo) * 8 > SPARE_BYTES and not self._output_fits(nr, Lo)
            spill = spill or mid < HASH_SPACE
            lo = mid
            passes += 1
            n += nr
            if lo < HASH_SPACE:  # a step in passes: a line a pass
                self._square_line(i, 0.5, f": pass {passes} done, {lo / HASH_SPACE:.0%} of its states, {n:,} so far")
            if n > self.max_states:
                raise self._out_of_reach(i)
            done += sum(limbs_to_int(row) for row in dacc)
            if spill:  # every step of more than one pass spills
                keys, counts = self._file_arrays(nr, Lo)
            else:  # the only pass, in memory
                keys, counts = self._memory_arrays(nr, Lo)
            compact(tab, Lo, keys, counts)
            del tab
            out.append((keys, counts))
        if spill:
            self.cur = self.spare = None
            self.spilled = max(self.spilled, n)
        self.chunks = out
        self.states = n
        self.passes = max(self.passes, passes)
        if S >= 1024:
            self.ratio[i % self.k] = n / S
        comp = sum(limbs_to_int(row) for keys, counts in out
                   for row in complete_tours(keys, counts, self.W, self.b16)) if complete_check else 0
        c = i // self.k
        if n > self.peak:
            self.peak = n
        if self.time_limit is not None and time.perf_counter() - self.t0 > self.time_limit:
            raise LimitReached(f"the frontier count stopped at its time limit ({self.time_limit:g} s) "
                               f"in column {min(c, self.n_cols - 1) + 1} of {self.n_cols}, with {n:,} states")
        self.work += S
        if i % self.k == self.k - 1 and c < self.n_cols:
            self.per_column.append(n)
            if self.progress is not None:
                self.t_line = time.perf_counter()
                self.progress(c + 1, self.n_cols, f"column {c + 1} of {self.n_cols}, {n:,} states"
                              + pace(self.per_column, self.work, time.perf_counter() - self.t0, self.k, self.closed, self.n_cols, c))
        elif c < self.n_cols:  # a long column: its steps too, once a while (a line each in a log)
            self._square_line(i, 1, f", {n:,} states")
        return done, comp

    def _square_line(self, i, share, text) -> None:
        """A progress line on square ``i`` (``share`` of its step done), once a while."""
        if self.progress is None or time.perf_counter() - self.t_line < STEP_LINE_SECONDS:
            return
        self.t_line, c, j = time.perf_counter(), i // self.k, i % self.k
        self.progress(c + (j + share) / self.k, self.n_cols,
                      f"column {c + 1} of {self.n_cols}, square {j + 1} of {self.k}{text}")

    def snapshot(self) -> dict:
        """The bookkeeping a checkpoint keeps besides the states."""
        return {"peak": self.peak, "passes": self.passes, "spilled": self.spilled,
                "per_column": list(self.per_column), "ratio": {str(a): b for a, b in self.ratio.items()}}

    def restore(self, chunks, meta) -> None:
        """Go on from a checkpoint's states and bookkeeping."""
        self.chunks = list(chunks)
        self.cur = self.spare = None
        self.peak = max(self.peak, int(meta.get("peak", 1)))
        self.passes = max(self.passes, int(meta.get("passes", 1)))
        self.spilled = max(self.spilled, int(meta.get("spilled", 0)))
        self.per_column = [int(x) for x in meta.get("per_column", [])]
        self.ratio = {int(a): float(b) for a, b in meta.get("ratio", {}).items()}


def count_request_jit(question: Question, progress=None, max_states: int = DEFAULT_MAX_STATES,
                      time_limit: float | None = None, table_bytes: int | None = None,
                      spill_dir: str | None = None, threads: int | None = None, checkpoint: str | None = None,
                      resume: bool = False, checkpoint_every: float | None = None,
                      symmetry: bool = True) -> FrontierCount:
    """:func:`kt_formal.counting.frontier.count_request`, compiled (same arguments and result).

    ``table_bytes`` bounds the hash table of one step (default :data:`~kt_formal.counting.frontier_memory.TABLE_BYTES`): a
    step that needs more runs in passes and keeps its states in files, unlinked as soon
    as they are made, in ``spill_dir`` (default: the system's temporary directory).
    ``threads``: the threads of a large step (default: ``KT_FORMAL_THREADS``, else the
    cores free at that step); a small step takes one. Compiling or loading the kernels
    (:func:`prepare_kernels`) is not counted in ``time_limit`` nor in the wall time.

    ``checkpoint``: a directory where the states are written after a step (a square) once
    ``checkpoint_every`` seconds (default 60) have passed since the last
    (:mod:`kt_formal.counting.frontier_checkpoint`); with ``resume`` the count goes on
    from the last checkpoint there (or starts afresh when there is none).
    """
    threads = kernel_threads.requested_threads(threads)
    t0 = time.perf_counter()
    lay = sweep_layout(question, t0)
    if isinstance(lay, FrontierCount):
        return lay
    closed, start, end = question.closed, question.start, question.end
    ckpt = (board_checkpointer(lay, closed, checkpoint, checkpoint_every, symmetry, LIMB, key_encoding(lay.W, closed),
                               ends=(start, end), resume=resume) if checkpoint else None)
    if resume and ckpt is None:
        raise InvalidInput("resuming a count needs its checkpoint directory")
    if resume and (old := ckpt.result()) is not None:  # counted to the end already
        return FrontierCount(int(old["count"]), closed, lay.rows, lay.cols, old.get("per_column", []),
                             int(old.get("peak", 0)), 0.0, start=None if closed else start,
                             end=None if closed else end, resumed=lay.n)
    t0 += prepare_kernels(k=lay.k, closed=closed)
    sweep = Sweep(lay.k, lay.W, closed, lay.free_terminals, max_states, time_limit, progress, t0, lay.n,
                  table_bytes, spill_dir, threads)
    sweep.mirror = symmetry and upside_down_alike(lay)
    first, done, emptied = 0, 0, 0
    if resume and (got := ckpt.latest()) is not None:
        step, chunks, meta = got
        sweep.restore(chunks, meta)
        first, done = step + 1, int(meta["done"])
    with threads_restored():
        for i, args in board_steps(lay, first):
            d, _ = sweep.step(i, *args)
            done += d
            emptied = lay.emptied_at(i, sweep.states)
            if emptied:  # no partial tour goes on: nothing more can be finished
                break
            if ckpt is not None and i + 1 < lay.N + lay.W and ckpt.due():
                ckpt.write(i, sweep.chunks, dict(sweep.snapshot(), done=str(done)))
    res = FrontierCount(done, closed, lay.rows, lay.cols, sweep.per_column, sweep.peak, time.perf_counter() - t0,
                        sweep.passes, sweep.spilled, sweep.used, None if closed else start, None if closed else end,
                        resumed=min(first // lay.k, lay.n), resumed_squares=first % lay.k if first < lay.N else 0,
                        emptied=emptied)
    if ckpt is not None:
        ckpt.finish({"count": str(done), "peak": sweep.peak, "per_column": sweep.per_column})
    return res


def count_row(k: int, a: int, b: int, closed: bool = True, progress=None, max_states: int = DEFAULT_MAX_STATES,
              time_limit: float | None = None, on_count=None, partial: bool = False,
              table_bytes: int | None = None, spill_dir: str | None = None, threads: int | None = None,
              checkpoint: str | None = None, resume: bool = False, checkpoint_every: float | None = None,
              symmetry: bool = True) -> dict:
    """The tours of every ``k x n`` board for ``a <= n <= b``, in one sweep over ``k x b``.

    ``on_count(n, count)`` is called as each width's count is known (in order of n).
    Returns ``{n: count}``.

    With ``partial``, also every board whose last column is partly filled: the ``k x n``
    board without the last ``k - j`` squares of its last column (its first ``j`` kept,
    ``1 <= j <= k``) is the sweep's squares up to that one, so its tours are those that
    finish at that square (closed: the cycle closes there with every frontier square
    finished; open: one path with both ends free). The keys are then ``(n, j)``
    (``j = k``: the whole board) and ``on_count((n, j), count)``.

    ``threads`` as for :func:`count_request_jit`; compiling is not counted in ``time_limit``.
    ``checkpoint``, ``resume``, ``checkpoint_every`` as there: the states of the sweep do
    not depend on ``a`` nor ``b``, so a row resumed may also go further than it was asked
    first; the counts already known are given to ``on_count`` again.
    """
    if not 1 <= k <= MAX_SHORT_SIDE:
        raise InvalidInput(f"the frontier method counts boards with a side of at most {MAX_SHORT_SIDE}, not {k}")
    if not 1 <= a <= b:
        raise InvalidInput(f"the range {a}..{b} is empty")
    threads = kernel_threads.requested_threads(threads)
    t0 = time.perf_counter()
    out = {}
    if k == 1:  # no knight moves: only the single square has a (open) tour
        for n in range(a, b + 1):
            key = (n, 1) if partial else n
            out[key] = 1 if n == 1 and not closed else 0
            if on_count is not None:
                on_count(key, out[key])
        return out
    ckpt = None
    if checkpoint:
        ckpt = row_checkpointer(k, closed, partial, checkpoint, checkpoint_every, symmetry, LIMB,
                                key_encoding(2 * k + 1, closed), resume=resume)
    elif resume:
        raise InvalidInput("resuming a count needs its checkpoint directory")
    t0 += prepare_kernels(k=k, closed=closed)
    sweep = Sweep(k, 2 * k + 1, closed, 0 if closed else 2, max_states, time_limit, progress, t0, b, table_bytes,
                  spill_dir, threads)
    sweep.mirror = symmetry and not partial  # a full strip looks the same upside down
    first = 0
    if resume and (got := ckpt.latest()) is not None:
        step, chunks, meta = got
        sweep.restore(chunks, meta)
        first = step + 1
        for key, count in meta.get("out", []):
            key = tuple(key) if partial else int(key)
            if a <= (key[0] if partial else key) <= b:
                out[key] = int(count)
                if on_count is not None:
                    on_count(key, out[key])
    with threads_restored():
        _sweep_row(sweep, k, a, b, closed, on_count, partial, out, first, ckpt)
    return out


def _sweep_row(sweep, k, a, b, closed, on_count, partial, out, first=0, ckpt=None) -> None:
    """The sweep of :func:`count_row`: fills ``out``."""
    W = 2 * k + 1
    N = k * b
    for i in range(first, N):
        r, c = i % k, i // k
        nbr = []
        for dr, dc, p in ((-1, -2, 0), (1, -2, 2), (-2, -1, k - 1), (2, -1, k + 3)):
            if 0 <= r + dr < k and c + dc >= 0:
                nbr.append((p, False))
        room = []
        for q in range(W):
            j = i + 1 - W + q
            if j < 0:
                room.append(9)
                continue
            rj, cj = j % k, j // k
            room.append(sum(1 for dr, dc in ((-1, 2), (1, 2), (-2, 1), (2, 1))
                            if 0 <= rj + dr < k and (cj + dc) * k + rj + dr > i))
        end_of_width = (r == k - 1 or partial) and c + 1 >= a
        # the ends' colours (open tours): a column of even height is as light as dark, so
        # the squares to come weigh what the rest of this column does, whatever the width
        light, balance = (window_colours(i, k, W), sum(2 * square_colour(j, k) for j in range(i + 1, (c + 1) * k))) \
            if k % 2 == 0 and not partial else (-1, 0)
        d, comp = sweep.step(i, nbr, 0, 2, True, i - W >= 0, False, room, 0, end_of_width,
                             end_of_width and not closed, light, balance)
        if end_of_width:
            key = (c + 1, r + 1) if partial else c + 1
            out[key] = d + comp
            if on_count is not None:
                on_count(key, out[key])
        if ckpt is not None and i + 1 < N and ckpt.due():
            known = [[list(key) if partial else key, str(v)] for key, v in out.items()]
            ckpt.write(i, sweep.chunks, dict(sweep.snapshot(), out=known))
