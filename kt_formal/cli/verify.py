"""``kt-formal verify``: check a certificate or a tour file independently.

Re-check a certificate (JSON) or a tour file (any format 'kt-formal tour' writes) from
the board and the knight rule alone.
"""

from __future__ import annotations

import sys

from kt_formal import api
from kt_formal.cli.parsing import PROG
from kt_formal.api import InvalidInput, KtFormalError, exit_code_of
from kt_formal.cli.scripting import add_script_arguments, print_json_array
from kt_formal.cli.common import command, seconds, time_limit_of


VERIFY_EXAMPLES = """\
examples:
  kt-formal tour 8 8 --format json --out t.json && kt-formal verify t.json
  kt-formal tour 8 8 --out t.txt && kt-formal verify t.txt
  kt-formal tour 8 8 --format npy --out t.npy && kt-formal verify t.npy
  kt-formal tour 10000 10000 --out t.ktour && kt-formal verify t.ktour
  kt-formal tour 8 8 | kt-formal verify -    standard input, in any of these formats
  kt-formal verify --db census.sqlite        every certificate stored by 'kt-formal census'
                                             (--replay re-runs exhaustive records there too)

Every format 'kt-formal tour' writes is read: JSON certificate, numbered grid (text:
rows of step numbers, holes as '#', '.', '-' or 0; or a .npy integer array, 0 on
holes), coords or chess list, successor array (.npy), binary order file (.ktour).
Every file kt-formal writes says whether its tour is closed (a grid in its first line,
a .npy grid in a line after its array). A grid without that line (printed, or saved
by numpy itself) is checked as an open tour unless --closed is given.
"""


def add_verify(sub) -> None:
    p = command(sub, __doc__, VERIFY_EXAMPLES)
    p.add_argument("files", nargs="*", metavar="FILE",
                   help="tour file to check (any format 'kt-formal tour' writes) or a proof "
                        "certificate (.json); several files give one line each and a total")
    p.add_argument("--closed", action="store_true",
                   help="check a grid as a closed tour (the last square a knight move from the first); a file that says it holds an open tour is then refused")
    p.add_argument("--replay", action="store_true",
                   help="re-run the search an 'exhaustive' record names (the kernel runs no search, "
                        "so without --replay such a record is NOT CHECKED)")
    p.add_argument("--time-limit", type=seconds, metavar="S", help="with --replay: stop a replay after S seconds and report unknown, exit 3 "
                                     f"(default {api.DEFAULT_TIME_LIMIT:g}; with --db, S for all the replays together)")
    p.add_argument("--db", metavar="FILE", help="re-check every certificate stored in a census database")
    add_script_arguments(p, "verify")
    p.set_defaults(run=_run_verify)


def _run_verify(args) -> int:
    """One line per file; exit 0 when every file verifies, 1 if any is rejected or not
    checked, 2 if any is unreadable."""

    args.json = args.json or args.json_lines  # one object is one line either way
    if args.db is not None:
        if args.files:
            raise InvalidInput("give either certificate files or --db FILE, not both")
        return _run_verify_db(args)
    if not args.files:
        raise InvalidInput("give a certificate file to check (or --db FILE)")
    return _verify_scripted(args)




def _run_verify_db(args) -> int:
    with api.progress_for(enabled=not getattr(args, "quiet", False), label="verify") as progress:
        result = api.verify_database(args.db, progress=progress, replay=args.replay, time_limit=time_limit_of(args))
    if getattr(args, "json", False):
        from kt_formal.io import jsonout

        for d in result.to_json():
            jsonout.emit(d)
        return result.exit_code
    for line in result.failures:
        print(line)
    print(result.text())
    return result.exit_code


def _verify_scripted(args) -> int:
    """One line per file, a total after several; ``--json``: one object for one file, one
    JSON array of them for several (``--json-lines``: one object a line, as each is checked)."""
    from kt_formal.io import jsonout

    codes = []
    many = len(args.files) > 1
    rows = [] if many and not args.json_lines else None  # --json of several files: one array at the end
    time_limit = time_limit_of(args)
    for path in args.files:
        try:
            result = api.verify(path, closed=args.closed, replay=args.replay, time_limit=time_limit)
        except KtFormalError as exc:
            if not many and not args.json:
                raise
            if args.json:
                print(f"{PROG}: {path}: {exc}", file=sys.stderr)
            answer, code, claim, text = "bad-input", exit_code_of(exc), str(exc), f"BAD INPUT: {exc}"
        else:
            if result.answer == "unknown" and not many and not args.json:
                raise api.LimitReached(result.claim)
            answer, code, claim = result.answer, result.exit_code, api.in_command_words(result.claim)
            if result.ok:
                claim = _styled_claim(args, path, claim)
            text = f"{'REPLAYED' if answer == 'replayed' else 'OK'}: {claim}" if result.ok else result.text()
        codes.append(code)
        if args.json and rows is not None:
            rows.append(jsonout.verify_json(path, answer, code, claim))
        elif args.json:
            jsonout.emit(jsonout.verify_json(path, answer, code, claim))
        else:
            print(f"{path + ': ' if many else ''}{text}", flush=True)
    if args.json and rows is not None:
        print_json_array(rows)
    elif many and not args.json:
        print(f"{codes.count(0)} of {len(codes)} files verified")
    return max(codes)


def _styled_claim(args, path: str, claim: str) -> str:
    """The claim with its squares written as --squares says (chess names up to 26 columns)."""
    import re

    from kt_formal.cli.parsing import restyle, square_style

    m = re.search(r"of the (\d+)x(\d+) board", claim)
    if not m:
        return claim
    rows, cols = int(m.group(1)), int(m.group(2))
    return restyle(claim, rows, [], square_style(getattr(args, "squares", None), [], cols), cols)
