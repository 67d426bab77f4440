"""The kernel's DRUP checker: a "no tour" certificate checked by unit propagation alone.

A ``drup`` certificate says: the CNF of :mod:`kt_formal.kernel.cnf` for this board and
request, together with the listed *cut axioms*, is unsatisfiable, and here is a DRUP
proof of it (a sequence of added clauses, *lemmas*, and deleted clauses, ending with the
empty clause). The checker

1. regenerates the clauses from the board description alone;
2. rebuilds each cut clause from its node set ``S`` after checking that ``S`` is a
   nonempty proper subset of the nodes (so the clause holds for every tour);
3. replays the proof forward: each lemma must be RUP (reverse unit propagation: setting
   all its literals false and propagating the clause database gives a conflict), then
   joins the database; a deletion removes one copy of the clause;
4. accepts only if the proof's last step adds the empty clause and it is RUP, i.e. unit
   propagation on the database alone gives a conflict.

Every lemma that passes is implied by the clauses before it, so the empty clause is
implied by the CNF and the cuts: no assignment satisfies them, hence no tour exists
(:mod:`kt_formal.kernel.cnf` shows every tour satisfies them).

Deletions: keeping a clause never makes a wrong lemma pass (every clause in the database
is implied by the CNF), so the checker may ignore deletions. It ignores two kinds, as
drat-trim does: a deletion of a clause that is the reason of a literal fixed at the top
level (deleting it would silently undo that literal), and a deletion of a clause that is
not in the database.

Work is bounded by the input: the decompressed proof is at most :data:`MAX_PROOF_BYTES`
(and :data:`MAX_RATIO` times the stored data), the regenerated CNF at most
:data:`MAX_CLAUSES` clauses, and each lemma costs one unit propagation over a database of
at most the formula plus the lemmas before it, so the check is polynomial in the stored
size (in practice about as long as the solver took, see ``benchmarks/bench_proofs.py``).

The proof is stored in drat-trim's binary format (``a``/``d`` byte, then each literal
``l`` as the unsigned ``2 * |l| + (l < 0)`` in 7-bit groups, low group first, high bit
meaning "more follows", then a zero byte), compressed with zlib, then base64. Reading is
bounded: the declared size must not exceed :data:`MAX_PROOF_BYTES` nor
:data:`MAX_RATIO` times the compressed size, and decompression stops at the declared size.

>>> import zlib, base64
>>> d = {"format": "kt-formal/1", "kind": "drup",
...      "board": {"rows": 3, "cols": 3, "holes": []}, "closed": True,
...      "start": None, "end": None, "forced": [], "forbidden": [],
...      "encoding": "arc-cut/1", "cuts": [],
...      "proof": {"format": "drat-binary", "compression": "zlib", "size": 2,
...                "lemmas": 1, "data": base64.b64encode(zlib.compress(b"a\\x00")).decode()}}
>>> c = check_drup(d)
>>> c.kind, c.closed, c.lemmas, c.cuts
('drup', True, 1, 0)
"""

from __future__ import annotations

import base64
import binascii
import zlib
from typing import NamedTuple

from kt_formal.kernel.cnf import ENCODING, arc_cnf, cut_clause
from kt_formal.kernel.proofcheck import Claim
from kt_formal.kernel.shape import read_header, square_from
from kt_formal.kernel.errors import CertificateRejected

__all__ = ["DrupRejected", "RupDB", "check_drup", "prepare_drup",
           "replay", "DrupTask", "decode_proof", "decode_cut", "drup_claim",
           "MAX_PROOF_BYTES", "MAX_RATIO", "MAX_CLAUSES", "clause_estimate"]

#: Largest decompressed proof accepted (bytes).
MAX_PROOF_BYTES = 1 << 28
#: zlib cannot expand more than about 1032 to 1; a declared size above this ratio is refused.
MAX_RATIO = 1100
#: Largest CNF regenerated (clauses), checked on an estimate before it is built.
MAX_CLAUSES = 5_000_000
#: Largest board side accepted.
MAX_SIDE = 10_000
#: Largest number of cuts accepted.
MAX_CUTS = 1 << 20

