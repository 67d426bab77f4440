"""Census of board families: families, symmetry, the SQLite store, runners, reports, the CLI."""

from __future__ import annotations

import csv
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time

import pytest

from kt_formal.board import Board
from kt_formal.survey import families
from kt_formal.survey.families import (canonical, group_by_symmetry, hole_positions, remove_squares,
                                       transform_certificate, transform_question)
from kt_formal.survey.report import census_table, summary_lines, verify_store, write_csv
from kt_formal.survey.runners import check_row_certificate, run_census, solve_orbit
from kt_formal.survey.store import APPLICATION_ID, SCHEMA_VERSION, Store, question_key
from kt_formal.certificate import verify_certificate
from kt_formal.api import decide
from kt_formal.exceptions import CertificateRejected, InvalidInput
from kt_formal.theorems import three_row_minus_one_tour
from kt_formal.solve import run_engine

from conftest import ROOT


def small_family():
    qs = []
    for m, n in families.board_sizes("3..5", "3..5"):
        for closed in (True, False):
            qs += remove_squares(m, n, 1, closed)
    return qs


def table_of(path):
    with Store.open(path, readonly=True) as s:
        return census_table(s)


# ---------------------------------------------------------------------- families
def test_family_counts_and_ranges():
    assert families.board_sizes("3..10", "3..10") == [(m, n) for m in range(3, 11) for n in range(m, 11)]
    assert len(families.board_sizes("3..4", "5..6")) == 4  # different ranges: every pair
    # every single-square removal of m x n, 3 <= m <= n <= 10, closed and open
    n = sum(2 * m * k for m, k in families.board_sizes("3..10", "3..10"))
    assert n == 3084
    assert len(list(hole_positions(30, 30, 6, 6))) == 625
    with pytest.raises(InvalidInput, match="empty"):
        families.parse_range("5..3")
    with pytest.raises(InvalidInput, match="cannot remove"):
        list(remove_squares(3, 3, 9))
    qs = list(families.random_holes(8, 8, 3, 50, seed=7))
    assert qs == list(families.random_holes(8, 8, 3, 50, seed=7)) and len(set(qs)) == 50
    # positions removing a fixed end are skipped
    assert all((0, 0) not in q[2] for q in remove_squares(4, 4, 2, False, (0, 0), None))


def test_orbits_cover_every_question_once():
    qs = list(remove_squares(5, 5, 2, False, None, None))
    orbits = group_by_symmetry(qs)
    members = [q for _, ms in orbits for q, _ in ms]
    assert sorted(members) == sorted(qs)
    for rep, ms in orbits:
        assert canonical(rep)[0] == rep
        for q, sym in ms:
            assert transform_question(rep, sym) == q


@pytest.mark.parametrize("q", [
    (6, 6, ((0, 0),), False, None, None),       # open tour: moved as a tour
    (5, 5, ((0, 1),), True, None, None),        # colour proof (counts recomputed)
    (3, 4, ((1, 0),), True, None, None),        # a proof with squares to move
    (4, 5, ((0, 0),), False, (3, 4), None),     # fixed start
    (4, 6, (), True, None, None),               # the 4-row alternation proof
])
def test_transformed_certificates_verify(q):
    rows, cols, holes, closed, start, end = q
    v = decide(Board(rows, cols, holes=list(holes)), closed=closed, start=start, end=end, time_limit=20)
    assert v.answer in ("yes", "no")
    for sym in families.shape_symmetries(rows, cols):
        moved = transform_certificate(v.certificate, rows, cols, sym)
        assert moved is not None, (v.certificate.get("method"), sym)
        image = transform_question(q, sym)
        check_row_certificate(image, v.answer, moved)  # the kernel's checker, about this question
        verify_certificate(moved)


def test_untransformable_proofs_are_solved_on_their_own_board():
    exhaustive = {"format": "kt-formal/1", "kind": "proof", "method": "exhaustive",
                  "board": {"rows": 3, "cols": 3, "holes": []}, "closed": False, "start": None,
                  "end": None, "engine": "exhaustive", "nodes": 10, "pruning": "x"}
    assert transform_certificate(exhaustive, 3, 3, "rot90") is None
    assert transform_certificate(dict(exhaustive, method="drup"), 3, 3, "rot90") is None


