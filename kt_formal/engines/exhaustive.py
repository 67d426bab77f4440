"""Exhaustive search: decide whether a small board has a knight's tour, with a proof record if not.

The search enumerates Hamiltonian cycles (closed tours) or Hamiltonian paths (open
tours) of the knight graph depth first, each undirected tour once, with sound pruning
only (see :mod:`kt_formal.engines.pathsearch`):

* colour count: a knight alternates colours, so a closed tour needs equal counts and a
  path counts differing by at most one (its ends then on the larger colour);
* a square with fewer than two neighbours rules out every closed tour;
* dead ends: after each move every unvisited square must keep enough free neighbours
  (two, or one for the square that must come last), and at most one square away from
  the head may be left with a single free neighbour when the path's end is free;
* symmetry of direction: a closed search starts at a square of least degree; when that
  degree is 2 the first move goes to one neighbour and the tour returns from the other,
  so each cycle is met once (otherwise both directions are met and halved); open counts
  sum the directed paths from every start square and halve.

A "no tour" answer is a proof object that names the engine, board, request, nodes
searched and the pruning rules, so it can be re-run (:func:`proof_dict`)::

    {"format": "kt-formal/1", "kind": "proof", "method": "exhaustive",
     "board": {...}, "closed": true, "start": null, "end": null,
     "engine": "exhaustive", "nodes": 1234, "pruning": "..."}

Counting and listing every tour with the same search is :mod:`kt_formal.counting.exhaustive`.

>>> from kt_formal.board import Board
>>> r = solve(Question(Board(4, 5)))
>>> r.status.value, r.proof["method"]
('impossible', 'exhaustive')
"""

from __future__ import annotations


from kt_formal.certificate import FORMAT, board_from_dict, board_to_dict
from kt_formal.engines.pathsearch import NodeMeter, search_request, search_tables
from kt_formal.question import Budget, Question
from kt_formal.engines.base import found, impossible, unknown
from kt_formal.exceptions import InvalidInput

__all__ = ["solve", "proof_dict", "outcome_result", "rerun_proof", "check_size", "PRUNING", "NAME"]

NAME = "exhaustive"

#: Short name of the pruning rules, recorded in every proof.
PRUNING = "colour-count, degree<2, dead-end degree, open-end count, direction symmetry"


def proof_dict(request: Question, nodes: int, engine: str = NAME, pruning: str = PRUNING) -> dict:
    """The JSON-ready record of an exhausted search for ``request``."""
    return {
        "format": FORMAT,
        "kind": "proof",
        "method": "exhaustive",
        "board": board_to_dict(request.board),
        "closed": bool(request.closed),
        "start": None if request.start is None else [int(x) for x in request.start],
        "end": None if request.end is None else [int(x) for x in request.end],
        "engine": engine,
        "nodes": int(nodes),
        "pruning": pruning,
    }


def check_size(request: Question) -> None:
    k = request.board.n_squares
    if k > 10_000:
        raise InvalidInput(f"exhaustive search is for small boards; this one has {k} squares")


def solve(
    request: Question,
    *,
    node_limit: int | None = None,
    time_limit: float | None = None,
    progress=None,
):
    """Decide whether ``request`` has a tour, by complete search.

    Returns
    -------
    Result
        FOUND (verified tour), IMPOSSIBLE with ``proof`` (see :func:`proof_dict`), or
        UNKNOWN when ``node_limit`` or ``time_limit`` ran out.
    """
    clock = Budget()
    check_size(request)
    nt, table = search_tables(request, NAME)
    limits = NodeMeter(node_limit, time_limit, progress, "exhaustive")
    out = search_request(request, nt, table, root_rule="mindeg", heuristic="warnsdorff", prune=True,
                         parity=True, limits=limits)
    return outcome_result(request, out, NAME, clock.elapsed(), PRUNING, "exhaustive search")


def outcome_result(request: Question, out, engine: str, wall_time: float, pruning: str, searched: str,
                   stats=None):
    """The :class:`Result` of a search outcome: FOUND, UNKNOWN (limit) or IMPOSSIBLE with a proof.

    ``searched`` names the search in messages ("exhaustive search", "backtracking", ...).
    """
    stats = {"nodes": out.nodes, **(stats or {})}
    if out.status == "found":
        return found(request, out.squares, engine, wall_time, stats)
    if out.status == "limit":
        return unknown(request, engine, wall_time, f"{searched} stopped at its limit after {out.nodes:,} nodes",
                       stats)
    if out.status == "refuted":
        msg = f"no {request.describe()}: {out.reason}"
    else:
        msg = f"{searched} exhausted {out.nodes:,} nodes: no {request.describe()}"
    return impossible(request, engine, wall_time, msg, proof=proof_dict(request, out.nodes, engine, pruning),
                      stats=stats)


def rerun_proof(proof: dict, time_limit: float | None = None):
    """Re-run the search a proof record describes; return the new :class:`Result`.

    The board and request are rebuilt from the record alone and searched again by this
    engine. A sound record gives IMPOSSIBLE again, with the same ``nodes`` when the
    record was made by this engine (the search is deterministic).

    >>> from kt_formal.board import Board
    >>> r = solve(Question(Board(3, 6)))
    >>> again = rerun_proof(r.proof)
    >>> again.status.value, again.proof["nodes"] == r.proof["nodes"]
    ('impossible', True)
    """
    board = board_from_dict(proof["board"])
    start = proof.get("start")
    end = proof.get("end")
    request = Question(board, closed=bool(proof["closed"]),
                          start=None if start is None else tuple(start),
                          end=None if end is None else tuple(end))
    return solve(request, time_limit=time_limit)
