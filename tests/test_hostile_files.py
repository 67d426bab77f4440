"""Hostile files and slips of the hand: outputs never over inputs, written whole or not at all,
``-`` as standard output, readers that refuse FIFOs and devices, pages built only from
certificates the kernel accepts, data that cannot end the page's script block."""

from __future__ import annotations

import json
import os
import re
import shutil
import sqlite3

import pytest

from kt_formal.survey import atlas
from kt_formal.survey.families import atlas_questions, board_sizes, remove_squares
from kt_formal.survey.runners import run_census
from kt_formal.survey.store import Store
from kt_formal.exceptions import InvalidInput
from kt_formal.files import output_file, read_user_text, reading
from kt_formal.io.atlas_page import script_json


@pytest.fixture(scope="module")
def census_db(tmp_path_factory):
    """The atlas of the 4x5 board (closed tours with every rectangular hole, open ones minus a square)."""
    db = tmp_path_factory.mktemp("hostile") / "k.sqlite"
    with Store.open(db) as s:
        run_census(atlas_questions(board_sizes("4", "5")), s, time_limit=20.0, workers=1)
    return db


def _copy(db, path):
    shutil.copy(db, path)
    return path


# ---------------------------------------------------------------------- no output over an input
@pytest.mark.parametrize("option", ["--html", "--table", "--findings", "--csv", "--map"])
def test_census_report_refuses_to_write_over_its_database(cli, census_db, tmp_path, option):
    db = _copy(census_db, tmp_path / "k.svg")  # a database named .svg: --map takes the name too
    before = db.read_bytes()
    run = cli("census-report", db, option, db)
    assert run.code == 2, run.err
    assert "refusing to write over it" in run.err and run.err.count("\n") == 1
    assert db.read_bytes() == before
    assert run.out == ""  # refused before anything was printed or written


@pytest.mark.parametrize("link", ["hard", "symbolic"])
def test_an_output_that_is_the_input_through_a_link_is_refused(cli, census_db, tmp_path, link):
    db = _copy(census_db, tmp_path / "k.sqlite")
    other = tmp_path / "page.html"
    (os.link if link == "hard" else os.symlink)(db, other)
    before = db.read_bytes()
    run = cli("census-report", db, "--html", other)
    assert run.code == 2 and "the same file as" in run.err
    assert db.read_bytes() == before


def test_tour_and_render_refuse_to_write_over_what_they_read(cli, tmp_path):
    mask = tmp_path / "m.txt"
    mask.write_text("....\n....\n....\n")
    assert cli("tour", "--mask", mask, "--out", mask).code == 2
    assert mask.read_text() == "....\n....\n....\n"
    tour = tmp_path / "t.txt"
    assert cli("tour", "5", "5", "--open", "--out", tour).code == 0
    text = tour.read_text()
    os.symlink(tour, tmp_path / "t.svg")
    run = cli("render", tour, "--out", tmp_path / "t.svg")
    assert run.code == 2 and "refusing to write over it" in run.err
    assert tour.read_text() == text


def test_two_outputs_on_one_file_are_refused(cli, census_db, tmp_path):
    run = cli("census-report", census_db, "--table", tmp_path / "x", "--findings", tmp_path / "x")
    assert run.code == 2 and "give each output its own file" in run.err
    assert not (tmp_path / "x").exists()


def test_output_file_checks_the_inputs_of_the_running_command(tmp_path):
    """A map per board (``{board}`` in its name) is named only when written: checked then."""
    src = tmp_path / "in.txt"
    src.write_text("data")
    with reading([src]):
        with pytest.raises(InvalidInput, match="refusing to write over it"):
            with output_file(tmp_path / "." / "in.txt"):
                pass
    assert src.read_text() == "data"


# ---------------------------------------------------------------------- whole or not at all
def test_a_failed_writer_leaves_the_old_file_and_no_temporary(tmp_path):
    out = tmp_path / "out.bin"
    out.write_bytes(b"old")
    with pytest.raises(RuntimeError):
        with output_file(out, binary=True) as fh:
            fh.write(b"half of the new")
            raise RuntimeError("the writer failed")
    assert out.read_bytes() == b"old"
    assert os.listdir(tmp_path) == ["out.bin"]
    with output_file(out, binary=True) as fh:
        fh.write(b"new")
    assert out.read_bytes() == b"new" and os.listdir(tmp_path) == ["out.bin"]


