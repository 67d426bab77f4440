"""Existence verdicts: the theorems on every rectangle up to 30 x 30, holed boards against
CP-SAT, every certificate re-checked by `kt-formal verify` in a separate process."""

from __future__ import annotations

import json
import random

import pytest

from kt_formal.board import Board
from kt_formal.certificate import verify_certificate
from kt_formal.api import decide
from kt_formal.solve import find_tour
from kt_formal.question import Status
from kt_formal.exceptions import CertificateNotChecked, CertificateRejected, InvalidInput
from kt_formal.solve import run_engine


# The theorems, written here from the reference (not imported from kt_formal.pipeline).
def schwenk_closed(m: int, n: int) -> bool:
    """Schwenk 1991: closed tour unless m, n both odd; m in {1, 2, 4}; m = 3, n in {4, 6, 8}."""
    m, n = min(m, n), max(m, n)
    return not ((m % 2 == 1 and n % 2 == 1) or m in (1, 2, 4) or (m == 3 and n in (4, 6, 8)))


def open_classification(m: int, n: int) -> bool:
    """Open tour iff 1x1, 3x4, 3xn (n >= 7), 4xn (n >= 5), or m, n >= 5."""
    m, n = min(m, n), max(m, n)
    return ((m, n) in ((1, 1), (3, 4)) or (m == 3 and n >= 7) or (m == 4 and n >= 5)
            or (m >= 5 and n >= 5))


def verify_in_subprocess(cli_proc, tmp_path, certificates: dict) -> None:
    """Re-check EVERY certificate with `kt-formal verify` in a separate process (one call)."""
    paths = []
    for name, cert in certificates.items():
        p = tmp_path / f"{name}.json"
        p.write_text(json.dumps(cert))
        paths.append(p)
    r = cli_proc("verify", *paths, timeout=600)
    lines = r.out.splitlines()
    if len(paths) == 1:
        assert r.code == 0 and lines == [lines[0]] and lines[0].startswith("OK: "), (r.out, r.err)
        return
    assert r.code == 0, (r.out[-2000:], r.err)
    assert lines[-1] == f"{len(paths)} of {len(paths)} files verified"
    assert sum(": OK: " in ln for ln in lines) == len(paths)


def sweep(lo: int, hi: int, cli_proc, tmp_path):
    certs = {}
    for m in range(1, hi + 1):
        for n in range(max(m, lo), hi + 1):
            for closed in (True, False):
                v = decide(Board(m, n), closed=closed, time_limit=120)
                expected = schwenk_closed(m, n) if closed else open_classification(m, n)
                assert v.answer == ("yes" if expected else "no"), (m, n, closed, v)
                kinds = ("tour",) if expected else ("proof", "drup")
                assert v.certificate["kind"] in kinds
                _, summary = verify_certificate(v.certificate)
                assert summary.startswith(("closed" if closed else "open") if expected else "no ")
                certs[f"{m}x{n}-{'closed' if closed else 'open'}"] = v.certificate
    verify_in_subprocess(cli_proc, tmp_path, certs)
    return certs


@pytest.mark.slow
def test_rectangles_up_to_12(cli_proc, tmp_path):
    certs = sweep(1, 12, cli_proc, tmp_path)
    assert len(certs) == 2 * 78


@pytest.mark.slow
def test_rectangles_13_to_30(cli_proc, tmp_path):
    """Every m x n with n in 13..30 (m <= n): about 700 verdicts, most by a tour search."""
    certs = sweep(13, 30, cli_proc, tmp_path)
    assert len(certs) == 2 * (465 - 78)


def test_4x1000_is_no_by_alternation(cli_proc, tmp_path):
    v = decide(Board(4, 1000), closed=True)
    assert v.answer == "no" and v.route == "proof:alternation"
    assert v.certificate["method"] == "alternation" and len(v.certificate["independent"]) == 2000
    assert "Posa" in v.explanation
    cert = tmp_path / "p.json"
    r = cli_proc("exists", 4, 1000, "--cert", cert)
    assert r.code == 1 and r.out.startswith("No closed tour: the 2000 squares of the two outer rows")
    r = cli_proc("verify", cert)
    assert r.code == 0 and "no closed tour of the 4x1000 board" in r.out


def test_3x8_is_no_with_a_proof(cli_proc, tmp_path):
    v = decide(Board(3, 8), closed=True)
    assert v.answer == "no" and v.certificate["kind"] in ("proof", "drup")
    verify_in_subprocess(cli_proc, tmp_path, {"3x8": v.certificate})


