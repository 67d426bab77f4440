"""Closed tours eight across on packed keys: the frontier of 17 places in one 63-bit word.

A count eight across has ``W = 17`` frontier places, and 17 hexadecimal digits do not fit a
64-bit key, so these counts ran on :func:`~kt_formal.counting.frontier_tables.fill_wide`,
which decodes each state into an array of base-11 digits. For closed tours two places need
fewer than four bits:

* place 0 leaves the window at the next step, when only the new square can give it a
  move: a closed tour's square there must be finished (1) or a path end (which after the
  labels' renumbering in frontier order is always label 2). A square without a move there
  would need two, and a state holding one is dropped when it is made (it would die at the
  next step anyway): one bit;
* place 1, the second in frontier order, holds 0, 1, label 2 or label 3: two bits.

A key is so ``bit 0``: place 0 holds a path end; ``bits 1-2``: place 1's value; ``bits
3 + 4 (q - 2) ..``: place q's value, q = 2..16 (4 bits each, at most label 9: 17 places
hold at most eight paths' ends); 63 bits in all.

:func:`fill_closed17` steps such a state on one word too: place 0 as a number of its own
(its move to the new square, if it is a path end, is made first: the new square takes its
label), places 1..16 as the nibbles of one 64-bit word, the new square as a number; the
moves, the joins of two paths (one mask of nibbles), the look-ahead and the renumbering of
the labels are those of :func:`~kt_formal.counting.frontier_tables.fill_closed16`, and the
mirror image at a column's end turns each column's eight nibbles over with three shifts.
The counts are those of ``fill_wide`` (tests compare them on holed boards and rows).
"""

from __future__ import annotations

import numpy as np
from numba import prange

from kt_formal.engines.compiled import cached_njit
from kt_formal.counting.frontier_hash import emit
from kt_formal.counting.frontier_keys import DB_INDEX, N_PRM, ONES, P_B0, P_L_DEAD, P_L_REQ, P_MAY_FINISH, P_MIRROR, P_N_WATCH, P_NEW_LIVE, P_OUT_LIVE, P_Z_DEAD, P_Z_FORB, P_Z_REQ, nibbles_equal, popcount, spread_bits, with_leaving
from kt_formal.counting.frontier_successors import labels_from, neighbour_sets
from kt_formal.counting.frontier_tables import next_block, insert_part, table_sizes, thread_arrays, thread_done, fill_closed16, fill_open16, fill_wide, packed_keys

__all__ = ["W17", "fill_closed17", "fill_kernel", "key_encoding", "start_key", "pack17", "unpack17"]

#: the frontier places of a count eight across (two columns and one square)
W17 = 17

_LOW16 = 0xFFFF


def pack17(values) -> int:
    """The key of the 17 place values ``values`` (already in frontier order, labels
    renumbered; place 0 holding 1 or 2, place 1 at most 3)."""
    v = [int(x) for x in values]
    if len(v) != W17 or v[0] not in (1, 2) or not 0 <= v[1] <= 3 or not all(0 <= x <= 15 for x in v):
        raise ValueError(f"not a closed state of 17 places: {v}")
    key = (v[0] - 1) | (v[1] << 1)
    for q in range(2, W17):
        key |= v[q] << (3 + 4 * (q - 2))
    return key


def unpack17(key: int) -> list[int]:
    """The 17 place values of a key of :func:`pack17`."""
    return [1 + (key & 1), (key >> 1) & 3] + [(key >> (3 + 4 * (q - 2))) & 15 for q in range(2, W17)]


def start_key(W: int, closed: bool) -> int:
    """The first state of a sweep of ``W`` places, in the keys of its kernel: every place
    finished (value 1), no end of an open tour placed (``tn = 0``)."""
    if key_encoding(W, closed):
        return pack17([1] * W17)
    if packed_keys(W):  # 4-bit digits above the two bits of tn
        return sum(1 << (2 + 4 * q) for q in range(W))
    return sum(3 * 11 ** q for q in range(W))  # base 11, times 3 for tn


def key_encoding(W: int, closed: bool) -> str | None:
    """The name of the keys' encoding where it is not the plain digits (checkpoints hold keys:
    a checkpoint of one encoding is not resumed by a count of another)."""
    return "closed17" if closed and W == W17 else None


def fill_kernel(W: int, closed: bool):
    """The kernel that expands the states of a count with a frontier of ``W`` places:
    packed keys of closed or of open tours, closed tours eight across, or wider keys."""
    if packed_keys(W):
        return fill_closed16 if closed else fill_open16
    return fill_closed17 if key_encoding(W, closed) else fill_wide


