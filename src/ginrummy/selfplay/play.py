"""Playing computer players against each other: one hand, or one whole match.

Both go through :mod:`ginrummy.engine.table`, the one place that asks computer players for moves:
each player is asked with its own seat's :class:`~ginrummy.engine.view.PlayerView` and nothing else,
and keeps its own RNG stream (it is not reseeded).

>>> from ginrummy.players import make
>>> result = play_hand(Hand(seed=3), [make("random", seed=1), make("random", seed=2)])
>>> result.kind in ("knock", "undercut", "gin", "cancelled")
True
"""

from __future__ import annotations

from collections.abc import Sequence

from ..engine.errors import GinRummyError
from ..engine.hand import Hand
from ..engine.match import Match
from ..engine.player import Player
from ..engine.rules import RulesLike
from ..engine.settle import HandResult
from ..engine.table import Computer, Table, play_turns

__all__ = ["play_hand", "play_match", "MAX_HANDS"]

#: A match that has not ended after this many hands is stopped (only random players get near).
MAX_HANDS = 2000


def play_hand(hand: Hand, players: Sequence[Player]) -> HandResult:
    """Play ``hand`` to its end with ``players[seat]`` choosing for each seat.

    A lone hand belongs to no match (its views carry no scores): the table's seat loop plays
    it directly rather than through a :class:`~ginrummy.engine.table.Table`."""
    play_turns(hand, [Computer(p) for p in players])
    if hand.result is None:  # pragma: no cover - every seat is a computer
        raise GinRummyError("the hand did not end")
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
    Table(match, [Computer(p) for p in players]).play_to_end(max_hands)
    if not match.over:
        raise GinRummyError(f"the match did not end within {max_hands} hands")
    return match