_FIELDS = ("start", "end", "forced", "forbidden", "encoding", "cuts", "proof")
_PROOF_FIELDS = {"format", "compression", "size", "lemmas", "data"}


class DrupRejected(CertificateRejected):
    """A ``drup`` certificate does not establish its claim (the message says why)."""


def _reject(msg: str):
    raise DrupRejected(msg)


def clause_estimate(k: int, closed: bool) -> int:
    """An upper bound on the clauses of the arc CNF of ``k`` squares (no forced moves).

    At most 8 arcs leave or enter a square: 1 + 28 clauses for each of its in and out, 4
    against 2-cycles; an open tour adds the virtual node's pairwise at-most-one clauses.
    """
    return 62 * k + (0 if closed else k * k + 4 * k + 2)


def _close_gap(ws: list, j: int, i: int) -> None:
    """Remove ``ws[j:i]`` at a cost of ``i - j``: the gap is filled from the list's end."""
    gap = i - j
    if not gap:
        return
    n = len(ws)
    if n - i <= gap:
        ws[j:j + n - i] = ws[i:]
        del ws[j + n - i:]
    else:
        ws[j:i] = ws[n - gap:]
        del ws[n - gap:]


# ---------------------------------------------------------------------- the database
class RupDB:
    """A clause database with unit propagation by two watched literals.

    Literals are coded ``2 * var + (negative)``; ``val[code]`` is 1 (true), -1 (false)
    or 0. Assignments made while the database is merely extended are *top level* and
    never undone; :meth:`is_rup` assigns the negated lemma above them and backtracks.

    Every conflict found is reported to :meth:`_used` before it is undone (the kernel needs
    nothing of it; a proof trimmer outside the kernel records which clauses took part).
    """

    __slots__ = ("nvars", "val", "reason", "trail", "qhead", "watches", "clauses", "keys",
                 "conflict", "ignored_deletions")

    def __init__(self, nvars: int):
        self.nvars = nvars
        self.val = [0] * (2 * nvars + 2)
        self.reason = [-1] * (nvars + 1)
        self.trail: list[int] = []
        self.qhead = 0
        self.watches: list[list[int]] = [[] for _ in range(2 * nvars + 2)]
        self.clauses: list = []
        self.keys: dict = {}
        self.conflict = None  # True once the top level conflicts
        self.ignored_deletions = 0

    # --- propagation
    def _propagate(self):
        """Propagate the trail; return the id of a falsified clause or -1.

        Each watch list is compacted in place. On a conflict the scan stops, and the gap
        left by the watches that moved is filled from the list's end, so stopping costs no
        more than the scan did (copying the unscanned rest would make a long list cost its
        whole length at every conflict).
        """
        val, trail, watches, clauses, reason = self.val, self.trail, self.watches, self.clauses, self.reason
        qhead = self.qhead
        while qhead < len(trail):
            fl = trail[qhead] ^ 1  # this literal just became false
            qhead += 1
            ws = watches[fl]
            n = len(ws)
            i = j = 0
            while i < n:
                cid = ws[i]
                i += 1
                c = clauses[cid]
                if c is None:
                    continue  # deleted: drop the watch
                if c[0] == fl:
                    c[0] = c[1]
                    c[1] = fl
                other = c[0]
                if val[other] == 1:
                    ws[j] = cid
                    j += 1
                    continue
                for k in range(2, len(c)):
                    lk = c[k]
                    if val[lk] != -1:
                        c[1] = lk
                        c[k] = fl
                        watches[lk].append(cid)
                        break
                else:
                    ws[j] = cid
                    j += 1
                    if val[other] == -1:
                        _close_gap(ws, j, i)
                        self.qhead = len(trail)
                        return cid
                    val[other] = 1
                    val[other ^ 1] = -1
                    reason[other >> 1] = cid
                    trail.append(other)
            del ws[j:]
        self.qhead = qhead
        return -1

    def _assign(self, lit: int, cid: int) -> None:
        self.val[lit] = 1
        self.val[lit ^ 1] = -1
        self.reason[lit >> 1] = cid
        self.trail.append(lit)

    def _used(self, cids) -> None:
        """A conflict was reached from the clauses ``cids``, with the trail still in place."""

    # --- the database
    def add(self, lits: list[int], key: tuple | None = None) -> int:
        """Add a clause (literal codes; ``key``, if given, its sorted distinct literals);
        return its id. Updates the top level.

        A clause already in the database is counted once more under its id and is not
        stored or watched again: repeating a clause costs no memory and no propagation.
        """
        key = tuple(sorted(set(lits))) if key is None else key
        entry = self.keys.get(key)
        if entry:
            entry[1] += 1
            return entry[0]
        cid = len(self.clauses)
        c = list(dict.fromkeys(lits))
        self.clauses.append(c)
        self.keys[key] = [cid, 1]  # the clause's id and its number of copies
        if self.conflict is not None:
            return cid
        val = self.val
        c.sort(key=lambda x: val[x] == -1)  # non-false literals first: they are watched
        if len(c) >= 2:
            self.watches[c[0]].append(cid)
            self.watches[c[1]].append(cid)
        if not c or val[c[0]] == -1:  # every literal false at the top level
            self.conflict = True
            self._used([cid])
        elif val[c[0]] == 0 and (len(c) == 1 or val[c[1]] == -1):  # one literal left: a unit
            self._assign(c[0], cid)
            confl = self._propagate()
            if confl >= 0:
                self.conflict = True
                self._used([confl])
        return cid

    def delete(self, lits: list[int], key: tuple | None = None) -> bool:
        """Delete one copy of a clause; False when the deletion is ignored (see module doc)."""
        key = tuple(sorted(set(lits))) if key is None else key
        entry = self.keys.get(key)
        if entry and entry[1] > 1:  # another copy stays
            entry[1] -= 1
            return True
        c = self.clauses[entry[0]] if entry else None
        if not entry or (c and self.val[c[0]] == 1 and self.reason[c[0] >> 1] == entry[0]):
            self.ignored_deletions += 1  # not in the database, or the reason of a top-level literal
            return False
        self.clauses[entry[0]] = None
        del self.keys[key]
        return True

    def is_rup(self, lits: list[int]) -> bool:
        """True when setting every literal of ``lits`` false propagates to a conflict."""
        if self.conflict is not None:
            return True
        val = self.val
        for x in lits:
            if val[x] == 1:  # true at the top level: its negation conflicts at once
                self._used([self.reason[x >> 1]])
                return True
        mark = len(self.trail)
        for x in lits:
            if val[x] == 0:
                self._assign(x ^ 1, -1)
        confl = self._propagate()
        if confl >= 0:
            self._used([confl])
        trail = self.trail
        for lit in trail[mark:]:
            val[lit] = 0
            val[lit ^ 1] = 0
        del trail[mark:]
        self.qhead = mark
        return confl >= 0


