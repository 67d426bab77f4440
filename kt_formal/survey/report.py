"""Reports on a census store: the answer table, a summary, CSV, maps, and re-checking.

The *table* of a census is one line per question with its answer and, for a "no",
the proof method: what two runs of the same census must agree on (certificates and
times may differ between runs; the answers may not).

A *map* is a picture of the answers. For questions on one board size it is that
board, each square coloured by the answer of the question whose holes start there
(the top-left hole: for one removed square the square itself, for an H x W hole
its corner); with several board sizes it is a grid with one cell per (rows, cols),
coloured by the answers on that size. Closed and open tours are drawn side by
side. Colours: green all yes, red all no, a mix of both amber, grey any unknown.

>>> import tempfile, os
>>> from kt_formal.survey import Store, run_census, remove_squares
>>> path = os.path.join(tempfile.mkdtemp(), "c.sqlite")
>>> with Store.open(path) as s:
...     _ = run_census(remove_squares(3, 3, 1), s, time_limit=5.0)
>>> with Store.open(path, readonly=True) as s:
...     for line in summary_lines(s)[1:]:
...         print(line)
answer                  closed   total
yes                          1       1
no: colour                   4       4
no: degree                   4       4
unknown                      0       0
>>> verify_store(path)
(9, 0, 0, [])
"""

from __future__ import annotations

import csv
import json
import sqlite3
from pathlib import Path


from kt_formal.survey.store import COLUMNS, Store, row_question
from kt_formal.exceptions import CertificateNotChecked, CertificateRejected, InvalidInput, KtFormalError
from kt_formal.files import output_file
from kt_formal.kernel.reader import certificate_from_text
from kt_formal.question import DEFAULT_TIME_LIMIT

__all__ = ["census_table", "rect_of", "summary_lines", "summary_dict", "write_csv", "write_map", "map_figures", "board_list",
           "cell_key", "family_words", "proof_method", "checked_verdicts", "REJECTED", "UNREADABLE", "unreadable_rows", "verify_store", "COLOURS", "LEGEND", "METHOD_KEYS"]

#: Map colours (RGB) by summary of the answers in one cell.
COLOURS = {
    "yes": (60, 170, 90),
    "no-colour": (240, 160, 150),
    "no-degree": (225, 100, 60),
    "no-separator": (165, 35, 45),
    "no-drup": (110, 60, 170),
    "no": (200, 60, 50),
    "mixed": (235, 170, 40),
    "unknown": (150, 150, 150),
    "rejected": (30, 30, 30),
    "none": (232, 232, 232),
}

#: Whether a row's certificate is JSON text SQLite can read: its ``json_extract`` raises on
#: anything else (malformed, nested past its depth, a blob), which would end a whole report.
_READABLE = "(typeof(certificate) = 'text' AND json_valid(certificate))"

#: The proof method of a "no": a proof's ``method``, else the certificate's ``kind`` (a SAT
#: solver's DRUP proof and an exhaustive search record carry no method, only a kind); None
#: for a certificate that is not readable JSON.
_METHOD = (f"CASE WHEN {_READABLE} THEN "
           "COALESCE(json_extract(certificate, '$.method'), json_extract(certificate, '$.kind')) END")

#: The summary's answer of a stored yes or no whose certificate is not readable JSON (see
#: :func:`unreadable_rows`).
UNREADABLE = "unreadable"


#: The answer reports give a stored row whose certificate the kernel refuses.
REJECTED = "rejected"

#: What a report may not take on trust from a row's certificate: anything a hostile file can raise.
_HOSTILE = (KtFormalError, ValueError, TypeError, KeyError, AttributeError, IndexError, RecursionError,
            OverflowError)


