"""The Python API is the product and the command a thin shell over it.

The verbs are plain functions with full signatures and examples; errors speak Python's
words; the command and the API give the same answer, method and route on a table of
questions; boards and tours draw themselves however they are imported.
"""

from __future__ import annotations

import inspect
import json
import os
import pydoc
import re
import subprocess
import sys

import pytest

import kt_formal as kt
from kt_formal import api
from tests.conftest import ROOT

VERBS = (kt.tour, kt.decide, kt.count, kt.verify, kt.census)


@pytest.mark.parametrize("verb", VERBS, ids=lambda v: v.__name__)
def test_the_verbs_have_full_signatures_and_an_example(verb):
    params = inspect.signature(verb).parameters
    kinds = {p.kind for p in params.values()}
    assert inspect.Parameter.VAR_POSITIONAL not in kinds and inspect.Parameter.VAR_KEYWORD not in kinds
    assert ">>> " in inspect.getdoc(verb)
    assert ">>> " in pydoc.render_doc(verb, renderer=pydoc.plaintext)


def test_decide_names_the_keywords_board_takes():
    params = inspect.signature(kt.decide).parameters
    assert {"holes", "hole", "remove", "closed", "start", "end", "time_limit", "engine", "options"} <= set(params)
    assert params["time_limit"].default == api.DEFAULT_TIME_LIMIT
    assert inspect.signature(kt.tour).parameters.keys() == params.keys()


def test_decide_takes_holes_as_board_does():
    holes = [(1, 6), (1, 7), (2, 6), (2, 7)]
    d = kt.decide(10, 10, holes=holes)
    assert d.answer in ("yes", "no") and d.question.board == kt.Board(10, 10, holes=holes)
    assert kt.verify(d.certificate).answer == "verified"
    # the same board by the command's spellings
    same = kt.decide(10, 10, hole=["1,6,2x2"])
    assert (same.answer, same.method) == (d.answer, d.method)
    t = kt.tour(10, 10, holes=[(4, 4), (4, 5), (5, 4), (5, 5)], threads=1)
    assert t.answer == "yes" and t.tour.check() is None and set(t.tour.board.holes()) == {(4, 4), (4, 5), (5, 4),
                                                                                          (5, 5)}
    c = kt.count(3, 4, closed=False, holes=[(0, 0)])
    assert c.complete and c.question.board.n_holes == 1 and c.count == c.directed_count // 2


@pytest.mark.parametrize("call, match", [
    (lambda: kt.decide(5, 5, time_limit=-1), "time limit"),
    (lambda: kt.decide(5, 5, time_limit=float("nan")), "time limit"),
    (lambda: kt.count(5, 5, time_limit=0), "time limit"),
    (lambda: kt.decide(8, 8, options={"order": "knight"}), "option 'order'"),
    (lambda: kt.decide(5, 5, holes=[(9, 9)]), "outside"),
    (lambda: kt.verify("no-such-file.json"), "no-such-file"),
    (lambda: kt.count(5, 5, resume=True), "resume goes with checkpoint"),
    (lambda: kt.count(5, 5, closed=False, out="tours.txt", method="frontier"), "use method='search'"),
    (lambda: kt.count(20, 20), "try method='search' with a time_limit"),
    (lambda: kt.census(kt.Family(rows=3, cols=4, remove_squares=1, samples=3), db="never.sqlite"),
     "samples and seed go with random_holes"),
    (lambda: kt.census(kt.Family(rows=3, cols=4, hole_size="big"), db="never.sqlite"), "hole_size must look like"),
])
def test_errors_speak_python(call, match):
    with pytest.raises(kt.InvalidInput, match=match) as info:
        call()
    assert "--" not in str(info.value)


def test_a_verdict_is_wrapped_not_copied():
    d = kt.decide(5, 5)
    assert isinstance(d.verdict, kt.Verdict) and d.verdict.question is d.question
    assert (d.answer, d.method, d.exit_code) == (d.verdict.answer, d.verdict.route, 1)


def test_verify_says_what_it_checked(tmp_path):
    t = kt.tour(6, 6, threads=1)
    ok = kt.verify(t.certificate, closed=True)
    assert ok.answer == "verified" and ok.claim.startswith("closed tour of the 6x6 board")
    path = tmp_path / "t.txt"
    path.write_text(t.tour.format("grid"))
    from_file = kt.verify(path)
    assert from_file.ok and from_file.file == str(path)
    bad = dict(t.certificate)
    bad["squares"] = bad["squares"][:-1]  # a square left out
    assert kt.verify(bad).answer == "rejected" and kt.verify(bad).exit_code == 1


def _without_times(d):
    """The object without the seconds it took (the only thing two runs may differ in)."""
    d = json.loads(json.dumps(d))
    for part in (d, d.get("run", {}), d.get("summary", {}), *d.get("stages", [])):
        part.pop("seconds", None)
    d["message"] = re.sub(r"\d+\.\d+ s\b", "_ s", d["message"])
    return d


#: (command line, the API's call): the same question both ways.
TABLE = [
    (["tour", "6", "6", "--threads", "1"], lambda: kt.tour(6, 6, threads=1)),
    (["tour", "8", "8", "--hole", "3,3,2x2", "--open", "--start", "a1"],
     lambda: kt.tour(8, 8, closed=False, start="a1", hole=["3,3,2x2"])),
    (["exists", "5", "5"], lambda: kt.decide(5, 5)),
    (["exists", "10", "10", "--hole", "1,6,2x2"], lambda: kt.decide(10, 10, holes=[(1, 6), (1, 7), (2, 6), (2, 7)])),
    (["exists", "4", "5", "--open", "--start", "a1"], lambda: kt.decide(4, 5, closed=False, start="a1")),
    (["count", "5", "6"], lambda: kt.count(5, 6)),
    (["count", "5", "5", "--open"], lambda: kt.count(5, 5, closed=False)),
    (["count", "6", "6", "--open"], lambda: kt.count(6, 6, closed=False)),
    (["count", "5", "6", "--open", "--start", "0,0", "--end", "4,5"],
     lambda: kt.count(5, 6, closed=False, start=(0, 0), end=(4, 5))),
    (["count", "6", "6", "--start", "a1", "--end", "b3"], lambda: kt.count(6, 6, start="a1", end="b3")),
]


