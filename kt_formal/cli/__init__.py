"""The ``kt-formal`` command.

Exit codes: 0 found or verified, 1 proven impossible or certificate rejected,
2 bad input, 3 unknown (a limit ran out). Errors are one line on stderr.

>>> main(["tour", "0", "8"])  # prints "kt-formal: board sizes must be at least 1, got 0x8"
2
"""

from __future__ import annotations

import argparse
import atexit
import os
import sys
import time

from kt_formal.cli.parsing import PROG, print_renamed_notes
from kt_formal.cli.tour import add_tour
from kt_formal.cli.exists import add_exists
from kt_formal.cli.verify import add_verify
from kt_formal.cli.graph import add_graph
from kt_formal.cli.count import add_count
from kt_formal.cli.render import add_render
from kt_formal.cli.models import add_models
from kt_formal.cli.frame import add_frame
from kt_formal.cli.census import add_census
from kt_formal.cli.census_report import add_census_report
from kt_formal.cli.warm import add_warm
from kt_formal.cli.completion import add_completion
from kt_formal.cli.scripting import json_error, next_step
from kt_formal.api import InvalidInput, KtFormalError, LimitReached, exit_code_of, in_command_words
from kt_formal.api import reading, refuse_overwrites

__all__ = ["main", "build_parser", "run", "quiet_blas", "BLAS_THREAD_VARIABLES"]


class _Parser(argparse.ArgumentParser):
    """argparse with one-line errors (exit 2) instead of a usage dump."""

    def error(self, message):  # noqa: D401 - argparse API
        raise InvalidInput(f"{message} (see '{self.prog} --help')")


def _version() -> str:
    from kt_formal import __version__

    return __version__


#: Each command's ``_add_<command>(sub)``, in the order ``--help`` lists them; each command lives
#: in a module of its own (``kt_formal/cli/<command>.py``).
COMMANDS = [add_tour, add_exists, add_verify, add_graph, add_count, add_render, add_models, add_frame, add_census, add_census_report, add_warm, add_completion]




def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog=PROG, description="Find, build and certify knight's tours.",
                     epilog="example:\n  kt-formal tour 8 8\nrun 'kt-formal COMMAND --help' for each command's options",
                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    parser.add_argument("-q", "--quiet", action="store_true",
                        help="no notes and no progress line on standard error "
                             "(also accepted after the command: 'kt-formal tour 8 8 --quiet')")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for add in COMMANDS:
        add(sub)
    _add_quiet_everywhere(sub)
    parser.set_defaults(_root_parser=parser)  # for the commands that walk the parser (completion)
    return parser


def _add_quiet_everywhere(sub) -> None:
    """Let ``--quiet`` also follow the command (its default does not reset the global one)."""
    for p in set(sub.choices.values()):
        try:
            p.add_argument("-q", "--quiet", action="store_true", default=argparse.SUPPRESS,
                           help="no notes and no progress line on standard error")
        except argparse.ArgumentError:  # the command defines its own
            pass


def _quiet_stdout() -> None:
    """Drop what is left in stdout's buffer (its flush at exit would fail again)."""
    try:
        sys.stdout = open(os.devnull, "w")
    except OSError:
        pass


#: Variables with which a user chose the threads of OpenBLAS (NumPy's and SciPy's linear
#: algebra); without one, the command runs it on one thread (:func:`quiet_blas`).
BLAS_THREAD_VARIABLES = ("OPENBLAS_NUM_THREADS", "GOTO_NUM_THREADS", "OMP_NUM_THREADS")


def quiet_blas(environ=os.environ) -> bool:
    """Ask OpenBLAS for one thread unless the user chose a number; returns whether it did.

    NumPy's OpenBLAS (and SciPy's, a second copy) starts a thread a core when it loads,
    and each thread spins for about 0.1 s of processor time before it sleeps: on two
    cores that is taken from the count or search the command runs, and from every command
    of a script. No command of this package does linear algebra that a second thread would
    speed up. Call it before NumPy is imported (the command's entry point does).
    """
    if any(environ.get(name) for name in BLAS_THREAD_VARIABLES):
        return False
    environ["OPENBLAS_NUM_THREADS"] = "1"
    return True


def _command_actions(parser, args) -> list:
    """The argument actions of the command ``args`` runs (none without a command)."""
    sub = next((a for a in parser._actions if isinstance(a, argparse._SubParsersAction)), None)
    command = sub.choices.get(getattr(args, "command", None) or "") if sub is not None else None
    return command._actions if command is not None else []


#: The options that name a file a command writes (``-``: standard output).
OUTPUT_OPTIONS = ("--out", "--output", "--cert", "--svg", "--png", "--csv", "--map", "--table", "--findings", "--html")


