"""Families of questions, and the board symmetries that let a census solve each orbit once.

A *question* is a plain tuple ``(rows, cols, holes, closed, start, end)``: the board
size, the removed squares as a sorted tuple of ``(row, col)`` pairs, whether a closed
tour is asked, and the fixed first / last square (or None). Plain tuples pickle
cheaply, so they travel to process pools and Dask workers as they are.

A *family* is every question of one kind over a range of board sizes: every set of
``K`` removed squares, every position of an ``H x W`` hole, ``S`` random sets of ``K``
holes, or the boards of a folder of ASCII masks. Every position is its own question.

Two questions are equivalent when a symmetry of the board (one that keeps its
shape: all eight :data:`~kt_formal.board.SYMMETRIES` on a square board, four on
an oblong one) maps one onto the other, holes and fixed ends included. A census
solves one question of each orbit and transforms its certificate to the others
(:func:`transform_certificate`); the transformed certificate is re-checked before
it is stored.

>>> qs = list(remove_squares(3, 4, 1))
>>> len(qs), qs[0]
(12, (3, 4, ((0, 0),), True, None, None))
>>> orbits = group_by_symmetry(qs)
>>> len(orbits), sorted(len(members) for _, members in orbits)
(4, [2, 2, 4, 4])
"""

from __future__ import annotations

import itertools
import math
import random
import re
from dataclasses import dataclass
from pathlib import Path

from kt_formal.board import SYMMETRIES, Board, transform_coords
from kt_formal.exceptions import InvalidInput, Worded

__all__ = [
    "CensusKey",
    "parse_range",
    "board_sizes",
    "Family",
    "family_questions",
    "PYTHON_WORDS",
    "COMMAND_WORDS",
    "remove_squares",
    "hole_positions",
    "rect_holes",
    "atlas_questions",
    "random_holes",
    "mask_dir",
    "shape_symmetries",
    "transform_question",
    "canonical",
    "group_by_symmetry",
    "transform_certificate",
    "TRANSFORMABLE_PROOFS",
    "MAX_QUESTIONS",
]

#: A question: (rows, cols, holes, closed, start, end); holes a sorted tuple of (row, col).
CensusKey = tuple

#: How the messages name a family's fields: the Python API's (the default) ...
PYTHON_WORDS = {"samples": "samples", "seed": "seed", "random holes": "random_holes", "atlas": "atlas",
                "rect holes": "rect_holes", "open": "closed=False", "start": "start", "end": "end",
                "mask dir": "mask_dir", "hole size": "hole_size"}
#: ... or the census command's options.
COMMAND_WORDS = {"samples": "--samples", "seed": "--seed", "random holes": "--random-holes", "atlas": "--atlas",
                 "rect holes": "--rect-holes", "open": "--open", "start": "--start", "end": "--end",
                 "mask dir": "--mask-dir", "hole size": "--hole-size"}

#: Largest family a census accepts (questions); more is refused as bad input.
MAX_QUESTIONS = 5_000_000

#: Largest board side in a census (each question is one board).
MAX_CENSUS_SIDE = 10_000

_RANGE_RE = re.compile(r"^\s*(\d+)\s*(?:\.\.\s*(\d+)\s*)?$")


def _bad(text: str) -> InvalidInput:
    """Bad input whose message names options: in Python's words, the command's when it shows it."""
    return InvalidInput(Worded(text, PYTHON_WORDS))


def parse_range(text, what: str = "size") -> list[int]:
    """A number ``7`` or an inclusive range ``3..10`` as a list of sizes.

    >>> parse_range("3..5"), parse_range("8")
    ([3, 4, 5], [8])
    >>> parse_range("5..3")
    Traceback (most recent call last):
    ...
    kt_formal.kernel.errors.InvalidInput: the size range 5..3 is empty
    """
    m = _RANGE_RE.match(str(text))
    if not m:
        raise InvalidInput(f"{what} must be a number or a range like 3..10, got {text!r}")
    lo = int(m.group(1))
    hi = int(m.group(2)) if m.group(2) is not None else lo
    if hi < lo:
        raise InvalidInput(f"the {what} range {lo}..{hi} is empty")
    if lo < 1:
        raise InvalidInput(f"{what}s must be at least 1, got {lo}")
    if hi > MAX_CENSUS_SIDE:
        raise InvalidInput(f"{what}s of at most {MAX_CENSUS_SIDE} are supported in a census, got {hi}")
    return list(range(lo, hi + 1))


