"""The cheat sheet shows the numbers of the rule set it is built from (RULES.md, "The profiles")."""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner

from ginrummy import get_rules
from ginrummy.cli import main
from ginrummy.words.cheatsheet import cheat_sheet

# The profile table of RULES.md, typed in from the rule book (not read from the code).
BOOK = {
    "traditional": {"gin": 20, "undercut": 10, "big": None, "target": 100, "game": 100, "box": 20},
    "modern": {"gin": 25, "undercut": 25, "big": 31, "target": 100, "game": 100, "box": 25},
    "browser": {"gin": 25, "undercut": 25, "big": None, "target": 100, "game": 100, "box": 25},
    "house": {"gin": 25, "undercut": 25, "big": None, "target": 100, "game": None, "box": None},
    "oklahoma": {"gin": 25, "undercut": 25, "big": 31, "target": 150, "game": 100, "box": 25},
}


def _lines(profile: str, **overrides: object) -> dict[str, str]:
    sheet = cheat_sheet(get_rules(profile, **overrides))
    return {f"{s.title}/{label}": text for s in sheet.sections for label, text in s.lines}


def _numbers(text: str) -> list[int]:
    return [int(n) for n in re.findall(r"\d+", text)]


@pytest.mark.parametrize("profile", sorted(BOOK))
def test_sheet_numbers_match_the_rule_book(profile: str) -> None:
    book = BOOK[profile]
    lines = _lines(profile)
    assert book["gin"] in _numbers(lines["Scoring a hand/Gin"])
    assert book["undercut"] in _numbers(lines["Scoring a hand/Undercut"])
    if book["big"] is None:
        assert "Scoring a hand/Big gin" not in lines
        assert "not played" in lines["Knocking/Big gin"]
    else:
        assert book["big"] in _numbers(lines["Scoring a hand/Big gin"])
    assert book["target"] in _numbers(lines["End of the game/Target"])
    if book["game"] is None:
        assert lines["End of the game/Game bonus"] == "none"
    else:
        assert _numbers(lines["End of the game/Game bonus"])[0] == book["game"]
    if book["box"] is None:
        assert lines["End of the game/Box bonus"] == "none"
    else:
        assert _numbers(lines["End of the game/Box bonus"]) == [book["box"]]


def test_shutouts_and_oklahoma_specials() -> None:
    assert 200 in _numbers(_lines("traditional")["End of the game/Game bonus"])
    assert "no points" in _lines("traditional")["End of the game/Game bonus"]
    assert "won no hand" in _lines("browser")["End of the game/Game bonus"]
    assert "doubled" in _lines("modern")["End of the game/Shutout"]
    okla = _lines("oklahoma")
    assert "first upcard" in okla["Knocking/Knock limit"]
    assert "spade" in okla["Scoring a hand/Spade upcard"]
    assert "Scoring a hand/Spade upcard" not in _lines("modern")


def test_overrides_change_the_sheet() -> None:
    lines = _lines("modern", gin_bonus=40, knock_limit=7, last_discard_chance=True)
    assert 40 in _numbers(lines["Scoring a hand/Gin"])
    assert _numbers(lines["Knocking/Knock limit"]) == [7]
    assert "The stock runs out/Last discard" in lines
    assert "Hollywood" not in " ".join(lines)
    assert "End of the game/Hollywood" in _lines("house", hollywood=True)


def test_rules_command_prints_and_exports_json() -> None:
    runner = CliRunner()
    out = runner.invoke(main, ["rules", "--profile", "oklahoma", "--rule", "gin_bonus=33"])
    assert out.exit_code == 0, out.output
    assert "Gin rummy cheat sheet: Oklahoma, gin bonus 33" in out.output
    assert "+ 33" in out.output
    data = json.loads(runner.invoke(main, ["rules", "--profile", "house", "--json"]).output)
    assert data["profile"] == "house"
    assert data["rules"]["target"] == 100


