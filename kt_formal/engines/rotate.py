"""Extension and rotation: a Warnsdorff walk that turns its path around instead of backtracking.

A path grows from a root square by Warnsdorff's rule: to the unvisited neighbour with
the fewest unvisited neighbours, ties to the square farther from the centre (rules 1
and 2 of the backtracking method). When the walk is stuck, or covers the board but must still end next to
its root (a closed tour) or next to a fixed last square, a *rotation* makes another square
the end without losing any: for a path v0 ... vi vi+1 ... vk and a neighbour vi of vk,
the path v0 ... vi vk ... vi+1 ends at vi+1 (Posa 1976). Rotations are chosen to bring
the end towards where it is needed: an unvisited square, or the root. The walk is plain
Python over lists (the path itself is a numpy array, so a rotation reverses it in one
step); boards of a few thousand squares take hundredths of a second, with nothing
compiled to load and no solver to import, which is why the pipeline tries it first on
small boards (:func:`kt_formal.pipeline.decide`).

It is a heuristic: when its rotations run out the result is UNKNOWN, when its time runs
out LIMIT, and either says how far it got; never IMPOSSIBLE. Forced moves are refused (use cpsat); forbidden
moves are left out of the walk.

>>> from kt_formal.board import Board
>>> from kt_formal.question import Question
>>> r = ExtendRotate().run(Question(Board(8, 8)))
>>> r.status.value, r.tour.check() is None, r.tour.closed
('found', True, True)

References
----------
L. Posa, "Hamiltonian circuits in random graphs", Discrete Math. 14 (1976) 359-364
(the rotation); H. C. von Warnsdorf, "Des Rosselsprunges einfachste und allgemeinste
Losung" (1823) (the rule).
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

import numpy as np

from kt_formal.engines.base import Engine
from kt_formal.exceptions import InvalidInput
from kt_formal.graph import neighbour_table
from kt_formal.question import Limits, Question, Result

__all__ = ["ExtendRotate", "NAME", "attempt"]

NAME = "extend-rotate"

#: Walks tried by default (the first with the centre tie-break, the others random ones).
WALKS = 4
#: Rotations allowed in one walk: this many, plus one per ten squares.
ROTATIONS = 200


class ExtendRotate(Engine):
    """Warnsdorff extension with rotations (see the module docstring).

    The limits give the time for all the walks, the seed of the random tie-breaks and
    rotations (runs repeat) and progress (``progress(walks_done, walks_total, text)``
    after each walk). FOUND (verified by the kernel), or UNKNOWN (LIMIT when the time ran
    out) with ``stats["covered"]``.
    """

    name = NAME

    @dataclass(frozen=True)
    class Options:
        """``retries``: walks after the first (None: ``WALKS - 1``)."""

        retries: int | None = None

        def __post_init__(self):
            if self.retries is not None and int(self.retries) < 0:
                raise InvalidInput(f"retries must be at least 0, got {int(self.retries)}")

    def search(self, question: Question, limits: Limits, options) -> Result:
        """The walks, then the answer."""
        if question.forced:
            return self.unknown(question, limits, "extension and rotation does not take forced moves; use cpsat",
                                {"covered": 0})
        walks = WALKS if options.retries is None else int(options.retries) + 1
        left = limits.left()
        deadline = None if left is None else time.perf_counter() + left
        order, stats = attempt(question, walks=walks, seed=limits.seed, deadline=deadline, progress=limits.progress)
        if order is not None:
            return self.found(question, limits, order, stats,
                              f"found {'a closed' if question.closed else 'an open'} tour of the "
                              f"{question.board.describe()} board")
        answer = self.limit if stats.get("timed_out") else self.unknown
        if stats["walks"] == 0 and stats.get("timed_out"):
            return answer(question, limits,
                          f"extension and rotation ran out of the time limit before its first walk, "
                          f"listing the neighbours of the board's {stats['squares']:,} squares", stats)
        why = "the time limit" if stats.get("timed_out") else "its rotations"
        return answer(question, limits,
                      f"extension and rotation ran out of {why}: the best of {stats['walks']} walks "
                      f"covered {stats['covered']} of {stats['squares']} squares", stats)


def attempt(request: Question, *, walks: int = WALKS, seed: int = 0, deadline: float | None = None,
            progress=None):
    """The walks themselves: ``(board indices in tour order, or None; stats)``.

    The order is not yet checked (:meth:`ExtendRotate.run` passes it through the kernel's check).
    """
    board = request.board
    nt = neighbour_table(board)
    k = len(nt)
    table = nt.table
    if request.forbidden:
        table = table.copy()
        for a, b in request.forbidden:
            u, v = nt.node(a), nt.node(b)
            table[u][table[u] == v] = -1
            table[v][table[v] == u] = -1
    nb = _neighbour_lists(table, deadline)
    if nb is None:  # the time ran out while the board's lists were made
        return None, {"covered": 0, "squares": k, "walks": 0, "timed_out": True}
    rows, cols = np.divmod(nt.squares, board.cols)
    rr, cc = rows.tolist(), cols.tolist()
    s = nt.node(request.start) if request.start is not None else None
    e = nt.node(request.end) if request.end is not None else None
    if request.closed and s is not None and e is not None:
        # a closed tour whose last square is fixed: a path from the start to the last
        # square, which must be next to the start
        if e not in nb[s]:
            return None, {"covered": 0, "squares": k, "walks": 0}
        root, target, closed, free_root = s, e, False, False
    elif request.closed:
        root = s if s is not None else (e if e is not None else _centre_node(rows, cols, board))
        target, closed, free_root = -1, True, True
    elif s is not None:
        root, target, closed, free_root = s, (-1 if e is None else e), False, False
    elif e is not None:
        root, target, closed, free_root = e, -1, False, False
    else:
        root = min(range(k), key=lambda v: (len(nb[v]), v))
        target, closed, free_root = -1, False, True
    if k == 1:
        if closed:
            return None, {"covered": 1, "squares": 1, "walks": 0}
        return nt.squares.copy(), {"covered": 1, "squares": 1, "walks": 1}
    centre = (-_centre_distance(rows, cols, board)).astype(np.int64).tolist()
    rng = random.Random(seed)
    best = 0
    done = 0
    timed_out = False
    max_rot = ROTATIONS + k // 10
    for w in range(walks):
        if deadline is not None and time.perf_counter() > deadline:
            timed_out = True
            break
        if w == 0:
            tb = centre
        else:
            # random tie-breaks, still leaning away from the centre
            tb = [2 * t - rng.randrange(4) for t in centre]
        path, covered, timed_out = _walk(nb, rr, cc, root, target, closed, free_root, tb, rng, max_rot, deadline)
        done += 1
        best = max(best, covered)
        if progress is not None:
            progress(float(done), float(walks), f"{NAME}: walk {done}, covered {covered} of {k}")
        if path is not None:
            if request.closed and s is None and e is None:
                # numbered from the first square (top left), as the other engines number it
                path = np.roll(path, -int(np.flatnonzero(path == 0)[0]))
            return nt.squares[path], {"covered": k, "squares": k, "walks": done}
        if timed_out:
            break
    return None, {"covered": best, "squares": k, "walks": done, "timed_out": timed_out}


#: Rows of the neighbour table made into lists at a time, the deadline looked at between them.
LIST_ROWS = 1 << 16


def _neighbour_lists(table: np.ndarray, deadline: float | None):
    """Each square's neighbours as a list (the walk is plain Python), or None when the
    deadline passes first: a board of millions of squares takes seconds to list."""
    nb = []
    for lo in range(0, table.shape[0], LIST_ROWS):
        if deadline is not None and time.perf_counter() > deadline:
            return None
        nb.extend([w for w in row if w >= 0] for row in table[lo:lo + LIST_ROWS].tolist())
    return nb


def _centre_distance(rows: np.ndarray, cols: np.ndarray, board) -> np.ndarray:
    """Twice each square's distance from the centre (rows plus columns): a whole number."""
    mr, mc = (board.rows - 1) / 2, (board.cols - 1) / 2
    return 2 * (np.abs(rows - mr) + np.abs(cols - mc))


def _centre_node(rows: np.ndarray, cols: np.ndarray, board) -> int:
    """The square nearest the centre, the first in board order of those as near."""
    return int(np.argmin(_centre_distance(rows, cols, board)))


def _walk(nb, rr, cc, root, target, closed, free_root, tb, rng, max_rot, deadline):
    """One walk: ``(path as node array or None, squares covered, timed out)``.

    ``root`` comes first; ``target`` (or -1) must come last; a closed walk must end next
    to its first square; ``free_root``: the first square may change (the path may be
    turned around to grow at its other end).
    """
    k = len(nb)
    visited = bytearray(k)
    deg = [len(x) for x in nb]  # unvisited neighbours of each square
    path = np.empty(k, dtype=np.int64)
    pos = np.full(k, -1, dtype=np.int64)
    big = 1 << 20

    def visit(v):
        visited[v] = 1
        for w in nb[v]:
            deg[w] -= 1

    def turn_around():
        path[:length] = path[:length][::-1].copy()
        pos[path[:length]] = np.arange(length)
        return int(path[length - 1])

    visit(root)
    path[0] = root
    pos[root] = 0
    length = 1
    h = root
    need = k - 1 if target >= 0 else k  # squares on the path before the target is entered
    rotations = 0
    turned = False
    while True:
        # ---- extend by Warnsdorff's rule
        while True:
            best, bk = -1, None
            for w in nb[h]:
                if not visited[w] and w != target:
                    # a dead end (no onward move) only when nothing else is left
                    key = (deg[w] or 64) * big + tb[w]
                    if bk is None or key < bk:
                        best, bk = w, key
            if best < 0:
                break
            visit(best)
            path[length] = best
            pos[best] = length
            length += 1
            h = best
        if length == need:
            # ---- every square (but the target) is on the path: bring its end where it must be
            aim = int(path[0]) if closed else target
            if aim < 0:
                return path, k, False
            if closed and length < 3:
                return None, length, False
            ok = set(nb[aim])
            while rotations <= max_rot:
                if h in ok:
                    if target >= 0:
                        path[length] = target
                        length += 1
                    return path, k, False
                nxt = _rotate_towards(nb, path, pos, length, h, rr[aim], cc[aim], rr, cc, rng, ok=ok)
                if nxt is None:
                    break
                rotations += 1
                h = nxt
                if (rotations & 31) == 0 and deadline is not None and time.perf_counter() > deadline:
                    return None, length, True
            return None, length, False
        # ---- stuck with squares left: rotate until the end has an unvisited neighbour
        if rotations > max_rot:
            return None, length, False
        if deadline is not None and time.perf_counter() > deadline:
            return None, length, True
        if free_root and not turned:
            turned = True  # first, grow the other end
            h = turn_around()
            continue
        left = np.flatnonzero(np.frombuffer(visited, dtype=np.uint8) == 0).tolist()
        g = min((v for v in left if v != target), key=lambda v: (rr[v] - rr[h]) ** 2 + (cc[v] - cc[h]) ** 2)
        while not any(not visited[w] and w != target for w in nb[h]):
            if rotations > max_rot:
                return None, length, False
            nxt = _rotate_towards(nb, path, pos, length, h, rr[g], cc[g], rr, cc, rng,
                                  visited=visited, target=target)
            if nxt is None:  # the end's only neighbour on the path is the square before it
                if not free_root:
                    return None, length, False
                nxt = turn_around()
            rotations += 1
            h = nxt


def _rotate_towards(nb, path, pos, length, h, gr, gc, rr, cc, rng, ok=None, visited=None, target=-1):
    """Rotate the path so that its end moves towards (gr, gc); return the new end (None: no rotation).

    A rotation whose new end is in ``ok`` (or, with ``visited``, has an unvisited
    neighbour) is taken at once; otherwise the one ending nearest the aim, or now and
    then a random one, so the end does not circle.
    """
    cands = []
    for x in nb[h]:
        i = int(pos[x])
        if 0 <= i < length - 2:
            y = int(path[i + 1])
            if ok is not None and y in ok:
                _do_rotation(path, pos, i, length)
                return y
            if visited is not None and any(not visited[w] and w != target for w in nb[y]):
                _do_rotation(path, pos, i, length)
                return y
            cands.append((i, y))
    if not cands:
        return None
    if rng.random() < 0.25:
        i, y = cands[rng.randrange(len(cands))]
    else:
        i, y = min(cands, key=lambda t: (rr[t[1]] - gr) ** 2 + (cc[t[1]] - gc) ** 2 + rng.random())
    _do_rotation(path, pos, i, length)
    return y


def _do_rotation(path, pos, i, length):
    """v0 ... vi vi+1 ... vk  ->  v0 ... vi vk ... vi+1."""
    seg = path[i + 1:length][::-1].copy()
    path[i + 1:length] = seg
    pos[seg] = np.arange(i + 1, length)
