"""The Python face of the ``kt-formal`` command: ``tour``, ``decide``, ``count`` and ``census``.

Each function takes the command's options as keyword arguments under the same names
(``closed`` for the negation of ``--open``; ``hole``, ``remove``, ``time_limit``,
``threads``, ``workers``, ``start``, ``end``) and returns a result whose ``to_json()`` is the
object ``--json`` prints (schema ``kt-formal/1``, docs/json.md). A board is a
:class:`~kt_formal.board.Board` or its size ``rows, cols``.

>>> import kt_formal as kt
>>> v = kt.decide(5, 5)
>>> v.answer, v.to_json()["method"], v.exit_code
('no', 'proof:colour', 1)
>>> kt.count(3, 10).count
16
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import SimpleNamespace

from kt_formal.pipeline import Verdict
from kt_formal.question import DEFAULT_TIME_LIMIT, Limits, Question
from kt_formal.pipeline import decide as _decide

__all__ = ["tour", "decide", "count", "census", "Decision", "CountResult", "CensusResult"]

#: Seconds per question of a census (it asks many; ``tour``, ``decide`` and ``count`` take 60).
CENSUS_TIME_LIMIT = 10.0


def _board(board, cols=None, hole=(), remove=(), mask=None):
    from kt_formal.board import Board

    if isinstance(hole, str):
        hole = [hole]
    if isinstance(remove, str) or (isinstance(remove, tuple) and len(remove) == 2
                                   and all(isinstance(x, int) for x in remove)):
        remove = [remove]  # one square
    if mask is not None:
        b = Board.from_mask_file(mask)
        if hole or remove:
            b = Board.from_spec(b.rows, b.cols, list(hole), [*b.holes(), *(b.parse_square(s) for s in remove)])
        return b
    if isinstance(board, Board):
        if cols is not None:
            raise TypeError("give a Board or rows, cols, not both")
        if not hole and not remove:
            return board
        return Board.from_spec(board.rows, board.cols, list(hole),
                               [*board.holes(), *(board.parse_square(s) for s in remove)])
    if cols is None:
        raise TypeError("give a Board, or the board size rows, cols")
    probe = Board(int(board), int(cols))
    return Board.from_spec(probe.rows, probe.cols, list(hole), [probe.parse_square(s) for s in remove])


class Decision(Verdict):
    """A :class:`~kt_formal.pipeline.Verdict` that remembers its question, so that
    ``to_json()`` gives the object of ``kt-formal exists --json`` (or ``tour --json``)."""

    command = "exists"

    @classmethod
    def of(cls, verdict: Verdict, board, closed: bool, start, end, command: str = "exists") -> "Decision":
        d = cls.__new__(cls)
        d.__dict__.update(verdict.__dict__)
        d.board, d.closed, d.start, d.end, d.command = board, closed, start, end, command
        return d

    def to_json(self, *, squares: bool | None = None) -> dict:
        """The ``--json`` object; ``squares`` (default: for ``tour``) lists the tour's squares."""
        from kt_formal.io import jsonout

        if squares is None:
            squares = self.command == "tour"
        return jsonout.verdict_json(self.command, self, self.board, self.closed, self.start, self.end,
                                    squares=squares and self.tour is not None)


def _ends(board, start, end):
    s = None if start is None else board.parse_square(start)
    e = None if end is None else board.parse_square(end)
    return s, e


def decide(board, cols=None, closed: bool = True, start=None, end=None, *, hole=(), remove=(), mask=None,
           time_limit: float | None = DEFAULT_TIME_LIMIT, engine: str = "auto", seed: int = 0,
           threads: int = 2, workers: int | None = None, progress=None, **options) -> Decision:
    """Does a tour exist? ``kt-formal exists`` in Python: a :class:`Decision` (yes with a verified
    tour, no with a proof the kernel checks, or unknown). ``workers`` is the old name of ``threads``."""
    if isinstance(cols, bool):  # decide(board, False): the old positional ``closed``
        cols, closed = None, cols
    b = _board(board, cols, hole, remove, mask)
    s, e = _ends(b, start, end)
    question = Question(b, closed=closed, start=s, end=e)
    limits = Limits(time_limit, seed=seed, threads=threads if workers is None else workers, progress=progress)
    v = _decide(question, limits, engine=engine, **options)
    return Decision.of(v, b, closed, s, e)


