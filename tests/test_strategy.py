"""The strategy tips (issue 11, item 6; issue 38, item 3): each has a situation that loads and
that the coach confirms, and evidence from self-play with its interval; every tip is advice our
evidence stands behind, said with its figure in one short line, the surest first; the data is
what benchmarks/strategy_tips.py writes; ``ginrummy strategy`` prints them without commands."""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from pathlib import Path
from types import ModuleType

from click.testing import CliRunner

from ginrummy.cli import main
from ginrummy.coach import lesson_coach
from ginrummy.lessons import load_situations
from ginrummy.lessons.confirm import confirm
from ginrummy.lessons.strategy import ABOUT, Evidence, strategy_data, strategy_tips

TIPS = strategy_tips()
SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "strategy_tips.py"


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("strategy_tips_script", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_seven_tips_each_with_a_situation_and_evidence() -> None:
    assert {t.key for t in TIPS} == {
        "knock-when-it-pays", "throw-high", "keep-flexible", "watch-pickups", "use-discards",
        "take-when-it-helps", "safe-late",
    }
    for tip in TIPS:
        assert tip.text and tip.title and tip.evidence
        for e in tip.evidence:
            assert e.low <= e.mean <= e.high and e.hands >= 1000
            assert e.command.startswith("python benchmarks/strategy_tips.py --only "
                                        f"{tip.key} --hands {e.hands} ")


def test_no_tip_is_contradicted_by_its_own_evidence() -> None:
    """A tip is advice we stand behind: none of its runs may show following it costing points,
    and no word of the tips says our measurements disagree."""
    for tip in TIPS:
        assert all(e.verdict != "disagrees" for e in tip.evidence), (tip.key, tip.line)
        for words in (tip.title, tip.text, tip.line):
            assert "disagree" not in words.lower()
    assert "disagree" not in ABOUT.lower()


def test_the_tips_come_surest_first() -> None:
    """The order is the evidence's: a tip's best lower end of the interval, highest first."""
    lows = [max(e.low for e in t.evidence) for t in TIPS]
    assert lows == sorted(lows, reverse=True)


def test_each_tip_shows_its_figure_in_one_short_line_that_follows_the_interval() -> None:
    for tip in TIPS:
        e = tip.evidence[0]
        assert tip.line == e.line and e.figure in tip.line and f"{e.hands:,} hands" in tip.line
        assert "\n" not in tip.line and len(tip.line) <= 130, tip.line
        assert ("gained" in tip.line) == (e.verdict == "holds")
        assert ("no clear difference" in tip.line) == (e.verdict == "unclear")


def test_every_tips_situation_loads_and_the_coach_confirms_it() -> None:
    situations = {s.id: s for s in load_situations()}
    coach = lesson_coach()
    for tip in TIPS:
        found = confirm(situations[tip.situation_id], coach)
        assert found.confirmed, found.describe()


def test_the_verdict_follows_the_interval() -> None:
    def ev(low: float, high: float) -> Evidence:
        return Evidence("medium", "hard", 2000, (low + high) / 2, low, high, 0.5)

    assert ev(0.5, 2.0).verdict == "holds" and "gained +1.2" in ev(0.5, 2.0).line
    assert ev(-3.0, -1.0).verdict == "disagrees" and "cost -2.0" in ev(-3.0, -1.0).line
    assert ev(-1.0, 1.0).verdict == "unclear" and "no clear difference" in ev(-1, 1).line


def test_the_data_is_what_the_script_writes() -> None:
    """The tips' words, the players' words and the runs measured are the script's, in the
    order it writes them (so editing the script's text and rerunning it with ``--merge``
    changes the page)."""
    script = _script()
    data = strategy_data()
    assert data["players"] == script.PLAYER_WORDS
    assert data["tips"] == script.surest_first(script.TIPS, data["runs"])
    assert [(r["tip"], r["follower"], r["ignorer"]) for r in data["runs"]] == script.RUNS
    for r in data["runs"]:
        assert r["command"] == script.command(r["tip"], r["hands"], r.get("seed", "tips"))


def test_the_terminal_command_prints_every_tip_with_its_situation_and_figure() -> None:
    result = CliRunner().invoke(main, ["strategy"], terminal_width=200)
    assert result.exit_code == 0, result.output
    out = " ".join(result.output.split())
    assert ABOUT in out
    for tip in TIPS:
        assert tip.title in out and tip.text in out and tip.line in out
        assert f"ginrummy learn play {tip.situation_id}" in out
    # The commands that made the figures are for developers: in --json, not in the tips.
    assert "benchmarks/" not in out and not re.search(r"\bpython\b", out)
    data = json.loads(CliRunner().invoke(main, ["strategy", "--json"]).output)
    assert [t["situation"] for t in data["tips"]] == [t.situation_id for t in TIPS]
    assert [e["command"] for t in data["tips"] for e in t["evidence"]] == [
        e.command for t in TIPS for e in t.evidence]
