"""ginrummy: an exact gin rummy rules engine, computer players and tables.

>>> import ginrummy
>>> ginrummy.deadwood("7s 7h 7c 8s 9s")
14
>>> ginrummy.best_melds("7s 7h 7c 7d 8s 9s 6s").deadwood
0
"""

from __future__ import annotations

from typing import Any

from .cards import (
    INDEX_BIT,
    TEXT_BIT,
    Card,
    CardSet,
    CardsLike,
    fast_mask,
    parse_cards,
    to_mask,
)
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
    RUN_DEADWOOD,
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


_bit_of_int = INDEX_BIT.__getitem__
_bit_of_text = TEXT_BIT.__getitem__


def _hand_mask(cards: CardsLike) -> int:
    """The mask of a hand given to the solver, checked (a card twice, too many cards, text
    that is not cards...). A ``CardSet`` gives its mask, the other common forms take
    :func:`ginrummy.cards.fast_mask`; anything else goes to :func:`ginrummy.cards.to_mask`,
    which explains what is wrong."""
    mask = cards.mask if isinstance(cards, CardSet) else fast_mask(cards)
    if mask < 0 or mask.bit_count() > MAX_SOLVER_CARDS:
        mask = to_mask(cards, what="hand")
        if mask.bit_count() > MAX_SOLVER_CARDS:
            raise GinRummyError(
                f"a gin rummy hand has at most {MAX_SOLVER_CARDS} cards, not {mask.bit_count()}"
            )
    return mask


def deadwood(cards: CardsLike) -> int:
    """Minimum deadwood of exactly these cards (0 to 11 cards; every card counts)."""
    # The call people time (issue 14): _hand_mask's fast paths (those of cards.fast_mask)
    # and min_deadwood's no-set case written out here, one call instead of three. Anything
    # the fast paths do not take goes to _hand_mask, which explains what is wrong.
    items: Any = cards
    cls = items.__class__
    mask: int
    if cls is list or cls is tuple:
        if items and items[0].__class__ is str:
            try:
                mask = sum(map(_bit_of_text, items))
            except (KeyError, TypeError):
                mask = -1
            else:
                if mask.bit_count() != len(items):
                    mask = -1
        else:
            try:
                mask = sum(map(_bit_of_int, items))
                # Ints only (Card and the other int subclasses too): summed from a float,
                # they add up as C doubles to a float; anything else that passed as an index
                # (a numpy int) turns the sum into another type, or raises.
                ints = sum(items, 0.0).__class__ is float
            except Exception:
                mask = -1
            else:
                # One bit per item: every item a card, none twice; False and True (equal to
                # 0 and 1) are found by their type.
                if (
                    not ints
                    or mask.bit_count() != len(items)
                    or (mask & 1 and items[items.index(0)].__class__ is bool)
                    or (mask & 2 and items[items.index(1)].__class__ is bool)
                ):
                    mask = -1
    elif cls is CardSet:
        mask = items.mask
    elif cls is str:
        items = (items.replace(",", " ") if "," in items else items).split()
        try:
            mask = sum(map(_bit_of_text, items))
        except KeyError:
            mask = -1
        else:
            if mask.bit_count() != len(items):
                mask = -1
    else:
        mask = -1
    if mask < 0 or mask.bit_count() > MAX_SOLVER_CARDS:
        mask = _hand_mask(cards)
    a = mask & 8191
    b = mask >> 13 & 8191
    c = mask >> 26 & 8191
    d = mask >> 39
    if (a & b & (c | d)) | (c & d & (a | b)):
        return min_deadwood(mask)
    return RUN_DEADWOOD[a] + RUN_DEADWOOD[b] + RUN_DEADWOOD[c] + RUN_DEADWOOD[d]


def best_melds(cards: CardsLike) -> Arrangement:
    """A minimum-deadwood arrangement: ``.melds``, ``.deadwood_cards``, ``.deadwood``."""
    if cards.__class__ is CardSet:  # a CardSet's mask holds no card twice
        mask: int = cards.mask
        if mask.bit_count() <= MAX_SOLVER_CARDS:
            return best_arrangement(mask)
    return best_arrangement(_hand_mask(cards))


def all_melds(cards: CardsLike) -> list[Arrangement]:
    """Every minimum-deadwood arrangement of these cards."""
    return all_arrangements(_hand_mask(cards))
