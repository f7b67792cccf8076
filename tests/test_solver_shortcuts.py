"""The solver's shortcuts for the computer players (issue 14, part 3) against the plain
answers they stand for: :func:`best_discard` against the least of :func:`discard_deadwoods`,
the set choices looked up per pattern against :func:`all_arrangements`, and ``hard``'s
incremental :func:`draw_outlook` against one :func:`best_discard_deadwood` per stock card."""

from __future__ import annotations

import random

from ginrummy.engine.cards import CARD_VALUE
from ginrummy.engine.melds import (
    all_arrangements,
    best_discard,
    best_discard_deadwood,
    best_layoffs,
    discard_deadwoods,
    draw_deadwoods,
    layoff_deadwood,
    min_deadwood,
    only_arrangement,
)
from ginrummy.players.knowledge import draw_outlook


def random_hand(rng: random.Random, size: int) -> list[int]:
    """Half uniform hands, half crowded ones (five consecutive ranks: sets, quads and runs
    that overlap, where the set choices matter)."""
    if rng.random() < 0.5:
        return rng.sample(range(52), size)
    low = rng.randrange(9)
    pool = [s * 13 + r for s in range(4) for r in range(low, low + 5)]
    return rng.sample(pool, min(size, len(pool)))


def plain_best_discard(mask: int, keep: int) -> tuple[int, int]:
    options = [(dw, -CARD_VALUE[c], c) for c, dw in discard_deadwoods(mask) if not keep >> c & 1]
    if not options:
        return -1, best_discard(0)[1]
    dw, _, card = min(options)
    return card, dw


def test_best_discard_is_the_least_of_discard_deadwoods() -> None:
    rng = random.Random(14)
    for _ in range(5000):
        cards = random_hand(rng, rng.randrange(0, 12))
        mask = sum(1 << c for c in cards)
        keep = sum(1 << c for c in cards[: rng.choice([0, 0, 1, 2, 4, 11])])
        if rng.random() < 0.1:
            keep |= rng.getrandbits(52)
        assert best_discard(mask, keep) == plain_best_discard(mask, keep), (mask, keep)


def test_best_discard_when_every_card_is_kept() -> None:
    mask = sum(1 << c for c in (0, 1, 2, 20))
    assert best_discard(mask, mask)[0] == -1
    assert best_discard(0)[0] == -1


def test_solver_answers_match_the_arrangements() -> None:
    rng = random.Random(15)
    for _ in range(2000):
        cards = random_hand(rng, rng.choice([10, 11]))
        mask = sum(1 << c for c in cards)
        least = all_arrangements(mask)[0].deadwood
        assert min_deadwood(mask) == least
        drops = discard_deadwoods(mask)
        assert [c for c, _ in drops] == sorted(cards)
        for card, dw in drops:
            assert dw == all_arrangements(mask & ~(1 << card))[0].deadwood
        assert best_discard_deadwood(mask) == min(dw for _, dw in drops)


def test_draw_outlook_is_the_plain_sum() -> None:
    rng = random.Random(16)
    for _ in range(3000):
        cards = random_hand(rng, rng.randrange(0, 11))
        mask = sum(1 << c for c in cards)
        stock = [(c, rng.random()) for c in rng.sample(range(52), 30) if not mask >> c & 1]
        plain = 0.0
        for card, weight in stock:
            plain += weight * best_discard_deadwood(mask | 1 << card)
        assert draw_outlook(mask, stock) == plain


def test_draw_deadwoods_for_any_card() -> None:
    # Cards already in the hand included: each answer is the plain one.
    rng = random.Random(17)
    for _ in range(2000):
        mask = sum(1 << c for c in random_hand(rng, rng.randrange(0, 11)))
        cards = rng.sample(range(52), 20)
        assert draw_deadwoods(mask, cards) == [
            best_discard_deadwood(mask | 1 << c) for c in cards
        ]


def test_layoff_deadwood_is_that_of_best_layoffs() -> None:
    rng = random.Random(18)
    checked = 0
    for _ in range(3000):
        cards = rng.sample(range(52), 20)
        knocker = sum(1 << c for c in cards[:10])
        defender = sum(1 << c for c in cards[10:])
        arrangements = all_arrangements(knocker)
        if not arrangements[0].meld_masks:
            continue
        for arrangement in arrangements[:3]:
            melds = arrangement.meld_masks
            assert layoff_deadwood(melds, defender) == best_layoffs(melds, defender)[0]
            assert layoff_deadwood(iter(melds), defender) == best_layoffs(melds, defender)[0]
        checked += 1
    assert checked > 500  # enough knocker hands with melds to lay off on


def test_only_arrangement_is_the_only_one() -> None:
    rng = random.Random(19)
    found = 0
    for _ in range(4000):
        mask = sum(1 << c for c in random_hand(rng, rng.choice([10, 11])))
        only = only_arrangement(mask)
        if only is not None:
            found += 1
            assert all_arrangements(mask) == [only]
    assert found > 1000
