"""Impossibility proofs: every finder's proof passes the checker, tampered proofs do not,
and the checker never accepts a claim that a second engine refutes."""

from __future__ import annotations

import copy
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kt_formal.board import Board
from kt_formal.certificate import verify_certificate
from kt_formal.solve import find_tour
from kt_formal.question import Question, Status
from kt_formal.exceptions import CertificateRejected
from kt_formal.proofs import (
    check_proof,
    explain,
    find_alternation_proof,
    find_colour_proof,
    find_hall_proof,
    find_proof,
    find_separator_proof,
    make_proof,
)


def truth(board: Board, closed: bool, start=None, end=None) -> bool:
    """Whether the tour exists, by CP-SAT (with the degree-0 case decided directly:
    the CP-SAT engine drops squares without moves from its circuit)."""
    if board.n_squares >= 2 and (board.degrees() == 0).any():
        return False
    r = find_tour(board, closed=closed, start=start, end=end, engine="cpsat", time_limit=60)
    assert r.status is not Status.UNKNOWN
    return r.status is Status.FOUND


def rejected(d, match=None):
    with pytest.raises(CertificateRejected, match=match):
        verify_certificate(d)


# ---------------------------------------------------------------- each method
CASES = [
    # (rows, cols, holes, closed, start, end, method)
    (5, 5, [], True, None, None, "colour"),
    (6, 5, [(0, 0), (0, 2)], False, None, None, "colour"),
    (6, 6, [], False, (0, 0), (5, 5), "colour"),          # equal counts, ends of one colour
    (5, 5, [], False, (0, 1), None, "colour"),            # odd count, end of the minority colour
    (8, 8, [], True, (0, 0), (0, 1), "ends"),
    (5, 5, [], False, (2, 2), (2, 2), "ends"),
    (2, 9, [], True, None, None, "degree"),
    (2, 9, [], False, None, None, "degree"),
    (3, 3, [], False, None, None, "degree"),
    (6, 6, [(1, 2), (4, 3), (2, 2), (3, 3)], False, (0, 5), None, "degree"),  # two corners with one move
    (4, 9, [], True, None, None, "alternation"),
    (3, 4, [], True, None, None, "alternation"),
    (3, 5, [], False, None, None, "alternation"),
    (4, 4, [], False, None, None, "separator"),
    (3, 6, [], False, None, None, "separator"),
    (3, 8, [], True, None, None, "separator"),
    (3, 8, [], False, (0, 2), (0, 3), "separator"),       # open, closed through virtual squares
    (8, 3, [(6, 2), (5, 2)], False, None, None, "separator"),
    (4, 8, [(1, 6), (2, 6), (3, 5)], False, None, None, "alternation"),  # open, odd board
    # a 3x6 hole leaves two-row bridges: balanced, every degree >= 2, no separator; no 2-factor
    (7, 16, [(r, c) for r in range(2, 5) for c in range(5, 11)], True, None, None, "hall"),
    (7, 16, [(r, c) for r in range(2, 5) for c in range(5, 11)], False, None, None, "hall"),  # short by 2
    (8, 9, [(r, c) for r in range(1, 7) for c in range(3, 6)], False, None, None, "hall"),
]


@pytest.mark.parametrize("rows,cols,holes,closed,start,end,method", CASES)
def test_finders_make_checked_proofs_that_are_true(rows, cols, holes, closed, start, end, method):
    b = Board(rows, cols, holes=holes)
    p = find_proof(Question(b, closed=closed, start=start, end=end), thorough=True)
    assert p is not None and p["method"] == method
    _, summary = verify_certificate(json.loads(json.dumps(p)))
    assert summary.startswith("no ")
    assert explain(p).startswith("No ")
    assert truth(b, closed, start, end) is False


@pytest.mark.parametrize("rows,cols,closed,thorough", [
    (8, 8, True, False), (6, 7, False, False), (5, 6, True, True), (5, 5, False, True),
    (3, 4, False, True), (3, 7, False, True), (4, 5, False, True), (3, 10, True, True)])
def test_no_proof_where_a_tour_exists(rows, cols, closed, thorough):
    b = Board(rows, cols)
    assert truth(b, closed) is True
    assert find_proof(Question(b, closed=closed), thorough=thorough) is None


def test_colour_explanation_matches_the_issue():
    p = find_colour_proof(Question(Board(5, 5), closed=True))
    assert explain(p) == ("No closed tour: the board has 13 dark and 12 light squares; "
                          "a closed tour alternates colours.")