def _kernel_answer(row: tuple) -> tuple:
    """``(answer, method, certificate)`` of a stored row ``(rows, cols, holes, tour, start, end,
    answer, certificate text)`` after the kernel's check: the answer "rejected" with the reason as
    method when the kernel refuses the certificate (or it is not about the row's question)."""
    from kt_formal.survey.runners import check_row_certificate

    *where, answer, cert = row
    if answer == "unknown":
        return answer, None, None
    try:
        if answer not in ("yes", "no"):
            raise CertificateRejected(f"the answer {str(answer)[:20]!r} is not yes, no or unknown")
        if cert is None:
            raise CertificateRejected(f"answer {answer!r} without a certificate")
        d = certificate_from_text(cert)  # as verify --db reads it: a duplicate key refused
        check_row_certificate(row_question(*where), answer, d, full=False)
    except _HOSTILE as exc:
        return REJECTED, " ".join(str(exc).split())[:300], None
    method = (d.get("method") or d.get("kind")) if answer == "no" else None
    return answer, method if isinstance(method, str) else None, d


def checked_verdicts(store: Store, board=None, certificates: bool = False):
    """Every stored row of one board (or all) as ``(rows, cols, holes, tour, start, end, answer,
    method, certificate)``, its certificate checked by the kernel first.

    ``answer`` is "rejected" (:data:`REJECTED`) and ``method`` the reason when the kernel
    refuses the certificate; ``method`` is the proof method of a "no", else None; the
    certificate (a dict) is given for an accepted row when ``certificates``, else None.
    Search records (``exhaustive``) pass unchecked (the kernel runs no search; ``verify
    --db --replay`` re-runs them). A row is checked once per opened store.
    """
    sql = 'SELECT id, rows, cols, holes, tour, start, "end", answer, certificate FROM verdicts'
    params: tuple = ()
    if board is not None:
        sql += " WHERE rows = ? AND cols = ?"
        params = tuple(board)
    for id_, *row in store.con.execute(sql, params):
        known = store.checked.get(id_)
        if known is None:
            answer, method, d = _kernel_answer(tuple(row))
            store.checked[id_] = (answer, method)
        else:
            answer, method = known
            d = certificate_from_text(row[-1]) if certificates and answer in ("yes", "no") else None
        yield (*row[:6], answer, method, d if certificates else None)


def family_words(sizes, holes) -> tuple[str, str]:
    """``(title, description)`` of a census of one-hole questions, in words that fit it: the
    title "The atlas of holed boards" for an atlas (closed tours with holes of several sizes,
    open tours with one square removed), else "Knight's tours on holed boards"; the
    description names the kinds of tour, the holes and the boards (one or several).

    ``sizes`` are the ``(rows, cols)`` of the boards, ``holes`` the ``(tour, height, width)``
    asked.

    >>> family_words({(8, 8)}, {("closed", 2, 2)})
    ("Knight's tours on holed boards", 'closed tours with a 2x2 hole, on the 8x8 board')
    >>> family_words({(5, 5), (5, 6)}, {("closed", 1, 1), ("closed", 2, 1), ("open", 1, 1)})[0]
    'The atlas of holed boards'
    """
    sizes = sorted(sizes)
    parts = []
    for kind in ("closed", "open"):
        hw = sorted({(h, w) for t, h, w in holes if t == kind})
        if hw:
            what = ("one square removed" if hw == [(1, 1)] else f"a {hw[0][0]}x{hw[0][1]} hole" if len(hw) == 1
                    else f"a rectangular hole of {len(hw)} sizes ({hw[0][0]}x{hw[0][1]} to {hw[-1][0]}x{hw[-1][1]})")
            parts.append(f"{kind} tours with {what}")
    on = (f"the {sizes[0][0]}x{sizes[0][1]} board" if len(sizes) == 1 else
          f"{len(sizes)} board sizes ({sizes[0][0]}x{sizes[0][1]} to {sizes[-1][0]}x{sizes[-1][1]})")
    atlas = (len({(h, w) for t, h, w in holes if t == "closed"}) > 1
             and {(h, w) for t, h, w in holes if t == "open"} == {(1, 1)})
    return ("The atlas of holed boards" if atlas else "Knight's tours on holed boards",
            " and ".join(parts) + ", on " + on)


