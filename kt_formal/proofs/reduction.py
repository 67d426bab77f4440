"""Finder of the forced-move proof on large boards: the moves that squares with two moves
force break the board into pieces (or contradict), so no closed tour exists.

A square with exactly two moves forces both into a closed tour; a square with two forced
moves loses its others; repeated to a fixpoint, the moves left must still hold one cycle
through every square. On a frame two squares wide round a large hole every square but a
few at the corners has two moves, the forced moves close into two or four cycles, and
the proof is a ``separator`` proof with no square removed and ``"reduced": true``, which
the kernel re-checks by the same reduction (whose functions the finder borrows) (:func:`kt_formal.kernel.proofcheck.check_proof`)
walking only the squares of the board (a board kept as its squares is named by them in
the certificate).

>>> from kt_formal.board import Board
>>> from kt_formal.question import Question
>>> p = find_reduction_proof(Question(Board.from_spec(30, 30, ["2,2,26x26"])))
>>> p["separator"], p["components"], p["reduced"]
([], 4, True)
"""

from __future__ import annotations

import numpy as np

from kt_formal.board import KNIGHT_MOVES, Board
from kt_formal.kernel.proofcheck import MAX_COMPONENT_SQUARES, MAX_REDUCED_SQUARES, components, reduce_forced
from kt_formal.livesquares import square_degrees
from kt_formal.proofs.cheap import make_proof
from kt_formal.question import Question

__all__ = ["find_reduction_proof"]


def _neighbour_sets(board: Board) -> list[set]:
    """The knight graph on the board's squares numbered in row-major order (numpy to find the
    moves, one set a square)."""
    live = board.live_indices()
    rr, cc = np.divmod(live, board.cols)
    nbrs: list[set] = [set() for _ in range(live.size)]
    for dr, dc in KNIGHT_MOVES:
        r2, c2 = rr + dr, cc + dc
        on = np.flatnonzero((r2 >= 0) & (r2 < board.rows) & (c2 >= 0) & (c2 < board.cols))
        target = r2[on] * board.cols + c2[on]
        at = np.minimum(np.searchsorted(live, target), live.size - 1)
        hit = live[at] == target
        for u, v in zip(on[hit].tolist(), at[hit].tolist()):
            nbrs[u].add(v)
    return nbrs


def find_reduction_proof(question: Question) -> dict | None:
    """No closed tour because the forced moves leave several pieces (or contradict).

    Tried on closed tours of holed boards up to the kernel's limit of squares, when at least
    half the squares have exactly two moves (else the reduction fixes little and costs
    seconds). Linear in the squares of the board, never the whole rectangle on a
    board kept as its squares.

    Returns
    -------
    dict or None
        A ``separator`` proof with no square removed and ``"reduced": true``; None also when
        the reduction contradicts itself (the separator search words that case).
    """
    board, closed = question.board, question.closed
    if not closed or not board.has_holes:
        return None  # on a full rectangle the theorems answer, and the degree proof covers thin ones
    k = board.n_squares
    extent = k if board.sparse else board.size
    if extent > min(MAX_REDUCED_SQUARES, MAX_COMPONENT_SQUARES):
        return None
    deg = square_degrees(board.rows, board.cols, board.live_indices())
    if 2 * int(np.count_nonzero(deg == 2)) < k:
        return None
    nbrs = _neighbour_sets(board)
    if not reduce_forced(nbrs):
        return None  # a square left with too few moves: a degree-style argument, worded elsewhere
    pieces = components(len(nbrs), nbrs.__getitem__, [])
    if pieces <= 1:
        return None
    return make_proof(question, "separator", separator=[], components=pieces, reduced=True)
