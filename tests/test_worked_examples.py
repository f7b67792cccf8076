"""Every worked example of RULES.md ("The worked examples in the seeds"), as a settlement and,
where it is a played position, as a hand played move by move.

Expected figures are the arithmetic stated in RULES.md; where the rule book gives only the
counts, the hands below are built so that the counts are the stated ones (each comment adds
them up).
"""

from __future__ import annotations

import pytest

from deals import build_deck, mask
from ginrummy import Hand, IllegalMoveError, deadwood, settle_hand
from ginrummy.engine.cards import parse_cards


def cards(text: str) -> tuple[int, ...]:
    return tuple(int(c) for c in parse_cards(text))


# ---------------------------------------------------------------------------------------------
# Example 1. Traditional: knock with 7, defender 5 after layoffs: 7 - 5 + 10 = 12.

EX1_KNOCKER = "Ac 2c 3c 4d 5d 6d 9h 9s 9c 7h"  # A23c 456d 999, deadwood 7h = 7
EX1_DEFENDER = "Kc Kd Kh Ks Qc Qd Qh 7d 3s 2s"  # 7d goes on 4-5-6d; 3s + 2s = 5 left


def test_example_1_undercut_settlement() -> None:
    r = settle_hand(EX1_KNOCKER, EX1_DEFENDER, "traditional")
    assert (r.kind, r.winner) == ("undercut", "defender")
    assert r.knocker_deadwood == 7
    assert r.defender_deadwood == 5
    assert r.layoffs == cards("7d")
    assert r.points == 7 - 5 + 10 == 12
    assert r.bonus == 10


def test_example_1_played() -> None:
    # The knocker (non-dealer, seat 1) holds the hand without the 9c and with a spare Jd; it
    # takes the 9c upcard and knocks with the Jd.
    deck = build_deck("Ac 2c 3c 4d 5d 6d 9h 9s 7h Jd", EX1_DEFENDER, "9c")
    hand = Hand("traditional", deck=deck, dealer=0)
    hand.play("take")
    hand.play("knock Jd")
    r = hand.result
    assert r is not None
    assert (r.kind, r.knocker_seat, r.winner_seat, r.points) == ("undercut", 1, 0, 12)
    assert r.layoffs == cards("7d")
    assert hand.hands[1] == mask(EX1_KNOCKER)


# ---------------------------------------------------------------------------------------------
# Example 2. 4-5-6h in the knocker's hand takes the defender's 7h as a layoff only if the
# knocker did not go gin.

EX2_DEFENDER = "7h Kc Kd Ks Qc Qd Qs 8s 5c Jd"  # KKK QQQ; 7h 8s 5c Jd = 30


def test_example_2_layoff_after_a_knock() -> None:
    knocker = "4h 5h 6h Ac 2c 3c 9s 9d 9c 2d"  # deadwood 2d = 2
    r = settle_hand(knocker, EX2_DEFENDER, "traditional")
    assert r.kind == "knock"
    assert r.layoffs == cards("7h")
    assert r.defender_deadwood == 30 - 7 == 23
    assert r.points == 23 - 2 == 21


def test_example_2_no_layoff_against_gin() -> None:
    knocker = "4h 5h 6h Ac 2c 3c 9s 9d 9c 9h"  # all melded: gin
    r = settle_hand(knocker, EX2_DEFENDER, "traditional")
    assert r.kind == "gin"
    assert r.layoffs == ()
    assert r.defender_deadwood == 30
    assert r.points == 30 + 20 == 50


def test_example_2_played_both_ways() -> None:
    # Seat 1 (non-dealer) draws the stock's top card: with the 2d it knocks, with the 9h gin.
    for drawn, kind, points, layoffs in (("2d", "knock", 21, "7h"), ("9h", "gin", 50, "")):
        deck = build_deck("4h 5h 6h Ac 2c 3c 9s 9d 9c Td", EX2_DEFENDER, "Th", stock=drawn)
        hand = Hand("traditional", deck=deck, dealer=0)
        for move in ("pass", "pass", "draw", "knock Td"):
            hand.play(move)
        r = hand.result
        assert r is not None
        assert (r.kind, r.winner_seat, r.points) == (kind, 1, points)
        assert r.layoffs == cards(layoffs)


# ---------------------------------------------------------------------------------------------
# Example 3. Knock with 2, defender 19 after layoffs: knocker scores 17. Knock with 8,
# defender 5: defender scores 3 + undercut bonus (28 under 25-point undercut, 13 traditional).


def test_example_3_knock_with_two() -> None:
    knocker = "4h 5h 6h Ac 2c 3c 9s 9d 9c 2d"  # deadwood 2
    defender = "Kc Kd Ks Qc Qd Qs 8s 5c 6s 9h"  # 8+5+6+9 = 28; the 9h goes on 999: 19
    r = settle_hand(knocker, defender, "traditional")
    assert (r.kind, r.knocker_deadwood, r.defender_deadwood) == ("knock", 2, 19)
    assert r.layoffs == cards("9h")
    assert r.points == 17


