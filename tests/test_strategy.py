"""The strategy tips (issue 11, item 6): each has a situation that loads and that the coach
confirms, and evidence from self-play with its interval; ``ginrummy strategy`` prints them."""

from __future__ import annotations

import json

from click.testing import CliRunner

from ginrummy.cli import main
from ginrummy.coach import lesson_coach
from ginrummy.lessons import load_situations
from ginrummy.lessons.confirm import confirm
from ginrummy.strategy import Evidence, strategy_tips

TIPS = strategy_tips()


def test_seven_tips_each_with_a_situation_and_evidence() -> None:
    assert [t.key for t in TIPS] == [
        "knock-early", "throw-high", "keep-flexible", "watch-pickups", "use-discards",
        "take-when-it-helps", "safe-late",
    ]
    for tip in TIPS:
        assert tip.text and tip.title and tip.evidence
        for e in tip.evidence:
            assert e.low <= e.mean <= e.high and e.hands >= 1000
            assert e.command.startswith("python benchmarks/strategy_tips.py --only "
                                        f"{tip.key} --hands {e.hands} ")


def test_every_tips_situation_loads_and_the_coach_confirms_it() -> None:
    situations = {s.id: s for s in load_situations()}
    coach = lesson_coach()
    for tip in TIPS:
        found = confirm(situations[tip.situation_id], coach)
        assert found.confirmed, found.describe()


def test_the_verdict_follows_the_interval() -> None:
    def ev(low: float, high: float) -> Evidence:
        return Evidence("medium", "hard", 2000, (low + high) / 2, low, high, 0.5,
                        ignorer_words="hard (holds out for gin, reads its opponent)")

    assert ev(0.5, 2.0).verdict == "holds"
    assert ev(-3.0, -1.0).verdict == "disagrees"
    assert "disagree" in ev(-3.0, -1.0).sentence and "hard (holds out" in ev(-3, -1).sentence
    assert ev(-1.0, 1.0).verdict == "unclear"


def test_the_terminal_command_prints_every_tip_with_its_situation_and_figure() -> None:
    result = CliRunner().invoke(main, ["strategy"], terminal_width=200)
    assert result.exit_code == 0, result.output
    out = " ".join(result.output.split())
    for tip in TIPS:
        assert tip.title in out
        assert f"ginrummy learn play {tip.situation_id}" in out
        for e in tip.evidence:
            assert e.figure in out and e.command in out
    data = json.loads(CliRunner().invoke(main, ["strategy", "--json"]).output)
    assert [t["situation"] for t in data["tips"]] == [t.situation_id for t in TIPS]
