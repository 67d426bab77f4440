"""Impossibility proofs: JSON objects that show a tour cannot exist, and their checker.

A proof is a small certificate that a *checker* re-establishes from the board and
the knight rule alone. The checker here recomputes everything (colours, degrees,
components) with its own neighbour function; it uses neither the finders below,
nor :mod:`kt_formal.graph`, nor any engine. Methods, cheapest first:

``ends``
    fixed ends that no tour can have: an open tour of two or more squares with the
    same first and last square, or a closed tour whose last square is not a knight
    move from its first.
``colour``
    a knight changes colour at every move, so a closed tour needs as many dark as
    light squares, an open one counts that differ by at most one, and fixed ends must
    fit the excess (even count: ends of different colours; odd: both of the majority).
``degree``
    a closed tour enters and leaves every square, so a square with fewer than two
    moves refutes it; an open tour of two or more squares has no square without a
    move, and every square with at most one move is one of its two ends.
``separator``
    removing a set ``S`` cuts a closed tour into at most ``max(|S|, 1)`` pieces and
    an open tour into at most ``|S| + 1 - (fixed ends in S)``, so more components
    than that refute a tour. With ``"reduced": true`` (closed tours) the components
    are counted after the forced-move reduction: a square with exactly two moves
    forces both, a square with two forced moves loses its others, repeated to a
    fixpoint; a closed tour only uses moves that survive.
``alternation``
    an independent set ``S`` with ``|S| = |V| / 2`` forces a closed tour to
    alternate ``S`` and the rest; a knight alternates colours too, so ``S`` would be
    one colour. If ``S`` has both colours there is no closed tour (Posa's argument
    for 4 x n boards: ``S`` is the two outer rows, 2n squares). Likewise an open
    tour of an odd number ``|V|`` of squares with ``|S| = (|V| + 1) / 2`` visits
    ``S`` at every other step, both ends included.
``exhaustive``
    the record of an exhaustive search, re-run and cross-checked by CP-SAT (see
    :func:`check_exhaustive`).

The format::

    {"format": "kt-formal/1", "kind": "proof", "method": "colour",
     "board": {"rows": 5, "cols": 5, "holes": []}, "closed": true,
     "start": null, "end": null, "dark": 13, "light": 12}

>>> from kt_formal.board import Board
>>> p = find_proof(Board(5, 5), closed=True)
>>> p["method"], p["dark"], p["light"]
('colour', 13, 12)
>>> check_proof(p)
'no closed tour of the 5x5 board: 13 dark and 12 light squares'
>>> find_proof(Board(4, 7), closed=True)["method"]
'alternation'
"""

from __future__ import annotations

import itertools
from collections import deque

from kt_formal.board import Board
from kt_formal.certificate import FORMAT, board_from_dict, board_to_dict, register_kind
from kt_formal.exceptions import CertificateRejected, InvalidInput

__all__ = [
    "METHODS",
    "make_proof",
    "find_proof",
    "find_ends_proof",
    "find_colour_proof",
    "find_degree_proof",
    "find_alternation_proof",
    "find_separator_proof",
    "check_proof",
    "check_exhaustive",
    "explain",
]

#: Proof methods, cheapest first.
METHODS = ("ends", "colour", "degree", "alternation", "separator", "exhaustive")

_HEADER = ("format", "kind", "method", "board", "closed", "start", "end")
_FIELDS = {
    "ends": (),
    "colour": ("dark", "light"),
    "degree": ("squares", "degrees"),
    "separator": ("separator", "components", "reduced", "virtual"),
    "alternation": ("independent",),
    "exhaustive": ("engine", "nodes", "pruning"),
}

#: Largest board whose components the checker will count (squares).
MAX_CHECK_SQUARES = 4_000_000

_MOVES = ((1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1))


def _sq(x) -> list | None:
    return None if x is None else [int(x[0]), int(x[1])]


def make_proof(board: Board, method: str, closed: bool, start=None, end=None, **fields) -> dict:
    """The JSON-ready proof dict (header fields first, then the method's fields)."""
    d = {
        "format": FORMAT,
        "kind": "proof",
        "method": method,
        "board": board_to_dict(board),
        "closed": bool(closed),
        "start": _sq(start),
        "end": _sq(end),
    }
    d.update(fields)
    return d


# ====================================================================== finders
def _ends(board: Board, start, end):
    s = None if start is None else board.parse_live_square(start)
    e = None if end is None else board.parse_live_square(end)
    return s, e


