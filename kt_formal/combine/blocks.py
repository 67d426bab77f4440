"""The block construction: tours of boards with holes of any shape, at any scale.

The board is cut along row and column cut lines into *cells* whose sides come from the
library's palette (5..10, the sizes of :mod:`kt_formal.combine.divide`'s port pieces);
the cut lines are put on the edges of the holes where the palette allows. A cell
without holes and with even area takes the library's port piece of its shape (a closed
tour holding the four port moves). Every other cell (touched by holes, or odd x odd)
belongs to a *group*: a set of edge-adjacent cells solved as one small board by CP-SAT,
with the port moves its joins need forced in, and cached by its mask and ports. Groups
are formed so that they can be solved:

* colour balance: a closed tour alternates colours, so a group with more dark than
  light squares is merged with the nearest group with the opposite excess (the cells on
  the way join too); a partner far away is reached instead by *handing over* single
  squares: every cell on the route gives its predecessor one border square of the
  colour it lacks, so each stays a small group;
* degree: a square with fewer than two moves inside its group merges the group with the
  groups of its other neighbours;
* ports: a group with no live port toward the rest is merged with a neighbour;
* failure: a group CP-SAT cannot solve (infeasible, or its budget of deterministic time,
  :func:`~kt_formal.combine.blocks_groups.group_work`, ran out) is merged with its
  neighbours and solved again, bigger.

Groups and library cells are joined along a spanning tree by the 2-move swap of
``../shared/reference.md`` ("Two cycles side by side"): the left block holds the move
(r, X-1)-(r+2, X-2), the right one (r+1, X+1)-(r+3, X); both are deleted and
(r, X-1)-(r+1, X+1), (r+2, X-2)-(r+3, X) added (vertical joins transposed). The tour is
kept as an undirected neighbour array (two neighbours per square), so the swaps need no
orientation bookkeeping; a numba walk turns it into the visiting order, and the result
passes the kernel's tour check.

Open tours: with an odd colour excess one group is solved as a path (its ends free, or
at given end squares); a cycle spliced into a path by the same swap leaves one path with
the same ends.

>>> from kt_formal.board import Board
>>> t = block_tour(Board.from_spec(30, 30, ["0,0,2x3", "13,17,2x2"]))
>>> t.check() is None, t.closed
(True, True)

References
----------
A. J. Schwenk, "Which rectangular chessboards have a knight's tour?", Math. Mag. 64
(1991); I. Parberry, "An efficient algorithm for the knight's tour problem", Discrete
Applied Mathematics 73 (1997) (divide and conquer with joins of two moves).
"""

from __future__ import annotations

import time

import numpy as np

from kt_formal.board import Board, ensure_memory
from kt_formal.combine.divide import PART_SIZES
from kt_formal.tours import Tour

__all__ = ["block_tour", "BlocksNotApplicable", "solve_group", "walk_neighbours", "MAX_GROUP_SQUARES", "ENDS_GROUP_SQUARES"]


from kt_formal.combine.blocks_layout import BlocksNotApplicable, DEBUG, Layout, adjacent_member, cell_path, group_mask, low_degree_cells, neighbour_cells, nearest_route
from kt_formal.combine.blocks_groups import ENDS_GROUP_SQUARES, MAX_GROUP_SQUARES, GROUP_CACHE, group_work, solve_group
from kt_formal.combine.blocks_joins import bfs_groups, join_halves, has_move, join_candidates, join_present, stamp_library, swap_join, spanning_tree, tree_edges, walk_neighbours


# ====================================================================== cuts


# ====================================================================== union-find


# ====================================================================== group solver


# ====================================================================== walk


# ====================================================================== the construction


