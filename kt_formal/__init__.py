"""kt_formal: find, build and certify knight's tours.

>>> import kt_formal as kt
>>> result = kt.find_tour(kt.Board(6, 6))
>>> result.status.value, result.tour.check() is None
('found', True)
"""

from kt_formal.board import Board
from kt_formal.certificate import check_tour, verify_tour
from kt_formal.decide import Verdict, decide
from kt_formal.engines import Result, Status, TourRequest, find_tour
from kt_formal.exceptions import (
    CertificateRejected,
    InvalidInput,
    KtFormalError,
    LimitReached,
    ProvenImpossible,
    ResourceLimit,
)
from kt_formal.graph import knight_graph, neighbour_table
from kt_formal.proofs import check_proof, find_proof
from kt_formal.tour import Tour

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
