"""SAT engine: tours from CaDiCaL, and "no tour" with a DRUP proof the kernel checks.

The question "is there a tour?" is the CNF of :mod:`kt_formal.kernel.cnf` (one variable
per directed knight move, exactly one move out of and into every square, an extra
virtual square closing open tours). Connectivity is added lazily as *cut axioms*: solve;
if the chosen moves form one cycle it is a tour (checked by the kernel's tour check);
otherwise every cycle ``C`` of the solution gets the clause "some move leaves C", and the
solver runs again. The loop ends with a tour, with UNSAT, or at the time limit (LIMIT).

On UNSAT the final formula (the base clauses and every cut) is solved again in a fresh
CaDiCaL with proof logging (python-sat ``Solver(name="cadical153", with_proof=True)``),
the DRUP proof is *trimmed* (a forward replay records which clauses each lemma's unit
propagation used; a backward pass keeps the lemmas the empty clause depends on, and each
clause is deleted right after its last use), and stored as binary DRAT, zlib, base64 in a
``drup`` certificate that :func:`kt_formal.kernel.rup.check_drup` checks
without any solver. The idea of lazily added subtour cuts is the classic one of Dantzig,
Fulkerson and Johnson (1954) for the travelling salesman problem.

>>> from kt_formal.board import Board
>>> from kt_formal.claims import check_drup_certificate
>>> r = Sat().run(Question(Board(4, 5)))
>>> r.status.value
'impossible'
>>> check_drup_certificate(r.proof).startswith("OK: no closed tour of the 4x5 board")
True
>>> Sat().run(Question(Board(5, 6))).tour.check() is None
True
"""

from __future__ import annotations

import base64
import time
import zlib
from dataclasses import dataclass

from kt_formal.certificate import question_header
from kt_formal.question import Limits, Question, Result
from kt_formal.engines.base import Engine
from kt_formal.kernel.cnf import ENCODING, ArcCNF, arc_cnf, cut_clause
from kt_formal.claims import claimed_question, describe_question, question_claim
from kt_formal.kernel.rup import MAX_CLAUSES, RupDB, clause_estimate
from kt_formal.kernel.shape import Shape

__all__ = ["NAME", "Sat", "fits", "too_big", "ProofOutOfTime", "drup_claim_of", "formula", "trim_proof", "certificate", "explain", "SOLVER",
           "encode_proof", "encode_cut"]

NAME = "sat"

#: python-sat's name of the solver used, for the search and for the proof.
SOLVER = "cadical153"

def fits(board, closed: bool) -> bool:
    """True when the kernel accepts the arc encoding of ``board`` (its clause estimate)."""
    return clause_estimate(board.n_squares, closed) <= MAX_CLAUSES


def formula(request: Question) -> ArcCNF:
    """The arc CNF of ``request`` (no cuts yet)."""
    b = request.board
    return arc_cnf(b.rows, b.cols, b.holes(), request.closed, request.start, request.end,
                   request.forced, request.forbidden)


def _cycles(f: ArcCNF, model, arcs) -> list[list[int]]:
    """The cycles formed by the true arcs of ``model`` (each a list of nodes in order)."""
    succ = [-1] * f.n_nodes
    for lit in model:
        if 0 < lit <= f.n_vars:
            u, v = arcs[lit]
            succ[u] = v
    seen = [False] * f.n_nodes
    cycles = []
    for s in range(f.n_nodes):
        if seen[s]:
            continue
        cyc = []
        u = s
        while not seen[u]:
            seen[u] = True
            cyc.append(u)
            u = succ[u]
            if u < 0:
                raise RuntimeError("the solver's model leaves a node without a successor")
        cycles.append(cyc)
    return cycles


def _run(solver, budget: float | None):
    """Solve within ``budget`` seconds: True, False, or None when the time ran out.

    python-sat's CaDiCaL cannot be interrupted, so the search runs in slices of a growing
    number of conflicts (``conf_budget``) and the clock is read between slices; a slice
    can overrun the limit by its own length (milliseconds to a few seconds).
    """
    if budget is None:
        return solver.solve()
    t0 = time.perf_counter()
    slice_ = 2_000
    while True:
        if time.perf_counter() - t0 >= budget:
            return None
        solver.conf_budget(slice_)
        answer = solver.solve_limited()
        if answer is not None:
            return answer
        slice_ = min(2 * slice_, 200_000)


