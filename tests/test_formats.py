"""Reading tours back: numbered text grids, .npy grids and JSON certificates through `verify`."""

from __future__ import annotations

import subprocess
import sys

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
    r = cli("verify", g)  # the file's first line says the tour is closed
    assert r.code == 0 and r.out.startswith("OK: closed tour of the 8x8 board from ") and "numbered grid" in r.out
    bare = tmp_path / "printed.txt"  # a grid as printed, without the header: open unless --closed
    bare.write_text(cli("tour", "8", "8", "--quiet").out)
    r = cli("verify", bare)
    assert r.code == 0 and r.out.startswith("OK: open tour of the 8x8 board from ") and "numbered grid" in r.out
    r = cli("verify", bare, "--closed")
    assert r.code == 0 and r.out.startswith("OK: closed tour of the 8x8 board from ")


def test_cli_verify_npy_and_json(cli, tmp_path):
    n, j = tmp_path / "t.npy", tmp_path / "t.json"
    assert cli("tour", "10", "10", "--hole", "3,3,4x4", "--format", "npy", "--out", n).code == 0
    assert read_npy(n, closed=True).check() is None
    r = cli("verify", n, "--closed")
    assert r.code == 0 and "closed tour of the 10x10 board minus 16 squares (d7, e7, f7, g7, d6, e6 and 10 more)" in r.out
    assert cli("tour", "6", "6", "--format", "json", "--out", j).code == 0
    r = cli("verify", j)
    assert r.code == 0 and r.out.startswith("OK: closed tour of the 6x6 board from ") and r.out.count("\n") == 1
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


# ---------------------------------------------------------------------- every format tour writes
ALL_FORMATS = ["grid", "coords", "chess", "json", "npy", "succ", "bin"]


@pytest.mark.parametrize("fmt", ALL_FORMATS)
@pytest.mark.parametrize("which", ["holed", "open5"])
def test_every_format_round_trips(fmt, which, request, tmp_path):
    from kt_formal.io.formats import save_tour

    t = request.getfixturevalue(which)
    path = save_tour(t, tmp_path / f"t.{fmt}", fmt)
    back, how = read_tour_file(path)  # every file says whether its tour is closed
    assert back.check() is None and back == t and back.closed == t.closed, how
    via_tour = request.getfixturevalue(which).save(tmp_path / f"again.{fmt}", fmt)
    assert read_tour_file(via_tour)[0] == t


def test_npy_stays_a_numpy_array_and_says_closed(tmp_path, holed, open5):
    for t in (holed, open5):
        p = t.save(tmp_path / "t.npy")
        assert np.array_equal(np.load(p), t.numbering())  # numpy reads the grid as before
        back, how = read_tour_file(p)
        assert back.closed == t.closed and f"of {'a closed' if t.closed else 'an open'} tour" in how
    with pytest.raises(CertificateRejected, match="open tour, a closed one was asked"):
        read_tour_file(tmp_path / "t.npy", closed=True)  # the last one saved is open5
    np.save(tmp_path / "bare.npy", holed.numbering())  # saved by numpy: nothing after the array
    assert not read_tour_file(tmp_path / "bare.npy")[0].closed
    assert read_tour_file(tmp_path / "bare.npy", closed=True)[0] == holed
    data = (tmp_path / "t.npy").read_bytes()
    for name, tail in (("junk", b"# kt-formal npy: shut tour, board 5x5\n"),
                       ("size", b"# kt-formal npy: open tour, board 6x5\n"), ("long", b"x" * 5000)):
        bad = tmp_path / f"{name}.npy"
        bad.write_bytes(data[: data.index(b"# kt-formal npy")] + tail)
        with pytest.raises(InvalidInput, match="after its array"):
            read_tour_file(bad)


