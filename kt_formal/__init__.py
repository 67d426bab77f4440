"""kt_formal: find, build and certify knight's tours.

>>> import kt_formal as kt
>>> result = kt.find_tour(kt.Board(6, 6))
>>> result.status.value, result.tour.check() is None
('found', True)
"""

from kt_formal.board import Board
from kt_formal.certificate import check_tour, verify_tour
from kt_formal.decide import Verdict, decide
from kt_formal.solve import Result, Status, TourRequest, find_tour
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
from kt_formal.io.render import board_repr_svg, tour_repr_svg

# Boards and tours draw themselves in Jupyter. The value types sit below the pictures
# (io.render imports them), so the package facade, above every layer, attaches the
# drawing functions: no value type imports the io layer.
Board._repr_svg_ = board_repr_svg
Tour._repr_svg_ = tour_repr_svg

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
