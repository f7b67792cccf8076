"""The public calls' fast paths (issue 14) give exactly what the general code gives: the same
mask, cards and arrangement for good input, the same error (type and words) for bad input."""

from __future__ import annotations

import dataclasses
import functools
import pickle
import random
from decimal import Decimal
from fractions import Fraction
from typing import Any

import pytest

import ginrummy
from ginrummy import GinRummyError, Hand, HandResult, PlayerView, RuleSet, get_rules
from ginrummy.engine import solve
from ginrummy.engine.cards import (
    CARD_TEXT,
    FULL_DECK,
    Card,
    CardSet,
    _checked_mask,
    _parse_text,
    cards_of_mask,
    fast_mask,
    mask_text,
    parse_cards,
    to_mask,
)
from ginrummy.engine.events import DISCARD, SeatKnowledge
from ginrummy.engine.hand import _legal_texts
from ginrummy.engine.legal import Mover, legal_moves
from ginrummy.engine.melds import (
    ALL_MELDS,
    Arrangement,
    _suit_run_partitions,
    all_arrangements,
    best_arrangement,
    best_layoffs,
    declared_arrangement,
    layoff_spots,
    min_deadwood,
)
from ginrummy.engine.rules import PROFILE_NAMES
from ginrummy.engine.settle import default_knock_arrangement, knock_layout, layout_melds, settle

np: Any
try:
    import numpy as np
except ImportError:  # pragma: no cover - numpy comes with the dev tools
    np = None


def outcome(fn: Any, *args: Any) -> tuple[str, Any]:
    try:
        return "ok", fn(*args)
    except Exception as e:  # the very error is what is compared
        return type(e).__name__, str(e)


def reference_hand_mask(cards: Any) -> int:
    """What ``solve._hand_mask`` did before the fast paths."""
    mask = _checked_mask(cards, "hand")
    if mask.bit_count() > 11:
        raise GinRummyError(f"a gin rummy hand has at most 11 cards, not {mask.bit_count()}")
    return mask


ODD_INPUTS: list[Any] = [
    [],
    (),
    "",
    "   ",
    [0, 1, 2],
    [True, 5, 6],
    [5, False, 6],
    [1, 2, True],
    [0, 1.0],
    [5.0, 6, 7],
    [Decimal(5), 6],
    [Fraction(5), 6],
    [-1, 5],
    [51, -1],
    [52, 3],
    [103, 3],
    [104, 3],
    [10**30, 3],
    [5, 5],
    [Card(5), 5],
    ["7h", "7h"],
    ["7h", 33],
    [33, "7h"],
    ["7h 8h", "9h"],
    [" 7h", "8h"],
    ["7h8h", "9h"],
    ["7x", "8h"],
    [None, 3],
    [[3], 4],
    [{3}, 4],
    ["10h", "Th"],
    "7h 8h 9h 9h",
    "7h,8h, 9h",
    "7h8h9h",
    "7h, ,8h",
    "10♥ 9♡ j♠ Qs",
    "7h 8h 9x",
    "zz",
    "7h\t8h\n9h\x1c Ts",
    "7h 8h 9h Th Jh Qh Kh Ah 2h 3h 4h 5h",
    list(range(12)),
    list(range(11)),
    tuple(range(10)),
    CardSet("7h 8h"),
    CardSet(range(12)),
    {3, 4, 5},
    frozenset({3, 4}),
    range(5),

    5,
    True,
    None,
    3.0,
    b"7h",
]
if np is not None:
    ODD_INPUTS += [
        [np.int64(5), 6],
        [5, np.int64(6)],
        np.array([5, 6]),
        [np.bool_(True), 5],
    ]


