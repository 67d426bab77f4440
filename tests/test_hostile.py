"""Hostile input to the checking side: forged proofs, records and files.

Each case is an attack that once cost unbounded time or memory, or was read wrongly: it
must now give one line and exit 2 (bad input), a rejection (exit 1) or unknown (exit 3),
with work bounded by what was read, and never a false OK. Work is measured by counting
(clauses stored, watch entries copied, bytes allocated), not by the clock.
"""

from __future__ import annotations

import base64
import copy
import itertools
import re
import zlib

import numpy as np

import pytest
from kt_formal.question import Question

from kt_formal.exceptions import CertificateRejected, InvalidInput
from kt_formal.kernel import rup
from kt_formal.kernel.rup import DrupRejected, RupDB, replay
from kt_formal.solve import run_engine


# ---------------------------------------------------------------- small CNFs, by hand
def code(lit: int) -> int:
    """The kernel's literal code of a DIMACS literal."""
    return 2 * lit if lit > 0 else -2 * lit + 1


def raw_proof(steps) -> bytes:
    """Binary DRAT of ``steps`` (``(add, [DIMACS literals])``)."""
    out = bytearray()
    for add, lits in steps:
        out += b"a" if add else b"d"
        for x in lits:
            u = code(x)
            while u >= 0x80:
                out.append(u & 0x7F | 0x80)
                u >>= 7
            out.append(u)
        out.append(0)
    return bytes(out)


def check(n_vars: int, formula, steps) -> int:
    return replay(n_vars, [[code(x) for x in c] for c in formula], raw_proof(steps))


def satisfiable(n_vars: int, formula) -> bool:
    return any(all(any((x > 0) == bits[abs(x) - 1] for x in c) for c in formula)
               for bits in itertools.product((False, True), repeat=n_vars))


#: Two variables, every clause: no assignment satisfies them; [2] then [] is a proof.
UNSAT2 = [[1, 2], [-1, 2], [1, -2], [-1, -2]]
#: The same without (-1 v -2): satisfied by 1 = 2 = true.
SAT2 = UNSAT2[:3]


def test_repeated_lemmas_are_stored_and_watched_once():
    db = RupDB(2)
    for c in SAT2:
        db.add([code(x) for x in c])
    stored, watched = len(db.clauses), sum(map(len, db.watches))
    for _ in range(10_000):
        assert db.add([code(1), code(2)]) == 0  # the first clause, counted once more
    assert len(db.clauses) == stored and sum(map(len, db.watches)) == watched
    assert db.keys[(code(1), code(2))][1] == 10_001


def test_a_proof_of_many_repeated_lemmas_is_still_checked_to_the_letter():
    dup = [(True, [1, 2])] * 5000
    assert check(2, UNSAT2, dup + [(True, [2]), (True, [])]) == 5002
    with pytest.raises(DrupRejected, match="lemma 5002 is not implied"):  # SAT2 has no refutation
        check(2, SAT2, dup + [(True, [2]), (True, [])])
    with pytest.raises(DrupRejected, match="lemma 1 is not implied"):  # a repeated lemma not implied
        check(2, SAT2, [(True, [-1, -2])] * 5000 + [(True, [])])


def test_deleting_every_copy_of_a_repeated_clause_removes_it():
    adds = [(True, [1, 2])] * 3
    # three added copies and the formula's own: [2] is RUP while one of the four stays
    assert check(2, UNSAT2, adds + [(False, [1, 2])] * 3 + [(True, [2]), (True, [])]) == 5
    with pytest.raises(DrupRejected, match="lemma 4 is not implied"):
        check(2, UNSAT2, adds + [(False, [1, 2])] * 4 + [(True, [2]), (True, [])])
    with pytest.raises(DrupRejected, match="lemma 4 is not implied"):  # and it is not found again
        check(2, UNSAT2, adds + [(False, [1, 2])] * 4 + [(True, [1, 2]), (True, [])])


class CountingList(list):
    """A watch list counting the entries its slices copy."""

    copied = 0

    def __getitem__(self, i):
        got = super().__getitem__(i)
        if isinstance(i, slice):
            CountingList.copied += len(got)
        return got


def test_a_conflict_early_in_a_long_watch_list_does_not_copy_the_list():
    n = 5000
    db = RupDB(n + 3)
    p, q = code(1), code(2)
    db.add([p, q])
    for v in range(4, n + 4):  # distinct clauses, all watched on p and q
        db.add([p, q, code(v)])
    db.watches = [CountingList(w) for w in db.watches]
    CountingList.copied = 0
    for _ in range(200):
        assert db.is_rup([p, q, code(3)])  # the first clause on p's list conflicts at once
    assert CountingList.copied < 200 * 10


