"""The command line for scripts: --json on six commands (validated against the schema),
one vocabulary of options, --squares, --exit-zero-on-proof, completion, the options table,
and the Python API that mirrors the commands."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import jsonschema
import pytest

from kt_formal.io.jsonout import SCHEMA, load_schema

from conftest import ROOT


@pytest.fixture(scope="module")
def validator():
    schema = load_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def objects(run, validator, n=None):
    """The JSON objects of a run's standard output, each validated; exactly one line each."""
    lines = [line for line in run.out.splitlines() if line.strip()]
    out = []
    for line in lines:
        d = json.loads(line)
        validator.validate(d)
        assert d["schema"] == SCHEMA
        out.append(d)
    if n is not None:
        assert len(out) == n, run.out
    return out


# ---------------------------------------------------------------------- --json, six commands
def test_tour_json(cli, validator):
    r = cli("tour", 6, 6, "--start", "a1", "--threads", 1, "--json", "-q")
    (d,) = objects(r, validator, 1)
    assert r.code == d["exit_code"] == 0
    assert d["command"] == "tour" and d["answer"] == "yes" and d["start"] == [5, 0]
    assert d["board"] == {"rows": 6, "cols": 6, "squares": 36, "holes": []}
    sq = d["tour"]["squares"]
    assert len(sq) == 36 == d["tour"]["length"] and sq[0] == [5, 0]
    # the squares listed are a tour: every step a knight move, the closing one too
    for (r1, c1), (r2, c2) in zip(sq, sq[1:] + sq[:1]):
        assert {abs(r1 - r2), abs(c1 - c2)} == {1, 2}


def test_tour_json_with_out_names_the_file(cli, validator, tmp_path):
    out = tmp_path / "t.json"
    r = cli("tour", 5, 6, "--open", "--out", out, "--json", "-q")
    (d,) = objects(r, validator, 1)
    assert d["tour"]["file"] == str(out) == d["certificate"] and "squares" not in d["tour"]
    assert cli("verify", out, "--json").code == 0


def test_tour_json_unknown_and_impossible(cli, validator):
    r = cli("tour", 5, 5, "--json")
    (d,) = objects(r, validator, 1)
    assert r.code == 1 and d["answer"] == "no" and d["proof"] == "colour" and "tour" not in d
    r = cli("tour", 20, 20, "--engine", "dfs", "--node-limit", 10, "--json", "-q")
    (d,) = objects(r, validator, 1)
    assert r.code == 3 and d["answer"] == "unknown" and d["stages"]


def test_exists_json_and_certificate(cli, validator, tmp_path):
    cert = tmp_path / "p.json"
    r = cli("exists", 4, 6, "--cert", cert, "--json")
    (d,) = objects(r, validator, 1)
    assert r.code == 1 and d["answer"] == "no" and d["certificate"] == str(cert) and cert.exists()
    assert d["closed"] is True and d["start"] is None and d["method"].endswith(d["proof"])


def test_exists_exit_zero_on_proof(cli, tmp_path):
    cert = tmp_path / "p.json"
    assert cli("exists", 5, 5, "--cert", cert).code == 1
    assert cli("exists", 5, 5, "--cert", cert, "--exit-zero-on-proof").code == 0
    assert cli("verify", cert).code == 0
    assert cli("exists", 6, 6, "--exit-zero-on-proof", "--threads", 1).code == 0  # yes stays 0


def test_count_json(cli, validator):
    r = cli("count", 5, 5, "--open", "--method", "search", "--json")
    (d,) = objects(r, validator, 1)
    assert d["count"] == 864 and d["directed_count"] == 1728 and d["complete"]  # OEIS A165134: 1728 directed open tours of 5x5
    r = cli("count", "--sequence", 3, "10..12", "--json-lines")
    ds = objects(r, validator, 3)
    assert [d["board"]["cols"] for d in ds] == [10, 11, 12]
    assert [d["count"] for d in ds] == [16, 0, 176]  # OEIS A070030
    # --json: one JSON document (an array of the same objects), which json.tool reads whole
    r = cli("count", "--sequence", 3, "10..12", "--json")
    array = json.loads(r.out)
    assert isinstance(array, list) and [d["count"] for d in array] == [16, 0, 176]
    for d in array:
        validator.validate(d)
    tool = subprocess.run([sys.executable, "-m", "json.tool"], input=r.out, capture_output=True, text=True)
    assert tool.returncode == 0, tool.stderr


