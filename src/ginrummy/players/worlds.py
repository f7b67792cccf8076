"""Worlds: guesses of the cards a seat cannot see, consistent with everything it can.

A search (the ``expert`` player's, the coach's) and ``hard``'s knock estimate judge a move in
*worlds*: the opponent's hand guessed from the players' opponent model
(:class:`~ginrummy.players.knowledge.OpponentModel`), *developed* the way a hand in play is
(one unseen card in and the worst card out, per opponent turn: a hand that has been played
for a while is better than a fresh deal), and, for a whole world, the rest of the unseen cards
shuffled into the stock (:meth:`ginrummy.engine.hand.Hand.determinize`).

Every random draw comes from the caller's generator, in a fixed order, so a decision is a
function of the view and the caller's seed.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from ..engine.cards import CARD_VALUE
from ..engine.develop import develop_hand, guess_hand
from ..engine.hand import Hand
from ..engine.melds import discard_deadwoods, min_deadwood
from ..engine.view import PlayerView
from .knowledge import Fit, OpponentModel, PastPlay, opponent_turns

__all__ = [
    "develop_hand",
    "build_worlds",
    "develop_reference",
    "fitting_hands",
    "guess_hands",
    "sample_developed_hands",
    "sample_worlds",
]



def sample_developed_hands(model: OpponentModel, rng: random.Random, count: int, *,
                           extra: int, above: int | None = None, tries: int = 8) -> list[int]:
    """``count`` plausible opponent hands: the known cards plus unseen cards drawn by the
    model's probabilities, then developed the way a hand in play is: ``extra`` times another
    unseen card comes in and the best discard (the one leaving the least deadwood; never a
    known card) goes out. A hand that has been played for a while is better than a fresh
    deal.

    With ``above``, a guess must have more than that least deadwood: an opponent that knocks
    at its first chance cannot hold less after its turn (it would have knocked). Up to
    ``tries`` guesses per hand asked for are made; if too few pass, the ones that did not make
    up the number (the first made first)."""
    guesser = _Guesser(model, extra)
    if guesser.fixed is not None:
        return [guesser.fixed] * max(1, count) if guesser.fixed else []
    if above is None:
        return [guesser.guess(rng) for _ in range(count)]
    return _screened(guesser, rng, count, tries, lambda hand: (min_deadwood(hand) > above, 0.0))


class _Guesser:
    """One guess of :func:`sample_developed_hands` at a time (the model read once)."""

    __slots__ = ("unseen", "powers", "hidden", "known", "extra", "fixed")

    def __init__(self, model: OpponentModel, extra: int) -> None:
        self.hidden = model.hidden_count
        self.unseen = [c for c in range(52) if model.unseen >> c & 1]
        self.known = model.known
        # Efraimidis-Spirakis: keys u^(1/w), keep the largest.
        self.powers = [1.0 / max(model.prob[c], 1e-6) for c in self.unseen]
        self.extra = extra if len(self.unseen) > self.hidden else 0
        #: The one possible guess (the known cards) when nothing is hidden, else None.
        self.fixed = self.known if self.hidden <= 0 or not self.unseen else None

    def guess(self, rng: random.Random) -> int:
        return guess_hand(self.unseen, self.powers, self.hidden, self.known, self.extra, rng)


def sample_worlds(view: PlayerView, model: OpponentModel, rng: random.Random, count: int, *,
                  develop_per_turn: float, fit: Fit | None = None,
                  tries: int = 8) -> list[Hand]:
    """``count`` hands consistent with the view: the opponent's hand guessed by
    :func:`sample_developed_hands` (developed by ``develop_per_turn`` cards per opponent turn),
    the rest of the unseen cards shuffled into the stock (:meth:`Hand.determinize`).

    With a ``fit``, the guesses are also tested against the opponent's moves this hand
    (:func:`fitting_hands`)."""
    guesses = guess_hands(view, model, rng, count, develop_per_turn=develop_per_turn, fit=fit,
                          tries=tries)
    return build_worlds(view, model, rng, guesses)


def guess_hands(view: PlayerView, model: OpponentModel, rng: random.Random, count: int, *,
                develop_per_turn: float, fit: Fit | None = None, tries: int = 8) -> list[int]:
    """The opponent hands of :func:`sample_worlds` (masks)."""
    extra = round(develop_per_turn * opponent_turns(view))
    if fit is None:
        return sample_developed_hands(model, rng, count, extra=extra)
    return fitting_hands(PastPlay(view), fit, model, rng, count, extra=extra, tries=tries)


def build_worlds(view: PlayerView, model: OpponentModel, rng: random.Random,
                 guesses: list[int]) -> list[Hand]:
    """A world per guess of the opponent's hand: the rest of the unseen cards shuffled into
    the stock (:meth:`Hand.determinize`)."""
    unseen = [c for c in range(52) if model.unseen >> c & 1]
    worlds = []
    for opponent in guesses:
        stock = [c for c in unseen if not opponent >> c & 1]
        rng.shuffle(stock)
        worlds.append(Hand.determinize(view, opponent, stock))
    return worlds


def fitting_hands(past: PastPlay, fit: Fit, model: OpponentModel, rng: random.Random,
                  count: int, *, extra: int, tries: int) -> list[int]:
    """``count`` guesses of :func:`sample_developed_hands`, each kept with the probability
    that it fits the opponent's moves (:meth:`PastPlay.weight`): a guess that would have made
    the opponent play otherwise is rarely kept. At most ``tries`` guesses per hand asked for
    are made; if too few are kept, the best fitting of the others make up the number (the
    first made among equals)."""
    guesser = _Guesser(model, extra)
    if guesser.fixed is not None:
        return sample_developed_hands(model, rng, count, extra=extra)

    def judge(hand: int) -> tuple[bool, float]:
        weight = past.weight(hand, rng, fit)
        return rng.random() < weight, -weight

    return _screened(guesser, rng, count, tries, judge)


def _screened(guesser: _Guesser, rng: random.Random, count: int, tries: int,
              judge: Callable[[int], tuple[bool, float]]) -> list[int]:
    """``count`` guesses that ``judge`` keeps (it answers whether to keep a guess, and a rank
    for one it does not), at most ``tries`` made per guess asked for; if too few are kept,
    the lowest ranked of the others make up the number (the first made among equals)."""
    kept: list[int] = []
    spare: list[tuple[float, int, int]] = []
    made = 0
    while len(kept) < count and made < tries * count:
        hand = guesser.guess(rng)
        keep, rank = judge(hand)
        if keep:
            kept.append(hand)
        else:
            spare.append((rank, made, hand))
        made += 1
    if len(kept) < count:
        spare.sort()
        kept.extend(hand for _, _, hand in spare[: count - len(kept)])
    return kept


def develop_reference(hand: int, known: int, pool: list[int], extra: int,
                      rng: random.Random) -> int:
    """The plain development loop :func:`develop_hand` must agree with (for tests)."""
    for _ in range(extra):
        card = pool.pop(rng.randrange(len(pool)))
        hand |= 1 << card
        worst = max(
            (x for x in discard_deadwoods(hand) if not known >> x[0] & 1),
            key=lambda x: (-x[1], CARD_VALUE[x[0]]),
        )[0]
        hand &= ~(1 << worst)
        if worst != card:
            pool.append(worst)
        if not pool:
            break
    return hand
