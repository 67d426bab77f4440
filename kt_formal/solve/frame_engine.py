"""The ``frame`` engine: closed tours of boards with holes.

For a large board minus one rectangular hole it builds the tour with the generalised
frame (:func:`kt_formal.combine.frame_large.frame_tour`, seconds for 2000 x 2000);
small boards, and boards the construction does not cover, go to CP-SAT with a time
limit (limit reached: LIMIT). Boards too large for CP-SAT that the construction
does not cover get UNKNOWN with the reason. Every tour passes the independent checker.

>>> from kt_formal.board import Board
>>> r = Frame().run(Question(Board.from_spec(10, 10, ["3,3,4x4"])))
>>> r.status.value, r.stats["method"]
('found', 'cpsat')
"""

from __future__ import annotations

from dataclasses import dataclass

from kt_formal.engines.base import Engine
from kt_formal.exceptions import InvalidInput
from kt_formal.question import Limits, Question, Result
from kt_formal.solve.policy import SMALL_SQUARES

__all__ = ["Frame", "SMALL", "CPSAT_MAX"]

NAME = "frame"
#: Boards with at most this many squares go straight to CP-SAT: the policy's small boards.
SMALL = SMALL_SQUARES
#: Largest board (live squares) CP-SAT is tried on when the construction does not apply.
CPSAT_MAX = 10_000


class Frame(Engine):
    """Closed tour of a holed board: the frame construction, else CP-SAT (with the same
    limits; the construction itself has none: it takes time linear in the board), else
    UNKNOWN. ``stats["method"]`` says which way the answer came (``frame`` or ``cpsat``)."""

    name = NAME

    @dataclass(frozen=True)
    class Options:
        """``method``: ``auto``; ``construct`` never calls CP-SAT on the whole board, ``cpsat``
        never constructs. ``small``, ``cpsat_max``: squares up to which CP-SAT comes first /
        is tried at all (in ``auto``)."""

        method: str = "auto"
        small: int = SMALL
        cpsat_max: int = CPSAT_MAX

        def __post_init__(self):
            if self.method not in ("auto", "construct", "cpsat"):
                raise InvalidInput(f"unknown method {self.method!r}; choose auto, construct or cpsat")

    def search(self, question: Question, limits: Limits, options) -> Result:
        """The construction, then CP-SAT, as ``options.method`` says."""
        return _answer(self, question, limits, options)


def _answer(engine: Frame, request: Question, limits: Limits, options) -> Result:
    from kt_formal.combine.frame_large import NotApplicable, frame_tour
    from kt_formal.engines.cpsat import CpSat

    method, small, cpsat_max = options.method, options.small, options.cpsat_max
    board = request.board
    n = board.n_squares
    notes = []
    plain = request.closed and request.end is None and not request.forced and not request.forbidden
    if method == "construct" or (method == "auto" and n > small):
        if plain:
            try:
                tour = frame_tour(board)
            except NotApplicable as exc:
                notes.append(f"the frame construction does not apply: {exc}")
            else:
                return engine.found(request, limits, tour.order, {"method": "frame"},
                                    f"built a closed tour of the {board.describe()} board with the frame construction")
        else:
            notes.append("the frame construction makes closed tours without a fixed end or forced moves")
        if method == "construct":
            return engine.unknown(request, limits, "; ".join(notes), {"method": "frame"})
    if method == "cpsat" or n <= cpsat_max:
        result = CpSat().run(request, limits)
        result.stats["method"] = "cpsat"
        result.engine = NAME
        result.wall_time = limits.elapsed()
        if notes:
            result.message = "; ".join(notes) + "; " + result.message
        return result
    notes.append(f"the board has {n} squares, more than CP-SAT is tried on here ({cpsat_max})")
    return engine.unknown(request, limits, "; ".join(notes), {"method": "none"})
