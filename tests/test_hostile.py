"""Hostile input to the checking side: forged proofs, records and files.

Each case is an attack that once cost unbounded time or memory, or was read wrongly: it
must now give one line and exit 2 (bad input), a rejection (exit 1) or unknown (exit 3),
with work bounded by what was read, and never a false OK. Work is measured by counting
(clauses stored, watch entries copied, bytes allocated), not by the clock.
"""

from __future__ import annotations

import base64
import itertools
import re
import zlib

import pytest

from kt_formal.exceptions import CertificateRejected, InvalidInput
from kt_formal.kernel import rup
from kt_formal.kernel.rup import DrupRejected, RupDB, replay


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
    from kt_formal.engines import sat
    from kt_formal.question import TourRequest

    return sat.solve(TourRequest(Board(3, 9, holes=[(1, 1)]))).proof


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
    proof = json.dumps(find_proof(Board(3, 3), closed=True))
    return {"yes": tour, "no": proof}


def census_db(path, rows) -> str:
    """A census database of ``rows`` ``(rows, cols, holes, closed, start, end, answer, cert)``."""
    from kt_formal.census import Store

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
    from kt_formal.census.report import verify_store

    proof = small_certs["no"]
    method = '"method": "colour"'
    assert method in proof
    forged = proof.replace(method, '"method": "separator", ' + method)  # json.loads keeps the last
    db = census_db(tmp_path / "k.sqlite", [(3, 3, (), True, None, None, "no", forged)])
    checked, failed, unknown, failures = verify_store(db)
    assert (checked, failed) == (1, 1) and "duplicate key 'method'" in failures[0]


def test_verify_db_refuses_values_outside_their_domain(tmp_path, small_certs):
    from kt_formal.census.report import verify_store

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
    from kt_formal.census.report import verify_store

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
    from kt_formal.census.report import verify_store

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
        fn(*args)
    except Exception as exc:  # noqa: BLE001 - the caller inspects it
        result = exc
    else:
        result = None
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
        d = find_proof(board, closed=closed, start=start, end=end, thorough=True)
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
