"""One hand of gin rummy as a state machine: deal, opening, draw and discard, knock, the end.

The one place the rules of play live. Moves are :class:`~ginrummy.engine.move.Move` objects or their
text (``docs/rules.md``, "Move notation"): ``take``, ``pass``, ``draw``, ``discard 7h``,
``knock 7h`` (optionally ``knock 7h with 7c7d7s 8h9hTh``) and ``big gin``.

Every move is checked before anything changes (PokerKit's triad): :meth:`Hand.verify` raises
:class:`~ginrummy.engine.errors.IllegalMoveError` with the engine's own sentence and leaves the hand
exactly as it was, :meth:`Hand.can_play` answers yes or no, and :meth:`Hand.play` verifies and
applies. The checks themselves are :mod:`ginrummy.engine.legal`'s, shared with the seat's own
:class:`~ginrummy.engine.view.PlayerView`.

Each kind of move has one ``apply_*`` method that carries out its rules (what moves where,
the next phase, the stock floor, the last-discard chance, the scoring of a knock). Play goes
through them, and so do the playouts of search (:mod:`ginrummy.players.rollout`), on a lean
copy of the hand (:meth:`Hand.lean_copy`) that keeps no history, undo or seat knowledge.

Piles are top first: ``deck[0]``, ``stock[0]`` and the first card of :func:`deal_order`'s stock
are the next cards dealt or drawn, while the discard pile, which grows, has its top card last
(``discard_pile[-1]``).

>>> hand = Hand(deck=list(range(52)), dealer=0)
>>> hand.to_play, hand.legal_moves()
(1, [Move.parse('take'), Move.parse('pass')])
>>> hand.can_play("discard 2c"), hand.can_play("pass")
(False, True)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import NamedTuple

from .cards import CARD_TEXT, Card, CardSet, CardsLike, mask_text, shown, to_cards
from .errors import GinRummyError, IllegalMoveError, InvalidCardError
from .events import (
    DISCARD,
    DRAW,
    LAST_CHANCE,
    LAST_CHANCE_KNOCK,
    OPENING,
    OPENING_DRAW,
    OVER,
    Event,
    Phase,
    PublicEvent,
    SeatKnowledge,
    played_event,
    public_event,
)
from .legal import STOCK_FLOOR, Mover, Verifier, legal_moves, verify_move
from .melds import best_discard_deadwood
from .move import BIG_GIN, KNOCK, PASS, TAKE, Move
from .move import DISCARD as DISCARD_MOVE
from .move import DRAW as DRAW_MOVE
from .rules import RuleSet, RulesLike, get_rules
from .settle import HandResult, settle
from .view import PlayerView

__all__ = ["Event", "Hand", "Phase", "STOCK_FLOOR", "deal_order", "seat_number"]

#: The shared :class:`Card` of each index (``Card(i)`` without the checks; the engine's own
#: indices are always cards).
_CARD_OF: tuple[Card, ...] = tuple(Card(i) for i in range(52))


def seat_number(seat: object, what: str = "a seat is") -> int:
    """``seat`` when it names a seat: the int 0 or 1. Anything else -- 2, -1, ``"0"``, ``0.0``,
    ``True`` -- raises :class:`~ginrummy.engine.errors.GinRummyError` saying ``what`` (``"the dealer
    is seat"`` gives "the dealer is seat 0 or 1, not 0.0"). The one seat check of the hand,
    the match and the table; cheap, for the views built before every computer move.

    >>> seat_number(1)
    1
    >>> seat_number(0.0, "the dealer is seat")
    Traceback (most recent call last):
    ginrummy.engine.errors.GinRummyError: the dealer is seat 0 or 1, not 0.0
    """
    if type(seat) is int and (seat == 0 or seat == 1):
        return seat
    raise GinRummyError(f"{what} 0 or 1, not {shown(seat)}")


def deal_order(deck: Sequence[int], dealer: int) -> tuple[int, int, int, list[int]]:
    """Split a 52-card deck (index 0 on top) into (hand of seat 0, hand of seat 1, upcard,
    stock), in the fixed order: non-dealer gets cards 0, 2, ..., 18; dealer 1, 3, ..., 19;
    card 20 is the upcard; 21..51 the stock, top first (21 on top)."""
    non_dealer_mask = 0
    dealer_mask = 0
    for i in range(0, 20, 2):
        non_dealer_mask |= 1 << deck[i]
        dealer_mask |= 1 << deck[i + 1]
    hands = (dealer_mask, non_dealer_mask) if dealer == 0 else (non_dealer_mask, dealer_mask)
    return hands[0], hands[1], deck[20], list(deck[21:])


#: ``_SUIT_DISCARD_TEXTS[suit << 13 | p]``: "discard 7h" and so on for the cards of suit
#: pattern ``p``, low card first; filled as patterns come up.
_SUIT_DISCARD_TEXTS: list[tuple[str, ...] | None] = [None] * (4 << 13)
_DISCARD_TEXT: tuple[str, ...] = tuple(f"discard {CARD_TEXT[c]}" for c in range(52))


def _suit_discard_texts(key: int) -> tuple[str, ...]:
    suit, p = key >> 13, key & 8191
    texts = tuple(_DISCARD_TEXT[13 * suit + r] for r in range(13) if p >> r & 1)
    _SUIT_DISCARD_TEXTS[key] = texts
    return texts


def _fixed_texts() -> dict[Phase, tuple[str, ...]]:
    """The phases whose legal moves do not depend on the cards, with their texts, as
    :func:`ginrummy.engine.legal.legal_moves` lists them (asked once, here)."""
    rules = get_rules("traditional")
    out: dict[Phase, tuple[str, ...]] = {}
    for phase in (OPENING, OPENING_DRAW, DRAW):
        texts = {
            tuple(m.text for m in legal_moves((phase, mask, top, -1, limit, rules)))
            for mask, top, limit in ((0, 5, 10), (0x3FF, 40, 0), (0x3FF << 30, 0, 10))
        }
        assert len(texts) == 1, f"the legal moves of {phase} depend on the cards"
        out[phase] = texts.pop()
    return out


#: ``take``/``pass`` in the opening, ``draw`` after both passed, ``take``/``draw`` after.
_FIXED_TEXTS = _fixed_texts()


def _legal_texts(mover: Mover) -> tuple[str, ...]:
    """The text of every legal move, ``legal_moves(mover)`` as plain strings, for a view.

    One shortcut, for the commonest position (a seat with eleven cards that can neither
    knock nor go big gin): the legal moves are then the discards of every card but the one
    just taken, low card first, read from per-suit tables. Everything else asks
    :func:`ginrummy.engine.legal.legal_moves`; the view tests compare the two at every position."""
    phase, mask, _top, taken, knock_limit, _rules = mover
    if phase == DISCARD and best_discard_deadwood(mask) > max(knock_limit, 0):
        # No knock; and no big gin: eleven cards all in melds have a meld of four or more,
        # so one discard leaves no deadwood.
        table = _SUIT_DISCARD_TEXTS
        texts = (
            (table[mask & 8191] or _suit_discard_texts(mask & 8191))
            + (table[8192 | mask >> 13 & 8191] or _suit_discard_texts(8192 | mask >> 13 & 8191))
            + (table[16384 | mask >> 26 & 8191] or _suit_discard_texts(16384 | mask >> 26 & 8191))
            + (table[24576 | mask >> 39] or _suit_discard_texts(24576 | mask >> 39))
        )
        if taken >= 0:
            listed = list(texts)
            listed.remove(_DISCARD_TEXT[taken])
            return tuple(listed)
        return texts
    return tuple(map(str.__str__, legal_moves(mover)))


class _Snapshot(NamedTuple):
    """The state a move changes, saved before it for :meth:`Hand.undo`."""

    hands: tuple[int, int]
    stock_count: int
    discard_pile: tuple[Card, ...]
    to_play: int
    phase: Phase
    taken: int
    drawn: int
    result: HandResult | None
    known: tuple[int, int]


_new_snapshot = tuple.__new__


class _SeatLog:
    """What one seat has seen so far, kept move by move: the history as it saw it and the
    cards its opponent took from the pile, passed and discarded (see :class:`SeatKnowledge`)."""

    __slots__ = ("seen", "took", "passed", "discards")

    def __init__(self) -> None:
        self.seen: list[PublicEvent] = []
        self.took: list[Card] = []
        self.passed: list[Card] = []
        self.discards: list[Card] = []

    def copy(self) -> _SeatLog:
        other = _SeatLog()
        other.seen = self.seen[:]
        other.took = self.took[:]
        other.passed = self.passed[:]
        other.discards = self.discards[:]
        return other


class Hand(Verifier):
    """One hand: the deal, the play, and how it ended.

    ``deck`` is the shuffled deck, index 0 on top (dealt as in :func:`deal_order`); without it
    the deck is shuffled from ``seed``. ``dealer`` is seat 0 or 1. ``stock`` is top first.
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
        "result",
        "lean",
        "history",
        "_undo",
        "_logs",
        "_revealed",
        "_known",
    )

    rules: RuleSet
    dealer: int
    deck: tuple[Card, ...]
    hands: list[int]
    stock: list[int]
    #: The pile, bottom first, as the shared :class:`Card` of each card (a view copies it).
    discard_pile: list[Card]
    to_play: int
    phase: Phase
    taken: int
    drawn: int
    upcard: Card
    knock_limit: int
    multiplier: int
    result: HandResult | None
    #: True for a playout's copy: no history, no undo, no seat knowledge beyond ``_known``.
    lean: bool
    history: list[Event]
    _undo: list[_Snapshot]
    # _logs[s]: what seat s has seen (empty in a lean hand); _known[s]: the cards seat s is
    # known (by the other seat) to hold: taken from the pile and not thrown back.
    _logs: tuple[_SeatLog, _SeatLog]
    #: The moves as every seat sees them once the hand is over (each card shown), kept move by
    #: move beside the seats' logs: a finished hand's views read it as it is (empty when lean).
    _revealed: list[PublicEvent]
    _known: list[int]

    def __init__(
        self,
        rules: RulesLike = "traditional",
        *,
        deck: CardsLike | None = None,
        dealer: int = 0,
        seed: int | str | None = None,
    ) -> None:
        seat_number(dealer, "the dealer is seat")
        if seed is not None and not isinstance(seed, (int, str)):
            raise GinRummyError(f"a seed is an int or a string, not {type(seed).__name__}")
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
        h0, h1, up, stock = deal_order(order, dealer)
        self._blank(get_rules(rules), dealer, Card(up))
        self.deck = tuple(Card(c) for c in order)
        self.hands = [h0, h1]
        self.stock = stock
        self.discard_pile = [_CARD_OF[up]]

    def _blank(self, rules: RuleSet, dealer: int, upcard: Card, *, lean: bool = False) -> None:
        """Set every slot: the opening position of a hand dealt ``upcard`` with no cards
        anywhere yet (the one initialiser; the constructors fill in the cards)."""
        self.rules = rules
        self.dealer = dealer
        self.deck = ()
        self.hands = [0, 0]
        self.stock = []
        self.discard_pile = []
        self.to_play = 1 - dealer
        self.phase = OPENING
        self.taken = -1
        self.drawn = -1
        self.upcard = upcard
        self.knock_limit = rules.knock_limit_for(upcard)
        self.multiplier = rules.multiplier_for(upcard)
        self.result = None
        self.lean = lean
        self.history = []
        self._undo = []
        self._logs = (_SeatLog(), _SeatLog())
        self._revealed = []
        self._known = [0, 0]

    def _copy_position(self, lean: bool) -> Hand:
        """A new hand at this position: the cards, the turn and what is known to be held."""
        other = Hand.__new__(Hand)
        other._blank(self.rules, self.dealer, self.upcard, lean=lean)
        other.deck = self.deck
        other.hands = self.hands[:]
        other.stock = self.stock[:]
        other.discard_pile = self.discard_pile[:]
        other.to_play = self.to_play
        other.phase = self.phase
        other.taken = self.taken
        other.drawn = self.drawn
        other.knock_limit = self.knock_limit
        other.multiplier = self.multiplier
        other.result = self.result
        other._known = self._known[:]
        return other

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
        return CardSet.from_mask(self.hands[seat_number(seat)])

    @property
    def top_discard(self) -> Card | None:
        return Card(self.discard_pile[-1]) if self.discard_pile else None

    @property
    def moves(self) -> list[str]:
        """Every move played so far, in order, as text."""
        return [e.text for e in self.history]

    def known_to_hold(self, seat: int) -> int:
        """The mask of cards ``seat`` is known (by the other seat) to hold: taken from the
        discard pile and not thrown back. Kept in lean hands too (playouts read it)."""
        return self._known[seat_number(seat)]

    def knowledge(self, seat: int) -> SeatKnowledge:
        """What ``seat`` knows of the play so far (before the hand ends: the opponent's draws
        and knock discard stay hidden). Equals ``SeatKnowledge.rebuild(history, seat, False)``."""
        seat_number(seat)
        if self.lean:
            raise GinRummyError("a lean hand (a playout's copy) keeps no seat knowledge")
        log = self._logs[seat]
        return SeatKnowledge(
            tuple(log.seen),
            tuple(log.took),
            tuple(log.passed),
            tuple(log.discards),
            self._known[1 - seat],
        )

    def view(self, seat: int) -> PlayerView:
        """What ``seat`` knows now (see :class:`ginrummy.engine.view.PlayerView`): the only place a
        hand's facts are copied out for a seat; the view keeps no reference to the hand.

        Built before every computer move, so built cheaply (issue 14): the seat's record is
        kept move by move (:meth:`knowledge`), the cards come from the shared :class:`Card`
        instances by index, and the view is filled in one step (:meth:`PlayerView._filled`)."""
        seat_number(seat)
        phase = self.phase
        over = phase == OVER
        opponent = 1 - seat
        to_play = self.to_play
        if self.lean:
            if not over:
                raise GinRummyError("a lean hand (a playout's copy) keeps no seat knowledge")
            knows = SeatKnowledge.rebuild(self.history, seat, True)
            history = knows.history
            took = knows.opponent_took
            passed = knows.opponent_passed
            discards = knows.opponent_discards
            known = knows.opponent_known
        else:
            log = self._logs[seat]
            # Once the hand is over every card is revealed: the history is the moves as
            # played (SeatKnowledge.rebuild(history, seat, True)); the rest reads the same.
            history = tuple(self._revealed if over else log.seen)
            took = tuple(log.took)
            passed = tuple(log.passed)
            discards = tuple(log.discards)
            known = self._known[opponent]
        mine = to_play == seat and not over
        return PlayerView._filled(
            seat,
            self.rules,
            self.dealer,
            self.phase,
            to_play,
            self.hands[seat],
            tuple(self.discard_pile),
            len(self.stock),
            self.upcard,
            self.knock_limit,
            self.multiplier,
            _CARD_OF[self.taken] if mine and self.taken >= 0 else None,
            _CARD_OF[self.drawn] if mine and self.drawn >= 0 else None,
            self.hands[opponent].bit_count(),
            known,
            took,
            passed,
            discards,
            history,
            (_FIXED_TEXTS.get(phase) or _legal_texts(self._mover())) if mine else (),
            self.result if over else None,
            self.hands[opponent] if over else None,
        )

    def copy(self) -> Hand:
        """An independent copy, history, undo stack and seat knowledge included."""
        if self.lean:
            return self.lean_copy()
        other = self._copy_position(lean=False)
        other.history = self.history[:]
        other._undo = self._undo[:]
        other._logs = (self._logs[0].copy(), self._logs[1].copy())
        other._revealed = self._revealed[:]
        return other

    def lean_copy(self) -> Hand:
        """A copy at this position for a playout: it plays on by the same rules, through the
        same ``apply_*`` methods, but keeps no history, undo stack or seat knowledge (only
        :meth:`known_to_hold`), so it cannot be undone or viewed."""
        return self._copy_position(lean=True)

    @classmethod
    def determinize(
        cls, view: PlayerView, opponent_mask: int, stock: Sequence[int]
    ) -> Hand:
        """A hand at the position ``view`` describes, with the hidden cards filled in.

        For search by a computer player: ``opponent_mask`` is a guess at the opponent's whole
        hand (it must hold every card the view knows the opponent has, and have as many cards
        as the opponent holds) and ``stock`` a guess at the stock, top card first like
        :attr:`stock`; together they must use exactly the cards the view has not seen.
        Everything else comes from the view, so ``determinize(view, ...).view(view.seat) ==
        view`` (scores and hand number aside, which belong to the match).

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
            raise IllegalMoveError(
                f"the opponent's hand is a card mask, not {shown(opponent_mask)}"
            )
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
        hand._blank(view.rules, view.dealer, view.upcard)
        hands = [0, 0]
        hands[seat] = view.hand_mask
        hands[opponent] = opponent_mask
        hand.hands = hands
        hand.stock = stock_cards
        hand.discard_pile = [_CARD_OF[c] for c in view.discard_pile]
        hand.to_play = view.to_play
        hand.phase = view.phase
        hand.knock_limit = view.knock_limit
        hand.multiplier = view.multiplier
        for e in view.history:
            move = Move.discard(e.card) if e.kind == "discard" and e.card is not None else (
                Move.parse(e.kind)
            )
            hand._record(Event(e.seat, move, e.card))
        # The hidden cards in the history are unknown, whoever looks: keep the view's record.
        hand._logs[seat].seen = list(view.history)
        hand._known[opponent] = known
        hand._known[seat] = SeatKnowledge.rebuild(view.history, opponent, False).opponent_known
        last = view.history[-1] if view.history else None
        if view.phase in (DISCARD, LAST_CHANCE_KNOCK) and last is not None:
            if last.kind == "take" and last.card is not None:
                hand.taken = int(last.card)
            elif last.kind == "draw" and last.card is not None:
                hand.drawn = int(last.card)
        return hand

    # ---------------------------------------------------------------------------------------
    # Legal moves and checking.

    def legal_moves(self) -> list[Move]:
        """Every legal move for the seat to play (empty once the hand is over); each is a
        :class:`~ginrummy.engine.move.Move`, so it also compares equal to its text.

        Knocks are listed once per discard in their default form; a declared arrangement
        (``knock 7h with ...``) is a variant of a listed knock.
        """
        return legal_moves(self._mover())

    def verify(self, move: str | Move) -> Move:
        """The move, parsed, if the seat to play may make it now; otherwise raise
        :class:`IllegalMoveError` with the engine's sentence (the hand is not changed).
        Text that is not a move at all raises :class:`~ginrummy.engine.move.InvalidMoveError`.
        (:meth:`can_play` answers yes or no, :meth:`refusal` gives the sentence.)"""
        parsed = Move.parse(move)
        verify_move(parsed, self._mover())
        return parsed

    def _mover(self) -> Mover:
        pile = self.discard_pile
        return (
            self.phase,
            self.hands[self.to_play],
            pile[-1] if pile else -1,
            self.taken,
            self.knock_limit,
            self.rules,
        )

    # ---------------------------------------------------------------------------------------
    # Playing moves.

    def play(self, move: str | Move) -> Move:
        """Verify and play one move for the seat to play; returns the move as played."""
        parsed = self.verify(move)
        self._apply(parsed)
        return parsed

    def _apply(self, move: Move) -> None:
        """Play a verified move through the ``apply_*`` method of its kind."""
        code = move.code
        if code == DRAW_MOVE:
            self.apply_draw()
        elif code == DISCARD_MOVE:
            assert move.card is not None
            self.apply_discard(int(move.card))
        elif code == TAKE:
            self.apply_take()
        elif code == PASS:
            self.apply_pass()
        elif code == KNOCK:
            assert move.card is not None
            self.apply_knock(int(move.card), move.meld_masks)
        else:
            assert code == BIG_GIN
            self.apply_big_gin()

    # One method per kind of move, each the only place its rules are carried out. They do not
    # check: call them with a move that is legal now (from legal_moves, or after verify).

    def apply_draw(self) -> None:
        """Draw the top card of the stock (draw, or opening_draw after two passes)."""
        if not self.lean:
            self._save()
        seat = self.to_play
        card = self.stock.pop(0)
        self.hands[seat] |= 1 << card
        self.drawn = card
        self.taken = -1
        self.phase = DISCARD
        if not self.lean:
            self._record(played_event(seat, DRAW_MOVE, card))

    def apply_take(self) -> None:
        """Take the top discard (the upcard in the opening; the last discard in the
        last-discard chance, after which the seat must knock)."""
        if not self.lean:
            self._save()
        seat = self.to_play
        card = self.discard_pile.pop()
        self.hands[seat] |= 1 << card
        self._known[seat] |= 1 << card
        self.taken = card
        self.drawn = -1
        self.phase = LAST_CHANCE_KNOCK if self.phase == LAST_CHANCE else DISCARD
        if not self.lean:
            self._record(played_event(seat, TAKE, card))

    def apply_pass(self) -> None:
        """Pass the upcard offer (non-dealer, then dealer; after both the non-dealer draws), or
        the last-discard chance (the hand is cancelled)."""
        if not self.lean:
            self._save()
            self._record(played_event(self.to_play, PASS, self.discard_pile[-1]))
        if self.phase == LAST_CHANCE:
            self._finish(HandResult.cancelled(self.knock_limit, self.multiplier))
        elif self.to_play != self.dealer:
            self.to_play = self.dealer
        else:
            self.to_play = 1 - self.dealer
            self.phase = OPENING_DRAW

    def apply_discard(self, card: int) -> None:
        """Discard ``card``; the turn passes, unless the stock is down to its floor: then the
        hand is cancelled, or the other seat gets the last-discard chance."""
        if not self.lean:
            self._save()
        seat = self.to_play
        self.hands[seat] &= ~(1 << card)
        self._known[seat] &= ~(1 << card)
        self.discard_pile.append(_CARD_OF[card])
        if not self.lean:
            self._record(played_event(seat, DISCARD_MOVE, card))
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

    def apply_knock(self, card: int, melds: Sequence[int] | None = None) -> None:
        """Discard ``card`` face down and knock (gin when nothing is left over), laying down
        ``melds`` (masks) or the engine's arrangement; the hand is scored and over."""
        if not self.lean:
            self._save()
        seat = self.to_play
        rest = self.hands[seat] & ~(1 << card)
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
        if not self.lean:
            if melds is None:
                self._record(played_event(seat, KNOCK, card))
            else:
                self._record(Event(seat, Move.knock(card, tuple(melds)), _CARD_OF[card]))
        self._finish(result)

    def apply_big_gin(self) -> None:
        """Lay down all eleven cards in melds; the hand is scored and over."""
        if not self.lean:
            self._save()
        seat = self.to_play
        result = settle(
            self.hands[seat],
            self.hands[1 - seat],
            self.rules,
            knock_limit=self.knock_limit,
            multiplier=self.multiplier,
            knocker_seat=seat,
        )
        if not self.lean:
            self._record(played_event(seat, BIG_GIN, None))
        self._finish(result)

    def _save(self) -> None:
        """Push what the next move changes onto the undo stack."""
        hands = self.hands
        known = self._known
        # tuple.__new__ builds the named tuple without its Python-level constructor: this runs
        # before every move.
        self._undo.append(
            _new_snapshot(
                _Snapshot,
                (
                    (hands[0], hands[1]),
                    len(self.stock),
                    tuple(self.discard_pile),
                    self.to_play,
                    self.phase,
                    self.taken,
                    self.drawn,
                    self.result,
                    (known[0], known[1]),
                ),
            )
        )

    def _record(self, event: Event) -> None:
        """Append ``event`` to the history and to what each seat has seen of it."""
        self.history.append(event)
        seat = event.seat
        card = event.card
        code = event.move.code
        # The events are the shared ones (PublicEvent is frozen): no event is built here.
        mine = public_event(seat, code, card)
        self._revealed.append(mine)
        self._logs[seat].seen.append(mine)
        other = self._logs[1 - seat]
        hidden = code in (DRAW_MOVE, KNOCK)
        other.seen.append(public_event(seat, code, None) if hidden else mine)
        if card is None:
            return
        if code == TAKE:
            other.took.append(card)
        elif code == PASS:
            other.passed.append(card)
        elif code == DISCARD_MOVE:
            other.discards.append(card)

    def _finish(self, result: HandResult) -> None:
        self.result = result
        self.phase = OVER
        self.taken = -1
        self.drawn = -1

    def undo(self) -> Move:
        """Take back the last move and return it (for search and for review)."""
        if not self._undo:
            raise IllegalMoveError("There is no move to take back.")
        before = self._undo.pop()
        event = self.history.pop()
        self._revealed.pop()
        self._logs[0].seen.pop()
        self._logs[1].seen.pop()
        other = self._logs[1 - event.seat]
        if event.kind == "take":
            other.took.pop()
        elif event.kind == "pass":
            other.passed.pop()
        elif event.kind == "discard":
            other.discards.pop()
        if len(self.stock) < before.stock_count:
            assert event.card is not None
            self.stock.insert(0, int(event.card))
        self.hands = list(before.hands)
        self.discard_pile = list(before.discard_pile)
        self.to_play = before.to_play
        self.phase = before.phase
        self.taken = before.taken
        self.drawn = before.drawn
        self.result = before.result
        self._known = list(before.known)
        return event.move

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
