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

The frame construction (:mod:`kt_formal.combine.margin_large`) makes the top band of a
margin of 4 one lane; the statement is
:func:`kt_formal.combine.margin_band.in_lane_statement`, and the case analysis and the
proof are in ``docs/theorems/margin-three.md`` (section "Margins of four").

>>> order = lane_order(21)
>>> len(order), sorted(order.tolist()) == list(range(84)), divmod(int(order[0]), 21), divmod(int(order[-1]), 21)
(84, True, (3, 0), (3, 1))
"""

from __future__ import annotations

import functools

import numpy as np

from kt_formal.combine.library import load_piece
from kt_formal.combine.margin_pieces import LANE_CAP
from kt_formal.combine.strips import StripPiece, decode_paths, piece_paths

__all__ = ["LANE", "LANE_MIN", "lane_order", "lane_local"]

#: The margin the lane fills.
LANE = 4

#: The shortest lane: the left cap (3), no middle piece and the narrowest right cap (5).
LANE_MIN = 8

_CAP = StripPiece(LANE_CAP, 4, 3, (((3, 0), (2, 2)), ((1, 2), (3, 1))), kind="margin-lane")
_MIDDLE = "strip4-open-middle-4x4"


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
