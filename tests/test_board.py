"""Board: sizes, holes, masks, squares, colours, degrees, symmetries."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kt_formal.board import SYMMETRIES, Board, file_name, parse_file_name, transform_coords
from kt_formal.exceptions import InvalidInput, ResourceLimit


def test_sizes_and_holes():
    b = Board.from_spec(8, 8, ["3,3,2x2"], ["a1"])
    assert b.n_squares == 59 and b.n_holes == 5
    assert not b.is_live(3, 4) and not b.is_live(7, 0) and b.is_live(0, 0)
    assert b.holes()[0] == (3, 3)
    assert b.describe() == "8x8 minus 5 squares"


@pytest.mark.parametrize("args, match", [
    ((0, 8), "at least 1"),
    ((-3, 8), "at least 1"),
    ((8, 2_000_000_000), "too large"),
    ((8.5, 8), "whole number"),
    ((True, 8), "whole number"),
])
def test_bad_sizes(args, match):
    with pytest.raises(InvalidInput, match=match):
        Board(*args)


@pytest.mark.parametrize("rect, match", [
    ("9,0,3x3", "outside the 8x8 board"),
    ("6,6,3x3", "outside"),
    ("0,0,0x3", "at least 1x1"),
    ("3;3;2x2", "ROW,COL,HxW"),
    ("0,0,8x8", "no squares left"),
])
def test_bad_holes(rect, match):
    with pytest.raises(InvalidInput, match=match):
        Board.from_spec(8, 8, [rect])


def test_mask_round_trip_and_errors(tmp_path):
    text = "..#.\n....\n#...\n"
    b = Board.from_mask(text)
    assert (b.rows, b.cols, b.n_squares) == (3, 4, 10)
    assert b.to_mask() == text
    assert Board.from_mask(b.to_mask()) == b
    with pytest.raises(InvalidInput, match="line 2 has 'x'"):
        Board.from_mask("....\n..x.\n")
    with pytest.raises(InvalidInput, match="line 2 has 3 characters"):
        Board.from_mask("....\n...\n")
    with pytest.raises(InvalidInput, match="empty"):
        Board.from_mask("\n\n")
    with pytest.raises(InvalidInput, match="does not exist"):
        Board.from_mask_file(tmp_path / "nope.txt")
    binary = tmp_path / "bin.txt"
    binary.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(InvalidInput, match="not a text file"):
        Board.from_mask_file(binary)


def test_square_names():
    b = Board(8, 8)
    assert b.square_name((7, 0)) == "a1" and b.square_name((0, 7)) == "h8"
    assert b.parse_square("a1") == (7, 0) and b.parse_square("3,4") == (3, 4)
    assert b.parse_square("(3, 4)") == (3, 4)
    with pytest.raises(InvalidInput, match="outside"):
        b.parse_square("i1")
    with pytest.raises(InvalidInput, match="outside"):
        b.parse_square("8,0")
    with pytest.raises(InvalidInput, match="neither"):
        b.parse_square("??")
    wide = Board(3, 30)
    assert wide.square_name((0, 26)) == "aa3"
    assert wide.parse_square("ab1") == (2, 27)


@given(st.integers(0, 10_000))
def test_file_names_round_trip(col):
    assert parse_file_name(file_name(col)) == col


@given(st.integers(1, 12), st.integers(1, 12), st.data())
@settings(max_examples=60, deadline=None)
def test_colour_counts_and_degrees_match_brute_force(rows, cols, data):
    holes = data.draw(st.sets(st.tuples(st.integers(0, rows - 1), st.integers(0, cols - 1)),
                              max_size=rows * cols - 1))
    b = Board(rows, cols, holes=holes)
    live = [(r, c) for r in range(rows) for c in range(cols) if (r, c) not in holes]
    assert b.n_squares == len(live)
    c0 = sum((r + c) % 2 == 0 for r, c in live)
    assert b.colour_counts() == (c0, len(live) - c0)
    dark = sum(b.is_dark(r, c) for r, c in live)
    assert b.dark_light_counts() == (dark, len(live) - dark)
    deg = b.degrees()
    for r, c in live:
        brute = sum(1 for dr, dc in [(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)]
                    if (r + dr, c + dc) in set(live))
        assert deg[r, c] == brute == len(b.neighbours(r, c))


@pytest.mark.parametrize("sym", SYMMETRIES)
def test_symmetries_move_squares_like_numpy(sym):
    rows, cols = 3, 5
    grid = np.arange(rows * cols).reshape(rows, cols)
    expected = {
        "identity": grid, "rot90": np.rot90(grid), "rot180": np.rot90(grid, 2),
        "rot270": np.rot90(grid, 3), "flip_lr": np.fliplr(grid), "flip_ud": np.flipud(grid),
        "transpose": grid.T, "antitranspose": np.rot90(grid, 2).T,
    }[sym]
    rr, cc = np.divmod(np.arange(rows * cols), cols)
    r2, c2, rows2, cols2 = transform_coords(rr, cc, rows, cols, sym)
    assert expected.shape == (rows2, cols2)
    out = np.empty((rows2, cols2), dtype=int)
    out[r2, c2] = grid[rr, cc]
    assert np.array_equal(out, expected)


def test_board_symmetry_moves_holes():
    b = Board(3, 4, holes=[(0, 0), (2, 1)])
    t = b.transformed("rot90")
    assert (t.rows, t.cols) == (4, 3)
    assert set(t.holes()) == {(3, 0), (2, 2)}
    assert b.transformed("transpose").transformed("transpose") == b


def test_absurd_sizes_are_refused_before_allocating():
    b = Board(1_000_000, 1_000_000)  # no allocation for a full board
    assert b.n_squares == 10**12
    with pytest.raises(ResourceLimit, match="GiB"):
        b.degrees()
    with pytest.raises(ResourceLimit):
        Board.from_spec(1_000_000, 1_000_000, ["0,0,1x1"])


@pytest.mark.parametrize("seed", range(10))
def test_first_holes_are_the_first_of_the_listed_holes(seed):
    """``first_holes`` scans the mask a block at a time (2^22 squares) and stops: the same
    squares, in the same order, as the head of the full list."""
    rng = np.random.default_rng(seed)
    rows = int(rng.integers(1, 30))
    cols = int(rng.integers(5_000_000, 10_000_000)) // rows
    mask = np.zeros((rows, cols), bool)
    mask.ravel()[rng.integers(0, rows * cols, size=int(rng.integers(1, 9)))] = True
    b = Board(rows, cols, holes=mask)
    for k in (1, 3, 6, 20):
        assert b.first_holes(k) == b.holes()[:k]
    assert Board(3, 4).first_holes(6) == []
