"""PlayerView: exactly what one seat knows (RULES.md, "What a seat knows").

A seat knows its own hand, every discard in order, which discards the opponent took and which
upcard offers it passed, the stock count, the rules and the scores; never the opponent's hand or
the order of the stock before the hand ends. Every field of the view is checked at every
position of many random hands, for both seats.
"""

from __future__ import annotations

import dataclasses
import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bruteforce as bf
from budget import examples
from deals import build_deck, mask
from ginrummy import Card, Hand, Match, PlayerView, get_rules
from ginrummy.engine.events import OVER
from ginrummy.engine.rules import PROFILE_NAMES
from policies import choose_move

#: Every field of PlayerView; a new field fails this test until its secrecy is checked below.
FIELDS = {
    "seat", "rules", "dealer", "phase", "to_play", "hand_mask", "discard_pile", "stock_count",
    "upcard", "knock_limit", "multiplier", "taken", "drawn", "opponent_card_count",
    "opponent_known_mask", "opponent_took", "opponent_passed", "opponent_discards", "history",
    "legal_moves", "result", "opponent_hand_mask", "scores", "hand_number", "earlier_hands",
}


def cards_of(m: int) -> set[int]:
    return {i for i in range(52) if m >> i & 1}


def public_record(h: Hand, seat: int) -> tuple[list[int], list[int], list[int], int]:
    """From the moves alone (as both players saw them at the table): the cards the opponent
    took, the upcards it passed, the cards it discarded, and its known cards now."""
    took: list[int] = []
    passed: list[int] = []
    discards: list[int] = []
    known: set[int] = set()
    pile = [h.upcard]
    for e in h.history:
        mine = e.seat == seat
        if e.kind == "take":
            card = pile.pop()
            assert e.card == card
            if not mine:
                took.append(card)
                known.add(card)
        elif e.kind == "pass":
            if not mine:
                passed.append(pile[-1])
        elif e.kind == "discard":
            assert e.card is not None
            pile.append(int(e.card))
            if not mine:
                discards.append(int(e.card))
                known.discard(int(e.card))
    return took, passed, discards, sum(1 << c for c in known)


def check_view(h: Hand, seat: int, v: PlayerView) -> None:
    """Every field of ``v`` against what ``seat`` may know."""
    assert {f.name for f in dataclasses.fields(PlayerView)} == FIELDS
    opp = 1 - seat
    over = h.over
    # Public or own facts, equal to the hand's.
    assert v.seat == seat and v.rules == h.rules and v.dealer == h.dealer
    assert v.phase == h.phase and v.to_play == h.to_play
    assert v.hand_mask == h.hands[seat]
    assert list(v.discard_pile) == list(h.discard_pile)
    assert all(type(c) is Card for c in (*v.discard_pile, v.upcard, *v.opponent_discards))
    assert v.stock_count == len(h.stock)
    assert v.upcard == h.upcard and v.knock_limit == h.knock_limit
    assert v.multiplier == h.multiplier
    assert v.opponent_card_count == h.hands[opp].bit_count()
    # A hand's own view knows no other hand (Match.view adds the finished ones).
    assert v.earlier_hands == () or not any(e.phase != OVER for e in v.earlier_hands)
    took, passed, discards, known = public_record(h, seat)
    assert list(v.opponent_took) == took
    assert list(v.opponent_passed) == passed
    assert list(v.opponent_discards) == discards
    assert v.opponent_known_mask == known
    assert known & ~h.hands[opp] == 0 or over, "known cards are in the opponent's hand"
    my_turn = h.to_play == seat and not over
    assert list(v.legal_moves) == (h.legal_moves() if my_turn else [])
    assert v.taken == (h.taken if my_turn and h.taken >= 0 else None)
    assert v.drawn == (h.drawn if my_turn and h.drawn >= 0 else None)
    # The history: every event, with the opponent's stock draws and knock discard hidden.
    assert len(v.history) == len(h.history)
    for pe, e in zip(v.history, h.history, strict=True):
        assert (pe.seat, pe.kind) == (e.seat, e.kind)
        hidden = e.seat != seat and e.kind in ("draw", "knock") and not over
        assert pe.card == (None if hidden else e.card)
    # Nothing secret anywhere: the opponent's cards not seen taken, the stock, the knock discard.
    if over:
        assert v.result == h.result and v.opponent_hand_mask == h.hands[opp]
        return
    assert v.result is None and v.opponent_hand_mask is None
    secret = (cards_of(h.hands[opp]) - cards_of(known)) | set(h.stock)
    shown: set[int] = cards_of(v.hand_mask) | cards_of(v.opponent_known_mask)
    shown |= {int(x) for x in (*v.discard_pile, v.upcard, *v.opponent_took, *v.opponent_passed)}
    shown |= {int(x) for x in v.opponent_discards}
    shown |= {int(x) for x in (v.taken, v.drawn) if x is not None}
    shown |= {int(pe.card) for pe in v.history if pe.card is not None}
    for move in v.legal_moves:
        if move.startswith(("discard ", "knock ")):
            shown.add(bf.card(move.split()[1]))
    assert not shown & secret, f"the view shows {bf.text(shown & secret)}"
    text = repr(v)
    assert "stock=" not in text and "deck" not in text and "seed" not in text


def play_and_check(h: Hand, rng: random.Random) -> None:
    knock_bias = rng.choice([0.0, 0.5])
    while True:
        for seat in (0, 1):
            check_view(h, seat, h.view(seat))
        if h.over:
            return
        h.play(choose_move(h, rng, knock_bias, rng.choice([0.0, 0.8])))


