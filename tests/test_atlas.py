"""The atlas of holed boards: its family, its table and findings, theorem checks, maps, the page."""

from __future__ import annotations

import json
import random
import re
import shutil
import struct
import xml.etree.ElementTree as ET

import pytest

import kt_formal as kt

from kt_formal.board import Board
from kt_formal.survey import atlas, families
from kt_formal.survey.families import atlas_questions, board_sizes, rect_holes, rect_holes_count
from kt_formal.survey.report import verify_store
from kt_formal.survey.runners import run_census
from kt_formal.survey.store import Store
from kt_formal.exceptions import InvalidInput
from kt_formal.io.maps import CHAR_WIDTH
from kt_formal.solve import run_engine

SVG = "{http://www.w3.org/2000/svg}"


def build_atlas(path, rows, cols, workers=2, time_limit=30.0):
    qs = atlas_questions(board_sizes(rows, cols))
    with Store.open(path) as s:
        run = run_census(qs, s, time_limit=time_limit, workers=workers)
    return qs, run


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    """The atlas of every board 3..5 x 3..6 (rows <= cols when the ranges are equal: here every pair)."""
    db = tmp_path_factory.mktemp("atlas") / "small.sqlite"
    qs, run = build_atlas(db, "3..5", "3..6")
    return db, qs, run


# ---------------------------------------------------------------------- the family
def test_rect_holes_counts_every_position_of_every_hole():
    for m, n in [(3, 3), (4, 5), (6, 9), (7, 7)]:
        qs = list(rect_holes(m, n))
        assert len(qs) == len(set(qs)) == rect_holes_count(m, n)
        for rows, cols, holes, closed, start, end in qs:
            r = [h[0] for h in holes]
            c = [h[1] for h in holes]
            h, w = max(r) - min(r) + 1, max(c) - min(c) + 1
            assert h * w == len(holes) and 1 <= h <= m - 2 and 1 <= w <= n - 2 and closed
    # the figures: about 330,000 closed questions on 4 <= m <= n <= 16
    assert sum(rect_holes_count(m, n) for m, n in board_sizes("4..16", "4..16")) == 327054


def test_atlas_family_is_closed_rect_holes_and_open_minus_one_square():
    qs = atlas_questions([(4, 6)])
    closed = [q for q in qs if q[3]]
    opened = [q for q in qs if not q[3]]
    assert len(closed) == rect_holes_count(4, 6) and len(opened) == 24
    assert {q[2] for q in opened} == {((r, c),) for r in range(4) for c in range(6)}
    # symmetric positions are solved once: the orbits are fewer than the questions
    assert len(families.group_by_symmetry(qs)) < len(qs) / 2


def test_cli_atlas_refuses_options_it_sets_itself(cli, tmp_path):
    db = tmp_path / "x.sqlite"
    r = cli("census", "4", "5", "--atlas", "--open", "--db", db)
    assert r.code == 2 and "--open" in r.err and "Traceback" not in r.err and not db.exists()
    r = cli("census", "4", "5", "--rect-holes", "--start", "a1", "--db", db)
    assert r.code == 2 and "--start" in r.err
    r = cli("census", "2", "2", "--rect-holes", "--db", db)
    assert r.code == 2 and "3x3" in r.err
    r = cli("census", "4", "5", "--rect-holes", "--atlas", "--db", db)
    assert r.code == 2


# ---------------------------------------------------------------------- the small atlas
def test_small_atlas_every_answer_certified(small):
    db, qs, run = small
    assert run.answers.get("unknown", 0) == 0
    checked, failed, unknown, failures = verify_store(db)
    assert (checked, failed, unknown) == (len(qs), 0, 0), failures[:3]


