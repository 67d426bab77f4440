"""The joins of the block construction: the port moves between neighbouring cells and groups,
the spanning tree of joins, the library's pieces stamped into the tour's neighbour array, the
swap that splices two tours into one at a join, and the walk that reads the visiting order off
the neighbour array.

>>> walk_neighbours(np.array([[1, 2], [0, 2], [1, 0]]), 0, 3).tolist()
[0, 1, 2]
"""

from __future__ import annotations

from collections import deque
import numpy as np
from kt_formal.combine.divide import port_piece, port_edges
from kt_formal.combine.blocks_layout import BlocksNotApplicable, DisjointSets, Layout
from kt_formal.engines.successors import compile_once

__all__ = ["bfs_groups", "join_halves", "has_move", "join_candidates", "join_present", "stamp_library",
           "swap_join", "spanning_tree", "tree_edges", "walk_neighbours", "walker"]


def join_candidates(L: Layout, a: int, b: int, lib_a: bool, lib_b: bool):
    """Port positions for a join between adjacent cells a and b (a above or left of b).

    Each candidate is ``(kind, a1, a2, b1, b2)`` with squares as (r, c); a1-a2 lies in a,
    b1-b2 in b. A library cell only offers its standard port (offset 0).
    """
    ia, ja = divmod(a, L.q)
    ib, jb = divmod(b, L.q)
    live = L.live
    out = []
    if ia == ib:  # horizontal: a left of b, border at X
        X = int(L.co[jb])
        y0, y1 = int(L.ro[ia]), int(L.ro[ia + 1])
        rows = [y0] if (lib_a or lib_b) else range(y0, y1 - 3)
        for r in rows:
            sq = ((r, X - 1), (r + 2, X - 2), (r + 1, X + 1), (r + 3, X))
            if all(live[y, x] for y, x in sq) and _owned(L, sq, a, b):
                out.append(("h",) + sq)
    else:  # vertical: a above b, border at Y
        Y = int(L.ro[ib])
        x0, x1 = int(L.co[ja]), int(L.co[ja + 1])
        cols = [x0] if (lib_a or lib_b) else range(x0, x1 - 3)
        for x in cols:
            sq = ((Y - 1, x), (Y - 2, x + 2), (Y + 1, x + 1), (Y, x + 3))
            if all(live[y, z] for y, z in sq) and _owned(L, sq, a, b):
                out.append(("v",) + sq)
    return out


def _owned(L: Layout, sq, a: int, b: int) -> bool:
    o = L.owner
    return (o[sq[0]] == a and o[sq[1]] == a and o[sq[2]] == b and o[sq[3]] == b)


def spanning_tree(L: Layout, special, root):
    """Spanning tree of groups and library cells (Kruskal, library-library joins first).

    Returns ``(tree, joins, fail)``: ``tree[g][h]`` the candidate joins between nodes g
    and h on the tree (a library-library join as ``("std", a, b)``, made when needed);
    ``fail`` a pair of adjacent nodes to merge when the join graph is disconnected.
    """
    p, q = L.p, L.q
    n = p * q
    node = np.arange(n)
    sp = np.flatnonzero(special)
    if sp.size:
        node[sp] = [root(int(c)) for c in sp.tolist()]
    empty = L.empty.ravel()
    lib = ~special & ~empty
    cell = np.arange(n).reshape(p, q)
    pa = np.concatenate([cell[:, :-1].ravel(), cell[:-1, :].ravel()])
    pb = np.concatenate([cell[:, 1:].ravel(), cell[1:, :].ravel()])
    ok = ~empty[pa] & ~empty[pb] & (node[pa] != node[pb])
    pa, pb = pa[ok], pb[ok]
    both = lib[pa] & lib[pb]
    dsu = DisjointSets(n)
    tree: dict = {}
    for a, b in zip(pa[both].tolist(), pb[both].tolist()):
        if dsu.find(a) != dsu.find(b):
            dsu.union(a, b)
            tree.setdefault(a, {})[b] = ("std", a, b)
            tree.setdefault(b, {})[a] = ("std", a, b)
    edges = {}
    for a, b in zip(pa[~both].tolist(), pb[~both].tolist()):
        cands = join_candidates(L, a, b, bool(lib[a]), bool(lib[b]))
        if not cands:
            continue
        key = (int(node[a]), int(node[b]))
        if key[0] > key[1]:
            key = key[::-1]
        edges.setdefault(key, []).extend(cands)
    # joins to library cells before joins between two groups (fewer ports per group)
    for (x, y), cands in sorted(edges.items(), key=lambda kv: (special[kv[0][0]] and special[kv[0][1]],
                                                               -len(kv[1]))):
        if dsu.find(x) != dsu.find(y):
            dsu.union(x, y)
            tree.setdefault(x, {})[y] = cands
            tree.setdefault(y, {})[x] = cands
    nodes = np.unique(node[~empty])
    roots = {dsu.find(int(x)) for x in nodes.tolist()}
    if len(roots) > 1:
        # merge two adjacent nodes of different components
        cell_a = np.concatenate([cell[:, :-1].ravel(), cell[:-1, :].ravel()])
        cell_b = np.concatenate([cell[:, 1:].ravel(), cell[1:, :].ravel()])
        for a, b in zip(cell_a.tolist(), cell_b.tolist()):
            if not empty[a] and not empty[b] and dsu.find(int(node[a])) != dsu.find(int(node[b])):
                return tree, None, (a, b)
        raise BlocksNotApplicable("the board falls apart into pieces no join connects")
    return tree, None, None


