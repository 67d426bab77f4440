"""Counting: how many knight's tours a board has.

* :mod:`kt_formal.counting.frontier`: the frontier (transfer-matrix) counter in plain
  Python, the reference every other counter is checked against;
* :mod:`kt_formal.counting.frontier_jit`: the same sweep compiled with numba, with mirror
  images merged, spilling to disk, checkpoints and resume;
* :mod:`kt_formal.counting.frontier_dask`: the compiled sweep's steps spread over a Dask
  cluster;
* :mod:`kt_formal.counting.exhaustive`: the exhaustive counter (depth-first search of every
  tour), for small boards and for listing the tours;
* :mod:`kt_formal.counting.policy`: the one policy of a count (method, memory and disk,
  threads, kernels) that the command and the Python API both call, and ``--check``'s
  second count.

>>> from kt_formal.board import Board
>>> from kt_formal.question import Question
>>> from kt_formal.counting.exhaustive import count
>>> count(Question(Board(3, 4), closed=False)).count
8
"""
