"""The meld solver against an independent brute force (tests/bruteforce.py) and OpenSpiel.

RULES.md, "Melds": sets of 3 or 4 of a rank, runs of 3 or more in a suit with the ace low only,
a card in one meld at most, deadwood is the value of the cards outside melds. "Laying off": a
fourth card on a three-card set, run extensions at either end, chained, never on deadwood.

The default run checks a seeded subset of a few thousand hands plus Hypothesis examples; the
full cross-check (>= 10,000 hands against brute force and OpenSpiel, 100,000 against OpenSpiel)
runs with ``pytest --slow``.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

import pytest
from hypothesis import given
from hypothesis import strategies as st

import bruteforce as bf
import ginrummy
from ginrummy.engine import melds
from ginrummy.engine.errors import GinRummyError, InvalidCardError

# ---------------------------------------------------------------------------------------------
# Helpers.


def mask(cards: Iterable[int]) -> int:
    out = 0
    for c in cards:
        out |= 1 << c
    return out


def cards_of(m: int) -> frozenset[int]:
    return frozenset(i for i in range(52) if m >> i & 1)


def arrangement_as_sets(arr: melds.Arrangement) -> frozenset[frozenset[int]]:
    return frozenset(cards_of(m) for m in arr.meld_masks)


def check_arrangement(hand: Iterable[int], arr: melds.Arrangement) -> None:
    """Legal, disjoint melds from the hand; the rest is deadwood; deadwood is its value."""
    held = frozenset(hand)
    used: set[int] = set()
    for m in arr.meld_masks:
        meld = cards_of(m)
        assert bf.is_meld(meld), f"{bf.text(meld)} is not a legal meld"
        assert meld <= held
        assert not meld & used, f"{bf.text(meld & used)} used twice"
        used |= meld
    assert cards_of(arr.deadwood_mask) == held - used
    assert arr.deadwood == sum(bf.value(c) for c in held - used)


def os_card(c: int) -> int:
    """Our card index as OpenSpiel's: its suits run s, c, d, h (ours c, d, h, s)."""
    return (bf.suit(c) + 1) % 4 * 13 + bf.rank(c)


_OS_UTILS = None


def os_min_deadwood(hand: Iterable[int]) -> int:
    """OpenSpiel's minimum deadwood; the calling test is skipped where open-spiel is not
    installed (the brute-force checks run everywhere)."""
    global _OS_UTILS
    if _OS_UTILS is None:
        pyspiel = pytest.importorskip("pyspiel")
        _OS_UTILS = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
    return int(_OS_UTILS.min_deadwood([os_card(c) for c in hand]))


def check_hand(hand: list[int]) -> None:
    """Every solver function on one hand of up to 11 cards against the brute force."""
    m = mask(hand)
    expected = bf.min_deadwood(hand)
    assert melds.min_deadwood(m) == expected, bf.text(hand)
    every = melds.all_arrangements(m)
    assert {arrangement_as_sets(a) for a in every} == bf.best_arrangements(hand), bf.text(hand)
    assert len(every) == len({arrangement_as_sets(a) for a in every}), "duplicate arrangements"
    for arr in every:
        check_arrangement(hand, arr)
        assert arr.deadwood == expected
    best = melds.best_arrangement(m)
    check_arrangement(hand, best)
    assert best.deadwood == expected
    if len(hand) == 11:
        check_discards(hand)


def check_discards(hand: list[int]) -> None:
    m = mask(hand)
    truth = bf.discard_deadwoods(hand)
    got = melds.discard_deadwoods(m)
    assert [c for c, _ in got] == sorted(hand), "every card once, low card first"
    assert dict(got) == truth, bf.text(hand)
    assert melds.best_discard_deadwood(m) == min(truth.values()), bf.text(hand)


