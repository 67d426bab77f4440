"""Checkers of impossibility proofs: each recomputes its claim from the board and the knight rule.

A proof certificate (``kind: "proof"``) names the board, closed or open, the fixed ends,
a ``method`` and the method's evidence. Nothing the finder computed is trusted: the
colour counts, the degrees, the independence of a set, the components left by a
separator are all computed again here. Each checker returns its evidence as data, a tuple
of the method and the figures it computed (squares as ``(row, col)``); the claim is
returned as data too (:class:`Claim`, every field checked), and :mod:`kt_formal.claims`
words both.

Methods (the finders are in :mod:`kt_formal.proofs`):

* ``ends``: fixed ends no tour of the kind can have;
* ``colour``: a knight alternates colours, so the colour counts (and the ends' colours)
  must fit;
* ``degree``: a square with fewer than two moves (closed), or too many squares with one;
* ``alternation``: Posa's argument: an independent set of half the squares, of both colours;
* ``hall``: squares of one colour whose neighbours cannot take the two moves each of them
  needs (less the ends of an open tour that can lie among them; for a closed tour,
  Hall's condition for a 2-factor fails);
* ``separator``: removing k squares leaves more components than a tour cut at k squares
  can have (optionally after fixing the moves forced by squares with two moves).

``exhaustive`` records name the engine that searched; the kernel runs no search, so
they are refused as not checked (``kt-formal verify --replay`` re-runs that engine).

>>> d = {"format": "kt-formal/1", "kind": "proof", "method": "colour",
...      "board": {"rows": 5, "cols": 5, "holes": []}, "closed": True,
...      "start": None, "end": None, "dark": 13, "light": 12}
>>> check_proof(d).evidence
('colour', 13, 12)
"""

from __future__ import annotations

from collections import deque
from typing import NamedTuple

from kt_formal.kernel.errors import CertificateNotChecked, Worded
from kt_formal.kernel.geometry import KNIGHT_MOVES
from kt_formal.kernel.shape import FORMAT, Shape, read_header, reject, square_from, strict_int

__all__ = ["Claim", "check_proof", "hall_ends", "hall_counts", "FORMAT", "FIELDS", "MAX_COMPONENT_SQUARES",
           "MAX_REDUCED_SQUARES", "colour_refutes", "separator_bound", "components", "reduce_forced"]

FIELDS = {
    "ends": (),
    "colour": ("dark", "light"),
    "degree": ("squares", "degrees"),
    "separator": ("separator", "components", "reduced", "virtual"),
    "alternation": ("independent",),
    "hall": ("squares",),
    "exhaustive": ("engine", "nodes", "pruning"),
}
#: Largest board whose components the separator check counts (squares, about 60 bytes each).
MAX_COMPONENT_SQUARES = 1_000_000
#: Largest board the forced-move reduction is re-run on (squares, about 600 bytes each).
MAX_REDUCED_SQUARES = 250_000


def colour_refutes(dark: int, light: int, closed: bool, ends_dark: list) -> bool:
    """True when the colour counts (and the colours of the fixed ends) rule the tour out."""
    if closed:
        return dark != light
    if abs(dark - light) > 1:
        return True
    if dark == light:
        return len(ends_dark) == 2 and ends_dark[0] == ends_dark[1]
    majority_dark = dark > light
    return any(d != majority_dark for d in ends_dark)


def separator_bound(closed: bool, size: int, ends_in_s: int) -> int:
    """Most pieces a tour cut at ``size`` squares can fall into."""
    return max(size, 1) if closed else size + 1 - ends_in_s


def _square_list(d, key, shape: Shape, nonempty: bool = False) -> list:
    x = d.get(key)
    if not isinstance(x, list):
        reject(f"'{key}' must be a list of [row, col] pairs")
    if len(x) > shape.n_squares:
        reject(f"'{key}' lists {len(x)} squares; the board has {shape.n_squares}")
    out = [square_from(v, f"{key}[{i}]", shape) for i, v in enumerate(x)]
    if len(set(out)) != len(out):
        reject(f"'{key}' lists a square twice")
    if nonempty and not out:
        reject(f"'{key}' is empty")
    return out


