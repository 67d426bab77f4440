"""What the command needs of the package besides the verbs: the engines' names, the
compiled kernels warmed up, the library of model pieces, the frame models, the knight
graph, the count's method, its second way and a row of counts.

>>> "cpsat" in engine_names() and engine_names()[0] == "auto"
True
>>> from kt_formal.api import make_board
>>> graph_summary(make_board(3, 4))["edges"]  # 4mn - 6(m + n) + 8
14
"""

from __future__ import annotations

import time

from kt_formal.api.answers import count_result
from kt_formal.counting.frontier import MAX_SHORT_SIDE
from kt_formal.exceptions import InvalidInput, Worded

__all__ = ["engine_names", "warm_up", "model_pieces", "check_models", "build_models", "frame_model",
           "graph_summary", "write_knight_graph", "open_tour_exists", "count_method", "second_count",
           "count_sequence", "parse_threads", "square_name", "MAX_SHORT_SIDE", "GRAPH_BYTES_PER_SQUARE"]

#: Memory of the knight graph a square as a networkx graph (300x300 as GraphML took 600 MB).
GRAPH_BYTES_PER_SQUARE = 7000


def engine_names() -> list[str]:
    """``auto`` and the names of the registered engines."""
    from kt_formal.solve import ENGINES

    return ["auto", *ENGINES]


def square_name(rows: int, square) -> str:
    """The chess name of ``square`` on a board of ``rows`` rows (``a1`` bottom-left)."""
    from kt_formal.claims import square_name as name

    return name(rows, square)


def open_tour_exists(rows: int, cols: int) -> bool:
    """Whether the full ``rows x cols`` board has an open tour (the theorems of
    Cull & De Curtins 1978 and Conrad et al. 1994)."""
    from kt_formal.theorems import rectangle_tour

    return bool(rectangle_tour(rows, cols, False)[0])


def parse_threads(text, what: str = "--threads") -> int:
    """A number of threads: a whole number from 1 to 1024."""
    from kt_formal.counting.policy import parse_threads as parse

    return parse(text, what)


def count_method(question, **options) -> str:
    """The method :func:`kt_formal.api.count` takes for ``question`` (the one rule,
    :func:`kt_formal.counting.policy.method_for`)."""
    from kt_formal.counting.policy import method_for

    return method_for(question, **options)


def second_count(question, first: str):
    """``(way, count)`` for a second, independent count after the method ``first``:
    ``count(note, progress, **options)`` gives its :class:`~kt_formal.api.CountResult`; a
    board with no second way that fits is refused (InvalidInput) before the first count."""
    from kt_formal.counting.policy import check_count, no_second_way, second_way

    way = second_way(question, first)
    if way is None:
        raise InvalidInput(Worded(f"{{check}}: no second way to count the {question.board.rows}x{question.board.cols} "
                                  f"board fits here: {no_second_way(question, first)}", {"check": "a second count"}))
    return way, lambda note, progress, **o: count_result(question, check_count(question, way, note,
                                                                               progress=progress, **o))


def count_sequence(k: int, a: int, b: int, closed: bool, on_count, note=None, **options) -> None:
    """Count the ``k x n`` boards for ``a <= n <= b`` in one sweep (see
    :func:`kt_formal.counting.policy.run_row`), ``on_count(key, count)`` as each is known."""
    from kt_formal.counting.policy import run_row

    run_row(k, a, b, closed, on_count, note, **options)


def warm_up(say, note, verbose: bool = False) -> None:
    """Load or compile every compiled kernel of the package into numba's cache, a line a
    group to ``say`` (``note`` before a group is compiled)."""
    from kt_formal.engines import compiled
    from kt_formal.engines.kernel_threads import threading_report

    t0 = time.perf_counter()
    compiled.start_compiler_without_blas()  # as a count does (no kernel of the package uses BLAS)
    for name, kernels, prepare in _warm_groups():
        cached = all(compiled.kernels_compiled(k) for k in kernels)
        if not cached:
            note(f"compiling the kernels of the {name} ...")
        t, cpu = time.perf_counter(), time.process_time()
        prepare()
        say(f"{name}: {len(kernels)} kernels {'loaded from the cache' if cached else 'compiled and cached'} "
            f"in {time.perf_counter() - t:.1f} s"
            + (f" ({time.process_time() - cpu:.1f} s of processor time)" if verbose else ""))
    # every kernel of the package made so far, those the groups' kernels call included (the
    # inlined aside; a kernel a script or a test module made is its own business)
    kernels = [k for k, options in compiled.KERNELS if options.get("inline") != "always" and hasattr(k, "signatures")
               and k.py_func.__module__.startswith("kt_formal.")]
    missing = [k.__name__ for k in kernels if not compiled.kernels_compiled(k)]
    if missing:  # a kernel no group runs: a bug of this function
        raise InvalidInput(f"no group of 'warm' runs the kernels {', '.join(missing)}")
    where = getattr(getattr(kernels[0], "_cache", None), "_cache_path", None)
    say(f"{len(kernels)} kernels ready in {time.perf_counter() - t0:.1f} s" + (f"; cached in {where}" if where else ""))
    say(threading_report())


