"""The steps of a board's sweep as the compiled counters take them: for each square, the
arguments of one step (its moves back into the frontier, forced ones, its room to the
squares still to come, fixed ends), shared by the counter on one machine and on Dask; and
whether a sweep looks the same upside down (then mirror images count alike).
"""

from __future__ import annotations

import numpy as np

from kt_formal.counting.frontier import square_colour, watched_squares

__all__ = ["board_steps", "upside_down_alike", "window_colours", "watch_array", "NO_WATCH"]


def upside_down_alike(lay) -> bool:
    """Whether a board's sweep looks the same upside down: its holes too, no fixed ends,
    no forced or forbidden moves (then a state and its mirror image count alike)."""
    if lay.ends or lay.forced_set or lay.forbidden_set:
        return False
    k, dead = lay.k, lay.live.dead
    return all((d // k) * k + (k - 1 - d % k) in dead for d in dead)


def board_steps(lay, first: int = 0):
    """``(i, arguments of _Sweep.step after i)`` for each step of a board's sweep from ``first``
    (the compiled counter's :func:`~kt_formal.counting.frontier_jit.count_request_jit`; the Dask counter takes the same)."""
    k, N, W = lay.k, lay.N, lay.W
    live, ends, later, live_after = lay.live, lay.ends, lay.later, lay.live_after
    forced_set, forbidden_set = lay.forced_set, lay.forbidden_set
    for i in range(first, N + W):
        on_board = i < N
        r, c = i % k, i // k
        is_live = on_board and live[i]
        nbr = []
        must = 0
        if is_live:
            for dr, dc, p in ((-1, -2, 0), (1, -2, 2), (-2, -1, k - 1), (2, -1, k + 3)):
                rr, cc = r + dr, c + dc
                if 0 <= rr < k and cc >= 0:
                    j = i - W + p
                    e = frozenset((i, j))
                    if live[j] and e not in forbidden_set:
                        if e in forced_set:
                            must |= 1 << len(nbr)
                        nbr.append((p, j in ends))
        out_j = i - W
        room = []
        for q in range(W):
            j = i + 1 - W + q
            room.append(sum(1 for t in later[j] if t > i) if 0 <= j < N and live[j] else 9)
        fixed_pos = sum(1 << q for q in range(W) if i + 1 - W + q in ends)
        yield i, (nbr, must, 1 if i in ends else 2, is_live, out_j >= 0 and live[out_j],
                  out_j in ends, room, fixed_pos, live_after[i + 1] == 0 if on_board else True, False,
                  window_colours(i, k, W), lay.future_balance[i + 1] if i + 1 < N else 0,
                  watch_array(watched_squares(lay, i)))


def window_colours(i: int, k: int, W: int) -> int:
    """The light squares of the window after step ``i`` (bit q: the square ``i + 1 - W + q``)."""
    return sum(1 << q for q in range(W) if i + 1 - W + q >= 0 and square_colour(i + 1 - W + q, k) > 0)


#: No watched squares (a strip of unknown length: every square has moves enough ahead).
NO_WATCH = np.zeros((0, 4), np.int64)


def watch_array(watch) -> np.ndarray:
    """:func:`~kt_formal.counting.frontier.watched_squares` as the compiled step takes them: one
    row a square, its window neighbours as a bit set, moves ahead, need, light (1) or dark (0)."""
    a = np.zeros((len(watch), 4), np.int64)
    for j, (back, ahead, need, colour) in enumerate(watch):
        a[j] = (sum(1 << q for q in back), ahead, need, colour > 0)
    return a