def dense_pool(rng: random.Random) -> list[int]:
    """A few adjacent ranks in every suit: hands drawn from it are full of sets and runs."""
    width = rng.randint(4, 7)
    low = rng.randint(0, 13 - width)
    return [s * 13 + r for s in range(4) for r in range(low, low + width)]


def seeded_hands(seed: int, count: int, size: int) -> list[list[int]]:
    """Half uniform random hands, half meld-dense ones; the same list on every run."""
    rng = random.Random(f"melds/{seed}/{size}")
    out = []
    for i in range(count):
        pool = list(range(52)) if i % 2 == 0 else dense_pool(rng)
        out.append(rng.sample(pool, min(size, len(pool))))
    return out


@st.composite
def hands(draw: st.DrawFn, min_size: int = 10, max_size: int = 10) -> list[int]:
    """Uniform or meld-dense hands (a window of adjacent ranks, sometimes one or two suits)."""
    size = draw(st.integers(min_size, max_size))
    if draw(st.booleans()):
        return sorted(draw(st.sets(st.integers(0, 51), min_size=size, max_size=size)))
    width = draw(st.integers(4, 8))
    low = draw(st.integers(0, 13 - width))
    suits = draw(st.sets(st.integers(0, 3), min_size=2, max_size=4))
    pool = [s * 13 + r for s in sorted(suits) for r in range(low, low + width)]
    size = min(size, len(pool))
    return sorted(draw(st.sets(st.sampled_from(pool), min_size=size, max_size=size)))


def t(text: str) -> list[int]:
    return bf.cards(text)


# ---------------------------------------------------------------------------------------------
# Hand-picked cases (expected values are arithmetic from RULES.md).


def test_seven_in_set_or_run_never_both() -> None:
    # RULES.md worked example 5: 7s in the set leaves 8s 9s (17); in the run leaves 7h 7c (14).
    hand = t("7s 7h 7c 8s 9s")
    assert melds.min_deadwood(mask(hand)) == 14
    (only,) = melds.all_arrangements(mask(hand))
    assert arrangement_as_sets(only) == {frozenset(t("7s 8s 9s"))}
    assert cards_of(only.deadwood_mask) == set(t("7h 7c"))


def test_four_of_a_kind_gives_one_card_to_a_run() -> None:
    # As a 4-set the 8s 9s are left (17); 7c7d7h + 7s8s9s melds everything.
    hand = t("7c 7d 7h 7s 8s 9s")
    assert melds.min_deadwood(mask(hand)) == 0
    (only,) = melds.all_arrangements(mask(hand))
    assert arrangement_as_sets(only) == {frozenset(t("7c 7d 7h")), frozenset(t("7s 8s 9s"))}


def test_four_of_a_kind_or_set_and_long_run_both_reach_zero() -> None:
    # 7c7d7h7s + 8s9sTs, or 7c7d7h + 7s8s9sTs: two arrangements with no deadwood.
    hand = t("7c 7d 7h 7s 8s 9s Ts")
    got = {arrangement_as_sets(a) for a in melds.all_arrangements(mask(hand))}
    assert got == {
        frozenset({frozenset(t("7c 7d 7h 7s")), frozenset(t("8s 9s Ts"))}),
        frozenset({frozenset(t("7c 7d 7h")), frozenset(t("7s 8s 9s Ts"))}),
    }


@pytest.mark.parametrize(
    ("text", "deadwood"),
    [
        ("Qs Ks As", 21),  # Q-K-A is not a run: 10 + 10 + 1
        ("Ks As 2s", 13),  # K-A-2 is not a run: 10 + 1 + 2
        ("Js Qs Ks As", 1),  # J-Q-K is a run, the ace stays deadwood
        ("As 2s 3s", 0),  # A-2-3 is a run
        ("3h 4h 5h 6h 7h 8h 9h", 0),  # a run of seven
        ("Ah 2h 3h 4h 5h 6h 7h 8h 9h Th Jh", 0),  # eleven in a row
        ("7c 7d", 14),  # two of a kind is no meld
        ("7c 8d 9h", 24),  # consecutive ranks in different suits are no run
        ("", 0),
    ],
)
def test_small_cases(text: str, deadwood: int) -> None:
    hand = t(text)
    assert melds.min_deadwood(mask(hand)) == deadwood
    assert bf.min_deadwood(hand) == deadwood  # the reference agrees with the arithmetic


