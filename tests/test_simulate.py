"""Batch self-play, its summaries, and the ``simulate`` and ``tournament`` commands."""

from __future__ import annotations

import json
import re
import struct
from typing import Any

import pytest
from click.testing import CliRunner

from ginrummy.cli import main
from ginrummy.engine.errors import GinRummyError
from ginrummy.engine.hand import Hand, deal_order
from ginrummy.engine.match import score_match
from ginrummy.engine.melds import min_deadwood
from ginrummy.engine.rules import RuleSet, get_rules
from ginrummy.selfplay.simulate import (
    KINDS,
    Setup,
    play_one_hand,
    play_one_match,
    run_hands,
    run_matches,
)
from ginrummy.selfplay.summary import summarize_hands, summarize_matches
from ginrummy.selfplay.tournament import Tournament, summarize_tournament

QUICK = get_rules("traditional", target=10)  # random players end a match in one scored hand


def invoke(*args: str) -> Any:
    return CliRunner().invoke(main, list(args), env={"COLUMNS": "200"})


# ------------------------------------------------------------------------------------------
# Records.


def test_hand_records_agree_with_the_engine() -> None:
    setup = Setup.of("traditional", ["random", "random"], seed="records")
    for record in run_hands(setup, 12):
        hand = Hand("traditional", seed=f"records/hand/{record.index}", dealer=record.dealer)
        h0, h1, _, _ = deal_order([int(c) for c in hand.deck], record.dealer)
        assert record.fresh_deadwood == (min_deadwood(h0), min_deadwood(h1))
        assert record.kind in KINDS
        assert record.turns >= 1
        if record.kind == "cancelled":
            assert (record.winner_seat, record.points, record.knocker_deadwood) == (None, 0, None)
        else:
            assert record.points > 0 and record.winner_seat in (0, 1)
            assert record.knocker_deadwood is not None and record.knocker_deadwood <= 10


def test_seats_and_deal_are_balanced() -> None:
    records = run_hands(Setup.of("traditional", ["random", "random"], seed=3), 8)
    a_deals = sum(r.player_of(r.dealer) == 0 for r in records)
    assert a_deals == 4
    assert sum(r.a_seat == 0 for r in records) == 4
    assert {(r.a_seat, r.dealer) for r in records} == {(0, 0), (0, 1), (1, 0), (1, 1)}


def test_each_hand_depends_only_on_seed_and_index() -> None:
    setup = Setup.of("traditional", ["random", "random"], seed="idx")
    records = run_hands(setup, 10)
    assert records[7] == play_one_hand(setup, 7)
    assert [r.index for r in records] == list(range(10))
    other = run_hands(Setup.of("traditional", ["random", "random"], seed="idy"), 10)
    assert other != records


def test_workers_do_not_change_the_records() -> None:
    setup = Setup.of("traditional", ["random", "random"], seed="par")
    assert run_hands(setup, 30, workers=1) == run_hands(setup, 30, workers=2)
    mixed = Setup.of("traditional", ["simple", "random"], seed="par")
    assert run_matches(mixed, 6, workers=1) == run_matches(mixed, 6, workers=2)


def test_a_player_class_works_like_its_name() -> None:
    from ginrummy.players.simple import SimplePlayer

    by_name = Setup.of("traditional", ["simple", "simple"], seed="f")
    by_class = Setup.of("traditional", [SimplePlayer, SimplePlayer], seed="f")
    assert run_hands(by_class, 8, workers=2) == run_hands(by_name, 8)


@pytest.mark.parametrize("rules", [QUICK, get_rules("modern", hollywood=True),
                                   get_rules("oklahoma")])
def test_match_records_score_like_the_engine(rules: RuleSet) -> None:
    setup = Setup.of(rules, ["simple", "simple"], seed="m")
    for record in run_matches(setup, 4):
        entries = [(h.winner_seat, h.points) if h.winner_seat is not None else None
                   for h in record.hands]
        score = score_match(rules, entries)
        assert record.finished and score.over
        assert record.totals == score.totals
        assert record.winner_seat == score.winner
        assert record.hands[0].dealer == record.first_dealer


def test_unfinished_match_is_marked() -> None:
    setup = Setup.of("traditional", ["random", "random"], seed="m")
    record = play_one_match(setup, 0, max_hands=3)
    assert not record.finished and record.winner_seat is None and len(record.hands) == 3
    summary = summarize_matches([record], ("random", "random"))
    assert summary["unfinished"] == 1 and summary["finished"] == 0


# ------------------------------------------------------------------------------------------
# Summaries.


