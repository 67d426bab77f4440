"""The documentation site: its generated pages come from the code, and it builds strictly.

The command reference is each command's ``--help`` from the parser, and the API page lists
every name ``kt_formal`` exports; ``.ci/run`` builds the whole site with ``mkdocs build
--strict`` (the slow test here does the same, where mkdocs is installed).
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _hooks():
    spec = importlib.util.spec_from_file_location("mkdocs_hooks", ROOT / "scripts" / "mkdocs_hooks.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_command_reference_is_the_parsers_help():
    """Every command has a section holding its --help word for word, options included."""
    from kt_formal.cli import build_parser
    from kt_formal.cli.parsing import _subparsers

    page = _hooks().cli_markdown()
    commands = _subparsers(build_parser())
    assert {"tour", "exists", "verify", "count", "census", "census-report"} <= set(commands)
    for name in commands:
        assert f"\n## kt-formal {name}\n" in page, name
    assert "--json-lines" in page and "--squares {chess,rc}" in page
    os.environ["COLUMNS"] = "100"
    try:
        help_text = commands["exists"].format_help().rstrip()
    finally:
        os.environ.pop("COLUMNS", None)
    assert help_text in page


def test_api_page_lists_every_export():
    import kt_formal

    page = _hooks().api_markdown()
    lazy = [name for name in kt_formal.__all__ if name in kt_formal._LAZY]
    assert len(lazy) > 20
    for name in lazy:
        assert f"        - {name}\n" in page, name
        assert f"::: {kt_formal._LAZY[name]}\n" in page, name


@pytest.mark.slow
def test_site_builds_strictly(tmp_path):
    pytest.importorskip("mkdocs")
    pytest.importorskip("mkdocstrings")
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    r = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(tmp_path / "site")],
                       cwd=ROOT, capture_output=True, text=True, env=env, timeout=600)
    assert r.returncode == 0, r.stderr[-3000:]
    assert (tmp_path / "site" / "reference" / "cli" / "index.html").exists()
    import kt_formal

    # the verb documented where it is defined (kt_formal.api.answers since the API became a package)
    where = f"{kt_formal._LAZY['decide']}.decide"
    assert where.startswith("kt_formal.api.")
    assert f'id="{where}"' in (tmp_path / "site" / "reference" / "api" / "index.html").read_text()
