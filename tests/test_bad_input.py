"""Bad input of every kind: one line on stderr, exit 2, no traceback, quickly, in bounded memory.

Each case runs the real command in a fresh process (``python -m kt_formal``); the
child's peak memory is read from ``resource.getrusage(RUSAGE_CHILDREN)`` of a helper
process that runs exactly one case.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: Each case: (name, argv, what the one line must contain). Files named in argv are made
#: by ``_files`` below.
CASES = [
    ("time limit negative", ["tour", "8", "8", "--time-limit", "-1"], "positive number of seconds, not -1"),
    ("time limit nan", ["tour", "8", "8", "--time-limit", "nan"], "not nan"),
    ("time limit inf", ["tour", "8", "8", "--time-limit", "inf"], "not inf"),
    ("time limit words", ["exists", "8", "8", "--time-limit", "soon"], "number of seconds"),
    ("workers negative", ["tour", "8", "8", "--workers", "-1"], "from 1 to 64"),
    ("workers huge", ["tour", "8", "8", "--workers", "100000"], "from 1 to 64"),
    ("seed huge", ["tour", "8", "8", "--seed", "99999999999999"], "from 0 to"),
    ("node limit negative", ["tour", "8", "8", "--engine", "backtrack", "--node-limit", "-5"], "from 1 to"),
    ("node limit with cpsat", ["tour", "8", "8", "--engine", "cpsat", "--node-limit", "5"],
     "takes no option 'node_limit'"),
    ("superscript digit", ["tour", "²", "8"], "whole number"),
    ("circled digit", ["tour", "8", "①"], "whole number"),
    ("arabic-indic digit", ["tour", "٨", "8"], "whole number"),
    ("5000 digits", ["tour", "9" * 5000, "8"], "whole number"),
    ("size zero", ["tour", "0", "8"], "at least 1"),
    ("size negative", ["exists", "-3", "8"], "whole number"),
    ("absurd size", ["tour", "1000000000", "1000000000"], "memory"),
    ("hole off the board", ["tour", "8", "8", "--hole", "9,0,3x3"], "outside"),
    ("hole covers all", ["tour", "4", "4", "--hole", "0,0,4x4"], "no squares"),
    ("start on a hole", ["tour", "8", "8", "--hole", "0,0,2x2", "--open", "--start", "0,0"], "hole"),
    ("square off the board", ["exists", "8", "8", "--open", "--start", "z99"], "outside|off"),
    ("output to /dev/full", ["tour", "8", "8", "--out", "/dev/full"], "cannot write"),
    ("verify /dev/zero", ["verify", "/dev/zero"], "read up to"),
    ("verify a FIFO without writer", ["verify", "{fifo}"], r"is a FIFO \(named pipe\), not a regular file, and gave no data"),
    ("verify /dev/null (a device)", ["verify", "/dev/null"], "is a character device, not a regular file, and gave no data"),
    ("verify a 200 MB file", ["verify", "{big}"], "read up to"),
    ("verify a 200 MB grid of NUL bytes", ["verify", "{nul}"], "not a step number"),
    ("verify a directory", ["verify", "{dir}"], "directory"),
    ("verify a missing file", ["verify", "{dir}/missing.json"], "does not exist"),
    ("verify an empty file", ["verify", "{empty}"], "empty"),
    ("sat engine on a board its proofs cannot hold", ["tour", "2000", "2000", "--engine", "sat"],
     "more than the 5,000,000 its proofs may have"),
    ("fullwidth digit in a hole", ["tour", "8", "8", "--hole", "３,3,1x1"], "not of the form"),
    ("5000 digits in a hole", ["tour", "8", "8", "--hole", "9" * 5000 + ",0,1x1"], r"\(5,006 characters\)"),
    ("5000 digits in a square", ["tour", "8", "8", "--remove", "0," + "9" * 5000], "neither ROW,COL"),
    ("5000 digits in a chess name", ["exists", "8", "8", "--open", "--start", "a" + "9" * 5000], "neither ROW,COL"),
    ("empty output name", ["tour", "8", "8", "--out", ""], "--out: an empty name"),
    ("empty certificate name", ["exists", "5", "5", "--cert", ""], "--cert: an empty name"),
    ("empty scheduler address", ["count", "6", "6", "--dask", ""], "--dask: an empty name"),
    ("models from a missing directory", ["models", "check", "--dir", "{dir}/missing"], "no such directory"),
    ("mask /dev/zero (a device)", ["tour", "--mask", "/dev/zero"], "character device, not a regular file"),
    ("unknown subcommand", ["frobnicate"], "invalid choice"),
    ("unknown engine", ["tour", "8", "8", "--engine", "quantum"], "invalid choice"),
]


def _files(tmp: Path) -> dict:
    fifo = tmp / "fifo"
    os.mkfifo(fifo)
    big = tmp / "big.json"
    with open(big, "wb") as fh:  # sparse: a 200 MB "JSON" file, nearly nothing on disk
        fh.write(b'{"format": "kt-formal/1", ')
        fh.truncate(200 << 20)
    (tmp / "empty.json").write_text("")
    nul = tmp / "nul.txt"
    with open(nul, "wb") as fh:
        fh.truncate(200 << 20)
    return {"fifo": str(fifo), "big": str(big), "nul": str(nul), "dir": str(tmp), "empty": str(tmp / "empty.json")}


_RUNNER = """
import resource, subprocess, sys, json
argv = json.loads(sys.argv[1])
p = subprocess.run([sys.executable, "-m", "kt_formal", *argv], capture_output=True, text=True,
                   timeout=60, stdin=subprocess.DEVNULL)
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024
print(json.dumps({"code": p.returncode, "err": p.stderr, "out": p.stdout, "peak": peak}))
"""


def run_case(argv: list[str]) -> dict:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    env.pop("KT_FORMAL_DEBUG", None)
    out = subprocess.run([sys.executable, "-c", _RUNNER, json.dumps(argv)], capture_output=True,
                         text=True, timeout=120, env=env)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


@pytest.mark.parametrize("name, argv, match", CASES, ids=[c[0] for c in CASES])
def test_bad_input_is_one_line_exit_2(tmp_path, name, argv, match):
    import re

    names = _files(tmp_path)
    argv = [a.format(**names) for a in argv]
    r = run_case(argv)
    lines = r["err"].strip().splitlines()
    assert r["code"] == 2, (r["code"], r["err"])
    assert "Traceback" not in r["err"]
    assert len(lines) == 1, r["err"]
    assert lines[0].startswith("kt-formal: ")
    assert re.search(match, lines[0]), lines[0]
    assert r["peak"] < 600 << 20, f"peak memory {r['peak'] >> 20} MiB"


def test_output_to_a_full_device_on_stdout():
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    with open("/dev/full", "w") as full:
        p = subprocess.run([sys.executable, "-m", "kt_formal", "tour", "8", "8"], stdout=full,
                           stderr=subprocess.PIPE, text=True, timeout=60, env=env)
    assert p.returncode == 2 and "Traceback" not in p.stderr
    assert p.stderr.strip().splitlines() == ["kt-formal: cannot write the output: No space left on device"]


def test_ctrl_c_is_one_line_exit_130():
    import signal
    import time

    env = dict(os.environ, PYTHONPATH=str(ROOT))
    # a plain depth-first search of a 10x10 open tour runs far longer than the test waits
    # (9x9 from b1 is refuted at once by the colour proof, which comes first)
    # the child starts with Ctrl-C's default action, as from a terminal (a runner started in
    # the background hands its children SIGINT ignored, and Python then keeps it ignored)
    # the child says when its imports are done and the command starts: Ctrl-C before that
    # (a fixed wait on a busy machine) met the interpreter's own start-up, with its traceback
    command = ("import sys\nfrom kt_formal.cli import main\nprint('started', file=sys.stderr, flush=True)\n"
               "sys.exit(main(sys.argv[1:]))")
    p = subprocess.Popen([sys.executable, "-c", command, "tour", "10", "10", "--open", "--start",
                          "0,1", "--engine", "dfs", "--time-limit", "600"], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, env=env,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    assert p.stderr.readline() == "started\n"
    time.sleep(1)  # into the command (its search runs far longer)
    assert p.poll() is None, "the search ended before it could be interrupted"
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=600)
    assert p.returncode == 130, err
    # on a cold cache the search kernels are compiled first, and the command says so
    lines = [ln for ln in err.strip().splitlines() if "compiling the search kernels once" not in ln]
    assert lines == ["kt-formal: interrupted"]


def test_verify_reads_a_pipe_that_gives_a_certificate(tmp_path):
    """A FIFO that gives no data is refused as what it is (above); one with a writer, as
    bash's process substitution makes, is read within the same bound and checked."""
    cert = tmp_path / "t.json"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    assert subprocess.run([sys.executable, "-m", "kt_formal", "tour", "5", "6", "--open", "--format", "json",
                           "--out", str(cert), "-q"], env=env, timeout=120).returncode == 0
    r = subprocess.run(["bash", "-c", f'"{sys.executable}" -m kt_formal verify <(cat "{cert}")'],
                       capture_output=True, text=True, timeout=120, env=env)
    assert r.returncode == 0 and r.stdout.startswith("OK: open tour of the 5x6 board"), r


