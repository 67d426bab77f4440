"""What a checked certificate establishes, in words: the one place a question is worded.

The kernel checks a certificate and returns its claim as data
(:class:`~kt_formal.kernel.proofcheck.Claim`: the board, closed or open, the ends, the
evidence); this module words it in one line that names every field the kernel checked.

>>> d = {"format": "kt-formal/1", "kind": "proof", "method": "colour",
...      "board": {"rows": 5, "cols": 5, "holes": []}, "closed": True,
...      "start": None, "end": None, "dark": 13, "light": 12}
>>> check_certificate(d)
'no closed tour of the 5x5 board: 13 dark and 12 light squares'
>>> t = {"format": "kt-formal/1", "kind": "tour", "closed": False,
...      "board": {"rows": 1, "cols": 1, "holes": []}, "squares": [[0, 0]]}
>>> check_certificate(t)
'open tour of the 1x1 board from a1 to a1: every square visited once, every step a knight move'
"""

from __future__ import annotations

from kt_formal.kernel import check as _kernel
from kt_formal.kernel.errors import CertificateNotChecked
from kt_formal.kernel.proofcheck import Claim
from kt_formal.kernel.shape import Shape

__all__ = ["describe_holes", "describe_question", "claim_line", "check_certificate", "check_proof",
           "check_drup_certificate"]


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' if n != 1 else ''}"


def describe_holes(shape: Shape, at_most: int = 6) -> str:
    """The removed squares by name, shortened after ``at_most``: ``b2, c3 and 4 more``."""
    names = [shape.name(h) for h in sorted(shape.holes)]
    more = len(names) - at_most
    return ", ".join(names[:at_most]) + (f" and {more} more" if more > 0 else "")


def describe_question(shape: Shape, closed: bool, start=None, end=None, forced: int = 0,
                      forbidden: int = 0) -> str:
    """``closed tour of the 5x5 board minus 1 square (c3) from a2 to e1``: every field of a question.

    >>> describe_question(Shape(5, 5, {(2, 2)}), True, (3, 0), (4, 4), forced=2)
    'closed tour of the 5x5 board minus 1 square (c3) from a2 to e1 using 2 forced moves'
    """
    text = f"{'closed' if closed else 'open'} tour of the {shape.rows}x{shape.cols} board"
    if shape.holes:
        text += f" minus {_plural(len(shape.holes), 'square')} ({describe_holes(shape)})"
    if start is not None:
        text += f" from {shape.name(start)}"
    if end is not None:
        text += f" to {shape.name(end)}"
    if forced:
        text += f" using {_plural(forced, 'forced move')}"
    if forbidden:
        text += f" avoiding {_plural(forbidden, 'forbidden move')}"
    return text


def _question(claim: Claim) -> str:
    return describe_question(claim.shape, claim.closed, claim.start, claim.end, claim.forced, claim.forbidden)


def claim_line(claim: Claim) -> str:
    """The claim in one line, with the evidence the kernel checked."""
    if claim.kind == "tour":
        closing = ", the closing move included" if claim.closed else ""
        return f"{_question(claim)}: every square visited once, every step a knight move{closing}"
    if claim.kind == "drup":
        return (f"no {_question(claim)}: DRUP proof of {_plural(claim.lemmas, 'lemma')} over the arc "
                f"encoding with {_plural(claim.cuts, 'cut')}, checked")
    return f"no {_question(claim)}: {claim.evidence}"


def _worded(check, d) -> str:
    try:
        return claim_line(check(d))
    except CertificateNotChecked as exc:
        claim = getattr(exc, "claim", None)
        if claim is None:
            raise
        raise CertificateNotChecked(str(exc).replace("the claim", f"the claim 'no {_question(claim)}'", 1)) from None


def check_certificate(d) -> str:
    """Check any certificate with the kernel; return its claim in one line.

    Raises
    ------
    CertificateRejected
        With the kernel's reason. A record only a search could confirm raises
        :class:`CertificateNotChecked`, its message naming the claim.
    """
    return _worded(_kernel.check_certificate, d)


def check_proof(d) -> str:
    """:func:`check_certificate` for a ``proof`` certificate only (anything else is rejected)."""
    return _worded(_kernel.check_proof, d)


def check_drup_certificate(d) -> str:
    """Check a ``drup`` certificate; return its ``OK: ...`` line (DrupRejected otherwise)."""
    from kt_formal.kernel.rup import check_drup

    return "OK: " + claim_line(check_drup(d))
