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
from kt_formal.kernel.errors import CertificateNotChecked, Worded
from kt_formal.kernel.proofcheck import Claim
from kt_formal.kernel.shape import Shape

__all__ = ["file_name", "square_name", "describe_holes", "describe_question", "question_text", "describe_evidence", "claim_line",
           "question_claim", "claimed_question", "check_certificate", "check_proof", "check_drup_certificate"]


def file_name(col: int) -> str:
    """Letters of a column: 0 -> ``a``, 25 -> ``z``, 26 -> ``aa``."""
    if col < 0:
        raise ValueError(f"column {col} is negative")
    letters = ""
    col += 1
    while col:
        col, rem = divmod(col - 1, 26)
        letters = chr(ord("a") + rem) + letters
    return letters


def square_name(rows: int, q) -> str:
    """Chess name of square ``q`` on a board of ``rows`` rows (``a1`` bottom-left).

    >>> square_name(8, (7, 0)), square_name(8, (0, 27))
    ('a1', 'ab8')
    """
    return f"{file_name(q[1])}{rows - q[0]}"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' if n != 1 else ''}"


def describe_holes(shape: Shape, at_most: int = 6) -> str:
    """The removed squares by name, shortened after ``at_most``: ``b2, c3 and 4 more``."""
    return _name_holes(shape.rows, shape.first_holes(at_most), shape.rows * shape.cols - shape.n_squares)


def _name_holes(rows: int, first: list, n_holes: int) -> str:
    names = [square_name(rows, h) for h in first]
    more = n_holes - len(names)
    return ", ".join(names) + (f" and {more} more" if more > 0 else "")


def describe_question(shape: Shape, closed: bool, start=None, end=None, forced: int = 0,
                      forbidden: int = 0) -> str:
    """``closed tour of the 5x5 board minus 1 square (c3) from a2 to e1``: every field of a question.

    >>> describe_question(Shape(5, 5, {(2, 2)}), True, (3, 0), (4, 4), forced=2)
    'closed tour of the 5x5 board minus 1 square (c3) from a2 to e1 using 2 forced moves'
    """
    return question_text(shape.rows, shape.cols, shape.rows * shape.cols - shape.n_squares, shape.first_holes(6), closed,
                         start, end, forced, forbidden)


def question_text(rows: int, cols: int, n_holes: int, first_holes: list, closed: bool, start=None, end=None,
                  forced: int = 0, forbidden: int = 0) -> str:
    """:func:`describe_question` from the count of holes and the first few of them in row-major order
    (a board of 10^8 holes is described without a set of them all)."""
    text = f"{'closed' if closed else 'open'} tour of the {rows}x{cols} board"
    if n_holes:
        text += f" minus {_plural(n_holes, 'square')} ({_name_holes(rows, first_holes, n_holes)})"
    if start is not None:
        text += f" from {square_name(rows, start)}"
    if end is not None:
        text += f" to {square_name(rows, end)}"
    if forced:
        text += f" using {_plural(forced, 'forced move')}"
    if forbidden:
        text += f" avoiding {_plural(forbidden, 'forbidden move')}"
    return text


def describe_evidence(claim: Claim) -> str:
    """A proof's evidence (the figures its checker computed, :class:`Claim`) in words.

    >>> from kt_formal.kernel import check_proof
    >>> d = {"format": "kt-formal/1", "kind": "proof", "method": "degree",
    ...      "board": {"rows": 3, "cols": 3, "holes": []}, "closed": True,
    ...      "start": None, "end": None, "squares": [[1, 1]], "degrees": [0]}
    >>> describe_evidence(check_proof(d))
    'square b2 has no knight move'
    """
    method, *e = claim.evidence
    rows, closed = claim.shape.rows, claim.closed
    if method == "ends":
        return ("the last square of a closed tour must be a knight move from the first" if closed
                else "an open tour of two or more squares cannot start and end on one square")
    if method == "colour":
        return f"{e[0]} dark and {e[1]} light squares"
    if method == "degree":
        moves = "no knight move" if e[1] == 0 else _plural(e[1], "knight move")
        return f"square {square_name(rows, e[0])} has {moves}"
    if method == "ends-needed":
        return (f"{len(e[0])} squares must be ends of the tour "
                f"({', '.join(square_name(rows, q) for q in e[0])})")
    if method == "alternation":
        n, k, outside = e
        why = ("of both colours" if outside is None
               else f"and the fixed end {square_name(rows, outside)} lies outside it")
        if closed:
            return (f"{n} independent squares, half of the board, {why} "
                    "(a closed tour would alternate them with the rest)")
        return (f"{n} independent squares of {k}, {why} (an open tour would visit them at every other step, "
                "first and last included)")
    if method == "hall":
        n, dark, need, neighbours, room = e
        less = "" if closed else f", less {2 * n - need} for the ends of the tour that can be among them"
        return (f"the {n} {'dark' if dark else 'light'} squares listed need {need} tour moves (two each{less}), "
                f"but their {neighbours} neighbours can take at most {room} (two each, and no more than their "
                "moves into the set)")
    if method == "reduction":
        return "the forced-move reduction leaves a square with too few or too many moves"
    if method == "separator":
        removed, comps, bound, reduced = e
        after = ""
        if reduced:
            after = " after the forced-move reduction" + ("" if closed else
                                                         " of the tour closed through a virtual square")
        return f"removing {removed} squares leaves {comps} components{after} (a tour allows {bound})"
    raise ValueError(f"unknown evidence {method!r}")


def question_claim(question, kind: str = "proof") -> Claim:
    """The kernel's claim about ``question`` (a :class:`~kt_formal.question.Question`) before
    any evidence: what a certificate of ``kind`` for it establishes once checked, built from
    the question in this one place (its header: :func:`kt_formal.certificate.question_header`).

    >>> from kt_formal.board import Board
    >>> from kt_formal.question import Question
    >>> claimed_question(question_claim(Question(Board(4, 5), closed=False, start=(0, 0)), "drup"))
    'open tour of the 4x5 board from a4'
    """
    b = question.board
    return Claim(kind, Shape(b.rows, b.cols, b.holes()), bool(question.closed), question.start, question.end,
                 forced=len(question.forced), forbidden=len(question.forbidden))


def claimed_question(claim: Claim) -> str:
    """The question a claim answers, in words (``closed tour of the 5x5 board``)."""
    return describe_question(claim.shape, claim.closed, claim.start, claim.end, claim.forced, claim.forbidden)


def claim_line(claim: Claim) -> str:
    """The claim in one line, with the evidence the kernel checked."""
    if claim.kind == "tour":
        closing = ", the closing move included" if claim.closed else ""
        return f"{claimed_question(claim)}: every square visited once, every step a knight move{closing}"
    if claim.kind == "drup":
        return (f"no {claimed_question(claim)}: DRUP proof of {_plural(claim.lemmas, 'lemma')} over the arc "
                f"encoding with {_plural(claim.cuts, 'cut')}, checked")
    return f"no {claimed_question(claim)}: {describe_evidence(claim)}"


def _worded(check, d) -> str:
    try:
        return claim_line(check(d))
    except CertificateNotChecked as exc:
        claim = getattr(exc, "claim", None)
        if claim is None:
            raise
        text = exc.args[0] if len(exc.args) == 1 and isinstance(exc.args[0], Worded) else str(exc)
        edit = lambda t: t.replace("the claim", f"the claim 'no {claimed_question(claim)}'", 1)  # noqa: E731
        raise CertificateNotChecked(text.edited(edit) if isinstance(text, Worded) else edit(text)) from None


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
