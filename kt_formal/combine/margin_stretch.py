"""Thin margins: a closed tour by *stretching* a certified base tour.

When three or four margins of a rectangular hole are 3 or 4, no divide block, strip or lane
fits beside the hole on enough sides (``docs/theorems/margin-three.md``). This
construction needs none: a *base piece* is a closed tour T of a small board B (margins
3 or 4 but at most one of 5..8, hole h0 x w0, sides 1..8) that is *periodic in a window*. A
*column window* is the set M of squares in columns [x, x + 4), inside the hole's
columns; let C(s) be the moves of T crossing the column line s (one end left of s, one
at or right of it). T is stretchable at M when

* (periodicity) C(x + 4) is C(x) moved 4 columns right, and
* (straight through) every component of T's moves inside M is a path entering by a move
  e of C(x) and leaving by e + 4.

Then the board with hole width w0 + 4k has a closed tour that moves from each square
by the same step as T from its *image*: column c maps to c left of the window, to
x + (c - x) mod 4 in the k + 1 copies of the window, and to c - 4k beyond
(:func:`stretch_tour`). Row windows are the transpose. So every board with margins
in {3, 4}, but at most one in 5..8, is built from one base piece per class of (margins
up to the board's 8 symmetries, hole sides 1..3 exactly or 4..7 modulo 4): linear time,
no search.

The pieces (``models/margin-stretch-*.json``) are made by CP-SAT
(:mod:`kt_formal.combine.margin_stretch_build`) and verified on load: checksum, tour
(the kernel's check), spec, and both window conditions (:func:`window_violation`).

>>> from kt_formal.board import Board
>>> t = stretch_tour(Board.from_spec(20, 21, ["3,4,13x14"]))
>>> t.check() is None, t.closed, len(t)
(True, True, 238)
"""

from __future__ import annotations

import functools
import itertools

import numpy as np

from kt_formal.board import Board, ensure_memory
from kt_formal.combine.frame_large import single_hole, the_hole
from kt_formal.combine.library import PieceSpec, load_piece
from kt_formal.combine.margin_large import SYMMETRIES as _SYMS  # (transpose, flip rows, flip columns)
from kt_formal.combine.margin_large import oriented_tour
from kt_formal.combine.walk import estimate_bytes
from kt_formal.exceptions import CertificateRejected, NotApplicable
from kt_formal.tours import Tour

__all__ = ["STRETCH_THEOREM", "PERIOD", "THIN", "BASE_MARGINS", "MARGIN_TUPLES", "SPLIT", "base_size", "base_spec",
           "base_specs", "windows", "moved", "strand_violation", "window_violation", "load_base", "canonical_view",
           "stretch_plan", "plan_accepts", "plan_holds", "stretch_applies", "in_stretch_statement", "stretch_succ",
           "stretch_tour", "stretch_cases", "colours_balance", "verify_bases", "build_all_cases", "check_stretch",
           "PIECE_SPECS"]

#: The section of the theorem this construction proves.
STRETCH_THEOREM = "margin-three theorem (thin margins: stretched base tours)"

#: The window's width: the copies inserted are this many columns (or rows) each.
PERIOD = 4

#: The thin margins: every base piece has at least three of them.
THIN = (3, 4)

#: The margins a base piece may have on one side (the others thin).
BASE_MARGINS = (3, 4, 5, 6, 7, 8)

#: Hole sides of the base pieces: 1..3 are taken as they are, 4..7 stand for their class mod 4.
BASE_SIDES = tuple(range(1, 2 * PERIOD))



def _view(margins: tuple, sym: tuple) -> tuple:
    """Margins (top, bottom, left, right) of the board seen under ``sym`` (transpose first)."""
    t, b, le, r = margins
    if sym[0]:
        t, b, le, r = le, r, t, b
    if sym[1]:
        t, b = b, t
    if sym[2]:
        le, r = r, le
    return t, b, le, r


def canonical_view(margins: tuple) -> tuple:
    """The first symmetry (of :data:`_SYMS`) giving the least margin tuple, and that tuple.

    >>> canonical_view((4, 3, 3, 3))
    ((True, False, True), (3, 3, 3, 4))
    """
    best = min(_view(margins, s) for s in _SYMS)
    return next(s for s in _SYMS if _view(margins, s) == best), best


