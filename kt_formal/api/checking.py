"""Checking what was claimed, in Python: :func:`verify` (``kt-formal verify``).

A certificate (a tour or a proof, as JSON) or a tour file in any format ``kt-formal tour``
writes is re-checked from the board and the knight rule alone by the trusted kernel; the
:class:`Verification` says exactly what was checked, or why it was refused. No search is
run unless a record that only a search could confirm is to be replayed (``replay``).

>>> from kt_formal.api.answers import decide
>>> v = verify(decide(5, 5).certificate)
>>> v.answer, v.exit_code, v.claim.startswith("no closed tour of the 5x5 board")
('verified', 0, True)
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass

from kt_formal.exceptions import (CertificateNotChecked, CertificateRejected, Worded,
                                  LimitReached)
from kt_formal.question import DEFAULT_TIME_LIMIT

__all__ = ["verify", "verify_database", "Verification", "DatabaseCheck"]


@dataclass(frozen=True)
class Verification:
    """What :func:`verify` checked.

    ``answer``: ``verified`` (the kernel checked ``claim``), ``replayed`` (a search record
    re-run), ``rejected`` (``claim`` is the kernel's reason), ``not-checked`` (a record only a
    search could confirm, without ``replay``) or ``unknown`` (a replay ran out of time).
    ``exit_code`` is the command's: 0 verified or replayed, 1 rejected or not checked, 3 unknown.
    """

    file: str | None
    answer: str
    claim: str

    @property
    def exit_code(self) -> int:
        return {"verified": 0, "replayed": 0, "rejected": 1, "not-checked": 1, "unknown": 3}[self.answer]

    @property
    def ok(self) -> bool:
        """True when the claim was checked (verified or replayed)."""
        return self.exit_code == 0

    def text(self) -> str:
        """The command's line: ``OK: claim``, ``REPLAYED: claim``, ``REJECTED: reason``, ..."""
        from kt_formal.api.words import in_command_words

        head = {"verified": "OK: ", "replayed": "REPLAYED: ", "rejected": "REJECTED: ", "unknown": "UNKNOWN: "}
        return head.get(self.answer, "") + in_command_words(self.claim)

    def to_json(self) -> dict:
        """The object of ``kt-formal verify --json`` for this file."""
        from kt_formal.io import jsonout

        return jsonout.verify_json(self.file, self.answer, self.exit_code, self.claim)


def _is_json_file(path: str) -> bool:
    """True for a JSON certificate, and for anything that is not a regular file (a pipe,
    a FIFO, a device): those are read only by the kernel's bounded reader."""
    import stat

    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)  # a FIFO without writer must not block
    except OSError:
        return True  # the reader reports the error
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return True
        head = os.read(fd, 4096)
    except OSError:
        return True
    finally:
        os.close(fd)
    from kt_formal.kernel.reader import UTF8_BOM

    return head.removeprefix(UTF8_BOM).lstrip().startswith(b"{")


def _certificate_claim(d: dict, closed: bool, replay: bool, time_limit) -> tuple[str, str]:
    from kt_formal.claims import check_certificate

    try:
        claim = check_certificate(d)
    except CertificateNotChecked:
        if not replay:
            raise
        from kt_formal.proofs.replay import replay_exhaustive

        return "replayed", replay_exhaustive(d, time_limit)
    if closed and d.get("kind") == "tour" and d.get("closed") is False:
        raise CertificateRejected("the certificate is of an open tour; a closed one was asked")
    return "verified", claim


def _tour_file_claim(path: str, closed: bool) -> str:
    from kt_formal.claims import question_text
    from kt_formal.io.formats import read_tour_file

    tour, how = read_tour_file(path, closed=True if closed else None)  # checked by the kernel's tour check
    b = tour.board
    first, last = divmod(int(tour.order[0]), b.cols), divmod(int(tour.order[-1]), b.cols)
    what = question_text(b.rows, b.cols, b.n_holes, b.first_holes(6), tour.closed, first, last)
    closing = ", the closing move included" if tour.closed else ""
    claim = (f"{what}: every square visited once, every step a knight move{closing} "
             f"({len(tour)} square{'s' if len(tour) != 1 else ''}; read as a ")
    return Worded(claim + how.template + ")", how.python) if isinstance(how, Worded) else f"{claim}{how})"


def _kept(exc: BaseException) -> str:
    """The message of ``exc``, kept :class:`~kt_formal.exceptions.Worded` if it is (the
    command then names its own options)."""
    return exc.args[0] if len(exc.args) == 1 and isinstance(exc.args[0], Worded) else str(exc)


def _stdin_claim(closed: bool, replay: bool, time_limit) -> tuple[str, str]:
    """Standard input, read once up to the certificate reader's bound, then checked as the
    file it is (a certificate, a grid, a list, a ``.npy`` or ``.ktour`` file)."""
    from kt_formal.io.formats import standard_input_file

    with standard_input_file() as path:
        answer, claim = _claim(path, closed, replay, time_limit)
    if claim.endswith(")") and not path.endswith(".json"):
        claim = claim.edited(lambda t: t[:-1] + ", from standard input)") if isinstance(claim, Worded) \
            else claim[:-1] + ", from standard input)"
    return answer, claim