def tree_edges(tree):
    """Each edge of the spanning tree once: ``((x, y), candidates)`` with ``x < y``."""
    seen = set()
    for x, nbrs in tree.items():
        for y, cands in nbrs.items():
            k = (min(x, y), max(x, y))
            if k not in seen:
                seen.add(k)
                yield k, cands


def bfs_groups(tree, groups):
    """Groups in BFS order from the library cells and the first group."""
    gs = set(groups)
    out, seen = [], set()
    for g0 in groups:
        if g0 in seen:
            continue
        dq = deque([g0])
        seen.add(g0)
        while dq:
            x = dq.popleft()
            if x in gs:
                out.append(x)
            for y in tree.get(x, {}):
                if y not in seen:
                    seen.add(y)
                    dq.append(y)
    return out


def join_halves(cand, g, root, L):
    """(my half, their half) of a candidate join for group g."""
    _, a1, a2, b1, b2 = cand
    ca = L.cell_of(*a1)
    ga = root(ca) if True else ca
    if ga == g:
        return (a1, a2), (b1, b2)
    return (b1, b2), (a1, a2)


def has_move(sol, half, C):
    """Whether a group's solution ``sol`` makes the move of a join's ``half`` (squares on ``C`` columns)."""
    (a, b) = half
    return frozenset((a[0] * C + a[1], b[0] * C + b[1])) in sol[1]


def join_present(nb, cand, C):
    """Whether both moves a join deletes, a1-a2 and b1-b2, are in the tour's neighbours ``nb``."""
    _, a1, a2, b1, b2 = cand
    i = lambda s: s[0] * C + s[1]  # noqa: E731
    return i(a2) in nb[i(a1)] and i(b2) in nb[i(b1)]


def _replace(nb, x, old, new):
    if nb[x, 0] == old:
        nb[x, 0] = new
    elif nb[x, 1] == old:
        nb[x, 1] = new
    else:  # pragma: no cover - a bug
        raise RuntimeError("join: move missing")


def swap_join(nb, cand, C):
    """Delete a1-a2 and b1-b2, add a1-b1 and a2-b2."""
    _, a1, a2, b1, b2 = cand
    a1, a2, b1, b2 = (s[0] * C + s[1] for s in (a1, a2, b1, b2))
    _replace(nb, a1, a2, b1)
    _replace(nb, a2, a1, b2)
    _replace(nb, b1, b2, a1)
    _replace(nb, b2, b1, a2)


def stamp_library(L: Layout, special, nb):
    """Library port pieces on every library cell, stamped per shape with numpy."""
    C = L.C
    lib = np.flatnonzero(~special & L.lib.ravel())
    if lib.size == 0:
        return
    i, j = np.divmod(lib, L.q)
    hs = np.asarray(L.rp)[i]
    ws = np.asarray(L.cp)[j]
    base = L.ro[i] * C + L.co[j]
    for h in np.unique(hs).tolist():
        for w in np.unique(ws[hs == h]).tolist():
            sel = (hs == h) & (ws == w)
            piece = port_piece(h, w)
            fwd, bwd = piece.succ[0], piece.succ[1]
            k = np.arange(h * w)
            loc = (k // w) * C + k % w
            n0 = (fwd // w) * C + fwd % w
            n1 = (bwd // w) * C + bwd % w
            b = base[sel]
            for lo in range(0, b.size, 4096):
                bb = b[lo:lo + 4096][:, None]
                sq = (bb + loc[None, :]).ravel()
                nb[sq, 0] = (bb + n0[None, :]).ravel()
                nb[sq, 1] = (bb + n1[None, :]).ravel()
    _ = port_edges  # the port layout these pieces follow


def _walk_py(nb, start, out):  # pragma: no cover - compiled by numba
    prev = -1
    cur = start
    for k in range(out.shape[0]):
        out[k] = cur
        a = nb[cur, 0]
        nxt = nb[cur, 1] if a == prev else a
        prev = cur
        cur = nxt
        if cur < 0:
            return k + 1
    return out.shape[0]


#: The compiled :func:`_walk_py`, made on first use.
walker = compile_once(_walk_py, nogil=True)


def walk_neighbours(nb: np.ndarray, start: int, length: int) -> np.ndarray:
    """Visiting order along an undirected neighbour array ``nb`` (n, 2) from ``start`` (numba).

    From ``start`` the walk goes to ``nb[start, 0]`` first (an open tour's first square
    has its one neighbour there), then always to the neighbour it did not come from.

    >>> walk_neighbours(np.array([[1, 2], [0, 2], [1, 0]]), 0, 3).tolist()
    [0, 1, 2]
    """
    out = np.empty(length, dtype=np.int64)
    n = walker()(nb, np.int64(start), out)
    if n != length:
        raise RuntimeError(f"the walk covered {n} of {length} squares")
    return out
