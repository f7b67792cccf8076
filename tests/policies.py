"""Move choices for tests that need many varied positions: a mix of random and plausible moves.

The choices only steer the games; every test checks correctness independently of them.
"""

from __future__ import annotations

import random

import bruteforce as bf
from ginrummy import Hand
from ginrummy.engine import melds


def greedy_move(h: Hand, moves: list[str]) -> str:
    """A plausible move (the solver picks it; correctness is checked independently): take the
    top discard when it lowers the best deadwood, throw the card that leaves the least."""
    hand = h.hands[h.to_play]
    if h.phase in ("draw", "opening") and "take" in moves:
        top = h.discard_pile[-1]
        if melds.best_discard_deadwood(hand | 1 << top) < melds.min_deadwood(hand):
            return "take"
        return "draw" if "draw" in moves else "pass"
    discards = [x for x in moves if x.startswith("discard")]
    if discards:
        return min(discards, key=lambda x: melds.min_deadwood(hand & ~(1 << bf.card(x[8:]))))
    return moves[0]


def choose_move(h: Hand, rng: random.Random, knock_bias: float, greed: float) -> str:
    """Knock or go (big) gin with probability ``knock_bias`` when allowed, take the last-discard
    chance often, otherwise a greedy move with probability ``greed`` or a random one."""
    moves = h.legal_moves()
    finishing = [x for x in moves if x.startswith("knock") or x == "big gin"]
    if finishing and rng.random() < knock_bias:
        return rng.choice(finishing)
    if h.phase == "last_chance" and "take" in moves and rng.random() < 0.7:
        return "take"
    if rng.random() < greed:
        return greedy_move(h, moves)
    return rng.choice(moves)
