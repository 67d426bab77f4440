"""The census store: one SQLite file, one row per question, committed as answers arrive.

Table ``verdicts``::

    rows, cols      board size
    holes           JSON list of removed [row, col], sorted
    tour            'closed' or 'open'
    start, "end"    JSON [row, col] of a fixed end, or 'null'
    answer          'yes', 'no' or 'unknown'
    certificate     the JSON `kt-formal verify` reads (a tour or a proof); NULL when unknown
    seconds         time spent on the question (0 for an answer moved by a symmetry)
    route           how the answer was reached (decide's route, '+sym:NAME' when moved)
    UNIQUE (rows, cols, holes, tour, start, "end")

The file is in WAL mode with ``synchronous=NORMAL``: a committed row survives the
process being killed, so ``kill -9`` loses only what was not yet committed. The
writer commits in batches, at most :data:`COMMIT_SECONDS` apart.

``PRAGMA application_id`` (:data:`APPLICATION_ID`) marks a census file and
``PRAGMA user_version`` its schema (:data:`SCHEMA_VERSION`). An existing file is
checked first, from its header bytes alone, and refused, untouched, when it is not
SQLite, was written by something else, or by a newer schema.

>>> import tempfile, os
>>> path = os.path.join(tempfile.mkdtemp(), "c.sqlite")
>>> with Store.open(path) as s:
...     s.add([(3, 4, ((0, 0),), False, None, None, "yes", None, 0.1, "test")])
...     s.flush()
...     s.count()
1
"""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path

from kt_formal.exceptions import CertificateRejected, InvalidInput
from kt_formal.files import regular_file

__all__ = ["Store", "APPLICATION_ID", "SCHEMA_VERSION", "COMMIT_SECONDS", "question_key",
           "row_question", "COLUMNS", "check_store_file"]

#: ``PRAGMA application_id`` of a census file ("KTce").
APPLICATION_ID = 0x4B546365

#: ``PRAGMA user_version``: the schema written by this code.
SCHEMA_VERSION = 1

#: Longest time between commits while answers arrive (seconds).
COMMIT_SECONDS = 0.2

#: Largest board side a stored row may name.
_MAX_SIDE = 10**9

#: The columns of ``verdicts`` in order.
COLUMNS = ("rows", "cols", "holes", "tour", "start", "end", "answer", "certificate", "seconds", "route")

_SCHEMA = """
CREATE TABLE verdicts (
    id INTEGER PRIMARY KEY,
    rows INTEGER NOT NULL,
    cols INTEGER NOT NULL,
    holes TEXT NOT NULL,
    tour TEXT NOT NULL CHECK (tour IN ('closed', 'open')),
    start TEXT NOT NULL,
    "end" TEXT NOT NULL,
    answer TEXT NOT NULL CHECK (answer IN ('yes', 'no', 'unknown')),
    certificate TEXT,
    seconds REAL NOT NULL,
    route TEXT NOT NULL,
    UNIQUE (rows, cols, holes, tour, start, "end")
);
"""

_UPSERT = """
INSERT INTO verdicts (rows, cols, holes, tour, start, "end", answer, certificate, seconds, route)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (rows, cols, holes, tour, start, "end") DO UPDATE SET
    answer = excluded.answer, certificate = excluded.certificate,
    seconds = excluded.seconds, route = excluded.route
WHERE verdicts.answer = 'unknown'
"""


def _sq_text(sq) -> str:
    return "null" if sq is None else f"[{int(sq[0])}, {int(sq[1])}]"


def question_key(q) -> tuple:
    """The UNIQUE columns of a question: (rows, cols, holes, tour, start, end) as stored.

    >>> question_key((3, 4, ((0, 1), (0, 0)), True, None, (2, 3)))
    (3, 4, '[[0, 0], [0, 1]]', 'closed', 'null', '[2, 3]')
    """
    rows, cols, holes, closed, start, end = q
    h = json.dumps(sorted([int(r), int(c)] for r, c in holes))
    return (int(rows), int(cols), h, "closed" if closed else "open", _sq_text(start), _sq_text(end))


