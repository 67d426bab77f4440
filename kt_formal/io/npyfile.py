"""Reading ``.npy`` headers within the file's bounds, and grids stored in Fortran order.

A ``.npy`` file is the magic ``\\x93NUMPY``, a version (1.0, 2.0 or 3.0), the header's
length (2 bytes in 1.0, 4 in 2.0 and 3.0), the header (a Python dict literal naming
``descr``, ``fortran_order`` and ``shape``) and the data. :func:`npy_header` reads the
header only after checking that its length is at most :data:`MAX_HEADER` and lies inside
the file, and accepts the shape only when the data it needs is there: nothing is allocated
from a number the file claims before the file is seen to hold it.

A Fortran-order ``(rows, cols)`` array is stored as its transpose in C order, so a
numbered grid in Fortran order is read, chunk by chunk, as the grid of the transposed
board, and its tour turned back (:func:`untransposed`): the same memory as C order.

>>> import io, numpy as np
>>> buf = io.BytesIO()
>>> np.save(buf, np.zeros((3, 4), dtype=np.int32))
>>> h = npy_header_bytes(buf.getvalue(), "a.npy")
>>> h.shape, h.fortran, h.dtype.str, h.offset
((3, 4), False, '<i4', 128)
"""

from __future__ import annotations

import ast
import math
import os
from typing import NamedTuple

import numpy as np

from kt_formal.exceptions import InvalidInput

__all__ = ["NpyHeader", "npy_header", "npy_header_bytes", "untransposed", "enough_listed", "MAX_HEADER", "SPARSE_PLACES"]

#: Longest ``.npy`` header read (bytes); numpy's own reader refuses more than 10,000.
MAX_HEADER = 1 << 16

_MAGIC = b"\x93NUMPY"


class NpyHeader(NamedTuple):
    """What a ``.npy`` header says, checked against the file: ``offset`` is where the data starts."""

    shape: tuple
    fortran: bool
    dtype: np.dtype
    offset: int


def npy_header(path) -> NpyHeader:
    """The header of the ``.npy`` file ``path``, read within the file's size (see module doc).

    Raises
    ------
    InvalidInput
        Saying what is wrong: no magic, an unknown version, a header longer than
        :data:`MAX_HEADER` or than the file, a header that is not numpy's dict, or data
        shorter than the shape and type need.
    """
    name = os.path.basename(str(path))
    with open(path, "rb") as fh:
        size = os.fstat(fh.fileno()).st_size
        head = fh.read(12)
        length, start = _header_length(head, name)
        if length > min(MAX_HEADER, size - start):
            _too_long(name, length, size - start)
        return npy_header_bytes(head + fh.read(start + length - len(head)), name, size)


def npy_header_bytes(data: bytes, name: str, size: int | None = None) -> NpyHeader:
    """The header at the start of ``data`` (a file of ``size`` bytes; default ``len(data)``)."""
    size = len(data) if size is None else size
    length, start = _header_length(data[:12], name)
    if length > min(MAX_HEADER, size - start, len(data) - start):
        _too_long(name, length, size - start)
    text = data[start:start + length].decode("utf-8" if data[6] == 3 else "latin-1", errors="replace")
    try:
        d = ast.literal_eval(text)  # as numpy reads it: no other spaces are dropped
    except (ValueError, SyntaxError, TypeError, RecursionError, MemoryError):
        d = None
    if not isinstance(d, dict) or set(d) != {"descr", "fortran_order", "shape"}:
        raise InvalidInput(f"{name}: the .npy header is not numpy's dict of 'descr', 'fortran_order' and 'shape'")
    shape, fortran = d["shape"], d["fortran_order"]
    if not isinstance(shape, tuple) or not all(type(x) is int and x >= 0 for x in shape) \
            or type(fortran) is not bool:
        raise InvalidInput(f"{name}: the .npy header's shape {str(shape)[:40]} or order "
                           f"{str(fortran)[:10]} is malformed")
    try:
        dtype = np.lib.format.descr_to_dtype(d["descr"])
    except (TypeError, ValueError, KeyError):
        raise InvalidInput(f"{name}: the .npy header names no data type numpy knows "
                           f"({str(d['descr'])[:40]})") from None
    offset = start + length
    need = math.prod(shape) * dtype.itemsize
    if not dtype.hasobject and size - offset < need:
        raise InvalidInput(f"{name}: its .npy header says {'x'.join(map(str, shape)) or 'one'} {dtype} "
                           f"({need:,} bytes of data) but the file holds {max(size - offset, 0):,} "
                           "after the header; truncated?")
    return NpyHeader(shape, fortran, dtype, offset)


