"""One CP-SAT circuit model: the helper every circuit model of the package is built with.

A :class:`Circuit` has nodes ``0..k-1`` and, for an open path, a dummy node ``k`` that
closes it: arcs dummy -> s for the allowed first nodes and e -> dummy for the allowed last
ones. Each free arc is one Boolean literal (named ``arc_u_v`` when asked, as in
:mod:`kt_formal.engines.cpsat`); arcs that must be used share one literal fixed to true.
Arcs are written straight into CP-SAT's proto from arrays (a window of the hole repair
has thousands, built in milliseconds). :meth:`Circuit.solve` sets the solver's
parameters (``num_workers``, ``random_seed``, ``max_time_in_seconds`` always, more when
given: a small model's budget is ``max_deterministic_time``, so that with one worker its
answer does not depend on the machine's load), runs one or more attempts on the same model, and translates the status:
``"found"``, ``"infeasible"`` (CP-SAT proved it) or ``"unknown"`` (a limit ran out);
any other status raises. :meth:`Circuit.successors` reads the chosen arcs back as one
successor array, :meth:`Circuit.order` as a visiting order
(:func:`kt_formal.engines.successors.follow`).

Used by :mod:`kt_formal.engines.cpsat` (whole boards), the block construction's groups
(:func:`kt_formal.combine.blocks_groups.solve_group`) and the hole repair's windows
(:mod:`kt_formal.combine.repair`).

>>> import numpy as np
>>> c = Circuit(3)
>>> lits = c.add_arcs(np.array([0, 1, 2, 1, 2, 0]), np.array([1, 2, 0, 0, 1, 2]))
>>> c.solve(time_limit=5, workers=1, seed=0), sorted(c.order(closed=True).tolist())
('found', [0, 1, 2])
"""

from __future__ import annotations

import time

import numpy as np

from kt_formal.engines.successors import follow

__all__ = ["Circuit"]


_BOOLEAN: list = []
_MODEL: list = []


def _model():
    """A new CP-SAT model without the camelCase aliases of the pre-PEP 8 API.

    ``CpModel()`` adds them to every new model, about 60 of them found with ``dir()``: 1.2 ms
    a model, as long as CP-SAT takes to solve one of the hole repair's windows, and all of it
    holding Python's lock (the windows' threads then wait for each other). Nothing in this
    package uses those names.
    """
    if not _MODEL:
        from ortools.sat.python import cp_model

        class Model(cp_model.CpModel):
            def _add_pre_pep8_methods(self) -> None:
                pass

        _MODEL.append(Model)
    return _MODEL[0]()


def _boolean():
    """A variable proto with the domain {0, 1} (kept in a model of its own, made once)."""
    if not _BOOLEAN:
        from ortools.sat.python import cp_model

        model = cp_model.CpModel()
        var = model.proto.variables.add()
        var.domain.extend((0, 1))
        _BOOLEAN[:] = [var, model]
    return _BOOLEAN[0]


