"""The check of the margin-three theorem: every hole piece, every case of the cut, every tour by the kernel.

Eleven parts (:data:`PARTS`; ``--part NAME`` runs some of them), each failing loudly:

1. **pieces**: every hole piece the theorem names (:func:`~kt_formal.combine.margin_pieces.hole_piece_specs`)
   is loaded from the library, its checksum, tour (the kernel's check) and spec (holes,
   port moves) verified, and its spec compared with the one the theorem asks for;
2. **cuts**: for every hole size and all margins 3..``plan_limit`` (16), the cut
   (:func:`~kt_formal.combine.margin.margin_plan`) uses only divide's part sizes 5..10
   and a hole piece of part 1; beyond, the offsets repeat with period 2;
3. **tours**: for all margins 3..``build_limit`` (10: every branch of the offsets, the
   rest parts empty or not, both parities of the parts), the construction on the board
   they make, checked by the kernel;
4. **holes of any size, first pass** (:func:`check_large`): whether the frame cut's first
   pass (common cut points only) exists agrees within each class on two sets of
   representatives, and every covered representative is built and checked by the kernel;
5. **shift pieces** (:func:`check_shift`): the 108 shift pieces are among part 1; both
   passes on one board of every refined class (:func:`shift_class`) up to symmetry: every
   class of the statement has a cut, a second set of representatives agrees, and every
   board whose cut uses a shift piece is built and checked by the kernel.

6. **margins of 3** (:func:`check_band`): closed 3 x W strips for the margins of 3 and the
   frame around them, on one board of every class (:func:`band_classes`): every class of
   the statement has a cut, a second set of representatives agrees, and every board with
   a cut is built and checked by the kernel.

7. **a margin of 4** (:func:`check_lanes`): the open 4 x W lane along the margin of 4,
   inserted into the frame's cycle, on one board of every class (:func:`lane_classes`):
   every class of the statement has a cut, the second representatives agree, and every
   board with a cut is built and checked by the kernel.

8. **the sheared frame** (:func:`check_sheared`): the 63 odd-area pieces are among part 1;
   every view the sheared frame takes, for margins and sides up to the sizes where its
   layout repeats (:func:`sheared_cases`), is built and checked by the kernel, and every
   refined class of E1 has such a view.

9. **thin margins** (:func:`~kt_formal.combine.margin_stretch.check_stretch`): every base
   piece of the stretch construction loads (checksum, tour, spec) and is stretchable at
   each window (periodic, straight strands), and every balanced board with margins in
   {3, 4} and hole sides 1..16, or one margin of 5..8 and sides 1..12 (not within 3 x 3),
   is built and checked by the kernel.

10. **margins of 3, 4 or at least 9** (:func:`~kt_formal.combine.margin_ring.check_ring`):
   the stretched ring joined to divide rectangles, on every balanced board with margins
   3, 4, 9, 10 and at most one 6 (at least one >= 9) and hole sides 1..7 (1..5 with a 6),
   each checked by the kernel.

11. **two or more margins of 5..8** (:func:`~kt_formal.combine.margin_cover.check_thick`):
   every thick base piece loads and is stretchable at each window; two boards of every
   thick class (the piece's own, each window copied once) are built and checked by the
   kernel; and every balanced board with margins 3..8, two or more of them 5..8, and hole
   sides 1..11 (and with a margin of 9..12, sides 1..7), not within 3 x 3, is built by some
   construction (:func:`~kt_formal.combine.margin_cover.check_cover`).

``python -m kt_formal.combine.margin_check --check`` runs them all and prints the counts.

>>> check_cuts(plan_limit=9)["cuts"] > 0
True
"""

from __future__ import annotations

import itertools
import time

from kt_formal.board import Board
from kt_formal.combine.divide import PART_SIZES
from kt_formal.combine.library import load_piece
from kt_formal.combine.margin import margin_plan, margin_tour
from kt_formal.combine.margin_band import in_band_statement, in_lane_statement
from kt_formal.combine.margin_cover import check_thick
from kt_formal.combine.margin_lanes import LANE
from kt_formal.combine.margin_large import in_statement, large_plan
from kt_formal.combine.margin_odd import frame_tour, is_sheared_case, odd_tour, odd_view
from kt_formal.combine.margin_odd_pieces import odd_piece_specs
from kt_formal.combine.margin_pieces import HOLE_SIZES, hole_piece_specs, lane_cap_spec, shift_piece_specs
from kt_formal.combine.margin_ring import check_ring
from kt_formal.combine.margin_stretch import check_stretch
from kt_formal.exceptions import CertificateRejected, NotApplicable