def board_sizes(rows_text, cols_text) -> list[tuple[int, int]]:
    """The (rows, cols) pairs asked; with the same range for both only ``rows <= cols``.

    >>> board_sizes("3..4", "3..4")
    [(3, 3), (3, 4), (4, 4)]
    >>> board_sizes("3", "4..5")
    [(3, 4), (3, 5)]
    """
    rows = parse_range(rows_text, "row")
    cols = parse_range(cols_text, "column")
    if rows == cols:
        return [(m, n) for m in rows for n in cols if m <= n]
    return [(m, n) for m in rows for n in cols]


def _ends_ok(holes, start, end) -> bool:
    return (start is None or start not in holes) and (end is None or end not in holes)


def _count_check(n: int) -> None:
    if n > MAX_QUESTIONS:
        raise InvalidInput(f"the family has {n:,} questions; a census takes at most {MAX_QUESTIONS:,}")


def _check_end_on_board(rows: int, cols: int, sq, what: str) -> None:
    if sq is not None and not (0 <= sq[0] < rows and 0 <= sq[1] < cols):
        raise InvalidInput(f"the {what} square {tuple(sq)} lies outside the {rows}x{cols} board")


def remove_squares(rows: int, cols: int, k: int, closed: bool = True, start=None, end=None):
    """Every set of ``k`` removed squares of a rows x cols board (sets covering a fixed end skipped).

    Raises
    ------
    InvalidInput
        When ``k`` is negative or leaves no square.
    """
    total = rows * cols
    if k < 0 or k >= total:
        raise InvalidInput(f"cannot remove {k} squares of the {rows}x{cols} board "
                           f"({total} squares; at least one must stay)")
    _count_check(math.comb(total, k))
    _check_end_on_board(rows, cols, start, "start")
    _check_end_on_board(rows, cols, end, "end")
    squares = [(r, c) for r in range(rows) for c in range(cols)]
    for holes in itertools.combinations(squares, k):
        if _ends_ok(holes, start, end):
            yield (rows, cols, holes, closed, start, end)


def hole_positions(rows: int, cols: int, h: int, w: int, closed: bool = True, start=None, end=None):
    """Every position of an ``h x w`` hole (nothing when it does not fit inside the board)."""
    if h < 1 or w < 1:
        raise InvalidInput(f"a hole must be at least 1x1, got {h}x{w}")
    _check_end_on_board(rows, cols, start, "start")
    _check_end_on_board(rows, cols, end, "end")
    if h * w >= rows * cols:
        return
    for r0 in range(rows - h + 1):
        for c0 in range(cols - w + 1):
            holes = tuple((r, c) for r in range(r0, r0 + h) for c in range(c0, c0 + w))
            if _ends_ok(holes, start, end):
                yield (rows, cols, holes, closed, start, end)


def rect_holes(rows: int, cols: int, closed: bool = True, start=None, end=None):
    """Every position of every ``h x w`` hole with ``1 <= h <= rows - 2``, ``1 <= w <= cols - 2``.

    The hole never reaches across the board (a margin of at least two rows or two
    columns stays), so what is left is always one ring-like region around it. Holes
    come by size (``h``, then ``w``), then by position, row by row.

    >>> qs = list(rect_holes(4, 5))
    >>> len(qs), qs[0][2], qs[-1][2]
    (84, ((0, 0),), ((2, 2), (2, 3), (2, 4), (3, 2), (3, 3), (3, 4)))
    """
    for h in range(1, rows - 1):
        for w in range(1, cols - 1):
            yield from hole_positions(rows, cols, h, w, closed, start, end)


def rect_holes_count(rows: int, cols: int) -> int:
    """How many questions :func:`rect_holes` asks of one board (without fixed ends).

    >>> rect_holes_count(4, 5), rect_holes_count(16, 16)
    (84, 17689)
    """
    def positions(side):  # sum over hole sides s = 1..side-2 of (side - s + 1)
        return sum(side - s + 1 for s in range(1, side - 1))
    return positions(rows) * positions(cols)


