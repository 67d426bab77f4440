"""Write docs/options.md: every option of every command, generated from the parser.

    python scripts/options_table.py          # rewrite docs/options.md
    python scripts/options_table.py --check  # exit 1 when docs/options.md is out of date

tests/test_scripting.py checks that the file is up to date.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from kt_formal.cli import build_parser  # noqa: E402
from kt_formal.cli.parsing import options_table  # noqa: E402

HEADER = """# Options of every command

Generated from the parser by `python scripts/options_table.py` (a test checks that it is up
to date). One name, one meaning: `--out` is the file a command writes, `--hole` a rectangle
`R,C,HxW` removed from the board (`census --hole-size HxW`: every position of a hole),
`--threads` the solver threads of one search, `--workers` the processes of a census,
`--time-limit` the seconds of one question (60 by default; a census asks many questions and
gives each 10), `--json` one JSON document in the layout of [json.md](json.md) (`count --sequence --json-lines` a stream, one object a line), `--squares`
how squares are printed (chess names or `ROW,COL`). Old spellings (`render -o/--output`,
`tour --workers`, `exists --workers`, `census --hole HxW`) are still accepted with a note on
standard error until the next release; they are not listed here.

"""


def text() -> str:
    return HEADER + options_table(build_parser())


def main(argv) -> int:
    path = ROOT / "docs" / "options.md"
    if "--check" in argv:
        if not path.exists() or path.read_text(encoding="utf-8") != text():
            print(f"{path.name} is out of date: run python scripts/options_table.py", file=sys.stderr)
            return 1
        return 0
    path.write_text(text(), encoding="utf-8")
    print(f"wrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