def census_table(store: Store) -> list[tuple]:
    """Every stored question with its answer and proof method, sorted.

    Rows ``(rows, cols, holes, tour, start, end, answer, method)``; method is None
    unless the answer is no.
    """
    sql = (f'SELECT rows, cols, holes, tour, start, "end", answer, '
           f"CASE WHEN answer = 'no' THEN {_METHOD} END FROM verdicts")
    return sorted(store.con.execute(sql))


def summary_lines(store: Store) -> list[str]:
    """The summary table: yes, no by proof method, unknown; a column per kind of tour
    (:func:`summary_dict` in words)."""
    d = summary_dict(store)
    counts = d["answers"]
    kinds = [k for k in ("closed", "open") if any(k in v for v in counts.values())]
    order = ["yes"] + sorted(k for k in counts if k.startswith("no:")) + ["unknown"]
    order += [UNREADABLE] if UNREADABLE in counts else []
    width = 22
    lines = [f"{d['questions']} questions stored; {d['seconds']:.1f} s of solving",
             "answer".ljust(width) + "".join(f"{k:>8}" for k in kinds) + f"{'total':>8}"]
    for label in order:
        if label not in counts and label not in ("yes", "unknown"):
            continue
        row = counts.get(label, {})
        lines.append((label if label != UNREADABLE else "unreadable certificate").ljust(width)
                     + "".join(f"{row.get(k, 0):>8}" for k in kinds) + f"{sum(row.values()):>8}")
    return lines


def summary_dict(store: Store) -> dict:
    """The summary as data: ``{"questions", "seconds", "answers": {answer: {kind: n}}}``, the
    answers ``yes``, ``no: METHOD`` (one per proof method) and ``unknown`` as stored, and
    ``unreadable`` (:data:`UNREADABLE`) for a yes or no whose certificate is not readable
    JSON (:func:`unreadable_rows` names them). The kernel checks no certificate here."""
    sql = (f"SELECT tour, CASE WHEN answer IN ('yes', 'no') AND certificate IS NOT NULL AND NOT {_READABLE} "
           f"THEN '{UNREADABLE}' ELSE answer END, CASE WHEN answer = 'no' THEN {_METHOD} END, COUNT(*), "
           "SUM(seconds) FROM verdicts GROUP BY 1, 2, 3")
    answers: dict = {}
    seconds = 0.0
    total = 0
    for tour, answer, method, n, secs in store.con.execute(sql):
        label = f"no: {method}" if answer == "no" else answer
        row = answers.setdefault(label, {})
        row[tour] = row.get(tour, 0) + int(n)
        seconds += secs or 0.0
        total += int(n)
    return {"questions": total, "seconds": round(seconds, 6), "answers": answers}


def _row_words(row) -> str:
    """A stored row ``(rows, cols, holes, tour, start, end)`` in words for a message."""
    m, n, holes, tour, start, end = (str(v)[:60] for v in row)
    return f"{m}x{n} holes {holes} {tour} start {start} end {end}"


def unreadable_rows(store: Store) -> list[tuple[int, str]]:
    """``(id, line)`` for each stored yes or no whose certificate is not JSON text the store
    can read (malformed, nested past SQLite's depth, not text): the line names the row's
    question, as ``verify --db`` does, and says why.

    Such a row is counted in the summary as :data:`UNREADABLE`, shown as rejected by the
    maps and pages (the kernel's reader refuses it too), never as its stored answer.
    """
    sql = ('SELECT id, rows, cols, holes, tour, start, "end", typeof(certificate) FROM verdicts '
           f"WHERE answer IN ('yes', 'no') AND certificate IS NOT NULL AND NOT {_READABLE} ORDER BY id")
    return [(rid, f"{_row_words(row)}: REJECTED: the certificate is "
                  f"{'not readable JSON' if kind == 'text' else 'not JSON text (' + kind + ')'}")
            for rid, *row, kind in store.con.execute(sql)]


def proof_method(cert) -> str | None:
    """The proof method a stored certificate (JSON text) names: its ``method``, else its
    ``kind``; None when it names none or is not a JSON object.

    >>> proof_method('{"kind": "proof", "method": "colour"}'), proof_method('[1]'), proof_method('{')
    ('colour', None, None)
    """
    try:
        d = certificate_from_text(cert)
    except CertificateRejected:
        return None
    m = (d.get("method") or d.get("kind")) if isinstance(d, dict) else None
    return m if isinstance(m, str) else None


