"""The SAT route: DRUP certificates of "no tour", the kernel's checker, and its fast twin."""

from __future__ import annotations

import base64
import copy
import functools
import json
import random
import subprocess
import sys
import zlib

import drup
import pytest

from kt_formal.board import Board
from kt_formal.certificate import check_tour, verify_certificate
from kt_formal.engines import sat
from kt_formal.solve import find_tour
from kt_formal.question import Limits, Status, Question
from rupfast import check_drup_certificate_fast
from kt_formal.exceptions import CertificateRejected
from kt_formal.kernel.cnf import arc_cnf, cut_clause
from kt_formal.claims import check_drup_certificate
from kt_formal.kernel.rup import DrupRejected, decode_cut, decode_proof, prepare_drup
from kt_formal.engines.sat import encode_cut, encode_proof
from kt_formal.proofs import find_proof
from kt_formal.solve import run_engine

# Boards with no tour for which none of the cheap proofs (kt_formal.proofs.find_proof)
# applies, found by a sweep of 3 x n minus two squares, 5 x n and 6 x n minus squares and
# random holed boards with fixed ends: (rows, cols, holes, closed, start, end).
NO_CHEAP_PROOF = [
    (3, 6, [(0, 0), (0, 1)], False, None, None),
    (3, 6, [(0, 0), (0, 5)], False, None, None),
    (3, 6, [(0, 0), (2, 5)], False, None, None),
    (3, 7, [(0, 0), (0, 6)], False, None, None),
    (3, 7, [(0, 0), (1, 4)], False, None, None),
    (3, 7, [(0, 0), (2, 0)], False, None, None),
    (3, 8, [(0, 0), (1, 4)], True, None, None),
    (3, 8, [(0, 1), (0, 2)], False, None, None),
    (3, 8, [(0, 1), (2, 2)], False, None, None),
    (3, 9, [(0, 1), (0, 2)], False, None, None),
    (3, 9, [(0, 1), (0, 6)], False, None, None),
    (3, 9, [(0, 1), (1, 5)], False, None, None),
    (3, 10, [(0, 0), (1, 6)], True, None, None),
    (3, 10, [(0, 1), (0, 6)], False, None, None),
    (3, 10, [(0, 1), (2, 6)], False, None, None),
    (5, 5, [(0, 2), (2, 4)], False, None, None),
    (5, 5, [(0, 4), (2, 0), (3, 2)], False, None, None),
    (5, 5, [(0, 4), (3, 1), (3, 2)], False, None, None),
    (5, 6, [(2, 4), (4, 1)], False, None, None),
    (5, 6, [(1, 1), (1, 3), (3, 2)], False, None, None),
    (5, 6, [(1, 0), (1, 3), (4, 1)], False, None, None),
    (5, 7, [(1, 3), (3, 3), (4, 3)], False, None, None),
    (6, 5, [(1, 1), (4, 1)], True, None, None),
    (6, 5, [(3, 4), (4, 2)], False, None, None),
    (6, 5, [(2, 3), (4, 0), (4, 1)], False, None, None),
    (6, 6, [(0, 5), (4, 2), (5, 4)], False, None, None),
    (6, 6, [(0, 5), (2, 3), (4, 2)], False, None, None),
    (6, 6, [(0, 2), (3, 4), (4, 2)], False, None, None),
    (6, 7, [(1, 2), (3, 5), (5, 1)], False, None, None),
    (6, 7, [(0, 1), (3, 4), (3, 5)], False, None, None),
    (3, 7, [(0, 2)], False, (0, 5), None),
    (5, 3, [], False, None, (4, 2)),
    (6, 3, [], False, (5, 1), None),
    (3, 6, [], False, None, (0, 4)),
    (5, 3, [], False, (4, 2), None),
    (6, 4, [(2, 3), (5, 3)], False, None, (3, 2)),
    (4, 6, [(0, 3), (0, 4)], False, (1, 2), (3, 1)),
    (6, 5, [(2, 1), (2, 2)], False, None, (5, 1)),
]


def request_of(case) -> Question:
    rows, cols, holes, closed, start, end = case
    return Question(Board(rows, cols, holes=holes), closed=closed, start=start, end=end)


@functools.lru_cache(maxsize=None)
def certificate_of(i: int) -> dict:
    r = run_engine("sat", request_of(NO_CHEAP_PROOF[i]), time_limit=60)
    assert r.status is Status.IMPOSSIBLE, r.message
    return r.proof


