"""The options an engine is handed, checked once at the door before it runs.

:func:`check_options` splits what a caller passes into the settings of the run (the
time and node limits, seed, workers, progress: :class:`~kt_formal.question.Limits`) and
the engine's own options (its ``Options`` dataclass, which checks their values). It
refuses an option no engine knows (naming the closest one), an option the chosen engine
cannot honour, and a value out of range; the time limit is checked by
:func:`~kt_formal.question.check_time_limit`, the one place that checks it.
"""

from __future__ import annotations

from kt_formal.engines.base import KNOWN_OPTIONS, RUN_SETTINGS
from kt_formal.exceptions import InvalidInput
from kt_formal.question import MAX_NODES, check_number, check_time_limit

__all__ = ["check_options", "RUN_SETTINGS", "KNOWN_OPTIONS", "LIMIT_NAMES"]

#: Options that are settings of the run -> the field of Limits they set.
LIMIT_NAMES = {"time_limit": "time_limit", "seed": "seed", "workers": "threads", "progress": "progress",
               "node_limit": "node_limit"}

_MAX_SEED = 2**31 - 1
_MAX_WORKERS = 64


def check_options(engine, options: dict) -> tuple[dict, object]:
    """Validate ``options`` for ``engine`` (an :class:`~kt_formal.engines.base.Engine`).

    Returns
    -------
    (dict, Options)
        The changes to the run's :class:`~kt_formal.question.Limits` (``time_limit``,
        ``node_limit``, ``seed``, ``threads``, ``progress``) and the engine's own options.

    Raises
    ------
    InvalidInput
        For an option no engine knows (naming the closest one), an option this engine
        cannot honour (``node_limit`` for CP-SAT), or a value out of range.

    >>> from kt_formal.solve import get_engine
    >>> check_options(get_engine("cpsat"), {"time_limt": 5})
    Traceback (most recent call last):
    ...
    kt_formal.kernel.errors.InvalidInput: unknown option 'time_limt' (did you mean 'time_limit'?)
    """
    changes, own = {}, {}
    for name, value in options.items():
        if name not in LIMIT_NAMES:
            own[name] = value
            continue
        if name == "node_limit" and not engine.counts_nodes:
            raise InvalidInput(f"the {engine.name} engine takes no option 'node_limit'; it takes "
                               f"{', '.join(engine.takes())}")
        if name == "time_limit":
            changes["time_limit"] = check_time_limit(value)  # the one check of a time limit
            continue
        if value is None:
            continue
        if name == "seed":
            check_number(name, value, True, 0, _MAX_SEED)
        elif name == "workers":
            check_number(name, value, True, 1, _MAX_WORKERS)
        elif name == "node_limit":
            check_number(name, value, True, 1, MAX_NODES)
        elif not callable(value):
            raise InvalidInput(f"progress must be a function (done, total, text), not {value!r}")
        changes[LIMIT_NAMES[name]] = value
    fields = engine.takes()
    own = {name: value for name, value in own.items()  # None asks nothing of an option it does not take
           if value is not None or name in fields or name not in KNOWN_OPTIONS}
    return changes, engine.options(own)
