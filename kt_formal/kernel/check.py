"""Checking any certificate: the kernel's one entry, :func:`check_certificate`.

It returns the claim as data, every field of it checked (board, holes, closed or open,
start, end, forced moves, the evidence): a :class:`~kt_formal.kernel.proofcheck.Claim`,
which :mod:`kt_formal.claims` words in one line.

>>> d = {"format": "kt-formal/1", "kind": "tour", "closed": False,
...      "board": {"rows": 1, "cols": 1, "holes": []}, "squares": [[0, 0]]}
>>> c = check_certificate(d)
>>> c.kind, c.closed, c.start, c.end
('tour', False, (0, 0), (0, 0))
"""

from __future__ import annotations

import numpy as np

from kt_formal.kernel.errors import CertificateRejected
from kt_formal.kernel.proofcheck import FORMAT, Claim, check_proof
from kt_formal.kernel.reader import read_certificate
from kt_formal.kernel.rup import check_drup
from kt_formal.kernel.shape import read_header, reject
from kt_formal.kernel.tourcheck import check_tour

__all__ = ["FORMAT", "KINDS", "Claim", "check_certificate", "check_tour", "check_tour_certificate",
           "check_proof", "read_certificate", "tour_squares"]


def tour_squares(d) -> tuple:
    """Check a tour certificate; return ``(shape, closed, order)`` with ``order`` an index array."""
    shape, closed, _, _ = read_header(d, "tour", ("squares",))
    squares = d["squares"]
    if not isinstance(squares, list) or not squares:
        reject("'squares' must be a non-empty list of [row, col] pairs")
    if len(squares) > shape.n_squares or (len(squares) < shape.n_squares and shape.n_squares > 2 * len(squares) + 64):
        # (checked in memory of the board's size: a short tour of a far larger board is refused first)
        reject(f"the tour lists {len(squares)} squares; the board has {shape.n_squares}")
    for i, p in enumerate(squares):
        if not (isinstance(p, list) and len(p) == 2 and type(p[0]) is int and type(p[1]) is int):
            reject(f"squares[{i}] must be a [row, col] pair of integers, got {p!r:.40}")
    arr = np.array(squares, dtype=np.int64)
    reason = check_tour(shape, arr, closed=closed)
    if reason is not None:
        reject(reason)
    return shape, closed, arr[:, 0] * shape.cols + arr[:, 1]


def check_tour_certificate(d) -> Claim:
    """The claim of a tour certificate, after checking it."""
    shape, closed, order = tour_squares(d)
    return Claim("tour", shape, closed, divmod(int(order[0]), shape.cols), divmod(int(order[-1]), shape.cols))


#: Certificate kind -> checker(dict) -> Claim. Every kind is listed here.
KINDS = {
    "tour": check_tour_certificate,
    "proof": check_proof,
    "drup": check_drup,
}


def check_certificate(d) -> Claim:
    """Check any certificate; return its claim, or raise CertificateRejected."""
    if not isinstance(d, dict):
        reject("a certificate must be a JSON object")
    if d.get("format") != FORMAT:
        reject(f"unknown certificate format {d.get('format')!r:.40}; expected {FORMAT!r}")
    kind = d.get("kind")
    checker = KINDS.get(kind) if isinstance(kind, str) else None
    if checker is None:
        reject(f"unknown certificate kind {kind!r:.40}")
    try:
        return checker(d)
    except CertificateRejected:
        raise
    except (TypeError, ValueError, KeyError, IndexError, OverflowError, AttributeError,
            RecursionError) as exc:
        raise CertificateRejected(f"malformed {kind} certificate: {exc}") from None

