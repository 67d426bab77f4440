"""The one pipeline: existence verdicts with a certificate either way.

:func:`decide` answers whether a board has a closed (or open) tour, optionally with
fixed ends, and backs the answer with something the kernel re-checks: ``yes`` carries
a verified tour, ``no`` an impossibility proof from :mod:`kt_formal.proofs`, and
``unknown`` is what is left when the budget runs out or no checkable proof is
available. A limit reached is never reported as ``no``; a solver's "infeasible"
without a checked proof stays ``unknown``. ``kt-formal tour``, ``kt-formal exists`` and
the Python API all call it, so they agree.

The stages, each timed and recorded in :attr:`Verdict.stages`:

1. ``proofs``: the cheap proofs (fixed ends, colour, degree, the 4-row alternation,
   small separators, with the forced-move reduction);
2. ``theorem``: on plain rectangles Schwenk's theorem and the open-tour classification
   (a "no" then needs a proof: the SAT route with a DRUP proof, then the thorough finders);
3. ``extend-rotate``: on boards of up to :data:`kt_formal.solve.policy.FAST_MAX_SQUARES` squares that divide
   and conquer does not build, a fast first attempt (:mod:`kt_formal.engines.rotate`:
   Warnsdorff's rule with rotations, in plain Python, so a small board is answered
   before any compiled code or solver is loaded); on holed boards and with fixed ends it
   comes right after the quick proofs (ends, colour, degree), and the slower proof
   searches (alternation, separators) follow it only when it finds nothing; then the
   stages below run unchanged;
4. ``constructions`` (:mod:`kt_formal.solve.build`): divide and conquer and strips for
   plain rectangles, the frame, the hole repair and the block construction for holes;
5. ``portfolio`` (:mod:`kt_formal.solve.portfolio`): search engines chosen by the board's
   shape (:func:`kt_formal.solve.shape_of`): CP-SAT and Warnsdorff-ordered backtracking
   run side by side within one time budget (threads; the first answer stops the other);
6. an honest ``unknown`` naming every stage, what it did and its time.

``--time-limit`` is a promise: every stage takes its share of the one
:class:`~kt_formal.question.Limits` of the question, made (and checked) where it is asked. Engines and
constructions are reached only through the door :mod:`kt_formal.solve`, whose policy
(:mod:`kt_formal.solve.policy`) says which runs when.

>>> from kt_formal.board import Board
>>> v = decide(Question(Board(5, 5)))
>>> v.answer, v.certificate["method"]
('no', 'colour')
>>> print(v.explanation)
No closed tour: the board has 13 dark and 12 light squares; a closed tour alternates colours.
>>> decide(Question(Board(3, 4), closed=False)).answer
'yes'
"""

from __future__ import annotations

import dataclasses
import time

from kt_formal import solve
from kt_formal.exceptions import InvalidInput
from kt_formal.proofs import (explain, find_colour_proof, find_degree_proof, find_ends_proof, find_hall_proof,
                              find_proof)
from kt_formal.question import DEFAULT_TIME_LIMIT, Limits, Question, Stage, Status
from kt_formal.solve import policy
from kt_formal.theorems import rectangle_tour
from kt_formal.tours import Tour

__all__ = ["Verdict", "Stage", "decide", "rectangle_has_tour", "DEFAULT_TIME_LIMIT"]