@pytest.mark.parametrize("fmt", ALL_FORMATS)
def test_cli_tour_then_verify_and_render_every_format(fmt, cli, tmp_path):
    suffix = {"json": ".json", "npy": ".npy", "succ": ".npy", "bin": ".ktour"}.get(fmt, ".txt")
    out = tmp_path / f"t{suffix}"
    r = cli("tour", 6, 6, "--hole", "0,0,1x2", "--format", fmt, "--out", out, "--quiet")
    assert r.code == 0, r.err
    r = cli("verify", out)
    assert r.code == 0 and r.out.startswith("OK: ") and "of the 6x6 board minus 2 squares (a6, b6)" in r.out, r.out
    r = cli("render", out, "--out", tmp_path / "t.svg", "--quiet")
    assert r.code == 0 and (tmp_path / "t.svg").read_text().startswith("<svg")


def test_binary_file_layout(holed, tmp_path):
    from kt_formal.io.formats import BINARY_MAGIC, save_tour

    path = save_tour(holed, tmp_path / "t.ktour")
    data = path.read_bytes()
    assert data[:8] == BINARY_MAGIC
    assert np.frombuffer(data[8:24], "<u8").tolist() == [10, 10]
    assert data[24] == 1 and data[25] == 4 and data[26:32] == bytes(6)
    assert np.array_equal(np.frombuffer(data[32:], "<u4"), holed.order)
    assert len(data) == 32 + 4 * len(holed)


def test_binary_tampering_is_rejected(holed, tmp_path):
    from kt_formal.io.formats import save_tour

    path = save_tour(holed, tmp_path / "t.ktour")
    data = bytearray(path.read_bytes())
    (tmp_path / "short.ktour").write_bytes(data[:-2])
    with pytest.raises(InvalidInput, match="truncated"):
        read_tour_file(tmp_path / "short.ktour")
    swapped = bytearray(data)
    swapped[36:40], swapped[40:44] = data[40:44], data[36:40]  # squares 2 and 3 swapped
    (tmp_path / "swap.ktour").write_bytes(swapped)
    with pytest.raises(CertificateRejected, match="not a knight move"):
        read_tour_file(tmp_path / "swap.ktour")
    outside = bytearray(data)
    outside[32:36] = np.array([100], "<u4").tobytes()
    (tmp_path / "out.ktour").write_bytes(outside)
    with pytest.raises(CertificateRejected, match="outside"):
        read_tour_file(tmp_path / "out.ktour")
    bad = bytearray(data)
    bad[25] = 3
    (tmp_path / "bad.ktour").write_bytes(bad)
    with pytest.raises(InvalidInput, match="header"):
        read_tour_file(tmp_path / "bad.ktour")


def test_successor_arrays(open5, holed, tmp_path):
    from kt_formal.io.formats import successor_to_tour

    for t in (open5, holed):
        succ = t.successor().reshape(t.board.rows, t.board.cols)
        assert successor_to_tour(succ) == t
    np.save(tmp_path / "flat.npy", open5.successor())
    with pytest.raises(InvalidInput, match="1-D array"):
        read_tour_file(tmp_path / "flat.npy")
    two_cycles = holed.successor().copy()
    a, b = holed.order[0], holed.order[40]
    two_cycles[[a, b]] = two_cycles[[b, a]]  # splits the cycle in two
    with pytest.raises(CertificateRejected):
        successor_to_tour(two_cycles.reshape(10, 10))


def test_coords_without_header_infers_the_board(closed8, tmp_path):
    p = tmp_path / "plain.txt"
    p.write_text(closed8.to_coords())
    back, how = read_tour_file(p, closed=True)
    assert back == closed8 and "without a header" in how


def test_chunked_grid_reading_matches(holed, tmp_path, monkeypatch):
    import kt_formal.io.formats as formats

    monkeypatch.setattr(formats, "_CHUNK", 7)  # many chunks, rows split across them
    np.save(tmp_path / "g.npy", holed.numbering())
    assert read_npy(tmp_path / "g.npy", closed=True) == holed
    a = holed.numbering().copy()
    a[0, 1], a[9, 9] = a[9, 9], 5  # number 5 twice
    np.save(tmp_path / "dup.npy", a)
    with pytest.raises(CertificateRejected, match="missing|more than once|larger"):
        read_npy(tmp_path / "dup.npy")


