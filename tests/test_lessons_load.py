"""Loading situations: a broken file is refused with a message naming the file and the fault;
the spec builder is the inverse of the deal order; a position opens from any record at any move
(what revisiting a decision needs); and the coach's hook judges the taught answers."""

from __future__ import annotations

import random
import re
from collections.abc import Mapping

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from budget import examples
from ginrummy.engine.cards import Card
from ginrummy.engine.hand import deal_order
from ginrummy.engine.match import Match
from ginrummy.engine.record import dumps
from ginrummy.engine.rules import get_rules
from ginrummy.engine.view import PlayerView
from ginrummy.lessons import (
    InvalidSituationError,
    Position,
    coach_check,
    load_situation,
    load_situations,
)
from ginrummy.lessons.spec import build_record, deal_deck
from ginrummy.players import make
from ginrummy.selfplay.play import play_match

QKA = next(s for s in load_situations() if s.id == "qka-not-a-run")


def broken(old: str, new: str, text: str = QKA.text) -> str:
    assert old in text, old
    return text.replace(old, new, 1)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("format = 1\nprofile = [", "not valid TOML"),
        (broken('deck = "Qs 2c', 'deck = "Qs Qs'), "each of the 52 cards once"),
        (broken('  "draw",\n', '  "knock 2d",\n'), "move 3 'knock 2d'"),
        (QKA.text.split("[meta.lesson]")[0], "no [meta.lesson] table"),
        (broken('topic = "melds"', 'topic = "tactics"'), "unknown topic 'tactics'"),
        (broken('answers = ["discard Qs", "discard Ks"]', 'answers = ["discard 9h"]'),
         "the answer 'discard 9h' is not a legal move"),
        (broken('answers = ["discard Qs", "discard Ks"]', 'answers = ["discard 2d"]'),
         "the moves that leave the least deadwood (13) are discard Ks, discard Qs"),
        (broken("deadwood = 13", "deadwood = 12"),
         "after [discard Ks] the lesson says deadwood = 12, the engine finds 13"),
        (broken("illegal = true", "illegal = false\ndeadwood = 0"),
         "is refused: Invalid melds"),
        (broken("seat = 0", "seat = 1"), "the learner is seat 1, but it is seat 0's turn"),
        (broken('profiles = ["traditional"', 'features = ["big-gin"]\nprofiles = ["traditional"'),
         "feature 'big-gin' (big gin: eleven melded cards) is not a rule of traditional"),
        (broken('moves = ["discard 2d"]', 'moves = ["discard 2d", "draw"]'),
         "a fact may not draw from the stock"),
        (broken('id = "qka-not-a-run"', 'id = "Q K A"'), "must be lower-case words"),
        (broken('why = """', 'whence = "x"\nwhy = """'), "unknown field(s) in [meta.lesson]: "
         "whence"),
        (broken('heading = "Is this gin?"', 'heading = "Q-K-A is not a run?"'),
         "the heading 'Q-K-A is not a run?' says the title"),
        (broken('heading = "Is this gin?"\n', ''), "lacks heading"),
    ],
    ids=lambda v: v[:30] if isinstance(v, str) else v,
)
def test_a_broken_situation_is_refused_with_a_clear_message(text: str, message: str) -> None:
    with pytest.raises(InvalidSituationError) as info:
        load_situation(text, "broken.toml")
    assert message in str(info.value)
    assert str(info.value).startswith("broken.toml")


def test_a_record_that_stops_on_the_opponent_s_turn_is_refused() -> None:
    text = broken('  "draw",\n]', '  "draw",\n  "discard Ks",\n]')
    with pytest.raises(InvalidSituationError, match="seat 0, but it is seat 1's turn"):
        load_situation(text, "x.toml")


def test_two_situations_with_one_id_are_refused() -> None:
    with pytest.raises(InvalidSituationError, match=re.escape("already used by a.toml")):
        load_situations([("a.toml", QKA.text), ("b.toml", QKA.text)])


