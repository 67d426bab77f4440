"""``kt-formal warm``: compile (or load) every compiled kernel now, once for later runs.

Compile the numba kernels of the frontier counter, the path searches, and the walks of
the constructions, or load them where they are cached on disk, and say what it did and
how long it took. Compiling is done once: numba keeps the machine code in
NUMBA_CACHE_DIR when that is set, else next to the package's source or in the user's
cache folder. Counts and searches compile what they need by themselves, outside their
time limits; this command does it up front. Each group of kernels prints a line as it is
done (``--verbose``: with the processor seconds it took, the measure of a compile that a
busy machine disturbs least).
"""

from __future__ import annotations

from kt_formal.exceptions import InvalidInput
from kt_formal.cli.common import command, _note


WARM_EXAMPLES = ("examples:\n  kt-formal warm              e.g. after installing, before timing a count\n"
                 "  kt-formal warm --verbose    each group's processor seconds too")


def _add_warm(sub) -> None:
    p = command(sub, __doc__, WARM_EXAMPLES)
    p.add_argument("--verbose", "-v", action="store_true",
                   help="say each group's processor seconds too (user and system, this process)")
    p.set_defaults(run=_run_warm)


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


def _run_warm(args) -> int:
    import time

    from kt_formal.engines import compiled

    t0 = time.perf_counter()
    compiled.start_compiler_without_blas()  # as a count does (no kernel of the package uses BLAS)
    for name, kernels, prepare in _warm_groups():
        cached = all(compiled.kernels_compiled(k) for k in kernels)
        if not cached:
            _note(args, f"compiling the kernels of the {name} ...")
        t, cpu = time.perf_counter(), time.process_time()
        prepare()
        print(f"{name}: {len(kernels)} kernels {'loaded from the cache' if cached else 'compiled and cached'} "
              f"in {time.perf_counter() - t:.1f} s"
              + (f" ({time.process_time() - cpu:.1f} s of processor time)" if args.verbose else ""), flush=True)
    # every kernel made so far, those the groups' kernels call included (the inlined aside)
    kernels = [k for k, options in compiled.KERNELS if options.get("inline") != "always" and hasattr(k, "signatures")]
    missing = [k.__name__ for k in kernels if not compiled.kernels_compiled(k)]
    if missing:  # a kernel no group runs: a bug of this command
        raise InvalidInput(f"no group of 'warm' runs the kernels {', '.join(missing)}")
    where = getattr(getattr(kernels[0], "_cache", None), "_cache_path", None)
    print(f"{len(kernels)} kernels ready in {time.perf_counter() - t0:.1f} s" + (f"; cached in {where}" if where else ""))
    from kt_formal.engines.kernel_threads import threading_report

    print(threading_report())
    return 0
