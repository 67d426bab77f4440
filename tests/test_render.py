"""Pictures: SVG parsed as XML, PNG decoded by an independent decoder (tests/pngdecode.py)."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import numpy as np
import pytest
from pngdecode import decode_png

from kt_formal import Board, find_tour
from kt_formal.exceptions import InvalidInput
from kt_formal.io.render import (
    DARK,
    END,
    HOLE,
    LIGHT,
    LINE,
    MAX_PNG_SIDE,
    MAX_SVG_SIDE,
    START,
    board_png,
    board_svg,
    encode_png,
    png_size,
    tour_png,
    tour_svg,
)

NS = {"s": "http://www.w3.org/2000/svg"}


def _tour(board, closed=True, **kw):
    result = find_tour(board, closed=closed, engine="cpsat", seed=1, **kw)
    assert result.found
    assert result.tour.check() is None  # the independent checker
    return result.tour


@pytest.fixture(scope="module")
def tour8():
    return _tour(Board(8, 8))


@pytest.fixture(scope="module")
def holed():
    return _tour(Board.from_spec(10, 10, ["3,3,4x4"]))


def _points(root):
    lines = root.findall(".//s:polyline", NS)
    assert len(lines) == 1
    pts = [tuple(map(float, p.split(","))) for p in lines[0].get("points").split()]
    return np.array(pts)


# ---------------------------------------------------------------------- SVG
def test_svg_closed_tour_polyline_follows_the_tour(tour8):
    root = ET.fromstring(tour_svg(tour8))
    assert root.get("viewBox") == "0 0 8 8"
    assert float(root.get("width")) == float(root.get("height")) > 0
    pts = _points(root)
    assert len(pts) == 64 + 1                      # closed: first point repeated
    assert tuple(pts[0]) == tuple(pts[-1])
    r, c = tour8.coords()
    assert np.array_equal(pts[:-1], np.stack([c + 0.5, r + 0.5], axis=1))
    start = root.find(".//s:circle[@class='start']", NS)
    end = root.find(".//s:circle[@class='end']", NS)
    assert (float(start.get("cx")), float(start.get("cy"))) == (tour8.start[1] + 0.5, tour8.start[0] + 0.5)
    assert (float(end.get("cx")), float(end.get("cy"))) == (tour8.end[1] + 0.5, tour8.end[0] + 0.5)


def test_svg_open_tour_of_a_rectangle():
    t = _tour(Board(3, 4), closed=False)
    root = ET.fromstring(tour_svg(t))
    assert root.get("viewBox") == "0 0 4 3"        # width = columns, height = rows
    assert float(root.get("width")) / float(root.get("height")) == pytest.approx(4 / 3)
    pts = _points(root)
    assert len(pts) == 12
    assert tuple(pts[0]) != tuple(pts[-1])
    steps = np.abs(np.diff(pts, axis=0))
    assert all(sorted(s) == [1.0, 2.0] for s in steps.tolist())  # knight moves between centres


def test_svg_holes_are_drawn(holed):
    root = ET.fromstring(tour_svg(holed))
    assert root.get("viewBox") == "0 0 10 10"
    group = root.find(".//s:g[@class='holes']", NS)
    rects = group.findall("s:rect", NS)
    drawn = sorted((int(float(e.get("y"))), int(float(e.get("x")))) for e in rects)
    assert drawn == holed.board.holes() and len(drawn) == 16
    assert root.find(".//s:path[@class='hole-marks']", NS) is not None
    pts = _points(root)
    assert len(pts) == 84 + 1
    on_holes = {(y - 0.5, x - 0.5) for x, y in pts.tolist()} & set(map(tuple, drawn))
    assert not on_holes


def test_svg_numbers(tour8):
    root = ET.fromstring(tour_svg(tour8, numbers=True))
    texts = root.findall(".//s:g[@class='numbers']/s:text", NS)
    assert sorted(int(t.text) for t in texts) == list(range(1, 65))
    num = tour8.numbering()
    for t in texts:
        r, c = int(float(t.get("y"))), int(float(t.get("x")))
        assert num[r, c] == int(t.text)
    assert not ET.fromstring(tour_svg(tour8)).findall(".//s:text", NS)


def test_svg_board_and_repr(holed):
    b = holed.board
    root = ET.fromstring(b._repr_svg_())
    assert root.get("viewBox") == "0 0 10 10"
    assert len(root.findall(".//s:g[@class='holes']/s:rect", NS)) == 16
    assert not root.findall(".//s:polyline", NS)
    # the dark squares are exactly the chess-dark live squares
    d = root.find(".//s:path[@class='dark']", NS).get("d")
    assert d.count("M") == sum(b.is_dark(r, c) for r, c in b.squares())
    assert ET.fromstring(holed._repr_svg_()).find(".//s:polyline", NS) is not None
    assert board_svg(Board(3, 3)).count("<polyline") == 0


def test_svg_cap():
    with pytest.raises(InvalidInput, match="too large"):
        board_svg(Board(MAX_SVG_SIDE + 1, 3))
    assert Board(MAX_SVG_SIDE + 1, 3)._repr_svg_() is None
    ET.fromstring(board_svg(Board(MAX_SVG_SIDE, 2)))  # at the cap it still works


# ---------------------------------------------------------------------- PNG
def _near(img, colour, tol=12):
    return np.all(np.abs(img[..., :3].astype(int) - np.array(colour)) <= tol, axis=-1)


def test_png_tour_decodes_and_is_not_blank(tour8):
    data = tour_png(tour8, cell=40)
    assert png_size(data) == (320, 320)
    img = decode_png(data)
    assert img.shape == (320, 320, 3)
    colours = np.unique(img.reshape(-1, 3), axis=0)
    assert len(colours) >= 6
    assert _near(img, LIGHT, 0).sum() > 1000 and _near(img, DARK, 0).sum() > 1000
    assert _near(img, LINE).sum() > 64 * 40        # the tour line is there
    # start and end discs at their squares' centres
    (sr, sc), (er, ec) = tour8.start, tour8.end
    assert _near(img[sr * 40 + 20, sc * 40 + 20], START).all()
    assert _near(img[er * 40 + 20, ec * 40 + 20], END).all()
    # every square centre is on the line (or a start/end disc), none is bare board
    centres = img[20::40, 20::40]
    assert not _near(centres, LIGHT, 30).any() and not _near(centres, DARK, 30).any()


def test_png_holes_and_rectangle(holed):
    data = tour_png(holed, cell=20)
    img = decode_png(data)
    assert img.shape == (200, 200, 3)
    hole_px = _near(img, HOLE, 0)
    assert hole_px[60:140, 60:140].mean() > 0.6           # the 4x4 hole, marked by crosses
    assert not hole_px[:60].any()
    t = _tour(Board(5, 6), closed=False)
    img = decode_png(tour_png(t, cell=10))
    assert img.shape == (50, 60, 3)


def test_png_numbers_change_the_picture(tour8):
    plain = decode_png(tour_png(tour8, cell=48))
    numbered = decode_png(tour_png(tour8, cell=48, numbers=True))
    assert plain.shape == numbered.shape
    assert (np.abs(plain.astype(int) - numbered).sum(axis=-1) > 0).sum() > 64 * 10


def test_png_default_cell_is_thin_on_big_boards():
    b = Board(500, 300)
    w, h = png_size(board_png(b))
    assert (w, h) == (300 * 3, 500 * 3)
    assert png_size(board_png(Board(1000, 20))) == (60, 3000)
    with pytest.raises(InvalidInput, match="too large"):
        board_png(Board(MAX_PNG_SIDE + 1, 2))


def test_png_tiny_squares_colour_by_step(holed):
    from kt_formal.io.render import GRADIENT, MIN_LINE_CELL

    cell = MIN_LINE_CELL - 1
    img = decode_png(tour_png(holed, cell=cell))
    assert img.shape == (10 * cell, 10 * cell, 3)
    squares = img[::cell, ::cell]
    (sr, sc), (er, ec) = holed.start, holed.end
    assert tuple(squares[sr, sc]) == GRADIENT[0] and tuple(squares[er, ec]) == GRADIENT[-1]
    assert (squares[holed.board.hole_mask] == HOLE).all()
    # later steps are never darker blue-to-yellow: green+red grow along the tour
    r, c = holed.coords()
    warmth = squares[r, c, :2].astype(int).sum(axis=1)
    assert warmth[-1] > warmth[len(warmth) // 2] > warmth[0]


def test_encode_png_exact_pixels():
    rng = np.random.default_rng(7)
    img = rng.integers(0, 256, size=(13, 17, 3), dtype=np.uint8)
    assert np.array_equal(decode_png(encode_png(img)), img)


# ---------------------------------------------------------------------- command line
def test_cli_tour_writes_pictures(cli, tmp_path):
    svg, png, out = tmp_path / "t.svg", tmp_path / "t.png", tmp_path / "t.json"
    r = cli("tour", "6", "6", "--svg", svg, "--png", png, "--numbers", "--format", "json", "--out", out)
    assert r.code == 0, r.err
    from kt_formal.certificate import read_certificate, tour_from_dict

    t = tour_from_dict(read_certificate(out))      # verified on reading
    root = ET.fromstring(svg.read_text())
    assert len(_points(root)) == 37 and root.get("viewBox") == "0 0 6 6"
    assert len(root.findall(".//s:text", NS)) == 36
    img = decode_png(png.read_bytes())
    assert img.shape[0] == img.shape[1] and img.shape[0] % 6 == 0
    assert t.closed


def test_cli_render(cli, tmp_path):
    cert = tmp_path / "t.json"
    assert cli("tour", "5", "5", "--open", "--format", "json", "--out", cert).code == 0
    assert cli("render", cert, "--out", tmp_path / "t.svg").code == 0
    root = ET.fromstring((tmp_path / "t.svg").read_text())
    assert len(_points(root)) == 25
    r = cli("render", cert, "--out", tmp_path / "t.png", "--numbers")
    assert r.code == 0 and "drew the open tour" in r.err
    assert decode_png((tmp_path / "t.png").read_bytes()).shape[2] == 3
    assert cli("--quiet", "render", cert, "--out", tmp_path / "u.png").err == ""


def test_a_picture_to_standard_output_is_svg(cli, tmp_path, monkeypatch):
    """``-`` means standard output wherever a file is written: render --out - prints the SVG
    (it was refused as a file name without a picture suffix)."""
    monkeypatch.chdir(tmp_path)
    cert = tmp_path / "t.json"
    assert cli("tour", "5", "5", "--open", "--format", "json", "--out", cert).code == 0
    r = cli("render", cert, "--out", "-")
    assert r.code == 0, r.err
    assert len(_points(ET.fromstring(r.out))) == 25 and "standard output" in r.err
    db = tmp_path / "c.sqlite"
    assert cli("census", 3, 4, "--remove-squares", 1, "--db", db, "--workers", 1, "-q").code == 0
    r = cli("census-report", db, "--map", "-")  # the map alone: the summary does not follow it
    assert r.code == 0 and ET.fromstring(r.out).tag.endswith("svg") and "map written to standard output" in r.err
    assert cli("census-report", db, "--map", "-", "--json").code == 2
    assert not (tmp_path / "-").exists()


def test_cli_render_rejects_tampered_and_bad_names(cli_proc, tmp_path):
    cert = tmp_path / "t.json"
    assert cli_proc("tour", "6", "6", "--format", "json", "--out", cert).code == 0
    d = json.loads(cert.read_text())
    d["squares"][3], d["squares"][4] = d["squares"][4], d["squares"][3]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(d))
    r = cli_proc("render", bad, "--out", tmp_path / "x.svg")
    assert r.code == 1 and r.out.startswith("REJECTED") and not (tmp_path / "x.svg").exists()
    r = cli_proc("render", cert, "--out", tmp_path / "x.gif")
    assert r.code == 2 and r.err.count("\n") == 1 and ".svg or .png" in r.err
    r = cli_proc("tour", "300", "300", "--svg", tmp_path / "big.svg")
    assert r.code == 2 and r.err.count("\n") == 1 and "too large" in r.err


def test_every_command_help_has_an_example(cli):
    from kt_formal.cli import build_parser

    parser = build_parser()
    sub = next(a for a in parser._actions if a.choices and isinstance(a.choices, dict))
    for name in sub.choices:
        r = cli(name, "--help")
        assert r.code == 0 and "example" in r.out and f"kt-formal {name}" in r.out.split("example")[1], name
    assert "example" in cli("--help").out
    r = cli("--version")
    assert r.code == 0 and r.out.strip().startswith("kt-formal ")
