"""Writing a tour to a file: the one writer of every tour format.

:func:`save` writes any of :data:`TOUR_FORMATS` (``Tour.save``, ``kt-formal tour --out``
and the Python API all come here). Every file says whether its tour is closed: the text
formats by a first line ``# kt-formal grid|coords|chess: closed|open tour, board RxC``,
JSON, ``succ`` and the binary order file by their content, and ``npy`` (a numbered grid,
which ``numpy.load`` reads as any other) by the same line written after the array's data,
where numpy does not look.

Big grids are written without a Python loop per square (:func:`write_grid`: exactly
:meth:`kt_formal.tours.Tour.to_grid`, numbers right-aligned to the width of the largest,
one space between cells, ``#`` on holes, in chunks of rows with numpy digit arithmetic).

>>> import io
>>> from kt_formal.board import Board
>>> from kt_formal.tours import Tour
>>> t = Tour.from_squares(Board(3, 4), [(0, 0), (1, 2), (2, 0), (0, 1), (2, 2), (1, 0), (0, 2), (2, 3), (1, 1), (0, 3), (2, 1), (1, 3)], False)
>>> buf = io.BytesIO(); write_grid(t, buf); buf.getvalue().decode() == t.to_grid()
True
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np

from kt_formal.exceptions import InvalidInput, Worded
from kt_formal.files import output_file

__all__ = ["save", "write_grid", "write_binary", "format_for_path", "header_line", "json_limit_message",
           "TOUR_FORMATS", "JSON_MAX_SQUARES", "TEXT_SLOW_SQUARES", "BINARY_MAGIC", "BINARY_SUFFIX"]

#: Every format a tour file can have.
TOUR_FORMATS = ("grid", "coords", "chess", "json", "npy", "succ", "bin")
#: The first 8 bytes of a binary order file.
BINARY_MAGIC = b"KTOUR01\n"
#: The suffix of a binary order file.
BINARY_SUFFIX = ".ktour"
#: Squares written at a time to a binary order file.
_CHUNK = 1 << 22

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


def format_for_path(path) -> str:
    """The format a file name asks for: ``json``, ``npy``, ``bin`` by suffix, else ``grid``.

    >>> format_for_path("t.json"), format_for_path("big.ktour"), format_for_path("t.txt")
    ('json', 'bin', 'grid')
    """
    suffix = os.path.splitext(str(path or ""))[1].lower()
    return {".json": "json", ".npy": "npy", BINARY_SUFFIX: "bin"}.get(suffix, "grid")


def header_line(tour, fmt: str) -> str:
    """``# kt-formal FMT: closed|open tour, board RxC``: the first line of a text tour file."""
    b = tour.board
    return f"# kt-formal {fmt}: {'closed' if tour.closed else 'open'} tour, board {b.rows}x{b.cols}\n"


def json_limit_message(squares: int, what: str = "tour") -> str:
    """Why JSON is refused for a tour (or board) of ``squares`` squares, and what to use instead."""
    return Worded(f"JSON lists every square and is limited to {JSON_MAX_SQUARES:,} squares; this {what} "
                  f"has {squares:,} squares: use {{out binary}} (compact binary), {{out npy}} or {{format succ}}",
                  {"out binary": f"a file FILE{BINARY_SUFFIX}", "out npy": "FILE.npy", "format succ": "fmt='succ'"})


def write_binary(tour, fh) -> None:
    """Write the binary order file of ``tour`` (see :mod:`kt_formal.io.formats`) to ``fh``."""
    b = tour.board
    width = 4 if b.size <= 2**32 else 8
    header = (BINARY_MAGIC + np.array([b.rows, b.cols], dtype="<u8").tobytes()
              + bytes([1 if tour.closed else 0, width]) + bytes(6))
    fh.write(header)
    dtype = "<u4" if width == 4 else "<u8"
    order = tour.order
    for lo in range(0, len(order), _CHUNK):
        fh.write(np.ascontiguousarray(order[lo:lo + _CHUNK], dtype=dtype).tobytes())


def save(tour, path, fmt: str | None = None, **meta) -> Path:
    """Write ``tour`` to ``path`` in any of :data:`TOUR_FORMATS` (default: by suffix).

    ``meta`` goes into a JSON certificate (e.g. ``engine``).

    Raises
    ------
    InvalidInput
        If the file cannot be written, or JSON is asked above :data:`JSON_MAX_SQUARES`.
    """
    p = Path(path)
    fmt = fmt or format_for_path(p)
    if fmt not in TOUR_FORMATS:
        raise InvalidInput(f"unknown format {fmt!r}; choose from {', '.join(TOUR_FORMATS)}")
    if fmt == "json" and len(tour) > JSON_MAX_SQUARES:
        raise InvalidInput(json_limit_message(len(tour)))
    with output_file(path, binary=True) as fh:  # whole or not at all; "-" is standard output
        if fmt == "bin":
            write_binary(tour, fh)
        elif fmt == "npy":
            np.save(fh, tour.numbering())
            fh.write(header_line(tour, "npy").encode("ascii"))  # after the array: numpy reads past it
        elif fmt == "succ":
            np.save(fh, tour.successor().reshape(tour.board.rows, tour.board.cols))
        elif fmt == "grid":
            fh.write(header_line(tour, "grid").encode("utf-8"))
            if tour.board.size > 100_000:
                write_grid(tour, fh)
            else:
                fh.write(tour.to_grid().encode("utf-8"))
        else:
            fh.write((tour.to_json(**meta) if fmt == "json" else tour.format(fmt)).encode("utf-8"))
    return p