def test_posa_proof_is_linear_in_n():
    sizes = {}
    for n in (500, 1000, 2000):
        p = find_alternation_proof(Question(Board(4, n), closed=True))
        assert p["method"] == "alternation" and len(p["independent"]) == 2 * n
        check_proof(p)
        sizes[n] = len(json.dumps(p))
    assert sizes[2000] < 2.2 * sizes[1000] and sizes[1000] < 2.2 * sizes[500]


def test_3x8_closed_needs_the_reduction():
    b = Board(3, 8)
    assert find_separator_proof(Question(b, True), thorough=True, max_size=4, budget=20_000)["reduced"] is True
    plain = find_proof(Question(b, closed=True), thorough=True)
    plain["reduced"] = False
    rejected(plain, "leaves 3 components, not 5")
    plain["components"] = 3
    rejected(plain, "which a tour allows")


# ---------------------------------------------------------------- tampering
def proof_of(rows, cols, closed=True, holes=(), start=None, end=None):
    return find_proof(Question(Board(rows, cols, holes=list(holes)), closed=closed, start=start, end=end), thorough=True)


def test_colour_count_that_lies():
    p = proof_of(5, 5)
    p["dark"] = 12
    rejected(p, "13 dark and 12 light")
    q = make_proof(Question(Board(6, 6), True), "colour", dark=18, light=18)
    rejected(q, "do not rule out")
    q = make_proof(Question(Board(6, 6), True), "colour", dark=19, light=17)
    rejected(q, "18 dark and 18 light")


def test_wrong_separator():
    p = proof_of(4, 4, closed=False)
    p["separator"] = p["separator"][1:]
    rejected(p)
    p = proof_of(4, 4, closed=False)
    p["components"] += 1
    rejected(p, "components, not")
    p = proof_of(3, 8)
    p["separator"][0] = [1, 0]
    rejected(p)
    p = proof_of(3, 8)
    p["separator"].append([1, 4])  # a larger set allows more pieces
    rejected(p)


def test_virtual_squares_are_checked():
    p = proof_of(8, 3, False, holes=[(6, 2), (5, 2)])
    assert p["reduced"] is True and p["virtual"] == ["z"]
    q = copy.deepcopy(p)
    q["virtual"] = []
    rejected(q)
    q = copy.deepcopy(p)
    q["virtual"] = ["z", "w"]  # w exists only with exactly one fixed end
    rejected(q, "exactly one fixed end")
    q = copy.deepcopy(p)
    q["virtual"] = ["y"]
    rejected(q, "virtual")
    q = copy.deepcopy(p)
    q["reduced"] = False
    rejected(q, "virtual squares belong")
    q = copy.deepcopy(p)
    q["closed"] = True
    rejected(q)
    r = proof_of(3, 8, False, start=(0, 2), end=(0, 3))
    r["end"] = [2, 7]  # c3 -> h1: a different question, and such a tour exists
    rejected(r)


def test_set_that_is_not_independent():
    p = proof_of(4, 10)
    p["independent"][0] = [1, 0]
    p["independent"][1] = [2, 2]  # (1,0)-(2,2) is a knight move; the size stays 20
    rejected(p, "not independent")


def test_one_colour_set_is_no_proof():
    # the dark squares of a 4x4 minus... a monochrome independent half
    b = Board(6, 6)
    half = [[r, c] for r in range(6) for c in range(6) if (r + c) % 2 == 0]
    rejected(make_proof(Question(b, True), "alternation", independent=half), "one colour")
    rejected(make_proof(Question(b, True), "alternation", independent=half[:-1]), "not half")


BRIDGED = Board.from_spec(7, 16, ["2,5,3x6"])


def test_hall_proof_is_checked_by_recounting():
    p = find_hall_proof(Question(BRIDGED))
    x = p["squares"]
    assert len({(r + c) % 2 for r, c in x}) == 1
    _, summary = verify_certificate(json.loads(json.dumps(p)))
    assert "need 52 tour moves" in summary and "at most 50" in summary
    # 5x6 minus a 2x3 block on its edge: short by one move, so no closed tour; an open tour
    # (colours balanced, so one end among the set) needs one move less, and has room: it exists
    edge = find_hall_proof(Question(Board.from_spec(5, 6, [(3, 0, 2, 3)])))
    verify_certificate(edge)
    edge["closed"] = False
    rejected(edge, "which an open tour allows")
    assert find_hall_proof(Question(Board.from_spec(5, 6, [(3, 0, 2, 3)]), closed=False)) is None
    q = copy.deepcopy(p)
    q["squares"].append([x[0][0], x[0][1] + 1] if [x[0][0], x[0][1] + 1] not in x else [x[0][0] + 1, x[0][1]])
    rejected(q, "both colours")
    q = copy.deepcopy(p)
    q["squares"] = x[:3]  # three squares alone have room enough
    rejected(q, "which a closed tour allows")
    q = copy.deepcopy(p)
    q["squares"].append([3, 7])  # a hole
    rejected(q)
    q = copy.deepcopy(p)
    q["squares"] = []
    rejected(q, "empty")
    q = copy.deepcopy(p)
    q["board"]["holes"] = []  # the whole 7x16 board, which has a closed tour
    rejected(q, "which a closed tour allows")


