"""Coverage of the margin theorem where two or more margins are 5..8: which classes need a thick piece.

Every balanced board minus a rectangular hole not within 3 x 3, at margins >= 3, with two
or more margins of 5..8, is built by the frame constructions (holes of any size at margin
five, margins of three or four, the sheared frame), by the stretch construction, by the
ring, or by stretching a *thick* base piece (:mod:`kt_formal.combine.margin_thick`). A
board's *piece class* is the class (least margins under the 8 symmetries, reduced hole
sides) of the board itself, or, when a margin is 9 or more, of its ring (each margin
M >= 9 replaced by 3 or 4 of M's parity, the rest split off as a divide rectangle).
:func:`uncovered` lists the piece classes with a board that no construction but the thick
pieces builds; :func:`check_cover` asserts that each has a thick piece and that every board
of the range is built.

>>> from kt_formal.combine.margin_cover import ring_margins
>>> ring_margins((5, 6, 3, 12))
(5, 6, 3, 4)
"""

from __future__ import annotations

import itertools
from collections import defaultdict

from kt_formal.board import Board
from kt_formal.combine.margin import margin_plan
from kt_formal.combine.margin_odd import frame_applies
from kt_formal.combine.margin_ring import THICK, ring_applies
from kt_formal.combine.margin_stretch import (PERIOD, THIN, build_all_cases, canonical_view, colours_balance,
                                              stretch_applies, verify_bases)
from kt_formal.combine.margin_thick import is_thick, thick_applies, thick_class, thick_classes, thick_plan, thick_specs
from kt_formal.exceptions import NotApplicable

__all__ = ["COVER_MARGINS", "ring_margins", "cover_cases", "built_without_thick", "uncovered", "check_cover",
           "thick_cases", "check_thick", "all_thick_classes", "build_thick"]

#: The margins of the analysis: 3..8 as they are, 9..12 for a margin of 9 or more (a
#: rectangle of 6 or 8 and a ring margin of 3 or 4).
COVER_MARGINS = tuple(range(3, 13))


def ring_margins(margins: tuple) -> tuple:
    """The ring's margins: each margin of 9 or more replaced by 3 (odd) or 4 (even)."""
    return tuple(x if x < THICK else (3 if x % 2 else 4) for x in margins)


def cover_cases(side_limit: int = 11, margins: tuple = COVER_MARGINS, ring_only: bool = False):
    """Every balanced (m, n, hole), margins from ``margins`` (least under the symmetries) with
    two or more of 5..8 (and one of 9 or more if ``ring_only``), hole sides 1..``side_limit``,
    not within 3 x 3."""
    for k in itertools.product(margins, repeat=4):
        if sum(x not in THIN and x < THICK for x in k) < 2 or canonical_view(k)[1] != k or \
                (ring_only and max(k) < THICK):
            continue
        t, b, le, r = k
        for h, w in itertools.product(range(1, side_limit + 1), repeat=2):
            m, n = t + h + b, le + w + r
            if max(h, w) >= PERIOD and colours_balance(m, n, t, le, h, w):
                yield m, n, (t, le, h, w)


def built_without_thick(board: Board, hole: tuple) -> bool:
    """Whether a construction other than the thick pieces builds the board: small holes,
    stretching, the frame constructions, or the ring around a ring that is not thick."""
    try:
        margin_plan(board.rows, board.cols, hole)
        return True
    except NotApplicable:
        pass
    r0, c0, h, w = hole
    margins = (r0, board.rows - r0 - h, c0, board.cols - c0 - w)
    return (stretch_applies(board) or frame_applies(board)
            or (ring_applies(board) and not is_thick(ring_margins(margins))))


def _piece_class(m: int, n: int, hole: tuple) -> tuple:
    """The thick class of the board, or of its ring when a margin is 9 or more."""
    r0, c0, h, w = hole
    t, b, le, r = ring_margins((r0, m - r0 - h, c0, n - c0 - w))
    return thick_class(t + h + b, le + w + r, (t, le, h, w))[1]


def _needy(side_limit: int, margins: tuple, ring_only: bool = False):
    """``(piece class, board)`` for each board of :func:`cover_cases` that only a thick piece builds."""
    for m, n, hole in cover_cases(side_limit, margins, ring_only):
        board = Board.from_spec(m, n, [hole])
        if not built_without_thick(board, hole):
            yield _piece_class(m, n, hole), board


