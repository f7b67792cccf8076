"""Writing situations without code: a readable spec turned into a situation record, and back.

A spec is TOML that names the cards instead of spelling out the 52-card deck::

    profile = "traditional"
    overrides = {}
    first_dealer = 1                 # the seat that deals the first hand

    [[hands]]
    seat0 = "Qs Ks As 7c 7d 7h 3h 4h 5h 6h"   # the ten cards dealt to each seat
    seat1 = "2c 3c 4c 9d Td Jd 5s 8s Jc Kd"
    upcard = "9h"
    stock = "2d"                     # the stock's top cards in the order they are drawn
    moves = ["pass", "pass", "draw"]

    [meta.lesson]                    # copied into the record (see ginrummy.lessons)
    ...

:func:`build_record` deals each hand with the deal order of ``docs/rules.md`` (the non-dealer
gets the deck's cards 0, 2, ..., 18, the dealer 1, 3, ..., 19, card 20 is the upcard, then the
stock from the top), fills the rest of the stock in card order, plays the moves through the
engine, and checks the lesson (:func:`ginrummy.lessons.load_situation`).
:func:`record_to_spec` reads any record back into this form (with the whole stock listed).

>>> deck = deal_deck("Ac 2c 3c 4c 5c 6c 7c 8c 9c Tc", "Ad 2d 3d 4d 5d 6d 7d 8d 9d Td", 0, "Ah",
...                  "Kh")
>>> [str(c) for c in deck[:4]], str(deck[20]), str(deck[21])
(['Ad', 'Ac', '2d', '2c'], 'Ah', 'Kh')
"""

from __future__ import annotations

import textwrap
import tomllib
from collections.abc import Mapping, Sequence
from typing import Any

from ..engine.cards import CARD_TEXT, Card, CardsLike, to_cards
from ..engine.errors import GinRummyError, InvalidCardError
from ..engine.hand import deal_order
from ..engine.match import Match
from ..engine.record import _toml_string, _toml_value, dumps, loads, read_toml
from ..engine.rules import get_rules
from .check import load_situation
from .model import FACT_FIELDS, parse_lesson
from .position import InvalidSituationError

__all__ = ["deal_deck", "build_record", "record_to_spec", "lesson_toml"]

_SPEC_KEYS = {"profile", "overrides", "first_dealer", "hands", "meta"}
_HAND_KEYS = {"seat0", "seat1", "upcard", "stock", "moves", "dealer"}
_WIDTH = 92


def deal_deck(
    seat0: CardsLike, seat1: CardsLike, dealer: int, upcard: CardsLike, stock: CardsLike = ()
) -> list[Card]:
    """The 52-card deck (index 0 on top) that deals ``seat0`` and ``seat1`` their ten cards with
    ``dealer`` dealing, turns ``upcard`` up and puts ``stock`` on top of the stock in draw order;
    the stock's other cards follow in card order. The inverse of
    :func:`ginrummy.engine.hand.deal_order`.
    """
    hands = [to_cards(seat0), to_cards(seat1)]
    for seat, cards in enumerate(hands):
        if len(cards) != 10:
            raise InvalidCardError(f"seat {seat} must be dealt 10 cards, not {len(cards)}")
    up = to_cards(upcard)
    if len(up) != 1:
        raise InvalidCardError(f"the upcard must be one card, not {len(up)}")
    top = to_cards(stock)
    non_dealer, dealt = hands[1 - dealer], hands[dealer]
    deck: list[Card] = []
    for a, b in zip(non_dealer, dealt, strict=True):
        deck += [a, b]
    deck += up + top
    seen: set[int] = set()
    for c in deck:
        if c in seen:
            raise InvalidCardError(f"{c} is dealt twice")
        seen.add(c)
    deck += [Card(c) for c in range(52) if c not in seen]
    return deck


def _cards_field(hand: Mapping[str, Any], key: str, where: str) -> str:
    value = hand.get(key, "")
    if not isinstance(value, str):
        raise InvalidSituationError(f"{where}: {key!r} must be cards as text")
    return value


