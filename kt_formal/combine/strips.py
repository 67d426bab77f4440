"""Tours of narrow boards (smaller side 1 to 4) as chains of certified library pieces.

A *strip* is a board with ``R <= 4`` rows and any number ``n`` of columns. Its tour is
put together from small pieces of the library, stamped side by side with numpy:

* **open 3 x n** (n = 4 or n >= 7): a chain of one-way pieces, like the rotation model's element A.
  The element is a 3 x 4 open tour from (0, 0) to (2, 3); its end is a knight move
  from the next copy's start (0, 4). The chain ends in a cap of width 4, 7, 8, 9 or 10
  (an open tour from (0, 0) with a free end), so ``n = 4k + t`` covers every n >= 7.
* **closed 3 x n** (n even, n >= 12): the tour goes out and comes back. A middle piece
  (3 x 8) is covered by two disjoint paths, ``A`` left to right and ``B`` right to left;
  a left cap (3 x 4, one path joining the returning B to the outgoing A) and a right cap
  (3 x 8, 10, 12 or 14, one path turning A into B) close the cycle:
  ``n = 4 + 8k + t``. 3 x 10 is a whole-board piece.
* **open 4 x n** (n >= 5): the same out-and-back scheme, with a 4 x 4 middle piece, a
  4 x 3 left cap holding both ends of the tour (two paths) and right caps of width
  5 to 8: ``n = 3 + 4k + t``. 4 x 5, 4 x 6 and 4 x 7 are whole-board pieces. A one-way
  chain cannot work on four rows: the outer rows are independent and balanced in colour,
  so every piece crossed by one path would need its two ends in the outer rows.

A piece covered by two paths is stored in the library as one tour of a slightly wider
board with holes: pad columns on both sides are holes except a few *link* squares that
join the end of one path to the start of the next, and the link moves are forced. The
tour of that holed board is a valid, independently checkable certificate; cutting out
the link squares gives the paths back. The links fix which ends are joined outside the
piece, but a cycle through them could also join the ends the other way round inside
(start of A to start of B); :func:`decode_paths` checks the pairing and refuses a piece
that pairs them wrongly, and the spec carries a solver seed for which CP-SAT pairs
them right (``strip3-closed-middle-3x8`` uses seed 2; seed 0 pairs them wrongly).

Pieces are found by CP-SAT from :data:`PIECE_SPECS` (``kt-formal models build``) and
verified when loaded. The order of a board of any length is built with one
``numpy`` broadcast per piece kind: no Python loop per square or per piece.

>>> t = strip_construct(3, 30, closed=True)
>>> t.closed, t.check() is None
(True, True)
>>> strip_construct(4, 9, closed=False).check() is None
True
>>> strip_construct(4, 9, closed=True) is None   # Schwenk: 4 x n never has a closed tour
True
"""

from __future__ import annotations

import functools
from collections import deque
from dataclasses import dataclass

import numpy as np

from kt_formal.board import Board, ensure_memory
from kt_formal.combine.library import PieceSpec, load_piece
from kt_formal.theorems import rectangle_tour
from kt_formal.tours import Tour

__all__ = [
    "strip_construct",
    "narrow_has_tour",
    "narrow_reason",
    "PIECE_SPECS",
    "STRIP_PIECES",
    "StripPiece",
    "piece_paths",
    "decode_paths",
    "plan",
]

PAD = 3  # columns of holes (with link squares) on each side of a two-path piece


@dataclass(frozen=True)
class StripPiece:
    """A piece of a strip: its size and the paths that cover it.

    ``paths`` is a tuple of ``(start, end)`` squares in the piece's own coordinates;
    ``None`` marks a free end (an end of the whole tour). One path with both ends
    fixed or free is stored as a plain open tour (``closed`` for a whole-board
    closed piece); two paths are stored with link squares on a padded board.
    """

    name: str
    rows: int
    cols: int
    paths: tuple
    closed: bool = False
    kind: str = "strip"
    seed: int = 0