# ---------------------------------------------------------------------- binary DRAT
def decode_proof(data: bytes, nvars: int):
    """Yield ``(add, literal codes)`` from binary DRAT; DrupRejected on malformed input.

    Literal codes are ``2 * var + (negative)`` (the binary format's own numbers), and every
    variable must be at most ``nvars``. A literal's groups end with a nonzero byte (no
    overlong encoding), so the zero bytes are exactly the ends of the steps.
    """
    for add, lits, _ in _decoded(data, nvars):
        yield add, list(lits)


#: Steps remembered by their bytes while a proof is decoded (a repeated step is read once).
_STEP_CACHE = 1 << 12


def _decoded(data: bytes, nvars: int):
    """Yield ``(add, literal codes, sorted distinct codes)`` for each step of ``data``."""
    limit = 2 * nvars + 1
    at = 0
    cache: dict = {}
    for step in _steps(data):
        hit = cache.get(step)
        if hit is None:
            tag = step[0] if step else 0
            if tag not in (0x61, 0x64):  # 'a' adds a clause, 'd' deletes one
                _reject(f"proof byte {at}: expected 'a' or 'd', got {tag:#04x}")
            lits = tuple(step[1:]) if step.isascii() else _varints(step)
            if lits and (min(lits) < 2 or max(lits) > limit):
                _reject(f"proof literal {min(lits) if min(lits) < 2 else max(lits)} names a variable "
                        f"outside 1..{nvars}")
            hit = (tag == 0x61, lits, tuple(sorted(set(lits))))
            if len(cache) < _STEP_CACHE:
                cache[step] = hit
        at += len(step) + 1
        yield hit