def write_csv(store: Store, out, certificates: bool = False) -> int:
    """Write the store as CSV (one line per question); return the number of rows."""
    cols = [c for c in COLUMNS if certificates or c != "certificate"]
    n = 0
    with output_file(out, newline="") as fh:
        w = csv.writer(fh)
        w.writerow([*cols, "method"] if not certificates else cols)
        for r in store.rows(with_certificate=True):
            method = None
            if r["answer"] == "no" and r["certificate"]:
                method = proof_method(r["certificate"])
            values = [r[c] for c in cols]
            w.writerow(values + ([method or ""] if not certificates else []))
            n += 1
    return n


# ---------------------------------------------------------------------- maps
#: The colour key of a "no" by its proof method (the rest fall under "no: DRUP / search").
METHOD_KEYS = {"colour": "no-colour", "degree": "no-degree", "separator": "no-separator",
               "alternation": "no-separator", "hall": "no-separator", "ends": "no-separator", "drup": "no-drup",
               "exhaustive": "no-drup"}

#: Words of the legend, in its order.
LEGEND = {
    "yes": "yes: a tour",
    "no-colour": "no: colour count",
    "no-degree": "no: a square of degree < 2",
    "no-separator": "no: separator, alternation or Hall",
    "no-drup": "no: DRUP proof (SAT)",
    "no": "no (several reasons)",
    "mixed": "yes and no",
    "unknown": "unknown",
    "rejected": "certificate rejected by the kernel",
    "none": "not asked",
}


def cell_key(answers) -> str:
    """The colour key of a cell from its ``(answer, method)`` pairs.

    >>> cell_key({("no", "degree")}), cell_key({("yes", None), ("no", "colour")}), cell_key(set())
    ('no-degree', 'mixed', 'none')
    """
    answers = set(answers)
    if not answers:
        return "none"
    kinds = {a for a, _ in answers}
    if REJECTED in kinds:
        return REJECTED
    if "unknown" in kinds:
        return "unknown"
    if kinds == {"yes"}:
        return "yes"
    if kinds == {"no"}:
        keys = {METHOD_KEYS.get(m or "", "no-drup") for _, m in answers}
        return keys.pop() if len(keys) == 1 else "no"
    return "mixed"


def rect_of(holes) -> tuple | None:
    """``(top, left, height, width)`` when the holes fill one rectangle exactly, else None."""
    if not holes:
        return None
    rs = [h[0] for h in holes]
    cs = [h[1] for h in holes]
    top, left = min(rs), min(cs)
    hh, ww = max(rs) - top + 1, max(cs) - left + 1
    return (top, left, hh, ww) if hh * ww == len({tuple(h) for h in holes}) else None


def _file_name(c: int) -> str:
    return chr(ord("a") + c)


def _board_panels(rows_, m: int, n: int, squares: str):
    """Panels of one board: per kind of tour and hole size, the answer at each hole position."""
    from kt_formal.io.maps import Panel

    chess = squares != "rc" and n <= 26
    groups: dict = {}
    for _, _, holes, tour, answer, method in rows_:
        hs = json.loads(holes)
        rect = rect_of(hs)
        if rect is None:
            key = (tour, f"{len(hs)} squares removed", None)
            top, left = min(tuple(h) for h in hs) if hs else (0, 0)
            h = w = 1
        else:
            top, left, h, w = rect
            key = (tour, f"hole {h}x{w}", (h, w))
        groups.setdefault(key, {}).setdefault((top, left), set()).add((answer, method))
    panels = []
    order = sorted(groups, key=lambda k: (k[0] != "closed", k[2] is None, k[2] or (0, 0), k[1]))
    for tour, label, hw in order:
        cells = groups[(tour, label, hw)]
        h, w = hw if hw is not None else (1, 1)
        nr, nc = m - h + 1, n - w + 1
        grid = [[cell_key(cells.get((i, j), set())) for j in range(nc)] for i in range(nr)]
        if chess:
            rl = [str(m - i) for i in range(nr)]
            cl = [_file_name(j) for j in range(nc)]
        else:
            rl = [str(i) for i in range(nr)]
            cl = [str(j) if j % 2 == 0 or nc <= 12 else "" for j in range(nc)]
        panels.append(Panel(f"{tour}, {label}", grid, rl, cl))
    return panels, chess


