"""The one "auto" policy: which engine or construction suits a question, and when.

Every threshold the choice looks at is named here once: the board's *shape* (small,
densely holed, sparse), the fast first attempt on small boards, the probe of
Warnsdorff-ordered backtracking next to the constructions, and the largest board given
to CP-SAT. :func:`kt_formal.solve.find_tour` (one engine) and the pipeline of
:func:`kt_formal.pipeline.decide` (several, within one budget) both read them here.

>>> from kt_formal.board import Board
>>> shape_of(Board(8, 8)), shape_of(Board(100, 100)), shape_of(Board.from_spec(100, 100, ["0,0,60x90"]))
('small', 'sparse', 'dense')
"""

from __future__ import annotations

import sys

from kt_formal.board import Board
from kt_formal.question import Question

__all__ = ["shape_of", "choose_engine", "fast_first", "kernels_loaded", "portfolio_engines", "builds_plain",
           "builds_margin", "constructions_suit", "construction_share",
           "SMALL_SQUARES", "DENSE_HOLES", "CPSAT_MAX_SQUARES", "FAST_FIRST", "FAST_MAX_SQUARES",
           "FAST_WARM_SQUARES", "FAST_SECONDS", "FAST_ENGINE", "PROBE_PER_GROUP", "PROBE_PER_SQUARE",
           "PROBE_SECONDS", "BACKGROUND_BACKTRACK", "BACKGROUND_NODES_PER_SQUARE", "BACKGROUND_MAX_SQUARES", "INLINE_PROBE_SQUARES",
           "STAGGER_SECONDS", "PLAIN_SEARCH_SQUARES"]

#: Boards with at most this many live squares are "small": CP-SAT is the engine of choice,
#: the frame construction's own search runs, and an open tour with both ends fixed is
#: left to the searches rather than the constructions.
SMALL_SQUARES = 2500
#: Hole density (holes / rectangle) above which a board counts as densely holed.
DENSE_HOLES = 0.25
#: Plain rectangles of at most this many squares that are small: CP-SAT answers faster
#: than divide and conquer builds (12 x 12).
PLAIN_SEARCH_SQUARES = 144

#: Largest board (live squares) the portfolio gives to CP-SAT (building the model of a
#: bigger one takes longer than the searches that suit it).
CPSAT_MAX_SQUARES = 40_000
#: Seconds backtracking runs alone before the constructions start next to it (after the
#: frame, which takes milliseconds): this much for each group of touching holes (the
#: block construction solves one CP-SAT model a group) or for each live square (the time
#: of one walk through the board), whichever is more, at most PROBE_SECONDS and a tenth
#: of the budget. The probe ends early when its one walk ends (see
#: BACKGROUND_NODES_PER_SQUARE). After the probe the two run side by side.
PROBE_PER_GROUP = 0.02
PROBE_PER_SQUARE = 1e-6
PROBE_SECONDS = 0.25
#: Whether backtracking runs next to the constructions on big sparse boards.
BACKGROUND_BACKTRACK = True
#: Nodes (per live square) it may use there: one walk through the board with a little
#: backtracking. Warnsdorff's rule either walks straight through (hundredths of a second)
#: or is stuck for long; stuck, it would only take the processor from the constructions.
#: The portfolio starts it again, without this cap, if the constructions build nothing.
BACKGROUND_NODES_PER_SQUARE = 1.25
#: Largest board (live squares) where it does; on bigger ones it runs after the constructions.
BACKGROUND_MAX_SQUARES = 300_000
#: Largest board (live squares) whose walk runs in the calling thread before the
#: constructions (a few milliseconds; a thread's start and the wait for it were half of
#: the answer's time on an open 100 x 100 board).
INLINE_PROBE_SQUARES = 20_000
#: Seconds the portfolio's first engine runs alone before the second starts.
STAGGER_SECONDS = 0.1
#: Boards of at most this many squares get one capped walk of backtracking in the calling
#: thread before the portfolio starts its threads (a thread's start and the wait for it
#: were a third of the answer's time on a 40 x 40 board).
INLINE_MAX_SQUARES = SMALL_SQUARES

#: Whether boards of at most FAST_MAX_SQUARES live squares get a fast first attempt
#: (extension and rotation, plain Python: nothing compiled to load, no solver to import)
#: before the constructions and the portfolio.
FAST_FIRST = True
#: Largest board (live squares) given the fast first attempt.
FAST_MAX_SQUARES = 10_000
#: Largest board given it once the compiled search is loaded in the process.
FAST_WARM_SQUARES = 400
#: Seconds the fast first attempt may take at most (and at most a tenth of the budget).
FAST_SECONDS = 0.3
#: The engine of the fast first attempt (a name in kt_formal.solve.ENGINES).
FAST_ENGINE = "extend-rotate"


