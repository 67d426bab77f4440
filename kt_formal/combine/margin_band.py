"""Margins of three and four: the frame construction with closed 3 x W strips, or an open
4 x W lane, along the hole.

A margin of 3 cannot be cut into divide's blocks (sides 5..10), but a 3 x W board has a
closed tour for every even W >= 10 (Schwenk), built from certified strip pieces by
:func:`kt_formal.combine.strips.strip_construct`. In the frame construction
(:mod:`kt_formal.combine.margin_large`, ``strips=True``) the band of each margin of 3,
with the corners the assignment gives it, is one such *strip*. A strip is joined like a
block with its ports at offset 0, because in a 3-row board the corner squares and the
squares (1, 1), (1, W-2) have exactly two knight moves: every closed tour of 3 x W holds
(1, 1)-(0, 3) (divide's top port), (2, 0)-(1, 2) (bottom port) and (0, W-1)-(2, W-2)
(right port); a 3-column strip holds their transposes (left, right and bottom ports).

A margin of 4 is one *lane* (:mod:`kt_formal.combine.margin_lanes`): an open path of the
4 x W band with both ends at its left end, inserted into the cycle of the rectangle below.

The statements (:func:`in_band_statement`, :func:`in_lane_statement`), their case
analyses and the proofs are in ``docs/theorems/margin-three.md`` (sections "Margins of
three" and "Margins of four").

>>> from kt_formal.combine.margin_large import large_plan
>>> sym, rects, tree = large_plan(24, 30, (3, 6, 14, 12))
>>> rects[0].special, len(tree) == len(rects) - 1
(('strip', 'h'), True)
"""

from __future__ import annotations

from kt_formal.combine.margin_lanes import LANE
from kt_formal.combine.margin_large import MIN_MARGIN, SYMMETRIES, transform_case

__all__ = ["BAND", "BAND_THEOREM", "LANE_THEOREM", "in_band_statement", "in_lane_statement"]

#: The margin the strip fills.
BAND = 3

#: The section of the theorem this construction proves.
BAND_THEOREM = "margin-three theorem (margins of three: 3 x W strips)"

#: The section of the theorem the lanes prove.
LANE_THEOREM = "margin-three theorem (a margin of four: open 4 x W lanes)"


def _tops(m: int, n: int, hole: tuple[int, int, int, int], top: int = BAND):
    """Margins (a, b, l, q) and sides (h, w) in every view with a margin ``top`` on top and
    none on the right (so a second one, if any, is on the left or at the bottom)."""
    for sym in SYMMETRIES:
        ms, ns, (r0, c0, h, w) = transform_case(m, n, hole, sym)
        q = ns - c0 - w
        if r0 == top and q != top:
            yield r0, ms - r0 - h, c0, q, h, w


def _margins(m: int, n: int, hole: tuple[int, int, int, int]) -> list[int] | None:
    """The four margins, sorted, when the hole's sides are >= 5 and the colours balance; else None."""
    r0, c0, h, w = hole
    if min(h, w) < MIN_MARGIN or (m * n) % 2 != (h * w) % 2 or ((m * n) % 2 and (r0 + c0) % 2):
        return None
    return sorted((r0, c0, m - r0 - h, n - c0 - w))


def _excluded(b: int, le: int, q: int, h: int, w: int) -> bool:
    """Whether one view falls in F1 to F4 (see :func:`in_band_statement`)."""
    opposite, thin_left = b == BAND, le == BAND
    b, le, q, h, w = (x % 2 for x in (b, le, q, h, w))
    return ((thin_left and (b, le, q, h, w) == (0, 1, 1, 1, 0)) or (b, le, q, h, w) == (1, 0, 0, 0, 1)
            or ((b, le, q) == (1, 1, 1) and h == w)
            or (opposite and (le, q) == (1, 1) and (h, w) != (0, 1)))


def in_band_statement(m: int, n: int, hole: tuple[int, int, int, int]) -> bool:
    """Whether the board is one the section "Margins of three" names.

    Margins of 3 on one side, or on two sides (adjacent or opposite), the others >= 5;
    hole sides h, w >= 5; colours balanced. In no view with a margin of 3 on top (a = 3;
    a second one, if any, on the left, l = 3, or at the bottom, b = 3; h the hole's height
    in that view) one of

    * (F1) b even, l = 3, q odd, h odd, w even (with l >= 5 the sheared frame builds it,
      :mod:`kt_formal.combine.margin_odd`);
    * (F2) b odd, l and q even, h even, w odd;
    * (F3) b, l and q odd, h and w of the same parity;
    * (F4) b = 3, l and q odd (with F3: unless h is even and w odd).

    >>> in_band_statement(24, 30, (3, 6, 14, 12)), in_band_statement(22, 22, (3, 3, 13, 12))
    (True, False)
    """
    margins = _margins(m, n, hole)
    if margins is None or margins[0] != BAND or margins[2] < MIN_MARGIN or BAND < margins[1] < MIN_MARGIN:
        return False
    return not any(_excluded(*view[1:]) for view in _tops(m, n, hole))


def _lane_excluded(b: int, le: int, q: int, h: int, w: int) -> bool:
    """Whether the view (the 4 on top) falls in G2 or G3 (see :func:`in_lane_statement`)."""
    odd_sides = le % 2 == 1 and q % 2 == 1
    return ((odd_sides and b == 5 and h == 5 and w % 2 == 0)
            or (le == q == 5 and b % 2 == 1 and b < 10 and h % 2 == 0 and w == 6))


def in_lane_statement(m: int, n: int, hole: tuple[int, int, int, int]) -> bool:
    """Whether the board is one the section "Margins of four" names.

    One margin 4, the others >= 5, hole sides h, w >= 5, colours balanced, and, in the
    view with the 4 on top (b below, l and q left and right, h the hole's height), not
    (the former class G1, b even, l and q odd, h odd, w even, is built by the sheared
    frame, :mod:`kt_formal.combine.margin_odd`)

    * (G2) b = 5, l and q odd, h = 5, w even;
    * (G3) b odd and < 10, l = q = 5, h even, w = 6.

    >>> in_lane_statement(24, 30, (4, 6, 14, 12)), in_lane_statement(14, 16, (4, 5, 5, 6))
    (True, False)
    """
    margins = _margins(m, n, hole)
    if margins is None or margins[0] != LANE or margins[1] < MIN_MARGIN:
        return False
    return not any(_lane_excluded(*view[1:]) for view in _tops(m, n, hole, LANE))
