"""Divide and conquer: big tours assembled from small certified pieces of the library.

A board is cut into *blocks* along row and column cut lines: the rows into parts
``row_parts`` (bands), the columns into ``col_parts``. Every block gets a piece of its
shape from the library (CP-SAT made, verified on load) and neighbouring blocks are
joined two at a time by the 2-move swap of ``../shared/reference.md``: the left block
holds the *port* move (r, w-1)-(r+2, w-2), the right one (r+1, w+1)-(r+3, w); both are
deleted and (r, w-1)-(r+1, w+1), (r+2, w-2)-(r+3, w) added. Vertical joins are the
transposed swap. Joining along a spanning tree of the blocks leaves one cycle (or one
path when a single odd x odd block holds an open piece).

Everything is a *successor array*: ``succ[i]`` is the square after square ``i``
(index ``row * cols + col``), -1 on holes and at the end of an open tour. Big boards
are stamped band by band with numpy broadcasting (one template per band shape), the
joins are applied all at once with index arithmetic, and a numba walk turns the
successor array into the visiting order of a :class:`~kt_formal.tours.Tour`.

Parberry's own scheme (1997: quadrants, 8-point merge of four structured tours) is
:func:`kt_formal.combine.parberry.quadrant_construct`; the successor walk is
:mod:`kt_formal.combine.walk`.

>>> t = construct(12, 13)
>>> t.check() is None, t.closed
(True, True)
>>> construct(7, 9).closed      # odd x odd: only open tours exist
False

References
----------
I. Parberry, "An efficient algorithm for the knight's tour problem", Discrete Applied
Mathematics 73 (1997). A. J. Schwenk, "Which rectangular chessboards have a knight's
tour?", Mathematics Magazine 64 (1991).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from kt_formal.board import Board, ensure_memory
from kt_formal.exceptions import InvalidInput, ProvenImpossible
from kt_formal.combine.library import PieceSpec, load_piece
from kt_formal.combine.walk import big_empty, estimate_bytes, walk
from kt_formal.theorems import rectangle_tour
from kt_formal.tours import Tour

__all__ = ["PIECE_SPECS", "PART_SIZES", "QUADRANT_SIZES", "assemble", "assemble_tour", "construct",
           "construct_succ", "split_side", "plan_parts", "tour_exists", "structured_moves", "port_edges",
           "Piece", "port_piece", "report_progress"]

#: Sizes of the parts a side is cut into (every block of the cut has a library piece).
PART_SIZES = (5, 6, 7, 8, 9, 10)

#: The nine base sizes of the quadrant scheme (Parberry's structured closed tours), in board_path.txt order.
QUADRANT_SIZES = ((6, 6), (6, 8), (8, 6), (8, 8), (8, 10), (10, 8), (10, 10), (10, 12), (12, 10))


def port_rows(h: int) -> int:
    """Local row r of the horizontal ports of a piece of height h (rows r..r+3).

    0 for every height: CP-SAT finds a piece with all four ports at offset 0 for every
    shape 5..10 x 5..10 (with centred ports 5x6 and 6x5 are impossible).
    """
    return 0


def port_edges(h: int, w: int) -> dict:
    """The four port moves of an h x w piece: left, right, top, bottom.

    ``right``/``bottom`` are the moves (a1, a2) of the first block of a join,
    ``left``/``top`` the moves (b1, b2) of the second one.

    >>> port_edges(6, 8)["right"]
    ((0, 7), (2, 6))
    """
    r = port_rows(h)
    c = port_rows(w)
    return {
        "left": ((r + 1, 1), (r + 3, 0)),
        "right": ((r, w - 1), (r + 2, w - 2)),
        "top": ((1, c + 1), (0, c + 3)),
        "bottom": ((h - 1, c), (h - 2, c + 2)),
    }


def structured_moves(h: int, w: int) -> tuple:
    """Parberry's eight structured corner moves of an h x w board.

    (0, 1)-(2, 0) and (0, 2)-(1, 0) at the top-left corner, mirrored to the others.

    >>> structured_moves(6, 6)[:2]
    (((0, 1), (2, 0)), ((0, 4), (2, 5)))
    """
    out = []
    for (a, b) in (((0, 1), (2, 0)), ((0, 2), (1, 0))):
        for flip_r in (False, True):
            for flip_c in (False, True):
                def t(p, fr=flip_r, fc=flip_c):
                    return (h - 1 - p[0] if fr else p[0], w - 1 - p[1] if fc else p[1])
                out.append((t(a), t(b)))
    return tuple(out)


def _port_spec(h: int, w: int) -> PieceSpec:
    e = port_edges(h, w)
    closed = (h * w) % 2 == 0
    return PieceSpec(f"port-{h}x{w}", h, w, closed=closed,
                     forced=(e["left"], e["right"], e["top"], e["bottom"]), kind="port", seed=0)


#: Library pieces of this combinator: a 4-port piece for every block shape, and
#: the quadrant scheme's nine structured sizes made by CP-SAT.
PIECE_SPECS = [
    *(_port_spec(h, w) for h in PART_SIZES for w in PART_SIZES),
    *(PieceSpec(f"structured-{h}x{w}", h, w, closed=True, forced=structured_moves(h, w),
                kind="structured", seed=0) for h, w in QUADRANT_SIZES),
]


# ====================================================================== existence
def tour_exists(rows: int, cols: int, closed: bool) -> tuple[bool, str]:
    """Whether an m x n board has a closed (open) tour, with the theorem as reason.

    See :func:`kt_formal.theorems.rectangle_tour`.

    >>> tour_exists(4, 9, True)
    (False, "Schwenk's theorem: a 4 x n board has no closed tour")
    """
    return rectangle_tour(rows, cols, closed)


# ====================================================================== pieces
class Piece:
    """Successor tables of one library piece in both directions, and its port directions."""

    __slots__ = ("h", "w", "closed", "succ", "start", "bits")

    def __init__(self, h: int, w: int, order: np.ndarray, closed: bool):
        k = h * w
        order = np.asarray(order, dtype=np.int64)
        fwd = np.full(k, -1, dtype=np.int64)
        bwd = np.full(k, -1, dtype=np.int64)
        nxt = np.roll(order, -1)
        if closed:
            fwd[order] = nxt
            bwd[nxt] = order
        else:
            fwd[order[:-1]] = order[1:]
            bwd[order[1:]] = order[:-1]
        self.h, self.w, self.closed = h, w, closed
        self.succ = (fwd, bwd)
        self.start = (int(order[0]), int(order[-1]))  # first square for flip 0 / flip 1
        e = port_edges(h, w)
        idx = lambda p: p[0] * w + p[1]  # noqa: E731
        # bit = 1 when the canonical tour runs a1 -> a2 (right/bottom) or b2 -> b1 (left/top)
        self.bits = {
            "right": int(fwd[idx(e["right"][0])] == idx(e["right"][1])),
            "bottom": int(fwd[idx(e["bottom"][0])] == idx(e["bottom"][1])),
            "left": int(fwd[idx(e["left"][1])] == idx(e["left"][0])),
            "top": int(fwd[idx(e["top"][1])] == idx(e["top"][0])),
        }

    def values(self, n: int, flip: int) -> np.ndarray:
        """(h, w) successor of each square as ``row * n + col`` relative to the block corner."""
        s = self.succ[flip]
        v = (s // self.w) * n + s % self.w
        v[s < 0] = 0  # the open end; fixed by the caller
        return v.reshape(self.h, self.w)


@lru_cache(maxsize=None)
def port_piece(h: int, w: int) -> Piece:
    """The library's port piece of an ``h`` x ``w`` part (its closed or open tour and ports)."""
    if h not in PART_SIZES or w not in PART_SIZES:
        raise InvalidInput(f"no library piece for a {h}x{w} block; parts must be in {PART_SIZES}")
    piece = load_piece(f"port-{h}x{w}")
    return Piece(h, w, piece.tour.order, piece.tour.closed)


