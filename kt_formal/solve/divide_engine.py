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
>>> solve(Question(Board(14, 15))).tour.check() is None
True
>>> solve(Question(Board(4, 9))).status.value
'impossible'
"""

from __future__ import annotations

from kt_formal.question import Budget, Question

from kt_formal.engines.base import found, impossible, unknown, with_article  # noqa: F401

__all__ = ["solve", "is_plain", "CPSAT_FALLBACK_SQUARES"]

NAME = "divide"

#: Largest board (live squares) handed to CP-SAT when the construction does not apply.
CPSAT_FALLBACK_SQUARES = 1600


def is_plain(request: Question) -> bool:
    """A full rectangle with no forced/forbidden moves and no fixed end (closed start allowed)."""
    return (not request.board.has_holes and not request.forced and not request.forbidden
            and request.end is None and (request.closed or request.start is None))


def _fallback(request, clock, why: str, options):
    if request.board.n_squares <= CPSAT_FALLBACK_SQUARES:
        from kt_formal.engines import cpsat

        result = cpsat.solve(request, **options)
        result.message = f"{result.message} (CP-SAT; {why})"
        return result
    return unknown(request, NAME, clock.elapsed(), f"{why}; the board is too large for the CP-SAT fallback")


def solve(request: Question, *, progress=None, scheme: str = "general", base: str = "library",
          base_path=None, time_limit: float | None = 60.0, seed: int = 0, workers: int = 2):
    """Build a tour of a plain rectangle by divide and conquer.

    Parameters
    ----------
    request : Question
    progress : callable, optional
        ``progress(done, total, text)`` during the construction.
    scheme : {"general", "quadrants"}
        ``quadrants`` runs Parberry's scheme, the quadrant split and 8-point merge
        (even sizes >= 6, ``|m - n| <= 2``; the old name ``seed000`` still works)
        with base tours from ``base`` (``library`` or ``peers`` with ``base_path``,
        the board_path.txt of the document it comes from).
    time_limit, seed, workers
        Passed to CP-SAT when falling back (``time_limit``, ``seed``, ``workers``).
    """
    from kt_formal.combine.divide import construct, tour_exists

    options = {"time_limit": time_limit, "seed": seed, "workers": workers}
    clock = Budget()
    b = request.board
    if not b.has_holes:
        ok, reason = tour_exists(b.rows, b.cols, request.closed)
        if not ok:
            return impossible(request, NAME, clock.elapsed(), reason)
    if not is_plain(request):
        return _fallback(request, clock, "the construction builds plain rectangles only "
                         "(no holes, forced or forbidden moves, fixed ends)", options)
    m, n = b.rows, b.cols
    if scheme in ("quadrants", "seed000"):
        from kt_formal.combine.parberry import quadrant_construct

        tour = quadrant_construct(m, n, base, base_path, progress=progress)
        return found(request, tour.order, NAME, clock.elapsed(), {"scheme": "quadrants", "base": base},
                     f"built {with_article(request.describe())} with the quadrant scheme")
    if scheme != "general":
        from kt_formal.exceptions import InvalidInput

        raise InvalidInput(f"unknown divide scheme {scheme!r}; choose general or quadrants")
    if min(m, n) >= 5:
        tour = construct(m, n, closed=request.closed, progress=progress)
        built = clock.elapsed()
        return found(request, tour.order, NAME, clock.elapsed(), {"build_seconds": built},
                     f"built {with_article(request.describe())} from joined blocks")
    from kt_formal.combine.strips import strip_construct

    tour = strip_construct(m, n, request.closed)
    if tour is None:
        return _fallback(request, clock, "the strip construction has no tour for this size", options)
    return found(request, tour.order, NAME, clock.elapsed(), {},
                 f"built {with_article(request.describe())} from strip pieces")
