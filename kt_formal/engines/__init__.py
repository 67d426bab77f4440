"""Engines: the finders of tours, each behind the one protocol of :mod:`kt_formal.engines.base`.

One module per engine (``cpsat``, ``backtrack``, ``warnsdorff``, ``rotate``, ``dfs``,
``exhaustive``, ``sat``); each holds a subclass of :class:`kt_formal.engines.base.Engine`
with a ``name``, an ``Options`` dataclass, ``supports(question)`` and the template
``run(question, limits, options) -> Result``. Constructions live in
:mod:`kt_formal.combine` (their engine adapters in :mod:`kt_formal.solve`); the registry
that names them all and picks one is :mod:`kt_formal.solve`; the counters are in
:mod:`kt_formal.counting`.

>>> from kt_formal.question import Status
>>> Status.FOUND.exit_code
0
"""

from kt_formal.question import Result, Status, Question

__all__ = ["Result", "Status", "Question"]
