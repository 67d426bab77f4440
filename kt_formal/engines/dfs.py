"""Plain depth-first search in a fixed move order, for teaching and replay.

No heuristic and no pruning: from the start square, try the eight moves in the given
order, go deeper on the first that lands on an unvisited square, back up when stuck.
With the ``clockwise`` order from (0, 0) on 8x8 the first tour found is exactly the one
the plain backtracking program of docs/methods.md prints; the ``down-first`` order from
(2, 0) needs about 2.1e8 moves.

Named orders (``(d_row, d_col)``, row down; :data:`~kt_formal.engines.pathsearch.ORDERS`;
docs/methods.md says which document each comes from):

* ``knight``: anticlockwise from 11 o'clock, the project's :data:`KNIGHT_MOVES`;
* ``down-first``: two rows down first, then one down, two up, one up;
* ``clockwise-from-7``: clockwise from 7 o'clock;
* ``clockwise``: clockwise from 1 o'clock;

or any ``"dr,dc;dr,dc;..."`` string listing the eight moves. Older names of these orders
are still accepted.

>>> from kt_formal.board import Board
>>> r = Dfs().run(Question(Board(8, 8), closed=False, start=(0, 0)), options={"order": "clockwise"})
>>> r.tour.squares()[:4], r.stats["nodes"]
([(0, 0), (1, 2), (0, 4), (1, 6)], 3242064)
"""

from __future__ import annotations

from dataclasses import dataclass

from kt_formal.engines.exhaustive import PathSearchEngine
from kt_formal.engines.pathsearch import NodeMeter, order_name, parse_order, search_request, search_tables
from kt_formal.question import Limits, Question, Result

__all__ = ["Dfs", "NAME"]

NAME = "dfs"


class Dfs(PathSearchEngine):
    """Plain DFS in a move order.

    A closed tour is searched from the start square (else the first live square); an
    open one from its start (else from its end, else from every square in turn).
    Exhausting the search proves that no tour exists (IMPOSSIBLE with a proof record);
    a limit gives LIMIT.
    """

    name = NAME
    searched = "depth-first search"

    @dataclass(frozen=True)
    class Options:
        """``order``: the move order, a name of :data:`~kt_formal.engines.pathsearch.ORDERS`
        or a ``"dr,dc;..."`` string (checked here)."""

        order: object = "knight"

        def __post_init__(self):
            parse_order(self.order)

    def search(self, question: Question, limits: Limits, options) -> Result:
        """The plain search from the question's start, in ``options.order``."""
        order = options.order
        moves = parse_order(order)
        nt, table = search_tables(question, NAME, moves)
        out = search_request(question, nt, table, root_rule="start", heuristic="fixed", prune=False,
                             parity=False, limits=NodeMeter(limits, "dfs"))
        stats = {"order": order_name(order) if isinstance(order, str) else str(moves)}
        return self.outcome(question, limits, out, stats)
