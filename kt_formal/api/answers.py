"""The questions of one board in Python: :func:`tour`, :func:`decide` and :func:`count`.

A board is a :class:`~kt_formal.board.Board` or its size ``rows, cols``; its removed
squares are given as ``Board`` takes them, ``holes=[(r, c), ...]`` (0-based), or as
the command writes them, ``hole=["R,C,HxW"]`` (rectangles) and ``remove=["d4"]`` (one
square each, ``R,C`` or a chess name). A :class:`Decision` (tour, decide) and a
:class:`CountResult` (count) answer; their ``to_json()`` is the object ``--json`` prints.

>>> d = decide(5, 5)
>>> d.answer, d.method, d.exit_code
('no', 'proof:colour', 1)
>>> count(3, 10).count
16
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from kt_formal.question import DEFAULT_TIME_LIMIT, Limits, Question

__all__ = ["tour", "decide", "count", "make_board", "Decision", "CountResult"]


def make_board(board, cols: int | None = None, *, holes: Sequence = (), hole: Sequence | str = (),
               remove: Sequence | str = (), mask=None):
    """The :class:`~kt_formal.board.Board` a question names.

    Parameters
    ----------
    board : Board or int
        A board, or its number of rows (then ``cols`` is its number of columns).
    cols : int, optional
    holes : sequence of (row, col)
        Removed squares, 0-based, as :class:`~kt_formal.board.Board` takes them.
    hole : sequence of str
        Removed rectangles ``"R,C,HxW"`` (top-left corner, height x width), as the command's ``--hole``.
    remove : sequence of str or (row, col)
        Removed squares ``"R,C"`` or chess names (``"d4"``), as the command's ``--remove``.
    mask : path, optional
        An ASCII mask file (``.`` a square, ``#`` a hole) giving the board instead of its size.

    Examples
    --------
    >>> make_board(10, 10, holes=[(1, 6), (1, 7)], hole=["5,5,2x2"]).n_holes
    6
    """
    from kt_formal.board import Board

    if isinstance(hole, str):
        hole = [hole]
    if isinstance(remove, str) or (isinstance(remove, tuple) and len(remove) == 2
                                   and all(isinstance(x, int) for x in remove)):
        remove = [remove]  # one square
    if mask is not None:
        if not isinstance(board, int) and board is not None:
            raise TypeError("give the board size or a mask file, not both")
        base = Board.from_mask_file(mask)
    elif isinstance(board, Board):
        if cols is not None:
            raise TypeError("give a Board or rows, cols, not both")
        base = board
    elif cols is None or isinstance(board, bool) or isinstance(cols, bool):
        raise TypeError("give a Board, or the board size rows, cols")
    else:
        base = Board(int(board), int(cols))
    if not holes and not hole and not remove:
        return base
    squares = [*base.holes(), *(tuple(int(x) for x in sq) for sq in holes), *(base.parse_square(s) for s in remove)]
    return Board.from_spec(base.rows, base.cols, list(hole), squares)


def _question(board, cols, closed, start, end, **spec) -> Question:
    """The :class:`~kt_formal.question.Question` asked: ``board`` itself when it is one
    (then nothing else may describe it), else the board and the tour described."""
    if isinstance(board, Question):
        if cols is not None or closed is not True or start is not None or end is not None or any(spec.values()):
            raise TypeError("a Question says the board, closed or open, and the ends itself")
        return board
    b = make_board(board, cols, **spec)
    return Question(b, closed=closed, start=start, end=end)


@dataclass(frozen=True)
class Decision:
    """The answer of :func:`decide` or :func:`tour`: a :class:`~kt_formal.pipeline.Verdict`
    (which carries its question) and the command whose ``--json`` object ``to_json()`` gives.

    ``answer`` is ``yes`` (``tour`` verified by the kernel), ``no`` (``certificate`` a
    proof the kernel checks) or ``unknown`` (a limit ran out; never a no).
    """

    verdict: object
    command: str = "exists"

    question = property(lambda self: self.verdict.question, doc="The :class:`~kt_formal.question.Question` asked.")
    board = property(lambda self: self.verdict.question.board, doc="The board asked about.")
    answer = property(lambda self: self.verdict.answer, doc="``yes``, ``no`` or ``unknown``.")
    tour = property(lambda self: self.verdict.tour, doc="The verified tour (yes), else None.")
    certificate = property(lambda self: self.verdict.certificate, doc="The tour or the proof, as JSON; None when unknown.")
    explanation = property(lambda self: self.verdict.explanation, doc="The answer in words.")
    message = property(lambda self: self.verdict.message, doc="How a tour was found, one line (yes).")
    method = property(lambda self: self.verdict.route, doc="The route that answered, e.g. ``proof:colour``.")
    route = method
    engine = property(lambda self: self.verdict.engine, doc="The engine or construction that made the tour.")
    stages = property(lambda self: self.verdict.stages, doc="Every stage tried, in order.")
    stats = property(lambda self: self.verdict.stats, doc="Details of the search, if any.")
    wall_time = property(lambda self: self.verdict.wall_time, doc="Seconds spent.")
    limit_reached = property(lambda self: self.verdict.limit_reached,
                             doc="True when the answer is unknown because the time limit ran out.")
    exit_code = property(lambda self: self.verdict.exit_code, doc="The command's exit code: 0 yes, 1 no, 3 unknown.")

    def to_json(self, *, squares: bool | None = None, certificate: str | None = None, out: str | None = None) -> dict:
        """The ``--json`` object of ``kt-formal exists`` (or ``tour``); ``squares`` (default: for
        ``tour``) lists the tour's squares; ``certificate`` and ``out`` name files written."""
        from kt_formal.io import jsonout

        if squares is None:
            squares = self.command == "tour" and out is None
        q = self.question
        return jsonout.verdict_json(self.command, self.verdict, q.board, q.closed, q.start, q.end,
                                    certificate=certificate, out=out, squares=squares and self.tour is not None)

    def __repr__(self) -> str:
        return f"<Decision {self.answer} by {self.method} in {self.wall_time:.3f}s>"


def decide(board, cols: int | None = None, closed: bool = True, start=None, end=None, *,
           holes: Sequence = (), hole: Sequence | str = (), remove: Sequence | str = (), mask=None,
           time_limit: float | None = DEFAULT_TIME_LIMIT, engine: str = "auto", seed: int = 0,
           threads: int = 2, progress=None, node_limit: int | None = None, order: str | None = None,
           tiebreak: str | None = None, retries: int | None = None,
           options: Mapping | None = None) -> Decision:
    """Does a knight's tour exist? ``kt-formal exists`` in Python, with a certificate either way.

    Parameters
    ----------
    board, cols, holes, hole, remove, mask
        The board: a :class:`~kt_formal.board.Board`, or ``rows, cols`` with removed
        squares (see :func:`make_board`); or the whole :class:`~kt_formal.question.Question`.
    closed : bool
        A closed tour (the last square a knight move from the first); False: an open one (a path).
    start, end : (row, col) or str, optional
        Fixed first and last squares (0-based, or chess names like ``"a1"``).
    time_limit : float or None
        Seconds for the whole run (None: no limit); when they run out the answer is ``unknown``.
    engine : str
        ``"auto"`` (the pipeline: cheap proofs, constructions, a portfolio of searches) or
        one engine's name (the cheap proofs, then only that engine).
    seed, threads, progress
        Random seed (runs repeat), solver threads, a callable ``progress(done, total, text)``.
    node_limit, order, tiebreak, retries
        Options of the search engines (with a named ``engine``).
    options : mapping, optional
        Any other option of a named engine, e.g. ``{"method": "construct"}`` for ``frame``.

    Returns
    -------
    Decision
        ``answer`` yes (with a verified ``tour``), no (with a proof) or unknown.

    Raises
    ------
    InvalidInput
        A bad board, square or limit, an unknown engine or an option it does not take.

    Examples
    --------
    >>> d = decide(10, 10, holes=[(1, 6), (1, 7), (2, 6), (2, 7)])
    >>> d.answer, d.method
    ('no', 'proof:degree')
    >>> decide(10, 10, holes=[(4, 4), (4, 5), (5, 4), (5, 5)]).tour.check() is None
    True
    >>> decide(4, 6, closed=False, start="a1").answer
    'yes'
    """
    question = _question(board, cols, closed, start, end, holes=holes, hole=hole, remove=remove, mask=mask)
    limits = Limits(time_limit, seed=seed, threads=threads, progress=progress)
    named = {k: v for k, v in (("node_limit", node_limit), ("order", order), ("tiebreak", tiebreak),
                               ("retries", retries)) if v is not None}
    from kt_formal.pipeline import decide as run

    return Decision(run(question, limits, engine=engine, **named, **dict(options or {})))


def tour(board, cols: int | None = None, closed: bool = True, start=None, end=None, *,
         holes: Sequence = (), hole: Sequence | str = (), remove: Sequence | str = (), mask=None,
         time_limit: float | None = DEFAULT_TIME_LIMIT, engine: str = "auto", seed: int = 0,
         threads: int = 2, progress=None, node_limit: int | None = None, order: str | None = None,
         tiebreak: str | None = None, retries: int | None = None,
         options: Mapping | None = None) -> Decision:
    """Find a knight's tour: ``kt-formal tour`` in Python (the pipeline of :func:`decide`,
    with the same parameters); ``result.tour`` is the tour the kernel verified when
    ``result.answer == "yes"``.

    Examples
    --------
    >>> t = tour(6, 6, holes=[(0, 0)], closed=False)
    >>> t.answer, len(t.tour), t.tour.check() is None
    ('yes', 35, True)
    >>> t.to_json()["command"], len(t.to_json()["tour"]["squares"])
    ('tour', 35)
    """
    d = decide(board, cols, closed, start, end, holes=holes, hole=hole, remove=remove, mask=mask,
               time_limit=time_limit, engine=engine, seed=seed, threads=threads, progress=progress,
               node_limit=node_limit, order=order, tiebreak=tiebreak, retries=retries, options=options)
    return Decision(d.verdict, "tour")


@dataclass
class CountResult:
    """The tours of a board, counted.

    ``count`` is the number of tours (each undirected tour once) when ``complete``; a count
    that reached a limit is not a count: ``complete`` is False, ``count`` None and
    ``lower_bound`` the tours an exhaustive search found before the limit (None after the
    frontier method, whose partial sums are not tours of the board). ``question`` is what
    was counted; ``check``, a second count (``count --check``), or None."""

    question: Question
    count: int | None
    complete: bool
    method: str
    seconds: float
    directed_count: int | None = None
    nodes: int | None = None
    max_states: int | None = None
    lower_bound: int | None = None
    reason: str = ""
    way: str = ""
    details: object = field(default=None, repr=False)

    board = property(lambda self: self.question.board)
    closed = property(lambda self: self.question.closed)
    start = property(lambda self: self.question.start)
    end = property(lambda self: self.question.end)

    @property
    def exit_code(self) -> int:
        return 0 if self.complete else 3

    def what(self) -> str:
        """The tours counted in words, plural unless the figure shown is one; the ends by
        their chess names (up to 26 columns, else ``row,col``), as the pipeline names squares."""
        from kt_formal.claims import square_name

        q = self.question
        what = f"{'closed' if q.closed else 'open'} tour of the {q.board.describe()} board"
        for word, sq in (("from", q.start), ("to", q.end)):
            if sq is not None:
                what += f" {word} " + (square_name(q.board.rows, sq) if q.board.cols <= 26 else f"{sq[0]},{sq[1]}")
        shown = self.count if self.complete else self.lower_bound
        return what if shown == 1 else what.replace("tour", "tours", 1)

    def to_json(self, *, out: str | None = None) -> dict:
        """The object of ``kt-formal count --json`` (``out``: the file the tours went to)."""
        from kt_formal.io import jsonout

        if self.complete:
            message = f"{self.count} {self.what()}" + (f": {self.reason}" if self.reason else "")
        else:
            message = f"unknown: {self.reason}" + (f"; at least {self.lower_bound} {self.what()}"
                                                   if self.lower_bound is not None else "")
        q = self.question
        return jsonout.count_json(q.board, q.closed, q.start, q.end, count=self.count, complete=self.complete,
                                  method=self.method, seconds=self.seconds, directed_count=self.directed_count,
                                  nodes=self.nodes, max_states=self.max_states, out=out, message=message,
                                  lower_bound=self.lower_bound)


def count_result(question: Question, res) -> CountResult:
    """A :class:`CountResult` of the policy's :class:`~kt_formal.counting.policy.Count`."""
    return CountResult(question, res.count, res.complete, res.method, res.wall_time, res.directed_count, res.nodes,
                       res.max_states, res.lower_bound, res.reason, res.way, res.details)


def count(board, cols: int | None = None, closed: bool = True, start=None, end=None, *,
          holes: Sequence = (), hole: Sequence | str = (), remove: Sequence | str = (), mask=None,
          method: str = "auto", time_limit: float | None = DEFAULT_TIME_LIMIT, node_limit: int | None = None,
          progress=None, note=None, out: str | None = None, checkpoint: str | None = None, resume: bool = False,
          discard_checkpoint: bool = False, checkpoint_every: float | None = None, dask: str | None = None,
          parts: int = 2, spill_dir: str | None = None, table_bytes: int | None = None,
          threads: int | None = None, symmetry: bool = True, quiet: bool = True) -> CountResult:
    """Count the knight's tours of a board, each undirected tour once: ``kt-formal count`` in
    Python, by the one policy (:func:`kt_formal.counting.policy.run_count`: the same method
    as the command, the same checks of memory and disk, threads and kernels).

    Parameters
    ----------
    board, cols, holes, hole, remove, mask
        The board (see :func:`make_board`), or the whole :class:`~kt_formal.question.Question`.
    closed : bool
        False counts open tours (Hamiltonian paths).
    start, end : optional
        Fixed ends of the tours counted.
    method : str
        ``frontier`` (a side of at most 8), ``search`` (exhaustive) or ``auto``
        (:func:`kt_formal.counting.policy.choose_method`: the search for closed tours of
        boards of at most 36 squares, a node limit or a list of tours; else the frontier).
    time_limit, node_limit : optional
        A count that reaches one returns ``complete=False`` and ``count=None`` (nothing is
        raised; a search's tours found so far are ``lower_bound``).
    progress, note : callable, optional
        ``progress(done, total, text)``; ``note(text)``: what to know before a long count.
    out : path, optional
        Search only: every tour to this file, one JSON list a line.
    checkpoint, resume, discard_checkpoint, checkpoint_every
        Frontier only: a directory where the states are written after a square every
        ``checkpoint_every`` seconds (default 60); go on from there, or remove it first.
    dask, parts
        Frontier only: step the states in ``parts`` parts on a Dask cluster (an address or ``"local"``).
    spill_dir, table_bytes, threads, symmetry, quiet
        The compiled frontier counter's spill directory, table size, threads; False
        ``symmetry`` keeps mirror images apart; ``quiet`` says nothing of compiling.

    Returns
    -------
    CountResult
        ``directed_count`` counts open tours with a direction (twice ``count`` with free
        ends, ``count`` itself with a fixed end; None for closed tours).

    Examples
    --------
    >>> count(3, 10).count, count(5, 5, closed=False).count
    (16, 864)
    >>> count(4, 5, closed=False, holes=[(0, 0)], start=(3, 4)).complete
    True
    """
    from kt_formal.counting.policy import run_count

    question = _question(board, cols, closed, start, end, holes=holes, hole=hole, remove=remove, mask=mask)
    res = run_count(question, note, method=method, time_limit=time_limit, node_limit=node_limit, out=out,
                    progress=progress, checkpoint=checkpoint, resume=resume, discard_checkpoint=discard_checkpoint,
                    checkpoint_every=checkpoint_every, dask=dask, parts=parts, spill_dir=spill_dir,
                    table_bytes=table_bytes, threads=threads, symmetry=symmetry, quiet=quiet)
    return count_result(question, res)
