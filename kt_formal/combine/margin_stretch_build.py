"""Making the stretch construction's base pieces with CP-SAT: a closed tour periodic in its windows.

A base piece (:mod:`kt_formal.combine.margin_stretch`) must be stretchable at each of
its windows: the moves crossing the window's far line are those crossing its near line,
moved 4 along, and the moves inside the window form straight strands. Inside a window
every square lies in a *band* (the t rows above the hole or the b rows below it, for a
column window), so the window's moves are the moves of a t-row strip. The *band
patterns* (:func:`band_patterns`) are all sets of such moves over the strip's columns
[-2, 6) that give each square of [0, 4) two moves, are periodic and straight: enumerated
once by CP-SAT (32 for 3 rows, 441 for 4). The model is the circuit of the board, a
table constraint per band of each window (its moves are one pattern), and no move from
the window leaves its band. The piece is then checked as on load.

>>> edges, allowed = band_patterns(3)
>>> len(allowed), len(edges) == len(allowed[0])
(32, True)
"""

from __future__ import annotations

import functools

from kt_formal.board import KNIGHT_MOVES
from kt_formal.combine.library import Piece, PieceSpec
from kt_formal.combine.margin_stretch import PERIOD, moved, strand_violation, window_violation, windows
from kt_formal.exceptions import InvalidInput
from kt_formal.tours import Tour

__all__ = ["band_patterns", "build_base", "build_all"]


def _strip_edges(t: int) -> list[tuple]:
    """Moves of the t-row strip over columns [-2, PERIOD + 2) with an end in columns [0, PERIOD)."""
    squares = {(r, c) for r in range(t) for c in range(-2, PERIOD + 2)}
    out = set()
    for r, c in squares:
        for dr, dc in KNIGHT_MOVES:
            q = (r + dr, c + dc)
            if q in squares and (0 <= c < PERIOD or 0 <= q[1] < PERIOD):
                out.add(tuple(sorted(((r, c), q))))
    return sorted(out)


@functools.lru_cache(maxsize=None)
def band_patterns(t: int) -> tuple[list[tuple], list[tuple[int, ...]]]:
    """The strip's moves (:func:`_strip_edges`) and every 0/1 choice of them that is a window pattern.

    A pattern gives each square of columns [0, 4) two moves, holds a move crossing column
    line 0 exactly when it holds that move moved 4 right (and none crossing line 4 whose
    copy 4 left is not a move of the strip), and is straight
    (:func:`~kt_formal.combine.margin_stretch.window_violation`'s strand test).
    """
    from ortools.sat.python import cp_model

    edges = _strip_edges(t)
    index = {e: i for i, e in enumerate(edges)}
    model = cp_model.CpModel()
    v = [model.new_bool_var(f"e{i}") for i in range(len(edges))]
    for r in range(t):
        for c in range(PERIOD):
            model.add(sum(v[i] for i, e in enumerate(edges) if (r, c) in e) == 2)
    for i, e in enumerate(edges):
        lo, hi = sorted((e[0][1], e[1][1]))
        if lo < 0 <= hi:
            j = index.get(moved(e, PERIOD, 1))
            model.add(v[i] == (v[j] if j is not None else 0))
        if lo < PERIOD <= hi and moved(e, -PERIOD, 1) not in index:
            model.add(v[i] == 0)
    found = []

    class Keep(cp_model.CpSolverSolutionCallback):
        def on_solution_callback(self):
            bits = tuple(int(self.value(x)) for x in v)
            moves = [e for e, b in zip(edges, bits) if b]
            if strand_violation(moves, 1, 0) is None:
                found.append(bits)

    solver = cp_model.CpSolver()
    solver.parameters.enumerate_all_solutions = True
    solver.parameters.num_workers = 1
    solver.solve(model, Keep())
    return edges, sorted(found)


def _board_moves(spec: PieceSpec) -> list[tuple]:
    """Every knight move of the spec's board, as a sorted pair of squares."""
    holes = set(spec.holes)
    live = [(r, c) for r in range(spec.rows) for c in range(spec.cols) if (r, c) not in holes]
    ok = set(live)
    return sorted({tuple(sorted((q, (q[0] + dr, q[1] + dc)))) for q in live for dr, dc in KNIGHT_MOVES
                   if (q[0] + dr, q[1] + dc) in ok})


def _bands(spec: PieceSpec, axis: int) -> list[tuple[int, int]]:
    """The bands a window along ``axis`` crosses: (first line across, thickness)."""
    (r0, c0), (r1, c1) = spec.holes[0], spec.holes[-1]
    if axis == 1:
        return [(0, r0), (r1 + 1, spec.rows - r1 - 1)]
    return [(0, c0), (c1 + 1, spec.cols - c1 - 1)]


#: How a band of each thickness is cut into strips that take their own patterns, in the
#: order tried: no window move crosses between two strips (a 2-row strip's one pattern is
#: its four zigzag strands).
SUB_BANDS = {2: ((2,),), 3: ((3,),), 4: ((4,),), 5: ((3, 2), (2, 3)), 6: ((3, 3), (4, 2), (2, 4), (2, 2, 2)),
             7: ((3, 4), (4, 3), (3, 2, 2), (2, 2, 3), (2, 3, 2)), 8: ((4, 4), (3, 3, 2), (2, 3, 3), (4, 2, 2),
                                                                      (2, 2, 4), (3, 2, 3), (2, 4, 2))}


