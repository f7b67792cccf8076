"""Positions with a known best move, for the coach's tests (built with the spec dealer)."""

from __future__ import annotations

from ginrummy import Hand
from ginrummy.engine.cards import CARD_TEXT
from ginrummy.engine.rules import RulesLike
from ginrummy.lessons.spec import deal_deck


def dealt(seat0: str, seat1: str, upcard: str, stock: str = "", *, dealer: int = 1,
          rules: RulesLike = "traditional") -> Hand:
    """A fresh hand dealing these cards (seat 1 deals by default, so seat 0 plays first)."""
    deck = deal_deck(seat0, seat1, dealer, upcard, stock)
    return Hand(rules, deck=[int(c) for c in deck], dealer=dealer)


def play(hand: Hand, *moves: str) -> Hand:
    for m in moves:
        hand.play(m)
    return hand


def feeding_position() -> Hand:
    """Seat 0 to discard. Its opponent picked up the 9♦ (two turns ago) and the 8♦ and kept
    them; seat 0 holds the 10♦, which completes 8-9-10♦, and the K♣ and Q♥, which leave the
    same deadwood and feed nothing known."""
    hand = dealt(
        "Ac 2c 3c 4h 5h 6h Td Kc 8d 2d",
        "Jc Js 5c 6c 7c 3s 4s Kd Kh 2h",
        "9d",
        "Qh 7s",
    )
    return play(hand, "pass", "take", "discard Jc", "draw", "discard 8d", "take",
                "discard Js", "draw")


def gin_position() -> Hand:
    """Seat 0 drew the 7♥: discarding the K♦ goes gin."""
    hand = dealt(
        "Ac 2c 3c 4h 5h 6h 7s 7d 7c Kd",
        "Jc Js 5c 6c 9c 3s 4s Qd Kh 2h",
        "Qs",
        "7h",
    )
    return play(hand, "pass", "pass", "draw")


def last_turn_knock_position() -> Hand:
    """The stock's last drawable card is in seat 0's hand: it can knock with 4, and any discard
    ends the hand with no score (traditional rules, no last-discard chance)."""
    hand = dealt(
        "Ac 2c 3c 4h 5h 6h 7s 7d 7c 4d",
        "Jc Js 5c 6c 9c 3s 4s Qd Kh 2h",
        "Qs",
    )
    play(hand, "pass", "pass")
    while True:
        if hand.phase in ("draw", "opening_draw"):
            hand.play("draw")
        if hand.to_play == 0 and hand.stock_count <= 2:
            return hand
        hand.play(f"discard {CARD_TEXT[hand.drawn]}")
