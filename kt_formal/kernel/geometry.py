"""Squares, colours and knight moves: the one definition the whole toolkit uses.

A square is ``(row, col)``, 0-based, row 0 at the top. Its colour is ``(row + col) % 2``;
a knight move always changes it. The bottom-left square (``a1`` in chess, named by
:mod:`kt_formal.claims`) is dark.

>>> colour(0, 0), colour(0, 1)
(0, 1)
>>> is_knight_move((0, 0), (1, 2)), is_knight_move((0, 0), (2, 2))
(True, False)
>>> is_dark(8, (7, 0))
True
"""

from __future__ import annotations

__all__ = ["KNIGHT_MOVES", "colour", "is_dark", "is_knight_move"]

#: The eight knight moves as (d_row, d_col), in divide and conquer's order.
KNIGHT_MOVES: tuple[tuple[int, int], ...] = (
    (-2, -1), (-1, -2), (1, -2), (2, -1), (2, 1), (1, 2), (-1, 2), (-2, 1),
)


def colour(r: int, c: int) -> int:
    """0 or 1: ``(r + c) % 2``."""
    return (r + c) % 2


def is_dark(rows: int, q) -> bool:
    """True for the squares of a1's colour on a board of ``rows`` rows."""
    return (rows - 1 - q[0] + q[1]) % 2 == 0


def is_knight_move(a, b) -> bool:
    """True when squares ``a`` and ``b`` are a knight move apart."""
    dr = a[0] - b[0]
    dc = a[1] - b[1]
    return dr * dr + dc * dc == 5

