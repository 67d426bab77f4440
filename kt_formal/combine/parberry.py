"""Parberry's divide and conquer (1997): four structured quadrants, an 8-point merge.

A *structured* closed tour holds, at each corner, the two moves that the 8-point merge
deletes. Four such quadrant tours (sizes in :data:`~kt_formal.combine.divide.QUADRANT_SIZES`)
are joined by deleting 4 moves and adding 4; recursing on the quadrants builds any even
board with sides at least 6 and ``|m - n| <= 2``. The base tours come from the library
(CP-SAT made) or from the table ``board_path.txt`` of the document it comes from (docs/methods.md).

>>> quadrant_construct(16, 16).check() is None
True

References
----------
I. Parberry, "An efficient algorithm for the knight's tour problem", Discrete Applied
Mathematics 73 (1997).
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

import numpy as np

from kt_formal.board import Board, ensure_memory
from kt_formal.combine.divide import QUADRANT_SIZES, Piece, report_progress, structured_moves
from kt_formal.combine.library import load_piece
from kt_formal.combine.walk import big_empty, estimate_bytes, walk
from kt_formal.exceptions import InvalidInput
from kt_formal.tours import Tour

__all__ = ["quadrant_construct", "quadrant_base_tours", "seed000_construct", "seed000_base_tours",
           "parse_board_path", "is_structured"]


def parse_board_path(path) -> dict:
    """The nine base tours of ``board_path.txt``: {(rows, cols): Tour}.

    The file holds nine numbered grids (1 = first square) in the order of
    :data:`QUADRANT_SIZES`. Raises InvalidInput if the file is short or malformed.
    """
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8", errors="replace")
    except OSError as exc:
        raise InvalidInput(f"cannot read {p}: {exc.strerror}") from None
    nums = np.array([int(x) for x in re.findall(r"-?\d+", text)], dtype=np.int64)
    out = {}
    pos = 0
    for h, w in QUADRANT_SIZES:
        k = h * w
        if pos + k > nums.size:
            raise InvalidInput(f"{p.name} ends before the {h}x{w} tour")
        grid = nums[pos:pos + k]
        pos += k
        if sorted(grid.tolist()) != list(range(1, k + 1)):
            raise InvalidInput(f"{p.name}: the {h}x{w} grid is not a numbering 1..{k}")
        out[(h, w)] = Tour(Board(h, w), np.argsort(grid, kind="stable"), closed=True)
    return out


def is_structured(tour: Tour) -> bool:
    """Whether a tour contains Parberry's eight structured corner moves."""
    b = tour.board
    moves = set(map(frozenset, tour.edges().tolist()))
    return all(frozenset((b.index(*a), b.index(*c))) in moves for a, c in structured_moves(b.rows, b.cols))


def quadrant_base_tours(source: str = "library", path=None) -> dict:
    """The nine structured base tours: ``library`` (CP-SAT made) or ``peers`` (board_path.txt)."""
    if source == "library":
        return dict(_library_structured())
    if source == "peers":
        if path is None:
            raise InvalidInput("the peers source needs the path of board_path.txt")
        return parse_board_path(path)
    raise InvalidInput(f"unknown base-tour source {source!r}; choose library or peers")


@lru_cache(maxsize=1)
def _library_structured() -> tuple:
    return tuple(((h, w), load_piece(f"structured-{h}x{w}").tour) for h, w in QUADRANT_SIZES)


def _seed_split(s: int) -> tuple[int, int]:
    a = s // 2
    if s % 4 > 0:
        a -= 1
    return a, s - a


