"""What a seat can infer about the opponent's hand from public play, and what follows from it.

Everything here is a pure function of a :class:`~ginrummy.engine.view.PlayerView`: the opponent's
cards picked up from the discard pile (certain), the cards it threw away, the offers it
declined, and the cards nobody has seen. From those, :class:`OpponentModel` gives each unseen
card a probability of sitting in the opponent's hand, and the helpers below turn the
probabilities into the quantities the players weigh:

* :meth:`OpponentModel.danger`: how likely a discard is to be picked up because it completes or
  extends a meld of the opponent (a card it can use);
* :meth:`OpponentModel.layoff_exposure`: the expected points the opponent could lay off on a
  knock arrangement;
* :func:`draw_outlook`: the expected deadwood after the next draw from the stock (how flexible
  a hand is: how many unseen cards would complete a meld).

The likelihoods are a simple Bayesian reading of the opponent's choices: a player who throws a
card away, or declines it, is less likely to hold cards that meld with it; a player who picks a
card up is more likely to hold its neighbours. The factors are deliberately mild (they are
evidence, not proof: a player may break a pair, or decline a card it could use).

Per-card factors cannot say "it held no two cards that meld with the card it passed": that is a
fact about the whole hand, at the time. :class:`PastPlay` tests a guess of the whole hand
against every move the opponent made this hand, walking the hand back move by move, and
:class:`Fit` says how much a contradiction counts for a given kind of opponent. The search
keeps guesses in proportion to their fit (:func:`~.worlds.fitting_hands`), and
:meth:`OpponentModel.blended` turns kept guesses back into odds of each card and a danger of
each discard.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..engine.cards import CARD_VALUE
from ..engine.develop import draw_outlook
from ..engine.melds import (
    best_discard,
    discard_deadwoods,
    layoff_lines,
    meld_neighbours,
    melds_with,
    min_deadwood,
)
from ..engine.view import PlayerView

__all__ = [
    "Evidence",
    "Fit",
    "PATIENT_FIT",
    "PastPlay",
    "QUICK_FIT",
    "feeds_known_meld",
    "knock_chances",
    "OpponentModel",
    "draw_outlook",
    "meld_neighbours",
    "opponent_turns",
]

def feeds_known_meld(card: int, known: int) -> bool:
    """True when ``card`` would complete or extend a meld with cards the opponent is known to
    hold (:func:`ginrummy.engine.melds.melds_with` of the known cards): it would surely take it."""
    return melds_with(known, card)


@dataclass(frozen=True)
class Evidence:
    """How strongly each kind of public action moves the odds of the cards that meld with it.

    A factor multiplies the weight of an unseen card: below 1 makes it less likely to be in
    the opponent's hand, above 1 more likely. ``*_rank`` applies to the same rank, ``*_near``
    to the same suit one rank away and ``*_far`` two ranks away.
    """

    discard_rank: float = 0.55
    discard_near: float = 0.55
    discard_far: float = 0.8
    passed_rank: float = 0.5
    passed_near: float = 0.55
    passed_far: float = 0.8
    took_rank: float = 2.6
    took_near: float = 2.6
    took_far: float = 1.6


def knock_chances(view: PlayerView) -> tuple[int, int]:
    """``(chances, taken)``: how many times in the match's finished hands
    (:attr:`~ginrummy.engine.view.PlayerView.earlier_hands`) the opponent could knock without going
    gin, and how many of those times it knocked.

    Every card of a finished hand is shown, so the opponent's hand can be followed move by
    move: its last cards, less what it drew, plus what it threw, are the cards it was dealt.
    A hand that does not add up (it never should) is skipped.
    """
    chances = taken = 0
    for past in view.earlier_hands:
        opponent = 1 - past.seat
        held = past.opponent_hand_mask
        if held is None:
            continue
        mine = [e for e in past.history if e.seat == opponent]
        for event in reversed(mine):
            if event.card is None:
                continue
            bit = 1 << int(event.card)
            if event.kind in ("discard", "knock"):
                held |= bit
            elif event.kind in ("draw", "take"):
                held &= ~bit
        if held.bit_count() != 10:
            continue
        limit = past.knock_limit
        took = -1
        for event in mine:
            kind = event.kind
            if event.card is None:
                continue
            bit = 1 << int(event.card)
            if kind in ("draw", "take"):
                held |= bit
                took = int(event.card) if kind == "take" else -1
            elif kind in ("discard", "knock"):
                least = min((dw for c, dw in discard_deadwoods(held) if c != took),
                            default=99)
                if 0 < least <= limit:
                    chances += 1
                    taken += kind == "knock"
                held &= ~bit
    return chances, taken


def opponent_turns(view: PlayerView) -> int:
    """How many times the opponent has drawn (from the stock or the discard pile)."""
    opponent = 1 - view.seat
    return sum(1 for e in view.history if e.seat == opponent and e.kind in ("draw", "take"))


class OpponentModel:
    """The probability that each card is in the opponent's hand, from one seat's view.

    ``prob[c]`` is 1 for cards the opponent is known to hold, 0 for cards this seat holds or
    sees in the discard pile, and in between for unseen cards; the unseen probabilities add up
    to the number of the opponent's cards that are not known.
    """

    __slots__ = ("known", "unseen", "hidden_count", "prob", "stock_count", "hands",
                 "prior_weight", "_dangers")

    def __init__(self, view: PlayerView, evidence: Evidence | None = None) -> None:
        ev = evidence or Evidence()
        self.known = view.opponent_known_mask
        self.unseen = view.unseen_mask
        self.stock_count = view.stock_count
        self.hidden_count = max(0, view.opponent_card_count - self.known.bit_count())
        weights = [0.0] * 52
        unseen_cards = [c for c in range(52) if self.unseen >> c & 1]
        for c in unseen_cards:
            weights[c] = 1.0
        if unseen_cards:
            self._apply(weights, view.opponent_discards, ev.discard_rank, ev.discard_near,
                        ev.discard_far)
            self._apply(weights, view.opponent_passed, ev.passed_rank, ev.passed_near,
                        ev.passed_far)
            held = [c for c in view.opponent_took if self.known >> c & 1]
            self._apply(weights, held, ev.took_rank, ev.took_near, ev.took_far)
        self.prob = _fill(weights, unseen_cards, self.hidden_count)
        for c in range(52):
            if self.known >> c & 1:
                self.prob[c] = 1.0
        self.hands: Sequence[int] = ()
        self.prior_weight = 0.0
        self._dangers: dict[int, float] = {}

    def _apply(
        self,
        weights: list[float],
        cards: Iterable[int],
        rank_factor: float,
        near_factor: float,
        far_factor: float,
    ) -> None:
        unseen = self.unseen
        for card in cards:
            same_rank, near, far = meld_neighbours(int(card))
            for mask, factor in ((same_rank, rank_factor), (near, near_factor),
                                 (far, far_factor)):
                m = mask & unseen
                while m:
                    low = m & -m
                    weights[low.bit_length() - 1] *= factor
                    m ^= low

    def blended(self, hands: Sequence[int], prior_weight: float) -> OpponentModel:
        """A copy whose unseen cards' probabilities are how often each is in ``hands`` (guesses
        of the opponent's whole hand, such as :func:`~.worlds.fitting_hands` keeps), mixed
        with these probabilities as ``prior_weight`` guesses' worth; the sum stays the number
        of hidden cards."""
        other = OpponentModel.__new__(OpponentModel)
        other.known = self.known
        other.unseen = self.unseen
        other.stock_count = self.stock_count
        other.hidden_count = self.hidden_count
        prob = self.prob[:]
        if hands:
            counts = [0] * 52
            for hand in hands:
                m = hand & self.unseen
                while m:
                    low = m & -m
                    m ^= low
                    counts[low.bit_length() - 1] += 1
            total = len(hands) + prior_weight
            m = self.unseen
            while m:
                low = m & -m
                m ^= low
                c = low.bit_length() - 1
                prob[c] = (counts[c] + prior_weight * self.prob[c]) / total
        other.prob = prob
        other.hands = hands
        other.prior_weight = prior_weight
        other._dangers = {}
        return other

    def in_stock(self, card: int) -> float:
        """Probability that an unseen card is in the stock rather than the opponent's hand."""
        return 1.0 - self.prob[card] if self.unseen >> card & 1 else 0.0

    def danger(self, card: int) -> float:
        """Probability that the opponent holds cards that meld with ``card`` (so it would take
        it): two more of its rank, or two suit neighbours forming a run with it.

        A :meth:`blended` model counts the guessed hands that meld with it, mixed as
        ``prior_weight`` guesses' worth with the estimate from its own odds of each card
        taken as independent."""
        if self.hands:
            found = self._dangers.get(card)
            if found is None:
                count = sum(1 for hand in self.hands if melds_with(hand, card))
                found = (count + self.prior_weight * self._independent_danger(card)) / (
                    len(self.hands) + self.prior_weight)
                self._dangers[card] = found
            return found
        return self._independent_danger(card)

    def _independent_danger(self, card: int) -> float:
        """:meth:`danger` from each card's odds alone, as if they were independent."""
        p = self.prob
        rank = card % 13
        others = [p[c] for c in range(rank, 52, 13) if c != card]
        a, b, c3 = others
        set_chance = a * b + a * c3 + b * c3 - 2 * a * b * c3
        miss = 1.0 - set_chance
        lo1 = p[card - 1] if rank > 0 else 0.0
        lo2 = p[card - 2] if rank > 1 else 0.0
        hi1 = p[card + 1] if rank < 12 else 0.0
        hi2 = p[card + 2] if rank < 11 else 0.0
        miss *= 1.0 - lo1 * lo2
        miss *= 1.0 - lo1 * hi1
        miss *= 1.0 - hi1 * hi2
        return 1.0 - miss

    def layoff_exposure(self, melds: Sequence[int], held: int) -> float:
        """Expected deadwood points the opponent could lay off directly on ``melds`` (the
        fourth card of a three-card set, the card past either end of a run), ``held`` being
        the knocker's own cards."""
        p = self.prob
        total = 0.0
        for m in melds:
            for line in layoff_lines(m):
                # The first card of a line can be laid off at once; the second only after it.
                if not line or held >> line[0] & 1:
                    continue
                first = p[line[0]]
                total += first * CARD_VALUE[line[0]]
                if len(line) > 1 and not held >> line[1] & 1:
                    total += first * p[line[1]] * CARD_VALUE[line[1]]
        return total

    def expected_hidden_value(self) -> float:
        """Expected card points of the opponent's unknown cards (an upper bound on deadwood)."""
        return sum(self.prob[c] * CARD_VALUE[c] for c in range(52) if self.unseen >> c & 1)

    def stock_weights(self) -> list[tuple[int, float]]:
        """``(card, probability it is the next stock card)`` for every unseen card."""
        out: list[tuple[int, float]] = []
        total = 0.0
        m = self.unseen
        while m:
            low = m & -m
            m ^= low
            c = low.bit_length() - 1
            w = 1.0 - self.prob[c]
            if w > 0.0:
                out.append((c, w))
                total += w
        if total <= 0.0:
            return []
        return [(c, w / total) for c, w in out]


