"""Hand.determinize: a hand rebuilt from one seat's view with the hidden cards guessed.

The computer players search over such hands; each must be a faithful copy of the position the
seat sees (its view comes back equal) and must refuse guesses that contradict the view.
"""

from __future__ import annotations

import random

import pytest

from ginrummy import Hand
from ginrummy.engine.cards import to_mask
from ginrummy.engine.errors import IllegalMoveError
from ginrummy.engine.rules import get_rules
from ginrummy.engine.view import PlayerView
from ginrummy.players import make


def _guess(view: PlayerView, rng: random.Random) -> tuple[int, list[int]]:
    unseen = [c for c in range(52) if view.unseen_mask >> c & 1]
    rng.shuffle(unseen)
    hidden = view.opponent_card_count - view.opponent_known_mask.bit_count()
    opponent = view.opponent_known_mask
    for c in unseen[:hidden]:
        opponent |= 1 << c
    return opponent, unseen[hidden:]


def _positions(seed: int, rules: str, **options: bool) -> list[tuple[Hand, int]]:
    """Every position of one simple-vs-random hand, from both seats."""
    hand = Hand(get_rules(rules, **options), seed=seed, dealer=seed % 2)
    players = [make("simple", seed=seed), make("random", seed=seed + 1)]
    out = []
    while hand.result is None:
        out.append((hand.copy(), 0))
        out.append((hand.copy(), 1))
        hand.play(players[hand.to_play].choose(hand.view(hand.to_play)))
    return out


@pytest.mark.parametrize("rules", ["traditional", "modern", "house", "oklahoma"])
def test_the_view_comes_back_equal(rules: str) -> None:
    rng = random.Random(rules)
    for seed in range(12):
        for hand, seat in _positions(seed, rules, last_discard_chance=seed % 2 == 0):
            view = hand.view(seat)
            opponent, stock = _guess(view, rng)
            rebuilt = Hand.determinize(view, opponent, stock)
            assert rebuilt.view(seat) == view
            assert rebuilt.hands[1 - seat] == opponent
            assert rebuilt.stock == stock  # both top first
            rebuilt.check_conservation()


def test_the_true_hidden_cards_rebuild_the_same_hand() -> None:
    for hand, seat in _positions(5, "modern"):
        view = hand.view(seat)
        rebuilt = Hand.determinize(view, hand.hands[1 - seat], hand.stock)
        assert rebuilt.legal_moves() == hand.legal_moves()
        # Both play on identically: the same moves give the same result.
        players = [make("simple", seed=9), make("simple", seed=10)]
        a = hand.copy()
        while a.result is None and rebuilt.result is None:
            move = players[a.to_play].choose(a.view(a.to_play))
            a.play(move)
            rebuilt.play(move)
        assert a.result == rebuilt.result


def test_the_rebuilt_hand_plays_on_and_undoes_only_its_own_moves() -> None:
    hand = Hand("house", seed=3, dealer=0)
    hand.play("pass")
    hand.play("pass")
    hand.play("draw")
    view = hand.view(1)
    opponent, stock = _guess(view, random.Random(1))
    rebuilt = Hand.determinize(view, opponent, stock)
    discard = rebuilt.legal_moves()[0]
    rebuilt.play(discard)
    assert rebuilt.undo() == discard
    with pytest.raises(IllegalMoveError):
        rebuilt.undo()


def test_guesses_that_contradict_the_view_are_refused() -> None:
    hand = Hand("house", seed=4, dealer=0)
    hand.play("take")  # the non-dealer takes the upcard: the dealer knows that card
    upcard = int(hand.upcard)
    view = hand.view(0)
    assert view.opponent_known_mask == 1 << upcard
    opponent, stock = _guess(view, random.Random(2))
    Hand.determinize(view, opponent, stock)  # a consistent guess is fine
    mine = view.hand_mask & -view.hand_mask
    spare = opponent & ~(1 << upcard)
    spare_card = (spare & -spare).bit_length() - 1
    with pytest.raises(IllegalMoveError, match="known to hold"):
        Hand.determinize(view, opponent & ~(1 << upcard) | 1 << stock[0], [
            upcard if c == stock[0] else c for c in stock
        ])
    with pytest.raises(IllegalMoveError, match="seen those cards"):
        Hand.determinize(view, opponent & ~(1 << spare_card) | mine, stock)
    with pytest.raises(IllegalMoveError, match="holds 11 cards"):
        Hand.determinize(view, opponent & ~(1 << spare_card), stock)
    with pytest.raises(IllegalMoveError, match="stock holds"):
        Hand.determinize(view, opponent, stock[:-1])
    with pytest.raises(IllegalMoveError, match="stock holds"):
        Hand.determinize(view, opponent, [stock[0], *stock[:-1]])
    with pytest.raises(IllegalMoveError, match="exactly the unseen"):
        Hand.determinize(view, opponent, [spare_card, *stock[1:]])
    with pytest.raises(IllegalMoveError, match="card mask"):
        Hand.determinize(view, "7h", stock)  # type: ignore[arg-type]


def test_a_finished_hand_has_nothing_to_fill_in() -> None:
    hand = Hand("house", deck=to_deck("Ac 2c 3c 4c 5c 6c 7c 8c 9c Tc"), dealer=1)
    while hand.result is None:
        hand.play(make("simple", seed=1).choose(hand.view(hand.to_play)))
    with pytest.raises(IllegalMoveError, match="over"):
        Hand.determinize(hand.view(0), 0, [])


def to_deck(first: str) -> list[int]:
    """A deck whose first cards are ``first`` (in order), the rest in card order."""
    mask = to_mask(first)
    head = [c for c in range(52) if mask >> c & 1]
    return head + [c for c in range(52) if not mask >> c & 1]
