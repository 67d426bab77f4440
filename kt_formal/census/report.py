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
>>> from kt_formal.census import Store, run_census, remove_squares
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

import numpy as np

from kt_formal.census.store import COLUMNS, Store, row_question
from kt_formal.exceptions import CertificateRejected, InvalidInput

__all__ = ["census_table", "summary_lines", "summary_dict", "write_csv", "write_map", "verify_store", "COLOURS"]

#: Map colours (RGB) by summary of the answers in one cell.
COLOURS = {
    "yes": (60, 170, 90),
    "no": (200, 60, 50),
    "mixed": (235, 170, 40),
    "unknown": (150, 150, 150),
    "none": (245, 245, 245),
}

#: The proof method of a "no": a proof's ``method``, else the certificate's ``kind`` (a SAT
#: solver's DRUP proof and an exhaustive search record carry no method, only a kind).
_METHOD = "COALESCE(json_extract(certificate, '$.method'), json_extract(certificate, '$.kind'))"


def census_table(store: Store) -> list[tuple]:
    """Every stored question with its answer and proof method, sorted.

    Rows ``(rows, cols, holes, tour, start, end, answer, method)``; method is None
    unless the answer is no.
    """
    sql = (f'SELECT rows, cols, holes, tour, start, "end", answer, '
           f"CASE WHEN answer = 'no' THEN {_METHOD} END FROM verdicts")
    return sorted(store.con.execute(sql))


def summary_lines(store: Store) -> list[str]:
    """The summary table: yes, no by proof method, unknown; a column per kind of tour."""
    sql = (f"SELECT tour, answer, CASE WHEN answer = 'no' THEN {_METHOD} END, COUNT(*), "
           "SUM(seconds) FROM verdicts GROUP BY 1, 2, 3")
    counts: dict = {}
    seconds = 0.0
    for tour, answer, method, n, secs in store.con.execute(sql):
        label = f"no: {method}" if answer == "no" else answer
        counts.setdefault(label, {})[tour] = n
        seconds += secs or 0.0
    kinds = [k for k in ("closed", "open") if any(k in v for v in counts.values())]
    order = ["yes"] + sorted(k for k in counts if k.startswith("no:")) + ["unknown"]
    width = 22
    lines = ["answer".ljust(width) + "".join(f"{k:>8}" for k in kinds) + f"{'total':>8}"]
    for label in order:
        if label not in counts and label not in ("yes", "unknown"):
            continue
        row = counts.get(label, {})
        lines.append(label.ljust(width) + "".join(f"{row.get(k, 0):>8}" for k in kinds)
                     + f"{sum(row.values()):>8}")
    total = sum(sum(v.values()) for v in counts.values())
    lines.insert(0, f"{total} questions stored; {seconds:.1f} s of solving")
    return lines