def _fill(weights: list[float], cards: list[int], count: int) -> list[float]:
    """Scale ``weights`` of ``cards`` into probabilities summing to ``count``, none above 1."""
    prob = [0.0] * 52
    if count <= 0 or not cards:
        return prob
    if count >= len(cards):
        for c in cards:
            prob[c] = 1.0
        return prob
    free = list(cards)
    remaining = float(count)
    while free:
        total = sum(weights[c] for c in free)
        if total <= 0.0:
            share = remaining / len(free)
            for c in free:
                prob[c] = share
            break
        scale = remaining / total
        capped = [c for c in free if weights[c] * scale >= 1.0]
        if not capped:
            for c in free:
                prob[c] = weights[c] * scale
            break
        for c in capped:
            prob[c] = 1.0
        remaining -= len(capped)
        capped_set = set(capped)
        free = [c for c in free if c not in capped_set]
    return prob


@dataclass(frozen=True)
class Fit:
    """How far a guess of the opponent's hand is believed when, holding it, the opponent would
    not have played as it did (:class:`PastPlay`). Each factor multiplies the guess's weight
    once per such move: 1 ignores the kind of move, near 0 rules the guess out.

    * ``passed_melding``: it passed (or drew from the stock over) a card that melded with the
      cards it held;
    * ``took_unmelded``: it took a card that melded with none of them;
    * ``discard_not_least``: it threw a card that did not leave the least deadwood;
    * ``knock_skipped``: after its discard it could have knocked, without gin, and played on;
    * ``gin_skipped``: it could have gone gin and played on.
    """

    passed_melding: float
    took_unmelded: float
    discard_not_least: float
    knock_skipped: float
    gin_skipped: float = 0.02


