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

Boards cut in two by a wide hole are the typical case: 7 x 16 minus the 3 x 6 block
at rows 2..4, columns 5..10 balances its colours, every square has two moves or more,
no small separator splits it, and CaDiCaL's DRUP proof of it runs to a million and a
half steps; 26 squares of one colour whose neighbours have room for 50 of their 52 moves
settle it. The kernel's checker (:func:`kt_formal.kernel.proofcheck.check_proof`)
recounts the neighbours and their moves; it runs no flow.

>>> from kt_formal.board import Board
>>> p = find_hall_proof(Board.from_spec(7, 16, ["2,5,3x6"]))
>>> p["method"], len(p["squares"])
('hall', 26)
>>> find_hall_proof(Board(8, 8)) is None
True
"""

from __future__ import annotations

from kt_formal.board import Board
from kt_formal.proofs.cheap import _ends, make_proof

__all__ = ["find_hall_proof", "MAX_HALL_SQUARES"]

#: Largest board (live squares) the finder runs its flow on (networkx, pure Python).
MAX_HALL_SQUARES = 5_000


def find_hall_proof(board: Board, closed: bool = True, start=None, end=None) -> dict | None:
    """Squares of one colour whose neighbours cannot take two moves each, or None.

    Only for closed tours (with or without fixed ends, which a 2-factor ignores) on
    boards of up to :data:`MAX_HALL_SQUARES` squares whose colours balance (otherwise
    the colour proof applies).
    """
    if not closed or board.n_squares > MAX_HALL_SQUARES or board.n_squares < 4:
        return None
    dark, light = board.dark_light_counts()
    if dark != light:
        return None
    import networkx as nx

    s, e = _ends(board, start, end)
    g = nx.DiGraph()
    squares = board.squares()
    for q in squares:
        if board.is_dark(*q):
            g.add_edge("source", q, capacity=2)
            for n in board.neighbours(*q):
                g.add_edge(q, n, capacity=1)
        else:
            g.add_edge(q, "sink", capacity=2)
    value, (side, _) = nx.minimum_cut(g, "source", "sink")
    if value >= 2 * dark:
        return None
    # a cut below 2|D| keeps dark squares X and light squares Y with the source, and
    # costs 2|D \ X| + (moves from X to light squares not in Y) + 2|Y|; so the room the
    # neighbours of X have, at most the last two terms, is less than 2|X| (X is not empty)
    x = sorted(q for q in side if q != "source" and board.is_dark(*q))
    return make_proof(board, "hall", True, s, e, squares=[list(q) for q in x])