class Circuit:
    """A circuit model over ``k`` nodes (``open_path``: plus the dummy node ``k``)."""

    def __init__(self, k: int, open_path: bool = False):
        from ortools.sat.python import cp_model

        self._cp = cp_model
        self.k = k
        self.open_path = open_path
        self.model = _model()
        self.proto = self.model.proto
        self.constraint = self.proto.constraints.add().circuit
        self.tails: list[np.ndarray] = []
        self.heads: list[np.ndarray] = []
        self.literals: list[np.ndarray] = []
        self._true = None
        self._lit: dict | None = None
        self.solver = None

    # ------------------------------------------------------------------ arcs
    def add_arcs(self, tails, heads, names: str | None = None, deadline: float | None = None) -> np.ndarray:
        """One free Boolean literal per arc ``tails[i] -> heads[i]``; returns their indices.

        ``names``: a prefix for literal names (``"arc"`` gives ``arc_u_v``), None for none.
        ``deadline`` (a ``time.perf_counter()`` value): naming the literals one at a time takes
        some 15 microseconds an arc, so a board of millions of squares checks the clock every
        65,536 arcs and raises :class:`TimeoutError` (with the arcs made so far) past it.
        """
        tails = np.asarray(tails, dtype=np.int64)
        heads = np.asarray(heads, dtype=np.int64)
        first = len(self.proto.variables)
        variables = self.proto.variables
        if names is None:  # one Boolean copied n times: half the time of n calls to add()
            variables.extend([_boolean()] * len(tails))
        else:
            for lo in range(0, len(tails), 1 << 16):
                if lo and deadline is not None and time.perf_counter() > deadline:
                    raise TimeoutError(lo)
                for u, v in zip(tails[lo:lo + (1 << 16)].tolist(), heads[lo:lo + (1 << 16)].tolist()):
                    var = variables.add()
                    var.domain.extend((0, 1))
                    var.name = f"{names}_{u}_{v}"
        lits = np.arange(first, first + len(tails), dtype=np.int64)
        self._append(tails, heads, lits)
        return lits

    def add_fixed_arcs(self, tails, heads) -> None:
        """Arcs the circuit must use (one shared literal fixed to true)."""
        if self._true is None:
            self._true = len(self.proto.variables)
            self.proto.variables.add().domain.extend((1, 1))
        tails = np.asarray(tails, dtype=np.int64)
        self._append(tails, np.asarray(heads, dtype=np.int64), np.full(len(tails), self._true, dtype=np.int64))

    def add_path_ends(self, starts, ends) -> None:
        """The dummy node's arcs of an open path: to each allowed first node (``start_s``)
        and from each allowed last node (``end_e``)."""
        starts = np.asarray(list(starts), dtype=np.int64)
        ends = np.asarray(list(ends), dtype=np.int64)
        dummy = self.k
        for name, tails, heads in (("start", np.full(len(starts), dummy), starts),
                                   ("end", ends, np.full(len(ends), dummy))):
            first = len(self.proto.variables)
            for node in (heads if name == "start" else tails).tolist():
                var = self.proto.variables.add()
                var.domain.extend((0, 1))
                var.name = f"{name}_{node}"
            self._append(tails.astype(np.int64), heads.astype(np.int64),
                         np.arange(first, first + len(tails), dtype=np.int64))

    def _append(self, tails, heads, lits) -> None:
        self.constraint.tails.extend(tails.tolist())
        self.constraint.heads.extend(heads.tolist())
        self.constraint.literals.extend(lits.tolist())
        self.tails.append(tails)
        self.heads.append(heads)
        self.literals.append(lits)
        self._lit = None

    def literal(self, u: int, v: int):
        """The Boolean variable of arc ``u -> v``, or None when there is no such arc."""
        if self._lit is None:
            t, h, x = self._arrays()
            self._lit = dict(zip(zip(t.tolist(), h.tolist()), x.tolist()))
        i = self._lit.get((u, v))
        return None if i is None else self.model.get_bool_var_from_proto_index(i)

    def _arrays(self):
        if not self.tails:
            empty = np.zeros(0, dtype=np.int64)
            return empty, empty, empty
        return np.concatenate(self.tails), np.concatenate(self.heads), np.concatenate(self.literals)

    @property
    def n_arcs(self) -> int:
        return sum(len(t) for t in self.tails)

    # ------------------------------------------------------------------ solving
    def solve(self, *, time_limit: float | None, workers: int, seed: int, attempts=None, log: bool = False,
              prepare=None, **parameters) -> str:
        """Solve; ``"found"``, ``"infeasible"`` or ``"unknown"``.

        ``parameters`` are set on the solver (``symmetry_level=0``, ...). ``attempts`` is a
        list of ``(seconds, {parameter: value})`` run in turn on the same model until one
        ends with an answer (the hole repair's quick try without the linear relaxation,
        then the default); without it, one attempt of ``time_limit`` seconds (None: none).
        ``prepare(solver)`` is called before the first attempt (a log callback, a watcher).
        """
        cp_model = self._cp
        solver = self.solver = self._cp.CpSolver()
        solver.parameters.num_workers = int(workers)
        solver.parameters.random_seed = int(seed)
        solver.parameters.log_search_progress = bool(log)
        for name, value in parameters.items():
            setattr(solver.parameters, name, value)
        if attempts is None:
            attempts = [(time_limit, {})]
        if prepare is not None:
            prepare(solver)
        status = cp_model.UNKNOWN
        for seconds, extra in attempts:
            if seconds is not None:
                solver.parameters.max_time_in_seconds = max(0.001, float(seconds))
            for name, value in extra.items():
                setattr(solver.parameters, name, value)
            status = solver.solve(self.model)
            if status != cp_model.UNKNOWN:
                break
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return "found"
        if status == cp_model.INFEASIBLE:
            return "infeasible"
        if status == cp_model.UNKNOWN:
            return "unknown"
        if status == cp_model.MODEL_INVALID:
            raise RuntimeError(f"CP-SAT model invalid: {self.model.validate()}")
        raise RuntimeError(f"unexpected CP-SAT status {solver.status_name(status)}")

    def successors(self) -> np.ndarray:
        """After "found": each node's successor on the circuit (the dummy's too), -1 where
        a node is left out."""
        t, h, x = self._arrays()
        values = np.asarray(self.solver.response_proto.solution, dtype=np.int64)
        on = values[x] == 1
        succ = np.full(self.k + 1, -1, dtype=np.int64)
        succ[t[on]] = h[on]
        return succ

    def order(self, closed: bool) -> np.ndarray:
        """After "found": the nodes in circuit order, from node 0 (closed) or from the
        dummy's successor (an open path), dummy left out."""
        succ = self.successors()
        return follow(succ, 0 if closed else int(succ[self.k]), self.k)
