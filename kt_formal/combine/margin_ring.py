"""Margins of 3, 4 or at least 9 (and one of 5..8): a stretched ring joined to divide
rectangles at its corners.

A margin M >= 9 is split as M = K + r with K even and >= 6 and r = 3 or 4 (the one of M's
parity). The K rows (or columns) along that edge become a *rectangle* tiled by divide's
blocks (:func:`kt_formal.combine.divide.assemble`: sides 5..10, a closed port piece each):
full height on the left and right, the ring's width above and below. What is left, the
*ring*, has every margin 3 or 4 (but the one of 5..8, if any) and is built by stretching
(:mod:`kt_formal.combine.margin_stretch`); a ring with two or more margins of 5..8 is
built by a thick piece (:mod:`kt_formal.combine.margin_thick`) where its class has one.

Each rectangle is joined to the ring by one 2-move swap at a corner of the ring. A corner
square of the ring has exactly two knight moves inside it, so every closed tour of the
ring holds both. The top-right corner's move (T, X-1)-(T+2, X-2) is divide's right port
at row T; the bottom-left corner's move (Y-1, L)-(Y-2, L+2) is its bottom port at column
L. The top-left corner's two moves are the mirror images of a right port and of a bottom
port, so the rectangles on the left and above are assembled and then mirrored (left to
right, top to bottom): their ports facing the ring are then the mirror images of divide's
left and top ports, and the swap is the mirror image of divide's. Every rectangle has a
block starting on the ring's first row (left and right: a cut of its rows at T) or
column (above and below: its first column), whose port faces the ring unused.

>>> from kt_formal.board import Board
>>> t = ring_tour(Board.from_spec(32, 27, ["3,12,20x6"]))
>>> t.check() is None, t.closed, len(t)
(True, True, 744)
"""

from __future__ import annotations

import numpy as np

from kt_formal.board import Board, ensure_memory
from kt_formal.combine.divide import assemble, split_side
from kt_formal.combine.frame_large import the_hole
from kt_formal.combine.margin_large import oriented_tour, reverse_cycle, swap_join
from kt_formal.combine.margin_stretch import (in_stretch_statement, plan_accepts, plan_holds, stretch_applies,
                                              stretch_cases, stretch_tour)
from kt_formal.combine.margin_thick import in_thick_statement, thick_plan
from kt_formal.combine.walk import estimate_bytes
from kt_formal.exceptions import NotApplicable
from kt_formal.tours import Tour

__all__ = ["RING_THEOREM", "THICK", "ring_split", "ring_applies", "in_ring_statement", "ring_tour", "ring_cases",
           "check_ring"]

#: The section of the theorem this construction proves.
RING_THEOREM = "margin-three theorem (margins of 3, 4 or at least 9: a stretched ring and divide rectangles)"

#: The least margin split into a rectangle and a margin of 3 or 4.
THICK = 9


def _cut(margin: int) -> int:
    """The rectangle's thickness K a margin leaves (0 for a margin under 9): even, >= 6."""
    return 0 if margin < THICK else margin - (3 if margin % 2 else 4)