def build_record(spec_text: str, source: str = "spec") -> str:
    """The situation record of a spec (see the module's docstring), checked by the engine.

    Raises :class:`~ginrummy.lessons.InvalidSituationError` saying which hand and move failed.
    """
    data = read_toml(spec_text, source, InvalidSituationError)
    unknown = set(data) - _SPEC_KEYS
    if unknown:
        raise InvalidSituationError(f"{source}: unknown field(s) {', '.join(sorted(unknown))}")
    parse_lesson(data, source)  # the lesson's shape first: its errors are the clearest
    overrides = data.get("overrides", {})
    if not isinstance(overrides, dict):
        raise InvalidSituationError(f"{source}: 'overrides' must be a table")
    try:
        rules = get_rules(str(data.get("profile", "traditional")), **overrides)
        match = Match(rules, first_dealer=data.get("first_dealer", 0), start=False)
    except GinRummyError as exc:
        raise InvalidSituationError(f"{source}: {exc}") from None
    hands = data.get("hands")
    if not isinstance(hands, list) or not hands or not all(isinstance(h, dict) for h in hands):
        raise InvalidSituationError(f"{source}: no [[hands]]")
    for i, hand in enumerate(hands, 1):
        where = f"{source}, hand {i}"
        unknown = set(hand) - _HAND_KEYS
        if unknown:
            raise InvalidSituationError(f"{where}: unknown field(s) {', '.join(sorted(unknown))}")
        if i > 1 and not match.hand.over:
            raise InvalidSituationError(f"{source}, hand {i - 1}: unfinished, yet a hand follows")
        try:
            dealer = match.next_dealer
            if "dealer" in hand and hand["dealer"] != dealer:
                raise InvalidSituationError(
                    f"{where}: the spec says seat {hand['dealer']} deals, the rules say "
                    f"seat {dealer}"
                )
            deck = deal_deck(
                _cards_field(hand, "seat0", where),
                _cards_field(hand, "seat1", where),
                dealer,
                _cards_field(hand, "upcard", where),
                _cards_field(hand, "stock", where),
            )
            match.next_hand([int(c) for c in deck])
        except GinRummyError as exc:
            if isinstance(exc, InvalidSituationError):
                raise
            raise InvalidSituationError(f"{where}: {exc}") from None
        moves = hand.get("moves", [])
        if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
            raise InvalidSituationError(f"{where}: 'moves' must be a list of moves")
        for j, move in enumerate(moves, 1):
            try:
                match.play(move)
            except GinRummyError as exc:
                raise InvalidSituationError(f"{where}, move {j} {move!r}: {exc}") from None
    text = dumps(match).rstrip("\n") + "\n\n" + lesson_toml(data["meta"]["lesson"])
    load_situation(text, source)  # the lesson must hold, or nothing is written
    return text


def _string(value: str, indent: str = "") -> str:
    """A TOML string: basic when short, else multi-line with line-ending backslashes."""
    one = _toml_string(value)
    if len(one) + len(indent) < _WIDTH - 12:
        return one
    body = one[1:-1]
    lines = textwrap.wrap(body, _WIDTH - 2, break_long_words=False, break_on_hyphens=False)
    inner = " \\\n".join(lines)
    return '"""\\\n' + inner + '"""'


def _value(value: Any) -> str:
    return _toml_value(value, _string, "a lesson", InvalidSituationError)


_ORDER = ("id", "title", "heading", "topic", "profiles", "features", "seat", "question",
          "answers", "proof", "why", "takeaway")


def lesson_toml(table: Mapping[str, Any]) -> str:
    """The ``[meta.lesson]`` table (and its facts) as readable TOML, keys in a fixed order."""
    lines = ["[meta.lesson]"]
    for key in _ORDER:
        if key in table:
            lines.append(f"{key} = {_value(table[key])}")
    for fact in table.get("facts", []):
        lines.append("")
        lines.append("[[meta.lesson.facts]]")
        for key in ("moves", *FACT_FIELDS, "note"):
            if key in fact:
                lines.append(f"{key} = {_value(fact[key])}")
    return "\n".join(lines) + "\n"


def record_to_spec(text: str) -> str:
    """A record (situation or not) as a spec: each hand's cards by seat, the upcard, the whole
    stock in draw order and the moves; the lesson, if any, is kept. Building the spec gives the
    same record back."""
    match = loads(text)
    data = tomllib.loads(text)
    lines = [
        "# ginrummy situation spec: build with 'ginrummy learn build FILE'",
        f"profile = {_value(match.rules.profile)}",
        "overrides = {" + ", ".join(
            f"{k} = {_value(v)}" for k, v in match.rules.overrides) + "}",
        f"first_dealer = {match.first_dealer}",
    ]
    for hand in match.hands:
        _h0, _h1, up, stock = deal_order([int(c) for c in hand.deck], hand.dealer)
        lines += [
            "",
            "[[hands]]",
            f"dealer = {hand.dealer}",
            f"seat0 = {_value(_in_deal_order(hand.deck, hand.dealer, 0))}",
            f"seat1 = {_value(_in_deal_order(hand.deck, hand.dealer, 1))}",
            f"upcard = {_value(CARD_TEXT[up])}",
            f"stock = {_value(' '.join(CARD_TEXT[c] for c in stock))}",
            "moves = [" + ", ".join(_value(m) for m in hand.moves) + "]",
        ]
    lesson = data.get("meta", {}).get("lesson") if isinstance(data.get("meta"), dict) else None
    out = "\n".join(lines) + "\n"
    if isinstance(lesson, dict):
        out += "\n" + lesson_toml(lesson)
    return out


def _in_deal_order(deck: Sequence[int], dealer: int, seat: int) -> str:
    """One seat's ten cards in the order they were dealt (so the spec rebuilds the same deck)."""
    start = 1 if seat == dealer else 0
    return " ".join(CARD_TEXT[deck[i]] for i in range(start, 20, 2))

