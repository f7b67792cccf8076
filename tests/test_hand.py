"""One hand as a state machine: deal, opening, turns, knocking, gin, big gin, Oklahoma, the end
of the stock, the last-discard chance, declared knocks, undo and copy.

Scripted positions are stacked decks (tests/deals.py, from ARCHITECTURE.md's deal order). The
property tests play random legal games under every profile and option on the engine and on an
independent reference model (tests/refmodel.py) side by side, and at every position try every
canonical move: the accepted ones must be exactly ``legal_moves()`` and the rule book's moves,
the refused ones must raise IllegalMoveError and change nothing.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bruteforce as bf
from budget import examples
from deals import build_deck, mask
from ginrummy import GinRummyError, Hand, IllegalMoveError, InvalidCardError, get_rules
from ginrummy.engine.rules import PROFILE_NAMES, RuleSet
from policies import choose_move
from refmodel import ALL_CANONICAL_MOVES, Model, name


def c(text: str) -> int:
    return bf.card(text)


def snapshot(h: Hand, views: bool = True) -> tuple[Any, ...]:
    """Everything observable about a hand's state, with the seats' views unless ``views`` is
    false (they must come back too after an undo, and stay apart in a copy)."""
    state = (
        tuple(h.hands),
        tuple(h.stock),
        tuple(h.discard_pile),
        h.phase,
        h.to_play,
        tuple(h.history),
        h.result,
        h.taken,
        h.drawn,
        h.upcard,
        h.knock_limit,
        h.multiplier,
        h.dealer,
        h.deck,
        h.rules,
    )
    return (*state, h.view(0), h.view(1)) if views else state


def play_all(h: Hand, *moves: str) -> None:
    for move in moves:
        h.play(move)


def refuses(h: Hand, move: Any, match: str | None = None) -> str:
    """The move raises IllegalMoveError with a message and leaves the hand as it was."""
    before = snapshot(h)
    with pytest.raises(IllegalMoveError, match=match) as info:
        h.play(move)
    assert str(info.value), "an error needs a message"
    assert snapshot(h) == before, f"{move!r} changed the hand"
    assert not h.can_play(move)
    return str(info.value)


# ---------------------------------------------------------------------------------------------
# The deal.


def test_deal_order_dealer_zero() -> None:
    # ARCHITECTURE.md: non-dealer gets 0, 2, ..., 18; dealer 1, 3, ..., 19; 20 is the upcard;
    # 21..51 the stock, 21 on top.
    h = Hand(deck=list(range(52)), dealer=0)
    assert h.hands[1] == sum(1 << i for i in range(0, 20, 2))
    assert h.hands[0] == sum(1 << i for i in range(1, 20, 2))
    assert h.discard_pile == [20] and h.upcard == 20
    assert sorted(h.stock) == list(range(21, 52)) and h.stock_count == 31
    assert h.to_play == 1 and h.phase == "opening" and h.dealer == 0
    play_all(h, "pass", "pass")
    for expected in range(21, 27):
        h.play("draw")
        assert h.history[-1].card == expected
        h.play(f"discard {name(expected)}")


def test_stock_is_drawn_from_index_21_onward() -> None:
    deck = list(range(51, -1, -1))
    h = Hand(deck=deck, dealer=1)
    assert h.hands[0] == sum(1 << deck[i] for i in range(0, 20, 2))  # seat 0 is the non-dealer
    assert h.hands[1] == sum(1 << deck[i] for i in range(1, 20, 2))
    assert h.upcard == deck[20]
    assert h.stock == deck[21:]  # top first, like the deck and deal_order
    play_all(h, "pass", "pass")
    drawn = []
    while not h.over:
        h.play("draw")
        card = h.history[-1].card
        drawn.append(card)
        h.play(f"discard {name(card)}")  # type: ignore[arg-type]
    # 29 draws leave two cards in the stock, and they came in deck order.
    assert drawn == deck[21:50]
    assert sorted(h.stock) == sorted(deck[50:])


def test_seeded_deck_is_a_reproducible_permutation() -> None:
    a = Hand(seed=42)
    b = Hand(seed=42)
    assert a.deck == b.deck
    assert sorted(a.deck) == list(range(52))
    assert Hand(seed=43).deck != a.deck


def test_bad_construction() -> None:
    with pytest.raises(InvalidCardError):
        Hand(deck=list(range(51)))
    with pytest.raises(InvalidCardError):
        Hand(deck=[*range(51), 0])
    with pytest.raises(InvalidCardError):
        Hand(deck="Ac 2c 3c")
    for dealer in (2, -1, True):
        with pytest.raises(GinRummyError, match="dealer is seat 0 or 1"):
            Hand(dealer=dealer)  # type: ignore[arg-type]


# ---------------------------------------------------------------------------------------------
# The opening (RULES.md "Opening").

OPEN_ND = "Ac 2c 3c 4d 5d 6d 9s 9d 9c Kh"  # A23c 456d 999 + Kh
OPEN_D = "Kc Kd Ks Qc Qd Qs 8s 5c 6s Jh"  # KKK QQQ + 8s 5c 6s Jh = 29
OPEN_UP = "9h"


def opening_hand(rules: str = "traditional") -> Hand:
    return Hand(rules, deck=build_deck(OPEN_ND, OPEN_D, OPEN_UP, stock="2h 3h"), dealer=0)


def test_opening_take() -> None:
    h = opening_hand()
    assert h.legal_moves() == ["take", "pass"]
    h.play("take")
    assert h.phase == "discard" and h.to_play == 1
    assert h.hands[1] == mask(OPEN_ND + " " + OPEN_UP)
    assert h.discard_pile == [] and h.taken == c("9h")
    assert h.history[-1].kind == "take" and h.history[-1].card == c("9h")
    h.play("discard Kh")
    assert h.phase == "draw" and h.to_play == 0 and h.discard_pile == [c("Kh")]


def test_opening_pass_then_dealer_takes() -> None:
    h = opening_hand()
    h.play("pass")
    assert h.phase == "opening" and h.to_play == 0
    assert h.legal_moves() == ["take", "pass"]
    h.play("take")
    assert h.to_play == 0 and h.phase == "discard"
    assert h.hands[0] == mask(OPEN_D + " 9h")
    h.play("discard Jh")
    assert h.to_play == 1 and h.phase == "draw"


def test_opening_pass_pass_then_draw() -> None:
    h = opening_hand()
    play_all(h, "pass", "pass")
    assert h.phase == "opening_draw" and h.to_play == 1
    assert h.legal_moves() == ["draw"]
    for move in ("take", "pass", "discard Kh", "knock Kh", "big gin"):
        refuses(h, move)
    h.play("draw")
    assert h.hands[1] == mask(OPEN_ND + " 2h") and h.discard_pile == [c("9h")]
    assert h.drawn == c("2h") and h.taken == -1


def test_no_draw_or_discard_during_the_opening() -> None:
    h = opening_hand()
    for move in ("draw", "discard Kh", "knock Kh", "big gin"):
        refuses(h, move, "upcard")


def test_knock_on_the_very_first_turn() -> None:
    # RULES.md "Knocking": allowed on any turn, the very first included. Taking the 9h makes
    # 9999 and leaves the Kh to knock with: gin.
    h = opening_hand()
    h.play("take")
    assert "knock Kh" in h.legal_moves()
    h.play("knock Kh")
    assert h.result is not None and h.result.kind == "gin"
    assert h.result.points == 29 + 20


# ---------------------------------------------------------------------------------------------
# Taking a discard (RULES.md "A turn"): the taken card may not be discarded in the same turn.


def test_taken_upcard_may_not_be_discarded_or_knocked() -> None:
    h = opening_hand()
    h.play("take")
    assert "discard 9h" not in h.legal_moves() and "knock 9h" not in h.legal_moves()
    msg = refuses(h, "discard 9h", "took")
    assert "9h" in msg
    refuses(h, "knock 9h", "took")
    refuses(h, "knock 9h with Ac2c3c 4d5d6d 9s9d9c", "took")


def test_taken_discard_may_not_be_discarded_later_in_play() -> None:
    h = opening_hand()
    play_all(h, "pass", "pass", "draw", "discard 2h")  # seat 1 throws the 2h
    h.play("take")  # seat 0 takes it
    assert h.taken == c("2h")
    refuses(h, "discard 2h", "took")
    refuses(h, "knock 2h", "took")
    h.play("discard Jh")
    # Drawn from the stock, a card may go straight back.
    h.play("draw")
    drawn = h.history[-1].card
    assert f"discard {name(drawn)}" in h.legal_moves()  # type: ignore[arg-type]


def test_discard_a_card_not_held() -> None:
    h = opening_hand()
    h.play("take")
    refuses(h, "discard Qs", "hold")
    refuses(h, "knock Qs", "hold")


# ---------------------------------------------------------------------------------------------
# Knocking and the knock limit.

LIMIT_ND = "Ac 2c 3c 4d 5d 6d 7d Ah 2h Ks"  # A23c 4567d + Ah 2h Ks
LIMIT_D = "Kc Kd Kh Qc Qd Qh 8h 5c 6s Js"  # KKK QQQ + 8h 5c 6s Js = 29


def limit_hand(drawn: str, rules: str | RuleSet = "traditional", upcard: str = "Qs") -> Hand:
    h = Hand(rules, deck=build_deck(LIMIT_ND, LIMIT_D, upcard, stock=drawn), dealer=0)
    play_all(h, "pass", "pass", "draw")
    return h


def test_knock_at_exactly_the_limit() -> None:
    # With the 7s: discarding the Ks leaves Ah 2h 7s = 10 (at the limit); discarding the 7s
    # leaves Ah 2h Ks = 13.
    h = limit_hand("7s")
    knocks = {m for m in h.legal_moves() if m.startswith("knock")}
    assert knocks == {"knock Ks"}
    msg = refuses(h, "knock 7s", "13")
    assert "10" in msg
    h.play("knock Ks")
    r = h.result
    assert r is not None and r.kind == "knock" and r.knocker_deadwood == 10
    # Defender 29, nothing to lay off (7d's neighbours 8d and 3d are not the defender's).
    assert r.defender_deadwood == 29 and r.points == 19 and r.winner_seat == 1


def test_no_knock_one_over_the_limit() -> None:
    # With the 8s the best discard (Ks) leaves Ah 2h 8s = 11.
    h = limit_hand("8s")
    assert not [m for m in h.legal_moves() if m.startswith("knock")]
    refuses(h, "knock Ks", "11")


def test_knock_limit_override() -> None:
    h = limit_hand("8s", get_rules("traditional", knock_limit=11))
    assert "knock Ks" in h.legal_moves()
    h = limit_hand("7s", get_rules("traditional", knock_limit=9))
    refuses(h, "knock Ks", "10")


def test_gin_scores_defender_deadwood_and_bonus_without_layoffs() -> None:
    # With the 3h the melds are A23c 4567d A23h; the Ks goes: gin. The defender's 8h does not
    # go on A-2-3h (not adjacent) and nothing is laid off against gin anyway.
    for profile, bonus in (("traditional", 20), ("modern", 25), ("house", 25)):
        h = limit_hand("3h", profile)
        h.play("knock Ks")
        r = h.result
        assert r is not None
        assert (r.kind, r.knocker_deadwood, r.defender_deadwood) == ("gin", 0, 29)
        assert r.layoffs == () and r.points == 29 + bonus and r.bonus == bonus


def test_gin_never_undercut() -> None:
    # Defender with no deadwood either: gin still scores the bonus for the knocker.
    d = "Kc Kd Kh Qc Qd Qh Jc Jd Jh Js"  # KKK QQQ JJJJ: 0
    h = Hand(deck=build_deck(LIMIT_ND, d, "9s", stock="3h"), dealer=0)
    play_all(h, "pass", "pass", "draw", "knock Ks")
    r = h.result
    assert r is not None and (r.kind, r.winner_seat, r.points) == ("gin", 1, 20)


# ---------------------------------------------------------------------------------------------
# Big gin (RULES.md "Big gin", only where the profile enables it).

BIG_ND = "Ac 2c 3c 4d 5d 6d 7d 9s 9d 9c"  # all ten melded already


def big_gin_hand(rules: str | RuleSet, drawn: str = "9h") -> Hand:
    h = Hand(rules, deck=build_deck(BIG_ND, LIMIT_D, "Qs", stock=drawn), dealer=0)
    play_all(h, "pass", "pass", "draw")
    return h


@pytest.mark.parametrize(
    ("profile", "enabled"), [(p, p in ("modern", "oklahoma")) for p in PROFILE_NAMES]
)
def test_big_gin_only_where_enabled(profile: str, enabled: bool) -> None:
    h = big_gin_hand(profile)
    assert ("big gin" in h.legal_moves()) == enabled
    if not enabled:
        refuses(h, "big gin", "not played")
        return
    h.play("big gin")
    r = h.result
    assert r is not None
    # Oklahoma: the Qs upcard is a spade, so the score doubles.
    mult = 2 if profile == "oklahoma" else 1
    assert (r.kind, r.winner_seat, r.defender_deadwood) == ("big_gin", 1, 29)
    assert r.points == (29 + 31) * mult
    assert len(r.knocker_melds) >= 3 and r.knocker_deadwood == 0
    assert h.hands[1].bit_count() == 11


def test_big_gin_switched_on_by_override() -> None:
    h = big_gin_hand(get_rules("traditional", big_gin=True, big_gin_bonus=50))
    h.play("big gin")
    assert h.result is not None and h.result.points == 29 + 50


def test_big_gin_needs_eleven_melded_cards() -> None:
    h = big_gin_hand("modern", drawn="Ks")
    assert "big gin" not in h.legal_moves()
    refuses(h, "big gin", "eleven")
    # Still a plain gin by knocking the Ks.
    h.play("knock Ks")
    assert h.result is not None and h.result.kind == "gin"


def test_big_gin_only_after_drawing() -> None:
    h = Hand("modern", deck=build_deck(BIG_ND, LIMIT_D, "9h"), dealer=0)
    refuses(h, "big gin")
    h.play("take")  # the upcard 9h makes eleven melded cards
    assert "big gin" in h.legal_moves()


# ---------------------------------------------------------------------------------------------
# Oklahoma: the knock limit from the first upcard, spade doubling.


@pytest.mark.parametrize(
    ("upcard", "limit"), [("2d", 2), ("7c", 7), ("9d", 9), ("Th", 10), ("Jc", 10), ("Ad", 0)]
)
def test_oklahoma_limit_from_the_upcard(upcard: str, limit: int) -> None:
    # With the 7s the best knock leaves 10; with the 3h, gin.
    h = limit_hand("7s", "oklahoma", upcard=upcard)
    assert h.knock_limit == limit
    if limit >= 10:
        assert "knock Ks" in h.legal_moves()
    else:
        msg = refuses(h, "knock Ks")
        assert ("gin" in msg) if limit == 0 else (str(limit) in msg)
    h = limit_hand("3h", "oklahoma", upcard=upcard)
    assert "knock Ks" in h.legal_moves()  # gin is always allowed


def test_oklahoma_limit_stays_after_the_upcard_is_taken() -> None:
    # A 4h upcard sets the limit to 4. Taken, it leaves Ah 2h 4h Ks; discarding the Ks leaves
    # 7 > 4, and the 4h itself may not be thrown.
    h = Hand("oklahoma", deck=build_deck(LIMIT_ND, LIMIT_D, "4h"), dealer=0)
    h.play("take")
    assert h.knock_limit == 4
    assert not [m for m in h.legal_moves() if m.startswith("knock")]
    refuses(h, "knock Ks", "7")


def test_oklahoma_spade_upcard_doubles() -> None:
    h = limit_hand("7s", "oklahoma", upcard="Ts")
    assert h.multiplier == 2
    h.play("knock Ks")
    assert h.result is not None and h.result.points == (29 - 10) * 2
    h = limit_hand("3h", "oklahoma", upcard="9s")
    h.play("knock Ks")
    assert h.result is not None and h.result.points == (29 + 25) * 2
    h = limit_hand("7s", "oklahoma", upcard="Td")
    h.play("knock Ks")
    assert h.result is not None and h.result.points == 29 - 10


# ---------------------------------------------------------------------------------------------
# The end of the stock and the last-discard chance.

END_ND = "Ac 2c 3c 4d 5d 6d 7d 9s 9d Ts"  # waits for a 9: gin with 9c or 9h; 28 as dealt
END_D = "Kc Kd Kh Qc Qd Qh Jc Jd 2s 3s"  # KKK QQQ + Jc Jd 2s 3s: a J makes JJJ, 2s 3s = 5


def end_deck(third_last: str) -> list[int]:
    """Both players hold their hands; the 29th card drawn (the third-last) is ``third_last``."""
    deck = build_deck(END_ND, END_D, "5h")
    i = deck.index(c(third_last))
    deck[i], deck[49] = deck[49], deck[i]
    return deck


def run_down(h: Hand, draws: int) -> None:
    """Pass, pass, then ``draws`` turns of draw-and-throw-the-drawn-card."""
    play_all(h, "pass", "pass")
    for _ in range(draws):
        h.play("draw")
        h.play(f"discard {name(h.history[-1].card)}")  # type: ignore[arg-type]


def test_stock_exhausted_when_a_discard_leaves_two() -> None:
    deck = end_deck("8h")
    h = Hand(deck=deck, dealer=0)
    run_down(h, 28)
    assert h.stock_count == 3 and not h.over
    h.play("draw")  # the third-last card; seat 1 drew it (draws alternate from the non-dealer)
    assert h.to_play == 1 and h.stock_count == 2
    h.play("discard 8h")
    assert h.over and h.phase == "over"
    r = h.result
    assert r is not None and r.kind == "cancelled" and r.points == 0 and r.winner_seat is None
    assert not r.scored
    assert h.legal_moves() == []
    for move in ("draw", "take", "pass", "discard Ts"):
        refuses(h, move, "over")


def test_knock_on_the_third_last_card() -> None:
    h = Hand(deck=end_deck("9c"), dealer=0)
    run_down(h, 28)
    h.play("draw")
    assert h.stock_count == 2 and h.history[-1].card == c("9c")
    assert "knock Ts" in h.legal_moves()
    h.play("knock Ts")
    assert h.result is not None and h.result.kind == "gin"


def test_last_discard_chance_take_to_knock() -> None:
    rules = get_rules("traditional", last_discard_chance=True)
    h = Hand(rules, deck=end_deck("Jh"), dealer=0)
    run_down(h, 28)
    h.play("draw")
    h.play("discard Jh")  # leaves two in the stock: seat 0 may take the Jh only to knock
    assert not h.over and h.phase == "last_chance" and h.to_play == 0
    assert h.legal_moves() == ["take", "pass"]
    refuses(h, "draw")
    refuses(h, "discard 2s")
    h.play("take")
    assert h.phase == "last_chance_knock"
    assert set(h.legal_moves()) == {"knock 2s", "knock 3s"}
    refuses(h, "discard 2s", "knock")
    refuses(h, "knock Jh", "took")
    refuses(h, "draw")
    h.play("knock 3s")
    r = h.result
    # JJJ KKK QQQ (or J-Q-K runs), 2s left: 2 against the non-dealer's 9s 9d Ts = 28, none
    # of which fits the knocker's melds.
    assert r is not None and (r.kind, r.knocker_seat, r.knocker_deadwood) == ("knock", 0, 2)
    assert r.defender_deadwood == 28 and r.points == 26 and r.layoffs == ()


def test_last_discard_chance_pass_cancels() -> None:
    rules = get_rules("modern", last_discard_chance=True)
    h = Hand(rules, deck=end_deck("Jh"), dealer=0)
    run_down(h, 28)
    play_all(h, "draw", "discard Jh", "pass")
    r = h.result
    assert r is not None and r.kind == "cancelled"
    assert h.history[-1].kind == "pass" and h.history[-1].card == c("Jh")


def test_last_discard_chance_useless_card_only_pass() -> None:
    rules = get_rules("traditional", last_discard_chance=True)
    h = Hand(rules, deck=end_deck("8h"), dealer=0)
    run_down(h, 28)
    play_all(h, "draw", "discard 8h")
    assert h.legal_moves() == ["pass"]
    refuses(h, "take", "only to knock")
    h.play("pass")
    assert h.result is not None and h.result.kind == "cancelled"


# ---------------------------------------------------------------------------------------------
# Declared knock arrangements (docs/rules.md "Knocking, gin and big gin").

DECL_ND = "7c 7d 7h 7s 8s 9s Ac 2c 3c Kh"  # best: 7c7d7h 7s8s9s A23c
DECL_D = "Kc Kd Ks Qc Qd Qs 8h 5c 6h Jd"  # KKK QQQ + 8h 5c 6h Jd = 29


def decl_hand(drawn: str = "2d", rules: str = "traditional") -> Hand:
    h = Hand(rules, deck=build_deck(DECL_ND, DECL_D, "Jh", stock=drawn), dealer=0)
    play_all(h, "pass", "pass", "draw")
    return h


def melds_of(r: Any) -> set[frozenset[int]]:
    return {frozenset(int(x) for x in m) for m in r.knocker_melds}


def test_declared_arrangement_is_used() -> None:
    # Declaring the four 7s leaves 8s 9s 2d = 19: over the limit.
    h = decl_hand()
    refuses(h, "knock Kh with 7c7d7h7s Ac2c3c", "19")
    # The best arrangement, declared: 2 deadwood.
    h.play("knock Kh with 7c7d7h 7s8s9s Ac2c3c")
    r = h.result
    assert r is not None and r.knocker_deadwood == 2
    assert melds_of(r) == {frozenset(bf.cards(x)) for x in ("7c 7d 7h", "7s 8s 9s", "Ac 2c 3c")}
    assert h.history[-1].text.startswith("knock Kh with")


def test_declared_arrangement_with_more_deadwood_within_the_limit() -> None:
    # Declare 7c7d7h 7s8s9s and leave A-2-3c as deadwood: 1 + 2 + 3 + 2 = 8.
    h = decl_hand()
    h.play("knock Kh with 7c7d7h 7s-8s-9s")
    r = h.result
    assert r is not None and r.knocker_deadwood == 8 and r.kind == "knock"
    # The defender lays nothing on 7-8-9s / 777 (8h? no; 6h? no).
    assert r.defender_deadwood == 29 and r.points == 21


def test_declining_gin_is_a_plain_knock_with_layoffs() -> None:
    # With the 4c drawn: gin is A234c 777 789s. Declaring A23c only and the 4c as deadwood
    # leaves 4: a plain knock, the defender may lay off (nothing fits here).
    h = decl_hand("4c")
    h.play("knock Kh with 7c7d7h 7s8s9s Ac2c3c")
    r = h.result
    assert r is not None and (r.kind, r.knocker_deadwood) == ("knock", 4)


@pytest.mark.parametrize(
    ("move", "words"),
    [
        ("knock Kh with 7c7d 7s8s9s Ac2c3c", "not a set or a run"),  # two cards
        ("knock Kh with 7c7d7h 7s8s9s Ac2c3c Kd", "not a set or a run"),
        ("knock Kh with 7c7d7h 7s8s9s Qc Kc Ac", "not a set or a run"),
        ("knock Kh with 7c7d7h7s 7s8s9s", "two melds"),  # the 7s twice
        ("knock Kh with 7c7d7h 8s9sTs", "not in the hand"),  # Ts not held
        ("knock Kh with KhKdKs", "not in the hand"),  # the discard in a meld
        ("knock Kh with 7c7d7h Ac2c3c", "limit"),  # 7s 8s 9s 2d left: 26
        ("knock Kh with", "declare"),
        ("knock Kh and 7c7d7h", "declare"),
        ("knock Kh with 7c7d7x", "7x"),
    ],
)
def test_invalid_declarations_are_refused(move: str, words: str) -> None:
    refuses(decl_hand(), move, words)


def test_declared_knock_with_the_taken_card_or_when_not_allowed() -> None:
    h = Hand(deck=build_deck(DECL_ND, DECL_D, "2d"), dealer=0)
    refuses(h, "knock Kh with 7c7d7h 7s8s9s Ac2c3c", "upcard")
    h.play("take")
    refuses(h, "knock 2d with 7c7d7h 7s8s9s Ac2c3c", "took")


@pytest.mark.parametrize(
    "move",
    ["", "   ", "jump", "discard", "discard 7x", "discard 7h 8h", "knock", "big", "big gin now",
     "take 7h", "draw 2", "discard 1h", None, 7, ["draw"]],
)
def test_nonsense_moves(move: Any) -> None:
    h = decl_hand()
    refuses(h, move)


def test_lenient_move_text() -> None:
    h = decl_hand()
    assert h.can_play("Knock  KH") and h.can_play("discard K♥") and h.can_play("DISCARD kh")
    h.play("  discard K♥ ")
    assert h.history[-1].text == "discard Kh"
    h = opening_hand()
    h.play(" PASS ")
    assert h.history[-1].text == "pass"


# ---------------------------------------------------------------------------------------------
# Undo and copy.


def test_undo_restores_every_move_exactly() -> None:
    rng = random.Random(7)
    h = Hand("modern", seed=7)
    states = [snapshot(h)]
    while not h.over:
        h.play(rng.choice(h.legal_moves()))
        states.append(snapshot(h))
    while states[:-1]:
        states.pop()
        h.undo()
        assert snapshot(h) == states[-1]
    with pytest.raises(IllegalMoveError):
        h.undo()
    assert snapshot(h) == states[0]


def test_copy_is_independent() -> None:
    h = opening_hand()
    h.play("pass")
    dup = h.copy()
    before = snapshot(h)
    dup.play("take")
    dup.play("discard Jh")
    assert snapshot(h) == before
    h.play("pass")
    assert dup.phase == "draw" and dup.to_play == 1
    dup.undo()
    dup.undo()
    assert snapshot(dup) == before


# ---------------------------------------------------------------------------------------------
# Property tests: random legal games against the reference model.

rule_sets = st.builds(
    lambda profile, ldc, big, limit: get_rules(
        profile,
        last_discard_chance=ldc,
        **({} if big is None else {"big_gin": big}),
        **({} if limit is None or profile == "oklahoma" else {"knock_limit": limit}),
    ),
    st.sampled_from(PROFILE_NAMES),
    st.booleans(),
    st.sampled_from([None, True, False]),
    st.sampled_from([None, None, 0, 5, 20]),
)


def conservation(h: Hand) -> None:
    """All 52 cards somewhere, exactly once (the knock discard is face down on the table)."""
    seen: list[int] = []
    for s in (0, 1):
        seen.extend(i for i in range(52) if h.hands[s] >> i & 1)
    seen.extend(h.stock)
    seen.extend(h.discard_pile)
    if h.result is not None and h.result.knock_discard is not None:
        seen.append(int(h.result.knock_discard))
    assert sorted(seen) == list(range(52))
    h.check_conservation()


def compare(h: Hand, m: Model) -> None:
    assert h.phase == m.phase
    if m.phase != "over":
        assert h.to_play == m.turn
    for s in (0, 1):
        assert h.hands[s] == sum(1 << x for x in m.hands[s])
    assert list(h.discard_pile) == m.pile
    assert sorted(h.stock) == sorted(m.stock) and h.stock_count == len(m.stock)
    assert h.knock_limit == m.limit and h.multiplier == m.multiplier


def sweep(h: Hand, m: Model) -> None:
    """Every canonical move: accepted exactly when legal, refused without a trace otherwise;
    undo after an accepted one restores the state exactly."""
    before = snapshot(h)
    quick = snapshot(h, views=False)
    listed = h.legal_moves()
    assert len(listed) == len(set(listed)), "legal_moves lists a move twice"
    accepted = set()
    for move in ALL_CANONICAL_MOVES:
        try:
            h.play(move)
        except IllegalMoveError as exc:
            assert str(exc)
            assert snapshot(h, views=False) == quick, f"refused {move!r} changed the hand"
            continue
        accepted.add(move)
        h.undo()
        assert snapshot(h) == before, f"undo after {move!r} did not restore the hand"
    assert snapshot(h) == before, "refused moves changed a view"
    assert accepted == set(listed), "legal_moves() differs from the moves play accepts"
    assert accepted == m.legal(), "the engine's moves differ from the rule book's"
    for move in ("", "draw 7h", "discard 7x", "knock", "knock 7h with 7c", "big gin please"):
        with pytest.raises(IllegalMoveError):
            h.play(move)
        assert snapshot(h) == before


def try_declared_knock(h: Hand, m: Model, rng: random.Random) -> None:
    """A random card with a random arrangement of the rest, declared: accepted exactly when the
    rule book allows it; the result uses the declared melds."""
    if m.phase not in ("discard", "last_chance_knock"):
        return
    hand = m.hands[m.turn]
    card = rng.choice(sorted(hand))
    rest = hand - {card}
    arrs = [a for a, _ in bf.arrangements(rest)]
    arr = rng.choice(arrs)
    declared = " ".join("".join(name(x) for x in sorted(meld)) for meld in arr)
    move = f"knock {name(card)} with {declared}" if declared else f"knock {name(card)} with x"
    dw = bf.arrangement_deadwood(rest, arr)
    ok = bool(declared) and card != m.taken and dw <= m.limit
    before = snapshot(h)
    if not ok:
        with pytest.raises(IllegalMoveError):
            h.play(move)
        assert snapshot(h) == before
        return
    h.play(move)
    r = h.result
    assert r is not None
    assert melds_of(r) == set(arr) and r.knocker_deadwood == dw
    assert r.kind in (("gin",) if dw == 0 else ("knock", "undercut"))
    h.undo()
    assert snapshot(h) == before


def layoff_spots(arrangement: frozenset[frozenset[int]], held: set[int]) -> int:
    """Cards outside the knocker's hand that could go directly on its melds."""
    spots: set[int] = set()
    for meld in arrangement:
        if bf.is_set(meld):
            if len(meld) == 3:
                r = bf.rank(min(meld))
                spots |= {s * 13 + r for s in range(4)} - meld
        else:
            lo, hi = min(meld), max(meld)
            if bf.rank(lo) > 0:
                spots.add(lo - 1)
            if bf.rank(hi) < 12:
                spots.add(hi + 1)
    return len(spots - held)


