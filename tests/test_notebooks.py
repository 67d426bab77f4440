"""The notebooks in examples/ run from top to bottom and show what they say.

Each is executed by nbclient in a fresh kernel, in a temporary folder (the files it writes
stay there), with this checkout first on the kernel's import path; a cell that raises fails
the test, and the figures each notebook prints are checked against what its text claims.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"


def run_notebook(name: str, tmp_path, monkeypatch) -> tuple[str, list[str]]:
    """Execute examples/NAME.ipynb; return its printed text and the kinds of its rich outputs."""
    monkeypatch.setenv("PYTHONPATH", str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    nb = nbformat.read(EXAMPLES / f"{name}.ipynb", as_version=4)
    client = nbclient.NotebookClient(nb, timeout=300, kernel_name="python3",
                                     resources={"metadata": {"path": str(tmp_path)}})
    client.execute()
    text, kinds = [], []
    for cell in nb.cells:
        for out in cell.get("outputs", []) if cell.cell_type == "code" else []:
            if out.output_type == "stream" and out.name == "stdout":
                text.append(out.text)
            elif out.output_type in ("execute_result", "display_data"):
                kinds += list(out.data)
                text.append(out.data.get("text/plain", ""))
    return "".join(text), kinds


def test_notebooks_are_listed_and_generated():
    """The three notebooks exist, and the script that writes them writes the same cells."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("make_notebooks", EXAMPLES / "make_notebooks.py")
    make = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(make)
    for name, cells in (("tour", make.TOUR), ("holed_board", make.HOLED), ("census", make.CENSUS)):
        nb = nbformat.read(EXAMPLES / f"{name}.ipynb", as_version=4)
        assert [c.source for c in nb.cells] == [c.source for c in cells], f"{name}.ipynb: run examples/make_notebooks.py"


def test_tour_notebook(tmp_path, monkeypatch):
    text, kinds = run_notebook("tour", tmp_path, monkeypatch)
    assert "yes by " in text and "<Tour closed 8x8, 64 squares>" in text
    assert "image/svg+xml" in kinds and "image/png" in kinds  # the tour's picture, the big board's
    assert "tour8.png (320, 320)" in text and "True 250000" in text
    assert (tmp_path / "tour500.png").stat().st_size > 0


def test_holed_board_notebook(tmp_path, monkeypatch):
    text, _ = run_notebook("holed_board", tmp_path, monkeypatch)
    assert "yes - Yes, a closed tour exists" in text and "no - No closed tour" in text
    assert "proof method: degree" in text
    assert "yes.json exit 0 - OK: closed tour of the 10x10 board minus 16 squares" in text
    assert "no.json exit 0 - OK: no closed tour of the 10x10 board minus 4 squares (1,6, 1,7, 2,6, 2,7)" in text
    assert "exit 1 - REJECTED: " in text


@pytest.mark.slow  # a census on a process pool inside a notebook kernel: 5 s
def test_census_notebook(tmp_path, monkeypatch):
    text, kinds = run_notebook("census", tmp_path, monkeypatch)
    assert "294 of 294 certificates verified in census.sqlite" in text
    assert "image/png" in kinds  # the plot
    assert "text/html" in kinds  # pandas' tables
