"""A group of the block construction solved as one small board: its tour by CP-SAT's circuit
model, holding one port move of each join it needs, within a budget of deterministic time
(:func:`group_work`) so that its answer does not hang on the machine's load, and cached by
its squares, ends and ports. The largest groups the construction hands over are bounded here.

>>> group_work(60)
0.14
"""

from __future__ import annotations

import numpy as np

from kt_formal.combine.blocks_layout import MOVES

__all__ = ["solve_group", "group_work", "GROUP_WORK", "GROUP_CACHE", "MAX_GROUP_SQUARES", "ENDS_GROUP_SQUARES"]


#: Largest group (live squares) handed to CP-SAT; beyond it the construction gives up.
MAX_GROUP_SQUARES = 6000


#: Largest group holding both fixed ends of an open tour (the cells between them join it).
ENDS_GROUP_SQUARES = 2500


#: the solved groups, by their mask and ends (cleared when it holds too many)
GROUP_CACHE: dict = {}


_CACHE_MAX = 20000


#: CP-SAT's deterministic time (``max_deterministic_time``) for a group of ``n`` squares:
#: ``min(GROUP_WORK[0] + n / GROUP_WORK[1], GROUP_WORK[2])``. Calibrated on the groups of
#: the 40 x 40, 30 x 30 and 200 x 200 boards of the tests (CPU seconds measured beside each
#: solve): about the wall-clock limits of ``0.3 + n / 500`` seconds used before on an idle
#: machine (CP-SAT counts 0.35 deterministic units a CPU second on groups of 100 squares,
#: 0.27 at 1,000, 0.08 at 6,000). Unlike seconds it does not shrink on a busy machine, so a
#: group's answer, and the tour, do not depend on the load.
GROUP_WORK = (0.1, 1500.0, 1.0)


def group_work(n: int, share: float = 1.0) -> float:
    """The deterministic time CP-SAT gets for a group of ``n`` squares (times ``share``).

    >>> group_work(60), group_work(10 ** 6)
    (0.14, 1.0)
    """
    lo, per, cap = GROUP_WORK
    return round(share * min(lo + n / per, cap), 6)


def solve_group(live: np.ndarray, *, closed: bool = True, start=None, end=None, need=(),
                time_limit: float = 10.0, seed: int = 0, workers: int = 1, work: float | None = None):
    """A tour of a small board given by ``live`` (bool array) holding one move from each set in ``need``.

    Parameters
    ----------
    live : (h, w) bool array
        The squares of the group (True = part of the group).
    closed : bool
        A cycle or a path.
    start, end : (r, c) or None
        Fixed ends of a path.
    need : sequence of sequences of ((r, c), (r, c))
        For each set, at least one of its moves must be in the tour.
    time_limit, seed, workers
        CP-SAT parameters (seconds of wall clock, ``random_seed``, ``num_workers``).
    work : float, optional
        CP-SAT's deterministic time limit (``max_deterministic_time``): with one worker
        the answer is the same on a busy machine as on an idle one, as long as
        ``time_limit`` (the caller's overall deadline) does not end the search first.

    Returns
    -------
    list of (int, int) or None or str
        The tour's moves as pairs of local indices ``r * w + c`` (a path's moves in
        order), ``"infeasible"`` when CP-SAT proved there is none, None at the limit.
        Results are cached by the arguments.

    >>> live = np.ones((5, 6), dtype=bool)
    >>> len(solve_group(live, need=[[((0, 5), (2, 4))]]))
    30
    """
    key = (live.shape, np.packbits(live).tobytes(), closed, start, end,
           tuple(tuple(sorted(s)) for s in need))
    if key in GROUP_CACHE:
        return GROUP_CACHE[key]
    res = _solve_group(live, closed, start, end, need, time_limit, seed, workers, work)
    if res is not None:
        if len(GROUP_CACHE) > _CACHE_MAX:
            GROUP_CACHE.clear()
        GROUP_CACHE[key] = res
    return res


def _solve_group(live, closed, start, end, need, time_limit, seed, workers, work=None):
    """One group's tour by a circuit model: its moves as (square, next square) pairs of the
    group's mask, "infeasible" (proved, or a join's ports are missing) or None (no answer
    in time). ``need``: groups of moves of which the tour must use one each."""
    from kt_formal.engines.circuit import Circuit

    h, w = live.shape
    idx = np.flatnonzero(live.ravel())
    k = idx.size
    if k == 0 or (closed and k < 3):
        return "infeasible"
    if not closed and k == 1:
        return []
    node = np.full(h * w, -1, dtype=np.int64)
    node[idx] = np.arange(k)
    r, c = np.divmod(idx, w)
    circuit = Circuit(k, open_path=not closed)
    for dr, dc in MOVES.tolist():
        rr, cc = r + dr, c + dc
        ok = (rr >= 0) & (rr < h) & (cc >= 0) & (cc < w)
        ok[ok] = live[rr[ok], cc[ok]]
        circuit.add_arcs(np.flatnonzero(ok), node[rr[ok] * w + cc[ok]], names="arc")
    if not closed:
        circuit.add_path_ends([int(node[start[0] * w + start[1]])] if start is not None else range(k),
                              [int(node[end[0] * w + end[1]])] if end is not None else range(k))
    for group in need:
        terms = []
        for a, b in group:
            u, v = int(node[a[0] * w + a[1]]), int(node[b[0] * w + b[1]])
            if u >= 0 and v >= 0 and circuit.literal(u, v) is not None:
                terms += [circuit.literal(u, v), circuit.literal(v, u)]
        if not terms:
            return "infeasible"
        circuit.model.add_bool_or(terms)
    extra = {} if work is None else {"max_deterministic_time": max(1e-3, float(work))}
    status = circuit.solve(time_limit=max(0.01, float(time_limit)), workers=workers, seed=seed, **extra)
    if status != "found":
        return "infeasible" if status == "infeasible" else None
    order = idx[circuit.order(closed)].tolist()
    if closed:
        return [(order[i], order[(i + 1) % k]) for i in range(k)]
    return [(order[i], order[i + 1]) for i in range(k - 1)] or [(order[0], -1)]
