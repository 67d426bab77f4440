"""Two squares removed (docs/theorems/margin-three.md, "Two squares removed"): the script
that writes one board per symmetry class, a census of its boards with every certificate
re-checked, and the margin-1 boards that have no closed tour at any size."""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest

import kt_formal as kt
from kt_formal.board import Board
from kt_formal.survey.families import Family
from kt_formal.survey.report import verify_store

from conftest import ROOT


def _script():
    spec = importlib.util.spec_from_file_location("two_squares", ROOT / "scripts" / "two_squares.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _classes(m: int, n: int, margin: int) -> set[bytes]:
    """The symmetry classes of opposite-colour pairs at ``margin``, from the masks' images under
    numpy's rotations and flips (not the census's symmetry code the script uses)."""
    out = set()
    cells = [(r, c) for r in range(margin, m - margin) for c in range(margin, n - margin)]
    for i, a in enumerate(cells):
        for b in cells[i + 1:]:
            if (sum(a) + sum(b)) % 2 == 0:
                continue
            grid = np.zeros((m, n), dtype=np.uint8)
            grid[a], grid[b] = 1, 1
            images = [grid, grid[::-1], grid[:, ::-1], grid[::-1, ::-1]]
            if m == n:
                images += [x.T for x in images]
            out.add(min(x.tobytes() for x in images))
    return out


def test_the_script_writes_one_board_per_class_of_balanced_pairs(tmp_path):
    mod = _script()
    assert mod.main(["6..11", "--margin", "2", "--out", str(tmp_path)]) == 0
    files = sorted(tmp_path.iterdir())
    want = {(m, n): _classes(m, n, 2) for m in range(6, 12) for n in range(m, 12) if m * n % 2 == 0}
    assert len(files) == sum(len(v) for v in want.values()) > 0
    got: dict = {}
    for path in files:
        board = Board.from_mask_file(path)
        holes = board.holes()
        assert len(holes) == 2 and (sum(holes[0]) + sum(holes[1])) % 2 == 1
        assert all(2 <= r < board.rows - 2 and 2 <= c < board.cols - 2 for r, c in holes)
        grid = board.hole_mask.astype(np.uint8)
        images = [grid, grid[::-1], grid[:, ::-1], grid[::-1, ::-1]]
        if board.rows == board.cols:
            images += [x.T for x in images]
        got.setdefault((board.rows, board.cols), set()).add(min(x.tobytes() for x in images))
    assert got == {k: v for k, v in want.items() if v}
    for bad in (["9..7"], ["6..40", "--margin", "0"], ["0..8"]):  # a reversed range, millions of pairs
        with pytest.raises(SystemExit) as exc:
            mod.main([*bad, "--out", str(tmp_path / "bad")])
        assert exc.value.code == 2
    assert not (tmp_path / "bad").exists()


def test_every_balanced_pair_at_margin_two_leaves_a_closed_tour_on_small_boards(tmp_path):
    masks = tmp_path / "masks"
    assert _script().main(["6..10", "--margin", "2", "--out", str(masks)]) == 0
    db = tmp_path / "two.sqlite"
    result = kt.census(Family(rows="6..10", cols="6..10", mask_dir=str(masks)), db=db, workers=1)
    assert result.questions == len(list(masks.iterdir())) > 200
    assert result.exit_code == 0
    ok, bad, unknown, failures = verify_store(db)
    assert (ok, bad, unknown, failures) == (result.questions, 0, 0, [])
    assert result.summary["answers"] == {"yes": {"closed": result.questions}}


@pytest.mark.parametrize("m,n", [(6, 6), (8, 11), (13, 20)])
def test_at_margin_one_a_corner_neighbour_removed_leaves_no_closed_tour_at_any_size(m, n):
    # (1, 2) is one of the two knight neighbours of the corner (0, 0): the corner keeps one
    # move, so no closed tour, whatever square of the other colour goes with it
    other = (m // 2, n // 2) if (m // 2 + n // 2) % 2 == 0 else (m // 2, n // 2 + 1)
    d = kt.decide(Board(m, n, holes=[(1, 2), other]))
    assert d.answer == "no" and d.route == "proof:degree" and d.certificate["method"] == "degree"
