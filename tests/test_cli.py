"""The kt-formal command: outputs, exit codes, one-line errors."""

import json

import pytest

from kt_formal.certificate import check_tour
from kt_formal.board import Board


def parse_grid(text):
    return [[int(x) for x in ln.split()] for ln in text.strip().splitlines()]


def test_main_job_prints_a_verified_closed_tour(cli_proc):
    run = cli_proc("tour", "8", "8")
    assert run.code == 0, run.err
    grid = parse_grid(run.out)
    assert len(grid) == 8 and sorted(v for row in grid for v in row) == list(range(1, 65))
    order = sorted(((v, (r, c)) for r, row in enumerate(grid) for c, v in enumerate(row)))
    assert check_tour(Board(8, 8), [sq for _, sq in order], closed=True) is None
    assert "verified" in run.err


def test_start_square_is_numbered_one(cli):
    run = cli("tour", "6", "6", "--start", "c4")
    grid = parse_grid(run.out)
    assert run.code == 0 and grid[2][2] == 1


@pytest.mark.parametrize("args, match", [
    (["tour", "0", "8"], "at least 1"),
    (["tour", "-3", "8"], "whole number from 1 to"),
    (["tour", "8"], "M N"),
    (["tour", "8", "x"], "whole number"),
    (["tour", "8", "8", "--hole", "9,0,3x3"], "outside the 8x8 board"),
    (["tour", "8", "8", "--hole", "banana"], "ROW,COL,HxW"),
    (["tour", "8", "8", "--start", "z9"], "outside"),
    (["tour", "8", "8", "--engine", "magic"], "invalid choice"),
    (["tour", "8", "8", "--time-limit", "soon"], "number of seconds"),
    (["tour", "100000", "100000", "--engine", "cpsat"], "memory"),
    (["graph", "100000", "100000"], "memory"),
    (["verify", "/nonexistent/t.json"], "does not exist"),
    (["frobnicate"], "invalid choice"),
])
def test_bad_input_is_one_line_exit_2(cli_proc, args, match):
    run = cli_proc(*args)
    assert run.code == 2
    assert "Traceback" not in run.err
    lines = run.err.strip().splitlines()
    assert len(lines) == 1, run.err
    assert match in lines[0]


def test_mask_file(cli, tmp_path):
    mask = tmp_path / "board.txt"
    mask.write_text("......\n.#....\n......\n......\n...#..\n......\n")
    run = cli("tour", "--mask", mask, "--open")
    assert run.code == 0
    grid = run.out.strip().splitlines()
    assert grid[1].split()[1] == "#" and grid[4].split()[3] == "#"
    bad = tmp_path / "bad.txt"
    bad.write_text("....\n..x.\n")
    run = cli("tour", "--mask", bad)
    assert run.code == 2 and "'x'" in run.err


def test_impossible_exits_1_and_unknown_exits_3(cli):
    run = cli("tour", "5", "5")
    assert run.code == 1 and run.err.startswith("impossible")
    run = cli("tour", "8", "8", "--open", "--start", "a1", "--end", "h8")
    assert run.code == 1
    run = cli("tour", "4", "30", "--engine", "cpsat", "--time-limit", "0.01")
    assert run.code in (1, 3)
    if run.code == 3:
        assert run.err.startswith("unknown")


def test_formats_and_out(cli, tmp_path):
    run = cli("tour", "5", "5", "--open", "--start", "a1", "--format", "chess")
    head, _, body = run.out.partition("\n")  # a header line says the board and the kind
    assert head == "# kt-formal chess: open tour, board 5x5"
    assert run.code == 0 and body.split()[0] == "a1" and len(body.split()) == 25
    run = cli("tour", "5", "5", "--open", "--start", "0,0", "--format", "coords")
    assert run.out.partition("\n")[2].startswith("(0, 0) ")
    out = tmp_path / "t.json"
    run = cli("tour", "6", "6", "--format", "json", "--out", out)
    assert run.code == 0 and run.out == ""
    assert json.loads(out.read_text())["kind"] == "tour"


def test_verify_accepts_and_rejects(cli, cli_proc, tmp_path):
    good = tmp_path / "good.json"
    assert cli("tour", "6", "6", "--format", "json", "--out", good).code == 0
    run = cli_proc("verify", good)
    assert run.code == 0 and run.out.startswith("OK: closed tour of the 6x6 board from ")
    d = json.loads(good.read_text())
    d["squares"][10], d["squares"][11] = d["squares"][11], d["squares"][10]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(d))
    run = cli_proc("verify", bad)
    assert run.code == 1 and run.out.startswith("REJECTED: ") and "knight move" in run.out
    trunc = tmp_path / "trunc.json"
    trunc.write_text(good.read_text()[:50])
    run = cli_proc("verify", trunc)  # corrupted: rejected with the place in the file
    assert run.code == 1 and run.out.startswith("REJECTED: not valid JSON (line 1, column")


def test_graph_summary(cli):
    run = cli("graph", "8", "8", "--hole", "3,3,2x2")
    assert run.code == 0
    assert "squares: 60" in run.out and "30 dark, 30 light" in run.out
    assert "edges:   168" not in run.out
    run = cli("graph", "8", "8")
    assert "edges:   168" in run.out and "degrees: 2: 4, 3: 8, 4: 20, 6: 16, 8: 16" in run.out


def test_help_and_version(cli):
    assert cli("--version").out.startswith("kt-formal ")
    for sub in ("tour", "verify", "graph", "models"):
        run = cli(sub, "--help")
        assert run.code == 0 and "example" in run.out


def test_verify_several_files(cli, tmp_path):
    good = tmp_path / "good.json"
    assert cli("tour", "6", "6", "--format", "json", "--out", good).code == 0
    bad = tmp_path / "bad.json"
    d = json.loads(good.read_text())
    d["squares"].pop()
    bad.write_text(json.dumps(d))
    run = cli("verify", good, good)
    assert run.code == 0 and run.out.splitlines()[-1] == "2 of 2 files verified"
    run = cli("verify", good, bad, tmp_path / "missing.json")
    lines = run.out.splitlines()
    assert run.code == 2 and lines[-1] == "1 of 3 files verified"
    assert ": OK: " in lines[0] and ": REJECTED: " in lines[1] and ": BAD INPUT: " in lines[2]
    run = cli("verify", good, bad)
    assert run.code == 1