@pytest.mark.parametrize("rows,cols,rect", [(5, 6, (3, 0, 2, 3)), (5, 8, (1, 3, 2, 2)), (8, 9, (1, 3, 6, 3))])
def test_hall_proof_where_no_cheap_proof_applies(rows, cols, rect):
    b = Board.from_spec(rows, cols, [rect])
    assert find_proof(Question(b, closed=True)) is None  # colour, degree, alternation, separator: none
    p = find_hall_proof(Question(b))
    verify_certificate(json.loads(json.dumps(p)))
    assert explain(p).startswith("No closed tour: a closed tour gives each of the ")
    assert truth(b, True) is False


def test_every_dark_square_is_no_hall_proof():
    b = Board(8, 8)
    dark = [[r, c] for r in range(8) for c in range(8) if (r + c) % 2 == 0]
    rejected(make_proof(Question(b, True), "hall", squares=dark), "which a closed tour allows")


@pytest.mark.parametrize("rows,cols,holes,closed", [
    (8, 8, (), True), (6, 6, ((2, 2), (2, 3)), True), (7, 16, (), True), (12, 12, (), True),
    (5, 6, ((3, 0), (3, 1), (3, 2), (4, 0), (4, 1), (4, 2)), False), (7, 7, (), False), (5, 5, ((2, 2),), False)])
def test_no_hall_proof_where_a_tour_exists(rows, cols, holes, closed):
    b = Board(rows, cols, holes=list(holes))
    assert find_hall_proof(Question(b, closed)) is None
    assert truth(b, closed) is True


def test_open_hall_proof_counts_the_ends_the_colours_allow():
    """3x6 minus a corner: 17 squares, 9 of one colour and 8 of the other, so both ends of an
    open tour lie on the majority colour; the minority's squares need two moves each."""
    from kt_formal.kernel.proofcheck import hall_ends
    from kt_formal.kernel.shape import shape_from_dict

    b = Board.from_spec(3, 6, [(0, 0, 1, 1)])
    p = find_hall_proof(Question(b, closed=False))
    _, summary = verify_certificate(json.loads(json.dumps(p)))
    assert "less 0 for the ends of the tour" in summary
    shape = shape_from_dict(p["board"])
    x = [tuple(q) for q in p["squares"]]
    assert hall_ends(shape, False, None, None, x) == 0
    assert hall_ends(shape, True, None, None, x) == 0
    assert "at most 0 ends can lie among these squares" in explain(p)
    assert truth(b, False) is False
    # balanced colours: one end of each colour; a fixed end of the set's colour outside it
    # leaves none for the set
    bal = Board(6, 6)
    dark = [q for q in bal.squares() if bal.is_dark(*q)]
    sd = shape_from_dict({"rows": 6, "cols": 6, "holes": []})
    light = next(q for q in bal.squares() if not bal.is_dark(*q))
    assert hall_ends(sd, False, None, None, dark[:3]) == 1
    assert hall_ends(sd, False, dark[5], None, dark[:3]) == 0
    assert hall_ends(sd, False, dark[1], None, dark[:3]) == 1
    assert hall_ends(sd, False, light, None, dark[:3]) == 1


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(4, 8), st.integers(4, 9), st.integers(1, 4), st.integers(1, 6), st.booleans(), st.data())
def test_hall_proofs_found_are_accepted_and_true(rows, cols, h, w, closed, data):
    """A random rectangular hole, closed or open, ends fixed or not: whenever the flow finds a
    proof, the kernel accepts it and CP-SAT finds no tour."""
    h, w = min(h, rows - 2), min(w, cols - 2)
    top = data.draw(st.integers(0, rows - h))
    left = data.draw(st.integers(0, cols - w))
    b = Board.from_spec(rows, cols, [(top, left, h, w)])
    squares = b.squares()
    start = data.draw(st.sampled_from([None] + squares))
    end = data.draw(st.sampled_from([None] + [q for q in squares if q != start]))
    p = find_hall_proof(Question(b, closed, start, end))
    if p is not None and not (b.degrees() == 0).any():
        verify_certificate(json.loads(json.dumps(p)))
        assert truth(b, closed, start, end) is False