@pytest.fixture(scope="module")
def drup_cert() -> dict:
    """The DRUP certificate of no closed tour of 3x9 minus b2 (as ``exists --cert`` makes)."""
    from kt_formal.board import Board
    from kt_formal.question import Question

    return run_engine("sat", Question(Board(3, 9, holes=[(1, 1)]))).proof


def test_the_issue_attack_a_million_repeated_lemmas_stays_linear(drup_cert, monkeypatch):
    """1M copies of a two-literal clause of the formula before a real proof: accepted,
    and stored once (before: one clause and two watches per copy, quadratic time)."""
    task = rup.prepare_drup(drup_cert)
    two = next(c for c in task.clauses if len(c) == 2)
    step = b"a" + bytes(two) + b"\0"
    assert step.isascii()
    raw = step * 1_000_000 + task.raw
    seen = []

    class Spy(RupDB):
        __slots__ = ()

        def __init__(self, nvars):
            super().__init__(nvars)
            seen.append(self)

    monkeypatch.setattr(rup, "RupDB", Spy)
    assert replay(task.n_vars, task.clauses, raw) == task.n_lemmas + 1_000_000
    assert len(seen[0].clauses) <= len(task.clauses) + task.n_lemmas


@pytest.mark.parametrize("bad, match", [
    (b"a\x82\x00", "overlong literal"),          # a literal's last group may not be zero
    (b"a\x82", "ends inside"),
    (b"a\x04\x00\x00", r"proof byte 3: expected 'a' or 'd', got 0x00"),
    (b"x\x04\x00", r"proof byte 0: expected 'a' or 'd'"),
    (b"a\x01\x00", "literal 1 names a variable outside"),
    (b"a" + b"\xff" * 10 + b"\x01\x00", "overlong literal"),
    (b"a\x80\x80\x01\x00", "names a variable outside"),
])
def test_malformed_binary_proofs_are_refused(bad, match):
    with pytest.raises(DrupRejected, match=match):
        replay(2, [[code(x) for x in c] for c in UNSAT2], bad)


def test_seven_bit_groups_decode_as_one_byte_literals_do():
    steps = [(True, [1, 2]), (False, [1, 2]), (True, [-2, 1])]
    assert [(a, list(map(code, c))) for a, c in steps] == list(rup.decode_proof(raw_proof(steps), 2))
    big = [(True, [70, -200, 1])]
    assert list(rup.decode_proof(raw_proof(big), 300)) == [(True, [code(70), code(-200), code(1)])]


def test_a_proof_accepted_refutes_its_formula_on_every_small_cnf():
    """Exhaustively over short proofs on 2 variables: never an OK for a satisfiable formula,
    repeats and deletions included."""
    clauses = [[1, 2], [-1, 2], [1, -2], [-1, -2], [2], [-2], [1], [-1]]
    steps = [(True, c) for c in clauses] + [(False, c) for c in clauses]
    for formula in (SAT2, UNSAT2[1:], [[1, 2], [-1, -2]]):
        assert satisfiable(2, formula)
        for proof in itertools.product(steps, repeat=3):
            with pytest.raises(DrupRejected):
                check(2, formula, list(proof) + [(True, [])])


# ---------------------------------------------------------------- verify --db
@pytest.fixture(scope="module")
def small_certs() -> dict:
    """A tour certificate (open 3x4) and a proof (no closed tour of 3x3), as a census stores them."""
    import json

    from kt_formal.board import Board
    from kt_formal.proofs import find_proof
    from kt_formal.solve import find_tour

    tour = find_tour(Board(3, 4), closed=False, engine="cpsat").tour.to_json()
    proof = json.dumps(find_proof(Question(Board(3, 3), closed=True)))
    return {"yes": tour, "no": proof}


def census_db(path, rows) -> str:
    """A census database of ``rows`` ``(rows, cols, holes, closed, start, end, answer, cert)``."""
    from kt_formal.survey import Store

    with Store.open(path) as s:
        s.add([(*r, 0.1, "test") for r in rows])
        s.flush()
    return str(path)


def tamper(path, sql, *args) -> None:
    import sqlite3

    con = sqlite3.connect(path)
    con.execute("PRAGMA ignore_check_constraints = 1")
    con.execute(sql, args)
    con.commit()
    con.close()


def test_verify_db_reads_certificates_as_the_kernel_does(tmp_path, small_certs):
    from kt_formal.survey.report import verify_store

    proof = small_certs["no"]
    method = '"method": "colour"'
    assert method in proof
    forged = proof.replace(method, '"method": "separator", ' + method)  # json.loads keeps the last
    db = census_db(tmp_path / "k.sqlite", [(3, 3, (), True, None, None, "no", forged)])
    checked, failed, unknown, failures = verify_store(db)
    assert (checked, failed) == (1, 1) and "duplicate key 'method'" in failures[0]


