"""The successors of one frontier state: every way the next square can join the paths
(compiled, inlined into the step kernel of :mod:`kt_formal.counting.frontier_tables`).
"""

from __future__ import annotations

import numpy as np
from kt_formal.engines.compiled import cached_njit
from kt_formal.counting.frontier_keys import DEBRUIJN, P_BALANCE, P_CLOSED, P_COLOUR, P_FIXED, P_LIGHT, P_N_WATCH, P_FREE, P_MAY_FINISH, P_MERGE, P_NEW_LIVE, P_NO_ROOM, P_ONE_ROOM, P_OUT_FIXED, P_OUT_LIVE, P_SHUT, P_W, colours_dead, lowest_bit, watch_can, nibbles_equal, popcount, with_leaving

__all__ = ["move_combo16", "neighbour_sets", "labels_from", "successor16", "successor_open16",
           "touched_masks", "open_mask_dead", "successor", "mirror_image16"]


@cached_njit
def move_combo16(X, W, m, nbr_p4, nbr_end, out_live, z_dead, l_dead, z_req, l_req, z_forb, b0,
                 low_w, closed):  # pragma: no cover - compiled
    """:func:`_combo` of a packed state ``X`` (nibble q: position q; the masks are spread,
    bit 4q for position q)."""
    allowed, required = neighbour_sets(X, low_w, m, nbr_p4, nbr_end, z_dead, l_dead, z_req, l_req, z_forb, -1)
    if allowed < 0:
        return -1
    v0 = X & np.uint64(15)
    return with_leaving(v0 == np.uint64(0), v0 >= np.uint64(2), closed, out_live, b0, allowed, required)


@cached_njit
def neighbour_sets(X, low, m, shifts, nbr_end, z_dead, l_dead, z_req, l_req, z_forb,
                   skip):  # pragma: no cover - compiled
    """The neighbour bit sets ``(allowed, required)`` of a packed state ``X`` (its places the
    nibbles within ``low``, neighbour b at the nibble ``shifts[b]`` bits up; ``skip``: a
    neighbour left to the caller, -1 for none), or ``(-1, 0)`` when the state is dead."""
    one = np.uint64(1)
    zm = nibbles_equal(X, np.uint64(0)) & low
    om = nibbles_equal(X, one) & low
    lm = low & ~(zm | om)
    if (zm & z_dead) | (lm & l_dead):
        return -1, 0
    reqpos = (zm & z_req) | (lm & l_req)
    forbpos = zm & z_forb
    allowed = 0
    required = 0
    for b in range(m):
        if b == skip:
            continue
        s = shifts[b]
        bad = ((om >> s) & one) | (((lm >> s) & one) & np.uint64(nbr_end[b]))
        ok = np.int64(one - bad) & ~np.int64((forbpos >> s) & one)
        allowed |= ok << b
        required |= np.int64((reqpos >> s) & one) << b
    return allowed, required


@cached_njit(inline="always")
def _moves16(X, mask, W4, m, nbr_p4, nbr_end, low_a, may_join):  # pragma: no cover - compiled
    """The moves of ``mask`` from the new square (nibble ``W4 / 4``) on a packed state:
    ``(word, code)``, code -1 when a move is not allowed, 1 when the paths became one
    cycle or one whole path, 0 otherwise. Joining the two ends of one path is allowed
    only with ``may_join`` (a closed tour's last cycle; an open tour's two ends once both
    are placed)."""
    zero = np.uint64(0)
    one = np.uint64(1)
    two = np.uint64(2)
    F = np.uint64(15)
    w = X
    code = 0
    for b in range(m):
        if not (mask >> b) & 1:
            continue
        p4 = nbr_p4[b]
        a = (w >> p4) & F
        bv = (w >> W4) & F
        if a == one or (nbr_end[b] and a >= two):
            return w, -1
        if a == zero:
            if bv == zero:  # a new path: a label no state holds (15)
                w |= (F << p4) | (F << W4)
            else:
                w = (w | (bv << p4)) & ~(F << W4) | (one << W4)
        elif bv == zero:
            w = (w & ~(F << p4)) | (one << p4) | (a << W4)
        else:
            w = (w & ~((F << p4) | (F << W4))) | (one << p4) | (one << W4)
            if a == bv:  # the two ends of one path joined
                if not may_join:
                    return w, -1
                code = 1
            else:  # joins two paths: bv's other end takes label a
                eb = nibbles_equal(w, bv) & low_a
                if eb | (nibbles_equal(w, a) & low_a):
                    w = (w & ~(eb * F)) | (eb * a)
                else:  # both far ends were ends of paths that end the tour
                    code = 1
    return w, code


