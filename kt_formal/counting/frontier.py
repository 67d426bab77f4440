"""Counting knight's tours by frontier (transfer-matrix) dynamic programming.

The board is swept square by square, column by column along its long side, with the
short side of ``k`` squares across. A knight move spans at most two columns, so when
square ``i`` (index ``col * k + row``) is reached, every move between it and an earlier
square ends in the last ``2k + 1`` squares: the *frontier*. A state records, for each
frontier square, whether it has no tour move yet, two moves (it is finished), or one
move, and then which other path end it is joined to (labels, renumbered in frontier
order so that equal states meet). At square ``i`` every subset of its moves back into
the frontier is tried; a square leaving the frontier must be finished, or be one of the
two ends of an open tour. States with equal frontiers are merged and their counts
added, as exact Python integers. A cycle may close, and a path may take its second end,
only when it is the whole tour.

An open tour's ends have the colours the board asks for: a move joins a light and a dark
square, so the moves still owed by light squares and by dark ones fall together, and
their difference moves only when a square becomes an end of the tour. A state whose ends
cannot make it even (on an even board the two ends differ in colour; on an odd one both
have the commoner colour) is dropped: a quarter of the states at 6 x 6's fullest step,
over half at 5 x 5's.

The sweep also looks ahead (:func:`watched_squares`): a square still to come with fewer
moves to later squares than it needs (near the far edge, or beside holes) takes the rest
from window squares, and a state that has finished too many of them is dead (or, for an
open tour, makes that square an end). Most of the states near the end of a board are
such: closed 6 x 6's fullest step holds 34,937 states instead of 147,050, open 6 x 6's
1,162,993 instead of 4,119,766 with neither check (both without the mirror images of the
compiled counter).

Each undirected tour (a cycle, or a path without a direction) is counted once, as the
exhaustive engine counts. Holes, fixed start and end squares (of a closed tour: the
cycles through the move between them), forced and forbidden moves are all honoured.

>>> count_tours(5, 6)          # Schwenk: the smallest even board with closed tours (8)
8
>>> count_tours(3, 4, closed=False)  # the 3x4 board's open tours
8

References
----------
The method is the frontier (transfer-matrix) method behind the published tables of
Hamiltonian cycles and paths on grid graphs; see D. E. Knuth, TAOCP pre-fascicle 8A
(Hamiltonian paths and cycles, 2025), and B. D. McKay, "Knight's tours of an 8x8
chessboard", ANU technical report TR-CS-97-03 (1997) for the 8x8 count.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

from kt_formal.board import Board
from kt_formal.counting.frontier_squares import (FutureBalance, LaterMoves, LiveAfter, LiveSquares, dead_indices,
                                                  square_colour)
from kt_formal.exceptions import InvalidInput, LimitReached, ResourceLimit
from kt_formal.kernel.proofcheck import colour_refutes
from kt_formal.question import Question

__all__ = ["count_tours", "count_request", "sweep_layout", "colours_rule_out", "closing_move_refutes", "SweepLayout", "FrontierCount", "estimate_states", "estimate_figure", "MEASURED_PEAK_STATES", "MEASURED_OPEN_PEAK_STATES", "OPEN_OVER_CLOSED", "estimate_measured", "MAX_SHORT_SIDE",
           "EIGHT_BY_EIGHT_MINUTES"]

#: Largest short side the frontier method takes (the frontier has 2k + 1 squares).
MAX_SHORT_SIDE = 8

_DONE = -1  # key of the finished states (a whole tour has been made)


@dataclass
class FrontierCount:
    """The count and what it took."""

    count: int
    closed: bool
    rows: int
    cols: int
    states_per_column: list = field(default_factory=list)
    max_states: int = 0
    wall_time: float = 0.0
    passes: int = 1  # the most passes one step took (compiled counter: a table over its budget)
    spilled: int = 0  # the most states one step kept in files (compiled counter)
    threads: list = field(default_factory=list)  # (states, threads) of each step (compiled counter)
    start: tuple | None = None  # the fixed ends of an open count, as asked
    end: tuple | None = None
    single: bool = False  # the board has one live square (its one open tour has no direction)
    resumed: int = 0  # the columns a checkpoint had counted already (compiled counter, resume)
    resumed_squares: int = 0  # and the squares of the next column (a checkpoint inside a column)
    reason: str = ""  # why there is no tour, when the colours of the squares say so (no states stepped)
    emptied: int = 0  # the column in which no partial tour went on (the sweep stopped there); 0: it ran to the end

    @property
    def directed(self) -> int | None:
        """Open tours with a direction: each path twice when both ends are free (a single
        square once), once when an end is fixed (it runs from its start, or to its end);
        None for closed tours (each counted once as an undirected cycle)."""
        if self.closed:
            return None
        if self.start is None and self.end is None and not self.single:
            return 2 * self.count
        return self.count


#: The most states one step held, measured with the compiled counter on closed tours of
#: boards ``k`` squares across (``python benchmarks/bench_count.py``, ``--full`` and
#: ``--eight``): 3x12, 4x8, 5x12, 6x12, 7x8 (before mirror images and the look-ahead) and
#: 8x8 (its fifth square of the sixth column, with both; 740,706,259 with neither).
MEASURED_PEAK_STATES = {1: 1, 2: 1, 3: 153, 4: 534, 5: 56_497, 6: 1_436_776, 7: 22_538_221, 8: 424_517_347}

#: The same for open tours with both ends free, measured with mirror images and the
#: look-ahead (``count_request_jit(Question(Board(k, n), False)).max_states``) on 3x12, 4x8, 5x12, 6x12
#: and 7x7 (docs/counts.md).
MEASURED_OPEN_PEAK_STATES = {1: 1, 2: 1, 3: 813, 4: 6_574, 5: 492_630, 6: 13_239_405, 7: 66_595_527}

#: An open count's fullest step over the closed count's on the same board: the least ratio
#: measured (5x10; 5x6, 6x6, 5x8 and 6x8 gave 16 to 43, docs/counts.md). 8 x 8's open tours
#: were not counted; an attempt held 35 times the closed count's states at the end of its
#: fourth column and was stopped in its fifth (docs/counts.md).
OPEN_OVER_CLOSED = 13


#: Minutes the compiled counter took to count 8 x 8's closed tours on 2 idle cores
#: (``kt-formal count 8 8 --spill-dir spill``: 436 s of counting, 7 min 17 s wall, docs/counts.md).
EIGHT_BY_EIGHT_MINUTES = 7


def estimate_states(short: int, closed: bool = True) -> int:
    """The states of the fullest step of a board ``short`` squares across, without holes:
    the peak measured on a board that wide (:data:`MEASURED_PEAK_STATES`, or for open
    tours with both ends free :data:`MEASURED_OPEN_PEAK_STATES`; a longer board holds at
    least as many); open tours eight across, the closed figure times
    :data:`OPEN_OVER_CLOSED`; past 8 the 8 x 8 figure times 32 for each square more across
    (the growth of the closed counts from 6 to 7 to 8 across was 16 and 33 times)."""
    if not closed and short in MEASURED_OPEN_PEAK_STATES:
        return MEASURED_OPEN_PEAK_STATES[short]
    factor = 1 if closed else OPEN_OVER_CLOSED
    if short in MEASURED_PEAK_STATES:
        return MEASURED_PEAK_STATES[short] * factor
    return MEASURED_PEAK_STATES[8] * factor * 32 ** (short - 8)


def estimate_figure(short: int, digits: int = 1) -> str:
    """:func:`estimate_states` of closed tours in the form ``4.2e+11`` (``digits`` after the
    point), reckoned from its logarithm, so that a board a million across gets a figure
    instead of a number of millions of digits."""
    if short in MEASURED_PEAK_STATES:
        return f"{MEASURED_PEAK_STATES[short]:.{digits}e}"
    exponent, fraction = divmod(math.log10(MEASURED_PEAK_STATES[8]) + (short - 8) * math.log10(32), 1)
    mantissa = f"{10 ** fraction:.{digits}f}"
    if float(mantissa) >= 10:  # rounded up to the next power of ten
        exponent, mantissa = exponent + 1, f"{1:.{digits}f}"
    return f"{mantissa}e+{int(exponent):02d}"


def estimate_measured(short: int, closed: bool = True) -> bool:
    """Whether :func:`estimate_states` is a peak measured on a board that wide (else it is
    extrapolated from one)."""
    return short in (MEASURED_PEAK_STATES if closed else MEASURED_OPEN_PEAK_STATES)


def _normalise(window: list) -> tuple:
    """Relabel the path ends in frontier order (2, 3, ...) so equal states compare equal."""
    seen = {}
    out = []
    nxt = 2
    for v in window:
        if v >= 2:
            lab = seen.get(v)
            if lab is None:
                lab = seen[v] = nxt
                nxt += 1
            out.append(lab)
        else:
            out.append(v)
    return tuple(out)


@dataclass
class SweepLayout:
    """A board laid out for the sweep: square ``i`` is ``col * k + row`` with ``k`` the short side."""

    rows: int
    cols: int
    k: int
    n: int
    W: int
    live: LiveSquares
    ends: set
    free_terminals: int
    forced_set: set
    forbidden_set: set
    live_after: LiveAfter
    later: LaterMoves
    future_balance: FutureBalance

    @property
    def N(self) -> int:
        return self.k * self.n

    def emptied_at(self, i: int, states: int) -> int:
        """The column (from 1) where the sweep stops after step ``i`` because no partial tour
        goes on (``states`` is 0) while live squares remain; 0 when it goes on."""
        return i // self.k + 1 if states == 0 and i < self.N - 1 and self.live_after[i + 1] else 0


def colours_rule_out(question: Question) -> str:
    """Why the colours of the board's squares leave ``question`` no tour, or "" when they do not.

    A knight always changes colour, so a closed tour has as many dark squares as light
    ones, and an open tour at most one more of a colour, both its ends on that colour (with
    as many of each, one end of each). The rule is the trusted kernel's
    (:func:`~kt_formal.kernel.proofcheck.colour_refutes`, behind the colour proofs)."""
    board, closed, start, end = question.board, question.closed, question.start, question.end
    dark, light = board.dark_light_counts()
    ends = [] if closed else [(name, q) for name, q in (("start", start), ("end", end)) if q is not None]
    if not colour_refutes(dark, light, closed, [board.is_dark(*q) for _name, q in ends]):
        return ""
    has = f"the board has {dark} dark and {light} light"
    if closed:
        return f"a knight's move changes colour, so a closed tour needs as many dark squares as light ones: {has}"
    if abs(dark - light) > 1:
        return f"a knight's move changes colour, so an open tour needs at most one square more of a colour: {has}"
    shade = ", ".join(f"the {name} is {'dark' if board.is_dark(*q) else 'light'}" for name, q in ends)
    if dark == light:
        return f"with as many dark squares as light ones ({dark}) an open tour ends on both colours: {shade}"
    return (f"with one square more of a colour ({dark} dark, {light} light) an open tour starts and ends on the "
            f"commoner colour: {shade}")


def closing_move_refutes(start, end, forbidden=()) -> str:
    """Why no closed tour runs from ``start`` to ``end``, or "" when one may (or an end is free).

    A closed tour from ``start`` to ``end`` visits ``end`` last and closes with the move
    ``end -> start``: the counted tours are the cycles through that move, each once (as
    the exhaustive search counts them). One fixed square alone changes nothing (every
    cycle passes every square).

    >>> closing_move_refutes((0, 0), (1, 0))
    'the closing move (1, 0) -> (0, 0) is not a knight move'
    """
    if start is None or end is None:
        return ""
    move = f"the closing move {tuple(end)} -> {tuple(start)}"
    if (start[0] - end[0]) ** 2 + (start[1] - end[1]) ** 2 != 5:
        return f"{move} is not a knight move"
    if any({tuple(a), tuple(b)} == {tuple(start), tuple(end)} for a, b in forbidden):
        return f"{move} is forbidden"
    return ""


def sweep_layout(question: Question, t0: float):
    """The sweep's view of ``question``, or its :class:`FrontierCount` when the answer is immediate
    (one live square, too few for a cycle, equal fixed ends, colours that rule every tour out:
    :func:`colours_rule_out`, a closed tour's ends no move apart: :func:`closing_move_refutes`);
    shared by both counters. A closed tour's two fixed ends become a forced move."""
    board, closed, start, end = question.board, question.closed, question.start, question.end
    forced, forbidden = question.forced, question.forbidden
    rows, cols = board.rows, board.cols
    transpose = rows > cols
    k, n = (cols, rows) if transpose else (rows, cols)
    if k > MAX_SHORT_SIDE:
        raise InvalidInput(f"the frontier method counts boards with a side of at most "
                           f"{MAX_SHORT_SIDE}; this board is {rows}x{cols}")
    # before the squares are laid out (a pass over all of them): the colours need only their counts
    why = colours_rule_out(question) or (closing_move_refutes(start, end, forbidden) if closed else "")
    if why:
        return FrontierCount(0, closed, rows, cols, wall_time=time.perf_counter() - t0,
                             start=None if closed else start, end=None if closed else end, reason=why)
    if closed and start is not None and end is not None:  # the cycles through the move end -> start
        forced = (*forced, (start, end))

    def idx(q):  # (row, col) of the board -> sweep index (column-major over the short side)
        r, c = q
        if transpose:
            r, c = c, r
        return c * k + r

    N = k * n
    # what the sweep asks of each square, from the holes alone (no list of every square:
    # a board of 10^8 squares would spend minutes and gigabytes here before any limit)
    dead = dead_indices(board, k, transpose)
    live = LiveSquares(N, dead)
    n_live = live.count()
    ends = set()
    if not closed:
        for q in (start, end):
            if q is not None:
                ends.add(idx(q))
        if start is not None and end is not None and idx(start) == idx(end):
            return FrontierCount(1 if n_live == 1 else 0, closed, rows, cols, wall_time=time.perf_counter() - t0,
                                 start=start, end=end, single=n_live == 1)
    if n_live == 1:
        return FrontierCount(0 if closed else 1, closed, rows, cols, wall_time=time.perf_counter() - t0,
                             start=None if closed else start, end=None if closed else end, single=True)
    if closed and n_live < 3:
        return FrontierCount(0, closed, rows, cols, wall_time=time.perf_counter() - t0)
    free_terminals = 0 if closed else 2 - len(ends)
    forced_set = {frozenset((idx(a), idx(b))) for a, b in forced}
    forbidden_set = {frozenset((idx(a), idx(b))) for a, b in forbidden}
    W = 2 * k + 1
    # live_after[i]: live squares from index i on, to know when nothing is left to join;
    # later[j]: the live squares after j that share a move with j (the only ones that can
    # still give j a move once the sweep has passed it); future_balance[i]: the colour
    # balance of the moves the squares from index i on will take (open tours)
    live_after = LiveAfter(N, dead)
    later = LaterMoves(k, n, live, forbidden_set)
    future_balance = FutureBalance(k, N, dead, ends, live)
    return SweepLayout(rows, cols, k, n, W, live, ends, free_terminals, forced_set, forbidden_set,
                       live_after, later, future_balance)


#: What :func:`_next_state` returns for a tour made whole at this step.
_WHOLE = "whole"


class _Step:
    """What one square's step of the sweep needs: its moves back into the window, the
    square leaving the window, and the room for moves each window square has left."""

    def __init__(self, lay, i: int):
        k, N, W, live = lay.k, lay.N, lay.W, lay.live
        r = divmod(i, k)[1]
        self.i, self.W = i, W
        self.is_live = i < N and live[i]
        self.nbr_pos = []
        if self.is_live:
            for dr, dc, p in ((-1, -2, 0), (1, -2, 2), (-2, -1, k - 1), (2, -1, k + 3)):
                rr, cc = r + dr, i // k + dc
                if 0 <= rr < k and cc >= 0:
                    j = i - W + p
                    if live[j] and frozenset((i, j)) not in lay.forbidden_set:
                        self.nbr_pos.append((p, j, frozenset((i, j)) in lay.forced_set))
        self.out_j = i - W  # the square leaving the frontier after this step
        self.out_fixed = self.out_j in lay.ends
        self.out_live = self.out_j >= 0 and live[self.out_j]
        self.cap_i = 1 if i in lay.ends else 2
        self.rest_after = lay.live_after[i + 1] if i < N else 0
        # after this step, window position q holds square i + 1 - W + q; the moves it can
        # still get come from squares after i: a square short of moves is a dead state
        self.room = []
        for q in range(W):
            j = i + 1 - W + q
            self.room.append(sum(1 for t in lay.later[j] if t > i) if 0 <= j < N and live[j] else 9)
        # open tours: the colour of each window square after this step (+1 light, -1 dark),
        # and the colour balance of the moves the squares still to come will take
        self.colour = [square_colour(i + 1 - W + q, k) for q in range(W)]
        self.future_balance = lay.future_balance[i + 1] if i + 1 < N else 0
        self.watch = watched_squares(lay, i)
        self.must = 0
        for b, (_p, _j, f) in enumerate(self.nbr_pos):
            if f:
                self.must |= 1 << b


def _join_moves(step: _Step, lay, closed: bool, w: list, tn: int, mask: int):
    """Give the new square (``w[W]``) the moves of ``mask``; (ok, finished)."""
    W = step.W
    finished = False
    fresh = 1000  # labels of fragments born at this step
    for b in range(len(step.nbr_pos)):
        if not mask >> b & 1:
            continue
        p = step.nbr_pos[b][0]
        a_val, b_val = w[p], w[W]
        if a_val == 1:  # the neighbour has two moves already
            return False, False
        if step.nbr_pos[b][1] in lay.ends and a_val >= 2:  # a fixed end takes one move only
            return False, False
        if a_val == 0 and b_val == 0:
            fresh += 1
            w[p] = w[W] = fresh
        elif a_val == 0:
            w[p] = b_val
            w[W] = 1
        elif b_val == 0:
            w[W] = a_val
            w[p] = 1
        elif a_val == b_val:  # closes a cycle (open: joins the tour's two ends)
            if not closed and not (lay.free_terminals == 2 and tn == 2):
                return False, False
            w[p] = w[W] = 1
            finished = True
        else:  # joins two paths: the far end of b's joins a's label
            w[p] = w[W] = 1
            if b_val in w or a_val in w:
                for t in range(W + 1):
                    if w[t] == b_val:
                        w[t] = a_val
            else:  # both far ends are terminals: a whole path
                finished = True
    return True, finished


def _open_dead(step: _Step, lay, w: list, tn2: int, short: list) -> bool:
    """An open tour's state that cannot end well: more squares that must be ends (in the
    window, or still to come: ``short``) than free ends left, ends of colours the board
    does not allow, or a path that is the whole tour while other squares wait."""
    W, i, room, ends = step.W, step.i, step.room, lay.ends
    # a square that can take one move at most (0 with room 1, a path end with room 0)
    # ends the open tour: with the ends already used, more of them than free terminals
    # is a dead state (fixed ends aside)
    forced = [step.colour[q] for q in range(W)
              if ((w[q] == 0 and room[q] == 1) or (w[q] >= 2 and room[q] == 0)) and i + 1 - W + q not in ends]
    if tn2 + len(forced) + len(short) > lay.free_terminals:
        return True
    if _colours_dead(step, lay, w, tn2, forced + short):
        return True
    # a path whose two ends take no more moves (no room, a fixed end, or gone as an end
    # of the tour) is the whole tour: dead while any other square waits for moves
    shut = [q for q in range(W) if w[q] >= 2 and (room[q] == 0 or i + 1 - W + q in ends)]
    for q in shut:
        mate = [u for u in range(W) if u != q and w[u] == w[q]]
        if not mate or mate[0] in shut:
            if step.rest_after or any(w[u] != 1 for u in range(W) if u != q and u not in mate):
                return True
    return False


def watched_squares(lay, i: int) -> list:
    """The squares still to come that may run short of moves after step ``i``: ``(back, ahead,
    need, colour)`` for each square after ``i`` with fewer moves to squares after ``i`` (``ahead``)
    than it needs (``need``: 2, or 1 for a fixed end), ``back`` the window positions (after the
    step) of its other neighbours. Every move it will take goes to one of those or ahead."""
    k, N, W, live, later = lay.k, lay.N, lay.W, lay.live, lay.later
    lo = i + 1 - W
    out = []
    for t in range(i + 1, min(N, i + 1 + W)):
        if not live[t]:
            continue
        need = 1 if t in lay.ends else 2
        ahead = len(later[t]) + sum(1 for u in range(i + 1, t) if t in later[u])
        if ahead < need:
            back = [q for q in range(W) if lo + q >= 0 and live[lo + q] and t in later[lo + q]]
            out.append((back, ahead, need, square_colour(t, k)))
    return out


def _short_of_moves(step: _Step, lay, closed: bool, w: list):
    """The look-ahead: the colours of the squares still to come that can take one move
    fewer than they need (they can only be ends of an open tour), or None when one of them
    can take fewer still (a dead state). A window square takes no more moves when it has
    two, or is a fixed end with one."""
    lo = step.i + 1 - step.W
    short = []
    for back, ahead, need, colour in step.watch:
        can = ahead + sum(1 for q in back if w[q] == 0 or (w[q] >= 2 and lo + q not in lay.ends))
        if can < need:
            if closed or can < need - 1:
                return None
            short.append(colour)
    return short


def _colours_dead(step: _Step, lay, w: list, tn2: int, forced: list) -> bool:
    """An open tour's state whose ends cannot have the colours the board asks for.

    A knight's move joins a light and a dark square, so every move still to come lowers
    the light squares' outstanding moves and the dark squares' by one each: their
    difference (the *balance*: 2 for a square without a move, 1 for a path end, 1 and 0
    for a fixed end, summed with the colour's sign over the window and the squares still
    to come) changes only when a square becomes an end of the tour, by its colour. It must
    reach 0: the free ends still to be placed must have colours summing to the balance.
    Squares that can only be ends (``forced``: their colours, in the window and still to
    come; :func:`_open_dead`) are among them."""
    W, i, ends = step.W, step.i, lay.ends
    balance = step.future_balance
    for q in range(W):
        x, j = w[q], i + 1 - W + q
        if x == 1:
            continue
        full = 1 if j in ends else 2
        balance += step.colour[q] * (full if x == 0 else full - 1)
    left = lay.free_terminals - tn2 - len(forced)
    return abs(balance - sum(forced)) > left


def _next_state(step: _Step, lay, closed: bool, base: list, tn: int, mask: int):
    """The state after the step's square takes the moves of ``mask``: its key, :data:`_WHOLE`
    when the tour is whole, or None when no tour continues from it."""
    W = step.W
    w = base[:]  # W + 1 entries, the new square last
    ok, finished = _join_moves(step, lay, closed, w, tn, mask)
    if not ok:
        return None
    # the leaving square
    v = w.pop(0)
    tn2 = tn
    if v == 0 and step.out_live:
        return None  # a square without any move
    if v >= 2:
        if closed:
            return None
        if not step.out_fixed:
            if tn2 >= lay.free_terminals:
                return None
            tn2 += 1
        if v not in w:  # its fragment's other end already left: a whole path
            finished = True
    elif step.out_fixed and v != 1:
        return None
    if lay.free_terminals == 2 and tn2 == 2 and tn < 2 and not finished:
        # both ends of the tour are placed: the two path ends joined to them (the only
        # labels without a partner) become one pair, as if joined through the tour's
        # ends; the state is a closed tour's from now on
        alone = [q for q in range(W) if w[q] >= 2 and w.count(w[q]) == 1]
        if len(alone) == 2:
            w[alone[1]] = w[alone[0]]
    if finished:
        # the tour is whole: nothing else may be pending or still to come
        return None if step.rest_after or any(x != 1 for x in w) else _WHOLE
    for q in range(W):
        x = w[q]
        if (x == 0 and step.room[q] < (2 if closed else 1)) or (x >= 2 and closed and step.room[q] < 1):
            return None
    short = _short_of_moves(step, lay, closed, w)
    if short is None or (not closed and _open_dead(step, lay, w, tn2, short)):
        return None
    return _normalise(w), tn2


def count_request(question: Question, progress=None, max_states: int = 5_000_000,
                  time_limit: float | None = None) -> FrontierCount:
    """Count the tours ``question`` asks for (closed, or open with optional fixed ends).

    Parameters
    ----------
    question : Question
        Its board: any holed board whose short side is at most :data:`MAX_SHORT_SIDE`.
        Its ``start`` and ``end``: fixed ends of an open tour; of a closed tour, both or
        neither count: the cycles through the move ``end -> start``
        (:func:`closing_move_refutes`), each once. Its ``forced`` and ``forbidden`` moves:
        moves every counted tour uses / never uses.
    progress : callable, optional
        ``progress(done, total, text)`` after each column.
    max_states : int
        Refuse (ResourceLimit) when one step holds more states than this (about 200
        bytes each).
    time_limit : float, optional
        Seconds; past them the count stops with LimitReached (an unknown, not a count).

    Returns
    -------
    FrontierCount
    """
    t0 = time.perf_counter()
    lay = sweep_layout(question, t0)
    if isinstance(lay, FrontierCount):
        return lay
    closed, start, end = question.closed, question.start, question.end
    rows, cols, k, n, N, W = lay.rows, lay.cols, lay.k, lay.n, lay.N, lay.W
    # state: (window tuple of W values, non-fixed terminals used) -> count
    # values: 0 = live square without a move, 1 = finished / hole / outside, >= 2 = path end label
    states = {((1,) * W, 0): 1}
    done = 0
    per_column = []
    peak = 1
    for i in range(N + W):  # the last W steps only flush the frontier
        on_board = i < N
        r, c = divmod(i, k)[1], i // k
        step = _Step(lay, i)
        new_states: dict = {}
        for (window, tn), cnt in states.items():
            base = list(window)
            base.append(0 if step.is_live else 1)
            for mask in range(1 << len(step.nbr_pos)):
                if mask & step.must != step.must or bin(mask).count("1") > step.cap_i:
                    continue
                key = _next_state(step, lay, closed, base, tn, mask)
                if key is _WHOLE:
                    done += cnt
                elif key is not None:
                    new_states[key] = new_states.get(key, 0) + cnt
        states = new_states
        if time_limit is not None and time.perf_counter() - t0 > time_limit:
            raise LimitReached(f"the frontier count stopped at its time limit ({time_limit:g} s) "
                               f"in column {c + 1} of {n}, with {len(states):,} states")
        if len(states) > peak:
            peak = len(states)
        if len(states) > max_states:
            raise ResourceLimit(f"the frontier holds {len(states):,} states at square {i} "
                                f"(limit {max_states:,}); the count is out of reach here")
        if on_board and r == k - 1:
            per_column.append(len(states))
            if progress is not None:
                progress(c + 1, n, f"column {c + 1} of {n}, {len(states):,} states")
        stop = lay.emptied_at(i, len(states))
        if stop:  # no partial tour goes on: nothing more can be finished
            return FrontierCount(done, closed, rows, cols, per_column, peak, time.perf_counter() - t0,
                                 start=None if closed else start, end=None if closed else end, emptied=stop)
    return FrontierCount(done, closed, rows, cols, per_column, peak, time.perf_counter() - t0,
                         start=None if closed else start, end=None if closed else end)


def count_tours(rows: int, cols: int, closed: bool = True, holes=None, start=None, end=None) -> int:
    """The number of tours of a ``rows x cols`` board (minus ``holes``), undirected."""
    return count_request(Question(Board(rows, cols, holes=holes), closed, start, end)).count