def test_json_limit_message_counts_squares(cli):
    r = cli("tour", 1001, 1001, "--hole", "0,0,10x10", "--format", "json", "--out", "x.json")
    assert r.code == 2
    assert "this board has 1,001,901 squares" in r.err and ".ktour" in r.err


# ---------------------------------------------------------------------- the knight graph
def _read_graph(path, fmt: str):
    """A graph file of ``kt-formal graph`` read back by networkx."""
    import json

    import networkx as nx

    if fmt == "graphml":
        return nx.read_graphml(path)
    if fmt == "edgelist":
        return nx.read_edgelist(path)
    data = json.loads(path.read_text())
    try:
        return nx.node_link_graph(data, edges="links")
    except TypeError:
        return nx.node_link_graph(data)


@pytest.mark.parametrize("fmt", ["graphml", "edgelist", "json"])
def test_graph_export_round_trip(fmt, cli, tmp_path):
    out = tmp_path / f"k.{fmt}"
    r = cli("graph", 8, 8, "--hole", "3,3,2x2", "--format", fmt, "--out", out)
    assert r.code == 0 and "edges:   136" in r.out
    G = _read_graph(out, fmt)
    assert G.number_of_edges() == 136
    assert all(abs(int(a.split(",")[0]) - int(b.split(",")[0])) in (1, 2) for a, b in G.edges())
    assert "3,3" not in G  # a hole
    assert cli("graph", 8, 8, "--format", fmt).code == 2  # --format without --out


@pytest.mark.parametrize("fmt", ["graphml", "edgelist", "json"])
def test_graph_export_names_squares_as_squares_says(fmt, cli, tmp_path):
    """graph takes --squares as tour, exists and count do: chess names (a1 bottom left) or
    ROW,COL (the default of the files); the same graph either way, and the option alone
    (no file to name nodes in) is refused."""
    from kt_formal.board import Board
    from kt_formal.graph import knight_graph

    graphs = {}
    for squares in ("chess", "rc"):
        out = tmp_path / f"k-{squares}.{fmt}"
        assert cli("graph", 5, 6, "--remove", "b2", "--format", fmt, "--out", out, "--squares", squares).code == 0
        graphs[squares] = _read_graph(out, fmt)
    want = knight_graph(Board(5, 6, holes=[(3, 1)]))  # b2: row 3 of 5 from the top, column 1
    chess = {(r, c): "abcdef"[c] + str(5 - r) for r, c in want.nodes}
    for squares, name in (("chess", chess.get), ("rc", lambda q: f"{q[0]},{q[1]}")):
        got = {frozenset(e) for e in graphs[squares].edges()}
        assert got == {frozenset((name(a), name(b))) for a, b in want.edges()}, squares
    assert "b2" not in graphs["chess"] and "a1" in graphs["chess"]
    if fmt != "edgelist":  # an edge list holds no attributes
        assert graphs["chess"].nodes["a1"]["row"] == 4 and graphs["chess"].nodes["a1"]["col"] == 0
    r = cli("graph", 5, 6, "--squares", "chess")
    assert r.code == 2 and "--squares names the nodes" in r.err


@pytest.mark.parametrize("fmt", ["grid", "coords", "chess", "json", "succ", "bin"])
@pytest.mark.parametrize("closed", [True, False])
@pytest.mark.parametrize("spec", [(5, 6, []), (6, 7, ["2,2,1x2"])], ids=["5x6", "6x7-two-holes"])
def test_tour_save_keeps_closedness_board_and_holes(tmp_path, fmt, closed, spec):
    """Tour.save writes the same self-describing files as the command line: a closed tour read
    back is closed (before, Tour.save's coords and chess files had no header and read back as
    open tours of a board guessed from the squares)."""
    rows, cols, holes = spec
    board = Board.from_spec(rows, cols, holes)
    tour = find_tour(board, closed=closed).tour
    path = tour.save(tmp_path / f"t.{fmt}", fmt)
    back, kind = read_tour_file(path)
    assert back == tour and back.closed is closed and back.board == board, kind


