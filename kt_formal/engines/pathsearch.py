"""Compiled depth-first path search shared by the dfs, backtrack and exhaustive engines.

A search extends a path of knight moves from a root square through unvisited squares
until every live square is on it. One resumable numba kernel, :func:`search_kernel`,
does the work; it keeps its whole state (path, candidate lists, counters) in numpy
arrays, so the Python driver :class:`PathSearch` can run it in chunks of nodes,
check time and node limits, and call a progress hook between chunks.

Move ordering: ``"fixed"`` (the table's column order: plain DFS) or ``"warnsdorff"``
(fewest onward moves first, ties to the square farther from the centre: rules 1 and 2
of the backtracking method).

Pruning (``prune=True``), all sound, checked around the two squares whose neighbourhoods
change with each move (the old head and the new head):

* degree: every unvisited square needs as many free neighbours as the finished tour
  uses (two; one for the fixed last square of an open tour; a closing neighbour of the
  root counts as one), counting the head as free for the squares next to it;
* open-end count (open tours with a free end): at most one unvisited square away from
  the head may have a single free neighbour (it must be the path's end), and a square
  next to the head with none must be the very last;
* the root's own feasibility is checked for every square before the first move.

>>> import numpy as np
>>> from kt_formal.board import Board
>>> from kt_formal.graph import neighbour_table
>>> s = PathSearch(neighbour_table(Board(5, 6)), root=0, closed=True, prune=True, stop_at_first=False)
>>> s.run(), s.count // 2   # every directed cycle through the corner, each undirected cycle twice
('done', 8)
"""

from __future__ import annotations

import time

import numpy as np

from kt_formal import memory
from kt_formal.board import KNIGHT_MOVES, ensure_memory
from kt_formal.engines.compiled import Preparation, kernels_compiled
from kt_formal.exceptions import InvalidInput, Worded
from kt_formal.question import Limits
from kt_formal.engines.pathsearch_kernels import plain_kernel, search_kernel, warnsdorff_kernel


__all__ = ["ORDERS", "ORDER_ALIASES", "PathSearch", "search_kernel", "plain_kernel", "warnsdorff_kernel", "order_name", "parse_order", "kernels_compiled", "prepare_kernels", "KERNELS", "COMPILE_SECONDS", "ordered_table", "centre_distance", "NodeMeter", "Outcome", "refuses", "node_colours", "dark_count", "table_degrees", "search_request", "table_for", "ensure_search_memory", "search_fits", "search_tables", "SEARCH_BYTES_PER_SQUARE"]

#: Named move orders as (d_row, d_col) sequences (row down, column right), named by the
#: clock position of the first move and the direction they turn.
ORDERS: dict[str, tuple[tuple[int, int], ...]] = {
    # anticlockwise from 11 o'clock: the project's KNIGHT_MOVES, divide and conquer's order
    "knight": KNIGHT_MOVES,
    # two rows down first, then one row down, two up, one up (the plain DFS program's nextxy() cases 0..7)
    "down-first": ((2, -1), (2, 1), (1, -2), (1, 2), (-2, -1), (-2, 1), (-1, -2), (-1, 2)),
    # clockwise from 7 o'clock (the greedy walk's fx/fy tables, x the row)
    "clockwise-from-7": ((2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2), (1, 2), (2, 1)),
    # clockwise from 1 o'clock (the plain backtracking program's dx/dy tables, x the row)
    "clockwise": ((-2, 1), (-1, 2), (1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1)),
}

#: Old spellings (the seed documents' numbers) -> the descriptive names above.
ORDER_ALIASES: dict[str, str] = {
    "seed000": "knight",
    "seed001": "down-first",
    "seed002": "clockwise-from-7",
    "seed004": "clockwise",
}


def order_name(order):
    """The descriptive name of a move order given by name or old alias (other values unchanged).

    >>> order_name("seed004"), order_name("knight"), order_name("1,2;2,1")
    ('clockwise', 'knight', '1,2;2,1')
    """
    if isinstance(order, str):
        return ORDER_ALIASES.get(order, order)
    return order


