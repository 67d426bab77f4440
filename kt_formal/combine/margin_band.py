"""Margins of three: the frame construction with closed 3 x W strips along the hole.

A margin of 3 cannot be cut into divide's blocks (sides 5..10), but a 3 x W board has a
closed tour for every even W >= 10 (Schwenk), built from certified strip pieces by
:func:`kt_formal.combine.strips.strip_construct`. In the frame construction
(:mod:`kt_formal.combine.margin_large`, ``strips=True``) the band of each margin of 3,
with the corners the assignment gives it, is one such *strip*. A strip is joined like a
block with its ports at offset 0, because in a 3-row board the corner squares and the
squares (1, 1), (1, W-2) have exactly two knight moves: every closed tour of 3 x W holds
(1, 1)-(0, 3) (divide's top port), (2, 0)-(1, 2) (bottom port) and (0, W-1)-(2, W-2)
(right port); a 3-column strip holds their transposes (left, right and bottom ports).

The statement (:func:`in_band_statement`), its case analysis and the proof are in
``docs/theorems/margin-three.md`` (section "Margins of three").

>>> from kt_formal.combine.margin_large import large_plan
>>> sym, rects, tree = large_plan(24, 30, (3, 6, 14, 12))
>>> rects[0].special, len(tree) == len(rects) - 1
(('strip', 'h'), True)
"""

from __future__ import annotations

from kt_formal.combine.margin_large import MIN_MARGIN, SYMMETRIES, transform_case

__all__ = ["BAND", "BAND_THEOREM", "in_band_statement"]

#: The margin the strip fills.
BAND = 3

#: The section of the theorem this construction proves.
BAND_THEOREM = "margin-three theorem (margins of three: 3 x W strips)"


def _tops(m: int, n: int, hole: tuple[int, int, int, int]):
    """Margins (a, b, l, q) and sides (h, w) in every view with a margin of 3 on top and none
    on the right (so a second one, if any, is on the left or at the bottom)."""
    for sym in SYMMETRIES:
        ms, ns, (r0, c0, h, w) = transform_case(m, n, hole, sym)
        q = ns - c0 - w
        if r0 == BAND and q != BAND:
            yield r0, ms - r0 - h, c0, q, h, w


def _excluded(b: int, le: int, q: int, h: int, w: int) -> bool:
    """Whether one view falls in F1 to F4 (see :func:`in_band_statement`)."""
    opposite = b == BAND
    b, le, q, h, w = (x % 2 for x in (b, le, q, h, w))
    return ((b, le, q, h, w) in ((0, 1, 1, 1, 0), (1, 0, 0, 0, 1))
            or ((b, le, q) == (1, 1, 1) and h == w)
            or (opposite and (le, q) == (1, 1) and (h, w) != (0, 1)))


def in_band_statement(m: int, n: int, hole: tuple[int, int, int, int]) -> bool:
    """Whether the board is one the section "Margins of three" names.

    Margins of 3 on one side, or on two sides (adjacent or opposite), the others >= 5;
    hole sides h, w >= 5; colours balanced. In no view with a margin of 3 on top (a = 3;
    a second one, if any, on the left, l = 3, or at the bottom, b = 3; h the hole's height
    in that view) one of

    * (F1) b even, l and q odd, h odd, w even;
    * (F2) b odd, l and q even, h even, w odd;
    * (F3) b, l and q odd, h and w of the same parity;
    * (F4) b = 3, l and q odd (with F3: unless h is even and w odd).

    >>> in_band_statement(24, 30, (3, 6, 14, 12)), in_band_statement(22, 24, (3, 5, 13, 12))
    (True, False)
    """
    r0, c0, h, w = hole
    margins = sorted((r0, c0, m - r0 - h, n - c0 - w))
    if margins[0] != BAND or margins[2] < MIN_MARGIN or min(h, w) < MIN_MARGIN:
        return False
    if BAND < margins[1] < MIN_MARGIN:
        return False
    if (m * n) % 2 != (h * w) % 2 or ((m * n) % 2 and (r0 + c0) % 2):
        return False
    return not any(_excluded(*view[1:]) for view in _tops(m, n, hole))
