"""Families of questions in Python: :func:`census` (``kt-formal census``) and
:func:`census_report` (``kt-formal census-report``).

A census asks one question of every board of a :class:`~kt_formal.survey.families.Family`
and stores the answers, with their certificates, in a SQLite database; asking again asks
only what is missing. The store and the report modules of :mod:`kt_formal.survey` read and
write the database; this module runs no SQL of its own.

>>> import os, tempfile
>>> from kt_formal.survey.families import Family
>>> db = os.path.join(tempfile.mkdtemp(), "c.sqlite")
>>> r = census(Family(rows=3, cols=4, remove_squares=1), db=db, workers=1)
>>> r.questions, r.unknown, r.summary["questions"]
(12, 0, 12)
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field

from kt_formal.exceptions import InvalidInput, Worded

__all__ = ["census", "CensusResult", "census_report", "ReportResult", "CENSUS_TIME_LIMIT", "board_size"]

#: Seconds per question of a census (it asks many; ``tour``, ``decide`` and ``count`` take
#: :data:`~kt_formal.question.DEFAULT_TIME_LIMIT`).
CENSUS_TIME_LIMIT = 10.0


@dataclass
class CensusResult:
    """What a census run did (``questions``, of which ``stored_before`` were in the database
    and ``asked`` asked, in ``orbits`` up to symmetry, in ``seconds``) and what its database
    holds (``summary``, ``text``); ``unknown``: questions of the family still unknown."""

    db: str
    questions: int
    stored_before: int
    asked: int
    orbits: int
    seconds: float
    unknown: int
    summary: dict = field(default_factory=dict)
    text: str = ""

    @property
    def exit_code(self) -> int:
        return 3 if self.unknown else 0

    def to_json(self) -> dict:
        """The object of ``kt-formal census --json``."""
        from kt_formal.io import jsonout

        summary = dict(self.summary, unknown=int(self.unknown))
        run = {"questions": self.questions, "stored_before": self.stored_before, "asked": self.asked,
               "orbits": self.orbits, "seconds": round(float(self.seconds), 6)}
        return jsonout.census_json("census", "unknown" if self.unknown else "done", self.exit_code, self.text,
                                   db=str(self.db), summary=summary, run=run)


def _summary(store) -> tuple[dict, str]:
    from kt_formal.survey import report

    return report.summary_dict(store), "\n".join(report.summary_lines(store))


def census(family, *, db, time_limit: float | None = CENSUS_TIME_LIMIT, workers: int = 2, dask: str | None = None,
           retry_unknown: bool = False, progress=None) -> CensusResult:
    """Answer every question of ``family`` into the SQLite database ``db``: ``kt-formal
    census`` in Python.

    Parameters
    ----------
    family : Family
        The boards and the kind of holes (:class:`kt_formal.survey.families.Family`).
    db : path
        The database (created if missing; a foreign or newer file is refused).
    time_limit : float or None
        Seconds for each question before it is stored as unknown.
    workers : int
        Processes (local, or of ``dask="local"``), 1 to 1024.
    dask : str, optional
        A Dask scheduler's address, or ``"local"``.
    retry_unknown : bool
        Ask the stored unknowns again with 4 times the time limit.
    progress : callable, optional
        ``progress(done, total, text)``.

    Returns
    -------
    CensusResult

    Examples
    --------
    >>> import os, tempfile
    >>> from kt_formal.survey.families import Family
    >>> db = os.path.join(tempfile.mkdtemp(), "holes.sqlite")
    >>> r = census(Family(rows=5, cols=5, hole_size="1x1", closed=False), db=db, workers=1)
    >>> r.questions, r.asked, r.exit_code
    (25, 25, 0)
    """
    from kt_formal.question import check_time_limit
    from kt_formal.survey.runners import DaskConnection, run_census
    from kt_formal.survey.store import Store, check_store_file

    time_limit = check_time_limit(time_limit)
    if isinstance(workers, bool) or not isinstance(workers, int) or not 1 <= workers <= 1024:
        raise InvalidInput(f"workers must be between 1 and 1024, got {workers!r}")
    db = os.fspath(db)
    check_store_file(db)  # refuse a foreign or newer file before anything else
    questions = family.questions()
    conn = DaskConnection(dask, workers) if dask else None  # first: an unreachable scheduler leaves no database
    try:
        with Store.open(db) as store:
            run = run_census(questions, store, time_limit=time_limit, workers=workers, dask=conn,
                             retry_unknown=retry_unknown, progress=progress)
            unknown = store.unknown_among(questions)
            summary, text = _summary(store)
    finally:
        if conn is not None:
            conn.close()
    return CensusResult(db, run.questions, run.stored_before, run.asked, run.orbits, run.seconds, unknown,
                        summary, text)


def board_size(text) -> tuple[int, int] | None:
    """A board size ``"8x10"`` as ``(8, 10)`` (None for None); InvalidInput otherwise."""
    if text is None:
        return None
    from kt_formal.board import MAX_SIDE

    mt = re.fullmatch(r"\s*(\d{1,12})\s*[xX]\s*(\d{1,12})\s*", text)
    if not mt:
        raise InvalidInput(f"--board must look like 8x10, got {text[:40]!r}")
    rows, cols = int(mt.group(1)), int(mt.group(2))
    if not (1 <= rows <= MAX_SIDE and 1 <= cols <= MAX_SIDE):
        raise InvalidInput(f"--board sides must be from 1 to {MAX_SIDE:,}, got {text!r}")
    return rows, cols


@dataclass
class ReportResult:
    """What :func:`census_report` wrote: ``notes`` (one line a file), the summary of the
    database (``summary``, ``text``; empty for a verdict table), ``disagreements`` with
    published theorems, certificates ``rejected`` by the kernel (those not readable JSON
    among them, each named in ``unreadable``); ``exit_code`` 1 when either is not zero."""

    db: str
    notes: list = field(default_factory=list)
    summary: dict = field(default_factory=dict)
    text: str = ""
    disagreements: list = field(default_factory=list)
    rejected: int = 0
    unreadable: list = field(default_factory=list)

    @property
    def exit_code(self) -> int:
        return 1 if self.disagreements or self.rejected else 0

    def to_json(self) -> dict:
        """The object of ``kt-formal census-report --json``."""
        from kt_formal.io import jsonout

        return jsonout.census_json("census-report", "done", self.exit_code, self.text, db=str(self.db),
                                   summary=dict(self.summary))


def _findings(result: ReportResult, source, out, board) -> None:
    from kt_formal.files import output_name
    from kt_formal.survey import atlas

    checks = atlas.write_findings(source, out, board=board)
    disagree = [f"DISAGREEMENT with {c.name}: {d}" for c in checks for d in c.disagreements]
    result.notes.append(f"findings written to {output_name(out)}; theorem checks: {len(checks)} theorems, "
                        f"{sum(c.checked for c in checks)} rows they speak of, {len(disagree)} disagreements")
    result.disagreements += disagree


def census_report(db, *, csv=None, certificates: bool = False, map=None, board=None, axes: str = "chess",
                  table=None, findings=None, html=None) -> ReportResult:
    """Write what a census database (or, for ``findings`` only, a verdict table ``.csv(.gz)``)
    holds: a CSV file, maps, the verdict table, the findings (Markdown) and one HTML page.

    ``board`` (``(rows, cols)``) keeps the maps and findings to one board size; ``axes``
    labels the maps (``chess`` or ``rc``). Certificates the kernel rejects are shown as
    rejected, never as answers, and counted in ``rejected``; a stored certificate that is
    not readable JSON is named in ``unreadable`` and counted in the summary as
    ``unreadable`` (the report goes on: one damaged row is not a damaged database).
    """
    from kt_formal.files import output_name
    from kt_formal.survey import atlas, report
    from kt_formal.survey.store import Store

    if map:
        from kt_formal.io.render import check_picture_path

        check_picture_path(map)
    db = os.fspath(db)
    result = ReportResult(db)
    if db.endswith((".csv", ".csv.gz")):  # a verdict table: only its findings
        if not findings or any((csv, map, table, html)):
            raise InvalidInput(Worded(f"{db} is a verdict table: it gives {{findings}} only (the rest needs "
                                      "the census database)", {"findings": "findings"}))
        _findings(result, db, findings, board)
        return result
    with Store.open(db, readonly=True) as store:
        result.summary, result.text = _summary(store)
        if csv:
            n = report.write_csv(store, csv, certificates=certificates)
            result.notes.append(f"{n} rows written to {output_name(csv)}")
        if map:
            files = report.write_map(store, map, board=board, squares=axes)
            result.notes.append(f"map written to {output_name(files[0])}" if len(files) == 1 else
                                f"{len(files)} maps written ({files[0]} ... {files[-1]})")
        if table:
            n = atlas.write_table(store, table)
            result.notes.append(f"{n} rows written to {output_name(table)}")
        if findings:
            _findings(result, store, findings, board)
        if html:
            size = atlas.write_html(store, html, board=board)
            where = output_name(html)
            result.notes.append(f"page written to {where} ({size / 1e6:.1f} MB)" if size >= 1e6 else
                                f"page written to {where} ({size / 1e3:.0f} kB)")
        unreadable = report.unreadable_rows(store)
        result.unreadable = [line for _, line in unreadable]
        result.rejected = len({rid for rid, (answer, _) in store.checked.items() if answer == report.REJECTED}
                              | {rid for rid, _ in unreadable})
    return result