@pytest.mark.parametrize("cards", ODD_INPUTS, ids=repr)
def test_odd_inputs_give_what_the_general_code_gives(cards: Any) -> None:
    want = outcome(reference_hand_mask, cards)
    assert outcome(solve._hand_mask, cards) == want
    if want[0] == "ok":
        assert outcome(ginrummy.deadwood, cards) == ("ok", min_deadwood(want[1]))
        assert ginrummy.best_melds(cards) == all_arrangements(want[1])[0]
    else:
        assert outcome(ginrummy.deadwood, cards) == want
        assert outcome(ginrummy.best_melds, cards) == want
    assert outcome(to_mask, cards) == outcome(_checked_mask, cards, "cards")
    if isinstance(cards, str):
        assert outcome(parse_cards, cards) == outcome(_parse_text, cards)


def test_fast_mask_refuses_rather_than_guesses() -> None:
    for cards in ([True, 5], [5.0], [5, 5], [-1], [52], "7h7h", "7h 7h", "7h, x", {3}):
        assert fast_mask(cards) == -1


def test_random_hands_in_every_form() -> None:
    rng = random.Random(14)
    for _ in range(3000):
        size = rng.randrange(0, 14)
        cards = rng.sample(range(52), size)
        if rng.random() < 0.2 and cards:
            cards.append(rng.choice(cards))  # a duplicate
        texts = [CARD_TEXT[c] for c in cards]
        forms: list[Any] = [
            cards,
            tuple(cards),
            [Card(c) for c in cards],
            texts,
            " ".join(texts),
            ", ".join(texts),
            "".join(texts),
            " ".join(t.lower() for t in texts),
        ]
        want = outcome(reference_hand_mask, cards)
        for form in forms:
            assert outcome(solve._hand_mask, form) == want, form
            assert outcome(ginrummy.deadwood, form) == (
                want if want[0] != "ok" else ("ok", min_deadwood(want[1]))
            )
        text = " ".join(texts)
        assert parse_cards(text) == _parse_text(text) == [Card(c) for c in cards]


def test_best_arrangement_is_the_first_of_all_arrangements() -> None:
    rng = random.Random(7)
    for size in (0, 1, 3, 6, 9, 10, 11, 13):
        for _ in range(1500):
            if rng.random() < 0.5:
                cards = rng.sample(range(52), size)
            else:  # crowded: five consecutive ranks, several ways to meld
                low = rng.randrange(9)
                pool = [s * 13 + r for s in range(4) for r in range(low, low + 5)]
                cards = rng.sample(pool, min(size, 20))
            mask = sum(1 << c for c in cards)
            got = best_arrangement(mask)
            want = all_arrangements(mask)[0]
            assert got == want
            assert (got.meld_masks, got.deadwood_mask, got.deadwood) == (
                want.meld_masks,
                want.deadwood_mask,
                want.deadwood,
            )


def test_long_runs_that_split_two_ways() -> None:
    # Six or more in a row split as one run or two: the fewest melds come first.
    assert len(_suit_run_partitions(0b111111)) > 1
    for text in ("Ah 2h 3h 4h 5h 6h", "Ah 2h 3h 4h 5h 6h 7h 8h 9h", "4c 4d 4h 2h 3h 5h 6h 7h 8h"):
        mask = to_mask(text)
        assert best_arrangement(mask) == all_arrangements(mask)[0]


def test_an_iterator_takes_the_general_path() -> None:
    assert solve._hand_mask(iter([3, 4])) == reference_hand_mask(iter([3, 4])) == 0b11000
    assert ginrummy.deadwood(iter(["7h", "8h", "9h"])) == 0


# ---------------------------------------------------------------------------------------------
# Views built before every move: the fast build equals the view built the plain way.


