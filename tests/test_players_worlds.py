"""The world sampler: guesses of the hidden cards that agree with the seat's view, developed the
way a hand in play is, and drawn from the caller's generator only."""

from __future__ import annotations

import random

from ginrummy.players.knowledge import OpponentModel, opponent_turns
from ginrummy.players.worlds import (
    develop_hand,
    develop_reference,
    sample_developed_hands,
    sample_worlds,
)
from players_support import positions


def test_fast_development_agrees_with_the_plain_loop() -> None:
    # The shortcut for cards that meld with nothing must pick exactly the plain loop's
    # discards: same hands, same pool, same RNG draws, over many random hands (known cards
    # included, since they may never be thrown out).
    rng = random.Random(5)
    for trial in range(400):
        deck = list(range(52))
        rng.shuffle(deck)
        hand = sum(1 << c for c in deck[:10])
        known = sum(1 << c for c in deck[: rng.randrange(0, 4)])
        pool = deck[10:40]
        extra = rng.randrange(1, 25)
        a = develop_hand(hand, known, list(pool), extra, random.Random(trial))
        b = develop_reference(hand, known, list(pool), extra, random.Random(trial))
        assert a == b, (trial, hand, known)
        assert a & known == known and a.bit_count() == 10


def test_worlds_agree_with_the_view() -> None:
    # Each world's view for the seat is the seat's own view; the opponent keeps the cards it
    # is known to hold and otherwise holds unseen cards only.
    for position in positions(3, seed=11):
        hand = position.hand()
        seat = hand.to_play
        view = hand.view(seat)
        model = OpponentModel(view)
        for world in sample_worlds(view, model, random.Random(3), 8, develop_per_turn=1.0):
            assert world.view(seat) == view
            opponent = world.hands[1 - seat]
            assert opponent & view.opponent_known_mask == view.opponent_known_mask
            assert opponent & ~view.opponent_known_mask & ~view.unseen_mask == 0


def test_the_same_seed_gives_the_same_worlds() -> None:
    for position in positions(2, seed=12):
        hand = position.hand()
        view = hand.view(hand.to_play)
        model = OpponentModel(view)
        extra = opponent_turns(view)
        first = sample_developed_hands(model, random.Random(8), 6, extra=extra)
        again = sample_developed_hands(model, random.Random(8), 6, extra=extra)
        assert first == again
        assert all(h.bit_count() == view.opponent_card_count for h in first)
