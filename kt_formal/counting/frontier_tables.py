"""The compiled steps of the frontier counter: one column square's successors of every state
into a hash table (in parallel, in parts), the table's growth and shrinking, compaction, and
the open tours' completion.

The table of :func:`fill_closed16` (and its two siblings) is ``2**logT`` parts of ``capp`` slots, one part a thread,
a slot ``1 + Lo`` numbers of ``tab``: the key plus one (0 where empty), then the count's
limbs, so a probe and its count share a cache line; the part and the first slot to probe
come from a hash of the key. The states go in blocks: first every thread writes the
successors of its share of the block into the buffers ``gk``/``gs`` (key, source state),
in a range of its own for each part, then every thread puts the successors of its part
into the table (:func:`insert_part`), so no two threads write one slot. A block is taken
only while every part stays under ``limit`` keys even if all its successors (at most 16 a
state) fell into one, so probing always ends; when not one state fits the call returns its
index and the caller grows the table. ``fill`` counts each part's keys, ``dacc`` the tours
finished here (per thread, ``L + 1`` limbs), ``ovf`` marks a part whose count overflowed
its ``Lo`` limbs (the caller redoes the step with one more). Only the successors whose
second hash lies in ``hlo..hhi - 1`` go in (a step too large for one table runs in passes,
one a range).
"""

from __future__ import annotations

import numpy as np
from numba import prange
from kt_formal.engines.compiled import cached_njit
from kt_formal.counting.frontier_hash import add_limbs, BATCH, emit, home_slot, pass_hash, prefetch
from kt_formal.counting.frontier_keys import DB_INDEX, nibbles_equal, popcount, P_B0, P_B16, P_BALANCE, P_CLOSED, P_COLOUR, P_FIXED, P_LIGHT, P_N_WATCH, N_PRM, P_FREE, P_L_DEAD, P_L_REQ, P_MAY_FINISH, P_MERGE, P_MIRROR, P_NEW_LIVE, P_NO_ROOM, P_ONE_ROOM, P_OUT_FIXED, P_OUT_LIVE, P_SHUT, P_W, P_Z_DEAD, P_Z_FORB, P_Z_REQ, move_combo, decode_key, mirror_image, spread_bits, step_tables
from kt_formal.counting.frontier_successors import move_combo16, mirror_image16, open_mask_dead, successor, successor16, successor_open16, touched_masks

__all__ = ["fill_closed16", "fill_open16", "fill_wide", "packed_keys", "regrow", "shrink", "compact",
           "complete_tours", "KERNELS", "insert_part", "table_sizes", "next_block", "thread_arrays",
           "thread_done"]


@cached_njit
def insert_part(p, T, capp, G, used, gk, gs, tab, R, fill, cflat, L, Lo, logT, ovf):  # pragma: no cover - compiled
    """Put the successors every thread wrote for part ``p`` into the table's part ``p``."""
    lo = p * capp
    slot = np.empty(BATCH, np.int64)
    item = np.empty(BATCH, np.int64)
    added = 0  # the part's new keys, into fill[p] at the end: the parts' counters share a
    # cache line, and a counter of each thread's stepped at every key sent it to and fro
    for t in range(T):
        j = (t * T + p) * G
        end = j + used[t, p]
        while j < end:
            # a batch: find the home slots and prefetch them first (their misses
            # overlap), then insert, the slots now in cache
            nb = 0
            while j < end and nb < BATCH:
                _part, g = home_slot(gk[j], logT, capp)
                slot[nb] = g
                item[nb] = j
                prefetch(tab, (lo + g) * R)
                nb += 1
                j += 1
            for u in range(nb):
                nk = gk[item[u]]
                g = slot[u]
                while True:
                    k2 = tab[(lo + g) * R]
                    if k2 == nk + 1:
                        break
                    if k2 == 0:
                        tab[(lo + g) * R] = nk + 1
                        added += 1
                        break
                    g += 1
                    if g == capp:
                        g = 0
                if add_limbs(tab, (lo + g) * R + 1, cflat, gs[item[u]] * L, L, Lo):
                    ovf[p] = 1
    fill[p] += added