def _warm_groups():
    """(name, kernels, prepare) of each group of compiled kernels."""
    import numpy as np

    from kt_formal.combine import blocks_joins, repair, walk
    from kt_formal.counting import frontier_jit
    from kt_formal.engines import pathsearch, successors

    succ = np.array([1, 0], np.int64)
    small = (successors.follow_kernel(), *repair.window_kernels(), blocks_joins.walker())

    def walks():
        walk.walk(succ, 0, 2)
        number, one_cycle, cycle_pos, exits = repair.window_kernels()
        for dtype in (np.int32, np.int64):  # the repair's positions: int32 below 2**31 squares
            number(succ.astype(dtype), 0, 2, np.zeros(2, dtype))
            exits(succ.astype(dtype), np.zeros(2, np.int32), 1, np.zeros(1, np.int64), np.empty(1, np.int64))
        one_cycle(succ)
        cycle_pos(succ, np.empty(2, np.int64))
        blocks_joins.walk_neighbours(np.array([[1, -1], [0, -1]], np.int32), 0, 2)  # int32 below 2**31 squares

    kinds = {frontier_jit.fill_closed16: "closed tours", frontier_jit.fill_open16: "open tours",
             frontier_jit.fill_wide: "open tours eight across", frontier_jit.fill_closed17: "closed tours eight across"}
    counter = [(f"frontier counter, {kinds[fill]}", frontier_jit.fill_group(fill),
                lambda fill=fill: frontier_jit.prepare_fill(fill, note=False)) for fill in frontier_jit.FILLS]
    return [*counter,
            ("path searches", pathsearch.KERNELS, lambda: pathsearch.prepare_kernels(note=False)),
            ("walks of the constructions", small, walks)]


def model_pieces() -> list:
    """The specifications of the pieces the library of model tours defines."""
    from kt_formal.combine import library

    return library.all_specs()


def check_models(directory=None) -> list[tuple[str, str | None]]:
    """``(name, reason)`` of each piece of the library in ``directory`` (default: the
    installed one); ``reason`` None when the kernel verified it."""
    from kt_formal.combine import library

    return library.check_library(directory)


def build_models(specs, directory=None, progress=None) -> list:
    """Build and verify the pieces ``specs`` into ``directory`` (default: the installed library)."""
    from kt_formal.combine import library

    return library.build_library(specs, directory, progress=progress)


def frame_model(model: str, wh: int, wv: int, *, element=None, a=None, b=None):
    """``(tour, words, hole)``: a frame construction's model tour (``rotation`` of an element
    or ``support`` of two), verified, what it is in words and its hole ``(r, c, h, w)`` or None."""
    from kt_formal.combine.frame import rotation_model, support_model
    from kt_formal.combine.frame_large import single_hole

    if model == "rotation":
        if not element or a or b:
            raise InvalidInput("the rotation model takes --element NxM (not --a/--b)")
        tour, what = rotation_model(element, wh, wv), f"rotation model of element A {element}"
    else:
        if not (a and b) or element:
            raise InvalidInput("the support model takes --a NxM and --b N1xM1")
        tour, what = support_model(a, b, wh, wv), f"support model of A {a} and B {b}"
    tour.verify()
    return tour, what, single_hole(tour.board)


def graph_summary(board) -> dict:
    """The knight graph of ``board`` in figures: ``squares``, ``edges``, ``dark``, ``light``
    and ``degrees`` (degree -> squares of it)."""
    import numpy as np

    from kt_formal.graph import neighbour_table

    nt = neighbour_table(board)
    dark, light = board.dark_light_counts()
    hist = np.bincount(nt.degree, minlength=9)
    return {"squares": board.n_squares, "edges": int(nt.degree.sum()) // 2, "dark": dark, "light": light,
            "degrees": {d: int(n) for d, n in enumerate(hist) if n}}


def write_knight_graph(board, out, fmt: str, squares: str = "rc") -> None:
    """Write the knight graph of ``board`` to ``out`` as ``fmt`` (see
    :func:`kt_formal.io.graphfiles.write_graph`), refused first when it would not fit memory;
    nodes named ``r,c`` (``squares="rc"``) or as chess names ``a1`` (``squares="chess"``)."""
    from kt_formal.graph import knight_graph
    from kt_formal.io.graphfiles import write_graph
    from kt_formal.memory import ensure_memory

    ensure_memory(board.n_squares * GRAPH_BYTES_PER_SQUARE,
                  f"the knight graph of {board.n_squares:,} squares as {fmt}")
    if squares not in ("rc", "chess"):
        raise InvalidInput(f"squares {squares!r}: choose rc or chess")
    write_graph(knight_graph(board), out, fmt, chess_rows=board.rows if squares == "chess" else None)

