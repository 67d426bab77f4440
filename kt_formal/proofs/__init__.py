"""Finders of impossibility proofs: JSON objects that show a tour cannot exist.

A proof is a small certificate that the kernel's checker
(:func:`kt_formal.kernel.proofcheck.check_proof`) re-establishes from the board and the
knight rule alone; the finders here may use anything (CP-SAT included), the checker
uses none of them. Methods, cheapest first:

``ends``
    fixed ends that no tour can have: an open tour of two or more squares with the
    same first and last square, or a closed tour whose last square is not a knight
    move from its first.
``colour``
    a knight changes colour at every move, so a closed tour needs as many dark as
    light squares, an open one counts that differ by at most one, and fixed ends must
    fit the excess (even count: ends of different colours; odd: both of the majority).
``degree``
    a closed tour enters and leaves every square, so a square with fewer than two
    moves refutes it; an open tour of two or more squares has no square without a
    move, and every square with at most one move is one of its two ends.
``separator``
    removing a set ``S`` cuts a closed tour into at most ``max(|S|, 1)`` pieces and
    an open tour into at most ``|S| + 1 - (fixed ends in S)``, so more components
    than that refute a tour. With ``"reduced": true`` (closed tours) the components
    are counted after the forced-move reduction: a square with exactly two moves
    forces both, a square with two forced moves loses its others, repeated to a
    fixpoint; a closed tour only uses moves that survive (on large boards found by
    :func:`find_reduction_proof`, with no square removed: the frame two squares wide round
    a large hole falls into two or four cycles of forced moves).
``alternation``
    an independent set ``S`` with ``|S| = |V| / 2`` forces a closed tour to
    alternate ``S`` and the rest; a knight alternates colours too, so ``S`` would be
    one colour. If ``S`` has both colours there is no closed tour (Posa's argument
    for 4 x n boards: ``S`` is the two outer rows, 2n squares). Likewise an open
    tour of an odd number ``|V|`` of squares with ``|S| = (|V| + 1) / 2`` visits
    ``S`` at every other step, both ends included.
``hall``
    a closed tour gives every square two moves, each to a square of the other colour;
    squares of one colour whose neighbours have room for fewer than two moves each
    (a neighbour takes at most two, and no more than its moves into the set) refute it:
    Hall's condition for a 2-factor fails. An open tour's ends need one move each, so
    the set may fall short by the ends that can lie in it (one with the colours balanced,
    two or none with one colour ahead by one) (:mod:`kt_formal.proofs.hall`; found by one
    maximum flow, tried once a search has found no tour).
``exhaustive``
    the record of an exhaustive search: not checkable by the kernel (it runs no search);
    :func:`kt_formal.proofs.replay.replay_exhaustive` re-runs it on request.

The format::

    {"format": "kt-formal/1", "kind": "proof", "method": "colour",
     "board": {"rows": 5, "cols": 5, "holes": []}, "closed": true,
     "start": null, "end": null, "dark": 13, "light": 12}

>>> from kt_formal.board import Board
>>> from kt_formal.question import Question
>>> p = find_proof(Question(Board(5, 5), closed=True))
>>> p["method"], p["dark"], p["light"]
('colour', 13, 12)
>>> check_proof(p)
'no closed tour of the 5x5 board: 13 dark and 12 light squares'
>>> find_proof(Question(Board(4, 7), closed=True))["method"]
'alternation'
"""

from __future__ import annotations

from kt_formal.claims import check_proof
from kt_formal.proofs.cheap import (
    find_alternation_proof,
    find_colour_proof,
    find_degree_proof,
    find_ends_proof,
    make_proof,
)
from kt_formal.proofs.explain import explain
from kt_formal.proofs.hall import find_hall_proof
from kt_formal.proofs.reduction import find_reduction_proof
from kt_formal.proofs.separator import find_separator_proof
from kt_formal.question import Question

__all__ = [
    "METHODS",
    "make_proof",
    "find_proof",
    "find_ends_proof",
    "find_colour_proof",
    "find_degree_proof",
    "find_alternation_proof",
    "find_separator_proof",
    "find_hall_proof",
    "find_reduction_proof",
    "check_proof",
    "explain",
]

#: Proof methods, cheapest first.
METHODS = ("ends", "colour", "degree", "alternation", "separator", "hall", "exhaustive")


def find_proof(question: Question, thorough: bool = False, budget: int = 50_000) -> dict | None:
    """The cheapest proof found that the tour ``question`` asks for does not exist, or None.

    ``thorough`` adds the CP-SAT alternation search, the subset search for
    separators, up to ``budget`` sets per variant (seconds, not milliseconds, on
    boards of 50 to 100 squares), and the flow behind the ``hall`` proof.
    """
    for finder in (find_ends_proof, find_colour_proof, find_degree_proof):
        p = finder(question)
        if p is not None:
            return p
    p = find_alternation_proof(question, search=thorough)
    if p is not None:
        return p
    p = find_separator_proof(question, thorough=thorough, budget=budget)
    if p is None:
        p = find_reduction_proof(question)
    if p is None and thorough:
        p = find_hall_proof(question)
    return p