def tour(board, cols=None, *, closed: bool = True, start=None, end=None, hole=(), remove=(), mask=None,
         time_limit: float | None = DEFAULT_TIME_LIMIT, engine: str = "auto", seed: int = 0,
         threads: int = 2, progress=None, **options) -> Decision:
    """Find a tour: ``kt-formal tour`` in Python (the same pipeline as :func:`decide`);
    ``result.tour`` is the verified tour when ``result.answer == "yes"``."""
    d = decide(board, cols, closed, start, end, hole=hole, remove=remove, mask=mask, time_limit=time_limit,
               engine=engine, seed=seed, threads=threads, progress=progress, **options)
    d.command = "tour"
    return d


@dataclass
class CountResult:
    """The tours of a board, counted.

    ``count`` is the number of tours (each undirected tour once) when ``complete``; a count
    that reached a limit is not a count: ``complete`` is False, ``count`` None and
    ``lower_bound`` the tours an exhaustive search found before the limit (None after the
    frontier method, whose partial sums are not tours of the board)."""

    board: object
    closed: bool
    start: tuple | None
    end: tuple | None
    count: int | None
    complete: bool
    method: str
    seconds: float
    directed_count: int | None = None
    nodes: int | None = None
    max_states: int | None = None
    lower_bound: int | None = None
    reason: str = ""

    @property
    def exit_code(self) -> int:
        return 0 if self.complete else 3

    def to_json(self) -> dict:
        """The object of ``kt-formal count --json``."""
        from kt_formal.question import Question
        from kt_formal.io import jsonout

        what = Question(self.board, self.closed, self.start, self.end).describe()
        shown = self.count if self.complete else self.lower_bound
        if shown != 1:
            what = what.replace("tour", "tours", 1)
        if self.complete:
            message = f"{self.count} {what}"
        else:
            message = f"unknown: {self.reason}" + (f"; at least {shown} {what}" if shown is not None else "")
        return jsonout.count_json(self.board, self.closed, self.start, self.end, count=self.count,
                                  complete=self.complete, method=self.method, seconds=self.seconds,
                                  directed_count=self.directed_count, nodes=self.nodes,
                                  max_states=self.max_states, message=message, lower_bound=self.lower_bound)


def count(board, cols=None, closed: bool = True, start=None, end=None, *, hole=(), remove=(), mask=None,
          method: str = "auto", time_limit: float | None = DEFAULT_TIME_LIMIT, node_limit: int | None = None,
          progress=None, checkpoint: str | None = None, resume: bool = False, discard_checkpoint: bool = False,
          checkpoint_every: float | None = None, dask: str | None = None, parts: int = 2,
          spill_dir: str | None = None, table_bytes: int | None = None, threads: int | None = None) -> CountResult:
    """Count the tours of a board, each undirected tour once: ``kt-formal count`` in Python,
    by the same policy (:func:`kt_formal.counting.policy.run_count`: the same method, the
    same checks of memory and disk, threads and kernels).

    ``closed=False`` counts open tours (Hamiltonian paths); ``start`` and ``end`` fix their
    ends. ``result.count`` is undirected; ``result.directed_count`` counts open tours with a
    direction (twice the count with free ends, the count itself with a fixed end; None for
    closed tours).

    ``method``: ``frontier`` (a side of at most 8), ``search`` (exhaustive) or ``auto`` (the
    command's choice: the search for closed tours of boards of at most 36 squares, a node
    limit or nothing else fits; else the frontier).

    A count that reaches ``time_limit`` (or ``node_limit``) returns ``complete=False`` and
    ``count=None``; nothing is raised, and no partial figure is given as the count (a
    search's tours found so far are ``lower_bound``).

    Frontier only: ``checkpoint`` (a directory: the states written after a step (a
    square) every ``checkpoint_every`` seconds, default 60), ``resume`` (go on from there;
    without it a directory holding a checkpoint is refused) and ``discard_checkpoint``
    (remove it first); ``dask`` (a scheduler's address or ``"local"``) steps the states in
    ``parts`` parts on a Dask cluster; ``spill_dir``, ``table_bytes`` and ``threads`` as for
    the compiled counter.
    """
    from kt_formal.counting.policy import run_count
    from kt_formal.question import Question

    b = _board(board, cols, hole, remove, mask)
    request = Question(b, closed=closed, start=start, end=end)
    res = run_count(request, method=method, time_limit=time_limit, node_limit=node_limit, progress=progress,
                    checkpoint=checkpoint, resume=resume, discard_checkpoint=discard_checkpoint,
                    checkpoint_every=checkpoint_every, dask=dask, parts=parts, spill_dir=spill_dir,
                    table_bytes=table_bytes, threads=threads)
    return CountResult(b, closed, request.start, request.end, res.count, res.complete, res.method, res.wall_time,
                       directed_count=res.directed_count, nodes=res.nodes, max_states=res.max_states,
                       lower_bound=res.lower_bound, reason=res.reason)


