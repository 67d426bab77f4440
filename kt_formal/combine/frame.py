"""Frames around holes: the rotation and support models (Yang and Liu 2011), and their generalisation.

An *element* is a small open tour with fixed ends (Yang & Liu 2011, 1-based in the
paper, 0-based here): element **A** is an n x m tour from (0, 0) to (1, m-2), element
**B** an n1 x m1 tour from (0, 0) to (n1-1, 2). The end of an A is a knight move from
the start of the next A placed to its right, and the end of a B from the start of the
next B placed below it, so elements chain without limit.

* **Unary rotation model**: w_h copies of A along the bottom, A rotated 180 degrees
  along the top, A transposed (the paper's "rotated 270 degrees, columns reversed")
  down the left side and A anti-transposed ("rotated 90 degrees, columns reversed") up
  the right side: a closed tour of the (2n + w_v m) x (w_h m) board minus a centred
  (w_v m) x (w_h m - 2n) hole, 2(w_v + w_h)mn moves.
* **Binary support model**: A along top and bottom, B stacked down the left side and
  B rotated 180 degrees up the right side: board (2n + w_v n1) x (w_h m), hole
  (w_v n1) x (w_h m - 2 m1), 2 w_h m n + 2 w_v m1 n1 moves (the paper prints
  2 w_h mn + 2 w_v mn, a misprint: its own 84-move example needs m1 n1).

Both number the tour from the top-left square, in the paper's direction (down the left
side first).

Beyond the paper, :func:`kt_formal.combine.frame_large.frame_tour` builds a closed tour of a large board minus a
rectangular hole anywhere (each margin at least 3 squares, not 4): the top band, the left
side, the bottom band and the right side are each a *band*, a big element A built from
small library pieces (:func:`band_path`), placed as in the rotation model. A band of
height up to 40 is a chain of A elements of that height; a taller band is a row of
vertical *strips*, each a column of B elements going down, one A across the bottom,
B's rotated 180 degrees going up and a *cap* piece on top. Identical pieces are stamped
with numpy, so a 2000 x 2000 board takes well under a second. Several holes that
horizontal (or vertical) cuts separate get one frame per slab, and neighbouring cycles
are joined by swapping two moves across the cut.

>>> t = rotation_model("3x8", 1, 1)
>>> t.board.describe(), len(t), t.check() is None, t.start
('14x8 minus 16 squares', 96, True, (0, 0))

References
----------
Yang Kechang, Liu Zhihui, "Knight's circuit tour on a chessboard with holes" (含空洞的
马步型哈密顿圈探索), Journal of Hunan Institute of Science and Technology 24(1), 2011.
"""

from __future__ import annotations

import re
import numpy as np

from kt_formal.board import Board, ensure_memory, transform_coords
from kt_formal.exceptions import InvalidInput, NotApplicable
from kt_formal.combine.library import PieceSpec
from kt_formal.tours import Tour

__all__ = ["PIECE_SPECS", "PAPER_A_ELEMENTS", "PAPER_B_ELEMENTS", "element_a_spec", "element_b_spec",
           "cap_spec", "piece_path", "rotation_model", "support_model", "band_path", "NotApplicable",
           "place_path"]

#: The elements the paper lists.
PAPER_A_ELEMENTS: tuple[tuple[int, int], ...] = ((3, 7), (3, 8), (3, 9), (3, 10), (5, 5), (5, 6))
PAPER_B_ELEMENTS: tuple[tuple[int, int], ...] = ((3, 9), (3, 11), (4, 3), (4, 5), (5, 5))


# ---------------------------------------------------------------------- specs
def element_a_spec(n: int, m: int) -> PieceSpec:
    """Element A: an n x m open tour from (0, 0) to (1, m-2)."""
    return PieceSpec(f"element-A-{n}x{m}", n, m, closed=False, start=(0, 0), end=(1, m - 2),
                     kind="element-A")


def element_b_spec(n1: int, m1: int) -> PieceSpec:
    """Element B: an n1 x m1 open tour from (0, 0) to (n1-1, 2)."""
    return PieceSpec(f"element-B-{n1}x{m1}", n1, m1, closed=False, start=(0, 0), end=(n1 - 1, 2),
                     kind="element-B")


