"""Margin three on one side: the frame construction with a closed 3 x W strip above the hole.

A margin of 3 cannot be cut into divide's blocks (sides 5..10), but a 3 x W board has a
closed tour for every even W >= 10 (Schwenk), built from certified strip pieces by
:func:`kt_formal.combine.strips.strip_construct`. When the top margin is 3 and the others
are at least 5, the three rows above the hole become one *strip*: across the whole
board (W = n) or across the hole and the left corner (W = left margin + hole width), the
right band then taking the top-right corner from row 0. The rest is the frame below the
strip, cut as in :mod:`kt_formal.combine.margin_large` (both passes, a bottom slab in the
first). The strip is joined like a block with its port at offset 0, because a corner
square of a 3-row board has exactly two knight moves: every closed tour of 3 x W holds
(2, 0)-(1, 2) (the bottom port at column 0) and (0, W-1)-(2, W-2) (the right port at
row 0).

The statement, its case analysis and the proof are in ``docs/theorems/margin-three.md``
(section "Margin three on one side").

>>> sym, rects, tree = band_plan(24, 30, (3, 6, 14, 12))
>>> rects[0].special, len(tree) == len(rects) - 1
(('strip', 3), True)
"""

from __future__ import annotations

import numpy as np

from kt_formal.combine.margin_large import MIN_MARGIN, SYMMETRIES, Rect, _joins, _mark_special, _near, _rect, _sym

__all__ = ["BAND", "BAND_THEOREM", "band_plan", "in_band_statement", "strip_local"]

#: The margin the strip fills.
BAND = 3

#: The section of the theorem this construction proves.
BAND_THEOREM = "margin-three theorem (one margin of three: a 3 x W strip)"


def strip_local(p: Rect) -> np.ndarray:
    """Local successors (index row * W + col) of the closed 3 x W strip ``p``."""
    from kt_formal.combine.strips import strip_construct

    W = p.cols
    tour = strip_construct(BAND, W, closed=True)
    if tour is None:  # pragma: no cover - the plan asks only for even W >= 10
        raise RuntimeError(f"no closed 3 x {W} strip")
    order = np.asarray(tour.order, dtype=np.int64)
    succ = np.empty(BAND * W, dtype=np.int64)
    succ[order] = np.roll(order, -1)
    return succ


def _plan_band(m: int, n: int, hole: tuple[int, int, int, int], shifted: bool):
    """The strip and the frame below it in this orientation (top margin 3), or None."""
    r0, c0, h, w = hole
    y1, x1 = r0 + h, c0 + w
    b = m - y1
    for W in (n, x1):
        if W % 2 or W < 10:
            continue
        strip = Rect(0, 0, (BAND,), (W,), frozenset({0}), frozenset({0}), special=("strip", BAND))
        top_right = 0 if W < n else BAND
        slabs = (0, MIN_MARGIN) if b >= 2 * MIN_MARGIN and not shifted else (0,)
        for sb in slabs:
            Y1 = m - sb
            ylines, xlines = (0, BAND, y1, Y1), (0, c0, x1, n)
            if shifted:
                ylines, xlines = _near(ylines), _near(xlines)
            for bl in (True, False):
                for br in (True, False):
                    boxes = [(BAND, y1 if bl else Y1, 0, c0),            # left band
                             (top_right, y1 if br else Y1, x1, n),        # right band
                             (y1, Y1, 0 if bl else c0, n if br else x1)]  # bottom band
                    if sb:
                        boxes.append((Y1, m, 0, n))
                    rects = [_rect(*box, ylines, xlines) for box in boxes]
                    if any(r is None for r in rects):
                        continue
                    rects = [strip, *rects]
                    tree = _joins(rects, shifted)
                    if tree is not None:
                        return _mark_special(rects, tree), tree
    return None


def band_plan(m: int, n: int, hole: tuple[int, int, int, int], shift: bool = True):
    """``(sym, rects, tree)`` for a board with one margin 3 and the others >= 5, or None.

    ``rects[0]`` is the strip (``special == ("strip", 3)``), in the frame of the board
    seen under ``sym``, where the margin of 3 is on top.
    """
    for shifted in (False, True) if shift else (False,):
        for sym in SYMMETRIES:
            ms, ns, sh = _sym(m, n, hole, sym)
            r0, c0, h, w = sh
            if r0 != BAND or min(c0, ms - r0 - h, ns - c0 - w) < MIN_MARGIN:
                continue
            found = _plan_band(ms, ns, sh, shifted)
            if found is not None:
                return (sym, *found)
    return None


def _to_top(m: int, n: int, hole: tuple[int, int, int, int]) -> tuple[int, int, int, int, int, int] | None:
    """Margins (a, b, l, q) and sides (h, w) seen with the margin of 3 on top, or None."""
    for sym in SYMMETRIES:
        ms, ns, (r0, c0, h, w) = _sym(m, n, hole, sym)
        if r0 == BAND:
            return r0, ms - r0 - h, c0, ns - c0 - w, h, w
    return None


def in_band_statement(m: int, n: int, hole: tuple[int, int, int, int]) -> bool:
    """Whether the board is one the section "Margin three on one side" names.

    One margin 3 (call it a, on top), the others b (opposite), l, q >= 5, hole sides
    h, w >= 5 (h across the strip's rows), colours balanced, and none of

    * (F1) b even, l and q odd, h odd, w even;
    * (F2) b odd, l and q even, h even, w odd (no closed 3 x W strip fits: n, l + w and
      w + q are all odd);
    * (F3) b, l, q odd, unless h is even and w odd.

    >>> in_band_statement(24, 30, (3, 6, 14, 12)), in_band_statement(24, 29, (3, 6, 14, 13))
    (True, False)
    """
    r0, c0, h, w = hole
    margins = sorted((r0, c0, m - r0 - h, n - c0 - w))
    if margins[0] != BAND or margins[1] < MIN_MARGIN or min(h, w) < MIN_MARGIN:
        return False
    if (m * n) % 2 != (h * w) % 2 or ((m * n) % 2 and (r0 + c0) % 2):
        return False
    _a, b, le, q, h, w = _to_top(m, n, hole)
    b, le, q, h, w = (x % 2 for x in (b, le, q, h, w))
    f1 = (b, le, q, h, w) == (0, 1, 1, 1, 0)
    f2 = (b, le, q, h, w) == (1, 0, 0, 0, 1)
    f3 = (b, le, q) == (1, 1, 1) and (h, w) != (0, 1)
    return not (f1 or f2 or f3)
