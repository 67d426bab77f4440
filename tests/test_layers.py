"""The layout: engine options are validated, pictures reach the value types from above."""

from __future__ import annotations

import math

import pytest

from kt_formal import Board, InvalidInput, find_tour
from kt_formal.solve import check_options, get_engine


def test_misspelt_option_names_the_closest():
    with pytest.raises(InvalidInput, match=r"unknown option 'time_limt' \(did you mean 'time_limit'\?\)"):
        find_tour(Board(6, 6), time_limt=5)


def test_option_no_engine_knows_has_no_suggestion_when_nothing_is_close():
    with pytest.raises(InvalidInput, match=r"^unknown option 'zzzz'$"):
        find_tour(Board(6, 6), zzzz=1)


def test_node_limit_is_refused_by_cpsat_not_ignored():
    with pytest.raises(InvalidInput, match="cpsat engine takes no option 'node_limit'"):
        find_tour(Board(6, 6), engine="cpsat", node_limit=10)


def test_node_limit_is_honoured_by_backtracking():
    # a node limit of 1 cannot finish a 20x20 search: the answer is a limit reached, not a tour
    r = find_tour(Board(20, 20), closed=False, start=(0, 0), engine="backtrack", node_limit=1)
    assert r.status.value in ("limit", "found")
    if r.status.value == "found":  # Warnsdorff may walk straight through; then it used <= 1 restart
        assert r.tour.check() is None


@pytest.mark.parametrize("name, value, what", [
    ("time_limit", -1, "positive number of seconds"),
    ("time_limit", math.nan, "finite"),
    ("time_limit", math.inf, "finite"),
    ("time_limit", 0, "above 0"),
    ("workers", -1, "from 1 to 64"),
    ("workers", 100000, "from 1 to 64"),
    ("seed", 99999999999999, "from 0 to"),
    ("seed", 1.5, "whole number"),
    ("workers", True, "whole number"),
])
def test_values_out_of_range_are_refused(name, value, what):
    with pytest.raises(InvalidInput, match=what):
        check_options(get_engine("cpsat"), {name: value})


def test_run_settings_an_engine_does_not_use_are_accepted():
    # backtracking is deterministic and single-threaded: seed and workers are settings of the run,
    # handed on in its limits; it has no options of its own
    backtrack = get_engine("backtrack")
    changes, own = check_options(backtrack, {"seed": 3, "workers": 2, "time_limit": 1.0})
    assert changes == {"seed": 3, "threads": 2, "time_limit": 1.0} and own == backtrack.Options()


def test_pictures_for_jupyter_come_from_below_the_value_types():
    """Board and Tour draw themselves with kt_formal.svg (below them; io.render draws the same)."""
    from kt_formal import svg as pictures
    from kt_formal.io import render

    b = Board.from_spec(6, 6, ["2,2,2x2"])
    svg = b._repr_svg_()
    assert svg.lstrip().startswith("<svg") and svg == render.board_svg(b) == pictures.board_svg(b)
    t = find_tour(Board(6, 6), engine="cpsat").tour
    assert "<polyline" in t._repr_svg_() and t._repr_svg_() == pictures.tour_repr_svg(t)


def test_value_types_import_nothing_above_them():
    import grimp

    g = grimp.build_graph("kt_formal")
    for low in ("kt_formal.board", "kt_formal.tours"):
        above = {m for m in g.find_modules_directly_imported_by(low)
                 if m.startswith(("kt_formal.io", "kt_formal.engines", "kt_formal.combine",
                                  "kt_formal.pipeline", "kt_formal.cli", "kt_formal.solve"))}
        assert not above, f"{low} imports {sorted(above)}"


def test_no_import_cycles():
    """No module of kt_formal imports, directly or not, a module that imports it back
    (the package facade kt_formal/__init__ and __main__ aside: they sit above everything)."""
    import grimp

    g = grimp.build_graph("kt_formal")
    modules = sorted(m for m in g.modules if m not in ("kt_formal", "kt_formal.__main__"))
    for m in modules:
        for other in g.find_modules_directly_imported_by(m):
            if other in ("kt_formal", "kt_formal.__main__") or other == m:
                continue
            back = g.find_shortest_chain(importer=other, imported=m)
            assert back is None, f"cycle: {m} -> {' -> '.join(back)}"


