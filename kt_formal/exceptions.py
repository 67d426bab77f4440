"""The exception tree of kt_formal, under its public name, and the exit code of each.

Its root and the errors the trusted kernel raises itself are defined in
:mod:`kt_formal.kernel.errors` (the kernel imports nothing else of kt_formal); the rest
is defined here. This module gives every other layer and every user one place to
import them from, and says what the command line makes of each (:func:`exit_code_of`):

========================  ====  ==========================================
exception                 exit  meaning
========================  ====  ==========================================
InvalidInput              2     a bad size, square, hole, file or option
ResourceLimit             2     the work would not fit in this machine
CertificateRejected       1     a tour or proof failed the checker
CertificateNotChecked     1     a record that trusts an engine (verify --replay)
ProvenImpossible          1     no tour exists (a proof was found)
LimitReached              3     a time or node limit ran out: unknown
NotApplicable             3     a method does not cover this board
InternalError             4     a bug: please report it
========================  ====  ==========================================

>>> exit_code_of(ResourceLimit("too big")), exit_code_of(CertificateNotChecked("a record"))
(2, 1)

>>> from kt_formal.exceptions import InvalidInput, KtFormalError
>>> issubclass(InvalidInput, KtFormalError)
True

A message that names an option is a :class:`Worded` text: in Python's words (the keyword
arguments) as a string, in the command's options through :func:`message_in`:

>>> exc = InvalidInput(Worded("{resume} goes with {checkpoint}", {"resume": "resume=True", "checkpoint": "checkpoint"}))
>>> str(exc), message_in(exc, {"resume": "--resume", "checkpoint": "--checkpoint DIR"})
('resume=True goes with checkpoint', '--resume goes with --checkpoint DIR')
"""

from kt_formal.kernel.errors import CertificateNotChecked, CertificateRejected, InvalidInput, KtFormalError, Worded

__all__ = [
    "KtFormalError",
    "InvalidInput",
    "ResourceLimit",
    "CertificateRejected",
    "CertificateNotChecked",
    "ProvenImpossible",
    "LimitReached",
    "NotApplicable",
    "InternalError",
    "exit_code_of",
    "Worded",
    "message_in",
]


class ResourceLimit(InvalidInput):
    """The requested work would not fit in memory (refused before allocating)."""


class ProvenImpossible(KtFormalError):
    """The requested tour provably does not exist."""


class LimitReached(KtFormalError):
    """A time or node limit ran out before an answer: the result is unknown."""


class NotApplicable(KtFormalError):
    """A method (a construction, a proof kind) does not cover this board; the message says why."""


class InternalError(KtFormalError):
    """A bug in kt_formal (exit 4): the message and a report are welcome."""


#: The exit code of each branch of the tree (the most specific class listed wins).
EXIT_CODES = (
    (ResourceLimit, 2),
    (InvalidInput, 2),
    (CertificateNotChecked, 1),
    (CertificateRejected, 1),
    (ProvenImpossible, 1),
    (LimitReached, 3),
    (NotApplicable, 3),
    (InternalError, 4),
)


def exit_code_of(exc: BaseException) -> int:
    """The command line's exit code for ``exc`` (4, a bug, for anything unlisted)."""
    for cls, code in EXIT_CODES:
        if isinstance(exc, cls):
            return code
    return 4


def message_in(what, words) -> str:
    """The message of ``what`` (an exception or a text) with the options it names in ``words``
    (the command's), when it is :class:`Worded`; else ``str(what)``."""
    text = what if isinstance(what, str) else what.args[0] if len(what.args) == 1 else None
    return text.in_words(words) if isinstance(text, Worded) else str(what)