def test_verify_db_refuses_values_outside_their_domain(tmp_path, small_certs):
    from kt_formal.survey.report import verify_store

    db = census_db(tmp_path / "k.sqlite", [(3, 4, (), False, None, None, "yes", small_certs["yes"])])
    assert verify_store(db)[:2] == (1, 0)
    tamper(db, "UPDATE verdicts SET tour = 'banana'")
    checked, failed, _, failures = verify_store(db)
    assert (checked, failed) == (1, 1) and "'banana' is neither 'closed' nor 'open'" in failures[0]
    for column, value, match in (("tour", "open", None), ("answer", "maybe", "answer 'maybe'"),
                                 ("holes", "[[0, 9]]", "not a square of the 3x4 board"),
                                 ("start", "[0, 0.5]", "not a square"), ("rows", 3.5, "not an integer"), ("cols", "four", "not an integer"),
                                 ("holes", '{"a": 1}', "not a list")):
        tamper(db, f'UPDATE verdicts SET "{column}" = ?', value)
        checked, failed, _, failures = verify_store(db)
        if match is None:
            assert failed == 0
        else:
            assert (checked, failed) == (1, 1) and match in failures[0], failures
        tamper(db, "DELETE FROM verdicts")
        census_db(db, [(3, 4, (), False, None, None, "yes", small_certs["yes"])])


def test_verify_db_reports_a_question_stored_twice(tmp_path, small_certs):
    from kt_formal.survey.report import verify_store

    db = census_db(tmp_path / "k.sqlite", [(3, 3, ((1, 1),), False, None, None, "unknown", None),
                                           (3, 4, (), False, None, None, "yes", small_certs["yes"])])
    for holes in ("[[1,1]]", "[[1, 1], [1, 1]]"):  # the same hole, spaced otherwise; a hole twice
        tamper(db, "INSERT INTO verdicts (rows, cols, holes, tour, start, \"end\", answer, certificate, "
                   "seconds, route) VALUES (3, 3, ?, 'open', 'null', 'null', 'unknown', NULL, 0, 'x')", holes)
    tamper(db, "INSERT INTO verdicts (rows, cols, holes, tour, start, \"end\", answer, certificate, seconds, "
               "route) SELECT rows, cols, ' [ ] ', tour, ' null', \"end\", answer, certificate, 0, 'x' "
               "FROM verdicts WHERE rows = 4 OR cols = 4")
    checked, failed, unknown, failures = verify_store(db)
    assert (checked, failed, unknown) == (4, 3, 1), failures
    assert "the question of row 1 stored again (row 3)" in failures[0]
    assert "a square twice" in failures[1]
    assert "the question of row 2 stored again (row 5)" in failures[2]


def test_one_deeply_nested_row_is_one_rejected_row(tmp_path, small_certs):
    from kt_formal.survey.report import verify_store

    deep = "[" * 100_000 + "]" * 100_000
    db = census_db(tmp_path / "k.sqlite", [(3, 4, (), False, None, None, "yes", small_certs["yes"]),
                                           (3, 3, (), True, None, None, "no", small_certs["no"])])
    tamper(db, "INSERT INTO verdicts (rows, cols, holes, tour, start, \"end\", answer, certificate, seconds, "
               "route) VALUES (5, 5, '[]', 'open', 'null', 'null', 'no', ?, 0, 'x')", '{"a": ' + deep + "}")
    tamper(db, "INSERT INTO verdicts (rows, cols, holes, tour, start, \"end\", answer, certificate, seconds, "
               "route) VALUES (6, 6, ?, 'open', 'null', 'null', 'unknown', NULL, 0, 'x')", deep)
    checked, failed, unknown, failures = verify_store(db)
    assert (checked, failed, unknown) == (4, 2, 0), failures
    assert all("nested too deeply" in line for line in failures)


def test_verify_db_cli_goes_on_after_a_bad_row(tmp_path, small_certs, cli):
    db = census_db(tmp_path / "k.sqlite", [(3, 4, (), False, None, None, "yes", small_certs["yes"]),
                                           (3, 3, (), True, None, None, "no", small_certs["no"])])
    tamper(db, "UPDATE verdicts SET tour = 'banana' WHERE rows = 3 AND cols = 4")
    r = cli("verify", "--db", db, "--quiet")
    assert r.code == 1 and r.err == ""
    assert "REJECTED: stored tour 'banana'" in r.out and "1 of 2 certificates verified" in r.out


