"""The odd-area pieces of the sheared frame: blocks one square out of shape, so that two
bands of odd area beside the hole can each give or take one square.

In the class E1 of the margin-three theorem the bands left and right of the hole have odd
area whatever the corner assignment (odd height, odd width), and every rectangle of the
band above the hole has even height. No cut into rectangles with even area exists, but
a *sheared* band does: the band above the hole keeps its last row shifted one square to
the right. Its first square goes to the band on the left, and the band on the right gives
up the square under the band's last one. Four kinds of pieces do it, each a closed tour
of a block with a changed outline:

* ``margin-shear-{p}x{q}`` (p rows, q even): rows 0..p-2 of columns 0..q-1 and row p-1 of
  columns 1..q, stored on a p x (q+1) board with holes. It keeps divide's left, right and
  top ports; its bottom port is one square on, (p-1, 1)-(p-2, 3), the top port of a block
  starting one column later;
* ``margin-shear-end-{p}x{q}``: the last block of the band, whose last row is columns
  1..q-1 and which takes the square (p, q-1) below its bottom-right corner; left, top and
  the shifted bottom port;
* ``margin-bump-{p}x{q}`` (p, q odd): a p x q block with one square above its top-left
  corner (a (p+1) x q board, the block in rows 1..p); divide's bottom and right ports;
* ``margin-notch-{p}x{q}`` (p, q odd): a p x q block without its top-right corner; divide's
  left, top and bottom ports.

Each changed outline keeps the colours equal: a shifted row of even length, and an odd
x odd block with a square of the other colour added or one of its own (a corner) removed.

>>> [s.name for s in odd_piece_specs()][:2], len(odd_piece_specs())
(['margin-shear-6x6', 'margin-shear-6x8'], 63)
>>> shear_spec(6, 6).holes[-1], shear_spec(6, 6).forced[-1]
((5, 0), ((5, 1), (4, 3)))
"""

from __future__ import annotations

from kt_formal.combine.divide import port_edges
from kt_formal.combine.library import PieceSpec

__all__ = ["SHEAR_HEIGHTS", "SHEAR_WIDTHS", "ODD_SIDES", "BUMP_COL", "BUMP_JOIN", "shear_spec", "shear_first_spec",
           "shear_end_spec", "bump_spec", "notch_spec", "lane_port_spec", "bump_lane_spec", "odd_piece_specs",
           "PIECE_SPECS"]

#: Heights of a sheared band (an even margin; above 10 a plain band of blocks lies over it) and
#: widths of its blocks.
SHEAR_HEIGHTS = (6, 8, 10)
SHEAR_WIDTHS = (6, 8, 10)

#: The column of the square a bump piece takes above its block (a 5 x 5 block with a square
#: above its corner has no closed tour; above column 2 it has).
BUMP_COL = 2

#: The join of the band's first block and the bump block below it (divide's swap mirrored):
#: the first block's move (p-1, 4)-(p-2, 2) in its last two rows, and the bump piece's
#: (2, 3)-(1, 1) (the block's (1, 3)-(0, 1)); (p-1, 4)-(p+1, 3) and (p-2, 2)-(p, 1) are knight moves.
BUMP_JOIN = ((2, 3), (1, 1))


#: Sides of the odd x odd blocks that take a bump or a notch (divide's odd parts).
ODD_SIDES = (5, 7, 9)


def _spec(name: str, rows: int, cols: int, holes, forced) -> PieceSpec:
    return PieceSpec(name, rows, cols, closed=True, forced=tuple(forced), holes=tuple(sorted(holes)),
                     kind="margin-odd", seed=0)


def shear_spec(p: int, q: int) -> PieceSpec:
    """A block of the sheared band: its last row one square to the right (p x (q+1) board)."""
    e = port_edges(p, q)
    holes = [(r, q) for r in range(p - 1)] + [(p - 1, 0)]
    return _spec(f"margin-shear-{p}x{q}", p, q + 1, holes, (e["left"], e["right"], e["top"], ((p - 1, 1), (p - 2, 3))))


def shear_end_spec(p: int, q: int) -> PieceSpec:
    """The band's last block: last row 1..q-1 and the square (p, q-1) below it ((p+1) x q board)."""
    e = port_edges(p, q)
    holes = [(p - 1, 0)] + [(p, c) for c in range(q - 1)]
    return _spec(f"margin-shear-end-{p}x{q}", p + 1, q, holes, (e["left"], e["top"], ((p - 1, 1), (p - 2, 3))))


def shear_first_spec(p: int, q: int) -> PieceSpec:
    """The band's first block: its last row lacks the square (p-1, 2) and reaches column q."""
    e = port_edges(p, q)
    holes = [(r, q) for r in range(p - 1)] + [(p - 1, BUMP_COL)]
    return _spec(f"margin-shear-first-{p}x{q}", p, q + 1, holes, (e["right"], e["top"], ((p - 1, 4), (p - 2, 2))))


def bump_spec(p: int, q: int) -> PieceSpec:
    """An odd block with a square above its column 2 ((p+1) x q board, the block in rows 1..p)."""
    e = port_edges(p, q)
    down = lambda move: tuple((r + 1, c) for r, c in move)  # noqa: E731
    holes = [(0, c) for c in range(q) if c != BUMP_COL]
    return _spec(f"margin-bump-{p}x{q}", p + 1, q, holes, (down(e["right"]), down(e["bottom"]), BUMP_JOIN))


def lane_port_spec(p: int, q: int) -> PieceSpec:
    """A block (p even, q odd) holding divide's top and right ports and the *lane port*
    (p-1, 2)-(p-2, 0), where an open 4 x W lane below it, its ends at (p, 0) and (p, 1),
    is inserted: (p, 0)-(p-1, 2) and (p, 1)-(p-2, 0) are knight moves."""
    e = port_edges(p, q)
    return _spec(f"margin-lane-port-{p}x{q}", p, q, [], (e["top"], e["right"], ((p - 1, 2), (p - 2, 0))))


def bump_lane_spec(p: int, q: int) -> PieceSpec:
    """A bump piece (:func:`bump_spec`) that also holds the lane port of its block (a single band)."""
    base = bump_spec(p, q)
    return _spec(f"margin-bump-lane-{p}x{q}", base.rows, base.cols, base.holes,
                 (*base.forced, ((p, 2), (p - 1, 0))))


def notch_spec(p: int, q: int) -> PieceSpec:
    """An odd block without its top-right corner."""
    e = port_edges(p, q)
    return _spec(f"margin-notch-{p}x{q}", p, q, [(0, q - 1)], (e["left"], e["top"], e["bottom"]))


def odd_piece_specs() -> list[PieceSpec]:
    """The 63 pieces of the sheared frame: 9 shear, 9 shear-first, 9 shear-end, 9 bump, 9 notch,
    9 bump-lane and 9 lane-port pieces."""
    out = [shear_spec(p, q) for p in SHEAR_HEIGHTS for q in SHEAR_WIDTHS]
    out += [f(p, q) for f in (shear_first_spec, shear_end_spec) for p in SHEAR_HEIGHTS for q in SHEAR_WIDTHS]
    out += [f(p, q) for f in (bump_spec, notch_spec, bump_lane_spec) for p in ODD_SIDES for q in ODD_SIDES]
    out += [lane_port_spec(p, q) for p in SHEAR_WIDTHS for q in ODD_SIDES]
    return out


#: Library specs of this module (collected by :func:`kt_formal.combine.library.all_specs`).
PIECE_SPECS: list[PieceSpec] = odd_piece_specs()