def test_long_run_can_be_split() -> None:
    # A-2-3-4-5-6 is one run or two; both arrangements reach zero.
    hand = t("As 2s 3s 4s 5s 6s")
    got = {arrangement_as_sets(a) for a in melds.all_arrangements(mask(hand))}
    assert frozenset({frozenset(hand)}) in got
    assert frozenset({frozenset(t("As 2s 3s")), frozenset(t("4s 5s 6s"))}) in got


def test_openspiel_eleven_card_counterexample() -> None:
    # OpenSpiel says 11 here. 4s5s6s + 4d5d6d leave 2c 4c Ah 3h 6h (16); discarding the 6h
    # leaves 10. The sets 4s4c4d + 6s6d6h leave 5s 2c 5d Ah 3h (16), at best 11.
    hand = t("4s 5s 6s 2c 4c 4d 5d 6d Ah 3h 6h")
    assert bf.best_discard_deadwood(hand) == 10
    assert melds.best_discard_deadwood(mask(hand)) == 10
    check_hand(hand)


def test_best_discard_of_empty_mask_is_large() -> None:
    assert melds.best_discard_deadwood(0) > 1000


def test_all_melds_table() -> None:
    # 13 ranks x (one 4-set + four 3-sets) = 65; runs per suit: sum over lengths 3..13 of
    # (14 - length) = 66, times 4 = 264.
    assert len(melds.ALL_MELDS) == len(set(melds.ALL_MELDS)) == 65 + 264
    assert {cards_of(m) for m in melds.ALL_MELDS} == set(bf.legal_melds(range(52)))
    for m in melds.ALL_MELDS:
        assert melds.is_meld(m)
        assert melds.is_set(m) == bf.is_set(cards_of(m))
        assert melds.is_run(m) == bf.is_run(cards_of(m))


# ---------------------------------------------------------------------------------------------
# Public wrappers.


def test_public_wrappers_accept_text_and_cards() -> None:
    assert ginrummy.deadwood("7s 7h 7c 8s 9s") == 14
    assert ginrummy.deadwood([int(c) for c in ginrummy.parse_cards("7s,7h,7c,8s,9s")]) == 14
    assert ginrummy.deadwood("") == 0
    arr = ginrummy.best_melds("7♠ 7♥ 7♣ 7♦ 8♠ 9♠")
    assert arr.deadwood == 0
    assert {frozenset(int(c) for c in m) for m in arr.melds} == {
        frozenset(t("7c 7d 7h")),
        frozenset(t("7s 8s 9s")),
    }
    assert arr.deadwood_cards == ginrummy.CardSet()
    assert len(ginrummy.all_melds("7c 7d 7h 7s 8s 9s Ts")) == 2


@given(hands(min_size=0, max_size=11))
def test_public_wrappers_match_brute_force(hand: list[int]) -> None:
    text = " ".join(bf.text([c]) for c in hand)
    assert ginrummy.deadwood(text) == bf.min_deadwood(hand)
    arr = ginrummy.best_melds(hand)
    check_arrangement(hand, arr)
    assert arr.deadwood == bf.min_deadwood(hand)


def test_public_wrappers_reject_more_than_eleven_cards() -> None:
    twelve = "Ac 2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc"
    for fn in (ginrummy.deadwood, ginrummy.best_melds, ginrummy.all_melds):
        with pytest.raises(GinRummyError, match="12"):
            fn(twelve)