@cached_njit(inline="always")
def _unpack(key):  # pragma: no cover - compiled
    """Place 0's value and places 1..16 as nibbles 0..15 of one word."""
    k = np.uint64(key)
    p0 = np.uint64(1) + (k & np.uint64(1))
    w = ((k >> np.uint64(3)) << np.uint64(4)) | ((k >> np.uint64(1)) & np.uint64(3))
    return p0, w


@cached_njit(inline="always")
def _pack(end0, z):  # pragma: no cover - compiled
    """The key of a state after a step: ``end0``, place 0 holds a path end; ``z``, places
    1..16 as nibbles 0..15 (labels renumbered)."""
    return np.int64(((z >> np.uint64(4)) << np.uint64(3)) | ((z & np.uint64(15)) << np.uint64(1))
                    | np.uint64(end0))


@cached_njit(inline="always")
def _relabelled(z, first, nxt):  # pragma: no cover - compiled
    """``z`` (16 nibbles) with its labels renumbered in frontier order: the places of
    ``first`` (spread bits) take label 2, the other labels ``nxt``, ``nxt + 1``, ... as met."""
    one = np.uint64(1)
    F = np.uint64(15)
    t = ((z >> one) | (z >> np.uint64(2)) | (z >> np.uint64(3))) & ONES  # places holding a label
    return labels_from(z, t & ~first, (z & ~(t * F)) | (first * np.uint64(2)), np.uint64(nxt), DB_INDEX)


@cached_njit(inline="always")
def _turned_over(z):  # pragma: no cover - compiled
    """Each 32-bit half of ``z`` with its eight nibbles in the reverse order (the rows of the
    window's two columns turned upside down)."""
    x = ((z >> np.uint64(4)) & np.uint64(0x0F0F0F0F0F0F0F0F)) | ((z & np.uint64(0x0F0F0F0F0F0F0F0F)) << np.uint64(4))
    x = ((x >> np.uint64(8)) & np.uint64(0x00FF00FF00FF00FF)) | ((x & np.uint64(0x00FF00FF00FF00FF)) << np.uint64(8))
    return ((x >> np.uint64(16)) & np.uint64(0x0000FFFF0000FFFF)) | ((x & np.uint64(0x0000FFFF0000FFFF)) << np.uint64(16))


@cached_njit(inline="always")
def _combo17(p0, w, m, nbr_s, nbr_end, out_live, z_dead, l_dead, z_req, l_req, z_forb,
             b0):  # pragma: no cover - compiled
    """:func:`~kt_formal.counting.frontier_keys.move_combo` of a state (place 0 ``p0``, places
    1..16 the nibbles of ``w``; the masks spread, nibble q - 1 for place q)."""
    allowed, required = neighbour_sets(w, ONES, m, nbr_s, nbr_end, z_dead, l_dead, z_req, l_req, z_forb, b0)
    if allowed < 0:
        return -1
    one = np.uint64(1)
    if b0 >= 0 and p0 != one and not nbr_end[b0]:  # the leaving square: 1 or a path end
        allowed |= 1 << b0
    return with_leaving(False, p0 != one, True, out_live, b0, allowed, required)


@cached_njit(inline="always")
def _moves17(p0, w, bv, mask, m, nbr_s, nbr_end, b0):  # pragma: no cover - compiled
    """The moves of ``mask`` from the new square (value ``bv``): ``(w, bv, code)`` as
    :func:`~kt_formal.counting.frontier_successors._moves16`'s. A move to place 0 (a path
    end: the only move it may take) goes first: the new square takes its label."""
    zero = np.uint64(0)
    one = np.uint64(1)
    two = np.uint64(2)
    F = np.uint64(15)
    code = 0
    if b0 >= 0 and (mask >> b0) & 1:
        bv = p0
    for b in range(m):
        if not (mask >> b) & 1 or b == b0:
            continue
        s = nbr_s[b]
        a = (w >> s) & F
        if a == one or (nbr_end[b] and a >= two):
            return w, bv, -1
        if a == zero:
            if bv == zero:  # a new path: a label no state holds (15)
                w |= F << s
                bv = F
            else:
                w |= bv << s
                bv = one
        elif bv == zero:
            w = (w & ~(F << s)) | (one << s)
            bv = a
        else:
            w = (w & ~(F << s)) | (one << s)
            if a == bv:  # the two ends of one path joined: the last cycle
                code = 1
            else:  # joins two paths: bv's other end takes label a
                eb = nibbles_equal(w, bv)
                if eb | nibbles_equal(w, a):
                    w = (w & ~(eb * F)) | (eb * a)
                else:
                    code = 1
            bv = one
    return w, bv, code


