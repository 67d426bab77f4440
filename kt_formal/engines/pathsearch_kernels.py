"""The compiled path searches: Warnsdorff-ordered backtracking with the pruning rules, plain depth-first search in a fixed move order, and Warnsdorff's greedy walk (numba kernels, run in chunks of nodes by :class:`kt_formal.engines.pathsearch.PathSearch`)."""

from __future__ import annotations

import numpy as np
from kt_formal.engines.compiled import cached_njit as _njit

__all__ = ["_visit", "_unvisit", "_candidates", "search_kernel", "plain_kernel", "warnsdorff_kernel"]


@_njit
def _visit(table, visited, deg, st, v):
    visited[v] = 1
    dv = deg[v]
    if dv <= 1:
        st[3] -= 1
    if dv == 0:
        st[4] -= 1
    for j in range(8):
        w = table[v, j]
        if w >= 0:
            deg[w] -= 1
            if visited[w] == 0:
                if deg[w] == 1:
                    st[3] += 1
                elif deg[w] == 0:
                    st[4] += 1


@_njit
def _unvisit(table, visited, deg, st, v):
    for j in range(8):
        w = table[v, j]
        if w >= 0:
            if visited[w] == 0:
                if deg[w] == 1:
                    st[3] -= 1
                elif deg[w] == 0:
                    st[4] -= 1
            deg[w] += 1
    visited[v] = 0
    dv = deg[v]
    if dv <= 1:
        st[3] += 1
    if dv == 0:
        st[4] += 1


@_njit
def _candidates(table, dist, adjs, params, visited, deg, cand, ncand, ci, d, h):
    k = params[0]
    target = params[8]
    n = 0
    last = d + 1 == k - 1
    for j in range(8):
        w = table[h, j]
        if w < 0 or visited[w] != 0:
            continue
        if w == target and not last:
            continue
        if params[5] != 0 and last and adjs[w] == 0:
            continue
        if d == 0 and params[7] >= 0 and w != params[7]:
            continue
        if params[1] == 1:
            key = deg[w] * 1048576 - dist[w]
            i = n
            while i > 0:
                u = cand[d, i - 1]
                if deg[u] * 1048576 - dist[u] > key:
                    cand[d, i] = u
                    i -= 1
                else:
                    break
            cand[d, i] = w
        else:
            cand[d, n] = w
        n += 1
    ncand[d] = n
    ci[d] = 0


@_njit(nogil=True)  # runs beside the constructions and CP-SAT without holding Python's lock
def search_kernel(table, dist, need, adjs, params, st, visited, deg, path, cand, ncand, ci, sol, chunk):
    """Run the search for up to ``chunk`` more nodes.

    Returns 0 when the search space is exhausted, 1 after a solution (copied into
    ``sol``; only when stopping at solutions), 2 when the chunk of nodes ran out.
    """
    k = params[0]
    prune = params[2] != 0
    open_free = params[4] != 0
    closed = params[5] != 0
    target = params[8]
    if st[5] == 0:
        st[5] = 1
        root = np.int32(params[6])  # a square as the path holds it: one compile of the helpers
        # counters of unvisited squares with <= 1 and 0 free neighbours
        st[3] = 0
        st[4] = 0
        for w in range(k):
            if visited[w] == 0:
                if deg[w] <= 1:
                    st[3] += 1
                if deg[w] == 0:
                    st[4] += 1
        _visit(table, visited, deg, st, root)
        path[0] = root
        st[0] = 0
        if k == 1:
            sol[0] = root
            st[2] += 1
            ncand[0] = 0
            ci[0] = 0
            return 1 if params[3] != 0 else 0
        if prune:
            # every square feasible before the first move
            nle1 = 0
            for w in range(k):
                if visited[w] != 0:
                    continue
                adj = 0
                for j in range(8):
                    if table[root, j] == w:
                        adj = 1
                if deg[w] + adj < need[w]:
                    ncand[0] = 0
                    ci[0] = 0
                    return 0
                if open_free and deg[w] + adj <= 1:
                    nle1 += 1
            if open_free and nle1 > 1:
                ncand[0] = 0
                ci[0] = 0
                return 0
        _candidates(table, dist, adjs, params, visited, deg, cand, ncand, ci, np.int64(0), root)
    d = st[0]
    budget = st[1] + chunk
    while True:
        if st[1] >= budget:
            st[0] = d
            return 2
        if ci[d] < ncand[d]:
            v = cand[d, ci[d]]
            ci[d] += 1
            _visit(table, visited, deg, st, v)
            d += 1
            path[d] = v
            st[1] += 1
            if d == k - 1:
                ok = True
                if closed and adjs[v] == 0:
                    ok = False
                if ok:
                    st[2] += 1
                    if params[3] != 0:
                        for i in range(k):
                            sol[i] = path[i]
                        _unvisit(table, visited, deg, st, v)
                        d -= 1
                        st[0] = d
                        return 1
                _unvisit(table, visited, deg, st, v)
                d -= 1
                continue
            if prune:
                dead = False
                h = path[d - 1]
                for j in range(8):
                    w = table[h, j]
                    if w >= 0 and visited[w] == 0 and deg[w] < need[w]:
                        dead = True
                        break
                if not dead:
                    near = 0
                    remaining = k - 1 - d
                    for j in range(8):
                        w = table[v, j]
                        if w >= 0 and visited[w] == 0:
                            if deg[w] + 1 < need[w]:
                                dead = True
                                break
                            if open_free:
                                if deg[w] == 0 and remaining > 1:
                                    dead = True
                                    break
                                if deg[w] <= 1:
                                    near += 1
                    if not dead and open_free and st[3] - near > 1:
                        dead = True
                if dead:
                    _unvisit(table, visited, deg, st, v)
                    d -= 1
                    continue
            _candidates(table, dist, adjs, params, visited, deg, cand, ncand, ci, d, v)
        else:
            if d == 0:
                st[0] = 0
                return 0
            _unvisit(table, visited, deg, st, path[d])
            d -= 1