def test_an_output_through_a_symbolic_link_replaces_the_file_it_names(tmp_path):
    real = tmp_path / "real.txt"
    real.write_text("old")
    os.chmod(real, 0o640)
    link = tmp_path / "link.txt"
    os.symlink(real, link)
    with output_file(link) as fh:
        fh.write("new")
    assert link.is_symlink() and real.read_text() == "new"
    assert os.stat(real).st_mode & 0o777 == 0o640


def test_a_count_that_ends_unknown_keeps_the_old_list(cli, tmp_path):
    keep = tmp_path / "keep.txt"
    keep.write_text("kept\n")
    run = cli("count", "5", "5", "--open", "--method", "search", "--node-limit", "10", "--out", keep)
    assert run.code == 3, run.err
    assert keep.read_text() == "kept\n"
    run = cli("count", "3", "4", "--open", "--method", "search", "--out", keep)
    assert run.code == 0, run.err
    tours = [json.loads(line) for line in keep.read_text().splitlines()]
    assert str(len(tours)) == run.out.split()[0]  # the list written is the count printed
    for t in tours:  # each a path of knight moves over the 12 squares
        assert sorted(map(tuple, t)) == [(r, c) for r in range(3) for c in range(4)]
        assert all({abs(a[0] - b[0]), abs(a[1] - b[1])} == {1, 2} for a, b in zip(t, t[1:]))