def find_ends_proof(board: Board, closed: bool = True, start=None, end=None) -> dict | None:
    """Fixed ends no tour can have (open: the same square twice; closed: not a knight move apart)."""
    s, e = _ends(board, start, end)
    if s is None or e is None:
        return None
    if closed:
        if (s[0] - e[0]) ** 2 + (s[1] - e[1]) ** 2 != 5:
            return make_proof(board, "ends", closed, s, e)
    elif s == e and board.n_squares >= 2:
        return make_proof(board, "ends", closed, s, e)
    return None


def _colour_refutes(dark: int, light: int, closed: bool, ends_dark: list[bool]) -> bool:
    if closed:
        return dark != light
    if abs(dark - light) > 1:
        return True
    if dark == light:
        return len(ends_dark) == 2 and ends_dark[0] == ends_dark[1]
    majority_dark = dark > light
    return any(d != majority_dark for d in ends_dark)


def find_colour_proof(board: Board, closed: bool = True, start=None, end=None) -> dict | None:
    """Colour counts that no tour (with these ends) can fit."""
    s, e = _ends(board, start, end)
    dark, light = board.dark_light_counts()
    ends_dark = [board.is_dark(*q) for q in (s, e) if q is not None]
    if _colour_refutes(dark, light, closed, ends_dark):
        return make_proof(board, "colour", closed, s, e, dark=dark, light=light)
    return None


def find_degree_proof(board: Board, closed: bool = True, start=None, end=None) -> dict | None:
    """Squares with too few moves (see the module docstring)."""
    s, e = _ends(board, start, end)
    if not board.has_holes and min(board.rows, board.cols) >= 4:
        return None  # every square of a full board with both sides >= 4 has 2 or more moves
    deg = board.degrees()
    k = board.n_squares
    if closed:
        low = _argwhere(deg, 1)
        if low:
            sq = low[0]
            return make_proof(board, "degree", closed, s, e, squares=[list(sq)],
                              degrees=[int(deg[sq])])
        return None
    if k < 2:
        return None
    zero = _argwhere(deg, 0)
    if zero:
        sq = zero[0]
        return make_proof(board, "degree", closed, s, e, squares=[list(sq)], degrees=[0])
    low = _argwhere(deg, 1)
    fixed = {q for q in (s, e) if q is not None}
    if len(set(low) | fixed) > 2:
        pick = [q for q in low if q not in fixed][: 3 - len(fixed)]
        return make_proof(board, "degree", closed, s, e, squares=[list(q) for q in pick],
                          degrees=[int(deg[q]) for q in pick])
    return None


def _argwhere(deg, at_most: int) -> list[tuple[int, int]]:
    import numpy as np

    rr, cc = np.nonzero((deg >= 0) & (deg <= at_most))
    return list(zip(rr.tolist(), cc.tolist()))


def _alternation_size(k: int, closed: bool) -> int | None:
    """Size of the independent set the alternation argument needs, or None."""
    if closed:
        return k // 2 if k % 2 == 0 and k >= 4 else None
    return (k + 1) // 2 if k % 2 == 1 and k >= 3 else None


def find_alternation_proof(board: Board, closed: bool = True, start=None, end=None,
                           search: bool = False, time_limit: float = 2.0) -> dict | None:
    """An independent set that a tour would have to alternate with the rest.

    Closed tours: ``|S| = k / 2`` and ``S`` has both colours. Open tours on an odd
    number ``k`` of squares: ``|S| = (k + 1) / 2`` puts ``S`` on the odd positions
    of the path (both ends included), so ``S`` with both colours, or a fixed end
    outside ``S``, refutes it.

    On a board with 4 rows (or 4 columns) the two outer rows (columns) are tried
    first; this is Posa's proof for every 4 x n board, with 2n squares listed.
    With ``search=True`` a small CP-SAT model looks for such a set on boards of up
    to 100 squares.
    """
    s, e = _ends(board, start, end)
    k = board.n_squares
    size = _alternation_size(k, closed)
    if size is None:
        return None
    fixed = [q for q in (s, e) if q is not None]
    for axis in (0, 1):
        if board.shape[axis] != 4:
            continue
        outer = board.live_mask().copy()
        if axis == 0:
            outer[1:3, :] = False
        else:
            outer[:, 1:3] = False
        rr, cc = outer.nonzero()
        if len(rr) != size:
            continue
        mixed = len(set(((rr + cc) % 2).tolist())) == 2
        if mixed or (not closed and any(not outer[q] for q in fixed)):
            pts = [[int(r), int(c)] for r, c in zip(rr.tolist(), cc.tolist())]
            return make_proof(board, "alternation", closed, s, e, independent=pts)
    if search and k <= 100:
        found = _alternation_by_cpsat(board, size, [] if closed else fixed, time_limit)
        if found:
            return make_proof(board, "alternation", closed, s, e, independent=found)
    return None


