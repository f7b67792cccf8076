"""A quick greedy player for the self-play tests: it ends hands in a few turns, unlike
``random``, so whole matches are cheap. Not a product player (see ginrummy.players)."""

from __future__ import annotations

from ginrummy.melds import best_discard_deadwood, discard_deadwoods, min_deadwood
from ginrummy.players.base import Player
from ginrummy.view import PlayerView


class GreedyPlayer(Player):
    """Knocks as soon as it may (gin first), takes a discard only when it lowers its best
    deadwood, and throws the card whose loss leaves the least deadwood (highest card on ties)."""

    name = "greedy"

    def decide(self, view: PlayerView) -> str:
        moves = view.legal_moves
        if "big gin" in moves:
            return "big gin"
        knocks = [m for m in moves if m.startswith("knock ")]
        mask = view.hand_mask
        if knocks:
            after = dict(discard_deadwoods(mask))
            return min(knocks, key=lambda m: after[_card(m)])
        if ("take" in moves and "draw" in moves) or moves == ["take", "pass"]:
            top = int(view.discard_pile[-1])
            if best_discard_deadwood(mask | 1 << top) < min_deadwood(mask):
                return "take"
            return "draw" if "draw" in moves else "pass"
        discards = [m for m in moves if m.startswith("discard ")]
        if discards:
            after = dict(discard_deadwoods(mask))
            return min(discards, key=lambda m: (after[_card(m)], -(_card(m) % 13)))
        return moves[0]


def _card(move: str) -> int:
    from ginrummy.cards import parse_cards

    return int(parse_cards(move.split()[1])[0])