def fresh(i: int) -> dict:
    return copy.deepcopy(certificate_of(i))


def dimacs(code: int) -> int:
    return -(code >> 1) if code & 1 else code >> 1


def formula_and_steps(cert: dict):
    """The regenerated clauses (with cuts) and the proof steps, in DIMACS literals."""
    task = prepare_drup(cert)
    clauses = [[dimacs(x) for x in c] for c in task.clauses]
    steps = [(add, [dimacs(x) for x in lits]) for add, lits in decode_proof(task.raw, task.n_vars)]
    return clauses, steps


def with_steps(cert: dict, steps) -> dict:
    """The certificate with its proof replaced by ``steps``."""
    raw = encode_proof(steps)
    out = copy.deepcopy(cert)
    out["proof"].update(size=len(raw), lemmas=sum(1 for a, _ in steps if a),
                        data=base64.b64encode(zlib.compress(raw)).decode())
    return out


def kernel_answer(cert) -> bool:
    try:
        check_drup_certificate(cert)
        return True
    except DrupRejected:
        return False


def fast_answer(cert) -> bool:
    try:
        check_drup_certificate_fast(cert)
        return True
    except DrupRejected:
        return False


def naive_rup_chain(formula, lemmas) -> bool:
    """RUP by definition: repeated passes of unit propagation over every clause."""
    db = [list(c) for c in formula]
    for lemma in lemmas:
        true = {-x for x in lemma}
        conflict = False
        changed = True
        while changed and not conflict:
            changed = False
            for c in db:
                if any(x in true for x in c):
                    continue
                rest = [x for x in c if -x not in true]
                if not rest:
                    conflict = True
                    break
                if len(rest) == 1:
                    true.add(rest[0])
                    changed = True
        if not conflict:
            return False
        if not lemma:
            return True
        db.append(list(lemma))
    return False


# ---------------------------------------------------------------- (a) certified "no"
@pytest.mark.parametrize("i", range(len(NO_CHEAP_PROOF)))
def test_no_cheap_proof_but_a_drup_certificate(i):
    req = request_of(NO_CHEAP_PROOF[i])
    assert find_proof(Question(req.board, closed=req.closed, start=req.start, end=req.end)) is None
    cert = certificate_of(i)
    line = check_drup_certificate(cert)
    kind = "closed" if req.closed else "open"
    assert line.startswith(f"OK: no {kind} tour") and f"of the {req.board.rows}x{req.board.cols}" in line
    assert f"{cert['proof']['lemmas']} lemma" in line
    _, summary = verify_certificate(json.loads(json.dumps(cert)))
    assert summary == line.removeprefix("OK: ")
    assert check_drup_certificate_fast(cert) == line


def test_enough_boards():
    assert len(NO_CHEAP_PROOF) >= 30
    assert sum(c[3] for c in NO_CHEAP_PROOF) >= 3  # some closed
    assert sum(c[4] is not None or c[5] is not None for c in NO_CHEAP_PROOF) >= 5  # fixed ends


@pytest.mark.parametrize("i", range(len(NO_CHEAP_PROOF)))
def test_the_drup_package_accepts_the_same_proofs(i):
    cert = certificate_of(i)
    if cert["proof"]["size"] > 5_000:
        pytest.skip("the drup package takes 2 s to 2 min here on proofs this long; see the slow test below")
    drup_accepts(cert)


@pytest.mark.slow
def test_the_drup_package_accepts_a_larger_proof_too():
    # from 5 KB (2 s for the drup package here) up to 60 KB (about 20 s; 130 KB takes about 2 min)
    large = [i for i in range(len(NO_CHEAP_PROOF)) if 5_000 < certificate_of(i)["proof"]["size"] <= 60_000]
    assert large
    for i in large:
        drup_accepts(certificate_of(i))


def drup_accepts(cert):
    formula, steps = formula_and_steps(cert)
    lemmas = [lits for add, lits in steps if add]
    assert lemmas[-1] == []
    assert drup.check_proof(formula, lemmas).outcome is drup.Outcome.VALID


# ---------------------------------------------------------------- (b) rejected
def small_cases():
    return [i for i in range(len(NO_CHEAP_PROOF)) if certificate_of(i)["proof"]["lemmas"] <= 40]


