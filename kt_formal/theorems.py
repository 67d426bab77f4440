"""What the theorems say about full rectangles, with the reason in words.

Closed tours: Schwenk, "Which rectangular chessboards have a knight's tour?", Math. Mag.
64(5), 1991 -- an m x n board (m <= n) has one unless m and n are both odd, m is 1, 2 or
4, or m = 3 and n is 4, 6 or 8. Open tours: Cull & De Curtins (1978), Conrad et al.
(1994) -- one exists iff the board is 1x1, 3x4, 3xn (n >= 7), 4xn (n >= 5) or m, n >= 5.

These statements choose routes; every answer still carries a checked certificate
(a constructed tour, or a proof from :mod:`kt_formal.proofs`).

>>> rectangle_tour(4, 9, True)
(False, "Schwenk's theorem: a 4 x n board has no closed tour")
>>> rectangle_tour(4, 9, False)[0], rectangle_tour(3, 8, True)[0]
(True, False)
"""

from __future__ import annotations

__all__ = ["rectangle_tour"]


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
