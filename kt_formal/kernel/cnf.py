"""The arc encoding of "this board has a tour" as a CNF, regenerated from the board alone.

A tour is a directed Hamiltonian cycle on *nodes*. The nodes are the live squares in
row-major order (node ``i`` is the ``i``-th live square), plus, for an open tour, one
*virtual* node ``k`` (``k`` = number of live squares) that closes the path into a cycle:
the cycle runs ``virtual -> first square -> ... -> last square -> virtual``.

Variables (DIMACS numbering from 1) are the *arcs*: for every node ``u`` in increasing
order, and for every successor ``v`` of ``u`` in increasing order, arc ``u -> v`` gets the
next number. The successors of a square are the live squares a knight move away
(:data:`~kt_formal.kernel.geometry.KNIGHT_MOVES`), plus the virtual node when the square may
be the last of an open tour (every square, or only the given ``end``). The successors of
the virtual node are the squares that may be first (every square, or only ``start``).

Clauses, in this order:

1. for every node: at least one outgoing arc, then at most one (pairwise ``-a -b``);
2. for every node: at least one incoming arc, then at most one (pairwise);
3. no 2-cycle: ``-(u->v) -(v->u)`` for ``u < v`` (omitted only for an open tour of one
   square, whose cycle ``virtual -> square -> virtual`` has two nodes);
4. a closed tour with both ``start`` and ``end`` uses the move between them:
   ``(end->start) | (start->end)`` (empty when they are not a knight move apart);
5. forced moves ``(a, b)``: ``(a->b) | (b->a)``; forbidden moves: ``-(a->b)`` and ``-(b->a)``.

**Cut axioms.** For a set ``S`` of nodes with ``1 <= |S| <= n - 1`` (``n`` nodes in all)
the clause "some arc leaves S" is the disjunction of every arc ``u -> v`` with ``u`` in
``S`` and ``v`` not in ``S``. It holds for every Hamiltonian cycle: the cycle passes
through a node of ``S`` and through a node outside ``S``; walking along it from the
first to the second, some arc goes from a node of ``S`` to a node outside ``S``.

**Soundness of the whole.** Every tour gives an assignment satisfying all clauses above:
orient it (for an open tour, first square to last), set the arcs of that directed cycle
true and all others false. Each node then has exactly one arc out and one in; a cycle
of three or more nodes (a closed tour has at least 3 squares; an open tour of ``k >= 2``
squares gives ``k + 1 >= 3`` nodes) uses no arc together with its reverse; the ends,
forced and forbidden moves hold by the request; and every cut holds by the argument
above. So if the clauses (with any set of genuine cuts) are unsatisfiable, there is no
tour. Nothing is claimed in the other direction: a satisfying assignment is a candidate
that must still be checked (it may be several cycles).

>>> f = arc_cnf(3, 4, (), closed=False)
>>> f.n_nodes, f.n_vars, len(f.clauses) > 0
(13, 52, True)
>>> f.arc(f.node_of(0, 0), f.node_of(1, 2)) > 0
True
>>> len(cut_clause(f, [f.node_of(0, 0)])) == len(f.out_arcs[f.node_of(0, 0)])
True
"""

from __future__ import annotations

from kt_formal.kernel.geometry import KNIGHT_MOVES, is_knight_move

__all__ = ["ArcCNF", "arc_cnf", "cut_clause", "ENCODING"]

#: Name of this encoding, stored in certificates.
ENCODING = "arc-cut/1"


class ArcCNF:
    """The clauses of :func:`arc_cnf` and the numbering behind them.

    Attributes
    ----------
    rows, cols : int
    squares : list of (row, col)
        Live squares in row-major order; node ``i`` is ``squares[i]``.
    virtual : int or None
        Node number of the virtual node (open tours), else None.
    n_nodes : int
    out_arcs : list of list of (v, var)
        Successors of each node with the variable of the arc, successors increasing.
    n_vars : int
    clauses : list of list of int
        DIMACS literals.
    """

    __slots__ = ("rows", "cols", "squares", "index", "virtual", "n_nodes", "out_arcs",
                 "_arc", "n_vars", "clauses")

    def node_of(self, r: int, c: int) -> int:
        """Node number of live square (r, c) (KeyError for a hole or off the board)."""
        return self.index[(r, c)]

    def arc(self, u: int, v: int) -> int:
        """Variable of arc ``u -> v``, or 0 when there is no such arc."""
        return self._arc.get((u, v), 0)