def test_last_lemma_or_empty_clause_removed_is_rejected():
    for i in small_cases()[:8]:
        cert = certificate_of(i)
        _, steps = formula_and_steps(cert)
        assert steps[-1] == (True, [])
        no_empty = with_steps(cert, steps[:-1])
        with pytest.raises(DrupRejected, match="never derives the empty clause"):
            check_drup_certificate(no_empty)
        assert not fast_answer(no_empty)
        # the empty clause twice: the proof goes on after it
        with pytest.raises(DrupRejected, match="after the empty clause"):
            check_drup_certificate(with_steps(cert, steps + [(True, [])]))


@pytest.mark.slow  # every lemma of a proof removed in turn, 5 s
def test_single_lemma_removals_rejected_exactly_when_the_chain_breaks():
    broken = 0
    tried = 0
    for i in small_cases()[:10]:
        cert = certificate_of(i)
        formula, steps = formula_and_steps(cert)
        lemmas = [lits for add, lits in steps if add]
        assert naive_rup_chain(formula, lemmas)
        for j in range(len(lemmas)):
            rest = lemmas[:j] + lemmas[j + 1:]
            expected = naive_rup_chain(formula, rest)  # the definition, on the same clauses
            mutated = with_steps(cert, [(True, x) for x in rest])
            assert kernel_answer(mutated) == expected, (i, j)
            assert fast_answer(mutated) == expected, (i, j)
            # (the drup package is no oracle here: it also accepts RAT steps)
            tried += 1
            broken += not expected
    assert tried >= 20 and broken >= 10


def test_a_wrong_lemma_is_rejected():
    cert = certificate_of(0)
    formula, steps = formula_and_steps(cert)
    n_vars = max(abs(x) for c in formula for x in c)
    # a unit lemma claiming an arc that is not implied
    for v in range(1, n_vars + 1):
        if not naive_rup_chain(formula, [[v]]):
            bad = with_steps(cert, [(True, [v])] + steps)
            with pytest.raises(DrupRejected, match="lemma 1 is not implied"):
                check_drup_certificate(bad)
            assert not fast_answer(bad)
            break
    else:
        pytest.fail("every unit is implied")


@pytest.mark.parametrize("how", ["empty", "everything", "off-board", "short", "long", "not-base64"])
def test_a_cut_that_is_not_a_cut_is_rejected(how):
    cert = fresh(6)  # 3x8 minus 2, closed: has cuts
    assert cert["cuts"]
    req = request_of(NO_CHEAP_PROOF[6])
    n = req.board.n_squares  # closed: one node per square
    width = (n + 7) // 8
    if how == "empty":
        cert["cuts"][0] = base64.b64encode(bytes(width)).decode()
    elif how == "everything":
        cert["cuts"][0] = encode_cut(range(n), n)
    elif how == "off-board":
        mask = bytearray(base64.b64decode(cert["cuts"][0]))
        mask[-1] |= 0x80  # node 8 * width - 1 >= n: no such square
        assert 8 * width - 1 >= n
        cert["cuts"][0] = base64.b64encode(bytes(mask)).decode()
    elif how == "short":
        cert["cuts"][0] = base64.b64encode(bytes(width - 1)).decode()
    elif how == "long":
        cert["cuts"][0] = base64.b64encode(bytes(width + 1)).decode()
    else:
        cert["cuts"][0] = "!!!"
    with pytest.raises(DrupRejected, match="cut"):
        check_drup_certificate(cert)
    with pytest.raises(CertificateRejected):
        verify_certificate(cert)


@pytest.mark.slow  # every cut removed in turn, 6 s
def test_removing_a_cut_is_rejected_exactly_when_the_chain_breaks():
    rejected = tried = 0
    for i in small_cases():
        cert = certificate_of(i)
        if not cert["cuts"]:
            continue
        formula, steps = formula_and_steps(cert)
        lemmas = [lits for add, lits in steps if add]
        n_base = len(formula) - len(cert["cuts"])
        adds_only = with_steps(cert, [(True, x) for x in lemmas])  # naive_rup_chain never deletes
        for j in range(len(cert["cuts"])):
            mutated = dict(adds_only, cuts=cert["cuts"][:j] + cert["cuts"][j + 1:])
            expected = naive_rup_chain(formula[:n_base + j] + formula[n_base + j + 1:], lemmas)
            assert kernel_answer(mutated) == expected == fast_answer(mutated), (i, j)
            rejected += not expected
            tried += 1
    assert tried >= 3 and rejected >= 1