@cached_njit  # once a call or a block: inlined it cost compiling, not running
def _packed_masks(prm, nbr_p):  # pragma: no cover - compiled
    """What the packed expansions need besides ``prm``: the neighbour positions as nibble
    shifts, the new square's bits, the nibbles of the frontier (``low_w``) and with the new
    square (``low_a``), and the masks of ``prm`` spread to bit 4q for position q (for open
    tours after the step, position q at nibble q: the masks' bit q + 1)."""
    m = nbr_p.shape[0]
    W = prm[P_W]
    nbr_p4 = np.empty(m, np.uint64)
    for b in range(m):
        nbr_p4[b] = np.uint64(4 * nbr_p[b])
    low_w = np.uint64(0)
    for q in range(W):
        low_w |= np.uint64(1) << np.uint64(4 * q)
    low_a = low_w | (np.uint64(1) << np.uint64(4 * W))
    new_sq = np.uint64(0) if prm[P_NEW_LIVE] else np.uint64(1) << np.uint64(4 * W)
    return (nbr_p4, new_sq, low_w, low_a, spread_bits(prm[P_Z_DEAD]), spread_bits(prm[P_L_DEAD]),
            spread_bits(prm[P_Z_REQ]), spread_bits(prm[P_L_REQ]), spread_bits(prm[P_Z_FORB]),
            spread_bits(prm[P_ONE_ROOM] >> 1), spread_bits(prm[P_NO_ROOM] >> 1),
            spread_bits(prm[P_SHUT] >> 1), spread_bits(prm[P_LIGHT] >> 1), spread_bits(prm[P_FIXED] >> 1))


@cached_njit  # once a call or a block: inlined it cost compiling, not running
def _watch16(prm):  # pragma: no cover - compiled
    """The watched squares of ``prm`` for the packed expansions: their window neighbours
    spread (nibble q for position q after the step), moves ahead, need, light."""
    n = prm[P_N_WATCH]
    wb = np.empty(n, np.int64)
    wa = np.empty(n, np.int64)
    wn = np.empty(n, np.int64)
    wl = np.empty(n, np.int64)
    for j in range(n):
        o = N_PRM + 4 * j
        wb[j] = np.int64(spread_bits(prm[o] >> 1))
        wa[j] = prm[o + 1]
        wn[j] = prm[o + 2]
        wl[j] = prm[o + 3]
    return n, wb, wa, wn, wl


@cached_njit  # once a call or a block: inlined it cost compiling, not running
def table_sizes(keys, counts, prm, nbr_p, logT, gk):  # pragma: no cover - compiled
    """States, limbs, parts (= threads), frontier positions, neighbours, the buffers' range
    of one thread and one part, the counts flat, and the successors of thread t for part p."""
    T = np.int64(1) << logT
    return (keys.shape[0], counts.shape[1], T, prm[P_W], nbr_p.shape[0], gk.shape[0] // (T * T),
            counts.reshape(-1), np.zeros((T, T), np.int64))


