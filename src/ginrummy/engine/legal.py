"""What the seat to play may do, and the engine's own sentence for why a move is refused.

Every check is a function of the mover's facts alone: the phase, the mover's cards, the top
discard, the card it took from the pile this turn, the knock limit and the rules. Those are
facts the seat itself knows, so the same code answers for the hand
(:meth:`ginrummy.engine.hand.Hand.verify`) and for the seat's own view
(:meth:`ginrummy.engine.view.PlayerView.verify`), and the web page and the terminal show the
sentence as the engine wrote it.

``top`` and ``taken`` are cards as ints, ``-1`` for none.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeAlias

from .cards import Card, cards_of_mask
from .errors import IllegalMoveError
from .events import DISCARD, DRAW, LAST_CHANCE, LAST_CHANCE_KNOCK, OPENING, OPENING_DRAW, OVER
from .melds import best_discard_deadwood, declared_arrangement, discard_deadwoods, min_deadwood
from .move import BIG_GIN, KNOCK, PASS, TAKE, Move
from .move import DISCARD as DISCARD_MOVE
from .move import DRAW as DRAW_MOVE
from .rules import RuleSet

if TYPE_CHECKING:
    from .events import Phase

__all__ = ["STOCK_FLOOR", "Mover", "Verifier", "can_big_gin", "knock_discards",
           "last_chance_usable", "legal_moves", "verify_move"]

#: The stock count at which a discard without a knock ends the hand (or, with the last-discard
#: chance, offers the discard once more).
STOCK_FLOOR = 2

_TAKE = Move.of("take")
_PASS = Move.of("pass")
_DRAW = Move.of("draw")
_BIG_GIN = Move.of("big gin")
_TAKE_PASS = (_TAKE, _PASS)
_TAKE_DRAW = (_TAKE, _DRAW)
_DISCARDS = tuple(Move.discard(c) for c in range(52))
_KNOCKS = tuple(Move.knock(c) for c in range(52))


Mover: TypeAlias = "tuple[Phase, int, int, int, int, RuleSet]"
"""The facts that decide what the seat to play may do, all of them known to that seat:
``(phase, its cards as a mask, the top discard, the card it took this turn, the knock limit,
the rules)`` (a plain tuple: it is built before every move)."""


class Verifier:
    """``can_play`` and ``refusal`` for a class whose :meth:`verify` raises
    :class:`IllegalMoveError` with the engine's sentence (the hand and a seat's view)."""

    __slots__ = ()

    def verify(self, move: str | Move) -> Move:
        raise NotImplementedError

    def can_play(self, move: str | Move) -> bool:
        """True when :meth:`verify` accepts ``move``."""
        return self.refusal(move) is None

    def refusal(self, move: str | Move) -> str | None:
        """The engine's sentence for why ``move`` may not be made now, ``None`` when it may."""
        try:
            self.verify(move)
        except IllegalMoveError as exc:
            return str(exc)
        return None


def knock_discards(mask: int, taken: int, knock_limit: int) -> list[int]:
    """Cards whose discard leaves deadwood within the knock limit (never the taken card)."""
    if best_discard_deadwood(mask) > knock_limit:  # the usual answer, in a few lookups
        return []
    return [c for c, dw in discard_deadwoods(mask) if dw <= knock_limit and c != taken]


def can_big_gin(mask: int, rules: RuleSet) -> bool:
    """True when the rules play big gin and all eleven cards are in melds."""
    return rules.big_gin and mask.bit_count() == 11 and min_deadwood(mask) == 0


def last_chance_usable(mask: int, top: int, knock_limit: int, rules: RuleSet) -> bool:
    """True when taking the last discard ``top`` would let the seat knock or go big gin."""
    mask |= 1 << top
    if can_big_gin(mask, rules):
        return True
    return any(dw <= knock_limit and c != top for c, dw in discard_deadwoods(mask))