# ---------------------------------------------------------------- verify --replay
FORGED_RECORD = ('{"format": "kt-formal/1", "kind": "proof", "method": "exhaustive", "board": {"rows": 7, '
                 '"cols": 16, "holes": []}, "closed": true, "start": null, "end": null, "engine": "exhaustive", '
                 '"nodes": 2000000000, "pruning": "none"}')


def test_a_replay_of_a_forged_record_ends_unknown_at_its_time_limit(tmp_path, cli):
    path = tmp_path / "forged.json"
    path.write_text(FORGED_RECORD)
    assert len(FORGED_RECORD) < 300
    r = cli("verify", "--replay", "--time-limit", "0.5", path)
    assert r.code == 3 and r.out == ""
    assert r.err.count("\n") == 1 and "unknown: the replay reached its 0.5 s time limit" in r.err
    r = cli("verify", "--replay", "--time-limit", "0.5", "--json", path, path)
    assert r.code == 3 and r.out.count('"answer":"unknown"') == 2


@pytest.mark.parametrize("value", ["nan", "-1", "0", "inf", "1e400", "x"])
def test_verify_time_limit_is_validated_in_one_line(tmp_path, cli, value):
    path = tmp_path / "forged.json"
    path.write_text(FORGED_RECORD)
    r = cli("verify", "--replay", "--time-limit", value, path)
    assert r.code == 2 and r.err.count("\n") == 1 and "--time-limit" in r.err


def test_verify_db_replays_share_one_time_limit(tmp_path, cli):
    db = census_db(tmp_path / "k.sqlite", [(7, 16, (), True, None, None, "no", FORGED_RECORD)])
    r = cli("verify", "--db", db, "--replay", "--time-limit", "0.5", "--quiet")
    assert r.code == 1 and "NOT CHECKED: unknown: the replays' 0.5 s time limit ran out" in r.out


# ---------------------------------------------------------------- .npy files
def sparse_npy(path, header: dict, data_bytes: int, version=(1, 0)) -> None:
    """A .npy file of ``header`` and ``data_bytes`` bytes of zeros that take no disk."""
    import numpy as np

    with open(path, "wb") as fh:
        write = {(1, 0): np.lib.format.write_array_header_1_0,
                 (2, 0): np.lib.format.write_array_header_2_0}[version]
        write(fh, header)
        fh.truncate(fh.tell() + data_bytes)


def peak_bytes(fn, *args):
    """The peak of memory traced while ``fn(*args)`` runs (numpy reports its arrays)."""
    import tracemalloc

    tracemalloc.start()
    try:
        result = fn(*args)
    except Exception as exc:  # noqa: BLE001 - the caller inspects it
        result = exc
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak, result


def test_a_npy_header_claiming_gigabytes_is_refused_before_it_is_read(tmp_path):
    from kt_formal.io.formats import read_npy

    path = tmp_path / "h.npy"
    with open(path, "wb") as fh:
        fh.write(b"\x93NUMPY\x02\x00" + ((4 << 30) - 16).to_bytes(4, "little") + b"{'descr': '<i8', ")
        fh.truncate(12 + (4 << 30) - 16)  # sparse: the header's 4 GB are there, as zeros
    peak, exc = peak_bytes(read_npy, path)
    assert isinstance(exc, InvalidInput) and peak < 1 << 20
    assert "header claims 4,294,967,280 bytes; a header is read up to 65,536" in str(exc)


@pytest.mark.parametrize("header, data, match", [
    ({"descr": "<i8", "fortran_order": False, "shape": (10**6, 10**6)}, 1000,
     r"header says 1000000x1000000 int64 \(8,000,000,000,000 bytes of data\) but the file holds 1,000"),
    ({"descr": "<i8", "fortran_order": True, "shape": (2**40, 2**40)}, 64, "truncated"),
    ({"descr": "<i8", "fortran_order": False, "shape": (-1, 4)}, 64, "shape .* is malformed"),
    ({"descr": "<x9", "fortran_order": False, "shape": (2, 4)}, 64, "no data type numpy knows"),
])
def test_npy_shapes_are_checked_against_the_file(tmp_path, header, data, match):
    from kt_formal.io.formats import read_npy

    path = tmp_path / "s.npy"
    sparse_npy(path, header, data)
    peak, exc = peak_bytes(read_npy, path)
    assert isinstance(exc, InvalidInput) and peak < 1 << 20
    assert re.search(match, str(exc)), exc


