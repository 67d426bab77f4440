"""The one door to everything that finds a tour: engines and constructions, by name.

* the registry (:data:`ENGINES`, :func:`get_engine`): each engine is a subclass of
  :class:`kt_formal.engines.base.Engine` (in :mod:`kt_formal.engines`, or a construction's
  adapter here: ``divide_engine``, ``frame_engine``, ``blocks_engine``, ``narrow_engine``),
  imported only when used (cold start stays fast);
* the options every engine is handed, checked once (:mod:`kt_formal.solve.options`), and
  the one sequence name -> engine -> options -> run (:func:`run_engine`);
* the one "auto" policy (:mod:`kt_formal.solve.policy`);
* the constructions stage and the portfolio of the pipeline
  (:mod:`kt_formal.solve.build`, :mod:`kt_formal.solve.portfolio`);
* the SAT route's refutation (:func:`refute`).

It sits above engines, combine and counting, so none of them imports another through it;
:mod:`kt_formal.pipeline` reaches engines and constructions only through this door.
:func:`find_tour` is the entry point for one engine from loose arguments.

>>> from kt_formal.board import Board
>>> find_tour(Board(5, 6), engine="cpsat").tour.check() is None
True
"""

from __future__ import annotations

import importlib

from kt_formal.board import Board
from kt_formal.exceptions import InvalidInput
from kt_formal.question import DEFAULT_TIME_LIMIT, Limits, Result, Status, Question
from kt_formal.solve.options import check_options
from kt_formal.solve.policy import choose_engine, shape_of

__all__ = ["find_tour", "get_engine", "check_engine", "run_engine", "PreparedEngine", "choose_engine", "shape_of", "check_options",
           "refute", "explain_refutation", "ENGINES", "Result", "Status", "Question"]

#: engine name -> ``module:class`` of the :class:`~kt_formal.engines.base.Engine` subclass
ENGINES: dict[str, str] = {
    "cpsat": "kt_formal.engines.cpsat:CpSat",
    "narrow": "kt_formal.solve.narrow_engine:Narrow",
    "divide": "kt_formal.solve.divide_engine:Divide",
    "frame": "kt_formal.solve.frame_engine:Frame",
    "blocks": "kt_formal.solve.blocks_engine:Blocks",
    "warnsdorff": "kt_formal.engines.warnsdorff:Warnsdorff",
    "extend-rotate": "kt_formal.engines.rotate:ExtendRotate",
    "backtrack": "kt_formal.engines.backtrack:Backtrack",
    "dfs": "kt_formal.engines.dfs:Dfs",
    "exhaustive": "kt_formal.engines.exhaustive:Exhaustive",
    "sat": "kt_formal.engines.sat:Sat",
}


def check_engine(name: str) -> str:
    """``name`` when it is ``auto`` or an engine of :data:`ENGINES`, else InvalidInput (no
    module is imported)."""
    if name != "auto" and name not in ENGINES:
        raise InvalidInput(_unknown_engine(name))
    return name


def get_engine(name: str):
    """An instance of the engine named ``name`` (``auto`` is a choice, not an engine); its
    module is imported here, not before."""
    if name not in ENGINES:
        raise InvalidInput(_unknown_engine(name))
    module, cls = ENGINES[name].split(":")
    return getattr(importlib.import_module(module), cls)()


class PreparedEngine:
    """An engine by name with its options checked (:func:`check_options`), ready to run:
    the one sequence of :func:`get_engine`, :func:`check_options` and
    :meth:`~kt_formal.engines.base.Engine.run`.

    Settings of the run among ``options`` (``time_limit``, None for none; ``node_limit``,
    ``seed``, ``workers``, ``progress``) replace those of the limits it is run with; the
    rest are the engine's own options.
    """

    def __init__(self, name: str, options: dict):
        self.name, self.given = name, dict(options)
        self.engine = self.changes = self.options = None
        if options:  # options are checked now, before any work; without any the engine's module
            self.prepare()  # is loaded when it runs (OR-Tools takes a while to import)
        else:
            check_engine(name)

    def prepare(self) -> None:
        """Load the engine and check the options given."""
        if self.engine is None:
            engine = get_engine(self.name)
            self.changes, self.options = check_options(engine, self.given)
            self.engine = engine

    def run(self, question: Question, limits: Limits | None = None) -> Result:
        """The engine's answer to ``question`` within ``limits`` (default
        :data:`~kt_formal.question.DEFAULT_TIME_LIMIT` seconds)."""
        limits = Limits(DEFAULT_TIME_LIMIT) if limits is None else limits
        self.prepare()
        return self.engine.run(question, limits.share(1.0, **self.changes) if self.changes else limits,
                               self.options)


def run_engine(name: str, question: Question, limits: Limits | None = None, **options) -> Result:
    """Run the engine ``name`` on ``question`` within ``limits`` with ``options`` (see
    :class:`PreparedEngine`).

    >>> from kt_formal.board import Board
    >>> run_engine("dfs", Question(Board(5, 5), closed=False, start=(0, 0)), order="clockwise").status.value
    'found'
    """
    return PreparedEngine(name, options).run(question, limits)


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
        The settings of the run (``time_limit``, default
        :data:`~kt_formal.question.DEFAULT_TIME_LIMIT`, None for none; ``node_limit``,
        ``seed``, ``workers``, ``progress``) and the engine's own options.
    """
    question = Question(board, closed=closed, start=start, end=end, forced=forced, forbidden=forbidden)
    name = choose_engine(question) if engine == "auto" else check_engine(engine)
    return run_engine(name, question, None, **options)


def refute(question: Question, limits: Limits) -> Result | None:
    """The SAT route's answer to ``question`` (a DRUP proof the kernel checks when no tour
    exists), or None when the board is too big for its encoding."""
    from kt_formal.engines.sat import fits

    if not fits(question.board, question.closed):
        return None
    return run_engine("sat", question, limits)


def explain_refutation(proof: dict) -> str:
    """The SAT route's proof in plain words."""
    from kt_formal.engines.sat import explain

    return explain(proof)