def _margins_ok(margins: tuple) -> bool:
    """Whether the margins are those of a base piece: each in :data:`BASE_MARGINS`, at most one not thin."""
    return all(x in BASE_MARGINS for x in margins) and sum(x not in THIN for x in margins) <= 1


#: The margin tuples (top, bottom, left, right) that are least under the symmetries: six
#: with every margin 3 or 4, and 24 with one of 5..8 (on the right).
MARGIN_TUPLES = tuple(sorted({canonical_view(k)[1] for k in itertools.product(BASE_MARGINS, repeat=4)
                              if _margins_ok(k)}))


def base_size(side: int) -> int:
    """The base piece's hole side for a hole side ``side``: itself up to 3, else 4..7, same class mod 4."""
    return side if side < PERIOD else PERIOD + (side - PERIOD) % PERIOD


def colours_balance(m: int, n: int, r0: int, c0: int, h: int, w: int) -> bool:
    """Whether the board minus the hole has as many squares of each colour."""
    if (m * n) % 2 == 0:
        return (h * w) % 2 == 0
    return (h * w) % 2 == 1 and (r0 + c0) % 2 == 0


def _flags(h: int, w: int) -> str:
    """A base piece's default windows: ``r`` (rows) when the hole is >= 4 high, ``c`` (columns) when >= 4 wide."""
    return ("r" if h >= PERIOD else "") + ("c" if w >= PERIOD else "")


def base_spec(margins: tuple, h: int, w: int, flags: str | None = None) -> PieceSpec:
    """The spec of the base piece: margins (top, bottom, left, right), hole h x w, windows
    ``flags`` (``r``: a row window, ``c``: a column window; default :func:`_flags`)."""
    t, b, le, r = margins
    flags = _flags(h, w) if flags is None else flags
    holes = tuple((t + i, le + j) for i in range(h) for j in range(w))
    return PieceSpec(f"margin-stretch-{t}{b}{le}{r}-{h}x{w}-{flags}", t + h + b, le + w + r, closed=True,
                     holes=holes, kind="margin-stretch", seed=0)


#: Classes whose default piece (both windows) has no tour (CP-SAT: infeasible), and the
#: pieces that stand in: the hole exactly 4 x 4 with one window each way, and 8 x 8.
SPLIT = {((3, 3, 3, 3), 4, 4): (((3, 3, 3, 3), 4, 4, "r"), ((3, 3, 3, 3), 4, 4, "c"), ((3, 3, 3, 3), 8, 8, "rc"))}


def _serves(piece: tuple, h: int, w: int) -> bool:
    """Whether the base piece ``(margins, h0, w0, flags)`` stretches to the hole h x w."""
    _, h0, w0, flags = piece
    return all(s == s0 or (f in flags and s > s0 and (s - s0) % PERIOD == 0)
               for s, s0, f in ((h, h0, "r"), (w, w0, "c")))


def _pieces_for(margins: tuple, h: int, w: int) -> tuple:
    """The base pieces of the class of (margins, hole h x w): ``((margins, h0, w0, flags), ...)``."""
    h0, w0 = base_size(h), base_size(w)
    return SPLIT.get((margins, h0, w0), ((margins, h0, w0, _flags(h0, w0)),))


def base_specs() -> list[PieceSpec]:
    """Every base piece: each margin tuple of :data:`MARGIN_TUPLES`, hole sides 1..7 (not both
    under 4: those holes are the small-hole theorem's), colours balanced; :data:`SPLIT`'s
    pieces in place of its classes' defaults."""
    out = []
    for k in MARGIN_TUPLES:
        for h, w in itertools.product(BASE_SIDES, repeat=2):
            if max(h, w) >= PERIOD and colours_balance(k[0] + h + k[1], k[2] + w + k[3], k[0], k[2], h, w):
                out += [base_spec(*p) for p in _pieces_for(k, h, w)]
    return out


