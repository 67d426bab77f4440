"""Output for scripts: ``--json`` lines, squares styled as the user wrote them, error records."""

from __future__ import annotations

import argparse
import time

from kt_formal import api
from kt_formal.api import InvalidInput, KtFormalError
from kt_formal.cli.common import write_pictures, write_tour


def add_script_arguments(p: argparse.ArgumentParser, command: str, squares: bool = True) -> None:
    """``--json`` (one object per line, schema kt-formal/1, docs/json.md) and ``--squares``."""
    many = {"count": "; with --sequence, one JSON array of them at the end (--json-lines: a stream, "
                      "one object a line)",
            "verify": "; several files: one JSON array of them at the end (--json-lines: a stream, one "
                      "object a line)"}.get(command, "")
    p.add_argument("--json", action="store_true",
                   help="print one JSON object (schema kt-formal/1, see docs/json.md) on standard "
                        f"output instead of the text{many}; exit codes unchanged")
    lines = {"count": "with --sequence: the objects of --json as a stream, one a line as each count is known",
             "verify": "several files: the objects of --json as a stream, one a line as each file is checked"}
    if command in lines:
        p.add_argument("--json-lines", action="store_true",
                       help=f"{lines[command]} (JSON Lines); --json prints them as one JSON array at the end")
    if squares:
        p.add_argument("--squares", choices=("chess", "rc"), default=None,
                       help="print squares as chess names (a1) or ROW,COL (7,0); default: as the "
                            "squares were given, and ROW,COL beyond 26 columns")


def style_line(args, board, text: str) -> str:
    """``text`` with the start, end and removed squares written as ``--squares`` says."""
    from kt_formal.cli.parsing import restyle, square_style

    hole_specs = getattr(args, "hole", None)
    holes = [h.rsplit(",", 1)[0] for h in hole_specs] if isinstance(hole_specs, list) else []
    given = [getattr(args, "start", None), getattr(args, "end", None), *getattr(args, "remove", []), *holes]
    style = square_style(getattr(args, "squares", None), given, board.cols)
    squares = []
    for textsq in given:
        if textsq:
            try:
                squares.append(board.parse_square(textsq))
            except KtFormalError:
                pass
    tour = getattr(args, "_tour", None)
    if tour is not None:
        squares += [tour.start, tour.end]
    return restyle(text, board.rows, squares, style, board.cols)


def check_json_tour(args, board) -> None:
    """``tour --json`` without ``--out`` lists the squares in the object: refuse what JSON cannot hold."""
    if getattr(args, "json", False) and not args.out:
        if board.n_squares > api.JSON_MAX_SQUARES:
            raise InvalidInput(api.json_limit_message(board.n_squares, "board"))


def json_verdict(args, command: str, board, verdict, fmt) -> int:
    """``tour --json`` and ``exists --json``: the tour (or the certificate) to its file, then
    one object on standard output."""
    from kt_formal.io import jsonout

    out = None
    if command == "tour" and verdict.answer == "yes":
        if args.out:
            write_tour(verdict.tour, fmt, args.out, verdict.engine)
            out = args.out
        write_pictures(args, verdict.tour)
    cert = args.cert if command == "exists" and args.cert and verdict.certificate is not None else None
    d = verdict.to_json(certificate=cert or out, out=out)
    d["message"] = style_line(args, board, d["message"])  # as the text names the squares
    code = exists_exit(args, verdict) if command == "exists" else verdict.exit_code
    d["exit_code"] = code
    jsonout.emit(d)
    return code


def exists_exit(args, verdict) -> int:
    """0 yes, 1 no, 3 unknown; with --exit-zero-on-proof a certified no exits 0 too."""
    if getattr(args, "exit_zero_on_proof", False) and verdict.answer == "no" and verdict.certificate is not None:
        return 0
    return verdict.exit_code


def print_json_array(rows) -> None:
    """The objects ``rows`` as one JSON array, one a line (``count --sequence --json``,
    ``verify A B --json``): one document that ``json.tool`` reads whole."""
    from kt_formal.io.jsonout import dumps

    print("[" + ",\n".join(dumps(d) for d in rows) + "]", flush=True)


def json_count_line(args, k: int, key, count: int, rows: list | None = None) -> None:
    """``count --sequence --json-lines``: one object a line, as each count is known; with
    ``rows`` (``--json``), the object is kept there for one array at the end."""
    from kt_formal.io import jsonout

    n, j = key if args.partial else (key, k)
    board = api.make_board(k, n, holes=[(r, n - 1) for r in range(j, k)])
    t0 = getattr(args, "_t0", time.perf_counter())
    d = jsonout.count_json(board, not args.open, count=count, complete=True, method="frontier",
                           seconds=time.perf_counter() - t0, message=f"{k}x{n} {count}",
                           partial={"kept": j, "of": k} if args.partial else None)
    if rows is None:
        jsonout.emit(d)
    else:
        rows.append(d)


def next_step(message: str, limit_reached: bool) -> str:
    """A message of a run that the time limit ended, naming the option that moves it."""
    if limit_reached and "--time-limit" not in message:
        return message.rstrip(".") + "; give more time with --time-limit S"
    return message


def json_error(args, exc_code: int, message: str) -> None:
    """With --json, a failure is one object too (besides the line on standard error)."""
    from kt_formal.io import jsonout

    jsonout.emit(jsonout.error_json(getattr(args, "command", None), exc_code, message))