def test_cut_clause_is_every_arc_leaving_the_set():
    f = arc_cnf(3, 4, [], closed=True)
    s = [f.node_of(0, 0), f.node_of(1, 2)]
    clause = cut_clause(f, s)
    want = {f.arc(u, v) for u in s for v in range(f.n_nodes) if v not in s and f.arc(u, v)}
    assert set(clause) == want and len(clause) == len(want)
    for bad in ([], list(range(f.n_nodes)), [f.n_nodes], [-1]):
        with pytest.raises(ValueError):
            cut_clause(f, bad)
    assert decode_cut(encode_cut(s, f.n_nodes), f.n_nodes) == sorted(s)


@pytest.mark.parametrize("change", ["rows", "cols", "no-holes", "open"])
def test_a_proof_for_a_different_board_is_rejected(change):
    i = 12  # 3x10 minus (0,0), (1,6), closed
    cert = fresh(i)
    b = cert["board"]
    if change == "rows":
        b["rows"] = 5
    elif change == "cols":
        b["cols"] = 12
    elif change == "no-holes":
        b["holes"] = []
    else:
        cert["closed"] = False
    holes = [tuple(h) for h in b["holes"]]
    board = Board(b["rows"], b["cols"], holes=holes)
    # the changed question has the answer "yes": a sound checker must reject
    other = find_tour(board, closed=cert["closed"], start=cert["start"] and tuple(cert["start"]),
                      end=cert["end"] and tuple(cert["end"]), engine="cpsat", time_limit=30)
    assert other.status is Status.FOUND
    assert not kernel_answer(cert)
    assert not fast_answer(cert) if _prepares(cert) else True


def _prepares(cert) -> bool:
    try:
        prepare_drup(cert)
        return True
    except DrupRejected:
        return False


@pytest.mark.parametrize("how", ["base64", "zlib", "size-mismatch", "absurd-size", "negative-size",
                                 "lemmas-count", "bool-size", "format", "truncated-stream",
                                 "bad-tag", "literal-out-of-range", "unknown-field", "encoding"])
