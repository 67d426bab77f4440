"""The trusted kernel: checks without solvers, claims that name what was checked, forgeries refused."""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from kt_formal import kernel
from kt_formal.board import Board
from kt_formal.claims import check_certificate
from kt_formal.exceptions import CertificateNotChecked, CertificateRejected
from kt_formal.question import Question
from kt_formal.kernel.reader import loads_strict
from kt_formal.proofs import find_proof, make_proof
from kt_formal.solve import find_tour

ROOT = Path(__file__).resolve().parents[1]


def proofs() -> dict:
    """One certificate of every proof kind, made by the finders (names -> dict)."""
    out = {
        "ends": find_proof(Question(Board(6, 6), closed=False, start=(0, 0), end=(0, 0))),
        "colour": find_proof(Question(Board(5, 5), closed=True)),
        "colour with ends": find_proof(Question(Board(5, 5), closed=False, start=(0, 1))),
        "degree": find_proof(Question(Board(3, 3), closed=True)),
        "alternation": find_proof(Question(Board(4, 7), closed=True)),
        "separator": find_proof(Question(Board(3, 8), closed=True), thorough=True),
        "separator open": find_proof(Question(Board(3, 6), closed=False), thorough=True),
        "exhaustive": make_proof(Question(Board(3, 7), False, end=(1, 3)), "exhaustive", engine="exhaustive", nodes=1000, pruning="none"),
    }
    for name, p in out.items():
        assert p is not None, name
    return out


def tour_certificate(closed=True, rows=6, cols=6, holes=()):
    r = find_tour(Board(rows, cols, holes=list(holes) or None), closed=closed, engine="cpsat")
    return json.loads(r.tour.to_json())


# ---------------------------------------------------------------- the kernel stands alone
BLOCKER = """
import sys
class Block:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("ortools", "networkx", "numba", "pysat"):
            raise ImportError(name + " may not be imported here")
sys.meta_path.insert(0, Block())
"""


def test_kernel_checks_every_kind_where_no_solver_can_be_imported(tmp_path):
    files = {name: p for name, p in proofs().items()}
    files["tour"] = tour_certificate()
    files["open tour with a hole"] = tour_certificate(closed=False, rows=5, cols=5, holes=[(2, 2)])
    paths = []
    for i, (name, d) in enumerate(sorted(files.items())):
        p = tmp_path / f"{i}.json"
        p.write_text(json.dumps(d))
        paths.append((name, str(p)))
    code = BLOCKER + """
import json
from kt_formal import kernel
from kt_formal.claims import check_certificate
from kt_formal.exceptions import CertificateNotChecked
out = {}
for name, path in json.loads(sys.argv[1]):
    try:
        out[name] = "OK " + check_certificate(kernel.read_certificate(path))
    except CertificateNotChecked as exc:
        out[name] = str(exc)
print(json.dumps(out))
assert not any(m.split(".")[0] in ("ortools", "networkx", "numba", "pysat") for m in sys.modules)
from kt_formal.cli import main
sys.exit(main(["verify", *[p for _, p in json.loads(sys.argv[1])]]))
"""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    run = subprocess.run([sys.executable, "-c", code, json.dumps(paths)], capture_output=True,
                         text=True, timeout=120, env=env)
    first = run.stdout.splitlines()[0]
    out = json.loads(first)
    assert run.stderr == "", run.stderr
    for name, _ in paths:
        if name == "exhaustive":
            assert out[name].startswith("NOT CHECKED") and "to d2" in out[name]
        else:
            assert out[name].startswith("OK "), (name, out[name])
    # the verify command in the same solver-free process: one line per file, a total
    lines = run.stdout.splitlines()[1:]
    assert len(lines) == len(paths) + 1
    assert lines[-1] == f"{len(paths) - 1} of {len(paths)} files verified"
    assert run.returncode == 1  # the exhaustive record is not checked


def test_kernel_imports_nothing_but_the_standard_library_and_numpy():
    import grimp

    g = grimp.build_graph("kt_formal", include_external_packages=True)
    for module in sorted(m for m in g.modules if m.startswith("kt_formal.kernel")):
        for imported in g.find_modules_directly_imported_by(module):
            top = imported.split(".")[0]
            assert top in ("numpy",) or imported.startswith("kt_formal.kernel") or top not in (
                "kt_formal", "ortools", "networkx", "numba", "pysat", "dask", "scipy"), (module, imported)


