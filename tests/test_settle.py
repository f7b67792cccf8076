"""``settle_hand``: the public scoring of a finished hand, its input forms and its errors
(RULES.md, "Scoring a hand"). Played positions are in test_hand.py and test_worked_examples.py.
"""

from __future__ import annotations

from typing import Any

import pytest

import bruteforce as bf
from ginrummy import IllegalMoveError, InvalidCardError, settle_hand

KNOCKER = "4h 5h 6h Ac 2c 3c 9s 9d 9c 2d"  # deadwood 2d = 2
DEFENDER = "Kc Kd Ks Qc Qd Qs 8s 5c 6s 9h"  # 28; the 9h goes on 999: 19


def ints(text: str) -> set[int]:
    return set(bf.cards(text))


@pytest.mark.parametrize(
    "melds",
    [
        "4h5h6h Ac2c3c 9s9d9c",
        "4h-5h-6h | Ac-2c-3c, 9s9d9c",
        ["4h 5h 6h", "Ac 2c 3c", "9s 9d 9c"],
        [bf.cards("4h 5h 6h"), bf.cards("Ac 2c 3c"), bf.cards("9s 9d 9c")],
    ],
)
def test_declared_melds_in_every_form(melds: Any) -> None:
    r = settle_hand(KNOCKER, DEFENDER, melds=melds)
    assert {frozenset(int(c) for c in m) for m in r.knocker_melds} == {
        frozenset(ints("4h 5h 6h")), frozenset(ints("Ac 2c 3c")), frozenset(ints("9s 9d 9c"))
    }
    assert (r.kind, r.points, r.defender_deadwood) == ("knock", 17, 19)


def test_cards_as_lists_of_ints_or_text() -> None:
    a = settle_hand(bf.cards(KNOCKER), bf.cards(DEFENDER))
    b = settle_hand(KNOCKER.split(), DEFENDER.replace(" ", ","))
    assert a == b == settle_hand(KNOCKER, DEFENDER)


def test_big_gin_through_settle_hand() -> None:
    eleven = "Ac 2c 3c 4d 5d 6d 7d 9s 9d 9c 9h"
    defender = "Kc Kd Kh Qc Qd Qh 8h 5c 6s Js"  # 8 + 5 + 6 + 10 = 29
    r = settle_hand(eleven, defender, "modern")
    assert (r.kind, r.points, r.layoffs) == ("big_gin", 29 + 31, ())
    with pytest.raises(IllegalMoveError, match="big gin"):
        settle_hand(eleven, defender, "traditional")
    with pytest.raises(IllegalMoveError, match="eleven"):
        settle_hand("Ac 2c 3c 4d 5d 6d 7d 9s 9d 9c Ks", defender, "modern")


@pytest.mark.parametrize(
    ("knocker", "defender", "kw", "error"),
    [
        (KNOCKER, "Kc Kd Ks", {}, IllegalMoveError),  # defender not 10 cards
        ("Ac 2c 3c", DEFENDER, {}, IllegalMoveError),  # knocker not 10 or 11
        (KNOCKER, DEFENDER.replace("9h", "2d"), {}, InvalidCardError),  # 2d in both hands
        (KNOCKER, DEFENDER, {"upcard": True}, InvalidCardError),
        (KNOCKER, DEFENDER, {"upcard": "Th Jh"}, InvalidCardError),
        (KNOCKER, DEFENDER, {"upcard": 52}, InvalidCardError),
        (KNOCKER, DEFENDER, {"rules": "oklahoma"}, IllegalMoveError),  # needs the upcard
        ("4h 5h 6h Ac 2c 3c 9s 9d Kc Kd", "Ks Qc Qd Qs 8s 5c 6s 9h 2d 3d", {}, IllegalMoveError),
        (KNOCKER, DEFENDER, {"melds": "4h5h6h 4h5h6h"}, IllegalMoveError),
        (KNOCKER, DEFENDER, {"melds": "Zz"}, InvalidCardError),
        (KNOCKER, "7x " + DEFENDER[3:], {}, InvalidCardError),
    ],
)
def test_bad_input(knocker: str, defender: str, kw: dict[str, Any], error: type) -> None:
    rules = kw.pop("rules", "traditional")
    with pytest.raises(error):
        settle_hand(knocker, defender, rules, **kw)


def test_oklahoma_upcard_forms() -> None:
    by_text = settle_hand(KNOCKER, DEFENDER, "oklahoma", upcard="3s")
    by_int = settle_hand(KNOCKER, DEFENDER, "oklahoma", upcard=bf.card("3s"))
    assert by_text == by_int
    # Limit 3, spade: (19 - 2) * 2.
    assert (by_text.knock_limit, by_text.multiplier, by_text.points) == (3, 2, 34)
    with pytest.raises(IllegalMoveError, match="limit"):
        settle_hand(KNOCKER, DEFENDER, "oklahoma", upcard="Ad")


@pytest.mark.parametrize("melds", [5, 5.0, True, object()])
def test_declared_melds_that_are_not_melds_are_refused_in_words(melds: object) -> None:
    with pytest.raises(InvalidCardError, match=r"declared melds are text .* or a list of melds"):
        settle_hand(KNOCKER, DEFENDER, melds=melds)  # type: ignore[arg-type]
