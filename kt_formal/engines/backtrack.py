"""Backtracking search for tours, seeds 000 and 002: Warnsdorff order plus dead-end pruning.

Depth-first search that tries the candidate with the fewest onward moves first, ties
to the square farther from the centre (rules 1 and 2 of the backtracking method, docs/methods.md). A closed tour is
searched from the centre square (M/2-1, N/2-1) (rule 3) and renumbered so the user's
start is square 1. Dead ends are cut: an unvisited square left with fewer free
neighbours than the tour still needs, the root cut off (see
:mod:`kt_formal.engines.pathsearch`). Open tours and fixed ends are searched from the
given end (or from every square, least degree first).

Restarts: the ties left after both rules are broken by the move order, and one order can
be unlucky on a given board (18x20 from the knight order is). The search therefore runs
in rounds: each round tries the eight rotations of the move order with a node cap
(20,000 nodes, four times more each round). Every run is a complete search in itself,
so a run that ends below its cap without a tour has proved that none exists.

Node and time limits (and the stop event) give LIMIT; a search that runs out of moves has proved that no
tour exists (IMPOSSIBLE, with a proof record).

>>> from kt_formal.board import Board
>>> r = Backtrack().run(Question(Board(8, 8), start=(0, 0)))
>>> r.status.value, r.tour.start
('found', (0, 0))
"""

from __future__ import annotations

import time

from kt_formal.board import KNIGHT_MOVES
from kt_formal.engines.exhaustive import PathSearchEngine
from kt_formal.engines.pathsearch import ensure_search_memory, NodeMeter, Outcome, search_request, table_for
from kt_formal.graph import neighbour_table
from kt_formal.question import Limits, Question, Result

__all__ = ["Backtrack", "NAME", "PRUNING"]

NAME = "backtrack"
PRUNING = "colour-count, degree<2, dead-end degree, open-end count"
#: Node cap of each run in the first round of restarts (at least FIRST_SLACK times the
#: squares: a run needs one node a square to find anything, so a smaller cap only wastes
#: the round).
FIRST_CAP = 20_000
FIRST_SLACK = 1.25
#: Boards of at most this many squares keep each rotated move order once made (32 bytes a
#: square each); larger ones make it again for each run.
KEEP_TABLES_UP_TO = 1_000_000


class Backtrack(PathSearchEngine):
    """Warnsdorff-ordered backtracking with pruning, in rounds of restarts.

    Forced moves are refused (use cpsat); forbidden moves are left out. The limits give
    the node and time limits (LIMIT), the stop event (ends the search within one chunk of
    nodes, about 0.05 s) and progress (``progress(nodes_done, None, text)``, at most about
    ten times a second).
    """

    name = NAME
    pruning = PRUNING
    searched = "backtracking"

    def search(self, question: Question, limits: Limits, options) -> Result:
        """The rounds of complete searches (see the module docstring)."""
        ensure_search_memory(question.board, NAME)
        nt = neighbour_table(question.board)
        out, runs = _search_with_restarts(question, nt, limits)
        return self.outcome(question, limits, out, {"runs": runs})


def _search_with_restarts(request, nt, limits: Limits):
    """Rounds of complete searches over the eight rotated move orders, node caps growing 4x."""
    tables = [None] * 8  # the rotated move orders, each made when a run first needs it (kept on small boards)
    node_limit, time_limit, progress, stop = limits.node_limit, limits.time_limit, limits.progress, limits.stop
    total = NodeMeter(limits.share(1.0, progress=None))
    hook = None
    if progress is not None:
        last = [-1.0]

        def hook(done, _total, _text):
            # one rate limit over all the runs, nodes counted across them
            now = time.perf_counter()
            if now - last[0] >= 0.1:
                last[0] = now
                n = total.base_nodes + int(done)
                progress(float(n), None, f"backtrack: {n:,} nodes")

    cap = max(FIRST_CAP, int(FIRST_SLACK * len(nt)))
    runs = 0
    while True:
        for r in range(8):
            table = tables[r]
            if table is None:
                table = table_for(request, nt, KNIGHT_MOVES[r:] + KNIGHT_MOVES[:r], NAME)
                if len(nt) <= KEEP_TABLES_UP_TO:
                    tables[r] = table
            run_cap = cap if node_limit is None else min(cap, node_limit - total.base_nodes)
            left = None if time_limit is None else time_limit - total.elapsed()
            if run_cap <= 0 or (left is not None and left <= 0) or (stop is not None and stop.is_set()):
                return Outcome("limit", total.base_nodes), runs
            out = search_request(request, nt, table, root_rule="centre", heuristic="warnsdorff",
                                 prune=True, parity=True, limits=NodeMeter(Limits(left, node_limit=run_cap, stop=stop, progress=hook), NAME))
            runs += 1
            total.finish(out.nodes)
            if out.status != "limit":
                out.nodes = total.base_nodes
                return out, runs
        cap *= 4
