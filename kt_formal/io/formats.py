"""Tour files: every format ``kt-formal tour`` writes, read back and checked.

A tour can be written as

* ``grid``: a *numbered grid*, every square of the rectangle with its step number, 1 at
  the first square, one row per line (what ``kt-formal tour`` prints,
  :meth:`Tour.to_grid <kt_formal.tours.Tour.to_grid>`); a hole is written ``#`` (what
  kt_formal writes), ``.``, ``-`` or ``0``;
* ``coords`` / ``chess``: the squares in visiting order, as ``(r, c)`` pairs (0-based, row
  0 at the top) or chess names (``a1`` bottom-left), after a header line
  ``# kt-formal coords: closed tour, board 8x8`` and, when the board has holes, a line
  ``# holes: 3,3 3,4`` (``# holes: d5 e5`` in chess names);
* ``json``: the certificate of :mod:`kt_formal.certificate` (up to
  :data:`JSON_MAX_SQUARES` squares);
* ``npy``: the numbered grid as a 2-D integer ``.npy`` array, 0 on holes, followed (where
  numpy does not read) by the line ``# kt-formal npy: closed|open tour, board RxC``;
* ``succ``: the *successor array* as a 2-D integer ``.npy`` array of the board's shape:
  entry ``[r, c]`` holds the index ``r2 * cols + c2`` of the square after ``(r, c)``, -1 on
  holes and after an open tour's last square (flattened, entry ``r * cols + c``);
* ``bin``: the compact binary *order file* (suffix ``.ktour``) for boards of any size, see
  below.

The binary order file, all integers little-endian::

    offset  size  field
         0     8  magic b"KTOUR01\\n"
         8     8  rows     (uint64)
        16     8  cols     (uint64)
        24     1  closed   (0 or 1)
        25     1  width W of each index in bytes (4 or 8)
        26     6  reserved, zero
        32   k*W  the k squares in visiting order, as indices row * cols + col

The board's holes are the squares the tour does not list. It takes 4 bytes a square up
to 2^32 squares (a 10^8-square tour is 400 MB, against 1.4 GB of JSON); ``numpy.fromfile``
or ``numpy.memmap(path, "<u4", offset=32)`` reads the order from any program.

A grid or an array does not say whether the tour is closed, so it is read as an **open**
tour unless ``closed=True`` is asked (then the move from the last square back to the
first is checked too). A JSON certificate, a binary order file, a successor array and
a coords or chess file say it themselves.

Two kinds of failure are kept apart, as the command line needs:

* a file that cannot be read as a tour file at all (ragged rows, words, negative
  numbers, no squares, a bad header) raises :class:`~kt_formal.exceptions.InvalidInput`
  (exit 2);
* a well-formed file that is not a tour (a number missing or repeated, a step that is
  not a knight move) raises :class:`~kt_formal.exceptions.CertificateRejected` (exit 1).

Every tour returned has passed the independent checker
:func:`kt_formal.certificate.check_tour`; this module uses no engine. Large files are
read with memory maps and whole-array numpy operations (no Python loop per square).

>>> t = read_grid_text("1 4 7\\n6 # 2\\n3 8 5\\n", closed=True)
>>> t.closed, t.board.describe(), t.start
(True, '3x3 minus 1 square', (0, 0))
>>> read_grid_text("1 2\\n3 4\\n")
Traceback (most recent call last):
...
kt_formal.kernel.errors.CertificateRejected: step 1: (0, 0) -> (0, 1) is not a knight move
>>> print(tour_text(t, "coords"), end="")
# kt-formal coords: closed tour, board 3x3
# holes: 1,1
(0, 0) (1, 2) (2, 0)
(0, 1) (2, 2) (1, 0)
(0, 2) (2, 1)
>>> read_order_text(tour_text(t, "chess")) == t
True
"""

from __future__ import annotations

import os
import re
from contextlib import contextmanager
from pathlib import Path

import numpy as np

from kt_formal.board import Board, ensure_memory
from kt_formal.exceptions import CertificateRejected, InvalidInput, KtFormalError, Worded
from kt_formal.files import read_user_text, regular_file, user_file_errors
from kt_formal.tourfile import (BINARY_MAGIC, BINARY_SUFFIX, JSON_MAX_SQUARES, TOUR_FORMATS, format_for_path,
                                write_binary)
