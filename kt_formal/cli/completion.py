"""``kt-formal completion``: a bash or zsh completion script generated from the parser."""

from __future__ import annotations

import argparse
import sys


def _add_completion(sub) -> None:
    p = sub.add_parser("completion", help="print a shell completion script (bash or zsh)",
                       description="Print a completion script generated from this command's parser.",
                       epilog="examples:\n  source <(kt-formal completion bash)\n"
                              "  kt-formal completion zsh > ~/.zfunc/_kt-formal",
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("shell", choices=("bash", "zsh"), help="the shell")
    p.set_defaults(run=_run_completion)


def _run_completion(args) -> int:
    from kt_formal.cli.parsing import completion

    sys.stdout.write(completion(args._root_parser, args.shell))
    return 0