def test_kernel_is_small_enough_to_read_in_one_sitting():
    lines = sum(len(p.read_text().splitlines()) for p in (ROOT / "kt_formal" / "kernel").glob("*.py"))
    # the aim is well below this; the DRUP checker (cnf.py + rup.py, about 800 lines) is the largest part
    assert lines < 2000, lines


# ---------------------------------------------------------------- claims state what was checked
def test_claim_names_the_start_square():
    # the false line once printed: "no open tour of the 5x5 board" with the start dropped
    p = find_proof(Question(Board(5, 5), closed=False, start=(3, 0)))
    assert p is not None
    claim = check_certificate(p)
    assert claim.startswith("no open tour of the 5x5 board from a2: ")


def test_claim_names_holes_start_and_end_of_a_tour():
    d = tour_certificate(closed=False, rows=5, cols=5, holes=[(2, 2)])
    claim = check_certificate(d)
    first, last = d["squares"][0], d["squares"][-1]
    b = Board(5, 5, holes=[(2, 2)])
    assert claim.startswith(f"open tour of the 5x5 board minus 1 square (c3) from "
                            f"{b.square_name(tuple(first))} to {b.square_name(tuple(last))}: ")


def test_the_kernel_returns_data_and_one_module_words_it():
    """The kernel's answer is a Claim of the fields it checked; kt_formal.claims words every one."""
    from kt_formal.claims import claim_line, describe_evidence
    from kt_formal.kernel.proofcheck import Claim
    from kt_formal.kernel.shape import Shape

    p = find_proof(Question(Board(5, 5), closed=False, start=(3, 0)))
    c = kernel.check_certificate(p)
    assert isinstance(c, Claim) and (c.kind, c.closed, c.start, c.end) == ("proof", False, (3, 0), None)
    assert c.evidence == ("colour", 13, 12)  # figures, not words: the kernel words nothing
    assert claim_line(c) == check_certificate(p) == f"no open tour of the 5x5 board from a2: {describe_evidence(c)}"
    assert describe_evidence(c) == "13 dark and 12 light squares"
    shape = Shape(6, 6, {(0, 0), (5, 5), (2, 3)})
    line = claim_line(Claim("drup", shape, True, (1, 2), (3, 3), lemmas=1, cuts=2, forced=1, forbidden=3))
    assert line == ("no closed tour of the 6x6 board minus 3 squares (a6, d4, f1) from c5 to d3 using 1 "
                    "forced move avoiding 3 forbidden moves: DRUP proof of 1 lemma over the arc encoding "
                    "with 2 cuts, checked")
    many = Shape(8, 8, {(0, c) for c in range(8)})
    assert claim_line(Claim("tour", many, False, (1, 0), (7, 7))).startswith(
        "open tour of the 8x8 board minus 8 squares (a8, b8, c8, d8, e8, f8 and 2 more) from a7 to h1: ")


MUTATIONS = {
    "wrong board size": lambda d: d["board"].__setitem__("rows", d["board"]["rows"] + 1),
    "board shrunk": lambda d: d["board"].__setitem__("cols", d["board"]["cols"] - 1),
    "hole added": lambda d: d["board"]["holes"].append([0, 0]),
    "holes moved": lambda d: d["board"].__setitem__("holes", [[0, 1]] if not d["board"]["holes"] else
                                                     [[h[0], (h[1] + 1) % d["board"]["cols"]] for h in d["board"]["holes"]]),
    "start dropped": lambda d: d.__setitem__("start", None),
    "start changed": lambda d: d.__setitem__("start", [0, 0]),
    "end added": lambda d: d.__setitem__("end", [1, 1]),
    "closed flipped": lambda d: d.__setitem__("closed", not d["closed"]),
    "list truncated": lambda d: [d.__setitem__(k, d[k][:-1]) for k in
                                 ("squares", "degrees", "independent", "separator") if isinstance(d.get(k), list)],
    "count changed": lambda d: [d.__setitem__(k, d[k] + 1) for k in ("dark", "components") if k in d],
    "type changed": lambda d: d.__setitem__("closed", "yes"),
    "format changed": lambda d: d.__setitem__("format", "kt-formal/2"),
}