from kt_formal.tourfile import save as save_tour
from kt_formal.engines.successors import follow

__all__ = ["HOLE_TOKENS", "TOUR_FORMATS", "BINARY_MAGIC", "BINARY_SUFFIX", "JSON_MAX_SQUARES", "format_for_path", "tour_text", "write_binary", "save_tour", "read_grid_text", "read_order_text", "grid_to_tour", "successor_to_tour", "read_npy", "read_binary", "read_tour_file", "standard_input_file", "MAX_GRID_BYTES"]

#: Tokens read as a hole in a text grid.
HOLE_TOKENS = frozenset({"#", ".", "-", "0"})

#: Bytes before the order in a binary order file.
_HEADER = 32
#: Squares read at a time from big files.
_CHUNK = 1 << 22


#: Largest grid file read (bytes).
MAX_GRID_BYTES = 1 << 30


def tour_text(tour, fmt: str) -> str:
    """The text of a tour in ``grid``, ``coords``, ``chess`` or ``json`` format.

    ``coords`` and ``chess`` start with the header lines that let :func:`read_order_text`
    rebuild the board (its size, its holes, open or closed).
    """
    return tour.format(fmt)


def _check_order(board: Board, order, closed: bool, source: str):
    from kt_formal.certificate import check_tour
    from kt_formal.tours import Tour

    reason = check_tour(board, order, closed=closed)
    if reason is not None:
        raise CertificateRejected(reason)
    return Tour(board, order, closed=closed)


class _FlatFile:
    """A flat little array stored in a file, read in chunks (nothing kept mapped).

    Reading chunk by chunk keeps the resident memory at the chunk size, where a memory
    map would keep every page it touched (400 MB for a 10^8-square grid).
    """

    def __init__(self, path, offset: int, dtype, shape):
        self.path, self.offset, self.dtype, self.shape = path, offset, np.dtype(dtype), tuple(shape)
        self.ndim = len(self.shape)
        self.size = int(np.prod(self.shape))

    def chunks(self, step: int):
        with open(self.path, "rb") as fh:
            fh.seek(self.offset)
            for lo in range(0, self.size, step):
                n = min(step, self.size - lo)
                chunk = np.fromfile(fh, dtype=self.dtype, count=n)
                if chunk.size != n:
                    raise InvalidInput(f"{Path(self.path).name} is shorter than its header says; truncated?")
                yield lo, chunk


def _array_chunks(a, step: int):
    if isinstance(a, _FlatFile):
        yield from a.chunks(step)
        return
    flat = a.reshape(-1)
    for lo in range(0, flat.size, step):
        yield lo, flat[lo:lo + step]


def index_dtype(rows: int, cols: int):
    """The narrowest safe dtype for square indices of a board: int32 up to 32767 a side.

    The checker squares row and column differences; with sides below 2^15 the sum of
    two squares stays below 2^31, so int32 cannot overflow into a false knight move.
    """
    return np.int32 if max(rows, cols) < 1 << 15 else np.int64