def map_figures(store: Store, board=None, squares: str = "chess"):
    """The figures of a census's map: ``[(name, Figure)]``.

    With one board size (or ``board=(rows, cols)``), one figure of that board: a panel
    per kind of tour and hole size, each cell a position of the hole (its top-left
    square), coloured by the answer there. With several sizes and no ``board``, one
    figure with a panel per kind of tour: a cell per board size, coloured by the answers
    on that size.
    """
    from kt_formal.io.maps import Figure, Panel

    rows_ = [(m, n, holes, tour, answer, method) for m, n, holes, tour, _, _, answer, method, _
             in checked_verdicts(store, board)]
    if not rows_:
        if board is not None:
            raise InvalidInput(f"the census database has no {board[0]}x{board[1]} board")
        raise InvalidInput("the census database is empty: nothing to draw")
    sizes = sorted({(r[0], r[1]) for r in rows_})
    legend_keys = set()
    if len(sizes) == 1:
        m, n = sizes[0]
        panels, chess = _board_panels(rows_, m, n, squares)
        note = ("each cell is a position of the hole, drawn at its top-left square: "
                + ("files a.. across, ranks down (a1 bottom left)" if chess
                   else "row down, column across, from 0 at the top left"))
        for p in panels:
            legend_keys |= {k for line in p.cells for k in line}
        fig = Figure(f"{m}x{n} board: is there a knight's tour with the hole here?", panels, note,
                     {k: v for k, v in LEGEND.items() if k in legend_keys})
        return [(f"{m}x{n}", fig)]
    ms = sorted({s[0] for s in sizes})
    ns = sorted({s[1] for s in sizes})
    kinds = [k for k in ("closed", "open") if any(r[3] == k for r in rows_)]
    panels = []
    for kind in kinds:
        cells: dict = {}
        for r, c, _, tour, answer, method in rows_:
            if tour == kind:
                cells.setdefault((r, c), set()).add((answer, method))
        grid = [[cell_key(cells.get((m, n), set())) for n in ns] for m in ms]
        legend_keys |= {k for line in grid for k in line}
        panels.append(Panel(f"{kind} tours", grid, [str(m) for m in ms], [str(n) for n in ns],
                            row_axis="rows", col_axis="columns"))
    fig = Figure("Census: answers by board size", panels,
                 "one cell per board size, coloured by all the answers on it (--board RxC draws one board)",
                 {k: v for k, v in LEGEND.items() if k in legend_keys})
    return [("sizes", fig)]


def board_list(store: Store) -> list[tuple[int, int]]:
    """The board sizes stored."""
    return [tuple(r) for r in store.con.execute("SELECT DISTINCT rows, cols FROM verdicts ORDER BY 1, 2")]


def write_map(store: Store, out, board=None, squares: str = "chess") -> list[Path]:
    """Draw the map of the store's answers as SVG or PNG (by the suffix of ``out``).

    ``out`` may hold ``{board}``: then one map per board size is written, the
    placeholder replaced by ``RxC``. Returns the files written.
    """
    from kt_formal.io.maps import map_png, map_svg
    from kt_formal.io.render import MAX_SVG_SIDE, check_picture_path

    out = str(out)
    fmt = check_picture_path(out)
    if "{board}" in out:
        boards = [board] if board is not None else board_list(store)
        figures = [f for b in boards for f in map_figures(store, b, squares)]
    else:
        figures = map_figures(store, board, squares)
    written = []
    for name, fig in figures:
        side = max(max(len(p.cells), max((len(r) for r in p.cells), default=0)) for p in fig.panels)
        if side > MAX_SVG_SIDE // 4:
            raise InvalidInput(f"a census map of {side} cells a side is too large to draw "
                               f"(at most {MAX_SVG_SIDE // 4})")
        p = Path(out.replace("{board}", name))
        with output_file(p, binary=True) as fh:
            fh.write(map_svg(fig, COLOURS).encode("utf-8") if fmt == "svg" else map_png(fig, COLOURS))
        written.append(p)
    return written


