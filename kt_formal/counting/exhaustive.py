"""The exhaustive counter: count, or list, every knight's tour of a small board.

The same depth-first search as :mod:`kt_formal.engines.exhaustive` (sound pruning only,
each undirected tour met once), run to the end instead of stopping at the first tour.
Open tours with both ends free are counted both ways too (``directed_count``).

>>> from kt_formal.board import Board
>>> from kt_formal.question import Question
>>> count(Question(Board(5, 6))).count
8
"""

from __future__ import annotations

import json
import time
from contextlib import nullcontext
from dataclasses import dataclass
from pathlib import Path

from kt_formal.engines.pathsearch import NodeMeter, search_request, search_tables
from kt_formal.engines.exhaustive import NAME, check_size
from kt_formal.files import output_file
from kt_formal.question import Limits, Question

__all__ = ["count", "enumerate_tours", "CountResult"]


@dataclass
class CountResult:
    """The outcome of :func:`count`.

    Attributes
    ----------
    count : int
        Tours found, undirected (each cycle or path once). Complete only if ``complete``.
    directed_count : int or None
        ``2 * count`` for open tours with both ends free (paths walked either way), else None.
    nodes : int
        Search nodes (moves tried).
    complete : bool
        False when a limit ran out: ``count`` is then only a lower bound.
    wall_time : float
        Seconds.
    """

    count: int
    directed_count: int | None
    nodes: int
    complete: bool
    wall_time: float


def count(request: Question, limits: Limits | None = None, out=None) -> CountResult:
    """Count the tours ``request`` allows (undirected), optionally writing each to ``out``.

    Parameters
    ----------
    request : Question
    limits : Limits, optional
        Its node and time limits stop the count early (the result then has
        ``complete=False``; none: no limit); its progress is called as
        ``progress(nodes_done, None, text)``, at most about ten times a second.
    out : str or Path, optional
        Write every tour, one per line, as a JSON list of ``[row, col]`` squares
        (each undirected tour once; see :func:`enumerate_tours`); ``-`` is standard output.
        The file is replaced only when the count is complete: a count stopped by a limit
        leaves an existing file as it was.
    """
    t0 = time.perf_counter()
    check_size(request)
    nt, table = search_tables(request, NAME)
    meter = NodeMeter(limits, "count")
    cols = request.board.cols
    sink = output_file(out) if out is not None else nullcontext()
    with sink as fh:  # the tours listed are kept only when the count is complete
        on_solution = None
        if fh is not None:
            def on_solution(squares):
                fh.write(json.dumps([[int(i) // cols, int(i) % cols] for i in squares],
                                    separators=(",", ":")) + "\n")

        res = search_request(request, nt, table, root_rule="mindeg", heuristic="warnsdorff", prune=True,
                             parity=True, count=True, limits=meter, on_solution=on_solution)
        if res.status == "limit" and fh is not None:
            sink.discard()
    free_ends = not request.closed and request.start is None and request.end is None
    directed = res.directed
    if res.status == "refuted":
        directed = 0 if free_ends else None
    elif res.status == "limit":
        directed = 2 * res.count if free_ends else None
    if not request.closed and not free_ends:  # a fixed end: each path runs from its start (or to its end)
        directed = res.count
    return CountResult(res.count, directed, res.nodes, res.status != "limit", time.perf_counter() - t0)


def enumerate_tours(request: Question, path, limits: Limits | None = None) -> CountResult:
    """Write every tour of ``request`` to ``path`` (JSON lines of squares) and count them."""
    return count(request, limits, out=Path(path))
