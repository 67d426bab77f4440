"""``kt-formal completion``: print a shell completion script (bash or zsh).

Print a completion script generated from this command's parser.
"""

from __future__ import annotations

import sys
from kt_formal.cli.common import command


COMPLETION_EXAMPLES = ("examples:\n  source <(kt-formal completion bash)\n"
                       "  kt-formal completion zsh > ~/.zfunc/_kt-formal")


def add_completion(sub) -> None:
    p = command(sub, __doc__, COMPLETION_EXAMPLES)
    p.add_argument("shell", choices=("bash", "zsh"), help="the shell")
    p.set_defaults(run=_run_completion)


def _run_completion(args) -> int:
    from kt_formal.cli.parsing import completion

    sys.stdout.write(completion(args._root_parser, args.shell))
    return 0
