"""Engines: the finders of tours, each behind the one protocol of :mod:`kt_formal.engines.base`.

One module per engine (``cpsat``, ``backtrack``, ``warnsdorff``, ``dfs``, ``exhaustive``);
each has ``NAME``, ``OPTIONS`` and ``solve(request, **options) -> Result``. Constructions
that answer like engines live in :mod:`kt_formal.combine`; the registry that names them all
and picks one is :mod:`kt_formal.solve`; the counters are in :mod:`kt_formal.counting`.

>>> from kt_formal.question import Status
>>> Status.FOUND.exit_code
0
"""

from kt_formal.question import Result, Status, Question

__all__ = ["Result", "Status", "Question"]