def _header_length(head: bytes, name: str) -> tuple[int, int]:
    """The header's claimed length and where it starts, from the first 12 bytes."""
    if len(head) < 10 or not head.startswith(_MAGIC):
        raise InvalidInput(f"{name} is not a valid .npy file (it does not start with the .npy magic)")
    major, minor = head[6], head[7]
    if (major, minor) == (1, 0):
        return int.from_bytes(head[8:10], "little"), 10
    if (major, minor) in ((2, 0), (3, 0)) and len(head) >= 12:
        return int.from_bytes(head[8:12], "little"), 12
    raise InvalidInput(f"{name}: .npy version {major}.{minor} is not one numpy writes (1.0, 2.0, 3.0)"
                       if major not in (1, 2, 3) else f"{name} is shorter than a .npy header")


def _too_long(name: str, length: int, room: int):
    raise InvalidInput(f"{name}: its .npy header claims {length:,} bytes; a header is read up to "
                       f"{MAX_HEADER:,} bytes and the file holds {max(room, 0):,} after the magic")


def untransposed(tour, source: str):
    """The tour of a grid read as its transpose (a Fortran-order file), on the grid's own
    board, checked again by the kernel."""
    from kt_formal.board import Board
    from kt_formal.certificate import check_tour
    from kt_formal.exceptions import CertificateRejected
    from kt_formal.tours import Tour

    bt = tour.board  # cols x rows
    rows, cols = bt.cols, bt.rows
    order = tour.order
    order = (order % rows) * cols + order // rows
    holes = None
    if bt.n_holes:
        holes = np.ones(rows * cols, dtype=bool)
        holes[order] = False
        holes = holes.reshape(rows, cols)
    board = Board(rows, cols, holes=holes)
    reason = check_tour(board, order, closed=tour.closed)
    if reason is not None:  # a transposed knight's tour is one: this would be a bug
        raise CertificateRejected(f"{source}: {reason}")
    return Tour(board, order, closed=tour.closed)


#: Past this many places, a binary order file must list at least one square in 64 of its
#: board: its holes are the squares it does not list, so a short file must not make the
#: reader build the mask of a board of 10^8 places from its header.
SPARSE_PLACES = 1 << 24


def enough_listed(name: str, k: int, rows: int, cols: int) -> None:
    """Refuse (:class:`InvalidInput`) an order file of ``k`` squares on a ``rows`` x ``cols``
    board over :data:`SPARSE_PLACES` places that lists fewer than one square in 64.

    >>> enough_listed("t.ktour", 1, 10**8, 1)
    Traceback (most recent call last):
    ...
    kt_formal.kernel.errors.InvalidInput: t.ktour lists 1 square of a 100000000x1 board (100,000,000 places): a tour file must list at least one square in 64 of a board over 16,777,216 places
    """
    places = rows * cols
    if places > SPARSE_PLACES and k * 64 < places:
        raise InvalidInput(f"{name} lists {k:,} square{'' if k == 1 else 's'} of a {rows}x{cols} board "
                           f"({places:,} places): a tour file must list at least one square in 64 of a "
                           f"board over {SPARSE_PLACES:,} places")