def test_count_json_limit_is_unknown(cli, validator):
    r = cli("count", 6, 6, "--method", "search", "--node-limit", 100, "--json")
    (d,) = objects(r, validator, 1)
    assert r.code == 3 == d["exit_code"] and d["answer"] == "unknown" and not d["complete"]


def test_verify_json_one_object_per_file(cli, validator, tmp_path):
    """verify --json prints one JSON document: one object for one file, one array of them
    for several (as count --sequence --json); --json-lines streams them, one a line."""
    good, bad = tmp_path / "t.json", tmp_path / "bad.json"
    assert cli("tour", 6, 6, "--format", "json", "--out", good, "-q").code == 0
    bad.write_text(good.read_text().replace("[0,0]", "[0,1]", 1))
    files = (good, bad, tmp_path / "missing.json")
    r = cli("verify", *files, "--json-lines")
    ds = objects(r, validator, 3)
    assert [d["answer"] for d in ds] == ["verified", "rejected", "bad-input"]
    assert ds[0]["claim"].startswith("closed tour of the 6x6 board") and ds[1]["claim"] is None
    assert r.code == 2
    r = cli("verify", *files, "--json")
    array = json.loads(r.out)  # one document, which json.tool reads whole
    assert isinstance(array, list) and array == ds and r.code == 2
    for d in array:
        validator.validate(d)
    tool = subprocess.run([sys.executable, "-m", "json.tool"], input=r.out, capture_output=True, text=True)
    assert tool.returncode == 0, tool.stderr
    for option in ("--json", "--json-lines"):  # one file: one object either way
        (d,) = objects(cli("verify", good, option), validator, 1)
        assert d == ds[0]


def test_census_and_report_json(cli, validator, tmp_path):
    db = tmp_path / "c.sqlite"
    r = cli("census", 3, "3..4", "--remove-squares", 1, "--db", db, "--workers", 1, "--json", "-q")
    (d,) = objects(r, validator, 1)
    assert d["answer"] == "done" and d["run"]["questions"] == 21 == d["summary"]["questions"]
    assert sum(sum(v.values()) for v in d["summary"]["answers"].values()) == 21
    r = cli("census-report", db, "--json")
    (rep,) = objects(r, validator, 1)
    assert rep["summary"]["answers"] == d["summary"]["answers"]
    r = cli("verify", "--db", db, "--json")
    (v,) = objects(r, validator, 1)
    assert v["checked"] + v["unknown_rows"] == 21 and v["failed"] == 0


def test_errors_are_json_too(cli, validator):
    r = cli("tour", 0, 8, "--json")
    (d,) = objects(r, validator, 1)
    assert r.code == 2 and d["answer"] == "error" and "at least 1" in d["message"]
    assert "at least 1" in r.err


def test_schema_rejects_a_broken_object(validator):
    with pytest.raises(jsonschema.ValidationError):
        validator.validate({"schema": SCHEMA, "command": "count", "answer": "counted", "exit_code": 0,
                            "message": "", "count": 3})  # no board, method, complete ...


# ---------------------------------------------------------------------- one vocabulary
@pytest.mark.parametrize("argv, new", [
    (["exists", "5", "5", "--workers", "1"], "--threads"),
    (["census", "3", "3", "--hole", "1x1", "--db", "{db}", "--workers", "1"], "--hole-size"),
    (["render", "{cert}", "-o", "{png}"], "--out"),
    (["render", "{cert}", "--output", "{png}"], "--out"),
])
def test_old_spellings_work_with_one_note(cli, tmp_path, argv, new):
    cert = tmp_path / "t.json"
    assert cli("tour", 5, 6, "--open", "--out", cert, "-q").code == 0
    argv = [a.format(db=tmp_path / "c.sqlite", cert=cert, png=tmp_path / "t.png") for a in argv]
    r = cli(*argv)
    assert r.code in (0, 1)
    notes = [line for line in r.err.splitlines() if "note:" in line]
    assert len(notes) == 1 and f"'{new}'" in notes[0].replace(f"{argv[0]} {new}", new)
    assert cli("--quiet", *argv).err.count("note:") == 0


