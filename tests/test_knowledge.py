"""What a seat knows: the hand keeps it move by move (`Hand.knowledge`); it must equal the
from-scratch rebuild (`SeatKnowledge.rebuild`) at every step of random games, after undo, in
copies and in hands rebuilt from a view (`Hand.determinize`)."""

from __future__ import annotations

import random

import pytest

from ginrummy import Hand
from ginrummy.events import SeatKnowledge


def _agree(hand: Hand) -> None:
    for seat in (0, 1):
        live = hand.knowledge(seat)
        assert live == SeatKnowledge.rebuild(hand.history, seat, False)
        # The mask a playout reads is the same fact, from the other seat's side.
        assert hand.known_to_hold(1 - seat) == live.opponent_known


@pytest.mark.parametrize("profile", ["traditional", "modern", "oklahoma"])
def test_live_knowledge_equals_the_rebuild(profile: str) -> None:
    rng = random.Random(profile)
    for game in range(40):
        hand = Hand(profile, seed=f"{profile}-{game}", dealer=game % 2)
        copies = []
        while not hand.over:
            _agree(hand)
            if rng.random() < 0.1:
                copies.append((hand.copy(), len(hand.history)))
            hand.play(rng.choice(hand.legal_moves()))
            if rng.random() < 0.15 and not hand.over:
                hand.undo()
                _agree(hand)
        for copy, length in copies:
            assert len(copy.history) == length
            _agree(copy)


def test_a_determinized_hand_knows_what_the_view_knew() -> None:
    rng = random.Random(5)
    for game in range(30):
        hand = Hand("modern", seed=f"determinized-{game}", dealer=game % 2)
        while not hand.over:
            seat = hand.to_play
            view = hand.view(seat)
            rebuilt = Hand.determinize(view, hand.hands[1 - seat], hand.stock)
            mine = rebuilt.knowledge(seat)
            assert mine.history == view.history
            assert mine.opponent_known == view.opponent_known_mask
            assert rebuilt.known_to_hold(seat) == hand.known_to_hold(seat)
            hand.play(rng.choice(hand.legal_moves()))


def test_finished_hand_view_reveals_hidden_draws() -> None:
    hand = Hand(seed=11)
    rng = random.Random(3)
    while not hand.over:
        hand.play(rng.choice(hand.legal_moves()))
    for seat in (0, 1):
        view = hand.view(seat)
        assert all(e.card is not None for e in view.history if e.kind != "big gin")
        assert view.opponent_hand_mask == hand.hands[1 - seat]