def test_corrupted_or_absurd_proof_data_is_rejected(how):
    cert = fresh(6)
    p = cert["proof"]
    raw = zlib.decompress(base64.b64decode(p["data"]))
    if how == "base64":
        p["data"] = p["data"][:-3] + "*=="
    elif how == "zlib":
        packed = bytearray(base64.b64decode(p["data"]))
        packed[len(packed) // 2] ^= 0xFF
        p["data"] = base64.b64encode(bytes(packed)).decode()
    elif how == "size-mismatch":
        p["size"] += 1
    elif how == "absurd-size":
        p["size"] = 1 << 40
    elif how == "negative-size":
        p["size"] = -1
    elif how == "lemmas-count":
        p["lemmas"] += 1
    elif how == "bool-size":
        p["size"] = True
    elif how == "format":
        p["format"] = "drat-text"
    elif how == "truncated-stream":
        cut = raw[:-1]
        p.update(size=len(cut), data=base64.b64encode(zlib.compress(cut)).decode())
    elif how == "bad-tag":
        bad = b"x" + raw[1:]
        p.update(data=base64.b64encode(zlib.compress(bad)).decode())
    elif how == "literal-out-of-range":
        bad = encode_proof([(True, [10 ** 6])]) + raw
        p.update(size=len(bad), lemmas=p["lemmas"] + 1, data=base64.b64encode(zlib.compress(bad)).decode())
    elif how == "unknown-field":
        cert["extra"] = 1
    else:
        cert["encoding"] = "arc-cut/2"
    with pytest.raises(DrupRejected):
        check_drup_certificate(cert)
    with pytest.raises(CertificateRejected):
        verify_certificate(cert)


def test_a_zlib_bomb_is_refused_before_inflating():
    cert = fresh(6)
    bomb = zlib.compress(b"\0" * (50 << 20))  # 50 MiB of zeros in about 50 KB
    cert["proof"].update(size=1 << 27, data=base64.b64encode(bomb).decode())
    with pytest.raises(DrupRejected, match="more than zlib can expand"):
        check_drup_certificate(cert)
    cert["proof"]["size"] = 1000  # a small declared size: decompression stops there
    with pytest.raises(DrupRejected, match="exactly the declared"):
        check_drup_certificate(cert)


# ---------------------------------------------------------------- (c) fuzz
def random_request(i: int) -> Question:
    rng = random.Random(5000 + i)
    m, n = rng.randint(3, 6), rng.randint(3, 7)
    sq = [(r, c) for r in range(m) for c in range(n)]
    b = Board(m, n, holes=rng.sample(sq, rng.randint(0, 4)))
    live = b.squares()
    start = rng.choice(live) if rng.random() < 0.2 else None
    end = rng.choice(live) if rng.random() < 0.2 else None
    return Question(b, closed=rng.random() < 0.5, start=start, end=end)


# 40 of the 100 in the default run, the rest with the slow tests
@pytest.mark.parametrize("i", [i if i < 40 else pytest.param(i, marks=pytest.mark.slow) for i in range(100)])
def test_fuzz_every_certified_no_is_infeasible_for_cpsat(i):
    req = random_request(i)
    r = run_engine("sat", req, time_limit=60)
    assert r.status is not Status.UNKNOWN
    b = req.board
    if r.status is Status.FOUND:
        assert check_tour(b, r.tour, closed=req.closed) is None
        return
    assert check_drup_certificate(r.proof).startswith("OK: no ")
    assert fast_answer(r.proof)
    if b.n_squares >= 2 and (b.degrees() == 0).any():
        return  # CP-SAT drops squares without moves from its circuit
    other = find_tour(b, closed=req.closed, start=req.start, end=req.end, engine="cpsat", time_limit=60)
    assert other.status is Status.IMPOSSIBLE, (b.to_mask(), req)


# ---------------------------------------------------------------- (d) agreement up to 40 squares
def small_boards():
    for m in range(1, 41):
        for n in range(m, 41):
            if m * n > 40:
                break
            yield Board(m, n)
            for r in range(m):  # every removal (symmetric boards number their arcs differently)
                for c in range(n):
                    if m * n > 1:
                        yield Board(m, n, holes=[(r, c)])


@pytest.mark.slow
def test_sat_cpsat_and_exhaustive_agree_up_to_40_squares():
    boards = list(small_boards())
    assert len(boards) > 500
    for b in boards:
        for closed in (True, False):
            req = Question(b, closed=closed)
            s = run_engine("sat", req, time_limit=60)
            x = find_tour(b, closed=closed, engine="exhaustive", time_limit=120)
            assert s.status is not Status.UNKNOWN and x.status is not Status.UNKNOWN
            assert s.status == x.status, (b.describe(), b.holes(), closed)
            if s.status is Status.IMPOSSIBLE:
                check_drup_certificate(s.proof)
            if b.n_squares >= 2 and (b.degrees() == 0).any():
                continue  # CP-SAT drops squares without moves from its circuit
            c = find_tour(b, closed=closed, engine="cpsat", time_limit=60)
            assert c.status == s.status, (b.describe(), b.holes(), closed)


# ---------------------------------------------------------------- (e) no solver needed
def test_verify_without_ortools_or_pysat(tmp_path):
    path = tmp_path / "no.json"
    path.write_text(json.dumps(certificate_of(6)))
    bad = fresh(6)
    bad["cuts"][0] = encode_cut([], 1)
    bad_path = tmp_path / "bad.json"
    bad_path.write_text(json.dumps(bad))
    code = (
        "import sys\n"
        "class Block:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.split('.')[0] in ('ortools', 'pysat', 'numba'):\n"
        "            raise ImportError('blocked: ' + name)\n"
        "sys.meta_path.insert(0, Block())\n"
        "import json\n"
        "from kt_formal.certificate import verify_certificate\n"
        "from kt_formal.exceptions import CertificateRejected\n"
        f"print(verify_certificate(json.load(open({str(path)!r})))[1])\n"
        "try:\n"
        f"    verify_certificate(json.load(open({str(bad_path)!r})))\n"
        "except CertificateRejected as e:\n"
        "    print('REJECTED', e)\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('ortools', 'pysat', 'numba')))\n"
    )
    import os
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                         env={**os.environ, "PYTHONPATH": root})
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[0].startswith("no closed tour of the 3x8 board minus 2 squares")
    assert lines[1].startswith("REJECTED")
    assert lines[2] == "[]"