__all__ = ["balanced", "cases", "check_pieces", "check_cuts", "check_tours", "large_cases", "check_large",
           "shift_class", "shift_classes", "check_shift", "band_classes", "check_band",
           "lane_classes", "check_lanes", "sheared_cases", "check_sheared", "PARTS", "main"]


def balanced(m: int, n: int, r0: int, c0: int, h: int, w: int) -> bool:
    """Whether the m x n board minus the h x w hole at (r0, c0) has equal colour counts (counted)."""
    light = sum((r + c) % 2 == 0 for r in range(r0, r0 + h) for c in range(c0, c0 + w))
    board_light = (m * n + 1) // 2
    return board_light - light == (m * n - board_light) - (h * w - light)


def cases(limit: int):
    """Every (m, n, (r0, c0, h, w)) with a hole of :data:`HOLE_SIZES`, margins 3..limit, colours balanced."""
    for h, w in HOLE_SIZES:
        for a, b, c, d in itertools.product(range(3, limit + 1), repeat=4):
            m, n = a + h + b, c + w + d
            if balanced(m, n, a, c, h, w):
                yield m, n, (a, c, h, w)


def check_pieces() -> list[str]:
    """Problems with the hole pieces (empty when every one loads, checks and matches its spec)."""
    bad = []
    for spec in hole_piece_specs() + shift_piece_specs() + [lane_cap_spec()] + odd_piece_specs():
        try:
            piece = load_piece(spec.name)
        except CertificateRejected as exc:
            bad.append(str(exc))
            continue
        if piece.spec != spec:
            bad.append(f"piece {spec.name}: its spec differs from the theorem's")
    return bad


def check_cuts(plan_limit: int = 16) -> dict:
    """Every cut for margins 3..plan_limit: part sizes and the hole piece; ``{"cuts": k}`` or raise."""
    names = {s.name for s in hole_piece_specs()}
    k = 0
    for m, n, hole in cases(plan_limit):
        plan = margin_plan(m, n, hole)
        rest = [*plan.row_parts[:plan.i0], *plan.row_parts[plan.i0 + plan.ni:],
                *plan.col_parts[:plan.j0], *plan.col_parts[plan.j0 + plan.nj:]]
        if any(x not in PART_SIZES for x in rest) or plan.spec.name not in names:
            raise AssertionError(f"{m}x{n} hole {hole}: a part outside {PART_SIZES} or piece {plan.spec.name}")
        if sum(plan.row_parts) != plan.rows or sum(plan.col_parts) != plan.cols:
            raise AssertionError(f"{m}x{n} hole {hole}: the parts do not add up")
        k += 1
    return {"cuts": k}


def check_tours(build_limit: int = 10, progress=None) -> dict:
    """The construction on every case with margins 3..build_limit, each tour checked by the kernel."""
    k = 0
    for m, n, hole in cases(build_limit):
        board = Board.from_spec(m, n, [hole])
        try:
            tour = margin_tour(board)
        except NotApplicable as exc:
            raise AssertionError(f"{m}x{n} hole {hole}: {exc}") from None
        problem = tour.check()
        if problem is not None or not tour.closed:
            raise AssertionError(f"{m}x{n} hole {hole}: the kernel rejects the tour: {problem}")
        k += 1
        if progress is not None and k % 1000 == 0:
            progress(k)
    return {"tours": k}


def large_cases(margins=(5, 6, 10, 11), sides=(1, 2, 5, 6)):
    """Balanced (m, n, hole) with margins from ``margins`` and hole sides from ``sides``."""
    for a, b, c, d in itertools.product(margins, repeat=4):
        for h, w in itertools.product(sides, repeat=2):
            m, n = a + h + b, c + w + d
            if balanced(m, n, a, c, h, w):
                yield m, n, (a, c, h, w)