#: The longest rows of the table (6x6's open tours, 4 s; the default run counts them once in
#: tests/test_count_policy.py) run with the slow tests.
_SLOW_ROWS = {("count", "6", "6", "--open")}


@pytest.mark.parametrize("argv, call", [pytest.param(a, c, id=" ".join(a), marks=[pytest.mark.slow] * (tuple(a) in _SLOW_ROWS))
                                        for a, c in TABLE])
def test_the_command_and_the_api_agree(cli, argv, call):
    r = cli(*argv, "--json", "--squares", "chess")  # the API names squares by chess names
    (cmd,) = [json.loads(line) for line in r.out.splitlines()]
    got = call()
    mine = got.to_json()
    assert r.code == got.exit_code
    assert (cmd["answer"], cmd["method"]) == (mine["answer"], mine["method"])
    assert _without_times(cmd) == _without_times(mine)


def test_the_census_command_and_the_api_agree(cli, tmp_path):
    by_command, by_api = tmp_path / "command.sqlite", tmp_path / "api.sqlite"
    r = cli("census", "3..4", "4", "--remove-squares", "1", "--db", by_command, "--workers", "1", "--json")
    (cmd,) = [json.loads(line) for line in r.out.splitlines()]
    got = kt.census(kt.Family(rows="3..4", cols=4, remove_squares=1), db=by_api, workers=1)
    assert r.code == got.exit_code == 0 and got.questions == 12 + 16
    mine = got.to_json()
    cmd["db"] = mine["db"] = None
    assert _without_times(cmd) == _without_times(mine)


def test_the_count_method_is_one_rule(cli):
    q = api.Question(kt.Board(6, 6), closed=False)
    assert api.count_method(q) == kt.count(6, 6, closed=False).method == "frontier"
    q = api.Question(kt.Board(6, 6))
    assert api.count_method(q) == "search"


def _fresh(code: str) -> str:
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.strip()


def test_boards_and_tours_draw_themselves_however_imported():
    out = _fresh(
        "import sys\n"
        "from kt_formal.board import Board\n"
        "from kt_formal.tours import Tour\n"
        "b = Board(3, 4, holes=[(1, 1)])\n"
        "t = Tour.from_squares(Board(3, 3, holes=[(1, 1)]), [(0, 0), (1, 2), (2, 0), (0, 1), (2, 2), (1, 0),"
        " (0, 2), (2, 1)], closed=True)\n"
        "print(b._repr_svg_().startswith('<svg'), t._repr_svg_().count('<polyline'),"
        " any(m.startswith('kt_formal.io') for m in sys.modules))\n")
    assert out == "True 1 False"


def test_the_command_imports_only_the_api_and_io():
    """The import contract (pyproject) and its words: no private name of another package."""
    import ast
    from pathlib import Path

    for path in sorted((ROOT / "kt_formal" / "cli").glob("*.py")):
        for node in ast.walk(ast.parse(Path(path).read_text())):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("kt_formal"):
                top = (node.module.split(".") + [""])[1]
                assert node.module == "kt_formal" or top in ("api", "io", "cli"), (path.name, node.module)
                if top != "cli":
                    assert not any(a.name.startswith("_") and a.name != "__version__" for a in node.names), path


def test_help_gives_the_default_time_limit(cli):
    for command in ("tour", "exists", "count"):
        r = cli(command, "--help")
        assert f"(default {api.DEFAULT_TIME_LIMIT:g})" in " ".join(r.out.split())
    r = cli("census", "--help")
    assert f"(default {api.CENSUS_TIME_LIMIT:g}," in " ".join(r.out.split())


def test_a_question_is_asked_as_it_is():
    q = api.Question(kt.Board(5, 6), closed=False, start=(0, 0))
    c = kt.count(q)
    assert c.question is q and c.complete and c.count == kt.count(5, 6, closed=False, start="a5").count
    assert kt.decide(api.Question(kt.Board(5, 5))).answer == "no"
    with pytest.raises(TypeError, match="Question"):
        kt.count(q, closed=False)


def test_the_verify_command_and_the_api_agree(cli, tmp_path):
    path = tmp_path / "t.json"
    path.write_text(kt.tour(6, 6, threads=1).tour.to_json())
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"format": "kt-formal/1", "kind": "tour", "board": {"rows": 3, "cols": 3},
                               "closed": True, "squares": [[0, 0]]}))
    for file in (path, bad):
        r = cli("verify", file, "--json", "--squares", "chess")
        (cmd,) = [json.loads(line) for line in r.out.splitlines()]
        got = kt.verify(file)
        assert r.code == got.exit_code and cmd == got.to_json()
    assert kt.verify(bad).answer == "rejected"


def test_a_very_long_time_limit_is_a_time_limit(tmp_path):
    """No upper bound is checked at parsing any more: a limit past what the system's timer
    counts runs without the census's alarm, and is answered as any other."""
    got = kt.census(kt.Family(rows=3, cols=4, remove_squares=1), db=tmp_path / "c.sqlite", workers=1,
                    time_limit=1e300)
    assert got.unknown == 0 and got.summary["answers"]
    assert kt.decide(5, 6, time_limit=1e300).answer == "yes"