def too_big(question: Question) -> str | None:
    """Why the SAT engine does not take ``question`` (its formula too big for a proof), or None."""
    if fits(question.board, question.closed):
        return None
    return (f"the sat engine's formula for this board would have about "
            f"{clause_estimate(question.board.n_squares, question.closed):,} clauses, more than the "
            f"{MAX_CLAUSES:,} its proofs may have; choose another engine (the default picks one)")


class Sat(Engine):
    """Find a tour or prove there is none, with a DRUP certificate.

    The time limit covers everything (search, proof, trimming). FOUND with a verified
    tour; IMPOSSIBLE with ``proof`` the ``drup`` certificate; LIMIT when the limit ran out
    (the message says how far the loop got).
    """

    name = NAME

    @dataclass(frozen=True)
    class Options:
        """``trim``: trim the proof (smaller certificate, faster check)."""

        trim: bool = True

    def supports(self, question: Question) -> str | None:
        return too_big(question)

    def search(self, question: Question, limits: Limits, options) -> Result:
        """The cut loop, then the proof (see the module docstring)."""
        return _solve(self, question, limits, options.trim)


def _solve(engine: Sat, request: Question, limits: Limits, trim: bool) -> Result:
    from pysat.solvers import Solver

    time_limit, left = limits.time_limit, limits.left
    f = formula(request)
    arcs = [None] * (f.n_vars + 1)
    for u, row in enumerate(f.out_arcs):
        for v, x in row:
            arcs[x] = (u, v)
    cuts: list[list[int]] = []
    rounds = 0
    stats = {"variables": f.n_vars, "clauses": len(f.clauses)}
    with Solver(name=SOLVER, bootstrap_with=f.clauses) as solver:
        while True:
            rounds += 1
            sat = _run(solver, left())
            if sat is None:
                stats.update(rounds=rounds, cuts=len(cuts))
                return engine.limit(request, limits,
                                    f"time limit reached in round {rounds} of the cut loop, "
                                    f"after {len(cuts)} cuts; nothing is claimed", stats)
            if not sat:
                break
            cycles = _cycles(f, solver.get_model(), arcs)
            if len(cycles) == 1:
                stats.update(rounds=rounds, cuts=len(cuts))
                return engine.found(request, limits, _tour_order(request, f, cycles[0]), stats)
            for cyc in cycles:
                nodes = sorted(cyc)
                cuts.append(nodes)
                solver.add_clause(cut_clause(f, nodes))
    stats.update(rounds=rounds, cuts=len(cuts), search_seconds=round(limits.elapsed(), 6))
    t_proof = limits.elapsed()
    clauses = f.clauses + [cut_clause(f, c) for c in cuts]
    with Solver(name=SOLVER, with_proof=True, bootstrap_with=clauses) as prover:
        again = _run(prover, left())
        if again is None:
            return engine.limit(request, limits,
                                f"the cut loop proved unsatisfiability after {len(cuts)} cuts, but the "
                                "time limit ran out while re-solving with proof logging; nothing is claimed",
                                stats)
        if again:
            raise RuntimeError("CaDiCaL found the final formula satisfiable on the re-run")
        lines = prover.get_proof()
    stats["proof_seconds"] = round(limits.elapsed() - t_proof, 6)
    t_trim = limits.elapsed()
    steps = _parse_drup(lines)
    stats["proof_lemmas_raw"] = sum(1 for a, _ in steps if a)
    if trim:
        deadline = None if time_limit is None else time.perf_counter() + max(0.0, left())
        try:
            steps, used = trim_proof(clauses, f.n_vars, steps, deadline=deadline)
        except ProofOutOfTime as stop:
            stats["trim_seconds"] = round(limits.elapsed() - t_trim, 6)
            return engine.limit(request, limits,
                                f"the cut loop proved unsatisfiability after {len(cuts)} cuts, but the "
                                f"time limit ran out while trimming the proof ({stop}); nothing is claimed",
                                stats)
        base = len(f.clauses)
        cuts = [c for j, c in enumerate(cuts) if base + j in used]  # unused cuts are dropped
        stats["cuts_used"] = len(cuts)
    stats["trim_seconds"] = round(limits.elapsed() - t_trim, 6)
    cert = certificate(request, f, cuts, steps, stats)
    stats["proof_lemmas"] = cert["proof"]["lemmas"]
    stats["proof_bytes"] = cert["proof"]["size"]
    return engine.impossible(request, limits,
                             f"{drup_claim_of(request)}: CaDiCaL proved it after {len(cuts)} cuts in "
                             f"{rounds} rounds; DRUP proof of {cert['proof']['lemmas']} lemmas",
                             proof=cert, stats=stats)


