"""The frontier counter's states as keys: encoding and decoding, mirror images, a step's
parameters and move tables, the dead-state checks, and the bit tricks on a key's nibbles (numba
kernels inlined into the steps of :mod:`kt_formal.counting.frontier_tables`; where a key goes in
the hash table is :mod:`kt_formal.counting.frontier_hash`'s).

>>> int(ONES) == sum(1 << 4 * q for q in range(16))
True
"""

from __future__ import annotations

import numpy as np
from numba.core import types
from numba.extending import intrinsic

from kt_formal.engines.compiled import cached_njit

__all__ = ["popcount", "colours_dead", "watch_can", "lowest_bit", "decode_key", "move_combo", "with_leaving",
           "N_PRM", "ONES", "DEBRUIJN", "DB_INDEX", "step_tables", "nibbles_equal", "spread_bits",
           "mirror_image", "P_W", "P_B16", "P_CLOSED", "P_FREE", "P_NEW_LIVE", "P_OUT_LIVE", "P_OUT_FIXED",
           "P_MAY_FINISH", "P_B0", "P_Z_DEAD", "P_L_DEAD", "P_Z_REQ", "P_L_REQ", "P_Z_FORB", "P_ONE_ROOM",
           "P_NO_ROOM", "P_SHUT", "P_MERGE", "P_MIRROR", "P_COLOUR", "P_LIGHT", "P_FIXED", "P_BALANCE",
           "P_N_WATCH"]


@intrinsic
def popcount(typingctx, x):
    """The set bits of an integer (LLVM's ``ctpop``: one instruction where the processor has it)."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return x(x), codegen


@cached_njit
def colours_dead(z, l, tn2, free, light, fixed, balance, f, nf, n_short,
                 light_short):  # pragma: no cover - compiled
    """An open tour's state whose ends cannot have the colours the board asks for
    (:func:`kt_formal.counting.frontier.colours_dead`): ``z``, ``l`` the window's squares
    without a move and its path ends, ``light`` its light squares, ``fixed`` its fixed
    ends, ``f`` those that can only be ends (``nf`` of them; bit sets, one convention for
    all), ``balance`` that of the squares still to come, ``n_short`` of which can only be
    ends (``light_short`` of them light)."""
    b = balance + 2 * (2 * popcount(z & light) - popcount(z)) + 2 * popcount(l & light) - popcount(l)
    zf = z & fixed
    lf = l & fixed
    if zf | lf:
        b -= 2 * popcount(zf & light) - popcount(zf) + 2 * popcount(lf & light) - popcount(lf)
    b -= 2 * popcount(f & light) - nf + 2 * light_short - n_short
    left = free - tn2 - nf - n_short
    return b > left or -b > left


@cached_njit
def lowest_bit(x):  # pragma: no cover - compiled
    """The index of the lowest set bit of ``x`` (> 0)."""
    n = 0
    while not (x >> n) & 1:
        n += 1
    return n


@cached_njit
def decode_key(key, W, b16, new_live, base):  # pragma: no cover - compiled
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


@cached_njit
def move_combo(base, W, m, nbr_p, nbr_end, b0, closed, out_live, z_dead, l_dead, z_req, l_req,
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
    return with_leaving(base[0] == 0, base[0] >= 2, closed, out_live, b0, allowed, required)


@cached_njit
def with_leaving(zero0, end0, closed, out_live, b0, allowed, required):  # pragma: no cover - compiled
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


#: The slots of a step's parameter array ``prm``, which :func:`step_tables` fills from its
#: arguments of the same names and the steps of :mod:`~kt_formal.counting.frontier_tables`
#: read: the frontier's width, base 16 or 11, closed, the free terminals, the new square and
#: the leaving one live, the leaving one a fixed end, a tour may finish;
P_W, P_B16, P_CLOSED, P_FREE, P_NEW_LIVE, P_OUT_LIVE, P_OUT_FIXED, P_MAY_FINISH = range(8)


#: the leaving place, the position masks of the dead-state check (z: squares without a move,
#: l: path ends; dead, required, forbidden) and of the squares with room for one move or none;
P_B0, P_Z_DEAD, P_L_DEAD, P_Z_REQ, P_L_REQ, P_Z_FORB, P_ONE_ROOM, P_NO_ROOM = range(8, 16)


#: the path ends that take no more moves (a mask), two free terminals may join (open tours),
#: mirror images count alike;
P_SHUT, P_MERGE, P_MIRROR = 16, 17, 18


#: the colour check of open tours (its light squares, fixed ends, balance), the watched squares.
P_COLOUR, P_LIGHT, P_FIXED, P_BALANCE, P_N_WATCH = 19, 20, 21, 22, 23


N_PRM = 24  # then 4 entries a watched square: its window neighbours, its moves ahead, its need, light


@cached_njit
def watch_can(prm, j, avail):  # pragma: no cover - compiled
    """``(can, need, light)`` of watched square ``j`` (:func:`~kt_formal.counting.frontier.watched_squares`):
    the moves it can still take, given the window squares that can take one (``avail``,
    bit p for place p of the state after the step)."""
    o = N_PRM + 4 * j
    return prm[o + 1] + popcount(prm[o] & avail), prm[o + 2], prm[o + 3]


#: a 1 in every nibble of a 64-bit word (a value repeated over the nibbles is ``v * ONES``)
ONES = np.uint64(0x1111111111111111)


_SEVENS = np.uint64(0x7777777777777777)


#: a de Bruijn sequence of 64 bits: ``(x & -x) * DEBRUIJN >> 58`` indexes :data:`DB_INDEX`
DEBRUIJN = np.uint64(0x03F79D71B4CB0A89)


DB_INDEX = np.zeros(64, np.int64)  # bit index of a power of two, by its de Bruijn product


for _i in range(64):
    DB_INDEX[((1 << _i) * 0x03F79D71B4CB0A89 & (2**64 - 1)) >> 58] = _i


del _i


@cached_njit
def step_tables(W, b16, closed, free_terminals, nbr_p, masks, new_live, out_live, out_fixed, room,
                fixed_pos, may_finish, light, balance, watch):  # pragma: no cover - compiled
    """What a square's step needs besides the states: ``(prm, pw, mstart, mlist)``.

    ``prm`` holds the flags and the position masks of the dead-state check (at the
    places ``P_*``), ``pw`` the digit weights of a key, and ``mlist[mstart[c]:mstart[c + 1]]``
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
    prm = np.zeros(N_PRM + 4 * watch.shape[0], np.int64)
    prm[P_W] = W
    prm[P_B16] = b16
    prm[P_CLOSED] = closed
    prm[P_FREE] = free_terminals
    prm[P_NEW_LIVE] = new_live
    prm[P_OUT_LIVE] = out_live
    prm[P_OUT_FIXED] = out_fixed
    prm[P_MAY_FINISH] = may_finish
    prm[P_B0] = b0
    prm[P_Z_DEAD] = z_dead
    prm[P_L_DEAD] = l_dead
    prm[P_Z_REQ] = z_req
    prm[P_L_REQ] = l_req
    prm[P_Z_FORB] = z_forb
    prm[P_ONE_ROOM] = one_room
    prm[P_NO_ROOM] = no_room
    prm[P_SHUT] = shut
    prm[P_MERGE] = (not closed) and free_terminals == 2
    _look_ahead(prm, closed, fixed_pos, light, balance, watch)
    return prm, pw, mstart, mlist


