"""The terminal's calm first round: ``ginrummy play --tutorial`` prints one tip before each of
the human's decisions, saying what to do next and which command does it.

Tips are built from the human seat's :class:`~ginrummy.engine.view.PlayerView` only; the suggested
discard is the one the engine says leaves the least deadwood. Typing ``skip`` turns them off.

>>> from ginrummy.engine.hand import Hand
>>> hand = Hand(deck=list(range(52)), dealer=0)
>>> tutorial_tip(hand.view(1), plain=True).startswith("Tip: the upcard")
True
"""

from __future__ import annotations

from ..engine.cards import Card
from ..engine.melds import discard_deadwoods
from ..engine.move import KNOCK, Move
from ..engine.view import PlayerView
from .render import card_label

__all__ = ["tutorial_tip", "SKIP_WORDS", "FINAL_TIP"]

#: What the human types to turn the tips off.
SKIP_WORDS = ("skip", "skip tutorial", "tutorial off")

#: Said once the first hand is over; the tips stop there.
FINAL_TIP = (
    "Tip: that was your first hand. The score sheet above shows what it was worth. Press "
    "Enter to deal the next one; from here on you play without tips (type ? for the "
    "commands, rules for the rules)."
)


def _best_discard(view: PlayerView) -> tuple[Card, int]:
    """The discard that leaves the least deadwood (the higher card among equals)."""
    options = [(Card(c), dw) for c, dw in discard_deadwoods(view.hand_mask) if c != view.taken]
    return min(options, key=lambda o: (o[1], -o[0].value, -o[0]))


def tutorial_tip(view: PlayerView, plain: bool = False) -> str | None:
    """The tip for the human's next decision, or ``None`` when it is not their turn."""
    if not view.my_turn:
        return None
    top = view.top_discard
    top_text = card_label(top, plain) if top is not None else ""
    phase = view.phase
    skip = " (Type skip to turn tips off.)"
    if phase == "opening":
        return (f"Tip: the upcard {top_text} is offered to you. Type t to take it if it "
                "makes a meld with your cards (three of a kind, or three in a row of one "
                f"suit); otherwise type p to pass.{skip}")
    if phase == "opening_draw":
        return "Tip: both players passed the upcard, so you start: type d to draw from the stock."
    if phase == "draw":
        return (f"Tip: start your turn with a draw. Type d for the unseen top card of the "
                f"stock, or t to take the {top_text} if it makes a meld for you.")
    if phase == "last_chance":
        return ("Tip: the stock is nearly empty. Type t to take the last discard only if it "
                "lets you knock at once; p passes and the hand ends with no score.")
    legal = view.legal_moves
    best, left = _best_discard(view)
    card = card_label(best, plain)
    if any(Move.parse(m).code == KNOCK for m in legal):
        if left == 0:
            return (f"Tip: you can go gin! Type gin {card}: the {card} is discarded and all "
                    "your other cards are in melds.")
        return (f"Tip: you can knock: 'k {card}' discards the {card} face down and ends the "
                f"hand with {left} deadwood. The lower your count, the safer the knock; you "
                f"may also play on with 'x {card}'.")
    return (f"Tip: now throw one card. Cards in [brackets] are melds; the others are deadwood. "
            f"Type x and a card: x {card} leaves the least deadwood ({left}).")
