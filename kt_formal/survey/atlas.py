"""The atlas of holed boards: its verdict table, what it says, and its checks against theorems.

The atlas (``kt-formal census ROWS COLS --atlas``) asks, of every board m x n in the
range, whether a closed tour exists with one h x w hole (1 <= h <= m - 2,
1 <= w <= n - 2) at every position, and whether an open tour exists with one square
removed. Each of its questions has one rectangular hole, so a row of its *table* is
``(rows, cols, tour, top, left, height, width, answer, method)``: the board, the kind
of tour, the hole (its top-left square, 0-based from the top left, and its size), the
answer and, for a "no", the proof method (``colour``, ``degree``, ``separator``,
``alternation``, ``hall``, ``drup``, ...).

:func:`theorem_checks` compares the table with what published theorems say about
the boards it holds: the ringboard theorem (centred holes), Miller and Farnsworth's
3 x n minus one square, and the two arguments of Schwenk's theorem that carry over to
holed boards (the colour count, and Posa's 4-row alternation). Each check names every
row where the table disagrees.

>>> rows = [(3, 3, "closed", 1, 1, 1, 1, "yes", ""), (8, 8, "closed", 2, 2, 4, 4, "no", "separator")]
>>> [(c.name.split(" (")[0], c.checked, c.disagreements) for c in theorem_checks(rows)][:2]
[('Ringboard theorem', 2, []), ('Miller-Farnsworth', 1, [])]
>>> flipped = [rows[0], rows[1][:7] + ("yes", "")]
>>> theorem_checks(flipped)[0].disagreements
['8x8 closed, hole 4x4 at c6 (rows 2..5, cols 2..5): the table says yes, the theorem no']
"""

from __future__ import annotations

import csv
import gzip
import io
import json
import zlib
from dataclasses import dataclass, field
from pathlib import Path

from kt_formal.survey.report import REJECTED
from kt_formal.survey.store import Store
from kt_formal.exceptions import InvalidInput, Worded
from kt_formal.files import output_file, read_user_bytes
from kt_formal.theorems import ringboard_tour, three_row_minus_one_tour

__all__ = ["TABLE_COLUMNS", "atlas_rows", "write_table", "read_table", "theorem_checks", "Check",
           "findings_markdown", "write_findings", "write_html", "page_data", "pack_tour", "CELL_CODES", "live_colours", "square_name"]

#: Columns of the verdict table.
TABLE_COLUMNS = ("rows", "cols", "tour", "top", "left", "height", "width", "answer", "method")

#: The most places one panel of the atlas page draws (a 1000 x 1000 board holds a hole of one square in 10^6).
PAGE_MAX_CELLS = 1_000_000


def square_name(rows: int, cols: int, r: int, c: int) -> str:
    """Chess name of (r, c) (a1 bottom left) up to 26 columns, else ``r,c``.

    >>> square_name(8, 8, 0, 0), square_name(8, 30, 0, 0)
    ('a8', '0,0')
    """
    return f"{chr(97 + c)}{rows - r}" if cols <= 26 else f"{r},{c}"


def _one_hole_rows(store: Store, board, what: str, certificates: bool = False):
    """``(m, n, tour, (top, left, h, w), answer, method, certificate)`` for every stored verdict of
    one board (or all), checked by the kernel (:func:`~kt_formal.survey.report.checked_verdicts`:
    a refused certificate makes the answer "rejected"), each question having one rectangular
    hole and no fixed end. Raises InvalidInput naming ``what`` for any other question."""
    from kt_formal.survey.report import checked_verdicts, rect_of

    for m, n, holes, tour, start, end, answer, method, d in checked_verdicts(store, board, certificates):
        rect = rect_of(json.loads(holes))
        if rect is None or start != "null" or end != "null":
            raise InvalidInput(Worded(
                f"{what} is for families of one rectangular hole without fixed ends ({{atlas}}, "
                f"{{rect holes}}, {{hole size}}, {{remove squares}} 1); {m}x{n} holes {holes} is not one"
                f"{': use {csv}' if what == 'the verdict table' else ''}",
                {"atlas": "atlas=True", "rect holes": "rect_holes=True", "hole size": "hole_size",
                 "remove squares": "remove_squares=", "csv": "csv"}))
        yield m, n, tour, rect, answer, method, d


