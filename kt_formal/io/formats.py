"""Reading tours back from files: JSON certificates, numbered grids (text) and ``.npy`` grids.

A *numbered grid* gives every square of the rectangle its step number, 1 at the first
square, one row per line, numbers separated by spaces: exactly what ``kt-formal tour``
prints by default (:meth:`Tour.to_grid <kt_formal.tour.Tour.to_grid>`). A hole is
written ``#`` (what kt_formal writes), ``.``, ``-`` or ``0``. A ``.npy`` grid is the
integer array of :meth:`Tour.numbering <kt_formal.tour.Tour.numbering>`, 0 on holes.

A grid does not say whether the tour is closed, so it is read as an **open** tour
unless ``closed=True`` is asked (then the move from the last square back to the first
is checked too). A JSON certificate says it itself.

Two kinds of failure are kept apart, as the command line needs:

* a file that cannot be read as a grid at all (ragged rows, words, negative numbers,
  no squares) raises :class:`~kt_formal.exceptions.InvalidInput` (exit 2);
* a well-formed grid that is not a tour (a number missing or repeated, a step that is
  not a knight move) raises :class:`~kt_formal.exceptions.CertificateRejected` (exit 1).

Every tour returned has passed the independent checker
:func:`kt_formal.certificate.check_tour`; this module uses no engine.

>>> t = read_grid_text("1 4 7\\n6 # 2\\n3 8 5\\n", closed=True)
>>> t.closed, t.board.describe(), t.start
(True, '3x3 minus 1 hole', (0, 0))
>>> read_grid_text("1 2\\n3 4\\n")
Traceback (most recent call last):
...
kt_formal.exceptions.CertificateRejected: step 1: (0, 0) -> (0, 1) is not a knight move
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from kt_formal.board import Board, ensure_memory
from kt_formal.exceptions import CertificateRejected, InvalidInput
from kt_formal.files import read_user_text, user_file_errors

__all__ = [
    "HOLE_TOKENS",
    "read_grid_text",
    "grid_to_tour",
    "read_npy",
    "read_tour_file",
    "MAX_GRID_BYTES",
]

#: Tokens read as a hole in a text grid.
HOLE_TOKENS = frozenset({"#", ".", "-", "0"})

#: Largest grid file read (bytes).
MAX_GRID_BYTES = 1 << 30


def grid_to_tour(numbers: np.ndarray, closed: bool = False, source: str = "grid"):
    """The tour described by a 2-D array of step numbers (0 on holes), checked independently.

    Raises
    ------
    InvalidInput
        If the array is not a 2-D array of non-negative integers with a square left.
    CertificateRejected
        If the numbers are not exactly 1..k over the k live squares, or the order
        they give is not a (closed, if asked) knight's tour.
    """
    from kt_formal.certificate import check_tour
    from kt_formal.tour import Tour

    a = np.asarray(numbers)
    if a.ndim != 2 or a.size == 0:
        raise InvalidInput(f"{source}: a numbered grid must be a non-empty 2-D array, got shape {a.shape}")
    if a.dtype.kind not in "iu":
        raise InvalidInput(f"{source}: a numbered grid must hold integers, not {a.dtype}")
    if a.dtype.kind == "i" and (a < 0).any():
        r, c = np.argwhere(a < 0)[0]
        raise InvalidInput(f"{source}: negative number {int(a[r, c])} at ({r}, {c})")
    live = a > 0
    k = int(live.sum())
    if k == 0:
        raise InvalidInput(f"{source}: the grid has no numbered squares")
    board = Board(a.shape[0], a.shape[1], holes=~live)
    flat = a.ravel()
    idx = np.flatnonzero(flat > 0)
    vals = flat[idx].astype(np.int64)
    order = np.argsort(vals, kind="stable")
    sorted_vals = vals[order]
    expected = np.arange(1, k + 1, dtype=np.int64)
    if not np.array_equal(sorted_vals, expected):
        dup = np.flatnonzero(sorted_vals[1:] == sorted_vals[:-1])
        if dup.size:
            raise CertificateRejected(f"number {int(sorted_vals[dup[0]])} appears more than once")
        if sorted_vals[-1] > k:
            missing = int(np.flatnonzero(sorted_vals != expected)[0]) + 1
            raise CertificateRejected(
                f"number {int(sorted_vals[-1])} is larger than the {k} numbered squares; "
                f"{missing} is missing")
        raise CertificateRejected("the numbers are not 1 to the number of squares")  # pragma: no cover
    tour_order = idx[order]
    reason = check_tour(board, tour_order, closed=closed)
    if reason is not None:
        raise CertificateRejected(reason)
    return Tour(board, tour_order, closed=closed)


def read_grid_text(text: str, closed: bool = False, source: str = "grid"):
    """Read a numbered text grid (see the module docstring) as a checked tour."""
    lines = [ln.strip() for ln in text.splitlines()]
    while lines and not lines[-1]:
        lines.pop()
    while lines and not lines[0]:
        lines.pop(0)
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
    return grid_to_tour(np.array(rows, dtype=np.int64), closed=closed, source=source)


def read_npy(path, closed: bool = False):
    """Read a ``.npy`` numbered grid (integers, 0 on holes) as a checked tour."""
    p = Path(path)
    try:
        with user_file_errors(p), open(p, "rb") as fh:
            version = np.lib.format.read_magic(fh)
            if version == (1, 0):
                shape, _, dtype = np.lib.format.read_array_header_1_0(fh)
            else:
                shape, _, dtype = np.lib.format.read_array_header_2_0(fh)
    except ValueError as exc:
        raise InvalidInput(f"{p.name} is not a valid .npy file ({exc})") from None
    if len(shape) != 2 or dtype.kind not in "iu" or dtype.hasobject:
        raise InvalidInput(f"{p.name} must hold a 2-D integer array, not {dtype} of shape {shape}")
    ensure_memory(int(np.prod(shape)) * 24, f"reading the {shape[0]}x{shape[1]} grid {p.name}")
    try:
        a = np.load(p, allow_pickle=False)
    except (ValueError, OSError, EOFError) as exc:
        raise InvalidInput(f"{p.name} is not a valid .npy file ({exc}); truncated?") from None
    return grid_to_tour(a, closed=closed, source=p.name)


def _read_text(p: Path) -> str:
    return read_user_text(p, limit=MAX_GRID_BYTES)


def read_tour_file(path, closed: bool | None = None):
    """Read a tour from a JSON certificate, a numbered text grid or a ``.npy`` grid.

    Parameters
    ----------
    path : path-like
        ``.npy`` files (or files starting with the npy magic) are read as arrays;
        text starting with ``{`` as a JSON certificate; any other text as a grid.
    closed : bool, optional
        For grids: check as a closed tour (default open). For a certificate: if
        given, the certificate must be of that kind.

    Returns
    -------
    (Tour, str)
        The checked tour and a one-line account of what was read and checked.
    """
    from kt_formal.certificate import tour_from_dict

    with user_file_errors(path) as p, open(p, "rb") as fh:
        head = fh.read(6)
    if head == b"\x93NUMPY" or p.suffix.lower() == ".npy":
        tour = read_npy(p, closed=bool(closed))
        how = f"numpy numbered grid, checked as {'a closed' if closed else 'an open'} tour"
    else:
        text = _read_text(p)
        if text.lstrip().startswith("{"):
            from kt_formal.certificate import read_certificate

            tour = tour_from_dict(read_certificate(p))
            if closed is not None and tour.closed != closed:
                raise CertificateRejected(
                    f"the certificate is of {'a closed' if tour.closed else 'an open'} tour, "
                    f"{'a closed' if closed else 'an open'} one was asked")
            how = "JSON certificate"
        else:
            tour = read_grid_text(text, closed=bool(closed), source=p.name)
            how = f"numbered grid, checked as {'a closed' if closed else 'an open'} tour"
    if not tour.closed:
        how += " (--closed also checks the closing move)" if "grid" in how else ""
    return tour, how
