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
>>> r = Exhaustive().run(Question(Board(4, 5)))
>>> r.status.value, r.proof["method"]
('impossible', 'exhaustive')
"""

from __future__ import annotations


from kt_formal.certificate import board_from_dict, question_header
from kt_formal.engines.base import Engine
from kt_formal.engines.pathsearch import NodeMeter, refuses, search_request, search_tables
from kt_formal.exceptions import InvalidInput
from kt_formal.question import Limits, Question, Result

__all__ = ["Exhaustive", "PathSearchEngine", "proof_dict", "rerun_proof", "check_size", "too_big", "PRUNING",
           "NAME"]

NAME = "exhaustive"

#: Short name of the pruning rules, recorded in every proof.
PRUNING = "colour-count, degree<2, dead-end degree, open-end count, direction symmetry"


def proof_dict(request: Question, nodes: int, engine: str = NAME, pruning: str = PRUNING) -> dict:
    """The JSON-ready record of an exhausted search for ``request``."""
    return {
        **question_header(request, "proof", "exhaustive"),
        "engine": engine,
        "nodes": int(nodes),
        "pruning": pruning,
    }


def too_big(question: Question) -> str | None:
    """Why the exhaustive search does not take ``question`` (a board too big), or None."""
    k = question.board.n_squares
    return f"exhaustive search is for small boards; this one has {k} squares" if k > 10_000 else None


def check_size(question: Question) -> None:
    """InvalidInput when :func:`too_big` says so."""
    reason = too_big(question)
    if reason is not None:
        raise InvalidInput(reason)


class PathSearchEngine(Engine):
    """An engine that is a path search of :mod:`kt_formal.engines.pathsearch` (forced moves
    refused; a node limit honoured), and how an outcome of it becomes a Result."""

    counts_nodes = True
    #: the pruning rules, recorded in a proof
    pruning = "none"
    #: the search's name in messages ("exhaustive search", "backtracking", ...)
    searched = "search"

    def supports(self, question: Question) -> str | None:
        return refuses(question, self.name)

    def outcome(self, question: Question, limits: Limits, out, stats=None) -> Result:
        """The Result of a search outcome: FOUND, LIMIT or IMPOSSIBLE with a proof record."""
        stats = {"nodes": out.nodes, **(stats or {})}
        if out.status == "found":
            return self.found(question, limits, out.squares, stats)
        if out.status == "limit":
            return self.limit(question, limits, f"{self.searched} stopped at its limit after {out.nodes:,} nodes",
                              stats)
        if out.status == "refuted":
            msg = f"no {question.describe()}: {out.reason}"
        else:
            msg = f"{self.searched} exhausted {out.nodes:,} nodes: no {question.describe()}"
        return self.impossible(question, limits, msg, proof=proof_dict(question, out.nodes, self.name, self.pruning),
                               stats=stats)


class Exhaustive(PathSearchEngine):
    """Decide whether a question has a tour, by complete search.

    FOUND (verified tour), IMPOSSIBLE with ``proof`` (see :func:`proof_dict`), or LIMIT
    when the node or time limit ran out.
    """

    name = NAME
    pruning = PRUNING
    searched = "exhaustive search"

    def supports(self, question: Question) -> str | None:
        return too_big(question) or refuses(question, self.name)

    def search(self, question: Question, limits: Limits, options) -> Result:
        """The complete search, least-degree root, Warnsdorff order, every sound rule."""
        nt, table = search_tables(question, NAME)
        out = search_request(question, nt, table, root_rule="mindeg", heuristic="warnsdorff", prune=True,
                             parity=True, limits=NodeMeter(limits, "exhaustive"))
        return self.outcome(question, limits, out)


def rerun_proof(proof: dict, time_limit: float | None = None) -> Result:
    """Re-run the search a proof record describes; return the new :class:`Result`.

    The board and request are rebuilt from the record alone and searched again by this
    engine. A sound record gives IMPOSSIBLE again, with the same ``nodes`` when the
    record was made by this engine (the search is deterministic).

    >>> from kt_formal.board import Board
    >>> r = Exhaustive().run(Question(Board(3, 6)))
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
    return Exhaustive().run(request, Limits(time_limit))