def test_table_round_trip_and_reproducible_gzip(small, tmp_path):
    db = small[0]
    with Store.open(db, readonly=True) as s:
        rows = atlas.atlas_rows(s)
        assert atlas.write_table(s, tmp_path / "a.csv.gz") == len(rows) == len(small[1])
        atlas.write_table(s, tmp_path / "b.csv.gz")
    assert (tmp_path / "a.csv.gz").read_bytes() == (tmp_path / "b.csv.gz").read_bytes()
    assert atlas.read_table(tmp_path / "a.csv.gz") == rows
    # every "no" names its proof method, DRUP included; "yes" and "unknown" name none
    assert all((r[8] != "") == (r[7] == "no") for r in rows)
    (tmp_path / "bad.csv").write_text("a,b\n1,2\n")
    with pytest.raises(InvalidInput, match="not a verdict table"):
        atlas.read_table(tmp_path / "bad.csv")


def test_report_messages_name_options_in_the_words_of_whoever_asked(cli, small, tmp_path):
    """census_report in Python names keywords (findings, atlas=True); the command names its
    options (--findings, --atlas): the messages used to say --findings to a Python caller."""
    with Store.open(small[0], readonly=True) as s:
        atlas.write_table(s, tmp_path / "t.csv.gz")
    with pytest.raises(InvalidInput, match="it gives findings only") as err:
        kt.census_report(tmp_path / "t.csv.gz", csv=tmp_path / "x.csv")
    assert "--" not in str(err.value)
    r = cli("census-report", tmp_path / "t.csv.gz", "--csv", tmp_path / "x.csv")
    assert r.code == 2 and "it gives --findings only" in r.err and "Traceback" not in r.err
    db = tmp_path / "two.sqlite"  # questions with two squares removed: no table of them
    assert cli("census", "3", "4", "--remove-squares", "2", "--db", db, "-q").code in (0, 1)
    with pytest.raises(InvalidInput, match=r"\(atlas=True, rect_holes=True, hole_size") as err:
        kt.census_report(db, table=tmp_path / "t2.csv.gz")
    assert "--" not in str(err.value) and str(err.value).endswith("use csv")
    r = cli("census-report", db, "--table", tmp_path / "t2.csv.gz")
    assert r.code == 2 and "(--atlas, --rect-holes, --hole-size, --remove-squares 1)" in r.err
    assert r.err.rstrip().endswith("use --csv")


def cpsat_tour_exists(m, n, holes, closed):
    """A second engine: CP-SAT's circuit constraint on the knight graph, written here apart
    from the toolkit's engines (an open tour is a circuit through one extra node)."""
    from ortools.sat.python import cp_model

    holes = {tuple(h) for h in holes}
    live = [(r, c) for r in range(m) for c in range(n) if (r, c) not in holes]
    index = {sq: i for i, sq in enumerate(live)}
    k = len(live)
    if closed and k < 3:
        return False
    model = cp_model.CpModel()
    arcs = []
    for (r, c), i in index.items():
        degree = 0
        for dr, dc in ((1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)):
            j = index.get((r + dr, c + dc))
            if j is not None:
                degree += 1
                arcs.append((i, j, model.new_bool_var(f"arc_{i}_{j}")))
        if degree == 0 and k > 1:
            return False  # add_circuit would leave a node without arcs out of the circuit
        if not closed:  # node k closes the path
            arcs.append((k, i, model.new_bool_var(f"arc_{k}_{i}")))
            arcs.append((i, k, model.new_bool_var(f"arc_{i}_{k}")))
    model.add_circuit(arcs)
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = 60.0
    solver.parameters.num_workers = 1
    solver.parameters.random_seed = 0
    status = solver.solve(model)
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return True
    if status == cp_model.INFEASIBLE:
        return False
    return None


def _holes(r):
    m, n, tour, top, left, h, w = r[:7]
    return [(i, j) for i in range(top, top + h) for j in range(left, left + w)]


def check_against_second_engine(rows, sample: int, seed: int = 0):
    """Every DRUP row and a seeded sample of the others against :func:`cpsat_tour_exists`."""
    rng = random.Random(seed)
    picked = [r for r in rows if r[8] == "drup"]
    picked += rng.sample([r for r in rows if r[8] != "drup"], min(sample, len(rows)))
    compared = 0
    for r in picked:
        got = cpsat_tour_exists(r[0], r[1], _holes(r), r[2] == "closed")
        if got is None:
            continue
        assert got == (r[7] == "yes"), r
        compared += 1
    assert compared >= 0.9 * len(picked)
    return compared


