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

from kt_formal import api
from kt_formal.cli.common import command, notify


WARM_EXAMPLES = ("examples:\n  kt-formal warm              e.g. after installing, before timing a count\n"
                 "  kt-formal warm --verbose    each group's processor seconds too")


def add_warm(sub) -> None:
    p = command(sub, __doc__, WARM_EXAMPLES)
    p.add_argument("--verbose", "-v", action="store_true",
                   help="say each group's processor seconds too (user and system, this process)")
    p.set_defaults(run=_run_warm)


def _run_warm(args) -> int:
    api.warm_up(lambda text: print(text, flush=True), lambda text: notify(args, text), verbose=args.verbose)
    return 0