def _claim(path: str, closed: bool, replay: bool, time_limit) -> tuple[str, str]:
    """(answer, claim) of one file; raises CertificateRejected, CertificateNotChecked,
    LimitReached (a replay out of time) or InvalidInput (unreadable)."""
    from kt_formal import kernel

    if path == "-":
        return _stdin_claim(closed, replay, time_limit)
    if _is_json_file(path):
        return _certificate_claim(kernel.read_certificate(path), closed, replay, time_limit)
    return "verified", _tour_file_claim(path, closed)


def verify(certificate, *, closed: bool = False, replay: bool = False,
           time_limit: float | None = DEFAULT_TIME_LIMIT) -> Verification:
    """Check a certificate or a tour file with the trusted kernel: ``kt-formal verify`` in Python.

    Parameters
    ----------
    certificate : dict or path
        A certificate (``Decision.certificate``, a tour's ``to_dict()``) or a file: a JSON
        certificate or a tour in any format ``kt-formal tour`` writes; ``"-"`` is standard input.
    closed : bool
        Check a tour as a closed one (a file that says its tour is open is then rejected).
    replay : bool
        Re-run the search an ``exhaustive`` record names (the kernel runs no search, so
        without it such a record is ``not-checked``).
    time_limit : float or None
        Seconds for a replay; past them the answer is ``unknown``.

    Returns
    -------
    Verification
        ``answer`` and the ``claim`` checked (or the reason it was refused).

    Raises
    ------
    InvalidInput
        A file that cannot be read, or is not a certificate or a tour file.

    Examples
    --------
    >>> from kt_formal.api.answers import tour
    >>> v = verify(tour(6, 6, threads=1).certificate, closed=True)
    >>> v.answer, v.text().startswith("OK: closed tour of the 6x6 board")
    ('verified', True)
    >>> verify({"kind": "tour", "rows": 3, "cols": 3}).answer
    'rejected'
    """
    from kt_formal.question import check_time_limit

    time_limit = check_time_limit(time_limit)
    file = None
    try:
        if isinstance(certificate, Mapping):
            answer, claim = _certificate_claim(dict(certificate), closed, replay, time_limit)
        else:
            file = os.fspath(certificate)
            answer, claim = _claim(file, closed, replay, time_limit)
    except CertificateNotChecked as exc:
        return Verification(file, "not-checked", _kept(exc))
    except CertificateRejected as exc:
        return Verification(file, "rejected", str(exc))
    except LimitReached as exc:
        return Verification(file, "unknown", _kept(exc))
    return Verification(file, answer, claim)


@dataclass(frozen=True)
class DatabaseCheck:
    """What :func:`verify_database` checked: ``checked`` certificates, ``failed`` of them
    rejected or not checked (one line each in ``failures``), ``unknown_rows`` without one."""

    db: str
    checked: int
    failed: int
    unknown_rows: int
    failures: tuple

    @property
    def exit_code(self) -> int:
        return 1 if self.failed else 0

    def text(self) -> str:
        """The command's summary line."""
        bad = f"; {self.failed} REJECTED or NOT CHECKED" if self.failed else ""
        return (f"{self.checked - self.failed} of {self.checked} certificates verified in {self.db}{bad}; "
                f"{self.unknown_rows} unknown rows without a certificate")

    def to_json(self) -> list[dict]:
        """The objects of ``kt-formal verify --db --json``: one a failure, then the summary."""
        from kt_formal.io import jsonout

        text = (f"{self.checked - self.failed} of {self.checked} certificates verified in {self.db}; "
                f"{self.unknown_rows} unknown rows without a certificate")
        return [*(jsonout.verify_json(self.db, "rejected", 1, line) for line in self.failures),
                jsonout.verify_json(self.db, "rejected" if self.failed else "verified", self.exit_code, text,
                                    checked={"checked": self.checked, "failed": self.failed,
                                             "unknown_rows": self.unknown_rows})]


def verify_database(db, *, replay: bool = False, time_limit: float | None = DEFAULT_TIME_LIMIT,
                    progress=None) -> DatabaseCheck:
    """Re-check every certificate a census stored in ``db`` (``kt-formal verify --db``); with
    ``replay``, exhaustive records are re-run within ``time_limit`` seconds together."""
    from kt_formal.question import check_time_limit
    from kt_formal.survey.report import verify_store

    time_limit = check_time_limit(time_limit)
    checked, failed, unknown, failures = verify_store(os.fspath(db), progress=progress, replay=replay,
                                                      time_limit=time_limit)
    return DatabaseCheck(os.fspath(db), checked, failed, unknown, tuple(failures))
