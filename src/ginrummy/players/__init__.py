"""Computer players. Each decides from a :class:`~ginrummy.view.PlayerView` only.

>>> from ginrummy import Hand
>>> from ginrummy.players import make
>>> hand = Hand(seed=1)
>>> make("random", seed=7).choose(hand.view(hand.to_play)) in hand.legal_moves()
True
"""

from __future__ import annotations

from collections.abc import Callable

from ..errors import GinRummyError
from .base import Player
from .expert import ExpertPlayer
from .hard import HardPlayer, MediumPlayer
from .random_player import RandomPlayer
from .simple import SimplePlayer

__all__ = ["LEVELS", "PLAYERS", "Player", "make", "names"]

PLAYERS: dict[str, Callable[[int | str | None], Player]] = {
    "random": RandomPlayer,
    "simple": SimplePlayer,
    "medium": MediumPlayer,
    "hard": HardPlayer,
    "expert": ExpertPlayer,
}

#: The levels a person picks, mapped onto players.
LEVELS: dict[str, str] = {}


def names() -> list[str]:
    """Every player name (and level name) that :func:`make` accepts."""
    return [*PLAYERS, *LEVELS]


def make(name: str, *, seed: int | str | None = None) -> Player:
    """A new player by name (``random``, ``simple``, ``hard``, ``expert``) or level
    (``easy``, ``medium``, ``hard``, ``expert``), with its RNG seeded from ``seed``."""
    key = name.strip().lower() if isinstance(name, str) else name
    key = LEVELS.get(key, key)
    if key not in PLAYERS:
        raise GinRummyError(f"unknown player {name!r}; choose one of {', '.join(names())}")
    return PLAYERS[key](seed)