def _alternation_by_cpsat(board: Board, size: int, fixed, time_limit: float):
    from ortools.sat.python import cp_model

    sqs = board.squares()
    idx = {q: i for i, q in enumerate(sqs)}
    model = cp_model.CpModel()
    x = [model.new_bool_var(f"in_{i}") for i in range(len(sqs))]
    for q, i in idx.items():
        for r, c in board.neighbours(*q):
            j = idx[(r, c)]
            if i < j:
                model.add_bool_or([x[i].Not(), x[j].Not()])
    model.add(sum(x) == size)
    mixed = model.new_bool_var("mixed")
    for col in (0, 1):
        model.add(sum(x[i] for q, i in idx.items() if (q[0] + q[1]) % 2 == col) >= 1).only_enforce_if(mixed)
    model.add_bool_or([mixed, *(x[idx[q]].Not() for q in fixed)])
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = float(time_limit)
    solver.parameters.num_workers = 1
    solver.parameters.random_seed = 0
    status = solver.solve(model)
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return [list(q) for q, i in idx.items() if solver.boolean_value(x[i])]
    return None


# ---------------------------------------------------------------- separator search
class _Bits:
    """The knight graph of a small board as bitsets (finder side only)."""

    def __init__(self, board: Board, reduce: bool = False, open_ends=None):
        self.sqs = board.squares()
        idx = {q: i for i, q in enumerate(self.sqs)}
        self.nbrs = [{idx[n] for n in board.neighbours(*q)} for q in self.sqs]
        if open_ends is not None:  # an open tour as a closed tour through virtual squares
            fixed = [idx[q] for q in open_ends if q is not None]
            n = len(self.sqs)
            for name, joined in _virtual_links(n, fixed):
                self.sqs.append(name)
                self.nbrs.append(set())
            for a, b in _virtual_edges(n, fixed):
                self.nbrs[a].add(b)
                self.nbrs[b].add(a)
        self.k = len(self.sqs)
        self.contradiction = False
        if reduce:
            self.contradiction = not _reduce_forced(self.nbrs)
        self.adj = [sum(1 << j for j in ns) for ns in self.nbrs]
        self.full = (1 << self.k) - 1

    def components(self, removed: int) -> int:
        alive = self.full & ~removed
        adj = self.adj
        count = 0
        while alive:
            comp = frontier = alive & -alive
            while frontier:
                nxt = 0
                x = frontier
                while x:
                    b = x & -x
                    nxt |= adj[b.bit_length() - 1]
                    x ^= b
                frontier = nxt & alive & ~comp
                comp |= frontier
            alive &= ~comp
            count += 1
        return count


def _virtual_links(n: int, fixed: list[int]):
    """Names of the virtual squares for an open tour on n squares with these fixed ends."""
    yield "z", None
    if len(fixed) == 1:
        yield "w", None


def _virtual_edges(n: int, fixed: list[int]):
    """Edges of the virtual squares (z = node n, w = node n + 1), see ``_augmented``."""
    z, w = n, n + 1
    if len(fixed) == 2:
        yield z, fixed[0]
        yield z, fixed[1]
    elif len(fixed) == 1:
        f = fixed[0]
        yield w, z
        yield w, f
        for v in range(n):
            if v != f:
                yield z, v
    else:
        for v in range(n):
            yield z, v


def _reduce_forced(nbrs: list[set]) -> bool:
    """Forced-move reduction for closed tours, in place; False on a contradiction.

    A square with exactly two remaining moves forces both; a square with two forced
    moves loses all its others. Repeated until nothing changes.
    """
    k = len(nbrs)
    forced = [set() for _ in range(k)]
    changed = True
    while changed:
        changed = False
        for v in range(k):
            if len(nbrs[v]) < 2 or len(forced[v]) > 2:
                return False
            if len(nbrs[v]) == 2 and forced[v] != nbrs[v]:
                for u in nbrs[v]:
                    forced[v].add(u)
                    forced[u].add(v)
                changed = True
            if len(forced[v]) == 2 and nbrs[v] != forced[v]:
                for u in nbrs[v] - forced[v]:
                    nbrs[u].discard(v)
                nbrs[v] = set(forced[v])
                changed = True
    return all(2 <= len(n) for n in nbrs) and all(len(f) <= 2 for f in forced)


