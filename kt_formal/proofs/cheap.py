"""Finders of the cheap proofs: fixed ends, colour counts, degrees, alternation.

Each ``find_*_proof`` returns a proof dict (checked by
:func:`kt_formal.kernel.proofcheck.check_proof`) or None when the method does not apply.

>>> from kt_formal.board import Board
>>> from kt_formal.question import Question
>>> find_colour_proof(Question(Board(5, 5)))["dark"]
13
"""

from __future__ import annotations

from kt_formal.board import Board
from kt_formal.certificate import question_header
from kt_formal.kernel.proofcheck import colour_refutes
from kt_formal.question import Question

__all__ = ["make_proof", "find_ends_proof", "find_colour_proof", "find_degree_proof",
           "find_alternation_proof"]


def make_proof(question: Question, method: str, **fields) -> dict:
    """The JSON-ready proof dict that ``question`` has no tour: the question's header
    (:func:`kt_formal.certificate.question_header`, what the kernel's claim is read from),
    then the method's fields."""
    d = question_header(question, "proof", method)
    d.update(fields)
    return d


# ====================================================================== finders


def find_ends_proof(question: Question) -> dict | None:
    """Fixed ends no tour can have (open: the same square twice; closed: not a knight move apart)."""
    board, closed, s, e = question.board, question.closed, question.start, question.end
    if s is None or e is None:
        return None
    if closed:
        if (s[0] - e[0]) ** 2 + (s[1] - e[1]) ** 2 != 5:
            return make_proof(question, "ends")
    elif s == e and board.n_squares >= 2:
        return make_proof(question, "ends")
    return None


def find_colour_proof(question: Question) -> dict | None:
    """Colour counts that no tour (with these ends) can fit."""
    board, closed, s, e = question.board, question.closed, question.start, question.end
    dark, light = board.dark_light_counts()
    ends_dark = [board.is_dark(*q) for q in (s, e) if q is not None]
    if colour_refutes(dark, light, closed, ends_dark):
        return make_proof(question, "colour", dark=dark, light=light)
    return None


def find_degree_proof(question: Question) -> dict | None:
    """Squares with too few moves (see the module docstring)."""
    board, closed, s, e = question.board, question.closed, question.start, question.end
    if not board.has_holes and min(board.rows, board.cols) >= 4:
        return None  # every square of a full board with both sides >= 4 has 2 or more moves
    k = board.n_squares
    if closed:
        low = board.low_degree_squares(1, 1)
        if low:
            (sq, d), = low
            return make_proof(question, "degree", squares=[list(sq)], degrees=[d])
        return None
    if k < 2:
        return None
    zero = board.low_degree_squares(0, 1)
    if zero:
        (sq, _), = zero
        return make_proof(question, "degree", squares=[list(sq)], degrees=[0])
    low = board.low_degree_squares(1, 5)  # five tell whether more than two are not fixed ends, and pick three
    fixed = {q for q in (s, e) if q is not None}
    if len({q for q, _ in low} | fixed) > 2:
        pick = [(q, d) for q, d in low if q not in fixed][: 3 - len(fixed)]
        return make_proof(question, "degree", squares=[list(q) for q, _ in pick],
                          degrees=[d for _, d in pick])
    return None


def _alternation_size(k: int, closed: bool) -> int | None:
    """Size of the independent set the alternation argument needs, or None."""
    if closed:
        return k // 2 if k % 2 == 0 and k >= 4 else None
    return (k + 1) // 2 if k % 2 == 1 and k >= 3 else None


def find_alternation_proof(question: Question, search: bool = False, time_limit: float = 2.0) -> dict | None:
    """An independent set that a tour would have to alternate with the rest.

    Closed tours: ``|S| = k / 2`` and ``S`` has both colours. Open tours on an odd
    number ``k`` of squares: ``|S| = (k + 1) / 2`` puts ``S`` on the odd positions
    of the path (both ends included), so ``S`` with both colours, or a fixed end
    outside ``S``, refutes it.

    On a board with 4 rows (or 4 columns) the two outer rows (columns) are tried
    first; this is Posa's proof for every 4 x n board, with 2n squares listed.
    With ``search=True`` a small CP-SAT model looks for such a set on boards of up
    to 100 squares.
    """
    board, closed, s, e = question.board, question.closed, question.start, question.end
    k = board.n_squares
    size = _alternation_size(k, closed)
    if size is None:
        return None
    fixed = [q for q in (s, e) if q is not None]
    for axis in (0, 1):
        if board.shape[axis] != 4:
            continue
        outer = board.live_mask().copy()
        if axis == 0:
            outer[1:3, :] = False
        else:
            outer[:, 1:3] = False
        rr, cc = outer.nonzero()
        if len(rr) != size:
            continue
        parity = (rr + cc) % 2
        mixed = bool(parity.any() and not parity.all())
        if mixed or (not closed and any(not outer[q] for q in fixed)):
            import numpy as np

            pts = np.stack([rr, cc], axis=1).tolist()  # [[r, c], ...] of Python ints
            return make_proof(question, "alternation", independent=pts)
    if search and k <= 100:
        found = _alternation_by_cpsat(board, size, [] if closed else fixed, time_limit)
        if found:
            return make_proof(question, "alternation", independent=found)
    return None


def _alternation_by_cpsat(board: Board, size: int, fixed, time_limit: float):
    from ortools.sat.python import cp_model

    sqs = board.squares()
    idx = {q: i for i, q in enumerate(sqs)}
    model = cp_model.CpModel()
    x = [model.new_bool_var(f"in_{i}") for i in range(len(sqs))]
    for q, i in idx.items():
        for r, c in board.neighbours(*q):
            j = idx[(r, c)]
            if i < j:
                model.add_bool_or([x[i].Not(), x[j].Not()])
    model.add(sum(x) == size)
    mixed = model.new_bool_var("mixed")
    for col in (0, 1):
        model.add(sum(x[i] for q, i in idx.items() if (q[0] + q[1]) % 2 == col) >= 1).only_enforce_if(mixed)
    model.add_bool_or([mixed, *(x[idx[q]].Not() for q in fixed)])
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = float(time_limit)
    solver.parameters.num_workers = 1
    solver.parameters.random_seed = 0
    status = solver.solve(model)
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return [list(q) for q, i in idx.items() if solver.boolean_value(x[i])]
    return None


# ---------------------------------------------------------------- separator search
