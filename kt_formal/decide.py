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
3. ``extend-rotate``: on boards of up to :data:`FAST_MAX_SQUARES` squares that divide
   and conquer does not build, a fast first attempt (:mod:`kt_formal.engines.rotate`:
   Warnsdorff's rule with rotations, in plain Python, so a small board is answered
   before any compiled code or solver is loaded); on holed boards and with fixed ends it
   comes right after the quick proofs (ends, colour, degree), and the slower proof
   searches (alternation, separators) follow it only when it finds nothing; then the
   stages below run unchanged;
4. ``constructions``: divide and conquer and strips for plain rectangles, the frame
   and the block construction (:mod:`kt_formal.combine.blocks`) for holes;
5. ``portfolio``: search engines chosen by the board's shape
   (:func:`kt_formal.solve.shape_of`): CP-SAT and Warnsdorff-ordered backtracking
   run side by side within one time budget (threads; the first answer stops the other);
6. an honest ``unknown`` naming every stage, what it did and its time.

``--time-limit`` is a promise: every stage takes its share of one budget.

>>> from kt_formal.board import Board
>>> v = decide(Board(5, 5))
>>> v.answer, v.certificate["method"]
('no', 'colour')
>>> print(v.explanation)
No closed tour: the board has 13 dark and 12 light squares; a closed tour alternates colours.
>>> decide(Board(3, 4), closed=False).answer
'yes'
"""

from __future__ import annotations

import os
import sys
import threading
import time
from dataclasses import dataclass

from kt_formal.board import Board
from kt_formal.question import Budget, Status, TourRequest
from kt_formal.engines.base import check_options
from kt_formal.proofs import (explain, find_colour_proof, find_degree_proof, find_ends_proof, find_hall_proof,
                              find_proof)
from kt_formal.theorems import rectangle_tour
from kt_formal.tour import Tour

__all__ = ["Verdict", "Stage", "decide", "rectangle_has_tour", "DEFAULT_TIME_LIMIT", "CPSAT_MAX_SQUARES"]

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
#: Seconds the portfolio's first engine runs alone before the second starts.
STAGGER_SECONDS = 0.1

#: Seconds allowed by default.
DEFAULT_TIME_LIMIT = 60.0

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


@dataclass
class Stage:
    """One stage of the pipeline: its name, what came of it, and the seconds it took."""

    name: str
    outcome: str
    seconds: float

    def __str__(self) -> str:
        return f"{self.name}: {self.outcome} ({self.seconds:.2f} s)"


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


def _kernels_loaded() -> bool:
    """Whether the compiled search kernel is already loaded in this process."""
    search = sys.modules.get("kt_formal.engines._search")
    return search is not None and bool(search.search_kernel.signatures)


def _fast_first(board: Board, closed: bool, start, end, engine: str) -> bool:
    """Whether the pipeline makes the fast first attempt (``closed``: the question asked of it).

    Boards of at most :data:`FAST_MAX_SQUARES` squares that divide and conquer does not
    build; in a process that has the compiled search loaded already (a census, a
    notebook), only boards of at most :data:`FAST_WARM_SQUARES` (compiled backtracking is
    faster above).
    """
    n = board.n_squares
    if not FAST_FIRST or engine != "auto" or n > FAST_MAX_SQUARES:
        return False
    if n > FAST_WARM_SQUARES and _kernels_loaded():
        return False
    from kt_formal.solve import shape_of

    # the boards kt_formal.combine.divide_engine.is_plain takes, above 12x12 or not small
    rectangle = not board.has_holes and end is None and (closed or start is None)
    return not (rectangle and (board.size > 144 or shape_of(board) != "small"))


def _quick_proof(board: Board, closed: bool, start, end) -> dict | None:
    """The proofs that take a glance: fixed ends, colour, degree."""
    for finder in (find_ends_proof, find_colour_proof, find_degree_proof):
        proof = finder(board, closed, start, end)
        if proof is not None:
            return proof
    return None


def _kind(closed: bool) -> str:
    return "closed" if closed else "open"


def _proof_by_search(board: Board, closed: bool, start, end, time_limit: float | None) -> tuple[dict | None, str]:
    """Look harder for a checkable proof once a tour is known (or believed) not to exist.

    Called when a search engine found no tour, or when a theorem says so on a plain
    rectangle, and no cheap proof was found. First the ``hall`` proof (one maximum flow,
    milliseconds: no way to give every square two moves); then the SAT route
    (:mod:`kt_formal.engines.sat`): CaDiCaL with lazily added cut axioms, whose DRUP
    proof the kernel checks (:func:`kt_formal.kernel.rup.check_drup_certificate`). When it
    runs out of time, the thorough finders of :mod:`kt_formal.proofs` (CP-SAT alternation
    search, separators of up to 8 squares). Exhaustive "replay" records are no longer
    produced here.

    Returns
    -------
    (proof or None, route tag)
    """
    from kt_formal.engines import sat

    proof = find_hall_proof(board, closed, start, end)
    if proof is not None:
        return proof, "flow"
    limit = time_limit if time_limit is not None else 60.0
    if sat.fits(board, closed):
        result = sat.solve(TourRequest(board, closed=closed, start=start, end=end), time_limit=limit)
        if result.status is Status.IMPOSSIBLE:
            return result.proof, "sat"
        if result.status is Status.FOUND:  # a tour after all: the caller's belief was wrong
            raise RuntimeError(f"the SAT engine found a tour of {board.describe()} "
                               "where none was expected")
    proof = find_proof(board, closed, start, end, thorough=True, budget=200_000)
    if proof is not None:
        return proof, "thorough-proof"
    return None, "sat-limit"


def _method(proof: dict) -> str:
    return proof.get("method", proof["kind"])


def _explain(proof: dict) -> str:
    if proof["kind"] == "drup":
        from kt_formal.engines.sat import explain as explain_drup

        return explain_drup(proof)
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


class _Stopped(Exception):
    """Raised inside a search's progress hook to end it (the portfolio found an answer)."""


