"""The plan of the hole repair: the holes grouped into colour-balanced clusters (a matching of dark and light holes, near ones first), and for each cluster the steps, windows along the way between its holes, that the repair re-routes one after the other."""

from __future__ import annotations

import numpy as np
from kt_formal.combine.blocks_layout import DisjointSets

__all__ = ["RepairNotApplicable", "hole_groups", "clusters", "Step", "plan", "DENSE_MATCH", "HOP",
           "KNIGHT_MOVES"]


#: the eight knight moves (row change, column change), in the order the repair's kernels number them
KNIGHT_MOVES = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))


class RepairNotApplicable(Exception):
    """The hole repair does not apply to this board, or a window could not be re-routed."""


def _components(hole_rc: np.ndarray, rows: int, cols: int) -> np.ndarray:
    """Label of each hole's 8-connected group of holes (scipy's image labelling)."""
    from scipy.ndimage import label

    mask = np.zeros((rows, cols), dtype=bool)
    mask[hole_rc[:, 0], hole_rc[:, 1]] = True
    labels, _ = label(mask, structure=np.ones((3, 3), dtype=bool))
    return labels[hole_rc[:, 0], hole_rc[:, 1]].astype(np.int64)


#: Above this many tokens the matching runs in chunks along a Hilbert curve.
DENSE_MATCH = 2500


def _hilbert(points: np.ndarray) -> np.ndarray:
    """Index of each (row, col) point along a Hilbert curve over the board (nearby points, nearby indices)."""
    y = points[:, 0].astype(np.int64)
    x = points[:, 1].astype(np.int64)
    side = 1 << max(1, int(max(int(y.max()), int(x.max())) + 1).bit_length())
    d = np.zeros(len(points), dtype=np.int64)
    s = side // 2
    while s > 0:
        rx = (x & s) > 0
        ry = (y & s) > 0
        d += s * s * ((3 * rx.astype(np.int64)) ^ ry.astype(np.int64))
        flip = ~ry & rx
        x = np.where(flip, side - 1 - x, x)
        y = np.where(flip, side - 1 - y, y)
        swap = ~ry
        x, y = np.where(swap, y, x), np.where(swap, x, y)
        s //= 2
    return d


def _match(pd: np.ndarray, pl: np.ndarray) -> np.ndarray:
    """For each point of ``pd`` the index of its partner in ``pl`` (least total squared distance).

    Exact (scipy's ``linear_sum_assignment``) up to :data:`DENSE_MATCH` points a colour.
    Above, two near-optimal matchings in time about linear in the points (an exact sparse
    matching took minutes at 3,000 points a colour), and the one whose pairs need fewer
    hops: the points of both colours in chunks along a Hilbert curve, each chunk matched
    exactly with the points the chunks before it left over (the excess of one colour)
    and leaving over its own; or matched in tiles (:func:`_match_in_tiles`). A pair left
    long is walked in hops (:func:`plan`).
    """
    n = len(pd)
    out = np.full(n, -1, dtype=np.int64)
    if n == 0:
        return out
    if n <= DENSE_MATCH:
        r, c = _exact(pd, pl, np.arange(n), np.arange(n))
        out[r] = c
        return out
    along, tiled = _match_along_curve(pd, pl), _match_in_tiles(pd, pl)
    return min((along, tiled), key=lambda m: _hop_steps(np.abs(pd - pl[m]).sum(axis=1)))


def _exact(pd: np.ndarray, pl: np.ndarray, di: np.ndarray, li: np.ndarray):
    """The exact matching of the points ``pd[di]`` with ``pl[li]`` (least total squared
    distance, scipy's ``linear_sum_assignment``): the indices paired, ``(di[r], li[c])``."""
    from scipy.optimize import linear_sum_assignment

    r, c = linear_sum_assignment(((pd[di][:, None, :] - pl[li][None, :, :]) ** 2).sum(axis=2))
    return di[r], li[c]


def _hop_steps(lengths: np.ndarray) -> int:
    """Waypoints of pairs of these lengths (L1): the windows walking them add (:func:`plan`)."""
    return int(np.maximum(0, np.ceil(lengths / HOP) - 1).sum())