def check_result(h: Hand, m: Model) -> None:
    """The hand's result against RULES.md's scoring table, computed with the brute force."""
    r = h.result
    assert r is not None and m.ending is not None
    rules = h.rules
    kind, seat, discard = m.ending
    if kind == "cancelled":
        assert (r.kind, r.points, r.winner_seat, r.scored) == ("cancelled", 0, None, False)
        assert len(m.stock) == 2
        return
    assert seat is not None
    knocker = m.hands[seat]
    defender = m.hands[1 - seat]
    assert r.knocker_seat == seat
    melds = melds_of(r)
    k_dw = bf.arrangement_deadwood(knocker, melds)
    assert r.knocker_deadwood == k_dw == bf.min_deadwood(knocker) <= m.limit
    assert {int(x) for x in r.knocker_deadwood_cards} == knocker - set().union(*melds)
    if kind == "big_gin":
        assert len(knocker) == 11 and rules.big_gin and k_dw == 0
        d_dw = bf.min_deadwood(defender)
        assert (r.kind, r.winner_seat, r.defender_deadwood) == ("big_gin", seat, d_dw)
        assert r.layoffs == ()
        assert r.points == (d_dw + rules.big_gin_bonus) * m.multiplier
        return
    assert r.knock_discard == discard and len(knocker) == 10
    # Default arrangement decision: among the minimum ones, the fewest places to lay off.
    assert layoff_spots(frozenset(melds), knocker) == min(
        layoff_spots(a, knocker) for a in bf.best_arrangements(knocker)
    )
    if k_dw == 0:
        d_dw = bf.min_deadwood(defender)
        assert (r.kind, r.winner_seat, r.defender_deadwood, r.layoffs) == ("gin", seat, d_dw, ())
        assert r.points == (d_dw + rules.gin_bonus) * m.multiplier
        return
    d_dw = bf.defender_deadwood(melds, defender)
    laid = frozenset(int(x) for x in r.layoffs)
    assert laid in bf.layoff_outcomes(melds, defender)
    assert r.defender_deadwood == d_dw
    kept = defender - laid
    d_melds = {frozenset(int(x) for x in mm) for mm in r.defender_melds}
    assert bf.arrangement_deadwood(kept, d_melds) == d_dw
    if k_dw < d_dw:
        assert (r.kind, r.winner_seat, r.points) == ("knock", seat, (d_dw - k_dw) * m.multiplier)
    else:
        points = (k_dw - d_dw + rules.undercut_bonus) * m.multiplier
        assert (r.kind, r.winner_seat, r.points) == ("undercut", 1 - seat, points)


