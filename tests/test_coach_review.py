"""The coach's playouts follow the engine's rules, and a hand's review lists the seat's
decisions (reusing assessments made during play) with the costliest first."""

from __future__ import annotations

import random

from ginrummy import Hand
from ginrummy.coach import Coach, CoachPolicy, decisions_of, review_hand
from ginrummy.coach.playout import playout_hand
from ginrummy.engine.rules import get_rules
from ginrummy.players import make

RULES = ("traditional", "modern", "oklahoma", get_rules("house", last_discard_chance=True),
         get_rules("modern", last_discard_chance=True))


def _hand_between(rules: object, seed: int, names: tuple[str, str] = ("medium", "simple"),
                  stop: int | None = None) -> Hand:
    hand = Hand(rules, seed=seed, dealer=seed % 2)  # type: ignore[arg-type]
    players = [make(names[0], seed=seed), make(names[1], seed=seed + 1)]
    while hand.result is None and (stop is None or len(hand.history) < stop):
        hand.play(players[hand.to_play].choose(hand.view(hand.to_play)))
    return hand


def test_playouts_replay_move_by_move_through_the_engine() -> None:
    rng = random.Random(5)
    checked = 0
    for i in range(60):
        rules = RULES[i % len(RULES)]
        hand = _hand_between(rules, 100 + i, stop=rng.randrange(0, 30))
        if hand.result is not None:
            continue
        record: list[str] = []
        winner, points = playout_hand(hand, CoachPolicy(), record)
        replay = hand.copy()
        for move in record:
            assert replay.can_play(move), (move, replay.legal_moves())
            replay.play(move)
        if winner is None:
            assert replay.result is None or replay.result.kind == "cancelled"
        else:
            assert replay.result is not None
            assert (replay.result.winner_seat, replay.result.points) == (winner, points)
        checked += 1
    assert checked >= 40


def test_a_review_lists_every_decision_with_a_choice() -> None:
    hand = _hand_between("traditional", 21, ("hard", "hard"))
    seat = 0
    expected = []
    replay = Hand(hand.rules, deck=list(hand.deck), dealer=hand.dealer)
    for index, move in enumerate(hand.moves):
        if replay.to_play == seat and len(replay.legal_moves()) > 1:
            expected.append((index, move))
        replay.play(move)
    coach = Coach(seed=2, samples=16)
    review = review_hand(hand, seat, coach, number=3)
    assert [(d.index, d.assessment.move) for d in review.decisions] == expected
    assert all(d.hand == 3 for d in review.decisions)
    turns = [d.turn for d in review.decisions]
    assert turns == sorted(turns) and turns[0] >= 1
    costly = review.costliest()
    assert all(d.assessment.rating != "good" for d in costly)
    assert [d.assessment.loss for d in costly] == sorted(
        (d.assessment.loss for d in costly), reverse=True)
    assert sum(review.counts.values()) == len(review.decisions)
    assert review.summary().startswith(f"{len(review.decisions)} decision")


def test_a_review_reuses_the_assessments_made_during_play() -> None:
    hand = _hand_between("modern", 8, ("hard", "medium"))
    coach = Coach(seed=2, samples=16)
    points = list(decisions_of(hand, 1))
    index, _turn, view, move = points[0]
    made = coach.assess(view, move)
    other = Coach(seed=99, samples=16)  # would give different numbers if it were asked
    review = review_hand(hand, 1, other, known={index: made})
    assert review.decisions[0].assessment is made
    assert review.decisions[0].label.startswith("Turn 1: ")