# state slots (int64 array)
_D, _NODES, _COUNT, _LE1, _ZERO, _INIT = range(6)
# params slots (int64 array)
_K, _ORDER, _PRUNE, _STOP, _OPENFREE, _CLOSED, _ROOT, _FIRST, _TARGET = range(9)


def parse_order(order) -> tuple[tuple[int, int], ...]:
    """A move order from a name in :data:`ORDERS` or a string ``"dr,dc;dr,dc;..."``.

    The eight knight moves must each appear exactly once.

    >>> parse_order("clockwise")[0]
    (-2, 1)
    >>> parse_order("1,2;2,1;2,-1;1,-2;-1,-2;-2,-1;-2,1;-1,2")[1]
    (2, 1)
    """
    if order is None:
        return KNIGHT_MOVES
    if not isinstance(order, str):
        moves = tuple(tuple(int(x) for x in m) for m in order)
    elif order_name(order) in ORDERS:
        return ORDERS[order_name(order)]
    else:
        try:
            moves = tuple(tuple(int(x) for x in part.split(",")) for part in order.split(";") if part.strip())
        except ValueError:
            moves = ()
        if not moves:
            raise InvalidInput(
                f"unknown move order {order!r}; use one of {', '.join(ORDERS)} or 'dr,dc;dr,dc;...'"
            )
    if sorted(moves) != sorted(KNIGHT_MOVES) or any(len(m) != 2 for m in moves):
        raise InvalidInput(f"move order {order!r} must list each of the 8 knight moves exactly once")
    return moves


def ordered_table(nt, order=None) -> np.ndarray:
    """The neighbour table with its columns in the given move order (C-contiguous int32)."""
    moves = parse_order(order)
    perm = [KNIGHT_MOVES.index(m) for m in moves]
    return np.ascontiguousarray(nt.table[:, perm])


