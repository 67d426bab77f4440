"""The examples in README.md and every page of the site (docs/**/*.md) run as shown.

Every ```console block is run like a doctest: a line starting with ``$ `` is a shell
command (``kt-formal`` is this checkout's command, run in a fresh temporary folder, one
folder per block, so the commands of a block can use each other's files); the lines
after it, up to the next command, are the first lines of its output (standard output
and standard error together, in the order written). In an expected line ``...`` stands
for any text, and a line holding only ``...`` for any number of lines. A command must
exit 0 unless its comment says ``exit N``. A block right after the comment
``<!-- slow -->`` runs only with ``pytest -m slow``.

Every ```python block runs too (in a temporary folder). A block in doctest form (lines
``>>> `` and ``... ``, each followed by its output) is run by :mod:`doctest`, with
``...`` in an output standing for any text, and each output must match; a block without
``>>>`` must not raise and must print nothing (what it shows, it asserts).
"""

from __future__ import annotations

import doctest
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]

_FENCE = re.compile(r"^```(\w*)\s*$")


def _blocks(path: Path):
    """(language, first line number, lines, slow) of each fenced block of a Markdown file."""
    lines = path.read_text(encoding="utf-8").splitlines()
    i = 0
    while i < len(lines):
        m = _FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        lang, start = m.group(1), i
        j = i + 1
        while j < len(lines) and not lines[j].startswith("```"):
            j += 1
        k = start - 1
        while k >= 0 and not lines[k].strip():
            k -= 1
        slow = k >= 0 and lines[k].strip() == "<!-- slow -->"
        yield lang, start + 1, lines[start + 1:j], slow
        i = j + 1


def _examples(lang: str):
    params = []
    for path in DOCS:
        for block_lang, line, body, slow in _blocks(path):
            if block_lang != lang:
                continue
            marks = [pytest.mark.slow] if slow else []
            name = path.relative_to(ROOT).as_posix()
            params.append(pytest.param(body, id=f"{name}:{line}", marks=marks))
    return params


def _commands(body):
    """(command, expected lines) pairs of a console block."""
    out = []
    for line in body:
        if line.startswith("$ "):
            out.append((line[2:], []))
        elif out:
            out[-1][1].append(line)
        elif line.strip():
            raise AssertionError(f"output line {line!r} before any command")
    return out


def _line_matches(pattern: str, text: str) -> bool:
    parts = pattern.rstrip().split("...")
    regex = ".*".join(re.escape(p) for p in parts)
    return re.fullmatch(regex, text.rstrip()) is not None


def _output_matches(expected, actual) -> bool:
    """Whether ``actual`` lines start with ``expected`` (with ``...`` lines as gaps)."""

    def match(e, a):
        if e == len(expected):
            return True
        if expected[e].strip() == "...":
            return any(match(e + 1, j) for j in range(a, len(actual) + 1))
        return a < len(actual) and _line_matches(expected[e], actual[a]) and match(e + 1, a + 1)

    return match(0, 0)


def _expected_exit(command: str) -> int:
    m = re.search(r"#.*\bexit (\d)\b", command)
    return int(m.group(1)) if m else 0


@pytest.fixture
def shell(tmp_path):
    """Run a command line with ``kt-formal`` meaning this checkout; returns (code, output)."""
    bindir = tmp_path / "bin"
    bindir.mkdir()
    exe = bindir / "kt-formal"
    exe.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m kt_formal "$@"\n', encoding="utf-8")
    exe.chmod(0o755)
    work = tmp_path / "work"
    work.mkdir()
    env = dict(os.environ)
    env["PATH"] = f"{bindir}{os.pathsep}{env.get('PATH', '')}"
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    env["PYTHONUNBUFFERED"] = "1"  # stdout and stderr interleaved as written
    env["COLUMNS"] = "100"
    env.pop("KT_FORMAL_DEBUG", None)

    def run(command: str):
        proc = subprocess.run(["bash", "-c", command], cwd=work, env=env, capture_output=False,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=900)
        return proc.returncode, proc.stdout

    run.work = work
    return run


@pytest.mark.parametrize("body", _examples("console"))
def test_console_examples(body, shell):
    commands = _commands(body)
    assert commands, "a console block without a command"
    for command, expected in commands:
        code, output = shell(command)
        lines = output.splitlines()
        # a compile note of the search kernels may come first on a cold cache
        lines = [ln for ln in lines if "compiling the search kernels once" not in ln]
        assert "Traceback" not in output and "internal error" not in output, f"$ {command}\n{output}"
        assert code == _expected_exit(command), f"$ {command}\nexit {code}\n{output}"
        assert _output_matches(expected, lines), (
            f"$ {command}\nexpected first lines:\n" + "\n".join(expected) + "\ngot:\n" + "\n".join(lines[:40]))


_DOCTEST_FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def _run_doctest(text: str, name: str = "<python block>") -> doctest.TestResults:
    """Run a block in doctest form; (failures, attempted), with each failure's report printed."""
    test = doctest.DocTestParser().get_doctest(text, {"__name__": "__docs__"}, name, None, 0)
    runner = doctest.DocTestRunner(optionflags=_DOCTEST_FLAGS)
    runner.run(test)
    return runner.summarize(verbose=False)


@pytest.mark.parametrize("body", _examples("python"))
def test_python_examples(body, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    text = "\n".join(body) + "\n"
    if any(line.startswith(">>> ") for line in body):
        failures, attempted = _run_doctest(text)
        report = capsys.readouterr().out
        assert attempted > 0 and failures == 0, report
        return
    exec(compile(text, "<python block>", "exec"), {"__name__": "__docs__"})
    printed = capsys.readouterr().out
    assert not printed, ("a python block without '>>>' printed output that nothing checks; "
                         "write it in doctest form:\n" + printed)


def test_a_wrong_output_fails():
    """The runners compare: a changed figure in an expected output is a failure."""
    assert _output_matches(["3x10 16", "3x11 0"], ["3x10 16", "3x11 0", "3x12 176"])
    assert not _output_matches(["3x10 17"], ["3x10 16", "3x11 0"])
    assert not _output_matches(["...", "3x12 177"], ["3x10 16", "3x12 176"])
    failures, attempted = _run_doctest(">>> print(16)\n17\n")
    assert (failures, attempted) == (1, 1)
    assert _run_doctest(">>> print(16)\n16\n") == (0, 1)


def test_every_console_block_is_collected():
    """The runner sees every console block of every document (none hidden by a typo)."""
    fences = sum(len(re.findall(r"^```console\s*$", p.read_text(encoding="utf-8"), re.M)) for p in DOCS)
    assert fences == len(_examples("console")) > 10


def test_ellipsis_matching():
    assert _output_matches(["a ... c", "..."], ["a b c", "x", "y"])
    assert _output_matches(["1", "...", "z"], ["1", "2", "3", "z", "tail"])
    assert not _output_matches(["1", "...", "z"], ["1", "2", "3"])
    assert not _output_matches(["a b"], ["a c"])
    assert _expected_exit("kt-formal tour 4 4   # impossible, exit 1") == 1
