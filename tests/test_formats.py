"""Reading tours back: numbered text grids, .npy grids and JSON certificates through `verify`."""

from __future__ import annotations

import numpy as np
import pytest

from kt_formal import Board, find_tour
from kt_formal.exceptions import CertificateRejected, InvalidInput
from kt_formal.io.formats import grid_to_tour, read_grid_text, read_npy, read_tour_file


def _tour(board, closed=True):
    result = find_tour(board, closed=closed, engine="cpsat", seed=2)
    assert result.found and result.tour.check() is None
    return result.tour


@pytest.fixture(scope="module")
def closed8():
    return _tour(Board(8, 8))


@pytest.fixture(scope="module")
def holed():
    return _tour(Board.from_spec(10, 10, ["3,3,4x4"]))


@pytest.fixture(scope="module")
def open5():
    return _tour(Board(5, 5), closed=False)


# ---------------------------------------------------------------------- library
def test_grid_round_trip(closed8, holed, open5):
    for t in (closed8, holed, open5):
        back = read_grid_text(t.to_grid(), closed=t.closed)
        assert back == t and back.check() is None
    # a closed tour read as open is the same order, open
    back = read_grid_text(closed8.to_grid())
    assert not back.closed and np.array_equal(back.order, closed8.order)


def test_hole_spellings(holed):
    text = holed.to_grid()
    for mark in (".", "-", "0"):
        assert read_grid_text(text.replace("#", mark), closed=True) == holed


def test_npy_round_trip(tmp_path, holed, open5):
    for t in (holed, open5):
        p = t.save(tmp_path / "t.npy")
        back = read_npy(p, closed=t.closed)
        assert back == t and back.check() is None
        tour, how = read_tour_file(p, closed=t.closed)
        assert tour == t and "numpy" in how


def test_open_grid_is_not_closed(open5):
    with pytest.raises(CertificateRejected, match="closing move|not a knight move"):
        read_grid_text(open5.to_grid(), closed=True)


@pytest.mark.parametrize("edit, reason", [
    (lambda a: _swap(a, 5, 6), "not a knight move"),
    (lambda a: np.where(a == 7, 9, a), "appears more than once"),
    (lambda a: np.where(a == 64, 65, a), "larger than"),
    (lambda a: np.where(a == 1, 0, a), "not all|never visited|missing|knight"),
])
def test_wrong_numbers_are_rejected(closed8, edit, reason):
    a = edit(closed8.numbering().astype(np.int64))
    with pytest.raises(CertificateRejected, match=reason):
        grid_to_tour(a, closed=True)


def _swap(a, x, y):
    b = a.copy()
    b[a == x], b[a == y] = y, x
    return b


@pytest.mark.parametrize("text, reason", [
    ("", "empty"),
    ("1 2\n3\n", "line 2 has 1"),
    ("1 x\n3 4\n", "not a step number"),
    ("1 -2\n3 4\n", "not a step number"),
    ("# #\n# #\n", "no numbered squares"),
    ("1 2\n\n3 4\n", "blank line"),
])
def test_malformed_grids(text, reason):
    with pytest.raises(InvalidInput, match=reason):
        read_grid_text(text)


def test_malformed_npy(tmp_path):
    cases = {
        "float.npy": np.ones((3, 3)),
        "flat.npy": np.arange(1, 10),
        "neg.npy": -np.ones((2, 2), dtype=np.int64),
    }
    for name, arr in cases.items():
        np.save(tmp_path / name, arr)
        with pytest.raises(InvalidInput):
            read_npy(tmp_path / name)
    good = tmp_path / "good.npy"
    np.save(good, np.arange(1, 10).reshape(3, 3))
    cut = tmp_path / "cut.npy"
    cut.write_bytes(good.read_bytes()[:-20])
    with pytest.raises(InvalidInput, match="truncated"):
        read_npy(cut)
    (tmp_path / "junk.npy").write_bytes(b"not numpy at all")
    with pytest.raises(InvalidInput, match="not a valid .npy"):
        read_npy(tmp_path / "junk.npy")