def cap_spec(c: int, u: int) -> PieceSpec:
    """Cap of a tall strip: a c x u open tour from (c-1, u-1) to (1, u-2)."""
    return PieceSpec(f"frame-cap-{c}x{u}", c, u, closed=False, start=(c - 1, u - 1), end=(1, u - 2),
                     kind="frame-cap")


#: Strip types of tall bands: width -> (down width, up width, bottom heights, up heights, caps)
_STRIPS = {
    10: (5, 5, (5, 6, 7), (5, 6), (5, 7)),
    12: (5, 7, (5, 6, 7), (5, 6), (5, 7)),
    11: (5, 6, (5, 7), (6, 8), (6, 8)),
}
_DOWN_HEIGHTS = (5, 6)


def _strip_specs() -> list[PieceSpec]:
    specs = []
    for w, (u1, u2, bottoms, ups, caps) in _STRIPS.items():
        specs += [element_b_spec(b, u1) for b in _DOWN_HEIGHTS]
        specs += [element_b_spec(b, u2) for b in ups]
        specs += [element_a_spec(t, w) for t in bottoms]
        specs += [cap_spec(c, u2) for c in caps]
    return specs


def _unique(specs):
    seen = {}
    for s in specs:
        seen.setdefault(s.name, s)
    return list(seen.values())


def _band_specs() -> list[PieceSpec]:
    """A elements of every band height up to 40 (not 4: none exist) in widths 10, 12 (11 if odd)."""
    return [element_a_spec(H, w) for H in range(3, 41) if H != 4
            for w in ((10, 11, 12) if H % 2 else (10, 12))]


#: Library pieces of this module: the paper's elements, the pieces of tall strips and the
#: A elements of thin bands.
PIECE_SPECS: list[PieceSpec] = _unique(
    [element_a_spec(n, m) for n, m in PAPER_A_ELEMENTS]
    + [element_b_spec(n, m) for n, m in PAPER_B_ELEMENTS]
    + _strip_specs()
    + _band_specs()
)


# ---------------------------------------------------------------------- pieces
_PATHS: dict[str, np.ndarray | None] = {}
_TIMED_OUT: set[str] = set()


def _colour_feasible(spec: PieceSpec) -> bool:
    """The colour condition for an open path with these ends (necessary, not sufficient)."""
    area = spec.rows * spec.cols
    same = (sum(spec.start) + sum(spec.end)) % 2 == 0
    if area % 2 == 0:
        return not same
    return same and sum(spec.start) % 2 == 0


def piece_path(spec: PieceSpec, time_limit: float = 60.0) -> np.ndarray | None:
    """Local (row, col) squares of a piece in visiting order, or None if none exists.

    Taken from the library (verified on load) when it holds the piece, else built with
    CP-SAT and kept for the process. None only when the colour condition fails or CP-SAT
    proved that no such tour exists.

    Raises
    ------
    NotApplicable
        If CP-SAT ran out of time (nothing is known about the piece).
    """
    if spec.name in _PATHS:
        return _PATHS[spec.name]
    if spec.name in _TIMED_OUT:
        raise NotApplicable(f"CP-SAT found no {spec.name} earlier within its time limit")
    from kt_formal.combine import library

    path = None
    if not _colour_feasible(spec):
        _PATHS[spec.name] = None
        return None
    if (library.models_dir() / f"{spec.name}.json").exists():
        piece = library.load_piece(spec.name)
        if piece.spec.board() == spec.board() and (piece.spec.start, piece.spec.end) == (spec.start, spec.end):
            path = piece.tour
    if path is None:
        from kt_formal.engines import cpsat
        from kt_formal.question import Limits, Status, Question

        request = Question(spec.board(), closed=False, start=spec.start, end=spec.end)
        result = cpsat.CpSat().run(request, Limits(time_limit, seed=spec.seed, threads=2))
        if result.status is Status.LIMIT:
            _TIMED_OUT.add(spec.name)
            raise NotApplicable(f"CP-SAT found no {spec.name} within {time_limit:g} s")
        path = result.tour if result.found else None
    arr = None
    if path is not None:
        r, c = path.coords()
        arr = np.stack([r, c], axis=1).astype(np.int64)
    _PATHS[spec.name] = arr
    return arr


def _exists(spec: PieceSpec) -> bool:
    """Whether the piece is at hand (False also when CP-SAT ran out of time on it)."""
    try:
        return piece_path(spec, time_limit=20.0) is not None
    except NotApplicable:
        return False


