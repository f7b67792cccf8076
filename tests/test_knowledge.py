"""What a seat knows: the hand keeps it move by move (`Hand.knowledge`); it must equal the
from-scratch rebuild (`SeatKnowledge.rebuild`) at every step of random games, after undo, in
copies and in hands rebuilt from a view (`Hand.determinize`); and so must a finished hand's
views, whose history is kept move by move too. The events are shared instances: each equals
the one its constructor builds."""

from __future__ import annotations

import random

import pytest

from ginrummy import Hand
from ginrummy.engine.cards import Card
from ginrummy.engine.events import (
    Event,
    PublicEvent,
    SeatKnowledge,
    played_event,
    public_event,
)
from ginrummy.engine.move import DISCARD, KIND_NAMES, KNOCK, Move


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
        _agree_at_the_end(hand)
        for copy, length in copies:
            assert len(copy.history) == length
            _agree(copy)
            while not copy.over:
                copy.play(rng.choice(copy.legal_moves()))
            _agree_at_the_end(copy)


def _agree_at_the_end(hand: Hand) -> None:
    """A finished hand's views: every move revealed, as the rebuild tells them."""
    for seat in (0, 1):
        view = hand.view(seat)
        assert view.history == SeatKnowledge.rebuild(hand.history, seat, True).history
        assert len(view.history) == len(hand.history)


def test_undoing_the_last_move_of_a_hand_and_finishing_it_again() -> None:
    rng = random.Random(9)
    for game in range(30):
        hand = Hand("modern", seed=f"undo-end-{game}", dealer=game % 2)
        while not hand.over:
            hand.play(rng.choice(hand.legal_moves()))
        hand.undo()
        assert not hand.over
        _agree(hand)
        hand.play(rng.choice(hand.legal_moves()))
        while not hand.over:
            hand.play(rng.choice(hand.legal_moves()))
        _agree_at_the_end(hand)


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


def test_shared_events_equal_the_constructed_ones() -> None:
    for seat in (0, 1):
        for code, kind in enumerate(KIND_NAMES):
            for c in range(52):
                assert public_event(seat, code, c) == PublicEvent(seat, kind, Card(c))
                move = Move.of(kind, c) if code in (DISCARD, KNOCK) else Move.of(kind)
                assert played_event(seat, code, c) == Event(seat, move, Card(c))
            assert public_event(seat, code, None) == PublicEvent(seat, kind, None)
    assert played_event(1, KIND_NAMES.index("big gin"), None) == Event(
        1, Move.of("big gin"), None)
