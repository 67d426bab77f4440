"""Runners: answer a family of questions on a local process pool or a Dask cluster.

The unit of work is :func:`solve_question`, one plain tuple in, plain data out, so
it pickles for a process pool and for Dask. Around it :func:`solve_orbit` answers
one symmetry orbit: it solves the representative, re-checks the certificate with
the kernel's checker, moves it to every other member of the orbit
(:func:`~kt_formal.survey.families.transform_certificate`) and re-checks each image;
a member whose certificate cannot be moved (an exhaustive record) or
whose image is rejected is solved on its own board. Orbits travel in chunks, so
trivial questions do not pay the per-task overhead.

:func:`run_census` skips the questions already stored, sends the rest to the
workers and writes the rows as they come back (``as_completed``), through
:class:`~kt_formal.survey.store.Store`, which commits them in batches at most 0.2 s
apart, and at once whenever no other result is ready: a kill loses only the boards
still being worked on.

>>> solve_question((3, 4, (), False, None, None, 5.0))[0]
'yes'
>>> rows = solve_orbit(((3, 3, (), True, None, None), [((3, 3, (), True, None, None), "identity")], 5.0))
>>> rows[0][6], json.loads(rows[0][7])["method"]
('no', 'colour')
"""

from __future__ import annotations

import json
import math
import time
from dataclasses import dataclass, field

from kt_formal.board import Board
from kt_formal.survey.families import group_by_symmetry, transform_certificate
from kt_formal.survey.store import Store, question_key
from kt_formal.counting.frontier_dask import DaskCluster
from kt_formal.exceptions import CertificateRejected, InvalidInput, KtFormalError

__all__ = [
    "solve_question",
    "solve_orbit",
    "solve_chunk",
    "check_row_certificate",
    "run_census",
    "CensusRun",
    "DaskConnection",
    "RETRY_FACTOR",
    "EXPENSIVE_CHECKS",
    "hard_limit",
    "HARD_LIMIT_FACTOR",
    "HARD_LIMIT_MIN",
]

#: ``--retry-unknown`` asks stored unknowns again with this many times the time limit.
RETRY_FACTOR = 4.0

#: Proof methods the kernel cannot check without a search (it refuses them as not
#: checked); the worker stores them as they come, and ``kt-formal verify --db --replay``
#: re-runs them. Every other certificate is checked by the kernel before it is stored.
EXPENSIVE_CHECKS = ("exhaustive",)

#: Most orbits in one chunk of work.
MAX_CHUNK = 64


def _board(rows: int, cols: int, holes) -> Board:
    return Board(rows, cols, holes=[tuple(h) for h in holes]) if holes else Board(rows, cols)


#: A question is stopped (stored as unknown) after this many times its time limit, at least
#: :data:`HARD_LIMIT_MIN` seconds: some work after a search (reading and trimming a solver's
#: proof) is not bounded by the limit, and one board must not hold a census for hours.
HARD_LIMIT_FACTOR = 12.0
HARD_LIMIT_MIN = 120.0


class _Overrun(BaseException):
    """Raised by the alarm in the middle of a question that ran past the hard limit."""


#: The longest hard limit set as an alarm (about three years; the system's timer takes no
#: more than its clock can count): a longer time limit runs without one.
MAX_ALARM_SECONDS = 10**8


def hard_limit(time_limit: float | None) -> float | None:
    """Seconds after which a question is stopped (see :data:`HARD_LIMIT_FACTOR`).

    >>> hard_limit(10.0), hard_limit(40.0), hard_limit(None)
    (120.0, 480.0, None)
    """
    return None if time_limit is None else max(HARD_LIMIT_MIN, HARD_LIMIT_FACTOR * time_limit)


def _alarm(signum, frame):
    raise _Overrun()


