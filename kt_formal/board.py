"""Boards: an m x n rectangle of squares, some of which may be removed (holes).

A square is addressed by its 0-based ``(row, col)``, row 0 at the top, or by
its chess name: files ``a, b, ..., z, aa, ab, ...`` from the left, ranks
``1, 2, ...`` from the bottom, so ``a1`` is the bottom-left square. Internally
a square is also a single integer, its *index* ``row * cols + col`` in the full
rectangle (holes included), which is what tours store.

Colours follow the chessboard: ``a1`` is dark. A knight always changes colour,
which is what the colour-count arguments rest on.

A large board that is mostly hole (given by hole rectangles that leave at most
:data:`SPARSE_MAX_SQUARES` squares) is kept as the list of its squares, never as an array of
the whole rectangle (:mod:`kt_formal.livesquares`); :attr:`Board.sparse` says which.

>>> b = Board(8, 8, holes=[(3, 3), (3, 4), (4, 3), (4, 4)])
>>> b.n_squares, b.colour_counts()
(60, (30, 30))
>>> b.square_name((7, 0)), b.parse_square("h8"), b.parse_square("2,5")
('a1', (0, 7), (2, 5))
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

import numpy as np

from kt_formal.exceptions import InvalidInput
from kt_formal.kernel import geometry
from kt_formal.claims import file_name, square_name
from kt_formal.kernel.geometry import KNIGHT_MOVES
from kt_formal.livesquares import plain_low_squares, rect_squares, square_degrees
from kt_formal.memory import available_memory, ensure_memory

__all__ = [
    "Board",
    "first_positions",
    "KNIGHT_MOVES",
    "MAX_SIDE",
    "SPARSE_MIN_SIZE",
    "SPARSE_MAX_SQUARES",
    "file_name",
    "parse_file_name",
    "ensure_memory",
    "available_memory",
    "SYMMETRIES",
    "transform_coords",
]


#: Largest side accepted; a board also has to fit in memory for the work asked.
MAX_SIDE = 1_000_000_000
#: Boards of at least this many places (holes included) given by hole rectangles are kept as
#: their list of squares when that is at most :data:`SPARSE_MAX_SQUARES` long and at most a
#: sixteenth of the rectangle.
SPARSE_MIN_SIZE = 1 << 26
SPARSE_MAX_SQUARES = 1 << 24

_RECT_RE = re.compile(r"^\s*(\d{1,12})\s*,\s*(\d{1,12})\s*,\s*(\d{1,12})\s*[xX]\s*(\d{1,12})\s*$", re.ASCII)
_PAIR_RE = re.compile(r"^\s*\(?\s*(-?\d{1,12})\s*,\s*(-?\d{1,12})\s*\)?\s*$", re.ASCII)
_CHESS_RE = re.compile(r"^\s*([a-zA-Z]+)(\d{1,12})\s*$", re.ASCII)


def first_positions(grid: np.ndarray, k: int, test=None) -> list[tuple[int, int]]:
    """The first ``k`` places ``(row, col)`` of the 2-D ``grid``, in row-major order, where
    ``test`` (applied to a flat block of it; default: the values themselves) holds. The grid
    is scanned a block of 2^22 places at a time and the scan stops at ``k``: a strip of 10^9
    squares is not turned into a list of them all to name a few."""
    flat, cols, block = grid.ravel(), grid.shape[1], 1 << 22
    out: list[tuple[int, int]] = []
    for lo in range(0, flat.size, block):
        part = flat[lo:lo + block]
        hits = np.flatnonzero(part if test is None else test(part))[:k - len(out)]
        out += [divmod(lo + int(h), cols) for h in hits]
        if len(out) >= k:
            break
    return out


def _shown(text: str, most: int = 40) -> str:
    """``text`` quoted for a message, cut short past ``most`` characters (a hostile value of
    5,000 digits is not echoed whole)."""
    return repr(text) if len(text) <= most else repr(text[:most]) + f"... ({len(text):,} characters)"


def parse_file_name(letters: str) -> int:
    """Inverse of :func:`file_name`.

    >>> parse_file_name("aa")
    26
    """
    n = 0
    for ch in letters.lower():
        n = n * 26 + (ord(ch) - ord("a") + 1)
    return n - 1


def _as_int(value, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise InvalidInput(f"{what} must be a whole number, not {value!r}")
    return int(value)


# ---------------------------------------------------------------------- symmetries
#: The eight symmetries of a rectangle, named as numpy names the array operation.
SYMMETRIES: tuple[str, ...] = (
    "identity", "rot90", "rot180", "rot270", "flip_lr", "flip_ud", "transpose", "antitranspose",
)


def transform_coords(r, c, rows: int, cols: int, sym: str):
    """Map squares (r, c) of a rows x cols board under a symmetry.

    Works on ints or numpy arrays. Returns ``(r2, c2, rows2, cols2)``; each symmetry
    moves squares exactly as the numpy operation of the same name moves array cells
    (``rot90`` is ``np.rot90``, counter-clockwise; ``rot270`` is clockwise;
    ``antitranspose`` is ``np.rot90(a, 2).T``).

    >>> transform_coords(0, 0, 3, 4, "rot90")
    (3, 0, 4, 3)
    """
    if sym == "identity":
        return r, c, rows, cols
    if sym == "rot90":
        return cols - 1 - c, r, cols, rows
    if sym == "rot180":
        return rows - 1 - r, cols - 1 - c, rows, cols
    if sym == "rot270":
        return c, rows - 1 - r, cols, rows
    if sym == "flip_lr":
        return r, cols - 1 - c, rows, cols
    if sym == "flip_ud":
        return rows - 1 - r, c, rows, cols
    if sym == "transpose":
        return c, r, cols, rows
    if sym == "antitranspose":
        return cols - 1 - c, rows - 1 - r, cols, rows
    raise InvalidInput(f"unknown symmetry {sym!r}; choose from {', '.join(SYMMETRIES)}")


class Board:
    """An m x n board with optional holes.

    Parameters
    ----------
    rows, cols : int
        The rectangle, both at least 1 and at most :data:`MAX_SIDE`.
    holes : iterable of (row, col), or a boolean array of shape (rows, cols), optional
        Removed squares (True in the array means removed).
    live : numpy array of int, optional
        Instead of ``holes``: the squares left, as sorted distinct flat indices
        ``row * cols + col`` (every other place is a hole); the board is then :attr:`sparse`.

    Raises
    ------
    InvalidInput
        For sizes out of range or holes off the board.
    """

    __slots__ = ("rows", "cols", "_holes", "_n_holes", "_live")

    def __init__(self, rows: int, cols: int, holes=None, *, live=None):
        rows = _as_int(rows, "the number of rows")
        cols = _as_int(cols, "the number of columns")
        if rows < 1 or cols < 1:
            raise InvalidInput(f"board sizes must be at least 1, got {rows}x{cols}")
        if rows > MAX_SIDE or cols > MAX_SIDE:
            raise InvalidInput(f"board {rows}x{cols} is too large: sides are limited to {MAX_SIDE}")
        self.rows = rows
        self.cols = cols
        self._live = None
        if live is not None:
            self._init_live(live, holes)
            return
        mask = None
        if holes is not None:
            if isinstance(holes, np.ndarray) and holes.dtype == bool:
                if holes.shape != (rows, cols):
                    raise InvalidInput(
                        f"hole mask has shape {holes.shape}, the board is {rows}x{cols}"
                    )
                mask = holes.copy()
            else:
                squares = list(holes)
                if squares:
                    ensure_memory(rows * cols, f"a hole mask for the {rows}x{cols} board")
                    mask = np.zeros((rows, cols), dtype=bool)
                    for sq in squares:
                        r, c = self._check_pair(sq, "hole")
                        mask[r, c] = True
        if mask is not None and not mask.any():
            mask = None
        if mask is not None:
            mask.setflags(write=False)
        self._holes = mask
        self._n_holes = 0 if mask is None else int(mask.sum())
        if self.n_squares == 0:
            raise InvalidInput(f"the {rows}x{cols} board has no squares left after removing holes")

    def _init_live(self, live, holes) -> None:
        live = np.asarray(live, dtype=np.int64)
        if holes is not None or live.ndim != 1:
            raise InvalidInput("a board is given by its holes or by its squares, not both")
        if live.size and (live[0] < 0 or live[-1] >= self.size or (live.size > 1 and np.any(np.diff(live) <= 0))):
            raise InvalidInput(f"squares of the {self.rows}x{self.cols} board must be distinct, "
                               "sorted and on it")
        if live.size == 0:
            raise InvalidInput(f"the {self.rows}x{self.cols} board has no squares left after removing holes")
        live.setflags(write=False)
        self._holes, self._live, self._n_holes = None, live, self.size - int(live.size)

    # ------------------------------------------------------------------ construction
    @classmethod
    def from_spec(
        cls,
        rows: int,
        cols: int,
        hole_rects: Iterable = (),
        hole_squares: Iterable = (),
    ) -> "Board":
        """A board from sizes plus hole rectangles ``(row, col, height, width)`` and squares.

        Each rectangle may also be the string ``"R,C,HxW"`` (0-based top-left corner).

        >>> Board.from_spec(8, 8, ["3,3,2x2"]).n_squares
        60
        """
        probe = cls(rows, cols)
        rects = [probe.parse_rect(r) if isinstance(r, str) else tuple(r) for r in hole_rects]
        squares = [probe.parse_square(s) if isinstance(s, str) else tuple(s) for s in hole_squares]
        if not rects and not squares:
            return probe
        checked = [probe._check_rect(rect) for rect in rects]
        if checked and probe.size >= SPARSE_MIN_SIZE and len(checked) + len(squares) <= 1000:
            few = [probe._check_pair(sq, "hole") for sq in squares]
            live = rect_squares(probe.rows, probe.cols, checked, few,
                                most=min(SPARSE_MAX_SQUARES, probe.size // 16))
            if live is not None:
                return cls(rows, cols, live=live)
        ensure_memory(probe.rows * probe.cols, f"a hole mask for the {rows}x{cols} board")
        mask = np.zeros((probe.rows, probe.cols), dtype=bool)
        for rect in rects:
            r, c, h, w = probe._check_rect(rect)
            mask[r : r + h, c : c + w] = True
        for sq in squares:
            r, c = probe._check_pair(sq, "hole")
            mask[r, c] = True
        return cls(rows, cols, holes=mask)

    @classmethod
    def from_mask(cls, text: str, source: str = "mask") -> "Board":
        """A board from ASCII art: ``.`` is a square, ``#`` a hole, one line per row.

        Blank lines at the ends are ignored, and a byte-order mark at the start (some
        editors write one); all rows must have the same width.

        >>> Board.from_mask("..#\\n...\\n").n_squares
        5
        """
        lines = [ln.rstrip("\r") for ln in text.removeprefix("\ufeff").split("\n")]
        while lines and not lines[-1].strip():
            lines.pop()
        while lines and not lines[0].strip():
            lines.pop(0)
        if not lines:
            raise InvalidInput(f"{source} is empty")
        lines = [ln.rstrip() for ln in lines]
        width = len(lines[0])
        for i, ln in enumerate(lines):
            if len(ln) != width:
                raise InvalidInput(
                    f"{source} line {i + 1} has {len(ln)} characters, line 1 has {width}"
                )
            bad = set(ln) - {".", "#"}
            if bad:
                ch = sorted(bad)[0]
                raise InvalidInput(
                    f"{source} line {i + 1} has {ch!r}: use '.' for a square and '#' for a hole"
                )
        mask = np.array([[ch == "#" for ch in ln] for ln in lines], dtype=bool)
        return cls(len(lines), width, holes=mask)

    @classmethod
    def from_mask_file(cls, path) -> "Board":
        """Read :meth:`from_mask` text from a file (clear errors for missing or binary files)."""
        from kt_formal.files import read_user_text

        p = Path(path)
        text = read_user_text(p, what="mask file ", limit=64 << 20)
        return cls.from_mask(text, source=f"mask file {p.name}")

    # ------------------------------------------------------------------ parsing
    def _check_pair(self, sq, what: str = "square") -> tuple[int, int]:
        try:
            r, c = sq
        except (TypeError, ValueError):
            raise InvalidInput(f"{what} {sq!r} is not a (row, col) pair") from None
        r = _as_int(r, f"{what} row")
        c = _as_int(c, f"{what} column")
        if not (0 <= r < self.rows and 0 <= c < self.cols):
            raise InvalidInput(f"{what} ({r}, {c}) lies outside the {self.rows}x{self.cols} board")
        return r, c

    def _check_rect(self, rect) -> tuple[int, int, int, int]:
        try:
            r, c, h, w = (_as_int(v, "hole rectangle") for v in rect)
        except (TypeError, ValueError):
            raise InvalidInput(f"hole rectangle {rect!r} is not (row, col, height, width)") from None
        if h < 1 or w < 1:
            raise InvalidInput(f"hole {h}x{w} at ({r}, {c}) must be at least 1x1")
        if r < 0 or c < 0 or r + h > self.rows or c + w > self.cols:
            raise InvalidInput(
                f"hole {h}x{w} at ({r}, {c}) lies outside the {self.rows}x{self.cols} board"
            )
        return r, c, h, w

    def parse_rect(self, text: str) -> tuple[int, int, int, int]:
        """Parse ``"R,C,HxW"`` (0-based top-left corner, height x width) and check it fits.

        >>> Board(8, 8).parse_rect("3,3,2x2")
        (3, 3, 2, 2)
        """
        m = _RECT_RE.match(text)
        if not m:
            raise InvalidInput(f"hole {_shown(text)} is not of the form ROW,COL,HxW (e.g. 3,3,2x2)")
        return self._check_rect(tuple(int(g) for g in m.groups()))

    def parse_square(self, text) -> tuple[int, int]:
        """Parse a square given as ``"r,c"`` (0-based) or a chess name such as ``"a1"``.

        Also accepts a (row, col) pair. The square must be on the board (it may be a hole).
        """
        if not isinstance(text, str):
            return self._check_pair(text)
        m = _PAIR_RE.match(text)
        if m:
            return self._check_pair((int(m.group(1)), int(m.group(2))))
        m = _CHESS_RE.match(text)
        if m:
            col = parse_file_name(m.group(1))
            rank = int(m.group(2))
            row = self.rows - rank
            if not (0 <= col < self.cols and 1 <= rank <= self.rows):
                raise InvalidInput(f"square {_shown(text)} lies outside the {self.rows}x{self.cols} board")
            return row, col
        raise InvalidInput(f"square {_shown(text)} is neither ROW,COL (0-based) nor a chess name like a1")

    def parse_live_square(self, text) -> tuple[int, int]:
        """Like :meth:`parse_square`, but the square must not be a hole."""
        r, c = self.parse_square(text)
        if not self.is_live(r, c):
            raise InvalidInput(f"square ({r}, {c}) is a hole")
        return r, c

    # ------------------------------------------------------------------ queries
    @property
    def shape(self) -> tuple[int, int]:
        return self.rows, self.cols

    @property
    def size(self) -> int:
        """Squares of the full rectangle, holes included."""
        return self.rows * self.cols

    @property
    def n_holes(self) -> int:
        return self._n_holes

    @property
    def n_squares(self) -> int:
        """Live squares (the rectangle minus the holes)."""
        return self.rows * self.cols - self._n_holes

    @property
    def has_holes(self) -> bool:
        return self._holes is not None or self._live is not None

    @property
    def sparse(self) -> bool:
        """Whether the board is kept as the list of its squares (mostly hole)."""
        return self._live is not None

    @property
    def hole_mask(self) -> np.ndarray:
        """Boolean (rows, cols) array, True on holes (a fresh all-False array if none; made
        afresh, within the memory guard, on a :attr:`sparse` board)."""
        if self._live is not None:
            ensure_memory(self.size, f"a hole mask for the {self.rows}x{self.cols} board")
            mask = np.ones(self.size, dtype=bool)
            mask[self._live] = False
            return mask.reshape(self.rows, self.cols)
        if self._holes is None:
            return np.zeros((self.rows, self.cols), dtype=bool)
        return self._holes

    def live_mask(self) -> np.ndarray:
        """Boolean (rows, cols) array, True on live squares."""
        return ~self.hole_mask

    def holes(self) -> list[tuple[int, int]]:
        """The removed squares in row-major order."""
        if self._holes is None and self._live is None:
            return []
        if self._live is not None:
            ensure_memory(self._n_holes * 100.0, f"the list of the {self._n_holes:,} holes of the "
                          f"{self.rows}x{self.cols} board")
        return [(int(r), int(c)) for r, c in zip(*np.nonzero(self.hole_mask))]

    def first_holes(self, k: int) -> list[tuple[int, int]]:
        """The first ``k`` holes in row-major order, found a block at a time (a board of 10^8
        holes is not listed to name six of them)."""
        if self._live is not None:
            before = self._live - np.arange(self._live.size)  # holes before each square
            i = int(np.searchsorted(before, k))  # the first square with k holes before it
            bound = int(self._live[i]) if i < self._live.size else min(self.size, self._live.size + k)
            holes = np.setdiff1d(np.arange(bound, dtype=np.int64), self._live[:i], assume_unique=True)
            return [self.square(h) for h in holes[:k]]
        return [] if self._holes is None else first_positions(self._holes, k)

    def is_live(self, r: int, c: int) -> bool:
        """True when (r, c) is on the board and not a hole."""
        if not (0 <= r < self.rows and 0 <= c < self.cols):
            return False
        if self._live is not None:
            i = r * self.cols + c
            at = int(np.searchsorted(self._live, i))
            return at < self._live.size and int(self._live[at]) == i
        return self._holes is None or not bool(self._holes[r, c])

    def squares(self) -> list[tuple[int, int]]:
        """All live squares in row-major order."""
        if self._live is not None:
            rr, cc = np.divmod(self._live, self.cols)
        else:
            rr, cc = np.nonzero(self.live_mask())
        return list(zip(rr.tolist(), cc.tolist()))

    def live_indices(self) -> np.ndarray:
        """Indices ``row * cols + col`` of the live squares, ascending."""
        if self._live is not None:
            return self._live.copy()
        return np.flatnonzero(self.live_mask().ravel())

    def index(self, r: int, c: int) -> int:
        return r * self.cols + c

    def square(self, index: int) -> tuple[int, int]:
        r, c = divmod(int(index), self.cols)
        return r, c

    # ------------------------------------------------------------------ colours and degrees
    @staticmethod
    def colour(r: int, c: int) -> int:
        """0 or 1, ``(r + c) % 2``: a knight move always changes it."""
        return geometry.colour(r, c)

    def is_dark(self, r: int, c: int) -> bool:
        """Chess colouring: ``a1`` (bottom-left) is dark."""
        return geometry.is_dark(self.rows, (r, c))

    def colour_counts(self) -> tuple[int, int]:
        """Live squares of colour 0 and of colour 1 (colour = (row + col) % 2)."""
        total = self.rows * self.cols
        c0 = (total + 1) // 2  # (0, 0) has colour 0 and takes the odd square
        c1 = total - c0
        if self._live is not None:
            rr, cc = np.divmod(self._live, self.cols)
            c1 = int(((rr + cc) % 2).sum())
            return int(self._live.size) - c1, c1
        if self._holes is not None:
            rr, cc = np.nonzero(self._holes)
            h1 = int(((rr + cc) % 2).sum())
            c0 -= len(rr) - h1
            c1 -= h1
        return c0, c1

    def dark_light_counts(self) -> tuple[int, int]:
        """Live (dark, light) squares under the chess colouring."""
        c0, c1 = self.colour_counts()
        dark_is_0 = (self.rows - 1) % 2 == 0  # (rows-1-r+c) even <=> (r+c) has parity of rows-1
        return (c0, c1) if dark_is_0 else (c1, c0)

    def degrees(self) -> np.ndarray:
        """(rows, cols) int array: knight moves from each live square to live squares; -1 on holes."""
        ensure_memory(self.rows * self.cols * 10, f"degrees of the {self.rows}x{self.cols} board")
        live = self.live_mask()
        deg = np.zeros((self.rows, self.cols), dtype=np.int16)
        for dr, dc in KNIGHT_MOVES:
            src_r = slice(max(0, -dr), self.rows - max(0, dr))
            src_c = slice(max(0, -dc), self.cols - max(0, dc))
            dst_r = slice(max(0, dr), self.rows - max(0, -dr))
            dst_c = slice(max(0, dc), self.cols - max(0, -dc))
            deg[src_r, src_c] += live[dst_r, dst_c]
        deg[~live] = -1
        return deg

    def low_degree_squares(self, at_most: int, first: int) -> list[tuple[tuple[int, int], int]]:
        """The first ``first`` live squares (row-major order) with at most ``at_most`` knight
        moves, with their degrees; without an array of the whole board where the board is
        plain (the degrees depend only on the distance to the sides) or :attr:`sparse`.

        >>> Board(1, 10**9).low_degree_squares(0, 2)
        [((0, 0), 0), ((0, 1), 0)]
        """
        if not self.has_holes:
            return plain_low_squares(self.rows, self.cols, at_most, first)
        if self._live is not None:
            deg = square_degrees(self.rows, self.cols, self._live)
            at = np.flatnonzero(deg <= at_most)[:first]
            return [(self.square(self._live[i]), int(deg[i])) for i in at]
        deg = self.degrees()
        return [(q, int(deg[q])) for q in first_positions(deg, first, lambda p: (p >= 0) & (p <= at_most))]

    def neighbours(self, r: int, c: int) -> list[tuple[int, int]]:
        """Live squares a knight move away from (r, c), in :data:`KNIGHT_MOVES` order."""
        return [(r + dr, c + dc) for dr, dc in KNIGHT_MOVES if self.is_live(r + dr, c + dc)]

    # ------------------------------------------------------------------ names and text
    def square_name(self, sq) -> str:
        """Chess name of a (row, col) square: ``a1`` is the bottom-left square."""
        return square_name(self.rows, sq)

    def to_mask(self) -> str:
        """ASCII art of the board, ``.`` squares and ``#`` holes (inverse of :meth:`from_mask`)."""
        live = self.live_mask()
        return "\n".join("".join("." if x else "#" for x in row) for row in live) + "\n"

    def describe(self) -> str:
        """``8x8`` or ``8x8 minus 4 squares`` (the squares removed, however many holes they form)."""
        base = f"{self.rows}x{self.cols}"
        if self._n_holes:
            return f"{base} minus {self._n_holes} square{'s' if self._n_holes != 1 else ''}"
        return base

    # ------------------------------------------------------------------ symmetries
    def transformed(self, sym: str) -> "Board":
        """The board under one of the eight :data:`SYMMETRIES` (holes move with it)."""
        _, _, rows2, cols2 = transform_coords(0, 0, self.rows, self.cols, sym)
        if not self.has_holes:
            return Board(rows2, cols2)
        if self._live is not None:
            r2, c2, _, _ = transform_coords(*np.divmod(self._live, self.cols), self.rows, self.cols, sym)
            return Board(rows2, cols2, live=np.sort(r2 * cols2 + c2))
        rr, cc = np.nonzero(self.hole_mask)
        r2, c2, _, _ = transform_coords(rr, cc, self.rows, self.cols, sym)
        mask = np.zeros((rows2, cols2), dtype=bool)
        mask[r2, c2] = True
        return Board(rows2, cols2, holes=mask)

    # ------------------------------------------------------------------ identity
    def __eq__(self, other) -> bool:
        if not isinstance(other, Board):
            return NotImplemented
        if (self.rows, self.cols, self._n_holes) != (other.rows, other.cols, other._n_holes):
            return False
        if self._live is None and other._live is None:
            return self._holes is None or (other._holes is not None and bool(np.array_equal(self._holes, other._holes)))
        return bool(np.array_equal(self.live_indices(), other.live_indices()))

    def __hash__(self) -> int:
        # the first holes tell boards of one family apart, alike however the board is kept
        return hash((self.rows, self.cols, self._n_holes, tuple(self.first_holes(4))))

    def __repr__(self) -> str:
        if self._n_holes:
            return f"Board({self.rows}, {self.cols}, holes=<{self._n_holes} squares>)"
        return f"Board({self.rows}, {self.cols})"

    def _repr_svg_(self) -> str | None:
        """The picture a notebook shows (:func:`kt_formal.svg.board_repr_svg`; None when too large)."""
        from kt_formal.svg import board_repr_svg

        return board_repr_svg(self)

