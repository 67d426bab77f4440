"""Narrow boards (a side of 1 to 4): strip_construct, its library pieces and the narrow engine."""

import dataclasses

import numpy as np
import pytest

from kt_formal.combine import library
from kt_formal.board import Board
from kt_formal.certificate import check_tour
from kt_formal.combine import strips
from kt_formal.combine.strips import STRIP_PIECES, plan, strip_construct
from kt_formal.solve import find_tour
from kt_formal.question import Status


def theorem_closed(m, n):
    """Schwenk (reference.md), written out here independently of the module."""
    m, n = sorted((m, n))
    if m % 2 and n % 2:
        return False
    if m in (1, 2, 4):
        return False
    if m == 3 and n in (4, 6, 8):
        return False
    return True


def theorem_open(m, n):
    """Open tours exist iff 1x1, 3x4, 3xn n>=7, 4xn n>=5, or m, n >= 5 (reference.md)."""
    m, n = sorted((m, n))
    return (m, n) == (1, 1) or (m, n) == (3, 4) or (m == 3 and n >= 7) or (m == 4 and n >= 5) or m >= 5


@pytest.mark.parametrize("m", [1, 2, 3, 4])
@pytest.mark.parametrize("closed", [True, False], ids=["closed", "open"])
def test_every_narrow_board_up_to_60(m, closed):
    theorem = theorem_closed if closed else theorem_open
    built = 0
    for n in range(1, 61):
        for rows, cols in ((m, n), (n, m)):
            tour = strip_construct(rows, cols, closed)
            assert (tour is not None) == theorem(rows, cols), (rows, cols, closed)
            if tour is None:
                continue
            assert tour.board == Board(rows, cols) and tour.closed == closed
            assert check_tour(Board(rows, cols), tour.order, closed=closed) is None, (rows, cols)
            built += 1
    expected = {(1, True): 0, (2, True): 0, (4, True): 0, (1, False): 2, (2, False): 0,
                (3, True): 2 * 26, (3, False): 2 * 55, (4, False): 2 * 56 + 2}
    assert built == expected[m, closed]


@pytest.mark.parametrize("rows, cols, closed", [
    (3, 100_000, True), (3, 100_000, False), (4, 100_001, False), (100_000, 3, True), (3, 100_001, False),
])
def test_large_strips_verify(rows, cols, closed):
    tour = strip_construct(rows, cols, closed)
    assert len(tour) == rows * cols
    assert check_tour(Board(rows, cols), tour.order, closed=closed) is None


def test_open_tour_fails_the_closed_check():
    """The checker is not blind: an open 4-row tour is not closed."""
    tour = strip_construct(4, 50, closed=False)
    assert check_tour(tour.board, tour.order, closed=True) is not None


def test_plan_widths_add_up():
    for rows, closed in ((3, True), (3, False), (4, False)):
        for n in range(rows, 300):
            steps = plan(rows, n, closed)
            assert (steps is not None) == (theorem_closed if closed else theorem_open)(rows, n)
            if steps:
                assert sum(STRIP_PIECES[name].cols * k for name, k in steps) == n
                assert all(k >= 0 for _, k in steps)


def test_library_pieces_check_and_decode():
    report = dict(library.check_library())
    for name in STRIP_PIECES:
        assert name in report and report[name] is None, (name, report.get(name))
        paths = strips.piece_paths(name)
        p = STRIP_PIECES[name]
        assert len(paths) == len(p.paths)
        # the paths together cover the piece exactly once, by knight moves
        r = np.concatenate([pr for pr, _ in paths])
        c = np.concatenate([pc for _, pc in paths])
        assert sorted(zip(r.tolist(), c.tolist())) == [(i, j) for i in range(p.rows) for j in range(p.cols)]
        for pr, pc in paths:
            assert np.all(np.diff(pr) ** 2 + np.diff(pc) ** 2 == 5)
    specs = {s.name for s in library.all_specs()}
    assert set(STRIP_PIECES) <= specs


def test_two_path_piece_regenerates_and_wrong_pairing_is_caught():
    p = STRIP_PIECES["strip3-closed-middle-3x8"]
    stored = library.load_piece(p.name)
    again = library.build_piece(strips._encode(p))
    assert again.to_dict()["sha256"] == stored.to_dict()["sha256"]
    # the link moves do not fix how the ends pair up inside the piece: over a few seeds
    # (one worker, so each run repeats) CP-SAT pairs them both ways, and decoding must
    # refuse every wrong pairing while accepting the right ones
    outcomes = []
    for seed in range(12):
        spec = dataclasses.replace(p, seed=seed)
        piece = library.build_piece(strips._encode(spec), workers=1)
        try:
            strips.decode_paths(spec, piece.tour)
            outcomes.append("ok")
        except RuntimeError as exc:
            assert "expected" in str(exc)
            outcomes.append("refused")
    assert "refused" in outcomes and "ok" in outcomes, outcomes


def test_theorem_agrees_with_cpsat_on_small_boards():
    """Cross-check: CP-SAT proves/finds the same as the theorems on 3 x n and 4 x n, n <= 8."""
    for m in (3, 4):
        for n in range(4, 9):  # 3x3 has an isolated centre, which add_circuit would skip
            for closed in (True, False):
                r = find_tour(Board(m, n), closed=closed, engine="cpsat", time_limit=30)
                assert r.status is not Status.UNKNOWN
                assert r.found == (theorem_closed if closed else theorem_open)(m, n), (m, n, closed)