def _separator_bound(closed: bool, size: int, ends_in_s: int) -> int:
    if closed:
        return max(size, 1)
    return size + 1 - ends_in_s


def find_separator_proof(board: Board, closed: bool = True, start=None, end=None,
                         thorough: bool = False, max_size: int | None = None,
                         budget: int = 50_000) -> dict | None:
    """A set of squares whose removal leaves too many components.

    Cheap mode (boards up to 400 squares): the empty set (a disconnected board),
    single squares, and the neighbourhoods of up to two squares. ``thorough=True``
    (boards up to 100 squares) also tries every set of up to ``max_size`` squares
    within ``budget`` sets, and for closed tours the same after the forced-move
    reduction.
    """
    s, e = _ends(board, start, end)
    k = board.n_squares
    if k > (100 if thorough else 400):
        return None
    fixed = {q for q in (s, e) if q is not None}
    variants = [False, True] if (thorough and (closed or k >= 2)) else [False]
    if not closed and s is not None and s == e:
        variants = [False]
    graphs = []
    for reduce in variants:
        g = _Bits(board, reduce=reduce, open_ends=(s, e) if (reduce and not closed) else None)
        if not g.contradiction:  # a contradiction is a degree-style argument, not a separator
            graphs.append((reduce, g))
    fixed_idx = {i for i, q in enumerate(graphs[0][1].sqs) if q in fixed} if graphs else set()

    def ok(g, sel: tuple[int, ...], reduce: bool) -> int | None:
        mask = 0
        for i in sel:
            mask |= 1 << i
        c = g.components(mask)
        as_closed = closed or reduce
        if c > _separator_bound(as_closed, len(sel), 0 if as_closed else len(fixed_idx & set(sel))):
            return c
        return None

    def proof(reduce, g, sel, c):
        real = [list(g.sqs[i]) for i in sorted(sel) if not isinstance(g.sqs[i], str)]
        virtual = [g.sqs[i] for i in sorted(sel) if isinstance(g.sqs[i], str)]
        extra = {"virtual": virtual} if (reduce and not closed) else {}
        return make_proof(board, "separator", closed, s, e, separator=real, components=c,
                          reduced=reduce, **extra)

    for reduce, g in graphs:
        for sel in _cheap_candidates(g):
            c = ok(g, sel, reduce)
            if c is not None:
                return proof(reduce, g, sel, c)
    if thorough:
        limit = max_size if max_size is not None else 8
        for reduce, g in graphs:
            tried = 0
            for size in range(1, min(limit, k) + 1):
                for sel in itertools.combinations(range(k), size):
                    tried += 1
                    if tried > budget:
                        break
                    c = ok(g, sel, reduce)
                    if c is not None:
                        return proof(reduce, g, sel, c)
                if tried > budget:
                    break
    return None


def _cheap_candidates(g: _Bits):
    yield ()
    for v in range(g.k):
        yield (v,)
    # neighbourhoods of one or two squares (those squares become isolated)
    order = sorted(range(g.k), key=lambda v: len(g.nbrs[v]))[:40]
    seen = set()
    for v in order:
        sel = tuple(sorted(g.nbrs[v]))
        if sel not in seen:
            seen.add(sel)
            yield sel
    for a, b in itertools.combinations(order, 2):
        if b in g.nbrs[a]:
            continue
        sel = tuple(sorted(g.nbrs[a] | g.nbrs[b]))
        if sel not in seen:
            seen.add(sel)
            yield sel


def find_proof(board: Board, closed: bool = True, start=None, end=None,
               thorough: bool = False, budget: int = 50_000) -> dict | None:
    """The cheapest proof found that no such tour exists, or None.

    ``thorough`` adds the CP-SAT alternation search and the subset search for
    separators, up to ``budget`` sets per variant (seconds, not milliseconds, on
    boards of 50 to 100 squares).
    """
    for finder in (find_ends_proof, find_colour_proof, find_degree_proof):
        p = finder(board, closed, start, end)
        if p is not None:
            return p
    p = find_alternation_proof(board, closed, start, end, search=thorough)
    if p is not None:
        return p
    return find_separator_proof(board, closed, start, end, thorough=thorough, budget=budget)


