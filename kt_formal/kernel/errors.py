"""The one exception tree of kt_formal (it lives in the kernel, which imports nothing else).

Every error the toolkit raises on purpose derives from :class:`KtFormalError`. What the
command line makes of each (its exit code) is said above the kernel, in
:mod:`kt_formal.exceptions`.

>>> issubclass(ResourceLimit, InvalidInput)
True
"""

__all__ = ["KtFormalError", "InvalidInput", "ResourceLimit", "CertificateRejected", "ProvenImpossible",
           "LimitReached", "NotApplicable", "CertificateNotChecked", "InternalError"]


class KtFormalError(Exception):
    """Base of every error kt_formal raises on purpose."""


class InvalidInput(KtFormalError, ValueError):
    """Bad input: a size out of range, a square off the board, a malformed file."""


class ResourceLimit(InvalidInput):
    """The requested work would not fit in memory (refused before allocating)."""


class CertificateRejected(KtFormalError):
    """A tour or proof certificate failed independent verification."""


class ProvenImpossible(KtFormalError):
    """The requested tour provably does not exist."""


class LimitReached(KtFormalError):
    """A time or node limit ran out before an answer: the result is unknown."""


class NotApplicable(KtFormalError):
    """A method (a construction, a proof kind) does not cover this board; the message says why."""


class CertificateNotChecked(CertificateRejected):
    """The certificate is a record that only re-running an engine could confirm.

    The kernel runs no search, so it accepts nothing on such a record's word;
    ``kt-formal verify --replay`` re-runs the engine, and says that it trusted it.
    """


class InternalError(KtFormalError):
    """A bug in kt_formal (exit 4): the message and a report are welcome."""
