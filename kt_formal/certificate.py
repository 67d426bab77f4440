"""Certificates of the value types: writing them, and reading them back through the kernel.

All checking happens in :mod:`kt_formal.kernel`; this module only turns a
:class:`~kt_formal.board.Board` or :class:`~kt_formal.tours.Tour` into the JSON the
kernel reads (``format`` ``kt-formal/1``) and back::

    {"format": "kt-formal/1", "kind": "tour",
     "board": {"rows": 5, "cols": 5, "holes": [[2, 2]]},
     "closed": false, "squares": [[0, 0], [1, 2], ...]}

>>> from kt_formal.board import Board
>>> check_tour(Board(3, 4), [(0, 0), (1, 2), (2, 0), (0, 1)], closed=False)
'the tour visits 4 of the 12 squares; (0, 2) is never visited'
"""

from __future__ import annotations


from kt_formal import kernel
from kt_formal.board import Board
from kt_formal.claims import check_certificate
from kt_formal.exceptions import CertificateRejected, InvalidInput
from kt_formal.kernel.reader import read_certificate
from kt_formal.kernel.shape import shape_from_dict

__all__ = [
    "FORMAT",
    "question_header",
    "check_tour",
    "verify_tour",
    "tour_to_dict",
    "tour_from_dict",
    "board_to_dict",
    "board_from_dict",
    "read_certificate",
    "verify_certificate",
]

#: Version tag written into, and required of, every certificate.
FORMAT = kernel.FORMAT


def check_tour(board: Board, tour, closed: bool | None = None) -> str | None:
    """The kernel's tour check (:func:`kt_formal.kernel.tourcheck.check_tour`): None or the violation.

    ``tour`` is a :class:`~kt_formal.tours.Tour` (it must be of ``board``; ``closed``
    defaults to its own), an array of square indices or a sequence of (row, col); without
    a Tour, ``closed`` defaults to True.
    """
    tour_board = getattr(tour, "board", None)
    if tour_board is not None and tour_board != board:
        return f"the tour is for a {tour_board.describe()} board, not {board.describe()}"
    if closed is None:
        closed = bool(getattr(tour, "closed", True))
    return kernel.check_tour(board, getattr(tour, "order", tour), closed)


def verify_tour(board: Board, tour, closed: bool | None = None) -> None:
    """Raise :class:`CertificateRejected` unless ``tour`` is a valid tour of ``board``.

    >>> from kt_formal.board import Board
    >>> verify_tour(Board(3, 3), [(0, 0), (0, 1)], closed=False)
    Traceback (most recent call last):
    ...
    kt_formal.kernel.errors.CertificateRejected: step 1: (0, 0) -> (0, 1) is not a knight move
    """
    reason = check_tour(board, tour, closed)
    if reason is not None:
        raise CertificateRejected(reason)


def board_to_dict(board: Board) -> dict:
    """JSON-ready description of a board: sizes and the list of holes (of squares, on a board
    kept as its squares, :attr:`~kt_formal.board.Board.sparse`)."""
    if board.sparse:
        return {"rows": board.rows, "cols": board.cols, "squares": [list(q) for q in board.squares()]}
    return {"rows": board.rows, "cols": board.cols, "holes": [list(h) for h in board.holes()]}


def question_header(question, kind: str, method: str | None = None) -> dict:
    """The header of a certificate about ``question`` (a :class:`~kt_formal.question.Question`):
    the fields the kernel reads its claim from (the board, closed or open, the ends), the one
    place a question becomes a claim. ``kind`` is ``proof`` (then with its ``method``) or ``drup``.

    >>> from kt_formal.question import Question
    >>> question_header(Question(Board(3, 4), closed=False, start=(0, 0)), "proof", "colour")["start"]
    [0, 0]
    """
    d = {"format": FORMAT, "kind": kind, **({} if method is None else {"method": method}),
         "board": board_to_dict(question.board), "closed": bool(question.closed)}
    for key in ("start", "end"):
        q = getattr(question, key)
        d[key] = None if q is None else [int(q[0]), int(q[1])]
    return d


def board_from_dict(d) -> Board:
    """The board a certificate names, read strictly by the kernel."""
    shape = shape_from_dict(d, squares=True)
    try:
        if shape.live is not None:
            return Board(shape.rows, shape.cols, live=sorted(r * shape.cols + c for r, c in shape.live))
        return Board(shape.rows, shape.cols, holes=sorted(shape.holes or ()))
    except InvalidInput as exc:
        raise CertificateRejected(f"bad board: {exc}") from None


def tour_to_dict(tour, **meta) -> dict:
    """The JSON certificate of a tour (extra keyword arguments go into ``meta``)."""
    return tour.to_dict(**meta)


def tour_from_dict(d):
    """Read a tour certificate (checked by the kernel); return the :class:`~kt_formal.tours.Tour`."""
    from kt_formal.tours import Tour

    if not isinstance(d, dict) or d.get("format") != FORMAT or d.get("kind") != "tour":
        raise CertificateRejected("not a kt-formal/1 tour certificate")
    shape, closed, order = kernel.tour_squares(d)
    return Tour(Board(shape.rows, shape.cols, holes=sorted(shape.holes)), order, closed=closed)


def verify_certificate(d):
    """Check any certificate with the kernel; return ``(object, claim line)`` or raise.

    The object is the :class:`~kt_formal.tours.Tour` of a tour certificate, else the dict.
    """
    claim = check_certificate(d)
    return (tour_from_dict(d) if d.get("kind") == "tour" else d), claim