class Verdict:
    """An existence verdict.

    Attributes
    ----------
    answer : str
        ``"yes"``, ``"no"`` or ``"unknown"``.
    certificate : dict or None
        The tour certificate (yes, made on first access) or the proof (no); None when unknown.
    tour : Tour or None
        The verified tour (yes).
    explanation : str
        One paragraph in plain words.
    wall_time : float
        Seconds spent.
    route : str
        How the answer was reached, e.g. ``"proof:colour"``, ``"portfolio:backtrack"``.
    stats : dict
        Details of the search, if any.
    stages : list of Stage
        Every stage tried, in order.
    engine : str
        The engine or construction that produced the tour.
    question : Question
        What was asked.
    limit_reached : bool
        True when the answer is unknown because the time limit ran out.
    """

    def __init__(self, answer, certificate, explanation, wall_time, route, stats=None, *,
                 tour=None, stages=(), engine=""):
        self.answer = answer
        self._certificate = certificate
        self.explanation = explanation
        self.wall_time = wall_time
        self.route = route
        self.stats = dict(stats or {})
        self.tour = tour
        self.stages = list(stages)
        self.engine = engine
        self.message = ""  # one line on how a tour was found (yes)
        self.question: Question | None = None  # what was asked (set by :func:`decide`)
        self.limit_reached = False  # unknown because the time limit ran out (not a search that gave up)

    @property
    def certificate(self):
        if self._certificate is None and self.tour is not None:
            self._certificate = self.tour.to_dict(engine=self.engine)
        return self._certificate

    @property
    def exit_code(self) -> int:
        """0 yes, 1 no, 3 unknown (the command line's exit codes)."""
        return {"yes": 0, "no": 1, "unknown": 3}[self.answer]

    def __repr__(self) -> str:
        return f"<Verdict {self.answer} by {self.route} in {self.wall_time:.3f}s>"


def rectangle_has_tour(rows: int, cols: int, closed: bool = True) -> bool:
    """What the theorems say for a full rectangle (no holes, no fixed ends).

    Closed: Schwenk (1991); open: Cull & De Curtins (1978), Conrad et al. (1994).

    >>> rectangle_has_tour(8, 8), rectangle_has_tour(3, 8), rectangle_has_tour(3, 8, closed=False)
    (True, False, True)
    """
    return rectangle_tour(rows, cols, closed)[0]


def _quick_proof(question: Question) -> dict | None:
    """The proofs that take a glance: fixed ends, colour, degree."""
    for finder in (find_ends_proof, find_colour_proof, find_degree_proof):
        proof = finder(question)
        if proof is not None:
            return proof
    return None


def _kind(closed: bool) -> str:
    return "closed" if closed else "open"


def _proof_by_search(request: Question, limits: Limits) -> tuple[dict | None, str]:
    """Look harder for a checkable proof once a tour is known (or believed) not to exist.

    Called when a search engine found no tour, or when a theorem says so on a plain
    rectangle, and no cheap proof was found. First the ``hall`` proof (one maximum flow,
    milliseconds: no way to give every square two moves); then the SAT route
    (:func:`kt_formal.solve.refute`): CaDiCaL with lazily added cut axioms, whose DRUP
    proof the kernel checks (:func:`kt_formal.kernel.rup.check_drup`). When it
    runs out of time, the thorough finders of :mod:`kt_formal.proofs` (CP-SAT alternation
    search, separators of up to 8 squares). Exhaustive "replay" records are no longer
    produced here. The SAT route has what is left of ``limits`` (the default time limit
    when they have none).

    Returns
    -------
    (proof or None, route tag)
    """
    proof = find_hall_proof(request)
    if proof is not None:
        return proof, "flow"
    result = solve.refute(request, limits.share(1.0, at_most=DEFAULT_TIME_LIMIT if limits.time_limit is None else None))
    if result is not None:
        if result.status is Status.IMPOSSIBLE:
            return result.proof if isinstance(result.proof, dict) else None, "sat"
        if result.status is Status.FOUND:  # a tour after all: the caller's belief was wrong
            raise RuntimeError(f"the SAT engine found a tour of {request.board.describe()} "
                               "where none was expected")
    proof = find_proof(request, thorough=True, budget=200_000)
    if proof is not None:
        return proof, "thorough-proof"
    return None, "sat-limit"


def _method(proof: dict) -> str:
    return proof.get("method", proof["kind"])


def _explain(proof: dict) -> str:
    if proof["kind"] == "drup":
        return solve.explain_refutation(proof)
    return explain(proof)


