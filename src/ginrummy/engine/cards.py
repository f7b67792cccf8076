"""Cards as small ints, sets of cards as 52-bit ints, and the text people type for them.

A :class:`Card` is an ``int`` from 0 to 51: ``suit * 13 + rank`` with suits in bridge order
(clubs 0, diamonds 1, hearts 2, spades 3) and ranks from ace (0) to king (12). Each suit is
therefore a block of 13 consecutive bits in a mask, so a run is a run of consecutive bits.

A :class:`CardSet` wraps such a mask and offers the whole ``set`` API. The engine itself works on
plain int masks; ``CardSet`` and ``Card`` are the readable faces shown to callers.

>>> parse_cards("7h 10♥, Qs")
[Card.parse('7h'), Card.parse('Th'), Card.parse('Qs')]
>>> CardSet("9h 8h 7h")
CardSet('7h8h9h')

The geometry of the deck, as tables computed once: :data:`CARD_VALUE` (deadwood points per
card), :data:`RANK_MASK` (the four cards of a rank) and :data:`SUIT_MASK` (one suit's 13 bits,
shifted by ``13 * suit``).

>>> CARD_VALUE[Card.parse("7h")], CARD_VALUE[Card.parse("Ac")], CARD_VALUE[Card.parse("Qs")]
(7, 1, 10)
>>> mask_text(RANK_MASK[Card.parse("7h").rank])
'7c7d7h7s'
>>> mask_text(SUIT_MASK << 13 * Card.parse("7h").suit)
'Ah2h3h4h5h6h7h8h9hThJhQhKh'
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Iterator
from typing import Any, Final, TypeAlias

from mypy_extensions import mypyc_attr

from .errors import InvalidCardError

__all__ = [
    "Card",
    "CardSet",
    "CardsLike",
    "parse_cards",
    "to_cards",
    "to_mask",
    "mask_of",
    "cards_of_mask",
    "card_value",
    "CARD_VALUE",
    "RANK_MASK",
    "RANK_CHARS",
    "SUIT_CHARS",
    "SUIT_SYMBOLS",
    "FULL_DECK",
    "SUIT_MASK",
    "CARD_TEXT",
    "mask_text",
]

RANK_CHARS = "A23456789TJQK"
SUIT_CHARS = "cdhs"
SUIT_SYMBOLS = "♣♦♥♠"
RANK_NAMES = (
    "ace", "two", "three", "four", "five", "six", "seven",
    "eight", "nine", "ten", "jack", "queen", "king",
)
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
#: Every card of the deck as a mask.
FULL_DECK: Final = (1 << 52) - 1
#: The 13 bits of one suit, at the bottom of a mask.
SUIT_MASK: Final = (1 << 13) - 1

#: Deadwood value of each card index (ace 1, two to ten face value, J/Q/K 10): the one table
#: every module reads instead of working it out again.
CARD_VALUE: Final[tuple[int, ...]] = tuple(min(i % 13 + 1, 10) for i in range(52))

#: ``RANK_MASK[r]``: the four cards of rank ``r`` (0 ace .. 12 king) as a mask, one bit per
#: suit block.
RANK_MASK: Final[tuple[int, ...]] = tuple(0x0008004002001 << r for r in range(13))


def card_value(card: int) -> int:
    """Deadwood points of one card: ace 1, 2-10 their number, J/Q/K 10."""
    return CARD_VALUE[card]


@mypyc_attr(native_class=False)  # compiled, a class cannot derive from int
class Card(int):
    """One playing card, an ``int`` 0..51 (``suit * 13 + rank``) with readable text.

    Use :meth:`parse` for text and ``Card(index)`` for an index; both return shared instances.
    """

    __slots__ = ()

    def __new__(cls, index: object) -> Card:
        # Checked explicitly: tuple indexing alone would accept -1 (the king of spades) and
        # True (the two of clubs).
        if isinstance(index, int) and not isinstance(index, bool) and 0 <= index < 52:
            return _CARDS[index]
        raise InvalidCardError(f"{shown(index)} is not a card index (0 to 51)")

    @classmethod
    def _make(cls, index: int) -> Card:
        return int.__new__(cls, index)

    @classmethod
    def parse(cls, text: object) -> Card:
        """The card named by one token such as ``7h``, ``10♥``, ``Th`` or ``ah``."""
        cards = parse_cards(text)
        if len(cards) != 1:
            raise InvalidCardError(f"{shown(text)} is not exactly one card")
        return cards[0]

    @property
    def rank(self) -> int:
        """0 for an ace up to 12 for a king."""
        return int(self) % 13

    @property
    def suit(self) -> int:
        """0 clubs, 1 diamonds, 2 hearts, 3 spades."""
        return int(self) // 13

    @property
    def value(self) -> int:
        """Deadwood points: ace 1, 2-10 face value, J/Q/K 10."""
        return CARD_VALUE[self]

    @property
    def mask(self) -> int:
        """This card as a one-bit mask."""
        return 1 << int(self)

    @property
    def name(self) -> str:
        """What a screen reader says: ``"seven of hearts"``."""
        return f"{RANK_NAMES[self.rank]} of {SUIT_NAMES[self.suit]}"

    def symbol(self) -> str:
        """Text with a suit symbol and ``10`` for ten: ``"10♥"``."""
        rank = "10" if self.rank == 9 else RANK_CHARS[self.rank]
        return rank + SUIT_SYMBOLS[self.suit]

    def __str__(self) -> str:
        return CARD_TEXT[self]

    def __repr__(self) -> str:
        return f"Card.parse({CARD_TEXT[self]!r})"


_CARDS: Final[tuple[Card, ...]] = tuple(Card._make(i) for i in range(52))
CARD_TEXT: Final[tuple[str, ...]] = tuple(
    RANK_CHARS[i % 13] + SUIT_CHARS[i // 13] for i in range(52)
)

_RANK_LOOKUP = {c: i for i, c in enumerate(RANK_CHARS)}
_SUIT_LOOKUP = {c: i for i, c in enumerate(SUIT_CHARS)}
_SUIT_LOOKUP.update({c: i for i, c in enumerate(SUIT_SYMBOLS)})
_SUIT_LOOKUP.update({c: i for i, c in enumerate("♧♢♡♤")})
# re.ASCII: ignoring case without it also matches look-alikes such as the long s (U+017F) and
# the Kelvin sign (U+212A), which name no card and are in no lookup table.
_CARD_RE = re.compile(r"(10|[2-9TJQKA])([CDHS♣♦♥♠♧♢♡♤])", re.IGNORECASE | re.ASCII)
_SEPARATORS = re.compile(r"[\s,]+")

CardsLike: TypeAlias = str | Iterable[int | str]
"""What the API accepts wherever it takes cards: text, or an iterable of cards, ints or text."""

# Fast paths (issue 14): the common inputs -- a list or tuple of card ints, Cards or
# one-card texts, and text of space-separated tokens -- go through one dict lookup per card.
# Anything these tables do not cover (back-to-back cards, odd separators, bad cards,
# duplicates, other types) falls back to the general code below, which gives every error.

#: Every spelling of one card that :func:`parse_cards` accepts as a lone token -> the card.
_TOKEN_CARD: dict[str, Card] = {}
for _suit, _suit_forms in enumerate(
    zip(SUIT_CHARS, SUIT_CHARS.upper(), SUIT_SYMBOLS, "♧♢♡♤", strict=True)
):
    for _rank, _rank_char in enumerate(RANK_CHARS):
        _rank_forms = {_rank_char, _rank_char.lower()} | ({"10"} if _rank == 9 else set())
        for _r in _rank_forms:
            for _s in _suit_forms:
                _TOKEN_CARD[_r + _s] = _CARDS[_suit * 13 + _rank]
del _suit, _suit_forms, _rank, _rank_char, _rank_forms, _r, _s
#: Every one-card token :func:`parse_cards` accepts -> the card's bit (``"7h"``, ``"10♥"``,
#: ``"qs"``...). Never changed.
TEXT_BIT: Final[dict[str, int]] = {t: 1 << c for t, c in _TOKEN_CARD.items()}


#: The longest quotation of a person's input an error message makes (see :func:`shown`).
SHOWN_LIMIT = 60


def shown(value: object) -> str:
    """``repr(value)`` for an error message, cut to :data:`SHOWN_LIMIT` characters and an
    ellipsis when longer, so a huge input does not make a huge message.

    >>> shown("7h"), shown("7h" * 50)[-5:]
    ("'7h'", 'h7h7…')
    """
    try:
        text = repr(value)
    except ValueError:  # an int too long to print (sys.get_int_max_str_digits)
        return f"an {type(value).__name__} too long to show"
    return text if len(text) <= SHOWN_LIMIT else text[:SHOWN_LIMIT] + "…"


def fast_mask(cards: object) -> int:
    """The mask of ``cards`` when they are in a common form -- text of space- or
    comma-separated tokens, or a list or tuple of card ints, Cards or one-card texts -- all
    valid and no card twice; -1 otherwise (the caller then takes the general path, which
    explains what is wrong).

    Written as plain loops for the compiled core (ginrummy/engine/native.py), where each step is a
    C operation on a typed value."""
    items: list[Any]
    if type(cards) is list:
        items = cards
    elif type(cards) is str:
        items = (cards.replace(",", " ") if "," in cards else cards).split()
    elif type(cards) is tuple:
        items = list(cards)
    else:
        return -1
    mask = 0
    for item in items:
        if isinstance(item, str):
            bit = TEXT_BIT.get(item, 0)
        elif isinstance(item, int) and not isinstance(item, bool) and 0 <= item < 52:
            bit = 1 << item
        else:
            return -1
        if not bit or mask & bit:  # not a card, or a card twice
            return -1
        mask |= bit
    return mask


def _parse_chunk(chunk: str, out: list[Card]) -> None:
    pos = 0
    while pos < len(chunk):
        m = _CARD_RE.match(chunk, pos)
        if m is None:
            bad = chunk[pos:] if pos else chunk
            raise InvalidCardError(
                f"{shown(bad)} is not a card{_look_alike(bad)} "
                "(write cards like 7h, 10♥, Th or qs)",
                token=bad,
            )
        rank_text = m.group(1).upper()
        rank = 9 if rank_text == "10" else _RANK_LOOKUP[rank_text]
        suit = _SUIT_LOOKUP[m.group(2).lower()]
        out.append(_CARDS[suit * 13 + rank])
        pos = m.end()


def _look_alike(bad: str) -> str:
    """Names the first character of ``bad`` that is neither ASCII nor a suit symbol, such as
    the Kelvin sign, which prints like a K (for the message; empty when there is none)."""
    for char in bad[:SHOWN_LIMIT]:
        if not char.isascii() and char not in _SUIT_LOOKUP:
            name = unicodedata.name(char, "")
            return f": {char!r} (U+{ord(char):04X}{' ' + name if name else ''}) is no rank or suit"
    return ""


def parse_cards(text: object) -> list[Card]:
    """Every card named in ``text``, in order; separators are spaces and commas.

    Cards may also be written back to back (``7h8h9h``). Raises :class:`InvalidCardError`
    naming the first token that is not a card.
    """
    if not isinstance(text, str):
        raise InvalidCardError(f"expected card text, got {type(text).__name__}")
    cards = _TOKEN_CARD
    out: list[Card] = []
    for token in (text.replace(",", " ") if "," in text else text).split():
        card = cards.get(token)
        if card is None:  # not one card per token: the general way, which says what is wrong
            return _parse_text(text)
        out.append(card)
    return out


def _parse_text(text: str) -> list[Card]:
    """:func:`parse_cards` the general way (what the fast path must agree with)."""
    out: list[Card] = []
    for chunk in _SEPARATORS.split(text.strip()):
        if chunk:
            _parse_chunk(chunk, out)
    return out


def to_cards(cards: CardsLike) -> list[Card]:
    """Any accepted form of cards as a list of :class:`Card` (duplicates kept, order kept)."""
    if isinstance(cards, str):
        return parse_cards(cards)
    if isinstance(cards, CardSet):
        return list(cards)
    if isinstance(cards, int):
        raise InvalidCardError(
            f"expected several cards, got the single int {shown(cards)}; wrap it in a list"
        )
    out: list[Card] = []
    try:  # items typed object: compiled code would check a narrower type and raise TypeError
        items: Iterator[object] = iter(cards)
    except TypeError:
        raise InvalidCardError(f"expected cards, got {type(cards).__name__}") from None
    for item in items:
        if isinstance(item, str):
            out.extend(parse_cards(item))
        elif isinstance(item, int) and not isinstance(item, bool):
            out.append(Card(item))
        else:
            raise InvalidCardError(f"{shown(item)} is not a card")
    return out


def to_mask(cards: CardsLike, *, what: str = "cards") -> int:
    """Cards as a mask; a card given twice raises :class:`InvalidCardError`."""
    if isinstance(cards, CardSet):
        return cards.mask
    mask = fast_mask(cards)
    return mask if mask >= 0 else _checked_mask(cards, what)


def _checked_mask(cards: CardsLike, what: str) -> int:
    """:func:`to_mask` the general way, card by card (what the fast path must agree with)."""
    mask = 0
    for card in to_cards(cards):
        bit = 1 << card
        if mask & bit:
            raise InvalidCardError(f"{card} appears twice in the {what}")
        mask |= bit
    return mask


def mask_of(cards: Iterable[int]) -> int:
    """Mask of card indices (no checks; for the engine's inner loops)."""
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def cards_of_mask(mask: int) -> list[Card]:
    """The cards of a mask, lowest index first."""
    out: list[Card] = []
    while mask:
        low = mask & -mask
        out.append(_CARDS[low.bit_length() - 1])
        mask ^= low
    return out


def mask_text(mask: int) -> str:
    """Cards of a mask as compact text, ``7h8h9h``."""
    return "".join(CARD_TEXT[c] for c in cards_of_mask(mask))


@mypyc_attr(native_class=False)  # compiled too, it stays an ordinary class
class CardSet:
    """A set of cards backed by a 52-bit int, with the full ``set`` API.

    Iteration yields :class:`Card` objects from the lowest index (clubs, ace first) upward.

    Every method and operator that takes other cards (``union``, ``|``, ``issubset``, ``<=``,
    ``update`` ...) takes them in any form :func:`to_mask` accepts, and raises
    :class:`InvalidCardError` for anything else (``CardSet() | 5``, ``issubset(None)``). An
    update in place that raises leaves the set as it was. ``in`` answers ``False`` for
    anything that is not a card (``True``, ``-1``, ``"zz"``), as a ``set`` of cards would.
    """

    __slots__ = ("mask",)

    mask: int

    def __init__(self, cards: CardsLike = ()) -> None:
        self.mask = to_mask(cards) if not isinstance(cards, int) else to_mask([cards])

    @classmethod
    def from_mask(cls, mask: object) -> CardSet:
        """A set from a mask of card bits."""
        if not (mask.__class__ is int and 0 <= mask <= FULL_DECK) and (
            isinstance(mask, bool) or not isinstance(mask, int) or mask < 0 or mask > FULL_DECK
        ):
            raise InvalidCardError(f"{shown(mask)} is not a 52-bit card mask")
        out = cls.__new__(cls)
        out.mask = mask
        return out

    @classmethod
    def _coerce(cls, other: object) -> int:
        if isinstance(other, CardSet):
            return other.mask
        if isinstance(other, (str, Iterable)):
            return to_mask(other)
        raise InvalidCardError(
            f"expected cards to combine with a CardSet, got {type(other).__name__}"
        )

    # Reading.
    def __contains__(self, card: object) -> bool:
        if isinstance(card, str):
            try:
                card = Card.parse(card)
            except InvalidCardError:
                return False
        if isinstance(card, int) and not isinstance(card, bool) and 0 <= card < 52:
            return bool(self.mask >> card & 1)
        return False

    def __iter__(self) -> Iterator[Card]:
        return iter(cards_of_mask(self.mask))

    def __reversed__(self) -> Iterator[Card]:
        return iter(cards_of_mask(self.mask)[::-1])

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __bool__(self) -> bool:
        return bool(self.mask)

    def __int__(self) -> int:
        return self.mask

    def __index__(self) -> int:
        return self.mask

    def __eq__(self, other: object) -> bool:
        if isinstance(other, CardSet):
            return self.mask == other.mask
        if isinstance(other, (set, frozenset)):
            try:
                return self.mask == to_mask(other)
            except (InvalidCardError, TypeError):
                return False
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __str__(self) -> str:
        return mask_text(self.mask)

    def __repr__(self) -> str:
        return f"CardSet({mask_text(self.mask)!r})"

    @property
    def deadwood_value(self) -> int:
        """Sum of the card values (as if none were melded)."""
        return sum(CARD_VALUE[c] for c in cards_of_mask(self.mask))

    def copy(self) -> CardSet:
        return CardSet.from_mask(self.mask)

    # Comparisons.
    def issubset(self, other: object) -> bool:
        return self.mask & ~self._coerce(other) == 0

    def issuperset(self, other: object) -> bool:
        return self._coerce(other) & ~self.mask == 0

    def isdisjoint(self, other: object) -> bool:
        return self.mask & self._coerce(other) == 0

    def __le__(self, other: object) -> bool:
        return self.mask & ~self._coerce(other) == 0

    def __lt__(self, other: object) -> bool:
        o = self._coerce(other)
        return self.mask != o and self.mask & ~o == 0

    def __ge__(self, other: object) -> bool:
        return self._coerce(other) & ~self.mask == 0

    def __gt__(self, other: object) -> bool:
        o = self._coerce(other)
        return self.mask != o and o & ~self.mask == 0

    # New sets.
    def union(self, *others: object) -> CardSet:
        mask = self.mask
        for other in others:
            mask |= self._coerce(other)
        return CardSet.from_mask(mask)

    def intersection(self, *others: object) -> CardSet:
        mask = self.mask
        for other in others:
            mask &= self._coerce(other)
        return CardSet.from_mask(mask)

    def difference(self, *others: object) -> CardSet:
        mask = self.mask
        for other in others:
            mask &= ~self._coerce(other)
        return CardSet.from_mask(mask)

    def symmetric_difference(self, other: object) -> CardSet:
        return CardSet.from_mask(self.mask ^ self._coerce(other))

    def __or__(self, other: object) -> CardSet:
        return CardSet.from_mask(self.mask | self._coerce(other))

    def __and__(self, other: object) -> CardSet:
        return CardSet.from_mask(self.mask & self._coerce(other))

    def __sub__(self, other: object) -> CardSet:
        return CardSet.from_mask(self.mask & ~self._coerce(other))

    def __xor__(self, other: object) -> CardSet:
        return self.symmetric_difference(other)

    # Changing in place.
    def add(self, card: object) -> None:
        self.mask |= 1 << _one_card(card)

    def remove(self, card: object) -> None:
        c = _one_card(card)
        if not self.mask >> c & 1:
            raise KeyError(Card(c))
        self.mask ^= 1 << c

    def discard(self, card: object) -> None:
        self.mask &= ~(1 << _one_card(card))

    def pop(self) -> Card:
        if not self.mask:
            raise KeyError("pop from an empty CardSet")
        low = self.mask & -self.mask
        self.mask ^= low
        return _CARDS[low.bit_length() - 1]

    def clear(self) -> None:
        self.mask = 0

    # Each update reads every argument before it changes the set: one that is not cards
    # raises with the set as it was.
    def update(self, *others: object) -> None:
        mask = self.mask
        for other in others:
            mask |= self._coerce(other)
        self.mask = mask

    def intersection_update(self, *others: object) -> None:
        mask = self.mask
        for other in others:
            mask &= self._coerce(other)
        self.mask = mask

    def difference_update(self, *others: object) -> None:
        mask = self.mask
        for other in others:
            mask &= ~self._coerce(other)
        self.mask = mask

    def symmetric_difference_update(self, other: object) -> None:
        self.mask ^= self._coerce(other)

    def __ior__(self, other: object) -> CardSet:
        self.update(other)
        return self

    def __iand__(self, other: object) -> CardSet:
        self.intersection_update(other)
        return self

    def __isub__(self, other: object) -> CardSet:
        self.difference_update(other)
        return self

    def __ixor__(self, other: object) -> CardSet:
        self.symmetric_difference_update(other)
        return self


def _one_card(card: object) -> int:
    if isinstance(card, str):
        return int(Card.parse(card))
    if isinstance(card, int) and not isinstance(card, bool) and 0 <= card < 52:
        return int(card)
    raise InvalidCardError(f"{shown(card)} is not a card")
