"""Margins of four: the frame construction with an open 4 x W *lane* along the hole.

A 4 x W board never has a closed tour (Schwenk), so a margin of 4 holds neither divide's
blocks nor a closed strip. It holds an open one: the *lane* is a Hamiltonian path of the
4 x W band (W >= 8) whose two ends are (3, 0) and (3, 1), both at its left end, in its
last row. Out and back, as strips.py's open 4 x n: the left cap ``margin-lane-left-4x3``
(two paths, (3, 0) -> (2, 2) and (1, 2) -> (3, 1)), path A of the 4 x 4 middle piece
through every copy, a right cap of width 5..8 turning A into B, and B back:
W = 3 + 4k + t, t in 5..8. The lane is *inserted* into the cycle of the rectangle below
its left end, whose block there holds divide's top port (Y+1, x+1)-(Y, x+3): delete that
move and add (Y-1, x)-(Y+1, x+1) and (Y-1, x+1)-(Y, x+3), two knight moves. A path
inserted into a cycle at one of its moves, its ends joined to the move's ends, gives one
cycle.

The statement (:func:`in_lane_statement`), its case analysis and the proof are in
``docs/theorems/margin-three.md`` (section "Margins of four").

>>> order = lane_order(21)
>>> len(order), sorted(order.tolist()) == list(range(84)), divmod(int(order[0]), 21), divmod(int(order[-1]), 21)
(84, True, (3, 0), (3, 1))
"""

from __future__ import annotations

import functools

import numpy as np

from kt_formal.combine.library import load_piece
from kt_formal.combine.margin_large import MIN_MARGIN, SYMMETRIES, Rect, transform_case
from kt_formal.combine.margin_pieces import LANE_CAP
from kt_formal.combine.strips import StripPiece, decode_paths, piece_paths

__all__ = ["LANE", "LANE_THEOREM", "LANE_MIN", "lane_rect", "lane_order", "lane_local", "lane_views",
           "in_lane_statement"]

#: The margin the lane fills.
LANE = 4

#: The shortest lane: the left cap (3), no middle piece and the narrowest right cap (5).
LANE_MIN = 8

#: The section of the theorem this construction proves.
LANE_THEOREM = "margin-three theorem (a margin of four: open 4 x W lanes)"

_CAP = StripPiece(LANE_CAP, 4, 3, (((3, 0), (2, 2)), ((1, 2), (3, 1))), kind="margin-lane")
_MIDDLE = "strip4-open-middle-4x4"


def lane_rect(y0: int, y1: int, x0: int, x1: int) -> Rect | None:
    """The band [y0, y1) x [x0, x1) of a top margin of 4 as one lane (4 x W, W >= 8), or None.

    Its only cut point is its first row and column; it joins only the rectangle below its
    left end (:func:`lane_local`'s ends).
    """
    if y1 - y0 != LANE or x1 - x0 < LANE_MIN:
        return None
    return Rect(y0, x0, (LANE,), (x1 - x0,), frozenset({y0}), frozenset({x0}), special=("lane", "h"))


@functools.lru_cache(maxsize=None)
def _cap_paths():
    return decode_paths(_CAP, load_piece(LANE_CAP).tour)


def lane_order(width: int) -> np.ndarray:
    """The lane's path on 4 x ``width`` (indices row * width + col), from (3, 0) to (3, 1).

    Every piece is loaded (and verified) from the library; one broadcast per piece kind.
    """
    if width < LANE_MIN:
        raise ValueError(f"a lane needs a width of at least {LANE_MIN}, not {width}")
    t = 5 + (width - LANE_MIN) % 4
    k = (width - 3 - t) // 4
    (p1r, p1c), (p2r, p2c) = _cap_paths()
    (ar, ac), (br, bc) = piece_paths(_MIDDLE)
    (rr, rc), = piece_paths(f"strip4-open-right-4x{t}")
    offs = 3 + 4 * np.arange(k, dtype=np.int64)
    flat = lambda r, c: (r * width + c).astype(np.int64)  # noqa: E731
    parts = [flat(p1r, p1c), (offs[:, None] + flat(ar, ac)[None, :]).ravel(), flat(rr, rc) + 3 + 4 * k,
             (offs[::-1, None] + flat(br, bc)[None, :]).ravel(), flat(p2r, p2c)]
    return np.concatenate(parts)


def lane_local(width: int) -> np.ndarray:
    """Local successors of the lane (4 x ``width``), closed by the move (3, 1) -> (3, 0).

    That move is a knight move of no board (the squares are one apart in a row): the
    lane's join deletes it (:func:`kt_formal.combine.margin_large.large_plan`'s lane join).
    """
    order = lane_order(width)
    succ = np.empty(4 * width, dtype=np.int64)
    succ[order] = np.roll(order, -1)
    return succ


def lane_views(m: int, n: int, hole: tuple[int, int, int, int]):
    """Margins (a, b, l, q) and sides (h, w) in every view with the margin of 4 on top."""
    for sym in SYMMETRIES:
        ms, ns, (r0, c0, h, w) = transform_case(m, n, hole, sym)
        if r0 == LANE:
            yield r0, ms - r0 - h, c0, ns - c0 - w, h, w


def _excluded(b: int, le: int, q: int, h: int, w: int) -> bool:
    """Whether the view (the 4 on top) falls in G1 to G3 (see :func:`in_lane_statement`)."""
    odd_sides = le % 2 == 1 and q % 2 == 1
    return ((odd_sides and b % 2 == 0 and h % 2 == 1 and w % 2 == 0)
            or (odd_sides and b == 5 and h == 5 and w % 2 == 0)
            or (le == q == 5 and b % 2 == 1 and b < 10 and h % 2 == 0 and w == 6))


def in_lane_statement(m: int, n: int, hole: tuple[int, int, int, int]) -> bool:
    """Whether the board is one the section "Margins of four" names.

    One margin 4, the others >= 5, hole sides h, w >= 5, colours balanced, and, in the
    view with the 4 on top (b below, l and q left and right, h the hole's height), not

    * (G1) b even, l and q odd, h odd, w even;
    * (G2) b = 5, l and q odd, h = 5, w even;
    * (G3) b odd and < 10, l = q = 5, h even, w = 6.

    >>> in_lane_statement(24, 30, (4, 6, 14, 12)), in_lane_statement(23, 24, (4, 5, 13, 12))
    (True, False)
    """
    r0, c0, h, w = hole
    margins = sorted((r0, c0, m - r0 - h, n - c0 - w))
    if margins[0] != LANE or margins[1] < MIN_MARGIN or min(h, w) < MIN_MARGIN:
        return False
    if (m * n) % 2 != (h * w) % 2 or ((m * n) % 2 and (r0 + c0) % 2):
        return False
    return not any(_excluded(*view[1:]) for view in lane_views(m, n, hole))