EX3_KNOCKER_8 = "4h 5h 6h Ac 2c 3c 9s 9d 9c 8d"  # deadwood 8d = 8
EX3_DEFENDER_5 = "Kc Kd Ks Qc Qd Qs Jc Jd Jh 5s"  # KKK QQQ JJJ, deadwood 5s = 5


@pytest.mark.parametrize(
    ("profile", "points"),
    [("traditional", 13), ("modern", 28), ("browser", 28), ("house", 28), ("oklahoma", 28)],
)
def test_example_3_undercut_by_profile(profile: str, points: int) -> None:
    # Oklahoma needs the first upcard: the Th sets the limit to 10 and is not a spade.
    r = settle_hand(EX3_KNOCKER_8, EX3_DEFENDER_5, profile, upcard="Th")
    assert (r.kind, r.winner, r.knocker_deadwood, r.defender_deadwood) == (
        "undercut",
        "defender",
        8,
        5,
    )
    assert r.points == points


def test_example_3_played() -> None:
    # Knock with 2 and knock with 8, each in a played hand (the defender deals, seat 0).
    deck = build_deck(
        "4h 5h 6h Ac 2c 3c 9s 9d 9c 2d", "Kc Kd Ks Qc Qd Qs 8s 5c 6s 9h", "Kh", stock="Jd"
    )
    hand = Hand("traditional", deck=deck, dealer=0)
    for move in ("pass", "pass", "draw", "knock Jd"):
        hand.play(move)
    assert hand.result is not None
    assert (hand.result.kind, hand.result.winner_seat, hand.result.points) == ("knock", 1, 17)

    deck = build_deck("4h 5h 6h Ac 2c 3c 9s 9d 9c 8d", EX3_DEFENDER_5, "Kh", stock="Th")
    hand = Hand("modern", deck=deck, dealer=0)
    for move in ("pass", "pass", "draw", "knock Th"):
        hand.play(move)
    assert hand.result is not None
    assert (hand.result.kind, hand.result.winner_seat, hand.result.points) == ("undercut", 0, 28)


# ---------------------------------------------------------------------------------------------
# Example 4. Modern: A23c 777 9-10-Jh 4d, draws Ks, discards it and knocks with 4. Defender
# 444 QQQ 8h 5s 6d 9c lays the 8h on 9-10-Jh and keeps 20: knocker scores 16.

EX4_KNOCKER = "Ac 2c 3c 7d 7h 7s 9h Th Jh 4d"
EX4_DEFENDER = "4s 4c 4h Qs Qd Qc 8h 5s 6d 9c"


def test_example_4_settlement() -> None:
    r = settle_hand(EX4_KNOCKER, EX4_DEFENDER, "modern")
    assert (r.kind, r.winner) == ("knock", "knocker")
    assert r.knocker_deadwood == 4
    assert r.layoffs == cards("8h")
    assert r.defender_deadwood == 5 + 6 + 9 == 20
    assert r.points == 20 - 4 == 16


def test_example_4_played() -> None:
    deck = build_deck(EX4_KNOCKER, EX4_DEFENDER, "2h", stock="Ks")
    hand = Hand("modern", deck=deck, dealer=0)
    hand.play("pass")
    hand.play("pass")
    hand.play("draw")
    assert hand.history[-1].card == cards("Ks")[0]
    hand.play("knock Ks")
    r = hand.result
    assert r is not None
    assert (r.kind, r.knocker_seat, r.winner_seat, r.points) == ("knock", 1, 1, 16)
    assert r.knock_discard == cards("Ks")[0]
    assert r.layoffs == cards("8h")


# ---------------------------------------------------------------------------------------------
# Example 5. 7s7h7c8s9s: the 7s goes in the set or the run, never both; the arrangement with
# less deadwood wins (run 7-8-9s leaves 7h 7c = 14; set 777 leaves 8s 9s = 17).


def test_example_5_set_or_run() -> None:
    assert deadwood("7s 7h 7c 8s 9s") == 14


def test_example_5_never_both_in_a_knock() -> None:
    # With the 7d added, 7c7d7h + 7s8s9s + A23c leaves the 2d (2). The 7s may not be declared
    # in the set and the run at once; declaring the four 7s leaves 8s 9s 2d (19), over 10.
    knocker = "7s 7h 7c 7d 8s 9s Ac 2c 3c 2d"
    defender = "Kc Kd Ks Qc Qd Qs 8h 5c 6h Jd"
    r = settle_hand(knocker, defender, "traditional")
    assert r.knocker_deadwood == 2
    assert {frozenset(int(c) for c in m) for m in r.knocker_melds} == {
        frozenset(cards("7c 7d 7h")),
        frozenset(cards("7s 8s 9s")),
        frozenset(cards("Ac 2c 3c")),
    }
    with pytest.raises(IllegalMoveError, match="7s"):
        settle_hand(knocker, defender, melds="7s7h7c 7s8s9s Ac2c3c")
    with pytest.raises(IllegalMoveError, match="19"):
        settle_hand(knocker, defender, melds="7s7h7c7d Ac2c3c")
