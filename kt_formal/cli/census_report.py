"""``kt-formal census-report``: summary, CSV and map of a census database.

Print the summary of a census database; write it as CSV or draw a map of the answers.
The database is only read.
"""

from __future__ import annotations

import sys

from kt_formal import api
from kt_formal.api import InvalidInput, STDOUT
from kt_formal.cli.common import command, notify
from kt_formal.cli.scripting import add_script_arguments


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
other row is shown as rejected and the command exits 1; a stored certificate that is not
readable JSON is also named on stderr and counted as "unreadable" in the summary. Every OUT
may be '-' (standard output).
"""


#: How many rows with an unreadable certificate the command names on standard error.
_NAMED = 10


def add_census_report(sub) -> None:
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
    to_stdout = [o for o in (args.csv, args.table, args.findings, args.html, args.map) if o == STDOUT]
    if to_stdout and getattr(args, "json", False):
        raise InvalidInput("--json prints its object on standard output: name the files written (not -)")
    if str(args.db).endswith((".csv", ".csv.gz")) and getattr(args, "json", False):
        raise InvalidInput(f"{args.db} is a verdict table: it gives --findings only (the rest needs the "
                           "census database)")
    result = api.census_report(args.db, csv=args.csv, certificates=args.certificates, map=args.map,
                               board=api.board_size(args.board), axes=args.axes, table=args.table,
                               findings=args.findings, html=args.html)
    if result.text and not getattr(args, "json", False) and not to_stdout:  # "-": the file alone on standard output
        print(result.text)
    for line in result.notes:
        notify(args, line)
    for line in result.disagreements:
        print(line, file=sys.stderr)
    for line in result.unreadable[:_NAMED]:
        print(line, file=sys.stderr)
    if len(result.unreadable) > _NAMED:
        print(f"... and {len(result.unreadable) - _NAMED} more unreadable certificates", file=sys.stderr)
    if result.rejected:  # the maps, table, findings and page show them as rejected, never as answers
        n = result.rejected
        print(f"{n} stored certificate{'s' if n > 1 else ''} rejected by the kernel, shown as "
              f"rejected (kt-formal verify --db {args.db} names {'them' if n > 1 else 'it'})", file=sys.stderr)
    if getattr(args, "json", False):
        from kt_formal.io import jsonout

        jsonout.emit(result.to_json())
    return result.exit_code
