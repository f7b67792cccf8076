"""``random``: a uniformly random legal move. A baseline, and the fastest playout policy."""

from __future__ import annotations

from ..engine.player import Player
from ..engine.view import PlayerView


class RandomPlayer(Player):
    """Chooses uniformly among the legal moves."""

    name = "random"

    def decide(self, view: PlayerView) -> str:
        return self.rng.choice(view.legal_moves)