def test_summary_counts_add_up() -> None:
    records = run_hands(Setup.of("traditional", ["random", "random"], seed=11), 60)
    s = summarize_hands(records, ("random", "random"))
    assert sum(o["count"] for o in s["outcomes"].values()) == s["hands"] == 60
    scored = s["scored_hands"]
    assert scored == 60 - s["outcomes"]["cancelled"]["count"]
    assert sum(p["hand_wins"]["count"] for p in s["players"]) == scored
    assert s["points_per_scored_hand"]["n"] == scored
    knocks = s["outcomes"]["knock"]["count"] + s["outcomes"]["undercut"]["count"]
    assert s["knock_deadwood"]["n"] == knocks
    net_a = s["players"][0]["net_points_per_hand"]["mean"]
    net_b = s["players"][1]["net_points_per_hand"]["mean"]
    assert net_a == pytest.approx(-net_b)


def test_summary_on_constructed_records() -> None:
    records = run_hands(Setup.of("traditional", ["random", "random"], seed=11), 60)
    scored = [r for r in records if r.winner_seat is not None]
    assert scored, "the seed was chosen to give a few scored hands"
    s = summarize_hands(records, ("x", "y"))
    first = sum(r.winner_seat == 1 - r.dealer for r in scored)
    assert s["first_player"]["hand_wins"]["count"] == first
    dealer_mean = sum(r.fresh_deadwood[r.dealer] for r in records) / len(records)
    assert s["fresh_deadwood"]["dealer"]["mean"] == pytest.approx(dealer_mean)


# ------------------------------------------------------------------------------------------
# The simulate command.


def test_simulate_json_is_reproducible_across_workers() -> None:
    one = invoke("simulate", "random", "--hands", "24", "--seed", "s1", "--workers", "1",
                 "--json", "--no-progress")
    two = invoke("simulate", "random", "--hands", "24", "--seed", "s1", "--workers", "2",
                 "--json", "--no-progress")
    assert one.exit_code == 0, one.output
    assert one.output == two.output
    doc = json.loads(one.output)
    assert doc["command"] == "simulate" and doc["seed"] == "s1" and doc["count"] == 24
    assert doc["players"] == ["random", "random"]
    assert set(doc["summary"]["outcomes"]) == set(KINDS)
    other = invoke("simulate", "random", "--hands", "24", "--seed", "s2", "--json",
                   "--no-progress")
    assert other.output != one.output


def _row(output: str, label: str) -> list[str]:
    for line in output.splitlines():
        cells = [c.strip() for c in re.split(r"[│┃]", line)]
        if len(cells) > 2 and cells[1] == label:
            return cells[2:-1]
    raise AssertionError(f"no row {label!r} in\n{output}")


def test_table_and_json_agree() -> None:
    args = ["simulate", "random", "--hands", "40", "--seed", "t", "--workers", "1",
            "--no-progress", "--profile", "modern"]
    table = invoke(*args)
    doc = json.loads(invoke(*args, "--json").output)
    assert table.exit_code == 0, table.output
    s = doc["summary"]
    for kind, label in [("knock", "Plain knocks"), ("cancelled", "Cancelled hands"),
                        ("big_gin", "Big gins")]:
        value, interval, n = _row(table.output, label)
        p = s["outcomes"][kind]
        assert value == f"{100 * p['share']:.1f}%"
        assert interval == f"{100 * p['low']:.1f}% – {100 * p['high']:.1f}%"
        assert n == "40"
    value, interval, n = _row(table.output, "Turns per hand")
    t = s["turns_per_hand"]
    assert value == f"{t['mean']:.2f}"
    assert interval == f"{t['low']:.2f} – {t['high']:.2f}"
    value, _, _ = _row(table.output, "Fresh-deal deadwood, non-dealer")
    assert value == f"{s['fresh_deadwood']['non_dealer']['mean']:.2f}"
    value, _, n = _row(table.output, "First to act: scored hands won")
    assert n == str(s["scored_hands"])
    assert "modern" in table.output and "seed 't'" in table.output
    traditional = invoke(*args[:-2])
    assert _row(traditional.output, "Big gins")[:2] == ["—", "not in these rules"]


def test_simulate_matches() -> None:
    result = invoke("simulate", "random", "random", "--matches", "3", "--rule", "target=10",
                    "--seed", "m", "--json", "--no-progress")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    s = doc["summary"]
    assert doc["mode"] == "matches" and s["matches"] == 3
    assert sum(p["wins"] for p in s["players"]) + s["ties"] == s["finished"] == 3
    assert s["hand_stats"]["hands"] >= 3
    assert doc["rules"]["settings"]["target"] == 10
    table = invoke("simulate", "random", "random", "--matches", "3", "--rule", "target=10",
                   "--seed", "m", "--no-progress")
    assert table.exit_code == 0, table.output
    assert _row(table.output, "A (random): matches won")[0] == str(s["players"][0]["wins"])


