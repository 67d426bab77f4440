"""The board as the kernel sees it: a rectangle, a sorted list of holes, nothing else.

A certificate names its board as ``{"rows": m, "cols": n, "holes": [[r, c], ...]}``;
:func:`shape_from_dict` reads that strictly. Everything the checkers need (live squares,
knight moves, colour counts) is computed here from the sizes, the holes and the
knight rule, in time proportional to the number of holes where it can be.

A board that is mostly hole (a frame two squares wide round a 20000 x 20000 board) is
named by its squares instead, ``{"rows": m, "cols": n, "squares": [[r, c], ...]}``: every
square not listed is a hole. Only proofs may name their board so (``squares=True``), and
their checks then walk the listed squares, never the rectangle.

>>> s = shape_from_dict({"rows": 3, "cols": 3, "holes": [[1, 1]]})
>>> s.n_squares, s.describe(), s.moves((0, 0))
(8, '3x3 minus 1 square', [(2, 1), (1, 2)])
"""

from __future__ import annotations

import heapq

import numpy as np

from kt_formal.kernel.errors import CertificateRejected
from kt_formal.kernel.geometry import KNIGHT_MOVES, is_dark

__all__ = ["FORMAT", "Shape", "shape_from_dict", "read_header", "reject", "strict_int", "square_from"]

#: The certificate format this kernel reads.
FORMAT = "kt-formal/1"

#: Largest side the kernel accepts (the toolkit's own limit).
MAX_SIDE = 1_000_000_000


def reject(message: str):
    """Raise :class:`CertificateRejected` with ``message``."""
    raise CertificateRejected(message)


def strict_int(x, what: str) -> int:
    """``x`` if it is a JSON integer (not a bool), else reject naming ``what``."""
    if type(x) is not int:
        reject(f"{what} must be an integer, got {type(x).__name__} {x!r:.40}")
    return x


class Shape:
    """An ``rows x cols`` rectangle minus ``holes`` (a frozenset of (row, col))."""

    __slots__ = ("rows", "cols", "holes", "n_squares", "live")

    def __init__(self, rows: int, cols: int, holes=frozenset(), live=None):
        self.rows, self.cols = rows, cols
        #: the squares, when the board is named by them (``holes`` is then None: never listed)
        self.live = None if live is None else frozenset(live)
        self.holes = frozenset(holes) if self.live is None else None
        self.n_squares = rows * cols - len(self.holes) if self.live is None else len(self.live)

    @property
    def extent(self) -> int:
        """Squares a walk over the board visits: the rectangle, or the squares when listed."""
        return self.rows * self.cols if self.live is None else self.n_squares

    @property
    def hole_mask(self):
        """The holes as a boolean numpy array of the board's shape (None without holes)."""
        if self.live is not None:
            mask = np.ones((self.rows, self.cols), dtype=bool)
            mask[tuple(np.array(sorted(self.live)).T)] = False
            return mask
        if not self.holes:
            return None
        mask = np.zeros((self.rows, self.cols), dtype=bool)
        mask[tuple(np.array(sorted(self.holes)).T)] = True
        return mask

    def __contains__(self, q) -> bool:
        r, c = q
        if self.live is not None:
            return (r, c) in self.live
        return 0 <= r < self.rows and 0 <= c < self.cols and (r, c) not in self.holes

    def moves(self, q) -> list:
        r, c = q
        return [(r + dr, c + dc) for dr, dc in KNIGHT_MOVES if (r + dr, c + dc) in self]

    def dark(self, q) -> bool:
        return is_dark(self.rows, q)

    def dark_light(self) -> tuple[int, int]:
        """Dark and light live squares, by formula: O(number of holes)."""
        # a1 = (rows - 1, 0) is dark: with an odd number of rows the dark squares are those of
        # (0, 0)'s colour, which takes the odd square of an odd total; else they are half
        if self.live is not None:
            dark = sum(1 for q in self.live if self.dark(q))
        else:
            dark = (self.rows * self.cols + self.rows % 2) // 2 - sum(1 for h in self.holes if self.dark(h))
        return dark, self.n_squares - dark

    def describe(self) -> str:
        """``8x8`` or ``8x8 minus 4 squares``."""
        k = self.rows * self.cols - self.n_squares
        base = f"{self.rows}x{self.cols}"
        return f"{base} minus {k} square{'s' if k != 1 else ''}" if k else base

    def first_holes(self, k: int) -> list:
        """The first ``k`` holes in row-major order (on a board named by its squares, found among
        the first ``k`` + squares places)."""
        if self.live is None:
            return heapq.nsmallest(k, self.holes)
        out, i = [], 0
        while len(out) < k and i < self.rows * self.cols:
            q = divmod(i, self.cols)
            if q not in self.live:
                out.append(q)
            i += 1
        return out

    def live_squares(self):
        """The squares in row-major order (a walk over :attr:`extent` places)."""
        if self.live is not None:
            return iter(sorted(self.live))
        return ((r, c) for r in range(self.rows) for c in range(self.cols) if (r, c) not in self.holes)


