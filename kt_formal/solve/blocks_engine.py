"""The ``blocks`` engine: constructions for boards with holes, then backtracking.

For a board with holes (or an open tour with fixed ends) it tries, in order: the frame
construction (one rectangular hole, margins >= 3;
:func:`kt_formal.combine.frame_large.frame_tour`), the hole repair for many small holes
(:func:`kt_formal.combine.repair.repair_tour`: a tour of the whole rectangle re-routed
around the holes), the block construction for any hole mask
(:func:`kt_formal.combine.blocks.block_tour`; on boards whose holes are not all small it
comes before the repair), and Warnsdorff-ordered backtracking
(:mod:`kt_formal.engines.backtrack`) with the time left. Every tour passes the
independent checker; what each step did is in ``stats["steps"]``.

>>> from kt_formal.board import Board
>>> r = Blocks().run(Question(Board.from_spec(20, 20, ["8,8,2x2"])))
>>> r.status.value, r.stats["method"]
('found', 'blocks')
"""

from __future__ import annotations

import time

import numpy as np

from kt_formal.engines.base import Engine
from kt_formal.question import DEFAULT_TIME_LIMIT, Limits, Question, Result
from kt_formal.solve.policy import SMALL_SQUARES

__all__ = ["Blocks", "construct", "repair_first", "frame_applies"]

NAME = "blocks"


def construct(request: Question, limits: Limits, steps=None, frame: bool = True):
    """The constructions alone, within ``limits``: a Tour (not yet checked) or None;
    ``steps`` collects notes.

    Each note is ``(name, outcome, seconds)``; the stop event of ``limits`` ends the block
    construction early, and no construction starts once it is set; ``frame=False`` leaves
    out the frame (the caller tried it). The seed is the limits' seed.
    """
    from kt_formal.combine.blocks import BlocksNotApplicable, block_tour
    from kt_formal.combine.frame_large import NotApplicable, frame_tour

    steps = steps if steps is not None else []
    time_limit, seed, stop = limits.time_limit, limits.seed, limits.stop
    b = request.board
    if request.forced or request.forbidden:
        steps.append(("constructions", "not applicable: forced or forbidden moves", 0.0))
        return None, None
    if frame and frame_applies(request):
        t = time.perf_counter()
        try:
            tour = frame_tour(b)
            steps.append(("frame", "built", time.perf_counter() - t))
            return tour, "frame"
        except NotApplicable as exc:
            steps.append(("frame", f"not applicable: {exc}", time.perf_counter() - t))
    t_all = time.perf_counter()

    def left():
        return None if time_limit is None else max(0.0, time_limit - (time.perf_counter() - t_all))

    def stopped():
        return stop is not None and stop.is_set()

    repair_ok = _repair_applies(request)
    small = repair_ok and _small_holes(b)
    if small and not stopped():
        tour = _repair(request, left(), seed, steps, stop)
        if tour is not None:
            return tour, "repair"
    t = time.perf_counter()
    if request.closed and request.end is not None:
        steps.append(("blocks", "not applicable: a closed tour with a fixed last square", 0.0))
        return None, None
    if time_limit is not None and left() < 0.5:
        steps.append(("blocks", "not started: no time left", 0.0))
        return None, None
    try:
        limit = DEFAULT_TIME_LIMIT if time_limit is None else left()
        if repair_ok and not small and limit is not None:
            limit *= 0.6  # the repair comes next
        st = {}
        tour = block_tour(b, request.closed, request.start if not request.closed else None,
                          request.end, time_limit=limit, seed=seed, stats=st, stop=stop)
        steps.append(("blocks", f"built ({st.get('groups', 0)} groups solved by CP-SAT)",
                      time.perf_counter() - t))
        return tour, "blocks"
    except BlocksNotApplicable as exc:
        steps.append(("blocks", f"no tour built: {exc}", time.perf_counter() - t))
    if repair_ok and not small and not stopped():
        tour = _repair(request, left(), seed, steps, stop)
        if tour is not None:
            return tour, "repair"
    return None, None


def frame_applies(request) -> bool:
    """Whether the constructions start with the frame (a closed tour of a big holed board)."""
    b = request.board
    return (request.closed and request.end is None and b.has_holes and b.n_squares > SMALL_SQUARES
            and not (request.forced or request.forbidden))


def _repair_applies(request) -> bool:
    return request.board.has_holes and request.end is None and request.board.n_squares > SMALL_SQUARES


def repair_first(request) -> bool:
    """Whether the constructions start with the hole repair (many small holes on a big board)."""
    return not (request.forced or request.forbidden) and _repair_applies(request) and _small_holes(request.board)


#: Largest group of touching holes for which the repair comes before the block construction.
SMALL_HOLE_GROUP = 16


def _small_holes(board) -> bool:
    """Whether every group of touching holes is small (scattered holes: the repair's case)."""
    from kt_formal.combine.holes import hole_groups

    sizes = hole_groups(board.hole_mask)
    return len(sizes) > 1 and int(sizes.max()) <= SMALL_HOLE_GROUP


def _repair(request, time_limit, seed, steps, stop):
    """The hole repair (closed, or an open tour cut from it at its first square); None if it fails."""
    from kt_formal.combine.repair import RepairNotApplicable, repair_tour
    from kt_formal.tours import Tour

    t = time.perf_counter()
    try:
        st = {}
        tour = repair_tour(request.board, time_limit=time_limit, seed=seed, stats=st, stop=stop)
    except RepairNotApplicable as exc:
        steps.append(("repair", f"no tour built: {exc}", time.perf_counter() - t))
        return None
    steps.append(("repair", f"built ({st['clusters']} clusters, {st['steps']} windows re-routed by CP-SAT "
                  f"in {st['batches']} batches, {st['widened']} widened)", time.perf_counter() - t))
    if request.closed:
        return tour
    order = tour.order
    if request.start is not None:  # the open tour starts there: drop the move into it
        s = request.board.index(*request.start)
        k = int((order == s).nonzero()[0][0])
        order = np.roll(order, -k)
    return Tour(request.board, order, False)


class Blocks(Engine):
    """Constructions first, then Warnsdorff-ordered backtracking with the time left.

    ``stats["method"]``: ``frame``, ``blocks``, ``repair`` or ``backtrack``; ``stats["steps"]``.
    """

    name = NAME

    def search(self, question: Question, limits: Limits, options) -> Result:
        """The constructions, then backtracking."""
        from kt_formal.engines.backtrack import Backtrack

        steps = []
        tour, how = construct(question, limits, steps)
        if tour is not None:
            return self.found(question, limits, tour.order, {"method": how, "steps": steps},
                              f"built {'a closed' if question.closed else 'an open'} tour with the {how} construction")
        if question.forced:
            return self.unknown(question, limits, "; ".join(f"{n}: {o}" for n, o, _ in steps),
                                {"method": "none", "steps": steps})
        result = Backtrack().run(question, limits)
        result.stats.update(method="backtrack", steps=steps)
        result.engine = NAME
        result.wall_time = limits.elapsed()
        return result