class Claim(NamedTuple):
    """What a checked certificate establishes, as data (worded by :mod:`kt_formal.claims`).

    A ``tour`` shows that the tour exists (``start`` and ``end``: its first and last squares);
    a ``proof`` or a ``drup`` that none exists (``start`` and ``end``: the fixed ends, or
    None). ``evidence``: a proof's figures as its checker computed them (``(method, ...)``,
    worded by :func:`kt_formal.claims.describe_evidence`); a drup's ``lemmas``, ``cuts``,
    ``forced`` and ``forbidden`` moves.
    """

    kind: str
    shape: Shape
    closed: bool
    start: tuple | None = None
    end: tuple | None = None
    evidence: tuple = ()
    lemmas: int = 0
    cuts: int = 0
    forced: int = 0
    forbidden: int = 0


def check_proof(d) -> Claim:
    """Re-check a proof dict from scratch; return the claim it establishes.

    Raises
    ------
    CertificateRejected
        With the reason, for anything that does not establish the claim.
    CertificateNotChecked
        For an ``exhaustive`` record (it could only be confirmed by a search).
    """
    method = d.get("method") if isinstance(d, dict) else None
    if not isinstance(method, str) or method not in FIELDS:
        reject(f"unknown proof method {method!r:.40}")
    optional = ("reduced", "virtual") if method == "separator" else ()
    fields = [f for f in ("method", "start", "end", *FIELDS[method]) if f not in optional]
    shape, closed, start, end = read_header(d, "proof", fields, optional, squares=True)
    if method == "exhaustive":
        exc = CertificateNotChecked(Worded(f"NOT CHECKED: the claim rests on a search by the {d.get('engine')!r:.40} "
                                           "engine; the kernel runs no search ({replay} re-runs it)",
                                           {"replay": "verify(..., replay=True)"}))
        exc.claim = Claim("proof", shape, closed, start, end)
        raise exc
    return Claim("proof", shape, closed, start, end, _CHECKERS[method](d, shape, closed, start, end))


def _check_ends(d, shape, closed, start, end) -> tuple:
    if start is None or end is None:
        reject("an ends proof needs both a start and an end")
    if closed:
        if (start[0] - end[0]) ** 2 + (start[1] - end[1]) ** 2 == 5:
            reject("the end is a knight move from the start, so a closed tour can join them")
        return ("ends",)
    if start != end:
        reject("the start and the end differ, which an open tour allows")
    if shape.n_squares < 2:
        reject("a one-square board has an open tour that starts and ends on its square")
    return ("ends",)


def _check_colour(d, shape, closed, start, end) -> tuple:
    dark, light = shape.dark_light()
    if (strict_int(d["dark"], "'dark'"), strict_int(d["light"], "'light'")) != (dark, light):
        reject(f"the board has {dark} dark and {light} light squares, not {d['dark']} and {d['light']}")
    ends_dark = [shape.dark(q) for q in (start, end) if q is not None]
    if not colour_refutes(dark, light, closed, ends_dark):
        reject(f"{dark} dark and {light} light squares do not rule out the tour")
    return ("colour", dark, light)


def _check_degree(d, shape, closed, start, end) -> tuple:
    squares = _square_list(d, "squares", shape, nonempty=True)
    claimed = d["degrees"]
    if not isinstance(claimed, list) or len(claimed) != len(squares):
        reject("'degrees' must list one degree per square")
    degs = [len(shape.moves(q)) for q in squares]
    for q, c, real in zip(squares, claimed, degs):
        if type(c) is not int or c != real:
            reject(f"square {list(q)} has {real} knight moves, not {c!r:.20}")
    low = min(degs)
    if closed:
        if low >= 2:
            reject("every listed square has at least two knight moves")
        return ("degree", squares[degs.index(low)], low)
    if shape.n_squares < 2:
        reject("a one-square board has an open tour")
    if low == 0:
        return ("degree", squares[degs.index(0)], 0)
    if max(degs) > 1:
        reject("a listed square has two or more knight moves")
    ends = set(squares) | {q for q in (start, end) if q is not None}
    if len(ends) <= 2:
        reject("the squares with one move and the fixed ends fit the two ends of a tour")
    return ("ends-needed", tuple(sorted(ends)))