# ====================================================================== checker
# Everything below recomputes from the board (its size and holes) and the knight
# rule; nothing above is used.
class _Live:
    """Membership of live squares: the rectangle minus the hole set."""

    def __init__(self, board: Board):
        self.rows, self.cols = board.rows, board.cols
        self.holes = {tuple(h) for h in board_to_dict(board)["holes"]}
        self.count = self.rows * self.cols - len(self.holes)

    def __contains__(self, q) -> bool:
        r, c = q
        return 0 <= r < self.rows and 0 <= c < self.cols and (r, c) not in self.holes

    def moves(self, q):
        r, c = q
        return [(r + dr, c + dc) for dr, dc in _MOVES if (r + dr, c + dc) in self]

    def dark(self, q) -> bool:
        return (self.rows - 1 - q[0] + q[1]) % 2 == 0

    def dark_light(self) -> tuple[int, int]:
        dark = 0
        for r in range(self.rows):  # dark squares in row r: columns c with c = rows-1-r (mod 2)
            first = (self.rows - 1 - r) % 2
            dark += (self.cols - first + 1) // 2
        for h in self.holes:
            dark -= self.dark(h)
        return dark, self.count - dark

    def all_squares(self):
        for r in range(self.rows):
            for c in range(self.cols):
                if (r, c) not in self.holes:
                    yield (r, c)


def _reject(msg: str):
    raise CertificateRejected(msg)


def _int(d, key) -> int:
    x = d.get(key)
    if type(x) is not int:
        _reject(f"'{key}' must be an integer, got {type(x).__name__}")
    return x


def _square(x, what: str, live: _Live) -> tuple[int, int]:
    if not (isinstance(x, list) and len(x) == 2 and all(type(v) is int for v in x)):
        _reject(f"{what} must be a [row, col] pair of integers, got {x!r:.40}")
    q = (x[0], x[1])
    if q not in live:
        _reject(f"{what} {list(q)} is not a square of the board")
    return q


def _square_list(d, key, live: _Live, nonempty: bool = False) -> list[tuple[int, int]]:
    x = d.get(key)
    if not isinstance(x, list):
        _reject(f"'{key}' must be a list of [row, col] pairs")
    out = [_square(v, f"{key}[{i}]", live) for i, v in enumerate(x)]
    if len(set(out)) != len(out):
        _reject(f"'{key}' lists a square twice")
    if nonempty and not out:
        _reject(f"'{key}' is empty")
    return out


def _name(live: _Live, q) -> str:
    from kt_formal.board import file_name

    return f"{file_name(q[1])}{live.rows - q[0]}"


def check_proof(d) -> str:
    """Re-check a proof dict from scratch; return a one-line summary.

    Raises
    ------
    CertificateRejected
        With the reason, for anything that does not establish the claim.
    """
    if not isinstance(d, dict):
        _reject("a certificate must be a JSON object")
    if d.get("format") != FORMAT:
        _reject(f"unknown certificate format {d.get('format')!r}; expected {FORMAT!r}")
    if d.get("kind") != "proof":
        _reject(f"expected a 'proof' certificate, got {d.get('kind')!r}")
    method = d.get("method")
    if not isinstance(method, str) or method not in _FIELDS:
        _reject(f"unknown proof method {method!r}")
    missing = [f for f in (*_HEADER, *_FIELDS[method]) if f not in d]
    if missing and not (method == "separator" and set(missing) <= {"reduced", "virtual"}):
        _reject(f"the {method} proof has no {missing[0]!r}")
    unknown = set(d) - {*_HEADER, *_FIELDS[method], "meta"}
    if unknown:
        _reject(f"unknown field {sorted(unknown)[0]!r} in a {method} proof")
    board = board_from_dict(d["board"])
    closed = d["closed"]
    if type(closed) is not bool:
        _reject("'closed' must be true or false")
    live = _Live(board)
    ends = []
    for key in ("start", "end"):
        if d[key] is not None:
            ends.append(_square(d[key], key, live))
    start = None if d["start"] is None else ends[0]
    end = None if d["end"] is None else ends[-1]
    what = f"no {'closed' if closed else 'open'} tour of the {board.describe()} board"
    if method == "exhaustive":
        return check_exhaustive(d, board)
    return what + ": " + _CHECKERS[method](d, live, closed, start, end)


def _check_ends(d, live, closed, start, end) -> str:
    if start is None or end is None:
        _reject("an ends proof needs both a start and an end")
    if closed:
        if (start[0] - end[0]) ** 2 + (start[1] - end[1]) ** 2 == 5:
            _reject("the end is a knight move from the start, so a closed tour can join them")
        return "the last square of a closed tour must be a knight move from the first"
    if start != end:
        _reject("the start and the end differ, which an open tour allows")
    if live.count < 2:
        _reject("a one-square board has an open tour that starts and ends on its square")
    return "an open tour of two or more squares cannot start and end on one square"