def test_no_module_or_function_grows_past_the_layout_limits():
    """The layout's limits (issue: one door for the middle layer): no module over 600 lines of
    code, no function over 120 (scripts/code_sizes.py prints them; docstrings, comments and
    blank lines are not code)."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "scripts" / "code_sizes.py"
    spec = importlib.util.spec_from_file_location("code_sizes", path)
    code_sizes = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(code_sizes)
    long_modules, long_functions, _ = code_sizes.sizes()
    assert long_modules == [] and long_functions == [], (long_modules, long_functions)


def _private(name: str) -> bool:
    """An underscore name (a dunder such as ``__version__`` is public)."""
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _module_name(path, root) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def private_imports(root, package: str = "kt_formal") -> list[str]:
    """Every place a module of ``package`` (under ``root``) takes an underscore name from another
    file: ``from M import _x``, an import of an underscore module (``M._m``), or ``m._x`` where
    ``m`` is a module of the package it imported. Each as ``path:line: what``."""
    import ast
    from pathlib import Path

    root = Path(root)
    found = []
    for path in sorted((root / package).rglob("*.py")):
        here = _module_name(path, root)
        is_package = path.name == "__init__.py"
        tree = ast.parse(path.read_text(encoding="utf-8"))
        modules = {}  # local name -> module of the package it is bound to
        where = f"{path.relative_to(root).as_posix()}"

        def note(node, what):
            found.append(f"{where}:{node.lineno}: {what}")

        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                if node.level:
                    base = here.split(".") if is_package else here.split(".")[:-1]
                    base = base[:len(base) - (node.level - 1)]
                    source = ".".join(base + ([node.module] if node.module else []))
                else:
                    source = node.module or ""
                if source.split(".")[0] != package:
                    continue
                if any(_private(part) for part in source.split(".")):
                    note(node, f"imports from the underscore module {source}")
                for alias in node.names:
                    if _private(alias.name):
                        note(node, f"imports {alias.name} from {source}")
                    elif (root / (source + "." + alias.name).replace(".", "/")).exists() or \
                            (root / (source + "." + alias.name).replace(".", "/")).with_suffix(".py").exists():
                        modules[alias.asname or alias.name] = source + "." + alias.name
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name.split(".")[0] != package:
                        continue
                    if any(_private(part) for part in alias.name.split(".")):
                        note(node, f"imports the underscore module {alias.name}")
                    modules[alias.asname or alias.name.split(".")[0]] = alias.asname and alias.name or package
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Attribute) and _private(node.attr)):
                continue
            chain, value = [], node.value
            while isinstance(value, ast.Attribute):
                chain.append(value.attr)
                value = value.value
            if isinstance(value, ast.Name) and value.id in modules:
                dotted = ".".join([modules[value.id], *reversed(chain)])
                target = root / dotted.replace(".", "/")
                if target.with_suffix(".py").exists() or (target / "__init__.py").exists():
                    if dotted != here:
                        note(node, f"uses {dotted}.{node.attr}")
    return found


def test_the_underscore_scan_finds_each_way_in(tmp_path):
    """The scan below finds an underscore name imported, an underscore module, and an underscore
    attribute of an imported module; a file's own names, dunders and public aliases pass."""
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("__all__ = []\n__version__ = '1'\n")
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "sub" / "_hidden.py").write_text("x = 1\n")
    (pkg / "sub" / "a.py").write_text("_secret = 1\npublic = 2\n\n\ndef f():\n    return _secret\n")
    (pkg / "b.py").write_text(
        "from pkg.sub.a import _secret\n"          # 1: an underscore name
        "from .sub import _hidden\n"               # 2: an underscore module (as a name)
        "import pkg.sub._hidden\n"                 # 3: an underscore module
        "from pkg.sub import a\n"
        "from pkg.sub.a import public as _mine\n"  # a public name under a private alias: fine
        "from pkg import __version__\n"            # a dunder: fine
        "y = a._secret + _mine\n")                 # 7: an underscore attribute of a module
    (pkg / "c.py").write_text("from .sub.a import public\nclass K:\n    def m(self):\n        return self._z\n")
    found = private_imports(tmp_path, "pkg")
    assert [f.split(":")[1] for f in found] == ["1", "2", "3", "7"], found
    assert all(f.startswith("pkg/b.py:") for f in found)


def test_no_module_imports_an_underscore_name_from_another_file():
    """Modules meet through their public names: no module of kt_formal imports an underscore
    name (or an underscore module) from another file, or reads one off a module it imported.
    What siblings share is public, documented and in their ``__all__``."""
    from pathlib import Path

    found = private_imports(Path(__file__).resolve().parents[1])
    assert not found, f"{len(found)} underscore names taken across files:\n" + "\n".join(found)


def test_the_size_check_counts_lines_of_code_not_docstrings_or_comments():
    """A docstring, a comment or a blank line is not a line of code; a string that is not a
    docstring is, on each of its lines (scripts/code_sizes.py)."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "scripts" / "code_sizes.py"
    spec = importlib.util.spec_from_file_location("code_sizes", path)
    code_sizes = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(code_sizes)
    src = '''"""Module.

Its docstring."""
# a comment
X = 1  # code with a comment

class K:
    """Doc of K."""
    def f(self):
        """Doc of f,
        two lines."""
        s = """a string
# not a comment
"""
        return s
'''
    assert sorted(code_sizes.code_line_numbers(src)) == [5, 7, 9, 12, 13, 14, 15]


def test_every_package_of_the_source_is_installed():
    """pyproject.toml lists the packages a plain ``pip install .`` installs (models/ is mapped
    in, so discovery is off): a subpackage left out installs a package that cannot import
    (kt_formal.api once, found only by the plain install; the tests use the editable one)."""
    import tomllib
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    listed = set(tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = {".".join(p.parent.relative_to(root).parts) for p in (root / "kt_formal").rglob("__init__.py")}
    assert found - listed == set(), f"packages missing from [tool.setuptools] packages: {sorted(found - listed)}"