def reference_view(h: Hand, seat: int) -> PlayerView:
    """The view as Hand.view built it before issue 14: the seat's knowledge rebuilt from the
    history, every field through the dataclass constructor."""
    over = h.over
    opponent = 1 - seat
    knows = SeatKnowledge.rebuild(h.history, seat, over)
    mine = h.to_play == seat
    return PlayerView(
        seat=seat,
        rules=h.rules,
        dealer=h.dealer,
        phase=h.phase,
        to_play=h.to_play,
        hand_mask=h.hands[seat],
        discard_pile=tuple(Card(c) for c in h.discard_pile),
        stock_count=len(h.stock),
        upcard=h.upcard,
        knock_limit=h.knock_limit,
        multiplier=h.multiplier,
        taken=Card(h.taken) if h.taken >= 0 and mine else None,
        drawn=Card(h.drawn) if h.drawn >= 0 and mine else None,
        opponent_card_count=h.hands[opponent].bit_count(),
        opponent_known_mask=knows.opponent_known,
        opponent_took=knows.opponent_took,
        opponent_passed=knows.opponent_passed,
        opponent_discards=knows.opponent_discards,
        history=knows.history,
        legal_moves=tuple(m.text for m in h.legal_moves()) if mine and not over else (),
        result=h.result if over else None,
        opponent_hand_mask=h.hands[opponent] if over else None,
    )


@pytest.mark.parametrize("profile", PROFILE_NAMES)
def test_fast_views_equal_the_reference_on_random_games(profile: str) -> None:
    rng = random.Random(f"views/{profile}")
    for i in range(12):
        rules = get_rules(profile, last_discard_chance=i % 2 == 0)
        h = Hand(rules, seed=f"{profile}/{i}", dealer=i % 2)
        knock_bias = 0.7 if i % 3 else 0.0
        while True:
            for seat in (0, 1):
                view = h.view(seat)
                want = reference_view(h, seat)
                assert view == want
                # Field by field, the same values of the same types (not merely equal ones).
                for field in dataclasses.fields(view):
                    got, expected = getattr(view, field.name), getattr(want, field.name)
                    assert got == expected and type(got) is type(expected), field.name
                assert type(view.legal_moves[0] if view.legal_moves else "") is str
                assert view == dataclasses.replace(view)  # what the constructor builds
            if h.over:
                break
            moves = h.legal_moves()
            goes_out = [m for m in moves if m.goes_out]
            move = rng.choice(goes_out if goes_out and rng.random() < knock_bias else moves)
            h.play(move)


def test_legal_texts_at_discard_positions() -> None:
    rng = random.Random(3)
    for profile in PROFILE_NAMES:
        rules = get_rules(profile)
        for _ in range(3000):
            cards = rng.sample(range(52), 11)
            mask = sum(1 << c for c in cards)
            taken = rng.choice([-1, *cards])
            for limit in (0, 1, 5, 10):
                mover: Mover = (DISCARD, mask, -1, taken, limit, rules)
                assert _legal_texts(mover) == tuple(m.text for m in legal_moves(mover))
    # Big gin: every card in melds, and Oklahoma's knock limits down to zero.
    mask = to_mask("Ah 2h 3h 4h 7c 7d 7s 9s Ts Js Qs")
    for profile in PROFILE_NAMES:
        for limit in (0, 1, 10):
            mover: Mover = (DISCARD, mask, -1, -1, limit, get_rules(profile))
            texts = _legal_texts(mover)
            assert texts == tuple(m.text for m in legal_moves(mover))
            assert ("big gin" in texts) == get_rules(profile).big_gin


# ---------------------------------------------------------------------------------------------
# Settling on masks: the knocker's layout, the layoffs and the lazily filled result equal the
# plain way (every arrangement listed, every layoff choice tried, every field built).


def reference_knock_arrangement(mask: int) -> Arrangement:
    """The knocker's default arrangement as it was worked out before: the first of
    ``all_arrangements`` with the fewest layoff spots."""
    return min(all_arrangements(mask), key=lambda a: layoff_spots(a.meld_masks, mask).bit_count())


