"""Memory bounded by what is asked: thin strips and boards that are mostly hole are answered
without an array of the whole board, their proofs checked by the kernel without one, and a
refusal for memory says what would be needed and why that is not enough.

The commands run in a child process whose address space is capped (``RLIMIT_AS``), so a
whole-board array (2 GB for 1 x 10^9, 12 GB for the 20000 x 20000 frame before) fails them.
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys

import numpy as np
import pytest

from kt_formal.board import Board
from kt_formal.kernel import check_proof
from kt_formal.kernel.errors import CertificateRejected
from kt_formal.kernel.proofcheck import MAX_REDUCED_SQUARES
from kt_formal.livesquares import rect_squares
from kt_formal.proofs import find_proof, find_reduction_proof
from kt_formal.question import Question
from tests.conftest import ROOT

#: The address space a command below may take.
CAP = 2 << 30


def _capped(*args, cap: int = CAP, timeout: float = 300):
    """``python -m kt_formal ARGS`` in a child with at most ``cap`` bytes of address space."""
    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))

    env = {"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "HOME": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "kt_formal", *map(str, args)], capture_output=True,
                          text=True, timeout=timeout, preexec_fn=limit, env=env, cwd=ROOT)


# ---------------------------------------------------------------- the commands
def test_a_strip_of_a_billion_squares_is_refuted_within_two_gigabytes():
    """1 x 10^9: no square has a move; the degree proof names the first square, as row,col since
    the board is wider than the chess letters (2.0 GB before)."""
    run = _capped("exists", "1", "1000000000")
    assert run.returncode == 1, run.stderr
    assert "square 0,0 has only 0 knight moves" in run.stdout


def test_two_rows_have_no_open_tour_and_the_proof_names_three_squares(tmp_path):
    """2 x 10^9, open: the four corners (and their neighbours) have one move each, more than
    the two ends a tour has (refused for memory before, with a message that contradicted itself)."""
    cert = tmp_path / "p.json"
    run = _capped("exists", "2", "1000000000", "--open", "--cert", cert)
    assert run.returncode == 1, run.stderr
    proof = json.loads(cert.read_text())
    assert proof["method"] == "degree" and len(proof["squares"]) == 3
    assert check_proof(proof).evidence[0] == "ends-needed"
    assert _capped("verify", cert).returncode == 0


@pytest.mark.slow  # a 10^7-square board refuted, written and verified under a 2 GB cap: 8 s
def test_a_frame_two_wide_round_a_huge_hole_is_refuted_and_verified_within_two_gigabytes(tmp_path):
    """20000 x 20000 minus 19996 x 19996 (159,984 squares of 4 x 10^8): the moves forced by
    squares with two moves close into four cycles. 12.6 GB and unknown at the limit before."""
    cert = tmp_path / "frame.json"
    run = _capped("exists", "20000", "20000", "--hole", "2,2,19996x19996", "--cert", cert, "--json")
    assert run.returncode == 1, run.stderr
    out = json.loads(run.stdout)
    assert out["answer"] == "no" and out["board"]["squares"] == 20000 ** 2 - 19996 ** 2
    assert len(out["board"]["live"]) == out["board"]["squares"] and "holes" not in out["board"]
    proof = json.loads(cert.read_text())
    assert proof["board"]["rows"] == 20000 and len(proof["board"]["squares"]) == 159_984
    assert (proof["method"], proof["separator"], proof["reduced"]) == ("separator", [], True)
    verified = _capped("verify", cert)
    assert verified.returncode == 0, verified.stderr
    assert "leaves 4 components after the forced-move reduction" in verified.stdout


def test_a_refusal_for_memory_says_what_may_be_used(monkeypatch):
    """Needing 18.6 GiB with 22.3 GiB available is refused because only 80% may be used: the
    message says that, rather than the two figures alone."""
    from kt_formal import memory
    from kt_formal.exceptions import ResourceLimit

    monkeypatch.setattr(memory, "available_memory", lambda: int(22.3 * (1 << 30)))
    with pytest.raises(ResourceLimit) as err:
        memory.ensure_memory(18.6 * (1 << 30), "degrees of the 2x1000000000 board")
    text = str(err.value)
    assert "needs about 18.6 GiB; at most 17.8 GiB of memory may be used (80% of the 22.3 GiB available" in text
    with pytest.raises(ResourceLimit, match=r"needs about [\d,]{13,} bytes; at most [\d,]{13,} bytes"):
        memory.ensure_memory(0.8 * 22.3 * (1 << 30) + 1000, "work close to the bound")


# ---------------------------------------------------------------- the board kept as its squares
def _random_rects(rng, rows, cols, k):
    out = []
    for _ in range(k):
        h, w = int(rng.integers(1, rows + 1)), int(rng.integers(1, cols + 1))
        out.append((int(rng.integers(0, rows - h + 1)), int(rng.integers(0, cols - w + 1)), h, w))
    return out


@pytest.mark.parametrize("seed", range(15))
def test_a_board_kept_as_its_squares_is_the_board_of_its_holes(seed):
    """Listing the squares left by hole rectangles (a band of rows at a time) gives the board
    the hole mask gives: equal, same hash, colours, squares, holes, degrees, symmetries."""
    rng = np.random.default_rng(seed)
    rows, cols = int(rng.integers(1, 25)), int(rng.integers(1, 25))
    rects = _random_rects(rng, rows, cols, int(rng.integers(1, 5)))
    singles = [(int(rng.integers(rows)), int(rng.integers(cols))) for _ in range(int(rng.integers(0, 4)))]
    dense = Board.from_spec(rows, cols, rects, singles)
    live = rect_squares(rows, cols, rects, singles, most=rows * cols)
    if live.size == 0:
        return
    sparse = Board(rows, cols, live=live)
    assert sparse.sparse and not dense.sparse
    assert sparse == dense and hash(sparse) == hash(dense)
    assert sparse.colour_counts() == dense.colour_counts() and sparse.n_squares == dense.n_squares
    assert sparse.squares() == dense.squares() and sparse.holes() == dense.holes()
    assert sparse.first_holes(5) == dense.first_holes(5)
    assert sparse.low_degree_squares(3, 7) == dense.low_degree_squares(3, 7)
    assert all(sparse.is_live(r, c) == dense.is_live(r, c) for r in range(-1, rows + 1) for c in range(-1, cols + 1))
    for sym in ("rot90", "transpose", "antitranspose"):
        assert sparse.transformed(sym) == dense.transformed(sym)
    assert rect_squares(rows, cols, rects, singles, most=live.size - 1) is None


@pytest.mark.parametrize("rows,cols", [(1, 7), (2, 9), (3, 3), (3, 8), (2, 2), (1, 1)])
def test_the_low_squares_of_a_plain_strip_are_those_of_its_degree_array(rows, cols):
    """The squares of few moves of a board without holes, named from the spans of equal
    degree, are the first ones a scan of the whole degree array names."""
    b = Board(rows, cols)
    deg = b.degrees()
    for at_most, first in ((0, 1), (1, 5), (2, 30)):
        rr, cc = np.nonzero((deg >= 0) & (deg <= at_most))
        want = [((r, c), int(deg[r, c])) for r, c in zip(rr.tolist(), cc.tolist())][:first]
        assert b.low_degree_squares(at_most, first) == want


def test_a_large_board_given_by_rectangles_is_kept_as_its_squares():
    """Past 2^26 places, hole rectangles that leave few squares give a board of squares; the
    hole mask is made only when asked for."""
    b = Board.from_spec(9000, 9000, ["2,2,8996x8996"])
    assert b.sparse and b.n_squares == 9000 ** 2 - 8996 ** 2
    assert b.first_holes(2) == [(2, 2), (2, 3)]
    assert int(b.hole_mask.sum()) == b.n_holes


# ---------------------------------------------------------------- the forced-move proof
@pytest.mark.parametrize("rows,cols", [(12, 12), (13, 17), (16, 21), (22, 22), (24, 19)])
def test_frames_two_wide_have_no_closed_tour_by_the_forced_moves(rows, cols):
    """The proof is found, the kernel accepts it, and the board is indeed without a closed tour
    (the SAT route's DRUP proof, checked by the kernel, says so independently)."""
    from kt_formal.api import decide

    board = Board.from_spec(rows, cols, [f"2,2,{rows - 4}x{cols - 4}"])
    proof = find_reduction_proof(Question(board))
    claim = check_proof(proof)
    assert claim.evidence[0] == "separator" and claim.evidence[2] in (2, 4)
    if rows * cols <= 300:
        assert decide(board, engine="sat", time_limit=60).answer == "no"


def test_the_forced_move_proof_is_not_claimed_where_a_tour_exists():
    """A frame three wide round the hole has squares of three and more moves and a closed tour:
    no proof (and a holed board with a tour never gets one)."""
    board = Board.from_spec(14, 14, ["3,3,8x8"])
    assert find_reduction_proof(Question(board)) is None
    assert find_proof(Question(board)) is None


def _proof_by_squares(rows, cols, squares, **fields):
    d = {"format": "kt-formal/1", "kind": "proof", "method": "separator",
         "board": {"rows": rows, "cols": cols, "squares": [list(q) for q in squares]},
         "closed": True, "start": None, "end": None, "separator": [], "components": 4, "reduced": True}
    d.update(fields)
    return d


def test_the_kernel_reads_a_board_by_its_squares_as_the_board_of_its_holes():
    board = Board.from_spec(20, 20, ["2,2,16x16"])
    by_holes = find_reduction_proof(Question(board))
    by_squares = _proof_by_squares(20, 20, board.squares())
    assert check_proof(by_squares).evidence == check_proof(by_holes).evidence


@pytest.mark.parametrize("forge,match", [
    (lambda d: d.update(components=3), "leaves 4 components, not 3"),
    (lambda d: d["board"]["squares"].append(d["board"]["squares"][0]), "listed twice"),
    (lambda d: d["board"]["squares"].append([20, 0]), "outside"),
    (lambda d: d["board"].update(holes=[]), "both its holes and its squares"),
    (lambda d: d.update(components=5), "leaves 4 components, not 5"),
    (lambda d: d.update(board={"rows": 20, "cols": 20, "squares": [[r, c] for r in range(6) for c in range(6)]},
                        components=1), "which a tour allows"),
    (lambda d: d["board"].update(squares="all"), "list of"),
])
def test_forged_boards_by_their_squares_are_rejected(forge, match):
    """Squares listed twice, off the board, both lists, a board the proof does not fit."""
    d = _proof_by_squares(20, 20, Board.from_spec(20, 20, ["2,2,16x16"]).squares())
    forge(d)
    with pytest.raises(CertificateRejected, match=match):
        check_proof(d)


def test_a_board_by_its_squares_is_for_proofs_only_and_within_the_kernels_bound():
    """A tour certificate may not name its board by its squares; a reduced proof walks at most
    the kernel's bound of squares, counted as listed."""
    from kt_formal.kernel import check_certificate

    tour = {"format": "kt-formal/1", "kind": "tour", "board": {"rows": 1, "cols": 1, "squares": [[0, 0]]},
            "closed": False, "squares": [[0, 0]]}
    with pytest.raises(CertificateRejected, match="unknown field 'squares'"):
        check_certificate(tour)
    many = [(r, c) for r in range(MAX_REDUCED_SQUARES // 1000 + 1) for c in range(1000)]
    with pytest.raises(CertificateRejected, match="checked up to"):
        check_proof(_proof_by_squares(10 ** 6, 1000, many))


def test_an_engine_named_is_not_given_zero_seconds_when_the_proofs_took_the_limit(monkeypatch):
    """When the proof search uses the whole budget the named engine does not start (it was
    handed 0 s and refused it as bad input, exit 2, on a busy machine)."""
    import time

    from kt_formal import pipeline

    def slow(*args, **kwargs):
        time.sleep(0.05)

    monkeypatch.setattr(pipeline, "find_proof", slow)
    v = pipeline.decide(pipeline.Question(Board(40, 40, holes=[(1, 1), (2, 3)])), pipeline.Limits(0.01), engine="cpsat")
    assert v.answer == "unknown" and "ran out of time" in v.explanation