def _match_in_tiles(pd: np.ndarray, pl: np.ndarray) -> np.ndarray:
    """Pairs matched exactly inside tiles of about :data:`DENSE_MATCH` points, the points a
    tile leaves over matched inside tiles twice as wide, and so on up to the whole board.

    Most pairs are as short as the exact matching's; the colour excess of a region travels
    in a few long pairs. Along the curve (:func:`_match_along_curve`) the excess is spread
    over many medium pairs instead; :func:`_match` keeps whichever needs fewer waypoints
    (on 10000 x 10000 with 40,000 scattered holes: 108,792 against 185,856).
    """
    n = len(pd)
    out = np.full(n, -1, dtype=np.int64)
    pts = np.concatenate([pd, pl])
    lo, span = pts.min(axis=0), np.ptp(pts, axis=0) + 1e-9
    t = 1 << max(0, int(np.ceil(np.log2(np.sqrt(2 * n / DENSE_MATCH)))))
    cell = np.minimum(((pts - lo) / span * t).astype(np.int64), t - 1)
    di_all, li_all = np.arange(n), np.arange(n)
    while len(di_all):
        td, tl = cell[di_all, 0] * t + cell[di_all, 1], cell[n + li_all, 0] * t + cell[n + li_all, 1]
        od, ol = np.argsort(td, kind="stable"), np.argsort(tl, kind="stable")
        di_all, li_all, td, tl = di_all[od], li_all[ol], td[od], tl[ol]
        bd, bl = np.searchsorted(td, np.arange(t * t + 1)), np.searchsorted(tl, np.arange(t * t + 1))
        keep_d, keep_l = [], []
        for g in range(t * t):
            di, li = di_all[bd[g]:bd[g + 1]], li_all[bl[g]:bl[g + 1]]
            if len(di) and len(li):
                pd_i, pl_i = _exact(pd, pl, di, li)
                out[pd_i] = pl_i
                di, li = di[out[di] < 0], li[~np.isin(li, pl_i)]
            keep_d.append(di)
            keep_l.append(li)
        di_all, li_all = np.concatenate(keep_d), np.concatenate(keep_l)
        t, cell = max(1, t // 2), cell // 2
    return out


def _match_along_curve(pd: np.ndarray, pl: np.ndarray) -> np.ndarray:
    """Pairs matched in chunks along a Hilbert curve (see :func:`_match`)."""
    n = len(pd)
    out = np.full(n, -1, dtype=np.int64)
    pts = np.concatenate([pd, pl]).round()
    order = np.argsort(_hilbert(pts), kind="stable")
    rank = np.empty(2 * n, dtype=np.int64)
    rank[order] = np.arange(2 * n)
    half = DENSE_MATCH // 2
    left_d = left_l = np.zeros(0, dtype=np.int64)
    for k in range(0, 2 * n, half):
        # a sliding window along the curve: the points not yet paired and the next half
        # chunk; pairs reaching into the older half are kept, the others matched again
        # with the next half (the last points of the colour in excess wait too)
        part = order[k:k + half]
        di = np.concatenate([left_d, part[part < n]])
        li = np.concatenate([left_l, part[part >= n] - n])
        m = min(len(di), len(li))
        di, left_d = di[:m], di[m:]
        li, left_l = li[:m], li[m:]
        if not m:
            continue
        last = k + half >= 2 * n
        pd_i, pl_i = _exact(pd, pl, di, li)
        keep = last | (np.minimum(rank[pd_i], rank[n + pl_i]) < k)
        out[pd_i[keep]] = pl_i[keep]
        wait_d, wait_l = pd_i[~keep], pl_i[~keep]
        order_d = np.argsort(rank[np.concatenate([wait_d, left_d])], kind="stable")
        order_l = np.argsort(rank[n + np.concatenate([wait_l, left_l])], kind="stable")
        left_d = np.concatenate([wait_d, left_d])[order_d]
        left_l = np.concatenate([wait_l, left_l])[order_l]
    if len(left_d) or len(left_l) or (out < 0).any():  # pragma: no cover - the counts are equal
        raise RuntimeError("the chunked matching left points unpaired")
    return out


def hole_groups(holes: np.ndarray) -> np.ndarray:
    """The sizes of the 8-connected groups of holes.

    >>> m = np.zeros((6, 6), dtype=bool); m[0, 0] = m[1, 1] = m[4, 4] = True
    >>> sorted(hole_groups(m).tolist())
    [1, 2]
    """
    hole_rc = np.argwhere(holes)
    if len(hole_rc) == 0:
        return np.zeros(0, dtype=np.int64)
    comp = _components(hole_rc, *holes.shape)
    return np.unique(comp, return_counts=True)[1]


def _units(holes: np.ndarray):
    """The 8-connected groups of holes and the pairs of groups that balance their colours.

    Returns ``(hole_rc, unit, excess, centre, pairs)``: each hole's unit, each unit's
    dark-minus-light count and centre (row, col floats), and the token pairs
    ``(dark-excess unit, light-excess unit)``, one per square of excess.
    """
    rows, cols = holes.shape
    hole_rc = np.argwhere(holes)
    comp = _components(hole_rc, rows, cols)
    labels, inv = np.unique(comp, return_inverse=True)
    k = len(labels)
    dark = ((hole_rc[:, 0] + hole_rc[:, 1]) % 2 == 1).astype(np.int64)
    excess = np.bincount(inv, weights=2 * dark - 1, minlength=k).astype(np.int64)
    if excess.sum() != 0:
        raise RepairNotApplicable("the holes take more squares of one colour than of the other")
    centre = np.stack([np.bincount(inv, weights=hole_rc[:, 0], minlength=k),
                       np.bincount(inv, weights=hole_rc[:, 1], minlength=k)], axis=1)
    centre /= np.bincount(inv, minlength=k)[:, None]
    # one token per square of excess; dark-excess tokens matched to light-excess ones
    # at the least total squared distance (scipy's assignment solvers)
    tok_d = np.repeat(np.nonzero(excess > 0)[0], excess[excess > 0])
    tok_l = np.repeat(np.nonzero(excess < 0)[0], -excess[excess < 0])
    pairs = list(zip(tok_d.tolist(), tok_l[_match(centre[tok_d], centre[tok_l])].tolist()))
    return hole_rc, inv, excess, centre, pairs


def _point(centre_row) -> tuple:
    return tuple(int(x) for x in np.asarray(centre_row).round().astype(int).tolist())


def clusters(holes: np.ndarray) -> list[tuple[np.ndarray, list]]:
    """Groups of holes with as many dark as light squares, and the pairs that balance them.

    The 8-connected groups of holes are the units. A unit with more dark than light
    squares is paired with nearby units with more light ones (each square of excess once),
    shortest pairs first; a cluster is a unit with the units paired with it, transitively.

    Parameters
    ----------
    holes : bool array (rows, cols)
        True on the holes.

    Returns
    -------
    list of (int array (k, 2), list of ((r, c), (r, c)))
        Each cluster's holes (row, col) and the centres of its paired units, to be joined
        by corridors.

    Raises
    ------
    RepairNotApplicable
        When the holes as a whole do not balance (then no closed tour exists at all).

    >>> m = np.zeros((10, 10), dtype=bool); m[2, 2] = m[2, 3] = m[7, 7] = m[8, 9] = True
    >>> sorted((len(h), len(p)) for h, p in clusters(m))
    [(2, 0), (2, 1)]
    """
    if not holes.any():
        return []
    hole_rc, inv, excess, centre, pairs = _units(holes)
    k = len(excess)
    dsu = DisjointSets(k)
    for g, h in pairs:
        dsu.union(g, h)
    return _grouped(hole_rc, inv, centre, k, dsu, pairs)


def _grouped(hole_rc, inv, centre, k, dsu, pairs):
    members = [[] for _ in range(k)]
    for i, g in enumerate(inv.tolist()):
        members[g].append(i)
    by_root = {}
    for g in range(k):
        by_root.setdefault(dsu.find(g), []).append(g)
    pair_of = {}
    for g, h in pairs:
        pair_of.setdefault(dsu.find(g), []).append((_point(centre[g]), _point(centre[h])))
    return [(hole_rc[[i for x in group for i in members[x]]], pair_of.get(root, []))
            for root, group in by_root.items()]


class Step:
    """One window of the plan: squares to remove, squares to put back, corridors to open.

    ``spots`` are the (row, col) of both; ``after`` the steps that must come first (the
    one that removed a square this step puts back).
    """

    __slots__ = ("remove", "restore", "spots", "segs", "after", "level")

    def __init__(self, remove, restore, segs, after=()):
        self.remove = np.asarray(remove, dtype=np.int64).reshape(-1, 2)
        self.restore = np.asarray(restore, dtype=np.int64).reshape(-1, 2)
        self.spots = np.concatenate([self.remove, self.restore])
        self.segs = list(segs)
        self.after = list(after)
        self.level = 0

    def __repr__(self):  # pragma: no cover - debugging aid
        return (f"Step(remove={self.remove.tolist()}, restore={self.restore.tolist()}, "
                f"segs={self.segs}, after={self.after})")


#: Longest corridor (rows plus columns) in one window; longer pairs are walked in hops.
HOP = 24


def _way_points(p, q) -> int:
    """Waypoints on the way from ``p`` to ``q``: one every :data:`HOP` squares."""
    return -(-(abs(q[0] - p[0]) + abs(q[1] - p[1])) // HOP) - 1


def _waypoints(p, q, colour, taken: set, holes: np.ndarray) -> list:
    """Squares of ``colour`` every :data:`HOP` squares along the L-shaped way from ``p`` to ``q``
    (``colour``: one for all, or a list of one for each of the :func:`_way_points`).

    The way runs along ``p``'s row, then ``q``'s column (as the corridors do). Each
    point is moved to the nearest square of its colour that is no hole, no other
    waypoint, at least two squares from the edges and with no hole within two squares.
    A point with no such square near is None in a list of colours, and left out otherwise.
    """
    rows, cols = holes.shape
    (r1, c1), (r2, c2) = p, q
    dh, dv = abs(c2 - c1), abs(r2 - r1)
    length = dh + dv
    k = _way_points(p, q)
    out = []
    for i in range(1, k + 1):
        want = colour[i - 1] if isinstance(colour, list) else colour
        d = round(i * length / (k + 1))
        if d <= dh:
            r, c = r1, c1 + (d if c2 >= c1 else -d)
        else:
            r, c = r1 + ((d - dh) if r2 >= r1 else -(d - dh)), c2
        best = None
        for rad in range(0, 8):
            for dr in range(-rad, rad + 1):
                for dc in (rad - abs(dr), abs(dr) - rad) if rad != abs(dr) else (0,):
                    rr, cc = r + dr, c + dc
                    if not (2 <= rr < rows - 2 and 2 <= cc < cols - 2) or (rr + cc) % 2 != want:
                        continue
                    if (rr, cc) in taken or holes[max(rr - 2, 0):rr + 3, max(cc - 2, 0):cc + 3].any():
                        continue
                    best = (rr, cc)
                    break
                if best:
                    break
            if best:
                break
        if best is None:  # no room here: the hop before it just gets longer
            if isinstance(colour, list):
                out.append(None)
            continue
        taken.add(best)
        out.append(best)
    return out


#: Most waypoints of one stretch of a long pair (see :func:`plan`).
STRETCH = 8


def _stretches(k: int, colour: int) -> list:
    """The colour of each of ``k`` waypoints of a pair walked in stretches (:func:`plan`):
    in each stretch, the first half ``colour`` and the rest the other colour."""
    m = -(-k // STRETCH)
    bounds = [round(j * k / m) for j in range(m + 1)]
    return [colour if 2 * (i - lo) < hi - lo else 1 - colour
            for lo, hi in zip(bounds, bounds[1:]) for i in range(lo, hi)], bounds


def plan(holes: np.ndarray) -> tuple[list[Step], int]:
    """The windows that remove ``holes`` from a tour of the whole rectangle, and the clusters' count.

    The units and pairs of :func:`clusters`; pairs no longer than :data:`HOP` join their
    units into one cluster, one window each. A longer pair is walked in hops: the first
    unit's window also removes a *waypoint* of the other unit's excess colour a hop
    away, each next window puts the waypoint back and removes the next one, and the last
    waypoint is put back by the window of the far unit's cluster. Every window balances
    its colours; a hop's window is small, where a window along the whole corridor of a
    long pair is large, crossed by many paths of the tour and often cannot be re-routed.
    A pair of two waypoints or more is walked in *stretches* of at most :data:`STRETCH`
    waypoints, each from both ends at once: the first unit's window removes the first
    waypoint (of the other unit's excess colour), the last unit's window the last one (of
    the first unit's), and between two stretches one window removes the last waypoint of
    the one (one colour) and the first of the next (the other); in each stretch the hops
    run towards its middle, and one window puts back the two waypoints that meet there.
    It takes as many windows as hops from one end, but no cluster waits for another and
    no window for more than half a stretch of hops: hops from one end only, chained
    through the clusters, made 467 windows one after the other on 10000 x 10000 with
    40,000 random holes (whose matching leaves a few pairs across the board), each batch
    of windows needing a walk of the whole tour. A pair of one waypoint runs from the
    cluster listed first to the later one. The order of the windows (``Step.after``) has
    no cycle.

    >>> m = np.zeros((80, 80), dtype=bool); m[10, 10] = m[10, 71] = True
    >>> steps, n = plan(m)
    >>> n, len(steps), [len(s.after) for s in steps]  # two clusters, the window where their waypoints meet
    (2, 3, [0, 0, 2])
    """
    if not holes.any():
        return [], 0
    hole_rc, inv, excess, centre, pairs = _units(holes)
    k = len(excess)
    pt = [_point(c) for c in centre]
    dsu = DisjointSets(k)
    long_pairs = []
    for g, h in pairs:
        (a, b), (c, d) = pt[g], pt[h]
        if abs(a - c) + abs(b - d) <= HOP:
            dsu.union(g, h)
        else:
            long_pairs.append((g, h))
    short = [(g, h) for g, h in pairs if dsu.find(g) == dsu.find(h)]
    groups = _grouped(hole_rc, inv, centre, k, dsu, short)
    # the cluster of each unit, in the order of the list
    root_index = {}
    for g in range(k):
        root_index.setdefault(dsu.find(g), len(root_index))
    steps = [Step(hs, [], segs) for hs, segs in groups]
    extra_remove = [[] for _ in steps]
    extra_restore = [[] for _ in steps]
    extra_segs = [[] for _ in steps]
    extra_after = [[] for _ in steps]
    taken = set()
    for g, h in long_pairs:
        a, b = root_index[dsu.find(g)], root_index[dsu.find(h)]
        if a < b:  # from g's cluster to h's: waypoints of h's excess colour (light)
            src, dst, colour = g, h, 0
        else:
            src, dst, colour = h, g, 1
            a, b = b, a
        if _way_points(pt[src], pt[dst]) >= 2 and _walk_in_stretches(
                steps, pt[src], pt[dst], a, b, colour, taken, holes, extra_remove, extra_segs):
            continue
        way = _waypoints(pt[src], pt[dst], colour, taken, holes)
        if not way:  # no room for a waypoint: one window for both clusters would be needed
            raise RepairNotApplicable(f"no room for a hop between the holes near {pt[src]} and {pt[dst]}")
        extra_remove[a].append(way[0])
        extra_segs[a].append((pt[src], way[0]))
        prev = a
        for x, y in zip(way, way[1:]):
            steps.append(Step([y], [x], [(x, y)], [prev]))
            prev = len(steps) - 1
        extra_restore[b].append(way[-1])
        extra_segs[b].append((way[-1], pt[dst]))
        extra_after[b].append(prev)
    for i in range(len(groups)):
        if extra_remove[i] or extra_restore[i]:
            s = steps[i]
            steps[i] = Step(np.concatenate([s.remove, np.asarray(extra_remove[i], dtype=np.int64).reshape(-1, 2)]),
                            extra_restore[i], s.segs + extra_segs[i], extra_after[i])
    return steps, len(groups)


def _walk_in_stretches(steps, p, q, a, b, colour, taken, holes, extra_remove, extra_segs) -> bool:
    """Add the windows of the pair from ``p`` (cluster ``a``) to ``q`` (cluster ``b``) walked in
    stretches (:func:`plan`); False, adding nothing, when a waypoint found no room."""
    colours, bounds = _stretches(_way_points(p, q), colour)
    way = _waypoints(p, q, colours, taken, holes)
    if None in way:
        taken.difference_update(x for x in way if x is not None)
        return False
    stretches = [way[lo:hi] for lo, hi in zip(bounds, bounds[1:])]
    # the window removing each stretch's first waypoint, and its last: the clusters at the
    # two ends, a window for each two stretches that meet
    first, last = [a], []
    for left, right in zip(stretches, stretches[1:]):
        steps.append(Step([left[-1], right[0]], [], [(left[-1], right[0])]))
        last.append(len(steps) - 1)
        first.append(len(steps) - 1)
    last.append(b)
    extra_remove[a].append(way[0])
    extra_segs[a].append((p, way[0]))
    extra_remove[b].append(way[-1])
    extra_segs[b].append((q, way[-1]))
    for part, start, end in zip(stretches, first, last):
        half = sum(1 for x in part if (x[0] + x[1]) % 2 == colour)
        ends = []
        for chain, prev in ((part[:half], start), (part[half:][::-1], end)):
            for x, y in zip(chain, chain[1:]):
                steps.append(Step([y], [x], [(x, y)], [prev]))
                prev = len(steps) - 1
            ends.append((chain[-1], prev))
        (x, i), (y, j) = ends
        steps.append(Step([], [x, y], [(x, y)], [i, j]))
    return True