@settings(max_examples=examples(40))
@given(
    st.sampled_from(PROFILE_NAMES), st.booleans(), st.integers(0, 2**32), st.integers(0, 2**32)
)
def test_views_at_every_position(profile: str, ldc: bool, deck_seed: int, move_seed: int) -> None:
    rules = get_rules(profile, last_discard_chance=ldc)
    h = Hand(rules, seed=deck_seed, dealer=deck_seed % 2)
    play_and_check(h, random.Random(move_seed))


def test_views_in_seeded_hands() -> None:
    rng = random.Random("views")
    for i in range(30):
        rules = get_rules(PROFILE_NAMES[i % 5], last_discard_chance=i % 2 == 0)
        play_and_check(Hand(rules, seed=f"views/{i}", dealer=i % 2), rng)


def test_views_after_moves_are_taken_back() -> None:
    # Undoing restores the pile a view reads (the hand keeps it as the cards themselves):
    # every view after an undo, and after playing on differently, is checked in full.
    rng = random.Random("undo views")
    for i in range(20):
        h = Hand(get_rules(PROFILE_NAMES[i % 5]), seed=f"undo/{i}", dealer=i % 2)
        takebacks = 6
        while not h.over:
            h.play(choose_move(h, rng, 0.0, 0.8))
            if takebacks and rng.random() < 0.2:
                takebacks -= 1
                for _ in range(rng.randrange(1, min(4, len(h.history)) + 1)):
                    h.undo()
            for seat in (0, 1):
                check_view(h, seat, h.view(seat))


# ---------------------------------------------------------------------------------------------
# Scripted: what each seat sees of the other's pickups, passes and draws.

ND = "Ac 2c 3c 4d 5d 6d 9s 9d 9c Kh"
DL = "Kc Kd Ks Qc Qd Qs 8s 5c 6s Jh"


def test_opponent_pass_and_take_are_shown() -> None:
    h = Hand(deck=build_deck(ND, DL, "9h", stock="2h 3h 4s"), dealer=0)
    h.play("pass")  # seat 1 passes the 9h
    v0 = h.view(0)
    assert list(v0.opponent_passed) == [bf.card("9h")]
    h.play("take")  # seat 0 takes it
    v1 = h.view(1)
    assert list(v1.opponent_took) == [bf.card("9h")]
    assert v1.opponent_known_mask == mask("9h")
    assert v1.taken is None  # seat 0's taken card is public, but "taken" is for the mover
    assert h.view(0).taken == bf.card("9h")
    h.play("discard Jh")
    v1 = h.view(1)
    assert list(v1.opponent_discards) == [bf.card("Jh")]
    assert v1.opponent_known_mask == mask("9h")
    h.play("draw")  # seat 1 draws the 2h
    assert h.view(1).drawn == bf.card("2h")
    v0 = h.view(0)
    assert v0.drawn is None and v0.history[-1].card is None and v0.history[-1].kind == "draw"
    assert v0.stock_count == 30
    h.play("discard 2h")
    h.play("take")  # seat 0 takes the 2h back
    h.play("discard 9h")  # and throws the 9h it took before
    v1 = h.view(1)
    assert list(v1.opponent_took) == [bf.card("9h"), bf.card("2h")]
    assert v1.opponent_known_mask == mask("2h")


def test_knock_discard_hidden_until_the_end_and_hands_revealed() -> None:
    h = Hand(deck=build_deck(ND, DL, "9h"), dealer=0)
    v_before = h.view(0)
    assert v_before.opponent_hand is None and v_before.result is None
    h.play("take")
    h.play("knock Kh")  # gin
    for seat in (0, 1):
        v = h.view(seat)
        assert v.result == h.result
        assert v.opponent_hand_mask == h.hands[1 - seat]
        assert v.opponent_hand is not None and v.opponent_hand.mask == h.hands[1 - seat]
        assert v.history[-1].card == bf.card("Kh")
        assert v.legal_moves == ()


def test_match_view_carries_scores() -> None:
    m = Match("traditional", seed="view-scores", first_dealer=0)
    v = m.view(1)
    assert v.scores == (0, 0) and v.hand_number == 1
    check_view(m.hand, 1, v)


def test_a_match_view_holds_its_finished_hands_as_each_seat_saw_them_end() -> None:
    from ginrummy.players import make

    m = Match("house", seed="view-earlier", first_dealer=0)
    players = [make("medium", seed=1), make("medium", seed=2)]
    for _ in range(3):
        while not m.hand.over:
            seat = m.hand.to_play
            v = m.view(seat)
            # Every earlier hand is over and checked like any view of it; the hand in play is
            # not among them (its hidden cards stay hidden).
            assert len(v.earlier_hands) == len(m.hands) - 1
            for past, hand in zip(v.earlier_hands, m.hands, strict=False):
                assert past.phase == OVER and past == hand.view(seat)
                check_view(hand, seat, past)
            check_view(m.hand, seat, replace(v, earlier_hands=()))
            m.play(players[seat].choose(v))
        if m.over:
            break
        m.next_hand()
    assert m.view(0).earlier_hands[0] is m.view(0).earlier_hands[0]


def test_view_of_a_bad_seat() -> None:
    h = Hand(seed=1)
    for seat in (2, -1):
        with pytest.raises(ValueError):
            h.view(seat)


def test_views_are_frozen_and_detached() -> None:
    h = Hand(seed=5)
    v = h.view(h.to_play)
    with pytest.raises(dataclasses.FrozenInstanceError):
        v.hand_mask = 0  # type: ignore[misc]
    before = v.hand_mask
    h.play(v.legal_moves[0])
    assert v.hand_mask == before
    for f in dataclasses.fields(v):
        assert not isinstance(getattr(v, f.name), Hand)