def solve_question(task: tuple) -> tuple:
    """Answer one question: the census's single call into the decision pipeline.

    In the main thread of a process (a local pool's worker, or a single-process census)
    the question is stopped at :func:`hard_limit` seconds by an alarm and stored as
    unknown; Dask runs tasks in threads, where no alarm can be set.

    Parameters
    ----------
    task : tuple
        ``(rows, cols, holes, closed, start, end, time_limit)``.

    Returns
    -------
    (answer, certificate JSON text or None, seconds, route)
    """
    rows, cols, holes, closed, start, end, time_limit = task
    import signal
    import threading

    from kt_formal.pipeline import decide
    from kt_formal.question import Limits, Question

    t = time.perf_counter()
    cap = hard_limit(time_limit)
    alarm = (cap is not None and cap <= MAX_ALARM_SECONDS and hasattr(signal, "setitimer")
             and threading.current_thread() is threading.main_thread())
    old = None
    try:
        if alarm:
            old = signal.signal(signal.SIGALRM, _alarm)
            signal.setitimer(signal.ITIMER_REAL, cap)
        try:
            v = decide(Question(_board(rows, cols, holes), closed=closed, start=start, end=end),
                       Limits(time_limit, threads=1))
        finally:
            if alarm:
                signal.setitimer(signal.ITIMER_REAL, 0)
                signal.signal(signal.SIGALRM, old)
    except _Overrun:
        return ("unknown", None, time.perf_counter() - t,
                f"hard-limit:stopped after {cap:g} s ({HARD_LIMIT_FACTOR:g} x the time limit)")
    except KtFormalError as exc:
        return ("unknown", None, time.perf_counter() - t, f"error:{type(exc).__name__}:{exc}"[:200])
    except Exception as exc:  # a failure of one board must not stop a census; never a "no"
        return ("unknown", None, time.perf_counter() - t, f"error:{type(exc).__name__}:{exc}"[:200])
    cert = None if v.certificate is None else json.dumps(v.certificate, separators=(",", ":"))
    return (v.answer, cert, time.perf_counter() - t, v.route)


def check_row_certificate(q: tuple, answer: str, cert: dict, full: bool = True) -> str:
    """Check that ``cert`` certifies ``answer`` to question ``q``; return the checker's summary.

    The certificate must be about exactly this question (board, holes, kind of tour,
    fixed ends), of the right kind for the answer (a tour for yes, a proof for no),
    and pass the kernel's check (:func:`kt_formal.certificate.verify_certificate`). With
    ``full=False`` records in :data:`EXPENSIVE_CHECKS` are passed without a check;
    with ``full=True`` the kernel refuses them (CertificateNotChecked).

    Raises
    ------
    CertificateRejected
    """
    from kt_formal.certificate import verify_certificate

    rows, cols, holes, closed, start, end = q
    if not isinstance(cert, dict):
        raise CertificateRejected("the certificate is not a JSON object")
    # a "no" is a proof of a cheap kind or a DRUP proof of the SAT encoding
    kinds = ("tour",) if answer == "yes" else ("proof", "drup") if answer == "no" else ()
    if cert.get("kind") not in kinds:
        raise CertificateRejected(f"answer {answer!r} with a {cert.get('kind')!r} certificate")
    want = "tour" if answer == "yes" else "proof"
    board = cert.get("board")
    if not isinstance(board, dict) or (board.get("rows"), board.get("cols")) != (rows, cols):
        raise CertificateRejected(f"the certificate is not about the {rows}x{cols} board")
    try:
        choles = sorted(tuple(h) for h in board.get("holes", []))
    except TypeError:
        raise CertificateRejected("the certificate's holes are malformed") from None
    if choles != sorted(tuple(h) for h in holes):
        raise CertificateRejected("the certificate's holes differ from the question's")
    if cert.get("closed") is not closed:
        raise CertificateRejected(f"the certificate is about {'open' if closed else 'closed'} tours")
    if want == "proof":
        for key, sq in (("start", start), ("end", end)):
            got = cert.get(key)
            if (None if got is None else tuple(got)) != sq:
                raise CertificateRejected(f"the proof's {key} {got} is not the question's {sq}")
        if cert.get("kind") == "drup" and (cert.get("forced") or cert.get("forbidden")):
            raise CertificateRejected("the proof is about a question with forced or forbidden moves")
        if not full and cert.get("method") in EXPENSIVE_CHECKS:
            return f"{cert.get('method')} record, not checked (kt-formal verify --db --replay re-runs it)"
    else:
        squares = cert.get("squares") or [[None, None]]
        if start is not None and tuple(squares[0]) != start:
            raise CertificateRejected(f"the tour starts at {squares[0]}, not {list(start)}")
        if end is not None and tuple(squares[-1]) != end:
            raise CertificateRejected(f"the tour ends at {squares[-1]}, not {list(end)}")
    _, summary = verify_certificate(cert)
    return summary