def _files_of(parser, args) -> tuple[list, list]:
    """``(inputs, outputs)``: the files the command reads and writes, as ``(option, path)``."""
    inputs, outputs, seen = [], [], set()
    for action in _command_actions(parser, args):
        value = getattr(args, action.dest, None)
        if not isinstance(value, (str, list)) or not value or action.dest in seen:
            continue  # (an option and its old name share one destination)
        seen.add(action.dest)
        named = action.option_strings[-1] if action.option_strings else action.dest
        if set(action.option_strings) & set(OUTPUT_OPTIONS):
            outputs.append((named, value))
        elif action.metavar == "FILE" or action.dest in ("file", "files"):
            inputs += [(named, v) for v in ([value] if isinstance(value, str) else value)]
    return inputs, outputs


def _refuse_empty_names(parser, args) -> None:
    """A file, directory or address option given as '' would quietly mean "none" (standard
    output, the installed models, a local cluster): refused instead."""
    for action in _command_actions(parser, args):
        names = action.metavar if isinstance(action.metavar, str) else ""
        if (names.startswith(("FILE", "DIR", "OUT", "ADDRESS")) and action.option_strings
                and getattr(args, action.dest, None) == ""):
            raise InvalidInput(f"argument {action.option_strings[-1]}: an empty name (give {names})")


def _json_asked(argv) -> argparse.Namespace | None:
    """For a command line the parser refused: its command, when it asked for ``--json``."""
    words = [str(a) for a in argv]
    words = words[:words.index("--")] if "--" in words else words
    if "--json" not in words:
        return None
    command = next((w for w in words if not w.startswith("-")), None)
    return argparse.Namespace(json=True, command=command)


def _unreadable_input(exc: Exception) -> str:
    """The one-line reason when ``exc`` comes from input that cannot be read (a damaged or
    hand-edited database, JSON nested past the parser's depth or malformed inside a
    database), else "" (then it is a bug)."""
    sqlite3 = sys.modules.get("sqlite3")  # only where a command opened a database
    if sqlite3 is not None and isinstance(exc, sqlite3.DatabaseError):
        return f"the database cannot be read ({exc}): it is damaged or was not written by {PROG}"
    if isinstance(exc, RecursionError) and "decoding" in str(exc):  # json's own words; other recursion is a bug
        return "the input is nested too deeply to read"
    json = sys.modules.get("json")
    if json is not None and isinstance(exc, json.JSONDecodeError):
        return f"the input holds malformed JSON ({exc})"
    return ""


def run() -> None:
    """The ``kt-formal`` command: :func:`main`, then the exit without the interpreter's teardown.

    Tearing the interpreter down after the answer is written (numba's compiled modules, its
    thread pool) took 0.1 to 0.2 s of every command. The exit handlers still run (``atexit``:
    temporary directories, process pools) after the standard streams are flushed; every
    file a command writes is closed before :func:`main` returns. OpenBLAS keeps to one
    thread (:func:`quiet_blas`).
    """
    quiet_blas()
    code = main()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    atexit._run_exitfuncs()
    os._exit(code)


def main(argv=None) -> int:
    """Run the command; return the exit code (never raise for expected errors)."""
    for name in ("stdout", "stderr"):  # a stream closed by the caller (`>&-`): written to nowhere
        if getattr(sys, name) is None:
            setattr(sys, name, open(os.devnull, "w"))
    parser = build_parser()
    args = None
    try:
        args = parser.parse_args(argv)
        _refuse_empty_names(parser, args)
        print_renamed_notes(args)
        if not getattr(args, "run", None):
            parser.print_help()
            return 2
        args._t0 = time.perf_counter()
        inputs, outputs = _files_of(parser, args)
        refuse_overwrites(outputs, inputs)  # before anything is read or written
        with reading(path for _, path in inputs):
            code = args.run(args)
        sys.stdout.flush()
        return code
    except KtFormalError as exc:
        # one line, whatever a library's message held
        message = " ".join(next_step(in_command_words(exc), isinstance(exc, LimitReached)).split())
        print(f"{PROG}: {message}", file=sys.stderr)
        if args is None:  # the command line itself was refused: --json still asks for an object
            args = _json_asked(sys.argv[1:] if argv is None else argv)
        if getattr(args, "json", False):
            json_error(args, exit_code_of(exc), message)
        return exit_code_of(exc)
    except MemoryError:
        print(f"{PROG}: out of memory; try a smaller board", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # output piped into a command that stopped reading (e.g. head)
        _quiet_stdout()
        return 0
    except OSError as exc:  # e.g. output to /dev/full
        _quiet_stdout()
        print(f"{PROG}: cannot write the output: {exc.strerror or exc}", file=sys.stderr)
        return 2
    except Exception as exc:  # a bug: one line, with a way to see the traceback
        unreadable = _unreadable_input(exc)
        if unreadable:
            print(f"{PROG}: {unreadable}", file=sys.stderr)
            if getattr(args, "json", False):
                json_error(args, 2, unreadable)
            return 2
        if os.environ.get("KT_FORMAL_DEBUG"):
            raise
        print(f"{PROG}: internal error: {type(exc).__name__}: {exc} "
              "(set KT_FORMAL_DEBUG=1 for a traceback)", file=sys.stderr)
        return 4