def atlas_rows(store: Store, board=None) -> list[tuple]:
    """The table of a census whose questions each have one rectangular hole and no fixed end.

    Raises InvalidInput when a stored question is of another kind (a table row could
    not name it).
    """
    out = []
    for m, n, tour, rect, answer, method, _ in _one_hole_rows(store, board, "the verdict table"):
        out.append((m, n, tour, *rect, answer, method if answer == "no" and method else ""))
    out.sort(key=lambda r: (r[0], r[1], r[2] != "closed", r[5], r[6], r[3], r[4]))
    return out


def write_table(store: Store, out) -> int:
    """Write the verdict table as CSV (gzip-compressed, reproducibly, when ``out`` ends in .gz)."""
    rows = atlas_rows(store)
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(TABLE_COLUMNS)
    w.writerows(rows)
    data = buf.getvalue().encode()
    if str(out).endswith(".gz"):
        data = gzip.compress(data, compresslevel=9, mtime=0)
    with output_file(out, binary=True) as fh:
        fh.write(data)
    return len(rows)


#: The most bytes a verdict table may hold (after decompression).
TABLE_MAX_BYTES = 1 << 30


def read_table(path) -> list[tuple]:
    """The rows of a table written by :func:`write_table` (numbers as ints), a regular file of
    at most :data:`TABLE_MAX_BYTES` bytes, compressed or not."""
    p = Path(path)
    raw = read_user_bytes(p, "verdict table ", TABLE_MAX_BYTES)
    try:
        if raw[:2] == b"\x1f\x8b":
            with gzip.GzipFile(fileobj=io.BytesIO(raw)) as gz:
                raw = gz.read(TABLE_MAX_BYTES + 1)
            if len(raw) > TABLE_MAX_BYTES:
                raise InvalidInput(f"verdict table {p.name} holds more than {TABLE_MAX_BYTES >> 20} MiB uncompressed")
        text = raw.decode()
    except (OSError, EOFError, zlib.error, UnicodeDecodeError) as exc:
        raise InvalidInput(f"{p.name}: not a readable verdict table ({exc})") from None
    reader = csv.reader(io.StringIO(text))
    head = next(reader, None)
    if tuple(head or ()) != TABLE_COLUMNS:
        raise InvalidInput(f"{p.name}: not a verdict table (its header is not {','.join(TABLE_COLUMNS)})")
    out = []
    for i, r in enumerate(reader, start=2):
        try:
            m, n, tour, top, left, h, w, answer, method = r
            out.append((int(m), int(n), tour, int(top), int(left), int(h), int(w), answer, method))
        except ValueError:
            raise InvalidInput(f"{p.name}: line {i} is not a table row") from None
    return out


# ---------------------------------------------------------------------- arithmetic of colours
def _even_cells(r0: int, c0: int, h: int, w: int) -> int:
    """Cells (r, c) with r + c even in the rectangle of h rows, w columns at (r0, c0)."""
    total = h * w
    if total % 2 == 0:
        return total // 2
    return (total + 1) // 2 if (r0 + c0) % 2 == 0 else total // 2


def live_colours(m: int, n: int, top: int, left: int, h: int, w: int) -> tuple[int, int]:
    """Squares left of each colour class ((r + c) even, odd) on m x n without the h x w hole.

    >>> live_colours(8, 8, 0, 0, 1, 1)
    (31, 32)
    """
    even = _even_cells(0, 0, m, n) - _even_cells(top, left, h, w)
    return even, (m * n - h * w) - even


def _where(m, n, top, left, h, w) -> str:
    return (f"hole {h}x{w} at {square_name(m, n, top, left)} "
            f"(rows {top}..{top + h - 1}, cols {left}..{left + w - 1})")


@dataclass
class Check:
    """One theorem against the table: rows it speaks of, and every row that disagrees."""

    name: str
    source: str
    checked: int = 0
    disagreements: list = field(default_factory=list)