def _validate(board: Board, closed: bool, start, end, time_limit, engine: str):
    from kt_formal.solve import ENGINES
    from kt_formal.exceptions import InvalidInput

    if time_limit is not None:
        try:
            ok = float(time_limit) > 0
        except (TypeError, ValueError):
            ok = False
        if not ok:
            raise InvalidInput(f"the time limit must be a positive number of seconds, not {time_limit!r}")
    if engine != "auto" and engine not in ENGINES:
        raise InvalidInput(f"unknown engine {engine!r}; choose from {', '.join(['auto', *ENGINES])}")
    s = None if start is None else board.parse_live_square(start)
    e = None if end is None else board.parse_live_square(end)
    return s, e


def decide(
    board: Board,
    closed: bool = True,
    start=None,
    end=None,
    *,
    time_limit: float | None = DEFAULT_TIME_LIMIT,
    engine: str = "auto",
    seed: int = 0,
    workers: int = 2,
    progress=None,
    **options,
) -> Verdict:
    """Decide whether ``board`` has a closed (open) tour, with a certificate either way.

    Parameters
    ----------
    board : Board
    closed : bool
    start, end : (row, col) or str, optional
        Fixed first / last square (for a closed tour: the last square returns to the first).
    time_limit : float or None
        Seconds for the whole run (every stage shares it); when it runs out the answer
        is ``unknown``.
    engine : str
        ``auto`` (the pipeline) or an engine name: the cheap proofs, then only that engine.
    seed, workers
        Solver seed and CP-SAT threads.
    progress : callable, optional
        ``progress(done, total, text)`` passed to the searches.
    **options
        Passed to a named engine (``node_limit``, ``order``, ``tiebreak``, ``retries``).

    Returns
    -------
    Verdict

    Raises
    ------
    InvalidInput
        For ends off the board or on holes, an unknown engine, a limit that is not positive.
    """
    budget = Budget(None if time_limit is None else float(time_limit))
    s, e = _validate(board, closed, start, end, time_limit, engine)
    if options:
        from kt_formal.exceptions import InvalidInput
        from kt_formal.solve import get_engine as _get

        if engine == "auto":
            raise InvalidInput(f"option {sorted(options)[0]!r} is for one engine: name it with --engine")
        check_options(_get(engine), options)  # bad values refused before any work
    kind = _kind(closed)
    stages: list[Stage] = []

    def stage(name, outcome, t):
        stages.append(Stage(name, outcome, time.perf_counter() - t))

    def no(proof, route):
        return Verdict("no", proof, _explain(proof), budget.elapsed(), route, stages=stages)

    plain = not board.has_holes and s is None and e is None
    # An open tour with at most one fixed end on a rectangle with a closed tour: a closed
    # tour cut open (the constructions and searches for closed tours are much faster).
    cut = (engine == "auto" and not closed and (s is None or e is None) and not board.has_holes
           and rectangle_has_tour(board.rows, board.cols, closed=True))
    q_closed = True if cut else closed
    fast = _fast_first(board, q_closed, s, e, engine)
    # on a holed board (or with fixed ends) the fast attempt comes before the slower proof
    # searches: a tour found makes them moot, and when none is found they run after it
    early = fast and not plain

    # ------------------------------------------------------------ 1. cheap proofs
    t = time.perf_counter()
    if plain and rectangle_has_tour(board.rows, board.cols, closed):
        # no proof of impossibility can exist: the theorem below says a tour does
        stage("proofs", "not needed: a tour exists by the classification of rectangles", t)
    elif early:
        proof = _quick_proof(board, closed, s, e)
        stage("proofs", f"found a {_method(proof)} proof" if proof is not None else
              "none of the quick ones applies (fixed ends, colour, degree)", t)
        if proof is not None:
            return no(proof, f"proof:{_method(proof)}")
    else:
        proof = find_proof(board, closed, s, e)
        stage("proofs", f"found a {_method(proof)} proof" if proof is not None else
              "none applies (fixed ends, colour, degree, alternation, separator)", t)
        if proof is not None:
            return no(proof, f"proof:{_method(proof)}")

    # ------------------------------------------------------------ 2. theorems
    theorem = None
    if plain:
        t = time.perf_counter()
        theorem = rectangle_has_tour(board.rows, board.cols, closed)
        if theorem is False:
            proof, tag = _proof_by_search(board, closed, s, e, budget.left())
            stage("theorem", f"no {kind} tour by the classification of rectangles; "
                  + (f"{_method(proof)} proof found" if proof is not None else "no checkable proof found"), t)
            if proof is not None:
                return no(proof, f"theorem+{tag}:{_method(proof)}")
            return _unknown(board, kind, budget, stages, "theorem+no-proof",
                            f"No {kind} tour by the classification of rectangles, but no checkable "
                            "proof was found for this board yet.")
        stage("theorem", f"a {kind} tour exists by the classification of rectangles", t)

    prefix = ("theorem+" if theorem else "") + ("cut+" if cut else "")

    from kt_formal.solve import get_engine, shape_of
    from kt_formal.question import TourRequest

    request = TourRequest(board, closed=q_closed, start=s, end=e)

    def yes(tour, how, route, stats=None, message=None):
        if cut:
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
        text = (f"Yes, {'a closed' if closed else 'an open'} tour{ends} exists: {how} found one on the "
                f"{board.describe()} board ({board.n_squares} squares) in {budget.elapsed():.2f} s, "
                "and the independent checker verified it.")
        v = Verdict("yes", None, text, budget.elapsed(), prefix + route, stats, tour=tour,
                    stages=stages, engine=how)
        v.message = message
        return v

    # ------------------------------------------------------------ 3. the fast first attempt
    if fast:
        # a plain-Python search that needs no compiled code and no solver; if it finds no
        # tour the pipeline below runs as it would have
        t = time.perf_counter()
        module = get_engine(FAST_ENGINE)
        limit = budget.share(0.1, at_most=FAST_SECONDS)
        result = module.solve(request, **check_options(module, dict(time_limit=limit, seed=seed)))
        stage(FAST_ENGINE, "found a tour" if result.found else result.message, t)
        if result.found:
            return yes(result.tour, result.engine, f"fast:{result.engine}", result.stats, result.message)
        if early:  # the proof searches it went ahead of
            t = time.perf_counter()
            proof = find_proof(board, closed, s, e)
            stage("proofs", f"found a {_method(proof)} proof" if proof is not None else
                  "none applies (alternation, separator)", t)
            if proof is not None:
                return no(proof, f"proof:{_method(proof)}")

    # ------------------------------------------------------------ named engine
    if engine != "auto":
        t = time.perf_counter()
        opts = dict(options)
        opts.update(time_limit=budget.left(), seed=seed, workers=workers)
        if progress is not None:
            opts["progress"] = progress
        module = get_engine(engine)
        result = module.solve(request, **check_options(module, opts))
        stage(engine, result.message or result.status.value, t)
        return _from_result(result, board, closed, s, e, kind, budget, stages, theorem, cut, prefix,
                            yes, no, f"search:{engine}")

    # ------------------------------------------------------------ 4. constructions
    shape = shape_of(board)
    pf = None
    from kt_formal.combine.divide_engine import is_plain

    if is_plain(request) and min(board.rows, board.cols) >= 1 and (board.size > 144 or shape != "small"):
        t = time.perf_counter()
        module = get_engine("divide")
        result = module.solve(request, **check_options(module, dict(time_limit=budget.share(1.0), seed=seed,
                                                                    workers=workers)))
        stage("divide", result.message, t)
        if result.found:
            return yes(result.tour, "divide", "construction:divide", result.stats, result.message)
    elif shape == "sparse" or (not closed and s is not None and e is not None and board.n_squares > 2500):
        from kt_formal.combine.blocks_engine import construct, frame_applies, repair_first

        # backtracking runs next to the constructions: on big boards with sparse holes
        # Warnsdorff's rule often walks straight through (hundredths of a second)
        from kt_formal.combine.holes import hole_groups

        if frame_applies(request):
            # the frame first: milliseconds, whether it applies or not
            from kt_formal.combine.frame import NotApplicable, frame_tour

            t = time.perf_counter()
            try:
                tour = frame_tour(board)
            except NotApplicable as exc:
                stage("frame", f"not applicable: {exc}", t)
            else:
                stage("frame", "built", t)
                from kt_formal.engines.base import found

                result = found(request, tour.order, "frame", time.perf_counter() - t)
                return yes(result.tour, "frame", "construction:frame")
        groups = max(1, len(hole_groups(board.hole_mask))) if board.has_holes else 1
        probe = budget.share(0.1, at_most=min(PROBE_SECONDS, max(PROBE_PER_GROUP * groups,
                                                                 PROBE_PER_SQUARE * board.n_squares)))
        if BACKGROUND_BACKTRACK and board.n_squares <= BACKGROUND_MAX_SQUARES:
            pf = _Portfolio(request, seed, workers, progress)
            pf.start("backtrack", budget.left(),
                     node_limit=int(BACKGROUND_NODES_PER_SQUARE * board.n_squares) + 1000)
            pf.wait(probe)
            if not pf.winner and repair_first(request):
                # the hole repair builds its windows in Python: a search next to it would
                # hold the interpreter half the time; the portfolio gives it another turn
                pf.finish(stages, ["backtrack"], why="paused for the hole repair")
                pf = None
        # on huge boards backtracking waits for the portfolio: next to the construction it
        # would slow it down (both hold the interpreter), and building its tables alone
        # takes seconds
        if pf is None or not pf.winner:
            t = time.perf_counter()
            notes = []
            share = 0.6 if board.n_squares <= BACKGROUND_MAX_SQUARES else 0.8
            tour, how = construct(request, budget.share(share), seed, notes,
                                  stop=None if pf is None else pf.stop, frame=False)
            for name, outcome, secs in notes:
                stages.append(Stage(name, outcome, secs))
            if tour is not None:
                from kt_formal.engines.base import found

                result = found(request, tour.order, how, time.perf_counter() - t)
                if pf is not None:  # it stops within a chunk of nodes: no need to wait
                    pf.finish(stages, ["backtrack"], wait=0)
                return yes(result.tour, how, f"construction:{how}")
            if pf is not None and not pf.winner:
                # its one walk found nothing: the portfolio runs it again without the cap
                pf.finish(stages, ["backtrack"], why="the constructions built nothing")
                pf = None
    else:
        stages.append(Stage("constructions", f"skipped: the board is {shape} "
                            f"({board.n_squares} squares, {board.n_holes} holes); searches suit it", 0.0))

    # ------------------------------------------------------------ 5. portfolio
    result, pf = _portfolio(request, shape, budget, seed, workers, progress, stages, pf)
    if result is not None:
        return _from_result(result, board, closed, s, e, kind, budget, stages, theorem, cut, prefix,
                            yes, no, f"portfolio:{result.engine}")
    # ------------------------------------------------------------ 6. unknown
    at_limit = pf.at_limit() or (budget.time_limit is not None and not pf.results)
    return _unknown(board, kind, budget, stages, prefix + "portfolio+limit", None, at_limit)