def legal_moves(mover: Mover) -> list[Move]:
    """Every legal move for the seat to play (empty once the hand is over).

    Knocks are listed once per discard in their default form; a declared arrangement
    (``knock 7h with ...``) is a variant of a listed knock.
    """
    phase, mask, top, taken, knock_limit, rules = mover
    if phase == DISCARD:
        out = [_DISCARDS[c] for c in cards_of_mask(mask) if c != taken]
        out.extend(_KNOCKS[c] for c in knock_discards(mask, taken, knock_limit))
        if can_big_gin(mask, rules):
            out.append(_BIG_GIN)
        return out
    if phase == DRAW:
        return list(_TAKE_DRAW)
    if phase == OPENING:
        return list(_TAKE_PASS)
    if phase == OPENING_DRAW:
        return [_DRAW]
    if phase == LAST_CHANCE:
        return list(_TAKE_PASS) if last_chance_usable(mask, top, knock_limit, rules) else [_PASS]
    if phase == LAST_CHANCE_KNOCK:
        out = [_KNOCKS[c] for c in knock_discards(mask, taken, knock_limit)]
        if can_big_gin(mask, rules):
            out.append(_BIG_GIN)
        return out
    return []


def verify_move(move: Move, mover: Mover) -> None:
    """Raise :class:`IllegalMoveError` with a sentence a player understands when the rules do
    not allow ``move`` now; return quietly when they do."""
    phase, mask, top, taken, knock_limit, rules = mover
    code = move.code
    if phase == OVER:
        raise IllegalMoveError("The hand is over; no more moves.")
    if phase == OPENING:
        if code != TAKE and code != PASS:
            raise IllegalMoveError(
                f"First take or pass the upcard {Card(top)}; you cannot {move.kind} yet."
            )
        return
    if phase == OPENING_DRAW:
        if code != DRAW_MOVE:
            raise IllegalMoveError(
                "Both players passed the upcard, so you must draw from the stock."
            )
        return
    if phase == DRAW:
        if code != TAKE and code != DRAW_MOVE:
            raise IllegalMoveError(f"Draw first: take the {Card(top)} or draw from the stock.")
        return
    if phase == LAST_CHANCE:
        if code == PASS:
            return
        if code != TAKE:
            raise IllegalMoveError(
                "The stock is down to two cards: take the last discard to knock, or pass."
            )
        if not last_chance_usable(mask, top, knock_limit, rules):
            raise IllegalMoveError(
                f"You may take the {Card(top)} now only to knock or go gin, "
                "and it would not let you."
            )
        return
    # DISCARD or LAST_CHANCE_KNOCK.
    if code == BIG_GIN:
        if not rules.big_gin:
            raise IllegalMoveError(f"Big gin is not played under {rules.describe()}.")
        if min_deadwood(mask) != 0:
            raise IllegalMoveError("Big gin needs all eleven cards in melds.")
        return
    if code != DISCARD_MOVE and code != KNOCK:
        raise IllegalMoveError(
            f"You have drawn this turn; now discard a card or knock, not {move.kind}."
        )
    if phase == LAST_CHANCE_KNOCK and code == DISCARD_MOVE:
        raise IllegalMoveError("You took the last discard, so you must knock (or go gin) now.")
    assert move.card is not None
    card = int(move.card)
    if not mask >> card & 1:
        raise IllegalMoveError(f"You do not hold the {Card(card)}.")
    if card == taken:
        raise IllegalMoveError(
            f"You took the {Card(card)} from the discard pile this turn; "
            "discard a different card."
        )
    if code == KNOCK:
        rest = mask & ~(1 << card)
        if move.meld_masks is None:
            deadwood = min_deadwood(rest)
        else:
            try:
                deadwood = declared_arrangement(rest, move.meld_masks).deadwood
            except ValueError as exc:
                raise IllegalMoveError(f"Invalid melds: {exc}.") from None
        if deadwood > knock_limit:
            raise IllegalMoveError(_over_the_limit(deadwood, card, knock_limit))


def _over_the_limit(deadwood: int, card: int, knock_limit: int) -> str:
    if knock_limit == 0:
        return (
            f"Only gin is allowed this hand (the first upcard was an ace); discarding the "
            f"{Card(card)} leaves {deadwood} deadwood."
        )
    return (
        f"You cannot knock: discarding the {Card(card)} leaves {deadwood} deadwood and the "
        f"knock limit is {knock_limit}."
    )