@cached_njit(inline="always")
def _relabelled16(Y, low_w, db_index):  # pragma: no cover - compiled
    """``Y`` with its path labels renumbered in frontier order: the first label met
    gets 2, the next 3, ... (one label at a time: a mask of its places)."""
    one = np.uint64(1)
    F = np.uint64(15)
    t = ((Y >> one) | (Y >> np.uint64(2)) | (Y >> np.uint64(3))) & low_w  # places holding a label
    return labels_from(Y, t, Y & ~(t * F), np.uint64(2), db_index)


@cached_njit(inline="always")
def labels_from(Y, t, out, nxt, db_index):  # pragma: no cover - compiled
    """``out`` with the labels of ``Y`` at the places ``t`` (spread bits) numbered ``nxt``,
    ``nxt + 1``, ... in frontier order (one label at a time: a mask of its places)."""
    one = np.uint64(1)
    F = np.uint64(15)
    while t:
        lb = t & (~t + one)
        q = db_index[np.int64((lb * DEBRUIJN) >> np.uint64(58))]
        e = nibbles_equal(Y, (Y >> np.uint64(q)) & F) & t
        out |= e * nxt
        t &= ~e
        nxt += one
    return out


@cached_njit(inline="always")
def mirror_image16(nk, W, low_w, db_index):  # pragma: no cover - compiled
    """:func:`~kt_formal.counting.frontier_keys.mirror_image` of a packed key (closed or
    open tours): the rows of both columns turned over with shifts, the labels renumbered
    by :func:`_relabelled16`; the key's two low bits (the ends of an open tour) kept."""
    F = np.uint64(15)
    key = np.uint64(nk)
    Y = key >> np.uint64(2)
    if Y & F != np.uint64(1):  # the square leaving is not finished: no image
        return nk
    k = (W - 1) // 2
    out = np.uint64(1)
    for q in range(1, k + 1):  # position q takes k + 1 - q, position k + q takes 2k + 1 - q
        out |= ((Y >> np.uint64(4 * (k + 1 - q))) & F) << np.uint64(4 * q)
        out |= ((Y >> np.uint64(4 * (2 * k + 1 - q))) & F) << np.uint64(4 * (k + q))
    image = np.int64((_relabelled16(out, low_w, db_index) << np.uint64(2)) | (key & np.uint64(3)))
    return min(nk, image)


@cached_njit(inline="always")
def successor16(X, mask, W, m, nbr_p4, nbr_end, out_live, may_finish, low_w, low_a,
                db_index, n_watch, wb, wa, wn):  # pragma: no cover - compiled
    """:func:`successor` of a closed tour's packed state ``X`` (the new square's value
    in nibble W): the same moves on nibbles in one word, the look-ahead on the watched
    squares (``wb``: their window neighbours, spread; ``wa``: moves ahead; ``wn``: need),
    and the path ends relabelled in frontier order one label at a time (a mask of its
    places), not one place at a time."""
    zero = np.uint64(0)
    two = np.uint64(2)
    F = np.uint64(15)
    w, code = _moves16(X, mask, np.uint64(4 * W), m, nbr_p4, nbr_end, low_a, True)
    if code < 0:
        return -1
    finished = code == 1
    v = w & F
    if v >= two or (v == zero and out_live):
        return -1
    Y = w >> np.uint64(4)
    if finished:
        if not may_finish or Y != low_w:
            return -1
        return -2
    if n_watch:
        avail = np.int64(low_w & ~nibbles_equal(Y, np.uint64(1)))
        for j in range(n_watch):
            if wa[j] + popcount(wb[j] & avail) < wn[j]:
                return -1
    return np.int64(_relabelled16(Y, low_w, db_index) << np.uint64(2))


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
        e = nibbles_equal(Y, (Y >> q4) & F) & t
        if e == lb:
            out |= lb
        t &= ~e
    return out