def test_the_builder_names_the_bad_hand_and_move() -> None:
    spec = """
profile = "traditional"
first_dealer = 1
[[hands]]
seat0 = "Qs Ks As 7c 7d 7h 3h 4h 5h 6h"
seat1 = "2c 3c 4c 9d Td Jd 5s 8s Jh Kd"
upcard = "Jc"
moves = ["pass", "pass", "discard Qs"]
[meta.lesson]
id = "x"
title = "x"
heading = "y"
topic = "melds"
seat = 0
question = "x"
answers = ["draw"]
proof = "judgement"
why = "x"
takeaway = "x"
"""
    with pytest.raises(InvalidSituationError, match=r"spec.toml, hand 1, move 3 'discard Qs': "
                       r"Both players passed the upcard"):
        build_record(spec, "spec.toml")
    with pytest.raises(InvalidSituationError, match="Qs is dealt twice"):
        build_record(spec.replace('seat1 = "2c', 'seat1 = "Qs'), "spec.toml")


@settings(max_examples=examples(60), deadline=None)
@given(st.permutations(list(range(52))), st.integers(0, 1), st.integers(0, 31))
def test_deal_deck_is_the_inverse_of_the_deal_order(order: list[int], dealer: int,
                                                    top: int) -> None:
    seat0, seat1, up, stock = order[:10], order[10:20], order[20], order[21:21 + top]
    deck = deal_deck([Card(c) for c in seat0], [Card(c) for c in seat1], dealer, [Card(up)],
                     [Card(c) for c in stock])
    h0, h1, upcard, rest = deal_order([int(c) for c in deck], dealer)
    assert h0 == sum(1 << c for c in seat0) and h1 == sum(1 << c for c in seat1)
    assert upcard == up and rest[:top] == stock and sorted(deck) == list(range(52))


@pytest.fixture(scope="module")
def played() -> Match:
    players = [make("random", seed=1), make("random", seed=2)]
    match: Match = play_match(get_rules("traditional", target=15), players, seed="revisit")
    assert len(match.hands) >= 2
    return match


def test_a_position_opens_from_any_record_at_any_move(played: Match) -> None:
    text = dumps(played)
    rng = random.Random(7)
    for _ in range(12):
        number = rng.randrange(1, len(played.hands) + 1)
        moves = played.hands[number - 1].moves
        k = rng.randrange(0, len(moves))  # every point before a move is a decision
        position = Position.from_record(text, hand=number, move=k)
        # The same point reached by hand: replay hands before, then k moves.
        again = Match(played.rules, first_dealer=played.first_dealer, start=False)
        for h in played.hands[: number - 1]:
            again.next_hand(list(h.deck))
            for m in h.moves:
                again.play(m)
        again.next_hand(list(played.hands[number - 1].deck))
        for m in moves[:k]:
            again.play(m)
        seat = again.hand.to_play
        assert position.seat == seat
        assert position.view() == again.view(seat)
        assert position.play([moves[k]]).legal  # the move actually played is legal there


def test_opening_a_point_that_is_not_a_decision_says_why(played: Match) -> None:
    text = dumps(played)
    last = len(played.hands[0].moves)
    with pytest.raises(InvalidSituationError, match="hand 1 is over"):
        Position.from_record(text, hand=1, move=last)
    beyond = len(played.hands) + 1
    with pytest.raises(InvalidSituationError, match=f"there is no hand {beyond}"):
        Position.from_record(text, hand=beyond)
    with pytest.raises(InvalidSituationError, match=re.escape("there is no move 999")):
        Position.from_record(text, hand=1, move=999)


class FakeCoach:
    """Rates moves from a table, seeing only the view (as the coach will)."""

    def __init__(self, ratings: Mapping[str, float]) -> None:
        self.ratings = ratings
        self.seen: list[PlayerView] = []

    def rate(self, view: PlayerView) -> Mapping[str, float]:
        self.seen.append(view)
        return {m: self.ratings.get(m, 0.0) for m in view.legal_moves}


def test_the_coach_hook_accepts_equal_best_and_flags_disagreement() -> None:
    agree = coach_check(QKA, FakeCoach({"discard Qs": 5.0, "discard Ks": 5.0}))
    assert agree.agrees and set(agree.best) == {"discard Qs", "discard Ks"}
    one = coach_check(QKA, FakeCoach({"discard Ks": 5.0, "discard Qs": 4.0}))
    assert not one.agrees and one.best == ("discard Ks",)
    coach = FakeCoach({"discard 2d": 9.0})
    assert not coach_check(QKA, coach).agrees
    assert coach.seen[0].opponent_hand is None  # the coach sees the learner's view only


def test_the_coach_must_rate_every_legal_move() -> None:
    class Lazy:
        def rate(self, view: PlayerView) -> Mapping[str, float]:
            return {"discard Ks": 1.0}

    with pytest.raises(ValueError, match="did not rate"):
        coach_check(QKA, Lazy())
