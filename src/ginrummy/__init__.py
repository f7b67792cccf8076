"""ginrummy: an exact gin rummy rules engine, computer players and tables.

>>> import ginrummy
>>> ginrummy.deadwood("7s 7h 7c 8s 9s")
14
>>> ginrummy.best_melds("7s 7h 7c 7d 8s 9s 6s").deadwood
0
"""

from __future__ import annotations

# First: importing ginrummy.native picks the compiled core or its Python source.
from . import native as native
from .cards import Card, CardSet, CardsLike, parse_cards
from .errors import (
    GinRummyError,
    IllegalMoveError,
    InvalidCardError,
    InvalidRecordError,
    InvalidRulesError,
)
from .hand import Hand
from .match import GameScore, Match, MatchScore, score_match
from .melds import Arrangement
from .move import InvalidMoveError, Move
from .rules import PROFILE_NAMES, RuleSet, get_rules
from .settle import HandResult, settle_hand
from .solve import all_melds, best_melds, deadwood
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
