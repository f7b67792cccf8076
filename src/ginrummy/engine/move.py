"""A move: its kind, its card and the melds a knocker declares, read from and written as the
text notation, and told in words for people. The one place a move's text is read or told.

The notation (``docs/rules.md``, "Move notation") is the wire format of records, the JSON API
and :meth:`ginrummy.engine.hand.Hand.play`:

``take``          take the upcard (opening) or the top discard
``pass``          decline the upcard offer (or the last-discard chance)
``draw``          draw the top card of the stock
``discard 7h``    discard a card
``knock 7h``      discard 7h face down and knock (gin when the rest has no deadwood); the
                  knocker may declare melds: ``knock 7h with 7c7d7s 8h9hTh``
``big gin``       lay down all eleven cards (profiles with big gin only)

A :class:`Move` *is* its canonical text (it subclasses :class:`str`), so it compares equal to,
hashes like and prints as ``"discard 7h"``; code inside the package reads its fields instead of
splitting the text.

>>> m = Move.parse("  Discard 10H ")
>>> m, m.kind, m.card, m == "discard Th"
(Move.parse('discard Th'), 'discard', Card.parse('Th'), True)
>>> Move.parse("knock 7h with 7c-7d-7s 8h9hTh").melds
(CardSet('7c7d7s'), CardSet('8h9hTh'))
>>> Move.parse("knock 7h").words(deadwood=6)
'knock with 6, discarding the 7♥'
>>> narrate("Computer", "take", "7♥", upcard=True)
'Computer took the upcard 7♥'
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Literal

from .cards import CARD_TEXT, FULL_DECK, Card, CardSet, mask_text, parse_cards, shown
from .errors import IllegalMoveError, InvalidCardError
from .settle import parse_melds

__all__ = [
    "BIG_GIN",
    "DISCARD",
    "DRAW",
    "InvalidMoveError",
    "KIND_NAMES",
    "KNOCK",
    "Move",
    "MoveKind",
    "PASS",
    "TAKE",
    "narrate",
    "past_tense",
    "upcard_offer",
]

MoveKind = Literal["take", "pass", "draw", "discard", "knock", "big gin"]

#: Move kinds as small ints (the engine's hot paths compare these), in notation order.
TAKE, PASS, DRAW, DISCARD, KNOCK, BIG_GIN = range(6)
#: The kind names, indexed by the codes above.
KIND_NAMES: tuple[MoveKind, ...] = ("take", "pass", "draw", "discard", "knock", "big gin")


class InvalidMoveError(IllegalMoveError):
    """Text that is not a move at all (bad syntax), as opposed to a move the rules forbid.

    A subclass of :class:`~ginrummy.engine.errors.IllegalMoveError`, so code that catches that keeps
    catching both.
    """


class Move(str):
    """One move, immutable: ``kind``, ``card`` (``None`` for take, pass, draw and big gin) and
    ``melds`` (the declared melds of a knock, ``None`` when the knocker lets the engine lay out
    its best arrangement). ``code`` is the kind as an int (:data:`TAKE` ... :data:`BIG_GIN`).

    Build one with :meth:`parse`, :meth:`of`, :meth:`discard` or :meth:`knock`; the text is
    always canonical (``discard Th``, not ``discard 10h``). Moves without declared melds exist
    once each, so building them allocates nothing.
    """

    kind: MoveKind
    code: int
    card: Card | None
    meld_masks: tuple[int, ...] | None

    def __new__(
        cls, text: str, code: int, card: int | None, meld_masks: tuple[int, ...] | None
    ) -> Move:
        self = super().__new__(cls, text)
        object.__setattr__(self, "kind", KIND_NAMES[code])
        object.__setattr__(self, "code", code)
        object.__setattr__(self, "card", None if card is None else Card(card))
        object.__setattr__(self, "meld_masks", meld_masks)
        return self

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("a Move cannot be changed")

    def __reduce__(self) -> tuple[Any, ...]:
        return (Move.parse, (str(self),))

    def __repr__(self) -> str:
        return f"Move.parse({str(self)!r})"

    def __str__(self) -> str:
        return str.__str__(self)

    # Building.

    # The builders take the engine's own values: a card is an int 0..51 (a Card is one; True
    # and -1 are not), a declared meld an int mask of cards or a CardSet. Anything else raises
    # InvalidMoveError, never an IndexError, and never silently names another card.

    @classmethod
    def of(
        cls, kind: MoveKind, card: int | None = None, melds: tuple[int, ...] | None = None
    ) -> Move:
        """The move of ``kind`` (with ``card`` for discards and knocks, and a knock's declared
        ``melds`` as masks)."""
        if not isinstance(kind, str) or kind not in KIND_NAMES:
            raise InvalidMoveError(
                f"{shown(kind)} is not a kind of move; the kinds are "
                + ", ".join(KIND_NAMES)
            )
        code = KIND_NAMES.index(kind)
        if code in (DISCARD, KNOCK):
            index = _card_index(card, kind)
            if code == KNOCK and melds:
                return _knock_with(index, _meld_masks(melds))
            return _CARDED[code][index]
        if card is not None or melds:
            raise InvalidMoveError(f"'{kind}' names no card")
        return _PLAIN[code]

    @classmethod
    def discard(cls, card: int) -> Move:
        """The discard of ``card`` (an int 0..51)."""
        if card.__class__ is not int or not 0 <= card < 52:
            card = _card_index(card, "discard")
        return _CARDED[DISCARD][card]

    @classmethod
    def knock(cls, card: int, melds: tuple[int, ...] | None = None) -> Move:
        """The knock discarding ``card`` (an int 0..51), with ``melds`` (masks) declared."""
        if card.__class__ is not int or not 0 <= card < 52:
            card = _card_index(card, "knock")
        if melds:
            return _knock_with(card, _meld_masks(melds))
        return _CARDED[KNOCK][card]

    @classmethod
    def parse(cls, text: str | Move) -> Move:
        """The move ``text`` names, in any spelling the notation allows (any case, extra
        spaces, ``10h`` for ``Th``, suit symbols). Raises :class:`InvalidMoveError` with the
        text quoted when it is not a move."""
        if isinstance(text, Move):
            return text
        if not isinstance(text, str):
            raise InvalidMoveError(
                f"A move is text such as 'draw' or 'discard 7h', not {shown(text)}."
            )
        hit = _BY_TEXT.get(text)
        if hit is not None:
            return hit
        # Words are compared in ASCII lower case only: str.lower() would turn look-alikes such
        # as the Kelvin sign into 'k'. Cards go to parse_cards as typed (it ignores case).
        words = text.split()
        if not words:
            raise InvalidMoveError("Empty move: try 'draw', 'take', 'pass' or 'discard 7h'.")
        verb = _word(words[0])
        if verb in ("take", "pass", "draw") and len(words) == 1:
            return _BY_TEXT[verb]
        if verb == "big" and len(words) == 2 and _word(words[1]) == "gin":
            return _PLAIN[BIG_GIN]
        if verb in ("discard", "knock") and len(words) >= 2:
            try:
                card_list = parse_cards(words[1])
            except InvalidCardError as exc:
                raise InvalidMoveError(f"{shown(text)}: {exc}") from None
            if len(card_list) != 1:
                raise InvalidMoveError(f"{shown(text)}: name exactly one card to {verb}")
            card = int(card_list[0])
            if verb == "discard":
                if len(words) != 2:
                    raise InvalidMoveError(f"{shown(text)}: a discard names just one card")
                return _CARDED[DISCARD][card]
            if len(words) == 2:
                return _CARDED[KNOCK][card]
            if _word(words[2]) != "with" or len(words) == 3:
                raise InvalidMoveError(
                    f"{shown(text)}: declare melds as 'knock 7h with 7c7d7s 8h9hTh'"
                )
            try:
                melds = parse_melds(" ".join(words[3:]))
            except InvalidCardError as exc:
                raise InvalidMoveError(f"{shown(text)}: {exc}") from None
            if not melds:  # "knock 7h with |": the text would not parse back
                raise InvalidMoveError(
                    f"{shown(text)}: name the melds after 'with' "
                    "('knock 7h with 7c7d7s 8h9hTh'), or leave out 'with'"
                )
            return _knock_with(card, tuple(melds))
        raise InvalidMoveError(
            f"{shown(text)} is not a move; moves are take, pass, draw, discard <card>, "
            "knock <card> and big gin."
        )

    # Reading.

    @property
    def melds(self) -> tuple[CardSet, ...] | None:
        """The declared melds as card sets (``None`` when none were declared)."""
        if self.meld_masks is None:
            return None
        return tuple(CardSet.from_mask(m) for m in self.meld_masks)

    @property
    def text(self) -> str:
        """The canonical text (the move itself, as a plain ``str``)."""
        return str.__str__(self)

    @property
    def is_draw(self) -> bool:
        """True for the moves that pick up a card: take and draw."""
        return self.code == TAKE or self.code == DRAW

    @property
    def goes_out(self) -> bool:
        """True for the moves that end the hand by laying down: knock (gin included), big gin."""
        return self.code == KNOCK or self.code == BIG_GIN

    @property
    def plain(self) -> Move:
        """This move without declared melds (a knock's default form; other moves unchanged)."""
        if self.meld_masks is None or self.card is None:
            return self
        return _CARDED[KNOCK][int(self.card)]

    # Telling.

    def words(
        self,
        *,
        top: Card | None = None,
        deadwood: int | None = None,
        last_chance: bool = False,
    ) -> str:
        """This move in words from the mover's side, as the coach, the lessons and the tables
        say it: ``take the 9♠``, ``draw from the stock``, ``discard the 7♦``, ``knock with 6,
        discarding the 7♦``, ``go gin, discarding the 7♦``.

        ``top`` is the top discard (named by take and pass), ``deadwood`` the knocker's
        deadwood after the discard (a knock is told as gin when it is 0), ``last_chance`` says
        a pass declines the last-discard chance.

        >>> [Move.parse(m).words() for m in ("take", "pass", "big gin", "knock 7h with 7c7d7s")]
        ['take the card', 'pass', 'go big gin', 'knock, discarding the 7♥, laying down 7c7d7s']
        """
        code = self.code
        if code == TAKE:
            return f"take the {top.symbol()}" if top is not None else "take the card"
        if code == PASS:
            if last_chance:
                return "pass the last discard"
            return f"pass the {top.symbol()}" if top is not None else "pass"
        if code == DRAW:
            return "draw from the stock"
        if code == BIG_GIN:
            return "go big gin"
        assert self.card is not None
        card = self.card.symbol()
        if code == DISCARD:
            return f"discard the {card}"
        if deadwood == 0:
            text = f"go gin, discarding the {card}"
        elif deadwood is not None:
            text = f"knock with {deadwood}, discarding the {card}"
        else:
            text = f"knock, discarding the {card}"
        if self.meld_masks is not None:
            text += ", laying down " + " ".join(mask_text(m) for m in self.meld_masks)
        return text


def narrate(
    actor: str,
    kind: str,
    card: str | None,
    *,
    upcard: bool = False,
    last_chance: bool = False,
) -> str:
    """A move that happened, told from the table (past tense, no full stop): ``Computer took
    7♥ from the discard pile``, ``You drew from the stock``, ``Anna knocked, discarding 7♥ face
    down``. ``card`` is the card's text as the caller shows it (``None`` where it was hidden),
    ``upcard`` says a take or pass was of the first upcard, ``last_chance`` that a pass
    declined the last-discard chance.

    >>> narrate("You", "draw", None), narrate("Anna", "knock", None)
    ('You drew from the stock', 'Anna knocked, discarding face down')
    """
    return f"{actor} {past_tense(kind, card, upcard=upcard, last_chance=last_chance)}"


def past_tense(
    kind: str,
    card: str | None,
    *,
    upcard: bool = False,
    last_chance: bool = False,
) -> str:
    """:func:`narrate` without the actor, for joining a second move to the first (``Computer
    drew from the stock and discarded 9♣``).

    >>> past_tense("take", "7♥", upcard=True), past_tense("pass", "7♥", last_chance=True)
    ('took the upcard 7♥', 'passed on the last discard 7♥')
    """
    if kind == "take":
        if upcard:
            return f"took the upcard {card}"
        return f"took {card} from the discard pile"
    if kind == "pass":
        if last_chance:
            return f"passed on the last discard {card}"
        if upcard:
            return f"passed the upcard {card}"
        return f"passed on {card}"
    if kind == "draw":
        return f"drew {card}" if card else "drew from the stock"
    if kind == "discard":
        return f"discarded {card or 'a card'}"
    if kind == "knock":
        return f"knocked, discarding {card + ' ' if card else ''}face down"
    if kind == "big gin":
        return "went big gin"
    raise InvalidMoveError(f"{shown(kind)} is not a kind of move")


def upcard_offer(earlier: Iterable[str]) -> bool:
    """True when a move made after moves of the kinds ``earlier`` (the hand so far) is part of
    the upcard offer: nobody has drawn or discarded yet. A take or pass then is of the upcard;
    a pass later declines the last-discard chance.

    >>> upcard_offer(["pass"]), upcard_offer(["pass", "pass", "draw", "discard"])
    (True, False)
    """
    return not any(kind == "draw" or kind == "discard" for kind in earlier)


def _word(word: str) -> str:
    """A word of a move in lower case when it is ASCII; any other word as it is (it matches
    no keyword)."""
    return word.lower() if word.isascii() else word


def _card_index(card: object, kind: str) -> int:
    """``card`` as the index a ``kind`` (discard or knock) names, or :class:`InvalidMoveError`."""
    if isinstance(card, int) and not isinstance(card, bool) and 0 <= card < 52:
        return int(card)
    raise InvalidMoveError(f"a {kind} names one card, an int from 0 to 51, not {shown(card)}")


def _meld_masks(melds: object) -> tuple[int, ...]:
    """A knock's declared melds as a tuple of int masks (a CardSet gives its mask), or
    :class:`InvalidMoveError`."""
    if isinstance(melds, (str, bytes)) or not isinstance(melds, Iterable):
        raise InvalidMoveError(
            f"a knock's declared melds are a sequence of card masks, not {shown(melds)}"
        )
    masks: list[int] = []
    for meld in melds:
        if isinstance(meld, CardSet):
            meld = meld.mask
        if not (isinstance(meld, int) and not isinstance(meld, bool) and 0 < meld <= FULL_DECK):
            raise InvalidMoveError(
                f"{shown(meld)} is not a declared meld (a nonzero 52-bit mask of cards)"
            )
        masks.append(int(meld))
    return tuple(masks)


def _knock_with(card: int, melds: tuple[int, ...]) -> Move:
    text = f"knock {CARD_TEXT[card]} with " + " ".join(mask_text(m) for m in melds)
    return Move(text, KNOCK, card, melds)


# Every move without declared melds exists once, made at import: parsing canonical text and
# listing legal moves are dict and tuple lookups.
_PLAIN: dict[int, Move] = {
    code: Move(KIND_NAMES[code], code, None, None) for code in (TAKE, PASS, DRAW, BIG_GIN)
}
_CARDED: dict[int, tuple[Move, ...]] = {
    code: tuple(Move(f"{KIND_NAMES[code]} {CARD_TEXT[c]}", code, c, None) for c in range(52))
    for code in (DISCARD, KNOCK)
}
_BY_TEXT: dict[str, Move] = {str(m): m for m in _PLAIN.values()}
for _moves in _CARDED.values():
    _BY_TEXT.update((str(m), m) for m in _moves)
