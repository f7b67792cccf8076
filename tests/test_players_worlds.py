"""The world sampler: guesses of the hidden cards that agree with the seat's view, developed the
way a hand in play is, and drawn from the caller's generator only."""

from __future__ import annotations

import math
import random
from collections.abc import Iterator

import pytest

from ginrummy import Hand
from ginrummy.engine.develop import guess_hand
from ginrummy.engine.hand import deal_order
from ginrummy.engine.melds import discard_deadwoods, melds_with
from ginrummy.players import make
from ginrummy.players.knowledge import (
    QUICK_FIT,
    Fit,
    OpponentModel,
    PastPlay,
    opponent_turns,
)
from ginrummy.players.worlds import (
    develop_hand,
    develop_reference,
    fitting_hands,
    sample_developed_hands,
    sample_worlds,
)
from players_support import positions


def test_fast_development_agrees_with_the_plain_loop() -> None:
    # The shortcut for cards that meld with nothing must pick exactly the plain loop's
    # discards: same hands, same pool, same RNG draws, over many random hands (known cards
    # included, since they may never be thrown out).
    rng = random.Random(5)
    for trial in range(400):
        deck = list(range(52))
        rng.shuffle(deck)
        hand = sum(1 << c for c in deck[:10])
        known = sum(1 << c for c in deck[: rng.randrange(0, 4)])
        pool = deck[10:40]
        extra = rng.randrange(1, 25)
        a = develop_hand(hand, known, list(pool), extra, random.Random(trial))
        b = develop_reference(hand, known, list(pool), extra, random.Random(trial))
        assert a == b, (trial, hand, known)
        assert a & known == known and a.bit_count() == 10


def _guess_by_sorting(unseen: list[int], powers: list[float], hidden: int, known: int,
                      rng: random.Random) -> int:
    """The plain weighted draw guess_hand must agree with: sort every (key, card) pair."""
    keyed = sorted([(rng.random() ** p, c) for c, p in zip(unseen, powers, strict=True)],
                   reverse=True)
    hand = known
    for _, c in keyed[:hidden]:
        hand |= 1 << c
    return hand


def test_the_weighted_draw_agrees_with_sorting_the_keys() -> None:
    # guess_hand picks the largest keys without sorting (key, card) pairs; it must keep the
    # same cards, ties included (a weight near zero gives a key of 0.0, so many cards tie and
    # the higher cards win), draw for draw.
    rng = random.Random(6)
    for trial in range(600):
        deck = list(range(52))
        rng.shuffle(deck)
        known = sum(1 << c for c in deck[: rng.randrange(0, 4)])
        unseen = sorted(deck[10:10 + rng.randrange(0, 35)])
        powers = [rng.choice((1.0, 2.5, 0.4, 1e6, 1e9)) for _ in unseen]
        hidden = rng.randrange(0, 12)
        a = guess_hand(unseen, powers, hidden, known, 0, random.Random(trial))
        b = _guess_by_sorting(unseen, powers, hidden, known, random.Random(trial))
        assert a == b, trial
        assert (a & ~known).bit_count() == min(hidden, len(unseen))
    with pytest.raises(ValueError, match="one power per unseen card"):
        guess_hand([1, 2, 3], [1.0], 1, 0, 0, random.Random(1))


def test_worlds_agree_with_the_view() -> None:
    # Each world's view for the seat is the seat's own view; the opponent keeps the cards it
    # is known to hold and otherwise holds unseen cards only.
    for position in positions(3, seed=11):
        hand = position.hand()
        seat = hand.to_play
        view = hand.view(seat)
        model = OpponentModel(view)
        for world in sample_worlds(view, model, random.Random(3), 8, develop_per_turn=1.0):
            assert world.view(seat) == view
            opponent = world.hands[1 - seat]
            assert opponent & view.opponent_known_mask == view.opponent_known_mask
            assert opponent & ~view.opponent_known_mask & ~view.unseen_mask == 0


def test_the_same_seed_gives_the_same_worlds() -> None:
    for position in positions(2, seed=12):
        hand = position.hand()
        view = hand.view(hand.to_play)
        model = OpponentModel(view)
        extra = opponent_turns(view)
        first = sample_developed_hands(model, random.Random(8), 6, extra=extra)
        again = sample_developed_hands(model, random.Random(8), 6, extra=extra)
        assert first == again
        assert all(h.bit_count() == view.opponent_card_count for h in first)


