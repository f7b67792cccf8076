"""ginrummy: an exact gin rummy rules engine, computer players and tables.

>>> import ginrummy
>>> ginrummy.deadwood("7s 7h 7c 8s 9s")
14
>>> ginrummy.best_melds("7s 7h 7c 7d 8s 9s 6s").deadwood
0
"""

from __future__ import annotations

from . import _moved

# First: importing ginrummy.engine.native picks the compiled core or its Python source.
from .engine import native as native
from .engine.cards import Card, CardSet, CardsLike, parse_cards
from .engine.errors import (
    GinRummyError,
    IllegalMoveError,
    InvalidCardError,
    InvalidRecordError,
    InvalidRulesError,
)
from .engine.hand import Hand
from .engine.match import GameScore, Match, MatchScore, score_match
from .engine.melds import Arrangement
from .engine.move import InvalidMoveError, Move
from .engine.rules import PROFILE_NAMES, RuleSet, get_rules
from .engine.settle import HandResult, settle_hand
from .engine.solve import all_melds, best_melds, deadwood
from .engine.table import Table
from .engine.view import PlayerView

__version__ = "0.1.0"

_moved.install()  # the modules' names before the layers (ginrummy._moved)

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
