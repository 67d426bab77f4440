"""The independent checker and certificates: valid tours pass, anything forged is rejected."""

import json

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kt_formal.board import Board
from kt_formal.certificate import check_tour, tour_from_dict, verify_certificate, verify_tour
from kt_formal.solve import find_tour
from kt_formal.exceptions import CertificateRejected, InvalidInput

BOARDS = {
    "8x8 closed": (Board(8, 8), True),
    "5x5 open": (Board(5, 5), False),
    "holed 6x6 closed": (Board(6, 6, holes=[(0, 0), (5, 4)]), True),
    "3x4 open": (Board(3, 4), False),
}
TOURS = {k: find_tour(b, closed=c, seed=2).tour for k, (b, c) in BOARDS.items()}


def brute_force_ok(board: Board, squares, closed: bool) -> bool:
    """A second, deliberately naive checker written from the definition."""
    live = {(r, c) for r in range(board.rows) for c in range(board.cols) if board.is_live(r, c)}
    if len(squares) != len(live) or set(squares) != live:
        return False
    steps = list(zip(squares, squares[1:])) + ([(squares[-1], squares[0])] if closed else [])
    if closed and len(squares) < 3:
        return False
    return all(sorted((abs(a[0] - b[0]), abs(a[1] - b[1]))) == [1, 2] for a, b in steps)


@pytest.mark.parametrize("name", TOURS)
def test_engine_tours_pass_both_checkers(name):
    t = TOURS[name]
    board, closed = BOARDS[name]
    assert check_tour(board, t, closed) is None
    assert brute_force_ok(board, t.squares(), closed)


mutation = st.sampled_from(["swap", "replace", "drop", "duplicate", "reverse_segment", "rotate",
                            "move_off", "shift"])


@given(name=st.sampled_from(sorted(TOURS)), kind=mutation, data=st.data())
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_mutated_tours_checked_exactly_like_brute_force(name, kind, data):
    t = TOURS[name]
    board, closed = BOARDS[name]
    sq = t.squares()
    n = len(sq)
    i = data.draw(st.integers(0, n - 1))
    j = data.draw(st.integers(0, n - 1))
    if kind == "swap":
        sq[i], sq[j] = sq[j], sq[i]
    elif kind == "replace":
        sq[i] = sq[j]
    elif kind == "drop":
        del sq[i]
    elif kind == "duplicate":
        sq.insert(i, sq[j])
    elif kind == "reverse_segment":
        a, b = sorted((i, j))
        sq[a:b + 1] = sq[a:b + 1][::-1]
    elif kind == "rotate":
        sq = sq[i:] + sq[:i]
    elif kind == "move_off":
        sq[i] = (sq[i][0] + data.draw(st.sampled_from([-9, 1, 9])), sq[i][1])
    elif kind == "shift":
        sq[i] = (sq[i][0], sq[i][1] + 1)
    expected = brute_force_ok(board, sq, closed)
    reason = check_tour(board, np.array(sq, dtype=np.int64).reshape(-1, 2), closed) if sq else "empty"
    assert (reason is None) == expected, (kind, reason)
    if kind in ("replace", "drop", "duplicate") and i != j:
        assert reason is not None  # these always break a tour
        assert len(reason) < 200


def test_first_violation_is_named():
    t = TOURS["8x8 closed"]
    sq = t.squares()
    sq[17] = (sq[17][0], (sq[17][1] + 2) % 8)
    reason = check_tour(Board(8, 8), np.array(sq), True)
    assert reason.startswith("step 17: ") and "is not a knight move" in reason


def test_specific_rejections():
    b = Board(3, 3, holes=[(1, 1)])
    ring = [(0, 0), (1, 2), (2, 0), (0, 1), (2, 2), (1, 0), (0, 2), (2, 1)]
    assert check_tour(b, np.array(ring), True) is None
    assert check_tour(b, np.array([(1, 1)] + ring[1:]), True) == "square 1: (1, 1) is a hole"
    assert check_tour(b, np.array(ring[:-1] + [(1, 1)]), True).startswith("step 7: ")
    assert "never visited" in check_tour(b, np.array(ring[:-1]), False)
    assert check_tour(b, np.array(ring[:-1] + [(1, 0)]), False) == "square 8: (1, 0) was already visited as square 6"
    assert "outside" in check_tour(b, np.array(ring[:-1] + [(5, 5)]), False)
    pair = Board(2, 3, holes=[(0, 1), (0, 2), (1, 0), (1, 1)])  # two squares a knight move apart
    assert "at least 3" in check_tour(pair, np.array([(0, 0), (1, 2)]), True)
    assert check_tour(pair, np.array([(0, 0), (1, 2)]), False) is None
    assert "not a knight move" in check_tour(Board(1, 3, holes=[(0, 1)]), np.array([(0, 0), (0, 2)]), False)
    assert "board" in check_tour(Board(4, 4), TOURS["3x4 open"], False)
    with pytest.raises(CertificateRejected, match="never visited"):
        verify_tour(b, np.array(ring[:5]), closed=False)


