"""Match records (TOML): round trips, replays that reproduce every result, broken records of
every kind, and the ``ginrummy replay`` command.

Matches are played by random players through ``ginrummy.selfplay.play``; most use a low target
(an override, which the record must carry) to keep the default run short, the full-length
matches run with ``--slow``.
"""

from __future__ import annotations

import io
import json
import random
import re
import tomllib
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console

from budget import examples
from deals import build_deck
from ginrummy import InvalidRecordError, Match, get_rules
from ginrummy.cli import main
from ginrummy.engine import record
from ginrummy.engine.rules import PROFILE_NAMES, RuleSet
from ginrummy.players import make
from ginrummy.selfplay.play import play_match
from ginrummy.tui.pages import render_sheet
from ginrummy.words.sheet import score_sheet
from tui_support import stacked_blocks


def random_match(rules: RuleSet, seed: str) -> Match:
    return play_match(rules, [make("random", seed=f"{seed}/0"), make("random", seed=f"{seed}/1")],
                      seed=seed)


def unfinished_match(rules: RuleSet, seed: str, extra_moves: int) -> Match:
    """A match stopped ``extra_moves`` moves into a hand after at least one finished hand."""
    rng = random.Random(seed)
    m = Match(rules, seed=seed)
    while True:
        while not m.hand.over:
            m.play(rng.choice(m.hand.legal_moves()))
        if m.over:
            return m
        m.next_hand()
        if len(m.hands) >= 2:
            break
    for _ in range(extra_moves):
        if m.hand.over:
            break
        m.play(rng.choice(m.hand.legal_moves()))
    return m


def same_match(a: Match, b: Match) -> None:
    """Everything a replay must reproduce."""
    assert a.rules == b.rules and a.rules.describe() == b.rules.describe()
    assert a.rules.overrides == b.rules.overrides
    assert a.first_dealer == b.first_dealer
    assert len(a.hands) == len(b.hands)
    for i, (ha, hb) in enumerate(zip(a.hands, b.hands, strict=True), 1):
        assert ha.deck == hb.deck, f"hand {i}"
        assert ha.dealer == hb.dealer, f"hand {i}"
        assert ha.moves == hb.moves, f"hand {i}"
        assert ha.result == hb.result, f"hand {i}"
        assert ha.hands == hb.hands and ha.phase == hb.phase and ha.to_play == hb.to_play
        assert ha.discard_pile == hb.discard_pile and ha.stock == hb.stock
    assert a.score.entries == b.score.entries
    assert [g.totals for g in a.score.games] == [g.totals for g in b.score.games]
    assert a.over == b.over and a.score.winner == b.score.winner


def round_trip(m: Match, **kw: Any) -> Match:
    text = record.dumps(m, **kw)
    again = record.loads(text)
    same_match(m, again)
    assert record.dumps(again, **kw) == text, "dumps(loads(text)) gives the same text"
    return again


def match_rules(profile: str, option: str, target: int | None) -> RuleSet:
    extra: dict[str, Any] = {}
    if option == "hollywood":
        extra["hollywood"] = True
    elif option == "last_discard_chance":
        extra["last_discard_chance"] = True
    if target is not None:
        extra["target"] = target
    return get_rules(profile, **extra)


@pytest.mark.parametrize("profile", PROFILE_NAMES)
@pytest.mark.parametrize("option", ["plain", "hollywood", "last_discard_chance"])
def test_round_trip_short_matches(profile: str, option: str) -> None:
    rules = match_rules(profile, option, 12 if option == "hollywood" else 25)
    m = random_match(rules, f"short/{profile}/{option}")
    assert m.over
    round_trip(m, players=["Ann", "Bob"], meta={"source": "test", "n": 3})


def test_round_trip_a_full_length_match() -> None:
    m = random_match(get_rules("modern"), "full/modern")
    again = round_trip(m)
    assert again.score.games[0].over


