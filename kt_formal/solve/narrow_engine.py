"""The ``narrow`` engine: plain boards with a side of 1 to 4, by the strip construction.

It answers from the theorems and :func:`kt_formal.combine.strips.strip_construct`:
FOUND with a verified tour where one exists, IMPOSSIBLE where Schwenk's theorem
(closed) or the classification of open tours (Cull & De Curtins; Conrad et al.) says
none exists, and UNKNOWN for what it does not handle (holes, forced or forbidden
moves, fixed ends the construction does not offer, boards with both sides above 4).
A fixed start of a closed tour is only a renumbering and is honoured.

>>> from kt_formal.board import Board
>>> Narrow().run(Question(Board(3, 10), start=(1, 4))).tour.start
(1, 4)
>>> Narrow().run(Question(Board(4, 12))).status
<Status.IMPOSSIBLE: 'impossible'>
>>> Narrow().run(Question(Board(6, 6))).status
<Status.UNKNOWN: 'unknown'>
"""

from __future__ import annotations

from kt_formal.engines.base import Engine
from kt_formal.question import Limits, Question, Result

__all__ = ["Narrow", "NAME"]

NAME = "narrow"


class Narrow(Engine):
    """The strip construction for plain boards with a side of 1 to 4 (no options; no search,
    so no limit is used)."""

    name = NAME

    def search(self, question: Question, limits: Limits, options) -> Result:
        """The theorems, then the strip construction."""
        return _answer(self, question, limits)


def _answer(engine: Narrow, request: Question, limits: Limits) -> Result:
    from kt_formal.combine.strips import narrow_has_tour, narrow_reason, strip_construct

    b = request.board
    if min(b.rows, b.cols) > 4:
        return engine.unknown(request, limits, "the narrow engine handles boards with a side of at most 4")
    if b.has_holes or request.forced or request.forbidden:
        return engine.unknown(request, limits,
                              "the narrow engine handles plain rectangles only (no holes, forced or forbidden moves)")
    if not narrow_has_tour(b.rows, b.cols, request.closed):
        return engine.impossible(request, limits, narrow_reason(b.rows, b.cols, request.closed))
    tour = strip_construct(b.rows, b.cols, request.closed)
    if tour is None:  # pragma: no cover - strip_construct covers every case the theorems allow
        raise RuntimeError(f"no strip construction for {request.describe()}")
    order = tour.order
    if request.closed:
        if request.end is not None and request.start is not None:
            s, e = b.index(*request.start), b.index(*request.end)
            i = int((order == s).nonzero()[0][0])
            if e not in (int(order[i - 1]), int(order[(i + 1) % len(order)])):
                return engine.unknown(request, limits,
                                      "the constructed closed tour does not have the asked end next to the start")
    else:
        ends = {int(order[0]), int(order[-1])}
        asked = [b.index(*sq) for sq in (request.start, request.end) if sq is not None]
        if any(a not in ends for a in asked) or (len(asked) == 2 and asked[0] == asked[1]):
            return engine.unknown(request, limits,
                                  "the narrow construction does not offer open tours with these fixed ends")
    return engine.found(request, limits, order,
                        stats={"squares": len(order)},
                        message=f"{request.describe()}: chained library strip pieces")
