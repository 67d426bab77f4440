"""Proofs in plain words: one paragraph per proof, for people rather than checkers.

>>> from kt_formal.board import Board
>>> from kt_formal.proofs import find_proof
>>> from kt_formal.question import Question
>>> explain(find_proof(Question(Board(5, 5))))[:40]
'No closed tour: the board has 13 dark an'
"""

from __future__ import annotations

from kt_formal.certificate import board_from_dict

__all__ = ["explain"]


def explain(d: dict) -> str:
    """One paragraph in plain words for a proof made by the finders above."""
    b = board_from_dict(d["board"])
    closed = d["closed"]
    kind = "closed" if closed else "open"
    names = lambda qs: ", ".join(b.square_name(tuple(q)) for q in qs)  # noqa: E731
    ends = ""
    if d["start"] is not None:
        ends += f" from {b.square_name(tuple(d['start']))}"
    if d["end"] is not None:
        ends += f" to {b.square_name(tuple(d['end']))}"
    head = f"No {kind} tour{ends}: "
    m = d["method"]
    if m == "ends":
        if closed:
            return head + "a closed tour returns from its last square to its first, and these are not a knight move apart."
        return head + "an open tour of two or more squares starts and ends on different squares."
    if m == "colour":
        dark, light = d["dark"], d["light"]
        text = head + f"the board has {dark} dark and {light} light squares; "
        if closed:
            return text + "a closed tour alternates colours."
        if abs(dark - light) > 1:
            return text + "an open tour alternates colours, so the counts can differ by at most one."
        if dark == light:
            return text + "an open tour alternates colours, so it starts and ends on squares of different colours, and both ends given have one colour."
        major = "dark" if dark > light else "light"
        return text + f"an open tour alternates colours, so it starts and ends on {major} squares, and an end given is not {major}."
    if m == "degree":
        qs, degs = d["squares"], d["degrees"]
        if closed:
            return head + f"square {names(qs[:1])} has only {degs[0]} knight move{'s' if degs[0] != 1 else ''} on the board; a closed tour enters and leaves every square."
        if 0 in degs:
            return head + f"square {names([qs[degs.index(0)]])} has no knight move on the board."
        return head + f"square{'s' if len(qs) > 1 else ''} {names(qs)} {'have' if len(qs) > 1 else 'has'} only one knight move, so each must be an end of the tour{', as must the ends given' if (d['start'] or d['end']) else ''}; a tour has only two ends."
    if m == "alternation":
        n = len(d["independent"])
        what = f"the {n} squares listed"
        if b.rows == 4 or b.cols == 4:
            line = "rows" if b.rows == 4 else "columns"
            what = f"the {n} squares of the two outer {line}"
        parities = {(q[0] + q[1]) % 2 for q in d["independent"]}
        mixed = len(parities) == 2
        if closed:
            return head + (f"{what} make up half of the board and no knight move joins two of them, "
                           "so a closed tour must alternate between them and the rest; a knight also alternates colours, "
                           "so they would all have one colour, but they have both (Posa's argument).")
        text = head + (f"{what} are one more than the other {b.n_squares - n} and no knight move joins two of them, "
                       "so an open tour must visit them at every other step, first and last included; ")
        if mixed:
            return text + "a knight alternates colours, so they would all have one colour, but they have both."
        return text + "but an end given is not one of them."
    if m == "separator":
        s, c = d["separator"], d["components"]
        red = (" after the moves forced by squares with only two moves are fixed" if d.get("reduced") else "")
        if d.get("reduced") and not closed:
            virt = d.get("virtual", [])
            return head + ("close the open tour into a cycle through a virtual square joined to where it may end; "
                           f"removing {len(s) + len(virt)} square{'s' if len(s) + len(virt) != 1 else ''} "
                           f"({names(s)}{', ' if s and virt else ''}{', '.join('the virtual ' + v for v in virt)}) "
                           f"then leaves {c} separate parts{red}, but a cycle cut at {len(s) + len(virt)} squares "
                           f"falls into at most {max(len(s) + len(virt), 1)} pieces.")
        if not s:
            return head + f"the board falls into {c} separate parts{red}."
        from kt_formal.kernel.proofcheck import separator_bound

        given = [q for q in (d["start"], d["end"]) if q is not None and q in s]  # the checker's bound
        pieces = separator_bound(closed, len(s), len({tuple(q) for q in given}))
        at_ends = "" if closed or not given else (
            f", {'an end' if len(given) == 1 else 'both ends'} of the tour among them,")
        return head + (f"removing the {len(s)} square{'s' if len(s) > 1 else ''} {names(s)} leaves {c} separate parts{red}, "
                       f"but a{'' if closed else 'n'} {kind} tour cut at {len(s)} square{'s' if len(s) > 1 else ''}"
                       f"{at_ends} falls into at most {pieces} piece{'s' if pieces != 1 else ''}.")
    if m == "hall":
        from kt_formal.kernel.proofcheck import hall_counts
        from kt_formal.kernel.shape import shape_from_dict

        x = sorted(tuple(q) for q in d["squares"])
        ends_given = [None if q is None else tuple(q) for q in (d["start"], d["end"])]
        neighbours, room, need = hall_counts(shape_from_dict(d["board"], squares=True), closed, *ends_given, x)
        listed = names(x[:6]) + (f" and {len(x) - 6} more" if len(x) > 6 else "")
        can = f"can take at most {room} of them (two each, and no more than their moves into the set)"
        if closed:
            return head + (f"a closed tour gives each of the {len(x)} squares {listed} two moves, {need} in all, "
                           f"each to a square of the other colour; their {neighbours} neighbours {can}, so no set of "
                           "cycles covers the board, let alone one tour (Hall's condition for a 2-factor fails).")
        ends = 2 * len(x) - need
        return head + (f"an open tour gives each of the {len(x)} squares {listed} two moves, each to a square of "
                       f"the other colour, except its two ends, which get one; a knight alternates colours, so at "
                       f"most {ends} end{'s' if ends != 1 else ''} can lie among these squares and they need "
                       f"{need} moves; their {neighbours} neighbours {can}.")
    if m == "exhaustive":
        return head + f"an exhaustive search ({d['nodes']} nodes) found none, confirmed by CP-SAT."
    return head + f"proof by {m}."
