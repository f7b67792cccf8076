"""What one seat knows: the only thing computer players and the coach ever see.

RULES.md, "What a seat knows": its own hand; every discard and its order; which discards the
opponent took and which upcard offers it passed; how many cards are left in the stock; the rules
and the scores. Never the opponent's hand, the stock's order or the shuffle's seed before the
hand ends. A :class:`PlayerView` is built from a hand by copying exactly those facts, so a player
given a view cannot reach anything else: there is no reference back to the hand.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .cards import FULL_DECK, Card, CardSet, cards_of_mask
from .errors import IllegalMoveError
from .events import OVER, Phase, PublicEvent, SeatKnowledge
from .legal import Mover, Verifier, verify_move
from .melds import Arrangement, best_arrangement, min_deadwood
from .move import Move
from .rules import RuleSet
from .settle import HandResult

__all__ = ["PlayerView", "PublicEvent", "SeatKnowledge"]


@dataclass(frozen=True)
class PlayerView(Verifier):
    """Exactly what ``seat`` may know at one moment of a hand (immutable).

    Built by :meth:`ginrummy.engine.hand.Hand.view`, the only place that reads a hand's hidden
    state. ``discard_pile`` runs from the bottom card to the top card. ``opponent_known`` holds the
    cards known to be in the opponent's hand: discards it took and has not thrown back.
    ``legal_moves`` (as plain text) is filled when it is this seat's turn. ``result`` and
    ``opponent_hand`` appear only once the hand is over.
    """

    seat: int
    rules: RuleSet
    dealer: int
    phase: Phase
    to_play: int
    hand_mask: int
    discard_pile: tuple[Card, ...]
    stock_count: int
    upcard: Card
    knock_limit: int
    multiplier: int
    taken: Card | None
    drawn: Card | None
    opponent_card_count: int
    opponent_known_mask: int
    opponent_took: tuple[Card, ...]
    opponent_passed: tuple[Card, ...]
    opponent_discards: tuple[Card, ...]
    history: tuple[PublicEvent, ...]
    legal_moves: tuple[str, ...]
    result: HandResult | None = None
    opponent_hand_mask: int | None = None
    scores: tuple[int, int] = (0, 0)
    hand_number: int = 1
    #: The match's finished hands before this one, as this seat saw each at its end (every
    #: card revealed, as the rules show them): how the opponent has played so far.
    earlier_hands: tuple[PlayerView, ...] = field(default=(), repr=False)

    @classmethod
    def _filled(
        cls,
        seat: int,
        rules: RuleSet,
        dealer: int,
        phase: Phase,
        to_play: int,
        hand_mask: int,
        discard_pile: tuple[Card, ...],
        stock_count: int,
        upcard: Card,
        knock_limit: int,
        multiplier: int,
        taken: Card | None,
        drawn: Card | None,
        opponent_card_count: int,
        opponent_known_mask: int,
        opponent_took: tuple[Card, ...],
        opponent_passed: tuple[Card, ...],
        opponent_discards: tuple[Card, ...],
        history: tuple[PublicEvent, ...],
        legal_moves: tuple[str, ...],
        result: HandResult | None,
        opponent_hand_mask: int | None,
    ) -> PlayerView:
        """The view with these fields (in field order; scores, hand number and earlier hands at
        their defaults), filled in one step instead of one frozen ``__setattr__`` per field: the
        same value as ``PlayerView(...)``, built before every computer move (issue 14)."""
        view = object.__new__(cls)
        view.__dict__.update(
            seat=seat,
            rules=rules,
            dealer=dealer,
            phase=phase,
            to_play=to_play,
            hand_mask=hand_mask,
            discard_pile=discard_pile,
            stock_count=stock_count,
            upcard=upcard,
            knock_limit=knock_limit,
            multiplier=multiplier,
            taken=taken,
            drawn=drawn,
            opponent_card_count=opponent_card_count,
            opponent_known_mask=opponent_known_mask,
            opponent_took=opponent_took,
            opponent_passed=opponent_passed,
            opponent_discards=opponent_discards,
            history=history,
            legal_moves=legal_moves,
            result=result,
            opponent_hand_mask=opponent_hand_mask,
            scores=(0, 0),
            hand_number=1,
            earlier_hands=(),
        )
        return view

    # Checking a move from the seat's side: the engine's own checks and sentences.

    def verify(self, move: str | Move) -> Move:
        """The move, parsed, if this seat may make it now; otherwise raise
        :class:`~ginrummy.engine.errors.IllegalMoveError` with the sentence the hand itself would
        give (:func:`ginrummy.engine.legal.verify_move` on the facts this seat knows), or "It is not
        your turn." when the other seat is to play."""
        parsed = Move.parse(move)
        if self.phase != OVER and self.to_play != self.seat:
            raise IllegalMoveError("It is not your turn.")
        top = self.discard_pile[-1] if self.discard_pile else -1
        taken = -1 if self.taken is None else int(self.taken)
        mover: Mover = (self.phase, self.hand_mask, int(top), taken, self.knock_limit, self.rules)
        verify_move(parsed, mover)
        return parsed

    # Derived facts, all computed from the fields above.

    @property
    def hand(self) -> CardSet:
        """This seat's cards."""
        return CardSet.from_mask(self.hand_mask)

    @property
    def opponent_known(self) -> CardSet:
        """Cards known to be in the opponent's hand (picked up from the pile, not thrown back)."""
        return CardSet.from_mask(self.opponent_known_mask)

    @property
    def opponent_hand(self) -> CardSet | None:
        """The opponent's cards, once the hand is over; ``None`` before."""
        if self.opponent_hand_mask is None:
            return None
        return CardSet.from_mask(self.opponent_hand_mask)

    @property
    def top_discard(self) -> Card | None:
        return self.discard_pile[-1] if self.discard_pile else None

    @property
    def pile_mask(self) -> int:
        out = 0
        for c in self.discard_pile:
            out |= 1 << c
        return out

    @property
    def unseen_mask(self) -> int:
        """Cards this seat has not seen: in the opponent's hand (unknown part) or the stock."""
        return FULL_DECK & ~self.hand_mask & ~self.pile_mask & ~self.opponent_known_mask

    @property
    def my_turn(self) -> bool:
        return self.to_play == self.seat and self.phase != OVER

    @property
    def deadwood(self) -> int:
        """Least deadwood of this seat's cards as held (all of them)."""
        return min_deadwood(self.hand_mask)

    def arrangement(self) -> Arrangement:
        """This seat's cards in their best melds."""
        return best_arrangement(self.hand_mask)

    def hand_cards(self) -> list[Card]:
        return cards_of_mask(self.hand_mask)