def test_wrong_board():
    p = proof_of(4, 10)
    p["board"]["rows"] = 5
    rejected(p)
    p = proof_of(4, 10)
    p["board"]["holes"] = [[1, 1], [2, 2]]
    rejected(p)
    p = proof_of(5, 5)
    p["board"] = {"rows": 5, "cols": 6, "holes": []}
    rejected(p)
    p = proof_of(3, 8)
    p["closed"] = False  # 3x8 has an open tour
    rejected(p)


@pytest.mark.parametrize("field,value", [
    ("closed", "yes"), ("closed", 1), ("dark", "13"), ("dark", 13.0), ("dark", True),
    ("board", [5, 5]), ("start", [0]), ("start", ["a", 1]), ("method", 3), ("method", "magic"),
    ("format", "kt-formal/0"), ("extra", 1),
])
def test_wrong_types(field, value):
    p = proof_of(5, 5)
    p[field] = value
    rejected(p)


def test_wrong_types_in_lists():
    for key, bad in (("separator", [[0, "1"]]), ("separator", "c3"), ("separator", [[0, 1, 2]]),
                     ("separator", [[0, 2], [0, 2]]), ("components", 5.0)):
        p = proof_of(3, 8)
        p[key] = bad
        rejected(p)
    p = proof_of(2, 9)
    p["degrees"] = [1.0]
    rejected(p)
    p = proof_of(2, 9)
    p["squares"] = [[0, 4]]  # a middle square has two moves
    rejected(p)
    p = proof_of(4, 4, closed=False)
    del p["components"]
    rejected(p, "no 'components'")


def test_ends_proofs_are_checked():
    p = proof_of(8, 8, True, start=(0, 0), end=(0, 1))
    p["end"] = [1, 2]  # a knight move from a8
    rejected(p, "knight move")
    p = proof_of(5, 5, False, start=(2, 2), end=(2, 2))
    p["end"] = [0, 0]
    rejected(p)
    p = make_proof(Question(Board(1, 1), False, (0, 0), (0, 0)), "ends")
    rejected(p, "one-square")


def test_exhaustive_proof_of_a_board_that_has_a_tour_is_rejected():
    # 3x10 has a closed tour: a record claiming otherwise fails the re-run
    from kt_formal.proofs.replay import replay_exhaustive

    p = make_proof(Question(Board(3, 10), True), "exhaustive", engine="exhaustive", nodes=10**6, pruning="none")
    rejected(p, "NOT CHECKED")  # the kernel runs no search
    with pytest.raises(CertificateRejected, match="found a tour"):
        replay_exhaustive(p)


def test_verify_command_checks_proofs(tmp_path, cli_proc):
    good = tmp_path / "good.json"
    good.write_text(json.dumps(proof_of(3, 8)))
    bad_p = proof_of(5, 5)
    bad_p["light"] = 13
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(bad_p))
    truncated = tmp_path / "cut.json"
    truncated.write_text(good.read_text()[:-20])
    r = cli_proc("verify", good)
    assert r.code == 0 and r.out.startswith("OK: no closed tour of the 3x8 board")
    r = cli_proc("verify", bad)
    assert r.code == 1 and r.out.startswith("REJECTED: the board has 13 dark and 12 light")
    r = cli_proc("verify", truncated)  # a corrupted certificate is rejected, with the place
    assert r.code == 1 and r.out.startswith("REJECTED: not valid JSON (line 1") and r.err == ""


# ---------------------------------------------------------------- mutation (hypothesis)
SOURCES = [
    (5, 5, (), True, None, None), (4, 6, (), True, None, None), (3, 8, (), True, None, None),
    (4, 4, (), False, None, None), (3, 5, (), False, None, None), (2, 5, (), False, None, None),
    (6, 6, (), False, (0, 0), (5, 5)), (8, 8, (), True, (0, 0), (0, 1)), (3, 4, (), True, None, None),
    (3, 6, (), False, None, None), (5, 6, ((0, 0),), True, None, None),
    (3, 8, (), False, (0, 2), (0, 3)), (8, 3, ((6, 2), (5, 2)), False, None, None),
    (7, 16, tuple((r, c) for r in range(2, 5) for c in range(5, 11)), True, None, None),
]
_PROOFS = {}


def source_proof(i):
    if i not in _PROOFS:
        rows, cols, holes, closed, s, e = SOURCES[i]
        _PROOFS[i] = proof_of(rows, cols, closed, holes, s, e)
    return copy.deepcopy(_PROOFS[i])


