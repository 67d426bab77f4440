"""Finder of the ``hall`` proof: no way to give every square two moves (no 2-factor).

A closed tour gives every square exactly two of its knight moves, and a knight move
joins a dark square to a light one. So the moves of a set ``X`` of squares of one
colour, two per square, all end on the neighbours of ``X``; a neighbour takes at most
two of them, and no more than it has moves into ``X``. If

    sum over neighbours y of min(2, moves from y into X)  <  2 |X|

there is not even a 2-factor (a set of cycles covering every square), let alone a
closed tour. By max-flow min-cut the converse holds too: when the colours balance and
no such ``X`` exists, a 2-factor exists. So the finder computes one maximum flow
(source -> dark squares, capacity 2; each move dark -> light, capacity 1; light
squares -> sink, capacity 2) and, when it falls short of twice the dark squares,
reads ``X`` off the minimum cut: the dark squares on the source's side.

An open tour gives its two ends one move each, and it alternates colours: with the
colours balanced one end has each colour, with one square more of a colour both ends
have that colour and none the other. So the set needs ``2 |X|`` moves less the ends that
can lie in it (1, 2 or 0; fewer when a fixed end of its colour lies outside it); the
finder tries the minimum cut's set for each colour and keeps it when the kernel's
checker accepts it.

Boards cut in two by a wide hole are the typical case: 7 x 16 minus the 3 x 6 block
at rows 2..4, columns 5..10 balances its colours, every square has two moves or more,
no small separator splits it, and CaDiCaL's DRUP proof of it runs to a million and a
half steps; 26 squares of one colour whose neighbours have room for 50 of their 52 moves
settle it. The kernel's checker (:func:`kt_formal.kernel.proofcheck.check_proof`)
recounts the neighbours and their moves; it runs no flow.

>>> from kt_formal.board import Board
>>> from kt_formal.question import Question
>>> p = find_hall_proof(Question(Board.from_spec(7, 16, ["2,5,3x6"])))
>>> p["method"], len(p["squares"])
('hall', 26)
>>> find_hall_proof(Question(Board(8, 8))) is None
True
"""

from __future__ import annotations

from kt_formal.board import Board
from kt_formal.kernel.errors import CertificateRejected
from kt_formal.claims import check_proof
from kt_formal.proofs.cheap import make_proof
from kt_formal.question import Question

__all__ = ["find_hall_proof", "MAX_HALL_SQUARES"]

#: Largest board (live squares) the finder runs its flow on (networkx, pure Python).
MAX_HALL_SQUARES = 5_000


def find_hall_proof(question: Question) -> dict | None:
    """Squares of one colour whose neighbours cannot take the moves they need, or None.

    A closed tour needs two moves a square; an open one too, less one for each of its ends
    that can lie in the set (an open tour alternates colours: with the colours balanced it
    has one end of each colour, with one square more of a colour both ends have that
    colour). Boards of up to :data:`MAX_HALL_SQUARES` squares whose colour counts leave a
    tour possible (otherwise the colour proof applies).
    """
    board, closed = question.board, question.closed
    if board.n_squares > MAX_HALL_SQUARES or board.n_squares < 4:
        return None
    dark, light = board.dark_light_counts()
    if dark != light and (closed or abs(dark - light) > 1):
        return None
    for colour_dark in (True, False):
        x = _short_set(board, colour_dark)
        if x:
            proof = make_proof(question, "hall", squares=[list(q) for q in x])
            try:  # an open tour's ends may be among the set: the checker counts them
                check_proof(proof)
            except CertificateRejected:
                continue
            return proof
        if closed:  # balanced colours: one side is short exactly when the other is
            break
    return None


def _short_set(board: Board, colour_dark: bool) -> list:
    """The squares X of one colour with the largest shortfall ``2|X| - room(X)``, or [] if none
    falls short: one maximum flow (source -> X's colour, capacity 2; each move, capacity 1;
    the other colour -> sink, capacity 2), X read off the minimum cut."""
    import networkx as nx

    g = nx.DiGraph()
    squares = board.squares()
    mine = [q for q in squares if board.is_dark(*q) == colour_dark]
    for q in squares:
        if board.is_dark(*q) == colour_dark:
            g.add_edge("source", q, capacity=2)
            for n in board.neighbours(*q):
                g.add_edge(q, n, capacity=1)
        else:
            g.add_edge(q, "sink", capacity=2)
    value, (side, _) = nx.minimum_cut(g, "source", "sink")
    if value >= 2 * len(mine):
        return []
    # a cut below 2|C| keeps squares X of this colour and Y of the other with the source,
    # and costs 2|C \ X| + (moves from X to squares not in Y) + 2|Y|; so the room the
    # neighbours of X have, at most the last two terms, is below 2|X| by at least the
    # shortfall of the whole flow (X is not empty)
    return sorted(q for q in side if q != "source" and board.is_dark(*q) == colour_dark)