def _need(spec: PieceSpec) -> np.ndarray:
    arr = piece_path(spec)
    if arr is None:
        raise NotApplicable(f"{spec.name} has no tour (open {spec.rows}x{spec.cols} from "
                            f"{spec.start} to {spec.end})")
    return arr


def place_path(path: np.ndarray, rows: int, cols: int, sym: str, dr: int, dc: int) -> np.ndarray:
    """Squares of a rows x cols path after a symmetry and a shift."""
    r, c, _, _ = transform_coords(path[:, 0], path[:, 1], rows, cols, sym)
    return np.stack([r + dr, c + dc], axis=1)


def _stamp(path: np.ndarray, offsets) -> np.ndarray:
    """Copies of ``path`` at each (dr, dc) offset, in that order, concatenated."""
    off = np.asarray(offsets, dtype=np.int64).reshape(-1, 1, 2)
    return (path[None, :, :] + off).reshape(-1, 2)


def _chain(pieces, step_axis: int):
    """Stamp groups [(path, size, count)] one after the other along an axis; (squares, extent)."""
    parts, pos = [], 0
    for path, size, count in pieces:
        if count == 0:
            continue
        off = np.zeros((count, 2), dtype=np.int64)
        off[:, step_axis] = pos + size * np.arange(count)
        parts.append(_stamp(path, off))
        pos += size * count
    return (np.concatenate(parts) if parts else np.empty((0, 2), np.int64)), pos


# ---------------------------------------------------------------------- the paper's models
def _parse_size(x, what: str) -> tuple[int, int]:
    if isinstance(x, str):
        m = re.fullmatch(r"\s*(\d+)\s*[xX]\s*(\d+)\s*", x)
        if not m:
            raise InvalidInput(f"{what} {x!r} is not of the form NxM (e.g. 3x8)")
        return int(m.group(1)), int(m.group(2))
    try:
        n, m = (int(v) for v in x)
    except (TypeError, ValueError):
        raise InvalidInput(f"{what} {x!r} is not a size NxM") from None
    return n, m


def _count(x, what: str) -> int:
    if isinstance(x, bool) or not isinstance(x, (int, np.integer)) or x < 1:
        raise InvalidInput(f"{what} must be a whole number at least 1, got {x!r}")
    return int(x)


def _element(spec: PieceSpec, what: str) -> np.ndarray:
    if spec.rows < 1 or spec.cols < 3 or spec.rows > 40 or spec.cols > 40 or spec.rows * spec.cols < 3:
        raise InvalidInput(f"{what} {spec.rows}x{spec.cols} is out of range (sides 1..40, at least 3 columns)")
    if spec.end[0] >= spec.rows or spec.end[1] >= spec.cols or spec.end == spec.start:
        raise InvalidInput(f"{what} {spec.rows}x{spec.cols} is too small for its ends {spec.start} and {spec.end}")
    try:
        arr = piece_path(spec)
    except NotApplicable as exc:
        raise InvalidInput(f"{what} {spec.rows}x{spec.cols}: {exc}") from None
    if arr is None:
        raise InvalidInput(f"{what} {spec.rows}x{spec.cols} does not exist: no open tour from "
                           f"{spec.start} to {spec.end} (colour count or CP-SAT proof)")
    return arr


def _cycle_tour(rows: int, cols: int, hole, parts) -> Tour:
    order_rc = np.concatenate(parts)
    holes = [hole] if hole is not None else []
    board = Board.from_spec(rows, cols, holes)
    order = order_rc[:, 0] * cols + order_rc[:, 1]
    i = int(np.flatnonzero(order == 0)[0]) if (order == 0).any() else 0
    return Tour(board, np.roll(order, -i), closed=True)


def _frame(top, left, bottom, right, n: int, side_w: int, side_h: int, wh: int, wv: int, m: int):
    """Assemble: bottom row of A, sides of height wv*side_h, top row of rotated A."""
    R, C = 2 * n + wv * side_h, wh * m
    a = top
    # left side: top to bottom; bottom: left to right; right: bottom to top; top: right to left
    left_part = _stamp(left, [(n + i * side_h, 0) for i in range(wv)])
    bottom_part = _stamp(bottom, [(n + wv * side_h, j * m) for j in range(wh)])
    right_part = _stamp(right, [(n + i * side_h, C - side_w) for i in reversed(range(wv))])
    top_part = _stamp(a, [(0, j * m) for j in reversed(range(wh))])
    hole_w = C - 2 * side_w
    hole = (n, side_w, wv * side_h, hole_w) if hole_w > 0 else None
    return _cycle_tour(R, C, hole, [left_part, bottom_part, right_part, top_part])