def _checked(q: tuple, result: tuple) -> tuple:
    """The result if its certificate checks for ``q``; otherwise an unknown saying why."""
    answer, cert, seconds, route = result
    if answer == "unknown":
        return result
    try:
        check_row_certificate(q, answer, json.loads(cert) if cert else None, full=False)
    except (CertificateRejected, InvalidInput, ValueError) as exc:
        return ("unknown", None, seconds, f"{route}+rejected:{exc}"[:200])
    return result


def solve_orbit(job: tuple) -> list[tuple]:
    """Answer every question of one symmetry orbit.

    Parameters
    ----------
    job : tuple
        ``(representative, [(question, symmetry), ...], time_limit)`` where each
        question is ``transform_question(representative, symmetry)``.

    Returns
    -------
    list of rows ``(*question, answer, certificate JSON, seconds, route)``
    """
    rep, members, time_limit = job
    rows, cols = rep[0], rep[1]
    base = _checked(rep, solve_question((*rep, time_limit)))
    answer, cert_text, seconds, route = base
    cert = json.loads(cert_text) if cert_text else None
    out = []
    for q, sym in members:
        if sym == "identity":
            out.append((*q, *base))
            continue
        if answer == "unknown":
            # the same search would run out on the image too; say where the answer came from
            out.append((*q, "unknown", None, 0.0, f"{route}+sym:{sym}"))
            continue
        moved = transform_certificate(cert, rows, cols, sym)
        if moved is not None:
            try:
                check_row_certificate(q, answer, moved)
                out.append((*q, answer, json.dumps(moved, separators=(",", ":")), 0.0, f"{route}+sym:{sym}"))
                continue
            except (CertificateRejected, InvalidInput):
                pass
        out.append((*q, *_checked(q, solve_question((*q, time_limit)))))
    return out


def solve_chunk(jobs: list) -> list[tuple]:
    """:func:`solve_orbit` over a list of orbits (one task of a pool or a cluster)."""
    out = []
    for job in jobs:
        out.extend(solve_orbit(job))
    return out


@dataclass
class CensusRun:
    """What one run did: questions in the family, already stored, solved, seconds."""

    questions: int = 0
    stored_before: int = 0
    asked: int = 0
    orbits: int = 0
    written: int = 0
    seconds: float = 0.0
    answers: dict = field(default_factory=dict)


def _chunks(jobs: list, workers: int) -> list[list]:
    if not jobs:
        return []
    size = max(1, min(MAX_CHUNK, math.ceil(len(jobs) / (16 * max(1, workers)))))
    return [jobs[i:i + size] for i in range(0, len(jobs), size)]


#: Seconds a runner waits for a result before it reports itself idle (the store then commits).
IDLE_SECONDS = 0.05


def _pool_results(chunks, workers: int):
    """Results of the chunks as they finish, on a local process pool (in-process for one worker).

    An empty list means "nothing finished just now": the caller commits what it holds,
    so a kill loses only the boards still being worked on.
    """
    if workers <= 1 or len(chunks) <= 1:
        for c in chunks:
            yield solve_chunk(c)
            yield []
        return
    import multiprocessing
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

    import kt_formal.pipeline  # noqa: F401 - loaded once, inherited by forked workers

    methods = multiprocessing.get_all_start_methods()
    ctx = multiprocessing.get_context("fork" if "fork" in methods else None)
    with ProcessPoolExecutor(max_workers=workers, mp_context=ctx) as pool:
        waiting = {pool.submit(solve_chunk, c) for c in chunks}
        try:
            while waiting:
                done, waiting = wait(waiting, timeout=IDLE_SECONDS, return_when=FIRST_COMPLETED)
                for f in done:
                    yield f.result()
                if not done:
                    yield []
        except BaseException:
            for f in waiting:
                f.cancel()
            raise