@pytest.mark.parametrize("fmt", ["grid", "coords", "chess", "json", "npy", "succ", "bin"])
@pytest.mark.parametrize("closed", [True, False])
def test_every_format_round_trips_through_the_command_line(cli, tmp_path, fmt, closed):
    """``tour --format F --out FILE`` then ``verify FILE`` checks the tour as the kind it was
    written: a closed tour's file says so in every format (the ``npy`` grid in a line after
    its array). Before, a grid file of a closed tour was checked as an open one, and so was
    an ``npy`` grid unless ``--closed`` was given."""
    path = tmp_path / f"t.{fmt}"
    args = ["tour", 6, 6, "--hole", "2,2,1x2", "--format", fmt, "--out", path]
    assert cli(*args, *([] if closed else ["--open"])).code == 0
    back, how = read_tour_file(path)
    assert back.closed is closed and back.board == Board.from_spec(6, 6, ["2,2,1x2"]), how
    run = cli("verify", path)
    assert run.code == 0, run.err
    assert ("closed tour" if closed else "open tour") in run.out, run.out


def test_a_grid_file_of_an_open_tour_is_not_taken_for_a_closed_one(tmp_path):
    tour = find_tour(Board(5, 6), closed=False, start=(0, 0)).tour
    path = tour.save(tmp_path / "t.txt")
    assert path.read_text().startswith("# kt-formal grid: open tour, board 5x6\n")
    with pytest.raises(CertificateRejected, match="open tour, a closed one was asked"):
        read_tour_file(path, closed=True)
    with pytest.raises(InvalidInput, match="not the 5x6 board"):
        read_grid_text("# kt-formal grid: open tour, board 5x6\n1 2\n", closed=None)


