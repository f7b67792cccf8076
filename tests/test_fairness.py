"""Fairness: no computer player can see the cards its seat has not seen.

For positions from real games under every profile, the opponent's hidden cards and the stock
are replaced by other cards consistent with what the seat knows: the hand's deck is taken, the
cards this seat has not seen are shuffled among their places in it, and the same moves are
replayed (the opponent's moves name only cards this seat has seen, so they stay legal). The
seat's view must come out equal, and every registered player, with the same seed, must make
the same decision in both worlds. A player added to ``PLAYERS`` is covered automatically.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from ginrummy import Hand
from ginrummy.players import PLAYERS, Player, make
from ginrummy.players.expert import ExpertPlayer
from ginrummy.players.knowledge import PATIENT_FIT, QUICK_FIT
from players_support import RULE_SETS, Position, positions, stalled_positions


def _other_world(position: Position, rng: random.Random) -> Hand | None:
    """The same position with the seat's unseen cards shuffled among their deck places
    (``None`` when fewer than two cards are unseen)."""
    hand = position.hand()
    seat = hand.to_play
    unseen = hand.view(seat).unseen_mask
    places = [i for i, c in enumerate(position.deck) if unseen >> c & 1]
    if len(places) < 2:
        return None
    cards = [position.deck[i] for i in places]
    shuffled = cards[:]
    while shuffled == cards:
        rng.shuffle(shuffled)
    deck = list(position.deck)
    for i, c in zip(places, shuffled, strict=True):
        deck[i] = c
    other = Position(position.rules, tuple(deck), position.dealer, position.prefix)
    return other.hand()


def _cases() -> list[Position]:
    cases = list(positions(10, every=4, seed=77))
    for rules in RULE_SETS:
        cases.extend(stalled_positions(rules, 3))
    return cases


CASES = _cases()

#: Players whose every decision runs playouts: every second case (all nine rule sets still) by
#: default, every case with ``--slow``.
PLAYOUT_PLAYERS = frozenset({"expert"})


def _decides_the_same(player: Callable[[int], Player], cases: list[Position],
                      rng: random.Random) -> None:
    """``player(i)`` (a fresh player seeded ``i``) decides each case alike in the real
    position and in the other world; most cases must really change the hidden cards."""
    changed = 0
    for i, position in enumerate(cases):
        hand = position.hand()
        other = _other_world(position, rng)
        if other is None:
            continue
        seat = hand.to_play
        view = hand.view(seat)
        other_view = other.view(seat)
        assert other_view == view
        hidden_differs = (
            other.hands[1 - seat] != hand.hands[1 - seat] or other.stock != hand.stock
        )
        changed += hidden_differs
        assert player(i).choose(view) == player(i).choose(other_view), position
    assert changed >= len(cases) // 2


@pytest.mark.parametrize("name", sorted(PLAYERS))
def test_a_player_decides_the_same_whatever_the_hidden_cards(
    name: str, request: pytest.FixtureRequest
) -> None:
    step = 2 if name in PLAYOUT_PLAYERS and not request.config.getoption("--slow") else 1
    _decides_the_same(lambda i: make(name, seed=i), CASES[::step], random.Random(name))


def test_the_expert_that_fits_its_guesses_decides_the_same_whatever_the_hidden_cards() -> None:
    """The trial settings that test guesses against the opponent's moves
    (``knowledge.PastPlay``) and rank the candidates from them read the view only, too."""
    def expert(seed: int) -> ExpertPlayer:
        return ExpertPlayer(seed, quick_fit=QUICK_FIT, patient_fit=PATIENT_FIT,
                            posterior_model=True)

    _decides_the_same(expert, CASES[1::4], random.Random("fitted expert"))


@pytest.mark.parametrize("name", sorted(PLAYERS))
def test_a_player_refuses_a_hand(name: str) -> None:
    hand = Hand("house", seed=2)
    with pytest.raises(TypeError, match="PlayerView"):
        make(name, seed=1).choose(hand)  # type: ignore[arg-type]


def test_the_coach_judges_the_same_whatever_the_hidden_cards() -> None:
    """The coach sees only the seat's view: with the hidden cards swapped for others that fit
    it, every assessment (values, rating, reason) is the same."""
    from ginrummy.coach import Coach

    rng = random.Random("coach")
    compared = 0
    for i, position in enumerate(CASES[::2]):
        hand = position.hand()
        other = _other_world(position, rng)
        if other is None:
            continue
        seat = hand.to_play
        view, other_view = hand.view(seat), other.view(seat)
        for move in {view.legal_moves[0], view.legal_moves[-1]}:
            mine = Coach(seed=i, samples=8).assess(view, move)
            theirs = Coach(seed=i, samples=8).assess(other_view, move)
            assert mine == theirs, (position, move)
            compared += 1
    assert compared >= 40
