"""The package's defaults, each named once: what a run spends when no limit is given.

A module with no imports, so that the command's ``--help`` (built from these names through
:mod:`kt_formal.api`) loads neither NumPy nor the solvers. :mod:`kt_formal.question`,
the Python API and every engine take their defaults from here.

>>> DEFAULT_TIME_LIMIT, DEFAULT_THREADS
(60.0, 2)
"""

__all__ = ["DEFAULT_TIME_LIMIT", "DEFAULT_THREADS"]

#: The time limit of a question when none is given, in seconds: the one default of the
#: package (the command line, the Python API and every engine take it from here).
DEFAULT_TIME_LIMIT = 60.0
#: The threads (CP-SAT's workers) of a run whose limits name none.
DEFAULT_THREADS = 2
