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
>>> solve(Question(Board(8, 8), closed=False, start=(0, 0))).status.value
'found'
>>> r = solve(Question(Board(100, 100), closed=False, start=(0, 0)), order="clockwise-from-7", tiebreak="last")
>>> r.status.value, r.stats["covered"]
('unknown', 9976)
"""

from __future__ import annotations

import numpy as np

from kt_formal.engines.pathsearch import centre_distance, prepare_kernels, table_for, warnsdorff_kernel
from kt_formal.question import Budget, Question
from kt_formal.engines.base import found, unknown
from kt_formal.exceptions import InvalidInput
from kt_formal.graph import neighbour_table

__all__ = ["solve", "TIEBREAKS", "NAME"]

NAME = "warnsdorff"

#: tie-break rule -> kernel mode
TIEBREAKS = {"first": 0, "last": 1, "centre": 2, "pohl": 3, "random": 4}


def solve(
    request: Question,
    *,
    tiebreak: str = "first",
    order=None,
    retries: int = 0,
    seed: int = 0,
    progress=None,
):
    """One Warnsdorff walk (plus optional random retries) for ``request``.

    Parameters
    ----------
    request : Question
        Forced moves are refused; forbidden moves are left out of the walk. An open
        tour with a fixed end keeps that square for last; a closed tour must end next to
        its first square.
    tiebreak : {"first", "last", "centre", "pohl", "random"}
    order : str, optional
        Move order (``knight``, ``down-first``, ``clockwise-from-7``, ``clockwise`` or
        ``"dr,dc;..."``; see :data:`kt_formal.engines.pathsearch.ORDERS`).
    retries : int
        Further walks with random tie-breaks after a failure.
    seed : int
        Seed of the random tie-breaks.
    progress : callable, optional
        ``progress(walks_done, walks_total, text)`` after a walk, at most ten times a second.

    Returns
    -------
    Result
        FOUND (verified) or UNKNOWN with ``stats["covered"]``, the most squares a walk covered.
    """
    clock = Budget()
    if tiebreak not in TIEBREAKS:
        raise InvalidInput(f"unknown tie-break {tiebreak!r}; choose from {', '.join(TIEBREAKS)}")
    retries = int(retries)
    if retries < 0:
        raise InvalidInput(f"retries must be at least 0, got {retries}")
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
        if progress is not None and (clock.elapsed() - last_report >= 0.1 or attempt == retries):
            last_report = clock.elapsed()
            progress(float(walks), float(retries + 1), f"warnsdorff: walk {walks}, covered {n} of {k}")
        if n < k:
            continue
        if closed:
            last, first = int(out[k - 1]), int(out[0])
            if k < 3 or first not in table[last] or (closed and e is not None and s is not None and last != e):
                failure = "open"
                continue
        stats = {"covered": k, "squares": k, "walks": walks, "tiebreak": tiebreak}
        return found(request, nt.squares[out], NAME, clock.elapsed(), stats)
    stats = {"covered": best, "squares": k, "walks": walks, "tiebreak": tiebreak}
    if best == k and failure == "open":
        msg = f"the Warnsdorff walk covered all {k} squares but does not close into a cycle"
    else:
        msg = f"the Warnsdorff walk got stuck: covered {best} of {k} squares"
    if walks > 1:
        msg += f" (best of {walks} walks)"
    return unknown(request, NAME, clock.elapsed(), msg, stats)
