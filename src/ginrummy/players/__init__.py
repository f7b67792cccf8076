"""Computer players. Each decides from a :class:`~ginrummy.engine.view.PlayerView` only.

>>> from ginrummy import Hand
>>> from ginrummy.players import make
>>> hand = Hand(seed=1)
>>> make("random", seed=7).choose(hand.view(hand.to_play)) in hand.legal_moves()
True
"""

from __future__ import annotations

from collections.abc import Callable

from ..engine.errors import GinRummyError
from ..engine.player import Player
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

#: The levels a person picks, gentlest first, mapped onto players (see ``docs/players.md``):
#: ``easy`` is the EAAI reference player (melds-only draws, knocks at once), ``medium`` the
#: rule-based player without its opponent model, ``hard`` the full rule-based player and
#: ``expert`` the Monte Carlo search over the unseen cards. Each beats the one before it.
LEVELS: dict[str, str] = {
    "easy": "simple",
    "medium": "medium",
    "hard": "hard",
    "expert": "expert",
}


def names() -> list[str]:
    """Every player name and level name that :func:`make` accepts (each once)."""
    return list(dict.fromkeys([*LEVELS, *PLAYERS]))


def make(name: str, *, seed: int | str | None = None) -> Player:
    """A new player by name (``random``, ``simple``, ``medium``, ``hard``, ``expert``) or level
    (``easy``, ``medium``, ``hard``, ``expert``), with its RNG seeded from ``seed``."""
    key = name.strip().lower() if isinstance(name, str) else name
    key = LEVELS.get(key, key)
    if key not in PLAYERS:
        raise GinRummyError(f"unknown player {name!r}; choose one of {', '.join(names())}")
    return PLAYERS[key](seed)