def atlas_questions(sizes):
    """The atlas of holed boards over ``sizes`` (a list of (rows, cols)).

    Closed tours on every board with one rectangular hole (:func:`rect_holes`), and
    open tours on every board minus one square (:func:`remove_squares` with ``k = 1``).

    >>> qs = atlas_questions([(4, 5)])
    >>> len(qs), sum(q[3] for q in qs), sum(not q[3] for q in qs)
    (104, 84, 20)
    """
    questions: list = []
    for m, n in sizes:
        questions += rect_holes(m, n, True)
    for m, n in sizes:
        questions += remove_squares(m, n, 1, False)
    return questions


def random_holes(rows: int, cols: int, k: int, samples: int, seed: int,
                 closed: bool = True, start=None, end=None):
    """``samples`` distinct random sets of ``k`` holes (fewer when there are not that many).

    The draw depends only on ``seed`` and the board size, so a resumed census asks the
    same questions.
    """
    total = rows * cols
    if k < 0 or k >= total:
        raise InvalidInput(f"cannot remove {k} squares of the {rows}x{cols} board "
                           f"({total} squares; at least one must stay)")
    if samples < 1:
        raise _bad(f"{{samples}} must be at least 1, got {samples}")
    _count_check(samples)
    _check_end_on_board(rows, cols, start, "start")
    _check_end_on_board(rows, cols, end, "end")
    rng = random.Random(f"{seed}:{rows}x{cols}:{k}")
    fixed = {q for q in (start, end) if q is not None}
    pool = [(r, c) for r in range(rows) for c in range(cols) if (r, c) not in fixed]
    possible = math.comb(len(pool), k) if k <= len(pool) else 0
    want = min(samples, possible)
    seen = set()
    while len(seen) < want:
        holes = tuple(sorted(rng.sample(pool, k)))
        if holes not in seen:
            seen.add(holes)
            yield (rows, cols, holes, closed, start, end)


def mask_dir(directory, sizes=None, closed: bool = True, start=None, end=None):
    """The boards of the ASCII mask files in a folder (as ``kt-formal tour --mask`` reads them).

    Files are read in name order; hidden files are skipped. With ``sizes`` only boards
    of those (rows, cols) are asked.
    """
    d = Path(directory)
    if not d.is_dir():
        raise _bad(f"{{mask dir}} {d.name or directory}: not a folder")
    files = sorted(p for p in d.iterdir() if p.is_file() and not p.name.startswith("."))
    if not files:
        raise _bad(f"{{mask dir}} {d.name}: no mask files")
    wanted = None if sizes is None else set(sizes)
    for path in files:
        board = Board.from_mask_file(path)
        if wanted is not None and (board.rows, board.cols) not in wanted:
            continue
        _check_end_on_board(board.rows, board.cols, start, "start")
        _check_end_on_board(board.rows, board.cols, end, "end")
        holes = tuple(board.holes())
        if _ends_ok(holes, start, end):
            yield (board.rows, board.cols, holes, closed, start, end)


# ---------------------------------------------------------------------- symmetry
def shape_symmetries(rows: int, cols: int) -> tuple[str, ...]:
    """The symmetries that map a rows x cols board onto itself.

    >>> shape_symmetries(3, 4)
    ('identity', 'rot180', 'flip_lr', 'flip_ud')
    >>> len(shape_symmetries(5, 5))
    8
    """
    return tuple(s for s in SYMMETRIES if transform_coords(0, 0, rows, cols, s)[2:] == (rows, cols))


def _map(sq, rows: int, cols: int, sym: str):
    if sq is None:
        return None
    r, c, _, _ = transform_coords(sq[0], sq[1], rows, cols, sym)
    return (r, c)


def transform_question(q: CensusKey, sym: str) -> CensusKey:
    """The image of a question under a symmetry of its board's shape.

    >>> transform_question((3, 4, ((0, 0),), False, (0, 1), None), "rot180")
    (3, 4, ((2, 3),), False, (2, 2), None)
    """
    rows, cols, holes, closed, start, end = q
    moved = tuple(sorted(_map(h, rows, cols, sym) for h in holes))
    return (rows, cols, moved, closed, _map(start, rows, cols, sym), _map(end, rows, cols, sym))


_INVERSE = {"identity": "identity", "rot90": "rot270", "rot270": "rot90", "rot180": "rot180",
            "flip_lr": "flip_lr", "flip_ud": "flip_ud", "transpose": "transpose",
            "antitranspose": "antitranspose"}