def grid_to_tour(numbers, closed: bool = False, source: str = "grid"):
    """The tour described by a 2-D array of step numbers (0 on holes), checked independently.

    Works in chunks without sorting, so a 10^8-square grid is read in about two seconds
    with the order array (4 bytes a square) as the main extra memory.

    Raises
    ------
    InvalidInput
        If the array is not a 2-D array of non-negative integers with a square left.
    CertificateRejected
        If the numbers are not exactly 1..k over the k live squares, or the order
        they give is not a (closed, if asked) knight's tour.
    """
    a = numbers if isinstance(numbers, (np.ndarray, _FlatFile)) else np.asarray(numbers)
    if a.ndim != 2 or a.size == 0:
        raise InvalidInput(f"{source}: a numbered grid must be a non-empty 2-D array, got shape {a.shape}")
    if a.dtype.kind not in "iu":
        raise InvalidInput(f"{source}: a numbered grid must hold integers, not {a.dtype}")
    rows, cols = a.shape
    total = a.size
    # pass 1: negative numbers, live count
    k = 0
    for lo, chunk in _array_chunks(a, _CHUNK):
        if a.dtype.kind == "i":
            neg = chunk < 0
            if neg.any():
                i = lo + int(np.argmax(neg))
                raise InvalidInput(f"{source}: negative number {int(chunk[i - lo])} at ({i // cols}, {i % cols})")
        k += int(np.count_nonzero(chunk))
    if k == 0:
        raise InvalidInput(f"{source}: the grid has no numbered squares")
    itype = index_dtype(rows, cols)
    ensure_memory(k * (np.dtype(itype).itemsize + 1) + total, f"reading the {rows}x{cols} grid {source}")
    # pass 2: order[number - 1] = index, each number once
    order = np.full(k, -1, dtype=itype)  # a repeated number leaves another one at -1
    too_big = 0
    for lo, chunk in _array_chunks(a, _CHUNK):
        if k == total:  # no hole: every entry is a number
            where = np.arange(lo, lo + chunk.size, dtype=itype)
            vals = chunk
        else:
            nz = np.flatnonzero(chunk)
            where = (nz + lo).astype(itype)
            vals = chunk[nz]
        if vals.size and int(vals.max()) > k:
            big = vals > k
            too_big = max(too_big, int(vals[big].max()))
            where, vals = where[~big], vals[~big]
        order[vals.astype(itype) - 1] = where
    unset = order < 0
    if unset.any():  # k numbers, all in 1..k: one missing means one repeated
        missing = int(np.argmax(unset)) + 1
        if too_big:
            raise CertificateRejected(f"number {too_big} is larger than the {k} numbered squares; "
                                      f"{missing} is missing")
        raise CertificateRejected(f"number {missing} is missing (another number appears more than once)")
    del unset
    holes = None
    if k < total:
        holes = np.ones(total, dtype=bool)
        holes[order] = False
        holes = holes.reshape(rows, cols)
    board = Board(rows, cols, holes=holes)
    del holes
    return _check_order(board, order, closed, source)


def successor_to_tour(succ: np.ndarray, source: str = "successor array"):
    """The tour described by a 2-D successor array (see the module docstring), checked.

    Closed when no live square has -1; open when exactly one does (the last square), and
    the first square is the one no square points to. The order is walked from the
    array (numba for large boards) and then checked by the independent checker, which
    also rejects a second cycle (the walk stops after the squares of one).
    """
    a = succ
    if a.ndim != 2 or a.size == 0 or a.dtype.kind != "i":
        raise InvalidInput(f"{source}: a successor array must be a 2-D signed integer array, "
                           f"got {a.dtype} of shape {a.shape}")
    rows, cols = a.shape
    flat = np.ascontiguousarray(a.reshape(-1), dtype=a.dtype if a.dtype.itemsize >= 4 else np.int32)
    total = flat.size
    bad = (flat < -1) | (flat >= total)
    if bad.any():
        i = int(np.argmax(bad))
        raise InvalidInput(f"{source}: entry {int(flat[i])} at ({i // cols}, {i % cols}) is not a square index or -1")
    targets = np.zeros(total, dtype=bool)
    targets[flat[flat >= 0]] = True
    none = flat < 0
    live = ~none | targets  # a square with a successor or a predecessor
    ends = np.flatnonzero(none & targets)  # the last square of an open tour
    k = int(np.count_nonzero(live))
    if k == 0:
        raise InvalidInput(f"{source}: the array has no squares (every entry is -1)")
    if ends.size > 1:
        raise CertificateRejected(f"{ends.size} squares have no successor; a tour has at most one "
                                  f"(at {ends[0] // cols, ends[0] % cols} and {ends[1] // cols, ends[1] % cols})")
    closed = ends.size == 0
    if closed:
        start = int(np.argmax(live))
    else:
        firsts = np.flatnonzero(live & ~targets)
        if firsts.size != 1:
            raise CertificateRejected(f"an open tour has one first square (no square leads to it); "
                                      f"this array has {firsts.size}")
        start = int(firsts[0])
    order = follow(flat, start, k, index_dtype(rows, cols), note=True)
    board = Board(rows, cols, holes=(~live).reshape(rows, cols) if k < total else None)
    return _check_order(board, order, closed, source)


_GRID_HEAD = re.compile(r"#\s*kt-formal\s+grid:\s*(open|closed)\s+tour,\s*board\s+(\d+)x(\d+)\s*$")