def test_small_atlas_agrees_with_a_second_engine(small):
    with Store.open(small[0], readonly=True) as s:
        rows = atlas.atlas_rows(s)
    check_against_second_engine(rows, sample=80)


@pytest.mark.slow
def test_atlas_up_to_7x8_against_the_kernel_and_a_second_engine(tmp_path):
    db = tmp_path / "a78.sqlite"
    qs, run = build_atlas(db, "3..7", "3..8")
    assert run.answers.get("unknown", 0) == 0
    checked, failed, unknown, failures = verify_store(db)
    assert (checked, failed, unknown) == (len(qs), 0, 0), failures[:3]
    with Store.open(db, readonly=True) as s:
        rows = atlas.atlas_rows(s)
    assert len(rows) == len(qs)
    check_against_second_engine(rows, sample=300, seed=1)
    assert all(not c.disagreements for c in atlas.theorem_checks(rows))


# ---------------------------------------------------------------------- theorems
def _flip(row):
    return row[:7] + (("no", "drup") if row[7] == "yes" else ("yes", ""))


def test_theorem_checks_agree_and_fail_when_a_row_is_flipped(small):
    with Store.open(small[0], readonly=True) as s:
        rows = atlas.atlas_rows(s)
    checks = atlas.theorem_checks(rows)
    assert [c.disagreements for c in checks] == [[], [], [], [], []]
    # the small atlas (sides up to 6) holds no hole at margin three: the shipped one below
    assert all(c.checked > 0 for c in checks[:4]) and checks[4].checked == 0, [(c.name, c.checked) for c in checks]
    # one row each theorem speaks of, flipped: that theorem (and only a theorem that speaks of
    # the row) reports it
    ring = next(r for r in rows if r[2] == "closed" and r[3] == r[4] >= 1 and r[0] - 2 * r[3] == r[5]
                and r[1] - 2 * r[3] == r[6])
    mf_yes = next(r for r in rows if r[0] == 3 and r[2] == "closed" and r[5] == r[6] == 1 and r[7] == "yes")
    colour = next(r for r in rows if r[8] == "colour")
    posa = next(r for r in rows if r[2] == "closed" and atlas._posa_says_no(r[0], r[1], *r[3:7]))
    for k, row in enumerate([ring, mf_yes, colour, posa]):
        flipped = [(_flip(r) if r == row else r) for r in rows]
        got = atlas.theorem_checks(flipped)
        assert len(got[k].disagreements) == 1, (k, row)
        m, n = row[:2]
        assert got[k].disagreements[0].startswith(f"{m}x{n} {row[2]}, hole {row[5]}x{row[6]}")