def square_from(x, what: str, shape: Shape | None = None) -> tuple[int, int]:
    """A ``[row, col]`` JSON pair as a tuple; with ``shape``, it must be a live square."""
    if not (isinstance(x, list) and len(x) == 2 and all(type(v) is int for v in x)):
        reject(f"{what} must be a [row, col] pair of integers, got {x!r:.40}")
    q = (x[0], x[1])
    if shape is not None and q not in shape:
        reject(f"{what} {list(q)} is not a square of the {shape.describe()} board")
    return q


def shape_from_dict(d, max_holes: int | None = None, squares: bool = False) -> Shape:
    """Read a certificate's ``board`` strictly: integer sizes in range, distinct holes on it.

    With ``squares=True`` the board may instead list its squares (``"squares"``, not
    ``"holes"``): distinct, on the rectangle, every other square a hole.
    """
    if not isinstance(d, dict):
        reject("'board' must be an object with rows, cols and holes")
    unknown = set(d) - {"rows", "cols", "holes", "squares"}
    if unknown or ("squares" in d and not squares):
        reject(f"'board' has unknown field {sorted(unknown or {'squares'})[0]!r}")
    listed = "squares" if "squares" in d else "holes"
    if listed == "squares" and "holes" in d:
        reject("'board' lists both its holes and its squares; it names one of them")
    rows = strict_int(d.get("rows"), "board.rows")
    cols = strict_int(d.get("cols"), "board.cols")
    if not (1 <= rows <= MAX_SIDE and 1 <= cols <= MAX_SIDE):
        reject(f"board sizes must be from 1 to {MAX_SIDE}, got {rows}x{cols}")
    raw = d.get(listed, [])
    if not isinstance(raw, list):
        reject(f"board.{listed} must be a list of [row, col] pairs")
    if max_holes is not None and listed == "holes" and len(raw) > max_holes:
        reject(f"board.holes lists {len(raw)} squares, more than the certificate can need")
    seen = set()
    for i, x in enumerate(raw):
        q = square_from(x, f"board.{listed}[{i}]")
        if not (0 <= q[0] < rows and 0 <= q[1] < cols):
            reject(f"board.{listed}[{i}] {list(q)} lies outside the {rows}x{cols} board")
        if q in seen:
            reject(f"board.{listed}[{i}] {list(q)} is listed twice")
        seen.add(q)
    shape = Shape(rows, cols, seen) if listed == "holes" else Shape(rows, cols, live=seen)
    if shape.n_squares == 0:
        reject(f"the {rows}x{cols} board has no squares left after removing its holes")
    return shape


def read_header(d, kind: str, fields, optional=(), squares: bool = False) -> tuple:
    """``(shape, closed, start, end)`` of a ``kind`` certificate, read strictly.

    It must have ``format``, ``kind``, ``board``, ``closed`` and ``fields``, and nothing more
    than ``optional`` and ``meta``; ``start`` and ``end`` (None when absent) must be live squares.
    ``squares``: the board may list its squares instead of its holes (:func:`shape_from_dict`).
    """
    if not isinstance(d, dict):
        reject("a certificate must be a JSON object")
    if d.get("format") != FORMAT or d.get("kind") != kind:
        reject(f"expected a {FORMAT} {kind!r} certificate")
    missing = sorted({"board", "closed", *fields} - set(d))
    if missing:
        reject(f"the {kind} certificate has no {missing[0]!r}")
    unknown = sorted(set(d) - {"format", "kind", "board", "closed", *fields, *optional, "meta"})
    if unknown:
        reject(f"unknown field {unknown[0]!r} in a {kind} certificate")
    shape = shape_from_dict(d["board"], squares=squares)
    if type(d["closed"]) is not bool:
        reject("'closed' must be true or false")
    start, end = (None if d.get(e) is None else square_from(d[e], e, shape) for e in ("start", "end"))
    return shape, d["closed"], start, end
