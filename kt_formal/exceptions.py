"""The one exception tree of kt_formal.

Every error the toolkit raises on purpose derives from :class:`KtFormalError`.
The command line maps each branch to an exit code:

========================  ====  ==========================================
exception                 exit  meaning
========================  ====  ==========================================
InvalidInput              2     a bad size, square, hole, file or option
ResourceLimit             2     the work would not fit in this machine
CertificateRejected       1     a tour or proof failed the checker
ProvenImpossible          1     no tour exists (a proof was found)
LimitReached              3     a time or node limit ran out: unknown
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
