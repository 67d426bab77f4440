"""What the theorems say about full rectangles, with the reason in words.

Closed tours: Schwenk, "Which rectangular chessboards have a knight's tour?", Math. Mag.
64(5), 1991 -- an m x n board (m <= n) has one unless m and n are both odd, m is 1, 2 or
4, or m = 3 and n is 4, 6 or 8. Open tours: Cull & De Curtins (1978), Conrad et al.
(1994) -- one exists iff the board is 1x1, 3x4, 3xn (n >= 7), 4xn (n >= 5) or m, n >= 5.

Holed boards: the ringboard theorem (:func:`ringboard_tour`) and Miller & Farnsworth's
3 x n minus one square (:func:`three_row_minus_one_tour`); the census atlas checks its
table against both (:mod:`kt_formal.survey.atlas`).

These statements choose routes; every answer still carries a checked certificate
(a constructed tour, or a proof from :mod:`kt_formal.proofs`).

>>> rectangle_tour(4, 9, True)
(False, "Schwenk's theorem: a 4 x n board has no closed tour")
>>> rectangle_tour(4, 9, False)[0], rectangle_tour(3, 8, True)[0]
(True, False)
"""

from __future__ import annotations

__all__ = ["rectangle_tour", "ringboard_tour", "three_row_minus_one_tour"]


def rectangle_tour(rows: int, cols: int, closed: bool) -> tuple[bool, str]:
    """Whether the full rows x cols board has a closed (or open) tour, and the theorem's words."""
    m, n = sorted((rows, cols))
    if closed:
        if m % 2 == 1 and n % 2 == 1:
            return False, ("Schwenk's theorem: both sides are odd, so the board has an odd number "
                           "of squares and no closed tour")
        if m in (1, 2, 4):
            return False, f"Schwenk's theorem: a {m} x n board has no closed tour"
        if m == 3 and n in (4, 6, 8):
            return False, f"Schwenk's theorem: the 3 x {n} board has no closed tour"
        return True, "Schwenk's theorem: a closed tour exists"
    if (m, n) == (1, 1) or (m, n) == (3, 4) or (m == 3 and n >= 7) or (m == 4 and n >= 5) or m >= 5:
        return True, "an open tour exists (Cull & De Curtins 1978; Conrad et al. 1994)"
    return False, (f"the open-tour theorem (Cull & De Curtins 1978; Conrad et al. 1994): no open "
                   f"tour exists on the {m} x {n} board; open tours exist only on 1x1, 3x4, "
                   "3xn (n >= 7), 4xn (n >= 5) and m, n >= 5")


def ringboard_tour(rows: int, cols: int, r: int) -> bool:
    """Whether the (rows, cols, r)-ringboard has a closed tour.

    The ringboard is the rows x cols board without its centred (rows - 2r) x (cols - 2r)
    part (a rim r squares wide; rows, cols > 2r). W. Srichote, R. Boonklurb and
    S. Singhun, "Closed knight's tours on (m,n,r)-ringboards", Symmetry 12(8) 1217
    (2020): for rows, cols >= 3 a closed tour exists if and only if rows = cols = 3 and
    r = 1, or rows, cols >= 7 and r >= 3.

    >>> ringboard_tour(3, 3, 1), ringboard_tour(8, 8, 2), ringboard_tour(8, 9, 3)
    (True, False, True)
    """
    if not (rows > 2 * r and cols > 2 * r and r >= 1 and rows >= 3 and cols >= 3):
        raise ValueError(f"({rows}, {cols}, {r}) is not a ringboard (rows, cols >= 3 and > 2r, r >= 1)")
    return (rows == cols == 3 and r == 1) or (rows >= 7 and cols >= 7 and r >= 3)


def three_row_minus_one_tour(n: int, i: int, j: int) -> bool:
    """Whether 3 x n minus square (i, j) (1-based row i, column j) has a closed tour.

    A. Miller and D. Farnsworth, "Knight's tours on 3 x n chessboards with a single
    square removed", Open Journal of Discrete Mathematics 3 (2013) 56-59. Their
    theorem is about closed tours: one exists unless n is even; or i + j is odd; or
    n = 3 and the square is not the centre; or n = 5; or n = 7 and the square is not
    (2, 2) or (2, 6); or n = 9 and the square is one of (1, 3), (3, 3), (1, 7), (3, 7),
    (2, 4), (2, 6), (2, 2), (2, 8); or n >= 11 and the square is one of (1, 3),
    (2, 4), (3, 3), (1, n - 2), (2, n - 3), (3, n - 2).

    Copies of the abstract differ in the last clause ("n = 11" in one copy, "n >= 11"
    in others); this predicate takes "n >= 11", and the census's checked proofs on
    3 x 13 .. 3 x 16 agree with that reading.

    >>> three_row_minus_one_tour(3, 2, 2), three_row_minus_one_tour(9, 2, 2), three_row_minus_one_tour(11, 1, 1)
    (True, False, True)
    """
    if n % 2 == 0 or (i + j) % 2 == 1 or n == 5:
        return False
    if n == 3:
        return (i, j) == (2, 2)
    if n == 7:
        return (i, j) in {(2, 2), (2, 6)}
    if n == 9:
        return (i, j) not in {(1, 3), (3, 3), (1, 7), (3, 7), (2, 4), (2, 6), (2, 2), (2, 8)}
    return (i, j) not in {(1, 3), (2, 4), (3, 3), (1, n - 2), (2, n - 3), (3, n - 2)}