def _cut_open(tour: Tour, start, end) -> Tour:
    """The open tour left by dropping one move of a closed tour, checked independently.

    The closed tour starts at ``start`` (if given) or ends at ``end`` (if given), as
    :func:`kt_formal.solve.find_tour` orients it, so the dropped move is the closing one.
    """
    open_tour = Tour(tour.board, tour.order.copy(), closed=False)
    reason = open_tour.check()
    if reason is None and start is not None and open_tour.start != tuple(start):
        reason = f"starts at {open_tour.start}, not {tuple(start)}"
    if reason is None and end is not None and open_tour.end != tuple(end):
        reason = f"ends at {open_tour.end}, not {tuple(end)}"
    if reason is not None:
        raise RuntimeError(f"cutting a closed tour open failed: {reason}")
    return open_tour


def decide(question: Question, limits: Limits | None = None, *, engine: str = "auto", **options) -> Verdict:
    """Decide whether the tour ``question`` asks for exists, with a certificate either way.

    Parameters
    ----------
    question : Question
        The board, closed or open, fixed ends (for a closed tour: the last square
        returns to the first); checked where it was made.
    limits : Limits, optional
        What the run may spend: ``time_limit`` for the whole run (every stage shares it;
        when it runs out the answer is ``unknown``), ``seed``, ``threads`` (CP-SAT's
        workers; 2 when not given), ``progress``. Default: ``Limits(DEFAULT_TIME_LIMIT)``.
    engine : str
        ``auto`` (the pipeline) or an engine name: the cheap proofs, then only that engine.
    **options
        Passed to a named engine (``node_limit``, ``order``, ``tiebreak``, ``retries``;
        see :class:`kt_formal.solve.PreparedEngine`).

    Returns
    -------
    Verdict
        Carrying ``question``.

    Raises
    ------
    InvalidInput
        For an unknown engine or an option it cannot take.

    >>> from kt_formal.board import Board
    >>> decide(Question(Board(5, 5))).answer
    'no'
    """
    if limits is None:
        limits = Limits(DEFAULT_TIME_LIMIT)
    solve.check_engine(engine)
    if options and engine == "auto":
        raise InvalidInput(f"option {sorted(options)[0]!r} is for one engine: name the engine")
    # a named engine and its options are checked here, before any work
    named = None if engine == "auto" else solve.PreparedEngine(engine, options)
    verdict = _Run(question, limits, engine).answer(named)
    verdict.question = question
    return verdict


