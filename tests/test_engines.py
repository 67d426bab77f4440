"""The engines' one template: every engine of the registry is an Engine with checked options,
the template checks every tour and turns a set stop event into LIMIT, and the portfolio runs
whatever engine it is given."""

from __future__ import annotations

import dataclasses
import threading

import pytest

from kt_formal.board import Board
from kt_formal.engines.base import KNOWN_OPTIONS, RUN_SETTINGS, Engine
from kt_formal.exceptions import InvalidInput
from kt_formal.question import Limits, Question, Status
from kt_formal.solve import ENGINES, get_engine, run_engine


@pytest.mark.parametrize("name", list(ENGINES))
def test_every_engine_of_the_registry_follows_the_template(name):
    engine = get_engine(name)
    assert isinstance(engine, Engine) and engine.name == name
    assert dataclasses.is_dataclass(engine.Options)
    assert engine.options() == engine.Options()  # the defaults are valid options
    reason = engine.supports(Question(Board(5, 6)))
    assert reason is None or isinstance(reason, str)


def test_the_options_named_for_suggestions_are_the_engines_own():
    own = set()
    for name in ENGINES:
        engine = get_engine(name)
        own |= {f.name for f in dataclasses.fields(engine.Options)}
        if engine.counts_nodes:
            own.add("node_limit")
    assert own | set(RUN_SETTINGS) == set(KNOWN_OPTIONS)


def test_an_option_is_checked_once_where_the_options_are_made():
    warnsdorff = get_engine("warnsdorff")
    with pytest.raises(InvalidInput, match=r"unknown option 'tiebrake' \(did you mean 'tiebreak'\?\)"):
        warnsdorff.options({"tiebrake": "first"})
    with pytest.raises(InvalidInput, match="unknown tie-break 'nearest'"):
        warnsdorff.Options(tiebreak="nearest")
    with pytest.raises(InvalidInput, match="the warnsdorff engine takes no option 'scheme'"):
        warnsdorff.options({"scheme": "general"})
    with pytest.raises(InvalidInput, match="must list each of the 8 knight moves"):
        get_engine("dfs").Options(order="1,2;2,1")


def test_a_question_an_engine_does_not_take_is_refused_with_the_reason():
    forced = Question(Board(6, 6), forced=(((0, 0), (1, 2)),))
    for name in ("backtrack", "dfs", "exhaustive", "warnsdorff"):
        assert "does not take forced moves" in get_engine(name).supports(forced)
        with pytest.raises(InvalidInput, match="does not take forced moves"):
            run_engine(name, forced)
    assert get_engine("cpsat").supports(forced) is None


def test_the_template_checks_every_tour_an_engine_gives():
    class Liar(Engine):
        name = "liar"

        def search(self, question, limits, options):
            return self.found(question, limits, list(range(question.board.n_squares)))

    with pytest.raises(RuntimeError, match="engine liar produced an invalid tour"):
        Liar().run(Question(Board(3, 4), closed=False))


def test_a_set_stop_event_ends_an_engine_at_its_next_report_as_a_limit():
    # warnsdorff watches no event itself: the template stops it where it reports progress
    stop = threading.Event()
    stop.set()
    seen = []
    limits = Limits(60, stop=stop, progress=lambda *a: seen.append(a))
    r = run_engine("warnsdorff", Question(Board(100, 100), closed=False, start=(0, 0)), limits,
                   tiebreak="last", order="clockwise-from-7", retries=20)
    assert r.status is Status.LIMIT and r.tour is None and seen == []
    assert Status.LIMIT.exit_code == 3 and not Status.LIMIT.decided and Status.IMPOSSIBLE.decided


def test_the_portfolio_runs_whatever_engine_it_is_given():
    from kt_formal.solve.portfolio import Portfolio

    pf = Portfolio(Question(Board(8, 8), closed=False, start=(0, 0)), Limits(30))
    pf.start("warnsdorff", 30)
    pf.wait(30)
    stages = []
    won = pf.finish(stages, ["warnsdorff"])
    assert won is not None and won.engine == "warnsdorff" and won.tour.check() is None
    assert [(s.name, s.outcome) for s in stages] == [("warnsdorff", "found a tour")]