def mutate(p, data):
    kind = data.draw(st.sampled_from(["int", "list-drop", "list-add", "list-move", "closed",
                                      "board", "ends", "method"]))
    lists = [k for k in ("separator", "independent", "squares") if k in p]
    ints = [k for k in ("dark", "light", "components") if k in p]
    if kind == "int" and ints:
        k = data.draw(st.sampled_from(ints))
        p[k] += data.draw(st.integers(-3, 3).filter(bool))
    elif kind.startswith("list") and lists:
        k = data.draw(st.sampled_from(lists))
        items = p[k]
        if kind == "list-drop" and items:
            del items[data.draw(st.integers(0, len(items) - 1))]
            if k == "squares" and "degrees" in p:
                p["degrees"] = p["degrees"][: len(items)]
        elif kind == "list-add":
            b = p["board"]
            items.append([data.draw(st.integers(0, b["rows"] - 1)), data.draw(st.integers(0, b["cols"] - 1))])
        elif items:
            i = data.draw(st.integers(0, len(items) - 1))
            items[i][data.draw(st.integers(0, 1))] += data.draw(st.sampled_from([-2, -1, 1, 2]))
    elif kind == "closed":
        p["closed"] = not p["closed"]
    elif kind == "board":
        key = data.draw(st.sampled_from(["rows", "cols"]))
        p["board"][key] = max(1, p["board"][key] + data.draw(st.sampled_from([-1, 1, 2])))
    elif kind == "ends":
        b = p["board"]
        key = data.draw(st.sampled_from(["start", "end"]))
        p[key] = data.draw(st.one_of(st.none(), st.tuples(st.integers(0, b["rows"] - 1),
                                                           st.integers(0, b["cols"] - 1)).map(list)))
    else:
        p["method"] = data.draw(st.sampled_from(["colour", "degree", "separator", "alternation", "ends", "hall"]))
    return p


def _never_accepts_a_false_claim(data):
    """A source proof mutated 1 to 3 times: rejected, or its claim true (CP-SAT)."""
    i = data.draw(st.integers(0, len(SOURCES) - 1))
    p = source_proof(i)
    for _ in range(data.draw(st.integers(1, 3))):
        p = mutate(p, data)
    try:
        verify_certificate(p)
    except CertificateRejected:
        return
    # accepted: the claim must be true (checked by CP-SAT on the mutated question)
    b = Board(p["board"]["rows"], p["board"]["cols"], holes=[tuple(h) for h in p["board"]["holes"]])
    start = tuple(p["start"]) if p["start"] is not None else None
    end = tuple(p["end"]) if p["end"] is not None else None
    assert truth(b, p["closed"], start, end) is False, p


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_checker_never_accepts_a_false_claim(data):
    _never_accepts_a_false_claim(data)


@pytest.mark.slow  # the same at length: 400 mutated proofs
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_checker_never_accepts_a_false_claim_at_length(data):
    _never_accepts_a_false_claim(data)


@pytest.mark.parametrize("seed", range(20))
def test_the_first_squares_short_of_moves_are_those_a_full_scan_lists_first(seed):
    """The degree proof scans for its squares a block at a time and stops at the few it
    needs (a list of every square of a 10^9 strip took gigabytes): the squares it finds are
    the first ones, in row-major order, that a scan of the whole array lists."""
    import numpy as np

    from kt_formal.board import first_positions

    rng = np.random.default_rng(seed)
    rows = int(rng.integers(1, 40))
    cols = int(rng.integers(5_000_000, 10_000_000)) // rows  # two or three blocks of 2^22
    deg = rng.integers(-1, 9, size=(rows, cols)).astype(np.int16)
    deg[deg <= 1] = rng.integers(2, 9)  # few low squares, scattered over the blocks
    for _ in range(int(rng.integers(0, 8))):
        deg[rng.integers(rows), rng.integers(cols)] = rng.integers(-1, 2)
    for at_most, first in ((0, 1), (1, 1), (1, 5)):
        rr, cc = np.nonzero((deg >= 0) & (deg <= at_most))
        low = first_positions(deg, first, lambda part: (part >= 0) & (part <= at_most))
        assert low == list(zip(rr.tolist(), cc.tolist()))[:first]


def test_a_strip_of_a_hundred_million_squares_is_refuted_at_once(cli_proc):
    """1 x 10^8 has no open tour (no square has a move): the degree proof names one square,
    without listing the 10^8 that have none (13 GB and half a minute before)."""
    import resource

    run = cli_proc("exists", "1", "100000000", "--open", timeout=120)
    assert run.code == 1, run.err
    # beyond 26 columns squares are printed as ROW,COL (chess names with --squares chess)
    assert "square 0,0 has no knight move" in run.out + run.err
    assert resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss < 3_000_000  # KB