class DaskConnection(DaskCluster):
    """A Dask client (and the LocalCluster it started, if any) that solves census chunks;
    close it when done (see :class:`kt_formal.counting.frontier_dask.DaskCluster`)."""

    def results(self, chunks):
        """Results of the chunks as they finish (``as_completed``)."""
        from dask.distributed import as_completed

        futures = [self.client.submit(solve_chunk, c, pure=False) for c in chunks]
        try:
            ready = as_completed(futures)
            while not ready.is_empty():
                if ready.has_ready():
                    for f in ready.next_batch(block=False):
                        yield f.result()
                else:
                    yield []  # idle: the caller commits what it holds
                    time.sleep(IDLE_SECONDS)
        finally:
            for f in futures:
                f.cancel()


def _dask_results(chunks, dask, workers: int, processes: bool = True):
    if isinstance(dask, DaskConnection):
        yield from dask.results(chunks)
        return
    with DaskConnection(dask, workers, processes) as conn:
        yield from conn.results(chunks)


def run_census(questions, store: Store, *, time_limit: float | None = 10.0, workers: int = 1,
               dask: "str | DaskConnection | None" = None, dask_processes: bool = True, retry_unknown: bool = False,
               progress=None) -> CensusRun:
    """Answer every question not yet in ``store``, writing rows as they arrive.

    Parameters
    ----------
    questions : iterable of question tuples (see :mod:`kt_formal.survey.families`)
    store : Store
    time_limit : float or None
        Seconds per board (``retry_unknown``: :data:`RETRY_FACTOR` times this for the unknowns).
    workers : int
        Processes of the local pool, or workers of ``dask="local"``.
    dask : str or DaskConnection, optional
        A scheduler address (``tcp://host:8786``), ``"local"``, or an open
        :class:`DaskConnection`; None for the local pool.
    dask_processes : bool
        Whether a LocalCluster's workers are processes (True) or threads.
    retry_unknown : bool
        Ask again the questions stored as unknown.
    progress : callable(done, total, text), optional

    Returns
    -------
    CensusRun
    """
    t0 = time.perf_counter()
    qs = list(dict.fromkeys(questions))
    run = CensusRun(questions=len(qs))
    done = store.answered(include_unknown=not retry_unknown)
    pending = [q for q in qs if question_key(q) not in done]
    run.stored_before = len(qs) - len(pending)
    run.asked = len(pending)
    orbits = group_by_symmetry(pending)
    run.orbits = len(orbits)
    retried = set()
    if retry_unknown:
        retried = store.answered(include_unknown=True) - done  # the stored unknowns

    def limit(members):
        if time_limit is not None and any(question_key(q) in retried for q, _ in members):
            return time_limit * RETRY_FACTOR
        return time_limit

    jobs = [(rep, members, limit(members)) for rep, members in orbits]
    chunks = _chunks(jobs, workers)
    results = _dask_results(chunks, dask, workers, dask_processes) if dask else _pool_results(chunks, workers)
    total = len(pending)
    got = 0

    def tell():
        if progress is not None:
            el = time.perf_counter() - t0
            rate = got / el if el > 0 else 0.0
            eta = (total - got) / rate if rate > 0 else float("nan")
            eta_text = f"ETA {eta:.0f} s" if eta == eta else "ETA ?"
            progress(got, total, f"{rate:,.0f} boards/s, {eta_text}")

    tell()
    for rows in results:
        if not rows:  # the runner is idle: commit every finished row now
            store.flush()
            continue
        store.add(rows)
        got += len(rows)
        for r in rows:
            run.answers[r[6]] = run.answers.get(r[6], 0) + 1
        tell()
    store.flush()
    run.written = got
    run.seconds = time.perf_counter() - t0
    return run
