"""The constructions stage of the pipeline: certified pieces before any search.

Plain rectangles go to divide and conquer; big boards with sparse holes to the frame
(milliseconds, whether it applies or not), then the hole repair or the block
construction, with Warnsdorff-ordered backtracking probing next to them within the same
:class:`~kt_formal.question.Limits` (:mod:`kt_formal.solve.portfolio`). What runs when is the policy's
(:mod:`kt_formal.solve.policy`); every tour passes the kernel's check before it leaves.
"""

from __future__ import annotations

import time
from typing import NamedTuple

from kt_formal.question import Limits, Stage, Question
from kt_formal.solve import policy
from kt_formal.solve.portfolio import Portfolio

__all__ = ["Built", "build"]


class Built(NamedTuple):
    """A tour a construction built (verified), how, and what the stage said."""

    tour: object
    how: str
    route: str
    stats: dict | None = None
    message: str | None = None


def build(request: Question, shape: str, limits: Limits, stages: list) -> tuple[Built | None, Portfolio | None]:
    """Try the constructions that suit ``request`` within ``limits``; note each in ``stages``.

    Returns the tour built (or None) and the portfolio left running next to them (or
    None), which the search stage takes over.
    """
    from kt_formal.solve import run_engine

    board = request.board
    if policy.builds_plain(request):
        t = time.perf_counter()
        result = run_engine("divide", request, limits)
        stages.append(Stage("divide", result.message, time.perf_counter() - t))
        if result.found:
            return Built(result.tour, "divide", "construction:divide", result.stats, result.message), None
        return None, None
    if policy.builds_margin(request):
        built = _margin(request, stages)
        if built is not None:
            return built, None
    if not policy.constructions_suit(request, shape):
        stages.append(Stage("constructions", f"skipped: the board is {shape} "
                            f"({board.n_squares} squares, {board.n_holes} holes); searches suit it", 0.0))
        return None, None
    return _build_around_holes(request, limits, stages)


def _margin(request: Question, stages: list) -> Built | None:
    """The margin-three construction (certified pieces, no search): milliseconds."""
    from kt_formal.combine.margin import margin_open_tour, margin_tour, theorem_of
    from kt_formal.engines.base import found
    from kt_formal.exceptions import NotApplicable

    t = time.perf_counter()
    try:
        tour = (margin_tour if request.closed else margin_open_tour)(request.board)
    except NotApplicable as exc:  # pragma: no cover - builds_margin said it applies
        stages.append(Stage("margin", f"not applicable: {exc}", time.perf_counter() - t))
        return None
    result = found(request, tour.order, "margin", time.perf_counter() - t)
    theorem = theorem_of(request.board)
    stages.append(Stage("margin", f"built by the {theorem}", time.perf_counter() - t))
    kind = "a closed" if request.closed else "an open"
    message = (f"built {kind} tour of the {request.board.describe()} board by the {theorem} "
               "(docs/theorems/margin-three.md): certified pieces, no search")
    return Built(result.tour, "margin", "construction:margin-three", None, message)


def _frame(request: Question, stages: list) -> Built | None:
    """The frame construction: milliseconds, whether it applies or not."""
    from kt_formal.combine.frame_large import NotApplicable, frame_tour
    from kt_formal.engines.base import found

    t = time.perf_counter()
    try:
        tour = frame_tour(request.board)
    except NotApplicable as exc:
        stages.append(Stage("frame", f"not applicable: {exc}", time.perf_counter() - t))
        return None
    stages.append(Stage("frame", "built", time.perf_counter() - t))
    result = found(request, tour.order, "frame", time.perf_counter() - t)
    return Built(result.tour, "frame", "construction:frame")


def _build_around_holes(request, limits: Limits, stages):
    from kt_formal.combine.holes import hole_groups
    from kt_formal.engines.base import found
    from kt_formal.solve.blocks_engine import construct, frame_applies, repair_first

    board = request.board
    if frame_applies(request):
        built = _frame(request, stages)
        if built is not None:
            return built, None
    # backtracking runs next to the constructions: on big boards with sparse holes
    # Warnsdorff's rule often walks straight through (hundredths of a second)
    pf = None
    groups = max(1, len(hole_groups(board.hole_mask))) if board.has_holes else 1
    probe = limits.seconds(0.1, at_most=min(policy.PROBE_SECONDS, max(policy.PROBE_PER_GROUP * groups,
                                                                    policy.PROBE_PER_SQUARE * board.n_squares)))
    walk = int(policy.BACKGROUND_NODES_PER_SQUARE * board.n_squares) + 1000  # nodes: one walk
    if policy.BACKGROUND_BACKTRACK and board.n_squares <= policy.INLINE_PROBE_SQUARES:
        # one walk takes milliseconds here: in this thread (a thread's start and the wait
        # for it cost as much); when it finds nothing the constructions go on alone
        pf = Portfolio(request, limits)
        t = time.perf_counter()
        pf.run_inline("backtrack", probe, walk)
        if pf.winner:
            return None, pf
        stages.append(Stage("backtrack", f"no tour within one walk ({walk:,} nodes); "
                                         "the constructions go on alone", time.perf_counter() - t))
        pf = None
    elif policy.BACKGROUND_BACKTRACK and board.n_squares <= policy.BACKGROUND_MAX_SQUARES:
        pf = Portfolio(request, limits)
        pf.start("backtrack", limits.left(), node_limit=walk)
        pf.wait(probe)
        if not pf.winner and repair_first(request):
            # the hole repair builds its windows in Python: a search next to it would
            # hold the interpreter half the time; the portfolio gives it another turn
            pf.finish(stages, ["backtrack"], why="paused for the hole repair")
            pf = None
    # on huge boards backtracking waits for the portfolio: next to the construction it
    # would slow it down (both hold the interpreter), and building its tables alone
    # takes seconds
    if pf is not None and pf.winner:
        return None, pf
    t = time.perf_counter()
    notes = []
    tour, how = construct(request, limits.share(policy.construction_share(board), stop=None if pf is None else pf.stop),
                          notes, frame=False)
    for name, outcome, secs in notes:
        stages.append(Stage(name, outcome, secs))
    if tour is not None:
        result = found(request, tour.order, how, time.perf_counter() - t)
        if pf is not None:  # it stops within a chunk of nodes: no need to wait
            pf.finish(stages, ["backtrack"], wait=0)
        return Built(result.tour, how, f"construction:{how}"), None
    if pf is not None and not pf.winner:
        # its one walk found nothing: the portfolio runs it again without the cap
        pf.finish(stages, ["backtrack"], why="the constructions built nothing")
        pf = None
    return None, pf