def random_game(rules: RuleSet, deck: list[int], dealer: int, rng: random.Random) -> None:
    """Play one hand with a random mix of random and greedy moves, checking every position."""
    h = Hand(rules, deck=deck, dealer=dealer)
    m = Model(rules, deck, dealer)
    knock_bias = rng.choice([0.0, 0.3, 0.9])
    greed = rng.choice([0.0, 0.7, 0.95])
    copies: list[tuple[Hand, tuple[Any, ...]]] = []
    while True:
        compare(h, m)
        conservation(h)
        sweep(h, m)
        if rng.random() < 0.15:
            try_declared_knock(h, m, rng)
        if rng.random() < 0.05:
            copies.append((h.copy(), snapshot(h)))
        if h.over:
            break
        move = choose_move(h, rng, knock_bias, greed)
        h.play(move)
        m.play(move)
    check_result(h, m)
    for dup, snap in copies:
        assert snapshot(dup) == snap, "a copy changed when the original was played on"


@settings(max_examples=examples(60))
@given(rule_sets, st.integers(0, 2**32), st.integers(0, 1), st.integers(0, 2**32))
def test_random_games_against_the_model(
    rules: RuleSet, deck_seed: int, dealer: int, move_seed: int
) -> None:
    deck = list(range(52))
    random.Random(deck_seed).shuffle(deck)
    random_game(rules, deck, dealer, random.Random(move_seed))