def row_question(rows, cols, holes, tour, start, end):
    """Inverse of :func:`question_key`: the question tuple of a stored row.

    Every value must lie in its domain (sides positive integers, ``tour`` 'closed' or
    'open', holes and ends squares of the board, read as strict JSON); anything else
    raises :class:`~kt_formal.exceptions.InvalidInput`. Equal questions give equal tuples
    however their text was spaced or ordered.

    >>> row_question(3, 4, "[[0, 1],[0,0]]", "closed", "null", "[2,3]")
    (3, 4, ((0, 0), (0, 1)), True, None, (2, 3))
    >>> row_question(3, 4, "[]", "banana", "null", "null")
    Traceback (most recent call last):
    ...
    kt_formal.kernel.errors.InvalidInput: stored tour 'banana' is neither 'closed' nor 'open'
    """
    from kt_formal.kernel.reader import loads_strict

    for side in (rows, cols):
        if type(side) is not int or not 1 <= side <= _MAX_SIDE:
            raise InvalidInput(f"stored board side {side!r:.40} is not an integer in 1..{_MAX_SIDE:,}")
    if tour not in ("closed", "open"):
        raise InvalidInput(f"stored tour {tour!r:.40} is neither 'closed' nor 'open'")

    def square(v, what):
        if not (isinstance(v, list) and len(v) == 2 and all(type(x) is int for x in v)
                and 0 <= v[0] < rows and 0 <= v[1] < cols):
            raise InvalidInput(f"stored {what} {v!r:.40} is not a square of the {rows}x{cols} board")
        return (v[0], v[1])

    def value(text, what):
        if not isinstance(text, str):
            raise InvalidInput(f"stored {what} is not JSON text")
        try:
            return loads_strict(text)
        except CertificateRejected as exc:
            raise InvalidInput(f"stored {what}: {exc}") from None

    hole_list = value(holes, "holes")
    if not isinstance(hole_list, list):
        raise InvalidInput("stored holes are not a list")
    hs = tuple(sorted({square(h, "hole") for h in hole_list}))
    if len(hs) != len(hole_list):
        raise InvalidInput("stored holes name a square twice")
    ends = []
    for text, what in ((start, "start"), (end, "end")):
        v = value(text, what)
        ends.append(None if v is None else square(v, what))
    return (rows, cols, hs, tour == "closed", ends[0], ends[1])


def _uri(path: Path, mode: str) -> str:
    return f"{path.resolve().as_uri()}?mode={mode}"


def check_store_file(path) -> bool:
    """Refuse (InvalidInput) a file that is not a census store of a schema this code knows.

    Opens it read-only and changes nothing. Returns False when the file does not exist
    or is empty (a new store may be created there), True for a valid store.
    """
    p = Path(path)
    if p.is_dir():
        raise InvalidInput(f"census database {p.name}: is a folder, not a database file")
    if not p.exists():
        return False
    if regular_file(p, "census database ").stat().st_size == 0:  # a FIFO or a device (/dev/zero) is refused
        return False
    try:
        with open(p, "rb") as fh:
            head = fh.read(100)
    except OSError as exc:
        raise InvalidInput(f"census database {p.name}: cannot read ({exc.strerror})") from None
    if len(head) < 100 or head[:16] != b"SQLite format 3\x00":
        raise InvalidInput(f"census database {p.name}: not an SQLite file")
    # the marks are read from the file header (user_version at byte 60, application_id at 68),
    # so a refused file is not even opened by SQLite; a census writes them before WAL mode
    version = int.from_bytes(head[60:64], "big")
    app = int.from_bytes(head[68:72], "big")
    if app != APPLICATION_ID:
        raise InvalidInput(f"census database {p.name}: written by something else (application_id {app:#x}, "
                           f"a census file has {APPLICATION_ID:#x}); refusing to touch it")
    if version > SCHEMA_VERSION:
        raise InvalidInput(f"census database {p.name}: written by a newer census (schema {version}, this one "
                           f"knows up to {SCHEMA_VERSION}); refusing to touch it")
    if version < 1:
        raise InvalidInput(f"census database {p.name}: schema version {version} is not a known one")
    return True


