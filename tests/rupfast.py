"""A compiled replay of DRUP certificates: the kernel's checker, step for step, in numba.

:func:`check_drup_certificate_fast` reads the certificate and regenerates its clauses
with the kernel (:func:`kt_formal.kernel.rup.prepare_drup`, so parsing, the encoding and
the cut checks are the kernel's own) and replays the proof with a numba translation of
:class:`kt_formal.kernel.rup.RupDB`: the same watched-literal order, the same literal
chosen as a clause's new watch, the same rules for deletions. It is not part of the
trusted kernel; tests check it gives the kernel's answer on accepted and rejected
proofs, and ``kt-formal verify`` uses the kernel.

>>> from kt_formal.board import Board
>>> from kt_formal.solve import run_engine
>>> from kt_formal.question import Question
>>> cert = run_engine("sat", Question(Board(4, 6))).proof
>>> check_drup_certificate_fast(cert).startswith("OK: no closed tour of the 4x6 board")
True
"""

from __future__ import annotations

import numpy as np

from kt_formal.engines.compiled import cached_njit
from kt_formal.claims import claim_line
from kt_formal.kernel.rup import DrupRejected, drup_claim, prepare_drup

__all__ = ["check_drup_certificate_fast", "replay_fast", "prepare_kernels", "KERNELS"]

_MESSAGES = {
    1: "proof byte {at}: expected 'a' or 'd'",
    2: "the proof ends inside a clause",
    3: "the proof ends inside a literal or has an overlong literal",
    4: "a proof literal names a variable outside the formula",
    5: "lemma {at} is not implied by unit propagation (RUP)",
    6: "the proof goes on after the empty clause",
    7: "the proof never derives the empty clause",
}


@cached_njit
def _decode(data, n_vars):
    """Binary DRAT -> (kind, start, length, literals, error, position)."""
    n = data.shape[0]
    limit = 2 * n_vars + 1
    kinds = np.empty(n, np.int8)
    starts = np.empty(n + 1, np.int64)
    lits = np.empty(n, np.int64)
    ns = 0
    nl = 0
    i = 0
    while i < n:
        tag = data[i]
        i += 1
        if tag == 0x61:
            kinds[ns] = 1
        elif tag == 0x64:
            kinds[ns] = 0
        else:
            return kinds, starts, lits, ns, 1, i - 1
        starts[ns] = nl
        while True:
            if i >= n:
                return kinds, starts, lits, ns, 2, i
            b = np.int64(data[i])
            i += 1
            if b == 0:
                break
            u = b & 0x7F
            shift = 7
            big = False
            while b & 0x80:
                if i >= n or shift > 63:
                    return kinds, starts, lits, ns, 3, i
                b = np.int64(data[i])
                i += 1
                part = b & 0x7F
                if part != 0 and shift >= 35:
                    big = True
                elif part != 0:
                    u |= part << shift
                shift += 7
            if big or u < 2 or u > limit:
                return kinds, starts, lits, ns, 4, i
            lits[nl] = u
            nl += 1
        ns += 1
        starts[ns] = nl
    return kinds, starts, lits, ns, 0, 0