@dataclass
class CensusResult:
    """What a census run did and what its database holds."""

    db: str
    questions: int
    stored_before: int
    asked: int
    orbits: int
    seconds: float
    unknown: int
    summary: dict = field(default_factory=dict)

    @property
    def exit_code(self) -> int:
        return 3 if self.unknown else 0

    def to_json(self) -> dict:
        """The object of ``kt-formal census --json``."""
        from kt_formal.io import jsonout

        summary = dict(self.summary, unknown=self.unknown)
        run = {"questions": self.questions, "stored_before": self.stored_before, "asked": self.asked,
               "orbits": self.orbits, "seconds": round(float(self.seconds), 6)}
        message = (f"{self.questions} questions: {self.stored_before} already stored, {self.asked} asked; "
                   f"{self.unknown} unknown")
        return jsonout.census_json("census", "unknown" if self.unknown else "done", self.exit_code, message,
                                   db=str(self.db), summary=summary, run=run)


def census(rows, cols, *, db, remove_squares: int | None = None, hole_size: str | None = None,
           random_holes: int | None = None, mask_dir=None, samples: int = 100, seed: int = 0,
           closed: bool = True, start=None, end=None, time_limit: float = CENSUS_TIME_LIMIT,
           workers: int = 2, dask: str | None = None, retry_unknown: bool = False,
           progress=None) -> CensusResult:
    """Answer a family of boards into the SQLite database ``db``: ``kt-formal census`` in
    Python. ``rows`` and ``cols`` are numbers or ranges like ``"3..10"``; exactly one of
    ``remove_squares``, ``hole_size`` (``"6x6"``), ``random_holes`` and ``mask_dir`` names the
    family; ``workers`` are processes."""
    from kt_formal.survey import report
    from kt_formal.survey.families import family_questions
    from kt_formal.survey.runners import DaskConnection, run_census
    from kt_formal.survey.store import Store, check_store_file, question_key
    from kt_formal.exceptions import InvalidInput

    chosen = [x for x in (remove_squares, hole_size, random_holes, mask_dir) if x is not None]
    if len(chosen) != 1:
        raise InvalidInput("give exactly one of remove_squares, hole_size, random_holes, mask_dir")
    if not (isinstance(workers, int) and 1 <= workers <= 1024):
        raise InvalidInput(f"workers must be between 1 and 1024, got {workers!r}")
    ns = SimpleNamespace(rows=str(rows), cols=str(cols), remove_squares=remove_squares, hole=hole_size,
                         random_holes=random_holes, mask_dir=None if mask_dir is None else str(mask_dir),
                         samples=samples, seed=seed, open=not closed, start=start, end=end)
    db = str(db)
    check_store_file(db)
    questions = family_questions(ns)
    conn = DaskConnection(dask, workers) if dask else None
    try:
        with Store.open(db) as store:
            run = run_census(questions, store, time_limit=time_limit, workers=workers, dask=conn,
                             retry_unknown=retry_unknown, progress=progress)
            keys = {question_key(q) for q in questions}
            unknown = sum(1 for r in store.con.execute(
                'SELECT rows, cols, holes, tour, start, "end" FROM verdicts WHERE answer = \'unknown\'')
                if tuple(r) in keys)
            summary = report.summary_dict(store)
    finally:
        if conn is not None:
            conn.close()
    return CensusResult(db, run.questions, run.stored_before, run.asked, run.orbits, run.seconds, unknown,
                        summary)