def shape_of(board: Board) -> str:
    """``"small"``, ``"dense"`` or ``"sparse"``: what the engine choice looks at.

    Small boards (at most :data:`SMALL_SQUARES` live squares) and densely holed ones
    (more than :data:`DENSE_HOLES` of the rectangle removed) suit CP-SAT; big boards
    with sparse holes suit constructions and Warnsdorff-ordered backtracking.
    """
    if board.n_squares <= SMALL_SQUARES:
        return "small"
    if board.n_holes > DENSE_HOLES * board.size:
        return "dense"
    return "sparse"


def builds_plain(request: Question) -> bool:
    """Whether divide and conquer (not a search) answers a plain rectangle."""
    from kt_formal.solve.divide_engine import is_plain

    b = request.board
    return is_plain(request) and (b.size > PLAIN_SEARCH_SQUARES or shape_of(b) != "small")


def builds_margin(request: Question) -> bool:
    """Whether the margin-three construction answers: nothing fixed, one small hole at least 3
    squares from every edge, colours balanced; or an open tour of a board of even area minus
    one square at margin >= 3 (:mod:`kt_formal.combine.margin`)."""
    if request.start is not None or request.end is not None or request.forced or request.forbidden:
        return False
    from kt_formal.combine.margin import margin_applies, margin_open_applies

    return (margin_applies if request.closed else margin_open_applies)(request.board)


def choose_engine(request: Question) -> str:
    """The single engine ``auto`` picks for a request, by the board's shape.

    Plain rectangles: ``divide`` above 12x12 squares or without any tour (the theorem
    answers at once), else ``cpsat``. Boards with holes, or fixed ends: ``cpsat`` on
    small or densely holed boards, else ``blocks`` (frame and block constructions, then
    backtracking). The portfolio of :func:`kt_formal.pipeline.decide` runs several.
    """
    from kt_formal.solve.divide_engine import is_plain

    b = request.board
    if is_plain(request):
        from kt_formal.combine.divide import tour_exists

        if b.size > PLAIN_SEARCH_SQUARES or not tour_exists(b.rows, b.cols, request.closed)[0]:
            return "divide"
        return "cpsat"
    if request.forced or shape_of(b) != "sparse":
        return "cpsat"
    return "blocks"


def kernels_loaded() -> bool:
    """Whether the compiled search kernel is already loaded in this process."""
    search = sys.modules.get("kt_formal.engines.pathsearch")
    return search is not None and bool(search.search_kernel.signatures)


def fast_first(request: Question, engine: str) -> bool:
    """Whether the pipeline makes the fast first attempt at ``request``.

    Boards of at most :data:`FAST_MAX_SQUARES` squares that divide and conquer does not
    build; in a process that has the compiled search loaded already (a census, a
    notebook), only boards of at most :data:`FAST_WARM_SQUARES` (compiled backtracking is
    faster above).
    """
    n = request.board.n_squares
    if not FAST_FIRST or engine != "auto" or n > FAST_MAX_SQUARES:
        return False
    if n > FAST_WARM_SQUARES and kernels_loaded():
        return False
    return not builds_plain(request) and not builds_margin(request)


def constructions_suit(request: Question, shape: str) -> bool:
    """Whether the hole constructions (frame, repair, blocks) come before the searches."""
    b = request.board
    both_ends = not request.closed and request.start is not None and request.end is not None
    return shape == "sparse" or (both_ends and b.n_squares > SMALL_SQUARES)


def construction_share(board: Board) -> float:
    """The share of the time left that the hole constructions take before the portfolio:
    0.6 where backtracking runs next to them, 0.8 above that, and nearly all of it where
    a path search of the board would not fit in memory (the portfolio could not start)."""
    from kt_formal.engines.pathsearch import search_fits

    if board.n_squares <= BACKGROUND_MAX_SQUARES:
        return 0.6
    return 0.8 if search_fits(board) else 0.97


def portfolio_engines(n_squares: int, shape: str) -> list[str]:
    """The engines of the portfolio, in the order they start.

    Backtracking starts first (it often answers in milliseconds, before CP-SAT has built
    its model), except on tiny boards and densely holed ones; CP-SAT only up to
    :data:`CPSAT_MAX_SQUARES`.
    """
    if n_squares > CPSAT_MAX_SQUARES:
        return ["backtrack"]
    return ["cpsat", "backtrack"] if (shape == "dense" or n_squares <= 400) else ["backtrack", "cpsat"]