def _order_key(q: CensusKey):
    rows, cols, holes, closed, start, end = q
    return (holes, start is not None, start or (0, 0), end is not None, end or (0, 0))


def canonical(q: CensusKey) -> tuple[CensusKey, str]:
    """The least image of ``q`` and a symmetry ``s`` with ``transform_question(rep, s) == q``."""
    rows, cols = q[0], q[1]
    best, rep = None, None
    for s in shape_symmetries(rows, cols):
        image = transform_question(q, s)
        key = _order_key(image)
        if best is None or key < best[0]:
            best, rep = (key, s), image
    return rep, _INVERSE[best[1]]


def group_by_symmetry(questions) -> list[tuple[CensusKey, list[tuple[CensusKey, str]]]]:
    """Orbits of the questions given: ``[(representative, [(question, symmetry), ...]), ...]``.

    Each member is ``transform_question(representative, symmetry)``; the orbits keep
    the order in which their first question came.
    """
    orbits: dict = {}
    for q in questions:
        rep, sym = canonical(q)
        orbits.setdefault(rep, []).append((q, sym))
    return list(orbits.items())


# ---------------------------------------------------------------------- certificates
#: Proof methods whose certificate moves with the board: the fields that hold squares.
#: Colour counts are recomputed on the image (a symmetry may swap the colours). A DRUP
#: proof moves too, its variables renamed (:func:`transform_certificate`); any other
#: method (an exhaustive record) is solved on its own board.
TRANSFORMABLE_PROOFS = {
    "ends": (),
    "colour": (),
    "degree": ("squares",),
    "separator": ("separator",),
    "alternation": ("independent",),
    "hall": ("squares",),
}


def transform_certificate(cert: dict, rows: int, cols: int, sym: str) -> dict | None:
    """The certificate of a question's image under ``sym``, or None if it cannot be moved.

    Nothing here is trusted: the caller re-checks the result with the kernel's
    checker before storing it. A tour is moved square by square; a proof of a
    method in :data:`TRANSFORMABLE_PROOFS` has its board, ends and square lists
    moved (colour counts recomputed on the image); a DRUP proof (without fixed ends,
    forced or forbidden moves) has its variables renamed and its cuts moved.
    """
    if sym == "identity":
        return cert
    kind = cert.get("kind")
    board = cert.get("board") or {}
    if board.get("rows") != rows or board.get("cols") != cols:
        return None

    def pairs(xs):
        return sorted([list(_map(tuple(x), rows, cols, sym)) for x in xs])

    if kind == "tour":
        out = dict(cert)
        out["board"] = {"rows": rows, "cols": cols, "holes": pairs(board.get("holes", []))}
        out["squares"] = [list(_map(tuple(x), rows, cols, sym)) for x in cert["squares"]]
        meta = dict(cert.get("meta") or {})
        meta["symmetry"] = sym
        out["meta"] = meta
        return out
    if kind == "drup":
        return _transform_drup(cert, rows, cols, sym)
    if kind != "proof":
        return None
    method = cert.get("method")
    if method not in TRANSFORMABLE_PROOFS:
        return None
    out = dict(cert)
    out["board"] = {"rows": rows, "cols": cols, "holes": pairs(board.get("holes", []))}
    for key in ("start", "end"):
        if cert.get(key) is not None:
            out[key] = list(_map(tuple(cert[key]), rows, cols, sym))
    for key in TRANSFORMABLE_PROOFS[method]:
        out[key] = [list(_map(tuple(x), rows, cols, sym)) for x in cert[key]]
    if method == "colour":
        image = Board(rows, cols, holes=[tuple(h) for h in out["board"]["holes"]])
        out["dark"], out["light"] = image.dark_light_counts()
    return out


