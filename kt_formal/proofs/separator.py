"""Finder of separator proofs: a set of squares whose removal leaves too many pieces.

Searched over small sets (bit-parallel neighbour sets), optionally after the forced-move
reduction and, for open tours, with virtual squares that close the tour into a cycle.
The proof is checked by :func:`kt_formal.kernel.proofcheck.check_proof`.

>>> from kt_formal.board import Board
>>> from kt_formal.question import Question
>>> find_separator_proof(Question(Board(3, 8), closed=True), thorough=True)["method"]
'separator'
"""

from __future__ import annotations

import itertools

from kt_formal.board import Board
from kt_formal.kernel.proofcheck import separator_bound
from kt_formal.proofs.cheap import make_proof
from kt_formal.question import Question

__all__ = ["find_separator_proof"]


class _Bits:
    """The knight graph of a small board as bitsets (finder side only)."""

    def __init__(self, board: Board, reduce: bool = False, open_ends=None):
        self.sqs = board.squares()
        idx = {q: i for i, q in enumerate(self.sqs)}
        self.nbrs = [{idx[n] for n in board.neighbours(*q)} for q in self.sqs]
        if open_ends is not None:  # an open tour as a closed tour through virtual squares
            fixed = [idx[q] for q in open_ends if q is not None]
            n = len(self.sqs)
            for name, joined in _virtual_links(n, fixed):
                self.sqs.append(name)
                self.nbrs.append(set())
            for a, b in _virtual_edges(n, fixed):
                self.nbrs[a].add(b)
                self.nbrs[b].add(a)
        self.k = len(self.sqs)
        self.contradiction = False
        if reduce:
            self.contradiction = not _reduce_forced(self.nbrs)
        self.adj = [sum(1 << j for j in ns) for ns in self.nbrs]
        self.full = (1 << self.k) - 1

    def components(self, removed: int) -> int:
        alive = self.full & ~removed
        adj = self.adj
        count = 0
        while alive:
            comp = frontier = alive & -alive
            while frontier:
                nxt = 0
                x = frontier
                while x:
                    b = x & -x
                    nxt |= adj[b.bit_length() - 1]
                    x ^= b
                frontier = nxt & alive & ~comp
                comp |= frontier
            alive &= ~comp
            count += 1
        return count


def _virtual_links(n: int, fixed: list[int]):
    """Names of the virtual squares for an open tour on n squares with these fixed ends."""
    yield "z", None
    if len(fixed) == 1:
        yield "w", None


def _virtual_edges(n: int, fixed: list[int]):
    """Edges of the virtual squares (z = node n, w = node n + 1), see ``_augmented``."""
    z, w = n, n + 1
    if len(fixed) == 2:
        yield z, fixed[0]
        yield z, fixed[1]
    elif len(fixed) == 1:
        f = fixed[0]
        yield w, z
        yield w, f
        for v in range(n):
            if v != f:
                yield z, v
    else:
        for v in range(n):
            yield z, v


def _reduce_forced(nbrs: list[set]) -> bool:
    """Forced-move reduction for closed tours, in place; False on a contradiction.

    A square with exactly two remaining moves forces both; a square with two forced
    moves loses all its others. Repeated until nothing changes.
    """
    k = len(nbrs)
    forced = [set() for _ in range(k)]
    changed = True
    while changed:
        changed = False
        for v in range(k):
            if len(nbrs[v]) < 2 or len(forced[v]) > 2:
                return False
            if len(nbrs[v]) == 2 and forced[v] != nbrs[v]:
                for u in nbrs[v]:
                    forced[v].add(u)
                    forced[u].add(v)
                changed = True
            if len(forced[v]) == 2 and nbrs[v] != forced[v]:
                for u in nbrs[v] - forced[v]:
                    nbrs[u].discard(v)
                nbrs[v] = set(forced[v])
                changed = True
    return all(2 <= len(n) for n in nbrs) and all(len(f) <= 2 for f in forced)


def find_separator_proof(question: Question, thorough: bool = False, max_size: int | None = None,
                         budget: int = 50_000) -> dict | None:
    """A set of squares whose removal leaves too many components.

    Cheap mode (boards up to 400 squares): the empty set (a disconnected board),
    single squares, and the neighbourhoods of up to two squares. ``thorough=True``
    (boards up to 100 squares) also tries every set of up to ``max_size`` squares
    within ``budget`` sets, and for closed tours the same after the forced-move
    reduction.
    """
    board, closed, s, e = question.board, question.closed, question.start, question.end
    k = board.n_squares
    if k > (100 if thorough else 400):
        return None
    fixed = {q for q in (s, e) if q is not None}
    variants = [False, True] if (thorough and (closed or k >= 2)) else [False]
    if not closed and s is not None and s == e:
        variants = [False]
    graphs = []
    for reduce in variants:
        g = _Bits(board, reduce=reduce, open_ends=(s, e) if (reduce and not closed) else None)
        if not g.contradiction:  # a contradiction is a degree-style argument, not a separator
            graphs.append((reduce, g))
    fixed_idx = {i for i, q in enumerate(graphs[0][1].sqs) if q in fixed} if graphs else set()

    def ok(g, sel: tuple[int, ...], reduce: bool) -> int | None:
        mask = 0
        for i in sel:
            mask |= 1 << i
        c = g.components(mask)
        as_closed = closed or reduce
        if c > separator_bound(as_closed, len(sel), 0 if as_closed else len(fixed_idx & set(sel))):
            return c
        return None

    def proof(reduce, g, sel, c):
        real = [list(g.sqs[i]) for i in sorted(sel) if not isinstance(g.sqs[i], str)]
        virtual = [g.sqs[i] for i in sorted(sel) if isinstance(g.sqs[i], str)]
        extra = {"virtual": virtual} if (reduce and not closed) else {}
        return make_proof(question, "separator", separator=real, components=c,
                          reduced=reduce, **extra)

    for reduce, g in graphs:
        for sel in _cheap_candidates(g):
            c = ok(g, sel, reduce)
            if c is not None:
                return proof(reduce, g, sel, c)
    if thorough:
        limit = max_size if max_size is not None else 8
        for reduce, g in graphs:
            tried = 0
            for size in range(1, min(limit, k) + 1):
                for sel in itertools.combinations(range(k), size):
                    tried += 1
                    if tried > budget:
                        break
                    c = ok(g, sel, reduce)
                    if c is not None:
                        return proof(reduce, g, sel, c)
                if tried > budget:
                    break
    return None


def _cheap_candidates(g: _Bits):
    yield ()
    for v in range(g.k):
        yield (v,)
    # neighbourhoods of one or two squares (those squares become isolated)
    order = sorted(range(g.k), key=lambda v: len(g.nbrs[v]))[:40]
    seen = set()
    for v in order:
        sel = tuple(sorted(g.nbrs[v]))
        if sel not in seen:
            seen.add(sel)
            yield sel
    for a, b in itertools.combinations(order, 2):
        if b in g.nbrs[a]:
            continue
        sel = tuple(sorted(g.nbrs[a] | g.nbrs[b]))
        if sel not in seen:
            seen.add(sel)
            yield sel
