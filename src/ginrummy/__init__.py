"""ginrummy: an exact gin rummy rules engine, computer players and tables.

>>> import ginrummy
>>> ginrummy.deadwood("7s 7h 7c 8s 9s")
14
>>> ginrummy.best_melds("7s 7h 7c 7d 8s 9s 6s").deadwood
0
"""

from __future__ import annotations

from typing import Any

from .cards import INDEX_BIT, Card, CardSet, CardsLike, fast_mask, parse_cards, to_mask
from .errors import (
    GinRummyError,
    IllegalMoveError,
    InvalidCardError,
    InvalidRecordError,
    InvalidRulesError,
)
from .hand import Hand
from .match import GameScore, Match, MatchScore, score_match
from .melds import (
    Arrangement,
    all_arrangements,
    best_arrangement,
    min_deadwood,
)
from .move import InvalidMoveError, Move
from .rules import PROFILE_NAMES, RuleSet, get_rules
from .settle import HandResult, settle_hand
from .table import Table
from .view import PlayerView

__version__ = "0.1.0"

__all__ = [
    "Arrangement",
    "Card",
    "CardSet",
    "CardsLike",
    "GameScore",
    "GinRummyError",
    "Hand",
    "HandResult",
    "IllegalMoveError",
    "InvalidCardError",
    "InvalidMoveError",
    "InvalidRecordError",
    "InvalidRulesError",
    "Match",
    "MatchScore",
    "Move",
    "PROFILE_NAMES",
    "PlayerView",
    "RuleSet",
    "Table",
    "all_melds",
    "best_melds",
    "deadwood",
    "get_rules",
    "parse_cards",
    "score_match",
    "settle_hand",
]

MAX_SOLVER_CARDS = 11


def _hand_mask(cards: CardsLike) -> int:
    """The mask of a hand given to the solver, checked (a card twice, too many cards, text
    that is not cards...). The common forms take the fast path of :mod:`ginrummy.cards`."""
    mask = cards.mask if cards.__class__ is CardSet else fast_mask(cards)
    if mask < 0 or mask.bit_count() > MAX_SOLVER_CARDS:
        mask = to_mask(cards, what="hand")
        if mask.bit_count() > MAX_SOLVER_CARDS:
            raise GinRummyError(
                f"a gin rummy hand has at most {MAX_SOLVER_CARDS} cards, not {mask.bit_count()}"
            )
    return mask


def deadwood(cards: CardsLike) -> int:
    """Minimum deadwood of exactly these cards (0 to 11 cards; every card counts)."""
    # _hand_mask inlined, and for a list of card ints or Cards cards.fast_mask's first path
    # too (the same steps, one call less): this is the call people time (issue 14).
    items: Any = cards
    cls = items.__class__
    mask: int
    if cls is CardSet:
        mask = items.mask
    elif cls is list and items and items[0].__class__ is not str:
        try:
            mask = sum(map(INDEX_BIT.__getitem__, items))
            ints = sum(items, 0.0).__class__ is float
        except Exception:  # the general path says what is wrong
            mask = -1
        else:
            if (
                not ints
                or mask.bit_count() != len(items)
                or (mask & 1 and items[items.index(0)].__class__ is bool)
                or (mask & 2 and items[items.index(1)].__class__ is bool)
            ):
                mask = -1
    else:
        mask = fast_mask(items)
    if mask < 0 or mask.bit_count() > MAX_SOLVER_CARDS:
        mask = _hand_mask(cards)
    return min_deadwood(mask)


def best_melds(cards: CardsLike) -> Arrangement:
    """A minimum-deadwood arrangement: ``.melds``, ``.deadwood_cards``, ``.deadwood``."""
    return best_arrangement(_hand_mask(cards))


def all_melds(cards: CardsLike) -> list[Arrangement]:
    """Every minimum-deadwood arrangement of these cards."""
    return all_arrangements(_hand_mask(cards))
