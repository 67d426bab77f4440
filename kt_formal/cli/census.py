"""``kt-formal census``: answer a whole family of boards into a SQLite database.

Decide tour existence on every board of a family, storing one certified verdict per
board in a resumable SQLite database.
"""

from __future__ import annotations

import argparse

from kt_formal.cli.parsing import Renamed
from kt_formal import api
from kt_formal.cli.common import bounded, command, MAX_SEED, notify, seconds, time_limit_of
from kt_formal.cli.scripting import add_script_arguments


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


def add_census(sub) -> None:
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
    p.add_argument("--seed", type=bounded(int, 0, MAX_SEED, "--seed"), default=0, metavar="K",
                   help="random seed of the random sets (default 0); runs repeat")
    p.add_argument("--db", required=True, metavar="FILE", help="the SQLite database (created if missing)")
    p.add_argument("--open", action="store_true", help="open tours (paths) instead of closed ones")
    p.add_argument("--start", metavar="SQ", help="fixed first square (R,C 0-based, or a chess name like a1)")
    p.add_argument("--end", metavar="SQ", help="fixed last square")
    p.add_argument("--time-limit", type=seconds, metavar="S", help="seconds for each question before it is stored as unknown (default 10, "
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


def _family(args):
    """The :class:`~kt_formal.survey.families.Family` the options describe."""
    return api.Family(rows=args.rows, cols=args.cols, remove_squares=args.remove_squares, hole_size=args.hole,
                      random_holes=args.random_holes, mask_dir=args.mask_dir, rect_holes=args.rect_holes,
                      atlas=args.atlas, samples=args.samples, seed=args.seed, closed=not args.open,
                      start=args.start, end=args.end)


def _run_census(args) -> int:
    time_limit = time_limit_of(args, "CENSUS_TIME_LIMIT")
    with api.progress_for(enabled=not getattr(args, "quiet", False), label="census") as progress:
        run = api.census(_family(args), db=args.db, time_limit=time_limit, workers=args.workers, dask=args.dask,
                         retry_unknown=args.retry_unknown, progress=progress)
    notify(args, f"{run.questions} questions: {run.stored_before} already stored, {run.asked} asked "
                f"({run.orbits} up to symmetry) in {run.seconds:.1f} s; database {args.db}")
    if run.unknown:
        notify(args, f"kt-formal: {run.unknown} unknown (a limit ran out); ask them again with more time: "
                    f"the same command with --retry-unknown --time-limit S (now {time_limit:g} s)")
    if getattr(args, "json", False):
        from kt_formal.io import jsonout

        jsonout.emit(run.to_json())
    else:
        print(run.text)
    return run.exit_code
