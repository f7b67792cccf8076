"""Verify before acting: `Hand.verify` / `can_play` / `play`, the seat's own
`PlayerView.verify`, Moves in and out of the hand, and the lean copy that playouts drive.

At every position of random games under every profile, every canonical move is tried on the
hand and on both seats' views: the hand and the view of the seat to play give the same answer
and the same sentence, the other seat hears "It is not your turn.", and nothing changes.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from ginrummy import Hand, IllegalMoveError
from ginrummy.engine.move import InvalidMoveError, Move
from ginrummy.engine.rules import PROFILE_NAMES
from refmodel import ALL_CANONICAL_MOVES


def _sentence(check: Callable[[str], object], move: str) -> str | None:
    try:
        check(move)
    except IllegalMoveError as exc:
        return str(exc)
    return None


@pytest.mark.parametrize("profile", PROFILE_NAMES)
def test_the_view_of_the_seat_to_play_answers_as_the_hand_does(profile: str) -> None:
    rng = random.Random(profile)
    for game in range(6):
        hand = Hand(profile, seed=f"verify-{profile}-{game}", dealer=game % 2)
        while True:
            mover = hand.to_play
            views = (hand.view(0), hand.view(1))
            moves_before = list(hand.history)
            for move in ALL_CANONICAL_MOVES:
                said = _sentence(hand.verify, move)
                assert said == _sentence(views[mover].verify, move), (move, hand)
                assert (said is None) == hand.can_play(move) == views[mover].can_play(move)
                assert views[mover].refusal(move) == said
                if not hand.over:
                    assert _sentence(views[1 - mover].verify, move) == "It is not your turn."
            assert hand.history == moves_before  # verifying changes nothing
            if hand.over:
                break
            hand.play(rng.choice(hand.legal_moves()))


def test_a_refusal_names_cards_not_card_numbers() -> None:
    hand = Hand(deck=list(range(52)), dealer=0)  # the upcard is card 20, the 8d
    hand.play("pass")
    hand.play("pass")
    hand.play("draw")
    hand.play("discard 9d")  # card 21, just drawn
    with pytest.raises(IllegalMoveError) as info:
        hand.verify("discard 2c")
    assert str(info.value) == "Draw first: take the 9d or draw from the stock."
    for seat in (0, 1):
        assert "21" not in (hand.view(seat).refusal("discard 2c") or "")


def test_moves_in_and_out_are_moves() -> None:
    hand = Hand(seed=3)
    legal = hand.legal_moves()
    assert all(type(m) is Move for m in legal)
    assert legal == ["take", "pass"]  # they still compare equal to their text
    assert all(m is Move.parse(str(m)) for m in legal)  # the pre-built singletons
    played = hand.play("  PASS ")
    assert played is Move.parse("pass")
    event = hand.history[-1]
    assert event.move is played and event.kind == "pass" and event.text == "pass"
    assert type(event.text) is str
    assert hand.undo() is played


def test_text_that_is_not_a_move_is_an_invalid_move() -> None:
    hand = Hand(seed=4)
    with pytest.raises(InvalidMoveError):
        hand.verify("fold")
    with pytest.raises(InvalidMoveError):
        hand.view(hand.to_play).verify("discard 1z")
    assert not hand.can_play("fold")


def test_a_lean_copy_plays_the_same_game_without_a_record() -> None:
    rng = random.Random(8)
    for game in range(20):
        hand = Hand("modern", seed=f"lean-{game}", dealer=game % 2)
        for _ in range(rng.randrange(0, 12)):
            if hand.over:
                break
            hand.play(rng.choice(hand.legal_moves()))
        lean = hand.lean_copy()
        while not hand.over:
            move = rng.choice(hand.legal_moves())
            assert lean.legal_moves() == hand.legal_moves()
            hand.play(move)
            lean.play(move)
            assert (lean.hands, lean.stock, lean.discard_pile, lean.phase, lean.to_play) == (
                hand.hands, hand.stock, hand.discard_pile, hand.phase, hand.to_play
            )
            assert lean.known_to_hold(0) == hand.known_to_hold(0)
            assert lean.known_to_hold(1) == hand.known_to_hold(1)
        assert lean.result == hand.result
        assert lean.history == [] and lean.lean
        with pytest.raises(IllegalMoveError):
            lean.undo()