# ---------------------------------------------------------------------- re-checking
def verify_store(path, progress=None, replay: bool = False, time_limit: float | None = DEFAULT_TIME_LIMIT
                 ) -> tuple[int, int, int, list[str]]:
    """Re-check every stored certificate with the kernel's checker.

    Each row's values must lie in their domains (:func:`row_question`), its question be
    asked once (holes compared as squares, not as text), its certificate be read by the
    kernel's strict reader (a duplicate key refused), be about its row's question, of the
    kind its answer needs, and pass the kernel's
    :func:`~kt_formal.kernel.check_certificate`. A bad row is one failure; the run goes
    on. An exhaustive record is a failure ("NOT CHECKED": the kernel runs no search)
    unless ``replay``, which re-runs it with
    :func:`kt_formal.proofs.replay.replay_exhaustive`, all the replays within
    ``time_limit`` seconds together (past it, NOT CHECKED). Unknown rows carry no
    certificate and are counted apart; a yes or no without one is a failure.

    Returns
    -------
    (checked, failed, unknown, failure lines)
    """
    import time

    checked = failed = unknown = 0
    failures: list[str] = []
    asked: dict = {}  # question -> the id of the row that asks it first
    deadline = time.monotonic() + (float("inf") if time_limit is None else time_limit)  # None: no limit
    with Store.open(path, readonly=True) as store:
        total = store.count()
        sql = 'SELECT id, rows, cols, holes, tour, start, "end", answer, certificate FROM verdicts ORDER BY id'
        try:
            for i, (rid, *row, answer, cert) in enumerate(store.con.execute(sql)):
                if progress is not None:
                    progress(i, total, "certificates")
                where = _row_words(row)
                q = None
                try:
                    q = row_question(*row)
                    first = asked.setdefault(q, rid)
                    if answer == "unknown" and cert is None and first == rid:
                        unknown += 1
                        continue
                    checked += 1
                    if first != rid:
                        raise CertificateRejected(f"the question of row {first} stored again (row {rid})")
                    _check_row(q, answer, cert, replay, deadline - time.monotonic(), time_limit)
                except CertificateNotChecked as exc:
                    failed += 1
                    failures.append(f"{where}: NOT CHECKED: {exc}")
                except _HOSTILE as exc:
                    checked += q is None
                    failed += 1
                    failures.append(f"{where}: REJECTED: {exc if not isinstance(exc, RecursionError) else 'nested too deeply'}")
        except sqlite3.Error as exc:
            raise InvalidInput(f"census database {Path(path).name}: unreadable ({exc})") from None
    return checked, failed, unknown, failures


def _check_row(q, answer, cert, replay: bool, left: float, time_limit: float | None) -> None:
    """Check one row's certificate (see :func:`verify_store`); raise on anything amiss."""
    from kt_formal.survey.runners import check_row_certificate
    from kt_formal.exceptions import LimitReached

    if answer not in ("yes", "no", "unknown"):
        raise CertificateRejected(f"answer {str(answer)[:40]!r} is not 'yes', 'no' or 'unknown'")
    if cert is None:
        raise CertificateRejected(f"answer {answer!r} without a certificate")
    d = certificate_from_text(cert)
    try:
        check_row_certificate(q, answer, d)
    except CertificateNotChecked:
        if not replay:
            raise
        from kt_formal.proofs.replay import replay_exhaustive

        try:
            if left <= 0:
                raise LimitReached("no time left")
            replay_exhaustive(d, left)
        except LimitReached:
            raise CertificateNotChecked(f"unknown: the replays' {time_limit:g} s time limit ran out "
                                        "before this record's replay finished") from None