def test_a_certificate_about_another_question_is_rejected():
    v = decide(Board(5, 5, holes=[(0, 1)]), closed=True)
    with pytest.raises(CertificateRejected, match="holes"):
        check_row_certificate((5, 5, ((1, 0),), True, None, None), "no", v.certificate)
    with pytest.raises(CertificateRejected):
        check_row_certificate((5, 5, ((0, 1),), True, None, None), "yes", v.certificate)


def test_orbit_rows_are_checked():
    rep = (3, 4, ((0, 0),), False, None, None)
    members = [(transform_question(rep, s), s) for s in families.shape_symmetries(3, 4)]
    rows = solve_orbit((rep, members, 10.0))
    assert [r[:6] for r in rows] == [m for m, _ in members]
    for r in rows:
        check_row_certificate(r[:6], r[6], json.loads(r[7]))


# ---------------------------------------------------------------------- runs and the store
def test_small_census_twice_gives_the_same_table(tmp_path):
    qs = small_family()
    for name in ("a.sqlite", "b.sqlite"):
        with Store.open(tmp_path / name) as s:
            run = run_census(qs, s, time_limit=10.0, workers=2)
        assert run.written == len(qs) == run.questions
    a, b = table_of(tmp_path / "a.sqlite"), table_of(tmp_path / "b.sqlite")
    assert a == b and len(a) == len(qs)
    assert {r[6] for r in a} <= {"yes", "no", "unknown"}
    # a third run on a complete store asks nothing and changes nothing
    with Store.open(tmp_path / "a.sqlite") as s:
        run = run_census(qs, s, time_limit=10.0)
    assert run.asked == 0 and table_of(tmp_path / "a.sqlite") == a
    checked, failed, unknown, _ = verify_store(tmp_path / "a.sqlite")
    assert failed == 0 and checked + unknown == len(qs)


def test_dask_local_cluster_gives_the_same_table(tmp_path):
    pytest.importorskip("dask.distributed")
    qs = small_family()
    with Store.open(tmp_path / "pool.sqlite") as s:
        run_census(qs, s, time_limit=10.0, workers=2)
    with Store.open(tmp_path / "dask.sqlite") as s:
        run = run_census(qs, s, time_limit=10.0, workers=2, dask="local", dask_processes=False)
    assert run.written == len(qs)
    assert table_of(tmp_path / "dask.sqlite") == table_of(tmp_path / "pool.sqlite")


def test_store_marks_and_uniqueness(tmp_path):
    path = tmp_path / "c.sqlite"
    q = (3, 4, ((0, 0),), False, None, None)
    with Store.open(path) as s:
        s.add([(*q, "unknown", None, 1.0, "limit")])
        s.flush()
        s.add([(*q, "yes", "{}", 2.0, "search")])  # replaces an unknown
        s.flush()
        s.add([(*q, "no", "{}", 3.0, "other")])    # never replaces a known answer
        s.flush()
        assert s.count() == 1
        assert s.con.execute("SELECT answer, route FROM verdicts").fetchone() == ("yes", "search")
    con = sqlite3.connect(path)
    assert con.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    assert con.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    con.close()
    assert question_key(q) == (3, 4, "[[0, 0]]", "open", "null", "null")


def census_cmd(db, *args):
    return [sys.executable, "-m", "kt_formal", "census", *map(str, args), "--db", str(db)]


def sub_env():
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    env.pop("KT_FORMAL_DEBUG", None)
    return env