def _large_class(m: int, n: int, hole) -> tuple:
    """What the frame cut depends on: the parities, margins >= 10, hole sides >= 5."""
    r0, c0, h, w = hole
    sides = (r0, m - r0 - h, c0, n - c0 - w)
    return (*(x % 2 for x in (*sides, h, w)), *(x >= 10 for x in sides), h >= 5, w >= 5)


def _build_checked(m: int, n: int, hole) -> None:
    """The frame construction on the board, its tour passed to the kernel; AssertionError if rejected."""
    tour = frame_tour(Board.from_spec(m, n, [hole]))
    if tour.check() is not None or not tour.closed:
        raise AssertionError(f"{m}x{n} hole {hole}: the kernel rejects the tour")


def _first_pass(m: int, n: int, hole) -> bool:
    """Whether the frame cut's first pass (frame lines, common cut points) has a cut."""
    try:
        large_plan(m, n, hole, shift=False)
    except NotApplicable:
        return False
    return True


def check_large(build: bool = True) -> dict:
    """The frame construction (holes of any size): every class covered, every statement case built.

    Two sets of representatives (margins 5, 6, 10, 11 with sides 1, 2, 5, 6; margins 7, 8,
    12, 13 with sides 3, 4, 7, 8) must agree class by class on whether a cut exists
    (the cut depends only on :func:`_large_class`); every case of the statement
    (:func:`~kt_formal.combine.margin_large.in_statement`) must have one; with ``build``,
    every covered case of the first set is built and passed to the kernel.
    """
    covered = {}
    for reps in (((5, 6, 10, 11), (1, 2, 5, 6)), ((7, 8, 12, 13), (3, 4, 7, 8))):
        for m, n, hole in large_cases(*reps):
            key, ok = _large_class(m, n, hole), _first_pass(m, n, hole)
            if covered.setdefault(key, ok) != ok:
                raise AssertionError(f"{m}x{n} hole {hole}: the cut differs within its class")
    k = 0
    for m, n, hole in large_cases() if build else ():
        if covered[_large_class(m, n, hole)]:
            _build_checked(m, n, hole)
            k += 1
    return {"classes": len(covered), "covered": sum(covered.values()), "tours": k}


#: Representatives of the refined classes (:func:`shift_class`), and a second set.
SHIFT_MARGINS, SHIFT_SIDES_REP = (5, 6, 7, 8, 10, 11), (1, 2, 3, 4, 5, 6, 7, 8)
_ALT = {"margin": {7: 9, 10: 12, 11: 13}, "side": {7: 9, 8: 10}}


def shift_class(m: int, n: int, hole) -> tuple:
    """What both passes of the frame cut depend on: margins and hole sides up to their thresholds.

    A margin counts as itself up to 6, then as 7 (odd, under 10), 8 (even, under 10),
    10 (even) or 11 (odd); a hole side as itself up to 6, then 7 (odd) or 8 (even).

    >>> shift_class(40, 41, (9, 12, 20, 3))
    (7, 11, 10, 10, 8, 3)
    """
    r0, c0, h, w = hole
    margins = [x if x < 7 else (7 + 1 - x % 2 if x < 10 else 10 + x % 2)
               for x in (r0, m - r0 - h, c0, n - c0 - w)]
    return (*margins, *(s if s < 7 else 8 - s % 2 for s in (h, w)))


def _canonical(k: tuple) -> tuple:
    """The least of a class under the board's eight symmetries (transpose, flips)."""
    a, b, le, q, h, w = k
    out = []
    for x in ((a, b, le, q, h, w), (le, q, a, b, w, h)):
        out += [(x[0], x[1], x[2], x[3], x[4], x[5]), (x[1], x[0], x[2], x[3], x[4], x[5]),
                (x[0], x[1], x[3], x[2], x[4], x[5]), (x[1], x[0], x[3], x[2], x[4], x[5])]
    return min(out)