def test_verify_checks_every_file_and_says_which_failed(tmp_path, cli_proc):
    good = tmp_path / "good.json"
    assert cli_proc("tour", "6", "6", "--format", "json", "--out", good).code == 0
    bad = tmp_path / "bad.json"
    d = json.loads(good.read_text())
    d["squares"][3], d["squares"][4] = d["squares"][4], d["squares"][3]
    bad.write_text(json.dumps(d))
    run = cli_proc("verify", bad, tmp_path / "missing.json", good)
    lines = run.out.strip().splitlines()
    assert run.code == 2 and len(lines) == 4, run.out
    assert lines[0].startswith(f"{bad}: REJECTED: ")
    assert lines[1].startswith(f"{tmp_path / 'missing.json'}: BAD INPUT: ") and "does not exist" in lines[1]
    assert lines[2].startswith(f"{good}: OK: closed tour of the 6x6 board")
    assert lines[3] == "1 of 3 files verified"


def _damaged_census(tmp_path: Path, certificate: str | None, holes: str | None = None, size: int | None = None) -> Path:
    """A census database of the 5x6 board minus a square, one row's certificate (or holes)
    overwritten as by a hand edit or a damaged disk."""
    import sqlite3

    db = tmp_path / "c.sqlite"
    r = subprocess.run([sys.executable, "-m", "kt_formal", "census", "5", "6", "--remove-squares", "1",
                        "--db", str(db), "-q"], capture_output=True, text=True, timeout=120,
                       env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert r.returncode in (0, 1), r.stderr
    with sqlite3.connect(db) as con:
        row = con.execute("SELECT id FROM verdicts WHERE certificate IS NOT NULL LIMIT 1").fetchone()[0]
        if certificate is not None:
            con.execute("UPDATE verdicts SET certificate = ? WHERE id = ?", (certificate, row))
        if holes is not None:
            con.execute("UPDATE verdicts SET holes = ? WHERE id = ?", (holes, row))
        if size is not None:
            con.execute("UPDATE verdicts SET rows = ?, cols = ? WHERE id = ?", (size, size, row))
    return db


@pytest.mark.parametrize("certificate, holes, size, argv, match", [
    (None, "garbage(", None, ["census-report", "{db}", "--map", "{dir}/m.svg"], "malformed JSON"),
    (None, None, 10**9, ["census-report", "{db}", "--html", "{dir}/a.html"], "more than the page draws"),
], ids=["census-report --map bad holes", "census-report --html absurd board"])
def test_a_damaged_census_database_is_one_line_exit_2(tmp_path, certificate, holes, size, argv, match):
    """A census database edited by hand (holes that are not JSON, a board of 10^18 squares)
    is bad input, not an internal error or a page drawn forever. (A certificate that is not
    JSON is one row's failure, not the database's: see the next test.)"""
    db = _damaged_census(tmp_path, certificate, holes, size)
    r = run_case([a.format(db=db, dir=tmp_path) for a in argv])
    lines = r["err"].strip().splitlines()
    assert r["code"] == 2, (r["code"], r["err"])
    assert len(lines) == 1 and lines[0].startswith("kt-formal: ") and match in lines[0], r["err"]
    if "--json" in argv:
        assert json.loads(r["out"])["exit_code"] == 2


@pytest.mark.parametrize("certificate", ["{not json", "[" * 100_000, "[" * 3000 + "]" * 3000],
                         ids=["malformed", "nested unclosed", "nested past the store's depth"])
@pytest.mark.parametrize("extra", [[], ["--json"], ["--map", "{dir}/m.svg"]], ids=["summary", "json", "map"])
def test_census_report_names_a_row_whose_certificate_is_not_json(tmp_path, certificate, extra):
    """census-report reads on past one stored certificate it cannot read (SQLite's JSON
    functions refuse it): the row is named on stderr, counted as "unreadable" in the
    summary and as rejected, and the report exits 1 as for any rejected certificate; the
    API says the same."""
    import kt_formal as kt

    db = _damaged_census(tmp_path, certificate)
    r = run_case(["census-report", str(db), *(a.format(dir=tmp_path) for a in extra)])
    assert r["code"] == 1, r
    err = [ln for ln in r["err"].splitlines() if ln and "written to" not in ln]
    assert len(err) == 2 and err[0].startswith("5x6 holes ") and "REJECTED: the certificate is not readable JSON" in err[0]
    assert err[1].startswith("1 stored certificate rejected") and "Traceback" not in r["err"], r["err"]
    if "--json" in extra:
        d = json.loads(r["out"])
        assert d["exit_code"] == 1 and d["summary"]["answers"]["unreadable"] == {"closed": 1}
        assert d["summary"]["questions"] == 30 and sum(n for a in d["summary"]["answers"].values() for n in a.values()) == 30
    elif not extra:
        assert "unreadable certificate       1       1" in r["out"], r["out"]
    result = kt.census_report(db)
    assert (result.exit_code, result.rejected, len(result.unreadable)) == (1, 1, 1)
    assert result.unreadable[0] == err[0] and result.summary["answers"]["unreadable"] == {"closed": 1}


def test_a_row_nested_too_deep_is_one_rejected_row_of_verify_db(tmp_path):
    """verify --db reads on past a row it cannot read: that row is rejected, exit 1."""
    db = _damaged_census(tmp_path, "[" * 100_000, None, None)
    r = run_case(["verify", "--db", str(db)])
    assert r["code"] == 1 and r["err"] == "", r
    lines = r["out"].strip().splitlines()
    assert len(lines) == 2 and "REJECTED: nested too deeply" in lines[0], r["out"]
    assert "1 REJECTED or NOT CHECKED" in lines[1]


@pytest.mark.parametrize("argv", [["tour", "8", "8", "--json", "--time-limit", "0"],
                                  ["count", "--json", "6", "6", "--threads", "0"],
                                  ["exists", "--json", "--bogus", "5", "5"]])
def test_a_refused_command_line_with_json_still_prints_one_object(argv):
    """Scripts that ask for --json get an object for the parser's own refusals too."""
    r = run_case(argv)
    assert r["code"] == 2
    d = json.loads(r["out"])
    assert (d["answer"], d["exit_code"], d["command"]) == ("error", 2, argv[0])
    assert d["message"] in r["err"]


def test_closed_standard_streams_are_not_an_internal_error():
    """`kt-formal tour 6 6 >&-`: the tour is still found and checked; nowhere to print it is not a bug."""
    for redirect in (">&-", ">&- 2>&-"):
        r = subprocess.run(f"{sys.executable} -m kt_formal tour 6 6 {redirect}", shell=True, capture_output=True,
                           text=True, timeout=120, env=dict(os.environ, PYTHONPATH=str(ROOT)))
        assert r.returncode == 0, (redirect, r.stderr)
        assert "internal error" not in r.stderr and "Traceback" not in r.stderr