@pytest.mark.parametrize("blob, match", [
    (b"\x93NUMPY\x01\x00\xff\x7f{", "header claims 32,767 bytes"),
    (b"\x93NUMPY\x04\x00\x10\x00{'descr': 1}", r"version 4\.0 is not one numpy writes"),
    (b"\x93NUMPY\x01\x00\x10\x00" + b"[" * 16, "not numpy's dict"),
    (b"\x93NUMPY\x01\x00\x30\x00{'descr': '<i8', 'fortran_order': False, 'shape': (2, 2), 'x': 1}",
     "not numpy's dict"),
    (b"\x93NUMPY", "is shorter than a .npy header|not a valid .npy file"),
    # found by the fuzzer: a no-break space after the dict, which numpy refuses (exit 4 before)
    (b"\x93NUMPY\x01\x00\x45\x00{'descr': '<i8', 'fortran_order': False, 'shape': (1, 1), }\xa0" + b" " * 8
     + b"\n" + b"\xff" * 8, "not numpy's dict"),
])
def test_malformed_npy_headers_say_what_is_wrong(tmp_path, blob, match):
    from kt_formal.io.formats import read_npy

    path = tmp_path / "m.npy"
    path.write_bytes(blob)
    with pytest.raises(InvalidInput, match=match):
        read_npy(path)


@pytest.fixture(scope="module")
def holed_tour():
    from kt_formal.board import Board
    from kt_formal.solve import find_tour

    return find_tour(Board(6, 7, holes=[(2, 3), (3, 3)]), closed=False, engine="cpsat").tour


@pytest.mark.parametrize("version", [(1, 0), (2, 0), (3, 0)])
def test_fortran_order_and_every_header_version_read_the_same_tour(tmp_path, holed_tour, version):
    import numpy as np

    from kt_formal.io.formats import read_npy

    grid = np.zeros((6, 7), dtype=np.int64)
    rows, cols = np.divmod(holed_tour.order, 7)
    grid[rows, cols] = np.arange(1, len(holed_tour.order) + 1)
    for order, arr in (("C", grid), ("F", np.asfortranarray(grid))):
        path = tmp_path / f"{order}.npy"
        with open(path, "wb") as fh:
            np.lib.format.write_array(fh, arr, version=version)
        assert np.load(path).flags.f_contiguous == (order == "F")
        back = read_npy(path)
        assert back.board.holes() == [(2, 3), (3, 3)] and np.array_equal(back.order, holed_tour.order)
    bad = np.asfortranarray(grid)
    bad[0, 0], bad[0, 1] = bad[0, 1], bad[0, 0]
    np.save(tmp_path / "bad.npy", bad)
    with pytest.raises(CertificateRejected, match="Fortran order"):
        read_npy(tmp_path / "bad.npy")


def test_a_fortran_order_grid_takes_the_memory_of_a_c_order_one(tmp_path):
    """6000x6000 int64 (288 MB, no numbered square): read in chunks either way (before, the
    Fortran file was copied whole into memory, 3.5 GB at 15000x15000)."""
    from kt_formal.io.formats import read_npy

    peaks = []
    for fortran in (False, True):
        path = tmp_path / f"{fortran}.npy"
        sparse_npy(path, {"descr": "<i8", "fortran_order": fortran, "shape": (6000, 6000)}, 6000 * 6000 * 8)
        peak, exc = peak_bytes(read_npy, path)
        assert isinstance(exc, InvalidInput) and "no numbered squares" in str(exc)
        peaks.append(peak)
    assert peaks[1] < 6000 * 6000 * 8 // 2 and peaks[1] < 1.5 * peaks[0], peaks


def test_hostile_npy_files_give_one_line_and_exit_2(tmp_path, cli):
    path = tmp_path / "h.npy"
    with open(path, "wb") as fh:
        fh.write(b"\x93NUMPY\x02\x00" + ((4 << 30) - 16).to_bytes(4, "little"))
        fh.truncate(12 + (4 << 30) - 16)
    r = cli("verify", path)
    assert r.code == 2 and r.out == "" and r.err.count("\n") == 1 and "header claims" in r.err


# ---------------------------------------------------------------- messages that say what is true
def separator_cases():
    from kt_formal.board import Board

    b = Board(4, 6)
    yield b, False, b.parse_square("a2"), b.parse_square("d4")  # the issue's case: an end in the set
    for start, end in ((None, None), ((0, 0), None), ((0, 0), (3, 5)), ((1, 0), (2, 5)), ((2, 0), (2, 0))):
        yield Board(4, 6), False, start, end
    yield Board(3, 8), True, None, None
    yield Board(3, 6), False, None, None
    yield Board(3, 6), False, (1, 0), None
    yield Board(3, 6), False, (1, 2), None
    yield Board(3, 6), False, (1, 2), (0, 3)