@cached_njit
def _replay(n_vars, f_lits, f_starts, kinds, s_starts, s_lits, n_steps):
    n_f = f_starts.shape[0] - 1
    n_add = 0
    for j in range(n_steps):
        if kinds[j] == 1:
            n_add += 1
    max_c = n_f + n_add + 1
    cap = f_lits.shape[0] + s_lits.shape[0] + 1
    pool = np.empty(cap, np.int64)
    spool = np.empty(cap, np.int64)
    cstart = np.empty(max_c, np.int64)
    clen = np.empty(max_c, np.int64)
    deleted = np.zeros(max_c, np.bool_)
    older = np.full(max_c, -1, np.int64)  # next older clause in the same hash bucket
    tsize = 1
    while tsize < 2 * max_c:
        tsize *= 2
    tkey = np.zeros(tsize, np.int64)
    thead = np.full(tsize, -1, np.int64)
    nlit = 2 * n_vars + 2
    val = np.zeros(nlit, np.int8)
    reason = np.full(n_vars + 1, -1, np.int64)
    trail = np.empty(n_vars + 1, np.int64)
    head = np.full(nlit, -1, np.int64)
    tail = np.full(nlit, -1, np.int64)
    nxt = np.full(2 * max_c, -1, np.int64)
    stamp = np.zeros(nlit, np.int64)
    tmp = np.empty(nlit + 1, np.int64)
    state = np.zeros(4, np.int64)  # ncl, used pool, trail length, qhead
    conflict = False
    st = 0  # stamp counter

    count = 0
    done = False
    for phase in range(2):
        total = n_f if phase == 0 else n_steps
        for j in range(total):
            if phase == 0:
                a, b, kind = f_starts[j], f_starts[j + 1], 1
                src = f_lits
            else:
                a, b, kind = s_starts[j], s_starts[j + 1], kinds[j]
                src = s_lits
                if done:
                    return count, 6
                if kind == 1:
                    count += 1
                    # --- is_rup
                    rup = conflict
                    if not rup:
                        for t in range(a, b):
                            if val[src[t]] == 1:
                                rup = True
                                break
                    if not rup:
                        mark = state[2]
                        for t in range(a, b):
                            x = src[t]
                            if val[x] == 0:
                                y = x ^ 1
                                val[y] = 1
                                val[y ^ 1] = -1
                                reason[y >> 1] = -1
                                trail[state[2]] = y
                                state[2] += 1
                        confl = _propagate(pool, cstart, clen, deleted, val, reason, trail, head, tail, nxt, state)
                        for t in range(mark, state[2]):
                            y = trail[t]
                            val[y] = 0
                            val[y ^ 1] = 0
                        state[2] = mark
                        state[3] = mark
                        rup = confl >= 0
                    if not rup:
                        return count, 5
                    if a == b:
                        done = True
                        continue
            # dedupe (first occurrence order), sorted copy, hash
            st += 1
            m = 0
            for t in range(a, b):
                x = src[t]
                if stamp[x] != st:
                    stamp[x] = st
                    tmp[m] = x
                    m += 1
            srt = np.sort(tmp[:m])
            h = np.int64(1469598103934665603)
            for t in range(m):
                h = (h ^ srt[t]) * np.int64(1099511628211)
            h = h ^ m
            if kind == 0:
                # --- delete: the most recent live clause with the same literal set
                slot = h & (tsize - 1)
                found = -1
                while thead[slot] != -1:
                    if tkey[slot] == h:
                        cid = thead[slot]
                        while cid != -1:
                            if not deleted[cid] and clen[cid] == m:
                                same = True
                                s0 = cstart[cid]
                                for t in range(m):
                                    if spool[s0 + t] != srt[t]:
                                        same = False
                                        break
                                if same:
                                    found = cid
                                    break
                            cid = older[cid]
                        break
                    slot = (slot + 1) & (tsize - 1)
                if found >= 0:
                    if clen[found] == 0:
                        deleted[found] = True
                    else:
                        first = pool[cstart[found]]
                        if not (val[first] == 1 and reason[first >> 1] == found):
                            deleted[found] = True
                continue
            # --- add
            cid = state[0]
            state[0] += 1
            s0 = state[1]
            state[1] += m
            cstart[cid] = s0
            clen[cid] = m
            for t in range(m):
                pool[s0 + t] = tmp[t]
                spool[s0 + t] = srt[t]
            slot = h & (tsize - 1)
            while thead[slot] != -1 and tkey[slot] != h:
                slot = (slot + 1) & (tsize - 1)
            tkey[slot] = h
            older[cid] = thead[slot]
            thead[slot] = cid
            if conflict:
                continue
            free = 0
            sat = False
            for t in range(m):
                v = val[pool[s0 + t]]
                if v != -1:
                    free += 1
                if v == 1:
                    sat = True
            if not sat and free == 0:
                conflict = True
                continue
            # stable partition: non-false literals first
            q = 0
            for t in range(m):
                if val[tmp[t]] != -1:
                    pool[s0 + q] = tmp[t]
                    q += 1
            for t in range(m):
                if val[tmp[t]] == -1:
                    pool[s0 + q] = tmp[t]
                    q += 1
            if m >= 2:
                _append(head, tail, nxt, pool[s0], 2 * cid)
                _append(head, tail, nxt, pool[s0 + 1], 2 * cid + 1)
            if not sat and free == 1:
                y = pool[s0]
                val[y] = 1
                val[y ^ 1] = -1
                reason[y >> 1] = cid
                trail[state[2]] = y
                state[2] += 1
                if _propagate(pool, cstart, clen, deleted, val, reason, trail, head, tail, nxt, state) >= 0:
                    conflict = True
    if not done:
        return count, 7
    return count, 0