def test_fixed_ends():
    v = decide(Board(8, 8), closed=False, start="a1", end="h8")
    assert v.answer == "no" and v.certificate["method"] == "colour"
    v = decide(Board(8, 8), closed=False, start="a1", end="h1")
    assert v.answer == "yes"
    squares = v.certificate["squares"]
    assert squares[0] == [7, 0] and squares[-1] == [7, 7]
    v = decide(Board(6, 6), closed=True, start=(0, 0), end=(1, 2))
    assert v.answer == "yes" and v.certificate["squares"][0] == [0, 0]
    assert v.certificate["squares"][-1] == [1, 2]
    v = decide(Board(6, 6), closed=True, start=(0, 0), end=(5, 5))
    assert v.answer == "no" and v.certificate["method"] == "ends"
    with pytest.raises(InvalidInput):
        decide(Board(5, 5), start=(9, 9))
    with pytest.raises(InvalidInput):
        decide(Board(5, 5, holes=[(2, 2)]), closed=False, start=(2, 2))


# ---------------------------------------------------------------- holed boards
def random_board(i: int):
    rng = random.Random(1000 + i)
    m, n = rng.randint(3, 8), rng.randint(3, 8)
    holes = rng.sample([(r, c) for r in range(m) for c in range(n)], rng.randint(0, 4))
    b = Board(m, n, holes=holes)
    closed = rng.random() < 0.5
    live = b.squares()
    start = rng.choice(live) if rng.random() < 0.25 else None
    end = rng.choice(live) if rng.random() < 0.25 else None
    return b, closed, start, end


HOLED = 120
@pytest.mark.parametrize("i", range(HOLED), ids=[f"board{i}" for i in range(HOLED)])
def test_holed_boards_agree_with_cpsat_and_the_exhaustive_engine(i):
    b, closed, start, end = random_board(i)
    v = decide(b, closed=closed, start=start, end=end, time_limit=60)
    if v.certificate is not None and v.certificate.get("method") == "exhaustive":
        from kt_formal.proofs.replay import replay_exhaustive

        replay_exhaustive(v.certificate)  # the kernel runs no search: replayed on purpose
    elif v.certificate is not None:
        verify_certificate(v.certificate)
    if b.n_squares >= 2 and (b.degrees() == 0).any():
        # CP-SAT drops squares without moves from its circuit; no tour can visit them
        assert v.answer == "no" and v.certificate["kind"] in ("proof", "drup")
        return
    r = find_tour(b, closed=closed, start=start, end=end, engine="cpsat", time_limit=60)
    assert r.status is not Status.UNKNOWN
    expected = "yes" if r.status is Status.FOUND else "no"
    assert v.answer == expected, (b.to_mask(), closed, start, end, v.route, v.explanation)
    if expected == "no":  # a second, complete engine confirms every "no"
        x = find_tour(b, closed=closed, start=start, end=end, engine="exhaustive", time_limit=60)
        assert x.status is Status.IMPOSSIBLE, x.message
    if v.answer == "no":
        assert v.certificate["kind"] in ("proof", "drup")
    else:
        assert v.certificate["kind"] == "tour"


def test_sat_proof_where_no_cheap_proof_exists(cli_proc, tmp_path):
    # found by the random sweep: no open tour of 3x7 ends at d2, and none of the cheap
    # proofs shows it; the SAT route does, with a DRUP proof the kernel checks
    b = Board(3, 7)
    assert find_tour(b, closed=False, end=(1, 3), engine="cpsat").status is Status.IMPOSSIBLE
    v = decide(b, closed=False, end=(1, 3))
    assert v.answer == "no" and v.exit_code == 1
    assert v.certificate["kind"] == "drup" and "sat" in v.route
    assert "SAT solver" in v.explanation
    verify_certificate(v.certificate)
    path = tmp_path / "p.json"
    path.write_text(json.dumps(v.certificate))
    run = cli_proc("verify", path)
    assert run.code == 0 and "DRUP proof" in run.out and "to d2" in run.out


def test_hall_proof_before_the_sat_route(cli_proc, tmp_path):
    # CP-SAT finds no tour of 7x16 minus a 3x6 block; CaDiCaL's DRUP proof of it runs to
    # about 1.5 million steps (minutes to trim), the flow's hall proof lists 26 squares
    path = tmp_path / "p.json"
    run = cli_proc("exists", "7", "16", "--hole", "2,5,3x6", "--cert", path, "--time-limit", "120")
    assert run.code == 1, run.out + run.err
    assert "flow:hall" in run.err and "Hall's condition" in run.out
    cert = json.loads(path.read_text())
    assert cert["method"] == "hall" and len(cert["squares"]) == 26
    run = cli_proc("verify", path)
    assert run.code == 0 and "need 52 tour moves" in run.out


def exhaustive_record() -> dict:
    """The exhaustive engine's record for no open tour of 3x7 ending at d2 (decide no longer makes these)."""
    from kt_formal.question import Question

    return run_engine("exhaustive", Question(Board(3, 7), closed=False, end=(1, 3))).proof