@_njit(nogil=True)  # runs beside the constructions and CP-SAT without holding Python's lock
def plain_kernel(table, nn, adjs, params, st, visited, path, ci, sol, chunk):
    """Plain depth-first search in the table's move order, no pruning, no bookkeeping.

    ``table`` is flat, 8 entries per node, the ``nn[v]`` neighbours first, in move order. Same state layout
    and return codes as :func:`search_kernel` (``ci[d]`` is the next move index to try
    at depth ``d``).
    """
    k = params[0]
    closed = params[5] != 0
    target = params[8]
    first = params[7]
    stop = params[3] != 0
    if st[5] == 0:
        st[5] = 1
        root = params[6]
        visited[root] = 1
        path[0] = root
        ci[0] = 0
        st[0] = 0
        if k == 1:
            sol[0] = root
            st[2] += 1
            ci[0] = 8
            return 1 if stop else 0
    d = st[0]
    nodes = st[1]
    count = st[2]
    budget = nodes + chunk
    last = k - 1
    v = path[d]
    v8 = v * 8
    j = ci[d]
    n = nn[v]
    while True:
        if j < n:
            w = table[v8 + j]
            j += 1
            if visited[w] != 0:
                continue
            if w == target and d + 1 != last:
                continue
            if d == 0 and first >= 0 and w != first:
                continue
            nodes += 1
            if d + 1 == last:
                if closed and adjs[w] == 0:
                    continue
                count += 1
                if stop:
                    for i in range(last):
                        sol[i] = path[i]
                    sol[last] = w
                    ci[d] = j
                    st[0] = d
                    st[1] = nodes
                    st[2] = count
                    return 1
                continue
            ci[d] = j
            visited[w] = 1
            d += 1
            path[d] = w
            v = w
            v8 = v * 8
            j = 0
            n = nn[v]
            if nodes >= budget:
                ci[d] = j
                st[0] = d
                st[1] = nodes
                st[2] = count
                return 2
        else:
            if d == 0:
                ci[0] = j
                st[0] = 0
                st[1] = nodes
                st[2] = count
                return 0
            visited[v] = 0
            d -= 1
            v = path[d]
            v8 = v * 8
            j = ci[d]
            n = nn[v]


@_njit(nogil=True)  # runs beside the constructions and CP-SAT without holding Python's lock
def warnsdorff_kernel(table, dist, start, target, mode, seed, out):
    """One greedy walk; returns the number of squares covered (the walk is in ``out``).

    ``mode``: 0 first in move order, 1 last in move order, 2 farther from the centre,
    3 Pohl (smallest sum of the candidate's onward degrees), 4 random (seeded).
    """
    k = table.shape[0]
    visited = np.zeros(k, np.uint8)
    deg = np.zeros(k, np.int32)
    for v in range(k):
        for j in range(8):
            if table[v, j] >= 0:
                deg[v] += 1
    if mode == 4:
        np.random.seed(seed)
    cur = start
    n = 0
    while True:
        visited[cur] = 1
        out[n] = cur
        n += 1
        for j in range(8):
            w = table[cur, j]
            if w >= 0:
                deg[w] -= 1
        if n == k:
            break
        best = -1
        bdeg = 99
        bsec = 0
        ties = 0
        for j in range(8):
            w = table[cur, j]
            if w < 0 or visited[w] != 0:
                continue
            if w == target and n != k - 1:
                continue
            dw = deg[w]
            sec = 0
            if mode == 2:
                sec = -dist[w]
            elif mode == 3:
                for i in range(8):
                    x = table[w, i]
                    if x >= 0 and visited[x] == 0:
                        sec += deg[x]
            if best < 0 or dw < bdeg or (dw == bdeg and sec < bsec):
                best = w
                bdeg = dw
                bsec = sec
                ties = 1
            elif dw == bdeg and sec == bsec:
                if mode == 1:
                    best = w
                elif mode == 4:
                    ties += 1
                    if np.random.randint(0, ties) == 0:
                        best = w
        if best < 0:
            break
        cur = best
    return n