# ---------------------------------------------------------------------- command line
def test_cli_verify_grid_text(cli, tmp_path):
    g = tmp_path / "t.txt"
    assert cli("tour", "8", "8", "--out", g).code == 0
    read_grid_text(g.read_text(), closed=True).verify()
    r = cli("verify", g)
    assert r.code == 0 and r.out.startswith("OK: valid open tour") and "numbered grid" in r.out
    r = cli("verify", g, "--closed")
    assert r.code == 0 and r.out.startswith("OK: valid closed tour")


def test_cli_verify_npy_and_json(cli, tmp_path):
    n, j = tmp_path / "t.npy", tmp_path / "t.json"
    assert cli("tour", "10", "10", "--hole", "3,3,4x4", "--format", "npy", "--out", n).code == 0
    assert read_npy(n, closed=True).check() is None
    r = cli("verify", n, "--closed")
    assert r.code == 0 and "closed tour of the 10x10 minus 16 holes" in r.out
    assert cli("tour", "6", "6", "--format", "json", "--out", j).code == 0
    r = cli("verify", j)
    assert r.code == 0 and r.out == "OK: valid closed tour of the 6x6 board (36 squares)\n"
    assert cli("verify", j, "--closed").code == 0
    r = cli("tour", "8", "8", "--format", "npy")
    assert r.code == 2 and "--out" in r.err


def test_cli_verify_rejects_wrong_tours(cli_proc, tmp_path, open5):
    g = tmp_path / "open.txt"
    g.write_text(open5.to_grid())
    assert cli_proc("verify", g).code == 0
    r = cli_proc("verify", g, "--closed")
    assert r.code == 1 and r.out.startswith("REJECTED")
    lines = open5.to_grid().splitlines()
    first = lines[0].split()
    first[0], first[1] = first[1], first[0]
    lines[0] = " ".join(first)
    g.write_text("\n".join(lines) + "\n")
    r = cli_proc("verify", g)
    assert r.code == 1 and r.out.startswith("REJECTED") and r.err == ""


@pytest.mark.parametrize("content", ["1 2\n3\n", "hello world\n", "", "1 -1\n"])
def test_cli_verify_malformed_is_one_line_exit_2(cli_proc, tmp_path, content):
    p = tmp_path / "bad.txt"
    p.write_text(content)
    r = cli_proc("verify", p)
    assert r.code == 2 and r.err.count("\n") == 1 and "Traceback" not in r.err
    assert r.err.startswith("kt-formal: ")


def test_cli_verify_bad_npy_and_missing_file(cli_proc, tmp_path):
    p = tmp_path / "bad.npy"
    np.save(p, np.ones((2, 2)))
    r = cli_proc("verify", p)
    assert r.code == 2 and r.err.count("\n") == 1
    r = cli_proc("verify", tmp_path / "nothing.txt")
    assert r.code == 2 and "does not exist" in r.err


@pytest.mark.parametrize("sym", ["identity", "rot90", "rot180", "rot270", "flip_lr", "flip_ud",
                                 "transpose", "antitranspose"])
def test_grid_round_trip_under_symmetries(holed, open5, sym):
    for t in (holed, open5):
        image = t.transformed(sym)
        assert image.check() is None
        assert read_grid_text(image.to_grid(), closed=t.closed) == image


def test_cli_out_suffix_picks_the_format(cli, tmp_path):
    j, n = tmp_path / "a.json", tmp_path / "a.npy"
    assert cli("tour", "6", "6", "--out", j).code == 0
    assert j.read_text().startswith("{")
    assert cli("verify", j).code == 0
    assert cli("tour", "6", "6", "--out", n).code == 0
    assert read_npy(n, closed=True).check() is None
    g = tmp_path / "a.txt"
    assert cli("tour", "6", "6", "--out", g).code == 0
    assert read_grid_text(g.read_text(), closed=True).check() is None
