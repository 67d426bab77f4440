"""The independent checker: tours and certificates are verified here, and only here.

A tour is checked against nothing but the board (its size and its holes) and the
knight rule: every live square exactly once, no hole visited, every step a knight
move, and, for a closed tour, the closing move from the last square back to the
first. Nothing from the engines or the knight graph is used, so a bug there cannot
make a wrong tour pass.

This module is the security boundary for files too: a certificate read from disk is
parsed defensively, and anything forged, corrupted or of the wrong type is refused
with :class:`~kt_formal.exceptions.CertificateRejected` naming the reason.

The JSON certificate of a tour (``format`` ``kt-formal/1``)::

    {"format": "kt-formal/1", "kind": "tour",
     "board": {"rows": 5, "cols": 5, "holes": [[2, 2]]},
     "closed": false, "squares": [[0, 0], [1, 2], ...]}

>>> from kt_formal.board import Board
>>> check_tour(Board(3, 4), [(0, 0), (1, 2), (2, 0), (0, 1)], closed=False)
'the tour visits 4 of the 12 squares; (0, 2) is never visited'
>>> check_tour(Board(1, 1), [(0, 0)], closed=False) is None
True
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from kt_formal.board import Board
from kt_formal.exceptions import CertificateRejected, InvalidInput

__all__ = [
    "FORMAT",
    "check_tour",
    "verify_tour",
    "tour_to_dict",
    "tour_from_dict",
    "board_to_dict",
    "board_from_dict",
    "read_certificate",
    "verify_certificate",
    "register_kind",
]

#: Version tag written into, and required of, every certificate.
FORMAT = "kt-formal/1"

#: Largest certificate file read (bytes).
MAX_CERTIFICATE_BYTES = 2 << 30

_CHUNK = 1 << 20


def _square_text(idx: int, cols: int) -> str:
    r, c = divmod(int(idx), cols)
    return f"({r}, {c})"


def _as_index_array(board: Board, tour) -> np.ndarray:
    """Squares of a tour as an integer index array (accepts Tour, index array, or pairs)."""
    order = getattr(tour, "order", None)
    if order is None:
        order = tour
    arr = np.asarray(order)
    if arr.ndim == 2 and arr.shape[1] == 2 and arr.dtype.kind in "iu":
        r = arr[:, 0].astype(np.int64)
        c = arr[:, 1].astype(np.int64)
        bad = np.flatnonzero((r < 0) | (r >= board.rows) | (c < 0) | (c >= board.cols))
        if bad.size:
            i = int(bad[0])
            raise _Reject(f"square {i + 1}: ({int(r[i])}, {int(c[i])}) lies outside the "
                          f"{board.rows}x{board.cols} board")
        return r * board.cols + c
    if arr.ndim == 1 and (arr.dtype.kind in "iu" or arr.size == 0):
        return arr.astype(np.int64, copy=False) if arr.size == 0 else arr
    raise _Reject("the tour is not a list of squares")


class _Reject(Exception):
    pass


def check_tour(board: Board, tour, closed: bool | None = None) -> str | None:
    """Check a tour; return ``None`` if valid, otherwise the first violation found.

    Parameters
    ----------
    board : Board
        Only its size and holes are used.
    tour : Tour, array of square indices (``row * cols + col``), or sequence of (row, col)
    closed : bool, optional
        Require the closing move. Defaults to ``tour.closed`` for a Tour, else True.

    Notes
    -----
    Vectorised and chunked: O(k) time for k squares, with one byte per board square
    of extra memory (the visited map) plus O(2^20) temporaries.
    """
    if closed is None:
        closed = bool(getattr(tour, "closed", True))
    tour_board = getattr(tour, "board", None)
    if tour_board is not None and tour_board != board:
        return f"the tour is for a {tour_board.describe()} board, not {board.describe()}"
    try:
        order = _as_index_array(board, tour)
    except _Reject as exc:
        return str(exc)
    rows, cols = board.rows, board.cols
    total = rows * cols
    n = int(order.shape[0])
    live = board.n_squares
    if n == 0:
        return "the tour is empty"
    if n > live:
        return f"the tour has {n} squares but the board has only {live}"
    holes = board.hole_mask.ravel() if board.has_holes else None
    # Violations as (position, precedence, message); the earliest is reported, and at one
    # position: off the board, then a hole, then a repeat, then a bad step from it.
    found: list[tuple[int, int, str]] = []
    for lo in range(0, n, _CHUNK):
        a = order[lo : lo + _CHUNK]
        out = (a < 0) | (a >= total)
        if out.any():
            i = lo + int(np.argmax(out))
            found.append((i, 0, f"square {i + 1}: index {int(order[i])} lies outside the {rows}x{cols} board"))
            break  # indices past here cannot be looked up
        if holes is not None:
            on_hole = holes[a]
            if on_hole.any():
                i = lo + int(np.argmax(on_hole))
                found.append((i, 1, f"square {i + 1}: {_square_text(order[i], cols)} is a hole"))
        # a knight move changes (row, col) by (±1, ±2) or (±2, ±1): dr² + dc² == 5
        b = order[lo : lo + _CHUNK + 1]
        if b.size > 1:
            tail = b[-1]
            if tail < 0 or tail >= total:  # the next chunk's first index is checked there
                b = b[:-1]
        if b.size > 1:
            r, c = np.divmod(b, cols)
            dr = np.diff(r)
            dc = np.diff(c)
            bad = (dr * dr + dc * dc) != 5
            if bad.any():
                i = lo + int(np.argmax(bad))
                found.append((i, 3, (
                    f"step {i + 1}: {_square_text(order[i], cols)} -> "
                    f"{_square_text(order[i + 1], cols)} is not a knight move"
                )))
        if found:
            break
    limit = min(found)[0] if found else n
    # duplicates before the first other violation: one byte per board square
    seen = np.zeros(total, dtype=bool)
    seen[order[:limit]] = True
    if int(np.count_nonzero(seen)) != limit:
        _, first = np.unique(order[:limit], return_index=True)
        repeat = np.ones(limit, dtype=bool)
        repeat[first] = False
        i = int(np.argmax(repeat))
        j = int(np.argmax(order[:i] == order[i]))
        found.append((i, 2, (
            f"square {i + 1}: {_square_text(order[i], cols)} was already visited "
            f"as square {j + 1}"
        )))
    if found:
        return min(found)[2]
    if n < live:
        unvisited = ~seen
        if holes is not None:
            unvisited &= ~holes
        missing = int(np.argmax(unvisited))
        return f"the tour visits {n} of the {live} squares; {_square_text(missing, cols)} is never visited"
    if closed:
        if n < 3:
            return f"a closed tour needs at least 3 squares, this one has {n}"
        r0, c0 = divmod(int(order[0]), cols)
        r1, c1 = divmod(int(order[-1]), cols)
        if (r0 - r1) ** 2 + (c0 - c1) ** 2 != 5:
            return (
                f"closing move {_square_text(order[-1], cols)} -> "
                f"{_square_text(order[0], cols)} is not a knight move"
            )
    return None


def verify_tour(board: Board, tour, closed: bool | None = None) -> None:
    """Raise :class:`CertificateRejected` unless ``tour`` is a valid tour of ``board``.

    >>> from kt_formal.board import Board
    >>> verify_tour(Board(3, 3), [(0, 0), (0, 1)], closed=False)
    Traceback (most recent call last):
    ...
    kt_formal.exceptions.CertificateRejected: step 1: (0, 0) -> (0, 1) is not a knight move
    """
    reason = check_tour(board, tour, closed)
    if reason is not None:
        raise CertificateRejected(reason)


# ---------------------------------------------------------------------- JSON
def _strict_int(x, what: str) -> int:
    if type(x) is not int:
        raise CertificateRejected(f"{what} must be an integer, got {type(x).__name__} {x!r:.40}")
    return x


def _pairs(value, what: str) -> list[tuple[int, int]]:
    if not isinstance(value, list):
        raise CertificateRejected(f"{what} must be a list of [row, col] pairs")
    out = []
    for i, p in enumerate(value):
        if not isinstance(p, list) or len(p) != 2:
            raise CertificateRejected(f"{what}[{i}] must be a [row, col] pair, got {p!r:.40}")
        out.append((_strict_int(p[0], f"{what}[{i}][0]"), _strict_int(p[1], f"{what}[{i}][1]")))
    return out


def board_to_dict(board: Board) -> dict:
    """JSON-ready description of a board: sizes and the list of holes."""
    return {"rows": board.rows, "cols": board.cols, "holes": [list(h) for h in board.holes()]}


def board_from_dict(d) -> Board:
    """Inverse of :func:`board_to_dict`, strict about types; errors are CertificateRejected."""
    if not isinstance(d, dict):
        raise CertificateRejected("'board' must be an object with rows, cols and holes")
    unknown = set(d) - {"rows", "cols", "holes"}
    if unknown:
        raise CertificateRejected(f"'board' has unknown field {sorted(unknown)[0]!r}")
    rows = _strict_int(d.get("rows"), "board.rows")
    cols = _strict_int(d.get("cols"), "board.cols")
    holes = _pairs(d.get("holes", []), "board.holes")
    try:
        return Board(rows, cols, holes=holes)
    except InvalidInput as exc:
        raise CertificateRejected(f"bad board: {exc}") from None


def tour_to_dict(tour, **meta) -> dict:
    """The JSON certificate of a tour (extra keyword arguments go into ``meta``)."""
    board = tour.board
    r, c = np.divmod(np.asarray(tour.order, dtype=np.int64), board.cols)
    d = {
        "format": FORMAT,
        "kind": "tour",
        "board": board_to_dict(board),
        "closed": bool(tour.closed),
        "squares": np.stack([r, c], axis=1).tolist(),
    }
    if meta:
        d["meta"] = meta
    return d


def tour_from_dict(d):
    """Read and verify a tour certificate; return the :class:`~kt_formal.tour.Tour`."""
    from kt_formal.tour import Tour

    _check_header(d, "tour")
    unknown = set(d) - {"format", "kind", "board", "closed", "squares", "meta"}
    if unknown:
        raise CertificateRejected(f"unknown field {sorted(unknown)[0]!r}")
    board = board_from_dict(d.get("board"))
    closed = d.get("closed")
    if type(closed) is not bool:
        raise CertificateRejected("'closed' must be true or false")
    squares = _pairs(d.get("squares"), "squares")
    if not squares:
        raise CertificateRejected("the tour is empty")
    arr = np.array(squares, dtype=np.int64)
    reason = check_tour(board, arr, closed=closed)
    if reason is not None:
        raise CertificateRejected(reason)
    order = arr[:, 0] * board.cols + arr[:, 1]
    return Tour(board, order, closed=closed)


def _check_header(d, kind: str | None = None) -> str:
    if not isinstance(d, dict):
        raise CertificateRejected("a certificate must be a JSON object")
    fmt = d.get("format")
    if fmt != FORMAT:
        raise CertificateRejected(f"unknown certificate format {fmt!r}; expected {FORMAT!r}")
    k = d.get("kind")
    if not isinstance(k, str):
        raise CertificateRejected("the certificate has no 'kind'")
    if kind is not None and k != kind:
        raise CertificateRejected(f"expected a {kind!r} certificate, got {k!r}")
    return k


def read_certificate(path) -> dict:
    """Read a certificate file as JSON (errors: InvalidInput for unreadable or non-JSON files)."""
    from kt_formal.files import read_user_text

    p = Path(path)
    text = read_user_text(p, limit=MAX_CERTIFICATE_BYTES)
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise InvalidInput(
            f"{p.name} is not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg}); "
            "truncated or corrupted?"
        ) from None
    except RecursionError:
        raise InvalidInput(f"{p.name} is nested too deeply to be a certificate") from None


# kind -> function(dict) -> (object, one-line summary); other modules register theirs
_KINDS: dict = {}


def register_kind(kind: str, checker) -> None:
    """Register the checker of a certificate kind: ``checker(dict) -> (obj, summary)``."""
    _KINDS[kind] = checker


def _check_tour_certificate(d):
    tour = tour_from_dict(d)
    what = "closed" if tour.closed else "open"
    return tour, f"valid {what} tour of the {tour.board.describe()} board ({len(tour)} squares)"


register_kind("tour", _check_tour_certificate)


def _check_drup_certificate(d):
    from kt_formal.kernel.rup import DrupRejected, check_drup_certificate

    try:
        return d, check_drup_certificate(d).removeprefix("OK: ")
    except DrupRejected as exc:
        raise CertificateRejected(str(exc)) from None


register_kind("drup", _check_drup_certificate)


def verify_certificate(d):
    """Verify any certificate dict; return ``(object, summary)`` or raise CertificateRejected."""
    kind = _check_header(d)
    checker = _KINDS.get(kind)
    if checker is None:
        raise CertificateRejected(f"unknown certificate kind {kind!r}")
    try:
        return checker(d)
    except (CertificateRejected, InvalidInput):
        raise
    except (TypeError, ValueError, KeyError, IndexError, OverflowError, AttributeError) as exc:
        raise CertificateRejected(f"malformed {kind} certificate: {exc}") from None
