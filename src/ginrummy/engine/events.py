"""The words of a hand's story: its phases, the moves as they happened (:class:`Event`), the
moves as one seat saw them (:class:`PublicEvent`) and what one seat knows
(:class:`SeatKnowledge`).

A low module: :mod:`ginrummy.engine.hand` writes these, :mod:`ginrummy.engine.view` and the players
read them, and neither reader needs the hand itself.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal, NamedTuple

from .cards import Card
from .move import DISCARD as DISCARD_MOVE
from .move import KIND_NAMES, KNOCK, Move, MoveKind

__all__ = [
    "DISCARD",
    "DRAW",
    "Event",
    "LAST_CHANCE",
    "LAST_CHANCE_KNOCK",
    "OPENING",
    "OPENING_DRAW",
    "OVER",
    "Phase",
    "PublicEvent",
    "SeatKnowledge",
    "played_event",
    "public_event",
]

#: Where a hand stands: ``opening`` (the upcard is offered, non-dealer first), ``opening_draw``
#: (both passed it: the non-dealer draws from the stock), ``draw`` (take the top discard or
#: draw), ``discard`` (eleven cards: discard, knock or big gin), ``last_chance`` (the stock is
#: down to its floor: take the last discard only to knock, or pass and the hand is cancelled),
#: ``last_chance_knock`` (took it: knock or big gin now) and ``over``.
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


@dataclass(frozen=True, slots=True)
class Event:
    """One move as it happened: who played it, the :class:`~ginrummy.engine.move.Move`, and the card
    involved.

    ``card`` is the card taken, passed, drawn, discarded or knocked with (``None`` for big gin).
    A drawn card and a knock discard are private until the hand ends; views hide them.
    """

    seat: int
    move: Move
    card: Card | None

    @property
    def kind(self) -> MoveKind:
        return self.move.kind

    @property
    def text(self) -> str:
        """The move's canonical text, as records write it."""
        return self.move.text


@dataclass(frozen=True, slots=True)
class PublicEvent:
    """A move as one seat saw it: ``card`` is ``None`` where the card was hidden from it
    (the opponent's stock draws, and a knock discard until the hand is over)."""

    seat: int
    kind: str
    card: Card | None


# The events of moves without declared melds, made once at import: they are frozen, so one
# instance serves every hand (a hand records an event and one or two public events at every
# move, and a finished hand's views hold them all). Both tables are indexed by
# ``(seat * _KINDS + code) * 53 + card``, with 52 for no card.
_KINDS = len(KIND_NAMES)
_PUBLIC_EVENTS: tuple[PublicEvent, ...] = tuple(
    PublicEvent(seat, KIND_NAMES[code], None if c == 52 else Card(c))
    for seat in (0, 1)
    for code in range(_KINDS)
    for c in range(53)
)
#: Discards and knocks always have their card (the move names it): no entry without one.
_PLAYED_EVENTS: dict[int, Event] = {
    (seat * _KINDS + code) * 53 + c: Event(
        seat,
        Move.of(KIND_NAMES[code], c if code in (DISCARD_MOVE, KNOCK) else None),
        None if c == 52 else Card(c),
    )
    for seat in (0, 1)
    for code in range(_KINDS)
    for c in range(52 if code in (DISCARD_MOVE, KNOCK) else 53)
}


def public_event(seat: int, code: int, card: int | None) -> PublicEvent:
    """The shared ``PublicEvent(seat, KIND_NAMES[code], card)``: ``seat`` 0 or 1, ``code`` a
    move kind's code (:data:`ginrummy.engine.move.TAKE` ...), ``card`` a card index or ``None``."""
    return _PUBLIC_EVENTS[(seat * _KINDS + code) * 53 + (52 if card is None else card)]


def played_event(seat: int, code: int, card: int | None) -> Event:
    """The shared ``Event(seat, move, card)`` of the move of kind ``code`` without declared
    melds (``Move.of(KIND_NAMES[code])``, or of ``card`` for a discard or a knock): ``card``
    is the card involved, a card index, or ``None`` (big gin)."""
    return _PLAYED_EVENTS[(seat * _KINDS + code) * 53 + (52 if card is None else card)]


class SeatKnowledge(NamedTuple):
    """What one seat knows of the play (RULES.md, "What a seat knows"): the history as it saw
    it, the cards the opponent took from the pile, passed as upcard offers and discarded (in
    order), and ``opponent_known``, the mask of cards known to be in the opponent's hand (taken
    from the pile and not thrown back).

    A hand keeps these facts move by move (:meth:`ginrummy.engine.hand.Hand.knowledge`);
    :meth:`rebuild` works them out from scratch, and the two must agree.
    """

    history: tuple[PublicEvent, ...]
    opponent_took: tuple[Card, ...]
    opponent_passed: tuple[Card, ...]
    opponent_discards: tuple[Card, ...]
    opponent_known: int

    @classmethod
    def rebuild(
        cls, events: Iterable[Event | PublicEvent], seat: int, over: bool
    ) -> SeatKnowledge:
        """From scratch: what ``seat`` knows after ``events`` (everything is revealed once the
        hand is ``over``). The events may be a seat's own record of the play (its view's
        history): its takes and discards are all in it."""
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
        return cls(tuple(history), tuple(took), tuple(passed), tuple(discards), known)