# ---------------------------------------------------------------------- JSON certificates
def cert(name="8x8 closed"):
    return json.loads(TOURS[name].to_json())


def test_certificate_round_trip():
    tour, claim = verify_certificate(cert())
    assert tour == TOURS["8x8 closed"]
    t = TOURS["8x8 closed"]
    assert tour_from_dict(cert()) == t
    first, last = t.board.square_name(t.squares()[0]), t.board.square_name(t.squares()[-1])
    assert claim == (f"closed tour of the 8x8 board from {first} to {last}: every square "
                     "visited once, every step a knight move, the closing move included")


TAMPER = {
    "format": (lambda d: d.__setitem__("format", "kt-formal/0"), "unknown certificate format"),
    "kind": (lambda d: d.__setitem__("kind", "poem"), "unknown certificate kind"),
    "no kind": (lambda d: d.pop("kind"), "unknown certificate kind None"),
    "rows str": (lambda d: d["board"].__setitem__("rows", "8"), "must be an integer"),
    "rows huge": (lambda d: d["board"].__setitem__("rows", 10**12), "from 1 to"),
    "hole twice": (lambda d: d["board"].__setitem__("holes", [[0, 0], [0, 0]]), "listed twice"),
    "rows float": (lambda d: d["board"].__setitem__("rows", 8.0), "must be an integer"),
    "rows bool": (lambda d: d["board"].__setitem__("rows", True), "must be an integer"),
    "wrong board": (lambda d: d["board"].__setitem__("rows", 9), "never visited"),
    "smaller board": (lambda d: d["board"].__setitem__("cols", 7), "outside|the board has 56"),
    "bad hole": (lambda d: d["board"].__setitem__("holes", [[99, 0]]), "outside"),
    "hole on tour": (lambda d: d["board"].__setitem__("holes", [[0, 0]]), "hole|the board has 63"),
    "closed str": (lambda d: d.__setitem__("closed", "yes"), "true or false"),
    "squares dict": (lambda d: d.__setitem__("squares", {"a": 1}), "list"),
    "square triple": (lambda d: d["squares"].__setitem__(3, [1, 2, 3]), "pair"),
    "square str": (lambda d: d["squares"].__setitem__(3, ["1", 2]), "integer"),
    "square null": (lambda d: d["squares"].__setitem__(3, None), "pair"),
    "empty": (lambda d: d.__setitem__("squares", []), "empty"),
    "duplicate": (lambda d: d["squares"].__setitem__(5, d["squares"][9]), "already visited|knight"),
    "missing": (lambda d: d["squares"].pop(), "never visited|closing"),
    "extra field": (lambda d: d.__setitem__("admin", True), "unknown field"),
    "board list": (lambda d: d.__setitem__("board", [8, 8]), "must be an object"),
    "open claims closed": (lambda d: d.__setitem__("closed", True), "closing move"),
}


@pytest.mark.parametrize("case", sorted(TAMPER))
def test_tampered_certificates_are_rejected(case):
    mutate, match = TAMPER[case]
    d = cert("5x5 open" if case == "open claims closed" else "8x8 closed")
    mutate(d)
    with pytest.raises(CertificateRejected, match=match):
        verify_certificate(d)


@pytest.mark.parametrize("payload", [[], "tour", 3, None, {"format": "kt-formal/1"}])
def test_not_a_certificate(payload):
    with pytest.raises(CertificateRejected):
        verify_certificate(payload)


def test_tour_from_dict_requires_tour_kind():
    d = cert()
    d["kind"] = "proof"
    with pytest.raises(CertificateRejected, match="not a kt-formal/1 tour certificate"):
        tour_from_dict(d)


def test_read_certificate_errors(tmp_path):
    from kt_formal.certificate import read_certificate

    p = tmp_path / "t.json"
    p.write_text(TOURS["8x8 closed"].to_json()[:-40])
    with pytest.raises(CertificateRejected, match="not valid JSON"):
        read_certificate(p)
    with pytest.raises(InvalidInput, match="does not exist"):
        read_certificate(tmp_path / "missing.json")
    p.write_bytes(b"\x80\x81")
    with pytest.raises(CertificateRejected, match="not UTF-8"):
        read_certificate(p)
    p.write_text("[" * 100000)
    with pytest.raises(CertificateRejected):
        read_certificate(p)
