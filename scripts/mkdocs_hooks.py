"""MkDocs hooks: the pages generated from the code, so that the site has one source of truth.

- ``reference/cli.md``: every command's ``--help``, walked from ``kt_formal.cli.build_parser()``
  (subcommands of subcommands included), in the parser's own words;
- ``reference/api.md``: the public names of ``kt_formal`` (its ``__all__`` and the modules
  that define them), each rendered from its numpydoc docstring by mkdocstrings;
- doctests in prose (a module docstring's ``>>>`` lines, outside a fenced block) shown as
  code rather than as nested quotes.

mkdocs.yml names this file under ``hooks:``; ``mkdocs build --strict`` runs it.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

#: the width the help is wrapped at, whatever the terminal the site is built in
HELP_COLUMNS = 100

CLI_HEAD = """# Command reference

Generated from the argument parser (`kt_formal.cli.build_parser()`) when the site is built:
each command's `kt-formal COMMAND --help`, word for word. [Every option](../options.md) is
also in one table; [the guides](../getting-started.md) show the commands at work.

Exit codes: 0 found, counted or verified; 1 proven impossible or certificate rejected;
2 bad input; 3 unknown (a limit ran out); 4 internal error (a bug).
"""

API_HEAD = """# Python API

Generated from the docstrings (numpydoc) of the names `kt_formal` exports
(`kt_formal.__all__`), grouped by the module that defines them. `import kt_formal as kt`
is cheap: each name loads its module on first use. The command line's verbs are functions
here too (`kt.tour`, `kt.decide`, `kt.count`, `kt.census`), with its options as keyword
arguments; [from Python](../guides/python.md) shows them at work.
"""


def _walk(parser: argparse.ArgumentParser, words: list[str]):
    """(command words, parser) of every command and subcommand, depth first."""
    from kt_formal.cli.parsing import _subparsers

    for name, sub in _subparsers(parser).items():
        yield [*words, name], sub
        yield from _walk(sub, [*words, name])


def cli_markdown() -> str:
    """The command reference page: the top-level help, then each command's."""
    from kt_formal.cli import build_parser

    old = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = str(HELP_COLUMNS)
    try:
        parser = build_parser()
        parts = [CLI_HEAD, "## kt-formal\n", "```text\n" + parser.format_help().rstrip() + "\n```\n"]
        for words, sub in _walk(parser, []):
            level = "#" * (1 + len(words))
            parts.append(f"{level} kt-formal {' '.join(words)}\n")
            parts.append("```text\n" + sub.format_help().rstrip() + "\n```\n")
    finally:
        if old is None:
            os.environ.pop("COLUMNS", None)
        else:
            os.environ["COLUMNS"] = old
    return "\n".join(parts)


def api_markdown() -> str:
    """The API page: a mkdocstrings block per module, listing the names it exports."""
    import kt_formal

    by_module: dict[str, list[str]] = {}
    for name, module in kt_formal._LAZY.items():
        if name in kt_formal.__all__:
            by_module.setdefault(module, []).append(name)
    parts = [API_HEAD]
    for module, names in by_module.items():
        members = "\n".join(f"        - {n}" for n in names)
        parts.append(f"## `{module}`\n\n::: {module}\n    options:\n      show_root_heading: false\n"
                     f"      members:\n{members}\n")
    return "\n".join(parts)


def _fence_doctests(lines: list[str]) -> list[str]:
    """Wrap each run of doctest lines outside a fenced block (``>>>`` up to a blank line) in a
    ``pycon`` fence, keeping its indentation."""
    out, fence, i = [], None, 0
    while i < len(lines):
        line = lines[i]
        stripped = line.lstrip()
        if fence is None and stripped.startswith(">>>"):
            indent = line[: len(line) - len(stripped)]
            j = i
            while j < len(lines) and lines[j].strip():
                j += 1
            out += [f"{indent}```pycon", *lines[i:j], f"{indent}```"]
            i = j
            continue
        if stripped.startswith(("```", "~~~")):
            marker = stripped[:3]
            fence = marker if fence is None else (None if stripped.startswith(fence) else fence)
        out.append(line)
        i += 1
    return out


def on_config(config):
    """Register the doctest fences with every Markdown instance (pages and docstrings)."""
    from markdown import Extension
    from markdown.preprocessors import Preprocessor

    class _DoctestFences(Preprocessor):
        def run(self, lines):
            return _fence_doctests(lines)

    class _DoctestExtension(Extension):
        def extendMarkdown(self, md):  # noqa: N802 - Markdown's own name
            md.preprocessors.register(_DoctestFences(md), "kt_doctest_fences", 40)

    config.markdown_extensions.append(_DoctestExtension())
    return config


def on_files(files, config):
    """Add the generated pages to the site's files (before the navigation is built)."""
    from mkdocs.structure.files import File

    for uri, text in (("reference/cli.md", cli_markdown()), ("reference/api.md", api_markdown())):
        files.append(File.generated(config, uri, content=text))
    return files