def _tour_order(request: Question, f: ArcCNF, cycle: list[int]) -> list[int]:
    """Board indices of the tour in a Hamiltonian cycle of nodes."""
    cols = request.board.cols
    if f.virtual is not None:
        i = cycle.index(f.virtual)
        cycle = cycle[i + 1:] + cycle[:i]
    return [f.squares[u][0] * cols + f.squares[u][1] for u in cycle]


def _parse_drup(lines) -> list[tuple[bool, list[int]]]:
    """python-sat's textual DRUP lines as ``(add, DIMACS literals)`` steps."""
    steps = []
    for line in lines:
        parts = line.split()
        add = True
        if parts and parts[0] == "d":
            add = False
            parts = parts[1:]
        lits = [int(x) for x in parts]
        if not lits or lits[-1] != 0:
            raise RuntimeError(f"unexpected DRUP line {line!r}")
        steps.append((add, lits[:-1]))
    return steps


def _code(lit: int) -> int:
    return 2 * lit if lit > 0 else -2 * lit + 1


class ProofOutOfTime(Exception):
    """Trimming a proof reached its deadline (the message says how far it got)."""


#: Lemmas replayed between two looks at the clock while trimming.
TRIM_CLOCK_EVERY = 64


class _TrackingRupDB(RupDB):
    """The kernel's clause database, recording which clauses each conflict used
    (``last_used``; the first top-level conflict's in ``top_used``), for trimming."""

    __slots__ = ("last_used", "top_used")

    def __init__(self, nvars: int):
        super().__init__(nvars)
        self.last_used: set = set()
        self.top_used: set | None = None

    def _used(self, cids) -> None:
        """The clause ids in the implication graph behind the conflicting clauses."""
        reason, clauses = self.reason, self.clauses
        used: set = set()
        seen_vars: set = set()
        stack = list(cids)
        while stack:
            cid = stack.pop()
            if cid in used:
                continue
            used.add(cid)
            for lit in clauses[cid]:
                v = lit >> 1
                if v not in seen_vars:
                    seen_vars.add(v)
                    if reason[v] >= 0 and reason[v] not in used:
                        stack.append(reason[v])
        if self.conflict is not None and self.top_used is None:  # the top level's, from add()
            self.top_used = used
        else:  # a lemma's check, read after it is added
            self.last_used = used

    def is_rup(self, lits: list[int]) -> bool:
        if self.conflict is not None:
            self.last_used = set(self.top_used)
            return True
        return super().is_rup(lits)


def trim_proof(clauses, n_vars: int, steps, deadline: float | None = None
               ) -> tuple[list[tuple[bool, list[int]]], set]:
    """Keep the lemmas the empty clause depends on; delete each clause after its last use.

    ``deadline`` (a ``time.perf_counter()`` value, or None for none) bounds the replay, which
    is the costly part: past it, :class:`ProofOutOfTime` is raised.

    A forward replay with the kernel's :class:`~kt_formal.kernel.rup.RupDB` records for
    each lemma the clauses its unit propagation used; a backward pass from the empty
    clause marks the lemmas needed.

    Returns
    -------
    (steps, used)
        The trimmed proof, ending with the empty clause, and the indices of the input
        ``clauses`` some kept lemma uses (the others can be left out of the formula).

    Raises
    ------
    RuntimeError
        If a lemma of the solver's proof is not RUP, or no conflict is reached (a bug).
    """
    db = _TrackingRupDB(n_vars)
    for c in clauses:
        db.add([_code(x) for x in c])
    lemmas: list[tuple[int, list[int], set]] = []  # (clause id or -1 for empty, lits, used)
    if db.conflict is None:
        for k, (add, lits) in enumerate(steps):
            if deadline is not None and k % TRIM_CLOCK_EVERY == 0 and time.perf_counter() > deadline:
                raise ProofOutOfTime(f"{k:,} of {len(steps):,} proof steps replayed")
            if not add:
                db.delete([_code(x) for x in lits])
                continue
            codes = [_code(x) for x in lits]
            if not db.is_rup(codes):
                raise RuntimeError(f"CaDiCaL lemma {lits} is not RUP")
            if not lits:
                lemmas.append((-1, lits, db.last_used))
                break
            cid = db.add(codes)
            lemmas.append((cid, lits, db.last_used))
            if db.conflict is not None:
                break
    if not lemmas or lemmas[-1][0] != -1:
        if db.conflict is None:
            raise RuntimeError("the solver's proof does not reach a conflict")
        lemmas.append((-1, [], set(db.top_used)))
    needed = set(lemmas[-1][2])
    keep = [False] * len(lemmas)
    keep[-1] = True
    for i in range(len(lemmas) - 2, -1, -1):
        cid, _, used = lemmas[i]
        if cid in needed:
            keep[i] = True
            needed |= used
    kept = [i for i in range(len(lemmas)) if keep[i]]
    last_use: dict[int, int] = {}
    for pos, i in enumerate(kept):
        for cid in lemmas[i][2]:
            last_use[cid] = pos
    deletions: dict[int, list[int]] = {}
    for cid, pos in last_use.items():
        deletions.setdefault(pos, []).append(cid)
    used_input = {cid for cid in needed if cid < len(clauses)}
    lits_of = {lemmas[i][0]: lemmas[i][1] for i in kept}
    out: list[tuple[bool, list[int]]] = []
    for pos, i in enumerate(kept):
        out.append((True, list(lemmas[i][1])))
        if pos == len(kept) - 1:
            break
        for cid in sorted(deletions.get(pos, ())):
            lits = lits_of.get(cid) if cid >= len(clauses) else clauses[cid]
            if lits is not None and len(lits) > 1:
                out.append((False, list(lits)))
    return out, used_input


