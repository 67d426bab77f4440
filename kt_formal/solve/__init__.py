"""The one door to everything that finds a tour: engines and constructions, by name.

* the registry (:data:`ENGINES`, :func:`get_engine`): each engine module (in
  :mod:`kt_formal.engines`, or a construction's adapter here: ``divide_engine``,
  ``frame_engine``, ``blocks_engine``, ``narrow_engine``) has ``NAME`` and
  ``solve(request, **options) -> Result``, imported only when used (cold start stays fast);
* the options every engine is handed, checked once (:mod:`kt_formal.solve.options`);
* the one "auto" policy (:mod:`kt_formal.solve.policy`);
* the constructions stage and the portfolio of the pipeline
  (:mod:`kt_formal.solve.build`, :mod:`kt_formal.solve.portfolio`);
* the SAT route's refutation (:func:`refute`).

It sits above engines, combine and counting, so none of them imports another through it;
:mod:`kt_formal.pipeline` reaches engines and constructions only through this door.
:func:`find_tour` is the entry point for one engine.

>>> from kt_formal.board import Board
>>> find_tour(Board(5, 6), engine="cpsat").tour.check() is None
True
"""

from __future__ import annotations

import importlib

from kt_formal.board import Board
from kt_formal.exceptions import InvalidInput
from kt_formal.question import Result, Status, Question
from kt_formal.solve.options import check_options
from kt_formal.solve.policy import choose_engine, shape_of

__all__ = ["find_tour", "get_engine", "check_engine", "choose_engine", "shape_of", "check_options", "refute", "explain_refutation",
           "ENGINES", "Result", "Status", "Question"]

#: engine name -> module implementing it
ENGINES: dict[str, str] = {
    "cpsat": "kt_formal.engines.cpsat",
    "narrow": "kt_formal.solve.narrow_engine",
    "divide": "kt_formal.solve.divide_engine",
    "frame": "kt_formal.solve.frame_engine",
    "blocks": "kt_formal.solve.blocks_engine",
    "warnsdorff": "kt_formal.engines.warnsdorff",
    "extend-rotate": "kt_formal.engines.rotate",
    "backtrack": "kt_formal.engines.backtrack",
    "dfs": "kt_formal.engines.dfs",
    "exhaustive": "kt_formal.engines.exhaustive",
    "sat": "kt_formal.engines.sat",
}


def check_engine(name: str) -> str:
    """``name`` when it is ``auto`` or an engine of :data:`ENGINES`, else InvalidInput (no
    module is imported)."""
    if name != "auto" and name not in ENGINES:
        raise InvalidInput(_unknown_engine(name))
    return name


def get_engine(name: str):
    """The module of an engine by name (``auto`` is a choice, not an engine)."""
    if name not in ENGINES:
        raise InvalidInput(_unknown_engine(name))
    return importlib.import_module(ENGINES[name])


def _unknown_engine(name) -> str:
    return f"unknown engine {name!r}; choose from {', '.join(['auto', *ENGINES])}"


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
    request = Question(board, closed=closed, start=start, end=end, forced=forced, forbidden=forbidden)
    name = choose_engine(request) if engine == "auto" else engine
    module = get_engine(name)
    return module.solve(request, **check_options(module, options))


def refute(request: Question, time_limit: float | None) -> Result | None:
    """The SAT route's answer to ``request`` (a DRUP proof the kernel checks when no tour
    exists), or None when the board is too big for its encoding."""
    from kt_formal.engines import sat

    if not sat.fits(request.board, request.closed):
        return None
    return sat.solve(request, time_limit=time_limit)


def explain_refutation(proof: dict) -> str:
    """The SAT route's proof in plain words."""
    from kt_formal.engines.sat import explain

    return explain(proof)