# ====================================================================== parts
def _split_even(s: int) -> list[int]:
    k, rest = divmod(s, 10)
    tail = {0: [], 2: [6, 6], 4: [6, 8], 6: [6], 8: [8]}[rest]
    if rest in (2, 4):
        k -= 1
    return [10] * k + tail


def split_side(s: int, odd_part: bool) -> list[int]:
    """Cut a side of length s >= 5 into parts in :data:`PART_SIZES`.

    With ``odd_part`` False every part is even (s must be even); otherwise exactly one
    part is odd (s must be odd) and comes first. Equal parts are contiguous.

    >>> split_side(26, False), split_side(23, True)
    ([10, 10, 6], [9, 6, 8])
    """
    if odd_part != (s % 2 == 1) or s < 5 or (not odd_part and s < 6):
        raise InvalidInput(f"cannot cut a side of {s} into {'one odd and even' if odd_part else 'even'} parts")
    if not odd_part:
        return _split_even(s)
    if s in (5, 7, 9):
        return [s]
    if s in (11, 13):
        return [s - 6, 6]
    return [9] + _split_even(s - 9)


def plan_parts(rows: int, cols: int) -> tuple[list[int], list[int]]:
    """Row and column parts for an m x n board with min side >= 5.

    Every block then has even area, except one odd x odd block (at the top-left
    corner) when both sides are odd.

    >>> plan_parts(7, 12)
    ([7], [6, 6])
    """
    if min(rows, cols) < 5:
        raise InvalidInput(f"divide and conquer needs both sides >= 5, got {rows}x{cols}")
    if rows % 2 == 0 and cols % 2 == 0:
        return split_side(rows, False), split_side(cols, False)
    return split_side(rows, rows % 2 == 1), split_side(cols, cols % 2 == 1)


