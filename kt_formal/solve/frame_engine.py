"""The ``frame`` engine: closed tours of boards with holes.

For a large board minus one rectangular hole it builds the tour with the generalised
frame (:func:`kt_formal.combine.frame_large.frame_tour`, seconds for 2000 x 2000);
small boards, and boards the construction does not cover, go to CP-SAT with a time
limit (limit reached: UNKNOWN). Boards too large for CP-SAT that the construction
does not cover get UNKNOWN with the reason. Every tour passes the independent checker.

>>> from kt_formal.board import Board
>>> r = solve(Question(Board.from_spec(10, 10, ["3,3,4x4"])))
>>> r.status.value, r.stats["method"]
('found', 'cpsat')
"""

from __future__ import annotations

from kt_formal.question import Budget, Question
from kt_formal.solve.policy import SMALL_SQUARES

from kt_formal.engines.base import found, unknown  # noqa: F401

__all__ = ["solve", "SMALL", "CPSAT_MAX"]

NAME = "frame"
#: Boards with at most this many squares go straight to CP-SAT: the policy's small boards.
SMALL = SMALL_SQUARES
#: Largest board (live squares) CP-SAT is tried on when the construction does not apply.
CPSAT_MAX = 10_000


def solve(request: Question, *, time_limit: float | None = 60.0, seed: int = 0, workers: int = 2,
          method: str = "auto", small: int = SMALL, cpsat_max: int = CPSAT_MAX):
    """Closed tour of a holed board: the frame construction, else CP-SAT, else UNKNOWN.

    Parameters
    ----------
    request : Question
    time_limit, seed, workers
        For CP-SAT (the construction itself has no limit: it takes time linear in the board).
    method : {"auto", "construct", "cpsat"}
        ``construct`` never calls CP-SAT on the whole board; ``cpsat`` never constructs.
    small, cpsat_max : int
        Squares up to which CP-SAT comes first / is tried at all (in ``auto``).

    Returns
    -------
    Result
        ``stats["method"]`` says which way the answer came (``frame`` or ``cpsat``).
    """
    from kt_formal.combine.frame_large import NotApplicable, frame_tour
    from kt_formal.engines import cpsat
    from kt_formal.exceptions import InvalidInput

    if method not in ("auto", "construct", "cpsat"):
        raise InvalidInput(f"unknown method {method!r}; choose auto, construct or cpsat")
    clock = Budget()
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
                return found(request, tour.order, NAME, clock.elapsed(), {"method": "frame"},
                             f"built a closed tour of the {board.describe()} board with the frame construction")
        else:
            notes.append("the frame construction makes closed tours without a fixed end or forced moves")
        if method == "construct":
            return unknown(request, NAME, clock.elapsed(), "; ".join(notes), {"method": "frame"})
    if method == "cpsat" or n <= cpsat_max:
        result = cpsat.solve(request, time_limit=time_limit, seed=seed, workers=workers)
        result.stats["method"] = "cpsat"
        result.engine = NAME
        result.wall_time = clock.elapsed()
        if notes:
            result.message = "; ".join(notes) + "; " + result.message
        return result
    notes.append(f"the board has {n} squares, more than CP-SAT is tried on here ({cpsat_max})")
    return unknown(request, NAME, clock.elapsed(), "; ".join(notes), {"method": "none"})