def _posa_says_no(m: int, n: int, top: int, left: int, h: int, w: int) -> bool:
    """Posa's argument (Schwenk's 4 x n case) on a 4-row board with a hole: the outer rows'
    squares are independent and touch only the inner rows, so a closed tour needs at least as
    many inner squares, and with as many it alternates, so the outer squares share a colour."""
    if m != 4:
        return False
    outer = [(r, c) for r in (0, 3) for c in range(n) if not (top <= r < top + h and left <= c < left + w)]
    inner = [(r, c) for r in (1, 2) for c in range(n) if not (top <= r < top + h and left <= c < left + w)]
    if len(outer) > len(inner):
        return True
    return len(outer) == len(inner) and len({(r + c) % 2 for r, c in outer}) == 2


def theorem_checks(rows) -> list[Check]:
    """Compare the table with the theorems that speak of its boards (see the module docstring)."""
    ring = Check("Ringboard theorem (Srichote, Boonklurb, Singhun 2020)",
                 "closed tours on m x n minus its centred (m-2r) x (n-2r) part: yes iff m = n = 3, r = 1 "
                 "or m, n >= 7, r >= 3")
    mf = Check("Miller-Farnsworth (2013)", "closed tours on 3 x n minus one square")
    colour = Check("Schwenk (a), the colour count",
                   "a closed tour needs as many squares of each colour, an open one counts apart by at most one")
    posa = Check("Schwenk (b), Posa's 4-row argument",
                 "closed tours on 4 x n with a hole: outer rows independent, touching only inner rows")
    margin = Check("Margin three (proved here by construction: docs/theorems/margin-three.md)",
                   "closed tours on m x n minus a rectangle at least 3 squares from every edge: yes iff the "
                   "colours balance")
    for m, n, tour, top, left, h, w, answer, method in rows:
        if answer not in ("yes", "no"):
            continue
        where = f"{m}x{n} {tour}, {_where(m, n, top, left, h, w)}"
        closed = tour == "closed"

        def judge(check, expected: bool):
            check.checked += 1
            if (answer == "yes") != expected:
                check.disagreements.append(f"{where}: the table says {answer}, the theorem "
                                           f"{'yes' if expected else 'no'}")

        r = top
        if closed and top == left and m - 2 * r == h and n - 2 * r == w and r >= 1:
            judge(ring, ringboard_tour(m, n, r))
        if closed and m == 3 and h == w == 1:
            judge(mf, three_row_minus_one_tour(n, top + 1, left + 1))
        even, odd = live_colours(m, n, top, left, h, w)
        if (closed and even != odd) or (not closed and abs(even - odd) > 1):
            judge(colour, False)
        if closed and _posa_says_no(m, n, top, left, h, w):
            judge(posa, False)
        if closed and _margins(m, n, top, left, h, w) >= 3:
            judge(margin, even == odd)
    return [ring, mf, colour, posa, margin]


# ---------------------------------------------------------------------- findings
_REASONS = ("colour", "degree", "separator", "alternation", "hall", "drup")


def _reason(method: str) -> str:
    return method if method in _REASONS else ("drup" if method in ("exhaustive",) else method or "?")


def _margins(m, n, top, left, h, w) -> int:
    return min(top, left, m - top - h, n - left - w)


