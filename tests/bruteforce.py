"""An independent brute-force meld and layoff solver, the reference the engine is checked against.

Nothing here imports :mod:`ginrummy`: the rules are written again from RULES.md in the plainest
way possible, trading speed for obviousness.

* A card is an int ``suit * 13 + rank`` (the project's documented encoding: suits c, d, h, s;
  ranks ace 0 ... king 12). Its value is ace 1, 2-10 face value, J/Q/K 10.
* A meld is a frozenset of cards: 3 or 4 cards of one rank (a set), or 3 or more cards of one
  suit with consecutive ranks, ace low only (a run: A-2-3 yes, Q-K-A and K-A-2 no).
* An arrangement is a frozenset of pairwise disjoint melds; the other cards are deadwood.

Every arrangement is enumerated by taking the lowest card not yet decided: it is either
deadwood or belongs to one of the legal melds that contain it and fit in the undecided cards.
Each collection of disjoint melds is produced exactly once that way, so nothing is missed.

Layoffs are simulated one card at a time on the knocker's melds, exactly as at a table.

>>> min_deadwood([19 + 13 * s for s in (0, 2, 3)] + [46, 47])  # 7c 7h 7s 8s 9s
14
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from functools import lru_cache
from itertools import combinations

Meld = frozenset[int]
Arrangement = frozenset[Meld]

RANKS = "A23456789TJQK"
SUITS = "cdhs"


def rank(card: int) -> int:
    """0 for an ace up to 12 for a king."""
    return card % 13


def suit(card: int) -> int:
    """0 clubs, 1 diamonds, 2 hearts, 3 spades."""
    return card // 13


def value(card: int) -> int:
    """Deadwood points of one card."""
    return min(rank(card) + 1, 10)


def card(text: str) -> int:
    """A card from two characters such as ``7h`` or ``Ts`` (this module's own tiny parser)."""
    return SUITS.index(text[1].lower()) * 13 + RANKS.index(text[0].upper())


def cards(text: str) -> list[int]:
    """Cards from space-separated two-character tokens."""
    return [card(t) for t in text.split()]


def text(cards_: Iterable[int]) -> str:
    """Cards as sorted two-character tokens (for failure messages)."""
    return " ".join(RANKS[rank(c)] + SUITS[suit(c)] for c in sorted(cards_))


def is_set(meld: Iterable[int]) -> bool:
    """Three or four cards of one rank."""
    m = list(meld)
    return len(m) in (3, 4) and len({rank(c) for c in m}) == 1


def is_run(meld: Iterable[int]) -> bool:
    """Three or more cards of one suit with consecutive ranks (ace low only)."""
    m = sorted(meld)
    if len(m) < 3 or len({suit(c) for c in m}) != 1:
        return False
    return all(rank(m[i + 1]) == rank(m[i]) + 1 for i in range(len(m) - 1))


def is_meld(meld: Iterable[int]) -> bool:
    return is_set(meld) or is_run(meld)


def legal_melds(hand: Iterable[int]) -> list[Meld]:
    """Every legal meld made only of cards from ``hand``."""
    held = set(hand)
    melds: list[Meld] = []
    for r in range(13):
        same = [c for c in held if rank(c) == r]
        for size in (3, 4):
            melds.extend(frozenset(x) for x in combinations(same, size))
    for s in range(4):
        for start in range(13):
            run: list[int] = []
            for r in range(start, 13):
                c = s * 13 + r
                if c not in held:
                    break
                run.append(c)
                if len(run) >= 3:
                    melds.append(frozenset(run))
    return melds


def arrangements(hand: Iterable[int]) -> Iterator[tuple[Arrangement, int]]:
    """Every arrangement of ``hand`` with its deadwood, each exactly once."""
    cards_ = frozenset(hand)
    melds = legal_melds(cards_)

    def walk(
        rest: frozenset[int], chosen: list[Meld], dead: int
    ) -> Iterator[tuple[Arrangement, int]]:
        if not rest:
            yield frozenset(chosen), dead
            return
        low = min(rest)
        yield from walk(rest - {low}, chosen, dead + value(low))
        for m in melds:
            if low in m and m <= rest:
                chosen.append(m)
                yield from walk(rest - m, chosen, dead)
                chosen.pop()

    yield from walk(cards_, [], 0)


@lru_cache(maxsize=1 << 16)
def _min_deadwood(hand: frozenset[int]) -> int:
    return min(dw for _, dw in arrangements(hand))


def min_deadwood(hand: Iterable[int]) -> int:
    """Least deadwood of exactly these cards."""
    return _min_deadwood(frozenset(hand))


def best_arrangements(hand: Iterable[int]) -> set[Arrangement]:
    """Every arrangement (as a set of melds) that reaches the minimum deadwood."""
    found = list(arrangements(hand))
    best = min(dw for _, dw in found)
    return {arr for arr, dw in found if dw == best}


def discard_deadwoods(hand: Iterable[int]) -> dict[int, int]:
    """For each card, the least deadwood of the hand without it."""
    cards_ = frozenset(hand)
    return {c: min_deadwood(cards_ - {c}) for c in cards_}


def best_discard_deadwood(hand: Iterable[int]) -> int:
    """Least deadwood after discarding the best card."""
    return min(discard_deadwoods(hand).values())


def arrangement_deadwood(hand: Iterable[int], melds: Iterable[Iterable[int]]) -> int:
    """Deadwood of ``hand`` laid out as ``melds`` (which must be legal and disjoint)."""
    used: set[int] = set()
    held = set(hand)
    for m in melds:
        ms = set(m)
        assert is_meld(ms), f"{text(ms)} is not a meld"
        assert ms <= held, f"{text(ms - held)} not in the hand"
        assert not ms & used, f"{text(ms & used)} in two melds"
        used |= ms
    return sum(value(c) for c in held - used)


# ---------------------------------------------------------------------------------------------
# Layoffs, simulated one card at a time.


def _fits(c: int, meld: tuple[int, ...], was_set: bool) -> bool:
    """True when defender card ``c`` can be laid off on ``meld`` as it stands now."""
    if was_set:
        return len(meld) == 3 and rank(c) == rank(meld[0])
    if suit(c) != suit(meld[0]):
        return False
    ranks = [rank(x) for x in meld]
    return rank(c) == min(ranks) - 1 or rank(c) == max(ranks) + 1


def layoff_outcomes(
    knocker_melds: Iterable[Iterable[int]], defender: Iterable[int]
) -> set[frozenset[int]]:
    """Every set of defender cards that can be laid off on the knocker's melds, found by
    playing layoffs one card at a time in every order (chains included)."""
    start = tuple(sorted((tuple(sorted(m)), is_set(m)) for m in knocker_melds))
    for m, _ in start:
        assert is_meld(m), f"{text(m)} is not a meld"
    seen: set[tuple[tuple[tuple[tuple[int, ...], bool], ...], frozenset[int]]] = set()
    outcomes: set[frozenset[int]] = set()
    hand = frozenset(defender)

    def walk(melds: tuple[tuple[tuple[int, ...], bool], ...], laid: frozenset[int]) -> None:
        key = (melds, laid)
        if key in seen:
            return
        seen.add(key)
        outcomes.add(laid)
        for c in hand - laid:
            for i, (m, was_set) in enumerate(melds):
                if _fits(c, m, was_set):
                    grown = (tuple(sorted((*m, c))), was_set)
                    walk(tuple(sorted((*melds[:i], grown, *melds[i + 1 :]))), laid | {c})

    walk(start, frozenset())
    return outcomes


def defender_deadwood(knocker_melds: Iterable[Iterable[int]], defender: Iterable[int]) -> int:
    """The defender's count: minimum deadwood over every legal set of layoffs and every choice
    of its own melds among the cards it keeps."""
    hand = frozenset(defender)
    return min(min_deadwood(hand - laid) for laid in layoff_outcomes(knocker_melds, hand))