# ---------------------------------------------------------------------- "-" is standard output
def test_dash_is_standard_output(cli, census_db, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    run = cli("census-report", census_db, "--csv", "-")
    assert run.code == 0, run.err
    lines = run.out.splitlines()
    with Store.open(census_db, readonly=True) as s:
        assert len(lines) == 1 + s.count()  # the header and one line a question, nothing else
    assert lines[0].startswith("rows,cols,holes")
    run = cli("tour", "5", "5", "--open", "--out", "-")
    assert run.code == 0 and run.out.startswith("# kt-formal grid: open tour, board 5x5")
    assert not os.path.exists("-")
    assert cli("census-report", census_db, "--csv", "-", "--table", "-").code == 2


# ---------------------------------------------------------------------- readers
@pytest.mark.parametrize("command", [("exists", "--mask"), ("tour", "--mask"), ("count", "--mask"), ("render",)])
def test_a_fifo_is_refused_at_once(tmp_path, command, cli_proc):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    args = [*command, fifo] + (["--out", tmp_path / "x.svg"] if command == ("render",) else [])
    run = cli_proc(*args, timeout=120)  # before: blocked for ever
    assert run.code == 2 and "FIFO" in run.err and "not a regular file" in run.err, run.err


def test_a_database_linked_to_a_device_is_named_what_it_is(cli, tmp_path):
    db = tmp_path / "zero.sqlite"
    os.symlink("/dev/zero", db)
    for args in (("census-report", db), ("verify", "--db", db), ("census", "3", "3", "--remove-squares", "1", "--db", db)):
        run = cli(*args)
        assert run.code == 2 and "character device, not a regular file" in run.err, (args, run.err)
        assert "no such file" not in run.err


def test_a_verdict_table_or_mask_linked_to_a_device_is_refused(cli, tmp_path):
    table = tmp_path / "zero.csv"
    os.symlink("/dev/zero", table)
    run = cli("census-report", table, "--findings", tmp_path / "f.md")
    assert run.code == 2 and "not a regular file" in run.err
    with pytest.raises(InvalidInput, match="not a regular file"):
        read_user_text(table)


# ---------------------------------------------------------------------- pages from checked certificates
def _forge(db, path, change):
    """A copy of census ``db`` with its first "yes" certificate changed by ``change(d)``."""
    shutil.copy(db, path)
    con = sqlite3.connect(path)
    rid, cert = con.execute("SELECT id, certificate FROM verdicts WHERE answer = 'yes' ORDER BY id").fetchone()
    d = json.loads(cert)
    change(d)
    con.execute("UPDATE verdicts SET certificate = ? WHERE id = ?", (json.dumps(d), rid))
    con.commit()
    con.close()
    return path


def _page_data(page: str) -> dict:
    blocks = re.findall(r'<script type="application/json" id="atlas-data">(.*?)</script>', page, re.S)
    assert len(blocks) == 1
    return json.loads(blocks[0])


def _swap(d):
    d["squares"][1], d["squares"][2] = d["squares"][2], d["squares"][1]


@pytest.mark.parametrize("change", [lambda d: d.pop("squares"), _swap,
                                    lambda d: d["squares"][0].__setitem__(0, 0.5)],
                         ids=["no squares", "not a knight move", "not an integer"])
def test_a_page_shows_a_forged_certificate_as_rejected(cli, census_db, tmp_path, change):
    db = _forge(census_db, tmp_path / "forged.sqlite", change)
    page = tmp_path / "page.html"
    run = cli("census-report", db, "--html", page, "--map", tmp_path / "map.svg", "--json")
    assert run.code == 1, run.err  # before: an internal error (exit 4) and no JSON object
    assert json.loads(run.out)["exit_code"] == 1
    data = _page_data(page.read_text())
    cells = "".join(p["cells"] for b in data["boards"] for p in b["panels"])
    assert cells.count("r") == 1
    assert data["summary"]["answers"]["rejected"] == {"closed": 1} or data["summary"]["answers"]["rejected"] == {"open": 1}
    assert any(r.startswith("The stored certificate was rejected by the kernel") for r in data["reasons"])
    assert "certificate rejected by the kernel" in (tmp_path / "map.svg").read_text()
    with Store.open(db, readonly=True) as s:  # the table leaves it out of yes and no
        assert sum(r[7] == "rejected" for r in atlas.atlas_rows(s)) == 1


def test_stored_text_cannot_end_the_script_block(cli, census_db, tmp_path):
    db = tmp_path / "script.sqlite"
    shutil.copy(census_db, db)
    con = sqlite3.connect(db)
    rid, cert = con.execute("SELECT id, certificate FROM verdicts WHERE answer = 'no' ORDER BY id").fetchone()
    d = json.loads(cert)
    d["method"] = "<!--<script>"
    con.execute("UPDATE verdicts SET certificate = ? WHERE id = ?", (json.dumps(d), rid))
    con.commit()
    con.close()
    page = tmp_path / "page.html"
    cli("census-report", db, "--html", page)
    text = page.read_text()
    block = re.search(r'id="atlas-data">(.*?)</script>', text, re.S).group(1)
    assert "<" not in block and ">" not in block and "&" not in block
    assert any("<!--<script>" in r for r in json.loads(block)["reasons"])  # the same text, parsed back
    assert text.count("<script") == 2  # the data block and the code, nothing else


def test_script_json_round_trips_every_hostile_string():
    for s in ["</script>", "<!--", "<script>", "]]>", "&amp;", "\u2028", "</SCRIPT >", "<\\/"]:
        text = script_json({"s": s, "t": [s]})
        assert not set("<>&") & set(text)
        assert json.loads(text) == {"s": s, "t": [s]}


# ---------------------------------------------------------------------- titles that fit
def test_findings_and_page_titles_fit_the_family(tmp_path):
    db = tmp_path / "one.sqlite"
    with Store.open(db) as s:
        run_census(remove_squares(4, 5, 1), s, time_limit=20.0, workers=1)
    with Store.open(db, readonly=True) as s:
        atlas.write_findings(s, tmp_path / "f.md")
        data = atlas.page_data(s)
    text = (tmp_path / "f.md").read_text()
    assert not text.startswith("# The atlas") and "board sizes" not in text
    assert "on the 4x5 board" in text and "closed tours with one square removed" in text
    assert "atlas" not in data["title"] and "on the 4x5 board" in data["title"]
