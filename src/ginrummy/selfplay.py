"""Playing computer players against each other: one hand, or one whole match.

The driver is the only code that holds the :class:`~ginrummy.hand.Hand`; each player is asked
for a move with its own seat's :class:`~ginrummy.view.PlayerView` and nothing else.

>>> from ginrummy.players import make
>>> result = play_hand(Hand(seed=3), [make("random", seed=1), make("random", seed=2)])
>>> result.kind in ("knock", "undercut", "gin", "cancelled")
True
"""

from __future__ import annotations

from collections.abc import Sequence

from .errors import GinRummyError
from .hand import Hand
from .match import Match
from .players.base import Player
from .rules import RulesLike
from .settle import HandResult

__all__ = ["play_hand", "play_match", "MAX_HANDS"]

#: A match that has not ended after this many hands is stopped (only random players get near).
MAX_HANDS = 2000


def play_hand(hand: Hand, players: Sequence[Player]) -> HandResult:
    """Play ``hand`` to its end with ``players[seat]`` choosing for each seat."""
    while hand.result is None:
        seat = hand.to_play
        hand.play(players[seat].choose(hand.view(seat)))
    return hand.result


def play_match(
    rules: RulesLike,
    players: Sequence[Player],
    *,
    seed: int | str | None = None,
    first_dealer: int | None = None,
    max_hands: int = MAX_HANDS,
) -> Match:
    """Play a whole match between ``players[0]`` (seat 0) and ``players[1]`` (seat 1)."""
    if len(players) != 2:
        raise GinRummyError("a match needs exactly two players")
    match = Match(rules, seed=seed, first_dealer=first_dealer)
    while True:
        hand = match.hand
        while hand.result is None:
            seat = hand.to_play
            match.play(players[seat].choose(match.view(seat)))
        if match.over:
            return match
        if len(match.hands) >= max_hands:
            raise GinRummyError(f"the match did not end within {max_hands} hands")
        match.next_hand()