def _check_alternation(d, shape, closed, start, end) -> tuple:
    s = _square_list(d, "independent", shape, nonempty=True)
    k = shape.n_squares
    if closed:
        if 2 * len(s) != k:
            reject(f"the set has {len(s)} squares, not half of the board's {k}")
    elif k % 2 == 0 or 2 * len(s) != k + 1:
        reject(f"the set has {len(s)} squares; an open tour is forced to alternate only "
               f"by (k + 1) / 2 of an odd number k of squares (the board has {k})")
    inside = set(s)
    for q in s:
        for n in shape.moves(q):
            if n in inside:
                reject(f"the set is not independent: {list(q)} and {list(n)} are a knight move apart")
    outside = [q for q in (start, end) if q is not None and q not in inside]
    if len({(q[0] + q[1]) % 2 for q in s}) == 2:
        return ("alternation", len(s), k, None)  # of both colours
    if closed or not outside:
        reject("every square of the set has one colour, which a tour allows")
    return ("alternation", len(s), k, outside[0])  # one colour, a fixed end outside


def hall_ends(shape: Shape, closed: bool, start, end, squares) -> int:
    """Most ends of a tour that can lie in ``squares`` (of one colour): 0 for a closed tour.

    An open tour alternates colours, so with as many dark as light squares its two ends
    have different colours (one end of each), and with one square more of a colour both
    ends have that colour (none the other). A fixed end of the set's colour outside the
    set takes one of those places.
    """
    if closed:
        return 0
    dark, light = shape.dark_light()
    is_dark = shape.dark(squares[0])
    mine, other = (dark, light) if is_dark else (light, dark)
    places = 1 if mine == other else 2 if mine > other else 0
    outside = {q for q in (start, end) if q is not None and shape.dark(q) == is_dark} - set(squares)
    return max(0, places - len(outside))


def hall_counts(shape: Shape, closed: bool, start, end, squares) -> tuple[int, int, int]:
    """``(neighbours, room, need)`` of a set of squares of one colour: how many squares
    neighbour it, how many tour moves they can take (two each, and no more than their
    moves into the set), and how many the set needs (two a square, less the ends of an
    open tour that can lie in it, :func:`hall_ends`)."""
    into: dict = {}
    for q in squares:
        for n in shape.moves(q):
            into[n] = into.get(n, 0) + 1
    room = sum(min(2, k) for k in into.values())
    return len(into), room, 2 * len(squares) - hall_ends(shape, closed, start, end, squares)


def _check_hall(d, shape, closed, start, end) -> tuple:
    """A tour gives every square two moves (an end of an open tour one), each to a square of
    the other colour.

    The moves of the listed squares (one colour, so no move joins two of them) end on
    their neighbours; a neighbour takes at most two tour moves, and at most as many as
    it has moves into the set. Fewer places than the moves the set needs: no such tour.
    """
    s = _square_list(d, "squares", shape, nonempty=True)
    colours = {(q[0] + q[1]) % 2 for q in s}
    if len(colours) != 1:
        reject("the listed squares have both colours; a hall proof lists squares of one colour")
    neighbours, room, need = hall_counts(shape, closed, start, end, s)
    kind = "a closed" if closed else "an open"
    if room >= need:
        reject(f"the {len(s)} listed squares need {need} tour moves and their {neighbours} neighbours "
               f"can take {room}, which {kind} tour allows")
    return ("hall", len(s), shape.dark(s[0]), need, neighbours, room)


def components(n: int, neighbours, gone) -> int:
    """Components of a graph on the nodes ``0 .. n-1`` without those in ``gone``
    (``neighbours(v)``: the nodes joined to ``v``; one byte a node)."""
    seen = bytearray(n)
    for v in gone:
        seen[v] = 1
    count = 0
    for start in range(n):
        if seen[start]:
            continue
        count += 1
        seen[start] = 1
        todo = [start]
        while todo:
            for y in neighbours(todo.pop()):
                if not seen[y]:
                    seen[y] = 1
                    todo.append(y)
    return count


def _count_components(shape: Shape, removed: set) -> int:
    """Components of the knight graph of the board minus ``removed``."""
    rows, cols = shape.rows, shape.cols
    if shape.live is not None:  # a board named by its squares: walk those alone
        squares = sorted(shape.live)
        index = {q: i for i, q in enumerate(squares)}
        return components(len(squares), lambda i: [index[n] for n in shape.moves(squares[i])],
                           [index[q] for q in removed if q in index])

    def neighbours(i):
        r, c = divmod(i, cols)
        return [(r + dr) * cols + c + dc for dr, dc in KNIGHT_MOVES if 0 <= r + dr < rows and 0 <= c + dc < cols]

    gone = [r * cols + c for r, c in shape.holes | {q for q in removed if isinstance(q, tuple)}]
    return components(rows * cols, neighbours, gone)