def test_the_separator_explanation_states_the_checkers_bound():
    from kt_formal.claims import check_certificate
    from kt_formal.proofs import explain, find_proof

    seen = 0
    for board, closed, start, end in separator_cases():
        d = find_proof(Question(board, closed=closed, start=start, end=end), thorough=True)
        if d is None or d.get("method") != "separator":
            continue
        seen += 1
        said = re.search(r"falls into at most (\d+) piece", explain(d))
        allowed = re.search(r"a tour allows (\d+)", check_certificate(d))
        assert said and allowed and said.group(1) == allowed.group(1), (explain(d), check_certificate(d))
        parts = int(re.search(r"leaves (\d+) separate parts", explain(d)).group(1))
        assert parts > int(said.group(1))  # the explanation never contradicts itself
    assert seen >= 3


def test_exists_says_the_bound_verify_checks(cli, tmp_path):
    cert = tmp_path / "c.json"
    r = cli("exists", "4", "6", "--open", "--start", "a2", "--end", "d4", "--cert", cert)
    assert r.code == 1 and "falls into at most 6 pieces" in r.out
    assert "(a tour allows 6)" in cli("verify", cert).out


# ---------------------------------------------------------------- a fuzzer over every input
from functools import lru_cache  # noqa: E402

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


@lru_cache(maxsize=1)
def seed_files() -> dict:
    """Real files of every proof kind and every tour format: name -> (suffix, bytes)."""
    import json
    import tempfile
    from pathlib import Path

    from kt_formal.board import Board
    from kt_formal.proofs import find_proof, make_proof
    from kt_formal.question import Question
    from kt_formal.solve import find_tour

    out = {}
    proofs = {
        "ends": find_proof(Question(Board(6, 6), closed=False, start=(0, 0), end=(0, 0))),
        "colour": find_proof(Question(Board(5, 5), closed=True)),
        "degree": find_proof(Question(Board(3, 3), closed=True)),
        "alternation": find_proof(Question(Board(4, 7), closed=True)),
        "separator": find_proof(Question(Board(3, 8), closed=True), thorough=True),
        "separator-open": find_proof(Question(Board(4, 6), closed=False, start=(2, 0), end=(0, 3))),
        "exhaustive": make_proof(Question(Board(3, 7), False, end=(1, 3)), "exhaustive", engine="exhaustive", nodes=1000, pruning="none"),
        "drup": run_engine("sat", Question(Board(3, 6, holes=[(0, 0), (0, 1)]), closed=False)).proof,
    }
    hall = find_proof(Question(Board(5, 5, holes=[(2, 2)]), closed=True), thorough=True)
    if hall is not None:
        proofs["hall"] = hall
    for name, d in proofs.items():
        assert d is not None, name
        out[name] = (".json", json.dumps(d).encode())
    tour = find_tour(Board(5, 6, holes=[(0, 0), (4, 5)]), closed=False, engine="cpsat").tour
    closed = find_tour(Board(6, 6), closed=True, engine="cpsat").tour
    with tempfile.TemporaryDirectory() as tmp:
        for t, kind in ((tour, "open"), (closed, "closed")):
            for fmt, suffix in (("grid", ".txt"), ("coords", ".txt"), ("chess", ".txt"), ("json", ".json"),
                                ("npy", ".npy"), ("succ", ".npy"), ("bin", ".ktour")):
                p = t.save(Path(tmp) / f"t{suffix}", fmt=fmt)
                out[f"{kind}-{fmt}"] = (suffix, p.read_bytes())
    return out


def run_verify(path) -> tuple[int, str, str]:
    import contextlib
    import io

    from kt_formal.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["verify", str(path)])
    return code, out.getvalue(), err.getvalue()


def no_tour_really(text: str) -> bool:
    """CP-SAT's word on the question an OK of 'no tour' names (small boards only)."""
    from kt_formal.board import Board
    from kt_formal.solve import find_tour

    m = re.match(r"OK: no (closed|open) tour of the (\d+)x(\d+) board(?: minus \d+ squares? \(([^)]*)\))?"
                 r"(?: from ([a-z]+\d+))?(?: to ([a-z]+\d+))?:", text)
    assert m, text
    rows, cols = int(m.group(2)), int(m.group(3))
    assert rows * cols <= 100, text
    probe = Board(rows, cols)
    holes = [probe.parse_square(s.strip()) for s in (m.group(4) or "").split(",") if s.strip()]
    if m.group(4) and "more" in m.group(4):
        return True  # more holes than the claim names: not re-asked here
    b = Board(rows, cols, holes=holes or None)
    ends = [None if g is None else b.parse_square(g) for g in (m.group(5), m.group(6))]
    r = find_tour(b, closed=m.group(1) == "closed", start=ends[0], end=ends[1], engine="cpsat", time_limit=60)
    return r.status.value == "impossible"