def centre_distance(nt) -> np.ndarray:
    """Manhattan distance of each node to the backtracking method's centre square (M/2-1, N/2-1)."""
    memo = getattr(nt, "memo", None)
    if memo is not None and "centre" in memo:
        return memo["centre"]
    b = nt.board
    r, c = np.divmod(nt.squares, b.cols)
    mr, mc = max(b.rows // 2 - 1, 0), max(b.cols // 2 - 1, 0)
    dist = (np.abs(r - mr) + np.abs(c - mc)).astype(np.int32)
    if memo is not None:
        memo["centre"] = dist
    return dist


def table_degrees(nt, table) -> np.ndarray:
    """Moves per node in ``table`` (int32), kept with the neighbour table for the runs that reuse it."""
    memo = getattr(nt, "memo", None)
    key = ("degrees", id(table))
    if memo is not None and key in memo and memo[key][0] is table:
        return memo[key][1]
    deg = (table >= 0).sum(axis=1).astype(np.int32)
    if memo is not None:
        memo[key] = (table, deg)  # the table itself is kept, so its id is not reused
    return deg


# ---------------------------------------------------------------------- kernels


# ---------------------------------------------------------------------- driver
#: The search kernels called from Python (the others are inlined into them).
KERNELS = (search_kernel, plain_kernel, warnsdorff_kernel)

#: Seconds compiling :data:`KERNELS` takes, about, on an idle machine: the processor time
#: of ``NUMBA_CACHE_DIR=$(mktemp -d) /usr/bin/time kt-formal warm`` on 2 cores (31 s for
#: every kernel; this group's share of its wall time, 10 %, is 3 s).
COMPILE_SECONDS = 5

def _warm_up() -> None:
    from kt_formal.board import Board
    from kt_formal.graph import neighbour_table

    nt = neighbour_table(Board(3, 4))
    PathSearch(nt, 0, False, heuristic="fixed", prune=False).run()  # plain_kernel
    PathSearch(nt, 0, True).run()  # search_kernel
    warnsdorff_kernel(ordered_table(nt), centre_distance(nt), np.int64(0), np.int64(-1), np.int64(0),
                      np.int64(0), np.empty(len(nt), np.int32))


#: Load every kernel of :data:`KERNELS`, compiling those not cached on disk (with a note, once
#: a process); returns the seconds it took (0 when loaded already). A :class:`NodeMeter` calls
#: it before its clock starts, so compiling never uses up a search's time limit.
prepare_kernels = Preparation(KERNELS, "the search kernels", COMPILE_SECONDS, _warm_up)


class PathSearch:
    """A resumable search for Hamiltonian paths or cycles from a fixed root node.

    Parameters
    ----------
    nt : NeighbourTable
    root : int
        Node the path starts from.
    closed : bool
        Search cycles: the last node must be a neighbour of the root (or of ``closing``).
    target : int, optional
        Open paths: node that must come last (-1 for a free end).
    first : int, optional
        Node the first move must go to (-1: any).
    closing : sequence of int, optional
        Closed search: the nodes allowed last (default: all neighbours of the root).
    order : str or None
        Move order of the table columns (see :func:`parse_order`).
    heuristic : {"fixed", "warnsdorff"}
    prune : bool
    stop_at_first : bool
        Stop (return ``"found"``) at each solution, else count them all.
    table : array, optional
        A ready (possibly edited) table in the wanted order.

    Notes
    -----
    ``nodes`` counts moves made (a square put on the path), ``count`` the solutions,
    directed, from this root.
    """

    def __init__(self, nt, root, closed, *, target=-1, first=-1, closing=None, order=None,
                 heuristic="warnsdorff", prune=True, stop_at_first=True, table=None):
        self.nt = nt
        tab = ordered_table(nt, order) if table is None else table
        k = tab.shape[0]
        self.k = k
        self.table = tab
        self.dist = centre_distance(nt)
        adjs = np.zeros(k, np.uint8)
        if closed:
            if closing is None:
                nb = tab[root]
                adjs[nb[nb >= 0]] = 1
            else:
                adjs[np.asarray(list(closing), dtype=np.int64)] = 1
        self.adjs = adjs
        need = np.full(k, 2, np.int32)
        if closed:
            need -= adjs.astype(np.int32)
        elif target < 0:
            need[:] = 1
        else:
            need[target] = 1
        self.need = need
        self.params = np.array([k, 1 if heuristic == "warnsdorff" else 0, int(prune), int(stop_at_first),
                                int(not closed and target < 0), int(closed), root, first, target],
                               dtype=np.int64)
        self.st = np.zeros(6, np.int64)
        self.visited = np.zeros(k, np.uint8)
        self.deg = table_degrees(nt, tab).copy()  # the search changes its copy
        self.path = np.zeros(k, np.int32)
        self.cand = np.zeros((k, 8), np.int32)
        self.ncand = np.zeros(k, np.int32)
        self.ci = np.zeros(k, np.int32)
        self.sol = np.zeros(k, np.int32)
        self.done = False
        self.plain = heuristic == "fixed" and not prune
        if self.plain:
            # neighbours first, in move order
            key = np.where(tab >= 0, 0, 1)
            idx = np.argsort(key, axis=1, kind="stable")
            self.compact = np.ascontiguousarray(np.take_along_axis(tab, idx, axis=1)).ravel()

    @property
    def nodes(self) -> int:
        return int(self.st[_NODES])

    @property
    def count(self) -> int:
        return int(self.st[_COUNT])

    def solution(self) -> np.ndarray:
        """The last solution found, as node numbers in path order."""
        return self.sol.copy()

    def step(self, chunk: int) -> int:
        """Run up to ``chunk`` nodes: 0 exhausted, 1 solution, 2 chunk used up."""
        if self.done:
            return 0
        prepare_kernels()
        if self.plain:
            code = int(plain_kernel(self.compact, self.deg, self.adjs, self.params, self.st, self.visited,
                                    self.path, self.ci, self.sol, np.int64(chunk)))
        else:
            code = int(search_kernel(self.table, self.dist, self.need, self.adjs, self.params, self.st,
                                     self.visited, self.deg, self.path, self.cand, self.ncand, self.ci,
                                     self.sol, np.int64(chunk)))
        if code == 0:
            self.done = True
        return code

    def run(self, limits=None) -> str:
        """Run until a solution (when stopping at solutions), exhaustion or a limit.

        Returns ``"found"``, ``"done"`` or ``"limit"``.
        """
        limits = limits or NodeMeter()
        while True:
            chunk = limits.next_chunk(self.nodes)
            if chunk <= 0:
                return "limit"
            code = self.step(chunk)
            limits.tick(self.nodes)
            if code == 1:
                return "found"
            if code == 0:
                return "done"


class NodeMeter:
    """The node and time limits of a search, its stop event and its progress hook, read
    from one :class:`~kt_formal.question.Limits` (none: no limit).

    The time limit counts from the meter's making, after the kernels are compiled
    (compiling is not part of the search's time); ``base_nodes`` is what earlier searches
    used; the hook is called at most ten times a second as ``progress(nodes_done, None,
    text)``; the stop event ends the search at the next chunk, as a limit does.
    """

    def __init__(self, limits: Limits | None = None, label: str = "search"):
        limits = Limits() if limits is None else limits
        self.node_limit = limits.node_limit
        self.time_limit = limits.time_limit
        self.progress = limits.progress
        self.label = label
        self.stop = limits.stop
        prepare_kernels()  # compiling is not part of the search's time
        self.t0 = time.perf_counter()
        self.last_report = 0.0
        self.base_nodes = 0
        self.chunk = 1 << 18
        self.last_t = self.t0
        self.hit = False

    def elapsed(self) -> float:
        return time.perf_counter() - self.t0

    def next_chunk(self, nodes: int) -> int:
        total = self.base_nodes + nodes
        if (self.time_limit is not None and self.elapsed() >= self.time_limit) or (
                self.stop is not None and self.stop.is_set()):
            self.hit = True
            return 0
        chunk = self.chunk
        if self.node_limit is not None:
            left = self.node_limit - total
            if left <= 0:
                self.hit = True
                return 0
            chunk = min(chunk, left)
        return chunk

    def tick(self, nodes: int) -> None:
        now = time.perf_counter()
        dt = now - self.last_t
        self.last_t = now
        # aim at about 0.05 s per chunk
        if dt < 0.02 and self.chunk < (1 << 26):
            self.chunk *= 2
        elif dt > 0.1 and self.chunk > (1 << 12):
            self.chunk //= 2
        if self.progress is not None and now - self.last_report >= 0.1:
            self.last_report = now
            total = self.base_nodes + nodes
            self.progress(float(total), None, f"{self.label}: {total:,} nodes")

    def finish(self, nodes: int) -> None:
        """Account a finished search's nodes."""
        self.base_nodes += nodes


# ---------------------------------------------------------------------- requests
class Outcome:
    """What :func:`search_request` established.

    ``status`` is ``"found"`` (``squares`` holds the board indices of one solution),
    ``"exhausted"`` (the whole space the request allows was searched; ``count`` holds
    the solutions found, undirected where both ends are free), ``"limit"`` or
    ``"refuted"`` (a root-level rule, named in ``reason``, excludes every tour).
    """

    def __init__(self, status, nodes, count=0, squares=None, reason="", directed=None):
        self.status = status
        self.nodes = nodes
        self.count = count
        self.squares = squares
        self.reason = reason
        self.directed = directed


def refuses(question, engine: str) -> str | None:
    """Why a path search cannot take ``question`` (forced moves), or None."""
    if question.forced:
        return Worded(f"the {engine} engine does not take forced moves; use {{engine cpsat}}",
                      {"engine cpsat": "engine='cpsat'"})
    return None


def table_for(request, nt, order=None, engine="this engine") -> np.ndarray:
    """The ordered table with the request's forbidden moves removed (forced moves refused)."""
    if request.forced:
        raise InvalidInput(refuses(request, engine))
    tab = ordered_table(nt, order)
    for a, b in request.forbidden:
        u, v = nt.node(a), nt.node(b)
        tab[u][tab[u] == v] = -1
        tab[v][tab[v] == u] = -1
    return tab


def dark_count(nt, colour) -> int:
    """How many of the table's squares are dark (kept in the table's memo)."""
    memo = getattr(nt, "memo", None)
    if memo is None:
        return int(colour.sum())
    if "dark" not in memo:
        memo["dark"] = int(colour.sum())
    return memo["dark"]


def node_colours(nt) -> np.ndarray:
    """The colour (0 or 1) of each square of the table, in its node order (kept in its memo)."""
    memo = getattr(nt, "memo", None)
    if memo is not None and "colour" in memo:
        return memo["colour"]
    r, c = np.divmod(nt.squares, nt.board.cols)
    colour = ((r + c) % 2).astype(np.int8)
    if memo is not None:
        memo["colour"] = colour
    return colour


#: Bytes a path search holds a square at its peak: the neighbour table (44), a move order
#: (32), the search's own arrays (about 60) and the rules' tables; measured as the growth of
#: the peak resident size over a search of a 2000 x 2000 board (backtrack 196, dfs 308).
SEARCH_BYTES_PER_SQUARE = 320


def ensure_search_memory(board, engine: str) -> None:
    """Refuse (:class:`~kt_formal.exceptions.ResourceLimit`, before anything is allocated) a
    search of ``board`` that would not fit in the memory available now."""
    ensure_memory(board.n_squares * SEARCH_BYTES_PER_SQUARE,
                  f"a {engine} search of a board of {board.n_squares:,} squares ({board.describe()})")


def search_fits(board) -> bool:
    """Whether a search of ``board`` fits in the memory available now (see above)."""
    return memory.fits(board.n_squares * SEARCH_BYTES_PER_SQUARE)


def search_tables(request, engine: str, order=None):
    """``(nt, table)`` of a search of ``request``: the board's neighbour table and its moves
    in ``order`` without the forbidden ones, after checking that the search fits in memory."""
    from kt_formal.graph import neighbour_table

    ensure_search_memory(request.board, engine)
    nt = neighbour_table(request.board)
    return nt, table_for(request, nt, order, engine)


def search_request(request, nt, table, *, root_rule="start", heuristic="warnsdorff", prune=True,
                   parity=False, count=False, limits=None, on_solution=None) -> Outcome:
    """Search for the tours a :class:`~kt_formal.engines.base.Question` asks for.

    Parameters
    ----------
    root_rule : {"start", "centre", "mindeg"}
        Where a closed search starts when the request leaves it free: the user's start
        (else the first square), the centre square (its rule 3), or a square of
        least degree (with degree 2 the first move is fixed too, so each undirected
        cycle is met once).
    parity : bool
        Apply the colour-count rules before searching (sound: a knight alternates colours).
    count : bool
        Count every solution instead of stopping at the first.
    on_solution : callable, optional
        With ``count``, called with the board indices of every solution (each undirected
        tour once where the request leaves both ends free).
    """
    limits = limits or NodeMeter()
    k = len(nt)
    closed = request.closed
    node = nt.node
    colour = node_colours(nt)
    n1 = dark_count(nt, colour)
    n0 = k - n1
    plans = []  # (root, target, first, closing)
    halve = False  # directed solutions counted twice
    s = node(request.start) if request.start is not None else None
    e = node(request.end) if request.end is not None else None
    if closed:
        if k < 3:
            return Outcome("refuted", 0, reason=f"a closed tour needs at least 3 squares; the board has {k}")
        if parity and n0 != n1:
            return Outcome("refuted", 0, reason=f"colour count: a closed tour alternates colours, "
                                                f"the board has {n0} and {n1} squares of the two colours")
        degs = table_degrees(nt, table)
        if parity and degs.min() < 2:
            bad = int(np.argmin(degs))
            sq = nt.board.square(nt.squares[bad])
            return Outcome("refuted", 0, reason=f"square {sq} has {int(degs[bad])} neighbours; a closed tour needs 2")
        if s is not None and e is not None:
            if e not in table[s]:
                return Outcome("refuted", 0, reason=f"the closing move {request.end} -> {request.start} "
                                                    "is not a knight move")
            plans.append((s, -1, -1, [e]))
        else:
            if e is not None:
                root = e
            elif root_rule == "centre":
                dist = centre_distance(nt)
                root = int(np.argmin(dist))
            elif root_rule == "mindeg":
                root = int(np.argmin(degs))
            else:
                root = s if s is not None else 0
            nb = [int(x) for x in table[root] if x >= 0]
            if root_rule == "mindeg" and len(nb) == 2:
                plans.append((root, -1, nb[0], [nb[1]]))
            else:
                plans.append((root, -1, -1, None))
                halve = True
    else:
        if s is not None and e is not None and s == e and k > 1:
            return Outcome("refuted", 0, reason="an open tour of 2 or more squares cannot start and end "
                                                "on the same square")
        if parity:
            if abs(n0 - n1) > 1:
                return Outcome("refuted", 0, reason=f"colour count: a path alternates colours, the board has "
                                                    f"{n0} and {n1} squares of the two colours")
            major = -1 if n0 == n1 else (0 if n0 > n1 else 1)
            for q, what in ((s, "start"), (e, "end")):
                if q is not None and major >= 0 and colour[q] != major and k > 1:
                    return Outcome("refuted", 0, reason=f"colour count: the {what} must be on the colour "
                                                        f"with {max(n0, n1)} squares")
            if s is not None and e is not None and major < 0 and colour[s] == colour[e]:
                return Outcome("refuted", 0, reason="colour count: with equal colour counts the two ends "
                                                    "must have different colours")
        else:
            major = -1
        if s is not None:
            plans.append((s, -1 if e is None else e, -1, None))
        elif e is not None:
            plans.append((e, -1, -1, None))
        else:
            halve = k > 1
            roots = range(k) if major < 0 else np.flatnonzero(colour == major)
            if root_rule == "centre":
                roots = sorted(roots, key=lambda r: int((table[r] >= 0).sum()))
            plans.extend((int(r), -1, -1, None) for r in roots)
    total = 0
    stop = (not count) or (on_solution is not None)
    for root, target, first, closing in plans:
        ps = PathSearch(nt, root, closed, target=target, first=first, closing=closing,
                        heuristic=heuristic, prune=prune, stop_at_first=stop, table=table)
        while True:
            state = ps.run(limits)
            if state != "found":
                break
            sol = ps.solution()
            if not count:
                limits.finish(ps.nodes)
                return Outcome("found", limits.base_nodes, 1, nt.squares[sol])
            if on_solution is not None:
                keep = True
                if halve:
                    # each undirected tour once: a cycle by its root's two neighbours, a path by its ends
                    keep = bool(sol[1] < sol[-1]) if closed else bool(sol[0] < sol[-1])
                if keep:
                    on_solution(nt.squares[sol])
        limits.finish(ps.nodes)
        total += ps.count
        if state == "limit":
            return Outcome("limit", limits.base_nodes, total // 2 if halve else total)
    c = total // 2 if halve else total
    free_ends = not closed and s is None and e is None
    return Outcome("exhausted", limits.base_nodes, c, directed=(2 * c if free_ends and k > 1 else
                                                                (c if free_ends else None)))