def _reduced_components(shape: Shape, removed: set, open_ends):
    """Components after the forced-move reduction; None if the reduction contradicts.

    With ``open_ends`` (the fixed ends of an open tour) the graph gets the virtual squares
    ``"z"`` (and ``"w"``) that close an open tour into a cycle: with both ends fixed, z
    joins the two; with one end f fixed, z joins every other square and w joins z and f;
    with none, z joins every square.
    """
    squares = list(shape.live_squares())
    nbrs = {q: set(shape.moves(q)) for q in squares}
    if open_ends is not None:
        one = open_ends[0] if len(open_ends) == 1 else None
        links = [("z", q) for q in (open_ends if len(open_ends) == 2 else squares) if q != one]
        for a, b in links + ([("w", "z"), ("w", one)] if one else []):
            nbrs.setdefault(a, set()).add(b)
            nbrs[b].add(a)
        squares = list(nbrs)  # the squares, then z, then w
    index = {q: i for i, q in enumerate(squares)}
    sets = [{index[n] for n in nbrs[q]} for q in squares]
    if not reduce_forced(sets):
        return None
    return components(len(squares), sets.__getitem__, [index[q] for q in removed if q in index])


def reduce_forced(nbrs: list) -> bool:
    """Fix the moves forced by squares with two moves; False if a square is left with too few."""
    forced = [set() for _ in nbrs]
    todo = deque(range(len(nbrs)))
    queued = set(todo)
    while todo:
        v = todo.popleft()
        queued.discard(v)
        if len(nbrs[v]) < 2 or len(forced[v]) > 2:
            return False
        touched = set()
        if len(nbrs[v]) == 2 and forced[v] != nbrs[v]:
            for u in nbrs[v]:
                forced[v].add(u)
                forced[u].add(v)
                touched.add(u)
            touched.add(v)
        if len(forced[v]) == 2 and nbrs[v] != forced[v]:
            for u in nbrs[v] - forced[v]:
                nbrs[u].discard(v)
                touched.add(u)
            nbrs[v] = set(forced[v])
            touched.add(v)
        for u in touched:
            if u not in queued:
                queued.add(u)
                todo.append(u)
    return True


def _check_separator(d, shape, closed, start, end) -> tuple:
    s = _square_list(d, "separator", shape)
    reduce = d.get("reduced", False)
    if type(reduce) is not bool:
        reject("'reduced' must be true or false")
    virtual = d.get("virtual", [])
    if not isinstance(virtual, list) or any(v not in ("z", "w") for v in virtual) \
            or len(set(virtual)) != len(virtual):
        reject("'virtual' must list distinct virtual squares 'z' and 'w'")
    limit = MAX_REDUCED_SQUARES if reduce else MAX_COMPONENT_SQUARES
    if shape.extent > limit:
        reject(f"the board has {shape.extent:,} squares; {'reduced ' if reduce else ''}"
               f"separator proofs are checked up to {limit:,}")
    open_ends = None
    if not closed and reduce:
        if shape.n_squares < 2:
            reject("a one-square board has an open tour")
        open_ends = [q for q in (start, end) if q is not None]
        if len(open_ends) == 2 and open_ends[0] == open_ends[1]:
            reject("an open tour with one square for both ends is an ends proof")
        if "w" in virtual and len(open_ends) != 1:
            reject("the virtual square 'w' exists only with exactly one fixed end")
    elif virtual:
        reject("virtual squares belong to reduced proofs for open tours")
    claimed = strict_int(d["components"], "'components'")
    removed = set(s) | set(virtual)
    if reduce:
        comps = _reduced_components(shape, removed, open_ends)
        if comps is None:
            return ("reduction",)
    else:
        comps = _count_components(shape, removed)
    if claimed != comps:
        reject(f"removing the set leaves {comps} components, not {claimed}")
    # (without the reduction an open tour's proof has no virtual squares: removed is s)
    bound = separator_bound(closed or reduce, len(removed), len({start, end} & set(s)))
    if comps <= bound:
        reject(f"removing {len(removed)} squares leaves {comps} components, "
               f"which a tour allows (up to {bound})")
    return ("separator", len(removed), comps, bound, reduce)


_CHECKERS = {
    "ends": _check_ends,
    "colour": _check_colour,
    "degree": _check_degree,
    "alternation": _check_alternation,
    "hall": _check_hall,
    "separator": _check_separator,
}