def test_plot_writes_a_png(tmp_path: Any) -> None:
    path = tmp_path / "dist.png"
    result = invoke("simulate", "random", "--hands", "20", "--seed", "p", "--workers", "1",
                    "--no-progress", "--plot", str(path))
    assert result.exit_code == 0, result.output
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    assert (width, height) == (1500, 850)
    from matplotlib.image import imread

    assert imread(str(path)).shape[:2] == (850, 1500)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--hands", "0"], "--hands"),
        (["--hands", "5", "--matches", "5"], "not both"),
        (["nobody"], "unknown player 'nobody'"),
        (["random", "random", "random"], "at most two players"),
        (["--rule", "bogus=1"], "unknown rule 'bogus'"),
        (["--rule", "gin_bonus=lots"], "gin_bonus must be a whole number"),
        (["--rule", "gin_bonus"], "is not NAME=VALUE"),
        (["--rule", "gin_bonus=٣٠"], "gin_bonus must be a whole number"),  # Arabic-Indic 30
        (["--rule", "hollywood=no", "--hollywood"], "contradict each other"),
        (["--rule", "last_discard_chance=off", "--last-discard-chance"], "contradict each other"),
        (["--profile", "vegas"], "--profile"),
        (["--workers", "0"], "--workers"),
        (["--plot", "out.txt"], "must end in .png"),
        (["--plot", "/no/such/folder/out.png"], "does not exist"),
    ],
)
def test_bad_simulate_options_fail_cleanly(args: list[str], message: str) -> None:
    result = invoke("simulate", "--no-progress", *args)
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output


def test_a_plot_that_cannot_be_written_loses_only_itself() -> None:
    """The run's figures come out first (the table, or the JSON), then the plot's failure:
    a long run is never thrown away for its picture. A seed is printed as written, never
    read as Rich markup."""
    table = invoke("simulate", "simple", "--hands", "20", "--seed", "[/]", "--no-progress",
                   "--plot", "/proc/no-plot-here.png")
    assert table.exit_code == 1 and "cannot write /proc/no-plot-here.png" in table.output
    assert "seed '[/]'" in table.output and "Plain knocks" in table.output
    as_json = CliRunner().invoke(main, ["simulate", "simple", "--hands", "20", "--seed", "p",
                                        "--no-progress", "--json",
                                        "--plot", "/proc/no-plot-here.png"])
    assert as_json.exit_code == 1
    assert json.loads(as_json.stdout)["summary"]["hands"] == 20
    assert "cannot write /proc/no-plot-here.png" in as_json.stderr
    rounds = invoke("tournament", "simple", "random", "--matches", "1", "--seed", "[/]",
                    "--no-progress", "--rule", "target=10")
    assert rounds.exit_code == 0 and "seed '[/]'" in rounds.output


def test_bad_library_arguments_fail_with_the_engines_error() -> None:
    """From Python as from the command line: a count that is not a whole number of games, or a
    player that is neither a name nor a factory, is refused before anything is played."""
    setup = Setup.of("traditional", ["simple", "random"], seed=1)
    for count in (-3, 2.5, True, "4"):
        with pytest.raises(GinRummyError, match="whole number, 0 or more"):
            run_hands(setup, count)  # type: ignore[arg-type]
        with pytest.raises(GinRummyError, match="whole number, 0 or more"):
            run_matches(setup, count)  # type: ignore[arg-type]
    assert run_hands(setup, 0) == []
    with pytest.raises(GinRummyError, match=r"a player is a name .* not 42"):
        Setup.of("traditional", ["simple", 42])  # type: ignore[list-item]


# ------------------------------------------------------------------------------------------
# Tournaments.


def test_tournament_summary_is_consistent() -> None:
    t = Tournament.of("traditional", ["simple", "simple", "random"], matches=4, seed="t")
    assert t.labels == ["simple", "simple#2", "random"]
    from ginrummy.selfplay.simulate import run_jobs

    parts = run_jobs(t.jobs())
    s = summarize_tournament(t, parts)
    cross = s["cross_table"]
    for a in t.labels:
        for b in t.labels:
            if a != b:
                assert cross[a][b]["count"] + cross[b][a]["count"] == cross[a][b]["n"] == 4
    assert sum(o["count"] for o in s["overall"].values()) == 3 * 4
    ratings = {name: r["rating"] for name, r in s["ratings"].items()}
    assert sum(ratings.values()) / 3 == pytest.approx(1500)
    assert cross["simple"]["random"]["count"] == 4  # simple wins every match against random
    assert ratings["random"] < min(ratings["simple"], ratings["simple#2"])
    flat = [r for part in parts for r in part]
    assert flat == [r for part in run_jobs(t.jobs(2), workers=2) for r in part]