# ====================================================================== memory
def _apply_joins(succ, a1, a2, b1, b2, what: str) -> None:
    """2-move swaps for arrays of joins: delete a1-a2 and b1-b2, add a1-b1 and a2-b2."""
    if a1.size == 0:
        return
    fwd = succ[a1] == a2
    ok = np.where(fwd, (succ[b2] == b1), (succ[a2] == a1) & (succ[b1] == b2))
    if not ok.all():  # pragma: no cover - a bug in the orientation bookkeeping
        i = int(np.argmin(ok))
        raise RuntimeError(f"{what} join {i}: port moves missing or misoriented")
    succ[np.where(fwd, a1, a2)] = np.where(fwd, b1, b2)
    succ[np.where(fwd, b2, b1)] = np.where(fwd, a2, a1)


class _Plan:
    """Blocks, spanning tree and orientations of an assembly."""

    def __init__(self, row_parts, col_parts, missing):
        rp = np.asarray(row_parts, dtype=np.int64)
        cp = np.asarray(col_parts, dtype=np.int64)
        if rp.ndim != 1 or cp.ndim != 1 or rp.size == 0 or cp.size == 0:
            raise InvalidInput("row_parts and col_parts must be non-empty lists of sizes")
        for x in (*set(rp.tolist()), *set(cp.tolist())):
            if x not in PART_SIZES:
                raise InvalidInput(f"part size {x} has no library pieces; parts must be in {PART_SIZES}")
        p, q = rp.size, cp.size
        self.rp, self.cp, self.p, self.q = rp, cp, p, q
        self.ro = np.concatenate([[0], np.cumsum(rp)])
        self.co = np.concatenate([[0], np.cumsum(cp)])
        self.rows, self.cols = int(self.ro[-1]), int(self.co[-1])
        present = np.ones((p, q), dtype=bool)
        for blk in missing:
            try:
                i, j = (int(x) for x in blk)
            except (TypeError, ValueError):
                raise InvalidInput(f"missing block {blk!r} is not a (band, column-part) pair") from None
            if not (0 <= i < p and 0 <= j < q):
                raise InvalidInput(f"missing block ({i}, {j}) is outside the {p} x {q} block grid")
            present[i, j] = False
        if not present.any():
            raise InvalidInput("every block is missing")
        self.present = present
        self.full = bool(present.all())
        odd = (rp[:, None] % 2 == 1) & (cp[None, :] % 2 == 1) & present
        n_odd = int(odd.sum())
        if n_odd > 1:
            raise InvalidInput(f"{n_odd} odd x odd blocks: at most one can hold an (open) piece")
        self.closed = n_odd == 0
        self.odd_block = tuple(int(x) for x in np.argwhere(odd)[0]) if n_odd else None
        self._bits()
        self._tree()

    def _bits(self):
        """Port direction bits of every block's piece, (p, q) arrays per side."""
        p, q = self.p, self.q
        hs, ws = np.unique(self.rp), np.unique(self.cp)
        hi = np.searchsorted(hs, self.rp)
        wi = np.searchsorted(ws, self.cp)
        self.bits = {}
        for side in ("left", "right", "top", "bottom"):
            tab = np.array([[port_piece(int(h), int(w)).bits[side] for w in ws] for h in hs],
                           dtype=np.uint8)
            self.bits[side] = tab[hi[:, None], wi[None, :]]
        assert self.bits["left"].shape == (p, q)

    def _tree(self):
        """Horizontal joins inside runs, vertical joins along a spanning tree of runs; flips."""
        p, q, pres = self.p, self.q, self.present
        hj = pres[:, :-1] & pres[:, 1:]
        self.hjoin = hj
        # flips relative to the start of each run: cumulative parity of the joins
        hpar = np.zeros((p, q), dtype=np.uint8)
        hpar[:, 1:] = (self.bits["right"][:, :-1] ^ self.bits["left"][:, 1:]) & hj
        cx = np.bitwise_xor.accumulate(hpar, axis=1)
        starts = pres & ~np.concatenate([np.zeros((p, 1), bool), hj], axis=1)
        jidx = np.where(starts, np.arange(q)[None, :], 0)
        run_start = np.maximum.accumulate(jidx, axis=1)
        f_rel = cx ^ np.take_along_axis(cx, run_start, axis=1)
        run_id = np.cumsum(starts.ravel()).reshape(p, q) - 1
        n_runs = int(starts.sum())
        vpar = self.bits["bottom"][:-1] ^ self.bits["top"][1:] ^ f_rel[:-1] ^ f_rel[1:]
        if self.full:
            # one run per band: chain the bands at column 0
            vi = np.arange(p - 1)
            vj = np.zeros(p - 1, dtype=np.int64)
            f_run = np.concatenate([[0], np.bitwise_xor.accumulate(vpar[:, 0])]).astype(np.uint8)
        else:
            vi, vj, f_run = self._run_tree(run_id, n_runs, vpar)
        self.vi, self.vj = vi, vj
        self.flip = np.where(pres, f_run[run_id] ^ f_rel, 0).astype(np.uint8)
        self.f_run_band = f_run[run_id[:, 0]] if self.full else None

    def _run_tree(self, run_id, n_runs, vpar):
        pres = self.present
        cand = pres[:-1] & pres[1:]
        ci, cj = np.nonzero(cand)
        ra = run_id[ci, cj]
        rb = run_id[ci + 1, cj]
        # first column of each (run above, run below) pair
        key = ra * n_runs + rb
        _, first = np.unique(key, return_index=True)
        ci, cj, ra, rb = ci[first], cj[first], ra[first], rb[first]
        par = vpar[ci, cj]
        adj: list[list[tuple[int, int, int]]] = [[] for _ in range(n_runs)]
        for k, (a, b) in enumerate(zip(ra.tolist(), rb.tolist())):
            adj[a].append((b, k, 0))
            adj[b].append((a, k, 0))
        f_run = np.zeros(n_runs, dtype=np.uint8)
        seen = np.zeros(n_runs, dtype=bool)
        used = []
        seen[0] = True
        stack = [0]
        par_l = par.tolist()
        while stack:
            a = stack.pop()
            for b, k, _ in adj[a]:
                if not seen[b]:
                    seen[b] = True
                    f_run[b] = f_run[a] ^ par_l[k]
                    used.append(k)
                    stack.append(b)
        if not seen.all():
            raise InvalidInput("the blocks left after removing the missing ones are not connected")
        used = np.array(sorted(used), dtype=np.int64)
        return ci[used], cj[used], f_run


