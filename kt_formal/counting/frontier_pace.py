"""The pace of a frontier count: the states it steps a second and a rough time left, for its
progress line at the end of each column."""

from __future__ import annotations

from kt_formal.counting.frontier import estimate_states
from kt_formal.progress import format_duration

__all__ = ["pace"]


def pace(known: list, work: int, spent: float, k: int, closed: bool, n_cols: int, c: int) -> str:
    """``, R states/s, about T left`` after column ``c`` (0-based) of ``n_cols`` of a sweep
    ``k`` across: ``work`` states stepped in ``spent`` seconds by this process, ``known``
    the states at the end of each column so far. While the states grow, the columns to come
    grow as the last did, up to the fullest step measured on a board as wide; then the
    columns to come are taken as holding the states of the columns as far from the other
    end. A rough guide: the states of a step are not known before it is made.

    >>> pace([1, 528, 124411], 2_000_000, 1.0, 8, True, 8, 2)
    ', 2,000,000 states/s, about 87 min left'
    """
    if spent < 0.5 or work < 1000:
        return ""
    rate = work / spent
    ahead = 0
    if len(known) >= 2 and known[-1] > known[-2] > 0:
        # still growing: at the last column's rate, up to the fullest step measured on a
        # board as wide, until the last column (where the tours close and few are left)
        g = known[-1] / known[-2]
        cap = max(estimate_states(k, closed=closed), known[-1])
        x = known[-1]
        for _cc in range(c + 1, n_cols - 1):
            x = min(cap, x * g)
            ahead += x
    else:  # falling: the columns to come as far from the other end
        for cc in range(c + 1, n_cols):
            mirror = n_cols - 1 - cc
            ahead += known[mirror] if mirror < len(known) else known[-1]
    left = ahead * k / rate
    return f", {rate:,.0f} states/s, about {format_duration(left)} left"
