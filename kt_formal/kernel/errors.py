"""The root of kt_formal's exception tree and the errors the kernel raises itself.

Every error the toolkit raises on purpose derives from :class:`KtFormalError`. The rest
of the tree (errors of searches and limits) and what the command line makes of each (its
exit code) are above the kernel, in :mod:`kt_formal.exceptions`.

>>> issubclass(CertificateNotChecked, CertificateRejected)
True
"""

__all__ = ["KtFormalError", "InvalidInput", "CertificateRejected", "CertificateNotChecked"]


class KtFormalError(Exception):
    """Base of every error kt_formal raises on purpose."""


class InvalidInput(KtFormalError, ValueError):
    """Bad input: a size out of range, a square off the board, a malformed file."""


class CertificateRejected(KtFormalError):
    """A tour or proof certificate failed independent verification."""


class CertificateNotChecked(CertificateRejected):
    """The certificate is a record that only re-running an engine could confirm.

    The kernel runs no search, so it accepts nothing on such a record's word;
    ``kt-formal verify --replay`` re-runs the engine, and says that it trusted it.
    """