def findings_markdown(rows, *, command: str = "", seconds: str = "", source: str = "") -> str:
    """What the table says, as Markdown (every figure counted from ``rows``)."""
    from kt_formal.survey.report import family_words

    rows = list(rows)
    out: list[str] = []
    add = out.append
    closed = [r for r in rows if r[2] == "closed"]
    opened = [r for r in rows if r[2] == "open"]
    unknown = sum(r[7] == "unknown" for r in rows)
    title, family = family_words({(r[0], r[1]) for r in rows}, {(r[2], r[5], r[6]) for r in rows})
    add(f"# {title}: findings")
    add("")
    add("Generated by `kt-formal census-report --findings` from the verdict table"
        + (f" `{source}`" if source else "") + "; every number below is counted from it.")
    if command:
        add("")
        add(f"Made by `{command}`" + (f" ({seconds})" if seconds else "") + ".")
    add("")
    rejected = sum(r[7] == REJECTED for r in rows)
    add(f"* {len(rows):,} question{'' if len(rows) == 1 else 's'}, each hole at every position: {family}: "
        f"{len(closed):,} closed, {len(opened):,} open.")
    yes_c = sum(r[7] == "yes" for r in closed)
    yes_o = sum(r[7] == "yes" for r in opened)
    add(f"* Closed: {yes_c:,} yes, {sum(r[7] == 'no' for r in closed):,} no. Open: {yes_o:,} yes, "
        f"{sum(r[7] == 'no' for r in opened):,} no. Unknown: {unknown}."
        + (f" Rejected (a certificate the kernel refuses: neither yes nor no below): {rejected:,}."
           if rejected else ""))
    counts: dict = {}
    for r in rows:
        if r[7] == "no":
            counts[(r[2], r[8])] = counts.get((r[2], r[8]), 0) + 1
    add("* The \"no\" answers by proof method: " + "; ".join(
        f"{k[0]} {k[1] or '?'} {v:,}" for k, v in sorted(counts.items())) + ".")
    add("")
    for section in (_findings_theorems, _findings_by_hole_size, _findings_margins, _findings_hall,
                    _findings_drup, _findings_open):
        section(add, rows, closed, opened)
    return "\n".join(out)


def _findings_theorems(add, rows: list, closed: list, opened: list) -> None:
    """The agreement with theorems (published ones, and the margin theorem proved here), each
    with its disagreements."""
    add("## Agreement with theorems")
    add("")
    add("The first four are published; the last is proved in this project by a construction whose "
        "pieces the kernel checks, and the atlas was answered without it (search and proofs).")
    add("")
    add("| theorem | what it covers | rows it speaks of | disagreements |")
    add("| --- | --- | ---: | ---: |")
    checks = theorem_checks(rows)
    for c in checks:
        add(f"| {c.name} | {c.source} | {c.checked:,} | {len(c.disagreements)} |")
    add("")
    for c in checks:
        for d in c.disagreements[:50]:
            add(f"* DISAGREEMENT ({c.name}): {d}")
    if not any(c.disagreements for c in checks):
        add("No row disagrees with any of them.")
    add("")