@cached_njit(inline="always")
def _ends_dead(zpost, lpost, tn2, free, one_room, no_room, colour, light, fixed, balance, n_watch, wb, wa, wn,
               wl):  # pragma: no cover - compiled
    """Whether an open tour's state after a step is dead by its ends, from the window's
    squares without a move (``zpost``) and its path ends (``lpost``), spread: a square still
    to come two moves short, or more squares that can only be ends (a square without a move
    and one move of room, a path end without room, a square still to come a move short)
    than the tour has ends left after its ``tn2``, or ends of colours the board does not
    allow (``colour``). The watched squares as :func:`successor16`'s (``wl``: light)."""
    f = np.int64((zpost & one_room) | (lpost & no_room))  # squares that can only be ends
    nf = popcount(f)
    if tn2 + nf > free:  # the commonest end, and the cheapest to see
        return True
    n_short = 0
    light_short = 0
    if n_watch:
        avail = np.int64(zpost | (lpost & ~fixed))
        for j in range(n_watch):
            can = wa[j] + popcount(wb[j] & avail)
            if can < wn[j]:
                if can < wn[j] - 1:
                    return True
                n_short += 1
                light_short += wl[j]
    if tn2 + nf + n_short > free:
        return True
    return colour and colours_dead(np.int64(zpost), np.int64(lpost), tn2, free, np.int64(light), np.int64(fixed),
                                   balance, f, nf, n_short, light_short)


@cached_njit(inline="always")
def successor_open16(X, tn, mask, W, m, nbr_p4, nbr_end, out_live, out_fixed, may_finish, free, merge,
                     one_room, no_room, shut, low_w, low_a, db_index, colour, light, fixed,
                     balance, n_watch, wb, wa, wn, wl):  # pragma: no cover - compiled
    """:func:`successor` of an open tour's packed state ``X`` (the new square's value in
    nibble W; ``tn`` the ends of the tour gone from the frontier): the moves, the leaving
    square, the pairing of the two unpartnered ends once both ends are placed, the end
    and whole-path pruning and the relabelling, on nibbles of one word. ``one_room``,
    ``no_room``, ``shut``, ``light`` and ``fixed`` are spread masks of the frontier after
    the step; with ``colour`` the ends' colours are checked (:func:`colours_dead`); the
    watched squares as :func:`successor16`'s (``wl``: light). The checks on the ends
    (:func:`_ends_dead`) are left to :func:`open_mask_dead`, before the moves, on a step
    that cannot finish the tour: the caller makes them there."""
    zero = np.uint64(0)
    one = np.uint64(1)
    two = np.uint64(2)
    F = np.uint64(15)
    w, code = _moves16(X, mask, np.uint64(4 * W), m, nbr_p4, nbr_end, low_a, merge and tn == 2)
    if code < 0:
        return -1
    finished = code == 1
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
        if not (nibbles_equal(Y, v) & low_w):  # its other end gone before it: a whole path
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
    zpost = nibbles_equal(Y, zero) & low_w
    lpost = low_w & ~(zpost | (nibbles_equal(Y, one) & low_w))
    # the checks on the ends: made before the moves (:func:`open_mask_dead`) unless the
    # step may finish the tour, and then here
    if may_finish and _ends_dead(zpost, lpost, tn2, free, one_room, no_room, colour, light, fixed, balance,
                                 n_watch, wb, wa, wn, wl):
        return -1
    sh = lpost & shut
    while sh:
        lb = sh & (~sh + one)
        sh &= ~lb
        q4 = np.uint64(0)
        while not (lb >> q4) & one:
            q4 += np.uint64(4)
        e = nibbles_equal(Y, (Y >> q4) & F) & low_w
        mate = e & ~lb
        if mate == zero or (mate & shut):
            if not may_finish or ((zpost | lpost) & ~e):
                return -1
    return np.int64((_relabelled16(Y, low_w, db_index) << two) | np.uint64(tn2))


