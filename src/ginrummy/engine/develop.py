"""Hidden hands guessed and played forward: the loops under the players' worlds.

A computer player that weighs a knock or searches a move guesses the opponent's hidden cards
many times a decision (:mod:`ginrummy.players.worlds`): it draws the hidden cards by their
odds, then *develops* the guess the way a hand in play is, one unseen card in and the best
discard out per opponent turn. These loops are most of what a ``hard`` or ``expert`` decision
costs, so they live here, in the compiled core (:mod:`ginrummy.engine.native`), beside the solver
they call; the meaning of every step is documented in :mod:`ginrummy.players.worlds`.

Every random number comes from the caller's :class:`random.Random`, through its public
methods, in a fixed order: the same generator state gives the same guesses, compiled or not.
"""

from __future__ import annotations

import random

from .cards import CARD_VALUE
from .melds import best_discard, draw_deadwoods, melds_with, min_deadwood

__all__ = ["develop_hand", "draw_outlook", "guess_hand"]


def draw_outlook(hand_mask: int, stock: list[tuple[int, float]]) -> float:
    """Expected least deadwood after drawing one card from ``stock`` (``(card, probability)``
    pairs) and discarding the best card: low when many unseen cards would help the hand
    (:mod:`ginrummy.players.knowledge`)."""
    deadwoods = draw_deadwoods(hand_mask, [card for card, _ in stock])
    total = 0.0
    for i in range(len(stock)):
        total += stock[i][1] * deadwoods[i]
    return total


def guess_hand(unseen: list[int], powers: list[float], hidden: int, known: int, extra: int,
               rng: random.Random) -> int:
    """One guess of a hand holding the cards ``known`` and ``hidden`` more of ``unseen``: the
    hidden cards drawn without replacement, each by its weight (Efraimidis-Spirakis: key
    ``u ** (1 / weight)``, the largest keys kept; ``powers`` holds ``1 / weight`` for each card
    of ``unseen``), then developed ``extra`` times from the unseen cards left
    (:func:`develop_hand`)."""
    random_ = rng.random
    keys = [random_() ** p for p in powers]
    if len(keys) != len(unseen):
        raise ValueError("guess_hand: one power per unseen card")
    hand = known
    if hidden >= len(unseen):
        for c in unseen:
            hand |= 1 << c
    elif hidden > 0:
        # The cards of the `hidden` largest keys, ties to the higher card (as sorting the
        # (key, card) pairs would), without building and sorting the pairs.
        cut = sorted(keys, reverse=True)[hidden - 1]
        tied = []
        above = 0
        for i in range(len(keys)):
            key = keys[i]
            c = unseen[i]
            if key > cut:
                hand |= 1 << c
                above += 1
            elif key == cut:
                tied.append(c)
        tied.sort(reverse=True)
        for c in tied[: hidden - above]:
            hand |= 1 << c
    if extra:
        pool = [c for c in unseen if not hand >> c & 1]
        hand = develop_hand(hand, known, pool, extra, rng)
    return hand


def develop_hand(hand: int, known: int, pool: list[int], extra: int, rng: random.Random) -> int:
    """``extra`` times: a random card of ``pool`` comes into ``hand`` and the discard leaving
    the least deadwood goes out (the highest card among equals, then the lowest index; never
    a ``known`` card); a card thrown out returns to ``pool``.

    A card that melds with nothing in the hand is always deadwood, so discarding ``x`` instead
    leaves ``least deadwood of (hand - x)`` plus its value, the same for every ``x``: the best
    ten-card discard (:func:`~ginrummy.engine.melds.best_discard`) is found once and reused until
    the hand changes. The answers are those of the plain loop
    :func:`ginrummy.players.worlds.develop_reference`, which a test compares it with.
    """
    # The best of the ten-card discards (card, deadwood, value), or -1 for none yet worked
    # out for this hand (-2: every card of the hand is known).
    ten_card = -1
    ten_dw = ten_value = ten_least = 0
    randrange = rng.randrange
    take = pool.pop
    for _ in range(extra):
        card = take(randrange(len(pool)))
        if melds_with(hand, card):
            worst = best_discard(hand | 1 << card, known)[0]
        else:
            if ten_card == -1:
                ten_least = min_deadwood(hand)
                ten_card, ten_dw = best_discard(hand, known)
                if ten_card < 0:
                    ten_card = -2
                else:
                    ten_value = CARD_VALUE[ten_card]
            value = CARD_VALUE[card]
            worst = card
            if ten_card >= 0:
                # Discarding the new card leaves ten_least; discarding ten_card leaves its
                # deadwood plus the new card's value. Ties: the higher card, then the lower
                # index.
                dw = ten_dw + value
                if dw < ten_least or (
                    dw == ten_least
                    and (ten_value > value or (ten_value == value and ten_card < card))
                ):
                    worst = ten_card
        if worst != card:
            hand = (hand | 1 << card) & ~(1 << worst)
            pool.append(worst)
            ten_card = -1
        if not pool:
            break
    return hand