def _check_colour(d, live, closed, start, end) -> str:
    dark, light = live.dark_light()
    if (_int(d, "dark"), _int(d, "light")) != (dark, light):
        _reject(f"the board has {dark} dark and {light} light squares, "
                f"not {d['dark']} and {d['light']}")
    ends_dark = [live.dark(q) for q in (start, end) if q is not None]
    if not _colour_refutes(dark, light, closed, ends_dark):
        _reject(f"{dark} dark and {light} light squares do not rule out the tour")
    return f"{dark} dark and {light} light squares"


def _check_degree(d, live, closed, start, end) -> str:
    squares = _square_list(d, "squares", live, nonempty=True)
    claimed = d["degrees"]
    if not isinstance(claimed, list) or len(claimed) != len(squares):
        _reject("'degrees' must list one degree per square")
    degs = [len(live.moves(q)) for q in squares]
    for q, c, real in zip(squares, claimed, degs):
        if type(c) is not int or c != real:
            _reject(f"square {list(q)} has {real} knight moves, not {c!r}")
    if closed:
        if min(degs) >= 2:
            _reject("every listed square has at least two knight moves")
        return f"square {_name(live, squares[degs.index(min(degs))])} has {min(degs)} knight move{'s' if min(degs) != 1 else ''}"
    if live.count < 2:
        _reject("a one-square board has an open tour")
    if 0 in degs:
        return f"square {_name(live, squares[degs.index(0)])} has no knight move"
    if max(degs) > 1:
        _reject("a listed square has two or more knight moves")
    ends = {q for q in (start, end) if q is not None}
    if len(set(squares) | ends) <= 2:
        _reject("the squares with one move and the fixed ends fit the two ends of a tour")
    return (f"{len(set(squares) | ends)} squares must be ends of the tour "
            f"({', '.join(_name(live, q) for q in sorted(set(squares) | ends))})")


def _check_alternation(d, live, closed, start, end) -> str:
    s = _square_list(d, "independent", live, nonempty=True)
    k = live.count
    if closed:
        if 2 * len(s) != k:
            _reject(f"the set has {len(s)} squares, not half of the board's {k}")
    elif k % 2 == 0 or 2 * len(s) != k + 1:
        _reject(f"the set has {len(s)} squares; an open tour is forced to alternate only "
                f"by (k + 1) / 2 of an odd number k of squares (the board has {k})")
    inside = set(s)
    for q in s:
        for n in live.moves(q):
            if n in inside:
                _reject(f"the set is not independent: {list(q)} and {list(n)} are a knight move apart")
    mixed = len({(q[0] + q[1]) % 2 for q in s}) == 2
    outside = [q for q in (start, end) if q is not None and q not in inside]
    if mixed:
        why = "of both colours"
    elif not closed and outside:
        why = f"and the fixed end {_name(live, outside[0])} lies outside it"
    else:
        _reject("every square of the set has one colour, which a tour allows")
    if closed:
        return f"{len(s)} independent squares, half of the board, {why} (a closed tour would alternate them with the rest)"
    return (f"{len(s)} independent squares of {k}, {why} (an open tour would visit them "
            "at every other step, first and last included)")


def _components(live: _Live, removed: set, reduce: bool, open_ends=None):
    """Components of the board minus ``removed``; None if the reduction contradicts.

    With ``open_ends`` (a list of the fixed ends of an open tour) the graph gets the
    virtual squares ``"z"`` (and ``"w"``) that close an open tour into a cycle: with
    both ends fixed, z joins the two; with one end f fixed, z joins every other
    square and w joins z and f; with none, z joins every square.
    """
    if live.count > MAX_CHECK_SQUARES:
        _reject(f"the board has {live.count} squares; separator proofs are re-checked "
                f"up to {MAX_CHECK_SQUARES}")
    squares = list(live.all_squares())
    nbrs = {q: set(live.moves(q)) for q in squares}
    if open_ends is not None:
        nodes = list(squares)
        nbrs["z"] = set()
        nodes.append("z")
        if len(open_ends) == 2:
            links = [("z", open_ends[0]), ("z", open_ends[1])]
        elif len(open_ends) == 1:
            nbrs["w"] = set()
            nodes.append("w")
            links = [("w", "z"), ("w", open_ends[0])]
            links += [("z", q) for q in squares if q != open_ends[0]]
        else:
            links = [("z", q) for q in squares]
        for a, b in links:
            nbrs[a].add(b)
            nbrs[b].add(a)
        squares = nodes
    if reduce:
        index = {q: i for i, q in enumerate(squares)}
        sets = [{index[n] for n in nbrs[q]} for q in squares]
        if not _checker_reduce(sets):
            return None
        nbrs = {squares[i]: {squares[j] for j in sets[i]} for i in range(len(squares))}
    seen = set(removed)
    count = 0
    for q in squares:
        if q in seen:
            continue
        count += 1
        seen.add(q)
        todo = deque([q])
        while todo:
            x = todo.popleft()
            for y in nbrs[x]:
                if y not in seen:
                    seen.add(y)
                    todo.append(y)
    return count