@pytest.mark.slow
@pytest.mark.parametrize("profile", PROFILE_NAMES)
@pytest.mark.parametrize("option", ["plain", "hollywood", "last_discard_chance"])
def test_round_trip_full_matches(profile: str, option: str) -> None:
    for i in range(3):
        round_trip(random_match(match_rules(profile, option, None), f"full/{profile}/{option}/{i}"))


@pytest.mark.parametrize("extra_moves", [0, 1, 2, 5, 17])
def test_round_trip_unfinished_last_hand(extra_moves: int) -> None:
    rules = get_rules("traditional", last_discard_chance=True)
    m = unfinished_match(rules, f"unfinished/{extra_moves}", extra_moves)
    assert not m.hand.over
    again = round_trip(m)
    # The saved game goes on exactly as the original would.
    move = m.hand.legal_moves()[0]
    m.play(move)
    again.play(move)
    same_match(m, again)


def test_round_trip_match_not_started_and_first_hand() -> None:
    round_trip(Match("house", seed="empty", start=False))
    m = Match("oklahoma", seed="first")
    round_trip(m)
    m.play("pass")
    round_trip(m)


names = st.text(max_size=12)


@settings(max_examples=examples(30))
@given(names, names, st.dictionaries(st.text(min_size=1, max_size=8), names | st.integers()))
def test_players_and_meta_round_trip(a: str, b: str, meta: dict[str, Any]) -> None:
    m = Match("modern", seed="names", first_dealer=0)
    m.play("pass")
    text = record.dumps(m, players=[a, b], meta=meta, hand_meta=[meta])
    assert record.players_of(text) == [a, b]
    data = record.parse(text)
    assert data.get("meta", {}) == meta
    assert data["hands"][0].get("meta", {}) == meta
    same_match(m, record.loads(text))


def test_file_helpers(tmp_path: Path) -> None:
    m = Match("browser", seed="file")
    path = tmp_path / "match.toml"
    record.dump(m, str(path), players=["A", "B"])
    same_match(m, record.load(str(path)))


# ---------------------------------------------------------------------------------------------
# Broken records. Each starts from a real record, changes one thing, and expects the error to
# say which hand (and move) is wrong.


def toml_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, str):
        return json.dumps(v)
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{json.dumps(k)} = {toml_value(x)}" for k, x in v.items()) + " }"
    if isinstance(v, list):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    raise TypeError(v)


def to_toml(data: dict[str, Any]) -> str:
    """A small TOML writer for the tests' own edited records (independent of record.dumps)."""
    lines = [f"{json.dumps(k)} = {toml_value(v)}" for k, v in data.items() if k != "hands"]
    hands = data.get("hands")
    if isinstance(hands, list) and all(isinstance(h, dict) for h in hands):
        for h in hands:
            lines.append("[[hands]]")
            lines.extend(f"{json.dumps(k)} = {toml_value(v)}" for k, v in h.items())
    elif "hands" in data:
        lines.append(f"hands = {toml_value(hands)}")
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def base() -> dict[str, Any]:
    """A finished traditional match with a knock or gin somewhere and several hands."""
    for i in range(50):
        m = random_match(get_rules("traditional", target=20), f"base/{i}")
        kinds = [h.result.kind for h in m.hands if h.result is not None]
        if len(m.hands) >= 3 and kinds[0] == "cancelled":
            data = tomllib.loads(record.dumps(m, players=["Ann", "Bob"]))
            assert record.loads(to_toml(data)).score.entries == m.score.entries
            return data
    raise AssertionError("no suitable match")


def edited(base: dict[str, Any], change: Any) -> str:
    data = json.loads(json.dumps(base))
    change(data)
    return to_toml(data)


def refused(text: str, *words: str) -> str:
    with pytest.raises(InvalidRecordError) as info:
        record.loads(text)
    msg = str(info.value)
    for w in words:
        assert w in msg, f"{w!r} not in {msg!r}"
    return msg


def test_not_toml() -> None:
    refused("this is [not toml", "TOML")
    refused("format = 1\nprofile = ", "TOML")
    refused(None, "text")  # type: ignore[arg-type]


