"""The frontier counter's hash table, slot by slot: where a state's key goes (its part and home
slot, from the key's bits mixed), the second hash that shares a large step's states out among
passes, a count's 62-bit limbs, the sizes the table is laid out for, and the writing of a
successor into a thread's buffers before it goes into the table (numba kernels inlined into the
steps of :mod:`kt_formal.counting.frontier_tables`).

>>> limbs_to_int([5, 1]) == 5 + (1 << LIMB)
True
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba.core import cgutils, types
from numba.extending import intrinsic

from kt_formal.engines.compiled import cached_njit

__all__ = ["LIMB", "BLOCK", "BATCH", "SPARE_BYTES", "LOAD_FACTOR", "MAX_LOAD", "HASH_BITS", "HASH_SPACE",
           "limbs_to_int", "prefetch", "add_limbs", "pass_hash", "home_slot", "emit"]


#: bits of one limb of a count (a count is held as 62-bit limbs, lowest first)
LIMB = 62


_MIX1 = np.uint64(0xFF51AFD7ED558CCD)  # MurmurHash3's finaliser
_MIX2 = np.uint64(0xC4CEB9FE1A85EC53)


# successors written at once before they go into the table (32 MB of keys, as many of
# source states): a block is two parallel loops, and each loop wakes the threads asleep at
# its barrier; blocks of 2**18 cost 8x8 some 1.7 million such waits, and 8x8 holed to
# eight by six 10.9 to 12.0 s on two cores where these take 9.0 to 9.5 s
BLOCK = 1 << 22


BATCH = 64  # table slots prefetched ahead of their inserts


SPARE_BYTES = 256 << 20  # the largest state arrays kept for reuse


LOAD_FACTOR = 0.75  # keys per slot the table is laid out for


MAX_LOAD = 0.9  # most keys per slot before the table grows


HASH_BITS = 16  # a step in passes splits the range of a second hash of the keys


#: the range of the second hash of a key (a step in passes takes a part of it)
HASH_SPACE = 1 << HASH_BITS


def limbs_to_int(limbs) -> int:
    """A count's 62-bit limbs (lowest first) as a Python integer."""
    v = 0
    for i in range(len(limbs) - 1, -1, -1):
        v = (v << LIMB) + int(limbs[i])
    return v


@intrinsic
def prefetch(typingctx, arr, index):
    """Ask the processor to bring ``arr[index]``'s cache line in, for writing, without
    waiting for it (LLVM's ``prefetch``): the inserts of a batch then find their slots
    in cache. Unlike a load, the instruction retires at once, so a batch of misses does
    not hold up the instructions behind them."""
    def codegen(context, builder, signature, args):
        aryty = signature.args[0]
        ary = context.make_array(aryty)(context, builder, args[0])
        ptr = cgutils.get_item_pointer(context, builder, aryty, ary, [args[1]], wraparound=False)
        i8p, i32 = ir.IntType(8).as_pointer(), ir.IntType(32)
        fnty = ir.FunctionType(ir.VoidType(), [i8p, i32, i32, i32])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.prefetch.p0i8")
        builder.call(fn, [builder.bitcast(ptr, i8p), i32(1), i32(3), i32(1)])  # write, keep, data
        return context.get_dummy_value()

    return types.void(arr, index), codegen


@cached_njit(inline="always")
def add_limbs(dst, d0, src, s0, L, Ld):  # pragma: no cover - compiled
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
def _mix(key):  # pragma: no cover - compiled
    """``key``'s bits mixed (MurmurHash3's 64-bit finaliser): every bit of the result hangs
    on every bit of the key. A product with one odd constant (Fibonacci hashing) left the
    keys of 8x10's last column in runs of slots a million long, at a table's usual fill."""
    h = np.uint64(key)
    h ^= h >> np.uint64(33)
    h *= _MIX1
    h ^= h >> np.uint64(33)
    h *= _MIX2
    h ^= h >> np.uint64(33)
    return h


@cached_njit(inline="always")
def pass_hash(key):  # pragma: no cover - compiled
    """The second hash of a key that shares a step's states out among passes: the low
    :data:`HASH_BITS` bits of :func:`_mix`, apart from the bits that place it in the table."""
    return np.int64(_mix(key) & np.uint64(HASH_SPACE - 1))


@cached_njit(inline="always")
def home_slot(key, logT, capp):  # pragma: no cover - compiled
    """(part, slot) of ``key`` in a table of ``2**logT`` parts of ``capp`` slots each: the
    top bits of :func:`_mix` (the part, then 32 for the slot)."""
    h = _mix(key)
    part = np.int64(h >> np.uint64(64 - logT)) if logT > 0 else np.int64(0)
    x = (h << np.uint64(logT)) >> np.uint64(32)
    return part, np.int64((x * np.uint64(capp)) >> np.uint64(32))


@cached_njit(inline="always")
def emit(nk, x, acc_d, cflat, L, logT, capp, base_o, G, cnt, gk, gs, hlo, hhi):  # pragma: no cover - compiled
    """A successor of state ``x``: a finished tour (-2) adds its count to ``acc_d`` (in
    the first pass only); a state (``nk >= 0``) of this pass (a second hash of the key
    in ``hlo..hhi - 1``) goes into the buffers, in the thread's range for its part."""
    if nk == -2:
        if hlo == 0:
            add_limbs(acc_d, 0, cflat, x * L, L, L + 1)
    elif nk >= 0:
        if hhi - hlo < HASH_SPACE:
            h2 = pass_hash(nk)
            if h2 < hlo or h2 >= hhi:
                return
        part, _g = home_slot(nk, logT, capp)
        o = base_o + part * G + cnt[part]
        cnt[part] += 1
        gk[o] = nk
        gs[o] = x