def _window_constraints(model, spec: PieceSpec, moves: list, edge_var, option: int) -> None:
    """Each strip of each band of each window takes a pattern (the bands cut by
    :data:`SUB_BANDS`, choice ``option``); the window's other moves are left out."""
    for axis, x in windows(spec):
        inside = lambda q: x <= q[axis] < x + PERIOD  # noqa: E731
        banded = set()
        for a0, thickness in _bands(spec, axis):
            cuts = SUB_BANDS[thickness]
            for t in cuts[option % len(cuts)]:
                edges, allowed = band_patterns(t)
                place = (lambda q: (a0 + q[0], x + q[1])) if axis == 1 else (lambda q: (x + q[1], a0 + q[0]))
                mapped = [tuple(sorted((place(a), place(b)))) for a, b in edges]
                banded.update(mapped)
                model.add_allowed_assignments([edge_var(e) for e in mapped], allowed)
                a0 += t
        for e in moves:
            if (inside(e[0]) or inside(e[1])) and e not in banded:
                model.add(edge_var(e) == 0)


def _solve(spec: PieceSpec, option: int, time_limit: float, workers: int):
    """``(successors, live squares)`` of a tour of the spec's model with the band cut
    ``option``; the successors are CP-SAT's status instead when it finds none."""
    from ortools.sat.python import cp_model

    moves = _board_moves(spec)
    holes = set(spec.holes)
    live = [(r, c) for r in range(spec.rows) for c in range(spec.cols) if (r, c) not in holes]
    node = {q: i for i, q in enumerate(live)}
    model = cp_model.CpModel()
    arcs = {}
    for a, b in moves:
        arcs[a, b], arcs[b, a] = model.new_bool_var(""), model.new_bool_var("")
    model.add_circuit([(node[a], node[b], lit) for (a, b), lit in arcs.items()])
    cache: dict = {}

    def edge_var(e):
        if e not in cache:
            cache[e] = model.new_bool_var("")
            model.add(cache[e] == arcs[e] + arcs[e[::-1]])
        return cache[e]

    _window_constraints(model, spec, moves, edge_var, option)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = int(workers)
    solver.parameters.random_seed = int(spec.seed)
    solver.parameters.max_time_in_seconds = float(time_limit)
    status = solver.solve(model)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return solver.status_name(status).lower(), live
    return {a: b for (a, b), lit in arcs.items() if solver.value(lit)}, live


def build_base(spec: PieceSpec, time_limit: float = 120.0, workers: int = 1) -> Piece:
    """A base piece for ``spec`` (kind ``margin-stretch``) by CP-SAT, checked as on load.

    The band cuts of :data:`SUB_BANDS` for the thickest band a window crosses are tried
    in order; the first with a tour is kept.

    Raises
    ------
    InvalidInput
        When CP-SAT proves every model impossible or runs out of time (the message says which).
    """
    thick = max(t for axis, _ in windows(spec) for _, t in _bands(spec, axis)) if windows(spec) else 3
    status = "infeasible"
    for option in range(len(SUB_BANDS[thick])):
        succ, live = _solve(spec, option, time_limit, workers)
        if isinstance(succ, dict):
            break
        status = succ
    else:
        raise InvalidInput(f"piece {spec.name}: {status}")
    order, q = [], live[0]
    for _ in live:
        order.append(q[0] * spec.cols + q[1])
        q = succ[q]
    tour = Tour(spec.board(), order, closed=True)
    reason = tour.check() or window_violation(spec, tour)
    if reason is not None:  # pragma: no cover - the model holds both conditions
        raise RuntimeError(f"piece {spec.name}: {reason}")
    model = "add_circuit with a table of window patterns per band" + (f" (band cut {option})" if option else "")
    made_by = {"engine": "cpsat", "model": model,
               "seed": spec.seed, "workers": workers}
    return Piece(spec, tour, made_by)


def build_all(only_missing: bool = True, progress=print) -> list[str]:
    """Build the base pieces (one worker, the seed in each spec, so a rebuild repeats), write
    them to the library and rewrite the manifest; returns the names built (a spec without
    a tour is reported through ``progress`` and skipped)."""
    from kt_formal.combine.library import models_dir, write_manifest, write_piece
    from kt_formal.combine.margin_stretch import base_specs

    built = []
    for spec in base_specs():
        if only_missing and (models_dir() / f"{spec.name}.json").exists():
            continue
        try:
            write_piece(build_base(spec, workers=1))
        except InvalidInput as exc:
            if progress is not None:
                progress(f"no piece: {exc}")
            continue
        built.append(spec.name)
        if progress is not None:
            progress(f"built {spec.name}")
    if built:
        write_manifest()
    return built


if __name__ == "__main__":  # python -m kt_formal.combine.margin_stretch_build [--all]
    import sys

    build_all(only_missing="--all" not in sys.argv[1:])