def windows(spec: PieceSpec) -> list[tuple[int, int]]:
    """The base piece's windows ``(axis, start)``: axis 1 the columns [start, start + 4) in
    the hole's middle (flag ``c`` in the name), axis 0 the rows likewise (flag ``r``)."""
    (r0, c0), (r1, c1) = spec.holes[0], spec.holes[-1]
    h, w = r1 - r0 + 1, c1 - c0 + 1
    flags = spec.name.rsplit("-", 1)[-1]
    out = []
    if "c" in flags and w >= PERIOD:
        out.append((1, c0 + (w - PERIOD) // 2))
    if "r" in flags and h >= PERIOD:
        out.append((0, r0 + (h - PERIOD) // 2))
    return out


def moved(e: tuple, d: int, axis: int) -> tuple:
    """The move ``e`` (a sorted pair of squares) moved ``d`` along ``axis``."""
    a, b = (tuple(q[i] + (d if i == axis else 0) for i in range(2)) for q in e)
    return (a, b) if a < b else (b, a)


def _crossing(moves, s: int, axis: int) -> set:
    """The moves crossing the line before row or column ``s``."""
    return {e for e in moves if min(e[0][axis], e[1][axis]) < s <= max(e[0][axis], e[1][axis])}


def strand_violation(moves, axis: int, x: int) -> str | None:
    """Why the components of the moves inside the window [x, x + 4) are not straight strands, or None."""
    inside = lambda q: x <= q[axis] < x + PERIOD  # noqa: E731
    adj: dict = {}
    for e in moves:
        for q, o in (e, e[::-1]):
            if inside(q):
                adj.setdefault(q, []).append(o if inside(o) else ("L" if o[axis] < x else "R", e))
    seen = set()
    for q0 in adj:
        if q0 in seen:
            continue
        comp, ends = [q0], []
        seen.add(q0)
        for u in comp:
            for v in adj[u]:
                if isinstance(v[0], str):
                    ends.append(v)
                elif v not in seen:
                    seen.add(v)
                    comp.append(v)
        if len(ends) != 2:
            return f"a component at {q0} is a cycle inside the window"
        (s1, e1), (s2, e2) = sorted(ends)
        if (s1, s2) != ("L", "R"):
            return f"the strand at {q0} turns back"
        if moved(e1, PERIOD, axis) != e2:
            return f"the strand entering by {e1} leaves by {e2}, not by its copy"
    return None


def window_violation(spec: PieceSpec, tour: Tour) -> str | None:
    """Why ``tour`` is not stretchable at the spec's windows (:func:`windows`), or None.

    Checks, for each window, periodicity (C(x + 4) = C(x) + 4) and that the moves inside
    the window are straight strands, each leaving by the copy of the move it entered by.
    """
    n = tour.board.cols
    moves = {tuple(sorted((divmod(int(a), n), divmod(int(b), n)))) for a, b in tour.edges().tolist()}
    for axis, x in windows(spec):
        line = "column" if axis else "row"
        left, right = _crossing(moves, x, axis), _crossing(moves, x + PERIOD, axis)
        if {moved(e, PERIOD, axis) for e in left} != right:
            return f"{line} window at {x}: the moves crossing {line} {x + PERIOD} are not those crossing {x}, moved"
        reason = strand_violation(moves, axis, x)
        if reason is not None:
            return f"{line} window at {x}: {reason}"
    return None


@functools.lru_cache(maxsize=None)
def load_base(name: str, directory=None) -> tuple[np.ndarray, np.ndarray, PieceSpec]:
    """A verified base piece: the next-square steps (rows, columns arrays) of each square, and its spec.

    ``directory``: the library folder (default :func:`~kt_formal.combine.library.models_dir`).

    Raises
    ------
    CertificateRejected
        When the piece fails its checksum, tour or spec check, or is not stretchable.
    """
    piece = load_piece(name, directory)
    reason = window_violation(piece.spec, piece.tour)
    if reason is not None:
        raise CertificateRejected(f"piece {name}: {reason}")
    m, n = piece.spec.rows, piece.spec.cols
    order = np.asarray(piece.tour.order, dtype=np.int64)
    nxt = np.roll(order, -1)
    dr, dc = np.zeros(m * n, dtype=np.int8), np.zeros(m * n, dtype=np.int8)  # steps are -2..2
    dr[order], dc[order] = nxt // n - order // n, nxt % n - order % n
    return dr.reshape(m, n), dc.reshape(m, n), piece.spec


def stretch_plan(m: int, n: int, hole: tuple[int, int, int, int]) -> tuple[tuple, PieceSpec]:
    """The symmetry under which the board is built and its base piece's spec.

    Raises
    ------
    NotApplicable
        A margin outside 3..8 or two outside {3, 4}, unbalanced colours, or a hole of at
        most 3 x 3 (the small-hole theorem's).
    """
    r0, c0, h, w = hole
    margins = (r0, m - r0 - h, c0, n - c0 - w)
    if not _margins_ok(margins):
        raise NotApplicable("the stretch construction needs every margin to be 3 or 4 but one, which may be 5 to 8")
    if not colours_balance(m, n, r0, c0, h, w):
        raise NotApplicable("the board minus the hole has unequal colour counts")
    if max(h, w) < PERIOD:
        raise NotApplicable("holes of at most 3 x 3 are the small-hole theorem's")
    sym, k = canonical_view(margins)
    hs, ws = (w, h) if sym[0] else (h, w)
    piece = next(p for p in _pieces_for(k, hs, ws) if _serves(p, hs, ws))
    return sym, base_spec(*piece)


def plan_accepts(plan, m: int, n: int, hole: tuple[int, int, int, int]) -> bool:
    """Whether ``plan(m, n, hole)`` accepts the hole (raises no NotApplicable)."""
    try:
        plan(m, n, hole)
    except NotApplicable:
        return False
    return True


def plan_holds(plan, board: Board) -> bool:
    """Whether ``plan(rows, cols, hole)`` accepts the board's one rectangular hole (no NotApplicable)."""
    hole = single_hole(board)
    return hole is not None and plan_accepts(plan, board.rows, board.cols, hole)


def stretch_applies(board: Board) -> bool:
    """Whether :func:`stretch_tour` builds this board (one hole, margins 3 or 4 but at most one
    of 5..8, balanced, not within 3 x 3)."""
    return plan_holds(stretch_plan, board)


def in_stretch_statement(m: int, n: int, hole: tuple[int, int, int, int]) -> bool:
    """Whether the board is one the section "Thin margins" names: every margin 3 or 4 but at
    most one, which may be 5..8; colours balanced; the hole not within 3 x 3.

    >>> in_stretch_statement(1000, 1000, (3, 3, 994, 994)), in_stretch_statement(11, 12, (4, 4, 3, 5))
    (True, False)
    """
    return plan_accepts(stretch_plan, m, n, hole)


def _index_map(size: int, base: int, start: int) -> np.ndarray:
    """Each line's line in the base: itself before the window ``[start, start + 4)``, the
    window's line of the same class inside the copies, then moved back by the copies."""
    extra = size - base
    idx = np.arange(size, dtype=np.int64)
    if extra == 0:
        return idx
    out = np.where(idx < start, idx, np.where(idx < start + PERIOD + extra, start + (idx - start) % PERIOD,
                                               idx - extra))
    return out


def stretch_succ(ms: int, ns: int, spec: PieceSpec) -> np.ndarray:
    """Successor array (row * ns + col, -1 on the hole) of the stretched tour on ms x ns (the
    board in the base piece's frame): each square steps as its image in the base does."""
    dr, dc, _ = load_base(spec.name)
    wins = dict((axis, x) for axis, x in windows(spec))
    rows = _index_map(ms, spec.rows, wins.get(0, 0))
    cols = _index_map(ns, spec.cols, wins.get(1, 0))
    dtype = np.int32 if ms * ns < 2**31 else np.int64
    grid = np.ix_(rows, cols)
    step_r = dr[grid]  # int8: one byte a square
    succ = np.arange(ms * ns, dtype=dtype).reshape(ms, ns)
    succ += step_r.astype(dtype) * ns
    succ += dc[grid]
    succ[step_r == 0] = -1  # the hole: every knight step changes the row
    return succ.ravel()


def stretch_tour(board: Board, plan=None) -> Tour:
    """A closed tour of ``board`` (one hole, every margin 3 or 4 but at most one of 5..8, colours
    balanced, not within 3 x 3).

    ``plan(rows, cols, hole)`` gives the symmetry and the base piece's spec (default
    :func:`stretch_plan`; :func:`~kt_formal.combine.margin_thick.thick_plan` for two or
    more margins of 5..8).

    Returns
    -------
    Tour
        Starting at a corner of the board; not yet verified (callers pass it to the kernel).

    Raises
    ------
    NotApplicable
        With the reason, when the board is not one the construction covers.
    """
    hole = the_hole(board, "stretch construction")
    m, n = board.rows, board.cols
    sym, spec = (stretch_plan if plan is None else plan)(m, n, hole)
    ensure_memory(estimate_bytes(m, n, 16.0), f"the stretch construction on {m}x{n}")
    ms, ns = (n, m) if sym[0] else (m, n)
    rs, cs = ms - spec.rows, ns - spec.cols
    axes = {a for a, _ in windows(spec)}
    if rs % PERIOD or cs % PERIOD or min(rs, cs) < 0 or (rs and 0 not in axes) or (cs and 1 not in axes):
        # pragma: no cover - stretch_plan picks a piece that serves the board
        raise RuntimeError(f"stretch construction: {spec.name} does not stretch to {ms}x{ns}")
    return oriented_tour(board, stretch_succ(ms, ns, spec), ms, ns, sym)


def stretch_cases(side_limit: int = 16, margins: tuple = THIN, thick: int = 0):
    """Every balanced (m, n, hole) with margins from ``margins``, at most ``thick`` of them
    not thin, hole sides 1..``side_limit``, not within 3 x 3."""
    for t, b, le, r in itertools.product(margins, repeat=4):
        if sum(x not in THIN for x in (t, b, le, r)) > thick:
            continue
        for h, w in itertools.product(range(1, side_limit + 1), repeat=2):
            m, n = t + h + b, le + w + r
            if max(h, w) >= PERIOD and colours_balance(m, n, t, le, h, w):
                yield m, n, (t, le, h, w)


def verify_bases(specs) -> int:
    """Load each base piece (:func:`load_base`) and compare its spec with ``spec``; the number
    of windows checked, or AssertionError."""
    windows_checked = 0
    for spec in specs:
        try:
            *_, loaded = load_base(spec.name)
        except CertificateRejected as exc:
            raise AssertionError(str(exc)) from None
        if loaded != spec:
            raise AssertionError(f"piece {spec.name}: its spec differs from the theorem's")
        windows_checked += len(windows(spec))
    return windows_checked


def build_all_cases(cases, plan=None) -> int:
    """Build each case by stretching (``plan`` as in :func:`stretch_tour`), pass it to the
    kernel; the count, or AssertionError."""
    k = 0
    for m, n, hole in cases:
        tour = stretch_tour(Board.from_spec(m, n, [hole]), plan)
        problem = tour.check()
        if problem is not None or not tour.closed:
            raise AssertionError(f"{m}x{n} hole {hole}: the kernel rejects the tour: {problem}")
        k += 1
    return k


def check_stretch(side_limit: int = 16, thick_limit: int = 12) -> dict:
    """The stretch section's check: every base piece loads and is stretchable at each window
    (:func:`load_base`: checksum, tour, spec, periodicity, straight strands), and every case
    of :func:`stretch_cases` is built and passed to the kernel; AssertionError on a failure.

    Every margin 3 or 4 with hole sides up to ``side_limit`` (16: every class of
    :func:`stretch_plan`, hole sides 1..3, 4..7 and 8..11 mod 4, each window copied at
    least once), and one margin of 5..8 with sides up to ``thick_limit`` (12: each window
    copied at least once).
    """
    windows_checked = verify_bases(base_specs())
    thin = build_all_cases(stretch_cases(side_limit))
    thick = build_all_cases(m for m in stretch_cases(thick_limit, BASE_MARGINS, 1)
                       if any(x not in THIN for x in _margins_of(*m)))
    return {"pieces": len(base_specs()), "windows": windows_checked, "tours": thin, "thick tours": thick}


def _margins_of(m: int, n: int, hole: tuple) -> tuple:
    """(top, bottom, left, right)."""
    r0, c0, h, w = hole
    return r0, m - r0 - h, c0, n - c0 - w


#: Library specs of this module (collected by :func:`kt_formal.combine.library.all_specs`).
PIECE_SPECS: list[PieceSpec] = base_specs()
