"""What every computer player is: a function of a :class:`~ginrummy.engine.view.PlayerView` and an
RNG.

A player never receives a :class:`~ginrummy.engine.hand.Hand`: :meth:`Player.choose` is typed to
take a view and refuses anything else at run time, and a view holds no reference back to the hand.
Players keep no hidden memory between calls either; everything they track (what the opponent
took, passed and discarded) is read from the view's public history, so the same view and the
same RNG state always give the same move.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod

from .view import PlayerView

__all__ = ["Player"]


class Player(ABC):
    """Base class of the computer players. Subclasses implement :meth:`decide`."""

    #: The name :func:`ginrummy.players.make` knows this player by.
    name: str = "player"

    def __init__(self, seed: int | str | None = None) -> None:
        self.seed = seed
        self.rng = random.Random(seed)

    def choose(self, view: PlayerView) -> str:
        """The move this player makes in the position ``view`` describes (engine notation)."""
        if not isinstance(view, PlayerView):
            raise TypeError(
                f"a player decides from a PlayerView, not a {type(view).__name__}; "
                "call hand.view(seat) first"
            )
        if not view.legal_moves:
            raise ValueError("it is not this seat's turn: the view lists no legal moves")
        return self.decide(view)

    @abstractmethod
    def decide(self, view: PlayerView) -> str:
        """Pick a move from ``view`` (which has at least one legal move)."""

    def reseed(self, seed: int | str | None) -> None:
        """Restart the player's RNG (for reproducible self-play)."""
        self.seed = seed
        self.rng = random.Random(seed)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r} seed={self.seed!r}>"
