"""The coach's playouts: a hand played to its end by a greedy policy that keeps its pairs.

The coach values a move by playing the hand out many times after it, in worlds where the
hidden cards have been guessed. The policy that plays those hands out matters: a purely greedy
one (throw whatever leaves the least deadwood, as :mod:`ginrummy.players.rollout` does) breaks
a pair of queens to keep a loose 4 one turn later, so it makes "throw the lonely king now"
look worse than "throw the 4 now, the king next turn", the opposite of good play. This policy
is the same greedy player with one change: a card that has a partner in the hand (another card
of its rank, or a card of its suit one or two ranks away) costs ``keep_pairs`` points more to
throw early in the hand, fading to nothing as the stock runs down. In self-play it beats the
purely greedy policy (about +0.7 points a hand over 6,000 hands with ``keep_pairs`` 4 to 6).

Like the players' rollouts it runs on the hand's masks and lists, not through
:meth:`ginrummy.hand.Hand.play`, and scores the ending with the engine's own
:func:`ginrummy.settle.settle`. A test replays recorded playouts move by move through
:class:`~ginrummy.hand.Hand` to check that the two never disagree. The policy sees only its own
seat's cards and the discard pile.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..cards import CARD_TEXT
from ..hand import STOCK_FLOOR, Hand
from ..melds import discard_deadwoods, min_deadwood
from ..players.knowledge import feeds_known_meld
from ..rules import RuleSet
from ..settle import settle

__all__ = ["CoachPolicy", "playout", "playout_hand", "melds_with"]

_VALUE = tuple(min(c % 13 + 1, 10) for c in range(52))
_SUIT_MASK = 0x1FFF
#: One bit per suit at rank 0; shifted left by a rank, the four cards of that rank.
_RANK_BITS = 0x0008004002001
#: Turns after which a playout gives up and counts the hand as cancelled (a safety net: the
#: policy only takes a discard that lowers its deadwood, so it cannot cycle).
MAX_STEPS = 200


def _partners(card: int) -> tuple[int, int]:
    """Masks of the cards that make a two-card start with ``card``: close (same rank, or same
    suit one rank away) and gapped (same suit two ranks away)."""
    rank = card % 13
    close = (_RANK_BITS << rank) & ~(1 << card)
    if rank > 0:
        close |= 1 << (card - 1)
    if rank < 12:
        close |= 1 << (card + 1)
    gap = 0
    if rank > 1:
        gap |= 1 << (card - 2)
    if rank < 11:
        gap |= 1 << (card + 2)
    return close, gap


_PARTNERS = tuple(_partners(c) for c in range(52))


def melds_with(hand_mask: int, card: int) -> bool:
    """True when ``card`` would belong to some set or run of ``hand_mask`` plus the card."""
    rank = card % 13
    if ((_RANK_BITS << rank) & hand_mask).bit_count() >= 2:
        return True
    suit = card - rank
    pattern = (hand_mask >> suit & _SUIT_MASK) | 1 << rank
    return any(0 <= low <= 10 and pattern >> low & 7 == 7 for low in (rank - 2, rank - 1, rank))


@dataclass(frozen=True)
class CoachPolicy:
    """How the playouts play both seats.

    ``knock_threshold``: deadwood at or under which each seat knocks (the hand's knock limit
    still applies). ``keep_pairs``: the extra cost, in deadwood points, of throwing a card that
    has a partner in the hand, at the start of the hand (it fades to 0 as the stock runs out).
    ``feed``: the extra cost of throwing a card that completes a meld with cards the opponent
    is known to hold (picked up from the pile and kept), which it would surely take.
    """

    knock_threshold: tuple[int, int] = (10, 10)
    keep_pairs: float = 5.0
    feed: float = 8.0


def _improves(mask: int, top: int) -> bool:
    """True when taking ``top`` and discarding another card lowers the deadwood."""
    after = min(dw for c, dw in discard_deadwoods(mask | 1 << top) if c != top)
    return after < min_deadwood(mask)


def _choose_discard(
    mask: int, taken: int, keep: float, feed: float = 0.0, known: int = 0
) -> tuple[int, int, int, int]:
    """``(card to throw, its deadwood after, least-deadwood card, least deadwood)``.

    The card to throw has the least deadwood after it, plus ``keep`` if it has a partner in
    the hand (half for a gapped partner), plus ``feed`` if it completes a meld with the cards
    ``known`` to be in the opponent's hand; then the highest value. The least-deadwood card is
    the one a knock discards (face down, so it feeds nobody).
    """
    best_card = low_card = -1
    best_key: tuple[float, int] = (float(1 << 20), 0)
    best_dw = low_dw = 1 << 20
    low_value = -1
    for card, dw in discard_deadwoods(mask):
        if card == taken:
            continue
        value = _VALUE[card]
        if dw < low_dw or (dw == low_dw and value > low_value):
            low_card, low_dw, low_value = card, dw, value
        score = float(dw)
        if keep:
            close, gap = _PARTNERS[card]
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
    hand: Hand, policy: CoachPolicy, record: list[str] | None = None
) -> tuple[int | None, int]:
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
        known=(hand._known[0], hand._known[1]),
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
    policy: CoachPolicy,
    record: list[str] | None = None,
    known: tuple[int, int] = (0, 0),
) -> tuple[int | None, int]:
    """Play a position to the end by the policy; ``hands``, ``stock`` (top card last) and
    ``pile`` are consumed. Returns ``(winner seat or None when cancelled, points)``.

    ``known``: the cards each seat is known to hold (picked up from the pile, not thrown
    back). ``record``, when given, receives every move in engine notation (for checking).
    """
    held = list(known)
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
                held[seat] |= 1 << top
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
            _, _, _, dw = _choose_discard(mask, top, 0.0)
            gin_all = big_gin and min_deadwood(mask) == 0
            if not gin_all and dw > thresholds[seat]:
                if record is not None:
                    record.append("pass")
                return None, 0
            pile.pop()
            hands[seat] = mask
            held[seat] |= 1 << top
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
        late = min(1.0, max(0.0, (31 - len(stock)) / 27))
        card, _, low_card, low_dw = _choose_discard(
            mask, taken, policy.keep_pairs * (1 - late), policy.feed, held[1 - seat]
        )
        if low_dw <= thresholds[seat]:
            if record is not None:
                record.append(f"knock {CARD_TEXT[low_card]}")
            rest = mask & ~(1 << low_card)
            return _score(rules, rest, hands[1 - seat], seat, knock_limit, multiplier)
        if phase == "last_chance_knock":  # cannot happen: the take was only for a knock
            raise AssertionError("playout took the last discard without a knock")
        hands[seat] = mask & ~(1 << card)
        held[seat] &= ~(1 << card)
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