def test_wrong_top_level_types_and_values(base: dict[str, Any]) -> None:
    def setter(key: str, value: Any) -> Any:
        return lambda d: d.__setitem__(key, value)

    refused(edited(base, lambda d: d.pop("format")), "format")
    refused(edited(base, setter("format", "1")), "format", "wrong type")
    refused(edited(base, setter("format", 2)), "format 2")
    refused(edited(base, lambda d: d.pop("profile")), "profile")
    refused(edited(base, setter("profile", 5)), "profile")
    refused(edited(base, setter("profile", "canasta")), "canasta")
    refused(edited(base, setter("overrides", "none")), "overrides")
    refused(edited(base, setter("overrides", {"gin_bonus": -1})), "gin_bonus")
    refused(edited(base, setter("overrides", {"jokers": True})), "jokers")
    refused(edited(base, setter("first_dealer", 2)), "first dealer")
    refused(edited(base, setter("first_dealer", "0")), "first_dealer", "wrong type")
    refused(edited(base, setter("first_dealer", True)), "first_dealer")
    refused(edited(base, setter("players", ["only one"])), "players")
    refused(edited(base, setter("players", [1, 2])), "players")
    refused(edited(base, setter("hands", "none")), "hands")
    refused(edited(base, setter("hands", [1, 2])), "hand 1", "table")


def test_oklahoma_record_with_a_knock_limit(base: dict[str, Any]) -> None:
    def change(d: dict[str, Any]) -> None:
        d["profile"] = "oklahoma"
        d["overrides"] = {"knock_limit": 5}

    refused(edited(base, change), "knock_limit")


def test_unknown_fields(base: dict[str, Any]) -> None:
    refused(edited(base, lambda d: d.__setitem__("colour", "red")), "unknown", "colour")
    refused(edited(base, lambda d: d["hands"][1].__setitem__("colour", "red")), "hand 2", "colour")


def test_wrong_hand_types(base: dict[str, Any]) -> None:
    refused(edited(base, lambda d: d["hands"][1].pop("dealer")), "hand 2", "dealer")
    refused(edited(base, lambda d: d["hands"][1].__setitem__("dealer", "0")), "hand 2", "dealer")
    refused(edited(base, lambda d: d["hands"][1].__setitem__("deck", 5)), "hand 2", "deck")
    refused(edited(base, lambda d: d["hands"][1].pop("moves")), "hand 2", "moves")
    refused(edited(base, lambda d: d["hands"][1].__setitem__("moves", "draw")), "hand 2", "moves")
    refused(edited(base, lambda d: d["hands"][1]["moves"].append(5)), "hand 2", "move")
    refused(edited(base, lambda d: d["hands"][0].__setitem__("result", 5)), "hand 1", "result")


def test_bad_decks(base: dict[str, Any]) -> None:
    def deck_edit(f: Any) -> Any:
        def change(d: dict[str, Any]) -> None:
            cards = d["hands"][1]["deck"].split()
            d["hands"][1]["deck"] = " ".join(f(cards))

        return change

    refused(edited(base, deck_edit(lambda c: [*c[:-1], "Zz"])), "hand 2", "Zz")
    refused(edited(base, deck_edit(lambda c: c[:-1])), "hand 2", "52")
    refused(edited(base, deck_edit(lambda c: [*c[:-1], c[0]])), "hand 2", "52")  # duplicate
    refused(edited(base, deck_edit(lambda c: [*c, c[0]])), "hand 2", "52")


def test_illegal_move(base: dict[str, Any]) -> None:
    def change(d: dict[str, Any]) -> None:
        d["hands"][1]["moves"][2] = "big gin"

    refused(edited(base, change), "hand 2", "move 3", "big gin")

    def change2(d: dict[str, Any]) -> None:
        d["hands"][0]["moves"][0] = "discard Zz"

    refused(edited(base, change2), "hand 1", "move 1")


def test_wrong_claimed_result(base: dict[str, Any]) -> None:
    last = len(base["hands"])

    def change(d: dict[str, Any]) -> None:
        r = d["hands"][-1]["result"]
        d["hands"][-1]["result"] = r.replace("scores ", "scores 1")

    refused(edited(base, change), f"hand {last}", "claims")
    refused(edited(base, lambda d: d["hands"][0].__setitem__("result", "gin: seat 0 scores 99")),
            "hand 1", "claims")