@pytest.mark.parametrize("mutation", sorted(MUTATIONS))
@pytest.mark.parametrize("kind", sorted(set(proofs()) - {"exhaustive"}))
def test_mutated_proofs_are_rejected_or_claim_exactly_what_holds(kind, mutation):
    """Every mutation is either refused, or the claim states the mutated question exactly,
    and that question really has no tour (CP-SAT confirms on these small boards)."""
    d = copy.deepcopy(proofs()[kind])
    MUTATIONS[mutation](d)
    try:
        claim = check_certificate(d)
    except CertificateRejected:
        return
    b = Board(d["board"]["rows"], d["board"]["cols"], holes=[tuple(h) for h in d["board"]["holes"]] or None)
    ends = "".join(f" {w} {b.square_name(tuple(d[k]))}" for w, k in (("from", "start"), ("to", "end"))
                   if d[k] is not None)
    k = b.size - b.n_squares
    names = ", ".join(b.square_name(h) for h in sorted(b.holes())[:6])
    holes = f" minus {k} square{'s' if k != 1 else ''} ({names})" if k else ""
    question = (f"no {'closed' if d['closed'] else 'open'} tour of the "
                f"{b.rows}x{b.cols} board{holes}{ends}: ")
    assert claim.startswith(question), (claim, question)
    r = find_tour(b, closed=d["closed"], start=d["start"] and tuple(d["start"]),
                  end=d["end"] and tuple(d["end"]), engine="cpsat", time_limit=60)
    degree_zero = b.n_squares >= 2 and (b.degrees() == 0).any()
    assert degree_zero or r.status.value == "impossible", (kind, mutation, claim)


@pytest.mark.parametrize("mutation", sorted(MUTATIONS))
def test_mutated_tours_are_rejected_or_claim_exactly_what_holds(mutation):
    d = tour_certificate(closed=True, rows=6, cols=6)
    d["start"], d["end"] = None, None  # tours name no ends: a field the kernel must refuse
    d = {k: v for k, v in d.items() if k not in ("start", "end")}
    MUTATIONS[mutation](d)
    try:
        claim = check_certificate(d)
    except CertificateRejected:
        return
    # a mutation that still is a valid tour: the claim must describe the mutated certificate
    assert claim.startswith(f"{'closed' if d['closed'] else 'open'} tour of the "
                            f"{d['board']['rows']}x{d['board']['cols']} board")


def test_forged_exhaustive_records_are_never_accepted():
    d = proofs()["exhaustive"]
    for forged in (dict(d, nodes=10**18), dict(d, start=[0, 0], end=[2, 6]), dict(d, engine="oracle")):
        with pytest.raises(CertificateNotChecked) as info:
            check_certificate(forged)
        text = str(info.value)
        if forged.get("start"):
            assert "from a3 to g1" in text  # the claim it refuses still names the ends


# ---------------------------------------------------------------- strict, bounded reading
@pytest.mark.parametrize("text, match", [
    ('{"a": 1,\n "a": 2}', r"duplicate key 'a' \(line 2\)"),
    ('{"a": NaN}', r"NaN is not a number"),
    ('{"a": Infinity}', r"Infinity is not a number"),
    ('{"a": -Infinity}', r"Infinity is not a number"),
    ('{"a": 1e999}', r"not finite"),
    ('{"a": ' + "9" * 5000 + "}", r"integer of 5000 digits"),
    ('{"a": [' * 50000, r"nested too deeply|not valid JSON"),
    ('{"a": 1', r"not valid JSON \(line 1, column 8"),
])
def test_strict_json(text, match):
    with pytest.raises(CertificateRejected, match=match):
        loads_strict(text)


def test_huge_boards_cost_nothing_to_check_by_colour():
    import time

    d = make_proof(Question(Board(3, 3), True), "colour", dark=0, light=0)
    d["board"] = {"rows": 999999999, "cols": 999999999, "holes": []}
    n = 999999999 * 999999999
    d["dark"], d["light"] = (n + 1) // 2, n // 2
    t = time.process_time()  # processor time: a busy machine does not stretch it
    claim = check_certificate(d)
    assert time.process_time() - t < 1.0
    assert claim.startswith("no closed tour of the 999999999x999999999 board: ")


def test_separator_on_a_large_board_is_refused_before_any_work():
    import time

    d = make_proof(Question(Board(3, 3), True), "separator", separator=[], components=2, reduced=False, virtual=[])
    d["board"] = {"rows": 2000, "cols": 2000, "holes": []}
    t = time.process_time()  # processor time: a busy machine does not stretch it
    with pytest.raises(CertificateRejected, match="checked up to"):
        check_certificate(d)
    assert time.process_time() - t < 1.0
