"""The registry of everything that finds a tour: engines and constructions, by name.

Each engine module (in :mod:`kt_formal.engines`, or a construction's engine entry in
:mod:`kt_formal.combine`) has ``NAME`` and ``solve(request, **options) -> Result``; the
registry below maps names to modules, imported only when used (cold start stays fast).
It sits above both layers, so neither imports the other through it.
:func:`find_tour` is the entry point.

>>> from kt_formal.board import Board
>>> find_tour(Board(5, 6), engine="cpsat").tour.check() is None
True
"""

from __future__ import annotations

import importlib

from kt_formal.board import Board
from kt_formal.question import Result, Status, TourRequest
from kt_formal.engines.base import check_options
from kt_formal.exceptions import InvalidInput

__all__ = ["find_tour", "get_engine", "choose_engine", "shape_of", "ENGINES", "Result", "Status",
           "TourRequest"]

#: engine name -> module implementing it
ENGINES: dict[str, str] = {
    "cpsat": "kt_formal.engines.cpsat",
    "narrow": "kt_formal.combine.narrow_engine",
    "divide": "kt_formal.combine.divide_engine",
    "frame": "kt_formal.combine.frame_engine",
    "blocks": "kt_formal.combine.blocks_engine",
    "warnsdorff": "kt_formal.engines.warnsdorff",
    "extend-rotate": "kt_formal.engines.rotate",
    "backtrack": "kt_formal.engines.backtrack",
    "dfs": "kt_formal.engines.dfs",
    "exhaustive": "kt_formal.engines.exhaustive",
    "sat": "kt_formal.engines.sat",
}


def get_engine(name: str):
    """The module of an engine by name."""
    try:
        return importlib.import_module(ENGINES[name])
    except KeyError:
        raise InvalidInput(
            f"unknown engine {name!r}; choose from {', '.join(['auto', *ENGINES])}"
        ) from None


#: Boards with at most this many live squares are "small": CP-SAT is the engine of choice.
SMALL_SQUARES = 2500
#: Hole density (holes / rectangle) above which a board counts as densely holed.
DENSE_HOLES = 0.25


def shape_of(board: Board) -> str:
    """``"small"``, ``"dense"`` or ``"sparse"``: what the engine choice looks at.

    Small boards (at most :data:`SMALL_SQUARES` live squares) and densely holed ones
    (more than :data:`DENSE_HOLES` of the rectangle removed) suit CP-SAT; big boards
    with sparse holes suit constructions and Warnsdorff-ordered backtracking.

    >>> shape_of(Board(8, 8)), shape_of(Board(100, 100)), shape_of(Board.from_spec(100, 100, ["0,0,60x90"]))
    ('small', 'sparse', 'dense')
    """
    if board.n_squares <= SMALL_SQUARES:
        return "small"
    if board.n_holes > DENSE_HOLES * board.size:
        return "dense"
    return "sparse"


def choose_engine(request: TourRequest) -> str:
    """The single engine ``auto`` picks for a request, by the board's shape.

    Plain rectangles: ``divide`` above 12x12 squares or without any tour (the theorem
    answers at once), else ``cpsat``. Boards with holes, or fixed ends: ``cpsat`` on
    small or densely holed boards, else ``blocks`` (frame and block constructions, then
    backtracking). The portfolio of :func:`kt_formal.decide.decide` runs several.
    """
    from kt_formal.combine.divide_engine import is_plain

    b = request.board
    if is_plain(request):
        from kt_formal.combine.divide import tour_exists

        if b.size > 144 or not tour_exists(b.rows, b.cols, request.closed)[0]:
            return "divide"
        return "cpsat"
    if request.forced or shape_of(b) != "sparse":
        return "cpsat"
    return "blocks"


def find_tour(
    board: Board,
    closed: bool = True,
    start=None,
    end=None,
    *,
    forced=(),
    forbidden=(),
    engine: str = "auto",
    **options,
) -> Result:
    """Find a tour of ``board``; the tour in a FOUND result is already verified.

    Parameters
    ----------
    board : Board
    closed : bool
        A closed tour (a cycle) or an open one (a path).
    start, end : (row, col) or str, optional
        Fixed first / last squares (``"a1"`` or ``"r,c"`` accepted).
    forced, forbidden : sequences of (square, square)
        Moves the tour must contain / must not contain.
    engine : str
        ``auto`` or a name in :data:`ENGINES`.
    **options
        Passed to the engine (``time_limit``, ``seed``, ``workers``, ...).
    """
    request = TourRequest(board, closed=closed, start=start, end=end, forced=forced, forbidden=forbidden)
    name = choose_engine(request) if engine == "auto" else engine
    module = get_engine(name)
    return module.solve(request, **check_options(module, options))