def read_grid_text(text: str, closed: bool | None = False, source: str = "grid"):
    """Read a numbered text grid (see the module docstring) as a checked tour.

    A grid file written by kt_formal starts with ``# kt-formal grid: closed|open tour, board
    RxC``: the tour is checked as that kind (``closed``, if not None, must agree); a bare
    grid is checked as closed when ``closed`` is true, else as open.
    """
    lines = [ln.strip() for ln in text.splitlines()]
    while lines and not lines[-1]:
        lines.pop()
    while lines and not lines[0]:
        lines.pop(0)
    if lines and lines[0].startswith("#") and "kt-formal" in lines[0]:
        m = _GRID_HEAD.match(lines.pop(0))
        if m is None:
            raise InvalidInput(f"{source}: the first line is not a '# kt-formal grid: ... tour, board RxC' header")
        file_closed = m.group(1) == "closed"
        if closed is not None and closed and not file_closed:
            raise CertificateRejected("the file is of an open tour, a closed one was asked")
        closed = file_closed
        if len(lines) != int(m.group(2)) or any(len(ln.split()) != int(m.group(3)) for ln in lines):
            raise InvalidInput(f"{source}: the grid is not the {m.group(2)}x{m.group(3)} board its header names")
    if not lines:
        raise InvalidInput(f"{source} is empty")
    rows = []
    width = None
    for i, ln in enumerate(lines, start=1):
        if not ln:
            raise InvalidInput(f"{source}: blank line {i} inside the grid")
        tokens = ln.split()
        if width is None:
            width = len(tokens)
        elif len(tokens) != width:
            raise InvalidInput(f"{source}: line {i} has {len(tokens)} entries, line 1 has {width}")
        row = []
        for tok in tokens:
            if tok in HOLE_TOKENS:
                row.append(0)
                continue
            if not tok.isdigit():
                raise InvalidInput(f"{source}: line {i}: {tok[:20]!r} is not a step number or a hole ('#', '.', '-')")
            row.append(int(tok))
        rows.append(row)
    biggest = max(max(r) for r in rows)
    if biggest >= 2**62:
        raise InvalidInput(f"{source}: number {biggest} is too large")
    return grid_to_tour(np.array(rows, dtype=np.int64), closed=bool(closed), source=source)


# ---------------------------------------------------------------------- coords and chess
_HEAD = re.compile(r"#\s*kt-formal\s+(coords|chess):\s*(open|closed)\s+tour,\s*board\s+(\d+)x(\d+)\s*$")
_PAIR = re.compile(r"\(\s*(-?\d+)\s*,\s*(-?\d+)\s*\)")
_CHESS = re.compile(r"^([a-z]{1,7})(\d{1,10})$")  # longer names lie off any board


def read_order_text(text: str, closed: bool | None = None, source: str = "tour file"):
    """Read a ``coords`` or ``chess`` tour file (see the module docstring) as a checked tour.

    Without the header line the board is taken as the smallest rectangle holding the
    squares, every unlisted square counting as a hole (``coords`` only: chess names
    need the number of rows), and the tour as open unless ``closed`` is asked.
    """
    lines = text.splitlines()
    head = [ln.strip() for ln in lines if ln.strip().startswith("#")]
    body = " ".join(ln for ln in lines if not ln.strip().startswith("#"))
    m = _HEAD.match(head[0]) if head else None
    fmt = m.group(1) if m else ("coords" if "(" in body else "chess")
    rows = cols = None
    file_closed = None
    if m:
        file_closed = m.group(2) == "closed"
        rows, cols = int(m.group(3)), int(m.group(4))
        if closed is not None and closed != file_closed:
            raise CertificateRejected(f"the file is of {'a closed' if file_closed else 'an open'} tour, "
                                      f"{'a closed' if closed else 'an open'} one was asked")
    elif fmt == "chess":
        raise InvalidInput(f"{source}: a chess-name tour needs its header line "
                           "'# kt-formal chess: open tour, board MxN' (chess names depend on the rows)")
    hole_text = next((h.split(":", 1)[1] for h in head[1:] if h[1:].strip().startswith("holes:")), "")
    if fmt == "coords":
        pairs = _PAIR.findall(body)
        leftover = _PAIR.sub(" ", body).split()
        if leftover:
            raise InvalidInput(f"{source}: {leftover[0][:20]!r} is not a square '(r, c)'")
        squares = [(int(r), int(c)) for r, c in pairs]
        holes = [_hole_pair(tok, source) for tok in hole_text.split()]
    else:
        squares = [_chess_square(tok, rows, source) for tok in body.split()]
        holes = [_chess_square(tok, rows, source) for tok in hole_text.split()]
    if not squares:
        raise InvalidInput(f"{source}: no squares listed")
    inferred = rows is None
    if inferred:
        if min(min(s) for s in squares) < 0:
            raise InvalidInput(f"{source}: negative coordinates")
        rows = max(r for r, _ in squares) + 1
        cols = max(c for _, c in squares) + 1
        listed = np.zeros((rows, cols), dtype=bool)
        listed[tuple(np.array(squares).T)] = True
        hole_mask = ~listed
        board = Board(rows, cols, holes=hole_mask if hole_mask.any() else None)
    else:
        board = Board(rows, cols, holes=holes or None)
    arr = np.array(squares, dtype=np.int64).reshape(-1, 2)
    is_closed = bool(closed) if file_closed is None else file_closed
    from kt_formal.certificate import check_tour
    from kt_formal.tours import Tour

    reason = check_tour(board, arr, closed=is_closed)
    if reason is not None:
        raise CertificateRejected(reason)
    return Tour.from_squares(board, squares, is_closed)