def uncovered(side_limit: int = 11, margins: tuple = COVER_MARGINS) -> dict:
    """The piece classes with a board of :func:`cover_cases` that only a thick piece builds:
    ``{(margins, h0, w0): [board, ...]}``."""
    out: dict = defaultdict(list)
    for cls, board in _needy(side_limit, margins):
        out[cls].append(board)
    return dict(out)


def check_cover(side_limit: int = 11, margins: tuple = COVER_MARGINS, ring_only: bool = False) -> dict:
    """Every board of :func:`cover_cases` is built by some construction: those only a thick
    piece builds by :func:`~kt_formal.combine.margin_thick.thick_applies` or the ring around
    a thick ring; AssertionError naming the first board without one otherwise."""
    need = set()
    for cls, board in _needy(side_limit, margins, ring_only):
        need.add(cls)
        if not (thick_applies(board) or ring_applies(board)):
            raise AssertionError(f"{board.rows}x{board.cols} with its hole (class {cls}): no construction builds it")
    boards = sum(1 for _ in cover_cases(side_limit, margins, ring_only))
    return {"boards": boards, "classes needing a thick piece": len(need), "thick pieces": len(thick_classes())}


def thick_cases():
    """Two boards of each thick class: the base piece's own, and each window copied once
    (hole sides h0 + 4 when h0 >= 4, likewise w0)."""
    for k, h0, w0 in sorted(thick_classes()):
        t, b, le, r = k
        for h, w in {(h0, w0), (h0 + PERIOD * (h0 >= PERIOD), w0 + PERIOD * (w0 >= PERIOD))}:
            yield t + h + b, le + w + r, (t, le, h, w)


def check_thick(side_limit: int = 11, ring_side_limit: int = 7) -> dict:
    """The check of two or more margins of 5..8: every thick piece loads (checksum, tour by
    the kernel, spec, periodic windows with straight strands) and matches its class's spec;
    two boards of every thick class (:func:`thick_cases`) are built and accepted by the
    kernel; and :func:`check_cover` on margins 3..8 with hole sides 1..``side_limit`` and on
    margins 3..12 (a margin >= 9: the ring) with sides 1..``ring_side_limit``.
    AssertionError on a failure."""
    verify_bases(thick_specs())
    every = all_thick_classes(side_limit)
    missing = every - thick_classes()
    if missing:
        raise AssertionError(f"{len(missing)} of the {len(every)} thick classes have no piece, "
                             f"among them {sorted(missing)[0]}")
    tours = build_all_cases(thick_cases(), thick_plan)
    near = check_cover(side_limit, tuple(range(3, THICK)))
    far = check_cover(ring_side_limit, ring_only=True)
    return {"pieces": len(thick_specs()), "tours": tours, "boards": near["boards"], "ring boards": far["boards"],
            "classes": near["classes needing a thick piece"], "thick classes": len(every)}


def all_thick_classes(side_limit: int = 11) -> frozenset:
    """Every thick class: the piece class of every balanced board with margins 3..8 (two or
    more of 5..8) and hole sides 1..``side_limit``. Hole sides 1..7 already give every
    reduced side (:func:`~kt_formal.combine.margin_stretch.base_size` is 1..7, and a class's
    colour balance depends only on its margins and reduced sides), so the set is complete."""
    return frozenset(_piece_class(m, n, hole) for m, n, hole in cover_cases(side_limit, tuple(range(3, THICK))))


def build_thick(side_limit: int = 11, progress=print) -> list[str]:
    """Make the thick piece of every thick class (:func:`all_thick_classes`) that the library
    lacks: the stretch model (CP-SAT, one worker, the seed in the spec, 20 s a piece), written
    to the library; the manifest is rewritten.
    Returns the names built (a class without a piece is reported through ``progress``)."""
    from kt_formal.combine.library import write_manifest, write_piece
    from kt_formal.combine.margin_stretch import base_spec
    from kt_formal.combine.margin_stretch_build import build_base
    from kt_formal.exceptions import InvalidInput

    have = thick_classes()
    specs = sorted((base_spec(*c) for c in all_thick_classes(side_limit) if c not in have),
                   key=lambda spec: (spec.rows * spec.cols, spec.name))
    built = []
    for spec in specs:
        try:
            write_piece(build_base(spec, time_limit=20.0, workers=1))
        except InvalidInput as exc:
            if progress is not None:
                progress(f"no piece: {exc}")
            continue
        built.append(spec.name)
    if built:
        write_manifest()
        thick_classes.cache_clear()
    return built


if __name__ == "__main__":  # python -m kt_formal.combine.margin_cover: make the missing thick pieces
    build_thick()
