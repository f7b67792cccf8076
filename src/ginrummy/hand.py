"""One hand of gin rummy as a state machine: deal, opening, draw and discard, knock, the end.

Moves are text (see ``docs/rules.md``, "Move notation"):

``take``          take the upcard (opening) or the top discard
``pass``          decline the upcard offer (or the last-discard chance)
``draw``          draw the top card of the stock
``discard 7h``    discard a card
``knock 7h``      discard 7h face down and knock (gin when the rest has no deadwood); the
                  knocker may declare melds: ``knock 7h with 7c7d7s 8h9hTh``
``big gin``       lay down all eleven cards (profiles with big gin only)

Every move is checked before anything changes; an illegal one raises
:class:`~ginrummy.errors.IllegalMoveError` and leaves the hand exactly as it was.

>>> from ginrummy.cards import parse_cards
>>> hand = Hand(deck=list(range(52)), dealer=0)
>>> hand.to_play, hand.legal_moves()
(1, ['take', 'pass'])
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from .cards import (
    CARD_TEXT,
    Card,
    CardSet,
    CardsLike,
    cards_of_mask,
    mask_text,
    parse_cards,
    to_cards,
)
from .errors import GinRummyError, IllegalMoveError, InvalidCardError
from .melds import discard_deadwoods, min_deadwood
from .rules import RuleSet, RulesLike, get_rules
from .settle import HandResult, parse_melds, settle
from .view import PlayerView, PublicEvent

__all__ = ["Hand", "Event", "Phase", "deal_order", "parse_move"]

Phase = Literal[
    "opening", "opening_draw", "draw", "discard", "last_chance", "last_chance_knock", "over"
]

OPENING: Phase = "opening"
OPENING_DRAW: Phase = "opening_draw"
DRAW: Phase = "draw"
DISCARD: Phase = "discard"
LAST_CHANCE: Phase = "last_chance"
LAST_CHANCE_KNOCK: Phase = "last_chance_knock"
OVER: Phase = "over"

# Move kinds.
TAKE, PASS, DRAW_STOCK, DISCARD_CARD, KNOCK, BIG_GIN = range(6)
_KIND_NAMES = ("take", "pass", "draw", "discard", "knock", "big gin")

_DISCARD_TEXT = tuple(f"discard {t}" for t in CARD_TEXT)
_KNOCK_TEXT = tuple(f"knock {t}" for t in CARD_TEXT)
_CANONICAL: dict[str, tuple[int, int]] = {"take": (TAKE, -1), "pass": (PASS, -1)}
_CANONICAL["draw"] = (DRAW_STOCK, -1)
_CANONICAL["big gin"] = (BIG_GIN, -1)
for _c in range(52):
    _CANONICAL[_DISCARD_TEXT[_c]] = (DISCARD_CARD, _c)
    _CANONICAL[_KNOCK_TEXT[_c]] = (KNOCK, _c)

#: The stock count at which a discard without a knock ends the hand.
STOCK_FLOOR = 2


@dataclass(frozen=True)
class Event:
    """One move as it happened: who, what, and the card involved.

    ``card`` is the card taken, passed, drawn, discarded or knocked with (``None`` for big gin).
    A drawn card and a knock discard are private until the hand ends; views hide them.
    """

    seat: int
    kind: str
    card: Card | None
    text: str


def deal_order(deck: Sequence[int], dealer: int) -> tuple[int, int, int, list[int]]:
    """Split a 52-card deck (index 0 on top) into (hand of seat 0, hand of seat 1, upcard,
    stock), in the fixed order: non-dealer gets cards 0, 2, ..., 18; dealer 1, 3, ..., 19;
    card 20 is the upcard; 21..51 the stock, 21 on top."""
    non_dealer_mask = 0
    dealer_mask = 0
    for i in range(0, 20, 2):
        non_dealer_mask |= 1 << deck[i]
        dealer_mask |= 1 << deck[i + 1]
    hands = (dealer_mask, non_dealer_mask) if dealer == 0 else (non_dealer_mask, dealer_mask)
    return hands[0], hands[1], deck[20], list(deck[21:])


def parse_move(text: str) -> tuple[int, int, list[int] | None]:
    """A move's text as ``(kind, card or -1, declared melds or None)``.

    Raises :class:`IllegalMoveError` for text that is not a move at all.
    """
    if not isinstance(text, str):
        raise IllegalMoveError(f"A move is text such as 'draw' or 'discard 7h', not {text!r}.")
    hit = _CANONICAL.get(text)
    if hit is not None:
        return hit[0], hit[1], None
    words = text.strip().lower().split()
    if not words:
        raise IllegalMoveError("Empty move: try 'draw', 'take', 'pass' or 'discard 7h'.")
    verb = words[0]
    if verb in ("take", "pass", "draw") and len(words) == 1:
        return _CANONICAL[verb][0], -1, None
    if verb == "big" and words[1:] == ["gin"]:
        return BIG_GIN, -1, None
    if verb in ("discard", "knock") and len(words) >= 2:
        try:
            card_list = parse_cards(words[1])
        except InvalidCardError as exc:
            raise IllegalMoveError(f"{text!r}: {exc}") from None
        if len(card_list) != 1:
            raise IllegalMoveError(f"{text!r}: name exactly one card to discard")
        card = int(card_list[0])
        if verb == "discard":
            if len(words) != 2:
                raise IllegalMoveError(f"{text!r}: a discard names just one card")
            return DISCARD_CARD, card, None
        melds = None
        if len(words) > 2:
            if words[2] != "with" or len(words) == 3:
                raise IllegalMoveError(
                    f"{text!r}: declare melds as 'knock 7h with 7c7d7s 8h9hTh'"
                )
            try:
                melds = parse_melds(" ".join(words[3:]))
            except InvalidCardError as exc:
                raise IllegalMoveError(f"{text!r}: {exc}") from None
        return KNOCK, card, melds
    raise IllegalMoveError(
        f"{text!r} is not a move; moves are take, pass, draw, discard <card>, knock <card>"
        " and big gin."
    )


class Hand:
    """One hand: the deal, the play, and how it ended.

    ``deck`` is the shuffled deck, index 0 on top (dealt as in :func:`deal_order`); without it
    the deck is shuffled from ``seed``. ``dealer`` is seat 0 or 1.
    """

    __slots__ = (
        "rules",
        "dealer",
        "deck",
        "hands",
        "stock",
        "discard_pile",
        "to_play",
        "phase",
        "taken",
        "drawn",
        "upcard",
        "knock_limit",
        "multiplier",
        "history",
        "result",
        "_undo",
        "_public",
        "_took",
        "_passed",
        "_discards",
        "_known",
    )

    rules: RuleSet
    dealer: int
    deck: tuple[Card, ...]
    hands: list[int]
    stock: list[int]
    discard_pile: list[int]
    to_play: int
    phase: Phase
    taken: int
    drawn: int
    upcard: Card
    knock_limit: int
    multiplier: int
    history: list[Event]
    result: HandResult | None
    _undo: list[
        tuple[int, int, int, tuple[int, ...], int, Phase, int, int, HandResult | None, int, int]
    ]
    # What each seat has seen, kept move by move so that views are cheap to build:
    # _public[s] is the history as seat s saw it; _took/_passed/_discards[s] are the cards seat s
    # took from the pile, passed as upcard offers and discarded; _known[s] is the cards seat s
    # is known (by the other seat) to hold: taken from the pile and not thrown back.
    _public: list[list[PublicEvent]]
    _took: list[list[Card]]
    _passed: list[list[Card]]
    _discards: list[list[Card]]
    _known: list[int]

    def __init__(
        self,
        rules: RulesLike = "traditional",
        *,
        deck: CardsLike | None = None,
        dealer: int = 0,
        seed: int | str | None = None,
    ) -> None:
        self.rules = get_rules(rules)
        if dealer not in (0, 1) or isinstance(dealer, bool):
            raise GinRummyError(f"the dealer is seat 0 or 1, not {dealer!r}")
        if deck is None:
            order = list(range(52))
            random.Random(seed).shuffle(order)
        else:
            order = [int(c) for c in to_cards(deck)]
            if len(order) != 52 or len(set(order)) != 52:
                raise InvalidCardError(
                    f"a deck must hold each of the 52 cards once; got {len(order)} cards, "
                    f"{len(set(order))} different"
                )
        self.dealer = dealer
        self.deck = tuple(Card(c) for c in order)
        h0, h1, up, stock = deal_order(order, dealer)
        self.hands = [h0, h1]
        self.stock = stock[::-1]  # top of the stock is the end of the list
        self.discard_pile = [up]
        self.upcard = Card(up)
        self.to_play = 1 - dealer
        self.phase = OPENING
        self.taken = -1
        self.drawn = -1
        self.knock_limit = self.rules.knock_limit_for(up)
        self.multiplier = self.rules.multiplier_for(up)
        self.history = []
        self.result = None
        self._undo = []
        self._public = [[], []]
        self._took = [[], []]
        self._passed = [[], []]
        self._discards = [[], []]
        self._known = [0, 0]

    # ---------------------------------------------------------------------------------------
    # Reading the state.

    @property
    def stock_count(self) -> int:
        return len(self.stock)

    @property
    def over(self) -> bool:
        return self.phase == OVER

    @property
    def non_dealer(self) -> int:
        return 1 - self.dealer

    def hand_of(self, seat: int) -> CardSet:
        """The cards one seat holds now."""
        return CardSet.from_mask(self.hands[seat])

    @property
    def top_discard(self) -> Card | None:
        return Card(self.discard_pile[-1]) if self.discard_pile else None

    @property
    def moves(self) -> list[str]:
        """Every move played so far, in order, as text."""
        return [e.text for e in self.history]

    def view(self, seat: int) -> PlayerView:
        """What ``seat`` knows now (see :class:`ginrummy.view.PlayerView`)."""
        return PlayerView.of(self, seat)

    def copy(self) -> Hand:
        """An independent copy for search (history and undo stack shared structurally)."""
        other = Hand.__new__(Hand)
        other.rules = self.rules
        other.dealer = self.dealer
        other.deck = self.deck
        other.hands = self.hands[:]
        other.stock = self.stock[:]
        other.discard_pile = self.discard_pile[:]
        other.to_play = self.to_play
        other.phase = self.phase
        other.taken = self.taken
        other.drawn = self.drawn
        other.upcard = self.upcard
        other.knock_limit = self.knock_limit
        other.multiplier = self.multiplier
        other.history = self.history[:]
        other.result = self.result
        other._undo = self._undo[:]
        other._public = [self._public[0][:], self._public[1][:]]
        other._took = [self._took[0][:], self._took[1][:]]
        other._passed = [self._passed[0][:], self._passed[1][:]]
        other._discards = [self._discards[0][:], self._discards[1][:]]
        other._known = self._known[:]
        return other

    @classmethod
    def determinize(
        cls, view: PlayerView, opponent_mask: int, stock: Sequence[int]
    ) -> Hand:
        """A hand at the position ``view`` describes, with the hidden cards filled in.

        For search by a computer player: ``opponent_mask`` is a guess at the opponent's whole
        hand (it must hold every card the view knows the opponent has, and have as many cards
        as the opponent holds) and ``stock`` a guess at the stock, top card first; together
        they must use exactly the cards the view has not seen. Everything else comes from the
        view, so ``determinize(view, ...).view(view.seat) == view`` (scores and hand number
        aside, which belong to the match).

        The result plays on from the view's position like any hand; its past is only what the
        view knew: moves before it cannot be undone, the opponent's stock draws carry no card,
        and it has no deck (``deck`` is empty: there was no deal). Raises
        :class:`IllegalMoveError` when the guess does not fit the view or the hand is over.
        """
        if view.phase == OVER:
            raise IllegalMoveError("The hand is over; there is nothing hidden to fill in.")
        seat = view.seat
        opponent = 1 - seat
        unseen = view.unseen_mask
        known = view.opponent_known_mask
        if isinstance(opponent_mask, bool) or not isinstance(opponent_mask, int):
            raise IllegalMoveError(f"the opponent's hand is a card mask, not {opponent_mask!r}")
        if opponent_mask & ~(unseen | known):
            raise IllegalMoveError(
                f"the opponent cannot hold {mask_text(opponent_mask & ~(unseen | known))}: "
                "this seat has seen those cards elsewhere"
            )
        if known & ~opponent_mask:
            raise IllegalMoveError(
                f"the opponent is known to hold {mask_text(known & ~opponent_mask)}"
            )
        if opponent_mask.bit_count() != view.opponent_card_count:
            raise IllegalMoveError(
                f"the opponent holds {view.opponent_card_count} cards, "
                f"not {opponent_mask.bit_count()}"
            )
        stock_cards = [int(c) for c in to_cards(list(stock))]
        stock_mask = 0
        for c in stock_cards:
            stock_mask |= 1 << c
        if len(stock_cards) != view.stock_count or stock_mask.bit_count() != len(stock_cards):
            raise IllegalMoveError(
                f"the stock holds {view.stock_count} different cards, "
                f"not {len(stock_cards)} ({stock_mask.bit_count()} different)"
            )
        if stock_mask | (opponent_mask & ~known) != unseen or stock_mask & opponent_mask:
            raise IllegalMoveError(
                "the opponent's hidden cards and the stock must be exactly the unseen cards"
            )
        hand = cls.__new__(cls)
        hand.rules = view.rules
        hand.dealer = view.dealer
        hand.deck = ()
        hands = [0, 0]
        hands[seat] = view.hand_mask
        hands[opponent] = opponent_mask
        hand.hands = hands
        hand.stock = stock_cards[::-1]
        hand.discard_pile = [int(c) for c in view.discard_pile]
        hand.to_play = view.to_play
        hand.phase = view.phase
        hand.upcard = view.upcard
        hand.knock_limit = view.knock_limit
        hand.multiplier = view.multiplier
        hand.result = None
        hand._undo = []
        hand.history = []
        hand._public = [[], []]
        hand._took = [[], []]
        hand._passed = [[], []]
        hand._discards = [[], []]
        hand._known = [0, 0]
        for e in view.history:
            text = e.kind if e.card is None or e.kind != "discard" else _DISCARD_TEXT[e.card]
            hand._record(Event(e.seat, e.kind, e.card, text))
        # The hidden cards in the history are unknown, whoever looks: keep the view's record.
        hand._public[seat] = list(view.history)
        last = view.history[-1] if view.history else None
        hand.taken = -1
        hand.drawn = -1
        if view.phase in (DISCARD, LAST_CHANCE_KNOCK) and last is not None:
            if last.kind == "take" and last.card is not None:
                hand.taken = int(last.card)
            elif last.kind == "draw" and last.card is not None:
                hand.drawn = int(last.card)
        return hand

    # ---------------------------------------------------------------------------------------
    # Legal moves.

    def _knock_discards(self, mask: int) -> list[int]:
        """Cards whose discard leaves deadwood within the knock limit (never the taken card)."""
        limit = self.knock_limit
        taken = self.taken
        return [c for c, dw in discard_deadwoods(mask) if dw <= limit and c != taken]

    def _can_big_gin(self, mask: int) -> bool:
        return self.rules.big_gin and mask.bit_count() == 11 and min_deadwood(mask) == 0

    def legal_moves(self) -> list[str]:
        """Every legal move for the seat to play, as text (empty once the hand is over).

        Knocks are listed once per discard in their default form; a declared arrangement
        (``knock 7h with ...``) is a variant of a listed knock.
        """
        phase = self.phase
        if phase == DISCARD:
            mask = self.hands[self.to_play]
            taken = self.taken
            out = [_DISCARD_TEXT[c] for c in cards_of_mask(mask) if c != taken]
            knock_text = _KNOCK_TEXT
            out.extend(knock_text[c] for c in self._knock_discards(mask))
            if self._can_big_gin(mask):
                out.append("big gin")
            return out
        if phase == DRAW:
            return ["take", "draw"]
        if phase == OPENING:
            return ["take", "pass"]
        if phase == OPENING_DRAW:
            return ["draw"]
        if phase == LAST_CHANCE:
            return ["take", "pass"] if self._last_chance_usable() else ["pass"]
        if phase == LAST_CHANCE_KNOCK:
            mask = self.hands[self.to_play]
            out = [_KNOCK_TEXT[c] for c in self._knock_discards(mask)]
            if self._can_big_gin(mask):
                out.append("big gin")
            return out
        return []

    def _last_chance_usable(self) -> bool:
        top = self.discard_pile[-1]
        mask = self.hands[self.to_play] | 1 << top
        if self._can_big_gin(mask):
            return True
        limit = self.knock_limit
        return any(dw <= limit and c != top for c, dw in discard_deadwoods(mask))

    def is_legal(self, move: str) -> bool:
        """True when ``play(move)`` would be accepted."""
        try:
            self._check(move)
        except IllegalMoveError:
            return False
        return True

    # ---------------------------------------------------------------------------------------
    # Checking and playing moves.

    def _check(self, move: str) -> tuple[int, int, list[int] | None]:
        """Parse and verify ``move``; raise IllegalMoveError with a player's sentence if not."""
        kind, card, melds = parse_move(move)
        phase = self.phase
        if phase == OVER:
            raise IllegalMoveError("The hand is over; no more moves.")
        name = _KIND_NAMES[kind]
        if phase == OPENING:
            if kind not in (TAKE, PASS):
                raise IllegalMoveError(
                    f"First take or pass the upcard {self.upcard}; you cannot {name} yet."
                )
            return kind, card, melds
        if phase == OPENING_DRAW:
            if kind != DRAW_STOCK:
                raise IllegalMoveError(
                    "Both players passed the upcard, so you must draw from the stock."
                )
            return kind, card, melds
        if phase == DRAW:
            if kind not in (TAKE, DRAW_STOCK):
                raise IllegalMoveError(
                    f"Draw first: take the {self.discard_pile[-1]} or draw from the stock."
                )
            return kind, card, melds
        if phase == LAST_CHANCE:
            if kind == PASS:
                return kind, card, melds
            if kind != TAKE:
                raise IllegalMoveError(
                    "The stock is down to two cards: take the last discard to knock, or pass."
                )
            if not self._last_chance_usable():
                raise IllegalMoveError(
                    f"You may take the {self.discard_pile[-1]} now only to knock or go gin, "
                    "and it would not let you."
                )
            return kind, card, melds
        # DISCARD or LAST_CHANCE_KNOCK.
        mask = self.hands[self.to_play]
        if kind == BIG_GIN:
            if not self.rules.big_gin:
                raise IllegalMoveError(f"Big gin is not played under {self.rules.describe()}.")
            if min_deadwood(mask) != 0:
                raise IllegalMoveError("Big gin needs all eleven cards in melds.")
            return kind, card, melds
        if kind not in (DISCARD_CARD, KNOCK):
            raise IllegalMoveError(f"You have drawn; now discard a card or knock, not {name}.")
        if phase == LAST_CHANCE_KNOCK and kind == DISCARD_CARD:
            raise IllegalMoveError(
                "You took the last discard, so you must knock (or go gin) now."
            )
        if not mask >> card & 1:
            raise IllegalMoveError(f"You do not hold the {Card(card)}.")
        if card == self.taken:
            raise IllegalMoveError(
                f"You took the {Card(card)} from the discard pile this turn; "
                "discard a different card."
            )
        if kind == KNOCK:
            rest = mask & ~(1 << card)
            if melds is None:
                dw = min_deadwood(rest)
                if dw > self.knock_limit:
                    raise IllegalMoveError(self._limit_message(dw, card))
            else:
                # Full check of the declared melds (raises IllegalMoveError).
                settle(
                    rest,
                    self.hands[1 - self.to_play],
                    self.rules,
                    knock_limit=self.knock_limit,
                    melds=melds,
                )
        return kind, card, melds

    def _limit_message(self, dw: int, card: int) -> str:
        if self.knock_limit == 0:
            return (
                f"Only gin is allowed this hand (the first upcard was an ace); discarding the "
                f"{Card(card)} leaves {dw} deadwood."
            )
        return (
            f"You cannot knock: discarding the {Card(card)} leaves {dw} deadwood and the "
            f"knock limit is {self.knock_limit}."
        )

    def play(self, move: str) -> None:
        """Check and play one move for the seat to play."""
        kind, card, melds = self._check(move)
        self._apply(kind, card, melds)

    def _apply(self, kind: int, card: int, melds: list[int] | None) -> None:
        seat = self.to_play
        self._undo.append(
            (
                self.hands[0],
                self.hands[1],
                len(self.stock),
                tuple(self.discard_pile),
                self.to_play,
                self.phase,
                self.taken,
                self.drawn,
                self.result,
                self._known[0],
                self._known[1],
            )
        )
        phase = self.phase
        if kind == DRAW_STOCK:
            c = self.stock.pop()
            self.hands[seat] |= 1 << c
            self.drawn = c
            self.taken = -1
            self.phase = DISCARD
            self._record(Event(seat, "draw", Card(c), "draw"))
        elif kind == TAKE:
            c = self.discard_pile.pop()
            self.hands[seat] |= 1 << c
            self.taken = c
            self.drawn = -1
            self.phase = LAST_CHANCE_KNOCK if phase == LAST_CHANCE else DISCARD
            self._record(Event(seat, "take", Card(c), "take"))
        elif kind == PASS:
            self._record(Event(seat, "pass", Card(self.discard_pile[-1]), "pass"))
            if phase == LAST_CHANCE:
                self._finish(HandResult.cancelled(self.knock_limit, self.multiplier))
            elif seat != self.dealer:
                self.to_play = self.dealer
            else:
                self.to_play = 1 - self.dealer
                self.phase = OPENING_DRAW
        elif kind == DISCARD_CARD:
            self.hands[seat] &= ~(1 << card)
            self.discard_pile.append(card)
            self._record(Event(seat, "discard", Card(card), _DISCARD_TEXT[card]))
            self.taken = -1
            self.drawn = -1
            self.to_play = 1 - seat
            if len(self.stock) <= STOCK_FLOOR:
                if self.rules.last_discard_chance:
                    self.phase = LAST_CHANCE
                else:
                    self._finish(HandResult.cancelled(self.knock_limit, self.multiplier))
            else:
                self.phase = DRAW
        elif kind == KNOCK:
            rest = self.hands[seat] & ~(1 << card)
            text = _KNOCK_TEXT[card]
            if melds is not None:
                text += " with " + " ".join(mask_text(m) for m in melds)
            result = settle(
                rest,
                self.hands[1 - seat],
                self.rules,
                knock_limit=self.knock_limit,
                multiplier=self.multiplier,
                melds=melds,
                knocker_seat=seat,
                knock_discard=card,
            )
            self.hands[seat] = rest
            self._record(Event(seat, "knock", Card(card), text))
            self._finish(result)
        else:  # BIG_GIN
            result = settle(
                self.hands[seat],
                self.hands[1 - seat],
                self.rules,
                knock_limit=self.knock_limit,
                multiplier=self.multiplier,
                knocker_seat=seat,
            )
            self._record(Event(seat, "big gin", None, "big gin"))
            self._finish(result)

    def _record(self, event: Event) -> None:
        """Append ``event`` to the history and to what each seat has seen of it."""
        self.history.append(event)
        seat = event.seat
        card = event.card
        mine = PublicEvent(seat, event.kind, card)
        hidden = event.kind == "draw" or event.kind == "knock"
        self._public[seat].append(mine)
        self._public[1 - seat].append(PublicEvent(seat, event.kind, None) if hidden else mine)
        if card is None:
            return
        kind = event.kind
        if kind == "take":
            self._took[seat].append(card)
            self._known[seat] |= 1 << card
        elif kind == "pass":
            self._passed[seat].append(card)
        elif kind == "discard":
            self._discards[seat].append(card)
            self._known[seat] &= ~(1 << card)

    def _finish(self, result: HandResult) -> None:
        self.result = result
        self.phase = OVER
        self.taken = -1
        self.drawn = -1

    def undo(self) -> str:
        """Take back the last move and return its text (for search and for review)."""
        if not self._undo:
            raise IllegalMoveError("There is no move to take back.")
        (h0, h1, stock_len, pile, to_play, phase, taken, drawn, result, known0, known1) = (
            self._undo.pop()
        )
        event = self.history.pop()
        self._public[0].pop()
        self._public[1].pop()
        if event.kind == "take":
            self._took[event.seat].pop()
        elif event.kind == "pass":
            self._passed[event.seat].pop()
        elif event.kind == "discard":
            self._discards[event.seat].pop()
        self._known = [known0, known1]
        if len(self.stock) < stock_len:
            assert event.card is not None
            self.stock.append(int(event.card))
        self.hands = [h0, h1]
        self.discard_pile = list(pile)
        self.to_play = to_play
        self.phase = phase
        self.taken = taken
        self.drawn = drawn
        self.result = result
        return event.text

    # ---------------------------------------------------------------------------------------
    # Display.

    def __repr__(self) -> str:
        return (
            f"<Hand {self.rules.describe()} dealer={self.dealer} phase={self.phase} "
            f"to_play={self.to_play} stock={len(self.stock)} moves={len(self.history)}>"
        )

    def check_conservation(self) -> None:
        """Assert that the 52 cards are all somewhere exactly once (a debugging aid)."""
        seen = self.hands[0] | self.hands[1]
        total = self.hands[0].bit_count() + self.hands[1].bit_count()
        for c in self.stock + self.discard_pile:
            seen |= 1 << c
            total += 1
        knock = next((e for e in self.history if e.kind == "knock"), None)
        if knock is not None and knock.card is not None:
            seen |= 1 << knock.card
            total += 1
        assert total == 52 and seen == (1 << 52) - 1, "cards were lost or duplicated"
