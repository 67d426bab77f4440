"""Fast output of big tours: the numbered grid as text without a Python loop per square.

The text is exactly :meth:`kt_formal.tour.Tour.to_grid` (numbers right-aligned to the
width of the largest, one space between cells, ``#`` on holes), written in
chunks of rows with numpy digit arithmetic.

>>> import io
>>> from kt_formal.board import Board
>>> from kt_formal.tour import Tour
>>> t = Tour.from_squares(Board(3, 4), [(0, 0), (1, 2), (2, 0), (0, 1), (2, 2), (1, 0), (0, 2), (2, 3), (1, 1), (0, 3), (2, 1), (1, 3)], False)
>>> buf = io.BytesIO(); write_grid(t, buf); buf.getvalue().decode() == t.to_grid()
True
"""

from __future__ import annotations

import numpy as np

__all__ = ["write_grid", "JSON_MAX_SQUARES", "TEXT_SLOW_SQUARES"]

#: JSON certificates list every square as a pair: refused above this many squares.
JSON_MAX_SQUARES = 1_000_000
#: Above this many squares the coords/chess text formats (a Python loop) are refused.
TEXT_SLOW_SQUARES = 1_000_000


def write_grid(tour, fh, rows_per_chunk: int | None = None) -> None:
    """Write ``tour.to_grid()`` to the binary file ``fh`` in chunks of rows."""
    num = tour.numbering()
    rows, cols = num.shape
    width = len(str(len(tour)))
    live = tour.board.live_mask() if tour.board.has_holes else None
    if rows_per_chunk is None:
        rows_per_chunk = max(1, (32 << 20) // max(1, cols * (width + 1)))
    pow10 = 10 ** np.arange(width - 1, -1, -1, dtype=np.int64)
    for lo in range(0, rows, rows_per_chunk):
        v = num[lo:lo + rows_per_chunk].astype(np.int64)
        out = np.empty(v.shape + (width + 1,), dtype=np.uint8)
        digits = (v[..., None] // pow10) % 10
        lead = v[..., None] < pow10
        lead[..., -1] = False
        out[..., :width] = np.where(lead, ord(" "), ord("0") + digits)
        if live is not None:
            hole = ~live[lo:lo + rows_per_chunk]
            out[..., :width][hole] = ord(" ")
            out[..., width - 1][hole] = ord("#")
        out[..., width] = ord(" ")
        out[:, -1, width] = ord("\n")
        fh.write(out.tobytes())
