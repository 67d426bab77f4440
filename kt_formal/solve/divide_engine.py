"""The divide engine: divide and conquer for plain rectangles (no holes or constraints).

Boards with both sides >= 5 are built by :mod:`kt_formal.combine.divide`; boards with a
side of 1..4 by :func:`kt_formal.combine.strips.strip_construct` when that module is
installed. When Schwenk's theorem (closed) or the open-tour classification says no tour
exists the answer is IMPOSSIBLE with the theorem as the reason. Requests the
construction cannot honour (holes, forced or forbidden moves, a fixed end, the start of
an open tour) fall back to CP-SAT on small boards and are UNKNOWN on big ones. A
closed tour's start square is only a renumbering. Every tour passes the independent
checker (``engines.base.found``) before it is returned.

>>> from kt_formal.board import Board
>>> Divide().run(Question(Board(14, 15))).tour.check() is None
True
>>> Divide().run(Question(Board(4, 9))).status.value
'impossible'
"""

from __future__ import annotations

from dataclasses import dataclass

from kt_formal.engines.base import Engine, with_article
from kt_formal.exceptions import InvalidInput
from kt_formal.question import Limits, Question, Result

__all__ = ["Divide", "is_plain", "CPSAT_FALLBACK_SQUARES"]

NAME = "divide"

#: Largest board (live squares) handed to CP-SAT when the construction does not apply.
CPSAT_FALLBACK_SQUARES = 1600


def is_plain(request: Question) -> bool:
    """A full rectangle with no forced/forbidden moves and no fixed end (closed start allowed)."""
    return (not request.board.has_holes and not request.forced and not request.forbidden
            and request.end is None and (request.closed or request.start is None))


class Divide(Engine):
    """Build a tour of a plain rectangle by divide and conquer (CP-SAT, with the same
    limits, where the construction does not apply and the board is small).

    The limits' progress is called as ``progress(done, total, text)`` during the construction.
    """

    name = NAME

    @dataclass(frozen=True)
    class Options:
        """``scheme``: ``general``, or ``quadrants`` for Parberry's scheme, the quadrant split
        and 8-point merge (even sizes >= 6, ``|m - n| <= 2``; the old name ``seed000``
        still works) with base tours from ``base`` (``library``, or ``peers`` with
        ``base_path``, the board_path.txt of the document it comes from)."""

        scheme: str = "general"
        base: str = "library"
        base_path: object = None

        def __post_init__(self):
            if self.scheme not in ("general", "quadrants", "seed000"):
                raise InvalidInput(f"unknown divide scheme {self.scheme!r}; choose general or quadrants")

    def search(self, question: Question, limits: Limits, options) -> Result:
        """The theorems, then the construction (or the CP-SAT fallback)."""
        return _build(self, question, limits, options)

    def fallback(self, question: Question, limits: Limits, why: str) -> Result:
        """CP-SAT on a small board the construction does not build; UNKNOWN on a big one."""
        if question.board.n_squares <= CPSAT_FALLBACK_SQUARES:
            from kt_formal.engines.cpsat import CpSat

            result = CpSat().run(question, limits)
            result.message = f"{result.message} (CP-SAT; {why})"
            return result
        return self.unknown(question, limits, f"{why}; the board is too large for the CP-SAT fallback")


def _build(engine: Divide, request: Question, limits: Limits, options) -> Result:
    from kt_formal.combine.divide import construct, tour_exists

    progress = limits.progress
    b = request.board
    if not b.has_holes:
        ok, reason = tour_exists(b.rows, b.cols, request.closed)
        if not ok:
            return engine.impossible(request, limits, reason)
    if not is_plain(request):
        return engine.fallback(request, limits, "the construction builds plain rectangles only "
                               "(no holes, forced or forbidden moves, fixed ends)")
    m, n = b.rows, b.cols
    if options.scheme in ("quadrants", "seed000"):
        from kt_formal.combine.parberry import quadrant_construct

        tour = quadrant_construct(m, n, options.base, options.base_path, progress=progress)
        return engine.found(request, limits, tour.order, {"scheme": "quadrants", "base": options.base},
                            f"built {with_article(request.describe())} with the quadrant scheme")
    if min(m, n) >= 5:
        tour = construct(m, n, closed=request.closed, progress=progress)
        built = limits.elapsed()
        return engine.found(request, limits, tour.order, {"build_seconds": built},
                            f"built {with_article(request.describe())} from joined blocks")
    from kt_formal.combine.strips import strip_construct

    tour = strip_construct(m, n, request.closed)
    if tour is None:
        return engine.fallback(request, limits, "the strip construction has no tour for this size")
    return engine.found(request, limits, tour.order, {},
                        f"built {with_article(request.describe())} from strip pieces")