def _transform_drup(cert: dict, rows: int, cols: int, sym: str) -> dict | None:
    """A DRUP certificate of the image board: its variables renamed, its cuts moved.

    The arc encoding (:mod:`kt_formal.kernel.cnf`) is built from the board alone, and a
    symmetry of the board maps the knight graph onto the image's: arc ``u -> v`` onto arc
    ``s(u) -> s(v)``, so every clause of the encoding (exactly one arc out of and into each
    node, no 2-cycle) onto a clause of the image's, and a cut "some arc leaves S" onto the
    cut of ``s(S)``. Unit propagation does not depend on the names of variables, so the
    renamed proof refutes the image's formula. The kernel checks the result anyway.
    Certificates with fixed ends, forced or forbidden moves are not moved (None).
    """
    import base64
    import zlib

    from kt_formal.engines.sat import encode_cut, encode_proof
    from kt_formal.kernel.cnf import ENCODING, arc_cnf
    from kt_formal.kernel.rup import decode_cut, decode_proof

    if (cert.get("encoding") != ENCODING or cert.get("start") is not None or cert.get("end") is not None
            or cert.get("forced") or cert.get("forbidden")):
        return None
    proof = cert.get("proof") or {}
    if proof.get("format") != "drat-binary" or proof.get("compression") != "zlib":
        return None
    try:
        closed = bool(cert["closed"])
        holes = [tuple(h) for h in cert["board"].get("holes", [])]
        moved_holes = [_map(h, rows, cols, sym) for h in holes]
        f = arc_cnf(rows, cols, holes, closed)
        g = arc_cnf(rows, cols, moved_holes, closed)
        node = [g.node_of(*_map(q, rows, cols, sym)) for q in f.squares]
        if not closed:
            node.append(g.virtual)
        var = [0] * (f.n_vars + 1)
        for u, row in enumerate(f.out_arcs):
            for v, x in row:
                y = g.arc(node[u], node[v])
                if not y:
                    return None
                var[x] = y
        raw = zlib.decompress(base64.b64decode(proof["data"]))
        steps = []
        for add, codes in decode_proof(raw, f.n_vars):
            steps.append((add, [var[c >> 1] * (-1 if c & 1 else 1) for c in codes]))
        cuts = [encode_cut(sorted(node[u] for u in decode_cut(c, f.n_nodes)), g.n_nodes)
                for c in cert.get("cuts", [])]
    except (KeyError, TypeError, ValueError, IndexError, zlib.error):
        return None
    except Exception:  # a malformed proof (the kernel's rejection): solve the image instead
        return None
    data = encode_proof(steps)
    out = dict(cert)
    out["board"] = {"rows": rows, "cols": cols, "holes": sorted([list(h) for h in moved_holes])}
    out["cuts"] = cuts
    out["proof"] = dict(proof, size=len(data),
                        data=base64.b64encode(zlib.compress(data, 9)).decode("ascii"))
    meta = dict(cert.get("meta") or {})
    meta["symmetry"] = sym
    out["meta"] = meta
    return out


@dataclass(frozen=True)
class Family:
    """A family of census questions: the board sizes and one kind of holes.

    ``rows`` and ``cols`` are a number or an inclusive range like ``"3..10"`` (the same
    range for both asks only ``rows <= cols``). Exactly one kind: ``remove_squares`` (every
    set of K removed squares), ``hole_size`` (every position of an ``"HxW"`` hole),
    ``random_holes`` (``samples`` random sets of K squares, by ``seed``), ``mask_dir`` (the
    ASCII masks of a folder), ``rect_holes`` (every rectangular hole with a margin) or
    ``atlas`` (closed tours with every rectangular hole and open tours with every single
    square removed). ``closed``, ``start`` and ``end`` say which tour is asked.

    >>> len(Family(rows=3, cols="4", remove_squares=1).questions())
    12
    """

    rows: int | str
    cols: int | str
    remove_squares: int | None = None
    hole_size: str | None = None
    random_holes: int | None = None
    mask_dir: str | None = None
    rect_holes: bool = False
    atlas: bool = False
    samples: int = 100
    seed: int = 0
    closed: bool = True
    start: object = None
    end: object = None

    def __post_init__(self):
        kinds = [self.remove_squares is not None, self.hole_size is not None, self.random_holes is not None,
                 self.mask_dir is not None, bool(self.rect_holes), bool(self.atlas)]
        if sum(kinds) != 1:
            raise InvalidInput("a census family takes exactly one of remove_squares, hole_size, random_holes, "
                               "mask_dir, rect_holes and atlas")

    def questions(self) -> list:
        """The family's questions, each once (:func:`family_questions`)."""
        return family_questions(self)


