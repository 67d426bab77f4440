"""The hole pieces of the margin-three theorem: small holes with their surroundings, four ports each.

A *hole piece* is a closed tour of a P x Q rectangle minus an h x w hole whose top-left
square is (t, l) (the hole's *offsets*: t rows above it, l columns left of it, and
``P - t - h`` rows below, ``Q - l - w`` columns right of it, each at least 3), holding the
four port moves of :func:`kt_formal.combine.divide.port_edges`: the moves by which the
divide-and-conquer blocks join their neighbours. The margin construction
(:mod:`kt_formal.combine.margin`) cuts a board into divide blocks and one hole piece, so
the pieces needed are the finitely many (offsets, hole) a cut can leave. The offsets
come from the margins: a margin ``a`` is split as ``a = T + t`` with ``T`` the rows of
blocks above (0, or what the block sizes make: any even number from 6 for a side cut
into even parts, any number from 5 otherwise) and ``t >= 3``:

* *even* side (every part even, the hole piece's side has the board's parity):
  ``t = a`` for ``a <= 8``, else ``t = 3 or 4``, the one with ``a - t`` even: t in 3..8;
* *free* side (parts of any parity): ``t = a`` for ``a <= 7``, else 3: t in 3..7.

A hole of even area needs one even axis (rows of an even board side; the board is
transposed when its rows are odd) and one free axis; a hole of odd area (an odd x odd
board, whose colours balance only if the hole has odd area) needs both axes even and
the hole on the board's majority colour: ``t + l`` even.

The module also lists the 108 *shift pieces* of the frame construction
(:mod:`kt_formal.combine.margin_large`): closed blocks of sides 5..10 holding divide's
ports, one of them moved one square along its side (:func:`shifted_port_edges`).

>>> specs = hole_piece_specs()
>>> len(specs), specs[0].name
(2898, 'margin-1x1-7x7-at-3-3')
>>> hole_offsets(9, "even"), hole_offsets(10, "even"), hole_offsets(8, "free")
(3, 4, 3)
"""

from __future__ import annotations

from kt_formal.combine.divide import port_edges
from kt_formal.combine.library import PieceSpec

__all__ = ["HOLE_SIZES", "EVEN_OFFSETS", "FREE_OFFSETS", "SHIFT_SIDES", "hole_offsets", "hole_piece_spec",
           "hole_piece_specs", "shifted_port_edges", "shift_piece_spec", "shift_piece_specs", "LANE_CAP", "lane_cap_spec", "PIECE_SPECS"]

#: The hole sizes the library holds pieces for.
HOLE_SIZES: tuple[tuple[int, int], ...] = tuple((h, w) for h in (1, 2, 3) for w in (1, 2, 3))

#: Offsets an even side can leave, and a free side.
EVEN_OFFSETS = tuple(range(3, 9))
FREE_OFFSETS = tuple(range(3, 8))


def hole_offsets(margin: int, mode: str) -> int:
    """The offset ``t`` a margin leaves in the hole piece (see the module notes).

    ``margin - t`` is then 0 or a length the divide blocks make: even and at least 6 on
    an ``"even"`` side, at least 5 on a ``"free"`` one.
    """
    if margin < 3:
        raise ValueError(f"margin {margin} is under 3")
    if mode == "even":
        return margin if margin <= 8 else 3 + (margin - 3) % 2
    return margin if margin <= 7 else 3


def hole_piece_spec(h: int, w: int, top: int, bottom: int, left: int, right: int) -> PieceSpec:
    """The spec of the hole piece with these offsets (rows above and below, columns left and right)."""
    P, Q = top + h + bottom, left + w + right
    e = port_edges(P, Q)
    holes = tuple((top + i, left + j) for i in range(h) for j in range(w))
    return PieceSpec(f"margin-{h}x{w}-{P}x{Q}-at-{top}-{left}", P, Q, closed=True,
                     forced=(e["left"], e["right"], e["top"], e["bottom"]), holes=holes,
                     kind="margin-hole", seed=0)


