"""The one exception tree of kt_formal (it lives in the kernel, which imports nothing else).

Every error the toolkit raises on purpose derives from :class:`KtFormalError`.
The command line maps each branch to an exit code:

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

>>> issubclass(ResourceLimit, InvalidInput)
True
"""

__all__ = [
    "KtFormalError",
    "InvalidInput",
    "ResourceLimit",
    "CertificateRejected",
    "ProvenImpossible",
    "LimitReached",
    "NotApplicable",
    "CertificateNotChecked",
    "InternalError",
]


class KtFormalError(Exception):
    """Base of every error kt_formal raises on purpose."""

    exit_code = 4


class InvalidInput(KtFormalError, ValueError):
    """Bad input: a size out of range, a square off the board, a malformed file."""

    exit_code = 2


class ResourceLimit(InvalidInput):
    """The requested work would not fit in memory (refused before allocating)."""

    exit_code = 2


class CertificateRejected(KtFormalError):
    """A tour or proof certificate failed independent verification."""

    exit_code = 1


class ProvenImpossible(KtFormalError):
    """The requested tour provably does not exist."""

    exit_code = 1


class LimitReached(KtFormalError):
    """A time or node limit ran out before an answer: the result is unknown."""

    exit_code = 3


class NotApplicable(KtFormalError):
    """A method (a construction, a proof kind) does not cover this board; the message says why."""

    exit_code = 3


class CertificateNotChecked(CertificateRejected):
    """The certificate is a record that only re-running an engine could confirm.

    The kernel runs no search, so it accepts nothing on such a record's word;
    ``kt-formal verify --replay`` re-runs the engine, and says that it trusted it.
    """


class InternalError(KtFormalError):
    """A bug in kt_formal (exit 4): the message and a report are welcome."""

    exit_code = 4