def test_public_wrappers_reject_duplicates_and_bad_cards() -> None:
    with pytest.raises(InvalidCardError, match="7h"):
        ginrummy.deadwood("7h 7H")
    with pytest.raises(InvalidCardError, match="1h"):
        ginrummy.deadwood("7h 1h")
    with pytest.raises(InvalidCardError):
        ginrummy.deadwood([52])


# ---------------------------------------------------------------------------------------------
# Against the brute force: Hypothesis and seeded hands.


@given(hands(min_size=0, max_size=11))
def test_solver_matches_brute_force(hand: list[int]) -> None:
    check_hand(hand)


@given(hands(min_size=11, max_size=11))
def test_discards_match_brute_force(hand: list[int]) -> None:
    check_discards(hand)


FAST_HANDS = 3000


def test_seeded_ten_card_hands_match_brute_force() -> None:
    for hand in seeded_hands(1, FAST_HANDS, 10):
        check_hand(hand)


def test_seeded_ten_card_hands_match_openspiel() -> None:
    # The same hands: with the test above, brute force, our solver and OpenSpiel all agree.
    for hand in seeded_hands(1, FAST_HANDS, 10):
        assert melds.min_deadwood(mask(hand)) == os_min_deadwood(hand), bf.text(hand)


def test_seeded_eleven_card_hands_match_brute_force() -> None:
    for hand in seeded_hands(2, 1500, 11):
        check_hand(hand)


@pytest.mark.slow
def test_ten_thousand_hands_match_brute_force() -> None:
    for hand in seeded_hands(3, 10_000, 10):
        check_hand(hand)


@pytest.mark.slow
def test_ten_thousand_hands_match_openspiel() -> None:
    for hand in seeded_hands(3, 10_000, 10):
        assert melds.min_deadwood(mask(hand)) == os_min_deadwood(hand), bf.text(hand)


@pytest.mark.slow
def test_ten_thousand_eleven_card_hands_match_brute_force() -> None:
    for hand in seeded_hands(4, 10_000, 11):
        check_hand(hand)


@pytest.mark.slow
def test_hundred_thousand_hands_match_openspiel() -> None:
    for hand in seeded_hands(5, 100_000, 10):
        assert melds.min_deadwood(mask(hand)) == os_min_deadwood(hand), bf.text(hand)


# ---------------------------------------------------------------------------------------------
# Layoffs.


def check_layoffs(knocker_melds: list[frozenset[int]], defender: list[int]) -> None:
    """best_layoffs against the one-card-at-a-time simulation."""
    outcomes = bf.layoff_outcomes(knocker_melds, defender)
    held = frozenset(defender)
    best = min(bf.min_deadwood(held - laid) for laid in outcomes)
    fewest = min(len(laid) for laid in outcomes if bf.min_deadwood(held - laid) == best)
    dw, laid_mask, arr = melds.best_layoffs([mask(m) for m in knocker_melds], mask(defender))
    where = f"knocker {[bf.text(m) for m in knocker_melds]} defender {bf.text(defender)}"
    assert dw == best, where
    laid = cards_of(laid_mask)
    assert laid in outcomes, f"illegal layoffs {bf.text(laid)}: {where}"
    assert len(laid) == fewest, f"lays off more cards than needed: {where}"
    check_arrangement(held - laid, arr)
    assert arr.deadwood == dw
    # Every card that some legal layoff uses, and nothing else.
    assert cards_of(
        melds.layoff_candidates([mask(m) for m in knocker_melds], mask(defender))
    ) == frozenset().union(*outcomes)


def L(*texts: str) -> list[frozenset[int]]:
    return [frozenset(t(x)) for x in texts]


# Filler cards that make no meld among themselves or with the cards of the cases below:
# Kd Kc Qh Jh Td 2h 3d 4c is 10 * 5 + 2 + 3 + 4 = 59; with the 5h, 64.
F8 = "Kd Kc Qh Jh Td 2h 3d 4c"
F9 = F8 + " 5h"