def _hole_pair(tok: str, source: str) -> tuple[int, int]:
    m = re.fullmatch(r"(\d{1,10}),(\d{1,10})", tok)
    if m is None:
        raise InvalidInput(f"{source}: hole {tok[:20]!r} is not a square 'r,c'")
    return int(m.group(1)), int(m.group(2))


def _chess_square(tok: str, rows: int, source: str):
    m = _CHESS.match(tok)
    if not m:
        raise InvalidInput(f"{source}: {tok[:20]!r} is not a chess square name like a1")
    from kt_formal.board import parse_file_name

    return rows - int(m.group(2)), parse_file_name(m.group(1))


# ---------------------------------------------------------------------- npy and binary
_NPY_TRAILER = re.compile(rb"# kt-formal npy: (closed|open) tour, board (\d{1,10})x(\d{1,10})\n")
_NPY_TRAILER_MAX = 64

def _npy_header(p: Path):
    from kt_formal.io.npyfile import npy_header

    with user_file_errors(p):
        return npy_header(p)


def _is_successor_array(a) -> bool:
    """A 2-D array holding -1, or every index 0..size-1 once, is a successor array.

    A numbered grid holds no negative number, and holds ``size`` when it has no hole;
    the one shape both readings fit (a grid with one hole numbered 1..size-1 against the
    successor array of a closed tour of the whole board) is read as the successor array.
    """
    if a.dtype.kind != "i":
        return False
    lo = hi = None
    zeros = 0
    for _, chunk in _array_chunks(a, _CHUNK):
        cmin, cmax = int(chunk.min()), int(chunk.max())
        if cmin == -1:
            return True
        lo = cmin if lo is None else min(lo, cmin)
        hi = cmax if hi is None else max(hi, cmax)
        if cmin == 0:
            zeros += int(np.count_nonzero(chunk == 0))
    return lo == 0 and hi == a.size - 1 and zeros == 1


def read_npy(path, closed: bool = False):
    """Read a ``.npy`` numbered grid (0 on holes) or successor array as a checked tour.

    The array is read in chunks, not loaded whole. Returns the tour; a successor
    array gives its own kind (``closed`` is then only compared with it).
    """
    tour, _ = _read_npy(Path(path), closed)
    return tour