def _band_template(plan: _Plan, i: int, flips: np.ndarray, present: np.ndarray, dtype) -> np.ndarray:
    """Successors of one band as offsets from the band's first square, joins included."""
    h = int(plan.rp[i])
    n = plan.cols
    T = np.full((h, n), -1, dtype=dtype)
    cp, co = plan.cp, plan.co
    j = 0
    while j < plan.q:  # one step per run of equal widths
        w = int(cp[j])
        j1 = j
        while j1 < plan.q and cp[j1] == w:
            j1 += 1
        piece = port_piece(h, w)
        vals = np.stack([piece.values(n, 0), piece.values(n, 1)])  # (2, h, w)
        Q = j1 - j
        x0 = int(co[j])
        view = T[:, x0:x0 + Q * w].reshape(h, Q, w)
        sel = vals[flips[j:j1]]  # (Q, h, w)
        np.add(sel.transpose(1, 0, 2), (x0 + np.arange(Q, dtype=np.int64) * w)[None, :, None],
               out=view, casting="unsafe")
        gone = ~present[j:j1]
        if gone.any():
            view[:, gone, :] = -1
        j = j1
    # horizontal joins of the band (all at once)
    jj = np.flatnonzero(present[:-1] & present[1:])
    if jj.size:
        r = port_rows(h)
        X = co[jj + 1].astype(np.int64)
        Tf = T.reshape(-1)
        _apply_joins(Tf, r * n + X - 1, (r + 2) * n + X - 2, (r + 1) * n + X + 1, (r + 3) * n + X,
                     "horizontal")
    return T


