"""The options an engine is handed, checked once at the door before it runs.

:func:`check_options` refuses an option no engine knows (naming the closest one), an
option the chosen engine cannot honour, and a value out of range; the time limit is
checked by :class:`~kt_formal.question.Budget`, the one place that checks it.
"""

from __future__ import annotations

import difflib
import inspect

from kt_formal.exceptions import InvalidInput
from kt_formal.question import MAX_NODES, Budget, check_number

__all__ = ["check_options", "RUN_SETTINGS", "KNOWN_OPTIONS"]

#: Settings of a run that every engine is handed; an engine that has no use for one (a
#: deterministic single-threaded search and ``seed`` or ``workers``) does without it.
RUN_SETTINGS = ("time_limit", "seed", "workers", "progress")

#: Every option name some engine takes, for "did you mean" suggestions.
KNOWN_OPTIONS = frozenset(RUN_SETTINGS) | {
    "node_limit", "order", "tiebreak", "retries", "log", "scheme", "base", "base_path", "method",
    "small", "cpsat_max",
}

_MAX_SEED = 2**31 - 1
_MAX_WORKERS = 64


def check_options(engine, options: dict) -> dict:
    """Validate ``options`` for ``engine`` (a module with ``NAME`` and ``solve``).

    Returns the options to pass to ``engine.solve``: the ones its signature takes.

    Raises
    ------
    InvalidInput
        For an option no engine knows (naming the closest one), an option this engine
        cannot honour (``node_limit`` for CP-SAT), or a value out of range.

    >>> from kt_formal.engines import cpsat
    >>> check_options(cpsat, {"time_limt": 5})
    Traceback (most recent call last):
    ...
    kt_formal.kernel.errors.InvalidInput: unknown option 'time_limt' (did you mean 'time_limit'?)
    """
    params = inspect.signature(engine.solve).parameters
    takes = {n for n, p in params.items() if p.kind is inspect.Parameter.KEYWORD_ONLY}
    passed = {}
    for name, value in options.items():
        if name not in KNOWN_OPTIONS and name not in takes:
            close = difflib.get_close_matches(name, sorted(KNOWN_OPTIONS | takes), n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise InvalidInput(f"unknown option {name!r}{hint}")
        if value is None:
            if name in takes:
                passed[name] = None
            continue
        if name == "time_limit":
            value = Budget.check_time_limit(value)  # the one check of a time limit
        elif name == "seed":
            check_number(name, value, True, 0, _MAX_SEED)
        elif name == "workers":
            check_number(name, value, True, 1, _MAX_WORKERS)
        elif name in ("node_limit", "retries"):
            check_number(name, value, True, 1 if name == "node_limit" else 0, MAX_NODES)
        if name in takes:
            passed[name] = value
        elif name not in RUN_SETTINGS:
            raise InvalidInput(f"the {engine.NAME} engine takes no option {name!r}; it takes "
                               f"{', '.join(sorted(takes)) or 'none'}")
    return passed
