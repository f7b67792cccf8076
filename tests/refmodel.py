"""A reference model of one hand, written from RULES.md and docs/rules.md without the engine.

It keeps the cards in plain Python sets and lists and knows, in each phase, exactly which moves
the rule book allows; the property tests play the same moves on it and on
:class:`ginrummy.Hand` and compare everything. Meld questions go to the brute force.

Phases use the engine's documented names: ``opening`` (take or pass the upcard),
``opening_draw`` (both passed: the non-dealer draws), ``draw``, ``discard``, ``last_chance``
(take the last discard only to knock, or pass), ``last_chance_knock`` and ``over``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import bruteforce as bf

RANKS = bf.RANKS
SUITS = bf.SUITS
ALL_CANONICAL_MOVES: tuple[str, ...] = (
    "take",
    "pass",
    "draw",
    "big gin",
    *(f"discard {RANKS[c % 13]}{SUITS[c // 13]}" for c in range(52)),
    *(f"knock {RANKS[c % 13]}{SUITS[c // 13]}" for c in range(52)),
)


def name(c: int) -> str:
    return RANKS[c % 13] + SUITS[c // 13]


def oklahoma_limit(upcard: int) -> int:
    """RULES.md: 2-9 its value, 10/J/Q/K 10, ace 0 (gin only)."""
    r = bf.rank(upcard)
    if r == 0:
        return 0
    return min(r + 1, 10)


@dataclass
class Model:
    """One hand as the rule book describes it."""

    rules: Any
    deck: Sequence[int]
    dealer: int
    hands: dict[int, set[int]] = field(init=False)
    stock: list[int] = field(init=False)  # index 0 is the top
    pile: list[int] = field(init=False)  # last is the top
    turn: int = field(init=False)
    phase: str = field(init=False)
    taken: int | None = field(init=False, default=None)
    limit: int = field(init=False)
    multiplier: int = field(init=False)
    ending: tuple[str, int | None, int | None] | None = field(init=False, default=None)

    def __post_init__(self) -> None:
        nd = 1 - self.dealer
        self.hands = {nd: set(self.deck[0:20:2]), self.dealer: set(self.deck[1:20:2])}
        self.pile = [self.deck[20]]
        self.stock = list(self.deck[21:])
        self.turn = nd
        self.phase = "opening"
        upcard = self.deck[20]
        self.limit = oklahoma_limit(upcard) if self.rules.oklahoma else self.rules.knock_limit
        self.multiplier = 2 if self.rules.spade_double and bf.suit(upcard) == 3 else 1

    @property
    def upcard(self) -> int:
        return self.deck[20]

    def knock_cards(self, hand: set[int]) -> set[int]:
        """Cards whose discard leaves deadwood within the limit (never the card just taken)."""
        return {
            c for c in hand if c != self.taken and bf.min_deadwood(hand - {c}) <= self.limit
        }

    def big_gin(self, hand: set[int]) -> bool:
        return bool(self.rules.big_gin) and len(hand) == 11 and bf.min_deadwood(hand) == 0

    def legal(self) -> set[str]:
        """Every move the rule book allows now, in canonical text."""
        p = self.phase
        if p == "over":
            return set()
        if p == "opening":
            return {"take", "pass"}
        if p == "opening_draw":
            return {"draw"}
        if p == "draw":
            return {"take", "draw"}
        hand = self.hands[self.turn]
        if p == "last_chance":
            top = self.pile[-1]
            grown = hand | {top}
            usable = self.big_gin(grown) or any(
                bf.min_deadwood(grown - {c}) <= self.limit for c in hand
            )
            return {"take", "pass"} if usable else {"pass"}
        out = {f"knock {name(c)}" for c in self.knock_cards(hand)}
        if self.big_gin(hand):
            out.add("big gin")
        if p == "discard":
            out |= {f"discard {name(c)}" for c in hand if c != self.taken}
        return out

    def play(self, move: str) -> None:
        """Apply a canonical move (the caller has checked that it is legal)."""
        assert move in self.legal(), move
        seat = self.turn
        nd = 1 - self.dealer
        hand = self.hands[seat]
        if move == "take":
            c = self.pile.pop()
            hand.add(c)
            self.taken = c
            self.phase = "last_chance_knock" if self.phase == "last_chance" else "discard"
        elif move == "pass":
            if self.phase == "last_chance":
                self.phase = "over"
                self.ending = ("cancelled", None, None)
            elif seat == nd:
                self.turn = self.dealer
            else:
                self.turn = nd
                self.phase = "opening_draw"
        elif move == "draw":
            hand.add(self.stock.pop(0))
            self.taken = None
            self.phase = "discard"
        elif move.startswith("discard "):
            c = bf.card(move.split()[1])
            hand.remove(c)
            self.pile.append(c)
            self.taken = None
            self.turn = 1 - seat
            if len(self.stock) <= 2:
                if self.rules.last_discard_chance:
                    self.phase = "last_chance"
                else:
                    self.phase = "over"
                    self.ending = ("cancelled", None, None)
            else:
                self.phase = "draw"
        elif move.startswith("knock "):
            c = bf.card(move.split()[1])
            hand.remove(c)
            self.phase = "over"
            self.ending = ("knock", seat, c)
        else:
            assert move == "big gin"
            self.phase = "over"
            self.ending = ("big_gin", seat, None)
