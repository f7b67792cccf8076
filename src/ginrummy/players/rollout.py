"""Fast playouts: a hand played to its end by a simple policy for both seats, on masks.

The ``expert`` player and the coach judge a move by playing the hand out many times from
positions where the hidden cards have been guessed (:meth:`ginrummy.engine.hand.Hand.determinize`).
A playout must be cheap, so it does not verify moves or build views: the policy picks a legal
move and the hand's own ``apply_*`` method for that kind of move carries it out on a lean copy
(:meth:`~ginrummy.engine.hand.Hand.lean_copy`: no history, undo or seat knowledge), so the rules
(opening passes, the stock floor, the last-discard chance, big gin) and the scoring are exactly
the engine's. Tests replay recorded playouts move by move through :meth:`Hand.play` as well.

The policy (:class:`PlayoutPolicy`) is a greedy one in the spirit of ``simple``: take the top
discard when it joins a meld and lowers the deadwood, discard the card leaving the least
deadwood (the highest such card), go gin or big gin at once, and knock when the deadwood is at
most the seat's knock threshold. Two optional costs bend the discard (the coach's policy,
:class:`ginrummy.coach.CoachPolicy`, uses them): ``keep_pairs`` for breaking up a two-card
start early in the hand, ``feed`` for a card that completes a meld with cards the opponent is
known to hold. It reads only its own seat's cards, the discard pile and what the opponent
picked up in the open.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..engine.cards import CARD_VALUE
from ..engine.events import DRAW, LAST_CHANCE, LAST_CHANCE_KNOCK, OPENING, OPENING_DRAW, OVER
from ..engine.hand import Hand
from ..engine.melds import (
    START_PARTNERS,
    best_discard,
    discard_deadwoods,
    melds_with,
    min_deadwood,
)
from ..engine.move import Move
from .knowledge import feeds_known_meld

__all__ = ["PlayoutPolicy", "playout", "playout_hand"]

#: Turns after which a playout gives up and counts the hand as cancelled (a safety net: the
#: policy only takes a discard that lowers its deadwood, so it cannot cycle).
MAX_STEPS = 200


def _improves(mask: int, top: int) -> bool:
    """True when taking ``top`` and discarding another card lowers the deadwood."""
    return best_discard(mask | 1 << top, 1 << top)[1] < min_deadwood(mask)


@dataclass(frozen=True)
class PlayoutPolicy:
    """How the playouts play both seats.

    ``knock_threshold``: deadwood at or under which each seat knocks (the hand's knock limit
    still applies). ``keep_pairs``: the extra cost, in deadwood points, of throwing a card that
    has a partner in the hand, at the start of the hand (it fades to 0 as the stock runs out).
    ``feed``: the extra cost of throwing a card that completes a meld with cards the opponent
    is known to hold (picked up from the pile and kept), which it would surely take.
    """

    knock_threshold: tuple[int, int] = (10, 10)
    keep_pairs: float = 0.0
    feed: float = 0.0


def _best_discard(mask: int, taken: int) -> tuple[int, int]:
    """(card, deadwood after discarding it): least deadwood, then the highest card, then the
    lowest index (:func:`~ginrummy.engine.melds.best_discard`, the order of :func:`_least`), never
    the ``taken`` card."""
    return best_discard(mask, 1 << taken if taken >= 0 else 0)


def _ten_card(mask: int) -> tuple[int, int, int]:
    """``(best discard, its deadwood, least deadwood)`` of the ten cards ``mask``: what
    :func:`_discard_after_draw` needs to know about a hand before its draw."""
    card, dw = best_discard(mask)
    return card, dw, min_deadwood(mask)


def _discard_after_draw(ten: tuple[int, int, int], card: int) -> tuple[int, int]:
    """:func:`_best_discard` of a ten-card hand plus a drawn ``card`` that melds with none of
    its cards (``ten``: :func:`_ten_card` of the ten cards), without solving eleven cards.

    The drawn card is deadwood whatever else is thrown, so throwing it leaves the ten cards'
    least deadwood, and throwing another card ``x`` leaves the deadwood of the ten cards less
    ``x`` plus the drawn card's value, least for the ten cards' own best discard. Ties go as
    in :func:`_least`: the higher card, then the lower index.
    """
    ten_card, ten_dw, least = ten
    if ten_card < 0:
        return card, least
    other = ten_dw + CARD_VALUE[card]
    if other < least:
        return ten_card, other
    if other > least:
        return card, least
    value, ten_value = CARD_VALUE[card], CARD_VALUE[ten_card]
    if ten_value > value or (ten_value == value and ten_card < card):
        return ten_card, other
    return card, least


def _least(options: list[tuple[int, int]], taken: int) -> tuple[int, int]:
    """Of ``(card, deadwood after discarding it)`` options, the least deadwood, then the
    highest card (the first such in the list), never the ``taken`` card."""
    best_card = -1
    best_dw = 1 << 20
    best_value = -1
    for card, dw in options:
        if card == taken:
            continue
        value = CARD_VALUE[card]
        if dw < best_dw or (dw == best_dw and value > best_value):
            best_card, best_dw, best_value = card, dw, value
    return best_card, best_dw


def _choose_discard(
    mask: int, taken: int, keep: float, feed: float = 0.0, known: int = 0
) -> tuple[int, int, int, int]:
    """``(card to throw, its deadwood after, least-deadwood card, least deadwood)``.

    The card to throw has the least deadwood after it, plus ``keep`` if it has a partner in
    the hand (half for a gapped partner), plus ``feed`` if it completes a meld with the cards
    ``known`` to be in the opponent's hand; then the highest value. The least-deadwood card is
    the one a knock discards (face down, so it feeds nobody). Without either cost both cards
    are the same one, found by the quicker :func:`_best_discard`.
    """
    if not keep and not (feed and known):
        card, dw = _best_discard(mask, taken)
        return card, dw, card, dw
    options = discard_deadwoods(mask)
    low_card, low_dw = _least(options, taken)
    best_card = -1
    best_key: tuple[float, int] = (float(1 << 20), 0)
    best_dw = 1 << 20
    for card, dw in options:
        if card == taken:
            continue
        value = CARD_VALUE[card]
        score = float(dw)
        if keep:
            close, gap = START_PARTNERS[card]
            rest = mask & ~(1 << card)
            if close & rest:
                score += keep
            elif gap & rest:
                score += keep * 0.5
        if feed and known and feeds_known_meld(card, known):
            score += feed
        key = (score, -value)
        if key < best_key:
            best_key, best_card, best_dw = key, card, dw
    return best_card, best_dw, low_card, low_dw


def playout_hand(
    hand: Hand, policy: PlayoutPolicy, record: list[str] | None = None
) -> tuple[int | None, int]:
    """Play ``hand`` (not changed) to its end: ``(winner seat or None, points)``."""
    return playout(hand.lean_copy(), policy, record)


def playout(
    hand: Hand, policy: PlayoutPolicy, record: list[str] | None = None
) -> tuple[int | None, int]:
    """Play ``hand`` to the end by the policy, through the hand's own ``apply_*`` rules (pass
    a :meth:`~ginrummy.engine.hand.Hand.lean_copy`: the hand is consumed). Returns ``(winner seat or
    None when cancelled, points)``.

    ``record``, when given, receives every move in engine notation (for checking).
    """
    knock_limit = hand.knock_limit
    thresholds = (
        min(policy.knock_threshold[0], knock_limit),
        min(policy.knock_threshold[1], knock_limit),
    )
    keep_pairs = policy.keep_pairs
    feed = policy.feed
    big_gin = hand.rules.big_gin
    hands = hand.hands
    plain = not keep_pairs and not feed
    # Per seat, the ten cards it held before its last draw and _ten_card of them (a hand often
    # keeps the same ten cards for several turns, throwing back what it draws).
    tens: list[tuple[int, tuple[int, int, int]] | None] = [None, None]
    steps = 0
    # One pass of the loop is one seat's turn: its draw (or opening pass) and its discard.
    while True:
        steps += 1
        if steps > MAX_STEPS:
            return None, 0
        phase = hand.phase
        seat = hand.to_play
        drew = before = -1
        if phase in (DRAW, OPENING):
            top = hand.discard_pile[-1]
            mask = hands[seat]
            if melds_with(mask, top) and _improves(mask, top):
                hand.apply_take()
                if record is not None:
                    record.append("take")
            elif phase == DRAW:
                before = mask
                hand.apply_draw()
                drew = hand.drawn
                if record is not None:
                    record.append("draw")
            else:
                hand.apply_pass()
                if record is not None:
                    record.append("pass")
                continue
        elif phase == OPENING_DRAW:
            before = hands[seat]
            hand.apply_draw()
            drew = hand.drawn
            if record is not None:
                record.append("draw")
        elif phase == LAST_CHANCE:
            top = hand.discard_pile[-1]
            mask = hands[seat] | 1 << top
            _, dw = _best_discard(mask, top)
            gin_all = big_gin and min_deadwood(mask) == 0
            if not gin_all and dw > thresholds[seat]:
                hand.apply_pass()
                if record is not None:
                    record.append("pass")
                return None, 0
            hand.apply_take()
            if record is not None:
                record.append("take")
        # Discard (or knock) from eleven cards.
        mask = hands[seat]
        if big_gin and min_deadwood(mask) == 0:
            hand.apply_big_gin()
            if record is not None:
                record.append("big gin")
            return _outcome(hand)
        if plain and drew >= 0 and not melds_with(before, drew):
            cached = tens[seat]
            if cached is None or cached[0] != before:
                cached = (before, _ten_card(before))
                tens[seat] = cached
            card, low_dw = _discard_after_draw(cached[1], drew)
            low_card = card
        else:
            card, low_card, low_dw = _discard(hand, seat, mask, keep_pairs, feed)
        # After taking the last discard the seat must knock (the take was legal only because
        # a knock is possible, so the least-deadwood discard is within the knock limit), even
        # when the take was the searched move and the seat's own threshold is lower.
        if low_dw <= thresholds[seat] or hand.phase == LAST_CHANCE_KNOCK:
            hand.apply_knock(low_card)
            if record is not None:
                record.append(Move.knock(low_card))
            return _outcome(hand)
        hand.apply_discard(card)
        if record is not None:
            record.append(Move.discard(card))
        if hand.phase == OVER:
            return None, 0


def _discard(hand: Hand, seat: int, mask: int, keep_pairs: float,
             feed: float) -> tuple[int, int, int]:
    """``(card to throw, least-deadwood card, least deadwood)`` for ``seat`` holding the
    eleven cards ``mask``, by :func:`_choose_discard` with the policy's costs."""
    keep = 0.0
    if keep_pairs:
        keep = keep_pairs * (1 - min(1.0, max(0.0, (31 - len(hand.stock)) / 27)))
    known = hand.known_to_hold(1 - seat) if feed else 0
    card, _, low_card, low_dw = _choose_discard(mask, hand.taken, keep, feed, known)
    return card, low_card, low_dw


def _outcome(hand: Hand) -> tuple[int | None, int]:
    result = hand.result
    assert result is not None
    return result.winner_seat, result.points
