"""``kt-formal census-report``: summary, CSV and map of a census database.

Print the summary of a census database; write it as CSV or draw a map of the answers.
The database is only read.
"""

from __future__ import annotations

import sys

from kt_formal.exceptions import InvalidInput
from kt_formal.files import STDOUT, output_name
from kt_formal.cli.common import command, _note
from kt_formal.cli.scripting import _json_census, add_script_arguments


CENSUS_REPORT_EXAMPLES = """\
examples:
  kt-formal census-report one.sqlite                       the summary table
  kt-formal census-report one.sqlite --csv one.csv         one line per question
  kt-formal census-report hole.sqlite --map hole.svg       one board: answer at each hole position
  kt-formal census-report one.sqlite --map sizes.png       several sizes: a rows x columns grid
  kt-formal census-report atlas.sqlite --board 8x8 --map 8x8.png      one board of many
  kt-formal census-report atlas.sqlite --map 'maps/{board}.svg'       one map per board size
  kt-formal census-report atlas.sqlite --table atlas.csv.gz --findings findings.md --html atlas.html

Map colours: green yes; for a no, by its proof: pink colour count, orange a square of
degree < 2, dark red separator, alternation or Hall's condition, purple DRUP proof; amber a mix of yes and
no, grey unknown, black a certificate the kernel rejects. --findings checks the table against
published theorems and exits 1 (naming each case on stderr) when a row disagrees. The maps,
table, findings and page take a row's answer only from a certificate the kernel accepts; any
other row is shown as rejected and the command exits 1. Every OUT may be '-' (standard output).
"""


def _add_census_report(sub) -> None:
    p = command(sub, __doc__, CENSUS_REPORT_EXAMPLES)
    p.add_argument("db", metavar="FILE", help="the census database")
    p.add_argument("--csv", metavar="OUT", help="write one line per question to OUT")
    p.add_argument("--certificates", action="store_true", help="include the certificates in the CSV")
    p.add_argument("--map", metavar="OUT",
                   help="draw the answers (.svg or .png; - for SVG on standard output): one board size: a panel per kind of tour and "
                        "hole size, each hole position coloured by its answer; several sizes: a rows x "
                        "columns grid; OUT with {board} (maps/{board}.png): one map per board size")
    p.add_argument("--board", metavar="RxC", help="the map and the findings of this board size only")
    p.add_argument("--axes", choices=("chess", "rc"), default="chess",
                   help="map labels: chess files and ranks (default, up to 26 columns) or row/column numbers")
    p.add_argument("--table", metavar="OUT.csv.gz",
                   help="write the verdict table (board, tour, hole, answer, proof method; no certificates), "
                        "gzip-compressed when OUT ends in .gz")
    p.add_argument("--findings", metavar="OUT.md",
                   help="write what the census says (no-positions and their reasons per hole size, the "
                        "DRUP boards, agreement with published theorems, margins) as Markdown")
    p.add_argument("--html", metavar="OUT.html",
                   help="write one self-contained page: every board's map, filters, and on a click the tour "
                        "or the proof's reason")
    add_script_arguments(p, "census-report", squares=False)
    p.set_defaults(run=_run_census_report)


def _run_census_report(args) -> int:
    from kt_formal.survey import report
    from kt_formal.survey.store import Store

    if args.map:
        from kt_formal.io.render import check_picture_path

        check_picture_path(args.map)
    status = 0
    to_stdout = [o for o in (args.csv, args.table, args.findings, args.html, args.map) if o == STDOUT]
    if to_stdout and getattr(args, "json", False):
        raise InvalidInput("--json prints its object on standard output: name the files written (not -)")
    if str(args.db).endswith((".csv", ".csv.gz")):  # a verdict table: only its findings
        from kt_formal.survey import atlas

        if not args.findings or any((args.csv, args.map, args.table, args.html, getattr(args, "json", False))):
            raise InvalidInput(f"{args.db} is a verdict table: it gives --findings only (the rest needs the "
                               "census database)")
        return 1 if _write_findings(args, args.db, _board_option(args.board)) else 0
    with Store.open(args.db, readonly=True) as store:
        if not getattr(args, "json", False) and not to_stdout:  # "-": the file alone on standard output
            print("\n".join(report.summary_lines(store)))
        if args.csv:
            n = report.write_csv(store, args.csv, certificates=args.certificates)
            _note(args, f"{n} rows written to {output_name(args.csv)}")
        board = _board_option(args.board)
        if args.map:
            files = report.write_map(store, args.map, board=board, squares=args.axes)
            _note(args, f"map written to {output_name(files[0])}" if len(files) == 1 else
                  f"{len(files)} maps written ({files[0]} ... {files[-1]})")
        if args.table:
            from kt_formal.survey import atlas

            n = atlas.write_table(store, args.table)
            _note(args, f"{n} rows written to {output_name(args.table)}")
        if args.findings:
            status = 1 if _write_findings(args, store, board) else status
        if args.html:
            from kt_formal.survey import atlas

            size = atlas.write_html(store, args.html, board=board)
            where = output_name(args.html)
            _note(args, f"page written to {where} ({size / 1e6:.1f} MB)" if size >= 1e6 else
                  f"page written to {where} ({size / 1e3:.0f} kB)")
        rejected = sum(answer == report.REJECTED for answer, _ in store.checked.values())
        if rejected:  # the maps, table, findings and page show them as rejected, never as answers
            print(f"{rejected} stored certificate{'s' if rejected > 1 else ''} rejected by the kernel, shown as "
                  f"rejected (kt-formal verify --db {args.db} names {'them' if rejected > 1 else 'it'})",
                  file=sys.stderr)
            status = max(status, 1)
    if getattr(args, "json", False):
        return _json_census(args, "census-report", None, None, status)
    return status


def _write_findings(args, source, board) -> int:
    """Write the findings of ``source`` (a census or a verdict table); the disagreements
    with published theorems, each also on standard error."""
    from kt_formal.survey import atlas

    checks = atlas.write_findings(source, args.findings, board=board)
    disagree = sum(len(c.disagreements) for c in checks)
    _note(args, f"findings written to {output_name(args.findings)}; theorem checks: {len(checks)} theorems, "
                f"{sum(c.checked for c in checks)} rows they speak of, {disagree} disagreements")
    for c in checks:
        for d in c.disagreements:
            print(f"DISAGREEMENT with {c.name}: {d}", file=sys.stderr)
    return disagree


def _board_option(text):
    """``--board 8x10`` as (8, 10), or None."""
    import re

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
