"""Backtracking search for tours, seeds 000 and 002: Warnsdorff order plus dead-end pruning.

Depth-first search that tries the candidate with the fewest onward moves first, ties
to the square farther from the centre (seed 000's rules 1 and 2). A closed tour is
searched from the centre square (M/2-1, N/2-1) (rule 3) and renumbered so the user's
start is square 1. Dead ends are cut: an unvisited square left with fewer free
neighbours than the tour still needs, the root cut off (see
:mod:`kt_formal.engines._search`). Open tours and fixed ends are searched from the
given end (or from every square, least degree first).

Node and time limits give UNKNOWN; a search that runs out of moves has proved that no
tour exists (IMPOSSIBLE, with a proof record).

>>> from kt_formal.board import Board
>>> r = solve(TourRequest(Board(8, 8), start=(0, 0)))
>>> r.status.value, r.tour.start
('found', (0, 0))
"""

from __future__ import annotations

from kt_formal.engines._search import Limits, search_request, table_for
from kt_formal.engines.base import Stopwatch, TourRequest, found, impossible, unknown
from kt_formal.engines.exhaustive import proof_dict
from kt_formal.graph import neighbour_table

__all__ = ["solve", "NAME", "PRUNING"]

NAME = "backtrack"
PRUNING = "colour-count, degree<2, dead-end degree, open-end count"


def solve(
    request: TourRequest,
    *,
    node_limit: int | None = None,
    time_limit: float | None = None,
    progress=None,
    **_ignored,
):
    """Find a tour by Warnsdorff-ordered backtracking with pruning.

    Parameters
    ----------
    request : TourRequest
        Forced moves are refused (use cpsat); forbidden moves are left out.
    node_limit, time_limit : optional
        Limits that end the search with UNKNOWN.
    progress : callable, optional
        ``progress(nodes_done, None, text)``, at most about ten times a second.

    Returns
    -------
    Result
    """
    clock = Stopwatch()
    nt = neighbour_table(request.board)
    table = table_for(request, nt, None, NAME)
    limits = Limits(node_limit, time_limit, progress, "backtrack")
    out = search_request(request, nt, table, root_rule="centre", heuristic="warnsdorff", prune=True,
                         parity=True, limits=limits)
    stats = {"nodes": out.nodes}
    if out.status == "found":
        return found(request, out.squares, NAME, clock(), stats)
    if out.status == "limit":
        return unknown(request, NAME, clock(),
                       f"backtracking stopped at its limit after {out.nodes:,} nodes", stats)
    proof = proof_dict(request, out.nodes, engine=NAME, pruning=PRUNING)
    msg = (f"no {request.describe()}: {out.reason}" if out.status == "refuted"
           else f"backtracking exhausted {out.nodes:,} nodes: no {request.describe()}")
    return impossible(request, NAME, clock(), msg, proof=proof, stats=stats)