class Store:
    """A census database opened for reading and writing (see the module docstring).

    Use :meth:`open` (which checks the file first) rather than the constructor.
    """

    def __init__(self, con: sqlite3.Connection, path: Path):
        self.con = con
        self.path = path
        self._pending: list[tuple] = []
        self._last = time.monotonic()
        self.written = 0
        self.checked: dict = {}  # row id -> (answer, method) after the kernel's check (the reports')

    @classmethod
    def open(cls, path, readonly: bool = False) -> "Store":
        """Open (or create, unless ``readonly``) the store at ``path``; refuses foreign files."""
        p = Path(path)
        exists = check_store_file(p)
        if readonly:
            if not exists:
                raise InvalidInput(f"census database {p.name}: no such file")
            try:
                con = sqlite3.connect(_uri(p, "ro"), uri=True)
                con.execute("SELECT COUNT(*) FROM verdicts").fetchone()
            except sqlite3.Error as exc:
                raise InvalidInput(f"census database {p.name}: unreadable ({exc})") from None
            return cls(con, p)
        try:
            con = sqlite3.connect(str(p), isolation_level=None)
        except sqlite3.Error as exc:
            raise InvalidInput(f"census database {p.name}: cannot open ({exc})") from None
        try:
            if not exists:  # schema and marks in the main file first, then WAL mode
                con.execute("BEGIN IMMEDIATE")
                con.execute(_SCHEMA.strip().rstrip(";"))
                con.execute(f"PRAGMA application_id = {APPLICATION_ID}")
                con.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
                con.execute("COMMIT")
            con.execute("PRAGMA journal_mode=WAL")
            con.execute("PRAGMA synchronous=NORMAL")
        except sqlite3.Error as exc:
            con.close()
            raise InvalidInput(f"census database {p.name}: cannot write ({exc})") from None
        return cls(con, p)

    # ------------------------------------------------------------------ writing
    def add(self, rows) -> None:
        """Queue rows ``(*question, answer, certificate, seconds, route)``; commit when due.

        ``certificate`` is JSON text or None. A row replaces a stored one only when that
        one is unknown.
        """
        for r in rows:
            q = r[:6]
            self._pending.append((*question_key(q), r[6], r[7], float(r[8]), str(r[9])))
        if time.monotonic() - self._last >= COMMIT_SECONDS:
            self.flush()

    def flush(self) -> None:
        """Commit every queued row now."""
        if self._pending:
            self.con.execute("BEGIN IMMEDIATE")
            self.con.executemany(_UPSERT, self._pending)
            self.con.execute("COMMIT")
            self.written += len(self._pending)
            self._pending.clear()
        self._last = time.monotonic()

    # ------------------------------------------------------------------ reading
    def answered(self, include_unknown: bool = True) -> set[tuple]:
        """Keys (see :func:`question_key`) of the stored questions (only known answers if asked)."""
        sql = 'SELECT rows, cols, holes, tour, start, "end" FROM verdicts'
        if not include_unknown:
            sql += " WHERE answer != 'unknown'"
        return set(self.con.execute(sql))

    def unknown_among(self, questions) -> int:
        """How many of ``questions`` (question tuples) are stored as unknown."""
        keys = {question_key(q) for q in questions}
        unknown = self.con.execute('SELECT rows, cols, holes, tour, start, "end" FROM verdicts '
                                   "WHERE answer = 'unknown'")
        return sum(1 for r in unknown if tuple(r) in keys)

    def count(self) -> int:
        """Rows stored."""
        return self.con.execute("SELECT COUNT(*) FROM verdicts").fetchone()[0]

    def rows(self, with_certificate: bool = False):
        """Every row as a dict of :data:`COLUMNS`, in question order."""
        cols = COLUMNS if with_certificate else tuple(c for c in COLUMNS if c != "certificate")
        sql = ("SELECT " + ", ".join(f'"{c}"' for c in cols) + " FROM verdicts "
               'ORDER BY rows, cols, tour, holes, start, "end"')
        for r in self.con.execute(sql):
            yield dict(zip(cols, r))

    def close(self) -> None:
        """Commit what is queued and close the file."""
        try:
            self.flush()
        finally:
            self.con.close()

    def __enter__(self) -> "Store":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