# ---------------------------------------------------------------------------------------------
# Testing guesses against the opponent's moves (PastPlay, Fit, fitting_hands).

#: Factors that tell the kinds of contradiction apart in a product.
DISTINCT = Fit(passed_melding=0.5, took_unmelded=0.3, discard_not_least=0.7,
               knock_skipped=0.11, gin_skipped=0.13)


def _forward_weight(hand: Hand, opponent: int, fit: Fit) -> float:
    """The reference: replay the opponent's real moves from its dealt cards, forward, with
    every card known (the full history, not a view), multiplying ``fit``'s factor for each
    move that contradicts its cards at the time."""
    deck = [int(c) for c in hand.deck]
    dealt = deal_order(deck, hand.dealer)[opponent]
    held = dealt
    pile = [int(hand.upcard)]
    weight = 1.0
    taken = -1
    previous = ""
    for event in hand.history:
        kind, card = event.kind, (None if event.card is None else int(event.card))
        if event.seat == opponent:
            if kind == "take":
                assert card is not None
                if not melds_with(held, card):
                    weight *= fit.took_unmelded
                held |= 1 << card
                taken = card
            elif kind == "draw":
                assert card is not None
                if previous != "pass" and melds_with(held, pile[-1]):
                    weight *= fit.passed_melding
                held |= 1 << card
                taken = -1
            elif kind == "pass":
                assert card is not None
                if melds_with(held, card):
                    weight *= fit.passed_melding
            elif kind == "discard":
                assert card is not None
                options = dict(discard_deadwoods(held))
                least = min(dw for c, dw in options.items() if c != taken)
                if least == 0:
                    weight *= fit.gin_skipped
                elif least <= hand.knock_limit:
                    weight *= fit.knock_skipped
                if options[card] > least:
                    weight *= fit.discard_not_least
                held &= ~(1 << card)
        if kind == "take":
            pile.pop()
        elif kind in ("discard", "knock") and card is not None:
            pile.append(card)
        previous = kind
    return weight


def _opponent_draws(hand: Hand, opponent: int) -> list[int]:
    return [int(e.card) for e in hand.history if e.seat == opponent and e.kind == "draw"
            and e.card is not None]


def _mid_hand_views(opponent_name: str, games: int, rules: str) -> Iterator[tuple[Hand, int]]:
    """Positions of real hands (a copy at every decision of the seat facing
    ``opponent_name``), with that seat."""
    for game in range(games):
        hand = Hand(rules, seed=game)
        seat = game % 2
        players = {seat: make("simple", seed=game), 1 - seat: make(opponent_name, seed=game + 99)}
        while hand.result is None:
            if hand.to_play == seat:
                yield hand.copy(), seat
            hand.play(players[hand.to_play].choose(hand.view(hand.to_play)))


@pytest.mark.parametrize("rules", ["house", "oklahoma", "modern"])
def test_simple_play_fits_the_quick_opponent_exactly(rules: str) -> None:
    # `simple` takes exactly the cards that meld, throws a least-deadwood card and knocks at
    # once: walked back along its real draws, its real hand contradicts none of its moves.
    checked = 0
    for hand, seat in _mid_hand_views("simple", 25, rules):
        opponent = 1 - seat
        past = PastPlay(hand.view(seat))
        weight = past.weight(hand.hands[opponent], random.Random(0), DISTINCT,
                             drawn=_opponent_draws(hand, opponent))
        assert weight == 1.0, [e.text for e in hand.history]
        checked += 1
    assert checked > 300


@pytest.mark.parametrize("opponent_name", ["random", "hard"])
def test_the_walk_back_agrees_with_a_forward_replay(opponent_name: str) -> None:
    # Against players that break simple's rules, the walk back from the view (cards it
    # cannot see and all) finds exactly the contradictions a replay with every card finds.
    contradicted = 0
    for hand, seat in _mid_hand_views(opponent_name, 30, "house"):
        opponent = 1 - seat
        expected = _forward_weight(hand, opponent, DISTINCT)
        got = PastPlay(hand.view(seat)).weight(hand.hands[opponent], random.Random(0),
                                               DISTINCT, drawn=_opponent_draws(hand, opponent))
        assert math.isclose(got, expected, rel_tol=1e-12), [e.text for e in hand.history]
        contradicted += expected < 1.0
    assert contradicted > 20