def hole_piece_specs() -> list[PieceSpec]:
    """Every hole piece a cut of a board with margins >= 3 around a hole of :data:`HOLE_SIZES` can need."""
    out = []
    for h, w in HOLE_SIZES:
        odd = (h * w) % 2 == 1
        cols = EVEN_OFFSETS if odd else FREE_OFFSETS
        for t in EVEN_OFFSETS:
            for b in EVEN_OFFSETS:
                if (t + h + b) % 2 != int(odd):
                    continue
                for le in cols:
                    for r in cols:
                        if odd and ((le + w + r) % 2 == 0 or (t + le) % 2 == 1):
                            continue
                        out.append(hole_piece_spec(h, w, t, b, le, r))
    return out


#: The sides whose port a *shift piece* moves one square along its side.
SHIFT_SIDES = ("left", "right", "top", "bottom")


def shifted_port_edges(h: int, w: int, side: str) -> dict:
    """The four port moves of an h x w block whose ``side`` port lies one square further along.

    The others are divide's (:func:`~kt_formal.combine.divide.port_edges`). A shifted
    port joins a block whose neighbour's block starts one square later (or earlier) along
    the common line: the swap's squares are those of divide's swap taken one square on.

    >>> shifted_port_edges(6, 8, "top")["top"], shifted_port_edges(6, 8, "right")["right"]
    (((1, 2), (0, 4)), ((1, 7), (3, 6)))
    """
    e = dict(port_edges(h, w))
    if side not in SHIFT_SIDES:
        raise ValueError(f"side {side!r} is not one of {SHIFT_SIDES}")
    dr, dc = (0, 1) if side in ("top", "bottom") else (1, 0)
    e[side] = tuple((r + dr, c + dc) for r, c in e[side])
    return e


def shift_piece_spec(h: int, w: int, side: str) -> PieceSpec:
    """The spec of the closed h x w block with its ``side`` port shifted (:func:`shifted_port_edges`)."""
    e = shifted_port_edges(h, w, side)
    return PieceSpec(f"margin-shift-{side}-{h}x{w}", h, w, closed=True,
                     forced=(e["left"], e["right"], e["top"], e["bottom"]), kind="margin-shift", seed=0)


def shift_piece_specs() -> list[PieceSpec]:
    """A shift piece for every block shape of even area (sides 5..10) and every side: 108."""
    return [shift_piece_spec(h, w, side) for side in SHIFT_SIDES
            for h in range(5, 11) for w in range(5, 11) if (h * w) % 2 == 0]


#: The name of the left cap of a margin-4 *lane* (:mod:`kt_formal.combine.margin_lanes`).
LANE_CAP = "margin-lane-left-4x3"


def lane_cap_spec() -> PieceSpec:
    """The left cap of a lane: two paths on 4 x 3, (3, 0) -> (2, 2) and (1, 2) -> (3, 1).

    Stored as strips.py stores a two-path piece: one open tour of the 4 x 9 board whose
    three pad columns on each side are holes but for the link squares (0, 6), (2, 7),
    which join (2, 2) to (1, 2) through the right pad by forced moves; the piece sits in
    columns 3..5. The cap's ends (3, 0), (3, 1) are the lane's ends, and (2, 2), (1, 2)
    meet the open 4-row middle piece's paths A and B (``strip4-open-middle-4x4``).
    """
    pad = 3
    chain = ((2, 2 + pad), (0, 6), (2, 7), (1, 2 + pad))
    holes = tuple((r, c) for r in range(4) for c in range(3 + 2 * pad)
                  if (c < pad or c >= 3 + pad) and (r, c) not in chain)
    return PieceSpec(LANE_CAP, 4, 3 + 2 * pad, closed=False, start=(3, pad), end=(3, 1 + pad),
                     forced=tuple(zip(chain, chain[1:])), holes=holes, kind="margin-lane", seed=0)


#: Library specs of this module (collected by :func:`kt_formal.combine.library.all_specs`).
PIECE_SPECS: list[PieceSpec] = hole_piece_specs() + shift_piece_specs() + [lane_cap_spec()]