def test_rules_command_rejects_bad_overrides() -> None:
    runner = CliRunner()
    bad = runner.invoke(main, ["rules", "--rule", "gin_bonus=-1"])
    assert bad.exit_code == 2
    assert "gin_bonus must be between 0 and 1000" in bad.output
    assert runner.invoke(main, ["rules", "--rule", "nonsense"]).exit_code == 2
    assert runner.invoke(main, ["rules", "--profile", "poker"]).exit_code == 2


# RULES.md, the profiles table's `winner` row: traditional (seed 000) names the higher final
# total, every other profile (001, 003, 004) the player who reached the target.
WINNER_BOOK = {
    "traditional": "higher final total",
    "modern": "reached 100 first",
    "browser": "reached 100 first",
    "house": "reached 100 first",
    "oklahoma": "reached 150 first",
}


@pytest.mark.parametrize("profile", sorted(WINNER_BOOK))
def test_the_sheet_says_who_wins_the_game(profile: str) -> None:
    from ginrummy.server.rules_text import bonus_lines

    lines = _lines(profile)
    assert WINNER_BOOK[profile] in lines["End of the game/Winner"]
    assert "equal totals tie" in lines["End of the game/Winner"] or profile != "traditional"
    assert "margin" not in lines["End of the game/Winner"]
    assert "minus" in lines["End of the game/Margin"]
    holly = _lines(profile, hollywood=True)["End of the game/Hollywood"]
    assert ("two of the three games" in holly) == (profile != "traditional")
    assert any(WINNER_BOOK[profile] in line for line in bonus_lines(get_rules(profile)))
    out = CliRunner().invoke(main, ["rules", "--profile", profile, "--json"])
    assert out.exit_code == 0 and WINNER_BOOK[profile] in out.output


def test_the_winner_rule_can_be_overridden_on_the_sheet() -> None:
    lines = _lines("traditional", winner="first_to_target")
    assert "reached 100 first" in lines["End of the game/Winner"]
    out = CliRunner().invoke(main, ["rules", "--rule", "winner=first_to_target"])
    assert out.exit_code == 0 and "Traditional, winner first to target" in out.output


#: What a profile's title may claim, each a fact about its RuleSet.
TITLE_CLAIMS = {
    "no big gin": lambda r: not r.big_gin,
    "big gin,": lambda r: r.big_gin,
    "25-point bonuses": lambda r: r.gin_bonus == 25 and r.undercut_bonus == 25,
    "200 for a shutout": lambda r: r.shutout == "game_bonus" and r.shutout_game_bonus == 200,
    "no end-of-game bonuses": lambda r: r.game_bonus == 0 and r.box_bonus == 0,
    "the upcard sets the knock limit": lambda r: r.oklahoma,
}


@pytest.mark.parametrize("profile", sorted(BOOK))
def test_a_rule_set_is_named_by_what_it_is(profile: str) -> None:
    """Issue 38: the profiles are named for players by their rules, not by where the rules
    were found ("Browser"); what a title claims is true of its rule set; the cheat sheet's
    title names the rules once, overrides in words ("Traditional — traditional" and
    "hollywood=on" before)."""
    from ginrummy.words.cheatsheet import PROFILE_TITLES, rules_name

    rules = get_rules(profile)
    title = PROFILE_TITLES[profile]
    assert "browser" not in title.lower()
    assert title.startswith(rules_name(rules))
    for claim, holds in TITLE_CLAIMS.items():
        if claim in title.lower():
            assert holds(rules), (title, claim)
    assert len(set(PROFILE_TITLES.values())) == len(PROFILE_TITLES)
    out = CliRunner().invoke(main, ["rules", "--profile", profile, "--hollywood",
                                    "--rule", "gin_bonus=30"])
    assert out.exit_code == 0, out.output
    head = out.output.splitlines()[0]
    assert head == f"Gin rummy cheat sheet: {rules_name(rules)}, gin bonus 30, Hollywood"
    assert head.lower().count(rules_name(rules).lower()) == 1
    assert "=" not in head and "_" not in head and "browser" not in head.lower()