def mutate(data: bytes, draw) -> bytes:
    """One to three byte-level mutations: flip, overwrite, insert, delete, cut, repeat, or a
    number changed inside the text."""
    b = bytearray(data)
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(["flip", "set", "insert", "delete", "cut", "repeat", "digit"]))
        i = draw(st.integers(0, max(len(b) - 1, 0)))
        if kind == "flip" and b:
            b[i] ^= 1 << draw(st.integers(0, 7))
        elif kind == "set" and b:
            b[i] = draw(st.sampled_from(b"0123456789-[]{},:\" \n\x00\xff\x93ae"))
        elif kind == "insert":
            b[i:i] = draw(st.binary(min_size=1, max_size=8))
        elif kind == "delete":
            del b[i:i + draw(st.integers(1, 8))]
        elif kind == "cut":
            del b[i:]
        elif kind == "repeat":
            j = draw(st.integers(i, min(len(b), i + 64)))
            b[j:j] = b[i:j] * draw(st.integers(1, 50))
        else:
            digits = [k for k, c in enumerate(b) if 48 <= c <= 57]
            if digits:
                k = draw(st.sampled_from(digits))
                b[k] = draw(st.sampled_from(b"0123456789"))
    return bytes(b)


def check_one_mutant(tmp_path, name: str, data: bytes) -> None:
    suffix, _ = seed_files()[name]
    path = tmp_path / f"m{suffix}"
    path.write_bytes(data)
    peak, result = peak_bytes(run_verify, path)  # every allocation asked for, used or not
    assert not isinstance(result, BaseException), (name, result)
    code, out, err = result
    assert code in (0, 1, 2), (name, code, err)
    assert err.count("\n") <= 1 and "Traceback" not in err, (name, err)
    assert peak < 128 << 20, (name, peak)  # a mutant of a few KB may not ask for more
    if code == 0:
        assert out.startswith(("OK: ", "REPLAYED: ")) and out.count("\n") == 1, out
        if out.startswith("OK: no "):
            assert no_tour_really(out), (name, out)
        else:  # a tour read from the mutant: the kernel checked it; check it once more here
            from kt_formal.io.formats import read_tour_file

            tour, _ = read_tour_file(path)
            sq = [divmod(int(i), tour.board.cols) for i in tour.order]
            assert len(set(sq)) == len(sq) == tour.board.n_squares
            steps = list(zip(sq, sq[1:] + (sq[:1] if tour.closed else [])))
            assert all(sorted((abs(a[0] - b[0]), abs(a[1] - b[1]))) == [1, 2] for a, b in steps), out
    else:
        assert out == "" or out.startswith(("REJECTED: ", "NOT CHECKED")) or "NOT CHECKED" in out, (name, out)


JSON_VALUES = st.one_of(st.none(), st.booleans(), st.integers(-3, 12), st.integers(-2**70, 2**70),
                        st.sampled_from(["", "banana", "closed", "drup", "tour", "proof", "colour", "a1"]),
                        st.lists(st.integers(-1, 9), max_size=3), st.just([[0, 0], [0, 0]]), st.just({}))


def mutate_json(data: bytes, draw) -> bytes:
    """A value of the certificate replaced, a key dropped or one repeated; for a DRUP proof,
    its binary steps changed too (a literal, a step dropped, repeated or moved)."""
    import json

    d = json.loads(data)
    for _ in range(draw(st.integers(1, 2))):
        paths = list(json_paths(d))
        path = draw(st.sampled_from(paths))
        parent = d
        for key in path[:-1]:
            parent = parent[key]
        if draw(st.booleans()):
            parent[path[-1]] = copy.deepcopy(draw(JSON_VALUES))
        elif isinstance(parent, dict):
            del parent[path[-1]]
        elif parent:
            parent.insert(draw(st.integers(0, len(parent))), copy.deepcopy(parent[path[-1]]))
    if isinstance(d.get("proof"), dict) and draw(st.booleans()):
        mutate_drup(d, draw)
    text = json.dumps(d)
    if draw(st.integers(0, 9)) == 0 and d:  # a key repeated: the reader must refuse it
        key = draw(st.sampled_from(sorted(d)))
        text = text[:-1] + ", " + json.dumps(key) + ": " + json.dumps(draw(JSON_VALUES)) + "}"
    return text.encode()


def json_paths(x, path=()):
    if path:
        yield path
    if isinstance(x, dict):
        for k, v in x.items():
            yield from json_paths(v, path + (k,))
    elif isinstance(x, list):
        for i, v in enumerate(x[:12]):
            yield from json_paths(v, path + (i,))