def test_wrong_dealer(base: dict[str, Any]) -> None:
    def change(d: dict[str, Any]) -> None:
        d["hands"][1]["dealer"] = 1 - d["hands"][1]["dealer"]

    refused(edited(base, change), "hand 2", "deals")
    refused(edited(base, lambda d: d.__setitem__("first_dealer", 1 - d["first_dealer"])),
            "hand 1", "deals")


def test_moves_after_the_end_of_a_hand(base: dict[str, Any]) -> None:
    def change(d: dict[str, Any]) -> None:
        d["hands"][0]["moves"].append("draw")

    n = len(base["hands"][0]["moves"]) + 1
    refused(edited(base, change), "hand 1", f"move {n}", "after the hand ended")


def test_hands_after_the_end_of_the_match(base: dict[str, Any]) -> None:
    n = len(base["hands"]) + 1
    refused(edited(base, lambda d: d["hands"].append(dict(d["hands"][0]))), f"hand {n}", "over")


def test_unfinished_hand_followed_by_another(base: dict[str, Any]) -> None:
    def change(d: dict[str, Any]) -> None:
        d["hands"][0]["moves"].pop()
        d["hands"][0].pop("result")

    refused(edited(base, change), "hand 1", "unfinished")


def test_claimed_result_of_an_unfinished_hand(base: dict[str, Any]) -> None:
    last = len(base["hands"])
    refused(edited(base, lambda d: d["hands"][-1]["moves"].pop()), f"hand {last}", "unfinished")


# ---------------------------------------------------------------------------------------------
# The replay command.


def test_replay_command_prints_the_score_sheet(tmp_path: Path, base: dict[str, Any]) -> None:
    path = tmp_path / "match.toml"
    path.write_text(to_toml(base), encoding="utf-8")
    m = record.loads(to_toml(base))
    result = CliRunner().invoke(main, ["replay", str(path)])
    assert result.exit_code == 0, result.output
    out = result.output
    assert "traditional (target=20)" in out
    assert "Ann" in out and "Bob" in out
    g = m.score.games[0]
    assert str(g.totals[0]) in out and str(g.totals[1]) in out
    if g.winner is None:
        assert f"a tie at {g.totals[0]} each" in out
    else:
        # Traditional: the higher final total wins, by the difference of the totals.
        assert g.winner == (0 if g.totals[0] > g.totals[1] else 1)
        name = ("Ann", "Bob")[g.winner]
        assert f"{name} won by {abs(g.totals[0] - g.totals[1])} point" in out
    rows, _ = score_sheet(m, ("Ann", "Bob"))
    for row in rows:  # a row per hand: its number and who dealt
        assert re.search(rf"^ *{row.hand} +{('Ann', 'Bob')[row.dealer]} ", out, re.MULTILINE)


def test_replay_shows_names_as_text_never_as_markup(base: dict[str, Any]) -> None:
    """A record's player names are printed as written: "[/]" is not a closing tag (Rich
    would refuse it) and "[bold red]X[/]" is not a bold red X."""
    named = dict(base, players=["[/]", "[bold red]X[/]"])
    result = CliRunner().invoke(main, ["replay", "-"], input=to_toml(named))
    assert result.exit_code == 0, result.output
    assert "[/]" in result.output and "[bold red]X[/]" in result.output


def test_replay_command_from_stdin(base: dict[str, Any]) -> None:
    result = CliRunner().invoke(main, ["replay", "-"], input=to_toml(base))
    assert result.exit_code == 0 and "traditional (target=20)" in result.output


def test_replay_command_unfinished(tmp_path: Path) -> None:
    m = unfinished_match(get_rules("modern", target=30), "cli-unfinished", 3)
    path = tmp_path / "saved.toml"
    path.write_text(record.dumps(m), encoding="utf-8")
    result = CliRunner().invoke(main, ["replay", str(path)])
    assert result.exit_code == 0
    assert f"Hand {len(m.hands)} is still being played" in result.output


