"""Shared helpers for the web tests: a sensible chooser that plays from the person's state,
and the card tokens found anywhere in a JSON response."""

from __future__ import annotations

import random
import re
from typing import Any

_CODE = re.compile(r"(?<![A-Za-z0-9])([A2-9TJQK][cdhs])(?![A-Za-z0-9])")
_SYMBOL = re.compile(r"(10|[A2-9JQK])([♣♦♥♠])")
_SUIT_OF_SYMBOL = {"♣": "c", "♦": "d", "♥": "h", "♠": "s"}


def choose(state: dict[str, Any], rng: random.Random | None = None, wild: float = 0.0) -> str:
    """A move for the person: gin or knock when possible, else the discard leaving the least
    deadwood; draw from the stock; pass the upcard. ``wild`` is the chance of a random legal
    move instead, to reach odd corners."""
    hand = state["hand"]
    legal = hand["legal_moves"]
    if rng is not None and wild and rng.random() < wild:
        return rng.choice(legal)
    options = hand["card_options"]
    if options:
        gins = [o for o in options if o["gin"]]
        if gins:
            return f"knock {gins[0]['card']}"
        if "big gin" in legal:
            return "big gin"
        knocks = [o for o in options if o["knock"]]
        if knocks:
            return f"knock {min(knocks, key=lambda o: o['deadwood_after'])['card']}"
        discards = [o for o in options if o["discard"]]
        return f"discard {min(discards, key=lambda o: o['deadwood_after'])['card']}"
    if "draw" in legal:
        return "draw"
    if "pass" in legal:
        return "pass"
    return legal[0]


def card_tokens(data: Any) -> set[str]:
    """Every card named anywhere in ``data`` (strings inside dicts and lists), as ``7h``."""
    found: set[str] = set()

    def walk(x: Any) -> None:
        if isinstance(x, str):
            found.update(m.group(1) for m in _CODE.finditer(x))
            for m in _SYMBOL.finditer(x):
                rank = "T" if m.group(1) == "10" else m.group(1)
                found.add(rank + _SUIT_OF_SYMBOL[m.group(2)])
        elif isinstance(x, dict):
            for k, v in x.items():
                walk(k)
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)

    walk(data)
    return found


def where_cards(data: Any, cards: set[str], path: str = "") -> list[str]:
    """The places (``.hand.cards[3]``) of the strings in ``data`` that name any of ``cards``,
    with the string: what a failed leak check reports."""
    out: list[str] = []
    if isinstance(data, str):
        if card_tokens(data) & cards:
            out.append(f"{path or '.'} = {data!r}")
    elif isinstance(data, dict):
        for k, v in data.items():
            out += where_cards(v, cards, f"{path}.{k}")
    elif isinstance(data, list):
        for i, v in enumerate(data):
            out += where_cards(v, cards, f"{path}[{i}]")
    return out
