"""``kt-formal census``: answer a whole family of boards into a SQLite database.

Decide tour existence on every board of a family, storing one certified verdict per
board in a resumable SQLite database.
"""

from __future__ import annotations

import argparse

from kt_formal.cli.parsing import Renamed
from kt_formal.exceptions import InvalidInput
from kt_formal.cli.common import _bounded, command, MAX_SECONDS, MAX_SEED, _note
from kt_formal.cli.scripting import _json_census, add_script_arguments


CENSUS_EXAMPLES = """\
examples:
  kt-formal census 3..10 3..10 --remove-squares 1 --db one.sqlite            closed tours
  kt-formal census 3..10 3..10 --remove-squares 1 --open --db one.sqlite     open tours, same file
  kt-formal census 30 30 --hole-size 6x6 --db hole.sqlite --workers 2
  kt-formal census 8 8 --random-holes 4 --samples 500 --seed 1 --db r.sqlite --dask local
  kt-formal census 8 8 --mask-dir masks/ --db m.sqlite --dask tcp://HOST:8786
  kt-formal census 3..16 3..16 --atlas --db atlas.sqlite --workers 2           the atlas (docs/atlas)
  kt-formal census-report one.sqlite --csv one.csv --map one.svg
  kt-formal verify --db one.sqlite

ROWS and COLS are a number or an inclusive range like 3..10; with the same range for
both, only boards with ROWS <= COLS are asked. Every position is its own row of the
database; positions equal under a symmetry of the board are solved once and the
certificate moved and re-checked. Positions that remove a fixed end are skipped.
Running the same command again asks only what is missing; --retry-unknown asks the
stored unknowns again with 4 times the time limit. Exit 0 when every question of the
family has an answer, 3 when some stay unknown, 2 for bad input.
"""


def _add_census(sub) -> None:
    p = command(sub, __doc__, CENSUS_EXAMPLES)
    p.add_argument("rows", metavar="ROWS", help="rows: a number or a range like 3..10")
    p.add_argument("cols", metavar="COLS",
                   help="columns: a number or a range; the same range as ROWS asks only ROWS <= COLS")
    fam = p.add_mutually_exclusive_group(required=True)
    fam.add_argument("--remove-squares", type=int, metavar="K", help="every set of K removed squares")
    fam.add_argument("--hole-size", dest="hole", metavar="HxW", help="every position of an H x W hole")
    fam.add_argument("--hole", dest="hole", metavar="HxW", action=Renamed, new="--hole-size",
                     help=argparse.SUPPRESS)
    fam.add_argument("--random-holes", type=int, metavar="K",
                     help="random sets of K removed squares (with --samples and --seed)")
    fam.add_argument("--mask-dir", metavar="DIR", help="every ASCII mask file in DIR ('.' square, '#' hole)")
    fam.add_argument("--rect-holes", action="store_true",
                     help="every position of every H x W hole, 1 <= H <= ROWS-2, 1 <= W <= COLS-2")
    fam.add_argument("--atlas", action="store_true",
                     help="the atlas of holed boards: closed tours with every rectangular hole "
                          "(--rect-holes) and open tours with every single square removed")
    p.add_argument("--samples", type=int, default=100, metavar="S", help="random sets per board size (default 100)")
    p.add_argument("--seed", type=_bounded(int, 0, MAX_SEED, "--seed"), default=0, metavar="K",
                   help="random seed of the random sets (default 0); runs repeat")
    p.add_argument("--db", required=True, metavar="FILE", help="the SQLite database (created if missing)")
    p.add_argument("--open", action="store_true", help="open tours (paths) instead of closed ones")
    p.add_argument("--start", metavar="SQ", help="fixed first square (R,C 0-based, or a chess name like a1)")
    p.add_argument("--end", metavar="SQ", help="fixed last square")
    p.add_argument("--time-limit", type=_bounded(float, 0.001, MAX_SECONDS, "--time-limit"), default=10.0,
                   metavar="S", help="seconds for each question before it is stored as unknown (default 10, "
                                     "not 60 as in tour, exists and count: a census asks many questions, "
                                     "and --retry-unknown asks the unknowns again with 4 times the limit)")
    p.add_argument("--workers", type=int, default=2, metavar="P",
                   help="worker processes: local processes, or workers of --dask local (default 2)")
    p.add_argument("--dask", metavar="ADDRESS",
                   help="run on a Dask cluster: a scheduler address tcp://HOST:8786, or 'local'")
    p.add_argument("--retry-unknown", action="store_true",
                   help="ask the stored unknowns again with 4 times the time limit")
    add_script_arguments(p, "census", squares=False)
    p.set_defaults(run=_run_census)


def _census_questions(args) -> list:
    from kt_formal.survey.families import family_questions

    return family_questions(args)


def _run_census(args) -> int:
    import math

    from kt_formal.survey.runners import run_census
    from kt_formal.survey.store import Store, check_store_file
    from kt_formal.progress import progress_for

    if not (args.time_limit > 0 and math.isfinite(args.time_limit)):
        raise InvalidInput(f"--time-limit must be a positive number of seconds, got {args.time_limit:g}")
    if not 1 <= args.workers <= 1024:
        raise InvalidInput(f"--workers must be between 1 and 1024, got {args.workers}")
    check_store_file(args.db)  # refuse a foreign or newer file before anything else
    questions = _census_questions(args)
    dask = None
    if args.dask:  # connect first: an unreachable scheduler leaves no database behind
        from kt_formal.survey.runners import DaskConnection

        dask = DaskConnection(args.dask, args.workers)
    try:
        with Store.open(args.db) as store:
            with progress_for(enabled=not getattr(args, "quiet", False), label="census") as progress:
                run = run_census(questions, store, time_limit=args.time_limit, workers=args.workers,
                                 dask=dask, retry_unknown=args.retry_unknown, progress=progress)
            summary, unknown = _census_summary(store, questions)
    finally:
        if dask is not None:
            dask.close()
    _note(args, f"{run.questions} questions: {run.stored_before} already stored, {run.asked} asked "
                f"({run.orbits} up to symmetry) in {run.seconds:.1f} s; database {args.db}")
    if unknown:
        _note(args, f"kt-formal: {unknown} unknown (a limit ran out); ask them again with more time: "
                    f"the same command with --retry-unknown --time-limit S (now {args.time_limit:g} s)")
    if getattr(args, "json", False):
        return _json_census(args, "census", unknown, run)
    print(summary)
    return 3 if unknown else 0


def _census_summary(store, questions):
    from kt_formal.survey import report
    from kt_formal.survey.store import question_key

    keys = {question_key(q) for q in questions}
    unknown = sum(1 for r in store.con.execute(
        'SELECT rows, cols, holes, tour, start, "end" FROM verdicts WHERE answer = \'unknown\'')
        if tuple(r) in keys)
    return "\n".join(report.summary_lines(store)), unknown
