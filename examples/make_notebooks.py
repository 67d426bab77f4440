"""Write the example notebooks (without outputs): ``python examples/make_notebooks.py``.

The notebooks are the product; this script keeps their source reviewable as Python.
tests/test_notebooks.py executes each one and checks what it prints.
"""

from __future__ import annotations

from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

HERE = Path(__file__).resolve().parent

TOUR = [
    new_markdown_cell("""# A knight's tour and its picture

A closed tour of the 8 x 8 board from the pipeline (`kt.tour`, the Python face of
`kt-formal tour 8 8`), checked again by the kernel, drawn, and then a big board built by
divide and conquer."""),
    new_code_cell("""import kt_formal as kt

result = kt.tour(8, 8, threads=1)
print(result.answer, "by", result.engine)
print(result.tour.to_grid())"""),
    new_markdown_cell("""Every tour that leaves an engine has passed the trusted kernel; `check()` runs it again
(it returns `None` for a tour, and raises on anything else). In Jupyter a `Tour` displays
itself as its picture: the start a green disc, the end a red one."""),
    new_code_cell("""assert result.tour.check() is None
result.tour"""),
    new_markdown_cell("The same picture as a PNG file, numbered:"),
    new_code_cell("""from kt_formal.io.render import save_picture, png_size

path = save_picture(result.tour, "tour8.png", numbers=True, cell=40)
print(path, png_size(path.read_bytes()))"""),
    new_markdown_cell("""A board of a quarter of a million squares, built from certified blocks joined by
two-move swaps, and verified square by square. Too big for SVG, it is drawn as a PNG with
one pixel a square, coloured by step number (dark blue at the start, yellow at the end):"""),
    new_code_cell("""from IPython.display import Image

big = kt.tour(500, 500)
print(big.message)
print(big.tour.check() is None, len(big.tour.squares()))
Image(filename=str(save_picture(big.tour, "tour500.png", cell=1)))"""),
]

HOLED = [
    new_markdown_cell("""# A holed board, decided both ways

Two boards with holes: one has a closed tour (the answer comes with the tour), one has
none (the answer comes with a proof). Each certificate is written to a file and checked by
`kt-formal verify`, which knows only the board and the knight rule."""),
    new_code_cell("""import json, subprocess, sys
import kt_formal as kt

yes = kt.decide(10, 10, hole=["3,3,4x4"], threads=1)
print(yes.answer, "-", yes.explanation)
yes.tour"""),
    new_code_cell("""no = kt.decide(10, 10, hole=["1,6,2x2"], threads=1)
print(no.answer, "-", no.explanation)
print("proof method:", no.certificate["method"])
kt.Board.from_spec(10, 10, ["1,6,2x2"])"""),
    new_markdown_cell("""Both certificates to files, and the command-line checker on each (exit 0: verified).
`--squares rc` names the squares as `row,col`, the form the holes were given in."""),
    new_code_cell("""def verify(path):
    out = subprocess.run([sys.executable, "-m", "kt_formal", "verify", path, "--squares", "rc"],
                         capture_output=True, text=True)
    return out.returncode, out.stdout.strip()

for name, verdict in (("yes.json", yes), ("no.json", no)):
    with open(name, "w") as f:
        json.dump(verdict.certificate, f)
    code, text = verify(name)
    print(name, "exit", code, "-", text)
    assert code == 0"""),
    new_markdown_cell("A certificate changed by one square is rejected (exit 1), with the reason:"),
    new_code_cell("""cert = dict(yes.certificate)
cert["squares"] = [list(q) for q in cert["squares"]]
cert["squares"][1], cert["squares"][2] = cert["squares"][2], cert["squares"][1]
with open("tampered.json", "w") as f:
    json.dump(cert, f)
code, text = verify("tampered.json")
print("exit", code, "-", text)
assert code == 1"""),
]

CENSUS = [
    new_markdown_cell("""# A census explored with pandas

Every 3 x n and 4 x n board (n from 3 to 9) minus one square: is there a closed tour? The
census stores each answer, with its certificate, in SQLite; pandas reads the table."""),
    new_code_cell("""import sqlite3
import pandas as pd
import kt_formal as kt

for rows in (3, 4):
    res = kt.census(kt.Family(rows=rows, cols="3..9", remove_squares=1), db="census.sqlite", workers=1)
    print(res.to_json()["message"])

with sqlite3.connect("census.sqlite") as con:
    df = pd.read_sql_query('SELECT rows, cols, holes, answer, route FROM verdicts', con)
df.head()"""),
    new_markdown_cell("How each board's questions were answered, and by which proof or route:"),
    new_code_cell("""df["board"] = df["rows"].astype(str) + "x" + df["cols"].astype(str)
table = df.pivot_table(index="board", columns="answer", values="holes", aggfunc="count", fill_value=0)
table"""),
    new_code_cell("""# a route reads 'proof:degree', 'fast:extend-rotate' or 'proof:colour+sym:rot90' (solved once
# for a position equal under a symmetry of the board): keep the method
df["how"] = df["route"].str.split("+").str[0].str.split(":").str[-1]
df.groupby(["answer", "how"]).size().rename("questions").to_frame()"""),
    new_markdown_cell("""The share of removed squares that leave a closed tour, per board. 3 x n minus one
square has one only for odd n, and then only for some squares, none at all for n = 5
(Miller and Farnsworth's theorem, which the atlas checks); 4 x n minus one square has an
odd number of squares, so never a closed tour (a knight alternates colours)."""),
    new_code_cell("""import matplotlib.pyplot as plt

share = (df.assign(yes=df["answer"].eq("yes")).groupby(["rows", "cols"])["yes"].mean().unstack(0))
ax = share.plot(marker="o", figsize=(6, 3.5))
ax.set_xlabel("columns n"); ax.set_ylabel("share of squares removed with a tour")
ax.set_title("closed tours of m x n minus one square")
ax.legend(title="rows m")
plt.tight_layout()
print(share.round(3).to_string())"""),
    new_markdown_cell("Every certificate in the database, checked again by the kernel:"),
    new_code_cell("""import subprocess, sys
out = subprocess.run([sys.executable, "-m", "kt_formal", "verify", "--db", "census.sqlite"],
                     capture_output=True, text=True)
print(out.stdout.strip())
assert out.returncode == 0"""),
]


def main() -> None:
    for name, cells in (("tour", TOUR), ("holed_board", HOLED), ("census", CENSUS)):
        nb = new_notebook(cells=cells, metadata={
            "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},
            "language_info": {"name": "python"}})
        nbformat.write(nb, HERE / f"{name}.ipynb")
        print(f"wrote examples/{name}.ipynb")


if __name__ == "__main__":
    main()
