"""Fast playouts: a hand played to its end by a simple policy for both seats, on masks.

The ``expert`` player judges a move by playing the hand out many times from positions where
the hidden cards have been guessed (:meth:`ginrummy.hand.Hand.determinize`). A playout must be
cheap, so it does not go through :meth:`Hand.play` and views: it runs the same rules on the
hand's masks and lists (:func:`playout`), and scores the ending with the engine's own
:func:`ginrummy.settle.settle`, so layoffs, undercuts and bonuses are exactly the engine's. A
test replays recorded playouts move by move through :class:`~ginrummy.hand.Hand` to check that
the two never disagree.

The policy (:class:`PlayoutPolicy`) is a greedy one in the spirit of ``simple``: take the top
discard when it joins a meld and lowers the deadwood, discard the card leaving the least
deadwood (the highest such card), go gin or big gin at once, and knock when the deadwood is at
most the seat's knock threshold. It reads only its own seat's cards and the discard pile.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..cards import CARD_TEXT
from ..hand import STOCK_FLOOR, Hand
from ..melds import discard_deadwoods, min_deadwood
from ..rules import RuleSet
from ..settle import settle
from .simple import melds_with

__all__ = ["PlayoutPolicy", "playout", "playout_hand"]

_VALUE = tuple(min(c % 13 + 1, 10) for c in range(52))
#: Turns after which a playout gives up and counts the hand as cancelled (a safety net: the
#: policy only takes a discard that lowers its deadwood, so it cannot cycle).
MAX_STEPS = 200


def _improves(mask: int, top: int) -> bool:
    """True when taking ``top`` and discarding another card lowers the deadwood."""
    after = min(dw for c, dw in discard_deadwoods(mask | 1 << top) if c != top)
    return after < min_deadwood(mask)


@dataclass(frozen=True)
class PlayoutPolicy:
    """Knock thresholds of the two seats (deadwood at or under which a seat knocks; the
    hand's knock limit still applies)."""

    knock_threshold: tuple[int, int] = (10, 10)


def _best_discard(mask: int, taken: int) -> tuple[int, int]:
    """(card, deadwood after discarding it): least deadwood, then the highest card."""
    best_card = -1
    best_dw = 1 << 20
    best_value = -1
    for card, dw in discard_deadwoods(mask):
        if card == taken:
            continue
        value = _VALUE[card]
        if dw < best_dw or (dw == best_dw and value > best_value):
            best_card, best_dw, best_value = card, dw, value
    return best_card, best_dw


def playout_hand(hand: Hand, policy: PlayoutPolicy, record: list[str] | None = None) -> tuple[
    int | None, int
]:
    """Play ``hand`` (not changed) to its end: ``(winner seat or None, points)``."""
    return playout(
        hand.rules,
        list(hand.hands),
        list(hand.stock),
        list(hand.discard_pile),
        dealer=hand.dealer,
        to_play=hand.to_play,
        phase=hand.phase,
        taken=hand.taken,
        knock_limit=hand.knock_limit,
        multiplier=hand.multiplier,
        policy=policy,
        record=record,
    )


def playout(
    rules: RuleSet,
    hands: list[int],
    stock: list[int],
    pile: list[int],
    *,
    dealer: int,
    to_play: int,
    phase: str,
    taken: int,
    knock_limit: int,
    multiplier: int,
    policy: PlayoutPolicy,
    record: list[str] | None = None,
) -> tuple[int | None, int]:
    """Play a position to the end by the policy; ``hands``, ``stock`` (top card last) and
    ``pile`` are consumed. Returns ``(winner seat or None when cancelled, points)``.

    ``record``, when given, receives every move in engine notation (for checking).
    """
    thresholds = (
        min(policy.knock_threshold[0], knock_limit),
        min(policy.knock_threshold[1], knock_limit),
    )
    big_gin = rules.big_gin
    seat = to_play
    steps = 0
    while True:
        steps += 1
        if steps > MAX_STEPS:
            return None, 0
        if phase == "draw" or phase == "opening":
            top = pile[-1]
            mask = hands[seat]
            if melds_with(mask, top) and _improves(mask, top):
                pile.pop()
                hands[seat] = mask | 1 << top
                taken = top
                phase = "discard"
                if record is not None:
                    record.append("take")
            elif phase == "draw":
                phase = "stock"
            else:
                if record is not None:
                    record.append("pass")
                if seat != dealer:
                    seat = dealer
                else:
                    seat = 1 - dealer
                    phase = "stock"
                continue
        if phase == "stock" or phase == "opening_draw":
            card = stock.pop()
            hands[seat] |= 1 << card
            taken = -1
            phase = "discard"
            if record is not None:
                record.append("draw")
        if phase == "last_chance":
            top = pile[-1]
            mask = hands[seat] | 1 << top
            card, dw = _best_discard(mask, top)
            gin_all = big_gin and min_deadwood(mask) == 0
            if not gin_all and dw > thresholds[seat]:
                if record is not None:
                    record.append("pass")
                return None, 0
            pile.pop()
            hands[seat] = mask
            taken = top
            phase = "last_chance_knock"
            if record is not None:
                record.append("take")
        # Discard (or knock) from eleven cards.
        mask = hands[seat]
        if big_gin and min_deadwood(mask) == 0:
            if record is not None:
                record.append("big gin")
            return _score(rules, mask, hands[1 - seat], seat, knock_limit, multiplier)
        card, dw = _best_discard(mask, taken)
        rest = mask & ~(1 << card)
        # After taking the last discard the seat must knock (the take was legal only because
        # a knock is possible, so the least-deadwood discard is within the knock limit).
        if dw <= thresholds[seat] or phase == "last_chance_knock":
            if record is not None:
                record.append(f"knock {CARD_TEXT[card]}")
            return _score(rules, rest, hands[1 - seat], seat, knock_limit, multiplier)
        hands[seat] = rest
        pile.append(card)
        if record is not None:
            record.append(f"discard {CARD_TEXT[card]}")
        taken = -1
        seat = 1 - seat
        if len(stock) <= STOCK_FLOOR:
            if not rules.last_discard_chance:
                return None, 0
            phase = "last_chance"
        else:
            phase = "draw"


def _score(
    rules: RuleSet, knocker: int, defender: int, seat: int, knock_limit: int, multiplier: int
) -> tuple[int | None, int]:
    result = settle(
        knocker, defender, rules, knock_limit=knock_limit, multiplier=multiplier,
        knocker_seat=seat,
    )
    return result.winner_seat, result.points