@pytest.mark.parametrize("rows, cols, closed, kw, status", [
    (3, 10, True, {"start": (1, 4)}, Status.FOUND),
    (10, 3, True, {}, Status.FOUND),
    (4, 9, False, {}, Status.FOUND),
    (4, 9, True, {}, Status.IMPOSSIBLE),
    (3, 8, True, {}, Status.IMPOSSIBLE),
    (3, 6, False, {}, Status.IMPOSSIBLE),
    (2, 2, False, {}, Status.IMPOSSIBLE),
    (1, 1, False, {}, Status.FOUND),
    (1, 1, True, {}, Status.IMPOSSIBLE),
    (6, 6, True, {}, Status.UNKNOWN),
    (3, 10, True, {"forced": [((0, 0), (1, 2))]}, Status.UNKNOWN),
])
def test_narrow_engine(rows, cols, closed, kw, status):
    r = find_tour(Board(rows, cols), closed=closed, engine="narrow", **kw)
    assert r.status is status
    if r.found:
        assert r.tour.check() is None
        if "start" in kw:
            assert r.tour.start == kw["start"]
    if status is Status.IMPOSSIBLE:
        assert "theorem" in r.message or "exists only" in r.message


def test_narrow_engine_open_ends():
    t = strip_construct(4, 20, closed=False)
    r = find_tour(Board(4, 20), closed=False, start=t.end, engine="narrow")
    assert r.found and r.tour.start == t.end and r.tour.check() is None
    inner = t.squares()[5]
    r = find_tour(Board(4, 20), closed=False, start=inner, engine="narrow")
    assert r.status is Status.UNKNOWN


def test_holes_unknown():
    r = find_tour(Board(3, 10, holes=[(0, 0)]), closed=False, engine="narrow")
    assert r.status is Status.UNKNOWN


def test_cli_narrow(cli):
    run = cli("tour", "3", "1000", "--engine", "narrow", "--format", "json", "--out", "/dev/null")
    assert run.code == 0 and "verified" in run.err
    run = cli("tour", "4", "1000", "--engine", "narrow")  # Posa's alternation proof first
    assert run.code == 1 and "Posa" in run.err


def test_refuses_wide_boards():
    with pytest.raises(ValueError):
        strip_construct(5, 5, closed=True)


def test_random_lengths_verify():
    rng = np.random.default_rng(4)
    for n in rng.integers(61, 5000, size=40).tolist():
        for rows, closed in ((3, True), (3, False), (4, False)):
            tour = strip_construct(rows, n, closed)
            assert (tour is not None) == (theorem_closed if closed else theorem_open)(rows, n)
            if tour is not None:
                assert check_tour(Board(rows, n), tour.order, closed=closed) is None, (rows, n)
            t = strip_construct(n, rows, closed)
            assert t is None if tour is None else t.check() is None


def test_corrupted_piece_is_refused(tmp_path, monkeypatch):
    import shutil

    from kt_formal.exceptions import CertificateRejected

    for path in library.models_dir().glob("strip3-*.json"):
        shutil.copy(path, tmp_path / path.name)
    victim = tmp_path / "strip3-open-element-3x4.json"
    victim.write_text(victim.read_text().replace("[0,0]", "[0,1]", 1))
    monkeypatch.setattr(library, "models_dir", lambda: tmp_path)
    strips.piece_paths.cache_clear()
    try:
        with pytest.raises(CertificateRejected):
            strip_construct(3, 101, closed=False)
    finally:
        strips.piece_paths.cache_clear()


def test_cli_too_long_is_refused(cli_proc):
    run = cli_proc("tour", "3", "2000000001", "--engine", "narrow")
    assert run.code == 2 and run.err.count("\n") == 1 and "Traceback" not in run.err


def test_port_conditions_of_the_chains():
    """Every joint between two consecutive pieces is a knight move (the design, spelled out)."""
    def ends(name):
        return [((int(r[0]), int(c[0])), (int(r[-1]), int(c[-1]))) for r, c in strips.piece_paths(name)]

    def knight(a, b):
        return (a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2 == 5

    # open 3 rows: element -> element, element -> every cap
    (s, e), = ends("strip3-open-element-3x4")
    assert knight(e, (s[0], s[1] + 4))
    for t in (7, 8, 9, 10):
        (cs, _), = ends(f"strip3-open-cap-3x{t}")
        assert knight(e, (cs[0], cs[1] + 4))
    # out and back: left -> middle -> middle -> right and back
    for left, mid, right, rights in (
            ("strip3-closed-left-3x4", "strip3-closed-middle-3x8", "strip3-closed-right-3x", (8, 10, 12, 14)),
            ("strip4-open-left-4x3", "strip4-open-middle-4x4", "strip4-open-right-4x", (5, 6, 7, 8))):
        wl, w = STRIP_PIECES[left].cols, STRIP_PIECES[mid].cols
        (sa, ea), (sb, eb) = ends(mid)
        shift = lambda sq, d: (sq[0], sq[1] + d)  # noqa: E731
        assert knight(ea, shift(sa, w)) and knight(shift(eb, w), sb)
        lp = ends(left)
        l_out, l_in = (lp[0][1], lp[0][0]) if len(lp) == 1 else (lp[0][1], lp[1][0])
        assert knight(l_out, shift(sa, wl)) and knight(shift(eb, wl), l_in)
        for t in rights:
            (rs, re), = ends(f"{right}{t}")
            assert knight(ea, shift(rs, w)) and knight(shift(re, w), sb)
            assert knight(l_out, shift(rs, wl)) and knight(shift(re, wl), l_in)  # no middle piece