def report_progress(progress, done, total, text):
    """Call ``progress(done, total, text)`` when a progress callback is given."""
    if progress is not None:
        progress(done, total, text)


def assemble(row_parts, col_parts, missing=frozenset(), *, progress=None, return_plan=False):
    """Successor array of a tour of the blocks ``row_parts x col_parts`` minus ``missing``.

    Parameters
    ----------
    row_parts, col_parts : sequences of int
        Heights of the bands and widths of the column parts, each in :data:`PART_SIZES`.
        Every present block must have even area, except at most one odd x odd block,
        which makes the result an open tour.
    missing : set of (band, column-part)
        Blocks left out (holes aligned with the cut lines); the remaining blocks must be
        connected (edge-adjacent).
    progress : callable, optional
        ``progress(done, total, text)``.
    return_plan : bool
        Also return ``(start, closed)``: the first square and whether it is a cycle.

    Returns
    -------
    numpy.ndarray
        ``succ`` over all ``rows * cols`` indices: the next square, -1 on the squares of
        missing blocks and at the end of an open tour. int32 when the board has fewer
        than 2**31 squares.

    Raises
    ------
    InvalidInput
        Parts without pieces, more than one odd x odd block, disconnected blocks.
    ResourceLimit
        When the board does not fit in memory (checked before allocating).

    Notes
    -----
    O(rows * cols) numpy work: one template per band shape stamped over all bands of
    that shape with broadcasting; joins applied as vectorised index arithmetic. Python
    loops run per band shape and per run of equal column parts (per band only when
    blocks are missing).
    """
    plan = _Plan(row_parts, col_parts, missing)
    m, n = plan.rows, plan.cols
    total = m * n
    ensure_memory(estimate_bytes(m, n), f"a tour of the {m}x{n} board")
    dtype = np.int32 if total < 2**31 else np.int64
    report_progress(progress, 0, 3, "stamping pieces")
    succ = big_empty(total, dtype)
    rp, ro = plan.rp, plan.ro
    if plan.full:
        templates = {}
        i = 0
        while i < plan.p:  # regions of equal band heights
            h = int(rp[i])
            i1 = i
            while i1 < plan.p and rp[i1] == h:
                i1 += 1
            region = succ[int(ro[i]) * n:int(ro[i1]) * n].reshape(i1 - i, h * n)
            offs = (ro[i:i1] * n).astype(dtype)
            fr = plan.f_run_band[i:i1]
            for f0 in (0, 1):
                sel = np.flatnonzero(fr == f0)
                if sel.size == 0:
                    continue
                key = (h, f0)
                if key not in templates:
                    templates[key] = _band_template(plan, i + int(sel[0]), plan.flip[i + int(sel[0])],
                                                    plan.present[i], dtype).reshape(-1)
                T = templates[key]
                step = int(sel[1] - sel[0]) if sel.size > 1 else 1
                if np.all(np.diff(sel) == step):
                    sl = slice(int(sel[0]), int(sel[-1]) + 1, step)
                    np.add(T[None, :], offs[sl][:, None], out=region[sl])
                else:
                    for b in sel.tolist():
                        np.add(T, offs[b], out=region[b])
            i = i1
    else:
        cache = {}
        for i in range(plan.p):
            h = int(rp[i])
            key = (h, plan.flip[i].tobytes(), plan.present[i].tobytes())
            T = cache.get(key)
            if T is None:
                T = cache[key] = _band_template(plan, i, plan.flip[i], plan.present[i], dtype).reshape(-1)
            band = succ[int(ro[i]) * n:int(ro[i + 1]) * n]
            np.add(T, T.dtype.type(ro[i] * n), out=band)
            band[T < 0] = -1
    report_progress(progress, 1, 3, "joining bands")
    # vertical joins (all at once)
    vi, vj = plan.vi.astype(np.int64), plan.vj.astype(np.int64)
    if vi.size:
        Y = ro[vi + 1].astype(np.int64)
        X = plan.co[vj].astype(np.int64)
        c = np.array([port_rows(int(w)) for w in plan.cp], dtype=np.int64)[vj]
        _apply_joins(succ, (Y - 1) * n + X + c, (Y - 2) * n + X + c + 2,
                     (Y + 1) * n + X + c + 1, Y * n + X + c + 3, "vertical")
    start = 0
    if not plan.closed:
        bi, bj = plan.odd_block
        piece = port_piece(int(rp[bi]), int(plan.cp[bj]))
        f = int(plan.flip[bi, bj])
        first, last = piece.start[f], piece.start[1 - f]
        y0, x0 = int(ro[bi]), int(plan.co[bj])
        start = (y0 + first // piece.w) * n + x0 + first % piece.w
        succ[(y0 + last // piece.w) * n + x0 + last % piece.w] = -1
    else:
        start = int(np.argmax(succ >= 0)) if not plan.full else 0
    report_progress(progress, 2, 3, "assembled")
    if return_plan:
        return succ, (start, plan.closed)
    return succ


def _missing_board(row_parts, col_parts, missing) -> Board:
    ro = np.concatenate([[0], np.cumsum(row_parts)])
    co = np.concatenate([[0], np.cumsum(col_parts)])
    m, n = int(ro[-1]), int(co[-1])
    if not missing:
        return Board(m, n)
    mask = np.zeros((m, n), dtype=bool)
    for i, j in missing:
        mask[ro[i]:ro[i + 1], co[j]:co[j + 1]] = True
    return Board(m, n, holes=mask)


def assemble_tour(row_parts, col_parts, missing=frozenset(), *, progress=None) -> Tour:
    """:func:`assemble`, walked into a :class:`Tour` of the board minus the missing blocks.

    The tour is not verified here: callers pass it to the independent checker
    (``tour.check()`` or ``engines.base.found``).

    >>> t = assemble_tour([6, 6, 6], [6, 6, 6], missing={(1, 1)})
    >>> t.board.describe(), t.check() is None
    ('18x18 minus 36 squares', True)
    """
    missing = frozenset(tuple(int(x) for x in b) for b in missing)
    succ, (start, closed) = assemble(row_parts, col_parts, missing, progress=progress, return_plan=True)
    board = _missing_board(row_parts, col_parts, missing)
    order = walk(succ, start, board.n_squares)
    del succ
    report_progress(progress, 3, 3, "walked")
    return Tour(board, order, closed)


def construct_succ(rows: int, cols: int, *, progress=None):
    """``(succ, start, closed)`` of the general construction on a full m x n board, min side >= 5."""
    rp, cp = plan_parts(rows, cols)
    succ, (start, closed) = assemble(rp, cp, progress=progress, return_plan=True)
    return succ, start, closed


def construct(rows: int, cols: int, closed: bool | None = None, *, progress=None) -> Tour:
    """A tour of the m x n board by divide and conquer (min side >= 5).

    Parameters
    ----------
    rows, cols : int
    closed : bool or None
        None: closed when the board has even area, else open. True on an odd x odd
        board raises ProvenImpossible; False on an even board gives the closed tour
        with its closing move dropped.

    Returns
    -------
    Tour
        Not yet verified (the divide engine and the tests verify it).

    Raises
    ------
    ProvenImpossible
        A closed tour of an odd x odd board (colour count).
    InvalidInput
        A side below 5 (see :mod:`kt_formal.combine.strips`).
    """
    if min(rows, cols) < 5:
        raise InvalidInput(f"divide and conquer needs both sides >= 5, got {rows}x{cols}")
    ok, reason = tour_exists(rows, cols, True if closed is None else closed)
    if closed and not ok:
        raise ProvenImpossible(reason)
    ensure_memory(estimate_bytes(rows, cols), f"a tour of the {rows}x{cols} board")
    succ, start, cyc = construct_succ(rows, cols, progress=progress)
    order = walk(succ, start, rows * cols)
    del succ
    report_progress(progress, 3, 3, "walked")
    return Tour(Board(rows, cols), order, cyc if closed is None else (closed and cyc))