def _from_result(result, board, closed, s, e, kind, budget, stages, theorem, cut, prefix, yes, no, route):
    from kt_formal.question import Status

    if result.status is Status.FOUND:
        return yes(result.tour, result.engine, route, result.stats, result.message)
    if result.status is Status.IMPOSSIBLE:
        if theorem or cut:
            raise RuntimeError(f"{result.engine} claims no {'closed' if cut else kind} tour of "
                               f"{board.describe()}, against the classification of rectangles")
        t = time.perf_counter()
        proof, tag = None, "no-proof"
        # an engine's own record is not taken as it is: the proof comes from the finders
        # of kt_formal.proofs and the SAT route, whose certificates the kernel re-checks
        if board.n_squares <= 5000 and (budget.left() is None or budget.left() > 0.5):
            proof, tag = _proof_by_search(board, closed, s, e, budget.left())
        stages.append(Stage("certify", f"{_method(proof)} proof found" if proof is not None
                            else "no checkable proof found", time.perf_counter() - t))
        if proof is not None:
            return no(proof, f"{route}+{tag}:{_method(proof)}")
        name = "CP-SAT" if result.engine == "cpsat" else result.engine
        return _unknown(board, kind, budget, stages, f"{route}+no-proof",
                        f"{name} reports no {kind} tour of the {board.describe()} board (not certified: "
                        "no proof the checker accepts was found), so the answer stays unknown.")
    at_limit = result.engine == "cpsat" or "limit" in (result.message or "")
    return _unknown(board, kind, budget, stages, prefix + route + "+limit", None, at_limit)