def _findings_by_hole_size(add, rows: list, closed: list, opened: list) -> None:
    """Closed tours by hole size: positions, yes, and each reason for a no."""
    add("## Closed tours, by hole size")
    add("")
    add("Per hole size (rows x columns of the hole), over every board it fits with a margin of two: "
        "the positions asked, those with a tour, and those without, by the reason the proof gives. "
        "*Balanced* positions leave as many squares of each colour, so the colour count does not "
        "decide them.")
    add("")
    add("| hole | boards | positions | yes | no: colour | no: degree | no: separator | no: alternation "
        "| no: Hall | no: DRUP | balanced positions without a tour |")
    add("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    by_hole: dict = {}
    for r in closed:
        by_hole.setdefault((r[5], r[6]), []).append(r)
    for (h, w), rs in sorted(by_hole.items()):
        c = {k: 0 for k in _REASONS}
        for r in rs:
            if r[7] == "no":
                c[_reason(r[8])] = c.get(_reason(r[8]), 0) + 1
        balanced_no = sum(1 for r in rs if r[7] == "no" and r[8] != "colour")
        add(f"| {h}x{w} | {len({(r[0], r[1]) for r in rs})} | {len(rs):,} | {sum(r[7] == 'yes' for r in rs):,} | "
            f"{c['colour']:,} | {c['degree']:,} | {c['separator']:,} | {c['alternation']:,} | {c['hall']:,} | {c['drup']:,} | "
            f"{balanced_no:,} |")
    add("")


def _findings_margins(add, rows: list, closed: list, opened: list) -> None:
    """The margins (rows and columns between hole and edge) from which a tour always exists."""
    add("## Margins that always work")
    add("")
    add("The *margin* of a hole is the least number of rows or columns between it and an edge of "
        "the board. Among closed questions whose hole leaves both colours equal:")
    add("")
    left_out = [r for r in closed if r[7] == "unknown"]
    if left_out:
        add(f"({len(left_out)} unknown positions are left out; their margins: "
            + ", ".join(sorted({str(_margins(r[0], r[1], *r[3:7])) for r in left_out})) + ".)")
        add("")
    add("| margin at least | positions | with a tour | without |")
    add("| ---: | ---: | ---: | ---: |")
    balanced = [r for r in closed if r[7] in ("yes", "no") and (lambda e: e[0] == e[1])(live_colours(*r[:2], *r[3:7]))]
    top_margin = max((_margins(r[0], r[1], *r[3:7]) for r in balanced), default=0)
    always = None
    for k in range(0, top_margin + 1):
        sel = [r for r in balanced if _margins(r[0], r[1], *r[3:7]) >= k]
        no = [r for r in sel if r[7] == "no"]
        add(f"| {k} | {len(sel):,} | {len(sel) - len(no):,} | {len(no):,} |")
        if not no and always is None:
            always = k
    add("")
    if always is not None:
        worst = [r for r in balanced if _margins(r[0], r[1], *r[3:7]) == always - 1 and r[7] == "no"]
        add(f"**A margin of {always} always works** on the boards of the atlas: every balanced position "
            f"with at least {always} rows and columns between the hole and every edge has a closed tour."
            + (f" With margin {always - 1} there are {len(worst):,} balanced positions without one, e.g. "
               + "; ".join(f"{r[0]}x{r[1]} {_where(r[0], r[1], *r[3:7])} ({r[8]})" for r in worst[:6]) + "."
               if worst else ""))
    else:
        add("No margin in the atlas always works.")
    add("")
    add("By board height: the least margin from which every balanced position of every board with that "
        "many rows has a tour (boards m x n, m <= n).")
    add("")
    add("| rows | least margin that always works (- none) | balanced positions | without a tour |")
    add("| ---: | ---: | ---: | ---: |")
    for m in sorted({r[0] for r in balanced}):
        sel = [r for r in balanced if r[0] == m]
        best = next((k for k in range(0, m) if any(_margins(r[0], r[1], *r[3:7]) >= k for r in sel)
                     and not any(r[7] == "no" and _margins(r[0], r[1], *r[3:7]) >= k for r in sel)), None)
        add(f"| {m} | {best if best is not None else '-'} | {len(sel):,} | {sum(r[7] == 'no' for r in sel):,} |")
    add("")


def _findings_hall(add, rows: list, closed: list, opened: list) -> None:
    """The questions a Hall proof settles, by board and hole size."""
    hall = [r for r in rows if r[7] == "no" and r[8] == "hall"]
    add("## The boards that fail Hall's condition")
    add("")
    n_closed = sum(r[2] == "closed" for r in hall)
    add(f"{len(hall):,} questions ({n_closed:,} closed, {len(hall) - n_closed:,} open) that the cheap proofs "
        "(colour, degree, alternation, the quick separator search) do not settle have squares of one "
        "colour whose neighbours cannot take the moves they need: two each, less, for an open tour, "
        "the ends that can lie among them (found by a maximum flow once CP-SAT has found no tour, "
        "checked by the kernel by recounting). The closed ones have not even a 2-factor, a set of "
        "cycles covering every square. Holes of one or two squares in the middle rows of 4 x n "
        "boards, and holes that leave two-row bridges between two sides, are most of them. By board "
        "and hole size, the hole's top-left square:")
    add("")
    _list_holes(add, hall)
    add("")


def _findings_drup(add, rows: list, closed: list, opened: list) -> None:
    """The questions whose no needs a DRUP proof, by board and hole size."""
    drup = [r for r in rows if r[7] == "no" and _reason(r[8]) == "drup"]
    add("## The boards whose \"no\" needs a DRUP proof")
    add("")
    add(f"{len(drup):,} questions have no tour that no cheap argument (colour, degree, separator, "
        "alternation, Hall's condition) explains: a SAT solver's DRUP refutation of the tour encoding, checked by the kernel, "
        "is their proof. These are the interesting boards. By board and hole size, the hole's top-left "
        "square:")
    add("")
    _list_holes(add, drup)
    add("")


def _findings_open(add, rows: list, closed: list, opened: list) -> None:
    """The boards minus one square without an open tour, beyond the colour count."""
    add("## Open tours with one square removed")
    add("")
    no_open = [r for r in opened if r[7] == "no"]
    add(f"{len(no_open):,} of {len(opened):,} boards minus one square have no open tour. Those the colour "
        "count does not explain:")
    add("")
    group = {}
    for r in no_open:
        if r[8] != "colour":
            group.setdefault((r[0], r[1]), []).append(f"{square_name(r[0], r[1], r[3], r[4])} ({r[8]})")
    for (m, n), names in sorted(group.items()):
        add(f"* {m}x{n}: {', '.join(names)}")
    if not group:
        add("None.")
    add("")


def _list_holes(add, rows) -> None:
    """One line per board, tour kind and hole size: the hole positions (top-left squares)."""
    group: dict = {}
    for r in rows:
        group.setdefault((r[0], r[1], r[2], r[5], r[6]), []).append(square_name(r[0], r[1], r[3], r[4]))
    for (m, n, tour, h, w), names in sorted(group.items()):
        add(f"* {m}x{n} {tour}, hole {h}x{w}: {', '.join(names)}")
    if not group:
        add("None.")


def write_findings(source, out, *, board=None, command: str = "", seconds: str = "") -> list[Check]:
    """Write :func:`findings_markdown` of a store (or a table file) to ``out``; return the
    theorem checks (:func:`theorem_checks`) it reports."""
    if isinstance(source, Store):
        rows = atlas_rows(source, board)
        name = ""
    else:
        rows = read_table(source)
        name = Path(source).name
        if board is not None:
            rows = [r for r in rows if (r[0], r[1]) == tuple(board)]
    if not rows:
        raise InvalidInput("the table is empty: nothing to report")
    text = findings_markdown(rows, command=command, seconds=seconds, source=name)
    with output_file(out) as fh:
        fh.write(text)
    return theorem_checks(rows)


def write_html(store: Store, out, *, board=None) -> int:
    """Write the atlas page (see :mod:`kt_formal.io.atlas_page`); return its size in bytes."""
    from kt_formal.io.atlas_page import atlas_html

    data = page_data(store, board)
    text = atlas_html(data)
    with output_file(out) as fh:
        fh.write(text)
    return len(text.encode())


# ---------------------------------------------------------------------- the page's data
#: One character per question on the page: its answer and, for a no, the proof method.
CELL_CODES = {"yes": "y", "colour": "c", "degree": "d", "separator": "s", "alternation": "a", "hall": "h", "ends": "e",
              "drup": "D", "exhaustive": "X", "unknown": "u", "rejected": "r"}

_NOT_CHECKED = (" (A search record: the kernel runs no search, so it is not checked here; "
                "kt-formal verify --db --replay re-runs it.)")

_MOVES = [(-2, -1), (-2, 1), (-1, -2), (-1, 2), (1, -2), (1, 2), (2, -1), (2, 1)]
_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"


def pack_tour(cols: int, squares) -> str:
    """A tour as ``START:MOVES``: the first square's index ``r * cols + c`` and its moves,
    two to a character (each move one of eight, :data:`_MOVES`), for the page to unpack.

    >>> pack_tour(3, [(0, 0), (1, 2), (2, 0), (0, 1), (2, 2), (1, 0), (0, 2), (2, 1)])
    '0:sPTw'
    """
    idx = {d: i for i, d in enumerate(_MOVES)}
    codes = [idx[(b[0] - a[0], b[1] - a[1])] for a, b in zip(squares, squares[1:])]
    if len(codes) % 2:
        codes.append(0)
    packed = "".join(_ALPHABET[codes[i] * 8 + codes[i + 1]] for i in range(0, len(codes), 2))
    r, c = squares[0]
    return f"{r * cols + c}:{packed}"


def _drup_reason(d: dict) -> str:
    kind = "closed" if d.get("closed") else "open"
    proof = d.get("proof") or {}
    cuts = len(d.get("cuts") or [])
    return (f"No {kind} tour: a SAT solver refuted the tour encoding ({d.get('encoding', '?')}"
            f"{f', {cuts} cut clauses the kernel checks are cuts' if cuts else ''}); its DRUP proof "
            f"({proof.get('lemmas', '?')} lemmas) was checked by the kernel's DRUP checker.")


def page_data(store: Store, board=None) -> dict:
    """Everything the atlas page shows, as plain data (see :mod:`kt_formal.io.atlas_page`)."""
    from kt_formal.survey import report
    from kt_formal.survey.runners import EXPENSIVE_CHECKS
    from kt_formal.proofs.explain import explain

    reasons: list[str] = []
    reason_ix: dict = {}
    answers: dict = {}
    cache: dict = {}
    boards: dict = {}
    for m, n, tour, rect, answer, method, d in _one_hole_rows(store, board, "the page", certificates=True):
        top, left, h, w = rect
        card = boards.setdefault((m, n, tour), {})
        panel = card.setdefault((h, w), {})
        extra = None
        if answer == "yes":  # the kernel checked its squares: a tour of knight moves
            code = "y"
            extra = pack_tour(n, d["squares"])
        elif answer in ("no", REJECTED):
            code = CELL_CODES.get(method, "X") if answer == "no" else CELL_CODES[REJECTED]
            text = f"The stored certificate was rejected by the kernel: {method}" if answer == REJECTED else None
            if text is None and d.get("kind") == "drup":
                text = _drup_reason(d)
            elif text is None:
                key = (m, n, json.dumps({k: v for k, v in d.items() if k != "board"}, sort_keys=True))
                text = cache.get(key)
                if text is None:
                    text = cache[key] = explain(d) + (_NOT_CHECKED if method in EXPENSIVE_CHECKS else "")
            if text not in reason_ix:
                reason_ix[text] = len(reasons)
                reasons.append(text)
            extra = reason_ix[text]
        else:
            code = "u"
        label = f"no: {method}" if answer == "no" else answer
        answers.setdefault(label, {})[tour] = answers.get(label, {}).get(tour, 0) + 1
        panel[(top, left)] = (code, extra)
    if not boards:
        raise InvalidInput("the census database is empty: nothing to show" if board is None else
                           f"the census database has no {board[0]}x{board[1]} board")
    out_boards = []
    for (m, n, tour), card in sorted(boards.items(), key=lambda kv: (kv[0][0], kv[0][1], kv[0][2] != "closed")):
        panels = []
        for (h, w), cells in sorted(card.items()):
            nr, nc = m - h + 1, n - w + 1
            if nr * nc > PAGE_MAX_CELLS:  # a panel draws every place of its hole: a page, not a census of 10^18
                raise InvalidInput(f"the census database holds a {m}x{n} board: its panel would have {nr * nc:,} "
                                   f"places, more than the page draws ({PAGE_MAX_CELLS:,})")
            codes = []
            extras = []
            for i in range(nr):
                for j in range(nc):
                    code, extra = cells.get((i, j), (".", None))
                    codes.append(code)
                    extras.append(extra)
            panels.append({"h": h, "w": w, "cells": "".join(codes), "extra": extras})
        out_boards.append({"m": m, "n": n, "kind": tour, "panels": panels})
    summary = dict(report.summary_dict(store), answers=answers,  # the answers shown, as checked
                   questions=sum(sum(v.values()) for v in answers.values()))
    own = {"alternation": "#8c5a2b", "hall": "#1f6f8b"}  # the page tells them from separators
    legend = {code: [words, own[method] if method in own else
                     "#%02x%02x%02x" % report.COLOURS[report.METHOD_KEYS.get(method) or
                                                      {"y": "yes", "r": REJECTED}.get(code, "unknown")]]
              for method, code, words in (("yes", "y", "yes: a tour"), ("colour", "c", "no: colour count"),
                                          ("degree", "d", "no: a square of degree < 2"),
                                          ("separator", "s", "no: separator"),
                                          ("alternation", "a", "no: 4-row alternation"),
                                          ("hall", "h", "no: Hall's condition (no 2-factor)"),
                                          ("drup", "D", "no: DRUP proof (SAT)"), ("unknown", "u", "unknown"),
                                          (REJECTED, "r", "certificate rejected by the kernel"))}
    title, family = report.family_words({(m, n) for m, n, _ in boards},
                                        {(t, h, w) for (_, _, t), card in boards.items() for h, w in card})
    return {"title": f"{title}: {family}", "summary": summary, "boards": out_boards,
            "reasons": reasons, "legend": legend, "moves": _MOVES, "alphabet": _ALPHABET}
