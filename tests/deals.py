"""Stacked decks for tests, built from ARCHITECTURE.md's fixed deal order (not from the engine).

"With the shuffled deck as a list where index 0 is the top card: the non-dealer gets cards 0,
2, 4, ..., 18; the dealer gets 1, 3, ..., 19; card 20 is the upcard; cards 21..51 are the
stock, 21 on top."
"""

from __future__ import annotations

import bruteforce as bf


def build_deck(non_dealer: str, dealer: str, upcard: str, stock: str = "") -> list[int]:
    """A deck dealing these ten cards to each player and this upcard; ``stock`` lists the top
    of the stock in drawing order, the rest of the stock follows in index order."""
    nd = bf.cards(non_dealer)
    dl = bf.cards(dealer)
    top = bf.cards(stock)
    assert len(nd) == 10 and len(dl) == 10, "each player gets ten cards"
    used = [*nd, *dl, bf.card(upcard), *top]
    assert len(set(used)) == len(used), "a card is used twice"
    deck = [0] * 52
    deck[0:20:2] = nd
    deck[1:20:2] = dl
    deck[20] = bf.card(upcard)
    deck[21:] = top + [c for c in range(52) if c not in used]
    assert sorted(deck) == list(range(52))
    return deck


def mask(text: str) -> int:
    """The cards of ``text`` as a mask (bit i = card i)."""
    out = 0
    for c in bf.cards(text):
        out |= 1 << c
    return out