@cached_njit
def touched_masks(nbr_p4, m):  # pragma: no cover - compiled
    """For each move mask, the window squares its moves touch, spread, after the step
    (nibble q - 1 for frontier position q; the square leaving, position 0, aside)."""
    t = np.zeros(1 << m, np.uint64)
    for mask in range(1 << m):
        for b in range(m):
            if (mask >> b) & 1 and nbr_p4[b] > np.uint64(0):
                t[mask] |= np.uint64(1) << (nbr_p4[b] - np.uint64(4))
    return t


@cached_njit
def open_mask_dead(zu, lu, nz, t, d, tn2, free, may_finish, one_room, no_room, colour, light, fixed,
                   balance, n_watch, wb, wa, wn, wl):  # pragma: no cover - compiled
    """Whether a move mask of an open tour's state leads nowhere, told from which window
    squares have no move yet (``zu``) and which are path ends (``lu``) after the step,
    before the mask's moves are made: the squares it touches (``t``) take a move, the new
    square ``d`` of them (``nz``: its bit where it is live). The checks of
    :func:`_ends_dead`, made before the moves instead of after them: the masks they drop
    are most of those tried, at a few operations each. On a step that may finish the tour
    (``may_finish``) only the ends forced by squares short of room are counted here, which a
    finished tour never fails; :func:`successor_open16` makes the rest there."""
    zpost = (zu & ~t) | (nz if d == 0 else np.uint64(0))
    lpost = (lu & ~t) | (zu & t) | (nz if d == 1 else np.uint64(0))
    if may_finish:
        return tn2 + popcount(np.int64((zpost & one_room) | (lpost & no_room))) > free
    return _ends_dead(zpost, lpost, tn2, free, one_room, no_room, colour, light, fixed, balance, n_watch, wb, wa, wn, wl)


@cached_njit(inline="always")
def _join_moves(w, mask, W, nbr_p, nbr_end, closed, merge, tn):  # pragma: no cover - compiled
    """Give the new square (``w[W]``) the moves of ``mask``: -1 when no state results, 1
    when a tour is finished, else 0."""
    finished = False
    fresh = 100
    for b in range(nbr_p.shape[0]):
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
            if not closed and not (merge and tn == 2):
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
    return 1 if finished else 0