def test_seeded_random_games_against_the_model() -> None:
    """Thirty games: ``i`` runs through every combination of the five profiles, the last
    discard chance (every third game) and the dealer (every other game) once (30 is the least
    common multiple of 5, 3 and 2), beside the sixty games above on generated rule sets;
    ``--slow`` plays 2,000 (:func:`test_many_seeded_random_games_against_the_model`)."""
    rng = random.Random("hands")
    for i in range(30):
        profile = PROFILE_NAMES[i % len(PROFILE_NAMES)]
        rules = get_rules(profile, last_discard_chance=i % 3 == 0)
        deck = list(range(52))
        rng.shuffle(deck)
        random_game(rules, deck, i % 2, rng)


@pytest.mark.slow
def test_many_seeded_random_games_against_the_model() -> None:
    rng = random.Random("hands/slow")
    for i in range(2000):
        profile = PROFILE_NAMES[i % len(PROFILE_NAMES)]
        rules = get_rules(profile, last_discard_chance=i % 3 == 0, big_gin=i % 4 == 0)
        deck = list(range(52))
        rng.shuffle(deck)
        random_game(rules, deck, i % 2, rng)


# ---------------------------------------------------------------------------------------------
# Seats: one check (hand.seat_number) for every call that names a seat.

NOT_SEATS: list[object] = [2, -1, 0.0, 1.0, True, False, "0", None, 2**70]