def test_exhaustive_records_are_checked_only_on_replay(cli_proc, tmp_path):
    record = exhaustive_record()
    assert record["method"] == "exhaustive"
    # the kernel runs no search: such a record is not checked, unless replayed on request
    with pytest.raises(CertificateNotChecked, match="NOT CHECKED"):
        verify_certificate(record)
    path = tmp_path / "p.json"
    path.write_text(json.dumps(record))
    run = cli_proc("verify", path)
    assert run.code == 1 and run.out.startswith("NOT CHECKED") and "from" not in run.out.split(":")[0]
    assert "to d2" in run.out  # the fixed end is part of the stated claim
    run = cli_proc("verify", "--replay", path)
    assert run.code == 0 and "exhaustive search re-run" in run.out and "to d2" in run.out


def test_forged_exhaustive_proofs_are_rejected_on_replay():
    from kt_formal.proofs.replay import replay_exhaustive

    good = exhaustive_record()
    # a board that does have such a tour: the re-run finds it
    forged = dict(good, end=[0, 0])
    with pytest.raises(CertificateRejected, match="found a tour|CP-SAT"):
        replay_exhaustive(forged)
    # too few nodes recorded: the re-run cannot finish within the record
    if good["nodes"] > 1:
        with pytest.raises(CertificateRejected, match="did not finish"):
            replay_exhaustive(dict(good, nodes=0))
    with pytest.raises(CertificateRejected):
        replay_exhaustive(dict(good, nodes=-5))
    with pytest.raises(CertificateRejected, match="replays run up to"):
        replay_exhaustive(dict(good, nodes=10**18))
    with pytest.raises(CertificateRejected, match="strings"):
        replay_exhaustive(dict(good, engine=3))


# ---------------------------------------------------------------- the command
def test_exists_command(cli, tmp_path):
    r = cli("exists", 5, 5)
    assert r.code == 1
    assert r.out == ("No closed tour: the board has 13 dark and 12 light squares; "
                     "a closed tour alternates colours.\n")
    cert = tmp_path / "t.json"
    r = cli("exists", 6, 6, "--open", "--start", "a1", "--cert", cert)
    assert r.code == 0 and r.out.startswith("Yes, an open tour from a1 exists")
    _, summary = verify_certificate(json.loads(cert.read_text()))
    assert summary.startswith("open tour of the 6x6 board from a1 to ")
    mask = tmp_path / "m.txt"
    mask.write_text("....\n.##.\n....\n")
    r = cli("exists", "--mask", mask, "--open", "--cert", tmp_path / "p.json")
    assert r.code in (0, 1, 3)


def test_exists_unknown_when_the_limit_runs_out(cli_proc):
    # CP-SAT alone (backtracking in the default portfolio may find this one at once)
    r = cli_proc("exists", 40, 40, "--remove", "b2", "--remove", "c4", "--time-limit", "0.01",
                 "--engine", "cpsat")
    assert r.code == 3 and r.out.startswith("Unknown: the search")
    # the next step is named, once, on standard error (and not at all with --quiet)
    assert r.err == "kt-formal: the time limit ran out; give more time with --time-limit S\n"
    r = cli_proc("exists", 40, 40, "--remove", "b2", "--remove", "c4", "--time-limit", "0.01", "--engine", "cpsat", "-q")
    assert r.code == 3 and r.err == ""
    r = cli_proc("tour", 40, 40, "--remove", "b2", "--remove", "c4", "--time-limit", "0.01",
                 "--engine", "cpsat")
    assert r.code == 3 and r.err.rstrip().endswith("; give more time with --time-limit S")
    assert r.err.count("--time-limit") == 1


@pytest.mark.parametrize("args,needle", [
    (("0", "4"), "at least 1"),
    (("5", "x"), "whole number"),
    (("5", "5", "--start", "z9"), "outside"),
    (("5", "5", "--remove", "c3", "--start", "c3"), "hole"),
    (("5", "5", "--time-limit", "-1"), "positive number of seconds"),
    (("5",), "M N"),
])
def test_exists_bad_input(cli_proc, args, needle):
    r = cli_proc("exists", *args)
    assert r.code == 2 and needle in r.err and "Traceback" not in r.err
    assert len(r.err.strip().splitlines()) == 1


def test_exists_on_huge_boards(cli_proc):
    r = cli_proc("exists", 99999, 99999)  # colour counts, no array of the board
    assert r.code == 1 and "4999900001 dark and 4999900000 light" in r.out
    r = cli_proc("exists", 100000, 100000)  # refused before allocating, one line
    assert r.code == 2 and len(r.err.strip().splitlines()) == 1 and "Traceback" not in r.err