def test_fitting_guesses_fit_better_and_stay_legal() -> None:
    # Kept guesses fit the quick opponent's play better on average than the guesses they
    # are drawn from, hold the cards it is known to hold, and come from the caller's RNG.
    before = after = 0.0
    seen = 0
    for hand, seat in _mid_hand_views("simple", 12, "house"):
        view = hand.view(seat)
        if opponent_turns(view) < 3:
            continue
        model = OpponentModel(view)
        past = PastPlay(view)
        extra = opponent_turns(view)
        raw = sample_developed_hands(model, random.Random(1), 40, extra=extra)
        kept = fitting_hands(past, QUICK_FIT, model, random.Random(1), 40, extra=extra,
                             tries=8)
        assert kept == fitting_hands(past, QUICK_FIT, model, random.Random(1), 40,
                                     extra=extra, tries=8)
        assert len(kept) == 40
        known = view.opponent_known_mask
        assert all(h & known == known and h.bit_count() == view.opponent_card_count
                   for h in kept)
        score = random.Random(2)
        before += sum(past.weight(h, score, QUICK_FIT) for h in raw) / len(raw)
        after += sum(past.weight(h, score, QUICK_FIT) for h in kept) / len(kept)
        seen += 1
    assert seen > 50
    assert after > 1.5 * before


def test_a_blended_model_reads_odds_and_danger_from_the_guesses() -> None:
    # Probabilities: each unseen card's share of the guesses, mixed with the model's own as
    # prior_weight guesses' worth; they still add up to the hidden cards. Danger: the share of
    # guesses holding two cards that meld with the card, mixed the same way with the danger
    # its blended odds give when each card is taken as independent.
    for position in positions(2, seed=21):
        hand = position.hand()
        view = hand.view(hand.to_play)
        model = OpponentModel(view)
        if model.hidden_count == 0:
            continue
        guesses = sample_developed_hands(model, random.Random(4), 30, extra=2)
        blended = model.blended(guesses, 10.0)
        unseen = [c for c in range(52) if view.unseen_mask >> c & 1]
        for c in unseen:
            share = sum(g >> c & 1 for g in guesses) / 30
            assert math.isclose(blended.prob[c], (30 * share + 10 * model.prob[c]) / 40)
        assert math.isclose(sum(blended.prob[c] for c in unseen), model.hidden_count)
        for c in range(52):
            if view.hand_mask >> c & 1:
                melding = sum(melds_with(g, c) for g in guesses)
                independent = OpponentModel.__new__(OpponentModel)
                independent.prob = blended.prob
                independent.hands = ()
                assert math.isclose(blended.danger(c),
                                    (melding + 10 * independent.danger(c)) / 40)
        only = model.blended(guesses, 0.0)
        card = next(c for c in range(52) if view.hand_mask >> c & 1)
        assert only.danger(card) == sum(melds_with(g, card) for g in guesses) / 30
        assert model.blended([], 10.0).prob == model.prob


def test_guesses_above_a_deadwood_have_more_and_the_rest_only_make_up_the_number() -> None:
    # ``above``: an opponent that knocks at its first chance holds more than the knock limit
    # after its turn. Every guess that passes is above it; when too few pass in the tries
    # allowed, the others make up the number, and without ``above`` nothing is filtered.
    from ginrummy.engine.melds import min_deadwood

    checked = 0
    for position in positions(6, seed=21):
        hand = position.hand()
        view = hand.view(hand.to_play)
        if opponent_turns(view) < 3:
            continue
        model = OpponentModel(view)
        plain = sample_developed_hands(model, random.Random(4), 40, extra=6)
        kept = sample_developed_hands(model, random.Random(4), 40, extra=6, above=10,
                                      tries=50)
        assert len(kept) == 40
        low = sum(min_deadwood(h) <= 10 for h in plain)
        if low and low < 40:
            checked += 1
            assert all(min_deadwood(h) > 10 for h in kept)
        impossible = sample_developed_hands(model, random.Random(4), 40, extra=6, above=200,
                                            tries=2)
        assert len(impossible) == 40
    assert checked >= 3