@pytest.mark.parametrize(
    ("knocker", "defender", "deadwood", "laid"),
    [
        # On 5-6-7s the 8s and then the 9s (RULES.md, "Laying off").
        (("5s 6s 7s",), "8s 9s " + F8, 59, "8s 9s"),
        # Extending downward, chained: 4s then 3s.
        (("5s 6s 7s",), "3s 4s " + F8, 59, "3s 4s"),
        # Both ends of one run.
        (("5s 6s 7s",), "4s 8s " + F8, 59, "4s 8s"),
        # A fourth card on a three-card set.
        (("8c 8d 8h",), "8s " + F9, 64, "8s"),
        # The knocker keeps the 8s as deadwood (only 5-6-7s is a meld), so the 9s has nowhere
        # to go: 64 + 9.
        (("5s 6s 7s",), "9s " + F9, 73, ""),
        # The chain stops at a gap: 8s goes, Ts (10) stays.
        (("5s 6s 7s",), "8s Ts " + F8, 69, "8s"),
        # Better kept home: laying off 8s 9s breaks 8s8c8d (8c 8d = 16 left); keeping the set
        # leaves only the 9s. Kh Qd Jc 2h 3d 4c = 39; 39 + 9 = 48.
        (("5s 6s 7s",), "8s 9s 8c 8d Kh Qd Jc 2h 3d 4c", 48, ""),
        # With four 8s the 8s and 9s both go and 8c8d8h stays a set: Kh Qd Jc 2h 3d = 35
        # (keeping the 4-set leaves the 9s: 44).
        (("5s 6s 7s",), "8s 9s 8c 8d 8h Kh Qd Jc 2h 3d", 35, "8s 9s"),
        # Laying off the 8s or keeping the four 8s gives the same 39: the engine's decision is
        # to lay off the fewest cards, so nothing goes.
        (("5s 6s 7s",), "8s 8c 8d 8h Kh Qd Jc 2h 3d 4c", 39, ""),
        # The 5s fits between 2-3-4s and 6-7-8s: laid off once.
        (("2s 3s 4s", "6s 7s 8s"), "5s " + F9, 64, "5s"),
        # No layoff past the king or below the ace: K-A is not a run.
        (("Js Qs Ks",), "As " + F9, 65, ""),
        (("As 2s 3s",), "Ks Qd Qc Jh Th 9d 2h 3d 4c 5h", 73, ""),
        # Nothing goes on a four-card set; the run still takes its card.
        (("9c 9d 9h 9s", "5s 6s 7s"), "8s " + F9, 64, "8s"),
        # 8s is both the fourth 8 and the next card of 5-6-7s; only on the run can the 9s
        # follow, so both go.
        (("8c 8d 8h", "5s 6s 7s"), "8s 9s " + F8, 59, "8s 9s"),
    ],
)
def test_layoff_cases(knocker: tuple[str, ...], defender: str, deadwood: int, laid: str) -> None:
    ms = L(*knocker)
    d = t(defender)
    assert bf.defender_deadwood(ms, d) == deadwood  # the simulation agrees with the arithmetic
    dw, laid_mask, _ = melds.best_layoffs([mask(m) for m in ms], mask(d))
    assert dw == deadwood
    assert cards_of(laid_mask) == frozenset(t(laid))
    check_layoffs(ms, d)


def test_no_layoff_on_a_four_card_set() -> None:
    # Every defender card against a lone 4-set: nothing can be laid off.
    four = mask(t("9c 9d 9h 9s"))
    rest = [c for c in range(52) if not four >> c & 1]
    assert melds.layoff_candidates([four], mask(rest)) == 0
    assert melds.layoff_spots([four], four) == 0
    assert bf.layoff_outcomes([frozenset(t("9c 9d 9h 9s"))], rest) == {frozenset()}