def reference_settle(
    knocker: int, defender: int, rules: RuleSet, knock_limit: int, multiplier: int,
    melds: list[int] | None, seat: int, knock_discard: int | None,
) -> HandResult:
    """``settle`` as it was before: eager, through ``best_layoffs`` and the constructor."""
    big = knocker.bit_count() == 11
    assert rules.big_gin or not big
    if melds is not None:
        arr = declared_arrangement(knocker, melds)
    elif big:
        arr = best_arrangement(knocker)
    else:
        arr = reference_knock_arrangement(knocker)
    assert arr.deadwood <= knock_limit and not (big and arr.deadwood)
    if big or arr.deadwood == 0:
        d_arr = best_arrangement(defender)
        d_dw, layoffs = d_arr.deadwood, 0
        kind = "big_gin" if big else "gin"
        bonus = rules.big_gin_bonus if big else rules.gin_bonus
        points, winner = d_dw + bonus, "knocker"
    else:
        d_dw, layoffs, d_arr = best_layoffs(arr.meld_masks, defender)
        if arr.deadwood < d_dw:
            kind, winner, bonus, points = "knock", "knocker", 0, d_dw - arr.deadwood
        else:
            bonus = rules.undercut_bonus
            kind, winner, points = "undercut", "defender", arr.deadwood - d_dw + bonus
    return HandResult(
        kind=kind,  # type: ignore[arg-type]
        winner=winner,  # type: ignore[arg-type]
        points=points * multiplier,
        knocker_seat=seat,
        winner_seat=seat if winner == "knocker" else 1 - seat,
        knocker_deadwood=arr.deadwood,
        defender_deadwood=d_dw,
        layoffs=tuple(cards_of_mask(layoffs)),
        knocker_melds=tuple(CardSet.from_mask(m) for m in arr.meld_masks),
        knocker_deadwood_cards=CardSet.from_mask(arr.deadwood_mask),
        defender_melds=tuple(CardSet.from_mask(m) for m in d_arr.meld_masks),
        defender_deadwood_cards=CardSet.from_mask(d_arr.deadwood_mask),
        knock_discard=None if knock_discard is None else Card(knock_discard),
        multiplier=multiplier,
        knock_limit=knock_limit,
        bonus=bonus,
    )


def crowded(rng: random.Random, size: int, width: int) -> list[int]:
    """``size`` cards of ``width`` consecutive ranks: hands that meld in several ways."""
    low = rng.randrange(14 - width)
    pool = [s * 13 + r for s in range(4) for r in range(low, low + width)]
    return rng.sample(pool, min(size, len(pool)))


def test_knock_layout_is_the_reference_arrangement() -> None:
    rng = random.Random(41)
    for i in range(20000):
        size = rng.choice((10, 10, 10, 11, 9, 7, 4))
        cards = rng.sample(range(52), size) if i % 3 == 0 else crowded(rng, size, 5 + i % 3)
        mask = sum(1 << c for c in cards)
        want = reference_knock_arrangement(mask)
        got = default_knock_arrangement(mask)
        assert (got.meld_masks, got.deadwood_mask, got.deadwood) == (
            want.meld_masks, want.deadwood_mask, want.deadwood
        ), mask_text(mask)
        dead, spots, in_sets, melds, dead_mask = knock_layout(mask)
        if melds is None or dead_mask is None:
            melds, dead_mask = layout_melds(mask, in_sets)
        assert sorted(melds) == sorted(want.meld_masks)
        assert (dead_mask, dead) == (want.deadwood_mask, want.deadwood)
        assert spots == layoff_spots(want.meld_masks, mask)


def deal_for_settling(rng: random.Random, i: int) -> tuple[int, int]:
    """A knocker's 10 (or 11) cards of a few consecutive ranks, built from melds so that a
    knock is mostly legal, and a defender's 10 from the rest of a wider window of ranks, so
    that they often lie next to the knocker's melds (layoffs, chains and sets of four)."""
    size = 11 if i % 7 == 0 else 10
    width = 5 + i % 4
    low = rng.randrange(14 - width)
    pool = [s * 13 + r for s in range(4) for r in range(low, low + width)]
    window = sum(1 << c for c in pool)
    knocker = 0
    for meld in rng.sample([m for m in ALL_MELDS if not m & ~window], 12):
        if not meld & knocker and knocker.bit_count() + meld.bit_count() <= size:
            knocker |= meld
    free = [c for c in pool if not knocker >> c & 1]
    knocker |= sum(1 << c for c in rng.sample(free, size - knocker.bit_count()))
    wide = range(max(0, low - 2), min(13, low + width + 2))
    rest = [s * 13 + r for s in range(4) for r in wide if not knocker >> (s * 13 + r) & 1]
    return knocker, sum(1 << c for c in rng.sample(rest, 10))