def arc_cnf(rows: int, cols: int, holes, closed: bool, start=None, end=None,
            forced=(), forbidden=()) -> ArcCNF:
    """The CNF of "there is a tour" (see the module docstring for the numbering).

    Parameters
    ----------
    rows, cols : int
    holes : iterable of (row, col)
        Removed squares (on the board; duplicates are harmless).
    closed : bool
    start, end : (row, col) or None
        Live squares; for an open tour the first / last square, for a closed tour
        both together force the move between them.
    forced, forbidden : iterable of ((row, col), (row, col))
        Moves between live squares.

    Raises
    ------
    ValueError
        For a square that is not live, or a forced/forbidden pair that is not a knight move.
    """
    hole_set = {(int(r), int(c)) for r, c in holes}
    f = ArcCNF()
    f.rows, f.cols = rows, cols
    f.squares = [(r, c) for r in range(rows) for c in range(cols) if (r, c) not in hole_set]
    f.index = {q: i for i, q in enumerate(f.squares)}
    k = len(f.squares)

    def node(q, what):
        q = (int(q[0]), int(q[1]))
        if q not in f.index:
            raise ValueError(f"{what} {list(q)} is not a live square of the board")
        return f.index[q]

    s = None if start is None else node(start, "start")
    e = None if end is None else node(end, "end")
    f.virtual = None if closed else k
    n = k if closed else k + 1
    f.n_nodes = n
    succ = [sorted(f.index[(r + dr, c + dc)] for dr, dc in KNIGHT_MOVES if (r + dr, c + dc) in f.index)
            for r, c in f.squares]
    if not closed:
        for i in range(k):
            if e is None or i == e:
                succ[i].append(k)  # k is the largest node number: the list stays sorted
        succ.append(list(range(k)) if s is None else [s])
    f._arc = {(u, v): x for x, (u, v) in enumerate(((u, v) for u in range(n) for v in succ[u]), 1)}
    f.n_vars = len(f._arc)
    f.out_arcs = [[(v, f._arc[(u, v)]) for v in succ[u]] for u in range(n)]
    in_arcs: list[list[int]] = [[] for _ in range(n)]
    for (u, v), x in f._arc.items():  # in the order of the variables
        in_arcs[v].append(x)
    clauses: list[list[int]] = []
    for u in range(n):
        _exactly_one(clauses, [x for _, x in f.out_arcs[u]])
    for v in range(n):
        _exactly_one(clauses, in_arcs[v])
    if closed or n > 2:
        clauses.extend([-x, -f._arc[(v, u)]] for (u, v), x in f._arc.items() if u < v and (v, u) in f._arc)
    if closed and s is not None and e is not None:
        clauses.append([x for x in (f.arc(e, s), f.arc(s, e)) if x])
    for what, moves in (("forced", forced), ("forbidden", forbidden)):
        for a, b in moves:
            u, v = node(a, f"{what} move square"), node(b, f"{what} move square")  # squares: below k
            if not is_knight_move(f.squares[u], f.squares[v]):
                raise ValueError(f"{what} move {list(a)} -> {list(b)} is not a knight move")
            arcs = [f.arc(u, v), f.arc(v, u)]
            clauses.extend([arcs] if what == "forced" else [[-x] for x in arcs])
    f.clauses = clauses
    return f


def _exactly_one(clauses: list, xs: list) -> None:
    clauses.append(list(xs))
    clauses.extend([-a, -b] for i, a in enumerate(xs) for b in xs[i + 1:])


def cut_clause(f: ArcCNF, members) -> list[int]:
    """The cut axiom of a node set ``S``: the disjunction of the arcs leaving ``S``.

    Raises
    ------
    ValueError
        Unless ``S`` is a nonempty proper subset of the nodes ``0 .. n_nodes - 1``
        (a node number out of range, ``S`` empty, or ``S`` every node).
    """
    inside = set()
    for u in members:
        if type(u) is not int or not 0 <= u < f.n_nodes:
            raise ValueError(f"node {u!r} is not one of the {f.n_nodes} nodes")
        inside.add(u)
    if not inside:
        raise ValueError("the cut is empty")
    if len(inside) >= f.n_nodes:
        raise ValueError("the cut contains every node, so no arc can leave it")
    return [x for u in sorted(inside) for v, x in f.out_arcs[u] if v not in inside]