@cached_njit(inline="always")
def _successor17(p0, w, bv, mask, m, nbr_s, nbr_end, b0, may_finish, mirror, n_watch, wb, wt, wa,
                 wn):  # pragma: no cover - compiled
    """The key of the state that ``mask`` makes, -1 when it makes none, -2 when it
    finishes the tour (:func:`~kt_formal.counting.frontier_successors.successor16`)."""
    one = np.uint64(1)
    two = np.uint64(2)
    F = np.uint64(15)
    w, bv, code = _moves17(p0, w, bv, mask, m, nbr_s, nbr_end, b0)
    if code < 0:
        return -1
    if code == 1:
        if not may_finish or w != ONES or bv != one:
            return -1
        return -2
    if n_watch:  # the look-ahead: places after the step that can still take a move
        avail = np.int64(ONES & ~nibbles_equal(w, one))
        top = np.int64(bv != one)
        for j in range(n_watch):
            if wa[j] + popcount(wb[j] & avail) + (wt[j] & top) < wn[j]:
                return -1
    v0 = w & F  # place 0 after the step
    if v0 == np.uint64(0):  # it leaves next with one move at most
        return -1
    z = (w >> np.uint64(4)) | (bv << np.uint64(60))
    if v0 >= two:
        return _pack(1, _relabelled(z, nibbles_equal(z, v0), 3))
    key = _pack(0, _relabelled(z, np.uint64(0), 2))
    if mirror:
        return min(key, _pack(0, _relabelled(_turned_over(z), np.uint64(0), 2)))
    return key


@cached_njit  # once a call or a block: inlined it cost compiling, not running
def _watch17(prm):  # pragma: no cover - compiled
    """The watched squares of ``prm``: their window neighbours among places 0..15 after the
    step (spread), whether the new square (place 16) is one, moves ahead, need."""
    n = prm[P_N_WATCH]
    wb = np.empty(n, np.int64)
    wt = np.empty(n, np.int64)
    wa = np.empty(n, np.int64)
    wn = np.empty(n, np.int64)
    for j in range(n):
        o = N_PRM + 4 * j
        bits = prm[o] >> 1
        wb[j] = np.int64(spread_bits(bits & _LOW16))
        wt[j] = (bits >> 16) & 1
        wa[j] = prm[o + 1]
        wn[j] = prm[o + 2]
    return n, wb, wt, wa, wn


@cached_njit(parallel=True)
def fill_closed17(keys, counts, s0, prm, nbr_p, nbr_end, pw, mstart, mlist, tab, Lo, logT, capp,
                  fill, limit, gk, gs, dacc, ovf, hlo, hhi):  # pragma: no cover - compiled
    """:func:`~kt_formal.counting.frontier_tables.fill_closed16` for closed tours eight
    across, on the keys of this module."""
    S, L, T, _W, m, G, cflat, used = table_sizes(keys, counts, prm, nbr_p, logT, gk)
    nbr_s = np.empty(m, np.uint64)
    for b in range(m):
        nbr_s[b] = np.uint64(4 * max(nbr_p[b] - 1, 0))
    z_dead, l_dead = spread_bits(prm[P_Z_DEAD] >> 1), spread_bits(prm[P_L_DEAD] >> 1)
    z_req, l_req = spread_bits(prm[P_Z_REQ] >> 1), spread_bits(prm[P_L_REQ] >> 1)
    z_forb = spread_bits(prm[P_Z_FORB] >> 1)
    bv0 = np.uint64(0) if prm[P_NEW_LIVE] else np.uint64(1)
    out_live, may_finish, mirror, b0 = prm[P_OUT_LIVE] != 0, prm[P_MAY_FINISH] != 0, prm[P_MIRROR] != 0, prm[P_B0]
    n_watch, wb, wt, wa, wn = _watch17(prm)
    s = s0
    while s < S:
        e = next_block(s, S, fill, T, G, limit)
        if e < 0:
            return s
        for t in prange(T):
            acc_d, cnt = thread_arrays(L, T)
            for x in range(s + (e - s) * t // T, s + (e - s) * (t + 1) // T):
                p0, w = _unpack(keys[x])
                c = _combo17(p0, w, m, nbr_s, nbr_end, out_live, z_dead, l_dead, z_req, l_req, z_forb, b0)
                if c < 0:
                    continue
                for mi in range(mstart[c], mstart[c + 1]):
                    nk = _successor17(p0, w, bv0, mlist[mi], m, nbr_s, nbr_end, b0, may_finish, mirror,
                                      n_watch, wb, wt, wa, wn)
                    emit(nk, x, acc_d, cflat, L, logT, capp, (t * T) * G, G, cnt, gk, gs, hlo, hhi)
            thread_done(np.int64(t), T, used, cnt, dacc, acc_d, L)
        for p in prange(T):
            insert_part(np.int64(p), T, capp, G, used, gk, gs, tab, 1 + Lo, fill, cflat, L, Lo, logT, ovf)
        s = e
    return S
