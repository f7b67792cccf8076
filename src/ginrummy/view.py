"""What one seat knows: the only thing computer players and the coach ever see.

RULES.md, "What a seat knows": its own hand; every discard and its order; which discards the
opponent took and which upcard offers it passed; how many cards are left in the stock; the rules
and the scores. Never the opponent's hand, the stock's order or the shuffle's seed before the
hand ends. A :class:`PlayerView` is built from a hand by copying exactly those facts, so a player
given a view cannot reach anything else: there is no reference back to the hand.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .cards import FULL_DECK, Card, CardSet, cards_of_mask
from .melds import Arrangement, best_arrangement, min_deadwood
from .rules import RuleSet
from .settle import HandResult

if TYPE_CHECKING:
    from .hand import Event, Hand, Phase

__all__ = ["PlayerView", "PublicEvent", "public_facts"]


@dataclass(frozen=True)
class PublicEvent:
    """A move as one seat saw it: ``card`` is ``None`` where the card was hidden from it
    (the opponent's stock draws, and a knock discard until the hand is over)."""

    seat: int
    kind: str
    card: Card | None


def public_facts(
    events: Iterable[Event], seat: int, over: bool
) -> tuple[
    tuple[PublicEvent, ...], tuple[Card, ...], tuple[Card, ...], tuple[Card, ...], int
]:
    """From scratch: the history as ``seat`` saw it, the cards the opponent took, passed and
    discarded, and the cards known to be in the opponent's hand. The hand keeps the same facts
    move by move; this is the reference (and reveals everything once the hand is ``over``)."""
    history: list[PublicEvent] = []
    took: list[Card] = []
    passed: list[Card] = []
    discards: list[Card] = []
    known = 0
    for e in events:
        mine = e.seat == seat
        hidden = e.kind in ("draw", "knock") and not (mine or over)
        history.append(PublicEvent(e.seat, e.kind, None if hidden else e.card))
        if not mine and e.card is not None:
            if e.kind == "take":
                took.append(e.card)
                known |= 1 << e.card
            elif e.kind == "pass":
                passed.append(e.card)
            elif e.kind == "discard":
                discards.append(e.card)
                known &= ~(1 << e.card)
    return tuple(history), tuple(took), tuple(passed), tuple(discards), known


@dataclass(frozen=True)
class PlayerView:
    """Exactly what ``seat`` may know at one moment of a hand (immutable).

    ``discard_pile`` runs from the bottom card to the top card. ``opponent_known`` holds the
    cards known to be in the opponent's hand: discards it took and has not thrown back.
    ``legal_moves`` is filled when it is this seat's turn. ``result`` and ``opponent_hand``
    appear only once the hand is over.
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
    extra: tuple[tuple[str, str], ...] = field(default=())

    @classmethod
    def of(cls, hand: Hand, seat: int) -> PlayerView:
        """The view of ``seat`` in ``hand`` (the only place that reads a hand's hidden state)."""
        if seat not in (0, 1):
            raise ValueError(f"a seat is 0 or 1, not {seat!r}")
        over = hand.phase == "over"
        opponent = 1 - seat
        if over:
            history, took, passed, discards, known = public_facts(hand.history, seat, True)
        else:
            history = tuple(hand._public[seat])
            took = tuple(hand._took[opponent])
            passed = tuple(hand._passed[opponent])
            discards = tuple(hand._discards[opponent])
            known = hand._known[opponent]
        to_play = hand.to_play
        return cls(
            seat=seat,
            rules=hand.rules,
            dealer=hand.dealer,
            phase=hand.phase,
            to_play=to_play,
            hand_mask=hand.hands[seat],
            discard_pile=tuple(Card(c) for c in hand.discard_pile),
            stock_count=len(hand.stock),
            upcard=hand.upcard,
            knock_limit=hand.knock_limit,
            multiplier=hand.multiplier,
            taken=Card(hand.taken) if hand.taken >= 0 and to_play == seat else None,
            drawn=Card(hand.drawn) if hand.drawn >= 0 and to_play == seat else None,
            opponent_card_count=hand.hands[opponent].bit_count(),
            opponent_known_mask=known,
            opponent_took=took,
            opponent_passed=passed,
            opponent_discards=discards,
            history=history,
            legal_moves=tuple(hand.legal_moves()) if to_play == seat and not over else (),
            result=hand.result if over else None,
            opponent_hand_mask=hand.hands[opponent] if over else None,
        )

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
        return self.to_play == self.seat and self.phase != "over"

    @property
    def deadwood(self) -> int:
        """Least deadwood of this seat's cards as held (all of them)."""
        return min_deadwood(self.hand_mask)

    def arrangement(self) -> Arrangement:
        """This seat's cards in their best melds."""
        return best_arrangement(self.hand_mask)

    def hand_cards(self) -> list[Card]:
        return cards_of_mask(self.hand_mask)