def shift_classes(alt: bool = False):
    """One balanced board per refined class up to symmetry (holes not within 3 x 3): (m, n, hole).

    With ``alt``, the same classes from the second set of representatives.
    """
    seen = set()
    for k in itertools.product(*[SHIFT_MARGINS] * 4, *[SHIFT_SIDES_REP] * 2):
        a, b, le, q, h, w = k
        if max(h, w) <= 3 or not balanced(a + h + b, le + w + q, a, le, h, w) or _canonical(k) in seen:
            continue
        seen.add(_canonical(k))
        if alt:
            a, b, le, q = (_ALT["margin"].get(x, x) for x in (a, b, le, q))
            h, w = (_ALT["side"].get(x, x) for x in (h, w))
        yield a + h + b, le + w + q, (a, le, h, w)


def _shift_plan(m: int, n: int, hole):
    """The frame cut's tree, or None."""
    try:
        return large_plan(m, n, hole)[2]
    except NotApplicable:
        return None


def check_shift(build: bool = True, every: int = 1) -> dict:
    """Both passes of the frame cut on every refined class (up to symmetry).

    Every class of the statement (:func:`~kt_formal.combine.margin_large.in_statement`) has
    a cut; the second set of representatives agrees on every ``every``-th class; with
    ``build``, every class whose cut uses a shift piece is built and checked by the kernel.
    """
    k = covered = shifted = built = 0
    for (m, n, hole), (m2, n2, hole2) in zip(shift_classes(), shift_classes(alt=True)):
        tree = _shift_plan(m, n, hole)
        if in_statement(m, n, hole) and tree is None and odd_view(m, n, hole) is None:
            raise AssertionError(f"{m}x{n} hole {hole}: in the statement but no cut")
        if k % every == 0 and ((_shift_plan(m2, n2, hole2) is None) != (tree is None)
                               or in_statement(m2, n2, hole2) != in_statement(m, n, hole)):
            raise AssertionError(f"{m}x{n} hole {hole} and {m2}x{n2} hole {hole2}: the class disagrees")
        k += 1
        covered += tree is not None
        if tree is not None and any(j[5] is not None for j in tree):
            shifted += 1
            if build:
                _build_checked(m, n, hole)
                built += 1
    return {"classes": k, "covered": covered, "shifted": shifted, "tours": built}


#: Hole sides of the strip section's classes: a strip as long as the hole side alone needs >= 10.
BAND_SIDES = (5, 6, 7, 8, 10)


def band_classes(alt: bool = False):
    """One balanced board per class of the strip section: top margin 3, a second margin 3 on
    the left or at the bottom or none, the others from :data:`SHIFT_MARGINS`, hole sides
    :data:`BAND_SIDES` (with ``alt``, the second representatives: 9, 12, 13 and sides 9, 12)."""
    for b, le, q, h, w in itertools.product((3, *SHIFT_MARGINS), (3, *SHIFT_MARGINS), SHIFT_MARGINS,
                                            BAND_SIDES, BAND_SIDES):
        if b == le == 3:
            continue
        if alt:
            b, le, q = (_ALT["margin"].get(x, x) for x in (b, le, q))
            h, w = ({7: 9, 10: 12}.get(x, x) for x in (h, w))
        m, n = 3 + h + b, le + w + q
        if balanced(m, n, 3, le, h, w):
            yield m, n, (3, le, h, w)


def _check_section(classes, alt_classes, statement, build: bool) -> dict:
    """A section's classes: every class of ``statement`` has a cut, the second representatives
    agree, and with ``build`` every class with a cut is built and checked by the kernel."""
    k = covered = built = sheared = 0
    for (m, n, hole), (m2, n2, hole2) in zip(classes, alt_classes):
        tree, tree2 = _shift_plan(m, n, hole), _shift_plan(m2, n2, hole2)
        odd = tree is None and odd_view(m, n, hole) is not None  # the sheared frame builds it
        if statement(m, n, hole) and tree is None and not odd:
            raise AssertionError(f"{m}x{n} hole {hole}: in the statement but no cut")
        if (tree2 is None) != (tree is None) or (tree2 is None and (odd_view(m2, n2, hole2) is None) == odd) \
                or statement(m2, n2, hole2) != statement(m, n, hole):
            raise AssertionError(f"{m}x{n} hole {hole} and {m2}x{n2} hole {hole2}: the class disagrees")
        k += 1
        if tree is not None or odd:
            covered += 1
            sheared += odd
            if build:
                _build_checked(m, n, hole)
                built += 1
    return {"classes": k, "covered": covered, "sheared": sheared, "tours": built}