@cached_njit
def _look_ahead(prm, closed, fixed_pos, light, balance, watch):  # pragma: no cover - compiled
    """The look-ahead's places in ``prm``: for open tours the colour check of the ends
    (``light`` < 0: none, e.g. a strip of odd height whose width is not known yet; masks as
    one_room's), and the squares still to come that may run short of moves (their window
    neighbours, bit q + 1 for position q after the step, moves ahead, need and colour)."""
    prm[P_COLOUR] = (not closed) and light >= 0
    prm[P_LIGHT] = max(light, 0) << 1
    prm[P_FIXED] = fixed_pos << 1
    prm[P_BALANCE] = balance
    prm[P_N_WATCH] = watch.shape[0]
    for j in range(watch.shape[0]):
        prm[N_PRM + 4 * j] = watch[j, 0] << 1
        for f in range(1, 4):
            prm[N_PRM + 4 * j + f] = watch[j, f]


@cached_njit
def nibbles_equal(x, v):  # pragma: no cover - compiled
    """Bit 4q set where nibble q of ``x`` (uint64) equals ``v`` (uint64, below 16), exactly."""
    z = x ^ (v * ONES)
    h = ~(((z & _SEVENS) + _SEVENS) | z | _SEVENS)
    return (h >> np.uint64(3)) & ONES


@cached_njit
def spread_bits(bits):  # pragma: no cover - compiled
    """Bit q of ``bits`` as bit 4q of a uint64 (a bit set of places as a mask of nibbles)."""
    x = np.uint64(0)
    q = 0
    while bits:
        if bits & 1:
            x |= np.uint64(1) << np.uint64(4 * q)
        bits >>= 1
        q += 1
    return x


@cached_njit
def mirror_image(nk, W, b16, dig, lab):  # pragma: no cover - compiled
    """The smaller of a state ``nk`` at a column's end and its mirror image (closed or open tours).

    At the end of a column the frontier holds the last square of the column before last
    (position 0, finished: nothing comes after it) and the last two columns (positions
    ``1..k`` and ``k + 1..2k``, row 0 first). Turned upside down (row ``r`` to
    ``k - 1 - r`` in both columns, the labels renumbered in frontier order) it is a state
    of the board turned upside down; on a board that looks the same upside down the two
    have the same ways to be finished, so the count may go to either: both go to the
    smaller key, and the next column has about half the states.
    """
    B = 16 if b16 else 11
    tn = decode_key(nk, W, b16, True, dig)  # dig: W + 1 places
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