def test_render_needs_out(cli, tmp_path):
    cert = tmp_path / "t.json"
    assert cli("tour", 5, 6, "--open", "--out", cert, "-q").code == 0
    r = cli("render", cert)
    assert r.code == 2 and "--out" in r.err


def test_no_option_has_two_meanings():
    """An option name means one thing in every command: its help text names one kind of value."""
    from kt_formal.cli import build_parser
    from kt_formal.cli.parsing import _options, _subparsers

    kinds = {}
    for name, sub in _subparsers(build_parser()).items():
        for a in _options(sub):
            for o in a.option_strings:
                kinds.setdefault(o, set()).add((a.metavar if isinstance(a.metavar, str) else None, a.nargs))
    assert kinds["--workers"] == {("P", None)}  # processes (census); threads are --threads
    assert kinds["--threads"] == {("T", None)}
    assert kinds["--hole"] == {("R,C,HxW", None)}
    assert kinds["--out"] == {("FILE", None)}
    two = {o: k for o, k in kinds.items() if len({m for m, _ in k if m}) > 1}
    assert two == {}, two


def test_options_table_is_up_to_date():
    r = subprocess.run([sys.executable, str(ROOT / "scripts" / "options_table.py"), "--check"],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr


# ---------------------------------------------------------------------- squares and messages
def test_squares_as_given(cli):
    r = cli("exists", 5, 6, "--open", "--start", "0,0", "--threads", 1)
    assert "from 0,0" in r.out and "a5" not in r.out
    r = cli("exists", 5, 6, "--open", "--start", "a5", "--threads", 1)
    assert "from a5" in r.out
    r = cli("exists", 5, 6, "--open", "--start", "a5", "--squares", "rc", "--threads", 1)
    assert "from 0,0" in r.out
    # a fixed start: each such tour runs from it, so the directed count is the count
    assert "from a5 (304 directed);" in cli("count", 5, 5, "--open", "--start", "a5", "--method", "search").out
    assert "from 0,0 (304 directed);" in cli("count", 5, 5, "--open", "--start", "0,0", "--method", "search").out
    r = cli("tour", 6, 6, "--start", "0,0", "--threads", 1, "--engine", "cpsat", "--out", "/dev/null")
    assert "from 0,0 " in r.err and "(0, 0)" not in r.err


def test_squares_of_holes_and_proofs_as_given(cli, tmp_path):
    """A hole given as row,col makes every square of the explanation row,col (the square a
    proof names too); --squares chooses for exists and verify alike, never a mix."""
    cert = tmp_path / "p.json"
    r = cli("exists", 10, 10, "--hole", "1,6,2x2", "--cert", cert, "-q")
    assert r.code == 1 and "square 0,8 has only 1 knight move" in r.out and "i10" not in r.out
    assert "square i10 " in cli("exists", 10, 10, "--hole", "1,6,2x2", "--squares", "chess").out
    rc = cli("verify", cert, "--squares", "rc").out
    assert "(1,6, 1,7, 2,6, 2,7): square 0,8 has 1 knight move" in rc, rc
    assert not re.search(r"\b[a-j]\d+\b", rc.replace("verify", "")), rc
    assert "(g9, h9, g8, h8): square i10 has 1 knight move" in cli("verify", cert).out


def test_squares_beyond_26_columns_are_row_col(cli, tmp_path):
    t = tmp_path / "t.json"
    assert cli("tour", 3, 40, "--open", "--start", "0,0", "--out", t, "-q").code == 0
    r = cli("verify", t)
    assert r.code == 0 and "from 0,0 to " in r.out
    assert "from a3" in cli("verify", t, "--squares", "chess").out


def test_squares_far_along_a_long_board_are_row_col_too(cli):
    """The widest boards name their last columns with up to seven letters (``cfdgsxk``): the
    explanation writes those squares row,col like the others, never a mix."""
    from kt_formal.cli.parsing import restyle

    assert restyle("squares a2, cfdgsxk2", 2, [], "rc", cols=10**9) == "squares 0,0, 0,999999998"
    r = cli("exists", 2, 1000000000, "--open")
    assert r.code == 1 and "0,999999998" in r.out and "cfdgsxk2" not in r.out, r.out


def test_json_messages_name_squares_as_the_text_does(cli):
    """The ``message`` of --json is the text printed without it: its squares in the form given
    (it said "from (5, 0) to (4, 0)" for a1 and a2, and chess names beyond 26 columns)."""
    r = cli("count", 6, 8, "--start", "a1", "--end", "a2", "--json")
    message = json.loads(r.out)["message"]
    assert r.code == 0 and "from a1 to a2" in message and "(5, 0)" not in message, message
    message = json.loads(cli("exists", 10, 10, "--hole", "1,6,2x2", "--json").out)["message"]
    assert "square 0,8 " in message and "i10" not in message, message
    message = json.loads(cli("exists", 2, 1000000000, "--open", "--json").out)["message"]
    assert "0,0, 0,1, 0,999999998" in message, message


def test_unknown_said_once(cli):
    r = cli("tour", 20, 20, "--engine", "dfs", "--node-limit", 10)
    assert r.code == 3 and "unknown: Unknown" not in r.err and "unknown: " in r.err


def test_time_limit_names_the_option(cli, tmp_path):
    from kt_formal.cli.scripting import next_step

    assert "--time-limit" in next_step("the frontier count stopped at its time limit (60 s) in column 3 of 8", True)
    assert next_step("the frontier count stopped at its node limit", False) == "the frontier count stopped at its node limit"
    # a census that leaves questions unknown says how to ask them again
    r = cli("census", 10, 10, "--hole-size", "2x2", "--db", tmp_path / "c.sqlite", "--time-limit", "0.001")
    unknown = int(next(line.split()[-1] for line in r.out.splitlines() if line.startswith("unknown")))
    assert r.code == 3 and unknown > 0
    assert (f"{unknown} unknown (a limit ran out); ask them again with more time: the same command with "
            "--retry-unknown --time-limit S (now 0.001 s)") in r.err
    r = cli("census", 10, 10, "--hole-size", "2x2", "--db", tmp_path / "c.sqlite", "--retry-unknown")
    assert r.code == 0 and "ask them again" not in r.err


# ---------------------------------------------------------------------- completion
@pytest.mark.parametrize("shell", ["bash", "zsh"])
def test_completion_script(cli, shell):
    r = cli("completion", shell)
    assert r.code == 0
    assert subprocess.run(["bash", "-n"], input=r.out, text=True).returncode == 0
    for word in ("tour", "census-report", "--json", "--threads", "--hole-size", "--exit-zero-on-proof"):
        assert word in r.out
    assert "--output" not in r.out  # old spellings are not offered


def test_bash_completion_completes(cli, tmp_path):
    script = tmp_path / "c.sh"
    script.write_text(cli("completion", "bash").out)
    probe = (f"source {script}; COMP_WORDS=(kt-formal tour --form); COMP_CWORD=2; _kt_formal; "
             "echo ${COMPREPLY[@]}; COMP_WORDS=(kt-formal tour --format ''); COMP_CWORD=3; _kt_formal; "
             "echo ${COMPREPLY[@]}")
    out = subprocess.run(["bash", "-c", probe], capture_output=True, text=True).stdout.splitlines()
    assert out[0] == "--format" and "json" in out[1].split()


# ---------------------------------------------------------------------- Python API
def test_api_mirrors_the_command_line(cli):
    import kt_formal as kt
    import kt_formal.survey  # noqa: F401 - the submodules do not hide the verbs
    import kt_formal.pipeline  # noqa: F401
    import kt_formal.tours  # noqa: F401

    assert callable(kt.tour) and callable(kt.decide) and callable(kt.census) and callable(kt.count)
    api = kt.decide(5, 5).to_json()
    (cmd,) = [json.loads(line) for line in cli("exists", 5, 5, "--json").out.splitlines()]
    for d in (api, cmd):
        d.pop("seconds")
        for s in d["stages"]:
            s.pop("seconds")
    assert api == cmd
    c = kt.count(3, 12)
    (cmd,) = [json.loads(line) for line in cli("count", 3, 12, "--json").out.splitlines()]
    assert c.to_json()["count"] == cmd["count"] == 176 and c.to_json()["method"] == cmd["method"]


def test_api_census(tmp_path, validator):
    import kt_formal as kt

    res = kt.census(kt.Family(rows=3, cols=4, remove_squares=1), db=tmp_path / "c.sqlite", workers=1)
    d = res.to_json()
    validator.validate(d)
    assert d["run"]["questions"] == 12 and res.exit_code == 0


def test_dir_shows_public_names_only():
    import kt_formal as kt

    names = dir(kt)
    assert "importlib" not in names and all(not n.startswith("_") or n == "__version__" for n in names)
    assert {"tour", "decide", "count", "census", "Board"} <= set(names)


def test_import_stays_cheap():
    code = "import sys, kt_formal; print('numpy' in sys.modules, 'kt_formal.api' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT).stdout
    assert out.split() == ["False", "False"]


def test_dask_missing_says_how_to_install(cli, tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "dask", None)
    monkeypatch.setitem(sys.modules, "dask.distributed", None)
    r = cli("census", 3, 3, "--remove-squares", 1, "--db", tmp_path / "c.sqlite", "--dask", "local")
    assert r.code == 2 and 'pip install "kt-formal[cluster]"' in r.err and len(r.err.splitlines()) == 1
    assert not (tmp_path / "c.sqlite").exists()


def test_the_verbs_are_plain_functions_whatever_is_imported_first(tmp_path):
    # kt.tour / kt.decide / kt.census are functions of kt_formal.api, not modules made
    # callable: importing the modules that hold the value types and the pipeline first
    # (kt_formal.tours, .pipeline, .survey) changes nothing
    code = (
        "import kt_formal.pipeline, kt_formal.tours, kt_formal.survey\n"
        "import inspect, types\n"
        "import kt_formal as kt\n"
        "from kt_formal.tours import Tour\n"
        "for verb in (kt.tour, kt.decide, kt.count, kt.census):\n"
        "    assert isinstance(verb, types.FunctionType) and verb.__module__.startswith('kt_formal.api.'), verb\n"
        "assert type(kt) is types.ModuleType and type(kt_formal.tours) is types.ModuleType\n"
        "assert kt.Tour is Tour\n"
        "v = kt.decide(5, 5)\n"
        "assert v.answer == 'no' and v.to_json()['answer'] == 'no'\n"
        "t = kt.tour(5, 6)\n"
        "assert t.to_json()['answer'] == 'yes'\n"
        "print('ok')\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path,
                         env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr


def test_format_ktour_names_the_binary_file_and_bin_is_its_old_name(cli, tmp_path):
    new, old = tmp_path / "new.ktour", tmp_path / "old.ktour"
    r = cli("tour", 6, 6, "--format", "ktour", "--out", new)
    assert r.code == 0 and "note:" not in r.err
    r = cli("tour", 6, 6, "--format", "bin", "--out", old)
    notes = [line for line in r.err.splitlines() if "note:" in line]
    assert r.code == 0 and len(notes) == 1 and "'tour --format ktour'" in notes[0]
    assert new.read_bytes() == old.read_bytes()  # one format under both names
    assert cli("verify", new).code == 0
    r = cli("tour", 6, 6, "--format", "ktour")
    assert r.code == 2 and "--format ktour writes a binary file: give --out FILE.ktour" in r.err
    assert "bin" not in cli("tour", "--help").out.split("--format")[1].split("\n")[0]