def family_questions(family: Family) -> list:
    """The questions of ``family``, each once; bad input raises InvalidInput, its message
    naming the fields in Python's words (:data:`PYTHON_WORDS`; a
    :class:`~kt_formal.exceptions.Worded` message, which the command names by
    :data:`COMMAND_WORDS`)."""
    args = family
    sizes = board_sizes(str(args.rows), str(args.cols))
    closed = bool(args.closed)

    def ends(m, n):
        probe = Board(m, n)
        s = None if args.start is None else probe.parse_square(args.start)
        e = None if args.end is None else probe.parse_square(args.end)
        return s, e

    if args.random_holes is None and (args.samples != 100 or args.seed != 0):
        raise _bad("{samples} and {seed} go with {random holes}")
    questions: list = []
    if getattr(args, "atlas", False) or getattr(args, "rect_holes", False):
        atlas = getattr(args, "atlas", False)
        if atlas and (not args.closed or args.start is not None or args.end is not None):
            raise _bad("{atlas} asks closed tours (every rectangular hole) and open tours (every "
                       "single square removed) by itself: {open}, {start} and {end} do not "
                       "go with it")
        if args.start is not None or args.end is not None:
            raise _bad("{rect holes} asks tours without fixed ends: {start} and {end} do not "
                       "go with it")
        sizes = [(m, n) for m, n in sizes if m >= 3 and n >= 3]
        if not sizes:
            raise _bad("{rect holes} and {atlas} need boards of at least 3x3 (a hole with a margin "
                       "of two rows and two columns)")
        total = sum(rect_holes_count(m, n) + (m * n if atlas else 0) for m, n in sizes)
        if total > MAX_QUESTIONS:
            raise InvalidInput(f"the family has {total:,} questions; a census takes at most {MAX_QUESTIONS:,}")
        if atlas:
            return atlas_questions(sizes)
        for m, n in sizes:
            questions += rect_holes(m, n, closed)
        return questions
    if args.mask_dir is not None:
        for m, n, holes, _, _, _ in mask_dir(args.mask_dir, sizes, closed):
            s, e = ends(m, n)  # chess names depend on the board's size
            if (s is None or s not in holes) and (e is None or e not in holes):
                questions.append((m, n, holes, closed, s, e))
        if not questions:
            raise _bad(f"{{mask dir}} {args.mask_dir}: no mask of the sizes asked")
        return questions
    if args.hole_size is not None:
        mt = re.fullmatch(r"\s*(\d+)\s*[xX]\s*(\d+)\s*", str(args.hole_size))
        if not mt:
            raise _bad("{hole size} must look like 6x6 (every position of the hole is asked), "
                       f"got {args.hole_size!r}")
        h, w = int(mt.group(1)), int(mt.group(2))
        fits = [(m, n) for m, n in sizes if h <= m and w <= n and h * w < m * n]
        if not fits:
            raise InvalidInput(f"a {h}x{w} hole does not fit inside any board asked (leaving a square)")
        sizes = fits
        total = sum((m - h + 1) * (n - w + 1) for m, n in sizes)
    else:
        k = args.remove_squares if args.remove_squares is not None else args.random_holes
        if k < 0:
            raise InvalidInput(f"K must not be negative, got {k}")
        fits = [(m, n) for m, n in sizes if k < m * n]
        if not fits:
            m, n = sizes[-1]
            raise InvalidInput(f"cannot remove {k} squares: larger than every board asked "
                               f"(the largest is {m}x{n}, {m * n} squares, and one must stay)")
        sizes = fits
        if args.remove_squares is not None:
            total = sum(math.comb(m * n, k) for m, n in sizes)
        else:
            total = args.samples * len(sizes)
    if total > MAX_QUESTIONS:
        raise InvalidInput(f"the family has {total:,} questions; a census takes at most {MAX_QUESTIONS:,}")
    for m, n in sizes:
        s, e = ends(m, n)
        if args.hole_size is not None:
            questions += hole_positions(m, n, h, w, closed, s, e)
        elif args.remove_squares is not None:
            questions += remove_squares(m, n, args.remove_squares, closed, s, e)
        else:
            questions += random_holes(m, n, args.random_holes, args.samples, args.seed, closed, s, e)
    if not questions:
        raise InvalidInput("the family has no questions (every position removes a fixed end)")
    return questions