def test_settle_equals_the_reference_on_random_deals() -> None:
    rng = random.Random(42)
    settled = 0
    for i in range(4000):
        knocker, defender = deal_for_settling(rng, i)
        rules = get_rules(("traditional", "modern", "house")[i % 3])
        limit = (10, 10, 7, 0)[i % 4]
        multiplier = 1 + (i % 5 == 0)
        seat = i % 2
        discard = None if i % 3 else (FULL_DECK & ~knocker & ~defender).bit_length() - 1
        melds = None
        if i % 11 == 0:  # declared melds: the first arrangement's
            melds = list(all_arrangements(knocker)[-1].meld_masks)
        args = (knocker, defender, rules, limit, multiplier, melds, seat, discard)
        want = outcome(reference_settle, *args)
        got = outcome(
            functools.partial(
                settle, knocker, defender, rules, knock_limit=limit, multiplier=multiplier,
                melds=melds, knocker_seat=seat, knock_discard=discard,
            )
        )
        if want[0] == "AssertionError":  # the reference refuses (deadwood): so must settle
            assert got[0] == "IllegalMoveError"
            continue
        assert got == want
        result = got[1]
        assert repr(result) == repr(want[1])
        settled += 1
    assert settled > 2500


def test_a_lazy_result_reads_like_a_built_one() -> None:
    knocker = to_mask("4h 5h 6h Ac 2c 3c 9s 9d 9c 2d")
    defender = to_mask("Kc Kd Ks Qc Qd Qs 8s 5c 6s 9h")
    rules = get_rules("traditional")
    fast = settle(knocker, defender, rules, knock_limit=10)
    plain = reference_settle(knocker, defender, rules, 10, 1, None, 0, None)
    # Field by field, in an order that reads the defender's fields before the knocker's.
    for field in reversed(dataclasses.fields(HandResult)):
        assert getattr(fast, field.name) == getattr(plain, field.name), field.name
    assert dataclasses.replace(fast) == plain
    assert pickle.loads(pickle.dumps(fast)) == plain
    assert fast.defender_melds[0] is fast.defender_melds[0]  # made once, then kept
    with pytest.raises(dataclasses.FrozenInstanceError):
        fast.points = 3  # type: ignore[misc]


def test_best_melds_reads_as_the_plain_arrangement() -> None:
    rng = random.Random(8)
    for i in range(3000):
        cards = rng.sample(range(52), rng.randrange(0, 12)) if i % 2 else crowded(rng, 10, 5)
        mask = sum(1 << c for c in cards)
        want = best_arrangement(mask)
        got = ginrummy.best_melds(cards)
        assert got.deadwood == want.deadwood
        if i % 3 == 0:  # the deadwood cards read before the melds
            assert got.deadwood_cards == want.deadwood_cards
        assert (got.meld_masks, got.deadwood_mask, got.mask) == (
            want.meld_masks, want.deadwood_mask, want.mask
        )
        assert got.melds == want.melds and str(got) == str(want) and repr(got) == repr(want)
        assert got == want and hash(got) == hash(want)
    copied = pickle.loads(pickle.dumps(ginrummy.best_melds("7c 7d 7h 8h 9h Th 2s")))
    assert type(copied) is Arrangement
    assert copied == best_arrangement(to_mask("7c 7d 7h 8h 9h Th 2s"))


@pytest.mark.parametrize("cards", ODD_INPUTS, ids=repr)
def test_settle_hand_refuses_odd_hands_as_to_mask_does(cards: Any) -> None:
    defender = "Kc Kd Ks Qc Qd Qs 8s 5c 6s 9h"
    for what, args in (("knocker's hand", (cards, defender)), ("defender's hand", ("", cards))):
        want = outcome(functools.partial(to_mask, what=what), cards)
        if want[0] != "ok":
            assert outcome(ginrummy.settle_hand, *args) == want
