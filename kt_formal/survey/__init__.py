"""Census of board families: many verdicts, stored, resumable, on one machine or a Dask cluster.

A census asks one existence question (closed or open tour, optional fixed ends) of
every board of a family — every set of K removed squares, every position of an
H x W hole, random holes, or a folder of masks — over a range of board sizes, and
stores one row per question in SQLite (:mod:`~kt_formal.survey.store`). Each answer
carries the certificate the kernel checks; boards equal under a symmetry are solved
once and the certificate moved and re-checked (:mod:`~kt_formal.survey.families`).
Work runs on a local process pool or a Dask cluster (:mod:`~kt_formal.survey.runners`);
:mod:`~kt_formal.survey.report` writes tables, CSV files and maps.

>>> import tempfile, os
>>> path = os.path.join(tempfile.mkdtemp(), "c.sqlite")
>>> with Store.open(path) as store:
...     run = run_census(remove_squares(3, 3, 1), store, time_limit=5.0)
>>> run.questions, run.orbits, run.answers
(9, 3, {'no': 8, 'yes': 1})
"""

from kt_formal.survey.families import (Family, board_sizes, group_by_symmetry, hole_positions, mask_dir,
                                       parse_range, random_holes, remove_squares)
from kt_formal.survey.runners import run_census, solve_question
from kt_formal.survey.store import Store

__all__ = ["Family", "Store", "run_census", "solve_question", "board_sizes", "parse_range", "remove_squares",
           "hole_positions", "random_holes", "mask_dir", "group_by_symmetry"]