@cached_njit(inline="always")
def _append(head, tail, nxt, lit, node):
    nxt[node] = -1
    if tail[lit] == -1:
        head[lit] = node
    else:
        nxt[tail[lit]] = node
    tail[lit] = node


@cached_njit
def _propagate(pool, cstart, clen, deleted, val, reason, trail, head, tail, nxt, state):
    qhead = state[3]
    while qhead < state[2]:
        fl = trail[qhead] ^ 1
        qhead += 1
        prev = -1
        node = head[fl]
        while node != -1:
            after = nxt[node]
            cid = node >> 1
            if deleted[cid]:
                if prev == -1:
                    head[fl] = after
                else:
                    nxt[prev] = after
                if tail[fl] == node:
                    tail[fl] = prev
                node = after
                continue
            s = cstart[cid]
            if pool[s] == fl:
                pool[s] = pool[s + 1]
                pool[s + 1] = fl
            other = pool[s]
            if val[other] == 1:
                prev = node
                node = after
                continue
            moved = False
            for k in range(2, clen[cid]):
                lk = pool[s + k]
                if val[lk] != -1:
                    pool[s + 1] = lk
                    pool[s + k] = fl
                    if prev == -1:
                        head[fl] = after
                    else:
                        nxt[prev] = after
                    if tail[fl] == node:
                        tail[fl] = prev
                    _append(head, tail, nxt, lk, node)
                    moved = True
                    break
            if moved:
                node = after
                continue
            prev = node
            if val[other] == -1:
                state[3] = state[2]
                return cid
            val[other] = 1
            val[other ^ 1] = -1
            reason[other >> 1] = cid
            trail[state[2]] = other
            state[2] += 1
            node = after
    state[3] = qhead
    return -1


def replay_fast(n_vars: int, clauses, raw: bytes) -> int:
    """:func:`kt_formal.kernel.rup.replay`, compiled: the lemma count, or DrupRejected."""
    lens = np.fromiter((len(c) for c in clauses), np.int64, len(clauses))
    f_starts = np.zeros(len(clauses) + 1, np.int64)
    np.cumsum(lens, out=f_starts[1:])
    f_lits = np.fromiter((x for c in clauses for x in c), np.int64, int(f_starts[-1]))
    data = np.frombuffer(raw, np.uint8)
    kinds, s_starts, s_lits, n_steps, err, at = _decode(data, n_vars)
    if err:
        raise DrupRejected(_MESSAGES[err].format(at=at))
    count, err = _replay(n_vars, f_lits, f_starts, kinds, s_starts, s_lits, n_steps)
    if err:
        raise DrupRejected(_MESSAGES[err].format(at=count))
    return count


def check_drup_certificate_fast(d) -> str:
    """:func:`kt_formal.claims.check_drup_certificate` with the compiled replay."""
    task = prepare_drup(d)
    return "OK: " + claim_line(drup_claim(task, replay_fast(task.n_vars, task.clauses, task.raw)))


#: The kernels of the replay called from Python.
KERNELS = (_decode, _replay)


def prepare_kernels(note: bool = True) -> None:
    """Load (or compile) the replay's kernels: replay a two-lemma proof of a small formula."""
    from kt_formal.engines.compiled import announce_compile

    if note:
        announce_compile(list(KERNELS), "the DRUP replay's kernels", 6)  # as measured for the frontier's
    # (x1 or x2), (not x1 or x2), (x1 or not x2), (not x1 or not x2): lemma x2, then the empty clause
    replay_fast(2, [[2, 4], [3, 4], [2, 5], [3, 5]], b"a\x04\x00a\x00")