def test_replay_command_bad_files(tmp_path: Path, base: dict[str, Any]) -> None:
    bad = tmp_path / "bad.toml"

    def change(d: dict[str, Any]) -> None:
        d["hands"][1]["moves"][2] = "big gin"

    bad.write_text(edited(base, change), encoding="utf-8")
    result = CliRunner().invoke(main, ["replay", str(bad)])
    assert result.exit_code != 0
    assert "hand 2, move 3" in result.output and "Traceback" not in result.output
    junk = tmp_path / "junk.toml"
    junk.write_text("not [toml", encoding="utf-8")
    result = CliRunner().invoke(main, ["replay", str(junk)])
    assert result.exit_code != 0 and "TOML" in result.output
    result = CliRunner().invoke(main, ["replay", str(tmp_path / "missing.toml")])
    assert result.exit_code != 0 and "missing.toml" in result.output
    binary = tmp_path / "binary.toml"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    result = CliRunner().invoke(main, ["replay", str(binary)])
    assert result.exit_code != 0 and isinstance(result.exception, SystemExit)
    assert "binary.toml" in result.output and "UTF-8" in result.output


def test_round_trip_declared_knock_and_stacked_decks() -> None:
    # A knock declaring a non-default arrangement must replay to the same result.
    m = Match("traditional", seed="declared", first_dealer=0, start=False)
    m.next_hand(build_deck("7c 7d 7h 7s 8s 9s Ac 2c 3c Kh", "Kc Kd Ks Qc Qd Qs 8h 5c 6h Jd",
                           "Jh", stock="2d"))
    for move in ("pass", "pass", "draw", "knock Kh with 7c7d7h 7s8s9s"):
        m.play(move)
    assert m.hand.result is not None and m.hand.result.knocker_deadwood == 8
    again = round_trip(m)
    assert again.hand.moves[-1] == "knock Kh with 7c7d7h 7s8s9s"


#: Names too long for a 40-column table's columns.
LONG_NAMES = ["Bartholomew Featherstone", "Wilhelmina Fitzgeraldson"]


@pytest.mark.parametrize("hollywood", [False, True])
def test_replay_at_40_columns_cuts_nothing(hollywood: bool) -> None:
    """At 40 columns the sheet is stacked, one block per hand, as at the terminal table: every
    name, ending and score whole, no line wider than the terminal."""
    rules = get_rules("traditional", target=30, hollywood=hollywood)
    m = play_match(rules, [make("simple", seed="a"), make("simple", seed="b")], seed="narrow")
    assert m.over
    text = record.dumps(m, players=LONG_NAMES)
    result = CliRunner().invoke(main, ["replay", "-"], input=text, env={"COLUMNS": "40"})
    assert result.exit_code == 0, result.output
    out = result.output
    assert "…" not in out
    assert all(len(line.rstrip()) <= 40 for line in out.splitlines())
    names = (LONG_NAMES[0], LONG_NAMES[1])
    rows, games = score_sheet(m, names)
    for row, said in zip(rows, stacked_blocks(out, rows, names), strict=True):
        assert f"Ending: {row.outcome.split(':')[0]}" in said
    flat = " ".join(out.split())
    for g in games:
        for seat in (0, 1):
            assert f"{names[seat]} {g.points[seat]}" in flat and f"= {g.totals[seat]}" in flat


def test_replay_draws_the_terminal_table_s_sheet(base: dict[str, Any]) -> None:
    """Replay and the terminal table draw one sheet: where the table fits, the replay prints
    exactly what the table's page draws at that width."""
    m = record.loads(to_toml(base))
    rows, games = score_sheet(m, ("Ann", "Bob"))
    for width in (80, 120):
        result = CliRunner().invoke(main, ["replay", "-"], input=to_toml(base),
                                    env={"COLUMNS": str(width)})
        page = Console(file=io.StringIO(), width=width, color_system=None, record=True)
        page.print(render_sheet(rows, games, ("Ann", "Bob"), m.rules))
        assert result.output.startswith(page.export_text())