def mutate_drup(d, draw) -> None:
    p = d["proof"]
    try:
        raw = zlib.decompress(base64.b64decode(p["data"]))
    except Exception:  # noqa: BLE001 - already mutated into something else
        return
    steps = raw.split(b"\0")[:-1]
    if not steps:
        return
    i = draw(st.integers(0, len(steps) - 1))
    kind = draw(st.sampled_from(["literal", "drop", "repeat", "move", "delete"]))
    step = bytearray(steps[i])
    if kind == "literal" and len(step) > 1:
        k = draw(st.integers(1, len(step) - 1))
        step[k] = draw(st.integers(2, 127))
        steps[i] = bytes(step)
    elif kind == "drop":
        del steps[i]
    elif kind == "repeat":
        steps[i:i] = [steps[i]] * draw(st.integers(1, 1000))
    elif kind == "move":
        steps.insert(draw(st.integers(0, len(steps))), steps.pop(i))
    else:
        steps.insert(i, b"d" + bytes(step[1:]))
    raw = b"".join(x + b"\0" for x in steps)
    p.update(size=len(raw), lemmas=sum(1 for x in steps if x[:1] == b"a"),
             data=base64.b64encode(zlib.compress(raw)).decode())


@st.composite
def mutants(draw):
    name = draw(st.sampled_from(sorted(seed_files())))
    suffix, data = seed_files()[name]
    if suffix == ".json" and draw(st.booleans()):
        return name, mutate_json(data, draw)
    return name, mutate(data, draw)


FUZZ = settings(max_examples=60, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                                       HealthCheck.data_too_large])


def test_every_seed_file_verifies(tmp_path):
    for name, (suffix, data) in seed_files().items():
        path = tmp_path / f"s{suffix}"
        path.write_bytes(data)
        code, out, err = run_verify(path)
        assert code == (1 if name == "exhaustive" else 0), (name, out, err)


@FUZZ
@given(mutants())
def test_fuzz_mutated_files_never_give_a_false_ok(tmp_path, case):
    check_one_mutant(tmp_path, *case)


@pytest.mark.slow
@settings(FUZZ, max_examples=3000, derandomize=False)
@given(mutants())
def test_fuzz_mutated_files_never_give_a_false_ok_wide(tmp_path, case):
    check_one_mutant(tmp_path, *case)


def test_a_mangled_holes_line_of_a_coords_file_is_bad_input(tmp_path, cli):
    """Found by the fuzzer: '# holes:!0,0' was an internal error (exit 4)."""
    path = tmp_path / "t.txt"
    for holes in ("!0,0 4,5", "0,0,1", "0", "9999999999999,0"):
        path.write_text(f"# kt-formal coords: open tour, board 5x6\n# holes:{holes}\n(4, 0) (2, 1)\n")
        r = cli("verify", path)
        assert r.code == 2 and r.err.count("\n") == 1 and "is not a square 'r,c'" in r.err, r.err


def test_an_overlong_chess_name_is_bad_input(tmp_path, cli):
    """Found by the fuzzer: 'eeeeeeeeeeeeee1' overflowed a C long (exit 4)."""
    path = tmp_path / "t.txt"
    for tok, code in (("eeeeeeeeeeeeee1", 2), ("e99999999999999", 2), ("zzzzzzz9999999999", 1)):
        path.write_text(f"# kt-formal chess: open tour, board 5x6\n# holes: a5 f1\na1 {tok} d2\n")
        r = cli("verify", path)
        assert r.code == code and r.err.count("\n") == (code == 2), (tok, r)


def test_the_empty_clause_may_be_deleted_like_any_other():
    db = RupDB(2)
    assert db.add([]) == 0 and db.conflict
    assert db.delete([]) and not db.delete([])


def test_a_small_text_file_is_read_without_a_gigabyte_buffer(tmp_path):
    """Found by the fuzzer: a 300-byte grid asked the allocator for the 1 GiB limit at once."""
    from kt_formal.files import read_user_text

    path = tmp_path / "t.txt"
    path.write_text("1 2 3\n" * 50)
    peak, text = peak_bytes(read_user_text, path)
    assert text == "1 2 3\n" * 50 and peak < 1 << 20
    with pytest.raises(InvalidInput, match="holds more than 299 bytes|is 300 bytes"):
        read_user_text(path, limit=299)


def test_a_short_binary_file_of_a_huge_board_is_refused_without_its_mask(tmp_path):
    """Found by the wide fuzzer: a 176-byte order file whose header names a 6 x 16,777,222
    board made the reader build that board's mask (400 MB) for its 36 squares."""
    import tracemalloc

    from kt_formal.io.formats import read_binary

    path = tmp_path / "short.ktour"
    head = b"KTOUR01\n" + (6).to_bytes(8, "little") + (16_777_222).to_bytes(8, "little") + bytes([1, 4]) + bytes(6)
    path.write_bytes(head + np.arange(36, dtype="<u4").tobytes())
    tracemalloc.start()
    try:
        with pytest.raises(InvalidInput, match="at least one square in 64"):
            read_binary(path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 16 << 20
