"""The frontier (transfer-matrix) tour counter, compiled: one numba kernel a square.

The dynamic programme is :mod:`kt_formal.engines.frontier`'s, step for step (the same
sweep, the same state values, the same pruning); that pure-Python version stays the
reference the tests compare against. What changes is the bookkeeping:

* a state is one int64 key: the terminal count ``tn`` plus the ``W = 2k + 1`` frontier
  values as digits (base 16, 4 bits each, for ``k <= 7``; base 11 for ``k = 8``, where
  17 hexadecimal digits would not fit: at most nine path labels, so digits 0..10);
* the live states are two arrays, keys and counts; one kernel call turns them into the
  next square's arrays: a first pass (in parallel) finds each state's dead-state check
  and the moves worth trying, a second (in parallel, by chunks of states) writes every
  successor as a (key, source state) pair into its own slot, and the pairs are spread
  into buckets by a hash of the key and merged bucket by bucket (in parallel) in a small
  hash table that stays in the processor's cache;
* counts are exact: several 62-bit limbs per state with carries. Each step gives the
  sums into one limb more than its input has (a sum of fewer than 2^62 inputs cannot
  pass it) and keeps that limb only when some count needs it, so the width follows the
  largest count actually held; Python integers only at the end.

:func:`count_row` counts every ``k x n`` board of a range in one sweep over the longest:
a tour may only finish at the last square of a column (the count of that width), the
room pruning assumes an unbounded strip (valid for every width), and for open tours
every state at the end of a column whose frontier holds one path with both ends free
is a tour of that width (what the closing flush of a single board would find).

>>> count_request_jit(Board(5, 6)).count         # Schwenk: 8 closed tours
8
>>> count_row(3, 10, 12)                          # 3x10, 3x11, 3x12 closed (OEIS A175881)
{10: 16, 11: 0, 12: 176}
"""

from __future__ import annotations

import os
import time

import numpy as np
from numba import prange

from kt_formal.board import Board
from kt_formal.engines._jit import announce_compile, cached_njit
from kt_formal.engines.frontier import MAX_SHORT_SIDE, FrontierCount, sweep_layout
from kt_formal.exceptions import InvalidInput, LimitReached, ResourceLimit

__all__ = ["count_request_jit", "count_row", "frontier_step", "BYTES_PER_STATE", "DEFAULT_MAX_STATES"]

_LIMB = 62
_EMPTY = -1
_HASH = np.uint64(0x9E3779B97F4A7C15)

#: What one live state costs at the peak of a step, measured (7x8: 22.5 million states in
#: 6.8 GB): its key and limbs, its successors' (key, source) pairs before and after they
#: are spread into buckets, and the merged output, with the buffers' growth margin.
BYTES_PER_STATE = 300


def _physical_memory() -> int:
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):  # pragma: no cover - not POSIX
        return 8 << 30


