"""The quadrant scheme of divide and conquer (seed 000's, docs/methods.md) on both base-tour sources:
the library's pieces and the seed's own board_path.txt; every tour checked independently."""

from pathlib import Path

import pytest

from kt_formal.combine.divide import QUADRANT_SIZES
from kt_formal.combine.parberry import (
    is_structured, parse_board_path, quadrant_base_tours, quadrant_construct,
)
from kt_formal.exceptions import InvalidInput

_ROOT = Path(__file__).resolve().parents[1]
# ../shared beside the repository (a git worktree may sit one level deeper)
BOARD_PATH = next((p / "shared" / "peers" / "board_path.txt" for p in (_ROOT.parent, _ROOT.parent.parent)
                   if (p / "shared" / "peers" / "board_path.txt").exists()),
                  _ROOT.parent / "shared" / "peers" / "board_path.txt")
needs_peers = pytest.mark.skipif(not BOARD_PATH.exists(),
                                 reason="../shared/peers/board_path.txt (external data) is absent")


@needs_peers
def test_seed_base_tours_are_structured_closed_tours():
    tours = parse_board_path(BOARD_PATH)
    assert sorted(tours) == sorted(QUADRANT_SIZES)
    for (h, w), t in tours.items():
        assert t.board.shape == (h, w) and t.closed
        assert t.check() is None
        assert is_structured(t)


def test_library_structured_pieces():
    for (h, w), t in quadrant_base_tours("library").items():
        assert t.board.shape == (h, w) and t.check() is None and is_structured(t)


SIZES = [(12, 12), (14, 16), (16, 16), (16, 14), (30, 32), (22, 24), (26, 24), (100, 100), (102, 100)]


@pytest.mark.parametrize("source", ["library", pytest.param("peers", marks=needs_peers)])
@pytest.mark.parametrize("m, n", SIZES)
def test_seed_scheme(source, m, n):
    t = quadrant_construct(m, n, source, BOARD_PATH)
    assert t.closed and t.board.shape == (m, n)
    assert t.check() is None
    assert is_structured(t)  # the merged tour keeps the corner moves


def test_seed_scheme_on_base_sizes_is_the_base_tour():
    t = quadrant_construct(8, 10)
    base = quadrant_base_tours("library")[(8, 10)]
    assert sorted(map(sorted, t.edges().tolist())) == sorted(map(sorted, base.edges().tolist()))


@pytest.mark.parametrize("m, n", [(13, 13), (12, 16), (4, 4), (12, 11)])
def test_seed_scheme_refuses_other_sizes(m, n):
    with pytest.raises(InvalidInput, match="the quadrant scheme needs even sizes"):
        quadrant_construct(m, n)


def test_corrupted_board_path_is_refused(tmp_path):
    bad = tmp_path / "board_path.txt"
    bad.write_text("1 2 3\n")
    with pytest.raises(InvalidInput, match="ends before"):
        parse_board_path(bad)