@pytest.mark.slow
# ---------------------------------------------------------------- (f) fast == pure
def test_fast_path_gives_the_kernels_answer_on_accepted_and_rejected_proofs():
    rng = random.Random(11)
    seen = {True: 0, False: 0}
    for i in range(len(NO_CHEAP_PROOF)):
        cert = certificate_of(i)
        assert kernel_answer(cert) and fast_answer(cert)
        seen[True] += 1
        _, steps = formula_and_steps(cert)
        for _ in range(6):
            mutated = list(steps)
            op = rng.randrange(4)
            j = rng.randrange(len(mutated))
            if op == 0:
                del mutated[j]
            elif op == 1 and mutated[j][1]:
                add, lits = mutated[j]
                mutated[j] = (add, [-lits[0]] + lits[1:])
            elif op == 2:
                mutated.insert(j, (False, list(mutated[j][1])))
            else:
                k = rng.randrange(len(mutated))
                mutated[j], mutated[k] = mutated[k], mutated[j]
            m = with_steps(cert, mutated)
            a = kernel_answer(m)
            assert fast_answer(m) == a, (i, op, j)
            seen[a] += 1
    assert seen[True] >= 30 and seen[False] >= 30


def test_trimming_keeps_the_proof_valid_and_not_longer():
    req = request_of(NO_CHEAP_PROOF[28])
    untrimmed = run_engine("sat", req, trim=False).proof
    trimmed = run_engine("sat", req).proof
    assert check_drup_certificate(untrimmed) and check_drup_certificate(trimmed)
    assert trimmed["proof"]["lemmas"] <= untrimmed["proof"]["lemmas"]
    assert len(trimmed["cuts"]) <= len(untrimmed["cuts"])


def test_trimming_stops_at_its_deadline_and_the_answer_is_unknown(monkeypatch):
    """Trimming a proof is bounded by the time limit: past it the engine claims nothing (before,
    a census question could sit for minutes trimming a large proof)."""
    import time

    req = request_of(NO_CHEAP_PROOF[28])
    real = sat.trim_proof
    seen = []
    monkeypatch.setattr(sat, "trim_proof", lambda *a, **k: seen.append(a) or real(*a, **k))
    assert run_engine("sat", req).status is Status.IMPOSSIBLE
    clauses, n_vars, steps = seen[0]
    with pytest.raises(sat.ProofOutOfTime, match="proof steps replayed"):
        real(clauses, n_vars, steps, deadline=time.perf_counter() - 1)
    trimmed, _ = real(clauses, n_vars, steps, deadline=time.perf_counter() + 600)
    assert trimmed[-1] == (True, [])  # with time to spare it ends with the empty clause

    # the deadline handed to the trimming has passed already: as if the solving took it all
    monkeypatch.setattr(sat, "trim_proof", lambda c, n, st, deadline=None: real(c, n, st, deadline=deadline - 1e9))
    r = run_engine("sat", req, time_limit=600)
    assert r.status is Status.LIMIT and r.proof is None
    assert "ran out while trimming the proof" in r.message and "nothing is claimed" in r.message


def test_engine_registry_and_unknown_at_a_tiny_limit():
    r = find_tour(Board(5, 6), engine="sat")
    assert r.status is Status.FOUND and r.tour.check() is None
    r = find_tour(Board(3, 8), engine="sat")
    assert r.status is Status.IMPOSSIBLE and check_drup_certificate(r.proof)
    r = run_engine("sat", Question(Board(3, 8)), Limits(1e-9))  # spent before the engine starts
    assert r.status is Status.LIMIT and "nothing is claimed" in r.message and r.proof is None


def test_a_formula_with_the_empty_clause_and_odd_deletions():
    # the 3 x 3 board: the centre has no move, so the formula holds the empty clause;
    # deleting it (or a clause that is not there) changes nothing, both checkers agree
    base = {"format": "kt-formal/1", "kind": "drup", "board": {"rows": 3, "cols": 3, "holes": []},
            "closed": True, "start": None, "end": None, "forced": [], "forbidden": [],
            "encoding": "arc-cut/1", "cuts": []}
    for steps in ([(True, [])], [(False, []), (True, [])], [(False, [1, 2]), (True, [1]), (True, [])]):
        cert = with_steps(dict(base, proof={"format": "drat-binary", "compression": "zlib",
                                            "size": 1, "lemmas": 1, "data": ""}), steps)
        assert kernel_answer(cert) and fast_answer(cert)