def _checker_reduce(nbrs: list[set]) -> bool:
    # the checker's own copy of the forced-move rules (kept separate from the finder's)
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


def _check_separator(d, live, closed, start, end) -> str:
    s = _square_list(d, "separator", live)
    reduce = d.get("reduced", False)
    if type(reduce) is not bool:
        _reject("'reduced' must be true or false")
    virtual = d.get("virtual", [])
    if not isinstance(virtual, list) or any(v not in ("z", "w") for v in virtual) \
            or len(set(virtual)) != len(virtual):
        _reject("'virtual' must list distinct virtual squares 'z' and 'w'")
    open_ends = None
    if not closed and reduce:
        if live.count < 2:
            _reject("a one-square board has an open tour")
        open_ends = [q for q in (start, end) if q is not None]
        if len(open_ends) == 2 and open_ends[0] == open_ends[1]:
            _reject("an open tour with one square for both ends is an ends proof")
        if "w" in virtual and len(open_ends) != 1:
            _reject("the virtual square 'w' exists only with exactly one fixed end")
    elif virtual:
        _reject("virtual squares belong to reduced proofs for open tours")
    claimed = _int(d, "components")
    removed = set(s) | set(virtual)
    comps = _components(live, removed, reduce, open_ends)
    if comps is None:
        return "the forced-move reduction leaves a square with too few or too many moves"
    if claimed != comps:
        _reject(f"removing the set leaves {comps} components, not {claimed}")
    if closed or reduce:
        bound = _separator_bound(True, len(removed), 0)
    else:
        ends_in = len({q for q in (start, end) if q is not None} & set(s))
        bound = _separator_bound(False, len(s), ends_in)
    if comps <= bound:
        _reject(f"removing {len(removed)} squares leaves {comps} components, "
                f"which a tour allows (up to {bound})")
    after = ""
    if reduce:
        after = " after the forced-move reduction"
        if not closed:
            after += " of the tour closed through a virtual square"
    return f"removing {len(removed)} squares leaves {comps} components{after} (a tour allows {bound})"


#: CP-SAT's time for confirming an exhaustive proof (an unconfirmed proof is rejected).
EXHAUSTIVE_CPSAT_SECONDS = 60.0


def check_exhaustive(d, board: Board) -> str:
    """Re-check an exhaustive-search proof: re-run the search, and confirm it with CP-SAT.

    The record names the board, the ends and the nodes searched. The exhaustive engine
    is deterministic, so the re-run must prove impossibility again within the recorded
    number of nodes (which also bounds the work a forged record can ask for); CP-SAT,
    an independent second engine, must prove it too within
    :data:`EXHAUSTIVE_CPSAT_SECONDS`. Anything else rejects the proof.
    """
    from kt_formal.engines import cpsat, exhaustive
    from kt_formal.engines.base import Status, TourRequest

    if type(d.get("engine")) is not str or type(d.get("pruning")) is not str:
        _reject("'engine' and 'pruning' must be strings")
    nodes = _int(d, "nodes")
    if nodes < 0:
        _reject("'nodes' must not be negative")
    try:
        request = TourRequest(board, closed=d["closed"], start=d["start"] and tuple(d["start"]),
                              end=d["end"] and tuple(d["end"]))
    except InvalidInput as exc:
        raise CertificateRejected(f"bad request in the proof: {exc}") from None
    again = exhaustive.solve(request, node_limit=nodes + 1)
    if again.status is Status.FOUND:
        _reject("re-running the exhaustive search found a tour")
    if again.status is not Status.IMPOSSIBLE:
        _reject(f"re-running the exhaustive search did not finish within the recorded {nodes:,} nodes")
    second = cpsat.solve(request, time_limit=EXHAUSTIVE_CPSAT_SECONDS, seed=0, workers=2)
    if second.status is not Status.IMPOSSIBLE:
        _reject(f"CP-SAT gave {second.status.value}, not impossible, on the re-check")
    searched = again.proof["nodes"] if again.proof else nodes
    return (f"no {'closed' if d['closed'] else 'open'} tour of the {board.describe()} board: "
            f"exhaustive search re-run ({searched:,} nodes) and confirmed by CP-SAT")