def _frame_counts(n: int, m: int, side: tuple[int, int], wh, wv, twice: str, model: str):
    """``(wh, wv)`` checked for a frame of n x m elements along the top and bottom and
    ``side`` (rows, columns) elements down each side: whole numbers, side elements that
    do not overlap (``twice`` names twice their width), and the memory to build it."""
    wh, wv = _count(wh, "wh"), _count(wv, "wv")
    if wh * m < 2 * side[1]:
        raise InvalidInput(f"wh*m = {wh * m} is less than {twice} = {2 * side[1]}: the side elements would overlap")
    ensure_memory(48.0 * (2 * n + wv * side[0]) * wh * m, model)
    return wh, wv


def rotation_model(element, wh: int, wv: int) -> Tour:
    """The unary rotation model: a closed tour around a centred hole.

    Parameters
    ----------
    element : "NxM" or (n, m)
        Size of element A (an open tour from (0, 0) to (1, m-2)).
    wh, wv : int
        Elements along the top and bottom, and down each side.

    Returns
    -------
    Tour
        Closed tour of the (2n + wv m) x (wh m) board minus the (wv m) x (wh m - 2n)
        hole at (n, n), numbered from the top-left square; ``wh m == 2n`` gives the
        paper's hole-free boards.

    Raises
    ------
    InvalidInput
        When wh m < 2n (the sides would overlap) or the element has no tour.

    Examples
    --------
    >>> rotation_model("5x5", 2, 1).board.describe()   # m = n: no hole
    '15x10'
    """
    n, m = _parse_size(element, "element A")
    wh, wv = _frame_counts(n, m, (m, n), wh, wv, "2n", "the rotation model")
    a = _element(element_a_spec(n, m), "element A")
    top = place_path(a, n, m, "rot180", 0, 0)
    left = place_path(a, n, m, "transpose", 0, 0)       # rotated 270 degrees, columns reversed
    right = place_path(a, n, m, "antitranspose", 0, 0)  # rotated 90 degrees, columns reversed
    return _frame(top, left, a, right, n, n, m, wh, wv, m)


def support_model(a, b, wh: int, wv: int) -> Tour:
    """The binary support model: A along top and bottom, B stacked on the sides.

    Parameters
    ----------
    a : "NxM" or (n, m)
        Element A (open tour from (0, 0) to (1, m-2)).
    b : "N1xM1" or (n1, m1)
        Element B (open tour from (0, 0) to (n1-1, 2)).
    wh, wv : int
        A's along top and bottom, B's down each side.

    Returns
    -------
    Tour
        Closed tour of the (2n + wv n1) x (wh m) board minus the (wv n1) x (wh m - 2 m1)
        hole at (n, m1), numbered from the top-left square.

    Raises
    ------
    InvalidInput
        When wh m < 2 m1, or an element has no tour.

    Examples
    --------
    >>> t = support_model("3x10", "4x3", 1, 1)
    >>> t.board.describe(), len(t)
    ('10x10 minus 16 squares', 84)
    """
    n, m = _parse_size(a, "element A")
    n1, m1 = _parse_size(b, "element B")
    wh, wv = _frame_counts(n, m, (n1, m1), wh, wv, "2*m1", "the support model")
    pa = _element(element_a_spec(n, m), "element A")
    pb = _element(element_b_spec(n1, m1), "element B")
    top = place_path(pa, n, m, "rot180", 0, 0)
    right = place_path(pb, n1, m1, "rot180", 0, 0)
    return _frame(top, pb, pa, right, n, m1, n1, wh, wv, m)


