"""Machine-readable results: the one JSON object each command prints with ``--json``.

Every object carries ``"schema": "kt-formal/1"`` (the version of its layout, raised when a
field changes meaning or disappears; new fields may appear within a version), the
``command`` that made it, its ``answer`` and the ``exit_code`` the command returns.
Squares are ``[row, col]`` pairs (0-based, row 0 at the top) whatever ``--squares`` says;
the human text is unchanged without ``--json``. The layout is a JSON Schema,
``kt_formal/io/result_schema.json``, described in ``docs/json.md``; the Python API's
results (``kt.tour``, ``kt.decide``, ``kt.count``, ``kt.census``) give the same objects
through their ``to_json()``.

>>> from kt_formal.board import Board
>>> d = board_json(Board(3, 4, holes=[(0, 0)]))
>>> d["rows"], d["cols"], d["squares"], d["holes"]
(3, 4, 11, [[0, 0]])
>>> errors(error_json("tour", 2, "board sizes must be at least 1"))
[]
"""

from __future__ import annotations

import json
import sys
from functools import lru_cache
from pathlib import Path

__all__ = ["SCHEMA", "board_json", "square_json", "verdict_json", "count_json", "verify_json",
           "census_json", "error_json", "dumps", "emit", "load_schema", "errors"]

#: The version tag every object carries.
SCHEMA = "kt-formal/1"

_SCHEMA_FILE = Path(__file__).with_name("result_schema.json")


def square_json(q):
    """``[row, col]`` of a square, or None."""
    if q is None:
        return None
    r, c = q
    return [int(r), int(c)]


def board_json(board) -> dict:
    """``{"rows", "cols", "squares", "holes"}``: the holes as ``[row, col]`` pairs, row-major;
    a board that is mostly hole (kept as its squares) has ``live``, its squares, instead."""
    d = {"rows": int(board.rows), "cols": int(board.cols), "squares": int(board.n_squares)}
    if getattr(board, "sparse", False):
        return {**d, "live": [[r, c] for r, c in board.squares()]}
    return {**d, "holes": [[r, c] for r, c in board.holes()]}


def _base(command: str, answer: str, exit_code: int, message: str) -> dict:
    return {"schema": SCHEMA, "command": command, "answer": answer, "exit_code": int(exit_code),
            "message": message}


def verdict_json(command: str, verdict, board, closed: bool, start=None, end=None, *,
                 certificate: str | None = None, out: str | None = None, squares: bool = False) -> dict:
    """The object of ``tour`` and ``exists``: a :class:`~kt_formal.pipeline.Verdict` and its question.

    ``start`` and ``end`` are the squares asked (None when free); a yes adds ``tour`` with
    the ends the tour has, its file (``out``) and, with ``squares``, every square in order.
    """
    d = _base(command, verdict.answer, verdict.exit_code, verdict.explanation)
    d.update({"board": board_json(board), "closed": bool(closed), "start": square_json(start),
              "end": square_json(end), "method": verdict.route, "engine": verdict.engine or None,
              "seconds": round(float(verdict.wall_time), 6), "certificate": certificate,
              "stages": [{"name": s.name, "outcome": s.outcome, "seconds": round(float(s.seconds), 6)}
                         for s in verdict.stages]})
    tour = verdict.tour
    if tour is not None:
        t = {"start": square_json(tour.start), "end": square_json(tour.end), "length": len(tour),
             "file": out}
        if squares:
            t["squares"] = [square_json(q) for q in tour.squares()]
        d["tour"] = t
    if verdict.answer == "no" and isinstance(verdict.certificate, dict):
        d["proof"] = verdict.certificate.get("method")
    return d


def count_json(board, closed: bool, start=None, end=None, *, count: int | None, complete: bool, method: str,
               seconds: float, directed_count=None, nodes=None, max_states=None, out=None,
               message: str = "", partial=None, lower_bound=None) -> dict:
    """The object of ``count``: one board's count (``complete`` false: ``count`` is null and
    ``lower_bound`` the tours found before the limit, or null)."""
    d = _base("count", "counted" if complete else "unknown", 0 if complete else 3, message)
    d.update({"board": board_json(board), "closed": bool(closed), "start": square_json(start),
              "end": square_json(end), "method": method, "seconds": round(float(seconds), 6),
              "count": int(count) if complete else None, "complete": bool(complete),
              "lower_bound": None if complete or lower_bound is None else int(lower_bound),
              "directed_count": None if directed_count is None else int(directed_count),
              "nodes": None if nodes is None else int(nodes),
              "max_states": None if max_states is None else int(max_states), "certificate": out})
    if partial is not None:
        d["partial"] = partial
    return d


def verify_json(file: str | None, answer: str, exit_code: int, claim: str, *, checked=None) -> dict:
    """The object of ``verify`` for one file: ``answer`` verified, rejected, not-checked or
    bad-input; ``claim`` the claim checked (or the reason it was not)."""
    d = _base("verify", answer, exit_code, claim)
    d.update({"file": file, "claim": claim if answer in ("verified", "replayed") else None})
    if checked is not None:
        d.update(checked)
    return d


def census_json(command: str, answer: str, exit_code: int, message: str, *, db: str, summary: dict,
                run: dict | None = None) -> dict:
    """The object of ``census`` and ``census-report``: the database and its summary
    (``summary["answers"]``: answer -> kind of tour -> number of questions)."""
    d = _base(command, answer, exit_code, message)
    d.update({"db": db, "summary": summary})
    if run is not None:
        d["run"] = run
    return d


def error_json(command: str | None, exit_code: int, message: str) -> dict:
    """The object printed for bad input (exit 2) or a limit reached outside a verdict (exit 3)."""
    answer = "unknown" if exit_code == 3 else "error"
    return _base(command or "", answer, exit_code, message)


def dumps(obj: dict) -> str:
    """One line of JSON (no spaces after separators, non-ASCII kept)."""
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


def emit(obj: dict, stream=None) -> None:
    """Print one object as one line (and flush: streams are read line by line)."""
    stream = sys.stdout if stream is None else stream
    stream.write(dumps(obj) + "\n")
    stream.flush()


@lru_cache(maxsize=1)
def load_schema() -> dict:
    """The JSON Schema (draft 2020-12) of every object above."""
    return json.loads(_SCHEMA_FILE.read_text(encoding="utf-8"))


def errors(obj) -> list[str]:
    """Where ``obj`` breaks the schema's required fields and types (a small check without the
    ``jsonschema`` package; the tests validate with ``jsonschema`` itself). Empty when it fits."""
    schema = load_schema()
    out = []
    if not isinstance(obj, dict):
        return ["not an object"]
    for name in schema["required"]:
        if name not in obj:
            out.append(f"missing {name!r}")
    if obj.get("schema") != SCHEMA:
        out.append(f"schema is {obj.get('schema')!r}, not {SCHEMA!r}")
    commands = schema["properties"]["command"]["enum"]
    if obj.get("command") not in commands:
        out.append(f"unknown command {obj.get('command')!r}")
    return out
