"""``kt-formal models``: check or rebuild the library of certified pieces.

The certified base and element tours in models/.
"""

from __future__ import annotations

from kt_formal import api
from kt_formal.api import InvalidInput
from kt_formal.cli.common import command


MODELS_EXAMPLES = ("examples:\n  kt-formal models check\n  kt-formal models build --only structured-6x6")


def add_models(sub) -> None:
    p = command(sub, __doc__, MODELS_EXAMPLES)
    p.add_argument("action", choices=["check", "build", "list"],
                   help="check: verify every piece; build: regenerate with CP-SAT; list: show pieces")
    p.add_argument("--only", action="append", default=[], metavar="NAME",
                   help="with build: only these pieces (repeatable)")
    p.add_argument("--dir", metavar="DIR", help="library folder (default: the installed models/)")
    p.set_defaults(run=_run_models)


def _run_models(args) -> int:
    from pathlib import Path

    directory = Path(args.dir) if args.dir else None
    if directory is not None and args.action != "build" and not directory.is_dir():
        raise InvalidInput(f"--dir {args.dir}: no such directory (the library to {args.action})")
    if args.action == "list" and directory is not None:
        raise InvalidInput("--dir goes with check and build; 'models list' lists the pieces the package defines")
    if args.action == "check":
        report = api.check_models(directory)
        bad = [(n, r) for n, r in report if r is not None]
        for name, reason in report:
            print(f"{'ok' if reason is None else 'BAD'}  {name}" + (f": {reason}" if reason else ""))
        print(f"{len(report) - len(bad)} of {len(report)} pieces verified")
        return 1 if bad else 0
    specs = api.model_pieces()
    if args.action == "list":
        for s in specs:
            ends = f" {s.start}->{s.end}" if (s.start or s.end) else ""
            print(f"{s.name:32} {s.rows}x{s.cols} {'closed' if s.closed else 'open'}{ends} "
                  f"[{s.kind}] {len(s.forced)} forced moves")
        return 0
    if args.only:
        names = {s.name for s in specs}
        unknown = [n for n in args.only if n not in names]
        if unknown:
            raise InvalidInput(f"no piece named {unknown[0]!r} (see 'kt-formal models list')")
        specs = [s for s in specs if s.name in args.only]

    with api.progress_for(enabled=not getattr(args, "quiet", False), label="models") as progress:
        pieces = api.build_models(specs, directory, progress=progress)
    print(f"built and verified {len(pieces)} piece{'' if len(pieces) == 1 else 's'}")
    return 0