def block_tour(board: Board, closed: bool = True, start=None, end=None, *, time_limit: float = 30.0,
               seed: int = 0, workers: int = 1, stats: dict | None = None, stop=None) -> Tour:
    """A tour of ``board`` by the block construction (see the module docstring).

    Two strategies for colour excesses are tried in turn: merging groups with partners up
    to eight cells away (few, larger groups: suits holes that are rectangles), then
    merging only close partners and handing single squares along the routes to far ones
    (many small groups: suits scattered single holes).

    Parameters
    ----------
    board : Board
        Both sides at least 5.
    closed : bool
    start, end : (row, col) or None
        Fixed ends of an open tour (a closed tour is renumbered by the caller).
    time_limit : float
        Seconds for the whole construction (the CP-SAT calls share it).
    seed, workers
        CP-SAT parameters for the groups. With one worker the tour depends on neither
        the machine's load nor the time limit (as long as it is not reached).
    stats : dict, optional
        Filled with counts: cells, groups, CP-SAT calls, merges, squares handed over.
    stop : threading.Event, optional
        Set by another thread to end the construction early (BlocksNotApplicable).

    Returns
    -------
    Tour
        Checked by the kernel's tour check before it is returned.

    Raises
    ------
    BlocksNotApplicable
        When no tour was built (the reason says which step failed); never a claim that
        no tour exists.

    Notes
    -----
    Time linear in the area outside the groups (numpy stamping of library pieces),
    plus CP-SAT on the groups.
    """
    t0 = time.perf_counter()
    try:
        return _block_tour(board, closed, start, end, time_limit=time_limit, seed=seed,
                           workers=workers, stats=stats, eager=True, stop=stop)
    except BlocksNotApplicable as exc:
        left = time_limit - (time.perf_counter() - t0)
        if left <= 0.5 or "grew" not in str(exc) or (stop is not None and stop.is_set()):
            raise
        return _block_tour(board, closed, start, end, time_limit=left, seed=seed,
                           workers=workers, stats=stats, eager=False, stop=stop)


def _block_tour(board: Board, closed: bool, start, end, *, time_limit: float,
                seed: int, workers: int, stats: dict | None, eager: bool, stop=None) -> Tour:
    """One attempt of :func:`block_tour`; ``eager`` merges far colour partners."""
    build = _Construction(board, closed, start, end, time_limit=time_limit, seed=seed, workers=workers,
                          stats=stats, eager=eager, stop=stop)
    build.group()
    tree, solutions = build.solve()
    return build.assemble(tree, solutions)