@pytest.mark.parametrize("dealer", NOT_SEATS)
def test_a_dealer_that_is_not_seat_0_or_1_is_refused(dealer: object) -> None:
    with pytest.raises(GinRummyError, match="the dealer is seat 0 or 1, not "):
        Hand(dealer=dealer)  # type: ignore[arg-type]


@pytest.mark.parametrize("seat", NOT_SEATS)
def test_every_call_naming_a_seat_refuses_what_is_not_one(seat: object) -> None:
    hand = Hand(seed=5, dealer=1)
    hand.play("pass")
    before = hand.view(0), hand.view(1)
    for call in (hand.hand_of, hand.knowledge, hand.view, hand.known_to_hold):
        with pytest.raises(GinRummyError, match="a seat is 0 or 1, not ") as err:
            call(seat)  # type: ignore[arg-type]
        assert len(str(err.value)) < 100
    assert (hand.view(0), hand.view(1)) == before


def test_the_seat_check_passes_the_seats() -> None:
    from ginrummy.engine.hand import seat_number

    assert seat_number(0) == 0 and seat_number(1) == 1
    hand = Hand(seed=5, dealer=1)
    assert len(hand.hand_of(0)) == len(hand.hand_of(1)) == 10
    assert hand.known_to_hold(0) == 0 and hand.knowledge(1).history == ()


@pytest.mark.parametrize("seed", [[1], 1.5, b"x", object()])
def test_a_seed_is_an_int_or_a_string(seed: object) -> None:
    with pytest.raises(GinRummyError, match="a seed is an int or a string"):
        Hand(seed=seed)  # type: ignore[arg-type]