def quadrant_construct(rows: int, cols: int, source: str = "library", path=None, *, progress=None) -> Tour:
    """Parberry's scheme: quadrant split and the 8-point merge of four structured tours.

    Even sizes >= 6 with ``|rows - cols| <= 2``. A board with a side below 12 is a base
    tour; otherwise rows split as ``row1 = row // 2`` (minus 1 when ``row % 4``), the
    same for columns, the four quadrants are built recursively and merged by deleting
    four moves around the centre junction and adding four.

    >>> t = quadrant_construct(16, 16)
    >>> t.check() is None, is_structured(t)
    (True, True)
    """
    if rows % 2 or cols % 2 or rows < 6 or cols < 6 or abs(rows - cols) > 2:
        raise InvalidInput(f"the quadrant scheme needs even sizes >= 6 with |m - n| <= 2, got {rows}x{cols}")
    ensure_memory(estimate_bytes(rows, cols, extra_per_square=2), f"a tour of the {rows}x{cols} board")
    bases = quadrant_base_tours(source, path)
    pieces = {}
    for (h, w), t in bases.items():
        if t.check() is not None or not is_structured(t):
            raise InvalidInput(f"the {h}x{w} base tour is not a structured closed tour")
        pieces[(h, w)] = Piece(h, w, t.order, True)
    shape_ids = {hw: k for k, hw in enumerate(QUADRANT_SIZES)}

    def dirs(piece: Piece, flip: int):
        h, w = piece.h, piece.w
        s = piece.succ[flip]
        d = lambda x, y: int(s[x[0] * w + x[1]] == y[0] * w + y[1])  # noqa: E731
        return (d((h - 1, w - 3), (h - 2, w - 1)), d((h - 3, 1), (h - 1, 0)),
                d((0, 2), (1, 0)), d((2, w - 2), (0, w - 1)))

    @lru_cache(maxsize=None)
    def layout(r: int, c: int):
        """(leaf rows, leaf cols, shape ids, flips, junction rows, junction cols, dirs)."""
        if r < 12 or c < 12:
            pc = pieces[(r, c)]
            z = np.zeros(1, dtype=np.int64)
            return (z, z, np.array([shape_ids[(r, c)]]), np.zeros(1, np.uint8),
                    np.zeros(0, np.int64), np.zeros(0, np.int64), dirs(pc, 0))
        r1, r2 = _seed_split(r)
        c1, c2 = _seed_split(c)
        ul, ur, ll, lr = layout(r1, c1), layout(r1, c2), layout(r2, c1), layout(r2, c2)
        f_ur = ur[6][1] ^ ul[6][0]
        f_lr = lr[6][2] ^ ul[6][0]
        f_ll = ll[6][3] ^ ul[6][0]
        parts = ((ul, 0, 0, 0), (ur, 0, c1, f_ur), (ll, r1, 0, f_ll), (lr, r1, c1, f_lr))
        lrow = np.concatenate([q[0] + dr for q, dr, _, _ in parts])
        lcol = np.concatenate([q[1] + dc for q, _, dc, _ in parts])
        sid = np.concatenate([q[2] for q, *_ in parts])
        flip = np.concatenate([q[3] ^ np.uint8(f) for q, _, _, f in parts])
        jr = np.concatenate([[r1]] + [q[4] + dr for q, dr, _, _ in parts])
        jc = np.concatenate([[c1]] + [q[5] + dc for q, _, dc, _ in parts])
        d = (lr[6][0] ^ f_lr, ll[6][1] ^ f_ll, ul[6][2], ur[6][3] ^ f_ur)
        return lrow, lcol, sid, flip, jr, jc, d

    lrow, lcol, sid, flip, jr, jc, _ = layout(rows, cols)
    layout.cache_clear()
    n = cols
    total = rows * cols
    dtype = np.int32 if total < 2**31 else np.int64
    succ = big_empty(total, dtype)
    report_progress(progress, 0, 3, "stamping base tours")
    chunk = max(1, (1 << 22) // 144)
    for (h, w), k in shape_ids.items():
        pc = pieces[(h, w)]
        a, b = np.divmod(np.arange(h * w, dtype=np.int64), w)
        loc = a * n + b
        for f in (0, 1):
            vals = pc.values(n, f).reshape(-1)
            idx = np.flatnonzero((sid == k) & (flip == f))
            for lo in range(0, idx.size, chunk):  # bounded temporaries
                sel = idx[lo:lo + chunk]
                base = lrow[sel] * n + lcol[sel]
                succ[(base[:, None] + loc[None, :]).reshape(-1)] = (base[:, None] + vals[None, :]).reshape(-1)
    report_progress(progress, 1, 3, "merging quadrants")
    if jr.size:
        R, C = jr, jc
        pts = [(R - 1, C - 3), (R - 2, C - 1), (R - 3, C + 1), (R - 1, C), (R, C + 2), (R + 1, C),
               (R + 2, C - 2), (R, C - 1)]
        p = [x * n + y for x, y in pts]
        fwd = succ[p[0]] == p[1]
        ok = np.where(fwd, (succ[p[2]] == p[3]) & (succ[p[4]] == p[5]) & (succ[p[6]] == p[7]),
                      (succ[p[1]] == p[0]) & (succ[p[3]] == p[2]) & (succ[p[5]] == p[4]) & (succ[p[7]] == p[6]))
        if not ok.all():  # pragma: no cover - a bug
            raise RuntimeError("8-point merge: structured moves missing or misoriented")
        for src_f, dst_f, src_b, dst_b in ((0, 7, 1, 2), (6, 5, 3, 4), (4, 3, 5, 6), (2, 1, 7, 0)):
            succ[np.where(fwd, p[src_f], p[src_b])] = np.where(fwd, p[dst_f], p[dst_b])
    report_progress(progress, 2, 3, "walking")
    order = walk(succ, 0, total)
    del succ
    report_progress(progress, 3, 3, "walked")
    return Tour(Board(rows, cols), order, True)


#: Old names (the seed document's number) of :func:`quadrant_construct` and
#: :func:`quadrant_base_tours`.
seed000_construct = quadrant_construct
seed000_base_tours = quadrant_base_tours