# ---------------------------------------------------------------------- bands
def _compose(total: int, sizes) -> list[tuple[int, int]] | None:
    """``total`` as a sum of at most two of ``sizes`` (in preference order): [(size, count)]."""
    sizes = list(sizes)
    for s in sizes:
        if total % s == 0:
            return [(s, total // s)]
    for i, a in enumerate(sizes):
        for b in sizes[i + 1:]:
            for y in range(0, a + 1):  # few of b, many of a
                rest = total - y * b
                if rest < 0:
                    break
                if rest % a == 0:
                    return [(a, rest // a), (b, y)]
    return None


def _compose_any(total: int, sizes) -> list[tuple[int, int]] | None:
    """Like :func:`_compose` but with any number of distinct sizes (small totals)."""
    best = _compose(total, sizes)
    if best is not None:
        return best
    reach = {0: []}
    for t in range(1, total + 1):
        for s in sizes:
            if t - s in reach:
                reach[t] = reach[t - s] + [s]
                break
    if total not in reach:
        return None
    counts: dict[int, int] = {}
    for s in reach[total]:
        counts[s] = counts.get(s, 0) + 1
    return list(counts.items())


def _a_chain(H: int, W: int) -> np.ndarray:
    """Band of height H (small) as a chain of A elements of height H."""
    if W <= 16:
        widths = [(W, 1)]
    else:
        for pool in ((10, 12, 11), (10, 12, 11, 9, 8, 13, 14, 7)):  # library widths first
            cands = [w for w in pool if (H % 2 == 1 or w % 2 == 0) and _exists(element_a_spec(H, w))]
            widths = _compose_any(W, cands)
            if widths is not None:
                break
        if widths is None:
            raise NotApplicable(f"width {W} is not a sum of A-element widths {cands} of height {H}")
    groups = [(_need(element_a_spec(H, w)), w, k) for w, k in widths]
    out, _ = _chain(groups, 1)
    return out


def _strip(H: int, w: int) -> np.ndarray:
    """A tall strip H x w from (0, 0) to (1, w-2): B's down, an A across, B's up, a cap."""
    u1, u2, bottoms, ups, caps = _STRIPS[w]
    for t in bottoms:
        if not _exists(element_a_spec(t, w)):
            continue
        a = _need(element_a_spec(t, w))
        down = _compose(H - t, _DOWN_HEIGHTS)
        if down is None:
            continue
        for c in caps:
            if not _exists(cap_spec(c, u2)):
                continue
            cap = _need(cap_spec(c, u2))
            up = _compose(H - t - c, ups)
            if up is None or not all(_exists(element_b_spec(b, u2)) for b, _ in up):
                continue
            if not all(_exists(element_b_spec(b, u1)) for b, _ in down):
                continue
            down_part, _ = _chain([(_need(element_b_spec(b, u1)), b, k) for b, k in down], 0)
            bottom = a + np.array([H - t, 0])
            # up: B rotated 180 degrees, stacked from the bottom up
            ups_sq, pos = [], H - t
            for b, k in up:
                pb = place_path(_need(element_b_spec(b, u2)), b, u2, "rot180", 0, u1)
                offs = [(pos - (i + 1) * b, 0) for i in range(k)]
                ups_sq.append(_stamp(pb, offs))
                pos -= b * k
            cap_sq = cap + np.array([0, u1])
            return np.concatenate([down_part, bottom, *ups_sq, cap_sq])
    raise NotApplicable(f"no strip of width {w} fits height {H}")


def band_path(H: int, W: int) -> np.ndarray:
    """A big element A: an open tour of H x W from (0, 0) to (1, W-2), as (k, 2) squares.

    Raises
    ------
    NotApplicable
        When the pieces at hand cannot make it (e.g. H < 3, or H even and W odd, which the
        colour count forbids).
    """
    if H < 3 or W < 5:
        raise NotApplicable(f"a band of {H}x{W} is too thin (the construction needs 3 rows and 5 columns)")
    if H == 4:
        raise NotApplicable(f"a {H}x{W} band has no tour between its ends: a path there must "
                            "alternate outer and inner rows and colours at once (Posa)")
    if H % 2 == 0 and W % 2 == 1:
        raise NotApplicable(f"a {H}x{W} band has no tour between its ends (colour count)")
    if H <= 40:
        return _a_chain(H, W)
    widths = [10, 12] + ([11] if H % 2 == 1 else [])
    if W % 2 == 1:
        rest = _compose(W - 11, [10, 12]) if W >= 11 else None
        comp = None if rest is None else rest + [(11, 1)]
    else:
        comp = _compose(W, [10, 12])
    if comp is None:
        raise NotApplicable(f"width {W} is not a sum of strip widths {widths}")
    groups = [(_strip(H, w), w, k) for w, k in comp if k]
    out, _ = _chain(groups, 1)
    return out


# ---------------------------------------------------------------------- large boards