def ring_split(m: int, n: int, hole: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
    """The rectangles' thicknesses (top, bottom, left, right) for the board, 0 where the margin is 3 or 4.

    Raises
    ------
    NotApplicable
        A margin under 3; none >= 9; or a ring neither the stretch construction nor a thick piece
        (:mod:`kt_formal.combine.margin_thick`: two or more margins of 5..8) builds.
    """
    r0, c0, h, w = hole
    margins = (r0, m - r0 - h, c0, n - c0 - w)
    if min(margins) < 3:
        raise NotApplicable("the ring construction needs every margin to be at least 3")
    if max(margins) < THICK:
        raise NotApplicable("no margin is 9 or more: the stretch construction's board")
    T, B, L, R = (_cut(x) for x in margins)
    ring = (m - T - B, n - L - R, (r0 - T, c0 - L, h, w))
    if not (in_stretch_statement(*ring) or in_thick_statement(*ring)):
        raise NotApplicable("the ring is not one the stretch constructions build (two margins of 5..8 in a class "
                            "without a thick piece, colours, or a hole within 3 x 3)")
    return T, B, L, R


def ring_applies(board: Board) -> bool:
    """Whether :func:`ring_tour` builds this board."""
    return plan_holds(ring_split, board)


def in_ring_statement(m: int, n: int, hole: tuple[int, int, int, int]) -> bool:
    """Whether the board is one the section "Margins of 3, 4 or at least 9" names (every margin
    3, 4 or >= 9 but at most one, which may be 5..8; at least one >= 9; colours balanced;
    the hole not within 3 x 3), or one whose ring is a thick class with a piece (section
    "Two or more margins of 5 to 8").

    >>> in_ring_statement(32, 27, (3, 12, 20, 6)), in_ring_statement(30, 27, (3, 8, 19, 7))
    (True, False)
    """
    return plan_accepts(ring_split, m, n, hole)


def _parts(length: int) -> list[int]:
    """Divide parts making ``length`` >= 5 (even parts when it is even)."""
    return [length] if length <= 10 else split_side(length, length % 2 == 1)


def _place(succ: np.ndarray, n: int, y0: int, x0: int, rows: list, cols: list, flip: str | None) -> np.ndarray:
    """Assemble the rectangle ``rows x cols`` (parts), mirror it (``"h"``: left to right, ``"v"``:
    top to bottom), put it at (y0, x0) in ``succ``; returns its squares (board indices)."""
    ms, ns = sum(rows), sum(cols)
    local = assemble(rows, cols)
    r, c = np.divmod(np.arange(ms * ns, dtype=np.int64), ns)
    sr, sc = np.divmod(local.astype(np.int64), ns)
    if flip == "h":
        c, sc = ns - 1 - c, ns - 1 - sc
    elif flip == "v":
        r, sr = ms - 1 - r, ms - 1 - sr
    squares = (r + y0) * n + c + x0
    succ[squares] = (sr + y0) * n + sc + x0
    return squares


def _join(succ: np.ndarray, n: int, moves, part: np.ndarray) -> None:
    """The swap ``moves = (a1, a2, b1, b2)`` (squares as (row, col)), reversing ``part`` if needed."""
    a1, a2, b1, b2 = (r * n + c for r, c in moves)
    if not swap_join(succ, a1, a2, b1, b2):
        reverse_cycle(succ, part)
        if not swap_join(succ, a1, a2, b1, b2):  # pragma: no cover - a port or corner move missing: a bug
            raise RuntimeError(f"ring construction: no moves for the join {moves}")


def _ring_succ(m: int, n: int, hole: tuple[int, int, int, int], split: tuple) -> np.ndarray:
    """Successor array of the tour: the ring, then each rectangle joined at a corner of the ring."""
    T, B, L, R = split
    r0, c0, h, w = hole
    mr, nr = m - T - B, n - L - R
    ring_board = Board.from_spec(mr, nr, [(r0 - T, c0 - L, h, w)])
    ring = stretch_tour(ring_board, None if stretch_applies(ring_board) else thick_plan).order.astype(np.int64)
    ring = (ring // nr + T) * n + ring % nr + L
    succ = np.full(m * n, -1, dtype=np.int64)
    succ[ring] = np.roll(ring, -1)
    Y, X = T + mr, L + nr
    if R:  # the ring's top-right corner holds divide's right port at row T
        part = _place(succ, n, 0, X, _parts(T) + _parts(m - T) if T else _parts(m), _parts(R), None)
        _join(succ, n, ((T, X - 1), (T + 2, X - 2), (T + 1, X + 1), (T + 3, X)), part)
    if B:  # the bottom-left corner: divide's bottom port at column L
        part = _place(succ, n, Y, L, _parts(B), _parts(nr), None)
        _join(succ, n, ((Y - 1, L), (Y - 2, L + 2), (Y + 1, L + 1), (Y, L + 3)), part)
    if L:  # the top-left corner, mirrored left to right
        part = _place(succ, n, 0, 0, _parts(T) + _parts(m - T) if T else _parts(m), _parts(L), "h")
        _join(succ, n, ((T, L), (T + 2, L + 1), (T + 1, L - 2), (T + 3, L - 1)), part)
    if T:  # the top-left corner, mirrored top to bottom
        part = _place(succ, n, 0, L, _parts(T), _parts(nr), "v")
        _join(succ, n, ((T, L), (T + 1, L + 2), (T - 2, L + 1), (T - 1, L + 3)), part)
    return succ


def ring_tour(board: Board) -> Tour:
    """A closed tour of ``board`` (one hole, every margin 3, 4 or >= 9 but at most one of 5..8,
    or a ring with a thick piece; at least one >= 9, colours balanced, not within 3 x 3).

    Raises
    ------
    NotApplicable
        With the reason, when the board is not one the construction covers.

    Notes
    -----
    Linear in the board: the stretched ring, at most four divide assemblies, four swaps, one walk.
    """
    hole = the_hole(board, "ring construction")
    m, n = board.rows, board.cols
    split = ring_split(m, n, hole)
    ensure_memory(estimate_bytes(m, n, 24.0), f"the ring construction on {m}x{n}")
    return oriented_tour(board, _ring_succ(m, n, hole, split), m, n, (False, False, False))


#: The margins of the check: 3 and 4 as they are, 9 and 10 for a rectangle (K = 6) and a
#: ring margin of 3 or 4; 6 for the ring's one margin of 5..8.
RING_MARGINS = (3, 4, 6, 9, 10)


def ring_cases(side_limit: int = 7, thick_side_limit: int = 5):
    """Every balanced (m, n, hole) with margins in :data:`RING_MARGINS`, at most one 6 and
    at least one >= 9, and hole sides 1..``side_limit`` (1..``thick_side_limit`` with a 6),
    not within 3 x 3."""
    for m, n, hole in stretch_cases(side_limit, RING_MARGINS, 4):
        r0, c0, h, w = hole
        margins = (r0, m - r0 - h, c0, n - c0 - w)
        sixes = margins.count(6)
        if max(margins) >= THICK and sixes <= 1 and (not sixes or max(h, w) <= thick_side_limit):
            yield m, n, hole


def check_ring(side_limit: int = 7, thick_side_limit: int = 5) -> dict:
    """The ring section's check: every case of :func:`ring_cases` is in the statement, built,
    and passed to the kernel; AssertionError on a failure."""
    k = 0
    for m, n, hole in ring_cases(side_limit, thick_side_limit):
        if not in_ring_statement(m, n, hole):
            raise AssertionError(f"{m}x{n} hole {hole}: not in the ring statement")
        tour = ring_tour(Board.from_spec(m, n, [hole]))
        problem = tour.check()
        if problem is not None or not tour.closed:
            raise AssertionError(f"{m}x{n} hole {hole}: the kernel rejects the tour: {problem}")
        k += 1
    return {"tours": k}