def check_band(build: bool = True) -> dict:
    """The strip section (one margin 3): every class of its statement has a cut, the second
    representatives agree, and with ``build`` every class with a cut is built and checked."""
    return _check_section(band_classes(), band_classes(alt=True), in_band_statement, build)


def lane_classes(alt: bool = False):
    """One balanced board per class of the lane section: top margin 4, the others from
    :data:`SHIFT_MARGINS`, hole sides 5..8 (with ``alt``, the second representatives)."""
    for b, le, q, h, w in itertools.product(SHIFT_MARGINS, SHIFT_MARGINS, SHIFT_MARGINS, *2 * [(5, 6, 7, 8)]):
        if alt:
            b, le, q = (_ALT["margin"].get(x, x) for x in (b, le, q))
            h, w = (_ALT["side"].get(x, x) for x in (h, w))
        m, n = LANE + h + b, le + w + q
        if balanced(m, n, LANE, le, h, w):
            yield m, n, (LANE, le, h, w)


def check_lanes(build: bool = True) -> dict:
    """The lane section (one margin 4): every class of its statement has a cut, the second
    representatives agree, and with ``build`` every class with a cut is built and checked."""
    return _check_section(lane_classes(), lane_classes(alt=True), in_lane_statement, build)


def sheared_cases(limit: int = 11):
    """Every view the sheared frame takes (:func:`~kt_formal.combine.margin_odd.is_sheared_case`) with
    a in {6, 8, 10, 12}, b in {3, 4, 6, 8, 12}, l, q and h odd in 5..``limit``, w in {6, 8, 12}:
    (m, n, hole).

    Beyond these sizes the layout repeats: a longer side only adds divide parts after the
    ones these boards use (a of 12 puts a plain band over a sheared band of 6; the first odd
    part of h, l and q is 5, 7 or 9, and 11 gives two parts; b and w of 12 give two parts;
    l + w - 1 and q + 1 take every split shape).
    """
    odd = range(5, limit + 1, 2)
    for a, b, le, q, h, w in itertools.product((6, 8, 10, 12), (3, 4, 6, 8, 12), odd, odd, odd, (6, 8, 12)):
        if is_sheared_case(a, b, le, q, h, w):
            yield a + h + b, le + w + q, (a, le, h, w)


def check_sheared(build: bool = True) -> dict:
    """The sheared frame: every refined class of the statement (:func:`shift_classes`) without a
    frame cut (E1) has a view it builds, and with ``build`` every board of
    :func:`sheared_cases` (E1, F1 and G1 layouts) is built and checked by the kernel."""
    e1 = 0
    for m, n, hole in shift_classes():
        if in_statement(m, n, hole) and _shift_plan(m, n, hole) is None:
            if odd_view(m, n, hole) is None:
                raise AssertionError(f"{m}x{n} hole {hole}: in the statement but no cut and no sheared frame")
            e1 += 1
    k = 0
    for m, n, hole in sheared_cases() if build else ():
        tour = odd_tour(Board.from_spec(m, n, [hole]), hole)
        if tour.check() is not None or not tour.closed:
            raise AssertionError(f"{m}x{n} hole {hole}: the kernel rejects the sheared frame's tour")
        k += 1
    return {"classes": e1, "tours": k}


def _said_pieces(bad: list, limit: int) -> str:
    total = len(hole_piece_specs()) + len(shift_piece_specs()) + 1 + len(odd_piece_specs())  # and the lane's cap
    return "\n".join([f"pieces: {total - len(bad)} of {total} (hole, shift, lane and odd-area pieces) verified"]
                     + ["  " + line for line in bad])


