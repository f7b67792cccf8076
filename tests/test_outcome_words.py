"""Who won and by how much, in words, wherever a game ends (RULES.md, "The game": the margin of
victory is the difference between the final totals; it can be negative under the
first-to-reach rule). The expected numbers come from the totals and the rule, not from the
code that words them."""

from __future__ import annotations

import re
from typing import Any

from click.testing import CliRunner

from comeback import comeback_match
from ginrummy import score_match
from ginrummy.cli import main
from ginrummy.engine.record import dumps
from ginrummy.words.sheet import describe_result, match_outcome, score_sheet

YOU = ("You", "Computer")


def test_a_comeback_is_said_plainly_from_either_side() -> None:
    score = comeback_match().score
    reached, other = 0, 1
    you_total, computer_total = score.games[0].totals
    assert score.games[0].reached == reached and score.winner == reached
    behind = computer_total - you_total
    assert behind > 0
    assert match_outcome(score, YOU, you=0) == (
        f"You won, having reached 100 first, though Computer's final total is higher, "
        f"by {behind}"
    )
    assert match_outcome(score, ("Ann", "Bob")) == (
        f"Ann won, having reached 100 first, though Bob's final total is higher, by {behind}"
    )
    # The person in the other seat: the loser is addressed as "you".
    assert match_outcome(score, ("Computer", "You"), you=other) == (
        f"Computer won, having reached 100 first, though your final total is higher, "
        f"by {behind}"
    )


def test_a_plain_win_says_the_margin() -> None:
    score = score_match("traditional", [(0, 60), (1, 12), (0, 45)])
    a, b = score.games[0].totals
    assert match_outcome(score, YOU, you=0) == f"You won by {a - b} points"
    # One point is a point: house has no bonuses, 100 against 99.
    assert match_outcome(score_match("house", [(1, 99), (0, 100)]), ("Ann", "Bob")) == (
        "Ann won by 1 point"
    )


def test_a_tie_is_said_as_a_tie() -> None:
    entries: list[Any] = [(1, p) for p in (10, 10, 10, 10, 10, 10, 0, 0)] + [(0, 100)]
    score = score_match("traditional", entries)
    total = score.games[0].totals[0]
    assert score.games[0].totals == (total, total)
    assert match_outcome(score, YOU) == f"The game is a tie at {total} each"


def test_hollywood_says_the_games_won_and_the_sum() -> None:
    entries: list[Any] = [(1, 11)] * 9 + [(0, 100), (0, 100)]
    first = score_match("modern", entries, hollywood=True)
    a, b = first.totals
    won = [g.winner for g in first.games]
    assert won == [0, 0, 0] and b > a
    assert match_outcome(first, YOU, you=0) == (
        f"You won the match, 3 games to 0, though Computer's totals over the three games are "
        f"higher, by {b - a}"
    )
    higher = score_match("traditional", entries, hollywood=True)
    a, b = higher.totals
    assert b > a
    assert match_outcome(higher, YOU, you=0) == (
        f"Computer won the match by {b - a} points over the three games"
    )


def test_the_sheet_carries_the_margin_and_who_reached() -> None:
    match = comeback_match()
    _, [game] = score_sheet(match, YOU)
    assert game.reached == 0 and game.winner == 0
    assert game.margin == game.totals[0] - game.totals[1] < 0


def test_you_takes_the_plain_verb_on_the_sheet() -> None:
    # Issue 11, item 7: replay printed "knock: You scores 14".
    assert describe_result("knock", 0, 14, YOU) == "knock: You score 14"
    assert describe_result("knock", 1, 14, YOU) == "knock: Computer scores 14"


def test_replay_says_who_won_by_the_rule_and_by_how_much() -> None:
    match = comeback_match()
    a, b = match.score.games[0].totals
    text = dumps(match, players=list(YOU))
    result = CliRunner().invoke(main, ["replay", "-"], input=text, env={"COLUMNS": "240"})
    assert result.exit_code == 0, result.output
    out = result.output
    # The terminal table's sheet: each hand's ending with its winner, then its points.
    assert re.search(r"gin \(You\) +118 ", out) and "You scores" not in out
    assert re.search(r"knock \(Computer\) +3 ", out)
    assert (f"You won, having reached 100 first, though Computer's final total is higher, "
            f"by {b - a}.") in out


def test_the_pages_score_says_it_from_the_persons_side() -> None:
    from ginrummy.server.serialize import score_out

    match = comeback_match()
    a, b = match.score.games[0].totals
    seat0 = score_out(match, 0)
    assert seat0.winner == "you" and seat0.margin == a - b < 0
    assert seat0.games[0].margin == a - b
    words = (f"You won, having reached 100 first, though Computer's final total is higher, "
             f"by {b - a}")
    assert seat0.outcome == words == seat0.games[0].outcome
    # The person in seat 1 lost: the computer (seat 0) reached 100 first.
    seat1 = score_out(match, 1)
    assert seat1.winner == "computer" and seat1.totals == [b, a]
    assert seat1.outcome == (
        f"Computer won, having reached 100 first, though your final total is higher, by {b - a}"
    )
    unfinished = score_out(comeback_match(finish=False), 0)
    assert unfinished.outcome is None and unfinished.margin is None
    assert unfinished.games[0].outcome is None