def _read_npy(p: Path, closed):
    shape, fortran, dtype, offset = _npy_header(p)
    if len(shape) == 1 and dtype.kind == "i":
        raise InvalidInput(Worded(f"{p.name} is a 1-D array: a successor array must have the board's shape "
                                  "(rows, cols), as {writes succ} writes it", {"writes succ": "Tour.save(path, 'succ')"}))
    if len(shape) != 2 or dtype.kind not in "iu" or dtype.hasobject:
        raise InvalidInput(f"{p.name} must hold a 2-D integer array, not {dtype} of shape {shape}")
    a = _FlatFile(p, offset, dtype, shape[::-1] if fortran else shape)  # Fortran order: the transpose
    if _is_successor_array(a):
        ensure_memory(a.size * 8 * 3, f"reading the successor array {p.name}")
        a = np.memmap(p, dtype, "r", offset, shape, "F" if fortran else "C")  # the header read above
        tour = successor_to_tour(a, source=p.name)
        if closed and not tour.closed:
            raise CertificateRejected("the successor array is of an open tour; a closed one was asked")
        return tour, "numpy successor array"
    file_closed = _npy_trailer(p, offset + a.size * dtype.itemsize, shape)
    if closed and file_closed is False:
        raise CertificateRejected("the file is of an open tour, a closed one was asked")
    try:
        tour = grid_to_tour(a, closed=bool(closed) if file_closed is None else file_closed, source=p.name)
    except (InvalidInput, CertificateRejected) as exc:
        if fortran:  # its squares are named on the transpose
            raise type(exc)(f"{exc} (read as the transpose: the array is in Fortran order)") from None
        raise
    if fortran:
        from kt_formal.io.npyfile import untransposed

        tour = untransposed(tour, p.name)
    if file_closed is None:
        return tour, f"numpy numbered grid, checked as {'a closed' if closed else 'an open'} tour"
    return tour, f"numpy numbered grid of {'a closed' if file_closed else 'an open'} tour"


def _npy_trailer(p: Path, end: int, shape) -> bool | None:
    """Whether the tour of a numbered grid is closed, from the line kt_formal writes after
    the array's data (None when there is nothing there, as in an array numpy saved)."""
    with user_file_errors(p), open(p, "rb") as fh:
        fh.seek(end)
        tail = fh.read(_NPY_TRAILER_MAX + 1)
    if not tail:
        return None
    m = _NPY_TRAILER.fullmatch(tail)
    if m is None or (int(m.group(2)), int(m.group(3))) != tuple(shape):
        raise InvalidInput(f"{p.name} has {len(tail)} bytes after its array that are not a "
                           f"'# kt-formal npy: ... tour, board {shape[0]}x{shape[1]}' line")
    return m.group(1) == b"closed"


def read_binary(path, closed: bool | None = None):
    """Read a binary order file (see the module docstring) as a checked tour (memory-mapped)."""
    p = Path(path)
    with user_file_errors(p), open(p, "rb") as fh:
        head = fh.read(_HEADER)
        size = os.fstat(fh.fileno()).st_size
    if len(head) < _HEADER or head[:8] != BINARY_MAGIC:
        raise InvalidInput(f"{p.name} is not a kt-formal binary order file (bad header)")
    rows, cols = (int(x) for x in np.frombuffer(head[8:24], dtype="<u8"))
    flag, width = head[24], head[25]
    if flag not in (0, 1) or width not in (4, 8) or any(head[26:32]):
        raise InvalidInput(f"{p.name}: bad header fields (closed {flag}, width {width})")
    if (size - _HEADER) % width:
        raise InvalidInput(f"{p.name}: {size - _HEADER} bytes of squares is not a whole number "
                           f"of {width}-byte indices; truncated?")
    k = (size - _HEADER) // width
    board_closed = flag == 1
    if closed is not None and closed != board_closed:
        raise CertificateRejected(f"the file is of {'a closed' if board_closed else 'an open'} tour, "
                                  f"{'a closed' if closed else 'an open'} one was asked")
    probe = Board(rows, cols)  # checks the sizes
    if k == 0:
        raise InvalidInput(f"{p.name}: no squares listed")
    if k > probe.size:
        raise CertificateRejected(f"the file lists {k} squares but the {rows}x{cols} board has only {probe.size}")
    from kt_formal.io.npyfile import enough_listed
    enough_listed(p.name, k, rows, cols)
    ensure_memory(k * 4 + probe.size * 2, f"reading {p.name}")
    itype = index_dtype(rows, cols)
    order = np.empty(k, dtype=itype)
    for lo, chunk in _FlatFile(p, _HEADER, "<u4" if width == 4 else "<u8", (k,)).chunks(_CHUNK):
        if int(chunk.max()) >= probe.size:
            i = lo + int(np.argmax(chunk >= probe.size))
            raise CertificateRejected(f"square {i + 1}: index {int(chunk[i - lo])} lies outside "
                                      f"the {rows}x{cols} board")
        order[lo:lo + chunk.size] = chunk
    holes = None
    if k < probe.size:
        listed = np.zeros(probe.size, dtype=bool)
        listed[order] = True
        holes = ~listed.reshape(rows, cols)
        if int(np.count_nonzero(listed)) != k:
            holes = None  # a square listed twice: the checker names it (on the full board)
    board = Board(rows, cols, holes=holes)
    return _check_order(board, order, board_closed, p.name)