@cached_njit(inline="always")
def next_block(s, S, fill, T, G, limit):  # pragma: no cover - compiled
    """The end of the next block of states from ``s``, or -1 when not one state fits: a
    block is taken only while every part stays under ``limit`` keys even if all of its
    successors (at most 16 a state) fell into one."""
    top = 0
    for p in range(T):
        top = max(top, fill[p])
    per = min(G, (limit - top) // T) // 16  # states a thread
    return min(S, s + per * T) if per > 0 else -1


@cached_njit  # once a call or a block: inlined it cost compiling, not running
def thread_arrays(L, T):  # pragma: no cover - compiled
    """A thread's own arrays (rows of one array would share cache lines): the tours it
    finished and its successors per part."""
    return np.zeros(L + 1, np.int64), np.zeros(T, np.int64)


@cached_njit  # once a call or a block: inlined it cost compiling, not running
def thread_done(t, T, used, cnt, dacc, acc_d, L):  # pragma: no cover - compiled
    """Thread ``t``'s block done: its successors per part into ``used``, its tours into ``dacc``."""
    for p in range(T):
        used[t, p] = cnt[p]
    add_limbs(dacc[t], 0, acc_d, 0, L + 1, L + 1)


@cached_njit(parallel=True)
def fill_closed16(keys, counts, s0, prm, nbr_p, nbr_end, pw, mstart, mlist, tab, Lo, logT, capp,
                  fill, limit, gk, gs, dacc, ovf, hlo, hhi):  # pragma: no cover - compiled
    """Merge the successors of states ``s0..`` into the table (see the module docstring),
    closed tours on packed keys (4-bit digits, nibble q frontier position q); returns where
    it stopped: ``len(keys)``, or the first state that did not fit. One of three kernels
    (:func:`fill_kernel`): in one body numba took three times as long to compile them."""
    S, L, T, W, m, G, cflat, used = table_sizes(keys, counts, prm, nbr_p, logT, gk)
    nbr_p4, new_sq, low_w, low_a, z_dead, l_dead, z_req, l_req, z_forb, _, _, _, _, _ = _packed_masks(prm, nbr_p)
    out_live, may_finish, mirror = prm[P_OUT_LIVE] != 0, prm[P_MAY_FINISH] != 0, prm[P_MIRROR] != 0
    n_watch, wb, wa, wn, _ = _watch16(prm)
    s = s0
    while s < S:
        e = next_block(s, S, fill, T, G, limit)
        if e < 0:
            return s
        for t in prange(T):
            acc_d, cnt = thread_arrays(L, T)
            for x in range(s + (e - s) * t // T, s + (e - s) * (t + 1) // T):
                X = (np.uint64(keys[x]) >> np.uint64(2)) | new_sq
                c = move_combo16(X, W, m, nbr_p4, nbr_end, out_live, z_dead, l_dead, z_req, l_req, z_forb,
                                 prm[P_B0], low_w, True)
                if c < 0:
                    continue
                for mi in range(mstart[c], mstart[c + 1]):
                    nk = successor16(X, mlist[mi], W, m, nbr_p4, nbr_end, out_live, may_finish,
                                     low_w, low_a, DB_INDEX, n_watch, wb, wa, wn)
                    if mirror and nk >= 0:
                        nk = mirror_image16(nk, W, low_w, DB_INDEX)
                    emit(nk, x, acc_d, cflat, L, logT, capp, (t * T) * G, G, cnt, gk, gs, hlo, hhi)
            thread_done(np.int64(t), T, used, cnt, dacc, acc_d, L)
        for p in prange(T):
            insert_part(np.int64(p), T, capp, G, used, gk, gs, tab, 1 + Lo, fill, cflat, L, Lo, logT, ovf)
        s = e
    return S


@cached_njit(parallel=True)
def fill_open16(keys, counts, s0, prm, nbr_p, nbr_end, pw, mstart, mlist, tab, Lo, logT, capp,
                fill, limit, gk, gs, dacc, ovf, hlo, hhi):  # pragma: no cover - compiled
    """:func:`fill_closed16` for open tours (the key's two low bits: the tour's ends so far)."""
    S, L, T, W, m, G, cflat, used = table_sizes(keys, counts, prm, nbr_p, logT, gk)
    (nbr_p4, new_sq, low_w, low_a, z_dead, l_dead, z_req, l_req, z_forb, one_room, no_room,
     shut, light, fixed) = _packed_masks(prm, nbr_p)
    colour, balance = prm[P_COLOUR] != 0, prm[P_BALANCE]
    n_watch, wb, wa, wn, wl = _watch16(prm)
    out_live, may_finish, mirror = prm[P_OUT_LIVE] != 0, prm[P_MAY_FINISH] != 0, prm[P_MIRROR] != 0
    out_fixed, free, merge, b0 = prm[P_OUT_FIXED] != 0, prm[P_FREE], prm[P_MERGE] != 0, prm[P_B0]
    touched = touched_masks(nbr_p4, m)
    zero, one, two, four, F = np.uint64(0), np.uint64(1), np.uint64(2), np.uint64(4), np.uint64(15)
    w4, top = np.uint64(4 * W), np.uint64(1) << np.uint64(4 * (W - 1))
    s = s0
    while s < S:
        e = next_block(s, S, fill, T, G, limit)
        if e < 0:
            return s
        for t in prange(T):
            acc_d, cnt = thread_arrays(L, T)
            for x in range(s + (e - s) * t // T, s + (e - s) * (t + 1) // T):
                X = (np.uint64(keys[x]) >> np.uint64(2)) | new_sq
                c = move_combo16(X, W, m, nbr_p4, nbr_end, out_live, z_dead, l_dead, z_req, l_req, z_forb,
                                 prm[P_B0], low_w, False)
                if c < 0:
                    continue
                tn = keys[x] & 3
                # most masks tried leave more squares that can only be ends than the tour
                # has ends: those are dropped before their moves are made
                zu = (nibbles_equal(X, zero) & low_w) >> four
                lu = (low_w & ~(nibbles_equal(X, one) & low_w)) >> four & ~zu
                nz = top if (X >> w4) & F == zero else zero
                v0 = X & F
                for mi in range(mstart[c], mstart[c + 1]):
                    mask = mlist[mi]
                    gone = (v0 >= two) if b0 < 0 or not (mask >> b0) & 1 else v0 == zero
                    if open_mask_dead(zu, lu, nz, touched[mask], popcount(mask),
                                      tn + (1 if gone and not out_fixed else 0), free, may_finish, one_room,
                                      no_room, colour, light, fixed, balance, n_watch, wb, wa, wn, wl):
                        continue
                    nk = successor_open16(X, tn, mask, W, m, nbr_p4, nbr_end, out_live, out_fixed,
                                          may_finish, free, merge, one_room, no_room, shut, low_w,
                                          low_a, DB_INDEX, colour, light, fixed, balance, n_watch, wb,
                                          wa, wn, wl)
                    if mirror and nk >= 0:
                        nk = mirror_image16(nk, W, low_w, DB_INDEX)
                    emit(nk, x, acc_d, cflat, L, logT, capp, (t * T) * G, G, cnt, gk, gs, hlo, hhi)
            thread_done(np.int64(t), T, used, cnt, dacc, acc_d, L)
        for p in prange(T):
            insert_part(np.int64(p), T, capp, G, used, gk, gs, tab, 1 + Lo, fill, cflat, L, Lo, logT, ovf)
        s = e
    return S


@cached_njit(parallel=True)
def fill_wide(keys, counts, s0, prm, nbr_p, nbr_end, pw, mstart, mlist, tab, Lo, logT, capp,
              fill, limit, gk, gs, dacc, ovf, hlo, hhi):  # pragma: no cover - compiled
    """:func:`fill_closed16` for keys of any width (digits in base 11 where 4 bits do not
    fit), closed or open tours: each state decoded into its digits first."""
    S, L, T, W, m, G, cflat, used = table_sizes(keys, counts, prm, nbr_p, logT, gk)
    closed, b16, new_live, mirror = prm[P_CLOSED], prm[P_B16], prm[P_NEW_LIVE], prm[P_MIRROR] != 0
    s = s0
    while s < S:
        e = next_block(s, S, fill, T, G, limit)
        if e < 0:
            return s
        for t in prange(T):
            acc_d, cnt = thread_arrays(L, T)
            mdig, mlab = np.empty(W + 1, np.int64), np.zeros(16, np.int64)  # a mirror image's digits, labels
            base = np.empty(W + 1, np.int64)
            w = np.empty(W + 1, np.int64)
            lab = np.zeros(128, np.int64)
            lab[1] = 1
            for x in range(s + (e - s) * t // T, s + (e - s) * (t + 1) // T):
                tn = decode_key(keys[x], W, b16, new_live, base)
                c = move_combo(base, W, m, nbr_p, nbr_end, prm[P_B0], closed, prm[P_OUT_LIVE],
                               prm[P_Z_DEAD], prm[P_L_DEAD], prm[P_Z_REQ], prm[P_L_REQ], prm[P_Z_FORB])
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
                    nk = successor(base, w, lab, mlist[mi], tn, zm, lm, prm, nbr_p, nbr_end, pw)
                    if mirror and nk >= 0:
                        nk = mirror_image(nk, W, b16 != 0, mdig, mlab)
                    emit(nk, x, acc_d, cflat, L, logT, capp, (t * T) * G, G, cnt, gk, gs, hlo, hhi)
            thread_done(np.int64(t), T, used, cnt, dacc, acc_d, L)
        for p in prange(T):
            insert_part(np.int64(p), T, capp, G, used, gk, gs, tab, 1 + Lo, fill, cflat, L, Lo, logT, ovf)
        s = e
    return S


def packed_keys(W: int) -> bool:
    """Whether the keys of a frontier of ``W`` positions fit 4-bit digits (and the two
    bits of the tour's ends) in 63 bits."""
    return 2 + 4 * W <= 63


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
            _part, g = home_slot(k - 1, logT, ncapp)
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
                h2 = pass_hash(k - 1)
                if h2 >= hi:
                    for li in range(R):
                        tab[(base + j) * R + li] = 0
                    fill[p] -= 1
        for t in range(1, capp + 1):
            j = (start + t) % capp
            k = tab[(base + j) * R]
            if k == 0:
                continue
            _part, g = home_slot(k - 1, logT, capp)
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
                add_limbs(acc[ch], 0, cflat, s * L, L, L + 1)
    return acc


#: The kernels a count calls from Python (the others are inlined into them).
KERNELS = (step_tables, fill_closed16, fill_open16, fill_wide, regrow, shrink, compact, complete_tours)
