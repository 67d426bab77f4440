"""The exception tree of kt_formal, under its public name.

The tree itself is defined in :mod:`kt_formal.kernel.errors` (the trusted kernel
imports nothing else of kt_formal, and it raises these errors too); this module
gives every other layer and every user one place to import them from.

>>> from kt_formal.exceptions import InvalidInput, KtFormalError
>>> issubclass(InvalidInput, KtFormalError)
True
"""

from kt_formal.kernel.errors import (
    CertificateNotChecked,
    CertificateRejected,
    InternalError,
    InvalidInput,
    KtFormalError,
    LimitReached,
    NotApplicable,
    ProvenImpossible,
    ResourceLimit,
)

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
]