# ---------------------------------------------------------------------- any file
def read_tour_file(path, closed: bool | None = None):
    """Read a tour from any file ``kt-formal tour`` writes (see :data:`TOUR_FORMATS`).

    Parameters
    ----------
    path : path-like
        The kind is found from the content: the ``.npy`` magic (a numbered grid or a
        successor array), the binary order file's magic, text starting with ``{`` (a
        JSON certificate), a ``# kt-formal coords|chess`` header or ``(r, c)`` pairs,
        else a numbered text grid.
    closed : bool, optional
        For grids: check as a closed tour (default open). For files that say their
        kind: if given, the file must be of that kind.

    Returns
    -------
    (Tour, str)
        The checked tour and a one-line account of what was read and checked.
    """
    from kt_formal.certificate import tour_from_dict

    with user_file_errors(path) as p, open(regular_file(p), "rb") as fh:  # a FIFO or device refused
        head = fh.read(64)
    if head.startswith(b"\x93NUMPY") or (p.suffix.lower() == ".npy" and not head.startswith(BINARY_MAGIC)):
        tour, how = _read_npy(p, closed)
    elif head.startswith(BINARY_MAGIC):
        tour = read_binary(p, closed)
        how = "binary order file"
    else:
        text = read_user_text(p, limit=MAX_GRID_BYTES)
        stripped = text.lstrip()
        if text.removeprefix("\ufeff").lstrip().startswith("{"):  # a byte-order mark before a certificate read past
            from kt_formal.certificate import read_certificate

            tour = tour_from_dict(read_certificate(p))
            if closed is not None and tour.closed != closed:
                raise CertificateRejected(
                    f"the certificate is of {'a closed' if tour.closed else 'an open'} tour, "
                    f"{'a closed' if closed else 'an open'} one was asked")
            how = "JSON certificate"
        elif stripped.startswith("# kt-formal grid"):
            tour = read_grid_text(text, closed=closed, source=p.name)
            how = f"numbered grid of {'a closed' if tour.closed else 'an open'} tour"
        elif stripped.startswith("# kt-formal") or stripped.startswith("("):
            tour = read_order_text(text, closed=closed, source=p.name)
            how = ("list of squares" if stripped.startswith("#")
                   else "list of squares without a header: the board is the smallest rectangle "
                        "holding them, unlisted squares count as holes")
        else:
            tour = read_grid_text(text, closed=bool(closed), source=p.name)
            how = f"numbered grid, checked as {'a closed' if closed else 'an open'} tour"
    if not tour.closed and "checked as" in how:
        how = Worded(how + " ({closed} also checks the closing move)", {"closed": "closed=True"})
    return tour, how


@contextmanager
def standard_input_file():
    """Standard input, read once and bounded as the kernel reads certificates (64 MiB, see
    :func:`kt_formal.kernel.reader.read_bounded`), as a temporary file whose name says its
    kind (``.json``, ``.npy``, ``.ktour``, else ``.txt``), for the readers of files
    (``verify -``, ``render -``); the messages raised in the block name it "standard input".
    """
    import tempfile

    from kt_formal.kernel.reader import MAX_BYTES, UTF8_BOM, read_bounded

    data = read_bounded("-", MAX_BYTES)
    if not data.strip():
        raise InvalidInput("standard input is empty")
    suffix = (".json" if data.removeprefix(UTF8_BOM).lstrip().startswith(b"{") else ".npy" if data.startswith(b"\x93NUMPY")
              else BINARY_SUFFIX if data.startswith(BINARY_MAGIC) else ".txt")
    with tempfile.TemporaryDirectory(prefix="kt-formal-stdin-") as tmp:
        path = os.path.join(tmp, "standard-input" + suffix)
        with open(path, "wb") as fh:
            fh.write(data)
        try:
            yield path
        except KtFormalError as exc:  # its messages name the file: here, standard input
            text = exc.args[0] if len(exc.args) == 1 and isinstance(exc.args[0], Worded) else str(exc)

            def edit(t: str) -> str:
                return t.replace(path, "standard input").replace(os.path.basename(path), "standard input")

            raise type(exc)(text.edited(edit) if isinstance(text, Worded) else edit(text)) from None