def _unknown(board, kind, budget, stages, route, headline, at_limit=False):
    spent = budget.elapsed()
    an = "an" if kind == "open" else "a"
    if headline is None:
        if budget.time_limit is not None and (at_limit or spent >= 0.9 * budget.time_limit):
            headline = (f"Unknown: the search for {an} {kind} tour of the {board.describe()} board ran out "
                        f"of time ({budget.time_limit:g} s) before an answer; nothing is claimed.")
        else:
            headline = (f"Unknown: the search for {an} {kind} tour of the {board.describe()} board gave up "
                        f"after {spent:.2f} s without an answer; nothing is claimed.")
    detail = "; ".join(str(x) for x in stages)
    return Verdict("unknown", None, f"{headline} Stages: {detail}." if detail else headline,
                   spent, route, stages=stages)


class _Portfolio:
    """Engines run side by side in threads within one budget; the first answer wins.

    CP-SAT is stopped through its ``stop`` event, backtracking by raising from its
    progress hook; a construction running meanwhile watches the same event.
    """

    def __init__(self, request, seed, workers, progress):
        self.request = request
        self.seed, self.workers, self.progress = seed, workers, progress
        self.stop = threading.Event()
        self.lock = threading.Lock()
        self.results = {}
        self.started = {}
        self.threads = []
        self.winner = []
        self.cores = os.cpu_count() or 1

    def start(self, name, limit, node_limit=None):
        th = threading.Thread(target=self._run, args=(name, limit, node_limit), daemon=True)
        self.started[name] = time.perf_counter()
        self.threads.append(th)
        th.start()

    def _run(self, name, limit, node_limit=None):
        from kt_formal.solve import get_engine

        t = time.perf_counter()
        progress = self.progress
        try:
            if name == "cpsat":
                w = max(1, min(self.workers, self.cores - 1)) if len(self.started) > 1 else self.workers
                res = get_engine("cpsat").solve(self.request, time_limit=limit, seed=self.seed, workers=w,
                                                stop=self.stop, progress=progress)
            else:
                def hook(done, total, text):
                    if self.stop.is_set():
                        raise _Stopped()
                    if progress is not None:
                        progress(done, total, text)

                res = get_engine("backtrack").solve(self.request, time_limit=limit, progress=hook,
                                                    stop=self.stop, node_limit=node_limit)
                if node_limit is not None and res.status is Status.UNKNOWN and not self.stop.is_set():
                    res.message = (f"no tour within one walk ({res.stats.get('nodes', node_limit):,} "
                                   "nodes); given up next to the constructions")
                if res.status is Status.UNKNOWN and self.stop.is_set():
                    res = None
        except _Stopped:
            res = None
        with self.lock:
            self.results[name] = (res, time.perf_counter() - t)
            if res is not None and res.status is not Status.UNKNOWN and not self.winner:
                self.winner.append(res)
                self.stop.set()

    def wait(self, timeout):
        """Until a winner, every engine done, or ``timeout`` seconds (None: no limit)."""
        end = None if timeout is None else time.perf_counter() + timeout
        while not self.winner and any(th.is_alive() for th in self.threads):
            left = None if end is None else end - time.perf_counter()
            if left is not None and left <= 0:
                return
            self.stop.wait(0.02 if left is None else min(0.02, left))

    def finish(self, stages, names, why=None, wait=0.3):
        """Stop the engines (waiting ``wait`` seconds at most for each) and note their stages."""
        self.stop.set()
        for th in self.threads:
            th.join(wait)
        winner = bool(self.winner)
        for nm in names:
            if nm in self.results:
                res, secs = self.results[nm]
                if res is None:
                    outcome = ("stopped: another answer came first" if winner else
                               f"stopped: {why}" if why else "stopped at the time limit")
                elif res.status is Status.FOUND:
                    outcome = "found a tour"
                elif res.status is Status.IMPOSSIBLE:
                    outcome = "reports no tour" + (" (CP-SAT infeasible)" if nm == "cpsat" else " (complete search)")
                else:
                    outcome = res.message or "limit reached"
                stages.append(Stage(nm, outcome, secs))
            elif nm in self.started:
                stages.append(Stage(nm, "stopped: another answer came first" if wait == 0 else
                                    "still running at the time limit; abandoned",
                                    time.perf_counter() - self.started[nm]))
        return self.winner[0] if self.winner else None

    def at_limit(self) -> bool:
        return any(r is not None and (r.engine == "cpsat" or "limit" in (r.message or ""))
                   for r, _ in self.results.values())


