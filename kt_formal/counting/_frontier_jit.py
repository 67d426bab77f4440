"""The frontier (transfer-matrix) tour counter, compiled: one numba kernel a square.

The dynamic programme is :mod:`kt_formal.counting.frontier`'s, step for step (the same
sweep, the same state values, the same pruning); that pure-Python version stays the
reference the tests compare against. What changes is the bookkeeping:

* a state is one int64 key: the terminal count ``tn`` plus the ``W = 2k + 1`` frontier
  values as digits (base 16, 4 bits each, for ``k <= 7``; base 11 for ``k = 8``, where
  17 hexadecimal digits would not fit: at most nine path labels, so digits 0..10);
* the live states are two arrays, keys and counts; a step merges their successors into
  one open-addressing hash table: the states go in blocks, every thread writes the
  successors of its share of a block into a small buffer (in the processor's cache),
  then every thread inserts those whose hash falls in its own part of the table (so
  no two threads write one slot), touching a batch of slots before it inserts them so
  that their loads overlap; a slot holds the key and the count's limbs side by side.
  The table is laid out for the states the same row gave in the last column (grown
  when short) and kept, emptied, for the next step; the merged states are then read
  out into dense arrays. At the peak of a step the input, the table and the output
  are held, about :data:`BYTES_PER_STATE` bytes a state and nothing per successor
  (the successors of one block at a time);
* a step whose table would pass :data:`TABLE_BYTES` runs in passes: each takes the
  successors whose second hash falls in its range, and a pass whose table fills drops
  the keys of the upper half of its range in place (:func:`shrink`) and leaves that
  half to a pass of its own; the states of such a step, or of one too large for
  memory, go to files (mapped, and unlinked as soon as they are made), read back
  block by block by the next step. 8 x 8 (741 million states at its fullest step)
  runs so in 17 GB of memory and 24 GB of files;
* states of 4-bit digits (``k <= 7``) are stepped on the packed word itself (open tours
  too: the ends of the tour leaving, the pairing of the two unpartnered path ends once
  both are placed, and the end and whole-path pruning, on masks of nibbles):
  the moves set nibbles, a join renames a label at all its places with one mask
  (nibbles equal to a value, found without a loop), and the labels are renumbered in
  frontier order one label at a time, not one place at a time;
* the threads: a step of fewer than :data:`~kt_formal.engines._threads.SMALL_STEP` states
  runs on one, a larger one on those asked for (``threads=``, ``KT_FORMAL_THREADS``) or
  the cores free at that step; they sleep while they wait (:mod:`kt_formal.engines._threads`),
  so a busy machine costs a count its share of the cores, not a spinning team's;
* the kernels are loaded (compiled once, on a cold cache) by :func:`prepare_kernels`
  before a count's clock starts: compiling never uses up a time limit;
* closed tours of a board that looks the same upside down (its holes too, no fixed ends,
  no forced or forbidden moves; every ``k x n`` strip of :func:`count_row`): at the end of
  each column a state and its mirror image (rows turned over, labels renumbered) have
  the same ways to be finished, so both go to the smaller key (:func:`_mirror_image`)
  and the next column starts from about half the states: 6 x 8 in 0.54 s instead of
  0.86 s, 685,959 states at most instead of 938,849 (``symmetry=False`` merges nothing:
  the reference's states, state for state);
* counts are exact: 62-bit limbs per state with carries. A step keeps its input's
  limbs unless a sum overflows the top one, and then runs again with one limb more,
  so the width follows the largest count actually held; Python integers only at the
  end.

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
import tempfile
import time

import numba
import numpy as np
from numba import prange

from kt_formal.board import Board
from kt_formal.engines import _threads
from kt_formal.engines._jit import Preparation, cached_njit
from kt_formal.counting.frontier import MAX_SHORT_SIDE, FrontierCount, sweep_layout
from kt_formal.exceptions import InvalidInput, LimitReached, ResourceLimit

__all__ = ["count_request_jit", "count_row", "fill_step", "prepare_kernels", "KERNELS", "COMPILE_SECONDS",
           "BYTES_PER_STATE", "DEFAULT_MAX_STATES", "TABLE_BYTES", "SPILL_BYTES_PER_STATE"]

_LIMB = 62
_HASH = np.uint64(0x9E3779B97F4A7C15)
_BLOCK = 1 << 18  # successors written at once before they go into the table (4 MB)
_BATCH = 64  # table slots touched ahead of their inserts
_SPARE_BYTES = 256 << 20  # the largest state arrays kept for reuse
_LOAD = 0.75  # keys per slot the table is laid out for
_LIMIT = 0.9  # most keys per slot before the table grows
_HBITS = 16  # a step in passes splits the range of a second hash of the keys
_HSPACE = 1 << _HBITS
_HASH2 = np.uint64(0xD6E8FEB86659FD93)
#: table parts of a large step (a power of two), None: one a thread asked for (at most 16)
_THREADS = None
#: steps of fewer states than this fill one table part
_ONE_PART = 4096

#: What one state of a step's output costs at the step's peak, measured on 8 x 8 (230
#: million states after 159 million: 10.4 GB; 384 million after 161 million: 15.0 GB)
#: and 7 x 8 (22.5 million: 1.35 GB with the interpreter): the input's key and count,
#: the table's slot at three quarters full, the dense output.
BYTES_PER_STATE = 48


def _physical_memory() -> int:
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):  # pragma: no cover - not POSIX
        return 8 << 30


#: The most memory the hash table of one step may take: a step that needs more runs in
#: passes (and its states go to files in the spill directory).
TABLE_BYTES = int(0.6 * _physical_memory())

#: What one state of a step held in files costs on disk: its key and count as input and
#: as output (one limb each), with a quarter to spare.
SPILL_BYTES_PER_STATE = 40

#: Default bound on the states of one step: what fits in 70 % of this machine's memory.
DEFAULT_MAX_STATES = max(1_000_000, int(0.7 * _physical_memory()) // BYTES_PER_STATE)


@cached_njit(inline="always")
def _popcount(x):  # pragma: no cover - compiled
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


@cached_njit(inline="always")
def _lowest_bit(x):  # pragma: no cover - compiled
    """The index of the lowest set bit of ``x`` (> 0)."""
    n = 0
    while not (x >> n) & 1:
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
    return _with_leaving(base[0] == 0, base[0] >= 2, closed, out_live, b0, allowed, required)


@cached_njit(inline="always")
def _with_leaving(zero0, end0, closed, out_live, b0, allowed, required):  # pragma: no cover - compiled
    """``allowed * 16 + required`` once the leaving square (frontier position 0; ``zero0``:
    without a move, ``end0``: a path end) is seen to, or -1: a path end of a closed tour, or
    a live square without a move, must take its move from the new square now."""
    if zero0 and out_live and closed:
        return -1
    if (closed and end0) or (zero0 and out_live):
        if b0 < 0:
            return -1
        required |= 1 << b0
    if required & ~allowed:
        return -1
    return allowed * 16 + required


# The step's parameters travel in one int64 array (``prm``), at these places.
_P_W, _P_B16, _P_CLOSED, _P_FREE, _P_NEW_LIVE, _P_OUT_LIVE, _P_OUT_FIXED, _P_MAY_FINISH = range(8)
_P_B0, _P_Z_DEAD, _P_L_DEAD, _P_Z_REQ, _P_L_REQ, _P_Z_FORB, _P_ONE_ROOM, _P_NO_ROOM = range(8, 16)
_P_SHUT, _P_MERGE, _P_MIRROR = 16, 17, 18
_N_PRM = 19

_ONES = np.uint64(0x1111111111111111)
_SEVENS = np.uint64(0x7777777777777777)
_DEBRUIJN = np.uint64(0x03F79D71B4CB0A89)
_DB_INDEX = np.zeros(64, np.int64)  # bit index of a power of two, by its de Bruijn product
for _i in range(64):
    _DB_INDEX[((1 << _i) * 0x03F79D71B4CB0A89 & (2**64 - 1)) >> 58] = _i
del _i


@cached_njit
def step_tables(W, b16, closed, free_terminals, nbr_p, masks, new_live, out_live, out_fixed, room,
                fixed_pos, may_finish):  # pragma: no cover - compiled
    """What a square's step needs besides the states: ``(prm, pw, mstart, mlist)``.

    ``prm`` holds the flags and the position masks of the dead-state check (at the
    places ``_P_*``), ``pw`` the digit weights of a key, and ``mlist[mstart[c]:mstart[c + 1]]``
    the move masks worth trying for each combination ``c = allowed * 16 + required`` of
    neighbour bit sets.
    """
    pw = np.empty(W, np.int64)  # key = tn + sum(d[q] * pw[q])
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
    shut = 0  # a path end here takes no more moves: no room left, or a fixed end
    if not closed:
        for q in range(W):
            if (fixed_pos >> q) & 1:
                shut |= np.int64(1) << (q + 1)
                continue
            if room[q] == 0:
                shut |= np.int64(1) << (q + 1)
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
    prm = np.zeros(_N_PRM, np.int64)
    prm[_P_W] = W
    prm[_P_B16] = b16
    prm[_P_CLOSED] = closed
    prm[_P_FREE] = free_terminals
    prm[_P_NEW_LIVE] = new_live
    prm[_P_OUT_LIVE] = out_live
    prm[_P_OUT_FIXED] = out_fixed
    prm[_P_MAY_FINISH] = may_finish
    prm[_P_B0] = b0
    prm[_P_Z_DEAD] = z_dead
    prm[_P_L_DEAD] = l_dead
    prm[_P_Z_REQ] = z_req
    prm[_P_L_REQ] = l_req
    prm[_P_Z_FORB] = z_forb
    prm[_P_ONE_ROOM] = one_room
    prm[_P_NO_ROOM] = no_room
    prm[_P_SHUT] = shut
    prm[_P_MERGE] = (not closed) and free_terminals == 2
    return prm, pw, mstart, mlist


@cached_njit(inline="always")
def _nibbles_equal(x, v):  # pragma: no cover - compiled
    """Bit 4q set where nibble q of ``x`` (uint64) equals ``v`` (uint64, below 16), exactly."""
    z = x ^ (v * _ONES)
    h = ~(((z & _SEVENS) + _SEVENS) | z | _SEVENS)
    return (h >> np.uint64(3)) & _ONES


@cached_njit(inline="always")
def _spread_bits(bits):  # pragma: no cover - compiled
    x = np.uint64(0)
    q = 0
    while bits:
        if bits & 1:
            x |= np.uint64(1) << np.uint64(4 * q)
        bits >>= 1
        q += 1
    return x


@cached_njit(inline="always")
def _combo16(X, W, m, nbr_p4, nbr_end, out_live, z_dead, l_dead, z_req, l_req, z_forb, b0,
             low_w, closed):  # pragma: no cover - compiled
    """:func:`_combo` of a packed state ``X`` (nibble q: position q; the masks are spread,
    bit 4q for position q)."""
    one = np.uint64(1)
    zm = _nibbles_equal(X, np.uint64(0)) & low_w
    om = _nibbles_equal(X, one) & low_w
    lm = low_w & ~(zm | om)
    if (zm & z_dead) | (lm & l_dead):
        return -1
    reqpos = (zm & z_req) | (lm & l_req)
    forbpos = zm & z_forb
    allowed = 0
    required = 0
    for b in range(m):
        pb4 = nbr_p4[b]
        bad = ((om >> pb4) & one) | (((lm >> pb4) & one) & np.uint64(nbr_end[b]))
        ok = np.int64(one - bad) & ~np.int64((forbpos >> pb4) & one)
        allowed |= ok << b
        required |= np.int64((reqpos >> pb4) & one) << b
    v0 = X & np.uint64(15)
    return _with_leaving(v0 == np.uint64(0), v0 >= np.uint64(2), closed, out_live, b0, allowed, required)


@cached_njit(inline="always")
def _successor16(X, mask, W, m, nbr_p4, nbr_end, out_live, may_finish, low_w, low_a,
                 db_index):  # pragma: no cover - compiled
    """:func:`_successor` of a closed tour's packed state ``X`` (the new square's value
    in nibble W): the same moves on nibbles in one word, and the path ends relabelled in
    frontier order one label at a time (a mask of its places), not one place at a time."""
    zero = np.uint64(0)
    one = np.uint64(1)
    two = np.uint64(2)
    F = np.uint64(15)
    W4 = np.uint64(4 * W)
    w = X
    finished = False
    for b in range(m):
        if not (mask >> b) & 1:
            continue
        p4 = nbr_p4[b]
        a = (w >> p4) & F
        bv = (w >> W4) & F
        if a == one or (nbr_end[b] and a >= two):
            return -1
        if a == zero:
            if bv == zero:  # a new path: a label no state holds (15)
                w |= (F << p4) | (F << W4)
            else:
                w = (w | (bv << p4)) & ~(F << W4) | (one << W4)
        elif bv == zero:
            w = (w & ~(F << p4)) | (one << p4) | (a << W4)
        else:
            w = (w & ~((F << p4) | (F << W4))) | (one << p4) | (one << W4)
            if a == bv:  # closes a cycle
                finished = True
            else:  # joins two paths: bv's other end takes label a
                eb = _nibbles_equal(w, bv) & low_a
                if eb | (_nibbles_equal(w, a) & low_a):
                    w = (w & ~(eb * F)) | (eb * a)
                else:
                    finished = True
    v = w & F
    if v >= two or (v == zero and out_live):
        return -1
    Y = w >> np.uint64(4)
    if finished:
        if not may_finish or Y != low_w:
            return -1
        return -2
    # relabel: the first label met gets 2, the next 3, ...
    t = ((Y >> one) | (Y >> np.uint64(2)) | (Y >> np.uint64(3))) & low_w  # places holding a label
    out = Y & ~(t * F)
    nxt = np.uint64(2)
    while t:
        lb = t & (~t + one)
        q = db_index[np.int64((lb * _DEBRUIJN) >> np.uint64(58))]
        e = _nibbles_equal(Y, (Y >> np.uint64(q)) & F) & t
        out |= e * nxt
        t &= ~e
        nxt += one
    return np.int64(out << np.uint64(2))


@cached_njit(inline="always")
def _singles(Y, low_w):  # pragma: no cover - compiled
    """Spread bits of the places of ``Y`` holding a label found at no other place."""
    one = np.uint64(1)
    F = np.uint64(15)
    t = ((Y >> one) | (Y >> np.uint64(2)) | (Y >> np.uint64(3))) & low_w  # places holding a label
    out = np.uint64(0)
    while t:
        lb = t & (~t + one)
        q4 = np.uint64(0)
        while not (lb >> q4) & one:
            q4 += np.uint64(4)
        e = _nibbles_equal(Y, (Y >> q4) & F) & t
        if e == lb:
            out |= lb
        t &= ~e
    return out


@cached_njit(inline="always")
def _successor_open16(X, tn, mask, W, m, nbr_p4, nbr_end, out_live, out_fixed, may_finish, free, merge,
                      one_room, no_room, shut, low_w, low_a, db_index):  # pragma: no cover - compiled
    """:func:`_successor` of an open tour's packed state ``X`` (the new square's value in
    nibble W; ``tn`` the ends of the tour gone from the frontier): the moves, the leaving
    square, the pairing of the two unpartnered ends once both ends are placed, the end
    and whole-path pruning and the relabelling, on nibbles of one word. ``one_room``,
    ``no_room`` and ``shut`` are spread masks of the frontier after the step."""
    zero = np.uint64(0)
    one = np.uint64(1)
    two = np.uint64(2)
    F = np.uint64(15)
    W4 = np.uint64(4 * W)
    w = X
    finished = False
    for b in range(m):
        if not (mask >> b) & 1:
            continue
        p4 = nbr_p4[b]
        a = (w >> p4) & F
        bv = (w >> W4) & F
        if a == one or (nbr_end[b] and a >= two):
            return -1
        if a == zero:
            if bv == zero:  # a new path: a label no state holds (15)
                w |= (F << p4) | (F << W4)
            else:
                w = (w | (bv << p4)) & ~(F << W4) | (one << W4)
        elif bv == zero:
            w = (w & ~(F << p4)) | (one << p4) | (a << W4)
        else:
            w = (w & ~((F << p4) | (F << W4))) | (one << p4) | (one << W4)
            if a == bv:  # the tour's two ends joined (only once both are placed)
                if not (merge and tn == 2):
                    return -1
                finished = True
            else:  # joins two paths: bv's other end takes label a
                eb = _nibbles_equal(w, bv) & low_a
                if eb | (_nibbles_equal(w, a) & low_a):
                    w = (w & ~(eb * F)) | (eb * a)
                else:  # both far ends are ends of the tour: a whole path
                    finished = True
    v = w & F
    tn2 = tn
    Y = w >> np.uint64(4)
    if v == zero and out_live:
        return -1
    if v >= two:
        if not out_fixed:
            if tn2 >= free:
                return -1
            tn2 += 1
        if not (_nibbles_equal(Y, v) & low_w):  # its other end gone before it: a whole path
            finished = True
    elif out_fixed and v != one:
        return -1
    if merge and tn2 == 2 and tn < 2 and not finished:
        alone = _singles(Y, low_w)
        if alone:
            lb = alone & (~alone + one)
            rest = alone & ~lb
            if rest:
                q4 = np.uint64(0)
                while not (lb >> q4) & one:
                    q4 += np.uint64(4)
                x = (Y >> q4) & F
                lb2 = rest & (~rest + one)
                Y = (Y & ~(lb2 * F)) | (lb2 * x)
    if finished:
        if not may_finish or Y != low_w:
            return -1
        return -2
    zpost = _nibbles_equal(Y, zero) & low_w
    lpost = low_w & ~(zpost | (_nibbles_equal(Y, one) & low_w))
    if tn2 + _popcount(np.int64(zpost & one_room)) + _popcount(np.int64(lpost & no_room)) > free:
        return -1
    sh = lpost & shut
    while sh:
        lb = sh & (~sh + one)
        sh &= ~lb
        q4 = np.uint64(0)
        while not (lb >> q4) & one:
            q4 += np.uint64(4)
        e = _nibbles_equal(Y, (Y >> q4) & F) & low_w
        mate = e & ~lb
        if mate == zero or (mate & shut):
            if not may_finish or ((zpost | lpost) & ~e):
                return -1
    # relabel: the first label met gets 2, the next 3, ...
    t = ((Y >> one) | (Y >> np.uint64(2)) | (Y >> np.uint64(3))) & low_w
    out = Y & ~(t * F)
    nxt = two
    while t:
        lb = t & (~t + one)
        q = db_index[np.int64((lb * _DEBRUIJN) >> np.uint64(58))]
        e = _nibbles_equal(Y, (Y >> np.uint64(q)) & F) & t
        out |= e * nxt
        t &= ~e
        nxt += one
    return np.int64((out << two) | np.uint64(tn2))


@cached_njit(inline="always")
def _successor(base, w, lab, mask, tn, zm, lm, prm, nbr_p, nbr_end, pw):  # pragma: no cover - compiled
    """The key of the state that ``mask`` (the new square's moves back into the frontier)
    makes of the decoded state ``base``; -1 when it makes none, -2 when it finishes the tour."""
    W = prm[_P_W]
    closed = prm[_P_CLOSED]
    m = nbr_p.shape[0]
    for q in range(W + 1):
        w[q] = base[q]
    finished = False
    fresh = 100
    for b in range(m):
        if not (mask >> b) & 1:
            continue
        p = nbr_p[b]
        a = w[p]
        bv = w[W]
        if a == 1 or (nbr_end[b] and a >= 2):
            return -1
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
        elif a == bv:  # closes a cycle (open tours: joins the two ends of the tour)
            if not closed and not (prm[_P_MERGE] and tn == 2):
                return -1
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
    v = w[0]
    tn2 = tn
    if v == 0 and prm[_P_OUT_LIVE]:
        return -1
    if v >= 2:
        if closed:
            return -1
        if not prm[_P_OUT_FIXED]:
            if tn2 >= prm[_P_FREE]:
                return -1
            tn2 += 1
        present = False
        for t in range(1, W + 1):
            if w[t] == v:
                present = True
                break
        if not present:
            finished = True
    elif prm[_P_OUT_FIXED] and v != 1:
        return -1
    if prm[_P_MERGE] and tn2 == 2 and tn < 2 and not finished:
        # both ends of the tour are placed: the two path ends joined to them (the only
        # ends without a partner) become one pair, as if joined through the tour's ends,
        # and the state is a closed tour's from now on
        s1 = -1
        for t in range(1, W + 1):
            x = w[t]
            if x < 2:
                continue
            alone = True
            for u in range(1, W + 1):
                if u != t and w[u] == x:
                    alone = False
                    break
            if alone:
                if s1 < 0:
                    s1 = t
                else:
                    w[t] = w[s1]
                    break
    if finished:
        if not prm[_P_MAY_FINISH]:
            return -1
        for t in range(1, W + 1):
            if w[t] != 1:
                return -1
        return -2
    if not closed:
        chg = 0
        moves = 0
        for b in range(m):
            bit = (mask >> b) & 1
            chg |= bit << nbr_p[b]
            moves += bit
        zpost = zm & ~chg
        lpost = (lm & ~chg) | (zm & chg)
        if prm[_P_NEW_LIVE]:
            if moves == 0:
                zpost |= np.int64(1) << W
            elif moves == 1:
                lpost |= np.int64(1) << W
        if tn2 + _popcount(zpost & prm[_P_ONE_ROOM]) + _popcount(lpost & prm[_P_NO_ROOM]) > prm[_P_FREE]:
            return -1
        # a path whose two ends take no more moves (shut, or gone from the frontier as an
        # end of the tour) is the whole tour: dead while any other square waits for moves
        shut = lpost & prm[_P_SHUT]
        while shut:
            p = _lowest_bit(shut)
            shut &= shut - 1
            x = w[p]
            p2 = -1
            for t in range(1, W + 1):
                if t != p and w[t] == x:
                    p2 = t
                    break
            if p2 < 0 or (prm[_P_SHUT] >> p2) & 1:
                if not prm[_P_MAY_FINISH]:
                    return -1
                rest = (zpost | lpost) & ~(np.int64(1) << p)
                if p2 >= 0:
                    rest &= ~(np.int64(1) << p2)
                if rest:
                    return -1
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
    return nk


@cached_njit(inline="always")
def _add_limbs(dst, d0, src, s0, L, Ld):  # pragma: no cover - compiled
    """dst[d0:d0 + Ld] += src[s0:s0 + L] (62-bit limbs, L <= Ld); returns the carry out of the top."""
    mask62 = (np.int64(1) << 62) - 1
    cy = 0
    for li in range(Ld):
        y = dst[d0 + li] + cy
        if li < L:
            y += src[s0 + li]
        cy = y >> 62
        dst[d0 + li] = y & mask62
    return cy


@cached_njit(inline="always")
def _home(key, logT, capp):  # pragma: no cover - compiled
    """(part, slot) of ``key`` in a table of ``2**logT`` parts of ``capp`` slots each."""
    h = np.uint64(key) * _HASH
    part = np.int64(h >> np.uint64(64 - logT)) if logT > 0 else np.int64(0)
    x = (h << np.uint64(logT)) >> np.uint64(32)
    return part, np.int64((x * np.uint64(capp)) >> np.uint64(32))


@cached_njit(inline="always")
def _mirror_image(nk, W, b16, dig, lab):  # pragma: no cover - compiled
    """The smaller of a closed tour's state ``nk`` at a column's end and its mirror image.

    At the end of a column the frontier holds the last square of the column before last
    (position 0, finished: nothing comes after it) and the last two columns (positions
    ``1..k`` and ``k + 1..2k``, row 0 first). Turned upside down (row ``r`` to
    ``k - 1 - r`` in both columns, the labels renumbered in frontier order) it is a state
    of the board turned upside down; on a board that looks the same upside down the two
    have the same ways to be finished, so the count may go to either: both go to the
    smaller key, and the next column has about half the states.
    """
    B = 16 if b16 else 11
    tn = _decode(nk, W, b16, True, dig)  # dig: W + 1 places
    if dig[0] != 1:
        return nk
    k = (W - 1) // 2
    for v in range(16):
        lab[v] = 0
    nxt = 2
    out = 0
    mult = 1
    for q in range(W):
        if q == 0:
            v = dig[0]
        elif q <= k:
            v = dig[k + 1 - q]
        else:
            v = dig[3 * k + 1 - q]
        if v >= 2:
            if lab[v] == 0:
                lab[v] = nxt
                nxt += 1
            v = lab[v]
        out += v * mult
        mult *= B
    image = (out << 2) | tn if b16 else out * 3 + tn
    return min(nk, image)


@cached_njit(inline="always")
def _emit(nk, x, acc_d, cflat, L, logT, capp, base_o, G, cnt, gk, gs, hlo, hhi):  # pragma: no cover - compiled
    """A successor of state ``x``: a finished tour (-2) adds its count to ``acc_d`` (in
    the first pass only); a state (``nk >= 0``) of this pass (a second hash of the key
    in ``hlo..hhi - 1``) goes into the buffers, in the thread's range for its part."""
    if nk == -2:
        if hlo == 0:
            _add_limbs(acc_d, 0, cflat, x * L, L, L + 1)
    elif nk >= 0:
        if hhi - hlo < _HSPACE:
            h2 = np.int64((np.uint64(nk) * _HASH2) >> np.uint64(64 - _HBITS))
            if h2 < hlo or h2 >= hhi:
                return
        part, _g = _home(nk, logT, capp)
        o = base_o + part * G + cnt[part]
        cnt[part] += 1
        gk[o] = nk
        gs[o] = x


@cached_njit(parallel=True)
def fill_step(keys, counts, s0, prm, nbr_p, nbr_end, pw, mstart, mlist, tab, Lo, logT, capp,
              fill, limit, gk, gs, dacc, ovf, hlo, hhi):  # pragma: no cover - compiled
    """Merge the successors of states ``s0..`` into the table; returns where it stopped.

    The table is ``2**logT`` parts of ``capp`` slots, one part a thread, a slot ``1 + Lo``
    numbers of ``tab``: the key plus one (0 where empty), then the count's limbs, so a
    probe and its count share a cache line; the part and the first slot to probe come
    from a hash of the key. The states go in blocks: first every thread writes the
    successors of its share of the block into the buffers ``gk``/``gs`` (key, source
    state), in a range of its own for each part, then every thread puts the successors
    of its part into the table, so no two threads write one slot. A block is taken only while every part stays under
    ``limit`` keys even if all its successors (at most 16 a state) fell into one, so
    probing always ends; when not one state fits the call returns its index and the
    caller grows the table. ``fill`` counts each part's keys, ``dacc`` the tours
    finished here (per thread, ``L + 1`` limbs), ``ovf`` marks a part whose count
    overflowed its ``Lo`` limbs (the caller redoes the step with one more). Only the
    successors whose second hash lies in ``hlo..hhi - 1`` go in (a step too large for
    one table runs in passes, one a range).
    """
    S = keys.shape[0]
    L = counts.shape[1]
    T = np.int64(1) << logT
    W = prm[_P_W]
    m = nbr_p.shape[0]
    closed = prm[_P_CLOSED]
    b16 = prm[_P_B16]
    new_live = prm[_P_NEW_LIVE]
    G = gk.shape[0] // (T * T)  # the buffers' range of one thread and one part
    cflat = counts.reshape(-1)
    R = 1 + Lo
    used = np.zeros((T, T), np.int64)  # successors of thread t for part p
    # the packed form (closed tours, 4-bit digits): nibble q is frontier position q
    swar = b16
    nbr_p4 = np.empty(m, np.uint64)
    for b in range(m):
        nbr_p4[b] = np.uint64(4 * nbr_p[b])
    low_w = np.uint64(0)  # bit 4q for the W frontier positions
    for q in range(W):
        low_w |= np.uint64(1) << np.uint64(4 * q)
    low_a = low_w | (np.uint64(1) << np.uint64(4 * W))  # and the new square
    new_sq = np.uint64(0) if new_live else np.uint64(1) << np.uint64(4 * W)
    out_live = prm[_P_OUT_LIVE] != 0
    may_finish = prm[_P_MAY_FINISH] != 0
    z_dead = _spread_bits(prm[_P_Z_DEAD])
    l_dead = _spread_bits(prm[_P_L_DEAD])
    z_req = _spread_bits(prm[_P_Z_REQ])
    l_req = _spread_bits(prm[_P_L_REQ])
    z_forb = _spread_bits(prm[_P_Z_FORB])
    # open tours, after the step (frontier position q at nibble q: the masks' bit q + 1)
    one_room = _spread_bits(prm[_P_ONE_ROOM] >> 1)
    no_room = _spread_bits(prm[_P_NO_ROOM] >> 1)
    shut = _spread_bits(prm[_P_SHUT] >> 1)
    out_fixed = prm[_P_OUT_FIXED] != 0
    free = prm[_P_FREE]
    merge = prm[_P_MERGE] != 0
    mirror = prm[_P_MIRROR] != 0
    s = s0
    while s < S:
        top = 0
        for p in range(T):
            top = max(top, fill[p])
        per = min(G, (limit - top) // T) // 16  # states a thread (at most 16 successors each)
        if per <= 0:
            return s
        e = min(S, s + per * T)
        for t in prange(T):
            # each thread's own work arrays (rows of one array would share cache lines)
            base = np.empty(W + 1, np.int64)
            w = np.empty(W + 1, np.int64)
            lab = np.zeros(128, np.int64)
            lab[1] = 1
            acc_d = np.zeros(L + 1, np.int64)
            cnt = np.zeros(T, np.int64)
            mdig = np.empty(W + 1, np.int64)
            mlab = np.zeros(16, np.int64)
            if swar:  # packed digits: on the word itself
                for x in range(s + (e - s) * t // T, s + (e - s) * (t + 1) // T):
                    X = (np.uint64(keys[x]) >> np.uint64(2)) | new_sq
                    c = _combo16(X, W, m, nbr_p4, nbr_end, out_live, z_dead, l_dead, z_req, l_req, z_forb,
                                 prm[_P_B0], low_w, closed)
                    if c < 0:
                        continue
                    if closed:
                        for mi in range(mstart[c], mstart[c + 1]):
                            nk = _successor16(X, mlist[mi], W, m, nbr_p4, nbr_end, out_live, may_finish,
                                              low_w, low_a, _DB_INDEX)
                            if mirror and nk >= 0:
                                nk = _mirror_image(nk, W, True, mdig, mlab)
                            _emit(nk, x, acc_d, cflat, L, logT, capp, (t * T) * G, G, cnt, gk, gs, hlo, hhi)
                    else:
                        tn = keys[x] & 3
                        for mi in range(mstart[c], mstart[c + 1]):
                            nk = _successor_open16(X, tn, mlist[mi], W, m, nbr_p4, nbr_end, out_live, out_fixed,
                                                   may_finish, free, merge, one_room, no_room, shut, low_w,
                                                   low_a, _DB_INDEX)
                            _emit(nk, x, acc_d, cflat, L, logT, capp, (t * T) * G, G, cnt, gk, gs, hlo, hhi)
            else:
                for x in range(s + (e - s) * t // T, s + (e - s) * (t + 1) // T):
                    tn = _decode(keys[x], W, b16, new_live, base)
                    c = _combo(base, W, m, nbr_p, nbr_end, prm[_P_B0], closed, prm[_P_OUT_LIVE],
                               prm[_P_Z_DEAD], prm[_P_L_DEAD], prm[_P_Z_REQ], prm[_P_L_REQ], prm[_P_Z_FORB])
                    if c < 0:
                        continue
                    zm = 0
                    lm = 0
                    if not closed:
                        for q in range(1, W):
                            v = base[q]
                            zm |= np.int64(v == 0) << q
                            lm |= np.int64(v >= 2) << q
                    for mi in range(mstart[c], mstart[c + 1]):
                        nk = _successor(base, w, lab, mlist[mi], tn, zm, lm, prm, nbr_p, nbr_end, pw)
                        if mirror and nk >= 0:
                            nk = _mirror_image(nk, W, b16 != 0, mdig, mlab)
                        _emit(nk, x, acc_d, cflat, L, logT, capp, (t * T) * G, G, cnt, gk, gs, hlo, hhi)
            for p in range(T):
                used[t, p] = cnt[p]
            _add_limbs(dacc[t], 0, acc_d, 0, L + 1, L + 1)
        for p in prange(T):
            lo = p * capp
            slot = np.empty(_BATCH, np.int64)
            item = np.empty(_BATCH, np.int64)
            for t in range(T):
                j = (t * T + p) * G
                end = j + used[t, p]
                while j < end:
                    # a batch: find the home slots and touch them first (the loads of
                    # the table overlap), then insert, the slots now in cache
                    nb = 0
                    touch = 0
                    while j < end and nb < _BATCH:
                        _part, g = _home(gk[j], logT, capp)
                        slot[nb] = g
                        item[nb] = j
                        touch += tab[(lo + g) * R]
                        nb += 1
                        j += 1
                    if touch == -1:  # never: keeps the touching loads
                        ovf[p] = 2
                    for u in range(nb):
                        nk = gk[item[u]]
                        g = slot[u]
                        while True:
                            k2 = tab[(lo + g) * R]
                            if k2 == nk + 1:
                                break
                            if k2 == 0:
                                tab[(lo + g) * R] = nk + 1
                                fill[p] += 1
                                break
                            g += 1
                            if g == capp:
                                g = 0
                        if _add_limbs(tab, (lo + g) * R + 1, cflat, gs[item[u]] * L, L, Lo):
                            ovf[p] = 1
        s = e
    return S


@cached_njit(parallel=True)
def regrow(tab, Lo, logT, capp, ntab, ncapp):  # pragma: no cover - compiled
    """Move every key of a table into a larger one of the same parts (``ncapp`` slots each)."""
    T = np.int64(1) << logT
    R = 1 + Lo
    for p in prange(T):
        nlo = p * ncapp
        for j in range(p * capp, (p + 1) * capp):
            k = tab[j * R]
            if k == 0:
                continue
            _part, g = _home(k - 1, logT, ncapp)
            while ntab[(nlo + g) * R]:
                g += 1
                if g == ncapp:
                    g = 0
            for li in range(R):
                ntab[(nlo + g) * R + li] = tab[j * R + li]


@cached_njit(parallel=True)
def shrink(tab, Lo, logT, capp, hi, fill):  # pragma: no cover - compiled
    """Drop the keys whose second hash is ``hi`` or more from a table (the pass keeps the
    lower part of its range; the rest becomes a pass of its own), in place: each part
    clears them, then walks its slots in probe order from a slot that was empty before
    and moves each key back to the first free slot between its home and its place (keys
    only move back within their run, so every key stays where its probe finds it)."""
    T = np.int64(1) << logT
    R = 1 + Lo
    for p in prange(T):
        base = p * capp
        # an empty slot of the table as it was: no run of keys passes it, so the walk
        # from it meets every run from its first slot on
        start = 0
        while tab[(base + start) * R] != 0:
            start += 1
        for j in range(capp):
            k = tab[(base + j) * R]
            if k != 0:
                h2 = np.int64((np.uint64(k - 1) * _HASH2) >> np.uint64(64 - _HBITS))
                if h2 >= hi:
                    for li in range(R):
                        tab[(base + j) * R + li] = 0
                    fill[p] -= 1
        for t in range(1, capp + 1):
            j = (start + t) % capp
            k = tab[(base + j) * R]
            if k == 0:
                continue
            _part, g = _home(k - 1, logT, capp)
            while g != j and tab[(base + g) * R] != 0:
                g += 1
                if g == capp:
                    g = 0
            if g != j:
                for li in range(R):
                    tab[(base + g) * R + li] = tab[(base + j) * R + li]
                    tab[(base + j) * R + li] = 0


@cached_njit(parallel=True)
def compact(tab, Lo, out_keys, out_cnt):  # pragma: no cover - compiled
    """The keys of a table and their counts into the dense arrays ``out_keys`` and
    ``out_cnt`` (one row of ``Lo`` limbs a key; in table order); the table is left empty
    (all zero) for the next step."""
    R = 1 + Lo
    cap = tab.shape[0] // R
    nch = max(1, min(cap // 4096, 256))
    per = np.zeros(nch + 1, np.int64)
    for ch in prange(nch):
        c = 0
        for j in range(ch * cap // nch, (ch + 1) * cap // nch):
            c += tab[j * R] != 0
        per[ch + 1] = c
    for ch in range(nch):
        per[ch + 1] += per[ch]
    for ch in prange(nch):
        o = per[ch]
        for j in range(ch * cap // nch, (ch + 1) * cap // nch):
            if tab[j * R] != 0:
                out_keys[o] = tab[j * R] - 1
                tab[j * R] = 0
                for li in range(Lo):
                    out_cnt[o, li] = tab[j * R + 1 + li]
                    tab[j * R + 1 + li] = 0
                o += 1


@cached_njit(parallel=True)
def complete_tours(keys, counts, W, b16):  # pragma: no cover - compiled
    """Limbs of the summed counts of the states whose frontier is one path with both ends
    free terminals (value 2 at one or two places, the rest 1): whole open tours here."""
    S = keys.shape[0]
    L = counts.shape[1]
    cflat = counts.reshape(-1)
    nch = max(1, min(S, 64))
    acc = np.zeros((nch, L + 1), np.int64)
    for ch in prange(nch):
        for s in range(ch * S // nch, (ch + 1) * S // nch):
            tk = keys[s]
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
                _add_limbs(acc[ch], 0, cflat, s * L, L, L + 1)
    return acc


#: The kernels a count calls from Python (the others are inlined into them).
KERNELS = (step_tables, fill_step, regrow, shrink, compact, complete_tours)

#: Seconds compiling :data:`KERNELS` takes, about, on an idle machine: the processor time
#: of ``NUMBA_CACHE_DIR=$(mktemp -d) /usr/bin/time kt-formal count 3 60`` on 2 cores (26 s,
#: start-up and count 0.7 s of it; on a busy machine the wall time is longer).
COMPILE_SECONDS = 25

def _warm_up() -> None:
    count_request_jit(Board(3, 4), threads=1)  # closed tours: step_tables, fill_step, compact
    count_row(3, 3, 4, closed=False, threads=1)  # open tours: complete_tours
    capp, lo = 64, 1
    tab = np.zeros(capp * (1 + lo), np.int64)
    regrow(tab, lo, 0, capp, np.zeros(2 * capp * (1 + lo), np.int64), 2 * capp)
    shrink(tab, lo, 0, capp, 1, np.zeros(1, np.int64))


#: Load every kernel of :data:`KERNELS`, compiling those not cached on disk (with a note on
#: standard error, once a process), before a count starts its clock; returns the seconds it
#: took (0 when they are loaded already). Each kernel runs once on a small case with the
#: argument types of a real count, so a count never stops to compile.
prepare_kernels = Preparation(KERNELS, "the frontier counter's kernels", COMPILE_SECONDS, _warm_up)


class _threads_restored:
    """Puts back numba's thread count of the calling thread when a sweep ends."""

    def __enter__(self):
        self.saved = numba.get_num_threads()
        return self

    def __exit__(self, *exc):
        numba.set_num_threads(self.saved)
        return False


def _limbs_to_int(limbs) -> int:
    v = 0
    for i in range(len(limbs) - 1, -1, -1):
        v = (v << _LIMB) + int(limbs[i])
    return v


def _masks(m: int, must: int, cap: int) -> np.ndarray:
    return np.array([mask for mask in range(1 << m) if mask & must == must and bin(mask).count("1") <= cap],
                    dtype=np.int64)


class _Sweep:
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
        most = threads if threads is not None else _threads.cores_available()
        self.parts = _THREADS or 1 << (max(1, min(most, 16)).bit_length() - 1)
        self.used = []  # (states, threads) of each step
        self.b16 = 2 + 4 * W <= 63
        self.max_states, self.time_limit, self.progress, self.t0, self.n_cols = (
            max_states, time_limit, progress, t0, n_cols)
        self.table_bytes = TABLE_BYTES if table_bytes is None else table_bytes
        self.spill_dir = spill_dir
        keys = np.zeros(1, np.int64)
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
        keys[0] = key
        self.chunks = [(keys, np.ones((1, 1), np.int64))]
        self.gk = np.empty(_BLOCK, np.int64)  # a block's successors: keys and source states
        self.gs = np.empty(_BLOCK, np.int64)
        self.pool = np.zeros(0, np.int64)  # the table's memory, kept from step to step
        # the arrays under the states (keys, limbs) and a spare pair for the next step's
        # output (small steps only: a large input is let go before the output is made)
        self.cur = self.spare = None
        self.ratio = {}  # next states / states at the same row of the last column
        self.peak = 1
        self.passes = 1  # the most passes a step took
        self.spilled = 0  # the most states a step wrote to files
        self.per_column = []
        self.work = 0  # states stepped by this process
        #: the board looks the same upside down: for closed tours (open ones are never
        #: merged) a state and its mirror image meet at the end of each column
        #: (:func:`_mirror_image`)
        self.mirror = False

    def _table(self, est, T, Lo, grow=False):
        """A table of ``T`` parts for ``est`` keys: the front of the pool, which is all zero
        between steps (``compact`` clears what it reads); a larger pool when it is short,
        or (``grow``) a new one, the old one still holding the table to be moved."""
        capp = int(est / (_LOAD * T)) + 64
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
            if est * slot / _LOAD > self.table_bytes / 2:  # a large step: the whole budget at once
                est = max(1, int(self.table_bytes * _LOAD / slot) - 64 * T)
            capp, tab = self._table(est, T, Lo)
            fill = np.zeros(T, np.int64)
            ovf = np.zeros(T, np.int64)
            dacc = np.zeros((T, L + 1), np.int64)
            for keys, counts in chunks:
                S = keys.shape[0]
                s = 0
                while True:
                    s = fill_step(keys, counts, s, *tables, tab, Lo, logT, capp, fill, int(_LIMIT * capp),
                                  self.gk, self.gs, dacc, ovf, lo, hi)
                    if s == S:
                        break
                    if T * capp * _LOAD >= self.max_states:
                        raise self._out_of_reach(i)
                    if hi - lo > 1 and 2.5 * T * capp * slot > self.table_bytes:
                        # old and new table together would pass the budget: keep half the range
                        hi = (lo + hi) // 2
                        shrink(tab, Lo, logT, capp, hi, fill)
                        continue
                    ncapp, ntab = self._table(int(capp * T * _LOAD * 1.5) + 1024, T, Lo, grow=True)
                    regrow(tab, Lo, logT, capp, ntab, ncapp)
                    capp, tab = ncapp, ntab
                    del ntab
            if not ovf.any():
                return tab, Lo, int(fill.sum()), dacc, hi
            Lo += 1
            tab[:] = 0
            del tab

    def _memory_arrays(self, n, Lo):
        """Keys and limbs for ``n`` states in memory: the arrays of two steps back when
        they are large enough, else new ones, a large input let go of first."""
        old, self.cur = self.cur, None
        if old is not None and old[0].nbytes + old[1].nbytes > _SPARE_BYTES:
            old = None  # a large input goes before the output is laid out
        buf, self.spare = self.spare, None
        if buf is None or buf[0].shape[0] < n or buf[1].shape[0] < n * Lo:
            buf = None
            size = n + n // 4 + 16
            buf = (np.empty(size, np.int64), np.empty(size * Lo, np.int64))
        self.cur, self.spare = buf, old
        return buf[0][:n], buf[1][:n * Lo].reshape(n, Lo)

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

    def step(self, i, nbr, must, cap, new_live, out_live, out_fixed, room, fixed_pos, may_finish, complete_check):
        nbr_p = np.array([p for p, _e in nbr], dtype=np.int64)
        nbr_end = np.array([e for _p, e in nbr], dtype=np.bool_)
        prm, pw, mstart, mlist = step_tables(self.W, self.b16, self.closed, self.free, nbr_p,
                                             _masks(len(nbr), must, cap), new_live, out_live, out_fixed,
                                             np.asarray(room, dtype=np.int64), fixed_pos, may_finish)
        if self.mirror and self.closed and i % self.k == self.k - 1:
            prm[_P_MIRROR] = 1
        tables = (prm, nbr_p, nbr_end, pw, mstart, mlist)
        chunks = self.chunks
        S = sum(keys.shape[0] for keys, _c in chunks)
        L = max(counts.shape[1] for _k, counts in chunks)
        T = 1 if S < _ONE_PART else self.parts
        nthreads = _threads.step_threads(S, self.threads)
        numba.set_num_threads(nthreads)
        self.used.append((S, nthreads))
        r = self.ratio.get(i % self.k)
        est = int(S * r * 1.1) + 1024 if r is not None else 2 * S + 1024
        est = max(1, min(est, self.max_states))
        # a step whose table would pass the budget runs in passes, one a range of a
        # second hash of the keys: a pass whose table fills its budget keeps the lower
        # half of its range and leaves the upper half to a pass of its own; the states of
        # a step in passes, or too large for memory, go to files
        spill = est * (1 + L) * 8 > self.table_bytes // 4
        out, n, done, passes = [], 0, 0, 0
        lo = 0  # each pass takes what is left of the range, or its lower part
        while lo < _HSPACE:
            tab, Lo, nr, dacc, mid = self._merge(i, chunks, L, T, est * (_HSPACE - lo) // _HSPACE + 1024, lo,
                                                 _HSPACE, tables)
            spill = spill or mid < _HSPACE
            lo = mid
            passes += 1
            n += nr
            if n > self.max_states:
                raise self._out_of_reach(i)
            done += sum(_limbs_to_int(row) for row in dacc)
            if spill:  # every step of more than one pass spills
                keys, counts = self._file_arrays(nr, Lo)
            else:  # the only pass, in memory: the input is no longer needed
                self.chunks = chunks = None
                keys, counts = self._memory_arrays(nr, Lo)
            compact(tab, Lo, keys, counts)
            del tab
            out.append((keys, counts))
        if spill:
            self.cur = self.spare = None
            self.spilled = max(self.spilled, n)
        self.chunks = out
        self.passes = max(self.passes, passes)
        if S >= 1024:
            self.ratio[i % self.k] = n / S
        comp = sum(_limbs_to_int(row) for keys, counts in out
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
                self.progress(c + 1, self.n_cols, f"column {c + 1} of {self.n_cols}, {n:,} states" + self._pace(c))
        return done, comp

    def _pace(self, c) -> str:
        """``, R states/s, about T left``: the states stepped a second in this process, and
        the time left at that rate: while the states grow, the columns to come grow as the
        last did, up to the fullest step measured on a board as wide; then the columns to
        come are taken as holding the states of the columns as far from the other end.
        A rough guide: the states of a step are not known before it is made."""
        spent = time.perf_counter() - self.t0
        if spent < 0.5 or self.work < 1000:
            return ""
        rate = self.work / spent
        known = self.per_column
        ahead = 0
        if len(known) >= 2 and known[-1] > known[-2] > 0:
            # still growing: at the last column's rate, up to the fullest step measured on a
            # board as wide, until the last column (where the tours close and few are left)
            from kt_formal.counting.frontier import estimate_states

            g = known[-1] / known[-2]
            # (closed tours measured; open ones hold up to some 30 times more: 6x6 28, 6x8 16)
            cap = max(estimate_states(self.k) * (1 if self.closed else 30), known[-1])
            x = known[-1]
            for _cc in range(c + 1, self.n_cols - 1):
                x = min(cap, x * g)
                ahead += x
        else:  # falling: the columns to come as far from the other end
            for cc in range(c + 1, self.n_cols):
                mirror = self.n_cols - 1 - cc
                ahead += known[mirror] if mirror < len(known) else known[-1]
        left = ahead * self.k / rate
        return f", {rate:,.0f} states/s, about {_duration(left)} left"

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


def _duration(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


def count_request_jit(board: Board, closed: bool = True, start=None, end=None, forced=(), forbidden=(),
                      progress=None, max_states: int = DEFAULT_MAX_STATES,
                      time_limit: float | None = None, table_bytes: int | None = None,
                      spill_dir: str | None = None, threads: int | None = None, checkpoint: str | None = None,
                      resume: bool = False, checkpoint_every: float | None = None,
                      symmetry: bool = True) -> FrontierCount:
    """:func:`kt_formal.counting.frontier.count_request`, compiled (same arguments and result).

    ``table_bytes`` bounds the hash table of one step (default :data:`TABLE_BYTES`): a
    step that needs more runs in passes and keeps its states in files, unlinked as soon
    as they are made, in ``spill_dir`` (default: the system's temporary directory).
    ``threads``: the threads of a large step (default: ``KT_FORMAL_THREADS``, else the
    cores free at that step); a small step takes one. Compiling or loading the kernels
    (:func:`prepare_kernels`) is not counted in ``time_limit`` nor in the wall time.

    ``checkpoint``: a directory where the states are written at a column boundary once
    ``checkpoint_every`` seconds (default 60) have passed since the last
    (:mod:`kt_formal.counting._frontier_checkpoint`); with ``resume`` the count goes on
    from the last checkpoint there (or starts afresh when there is none).
    """
    threads = _threads.requested_threads(threads)
    t0 = time.perf_counter()
    lay = sweep_layout(board, closed, start, end, forced, forbidden, t0)
    if isinstance(lay, FrontierCount):
        return lay
    ckpt = _board_checkpointer(lay, closed, checkpoint, checkpoint_every) if checkpoint else None
    if resume and ckpt is None:
        raise InvalidInput("resuming a count needs its checkpoint directory")
    if resume and (old := ckpt.result()) is not None:  # counted to the end already
        return FrontierCount(int(old["count"]), closed, lay.rows, lay.cols, old.get("per_column", []),
                             int(old.get("peak", 0)), 0.0, start=None if closed else start,
                             end=None if closed else end, resumed=lay.n)
    t0 += prepare_kernels()
    sweep = _Sweep(lay.k, lay.W, closed, lay.free_terminals, max_states, time_limit, progress, t0, lay.n,
                   table_bytes, spill_dir, threads)
    sweep.mirror = symmetry and upside_down_alike(lay)
    first, done = 0, 0
    if resume and (got := ckpt.latest()) is not None:
        step, chunks, meta = got
        sweep.restore(chunks, meta)
        first, done = step + 1, int(meta["done"])
    with _threads_restored():
        for i, args in _board_steps(lay, first):
            d, _ = sweep.step(i, *args)
            done += d
            if ckpt is not None and i % lay.k == lay.k - 1 and i + 1 < lay.N + lay.W and ckpt.due():
                ckpt.write(i, sweep.chunks, dict(sweep.snapshot(), done=str(done)))
    res = FrontierCount(done, closed, lay.rows, lay.cols, sweep.per_column, sweep.peak, time.perf_counter() - t0,
                        sweep.passes, sweep.spilled, sweep.used, None if closed else start, None if closed else end,
                        resumed=first // lay.k)
    if ckpt is not None:
        ckpt.finish({"count": str(done), "peak": sweep.peak, "per_column": sweep.per_column})
    return res


def upside_down_alike(lay) -> bool:
    """Whether a board's sweep looks the same upside down: its holes too, no fixed ends,
    no forced or forbidden moves (then a state and its mirror image count alike)."""
    if lay.ends or lay.forced_set or lay.forbidden_set:
        return False
    k = lay.k
    live = np.asarray(lay.live[:lay.N], dtype=bool).reshape(-1, k)
    return bool((live == live[:, ::-1]).all())


def _board_checkpointer(lay, closed, directory, every):
    from kt_formal.counting._frontier_checkpoint import Checkpointer, question_key

    key = question_key(kind="board", rows=lay.rows, cols=lay.cols, closed=bool(closed), live=lay.live,
                       ends=sorted(lay.ends), forced=sorted(sorted(e) for e in lay.forced_set),
                       forbidden=sorted(sorted(e) for e in lay.forbidden_set), limb=_LIMB)
    what = f"{'closed' if closed else 'open'} tours of a {lay.rows}x{lay.cols} board"
    return Checkpointer(directory, key, what, every)


def _board_steps(lay, first: int = 0):
    """``(i, arguments of _Sweep.step after i)`` for each step of a board's sweep from ``first``
    (:func:`count_request_jit`; the Dask counter takes the same)."""
    k, N, W = lay.k, lay.N, lay.W
    live, ends, later, live_after = lay.live, lay.ends, lay.later, lay.live_after
    forced_set, forbidden_set = lay.forced_set, lay.forbidden_set
    for i in range(first, N + W):
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
        yield i, (nbr, must, 1 if i in ends else 2, is_live, out_j >= 0 and live[out_j],
                  out_j in ends, room, fixed_pos, live_after[i + 1] == 0 if on_board else True, False)


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
    threads = _threads.requested_threads(threads)
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
        from kt_formal.counting._frontier_checkpoint import Checkpointer, question_key

        ckpt = Checkpointer(checkpoint, question_key(kind="row", k=k, closed=bool(closed), partial=bool(partial),
                                                     limb=_LIMB),
                            f"the {'closed' if closed else 'open'} tours of {k} x n boards"
                            + (" with partly filled last columns" if partial else ""), checkpoint_every)
    elif resume:
        raise InvalidInput("resuming a count needs its checkpoint directory")
    t0 += prepare_kernels()
    sweep = _Sweep(k, 2 * k + 1, closed, 0 if closed else 2, max_states, time_limit, progress, t0, b, table_bytes,
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
    with _threads_restored():
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
        d, comp = sweep.step(i, nbr, 0, 2, True, i - W >= 0, False, room, 0, end_of_width,
                             end_of_width and not closed)
        if end_of_width:
            key = (c + 1, r + 1) if partial else c + 1
            out[key] = d + comp
            if on_count is not None:
                on_count(key, out[key])
        if ckpt is not None and r == k - 1 and i + 1 < N and ckpt.due():
            known = [[list(key) if partial else key, str(v)] for key, v in out.items()]
            ckpt.write(i, sweep.chunks, dict(sweep.snapshot(), out=known))
