"""Tours: a board plus its live squares in visiting order, closed or open.

The order is a numpy integer array of square indices ``row * cols + col``; a closed
tour also moves from its last square back to its first. A Tour does not check itself
on construction (engines build many); :meth:`Tour.verify` hands it to the independent
checker in :mod:`kt_formal.certificate`.

>>> from kt_formal.board import Board
>>> ring = Board(3, 3, holes=[(1, 1)])   # the 3x3 board minus its centre
>>> t = Tour.from_squares(ring, [(0, 0), (1, 2), (2, 0), (0, 1), (2, 2), (1, 0), (0, 2), (2, 1)],
...                       closed=True)
>>> t.check() is None, t.renumbered((2, 2)).start
(True, (2, 2))
>>> print(t.to_grid(), end="")
1 4 7
6 # 2
3 8 5
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from kt_formal.board import SYMMETRIES, Board, file_name, transform_coords
from kt_formal.exceptions import CertificateRejected, InvalidInput
from kt_formal.kernel.tourcheck import check_tour

__all__ = ["Tour", "FORMATS"]

#: Text formats a tour can be written in.
FORMATS = ("grid", "coords", "chess", "json")


class Tour:
    """A knight's tour of a board.

    Parameters
    ----------
    board : Board
    order : array of int
        Square indices ``row * cols + col`` in visiting order.
    closed : bool
        Whether the last square returns to the first by a knight move.
    """

    __slots__ = ("board", "order", "closed")

    def __init__(self, board: Board, order, closed: bool):
        arr = np.asarray(order)
        if arr.ndim != 1 or (arr.size and arr.dtype.kind not in "iu"):
            raise InvalidInput("a tour order must be a 1-D array of square indices")
        self.board = board
        self.order = arr
        self.closed = bool(closed)

    @classmethod
    def from_squares(cls, board: Board, squares, closed: bool) -> "Tour":
        """A tour from a sequence of (row, col) squares."""
        arr = np.asarray(list(squares), dtype=np.int64).reshape(-1, 2)
        return cls(board, arr[:, 0] * board.cols + arr[:, 1], closed)

    # ------------------------------------------------------------------ views
    def __len__(self) -> int:
        return int(self.order.shape[0])

    def coords(self) -> tuple[np.ndarray, np.ndarray]:
        """Row and column arrays of the squares in visiting order."""
        return np.divmod(self.order, self.board.cols)

    def squares(self) -> list[tuple[int, int]]:
        """The squares in visiting order as (row, col) tuples (small tours)."""
        r, c = self.coords()
        return list(zip(r.tolist(), c.tolist()))

    @property
    def start(self) -> tuple[int, int]:
        return self.board.square(self.order[0])

    @property
    def end(self) -> tuple[int, int]:
        return self.board.square(self.order[-1])

    def numbering(self) -> np.ndarray:
        """(rows, cols) array: the step number (1-based) of each square, 0 on holes."""
        dtype = np.int32 if len(self) < 2**31 - 1 else np.int64
        grid = np.zeros(self.board.rows * self.board.cols, dtype=dtype)
        grid[self.order] = np.arange(1, len(self) + 1, dtype=dtype)
        return grid.reshape(self.board.rows, self.board.cols)

    def edges(self) -> np.ndarray:
        """(k, 2) array of the moves (index pairs) in order, the closing move last if closed."""
        nxt = np.roll(self.order, -1) if self.closed else self.order[1:]
        return np.stack([self.order[: len(nxt)], nxt], axis=1)

    def successor(self) -> np.ndarray:
        """Array over all board indices: the next square's index (-1 on holes and at an open end)."""
        succ = np.full(self.board.rows * self.board.cols, -1, dtype=self.order.dtype)
        if self.closed:
            succ[self.order] = np.roll(self.order, -1)
        else:
            succ[self.order[:-1]] = self.order[1:]
        return succ

    # ------------------------------------------------------------------ checking
    def check(self) -> str | None:
        """The first violation found by the kernel's tour check, or None if valid."""
        return check_tour(self.board, self.order, self.closed)

    def verify(self) -> "Tour":
        """Raise CertificateRejected unless the tour is valid; return self for chaining."""
        reason = self.check()
        if reason is not None:
            raise CertificateRejected(reason)
        return self

    # ------------------------------------------------------------------ operations
    def position(self, square) -> int:
        """0-based position of a (row, col) square in the order."""
        r, c = square
        hits = np.flatnonzero(self.order == r * self.board.cols + c)
        if hits.size == 0:
            raise InvalidInput(f"square ({r}, {c}) is not on the tour")
        return int(hits[0])

    def renumbered(self, start) -> "Tour":
        """The same tour numbered so that ``start`` is square 1 (rule 3 of the backtracking method).

        A closed tour is rotated; an open tour can only start at one of its ends
        (it is reversed if ``start`` is its last square).
        """
        i = self.position(start)
        if self.closed:
            return Tour(self.board, np.roll(self.order, -i), True)
        if i == 0:
            return self
        if i == len(self) - 1:
            return self.reversed()
        raise InvalidInput(
            f"an open tour can only be renumbered from one of its ends, not square {i + 1}"
        )

    def reversed(self) -> "Tour":
        """The tour walked backwards (a closed tour keeps its first square)."""
        if self.closed:
            return Tour(self.board, np.roll(self.order[::-1], 1).copy(), True)
        return Tour(self.board, self.order[::-1].copy(), False)

    def transformed(self, sym: str) -> "Tour":
        """The tour under one of the eight board symmetries (see :data:`~kt_formal.board.SYMMETRIES`)."""
        r, c = self.coords()
        r2, c2, rows2, cols2 = transform_coords(r, c, self.board.rows, self.board.cols, sym)
        order = (r2 * cols2 + c2).astype(self.order.dtype, copy=False)
        return Tour(self.board.transformed(sym), order, self.closed)

    def symmetries(self) -> dict[str, "Tour"]:
        """All eight images of the tour, keyed by symmetry name."""
        return {s: self.transformed(s) for s in SYMMETRIES}

    def shifted(self, d_row: int, d_col: int, board: Board) -> np.ndarray:
        """Indices of this tour's squares placed at offset (d_row, d_col) on a larger board."""
        r, c = self.coords()
        return (r + d_row) * board.cols + (c + d_col)

    # ------------------------------------------------------------------ text
    def to_grid(self, hole: str = "#") -> str:
        """Numbered grid, 1 at the first square, aligned columns (the seeds' output style)."""
        num = self.numbering()
        width = len(str(len(self)))
        live = self.board.live_mask()
        lines = []
        for i in range(self.board.rows):
            cells = [
                f"{int(v):>{width}}" if ok else f"{hole:>{width}}"
                for v, ok in zip(num[i], live[i])
            ]
            lines.append(" ".join(cells))
        return "\n".join(lines) + "\n"

    def to_coords(self, per_line: int | None = None) -> str:
        """``(r, c)`` pairs in order, ``per_line`` to a line (default: the board's width).

        This is the output style of seeds 000 and 004.
        """
        per_line = per_line or self.board.cols
        items = [f"({r}, {c})" for r, c in self.squares()]
        return "".join(" ".join(items[i : i + per_line]) + "\n" for i in range(0, len(items), per_line))

    def to_chess(self, per_line: int | None = None) -> str:
        """Chess names of the squares in order (``a1`` bottom-left), ``per_line`` to a line."""
        per_line = per_line or self.board.cols
        rows = self.board.rows
        items = [f"{file_name(c)}{rows - r}" for r, c in self.squares()]
        return "".join(" ".join(items[i : i + per_line]) + "\n" for i in range(0, len(items), per_line))

    def to_dict(self, **meta) -> dict:
        """The JSON certificate that :func:`kt_formal.kernel.check_certificate` reads."""
        b = self.board
        r, c = np.divmod(np.asarray(self.order, dtype=np.int64), b.cols)
        d = {
            "format": "kt-formal/1",
            "kind": "tour",
            "board": {"rows": b.rows, "cols": b.cols, "holes": [list(h) for h in b.holes()]},
            "closed": bool(self.closed),
            "squares": np.stack([r, c], axis=1).tolist(),
        }
        if meta:
            d["meta"] = meta
        return d

    def to_json(self, **meta) -> str:
        import json

        return json.dumps(self.to_dict(**meta), separators=(",", ":")) + "\n"

    def format(self, fmt: str = "grid") -> str:
        """Text of the tour in one of :data:`FORMATS`.

        ``coords`` and ``chess`` start with the header lines that let a reader rebuild the
        board (its size, its holes) and know whether the tour is closed
        (:func:`kt_formal.io.formats.read_order_text`); :meth:`to_coords` and
        :meth:`to_chess` give the squares alone.
        """
        if fmt == "grid":
            return self.to_grid()
        if fmt in ("coords", "chess"):
            return self._order_header(fmt) + (self.to_coords() if fmt == "coords" else self.to_chess())
        if fmt == "json":
            return self.to_json()
        raise InvalidInput(f"unknown format {fmt!r}; choose from {', '.join(FORMATS)}")

    def _order_header(self, fmt: str) -> str:
        b = self.board
        kind = "closed" if self.closed else "open"
        head = f"# kt-formal {fmt}: {kind} tour, board {b.rows}x{b.cols}\n"
        if b.has_holes:
            names = (b.square_name(h) if fmt == "chess" else f"{h[0]},{h[1]}" for h in b.holes())
            head += "# holes: " + " ".join(names) + "\n"
        return head

    def save(self, path, fmt: str | None = None, **meta) -> Path:
        """Write the tour in any format of :data:`kt_formal.tourfile.TOUR_FORMATS` (default: by
        the suffix: .json, .npy, .ktour, else a numbered grid); every file but ``npy`` says
        whether the tour is closed. ``meta`` goes into a JSON certificate."""
        from kt_formal.tourfile import save

        return save(self, path, fmt, **meta)

    def __repr__(self) -> str:
        kind = "closed" if self.closed else "open"
        return f"<Tour {kind} {self.board.describe()}, {len(self)} squares>"

    def _repr_svg_(self) -> str | None:
        """The picture a notebook shows (:func:`kt_formal.svg.tour_repr_svg`; None when too large)."""
        from kt_formal.svg import tour_repr_svg

        return tour_repr_svg(self)

    def __eq__(self, other) -> bool:
        if not isinstance(other, Tour):
            return NotImplemented
        return (
            self.closed == other.closed
            and self.board == other.board
            and np.array_equal(self.order, other.order)
        )

    __hash__ = None  # type: ignore[assignment]  # mutable array inside
