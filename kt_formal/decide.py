"""Existence verdicts with a certificate either way.

:func:`decide` answers whether a board has a closed (or open) tour, optionally with
fixed ends, and backs the answer with something :mod:`kt_formal.certificate` can
re-check: ``yes`` carries a verified tour certificate, ``no`` an impossibility proof
from :mod:`kt_formal.proofs`, and ``unknown`` is what is left when a limit runs out
or no checkable proof is available. A limit reached is never reported as ``no``.

The route: the cheap proofs first (fixed ends, colour counts, degrees, the 4-row
alternation, small separators); on plain rectangles Schwenk's theorem and the
open-tour classification then choose between building a tour and searching harder
for a proof; otherwise a tour is searched for with :func:`kt_formal.solve.find_tour`.

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

from dataclasses import dataclass, field

from kt_formal.board import Board
from kt_formal.engines.base import Status, Stopwatch, TourRequest
from kt_formal.proofs import explain, find_proof
from kt_formal.theorems import rectangle_tour
from kt_formal.tour import Tour

__all__ = ["Verdict", "decide", "rectangle_has_tour", "DEFAULT_TIME_LIMIT"]

#: Seconds allowed by default.
DEFAULT_TIME_LIMIT = 60.0


@dataclass
class Verdict:
    """An existence verdict.

    Attributes
    ----------
    answer : str
        ``"yes"``, ``"no"`` or ``"unknown"``.
    certificate : dict or None
        The tour certificate (yes) or the proof (no); None when unknown.
    explanation : str
        One paragraph in plain words.
    wall_time : float
        Seconds spent.
    route : str
        How the answer was reached, e.g. ``"proof:colour"``, ``"theorem+search:cpsat"``.
    stats : dict
        Details of the search, if any.
    """

    answer: str
    certificate: dict | None
    explanation: str
    wall_time: float
    route: str
    stats: dict = field(default_factory=dict)

    @property
    def exit_code(self) -> int:
        """0 yes, 1 no, 3 unknown (the command line's exit codes)."""
        return {"yes": 0, "no": 1, "unknown": 3}[self.answer]


def rectangle_has_tour(rows: int, cols: int, closed: bool = True) -> bool:
    """What the theorems say for a full rectangle (no holes, no fixed ends).

    Closed: Schwenk (1991); open: Cull & De Curtins (1978), Conrad et al. (1994).

    >>> rectangle_has_tour(8, 8), rectangle_has_tour(3, 8), rectangle_has_tour(3, 8, closed=False)
    (True, False, True)
    """
    return rectangle_tour(rows, cols, closed)[0]


def _kind(closed: bool) -> str:
    return "closed" if closed else "open"


def _proof_by_search(board: Board, closed: bool, start, end, time_limit: float | None) -> tuple[dict | None, str]:
    """Look harder for a checkable proof once a tour is known (or believed) not to exist.

    Called when a search engine found no tour, or when a theorem says so on a plain
    rectangle, and no cheap proof was found. First the SAT route
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
) -> Verdict:
    """Decide whether ``board`` has a closed (open) tour, with a certificate either way.

    Parameters
    ----------
    board : Board
    closed : bool
    start, end : (row, col) or str, optional
        Fixed first / last square (for a closed tour: the last square returns to the first).
    time_limit : float or None
        Seconds for the tour search; when it runs out the answer is ``unknown``.
    engine, seed, workers
        Passed to :func:`kt_formal.solve.find_tour`.

    Returns
    -------
    Verdict

    Raises
    ------
    InvalidInput
        For ends off the board or on holes.
    """
    clock = Stopwatch()
    s = None if start is None else board.parse_live_square(start)
    e = None if end is None else board.parse_live_square(end)
    kind = _kind(closed)

    def no(proof, route):
        return Verdict("no", proof, _explain(proof), clock(), route)

    proof = find_proof(board, closed, s, e)
    if proof is not None:
        return no(proof, f"proof:{_method(proof)}")

    theorem = None
    if not board.has_holes and s is None and e is None:
        theorem = rectangle_has_tour(board.rows, board.cols, closed)
    if theorem is False:
        proof, tag = _proof_by_search(board, closed, s, e, time_limit)
        if proof is not None:
            return no(proof, f"theorem+{tag}:{_method(proof)}")
        return Verdict("unknown", None,
                       f"No {kind} tour by the classification of rectangles, but no checkable "
                       "proof was found for this board yet.", clock(), "theorem+no-proof")

    from kt_formal.solve import find_tour

    # An open tour with at most one fixed end is a closed tour cut open: on rectangles
    # where Schwenk's theorem promises a closed tour, search for that (much faster).
    cut = (not closed and (s is None or e is None) and not board.has_holes
           and rectangle_has_tour(board.rows, board.cols, closed=True))
    prefix = "theorem+" if theorem else ""
    if cut:
        result = find_tour(board, closed=True, start=s, end=e, engine=engine,
                           time_limit=time_limit, seed=seed, workers=workers)
        prefix = "theorem+cut+"
    else:
        result = find_tour(board, closed=closed, start=s, end=e, engine=engine,
                           time_limit=time_limit, seed=seed, workers=workers)
    if result.status is Status.FOUND:
        tour = result.tour
        if cut:
            tour = _cut_open(tour, s, e)
        cert = tour.to_dict(engine=result.engine)
        ends = ""
        if s is not None:
            ends += f" from {board.square_name(tour.start)}"
        if e is not None:
            ends += f" to {board.square_name(tour.end)}"
        text = (f"Yes, {'a closed' if closed else 'an open'} tour{ends} exists: {result.engine} found one on the "
                f"{board.describe()} board ({board.n_squares} squares) in {result.wall_time:.2f} s, "
                "and the independent checker verified it.")
        return Verdict("yes", cert, text, clock(), f"{prefix}search:{result.engine}", result.stats)
    if result.status is Status.IMPOSSIBLE:
        if theorem or cut:
            raise RuntimeError(f"{result.engine} claims no {'closed' if cut else kind} tour of {board.describe()}, "
                               "against the classification of rectangles")
        proof, tag = _proof_by_search(board, closed, s, e, time_limit)
        if proof is not None:
            return no(proof, f"search:{result.engine}+{tag}:{_method(proof)}")
        # No checked certificate: never "no" (see _proof_by_search for the extension point).
        return Verdict("unknown", None,
                       f"{result.engine} found no {kind} tour of the {board.describe()} board, "
                       "but no checkable proof is available yet, so the answer stays unknown.",
                       clock(), f"search:{result.engine}+no-proof", result.stats)
    limit = "no limit" if time_limit is None else f"{time_limit:g} s"
    return Verdict("unknown", None,
                   f"Unknown: the search for {'an' if kind[:1] in 'aeiou' else 'a'} {kind} tour of the {board.describe()} board ran out "
                   f"of time ({limit}) before an answer; nothing is claimed.",
                   clock(), f"{prefix}search:{result.engine}+limit", result.stats)
