"""kt_formal: find, build and certify knight's tours.

>>> import kt_formal as kt
>>> result = kt.find_tour(kt.Board(6, 6))
>>> result.status.value, result.tour.check() is None
('found', True)
"""

import importlib

#: public name -> module defining it; imported on first use (PEP 562), so that
#: ``kt-formal --help`` and ``kt-formal verify`` start without numba or OR-Tools.
_LAZY = {
    "Board": "kt_formal.board",
    "Tour": "kt_formal.tour",
    "knight_graph": "kt_formal.graph",
    "neighbour_table": "kt_formal.graph",
    "check_tour": "kt_formal.certificate",
    "verify_tour": "kt_formal.certificate",
    "find_tour": "kt_formal.engines",
    "Result": "kt_formal.engines",
    "Status": "kt_formal.engines",
    "TourRequest": "kt_formal.engines",
    "decide": "kt_formal.decide",
    "Verdict": "kt_formal.decide",
    "find_proof": "kt_formal.proofs",
    "check_proof": "kt_formal.proofs",
    "KtFormalError": "kt_formal.exceptions",
    "InvalidInput": "kt_formal.exceptions",
    "ResourceLimit": "kt_formal.exceptions",
    "CertificateRejected": "kt_formal.exceptions",
    "ProvenImpossible": "kt_formal.exceptions",
    "LimitReached": "kt_formal.exceptions",
}


def __getattr__(name):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'kt_formal' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted([*globals(), *_LAZY])


__version__ = "0.1.0"

__all__ = [
    "Board",
    "Tour",
    "knight_graph",
    "neighbour_table",
    "check_tour",
    "verify_tour",
    "find_tour",
    "decide",
    "Verdict",
    "find_proof",
    "check_proof",
    "Result",
    "Status",
    "TourRequest",
    "KtFormalError",
    "InvalidInput",
    "ResourceLimit",
    "CertificateRejected",
    "ProvenImpossible",
    "LimitReached",
    "__version__",
]