#: An opponent that takes exactly the cards that meld, throws a card leaving the least
#: deadwood and knocks at its first chance (``simple``, the EAAI reference player): a guess
#: that contradicts its play is all but ruled out.
QUICK_FIT = Fit(passed_melding=0.05, took_unmelded=0.1, discard_not_least=0.2,
                knock_skipped=0.02)

#: An opponent that weighs its moves (``hard``, people): the same evidence, milder, and
#: nothing read from a knock it let go by.
PATIENT_FIT = Fit(passed_melding=0.3, took_unmelded=0.5, discard_not_least=0.6,
                  knock_skipped=1.0)


class PastPlay:
    """The opponent's moves this hand, to test a guess of its hand against them.

    :meth:`weight` walks the moves back from a guessed current hand: a discard returns the
    card, a take removes the card taken, a stock draw removes one card of the hand, picked at
    random among those it may have drawn (not a card known to have come from the pile). At
    each move the hand it held then is known, and the move is checked against what the
    opponent would have done with it (:class:`Fit`). One random walk back is an unbiased
    estimate of how well the guess fits, so accepting a guess with that probability keeps
    guesses in proportion to their fit.
    """

    __slots__ = ("moves", "known", "took", "knock_limit")

    def __init__(self, view: PlayerView) -> None:
        opponent = 1 - view.seat
        # (kind, card, other): a discard notes the card taken that turn (it may not be thrown
        # back), a stock draw the top discard it passed over (-1: no choice, after both
        # players passed the upcard).
        moves: list[tuple[str, int, int]] = []
        pile = [int(view.upcard)]
        taken = -1
        last = ""
        for event in view.history:
            kind = event.kind
            card = -1 if event.card is None else int(event.card)
            if event.seat == opponent:
                if kind == "take":
                    taken = card
                    moves.append((kind, card, -1))
                elif kind == "draw":
                    taken = -1
                    declined = -1 if last == "pass" or not pile else pile[-1]
                    moves.append((kind, -1, declined))
                elif kind == "pass" or kind == "discard":
                    moves.append((kind, card, taken))
            if kind == "take" and pile:
                pile.pop()
            elif (kind == "discard" or kind == "knock") and card >= 0:
                pile.append(card)
            last = kind
        self.moves = moves
        self.known = view.opponent_known_mask
        self.took = 0
        for card in view.opponent_took:
            self.took |= 1 << int(card)
        self.knock_limit = view.knock_limit

    def weight(self, hand: int, rng: random.Random, fit: Fit,
               drawn: Sequence[int] | None = None) -> float:
        """How well the guess ``hand`` (the opponent's cards now) fits its moves, walked back
        once with ``rng``: the product of ``fit``'s factors for the moves it contradicts.
        ``drawn``, the cards it really drew from the stock in order (for tests), replaces the
        random picks."""
        weight = 1.0
        draws = None if drawn is None else list(drawn)
        pinned = self.known & hand  # cards known to have come from the pile
        limit = self.knock_limit
        randrange = rng.randrange
        for kind, card, other in reversed(self.moves):
            if kind == "discard":
                before = hand | 1 << card
                # The least deadwood it could leave (never throwing back the card it took),
                # and what the card it threw left.
                least = best_discard(before, 0 if other < 0 else 1 << other)[1]
                thrown = min_deadwood(hand)
                if least <= limit:
                    weight *= fit.gin_skipped if least == 0 else fit.knock_skipped
                if thrown > least:
                    weight *= fit.discard_not_least
                hand = before
                if self.took >> card & 1:
                    pinned |= 1 << card  # it came from the pile, not the stock
            elif kind == "take":
                hand &= ~(1 << card)
                pinned &= ~(1 << card)
                if not melds_with(hand, card):
                    weight *= fit.took_unmelded
            elif kind == "draw":
                if draws is not None:
                    hand &= ~(1 << draws.pop())
                else:
                    free = hand & ~pinned
                    count = free.bit_count()
                    if count:
                        skip = randrange(count)
                        while skip:
                            free &= free - 1
                            skip -= 1
                        hand &= ~(free & -free)
                if other >= 0 and melds_with(hand, other):
                    weight *= fit.passed_melding
            elif card >= 0 and melds_with(hand, card):  # a pass
                weight *= fit.passed_melding
        return weight
