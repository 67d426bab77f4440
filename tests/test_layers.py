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
    """The layout's limits (issue: one door for the middle layer): no module over 600 lines,
    no function over 120 (scripts/code_sizes.py prints them)."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "scripts" / "code_sizes.py"
    spec = importlib.util.spec_from_file_location("code_sizes", path)
    code_sizes = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(code_sizes)
    long_modules, long_functions, _ = code_sizes.sizes()
    assert long_modules == [] and long_functions == [], (long_modules, long_functions)
