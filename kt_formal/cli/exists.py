"""``kt-formal exists``: decide whether a tour exists, with a certificate either way.

Decide whether a board has a closed (or open) tour. A yes comes with a verified tour, a
no with a proof that 'kt-formal verify' re-checks; unknown when a limit runs out.
"""

from __future__ import annotations

from kt_formal import api
from kt_formal.cli.common import add_board_arguments, add_question_arguments, add_search_arguments, board_from_args, command, EngineNames, notify, write_output, time_limit_of
from kt_formal.cli.scripting import exists_exit, json_verdict, style_line, add_script_arguments


EXISTS_EXAMPLES = """\
examples:
  kt-formal exists 5 5                       no: 13 dark and 12 light squares
  kt-formal exists 4 1000 --cert p.json      no: Posa's alternation proof, then
  kt-formal verify p.json                    re-checks it
  kt-formal exists 8 8 --open --start a1 --end h8
exit status: 0 yes, 1 no, 3 unknown (a limit ran out), 2 bad input
"""


def add_exists(sub) -> None:
    p = command(sub, __doc__, EXISTS_EXAMPLES)
    add_board_arguments(p)
    add_question_arguments(p)
    p.add_argument("--cert", metavar="FILE", help="write the certificate (tour or proof, JSON) to FILE")
    p.add_argument("--engine", default="auto", choices=EngineNames(), metavar="ENGINE",
                   help="auto (default): the whole pipeline (proofs, constructions, a portfolio of "
                        "searches); or one of %(choices)s: the cheap proofs, then only that engine")
    add_search_arguments(p)
    p.add_argument("--exit-zero-on-proof", action="store_true",
                   help="exit 0 for a certified answer either way (yes with a tour, no with a proof), "
                        "3 unknown, 2 bad input: for 'kt-formal exists ... --cert p.json "
                        "--exit-zero-on-proof && kt-formal verify p.json'")
    add_script_arguments(p, "exists")
    p.set_defaults(run=_run_exists)


def _run_exists(args) -> int:
    import json

    board = board_from_args(args)
    verdict = api.decide(board, closed=not args.open, start=args.start, end=args.end,
                         time_limit=time_limit_of(args), engine=args.engine, seed=args.seed, threads=args.workers)
    if args.cert and verdict.certificate is not None:
        write_output(json.dumps(verdict.certificate, separators=(",", ":")) + "\n", args.cert)
    if getattr(args, "json", False):
        return json_verdict(args, "exists", board, verdict, None)
    print(style_line(args, board, verdict.explanation))
    if verdict.limit_reached:
        notify(args, "kt-formal: the time limit ran out; give more time with --time-limit S")
    if args.cert:
        where = (f"certificate written to {args.cert}" if verdict.certificate is not None
                 else "no certificate to write")
        notify(args, f"{verdict.answer} ({verdict.route}, {verdict.wall_time:.2f} s); {where}")
    return exists_exit(args, verdict)
