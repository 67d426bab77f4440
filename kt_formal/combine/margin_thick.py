"""Two or more margins of 5..8: stretched base tours for the classes no other construction builds.

The stretch construction (:mod:`kt_formal.combine.margin_stretch`) builds a board from a
base piece that is periodic in a 4-wide window inside the hole's rows or columns; nothing
in it needs the margins to be thin. A *thick class* is a class of boards (margins
(top, bottom, left, right) each 3..8, two or more of them 5..8, least under the board's 8
symmetries; hole sides reduced by :func:`~kt_formal.combine.margin_stretch.base_size`)
that neither the small-hole, frame, sheared-frame nor stretch constructions build on some
board of the class (:func:`kt_formal.combine.margin_cover.uncovered`). The library holds
one base piece for each thick class (``models/margin-stretch-*.json``, the same format,
model and checks as the thin ones); the thick classes are the pieces the library's
manifest lists with two or more margins of 5..8 (:func:`thick_classes`), and the check
asserts that every class the analysis finds has one.

>>> from kt_formal.board import Board
>>> t = thick_tour(Board.from_spec(12, 15, [(5, 5, 2, 5)]))
>>> t.check() is None, t.closed, len(t)
(True, True, 170)
"""

from __future__ import annotations

import functools
import json

from kt_formal.board import Board
from kt_formal.combine.library import MANIFEST, PieceSpec, models_dir
from kt_formal.combine.margin_stretch import (BASE_MARGINS, PERIOD, THIN, colours_balance, base_size, base_spec,
                                              canonical_view, plan_accepts, plan_holds, stretch_tour)
from kt_formal.exceptions import NotApplicable
from kt_formal.tours import Tour

__all__ = ["THICK_THEOREM", "is_thick", "thick_class", "thick_classes", "thick_specs", "thick_plan",
           "thick_applies", "in_thick_statement", "thick_tour", "PIECE_SPECS"]

#: The section of the theorem this construction proves.
THICK_THEOREM = "margin-three theorem (two or more margins of 5 to 8: stretched base tours)"


def is_thick(margins: tuple) -> bool:
    """Whether every margin is 3..8 and two or more are 5..8.

    >>> is_thick((3, 5, 6, 4)), is_thick((3, 5, 4, 4)), is_thick((5, 5, 5, 9))
    (True, False, False)
    """
    return all(x in BASE_MARGINS for x in margins) and sum(x not in THIN for x in margins) >= 2


def thick_class(m: int, n: int, hole: tuple[int, int, int, int]) -> tuple[tuple, tuple]:
    """The symmetry under which the board is built and its class ``(margins, h0, w0)``:
    the least margin tuple and the reduced hole sides seen under that symmetry."""
    r0, c0, h, w = hole
    sym, k = canonical_view((r0, m - r0 - h, c0, n - c0 - w))
    hs, ws = (w, h) if sym[0] else (h, w)
    return sym, (k, base_size(hs), base_size(ws))


def _class_of_name(name: str) -> tuple | None:
    """The class ``(margins, h0, w0)`` of a base piece named ``margin-stretch-TBLR-HxW-FLAGS``
    with two or more margins of 5..8, or None."""
    parts = name.split("-")
    if len(parts) != 5 or parts[:2] != ["margin", "stretch"] or len(parts[2]) != 4 or not parts[2].isdigit():
        return None
    k = tuple(int(x) for x in parts[2])
    h, _, w = parts[3].partition("x")
    if not (is_thick(k) and h.isdigit() and w.isdigit()):
        return None
    return k, int(h), int(w)


@functools.lru_cache(maxsize=None)
def thick_classes() -> frozenset:
    """The thick classes with a base piece: those the library's manifest lists."""
    try:
        entries = json.loads((models_dir() / MANIFEST).read_text(encoding="utf-8")).get("pieces", [])
    except (OSError, ValueError, AttributeError):
        return frozenset()
    names = (e.get("name", "") for e in entries if isinstance(e, dict))
    return frozenset(c for c in map(_class_of_name, names) if c is not None)


def thick_specs() -> list[PieceSpec]:
    """The base piece of each thick class (windows: rows when h0 >= 4, columns when w0 >= 4)."""
    return [base_spec(k, h, w) for k, h, w in sorted(thick_classes())]


def thick_plan(m: int, n: int, hole: tuple[int, int, int, int]) -> tuple[tuple, PieceSpec]:
    """The symmetry under which the board is built and its base piece's spec.

    Raises
    ------
    NotApplicable
        Margins not 3..8 with two or more of 5..8, unbalanced colours, a hole of at most
        3 x 3 (the small-hole theorem's), or a class without a thick piece (another
        construction builds it).
    """
    r0, c0, h, w = hole
    if not is_thick((r0, m - r0 - h, c0, n - c0 - w)):
        raise NotApplicable("the thick stretch construction needs every margin 3..8, two or more of 5..8")
    if not colours_balance(m, n, r0, c0, h, w):
        raise NotApplicable("the board minus the hole has unequal colour counts")
    if max(h, w) < PERIOD:
        raise NotApplicable("holes of at most 3 x 3 are the small-hole theorem's")
    sym, cls = thick_class(m, n, hole)
    if cls not in thick_classes():
        raise NotApplicable("no thick base piece for this class (another construction builds it)")
    return sym, base_spec(*cls)


def thick_applies(board: Board) -> bool:
    """Whether :func:`thick_tour` builds this board."""
    return plan_holds(thick_plan, board)


def in_thick_statement(m: int, n: int, hole: tuple[int, int, int, int]) -> bool:
    """Whether the board is one :func:`thick_tour` builds.

    >>> in_thick_statement(12, 15, (5, 5, 2, 5)), in_thick_statement(12, 15, (5, 5, 3, 5))
    (True, False)
    """
    return plan_accepts(thick_plan, m, n, hole)


def thick_tour(board: Board) -> Tour:
    """A closed tour of ``board`` by stretching its thick class's base piece.

    Raises
    ------
    NotApplicable
        With the reason, when the board is not one the construction covers.
    """
    return stretch_tour(board, thick_plan)


#: Library specs of this module (collected by :func:`kt_formal.combine.library.all_specs`).
PIECE_SPECS: list[PieceSpec] = thick_specs()