def test_the_margin_theorem_against_the_shipped_atlas():
    """The margin-three theorem (proved here by construction) speaks of every closed question
    of the shipped atlas at margin >= 3, and the atlas (search and proofs) agrees with each;
    a flipped row is the one disagreement it reports."""
    from pathlib import Path

    rows = atlas.read_table(Path(__file__).resolve().parent.parent / "docs" / "atlas" / "atlas.csv.gz")
    margin = atlas.theorem_checks(rows)[4]
    assert margin.name.startswith("Margin three") and margin.disagreements == []
    at_three = [r for r in rows if r[2] == "closed" and atlas._margins(r[0], r[1], *r[3:7]) >= 3]
    assert margin.checked == len(at_three) > 16152  # the yes rows and the colour count's no rows
    row = at_three[len(at_three) // 2]
    got = atlas.theorem_checks([(_flip(r) if r == row else r) for r in rows])[4]
    assert len(got.disagreements) == 1 and got.disagreements[0].startswith(f"{row[0]}x{row[1]} closed")

def test_ringboard_and_three_row_theorems_as_stated():
    from kt_formal.theorems import ringboard_tour, three_row_minus_one_tour

    assert [ringboard_tour(8, 8, r) for r in (1, 2, 3)] == [False, False, True]
    assert ringboard_tour(3, 3, 1) and not ringboard_tour(5, 5, 2) and not ringboard_tour(6, 12, 2)
    with pytest.raises(ValueError):
        ringboard_tour(6, 6, 3)
    # 3 x 7 minus one square: only (2, 2) and (2, 6) leave a closed tour
    assert [(i, j) for i in (1, 2, 3) for j in range(1, 8) if three_row_minus_one_tour(7, i, j)] == [(2, 2), (2, 6)]


# ---------------------------------------------------------------------- findings
def test_findings_name_reasons_drup_boards_and_checks(small, tmp_path):
    with Store.open(small[0], readonly=True) as s:
        atlas.write_findings(s, tmp_path / "f.md")
        rows = atlas.atlas_rows(s)
    text = (tmp_path / "f.md").read_text()
    for head in ("## Agreement with theorems", "## Closed tours, by hole size",
                 "## Margins that always work", "## The boards whose \"no\" needs a DRUP proof",
                 "## Open tours with one square removed"):
        assert head in text
    assert "No row disagrees" in text
    drup = [r for r in rows if r[8] == "drup"]
    assert f"{len(drup):,} questions have no tour" in text
    for r in drup:
        assert f"{r[0]}x{r[1]} {r[2]}, hole {r[5]}x{r[6]}:" in text
    # 5x6 minus a 2x3 block on its bottom edge (and its mirror images): no 2-factor
    hall = [r for r in rows if r[8] == "hall"]
    assert (5, 6, "closed", 3, 0, 2, 3, "no", "hall") in hall
    section = text.split("## The boards that fail Hall's condition")[1].split("## ")[0]
    closed_hall = sum(r[2] == "closed" for r in hall)
    assert f"{len(hall):,} questions ({closed_hall:,} closed, {len(hall) - closed_hall:,} open)" in section
    for r in hall:
        assert f"{r[0]}x{r[1]} {r[2]}, hole {r[5]}x{r[6]}:" in section
    # the same findings from the shipped form of the table
    with Store.open(small[0], readonly=True) as s:
        atlas.write_table(s, tmp_path / "t.csv.gz")
    atlas.write_findings(tmp_path / "t.csv.gz", tmp_path / "g.md")
    assert (tmp_path / "g.md").read_text().split("\n", 3)[3] == text.split("\n", 3)[3]


# ---------------------------------------------------------------------- maps
def _text_extent(el):
    x, y = float(el.get("x")), float(el.get("y"))
    size = float(el.get("font-size"))
    w = len(el.text or "") * size * CHAR_WIDTH
    anchor = el.get("text-anchor", "start")
    x0 = x - w if anchor == "end" else x - w / 2 if anchor == "middle" else x
    if el.get("transform"):  # rotated by -90 degrees about (x, y)
        return x - size, y - w / 2, x, y + w / 2
    return x0, y - size, x0 + w, y + size * 0.3


def test_map_svg_labels_inside_the_viewbox_and_png_readable(cli, small, tmp_path):
    db = small[0]
    for extra in (["--board", "5x6"], []):
        r = cli("census-report", db, "--map", tmp_path / "m.svg", *extra)
        assert r.code == 0, r.err
        root = ET.fromstring((tmp_path / "m.svg").read_text())
        _, _, vw, vh = map(float, root.get("viewBox").split())
        texts = root.findall(f".//{SVG}text")
        words = " ".join(t.text or "" for t in texts)
        if extra:
            assert "5x6 board" in words and "closed, hole 1x1" in words and "closed, hole 3x4" in words
            assert "open, hole 1x1" in words and "yes: a tour" in words and "no: colour count" in words
            assert " a " in f" {words} " and " f " in f" {words} " and " 5 " in f" {words} "  # files, ranks
        else:
            assert "closed tours" in words and "open tours" in words and "rows" in words
        for t in texts:
            x0, y0, x1, y1 = _text_extent(t)
            assert 0 <= x0 and x1 <= vw and 0 <= y0 and y1 <= vh, (t.text, (x0, y0, x1, y1), (vw, vh))
        for rect in root.findall(f".//{SVG}rect"):
            assert float(rect.get("x")) + float(rect.get("width")) <= vw
            assert float(rect.get("y")) + float(rect.get("height")) <= vh
    r = cli("census-report", db, "--board", "4x6", "--map", tmp_path / "m.png")
    assert r.code == 0, r.err
    data = (tmp_path / "m.png").read_bytes()
    width, height = struct.unpack(">II", data[16:24])
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and width >= 400 and height >= 150
    # one map per board with {board}
    r = cli("census-report", db, "--map", tmp_path / "b-{board}.svg")
    assert r.code == 0
    assert sorted(p.name for p in tmp_path.glob("b-*.svg")) == sorted(
        f"b-{m}x{n}.svg" for m, n in board_sizes("3..5", "3..6"))
    assert cli("census-report", db, "--board", "9x9", "--map", tmp_path / "x.svg").code == 2
    assert cli("census-report", db, "--board", "nine", "--map", tmp_path / "x.svg").code == 2
    for bad in ("0x0", "4x0", "1000000001x3"):  # sides of a board: 1 to MAX_SIDE
        r = cli("census-report", db, "--board", bad)
        assert r.code == 2 and "--board sides must be from 1 to" in r.err and len(r.err.strip().splitlines()) == 1
    # the database named as it was given (a positional file here, --db for census)
    not_db = tmp_path / "notes.txt"
    not_db.write_text("not a database\n")
    r = cli("census-report", not_db)
    assert r.code == 2 and "census database notes.txt: not an SQLite file" in r.err and "--db" not in r.err


# ---------------------------------------------------------------------- the page
def _unpack(text, n):
    start, moves = text.split(":")
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
    deltas = [(-2, -1), (-2, 1), (-1, -2), (-1, 2), (1, -2), (1, 2), (2, -1), (2, 1)]
    r, c = divmod(int(start), n)
    out = [(r, c)]
    for ch in moves:
        v = alphabet.index(ch)
        for code in (v >> 3, v & 7):
            r, c = r + deltas[code][0], c + deltas[code][1]
            out.append((r, c))
    return out


def test_page_is_self_contained_and_its_tours_check(small, tmp_path):
    from kt_formal.certificate import verify_certificate

    with Store.open(small[0], readonly=True) as s:
        size = atlas.write_html(s, tmp_path / "a.html")
    page = (tmp_path / "a.html").read_text()
    assert size == len(page.encode())
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", page)  # nothing fetched
    data = json.loads(re.search(r'<script type="application/json" id="atlas-data">(.*?)</script>',
                                page, re.S).group(1))
    tours = 0
    for b in data["boards"]:
        for p in b["panels"]:
            nc = b["n"] - p["w"] + 1
            assert len(p["cells"]) == len(p["extra"]) == (b["m"] - p["h"] + 1) * nc
            for k, (code, extra) in enumerate(zip(p["cells"], p["extra"])):
                i, j = divmod(k, nc)
                holes = [[r, c] for r in range(i, i + p["h"]) for c in range(j, j + p["w"])]
                if code == "y":
                    live = b["m"] * b["n"] - len(holes)
                    squares = _unpack(extra, b["n"])[:live]
                    cert = {"format": "kt-formal/1", "kind": "tour", "closed": b["kind"] == "closed",
                            "board": {"rows": b["m"], "cols": b["n"], "holes": holes},
                            "squares": [list(q) for q in squares]}
                    verify_certificate(cert)  # raises if the page's tour is not a tour
                    tours += 1
                elif code in "cdsahDXe":
                    assert data["reasons"][extra].startswith("No ")
    assert tours > 0


@pytest.mark.slow
def test_page_in_headless_chromium(small, tmp_path):
    """Open the page in headless Chromium, click a cell with a tour and one without, read the
    detail pane, and keep a screenshot (its path is printed)."""
    webdriver = pytest.importorskip("selenium.webdriver")
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By

    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    driver_path = shutil.which("chromedriver")
    if not (browser and driver_path):
        pytest.skip("chromium and chromedriver are not installed (.ci/run installs them)")
    with Store.open(small[0], readonly=True) as s:
        atlas.write_html(s, tmp_path / "a.html")
        rows = atlas.atlas_rows(s)
    yes = next(r for r in rows if r[:2] == (5, 6) and r[2] == "closed" and r[7] == "yes")
    no = next(r for r in rows if r[:2] == (5, 6) and r[2] == "closed" and r[8] == "degree")
    opts = webdriver.ChromeOptions()
    opts.binary_location = browser
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1400,1000",
              "--disable-dev-shm-usage"):
        opts.add_argument(a)
    d = webdriver.Chrome(service=Service(driver_path), options=opts)
    try:
        d.get((tmp_path / "a.html").as_uri())
        assert d.execute_script("return document.body.dataset.ready") == "1"

        def click(row):
            m, n, kind, top, left, h, w = row[:7]
            pos = d.execute_script("return atlasCellCenter(arguments[0], arguments[1], arguments[2], "
                                   "arguments[3], arguments[4], arguments[5])", f"{m}x{n}", kind, h, w, top, left)
            canvas = d.find_element(By.ID, pos["id"])
            d.execute_script("arguments[0].scrollIntoView({block: 'center'})", canvas)
            box = canvas.rect
            ActionChains(d).move_to_element_with_offset(canvas, pos["x"] - box["width"] / 2,
                                                        pos["y"] - box["height"] / 2).click().perform()
            return d.find_element(By.ID, "question").text, d.find_element(By.ID, "answer-text").text,                 d.find_element(By.ID, "reason").text, d.find_element(By.ID, "detail").get_attribute("data-shown")

        q, a, why, shown = click(no)
        assert f"hole {no[5]}x{no[6]}" in q and "5x6 board" in q
        assert a == "Answer: no (a square of degree < 2)" and shown == "proof"
        assert why.startswith("No closed tour: square") and "knight move" in why
        hall = next(r for r in rows if r[:2] == (5, 6) and r[2] == "closed" and r[8] == "hall")
        q, a, why, shown = click(hall)
        assert a == "Answer: no (Hall's condition)" and shown == "proof"
        assert "Hall's condition for a 2-factor fails" in why
        assert "no: Hall's condition (no 2-factor)" in d.find_element(By.ID, "legend").text
        q, a, why, shown = click(yes)
        assert a == "Answer: yes" and shown == "tour" and "checked by the kernel" in why
        assert d.find_element(By.ID, "tour").is_displayed()
        # the filter by answer keeps the cards; the filter by board keeps one card
        d.execute_script("const s = document.getElementById('f-board'); s.value = '5x6'; "
                         "s.dispatchEvent(new Event('change'))")
        assert d.find_element(By.ID, "count").text == "2 maps"  # closed and open
        shot = tmp_path / "atlas-page.png"
        d.save_screenshot(str(shot))
        print(f"screenshot of the atlas page: {shot}")
        assert shot.stat().st_size > 10_000
    finally:
        d.quit()


# ---------------------------------------------------------------------- symmetry moves DRUP proofs
@pytest.mark.parametrize("closed", [True, False])
def test_a_drup_proof_moves_to_every_image_and_the_kernel_accepts_it(closed):
    from kt_formal.survey.families import shape_symmetries, transform_certificate, transform_question
    from kt_formal.survey.runners import check_row_certificate
    from kt_formal.question import Question
    from kt_formal.exceptions import CertificateRejected

    holes = ((0, 1), (1, 1), (2, 1))  # no symmetry of the 5x5 board keeps this hole
    r = run_engine("sat", Question(Board(5, 5, holes=list(holes)), closed=closed), time_limit=60)
    assert r.proof is not None and r.proof["kind"] == "drup"
    q = (5, 5, holes, closed, None, None)
    images = set()
    for s in shape_symmetries(5, 5):
        moved = transform_certificate(r.proof, 5, 5, s)
        image = transform_question(q, s)
        images.add(image)
        assert check_row_certificate(image, "no", moved).startswith(f"no {'closed' if closed else 'open'} tour")
        if s != "identity":  # the moved proof is about its image, not about the original board
            with pytest.raises(CertificateRejected):
                check_row_certificate(q, "no", moved)
    assert len(images) == 8