@pytest.mark.slow
def test_killed_census_resumes_with_every_question_once(tmp_path):
    db = tmp_path / "k.sqlite"
    family = ("5..8", "5..8", "--remove-squares", "1", "--open", "--workers", "1")
    expected = {question_key(q) for m, n in families.board_sizes("5..8", "5..8")
                for q in remove_squares(m, n, 1, False)}
    proc = subprocess.Popen(census_cmd(db, *family), env=sub_env(),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    seen = 0
    deadline = time.monotonic() + 120
    try:
        while time.monotonic() < deadline and proc.poll() is None:
            if db.exists():
                try:
                    con = sqlite3.connect(f"{db.resolve().as_uri()}?mode=ro", uri=True)
                    seen = con.execute("SELECT COUNT(*) FROM verdicts").fetchone()[0]
                    con.close()
                except sqlite3.Error:
                    seen = 0
                if seen > 0:
                    break
            time.sleep(0.02)
        proc.send_signal(signal.SIGKILL)
    finally:
        proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL, "the census finished before it could be killed"
    assert 0 < seen < len(expected)
    con = sqlite3.connect(db)
    stored_after_kill = con.execute("SELECT COUNT(*) FROM verdicts").fetchone()[0]
    con.close()
    assert stored_after_kill < len(expected)
    done = subprocess.run(census_cmd(db, *family), env=sub_env(), capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert f"{stored_after_kill} already stored" in done.stderr
    con = sqlite3.connect(db)
    keys = [tuple(r) for r in con.execute('SELECT rows, cols, holes, tour, start, "end" FROM verdicts')]
    con.close()
    assert len(keys) == len(set(keys)) == len(expected) and set(keys) == expected
    checked, failed, unknown, failures = verify_store(db)
    assert failed == 0, failures[:3]
    assert checked + unknown == len(expected)


# ---------------------------------------------------------------------- a published result
def miller_farnsworth_closed(n: int, i: int, j: int) -> bool:
    """Whether 3 x n minus square (i, j) (1-based) has a closed tour: Miller and Farnsworth's
    theorem as :func:`kt_formal.theorems.three_row_minus_one_tour` states it (read it there)."""
    return three_row_minus_one_tour(n, i, j)


def test_census_agrees_with_miller_farnsworth(tmp_path):
    """Every row of the census of 3 x n minus one square, closed tours, 3 <= n <= 13.

    The theorem is stated for closed tours (see :func:`miller_farnsworth_closed`);
    n = 13 is the first size where both of its n >= 11 exception lists are apart
    from each other's mirror images, so 3..13 reaches every clause.
    """
    qs = [q for n in range(3, 14) for q in remove_squares(3, n, 1, True)]
    with Store.open(tmp_path / "mf.sqlite") as s:
        run_census(qs, s, time_limit=30.0, workers=2)
    rows = table_of(tmp_path / "mf.sqlite")
    assert len(rows) == len(qs) == sum(3 * n for n in range(3, 14))
    for m, n, holes, tour, start, end, answer, method in rows:
        (r, c), = json.loads(holes)
        expected = "yes" if miller_farnsworth_closed(n, r + 1, c + 1) else "no"
        assert answer == expected, (m, n, holes, answer, method)
    checked, failed, unknown, _ = verify_store(tmp_path / "mf.sqlite")
    assert (checked, failed, unknown) == (len(qs), 0, 0)


# ---------------------------------------------------------------------- command line
def test_cli_census_report_and_verify(cli, tmp_path):
    db = tmp_path / "c.sqlite"
    r = cli("census", "3..4", "3..4", "--remove-squares", "1", "--open", "--db", db, "--workers", "1")
    assert r.code == 0, r.err
    assert "alternation" in r.out or "colour" in r.out
    r = cli("verify", "--db", db)
    assert r.code == 0 and "37 of 37 certificates verified" in r.out  # 3x3 + 3x4 + 4x4
    r = cli("census-report", db, "--csv", tmp_path / "c.csv", "--map", tmp_path / "c.svg")
    assert r.code == 0
    lines = (tmp_path / "c.csv").read_text().splitlines()
    assert len(lines) == 38 and lines[0].startswith("rows,cols,holes,tour,start,end,answer")
    svg = (tmp_path / "c.svg").read_text()
    # several sizes: one cell per (rows, cols) of 3..4 x 3..4; 4x3 was not asked (rows <= cols);
    # the legend adds one square per colour it names ("not asked" among them)
    legend = svg.count("<rect class=") - 4
    assert svg.startswith("<svg") and legend >= 2 and svg.count('class="none"') == 2
    assert "open tours" in svg and ">rows<" in svg and ">columns<" in svg
    r = cli("census-report", db, "--map", tmp_path / "c.png")
    assert r.code == 0 and (tmp_path / "c.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_cli_map_of_one_board_colours_each_hole_position(cli, tmp_path):
    db = tmp_path / "h.sqlite"
    assert cli("census", "5", "6", "--hole-size", "2x2", "--db", db).code in (0, 3)
    assert cli("census-report", db, "--map", tmp_path / "h.svg").code == 0
    svg = (tmp_path / "h.svg").read_text()
    # one panel, closed tours with the 2x2 hole: a cell per position of the hole (4 x 5 top-left
    # corners) coloured by its answer, and a legend square per colour used
    assert "closed, hole 2x2" in svg and "5x6 board" in svg
    keys = ("yes", "no-colour", "no-degree", "no-separator", "no-drup", "no", "mixed", "unknown", "none")
    used = [k for k in keys if f'class="{k}"' in svg]
    # every rect is a cell or a legend square (one per colour used); no position is missing
    assert svg.count("<rect class=") == 20 + len(used) and "none" not in used


def test_verify_db_rejects_a_tampered_certificate(cli, tmp_path):
    db = tmp_path / "t.sqlite"
    assert cli("census", "5", "5", "--remove-squares", "1", "--db", db).code == 0
    con = sqlite3.connect(db)
    rid, cert = con.execute("SELECT id, certificate FROM verdicts WHERE answer = 'no' LIMIT 1").fetchone()
    d = json.loads(cert)
    d["board"]["holes"] = [[2, 2]] if d["board"]["holes"] != [[2, 2]] else [[0, 0]]
    con.execute("UPDATE verdicts SET certificate = ? WHERE id = ?", (json.dumps(d), rid))
    con.commit()
    con.close()
    r = cli("verify", "--db", db)
    assert r.code == 1 and "REJECTED" in r.out and "24 of 25 certificates verified" in r.out


def _foreign_db(path):
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE verdicts (x)")
    con.commit()
    con.close()


def _newer_db(path):
    with Store.open(path) as s:
        s.add([(3, 3, ((1, 1),), True, None, None, "unknown", None, 0.0, "x")])
    con = sqlite3.connect(path)
    con.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    con.commit()
    con.close()


@pytest.mark.parametrize("make, args, message", [
    (None, ("5..3", "5", "--remove-squares", "1"), "empty"),
    (None, ("3", "3", "--remove-squares", "9"), "cannot remove 9"),
    (None, ("4", "4", "--hole-size", "5x1"), "does not fit"),
    (None, ("4", "4", "--remove-squares", "1", "--time-limit", "nan"), "time-limit"),
    (_foreign_db, ("3", "3", "--remove-squares", "1"), "something else"),
    (lambda p: p.write_text("not a database\n"), ("3", "3", "--remove-squares", "1"), "not an SQLite"),
    (_newer_db, ("3", "3", "--remove-squares", "1"), "newer"),
])
def test_bad_input_one_line_exit_2_db_untouched(cli_proc, tmp_path, make, args, message):
    db = tmp_path / "x.sqlite"
    if make is not None:
        make(db)
    before = db.read_bytes() if db.exists() else None
    r = cli_proc("census", *args, "--db", db)
    assert r.code == 2 and message in r.err and len(r.err.strip().splitlines()) == 1, r.err
    assert "Traceback" not in r.err
    assert (db.read_bytes() if db.exists() else None) == before
    assert not (tmp_path / "x.sqlite-wal").exists()
    if make is not None:
        for cmd in (("verify", "--db", db), ("census-report", db)):
            r = cli_proc(*cmd)
            assert r.code == 2 and len(r.err.strip().splitlines()) == 1
            assert db.read_bytes() == before


def test_retry_unknown_asks_stored_unknowns_again(tmp_path):
    path = tmp_path / "u.sqlite"
    q = (3, 4, ((0, 0),), False, None, None)
    with Store.open(path) as s:
        s.add([(*q, "unknown", None, 0.0, "search:cpsat+limit")])
        s.flush()
        assert run_census([q], s, time_limit=10.0).asked == 0  # stored, even if unknown
        run = run_census([q], s, time_limit=10.0, retry_unknown=True)
        assert run.asked == 1
    (row,) = table_of(path)
    assert row[6] == "yes"
    assert verify_store(path)[:3] == (1, 0, 0)


def test_mask_dir_family_and_fixed_ends(cli, tmp_path):
    masks = tmp_path / "masks"
    masks.mkdir()
    (masks / "a.txt").write_text("....\n#...\n....\n")
    (masks / "b.txt").write_text("....\n....\n...#\n")
    (masks / "c.txt").write_text(".....\n.....\n.....\n")  # 3x5: not among the sizes asked
    db = tmp_path / "m.sqlite"
    r = cli("census", "3", "4", "--mask-dir", masks, "--open", "--db", db)
    assert r.code == 0, r.err
    rows = table_of(db)
    assert [json.loads(x[2]) for x in rows] == [[[1, 0]], [[2, 3]]]
    # fixed start: positions removing the start are skipped, every tour starts there
    db2 = tmp_path / "s.sqlite"
    r = cli("census", "4", "5", "--remove-squares", "1", "--open", "--start", "0,0", "--db", db2)
    assert r.code == 0, r.err
    with Store.open(db2, readonly=True) as s:
        got = list(s.rows(with_certificate=True))
    assert len(got) == 19 and all(x["start"] == "[0, 0]" for x in got)
    for x in got:
        if x["answer"] == "yes":
            assert json.loads(x["certificate"])["squares"][0] == [0, 0]
    assert verify_store(db2)[1] == 0


@pytest.mark.slow
def test_cli_dask_local_processes_same_table_as_pool(cli_proc, tmp_path):
    pytest.importorskip("dask.distributed")
    args = ("census", "3..5", "3..5", "--remove-squares", "1", "--workers", "2")
    assert cli_proc(*args, "--db", tmp_path / "p.sqlite").code == 0
    r = cli_proc(*args, "--db", tmp_path / "d.sqlite", "--dask", "local")
    assert r.code == 0, r.err
    assert table_of(tmp_path / "d.sqlite") == table_of(tmp_path / "p.sqlite")


@pytest.mark.slow
def test_unreachable_scheduler_leaves_no_database(cli_proc, tmp_path):
    pytest.importorskip("dask.distributed")
    db = tmp_path / "n.sqlite"
    r = cli_proc("census", "3", "3", "--remove-squares", "1", "--db", db, "--dask", "tcp://127.0.0.1:9")
    assert r.code == 2 and "cannot reach" in r.err and len(r.err.strip().splitlines()) == 1
    assert not db.exists()


def test_verify_db_says_not_checked_for_exhaustive_records_unless_replayed(cli, tmp_path):
    from kt_formal.question import Status, Question

    q = (3, 4, ((0, 0),), True, None, None)
    result = run_engine("exhaustive", Question(Board(3, 4, holes=[(0, 0)]), closed=True), time_limit=30)
    assert result.status is Status.IMPOSSIBLE and result.proof["method"] == "exhaustive"
    db = tmp_path / "e.sqlite"
    with Store.open(db) as s:
        s.add([(*q, "no", json.dumps(result.proof), 0.1, "test:exhaustive")])
    r = cli("verify", "--db", db)
    assert r.code == 1 and "NOT CHECKED" in r.out and "0 of 1 certificates verified" in r.out
    r = cli("verify", "--db", db, "--replay")
    assert r.code == 0 and "1 of 1 certificates verified" in r.out


def test_a_drup_no_is_named_in_the_summary_and_the_csv(tmp_path):
    # a DRUP certificate carries a kind ("drup") and no method: the report names it by kind
    path = tmp_path / "d.sqlite"
    drup = json.dumps({"format": "kt-formal/1", "kind": "drup", "board": {"rows": 4, "cols": 5, "holes": []}})
    colour = json.dumps({"format": "kt-formal/1", "kind": "proof", "method": "colour"})
    with Store.open(path) as s:
        s.add([(4, 5, ((0, 0),), True, None, None, "no", drup, 1.0, "sat"),
               (4, 5, ((0, 1),), True, None, None, "no", colour, 0.0, "proof:colour")])
        s.flush()
    with Store.open(path, readonly=True) as s:
        lines = summary_lines(s)
        assert any(line.split()[:2] == ["no:", "drup"] for line in lines), lines
        assert not any("None" in line for line in lines), lines
        assert sorted(r[-1] for r in census_table(s)) == ["colour", "drup"]
        write_csv(s, tmp_path / "d.csv")
    rows = list(csv.DictReader((tmp_path / "d.csv").open()))
    assert sorted(r["method"] for r in rows) == ["colour", "drup"]