def _steps(data: bytes, window: int = 1 << 20):
    """The steps of ``data`` (each without its closing zero byte), a window at a time."""
    start, n = 0, len(data)
    while start < n:
        end = data.rfind(b"\0", start, start + window)
        if end < 0:
            end = data.find(b"\0", start)
            if end < 0:
                _reject("the proof ends inside a clause")
        yield from data[start:end].split(b"\0")
        start = end + 1


def _varints(step: bytes) -> tuple:
    """The literals of one step (after its tag) written in 7-bit groups, low group first."""
    lits = []
    u = shift = 0
    for b in step[1:]:
        u |= (b & 0x7F) << shift
        if b & 0x80:
            shift += 7
            if shift > 63:
                break
            continue
        lits.append(u)
        u = shift = 0
    if shift:
        _reject("the proof ends inside a literal or has an overlong literal")
    return tuple(lits)


def _lit_code(lit: int) -> int:
    return 2 * lit if lit > 0 else -2 * lit + 1


# ---------------------------------------------------------------------- cuts
def decode_cut(text, n_nodes: int) -> list[int]:
    """The node list of a stored cut; DrupRejected unless it is exactly ``n_nodes`` bits wide."""
    if not isinstance(text, str) or len(text) > 4 * ((n_nodes + 7) // 8 + 2) + 4:
        _reject("a cut must be a base64 string of the node bitmask")
    raw = _base64(text, "a cut")
    if len(raw) != (n_nodes + 7) // 8:
        _reject(f"a cut has {len(raw)} bytes; the board's {n_nodes} nodes need {(n_nodes + 7) // 8}")
    nodes = [i * 8 + b for i, byte in enumerate(raw) for b in range(8) if byte >> b & 1]
    if nodes and nodes[-1] >= n_nodes:
        _reject(f"a cut names node {nodes[-1]}, but the board has only {n_nodes} nodes")
    return nodes


# ---------------------------------------------------------------------- certificate
def _base64(text: str, what: str) -> bytes:
    try:
        return base64.b64decode(text.encode("ascii"), validate=True)
    except (binascii.Error, UnicodeEncodeError, ValueError):
        _reject(f"{what} is not valid base64")


def _int(x, what: str, lo: int, hi: int) -> int:
    if type(x) is not int or not lo <= x <= hi:
        _reject(f"{what} must be an integer in {lo}..{hi}, got {x!r:.40}")
    return x


def _read_proof_bytes(p) -> tuple[bytes, int]:
    if not isinstance(p, dict):
        _reject("'proof' must be an object")
    if set(p) != _PROOF_FIELDS:
        _reject(f"'proof' must have exactly the fields {sorted(_PROOF_FIELDS)}")
    if p["format"] != "drat-binary" or p["compression"] != "zlib":
        _reject("only binary DRAT compressed with zlib is accepted")
    data = p["data"]
    if not isinstance(data, str):
        _reject("'proof.data' must be a base64 string")
    size = _int(p["size"], "proof.size", 1, MAX_PROOF_BYTES)
    lemmas = _int(p["lemmas"], "proof.lemmas", 1, MAX_PROOF_BYTES)
    packed = _base64(data, "'proof.data'")
    if size > MAX_RATIO * len(packed) + 64:
        _reject(f"the declared size {size:,} is more than zlib can expand {len(packed):,} bytes to")
    z = zlib.decompressobj()
    try:
        raw = z.decompress(packed, size + 1)
    except zlib.error as exc:
        _reject(f"the proof data is not valid zlib ({exc})")
    if len(raw) != size or z.unconsumed_tail or not z.eof:
        _reject(f"the proof data does not decompress to exactly the declared {size:,} bytes")
    return raw, lemmas


class DrupTask(NamedTuple):
    """A certificate read and its clauses regenerated, ready for :func:`replay`."""

    n_vars: int
    clauses: list
    raw: bytes
    n_lemmas: int
    claim: Claim


def prepare_drup(d) -> DrupTask:
    """Read a ``drup`` certificate strictly, regenerate its CNF and check its cuts.

    Raises
    ------
    DrupRejected
        For a malformed certificate, a bad request, a cut that is not a cut.
    """
    try:  # the board, the ends and the moves, read as every certificate's are
        shape, closed, start, end = read_header(d, "drup", _FIELDS)
        moves = {key: [] for key in ("forced", "forbidden")}
        for key, found in moves.items():
            if not isinstance(d[key], list) or len(d[key]) > 8 * shape.n_squares:
                _reject(f"'{key}' must be a list of moves")
            for i, m in enumerate(d[key]):
                if not isinstance(m, list) or len(m) != 2:
                    _reject(f"{key}[{i}] must be a pair of squares")
                found.append((square_from(m[0], f"{key}[{i}][0]"), square_from(m[1], f"{key}[{i}][1]")))
    except CertificateRejected as exc:  # every rejection of a drup certificate is a DrupRejected
        raise exc if isinstance(exc, DrupRejected) else DrupRejected(str(exc)) from None
    if d["encoding"] != ENCODING:
        _reject(f"unknown encoding {d['encoding']!r:.40}; expected {ENCODING!r}")
    rows, cols, holes, k = shape.rows, shape.cols, sorted(shape.holes), shape.n_squares
    if max(rows, cols) > MAX_SIDE:
        _reject(f"board sides must be at most {MAX_SIDE:,} for the arc encoding, got {rows}x{cols}")
    estimate = clause_estimate(k, closed)
    if estimate > MAX_CLAUSES:
        _reject(f"the board is too large for the arc encoding (about {estimate:,} clauses)")
    cuts = d["cuts"]
    if not isinstance(cuts, list) or len(cuts) > MAX_CUTS:
        _reject("'cuts' must be a list of base64 node bitmasks")
    raw, n_lemmas = _read_proof_bytes(d["proof"])
    try:
        f = arc_cnf(rows, cols, holes, closed, start, end, moves["forced"], moves["forbidden"])
    except ValueError as exc:
        _reject(f"bad request: {exc}")
    clauses = [[_lit_code(x) for x in c] for c in f.clauses]
    for i, text in enumerate(cuts):
        nodes = decode_cut(text, f.n_nodes)
        try:
            clause = cut_clause(f, nodes)
        except ValueError as exc:
            _reject(f"cut {i} is not a cut: {exc}")
        clauses.append([_lit_code(x) for x in clause])
    claim = Claim("drup", shape, closed, start, end, cuts=len(cuts), forced=len(moves["forced"]),
                  forbidden=len(moves["forbidden"]))
    return DrupTask(f.n_vars, clauses, raw, n_lemmas, claim)


def replay(n_vars: int, clauses, raw: bytes) -> int:
    """Replay a binary DRAT proof over ``clauses`` (literal codes); return its lemma count.

    Raises
    ------
    DrupRejected
        When a lemma is not RUP, the proof is malformed, goes on after the empty clause,
        or never derives it.
    """
    db = RupDB(n_vars)
    for c in clauses:
        db.add(c)
    keys = db.keys
    done = False
    count = 0
    for add, lits, key in _decoded(raw, n_vars):
        if done:
            _reject("the proof goes on after the empty clause")
        if not add:
            db.delete(lits, key)
            continue
        count += 1
        entry = keys.get(key) if lits else None
        if entry is not None:  # the clause is in the database: implied, and counted once more
            entry[1] += 1
            continue
        if not db.is_rup(lits):
            _reject(f"lemma {count} is not implied by unit propagation (RUP)")
        if not lits:
            done = True
        else:
            db.add(lits, key)
    if not done:
        _reject("the proof never derives the empty clause")
    return count


def drup_claim(task: DrupTask, count: int) -> Claim:
    """The claim of a task whose proof replayed with ``count`` lemmas, the count declared."""
    if count != task.n_lemmas:
        _reject(f"the proof has {count} lemmas, not the declared {task.n_lemmas}")
    return task.claim._replace(lemmas=count)


def check_drup(d) -> Claim:
    """Check a ``drup`` certificate from scratch; return its claim (the kernel's KINDS entry).

    Raises
    ------
    DrupRejected
        With the reason, for anything that does not establish the claim.
    """
    task = prepare_drup(d)
    return drup_claim(task, replay(task.n_vars, task.clauses, task.raw))