def summary_dict(store: Store) -> dict:
    """The summary as data: ``{"questions", "seconds", "answers": {answer: {kind: n}}}``, the
    answers ``yes``, ``no: METHOD`` (one per proof method) and ``unknown``, as :func:`summary_lines`."""
    sql = (f"SELECT tour, answer, CASE WHEN answer = 'no' THEN {_METHOD} END, COUNT(*), "
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


def write_csv(store: Store, out, certificates: bool = False) -> int:
    """Write the store as CSV (one line per question); return the number of rows."""
    cols = [c for c in COLUMNS if certificates or c != "certificate"]
    n = 0
    try:
        with open(out, "w", newline="", encoding="utf-8") as fh:
            w = csv.writer(fh)
            w.writerow([*cols, "method"] if not certificates else cols)
            for r in store.rows(with_certificate=True):
                method = None
                if r["answer"] == "no" and r["certificate"]:
                    d = json.loads(r["certificate"])
                    method = d.get("method") or d.get("kind")
                values = [r[c] for c in cols]
                w.writerow(values + ([method or ""] if not certificates else []))
                n += 1
    except OSError as exc:
        raise InvalidInput(f"cannot write {out}: {exc.strerror}") from None
    return n


# ---------------------------------------------------------------------- maps
def _summarise(answers: set) -> str:
    if not answers:
        return "none"
    if "unknown" in answers:
        return "unknown"
    if answers == {"yes"}:
        return "yes"
    if answers == {"no"}:
        return "no"
    return "mixed"


def _map_panels(store: Store):
    """Panels ``(title, grid of summaries, row labels, col labels)``, one per kind of tour."""
    rows_ = list(store.con.execute('SELECT rows, cols, holes, tour, answer FROM verdicts'))
    if not rows_:
        raise InvalidInput("the census database is empty: nothing to draw")
    sizes = sorted({(r[0], r[1]) for r in rows_})
    kinds = [k for k in ("closed", "open") if any(r[3] == k for r in rows_)]
    panels = []
    if len(sizes) == 1:
        m, n = sizes[0]
        for kind in kinds:
            cells: dict = {}
            for r, c, holes, tour, answer in rows_:
                if tour != kind:
                    continue
                hs = json.loads(holes)
                key = tuple(min(hs)) if hs else None
                if key is not None:
                    cells.setdefault(key, set()).add(answer)
            grid = [[_summarise(cells.get((i, j), set())) for j in range(n)] for i in range(m)]
            panels.append((f"{m}x{n} {kind}: answer by hole position", grid, None, None))
        return panels
    ms = sorted({s[0] for s in sizes})
    ns = sorted({s[1] for s in sizes})
    for kind in kinds:
        cells = {}
        for r, c, holes, tour, answer in rows_:
            if tour == kind:
                cells.setdefault((r, c), set()).add(answer)
        grid = [[_summarise(cells.get((m, n), set())) for n in ns] for m in ms]
        panels.append((f"{kind}: answers by board size (rows down, columns across)", grid, ms, ns))
    return panels


def _svg(panels, cell: int = 24) -> str:
    gap = cell
    label = cell if panels[0][2] is not None else 0
    widths = [label + len(p[1][0]) * cell for p in panels]
    height = 20 + label + max(len(p[1]) for p in panels) * cell
    width = sum(widths) + gap * (len(panels) - 1)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height + 40}" '
           f'viewBox="0 0 {width} {height + 40}" font-family="sans-serif">',
           "<title>census map</title>"]
    x0 = 0
    for (title, grid, ms, ns), w in zip(panels, widths):
        out.append(f'<text x="{x0}" y="14" font-size="12">{title}</text>')
        y0 = 20 + label
        if ms is not None:
            for i, m in enumerate(ms):
                out.append(f'<text x="{x0 + 2}" y="{y0 + i * cell + cell * 0.7:g}" font-size="{cell // 2}">{m}</text>')
            for j, n in enumerate(ns):
                out.append(f'<text x="{x0 + label + j * cell + 2}" y="{y0 - 4}" font-size="{cell // 2}">{n}</text>')
        for i, line in enumerate(grid):
            for j, s in enumerate(line):
                r, g, b = COLOURS[s]
                out.append(f'<rect class="{s}" x="{x0 + label + j * cell}" y="{y0 + i * cell}" width="{cell}" '
                           f'height="{cell}" fill="#{r:02x}{g:02x}{b:02x}" stroke="#ffffff" stroke-width="1"/>')
        x0 += w + gap
    keys = ["yes", "no", "mixed", "unknown"]
    for k, name in enumerate(keys):
        r, g, b = COLOURS[name]
        out.append(f'<rect x="{k * 90}" y="{height + 14}" width="14" height="14" fill="#{r:02x}{g:02x}{b:02x}"/>'
                   f'<text x="{k * 90 + 18}" y="{height + 26}" font-size="12">{name}</text>')
    out.append("</svg>\n")
    return "".join(out)