_CHECKERS = {
    "ends": _check_ends,
    "colour": _check_colour,
    "degree": _check_degree,
    "alternation": _check_alternation,
    "separator": _check_separator,
}


def _check_proof_certificate(d):
    return d, check_proof(d)


register_kind("proof", _check_proof_certificate)


# ====================================================================== words
def explain(d: dict) -> str:
    """One paragraph in plain words for a proof made by the finders above."""
    b = board_from_dict(d["board"])
    closed = d["closed"]
    kind = "closed" if closed else "open"
    names = lambda qs: ", ".join(b.square_name(tuple(q)) for q in qs)  # noqa: E731
    ends = ""
    if d["start"] is not None:
        ends += f" from {b.square_name(tuple(d['start']))}"
    if d["end"] is not None:
        ends += f" to {b.square_name(tuple(d['end']))}"
    head = f"No {kind} tour{ends}: "
    m = d["method"]
    if m == "ends":
        if closed:
            return head + "a closed tour returns from its last square to its first, and these are not a knight move apart."
        return head + "an open tour of two or more squares starts and ends on different squares."
    if m == "colour":
        dark, light = d["dark"], d["light"]
        text = head + f"the board has {dark} dark and {light} light squares; "
        if closed:
            return text + "a closed tour alternates colours."
        if abs(dark - light) > 1:
            return text + "an open tour alternates colours, so the counts can differ by at most one."
        if dark == light:
            return text + "an open tour alternates colours, so it starts and ends on squares of different colours, and both ends given have one colour."
        major = "dark" if dark > light else "light"
        return text + f"an open tour alternates colours, so it starts and ends on {major} squares, and an end given is not {major}."
    if m == "degree":
        qs, degs = d["squares"], d["degrees"]
        if closed:
            return head + f"square {names(qs[:1])} has only {degs[0]} knight move{'s' if degs[0] != 1 else ''} on the board; a closed tour enters and leaves every square."
        if 0 in degs:
            return head + f"square {names([qs[degs.index(0)]])} has no knight move on the board."
        return head + f"square{'s' if len(qs) > 1 else ''} {names(qs)} {'have' if len(qs) > 1 else 'has'} only one knight move, so each must be an end of the tour{', as must the ends given' if (d['start'] or d['end']) else ''}; a tour has only two ends."
    if m == "alternation":
        n = len(d["independent"])
        what = f"the {n} squares listed"
        if b.rows == 4 or b.cols == 4:
            line = "rows" if b.rows == 4 else "columns"
            what = f"the {n} squares of the two outer {line}"
        sq = {tuple(q) for q in d["independent"]}
        mixed = len({(q[0] + q[1]) % 2 for q in sq}) == 2
        if closed:
            return head + (f"{what} make up half of the board and no knight move joins two of them, "
                           "so a closed tour must alternate between them and the rest; a knight also alternates colours, "
                           "so they would all have one colour, but they have both (Posa's argument).")
        text = head + (f"{what} are one more than the other {b.n_squares - n} and no knight move joins two of them, "
                       "so an open tour must visit them at every other step, first and last included; ")
        if mixed:
            return text + "a knight alternates colours, so they would all have one colour, but they have both."
        return text + "but an end given is not one of them."
    if m == "separator":
        s, c = d["separator"], d["components"]
        red = (" after the moves forced by squares with only two moves are fixed" if d.get("reduced") else "")
        if d.get("reduced") and not closed:
            virt = d.get("virtual", [])
            return head + ("close the open tour into a cycle through a virtual square joined to where it may end; "
                           f"removing {len(s) + len(virt)} square{'s' if len(s) + len(virt) != 1 else ''} "
                           f"({names(s)}{', ' if s and virt else ''}{', '.join('the virtual ' + v for v in virt)}) "
                           f"then leaves {c} separate parts{red}, but a cycle cut at {len(s) + len(virt)} squares "
                           f"falls into at most {max(len(s) + len(virt), 1)} pieces.")
        if not s:
            return head + f"the board falls into {c} separate parts{red}."
        pieces = max(len(s), 1) if closed else len(s) + 1
        return head + (f"removing the {len(s)} square{'s' if len(s) > 1 else ''} {names(s)} leaves {c} separate parts{red}, "
                       f"but a{'' if closed else 'n'} {kind} tour cut at {len(s)} square{'s' if len(s) > 1 else ''} falls into at most {pieces} pieces.")
    if m == "exhaustive":
        return head + f"an exhaustive search ({d['nodes']} nodes) found none, confirmed by CP-SAT."
    return head + f"proof by {m}."