def test_a_tiny_order_file_of_a_huge_board_is_refused_without_building_its_mask(tmp_path):
    """A 36-byte binary order file that lists one square of a 10^8 x 1 board: its holes are
    the squares it does not list, so reading it would build a mask of 10^8 places from a
    header (it once took six minutes and 21 GB, then some 300 MB). Readers are bounded by
    what they read: such a file is refused in one line, exit 2, at once."""
    from tests.test_scale_bounds import _capped

    path = tmp_path / "one.ktour"
    path.write_bytes(b"KTOUR01\n" + np.array([100_000_000, 1], dtype="<u8").tobytes() + bytes([0, 4, 0, 0, 0, 0, 0, 0])
                     + np.array([0], dtype="<u4").tobytes())
    run = _capped("verify", path, timeout=120)  # within 2 GB of address space
    assert run.returncode == 2, (run.stdout, run.stderr)
    assert "lists 1 square of a 100000000x1 board" in run.stderr and len(run.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("fmt, suffix", [("json", "json"), ("grid", "txt"), ("npy", "npy"), ("bin", "ktour"),
                                         ("chess", "txt")])
def test_render_reads_a_tour_from_standard_input(tmp_path, cli_proc, fmt, suffix):
    """`kt-formal tour ... | kt-formal render - --out t.svg` draws what the tour command wrote
    (render took '-' for a file name that does not exist), the same picture as from the
    file; standard input is read within the verify reader's bound, and its errors name it."""
    path = tmp_path / f"t.{suffix}"
    assert cli_proc("tour", "6", "6", "--format", fmt, "--out", path, "-q").code == 0

    def render(data: bytes, out):
        return subprocess.run([sys.executable, "-m", "kt_formal", "render", "-", "--closed", "--out", str(out)],
                              input=data, capture_output=True, timeout=120)

    run = render(path.read_bytes(), tmp_path / "in.svg")
    assert run.returncode == 0, run.stderr
    assert cli_proc("render", path, "--closed", "--out", tmp_path / "file.svg", "-q").code == 0
    assert (tmp_path / "in.svg").read_bytes() == (tmp_path / "file.svg").read_bytes()
    for data, code, words in ((b"", 2, b"standard input is empty"),
                              (b"1 2\n3 x\n", 2, b"standard input"),
                              (b"\0" * ((64 << 20) + 1), 2, b"holds more than 67,108,864 bytes")):
        bad = render(data, tmp_path / "bad.svg")
        err = bad.stderr.strip().splitlines()
        assert bad.returncode == code and len(err) == 1 and words in err[0], bad.stderr
        assert b"kt-formal-stdin" not in bad.stderr and not (tmp_path / "bad.svg").exists()


@pytest.mark.parametrize("fmt, suffix, how", [
    ("json", "json", None), ("grid", "txt", "numbered grid"), ("npy", "npy", "numpy numbered grid"),
    ("bin", "ktour", "binary order file"), ("coords", "txt", "list of squares"),
])
def test_verify_reads_every_format_from_standard_input(tmp_path, cli_proc, fmt, suffix, how):
    """`kt-formal tour ... | kt-formal verify -` checks what the tour command writes, in any
    format (it read JSON only, and rejected the rest as "not valid JSON"); a tour spoilt in
    the pipe is rejected, garbage is one line naming standard input, not a temporary file."""
    path = tmp_path / f"t.{suffix}"
    assert cli_proc("tour", "6", "6", "--format", fmt, "--out", path, "-q").code == 0
    data = path.read_bytes()
    run = subprocess.run([sys.executable, "-m", "kt_formal", "verify", "-"], input=data, capture_output=True,
                         timeout=120)
    out = run.stdout.decode()
    assert run.returncode == 0, run.stderr
    assert out.startswith("OK: closed tour of the 6x6 board")
    if how is not None:
        assert f"read as a {how}" in out and "from standard input)" in out
    junk = subprocess.run([sys.executable, "-m", "kt_formal", "verify", "-"], input=bytes(range(256)) * 8,
                          capture_output=True, timeout=120)
    assert junk.returncode in (1, 2) and b"kt-formal-stdin" not in junk.stdout + junk.stderr


def test_a_byte_order_mark_at_the_start_of_a_mask_or_certificate_is_read_past(tmp_path, cli_proc):
    """Some editors write a UTF-8 byte-order mark first: a mask file or a JSON certificate
    starting with one reads as without it (both were refused); one anywhere else is still
    refused, and tour files of other formats read as before."""
    from kt_formal.board import Board

    bom = b"\xef\xbb\xbf"
    mask = "..#...\n......\n...#..\n......\n......\n"
    (tmp_path / "m.txt").write_bytes(bom + mask.encode())
    assert Board.from_mask_file(tmp_path / "m.txt") == Board.from_mask(mask) == Board.from_mask("\ufeff" + mask)
    plain = cli_proc("graph", "--mask", tmp_path / "m.txt")
    assert plain.code == 0 and "squares: 28" in plain.out, plain.err
    (tmp_path / "late.txt").write_bytes(mask.encode() + bom + b".....\n")
    late = cli_proc("graph", "--mask", tmp_path / "late.txt")
    assert late.code == 2 and "line 6 has '\\ufeff'" in late.err, late.err
    cert = tmp_path / "t.json"
    assert cli_proc("tour", "5", "6", "--open", "--format", "json", "--out", cert, "-q").code == 0
    marked = tmp_path / "marked.json"
    marked.write_bytes(bom + cert.read_bytes())
    want = cli_proc("verify", cert).out.replace(str(cert), "")
    assert want.startswith("OK: open tour of the 5x6 board")
    assert cli_proc("verify", marked).out.replace(str(marked), "") == want
    assert cli_proc("verify", "-", stdin=marked.read_text(encoding="utf-8")).code == 0
    assert cli_proc("render", marked, "--out", tmp_path / "m.svg", "-q").code == 0
    twice = tmp_path / "twice.json"
    twice.write_bytes(bom + bom + cert.read_bytes())
    assert cli_proc("verify", twice).code == 2