class _Construction:
    """The state of one block construction: the layout, its groups of cells (each group's
    colour imbalance and member cells), the open group, and the clock; one method a phase."""

    def __init__(self, board: Board, closed: bool, start, end, *, time_limit: float,
                 seed: int, workers: int, stats: dict | None, eager: bool, stop=None):
        self.t0 = time.perf_counter()
        self.deadline = self.t0 + max(0.0, float(time_limit))
        self.time_limit, self.stop = time_limit, stop
        self.board, self.closed, self.start, self.end = board, closed, start, end
        self.seed, self.workers, self.eager = seed, workers, eager
        self.st = st = stats if stats is not None else {}
        R, C = board.rows, board.cols
        if min(R, C) < min(PART_SIZES):
            raise BlocksNotApplicable(f"both sides must be at least {min(PART_SIZES)}")
        if closed and (start is not None and end is not None):
            raise BlocksNotApplicable("closed tours with a fixed last square are not built here")
        ensure_memory(R * C * 40.0, f"the block construction on the {R}x{C} board")
        self.L = L = Layout(board, closed, start, end)
        ncell = L.p * L.q
        self.total_imb = total_imb = int(L.imb.sum())
        self.n_live = int(L.nlive.sum())
        if closed and total_imb != 0:
            raise BlocksNotApplicable(f"the colours are unbalanced ({total_imb:+d})")
        if not closed and abs(total_imb) > 1:
            raise BlocksNotApplicable(f"the colours differ by {abs(total_imb)}")
        # The open group (if any) and what it must hold.
        self.open_ends = [x for x in (start, end) if x is not None]
        self.need_open = (not closed) and (total_imb != 0 or len(self.open_ends) == 2)
        # An open tour with even count and at most one fixed end: a closed tour, cut afterwards.
        self.build_closed = closed or not self.need_open
        st.update(cells=ncell, cpsat_calls=0, merges=0, cache_hits=0)
        self.dsu = L.dsu
        self.special = np.zeros(ncell, dtype=bool)  # cells that belong to a solved group
        self.special[:] = ~L.lib.ravel() & ~L.empty.ravel()
        self.imb = {}  # group root -> imbalance
        self.members = {}
        for cell in np.flatnonzero(self.special).tolist():
            self.imb[cell] = int(L.imb.flat[cell])
            self.members[cell] = [cell]
        self.open_root = None
        self._merge_the_fixed_ends()

    def on_the_clock(self, phase):
        """Every phase keeps to the time limit (the grouping of a huge board takes minutes)."""
        if time.perf_counter() > self.deadline:
            raise BlocksNotApplicable(f"the time limit ({self.time_limit:g} s) ran out while {phase}")
        if self.stop is not None and self.stop.is_set():
            raise BlocksNotApplicable("stopped: another answer came first")

    def root(self, cell):
        return self.dsu.find(cell)

    def _join_group(self, c):
        """Cell ``c`` becomes a group of its own (a library cell taken into the groups)."""
        if not self.special[c]:
            self.special[c] = True
            self.imb[c] = int(self.L.imb.flat[c])
            self.members[c] = [c]

    def merge(self, cells):
        """Merge the groups of ``cells`` (library cells become part of the group)."""
        L, imb, members = self.L, self.imb, self.members
        cells = [c for c in cells if not L.empty.flat[c]]
        roots = []
        for c in cells:
            self._join_group(c)
            r = self.root(c)
            if r not in roots:
                roots.append(r)
        if len(roots) < 2:
            return roots[0] if roots else None
        a = roots[0]
        for b in roots[1:]:
            x = self.dsu.union(a, b)
            y = b if x == a else a
            imb[x] = imb.pop(x, 0) + imb.pop(y, 0)
            members[x] = members.pop(x) + members.pop(y)
            a = x
        self.st["merges"] += 1
        return a

    def _merge_the_fixed_ends(self):
        """The fixed ends of an open group: their cells are merged (with the cells between them)."""
        L, open_ends = self.L, self.open_ends
        if self.need_open and len(open_ends) == 2:
            c1, c2 = L.cell_of(*open_ends[0]), L.cell_of(*open_ends[1])
            route = cell_path(L, c1, c2)
            if sum(int(L.nlive.flat[c]) for c in route) > ENDS_GROUP_SQUARES:
                raise BlocksNotApplicable("the fixed ends lie too far apart for one group "
                                          f"(more than {ENDS_GROUP_SQUARES} squares)")
            self.merge(route)
            self.open_root = self.root(c1)
        elif self.need_open and len(open_ends) == 1:
            c1 = L.cell_of(*open_ends[0])
            self.merge([c1])
            self.open_root = self.root(c1)

    def target(self, r):
        if self.need_open and self.open_root is not None and self.root(self.open_root) == r:
            return self.total_imb
        return 0

    def excess(self, r):
        return self.imb[r] - self.target(r)

    def _roots(self):
        return [r for r in list(self.imb) if self.root(r) == r]

    def _open_candidate(self, g) -> bool:
        """Whether group ``g`` may end as the open group (its excess is the board's)."""
        return (self.need_open and self.open_root is None and self.total_imb != 0
                and self.imb[g] == self.total_imb)

    def _partner_path(self, g, e, exact, depth, last_resort):
        """The nearest route from group ``g`` (excess ``e``) to a group of the opposite excess
        (exactly ``-e`` when ``exact``), through library cells first."""
        special, root, excess, imb = self.special, self.root, self.excess, self.imb

        def accept(c):
            if not special[c] or root(c) == root(g):
                return False
            x = excess(root(c))
            if self.need_open and self.open_root is None and self.total_imb != 0:
                x = min(x, imb[root(c)] - self.total_imb, key=abs) if x * e >= 0 else x
            return x == -e if exact else x * e < 0

        throughs = [lambda c: not special[c],
                    lambda c: not special[c] or excess(root(c)) == 0]
        if last_resort:
            throughs.append(None)
        for through in throughs:
            path = nearest_route(self.L, self.members[g], accept, through, depth)
            if path is not None:
                return path
        return None

    def _balance_round(self, exact, depth, last_resort) -> bool:
        """One pass of pairing groups of opposite excess; whether anything changed."""
        progress = False
        for g in self._roots():
            if self.root(g) != g or self.excess(g) == 0:
                continue
            self.on_the_clock("pairing the holes' colours")
            if self._open_candidate(g):
                continue  # may end as the open group
            e = self.excess(g)
            path = self._partner_path(g, e, exact, depth, last_resort)
            if path is not None and depth is None:
                if self.hand_along(g, path, e):
                    progress = True
                    continue
                if not last_resort:
                    continue
            if path is not None:
                self.merge([g] + path)
                progress = True
        return progress

    def balance(self):
        """Merge groups with a colour excess with near groups of the opposite excess.

        Greedy matching by distance: first partners with exactly the opposite excess,
        one cell away, then two, ...; then any opposite excess. Routes run through
        library cells (then balanced groups, then anything).
        """
        if self.eager:
            plans = [(True, d) for d in (1, 2, 3, 4, 6)] + [(False, d) for d in (1, 2, 4, 8, None)]
        else:
            plans = [(True, d) for d in (1, 2)] + [(False, d) for d in (1, 2, 3, None)]
        plans.append((False, None))  # again, now also through groups with an excess
        for k, (exact, depth) in enumerate(plans):
            while self._balance_round(exact, depth, k == len(plans) - 1):
                pass
            if DEBUG:
                print("plan", exact, depth, sorted(len(m) for m in self.members.values())[-5:],
                      [(r, self.excess(r)) for r in self.imb if self.root(r) == r and self.excess(r) != 0])
        left = [r for r in self.imb if self.root(r) == r and self.excess(r) != 0]
        if not left:
            return True
        if self.need_open and self.open_root is None and self.total_imb != 0:
            if len(left) == 1 and self.imb[left[0]] == self.total_imb:
                self.open_root = left[0]
                return True
        raise BlocksNotApplicable(f"{len(left)} groups keep a colour excess no route can match")

    def hand_along(self, g, path, e):
        """Pass one square of colour excess from group g to the end of ``path``: each cell
        of the route hands its predecessor a square of the colour g lacks (g's excess goes
        down by one, the last cell's group's excess toward zero). The cells on the route
        become groups of their own. False (nothing changed) when a cell has no such square."""
        L = self.L
        first = adjacent_member(L, self.members[g], path[0])
        if first is None:
            if DEBUG:
                print("no adjacent member", g, path[:3])
            return False
        chain = [first] + list(path)
        dark = e < 0  # g has too many light squares: it takes a dark one
        ends = tuple(self.open_ends)
        done = []
        d = 1 if dark else -1
        for taker, giver in zip(chain[:-1], chain[1:]):
            sq = L.hand_over(giver, taker, dark, ends)
            if sq is None:
                if DEBUG:
                    print("hand_over failed", giver, taker, dark, L.cell_rect(giver), len(chain))
                for (r, c), t, gv in reversed(done):  # undo
                    L.owner[r, c] = gv
                    L.moved.discard((r, c))
                    L.nlive.flat[t] -= 1
                    L.nlive.flat[gv] += 1
                    L.imb.flat[t] -= d
                    L.imb.flat[gv] += d
                return False
            done.append((sq, taker, giver))
        for sq, taker, giver in done:
            for c in (taker, giver):
                self._join_group(c)
            self.imb[self.root(taker)] += d
            self.imb[self.root(giver)] -= d
        self.st["handed"] = self.st.get("handed", 0) + len(done)
        return True

    def degree_fix(self):
        """Merge a group with the groups of the outside neighbours of its squares of degree < 2."""
        changed = False
        for r in [r for r in list(self.members) if self.root(r) == r]:
            if r not in self.members:
                continue
            grp = group_mask(self.L, self.members[r])
            open_group = r == (self.root(self.open_root) if self.open_root is not None else -1)
            bad_out = low_degree_cells(self.L, grp, open_group)
            if bad_out:
                self.merge([r] + bad_out)
                changed = True
        return changed

    def _group_squares(self, g) -> int:
        return sum(int(self.L.nlive.flat[c]) for c in self.members[g])

    def group(self):
        """The groups: colour balance, then degrees (each fix may unbalance again)."""
        self.on_the_clock("grouping the holes")
        self.balance()
        if DEBUG:
            print("after balance", sorted(len(m) for m in self.members.values())[-10:])
        for _ in range(200):
            self.on_the_clock("grouping the holes")
            if not self.degree_fix():
                break
            self.balance()
        for g in [r for r in self.members if self.root(r) == r]:
            if self._group_squares(g) > MAX_GROUP_SQUARES:
                raise BlocksNotApplicable(f"a group grew beyond {MAX_GROUP_SQUARES} squares")

    def _rebalance(self, clock=False):
        self.balance()
        while self.degree_fix():
            if clock:
                self.on_the_clock("joining the groups")
            self.balance()

    def solve(self):
        """Join the groups in a tree and solve each group (CP-SAT) with its joins' port moves;
        a group that fails grows (merges with a neighbour) and the round starts again."""
        attempts = 0
        while True:
            attempts += 1
            if attempts > 400:
                raise BlocksNotApplicable("too many merge rounds")
            self.on_the_clock("joining the groups")
            tree, joins, fail = spanning_tree(self.L, self.special, self.root)
            if fail is not None:
                self.merge(list(fail))
                self._rebalance(clock=True)
                continue
            solutions, failed = self._solve_round(tree)
            if failed is None:
                return tree, solutions
            self._grow(*failed)
            self._rebalance()

    def _solve_round(self, tree):
        """Solve the groups in breadth-first order of the tree; (solutions, failed pair or None)."""
        order = bfs_groups(tree, [r for r in self.members if self.root(r) == r])
        solutions = {}
        for g in order:
            self.on_the_clock("solving groups")
            failed = self._solve_one(g, tree, solutions)
            if failed is not None:
                return solutions, failed
        return solutions, None

    def _solve_one(self, g, tree, solutions):
        """Solve group ``g`` with a port move of each of its joins; the failed pair or None."""
        L, C, st = self.L, self.board.cols, self.st
        cells = self.members[g]
        if self._group_squares(g) > MAX_GROUP_SQUARES:
            raise BlocksNotApplicable(f"a group grew beyond {MAX_GROUP_SQUARES} squares")
        local, r0, c0 = group_mask(L, cells)
        c1 = c0 + local.shape[1]
        needs = []
        keys = []
        for other, cands in tree.get(g, {}).items():
            sel = []
            for cand in cands:
                mine, theirs = join_halves(cand, g, self.root, L)
                if other in solutions and not has_move(solutions[other], theirs, C):
                    continue
                sel.append((cand, mine))
            if not sel:
                return g, other
            needs.append([((a[0] - r0, a[1] - c0), (b[0] - r0, b[1] - c0)) for _, (a, b) in sel])
            keys.append((other, sel))
        is_open = (not self.build_closed) and self.open_root is not None and self.root(self.open_root) == g
        s_loc = e_loc = None
        if is_open:
            if self.start is not None:
                s_loc = (self.start[0] - r0, self.start[1] - c0)
            if self.end is not None:
                e_loc = (self.end[0] - r0, self.end[1] - c0)
        n_sq = int(local.sum())
        before = len(GROUP_CACHE)
        # a deterministic budget per group, the wall clock only for the whole construction:
        # the groups that fail (and grow) are the same on a busy machine as on an idle one
        res = solve_group(local, closed=not is_open, start=s_loc, end=e_loc, need=needs,
                          time_limit=self.deadline - time.perf_counter(), work=group_work(n_sq),
                          seed=self.seed, workers=self.workers)
        st["cpsat_calls"] += 1 if len(GROUP_CACHE) != before or res is None else 0
        if res is None:  # the deadline, not the group's budget, may have ended it
            self.on_the_clock("solving groups")
        if not isinstance(res, list):
            # Without the joins' ports: if the group has a tour, the ports are the trouble
            # and the group merges with the neighbour of its tightest join; otherwise it
            # grows on every side.
            free = solve_group(local, closed=not is_open, start=s_loc, end=e_loc, need=(),
                               time_limit=self.deadline - time.perf_counter(), work=group_work(n_sq, 0.65),
                               seed=self.seed, workers=self.workers)
            tight = sorted((len(sel), other) for other, sel in keys)
            return g, tight[0][1] if isinstance(free, list) and tight else None
        w = c1 - c0
        glob = [((a // w + r0) * C + a % w + c0, -1 if b < 0 else (b // w + r0) * C + b % w + c0)
                for a, b in res]
        solutions[g] = (glob, set(frozenset(e) for e in glob), is_open)
        return None

    def _grow(self, g, other):
        """Group ``g`` failed: merge it with ``other``, or with every neighbouring group."""
        L, root = self.L, self.root
        nb_groups = set()
        for c in self.members[g]:
            for d in neighbour_cells(L, c):
                if not L.empty.flat[d] and root(d) != g:
                    nb_groups.add(d)
        if other is not None:
            self.merge([g, other])
        elif nb_groups:
            self.merge([g] + sorted(nb_groups))
        else:
            raise BlocksNotApplicable(f"CP-SAT found no tour of a group of {len(self.members[g])} cells "
                                      "that cannot grow further")

    def assemble(self, tree, solutions) -> Tour:
        """The library cells' tours and the groups' tours in one successor table, spliced at
        each join of the tree, walked once and checked."""
        L, st, board = self.L, self.st, self.board
        R, C = board.rows, board.cols
        N = R * C
        dt = np.int32 if N < 2**31 else np.int64
        nb = np.full((N, 2), -1, dtype=dt)
        stamp_library(L, self.special, nb)
        for g, (glob, _moves, is_open) in solutions.items():
            if is_open:
                if glob and glob[0][1] == -1:
                    continue  # a single square
                a = np.array(glob, dtype=np.int64)
                seq = np.concatenate([a[:, 0], a[-1:, 1]])
                nb[seq[1:], 0] = seq[:-1]
                nb[seq[:-1], 1] = seq[1:]
            else:
                a = np.array(glob, dtype=np.int64)
                seq = a[:, 0]
                nb[seq, 0] = np.roll(seq, 1)
                nb[seq, 1] = np.roll(seq, -1)
        st["joins"] = self._splice_joins(tree, solutions, nb)
        st["groups"] = len(solutions)
        st["group_squares"] = int(sum(len(s[0]) for s in solutions.values()))
        tour = self._walk(nb)
        reason = tour.check()
        if reason is not None:
            raise RuntimeError(f"the block construction produced an invalid tour: {reason}")
        st["seconds"] = time.perf_counter() - self.t0
        return tour

    def _splice_joins(self, tree, solutions, nb) -> int:
        """For a tree edge between a solved group and a library cell or two groups, the
        candidate chosen by the solve; library-library edges have exactly one candidate."""
        L, C = self.L, self.board.cols
        n_join = 0
        for (g, other), cands in tree_edges(tree):
            if isinstance(cands, tuple) and cands[0] == "std":
                cands = join_candidates(L, cands[1], cands[2], True, True)
            pick = next((cand for cand in cands if join_present(nb, cand, C)), None)
            if pick is None:
                if DEBUG:
                    print("missing join", g, other, self.special[g], self.special[other], g in solutions,
                          other in solutions, cands[:3])
                raise RuntimeError("a join's port moves are missing")
            swap_join(nb, pick, C)
            n_join += 1
        return n_join

    def _walk(self, nb) -> Tour:
        board, start, end = self.board, self.start, self.end
        if self.need_open and not self.build_closed:
            ends = np.flatnonzero((nb[:, 0] < 0) & (nb[:, 1] >= 0) | (nb[:, 1] < 0) & (nb[:, 0] >= 0))
            s0 = int(self.L.board.index(*start)) if start is not None else int(ends[0]) if ends.size else None
            if s0 is None:
                raise RuntimeError("an open tour without an end")
            if nb[s0, 0] < 0:
                nb[s0] = nb[s0, ::-1]
            return Tour(board, walk_neighbours(nb, s0, self.n_live), False)
        s0 = int(np.argmax(self.L.live.ravel()))
        tour = Tour(board, walk_neighbours(nb, s0, self.n_live), True)
        return tour if self.closed else _cut(tour, start, end)


def _cut(tour: Tour, start, end) -> Tour:
    """An open tour from a closed one: cut next to ``start`` (or ``end``)."""
    b = tour.board
    order = tour.order
    if start is not None:
        i = int(np.flatnonzero(order == b.index(*start))[0])
        order = np.roll(order, -i)
    elif end is not None:
        i = int(np.flatnonzero(order == b.index(*end))[0])
        order = np.roll(order, -(i + 1))
    return Tour(b, np.ascontiguousarray(order), False)


# ---------------------------------------------------------------------- joins


# ====================================================================== hole families