def test_tournament_command_reproducible_and_anchored() -> None:
    args = ["tournament", "random", "random", "random", "--matches", "1", "--rule",
            "target=10", "--seed", "r", "--no-progress", "--json"]
    one = invoke(*args, "--workers", "1")
    two = invoke(*args, "--workers", "2")
    assert one.exit_code == 0, one.output
    assert one.output == two.output
    doc = json.loads(one.output)
    assert doc["players"] == ["random", "random#2", "random#3"]
    assert len(doc["pairs"]) == 3
    anchored = json.loads(invoke(*args, "--anchor", "random#2").output)
    assert anchored["ratings"]["random#2"]["rating"] == pytest.approx(1500)
    shift = anchored["ratings"]["random"]["rating"] - doc["ratings"]["random"]["rating"]
    assert anchored["ratings"]["random#3"]["rating"] - doc["ratings"]["random#3"]["rating"] \
        == pytest.approx(shift)
    table = invoke(*args[:-1])
    assert table.exit_code == 0, table.output
    assert "Rating" in table.output and "random#3" in table.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["random"], "at least two players"),
        (["random", "nobody"], "unknown player 'nobody'"),
        (["random", "random", "--matches", "0"], "--matches"),
        (["random", "random", "--anchor", "hard"], "is not one of the players"),
        (["random", "random", "--rule", "target=0"], "target must be between"),
    ],
)
def test_bad_tournament_options_fail_cleanly(args: list[str], message: str) -> None:
    result = invoke("tournament", "--no-progress", *args)
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output


def test_default_players_and_rule_flags_reach_the_run() -> None:
    from ginrummy.cli.simulate import default_player

    result = invoke("simulate", "--hands", "4", "--seed", "d", "--json", "--no-progress",
                    "--hollywood", "--last-discard-chance", "--profile", "oklahoma",
                    "--workers", "1")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    assert doc["players"] == [default_player()] * 2
    settings = doc["rules"]["settings"]
    assert settings["hollywood"] and settings["last_discard_chance"] and settings["oklahoma"]
    assert doc["rules"]["description"].startswith("oklahoma")


def test_the_table_starts_with_points_per_hand_and_matches_won() -> None:
    """A newcomer reads who is better first: with --matches the matches won, then each
    player's net points per hand (agreeing with --json), and one line on how to read them,
    all before the tables."""
    args = ("simulate", "random", "simple", "--matches", "2", "--rule", "target=10",
            "--seed", "h", "--workers", "1", "--no-progress")
    out = invoke(*args).output
    doc = json.loads(invoke(*args, "--json").output)["summary"]
    flat = " ".join(out.split())
    a = doc["players"][0]
    net = doc["hand_stats"]["players"][0]["net_points_per_hand"]["mean"]
    matches = flat.index(f"Matches: A (random) won {a['wins']}, B (simple) won ")
    points = flat.index(f"Points per hand: A (random) {net:+.2f}, B (simple) {-net:+.2f}")
    read = flat.index("How to read it: net points per hand")
    assert matches < points < read < flat.index("Matches (2 finished)")
    hands = " ".join(invoke("simulate", "random", "--hands", "12", "--seed", "h", "--workers",
                            "1", "--no-progress").output.split())
    assert "Matches:" not in hands
    assert hands.index("Points per hand: A (random)") < hands.index("Hands (12)")


def test_the_help_lists_every_player_name_it_accepts() -> None:
    """Issue 38: ``simulate --help`` names the players it accepts, from the players' registry
    (the README uses them), and each one it lists is accepted."""
    from ginrummy.players import names

    result = CliRunner().invoke(main, ["simulate", "--help"], terminal_width=100)
    assert result.exit_code == 0
    said = " ".join(result.output.split())
    for name in names():
        assert re.search(rf"\b{name}\b", said.split("Options:")[0]), name
    listed = said.split("A player is ", 1)[1].split(";", 1)[0]
    for name in re.findall(r"\b[a-z]+\b", listed.replace("the same as", "")):
        if name != "or":
            assert name in names(), name