#: Default bound on the states of one step: what fits in 60 % of this machine's memory.
DEFAULT_MAX_STATES = max(1_000_000, int(0.6 * _physical_memory()) // BYTES_PER_STATE)


@cached_njit(inline="always")
def _popcount(x):  # pragma: no cover - compiled
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


@cached_njit(inline="always")
def _decode(key, W, b16, new_live, base):  # pragma: no cover - compiled
    """The frontier values of ``key`` into ``base[:W]``, the new square's into ``base[W]``; returns tn."""
    if b16:
        tn = key & 3
        x = key >> 2
        for q in range(W):
            base[q] = x & 15
            x >>= 4
    else:
        tn = key % 3
        x = key // 3
        for q in range(W):
            base[q] = x % 11
            x //= 11
    base[W] = 0 if new_live else 1
    return tn


@cached_njit(inline="always")
def _combo(base, W, m, nbr_p, nbr_end, b0, closed, out_live, z_dead, l_dead, z_req, l_req,
           z_forb):  # pragma: no cover - compiled
    """``allowed * 16 + required`` (neighbour bit sets) of a state, or -1 when it is dead."""
    # frontier positions holding 0, 1, a path end (bit q for position q), without
    # branches (the values are too irregular to predict)
    zm = 0
    om = 0
    for q in range(W):
        x = base[q]
        zm |= np.int64(x == 0) << q
        om |= np.int64(x == 1) << q
    lm = ~(zm | om)
    allowed = 0
    for b in range(m):
        pb = nbr_p[b]
        bad = ((om >> pb) & 1) | (((lm >> pb) & 1) & np.int64(nbr_end[b]))
        allowed |= (1 - bad) << b
    # The dead-state check, done once for the state: after the step a square keeps
    # its value, or, if it takes a move now, goes from 0 to a path end or from a path
    # end to 1. A square short of room must change (a required move), or must not
    # (a forbidden one), or the state is dead whatever the new square does.
    if (zm & z_dead) | (lm & l_dead):
        return -1
    reqpos = (zm & z_req) | (lm & l_req)
    forbpos = zm & z_forb
    required = 0
    for b in range(m):
        pb = nbr_p[b]
        required |= ((reqpos >> pb) & 1) << b
        allowed &= ~(((forbpos >> pb) & 1) << b)
    # the leaving square: a path end of a closed tour, or a live square without a
    # move, must take its move from the new square now
    v0 = base[0]
    if v0 == 0 and out_live and closed:
        return -1
    if (closed and v0 >= 2) or (v0 == 0 and out_live):
        if b0 < 0:
            return -1
        required |= 1 << b0
    if required & ~allowed:
        return -1
    return allowed * 16 + required


@cached_njit(parallel=True)
def frontier_step(keys, counts, W, b16, closed, free_terminals, nbr_p, nbr_end, masks, new_live,
                  out_live, out_fixed, room, fixed_pos, may_finish, complete_check, max_states,
                  bkey, bsrc, skey, ssrc, okey, ocnt):  # pragma: no cover - compiled
    """One square of the sweep: the successors of every state, merged by key.

    Returns ``(keys, counts, done, complete, status, work)``: the next states (their
    counts with the input's limbs, or one more when a count needs it), the limbs of the tours finished at this square, the
    limbs of the states that are whole open tours if the board ended here
    (``complete_check``), and ``status`` 0, or 1 when more than ``max_states`` states
    were made (the step stopped), and the work arrays (``bkey`` .. ``ocnt``: buffers
    kept from step to step, here grown when they were short).

    Two phases: the successors are written as (key, source state) pairs, then spread
    into buckets by a hash of the key and merged bucket by bucket in a small table that
    stays in the processor's cache (a table of all states would miss it at every insert).
    """
    S = keys.shape[0]
    L = counts.shape[1]
    Lo = L + 1
    mask62 = (np.int64(1) << 62) - 1
    # digit weights: key = tn + sum(d[q] * pw[q])
    pw = np.empty(W, np.int64)
    if b16:
        for q in range(W):
            pw[q] = np.int64(4) << (4 * q)
    else:
        x = np.int64(3)
        for q in range(W):
            pw[q] = x
            x *= 11
    need0 = 2 if closed else 1
    zbad = np.zeros(W, np.bool_)  # a square without a move here is dead
    lbad = np.zeros(W, np.bool_)  # a path end here is dead
    for q in range(W):
        zbad[q] = room[q] < need0
        lbad[q] = closed and room[q] < 1
    # open tours: frontier squares that can take one move at most become ends of the tour
    # (0 with room 1, a path end with room 0; fixed ends aside), as base positions q + 1
    one_room = 0
    no_room = 0
    if not closed:
        for q in range(W):
            if (fixed_pos >> q) & 1:
                continue
            if room[q] == 1:
                one_room |= np.int64(1) << (q + 1)
            elif room[q] == 0:
                no_room |= np.int64(1) << (q + 1)
    m = nbr_p.shape[0]
    b0 = -1  # the neighbour bit of the leaving square (frontier position 0)
    bit_at = np.full(W + 1, -1, np.int64)
    for b in range(m):
        bit_at[nbr_p[b]] = b
        if nbr_p[b] == 0:
            b0 = b
    # position masks over frontier positions 1..W-1 (they move to q - 1 in the step)
    z_dead = 0  # a 0 here is dead: short of room and no move can reach it now
    l_dead = 0  # a path end here is dead
    z_req = 0  # a 0 here must take a move now
    l_req = 0  # a path end here must take a move now
    z_forb = 0  # a 0 here must not take a move now (it would be a path end short of room)
    for q in range(1, W):
        nb = bit_at[q] >= 0
        if zbad[q - 1]:
            if not nb or lbad[q - 1]:
                z_dead |= np.int64(1) << q
            else:
                z_req |= np.int64(1) << q
        elif lbad[q - 1] and nb:
            z_forb |= np.int64(1) << q
        if lbad[q - 1]:
            if nb:
                l_req |= np.int64(1) << q
            else:
                l_dead |= np.int64(1) << q
    # after the step the new square holds 0 (no move), a path end (one) or 1 (two):
    # keep the masks whose count of moves its room allows
    keep = np.zeros(masks.shape[0], np.int64)
    nm = 0
    for mi in range(masks.shape[0]):
        moves = 0
        for b in range(m):
            moves += (masks[mi] >> b) & 1
        if new_live and ((moves == 0 and zbad[W - 1]) or (moves == 1 and lbad[W - 1])):
            continue
        keep[nm] = masks[mi]
        nm += 1
    # the masks to try for each (allowed, required) pair of neighbour bit sets
    mstart = np.zeros(257, np.int64)
    mlist = np.empty(256 * 16, np.int64)
    t = 0
    for combo in range(256):
        mstart[combo] = t
        al = combo // 16
        rq = combo % 16
        for mi in range(nm):
            mask = keep[mi]
            if mask & ~al or mask & rq != rq:
                continue
            mlist[t] = mask
            t += 1
    mstart[256] = t
    done = np.zeros(Lo, np.int64)
    comp = np.zeros(Lo, np.int64)
    # Pass 1 (in parallel): the dead-state check and the masks worth trying, per state.
    combo_of = np.empty(S, np.int64)
    for s in prange(S):
        base = np.empty(W + 1, np.int64)
        _decode(keys[s], W, b16, new_live, base)
        combo_of[s] = _combo(base, W, m, nbr_p, nbr_end, b0, closed, out_live,
                             z_dead, l_dead, z_req, l_req, z_forb)
    off = np.empty(S + 1, np.int64)
    off[0] = 0
    for s in range(S):
        cb = combo_of[s]
        off[s + 1] = off[s] + (mstart[cb + 1] - mstart[cb] if cb >= 0 else 0)
    n = off[S]
    if n > 4 * max_states + 1024:  # the successor buffers are bounded too (about three a state)
        return (keys[:0].copy(), np.zeros((0, Lo), np.int64), done, comp, 1,
                bkey, bsrc, skey, ssrc, okey, ocnt)
    if bkey.shape[0] < n:
        bkey = np.empty(n + n // 2, np.int64)
        bsrc = np.empty(n + n // 2, np.int64)
    # Pass 2 (in parallel, by chunks of states): every successor into its slot.
    nch = min(S, 256)
    dch = np.zeros((nch, Lo), np.int64)  # tours finished here, per chunk
    for ch in prange(nch):
        base = np.empty(W + 1, np.int64)
        w = np.empty(W + 1, np.int64)
        lab = np.zeros(128, np.int64)
        lab[1] = 1
        for s in range(ch * S // nch, (ch + 1) * S // nch):
            combo = combo_of[s]
            if combo < 0:
                continue
            tn = _decode(keys[s], W, b16, new_live, base)
            o = off[s]
            zm = 0
            lm = 0
            if not closed:
                for q in range(1, W):
                    x = base[q]
                    zm |= np.int64(x == 0) << q
                    lm |= np.int64(x >= 2) << q
            for mi in range(mstart[combo], mstart[combo + 1]):
                mask = mlist[mi]
                slot = o
                o += 1
                bkey[slot] = -1  # no successor (yet) in this slot
                for q in range(W + 1):
                    w[q] = base[q]
                ok = True
                finished = False
                fresh = 100
                for b in range(m):
                    if not (mask >> b) & 1:
                        continue
                    p = nbr_p[b]
                    a = w[p]
                    bv = w[W]
                    if a == 1 or (nbr_end[b] and a >= 2):
                        ok = False
                        break
                    if a == 0 and bv == 0:
                        fresh += 1
                        w[p] = fresh
                        w[W] = fresh
                    elif a == 0:
                        w[p] = bv
                        w[W] = 1
                    elif bv == 0:
                        w[W] = a
                        w[p] = 1
                    elif a == bv:  # closes a cycle
                        if not closed:
                            ok = False
                            break
                        w[p] = 1
                        w[W] = 1
                        finished = True
                    else:  # joins two paths
                        w[p] = 1
                        w[W] = 1
                        present = False
                        for t in range(W + 1):
                            if w[t] == bv or w[t] == a:
                                present = True
                                break
                        if present:
                            for t in range(W + 1):
                                if w[t] == bv:
                                    w[t] = a
                        else:
                            finished = True
                if not ok:
                    continue
                v = w[0]
                tn2 = tn
                if v == 0 and out_live:
                    continue
                if v >= 2:
                    if closed:
                        continue
                    if not out_fixed:
                        if tn2 >= free_terminals:
                            continue
                        tn2 += 1
                    present = False
                    for t in range(1, W + 1):
                        if w[t] == v:
                            present = True
                            break
                    if not present:
                        finished = True
                elif out_fixed and v != 1:
                    continue
                if finished:
                    if may_finish:
                        whole = True
                        for t in range(1, W + 1):
                            if w[t] != 1:
                                whole = False
                                break
                        if whole:
                            cy = 0
                            for li in range(Lo):
                                y = dch[ch, li] + cy
                                if li < L:
                                    y += counts[s, li]
                                cy = y >> 62
                                dch[ch, li] = y & mask62
                    continue
                if not closed:
                    chg = 0
                    moves = 0
                    for b in range(m):
                        bit = (mask >> b) & 1
                        chg |= bit << nbr_p[b]
                        moves += bit
                    zpost = zm & ~chg
                    lpost = (lm & ~chg) | (zm & chg)
                    if new_live:
                        if moves == 0:
                            zpost |= np.int64(1) << W
                        elif moves == 1:
                            lpost |= np.int64(1) << W
                    if tn2 + _popcount(zpost & one_room) + _popcount(lpost & no_room) > free_terminals:
                        continue
                # relabel the path ends in frontier order, and encode
                # (branch-free: lab[0] = 0, lab[1] = 1, lab[label] = 0 until it is numbered)
                nxt = 2
                nk = tn2
                for q in range(W):
                    x = w[q + 1]
                    y = lab[x]
                    fresh_lab = np.int64(y == 0) & np.int64(x >= 2)
                    y += fresh_lab * nxt
                    lab[x] = y
                    nxt += fresh_lab
                    nk += y * pw[q]
                for q in range(1, W + 1):
                    x = w[q]
                    lab[x] = x * np.int64(x < 2)
                bkey[slot] = nk
                bsrc[slot] = s
    for ch in range(nch):
        c = 0
        for li in range(Lo):
            y = done[li] + dch[ch, li] + c
            c = y >> 62
            done[li] = y & mask62
    # spread the successors into buckets by hash
    lognb = 0
    while (np.int64(1) << lognb) * 512 < n:
        lognb += 1
    nbk = np.int64(1) << lognb
    start = np.zeros(nbk + 1, np.int64)
    for t in range(n):
        if bkey[t] < 0:
            continue
        h = np.int64((np.uint64(bkey[t]) * _HASH) >> np.uint64(40)) & (nbk - 1)
        start[h + 1] += 1
    big = 0
    for h in range(nbk):
        if start[h + 1] > big:
            big = start[h + 1]
        start[h + 1] += start[h]
    pos = start[:nbk].copy()
    if skey.shape[0] < n:
        skey = np.empty(n + n // 2, np.int64)
        ssrc = np.empty(n + n // 2, np.int64)
    for t in range(n):
        nk = bkey[t]
        if nk < 0:
            continue
        h = np.int64((np.uint64(nk) * _HASH) >> np.uint64(40)) & (nbk - 1)
        j = pos[h]
        skey[j] = nk
        ssrc[j] = bsrc[t]
        pos[h] = j + 1
    # merge bucket by bucket (in parallel, by chunks of buckets): the distinct keys of
    # bucket h go to the front of its own range start[h] .. start[h + 1]
    logt = 4
    while (np.int64(1) << logt) < 2 * big:
        logt += 1
    tcap = np.int64(1) << logt
    if okey.shape[0] < n:
        okey = np.empty(n + n // 2, np.int64)
    if ocnt.shape[0] < n * Lo:
        ocnt = np.empty((n + n // 2) * Lo, np.int64)
    nb_used = np.zeros(nbk, np.int64)
    nchb = min(nbk, 64)
    for ch in prange(nchb):
        tslot = np.full(tcap, -1, np.int64)  # output index of the key in this slot
        for h in range(ch * nbk // nchb, (ch + 1) * nbk // nchb):
            first = start[h]
            used_h = first
            for t in range(start[h], start[h + 1]):
                nk = skey[t]
                g = np.int64((np.uint64(nk) * _HASH) >> np.uint64(64 - logt))
                while True:
                    o = tslot[g]
                    if o < 0:
                        o = used_h
                        used_h += 1
                        tslot[g] = o
                        okey[o] = nk
                        for li in range(Lo):
                            ocnt[o * Lo + li] = 0
                        break
                    if okey[o] == nk:
                        break
                    g = (g + 1) & (tcap - 1)
                src = ssrc[t]
                cy = 0
                for li in range(Lo):
                    y = ocnt[o * Lo + li] + cy
                    if li < L:
                        y += counts[src, li]
                    cy = y >> 62
                    ocnt[o * Lo + li] = y & mask62
            nb_used[h] = used_h - first
            # clear the slots used by this bucket
            for o in range(first, used_h):
                g = np.int64((np.uint64(okey[o]) * _HASH) >> np.uint64(64 - logt))
                while tslot[g] >= 0:
                    tslot[g] = -1
                    g = (g + 1) & (tcap - 1)
    # close the gaps between the buckets
    used = 0
    for h in range(nbk):
        src0 = start[h]
        for t in range(nb_used[h]):
            okey[used] = okey[src0 + t]
            for li in range(Lo):
                ocnt[used * Lo + li] = ocnt[(src0 + t) * Lo + li]
            used += 1
    status = 1 if used > max_states else 0
    if complete_check:  # one path, both ends free terminals: a whole open tour here
        for o in range(used):
            tk = okey[o]
            if b16:
                tn = tk & 3
                x = tk >> 2
            else:
                tn = tk % 3
                x = tk // 3
            ends = 0
            good = True
            for q in range(W):
                if b16:
                    d = x & 15
                    x >>= 4
                else:
                    d = x % 11
                    x //= 11
                if d == 0 or d > 2:
                    good = False
                    break
                if d == 2:
                    ends += 1
            if good and ends >= 1 and ends + tn == 2:
                c = 0
                for li in range(Lo):
                    y = comp[li] + ocnt[o * Lo + li] + c
                    c = y >> 62
                    comp[li] = y & mask62
    # the top limb only where some count needs it
    Lout = L
    for o in range(used):
        if ocnt[o * Lo + L] != 0:
            Lout = Lo
            break
    out_keys = okey[:used].copy()
    out_cnt = np.empty((used, Lout), np.int64)
    for o in range(used):
        for li in range(Lout):
            out_cnt[o, li] = ocnt[o * Lo + li]
    return out_keys, out_cnt, done, comp, status, bkey, bsrc, skey, ssrc, okey, ocnt


def _limbs_to_int(limbs) -> int:
    v = 0
    for i in range(len(limbs) - 1, -1, -1):
        v = (v << _LIMB) | int(limbs[i])
    return v


def _masks(m: int, must: int, cap: int) -> np.ndarray:
    return np.array([mask for mask in range(1 << m) if mask & must == must and bin(mask).count("1") <= cap],
                    dtype=np.int64)


class _Sweep:
    """The per-square parameters of a sweep and the loop that runs the kernel."""

    def __init__(self, k, W, closed, free_terminals, max_states, time_limit, progress, t0, n_cols):
        self.k, self.W, self.closed, self.free = k, W, closed, free_terminals
        self.b16 = 2 + 4 * W <= 63
        self.max_states, self.time_limit, self.progress, self.t0, self.n_cols = (
            max_states, time_limit, progress, t0, n_cols)
        self.keys = np.zeros(1, np.int64)
        # the start: every frontier square "finished" (value 1), tn = 0
        if self.b16:
            key = 0
            for q in range(W):
                key |= 1 << (2 + 4 * q)
        else:
            key = 0
            x = 3
            for q in range(W):
                key += x
                x *= 11
        self.keys[0] = key
        self.counts = np.ones((1, 1), np.int64)
        self.work = [np.empty(0, np.int64) for _ in range(6)]  # the kernel's buffers, kept
        self.peak = 1
        self.per_column = []

    def step(self, i, nbr, must, cap, new_live, out_live, out_fixed, room, fixed_pos, may_finish, complete_check):
        nbr_p = np.array([p for p, _e in nbr], dtype=np.int64)
        nbr_end = np.array([e for _p, e in nbr], dtype=np.bool_)
        keys, counts, done, comp, status, *work = frontier_step(
            self.keys, self.counts, self.W, self.b16, self.closed, self.free, nbr_p, nbr_end,
            _masks(len(nbr), must, cap), new_live, out_live, out_fixed, np.asarray(room, dtype=np.int64),
            fixed_pos, may_finish, complete_check, self.max_states, *self.work)
        self.work = work
        c = i // self.k
        if status:
            raise ResourceLimit(f"the frontier needs more than {self.max_states:,} states at square {i} "
                                f"(column {i // self.k + 1} of {self.n_cols}; about "
                                f"{self.max_states * BYTES_PER_STATE / 1e9:.0f} GB); the count is out of reach here")
        self.keys, self.counts = keys, counts
        n = len(keys)
        if n > self.peak:
            self.peak = n
        if self.time_limit is not None and time.perf_counter() - self.t0 > self.time_limit:
            raise LimitReached(f"the frontier count stopped at its time limit ({self.time_limit:g} s) "
                               f"in column {min(c, self.n_cols - 1) + 1} of {self.n_cols}, with {n:,} states")
        if i % self.k == self.k - 1 and c < self.n_cols:
            self.per_column.append(n)
            if self.progress is not None:
                self.progress(c + 1, self.n_cols, f"column {c + 1} of {self.n_cols}, {n:,} states")
        return _limbs_to_int(done), _limbs_to_int(comp)


def count_request_jit(board: Board, closed: bool = True, start=None, end=None, forced=(), forbidden=(),
                      progress=None, max_states: int = DEFAULT_MAX_STATES,
                      time_limit: float | None = None) -> FrontierCount:
    """:func:`kt_formal.engines.frontier.count_request`, compiled (same arguments and result)."""
    t0 = time.perf_counter()
    lay = sweep_layout(board, closed, start, end, forced, forbidden, t0)
    if isinstance(lay, FrontierCount):
        return lay
    rows, cols, k, n, N, W = lay.rows, lay.cols, lay.k, lay.n, lay.N, lay.W
    live, ends, later, live_after = lay.live, lay.ends, lay.later, lay.live_after
    free_terminals, forced_set, forbidden_set = lay.free_terminals, lay.forced_set, lay.forbidden_set
    announce_compile(frontier_step)
    sweep = _Sweep(k, W, closed, free_terminals, max_states, time_limit, progress, t0, n)
    done = 0
    for i in range(N + W):
        on_board = i < N
        r, c = i % k, i // k
        is_live = on_board and live[i]
        nbr = []
        must = 0
        if is_live:
            for dr, dc, p in ((-1, -2, 0), (1, -2, 2), (-2, -1, k - 1), (2, -1, k + 3)):
                rr, cc = r + dr, c + dc
                if 0 <= rr < k and cc >= 0:
                    j = i - W + p
                    e = frozenset((i, j))
                    if live[j] and e not in forbidden_set:
                        if e in forced_set:
                            must |= 1 << len(nbr)
                        nbr.append((p, j in ends))
        out_j = i - W
        room = []
        for q in range(W):
            j = i + 1 - W + q
            room.append(sum(1 for t in later[j] if t > i) if 0 <= j < N and live[j] else 9)
        fixed_pos = sum(1 << q for q in range(W) if i + 1 - W + q in ends)
        d, _ = sweep.step(i, nbr, must, 1 if i in ends else 2, is_live, out_j >= 0 and live[out_j],
                          out_j in ends, room, fixed_pos, live_after[i + 1] == 0 if on_board else True, False)
        done += d
    return FrontierCount(done, closed, rows, cols, sweep.per_column, sweep.peak, time.perf_counter() - t0)


def count_row(k: int, a: int, b: int, closed: bool = True, progress=None, max_states: int = DEFAULT_MAX_STATES,
              time_limit: float | None = None, on_count=None) -> dict:
    """The tours of every ``k x n`` board for ``a <= n <= b``, in one sweep over ``k x b``.

    ``on_count(n, count)`` is called as each width's count is known (in order of n).
    Returns ``{n: count}``.
    """
    if not 1 <= k <= MAX_SHORT_SIDE:
        raise InvalidInput(f"the frontier method counts boards with a side of at most {MAX_SHORT_SIDE}, not {k}")
    if not 1 <= a <= b:
        raise InvalidInput(f"the range {a}..{b} is empty")
    t0 = time.perf_counter()
    out = {}
    if k == 1:  # no knight moves: only the single square has a (open) tour
        for n in range(a, b + 1):
            out[n] = 1 if n == 1 and not closed else 0
            if on_count is not None:
                on_count(n, out[n])
        return out
    W = 2 * k + 1
    N = k * b
    announce_compile(frontier_step)
    sweep = _Sweep(k, W, closed, 0 if closed else 2, max_states, time_limit, progress, t0, b)
    for i in range(N):
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
        end_of_width = r == k - 1 and c + 1 >= a
        d, comp = sweep.step(i, nbr, 0, 2, True, i - W >= 0, False, room, 0, end_of_width,
                             end_of_width and not closed)
        if end_of_width:
            out[c + 1] = d + comp
            if on_count is not None:
                on_count(c + 1, out[c + 1])
    return out