#: The parts of the check, in order: (name, what it runs with the build limit, what it says of
#: the result). ``--part NAME`` runs some of them; every part fails by an AssertionError.
PARTS = (
    ("pieces", lambda limit: check_pieces(), _said_pieces),
    ("cuts", lambda limit: check_cuts(),
     lambda out, limit: f"cuts: {out['cuts']} cases (margins 3..16) use part sizes {PART_SIZES} and library pieces"),
    ("tours", check_tours,
     lambda out, limit: f"tours: {out['tours']} boards (margins 3..{limit}, holes {HOLE_SIZES}) built and "
                        "accepted by the kernel"),
    ("large", lambda limit: check_large(),
     lambda out, limit: f"holes of any size, first pass: {out['covered']} of {out['classes']} classes have a "
                        f"cut; {out['tours']} boards built and accepted by the kernel"),
    ("shift", lambda limit: check_shift(),
     lambda out, limit: f"shift pieces: {out['covered']} of {out['classes']} refined classes (up to symmetry) "
                        f"have a cut, every case of the statement among them; {out['tours']} boards whose cut "
                        "uses a shift piece built and accepted by the kernel"),
    ("band", lambda limit: check_band(),
     lambda out, limit: f"margins of 3 (3 x W strips): {out['covered']} of {out['classes']} classes have a cut "
                        f"({out['sheared']} by the sheared frame), every case of the statement among them; "
                        f"{out['tours']} boards built and accepted by the kernel"),
    ("lanes", lambda limit: check_lanes(),
     lambda out, limit: f"a margin of 4 (4 x W lanes): {out['covered']} of {out['classes']} classes have a cut "
                        f"({out['sheared']} by the sheared frame), every case of the statement among them; "
                        f"{out['tours']} boards built and accepted by the kernel"),
    ("sheared", lambda limit: check_sheared(),
     lambda out, limit: f"the sheared frame: {out['classes']} refined classes of E1 without a frame cut, each "
                        f"with a sheared view; {out['tours']} layouts (E1, F1, G1) built and accepted by the kernel"),
    ("stretch", lambda limit: check_stretch(),
     lambda out, limit: f"thin margins (stretched base tours): {out['pieces']} base pieces verified, "
                        f"{out['windows']} windows periodic with straight strands; {out['tours']} boards with "
                        f"margins 3 and 4 (hole sides 1..16) and {out['thick tours']} with one margin of 5..8 "
                        "(sides 1..12) built and accepted by the kernel"),
    ("ring", lambda limit: check_ring(),
     lambda out, limit: f"margins of 3, 4 or at least 9 (a stretched ring and divide rectangles): {out['tours']} "
                        "boards (margins 3, 4, 9, 10 and at most one 6, hole sides 1..7) built and accepted by "
                        "the kernel"),
    ("thick", lambda limit: check_thick(),
     lambda out, limit: f"two or more margins of 5..8 (stretched thick pieces): {out['pieces']} pieces verified, "
                        f"one for each of the {out['thick classes']} thick classes; "
                        f"{out['tours']} boards of their classes built and accepted by the kernel; every one of "
                        f"{out['boards']} boards (margins 3..8, hole sides 1..11) and {out['ring boards']} with a "
                        f"margin of 9..12 (sides 1..7) built by some construction; {out['classes']} classes need a "
                        "thick piece, each has one"),
)


def main(argv=None) -> int:
    """``--check [--build-limit K] [--part NAME ...]``: run the checks (every part unless some
    are named); exit 0 when all pass, 1 when one fails, 2 for bad options."""
    import argparse

    names = [name for name, _, _ in PARTS]
    ap = argparse.ArgumentParser(prog="python -m kt_formal.combine.margin_check",
                                 description="Check the margin-three theorem's pieces and cases.")
    ap.add_argument("--check", action="store_true", help="check every piece, cut and case")
    ap.add_argument("--build-limit", type=int, default=10, help="largest margin built (default 10)")
    ap.add_argument("--part", action="append", choices=names, metavar="NAME",
                    help=f"run only this part (repeatable): {', '.join(names)}")
    args = ap.parse_args(argv)
    if not args.check:
        ap.print_help()
        return 2
    if not 3 <= args.build_limit <= 30:
        print("error: --build-limit must be 3..30")
        return 2
    failed = False
    for name, run, say in PARTS:
        if args.part and name not in args.part:
            continue
        t = time.perf_counter()
        try:
            out = run(args.build_limit)
        except AssertionError as exc:
            print(f"FAILED: {exc}")
            return 1
        print(f"{say(out, args.build_limit)} ({time.perf_counter() - t:.1f} s)")
        failed = failed or (name == "pieces" and bool(out))
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