@cached_njit(inline="always")
def _open_tour_dead(w, mask, zm, lm, tn2, prm, nbr_p, W, n_short, light_short):  # pragma: no cover - compiled
    """Whether an open tour's state after the step is dead: more squares that must be ends
    (``n_short`` of them still to come, ``light_short`` of those light) than free ends left,
    ends of colours the board does not allow, or a path that is the whole tour while other
    squares wait."""
    chg = 0
    moves = 0
    for b in range(nbr_p.shape[0]):
        bit = (mask >> b) & 1
        chg |= bit << nbr_p[b]
        moves += bit
    zpost = zm & ~chg
    lpost = (lm & ~chg) | (zm & chg)
    if prm[P_NEW_LIVE]:
        if moves == 0:
            zpost |= np.int64(1) << W
        elif moves == 1:
            lpost |= np.int64(1) << W
    f = (zpost & prm[P_ONE_ROOM]) | (lpost & prm[P_NO_ROOM])  # squares that can only be ends
    nf = popcount(f)
    if tn2 + nf + n_short > prm[P_FREE]:
        return True
    if prm[P_COLOUR] and colours_dead(zpost, lpost, tn2, prm[P_FREE], prm[P_LIGHT], prm[P_FIXED],
                                      prm[P_BALANCE], f, nf, n_short, light_short):
        return True
    # a path whose two ends take no more moves (shut, or gone from the frontier as an
    # end of the tour) is the whole tour: dead while any other square waits for moves
    shut = lpost & prm[P_SHUT]
    while shut:
        p = lowest_bit(shut)
        shut &= shut - 1
        x = w[p]
        p2 = -1
        for t in range(1, W + 1):
            if t != p and w[t] == x:
                p2 = t
                break
        if p2 < 0 or (prm[P_SHUT] >> p2) & 1:
            if not prm[P_MAY_FINISH]:
                return True
            rest = (zpost | lpost) & ~(np.int64(1) << p)
            if p2 >= 0:
                rest &= ~(np.int64(1) << p2)
            if rest:
                return True
    return False


@cached_njit(inline="always")
def _pair_the_tour_ends(w, W):  # pragma: no cover - compiled
    """Both ends of the tour are placed: the two path ends joined to them (the only ends
    without a partner) become one pair, as if joined through the tour's ends, and the
    state is a closed tour's from now on."""
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


@cached_njit(inline="always")
def _encode(w, lab, W, pw, tn2):  # pragma: no cover - compiled
    """Relabel the path ends in frontier order, and encode (branch-free: lab[0] = 0,
    lab[1] = 1, lab[label] = 0 until it is numbered)."""
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
def successor(base, w, lab, mask, tn, zm, lm, prm, nbr_p, nbr_end, pw):  # pragma: no cover - compiled
    """The key of the state that ``mask`` (the new square's moves back into the frontier)
    makes of the decoded state ``base``; -1 when it makes none, -2 when it finishes the tour."""
    W = prm[P_W]
    closed = prm[P_CLOSED]
    for q in range(W + 1):
        w[q] = base[q]
    joined = _join_moves(w, mask, W, nbr_p, nbr_end, closed, prm[P_MERGE], tn)
    if joined < 0:
        return -1
    finished = joined == 1
    v = w[0]
    tn2 = tn
    if v == 0 and prm[P_OUT_LIVE]:
        return -1
    if v >= 2:
        if closed:
            return -1
        if not prm[P_OUT_FIXED]:
            if tn2 >= prm[P_FREE]:
                return -1
            tn2 += 1
        present = False
        for t in range(1, W + 1):
            if w[t] == v:
                present = True
                break
        if not present:
            finished = True
    elif prm[P_OUT_FIXED] and v != 1:
        return -1
    if prm[P_MERGE] and tn2 == 2 and tn < 2 and not finished:
        _pair_the_tour_ends(w, W)
    if finished:
        if not prm[P_MAY_FINISH]:
            return -1
        for t in range(1, W + 1):
            if w[t] != 1:
                return -1
        return -2
    n_short = 0
    light_short = 0
    if prm[P_N_WATCH]:
        # the look-ahead: window places that can still take a move (no move yet, or a path
        # end that is not a fixed end), bit p for place p
        avail = 0
        for p in range(1, W + 1):
            x = w[p]
            avail |= np.int64((x == 0) | ((x >= 2) & ((prm[P_FIXED] >> p) & 1 == 0))) << p
        for j in range(prm[P_N_WATCH]):
            can, need, lt = watch_can(prm, j, avail)
            if can < need:
                if closed or can < need - 1:
                    return -1
                n_short += 1
                light_short += lt
    if not closed and _open_tour_dead(w, mask, zm, lm, tn2, prm, nbr_p, W, n_short, light_short):
        return -1
    return _encode(w, lab, W, pw, tn2)