def _knight(a, b) -> bool:
    return (a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2 == 5


def _link(rows: int, width: int, a, b, side: str) -> list[tuple[int, int]]:
    """Shortest chain of pad squares from ``a`` to ``b`` (padded coordinates), pad side only."""
    lo, hi = (0, PAD) if side == "left" else (PAD + width, 2 * PAD + width)
    pad = {(r, c) for r in range(rows) for c in range(lo, hi)}
    prev = {a: None}
    queue = deque([a])
    while queue:
        u = queue.popleft()
        for dr, dc in ((1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)):
            v = (u[0] + dr, u[1] + dc)
            if v == b and u != a:
                chain = []
                while u != a:
                    chain.append(u)
                    u = prev[u]
                return chain[::-1]
            if v in pad and v not in prev:
                prev[v] = u
                queue.append(v)
    raise ValueError(f"no link from {a} to {b} through the {side} pad")  # pragma: no cover


def _encode(p: StripPiece) -> PieceSpec:
    """The library spec of a strip piece (see the module docstring)."""
    if len(p.paths) == 1:
        (s, e), = p.paths
        return PieceSpec(p.name, p.rows, p.cols, closed=p.closed, start=s, end=e,
                         kind=p.kind, seed=p.seed)
    shift = lambda sq: (sq[0], sq[1] + PAD)  # noqa: E731
    forced, keep = [], set()
    pairs = list(p.paths)
    closed = all(x is not None for pair in pairs for x in pair)
    links = range(len(pairs)) if closed else range(len(pairs) - 1)
    for i in links:
        a, b = shift(pairs[i][1]), shift(pairs[(i + 1) % len(pairs)][0])
        side = "right" if a[1] - PAD >= p.cols / 2 else "left"
        chain = _link(p.rows, p.cols, a, b, side)
        walk = [a, *chain, b]
        forced += [(walk[j], walk[j + 1]) for j in range(len(walk) - 1)]
        keep.update(chain)
    width = p.cols + 2 * PAD
    holes = tuple((r, c) for r in range(p.rows) for c in range(width)
                  if (c < PAD or c >= PAD + p.cols) and (r, c) not in keep)
    start = None if closed else pairs[0][0]
    end = None if closed else pairs[-1][1]
    return PieceSpec(p.name, p.rows, width, closed=closed,
                     start=None if start is None else shift(start),
                     end=None if end is None else shift(end),
                     forced=tuple(forced), holes=holes, kind=p.kind, seed=p.seed)


# ---------------------------------------------------------------------- the pieces
_C3_MID = ((0, 0), (2, 7)), ((1, 7), (0, 1))   # closed 3-row middle: A then B
_O4_MID = ((0, 0), (2, 3)), ((1, 3), (3, 0))   # open 4-row middle

#: Every strip piece, by name.
STRIP_PIECES: dict[str, StripPiece] = {p.name: p for p in [
    # open 3 x n: one-way chain
    StripPiece("strip3-open-element-3x4", 3, 4, (((0, 0), (2, 3)),), kind="strip-element"),
    *(StripPiece(f"strip3-open-cap-3x{t}", 3, t, (((0, 0), None),), kind="strip-cap")
      for t in (4, 7, 8, 9, 10)),
    # closed 3 x n: out and back
    StripPiece("strip3-closed-middle-3x8", 3, 8, _C3_MID, kind="strip-middle", seed=2),
    StripPiece("strip3-closed-left-3x4", 3, 4, (((1, 3), (2, 3)),), kind="strip-left"),
    *(StripPiece(f"strip3-closed-right-3x{t}", 3, t, (((0, 0), (0, 1)),), kind="strip-right")
      for t in (8, 10, 12, 14)),
    StripPiece("strip3-closed-whole-3x10", 3, 10, ((None, None),), closed=True, kind="strip-whole"),
    # open 4 x n: out and back, both tour ends in the left cap
    StripPiece("strip4-open-middle-4x4", 4, 4, _O4_MID, kind="strip-middle"),
    StripPiece("strip4-open-left-4x3", 4, 3, ((None, (2, 2)), ((1, 2), None)), kind="strip-left"),
    *(StripPiece(f"strip4-open-right-4x{t}", 4, t, (((0, 0), (3, 0)),), kind="strip-right")
      for t in (5, 6, 7, 8)),
    *(StripPiece(f"strip4-open-whole-4x{t}", 4, t, ((None, None),), kind="strip-whole")
      for t in (5, 6, 7)),
]}

#: Library specs of the strip pieces (collected by :func:`kt_formal.combine.library.all_specs`).
PIECE_SPECS: list[PieceSpec] = [_encode(p) for p in STRIP_PIECES.values()]


@functools.lru_cache(maxsize=None)
def piece_paths(name: str) -> tuple[tuple[np.ndarray, np.ndarray], ...]:
    """The paths of a strip piece as ``(rows, cols)`` arrays in piece coordinates.

    The piece is loaded (and verified) from the library; link squares are cut out and
    every path is checked to run from its spec'd start to its spec'd end.
    """
    return decode_paths(STRIP_PIECES[name], load_piece(name).tour)


def decode_paths(p: StripPiece, tour: Tour) -> tuple[tuple[np.ndarray, np.ndarray], ...]:
    """Cut a piece's library tour into its paths (see :func:`piece_paths`).

    Raises
    ------
    RuntimeError
        If the paths do not pair the ends as the piece demands. (Forced links fix
        which ends are joined outside the piece, not which are joined inside it: a
        two-path piece is built with a seed for which CP-SAT pairs them right.)
    """
    name = p.name
    r, c = tour.coords()
    r, c = r.astype(np.int64), c.astype(np.int64)
    if len(p.paths) == 1:
        return ((r, c),)
    c = c - PAD
    inside = (c >= 0) & (c < p.cols)
    if tour.closed:  # rotate so the first path's start is first, walking away from its link
        s = p.paths[0][0]
        i = int(np.flatnonzero((r == s[0]) & (c == s[1]))[0])
        r, c, inside = np.roll(r, -i), np.roll(c, -i), np.roll(inside, -i)
        if inside[-1]:  # the square before the start must be a link square
            r, c, inside = np.roll(r[::-1], 1), np.roll(c[::-1], 1), np.roll(inside[::-1], 1)
    elif p.paths[0][1] is not None:
        # open with free ends: the first path must end where the first link begins
        e = p.paths[0][1]
        i = int(np.flatnonzero((r == e[0]) & (c == e[1]))[0])
        if i + 1 < len(r) and inside[i + 1]:
            r, c, inside = r[::-1], c[::-1], inside[::-1]
    # cut at the link squares
    cuts = np.flatnonzero(np.diff(inside.astype(np.int8)) != 0) + 1
    segments = [seg for seg in np.split(np.arange(len(r)), cuts) if inside[seg[0]]]
    if len(segments) != len(p.paths):
        raise RuntimeError(f"piece {name}: {len(segments)} paths, expected {len(p.paths)}")
    out = []
    for seg, (s, e) in zip(segments, p.paths):
        pr, pc = r[seg], c[seg]
        if (s is not None and (pr[0], pc[0]) != s) or (e is not None and (pr[-1], pc[-1]) != e):
            raise RuntimeError(f"piece {name}: a path runs {(pr[0], pc[0])} -> {(pr[-1], pc[-1])}, "
                               f"expected {s} -> {e}")
        out.append((pr, pc))
    return tuple(out)


# ---------------------------------------------------------------------- existence
def narrow_has_tour(rows: int, cols: int, closed: bool) -> bool:
    """Whether a rows x cols board with min side <= 4 has a tour (Schwenk; Cull & De Curtins)."""
    return rectangle_tour(rows, cols, closed)[0]


def narrow_reason(rows: int, cols: int, closed: bool) -> str:
    """The theorem's reason why a narrow board has no tour of the kind asked."""
    return rectangle_tour(rows, cols, closed)[1]


# ---------------------------------------------------------------------- assembly
def plan(rows: int, n: int, closed: bool) -> list[tuple[str, int]] | None:
    """The pieces of an ``rows x n`` strip (rows <= 4) as ``[(name, count), ...]``.

    For a chain the middle piece appears with its repeat count. None when the
    strip has no tour of that kind.
    """
    if not narrow_has_tour(rows, n, closed) or rows > n:
        return None
    if rows == 1:
        return []
    if rows == 3 and not closed:
        if n == 4:
            return [("strip3-open-cap-3x4", 1)]
        t = 7 + (n - 7) % 4
        return [("strip3-open-element-3x4", (n - t) // 4), (f"strip3-open-cap-3x{t}", 1)]
    if rows == 3:
        if n == 10:
            return [("strip3-closed-whole-3x10", 1)]
        t = 8 + (n - 12) % 8
        return [("strip3-closed-left-3x4", 1), ("strip3-closed-middle-3x8", (n - 4 - t) // 8),
                (f"strip3-closed-right-3x{t}", 1)]
    if n <= 7:
        return [(f"strip4-open-whole-4x{n}", 1)]
    t = 5 + (n - 8) % 4
    return [("strip4-open-left-4x3", 1), ("strip4-open-middle-4x4", (n - 3 - t) // 4),
            (f"strip4-open-right-4x{t}", 1)]


def _stamp_into(out: np.ndarray, pos: int, path, n: int, offsets: np.ndarray) -> int:
    """Write ``path`` placed at every column offset into ``out[pos:]``; return the new position.

    One broadcast ``offsets[:, None] + base[None, :]`` written straight into ``out``
    (copies in the order of ``offsets``): no loop per square or per piece.
    """
    pr, pc = path
    base = (pr * n + pc).astype(out.dtype)
    size = len(offsets) * len(base)
    block = out[pos : pos + size].reshape(len(offsets), len(base))
    np.add(offsets.astype(out.dtype)[:, None], base[None, :], out=block)
    return pos + size


def _strip_order(rows: int, n: int, closed: bool) -> np.ndarray | None:
    steps = plan(rows, n, closed)
    if steps is None:
        return None
    if rows == 1:
        return np.zeros(1, dtype=np.int64)
    dtype = np.int32 if rows * n < 2**31 - 1 else np.int64
    ensure_memory(rows * n * np.dtype(dtype).itemsize * 3, f"the tour of the {rows}x{n} board")
    out = np.empty(rows * n, dtype=dtype)
    at = lambda col: np.array([col], dtype=np.int64)  # noqa: E731
    if len(steps) == 1:  # a whole-board piece (or a lone cap)
        (name, _), = steps
        _stamp_into(out, 0, piece_paths(name)[0], n, at(0))
        return out
    if rows == 3 and not closed:  # one-way chain: elements, then the cap
        (elem, k), (cap, _) = steps
        w = STRIP_PIECES[elem].cols
        pos = _stamp_into(out, 0, piece_paths(elem)[0], n, np.arange(k, dtype=np.int64) * w)
        pos = _stamp_into(out, pos, piece_paths(cap)[0], n, at(k * w))
        assert pos == out.size
        return out
    # out and back: left cap, A through every middle piece, right cap, B back through them
    (left, _), (mid, k), (right, _) = steps
    wl, w = STRIP_PIECES[left].cols, STRIP_PIECES[mid].cols
    offs = wl + np.arange(k, dtype=np.int64) * w
    a_path, b_path = piece_paths(mid)
    lp = piece_paths(left)
    pos = _stamp_into(out, 0, lp[0], n, at(0))  # closed: B's return joined to A; open: tour start -> A
    pos = _stamp_into(out, pos, a_path, n, offs)
    pos = _stamp_into(out, pos, piece_paths(right)[0], n, at(wl + k * w))
    pos = _stamp_into(out, pos, b_path, n, offs[::-1])
    if not closed:
        pos = _stamp_into(out, pos, lp[1], n, at(0))  # B -> tour end
    assert pos == out.size
    return out


def strip_construct(rows: int, cols: int, closed: bool, progress=None) -> Tour | None:
    """A tour of the ``rows x cols`` board (``min(rows, cols) <= 4``), or None if it has none.

    Parameters
    ----------
    rows, cols : int
    closed : bool
    progress : callable, optional
        Called as ``progress(text)`` at each stage.

    Returns
    -------
    Tour or None
        Not verified here; callers (and the tests) pass it to the independent checker.
        None exactly when the existence theorems say no such tour exists.

    Raises
    ------
    ValueError
        If neither side is at most 4.
    """
    rows, cols = int(rows), int(cols)
    if min(rows, cols) > 4 or min(rows, cols) < 1:
        raise ValueError(f"strip_construct handles boards with a side of 1 to 4, not {rows}x{cols}")
    board = Board(rows, cols)  # refuses sizes beyond the board limits before any work
    transpose = rows > cols
    r, n = (cols, rows) if transpose else (rows, cols)
    if progress is not None:
        progress(f"planning the {r}x{n} strip")
    order = _strip_order(r, n, closed)
    if order is None:
        return None
    if transpose:
        if progress is not None:
            progress("transposing")
        q, rem = np.divmod(order, n)  # (row q, col rem) -> (rem, q) on the n x r board
        order = rem * r + q
    if progress is not None:
        progress("done")
    return Tour(board, order, closed)
