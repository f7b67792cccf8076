"""The hand keeps each seat's public facts move by move; they must equal the from-scratch
reference (`view.public_facts`) at every step, after undo, and in copies."""

from __future__ import annotations

import random

import pytest

from ginrummy import Hand
from ginrummy.view import public_facts


def _incremental(hand: Hand, seat: int) -> tuple[object, ...]:
    other = 1 - seat
    return (
        tuple(hand._public[seat]),
        tuple(hand._took[other]),
        tuple(hand._passed[other]),
        tuple(hand._discards[other]),
        hand._known[other],
    )


@pytest.mark.parametrize("profile", ["traditional", "modern", "oklahoma"])
def test_incremental_facts_equal_reference(profile: str) -> None:
    rng = random.Random(profile)
    for game in range(40):
        hand = Hand(profile, seed=f"{profile}-{game}", dealer=game % 2)
        copies = []
        while not hand.over:
            for seat in (0, 1):
                assert _incremental(hand, seat) == public_facts(hand.history, seat, False)
            if rng.random() < 0.1:
                copies.append((hand.copy(), len(hand.history)))
            moves = hand.legal_moves()
            # Prefer drawing and discarding so hands last; take some pile cards to exercise
            # the opponent's known cards.
            hand.play(rng.choice(moves))
            if rng.random() < 0.15 and not hand.over:
                hand.undo()
                for seat in (0, 1):
                    assert _incremental(hand, seat) == public_facts(hand.history, seat, False)
        for copy, length in copies:
            assert len(copy.history) == length
            for seat in (0, 1):
                assert _incremental(copy, seat) == public_facts(copy.history, seat, False)


def test_finished_hand_view_reveals_hidden_draws() -> None:
    hand = Hand(seed=11)
    rng = random.Random(3)
    while not hand.over:
        hand.play(rng.choice(hand.legal_moves()))
    for seat in (0, 1):
        view = hand.view(seat)
        assert all(e.card is not None for e in view.history if e.kind != "big gin")
        assert view.opponent_hand_mask == hand.hands[1 - seat]