def _portfolio(request, shape, budget, seed, workers, progress, stages, pf=None):
    """Run the engines that suit the board's shape side by side; the first answer wins.

    ``pf`` is a portfolio already running (backtracking started next to the
    constructions). Returns ``(decisive result or None, portfolio)``.
    """
    n = request.board.n_squares
    names = ["backtrack"]
    if n <= CPSAT_MAX_SQUARES:
        # backtracking starts first (it often answers in milliseconds, before CP-SAT has
        # built its model), except on tiny boards and densely holed ones
        names = ["cpsat", "backtrack"] if (shape == "dense" or n <= 400) else ["backtrack", "cpsat"]
    if pf is None:
        pf = _Portfolio(request, seed, workers, progress)
    parallel = (os.cpu_count() or 1) >= 2
    for i, nm in enumerate(names):
        if pf.winner:
            break
        if nm in pf.started:
            continue
        left = budget.left()
        if left is not None and left <= 0:
            break
        if parallel:
            pf.start(nm, left)
            if i < len(names) - 1:
                pf.wait(STAGGER_SECONDS)  # the next engine joins unless this one answered
        else:  # one core: slices of the budget, one after the other
            pf.start(nm, None if left is None else (left * 0.6 if i < len(names) - 1 else left))
            pf.wait(None)
    left = budget.left()
    pf.wait(None if left is None else left + 0.5)
    result = pf.finish(stages, names)
    if n > CPSAT_MAX_SQUARES:
        stages.append(Stage("cpsat", f"skipped: above {CPSAT_MAX_SQUARES} squares", 0.0))
    for nm in names:
        if nm not in pf.started:
            stages.append(Stage(nm, "not started: another answer came first" if pf.winner
                                else "not started: no time left", 0.0))
    return result, pf