def random_layoff_position(rng: random.Random) -> tuple[list[frozenset[int]], list[int]]:
    """Knocker melds (some arrangement of a random hand) and a defender's ten other cards,
    most of them near the knocker's melds so that layoffs and chains are common."""
    while True:
        pool = list(range(52)) if rng.random() < 0.3 else dense_pool(rng) + rng.sample(range(52), 8)
        pool = sorted(set(pool))
        knocker = rng.sample(pool, 10)
        arrs = [a for a, _ in bf.arrangements(knocker) if a]
        if arrs:
            break
    knocker_melds = list(rng.choice(arrs))
    rest = [c for c in range(52) if c not in knocker]
    near = [
        c
        for c in rest
        for m in knocker_melds
        if (bf.is_set(m) and bf.rank(c) == bf.rank(min(m)))
        or (
            bf.is_run(m)
            and bf.suit(c) == bf.suit(min(m))
            and bf.rank(min(m)) - 3 <= bf.rank(c) <= bf.rank(max(m)) + 3
        )
    ]
    near = sorted(set(near))
    defender = rng.sample(near, min(len(near), rng.randint(2, 7)))
    in_pool = [c for c in rest if c in pool and c not in defender]
    defender += rng.sample(in_pool, min(len(in_pool), rng.randint(0, 10 - len(defender))))
    defender += rng.sample([c for c in rest if c not in defender], 10 - len(defender))
    return knocker_melds, defender


@given(st.randoms(use_true_random=False))
def test_layoffs_match_simulation(rng: random.Random) -> None:
    check_layoffs(*random_layoff_position(rng))


def test_seeded_layoffs_match_simulation() -> None:
    rng = random.Random("layoffs")
    for _ in range(1500):
        check_layoffs(*random_layoff_position(rng))


@pytest.mark.slow
def test_ten_thousand_layoffs_match_simulation() -> None:
    rng = random.Random("layoffs/slow")
    for _ in range(10_000):
        check_layoffs(*random_layoff_position(rng))


def test_layoff_spots() -> None:
    # The fourth 8 and the cards just past each end of 5-6-7s, minus what the knocker holds.
    ms = [mask(t("8c 8d 8h")), mask(t("5s 6s 7s"))]
    held = mask(t("8c 8d 8h 5s 6s 7s 4s"))
    assert cards_of(melds.layoff_spots(ms, held)) == frozenset(t("8s"))
    assert cards_of(melds.layoff_spots([mask(t("As 2s 3s"))], 0)) == frozenset(t("4s"))
    assert cards_of(melds.layoff_spots([mask(t("Js Qs Ks"))], 0)) == frozenset(t("Ts"))


# ---------------------------------------------------------------------------------------------
# Geometry around one card, against the table of every meld.


def _shares_a_meld(card: int, other: int) -> bool:
    return any(m >> card & 1 and m >> other & 1 for m in melds.ALL_MELDS if m.bit_count() == 3)


def test_meld_neighbours_are_the_cards_sharing_a_three_card_meld() -> None:
    for card in range(52):
        same_rank, near, far = melds.meld_neighbours(card)
        assert same_rank | near | far == mask(c for c in range(52)
                                              if c != card and _shares_a_meld(card, c))
        assert same_rank == mask(c for c in range(52) if c != card and c % 13 == card % 13)
        assert near == mask(c for c in range(52) if c // 13 == card // 13
                            and abs(c - card) == 1)
        assert far == mask(c for c in range(52) if c // 13 == card // 13 and abs(c - card) == 2)
        close, gapped = melds.START_PARTNERS[card]
        assert (close, gapped) == (same_rank | near, far)


@given(st.integers(0, 51), st.lists(st.integers(0, 51), max_size=12))
def test_melds_with_matches_the_table_of_melds(card: int, cards: list[int]) -> None:
    held = mask(cards)
    others = held & ~(1 << card)
    expected = any(m >> card & 1 and (m & ~(1 << card)) & ~others == 0
                   for m in melds.ALL_MELDS)
    assert melds.melds_with(held, card) == expected