class _Run:
    """One run of the pipeline: the question, its limits, the stages so far, and how to answer.

    The question is the one asked; the "cut open" case (an open tour from a closed one)
    derives its closed question from it (:func:`dataclasses.replace`), nothing else
    builds one. Every stage takes its share of the one ``limits``.
    """

    def __init__(self, asked: Question, limits: Limits, engine: str):
        board, closed, s, e = asked.board, asked.closed, asked.start, asked.end
        self.asked, self.limits, self.engine = asked, limits, engine
        self.kind = _kind(closed)
        self.stages: list[Stage] = []
        self.plain = not board.has_holes and s is None and e is None
        # An open tour with at most one fixed end on a rectangle with a closed tour: a closed
        # tour cut open (the constructions and searches for closed tours are much faster).
        self.cut = (engine == "auto" and not closed and (s is None or e is None) and not board.has_holes
                    and rectangle_has_tour(board.rows, board.cols, closed=True))
        self.request = dataclasses.replace(asked, closed=True) if self.cut else asked
        self.fast = policy.fast_first(self.request, engine)
        # on a holed board (or with fixed ends) the fast attempt comes before the slower proof
        # searches: a tour found makes them moot, and when none is found they run after it
        self.early = self.fast and not self.plain
        self.theorem: bool | None = None
        self.prefix = ""

    def stage(self, name: str, outcome: str, t: float) -> None:
        self.stages.append(Stage(name, outcome, time.perf_counter() - t))

    def answer(self, named) -> Verdict:
        """The stages in order; the first that answers ends the run."""
        for step in (self.proofs, self.theorems, self.fast_attempt):
            verdict = step()
            if verdict is not None:
                return verdict
        if named is not None:
            return self.named_engine(named)
        from kt_formal.solve.build import build
        from kt_formal.solve.portfolio import run_portfolio

        shape = solve.shape_of(self.request.board)
        built, pf = build(self.request, shape, self.limits, self.stages)
        if built is not None:
            return self.yes(*built)
        result, pf = run_portfolio(self.request, shape, self.limits, self.stages, pf)
        if result is not None:
            return self.from_result(result, f"portfolio:{result.engine}")
        at_limit = pf.at_limit() or (self.limits.time_limit is not None and not pf.results)
        return self.unknown(self.prefix + "portfolio+limit", None, at_limit)

    # ---------------------------------------------------------------- the stages
    def proofs(self) -> Verdict | None:
        """1. The cheap proofs (only the quick ones when the fast attempt goes first)."""
        board, closed = self.asked.board, self.asked.closed
        t = time.perf_counter()
        if self.plain and rectangle_has_tour(board.rows, board.cols, closed):
            # no proof of impossibility can exist: the theorem below says a tour does
            self.stage("proofs", "not needed: a tour exists by the classification of rectangles", t)
            return None
        if self.early:
            proof = _quick_proof(self.asked)
            none = "none of the quick ones applies (fixed ends, colour, degree)"
        else:
            proof = find_proof(self.asked)
            none = "none applies (fixed ends, colour, degree, alternation, separator)"
        self.stage("proofs", f"found a {_method(proof)} proof" if proof is not None else none, t)
        return None if proof is None else self.no(proof, f"proof:{_method(proof)}")

    def theorems(self) -> Verdict | None:
        """2. On plain rectangles, the classification of rectangles."""
        board, closed = self.asked.board, self.asked.closed
        if self.plain:
            t = time.perf_counter()
            self.theorem = rectangle_has_tour(board.rows, board.cols, closed)
            if self.theorem is False:
                proof, tag = _proof_by_search(self.asked, self.limits)
                self.stage("theorem", f"no {self.kind} tour by the classification of rectangles; "
                           + (f"{_method(proof)} proof found" if proof is not None else "no checkable proof found"),
                           t)
                if proof is not None:
                    return self.no(proof, f"theorem+{tag}:{_method(proof)}")
                return self.unknown("theorem+no-proof",
                                    f"No {self.kind} tour by the classification of rectangles, but no checkable "
                                    "proof was found for this board yet.")
            self.stage("theorem", f"{'an' if self.kind == 'open' else 'a'} {self.kind} tour exists by the classification of rectangles", t)
        self.prefix = ("theorem+" if self.theorem else "") + ("cut+" if self.cut else "")
        return None

    def fast_attempt(self) -> Verdict | None:
        """3. A plain-Python search that needs no compiled code and no solver; if it finds
        no tour the stages below run as they would have."""
        if not self.fast:
            return None
        t = time.perf_counter()
        result = solve.run_engine(policy.FAST_ENGINE, self.request,
                                  self.limits.share(0.1, at_most=policy.FAST_SECONDS, progress=None))
        self.stage(policy.FAST_ENGINE, "found a tour" if result.found else result.message, t)
        if result.found:
            return self.yes(result.tour, result.engine, f"fast:{result.engine}", result.stats, result.message)
        if self.early:  # the proof searches it went ahead of
            t = time.perf_counter()
            proof = find_proof(self.asked)
            self.stage("proofs", f"found a {_method(proof)} proof" if proof is not None else
                       "none applies (alternation, separator)", t)
            if proof is not None:
                return self.no(proof, f"proof:{_method(proof)}")
        return None

    def named_engine(self, named) -> Verdict:
        """The engine asked for by name, alone, with what is left of the limits."""
        t = time.perf_counter()
        left = self.limits.left()
        if left is not None and left <= 0:  # the proofs took it all: no engine is given 0 s
            self.stage(self.engine, "not started: no time left", t)
            return self.unknown(f"search:{self.engine}+limit", None, at_limit=True)
        result = named.run(self.request, self.limits)
        self.stage(self.engine, result.message or result.status.value, t)
        return self.from_result(result, f"search:{self.engine}")

    # ---------------------------------------------------------------- the answers
    def yes(self, tour, how, route, stats=None, message=None) -> Verdict:
        board, closed, s, e = self.asked.board, self.asked.closed, self.asked.start, self.asked.end
        if self.cut:
            tour = _cut_open(tour, s, e)
            message = f"built an open tour of the {board.describe()} board (a closed tour cut open)"
        if message is None:
            message = (f"built {'a closed' if closed else 'an open'} tour of the {board.describe()} "
                       f"board with the {how} construction")
        ends = ""
        if s is not None:
            ends += f" from {board.square_name(tour.start)}"
        if e is not None:
            ends += f" to {board.square_name(tour.end)}"
        elapsed = self.limits.elapsed()
        text = (f"Yes, {'a closed' if closed else 'an open'} tour{ends} exists: {how} found one on the "
                f"{board.describe()} board ({board.n_squares} squares) in {elapsed:.2f} s, "
                "and the independent checker verified it.")
        v = Verdict("yes", None, text, elapsed, self.prefix + route, stats, tour=tour,
                    stages=self.stages, engine=how)
        v.message = message
        return v

    def no(self, proof: dict, route: str) -> Verdict:
        return Verdict("no", proof, _explain(proof), self.limits.elapsed(), route, stages=self.stages)

    def from_result(self, result, route: str) -> Verdict:
        board, kind = self.asked.board, self.kind
        if result.status is Status.FOUND:
            return self.yes(result.tour, result.engine, route, result.stats, result.message)
        if result.status is Status.IMPOSSIBLE:
            if self.theorem or self.cut:
                raise RuntimeError(f"{result.engine} claims no {'closed' if self.cut else kind} tour of "
                                   f"{board.describe()}, against the classification of rectangles")
            t = time.perf_counter()
            proof, tag = None, "no-proof"
            # an engine's own record is not taken as it is: the proof comes from the finders
            # of kt_formal.proofs and the SAT route, whose certificates the kernel re-checks
            left = self.limits.left()
            if board.n_squares <= 5000 and (left is None or left > 0.5):
                proof, tag = _proof_by_search(self.asked, self.limits)
            self.stages.append(Stage("certify", f"{_method(proof)} proof found" if proof is not None
                                     else "no checkable proof found", time.perf_counter() - t))
            if proof is not None:
                return self.no(proof, f"{route}+{tag}:{_method(proof)}")
            name = "CP-SAT" if result.engine == "cpsat" else result.engine
            return self.unknown(f"{route}+no-proof",
                                f"{name} reports no {kind} tour of the {board.describe()} board (not certified: "
                                "no proof the checker accepts was found), so the answer stays unknown.")
        return self.unknown(self.prefix + route + "+limit", None, result.status is Status.LIMIT)

    def unknown(self, route: str, headline: str | None, at_limit: bool = False) -> Verdict:
        limits, kind, board = self.limits, self.kind, self.asked.board
        spent = limits.elapsed()
        an = "an" if kind == "open" else "a"
        limit_reached = limits.time_limit is not None and (at_limit or spent >= 0.9 * limits.time_limit)
        if headline is None:
            if limit_reached:
                headline = (f"Unknown: the search for {an} {kind} tour of the {board.describe()} board ran out "
                            f"of time ({limits.time_limit:g} s) before an answer; nothing is claimed.")
            else:
                headline = (f"Unknown: the search for {an} {kind} tour of the {board.describe()} board gave up "
                            f"after {spent:.2f} s without an answer; nothing is claimed.")
        detail = "; ".join(str(x) for x in self.stages)
        verdict = Verdict("unknown", None, f"{headline} Stages: {detail}." if detail else headline,
                          spent, route, stages=self.stages)
        verdict.limit_reached = limit_reached
        return verdict
