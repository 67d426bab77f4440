"""Replaying an exhaustive-search record: trusting the exhaustive engine, on request only.

Older certificates (and ``kt-formal exists --replay``) carry an ``exhaustive`` record:
the engine that searched, and the nodes it took. The kernel cannot check such a record
without running a search, so it refuses it as *not checked*; :func:`replay_exhaustive`
re-runs the exhaustive engine within the recorded node count (capped by
:data:`MAX_REPLAY_NODES`) and a time limit (:data:`REPLAY_SECONDS` unless asked), and
confirms with CP-SAT. What it says trusts both engines; a replay the clock stops is
unknown (:class:`~kt_formal.exceptions.LimitReached`), neither accepted nor rejected.

>>> replay_exhaustive({"board": {"rows": 3, "cols": 4, "holes": []}, "closed": True,
...                    "start": None, "end": None, "engine": "exhaustive", "nodes": 10,
...                    "pruning": "none"}, time_limit=30).split(" (")[0]
'no closed tour of the 3x4 board: exhaustive search re-run'
"""

from __future__ import annotations

import time

from kt_formal.board import Board
from kt_formal.certificate import board_from_dict
from kt_formal.exceptions import CertificateRejected, InvalidInput, LimitReached, Worded

__all__ = ["replay_exhaustive", "MAX_REPLAY_NODES", "REPLAY_SECONDS"]

#: Most nodes a replay re-runs, whatever the record claims (about a minute of search).
MAX_REPLAY_NODES = 2_000_000_000


def _reject(msg: str):
    raise CertificateRejected(msg)


def _int(d, key) -> int:
    x = d.get(key)
    if type(x) is not int:
        _reject(f"'{key}' must be an integer, got {type(x).__name__}")
    return x


#: CP-SAT's time for confirming an exhaustive proof (an unconfirmed proof is rejected).
EXHAUSTIVE_CPSAT_SECONDS = 60.0
#: The default limit of one replay, the search and the confirmation together (seconds).
REPLAY_SECONDS = 60.0


def _out_of_time(time_limit: float, what: str):
    raise LimitReached(Worded(f"unknown: the replay reached its {time_limit:g} s time limit {what} "
                              "(neither accepted nor rejected; {time limit} gives it longer)",
                              {"time limit": "a longer time_limit"}))


def replay_exhaustive(d, time_limit: float = REPLAY_SECONDS) -> str:
    """Re-check an exhaustive-search proof: re-run the search, and confirm it with CP-SAT.

    The record names the board, the ends and the nodes searched. The exhaustive engine
    is deterministic, so the re-run must prove impossibility again within the recorded
    number of nodes (which also bounds the work a forged record can ask for); CP-SAT,
    an independent second engine, must prove it too within
    :data:`EXHAUSTIVE_CPSAT_SECONDS`. Anything else rejects the proof, except that both
    runs share ``time_limit`` seconds: a run the clock stops raises
    :class:`~kt_formal.exceptions.LimitReached` (unknown).
    """
    from kt_formal.engines import cpsat, exhaustive
    from kt_formal.question import Limits, Status, Question

    if type(d.get("engine")) is not str or type(d.get("pruning")) is not str:
        _reject("'engine' and 'pruning' must be strings")
    board: Board = board_from_dict(d.get("board"))
    nodes = _int(d, "nodes")
    if nodes < 0:
        _reject("'nodes' must not be negative")
    if nodes > MAX_REPLAY_NODES:
        _reject(f"the record claims {nodes:,} nodes; replays run up to {MAX_REPLAY_NODES:,}")
    try:
        request = Question(board, closed=d["closed"], start=d["start"] and tuple(d["start"]),
                              end=d["end"] and tuple(d["end"]))
    except InvalidInput as exc:
        raise CertificateRejected(f"bad request in the proof: {exc}") from None
    deadline = time.monotonic() + time_limit
    again = exhaustive.Exhaustive().run(request, Limits(time_limit, node_limit=nodes + 1))
    if again.status is Status.FOUND:
        _reject("re-running the exhaustive search found a tour")
    if again.status is not Status.IMPOSSIBLE:
        if again.stats.get("nodes", 0) <= nodes:
            _out_of_time(time_limit, f"after {again.stats.get('nodes', 0):,} of the recorded {nodes:,} nodes")
        _reject(f"re-running the exhaustive search did not finish within the recorded {nodes:,} nodes")
    left = deadline - time.monotonic()
    if left <= 0:
        _out_of_time(time_limit, "before CP-SAT could confirm it")
    second = cpsat.CpSat().run(request, Limits(min(left, EXHAUSTIVE_CPSAT_SECONDS), seed=0, threads=2))
    if second.status is Status.LIMIT and left < EXHAUSTIVE_CPSAT_SECONDS:
        _out_of_time(time_limit, "while CP-SAT was confirming it")
    if second.status is not Status.IMPOSSIBLE:
        _reject(f"CP-SAT gave {second.status.value}, not impossible, on the re-check")
    searched = again.proof["nodes"] if again.proof else nodes
    ends = "".join(f" {w} {board.square_name(tuple(d[k]))}" for w, k in (("from", "start"), ("to", "end"))
                   if d.get(k) is not None)
    return (f"no {'closed' if d['closed'] else 'open'} tour of the {board.describe()} board{ends}: "
            f"exhaustive search re-run ({searched:,} nodes) and confirmed by CP-SAT "
            "(this trusts both engines; the kernel did not check it)")
