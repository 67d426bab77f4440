"""Tour: formats, renumbering, reversal, the eight symmetries."""

import json

import numpy as np
import pytest

from kt_formal.board import SYMMETRIES, Board
from kt_formal.solve import find_tour
from kt_formal.exceptions import InvalidInput


@pytest.fixture(scope="module")
def closed66():
    return find_tour(Board(6, 6), seed=1).tour


@pytest.fixture(scope="module")
def open55():
    return find_tour(Board(5, 5), closed=False, start="a1").tour


def test_grid_is_aligned_and_numbered_from_one(closed66):
    text = closed66.to_grid()
    rows = [ln.split() for ln in text.splitlines()]
    assert len(rows) == 6 and all(len(r) == 6 for r in rows)
    assert sorted(int(x) for r in rows for x in r) == list(range(1, 37))
    widths = {len(ln) for ln in text.splitlines()}
    assert len(widths) == 1  # aligned columns
    r, c = closed66.start
    assert int(rows[r][c]) == 1


def test_holes_show_in_grid():
    b = Board.from_spec(10, 10, ["3,3,4x4"])
    t = find_tour(b).tour
    grid = t.to_grid()
    assert grid.count("#") == 16
    assert t.check() is None


def test_coords_and_chess(open55):
    coords = open55.to_coords()
    assert coords.splitlines()[0].startswith("(4, 0) ")
    assert len(coords.splitlines()) == 5
    chess = open55.to_chess().split()
    assert chess[0] == "a1" and len(chess) == 25 and len(set(chess)) == 25


def test_json_round_trip(closed66):
    from kt_formal.certificate import tour_from_dict

    d = json.loads(closed66.to_json(engine="cpsat"))
    assert d["format"] == "kt-formal/1" and d["kind"] == "tour" and d["closed"] is True
    assert tour_from_dict(d) == closed66


def test_renumber_closed(closed66):
    for sq in [(0, 0), (3, 4), (5, 5)]:
        t = closed66.renumbered(sq)
        assert t.start == sq and t.check() is None
        assert set(map(frozenset, t.edges().tolist())) == set(map(frozenset, closed66.edges().tolist()))


def test_renumber_open(open55):
    assert open55.renumbered(open55.start) is open55
    back = open55.renumbered(open55.end)
    assert back.start == open55.end and back.check() is None
    middle = open55.squares()[5]
    with pytest.raises(InvalidInput, match="ends"):
        open55.renumbered(middle)


def test_reverse(closed66, open55):
    for t in (closed66, open55):
        r = t.reversed()
        assert r.check() is None and r.reversed() == t
    assert closed66.reversed().start == closed66.start


@pytest.mark.parametrize("sym", SYMMETRIES)
def test_symmetries_preserve_validity(sym, open55):
    holed = find_tour(Board(5, 6, holes=[(0, 0), (4, 5)]), closed=False).tour
    for t in (find_tour(Board(6, 8)).tour, open55, holed):
        image = t.transformed(sym)
        assert image.check() is None
        assert image.board.n_squares == t.board.n_squares
        if sym in ("rot90", "rot270", "transpose", "antitranspose"):
            assert image.board.shape == (t.board.cols, t.board.rows)


def test_numbering_and_successor(closed66):
    num = closed66.numbering()
    succ = closed66.successor()
    order = closed66.order
    assert num.ravel()[order[0]] == 1 and num.max() == 36
    assert np.array_equal(succ[order], np.roll(order, -1))


def test_save_formats(tmp_path, closed66):
    assert json.loads(closed66.save(tmp_path / "t.json").read_text())["kind"] == "tour"
    assert np.array_equal(np.load(closed66.save(tmp_path / "t.npy")), closed66.numbering())
    assert closed66.save(tmp_path / "t.txt").read_text() == "# kt-formal grid: closed tour, board 6x6\n" + closed66.to_grid()
    odd = closed66.save(tmp_path / "grid.bin", fmt="npy")
    assert odd.name == "grid.bin" and np.array_equal(np.load(odd), closed66.numbering())
    with pytest.raises(InvalidInput, match="unknown format"):
        closed66.format("xml")
