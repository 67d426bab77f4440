"""Warnsdorff's rule: a greedy walk that always moves to the square with fewest onward moves.

Seeds 001 and 002 use it. Ties are broken by a selectable rule:

* ``first``: the first candidate in the move order (``last``: the last one, which is what
  the ``<=`` comparison of the greedy walk it comes from does, docs/methods.md);
* ``centre``: the candidate farther from the centre (rule 2 of the backtracking method);
* ``pohl``: the candidate whose unvisited neighbours have the smallest total degree
  (Pohl's refinement, 1967);
* ``random``: uniformly at random, from ``seed``.

The walk is a heuristic and never claims more than it has: when it gets stuck the
result is UNKNOWN with ``stats["covered"]``. ``retries`` more walks with random
tie-breaks (seeds ``seed + 1, seed + 2, ...``) may follow a failed one.

>>> from kt_formal.board import Board
>>> from kt_formal.question import Question
>>> Warnsdorff().run(Question(Board(8, 8), closed=False, start=(0, 0))).status.value
'found'
>>> options = Warnsdorff.Options(order="clockwise-from-7", tiebreak="last")
>>> r = Warnsdorff().run(Question(Board(100, 100), closed=False, start=(0, 0)), options=options)
>>> r.status.value, r.stats["covered"]
('unknown', 9976)
"""

from __future__ import annotations

import numpy as np

from dataclasses import dataclass

from kt_formal.engines.base import Engine
from kt_formal.engines.pathsearch import (centre_distance, parse_order, prepare_kernels, refuses, table_for,
                                          warnsdorff_kernel)
from kt_formal.exceptions import InvalidInput
from kt_formal.graph import neighbour_table
from kt_formal.question import Limits, Question, Result

__all__ = ["Warnsdorff", "TIEBREAKS", "NAME"]

NAME = "warnsdorff"

#: tie-break rule -> kernel mode
TIEBREAKS = {"first": 0, "last": 1, "centre": 2, "pohl": 3, "random": 4}


class Warnsdorff(Engine):
    """One Warnsdorff walk (plus optional random retries).

    Forced moves are refused; forbidden moves are left out of the walk. An open tour
    with a fixed end keeps that square for last; a closed tour must end next to its first
    square. The limits give the seed of the random tie-breaks and progress
    (``progress(walks_done, walks_total, text)`` after a walk, at most ten times a second).
    FOUND (verified) or UNKNOWN with ``stats["covered"]``, the most squares a walk covered.
    """

    name = NAME

    @dataclass(frozen=True)
    class Options:
        """``tiebreak``: one of :data:`TIEBREAKS`; ``order``: the move order (``knight``,
        ``down-first``, ``clockwise-from-7``, ``clockwise`` or ``"dr,dc;..."``; see
        :data:`kt_formal.engines.pathsearch.ORDERS`); ``retries``: further walks with random
        tie-breaks after a failure."""

        tiebreak: str = "first"
        order: object = None
        retries: int = 0

        def __post_init__(self):
            if self.tiebreak not in TIEBREAKS:
                raise InvalidInput(f"unknown tie-break {self.tiebreak!r}; choose from {', '.join(TIEBREAKS)}")
            retries = int(self.retries)
            if retries < 0:
                raise InvalidInput(f"retries must be at least 0, got {retries}")
            object.__setattr__(self, "retries", retries)
            if self.order is not None:
                parse_order(self.order)

    def supports(self, question: Question) -> str | None:
        return refuses(question, self.name)

    def search(self, request: Question, limits: Limits, options) -> Result:
        """The walks (see the class docstring)."""
        tiebreak, order, retries, seed = options.tiebreak, options.order, options.retries, limits.seed
        progress = limits.progress
        board = request.board
        nt = neighbour_table(board)
        table = table_for(request, nt, order, NAME)
        k = len(nt)
        dist = centre_distance(nt)
        s = nt.node(request.start) if request.start is not None else None
        e = nt.node(request.end) if request.end is not None else None
        closed = request.closed
        if closed:
            start = s if s is not None else (e if e is not None else 0)
            target = -1
        else:
            if s is not None:
                start, target = s, (-1 if e is None else e)
            elif e is not None:
                start, target = e, -1
            else:
                start, target = 0, -1
        out = np.empty(k, dtype=np.int32)
        best = 0
        walks = 0
        failure = "stuck"
        last_report = -1.0
        for attempt in range(retries + 1):
            mode = TIEBREAKS[tiebreak] if attempt == 0 else TIEBREAKS["random"]
            prepare_kernels()
            n = int(warnsdorff_kernel(table, dist, np.int64(start), np.int64(target), np.int64(mode),
                                      np.int64(seed + attempt), out))
            walks += 1
            best = max(best, n)
            if progress is not None and (limits.elapsed() - last_report >= 0.1 or attempt == retries):
                last_report = limits.elapsed()
                progress(float(walks), float(retries + 1), f"warnsdorff: walk {walks}, covered {n} of {k}")
            if n < k:
                continue
            if closed:
                last, first = int(out[k - 1]), int(out[0])
                if k < 3 or first not in table[last] or (closed and e is not None and s is not None and last != e):
                    failure = "open"
                    continue
            stats = {"covered": k, "squares": k, "walks": walks, "tiebreak": tiebreak}
            return self.found(request, limits, nt.squares[out], stats)
        stats = {"covered": best, "squares": k, "walks": walks, "tiebreak": tiebreak}
        if best == k and failure == "open":
            msg = f"the Warnsdorff walk covered all {k} squares but does not close into a cycle"
        else:
            msg = f"the Warnsdorff walk got stuck: covered {best} of {k} squares"
        if walks > 1:
            msg += f" (best of {walks} walks)"
        return self.unknown(request, limits, msg, stats)