def _png(panels, cell: int = 16) -> bytes:
    from kt_formal.io.render import encode_png

    gap = cell
    height = max(len(p[1]) for p in panels) * cell
    width = sum(len(p[1][0]) * cell for p in panels) + gap * (len(panels) - 1)
    img = np.full((height, width, 3), 255, dtype=np.uint8)
    x0 = 0
    for _, grid, _, _ in panels:
        for i, line in enumerate(grid):
            for j, s in enumerate(line):
                img[i * cell:(i + 1) * cell - 1, x0 + j * cell:x0 + (j + 1) * cell - 1] = COLOURS[s]
        x0 += len(grid[0]) * cell + gap
    return encode_png(img)


def write_map(store: Store, out) -> Path:
    """Draw the map of the store's answers as SVG or PNG (by the suffix of ``out``)."""
    from kt_formal.io.render import MAX_PNG_SIDE, MAX_SVG_SIDE, check_picture_path

    fmt = check_picture_path(out)
    panels = _map_panels(store)
    side = max(max(len(p[1]), len(p[1][0])) for p in panels)
    cap = MAX_SVG_SIDE if fmt == "svg" else MAX_PNG_SIDE // 16
    if side > cap:
        raise InvalidInput(f"a census map of {side} cells a side is too large for {fmt.upper()} (at most {cap})")
    p = Path(out)
    try:
        if fmt == "svg":
            p.write_text(_svg(panels), encoding="utf-8")
        else:
            p.write_bytes(_png(panels))
    except OSError as exc:
        raise InvalidInput(f"cannot write {out}: {exc.strerror}") from None
    return p


# ---------------------------------------------------------------------- re-checking
def verify_store(path, progress=None, replay: bool = False) -> tuple[int, int, int, list[str]]:
    """Re-check every stored certificate with the kernel's checker.

    Each certificate must be about its row's question, of the kind its answer needs,
    and pass the kernel's :func:`~kt_formal.kernel.check_certificate`. An exhaustive
    record is a failure ("NOT CHECKED": the kernel runs no search) unless ``replay``,
    which re-runs it with :func:`kt_formal.proofs.replay.replay_exhaustive`. Unknown
    rows carry no certificate and are counted apart; a yes or no without one is a
    failure.

    Returns
    -------
    (checked, failed, unknown, failure lines)
    """
    from kt_formal.census.runners import check_row_certificate
    from kt_formal.exceptions import CertificateNotChecked

    checked = failed = unknown = 0
    failures: list[str] = []
    with Store.open(path, readonly=True) as store:
        total = store.count()
        sql = 'SELECT rows, cols, holes, tour, start, "end", answer, certificate FROM verdicts ORDER BY id'
        try:
            for i, (m, n, holes, tour, start, end, answer, cert) in enumerate(store.con.execute(sql)):
                if progress is not None:
                    progress(i, total, "certificates")
                if answer == "unknown" and cert is None:
                    unknown += 1
                    continue
                checked += 1
                where = f"{m}x{n} holes {holes} {tour} start {start} end {end}"
                try:
                    q = row_question(m, n, holes, tour, start, end)
                    if cert is None:
                        raise CertificateRejected(f"answer {answer!r} without a certificate")
                    d = json.loads(cert)
                    try:
                        check_row_certificate(q, answer, d)
                    except CertificateNotChecked:
                        if not replay:
                            raise
                        from kt_formal.proofs.replay import replay_exhaustive

                        replay_exhaustive(d)
                except CertificateNotChecked as exc:
                    failed += 1
                    failures.append(f"{where}: NOT CHECKED: {exc}")
                except (CertificateRejected, InvalidInput, ValueError, TypeError, KeyError) as exc:
                    failed += 1
                    failures.append(f"{where}: REJECTED: {exc}")
        except sqlite3.Error as exc:
            raise InvalidInput(f"--db {Path(path).name}: unreadable ({exc})") from None
    return checked, failed, unknown, failures