def certificate(request: Question, f: ArcCNF, cuts, steps, stats=None) -> dict:
    """The ``drup`` certificate (kt-formal/1 JSON) of a proof for ``request``."""
    raw = encode_proof(steps)
    d = {
        **question_header(request, "drup"),
        "forced": [[list(a), list(b)] for a, b in request.forced],
        "forbidden": [[list(a), list(b)] for a, b in request.forbidden],
        "encoding": ENCODING,
        "cuts": [encode_cut(c, f.n_nodes) for c in cuts],
        "proof": {
            "format": "drat-binary",
            "compression": "zlib",
            "size": len(raw),
            "lemmas": sum(1 for a, _ in steps if a),
            "data": base64.b64encode(zlib.compress(raw, 9)).decode("ascii"),
        },
    }
    if stats:
        d["meta"] = {"engine": NAME, "solver": SOLVER, **stats}
    return d


def drup_claim_of(request: Question) -> str:
    """``no closed tour of the 4x5 board``, worded as the kernel's checked claim is."""
    return "no " + claimed_question(question_claim(request, "drup"))


def explain(d: dict) -> str:
    """One paragraph in plain words for a ``drup`` certificate."""
    b = d["board"]
    ends = (None if q is None else tuple(q) for q in (d["start"], d["end"]))
    claim = "no " + describe_question(Shape(b["rows"], b["cols"], {tuple(h) for h in b["holes"]}), d["closed"],
                                      *ends, len(d["forced"]), len(d["forbidden"]))
    return (f"{claim[0].upper()}{claim[1:]}: the moves of a tour, written as one true/false "
            f"variable per directed knight move (exactly one move into and out of every square, "
            f"with {len(d['cuts'])} cut axioms saying that some move leaves a set of squares), "
            f"cannot all hold; a SAT solver's proof of {d['proof']['lemmas']} steps, each checked "
            "by unit propagation, derives a contradiction.")


# ---------------------------------------------------------------------- storing a proof
def encode_proof(steps) -> bytes:
    """Binary DRAT of ``steps``: ``(True, lits)`` adds, ``(False, lits)`` deletes (DIMACS lits)."""
    out = bytearray()
    for add, lits in steps:
        out.append(0x61 if add else 0x64)
        for lit in lits:
            u = 2 * lit if lit > 0 else -2 * lit + 1
            while u > 0x7F:
                out.append((u & 0x7F) | 0x80)
                u >>= 7
            out.append(u)
        out.append(0)
    return bytes(out)


def encode_cut(nodes, n_nodes: int) -> str:
    """Base64 of the bitmask of a node set (node ``i`` is bit ``i % 8`` of byte ``i // 8``)."""
    mask = bytearray((n_nodes + 7) // 8)
    for u in nodes:
        mask[u >> 3] |= 1 << (u & 7)
    return base64.b64encode(bytes(mask)).decode("ascii")
