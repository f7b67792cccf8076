"""Cards and card sets: parsing what people type, printing, and CardSet as a Python set.

RULES.md, "Cards": one 52-card deck, ace low counting 1, 2-10 face value, J/Q/K 10.
docs/rules.md, "Cards and notation": the accepted spellings and the error for anything else.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

import bruteforce as bf
from ginrummy import Card, CardSet, Hand, InvalidCardError, parse_cards, settle_hand
from ginrummy.engine.cards import card_value, to_mask

SEVEN_OF_HEARTS = 2 * 13 + 6  # hearts are suit 2, the seven is rank 6
TEN_OF_HEARTS = 2 * 13 + 9


@pytest.mark.parametrize("text", ["7h", "7H", "7♥", "7♡", " 7h "])
def test_seven_of_hearts_spellings(text: str) -> None:
    assert parse_cards(text) == [SEVEN_OF_HEARTS]
    assert Card.parse(text) == SEVEN_OF_HEARTS


@pytest.mark.parametrize("text", ["10h", "Th", "th", "10♥", "TH", "10H"])
def test_ten_of_hearts_spellings(text: str) -> None:
    assert Card.parse(text) == TEN_OF_HEARTS


def test_ace_lower_case() -> None:
    assert Card.parse("ah") == 2 * 13 + 0
    assert Card.parse("As") == 3 * 13 + 0
    assert Card.parse("kc") == 12


def test_every_card_round_trips_through_its_text() -> None:
    for i in range(52):
        c = Card(i)
        assert str(c) == bf.RANKS[i % 13] + bf.SUITS[i // 13]
        assert Card.parse(str(c)) == i
        assert Card.parse(c.symbol()) == i
        assert eval(repr(c)) == i
        assert c.rank == i % 13 and c.suit == i // 13
        assert c.value == card_value(i) == bf.value(i)
        assert c.mask == 1 << i


def test_symbols_and_names() -> None:
    assert Card.parse("Th").symbol() == "10♥"
    assert Card.parse("Th").name == "ten of hearts"
    assert Card.parse("As").symbol() == "A♠"
    assert Card.parse("Qd").name == "queen of diamonds"
    assert Card.parse("2c").symbol() == "2♣"


def test_values() -> None:
    # RULES.md "Cards": ace 1, 2-10 face value, J Q K 10.
    assert [Card.parse(f"{r}s").value for r in "A23456789TJQK"] == [
        1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10,
    ]


@pytest.mark.parametrize(
    "text",
    ["7h 8h 9h", "7h,8h,9h", "7h, 8h, 9h", "7h8h9h", "  7h ,, 8h\t9h\n", "7h 8h9h", "7♥8♥9♥"],
)
def test_separators(text: str) -> None:
    assert parse_cards(text) == [SEVEN_OF_HEARTS, SEVEN_OF_HEARTS + 1, SEVEN_OF_HEARTS + 2]


def test_order_and_duplicates_kept_by_parse_cards() -> None:
    assert parse_cards("9h 7h 9h") == [SEVEN_OF_HEARTS + 2, SEVEN_OF_HEARTS, SEVEN_OF_HEARTS + 2]
    assert parse_cards("") == []
    assert parse_cards(" , ") == []


@pytest.mark.parametrize(
    ("text", "token"),
    [
        ("7h 1h", "1h"),
        ("7x", "7x"),
        ("11h", "11h"),
        ("7h1h", "1h"),
        ("7h 8h zz", "zz"),
        ("♥7", "♥7"),
        ("7", "7"),
        ("Jk", "Jk"),
    ],
)
def test_bad_token_is_named(text: str, token: str) -> None:
    with pytest.raises(InvalidCardError) as info:
        parse_cards(text)
    assert info.value.token == token
    assert repr(token) in str(info.value)


def test_parse_errors_are_value_errors() -> None:
    with pytest.raises(ValueError):
        parse_cards("nope")
    with pytest.raises(InvalidCardError):
        parse_cards(7)  # type: ignore[arg-type]


def test_card_parse_needs_exactly_one_card() -> None:
    with pytest.raises(InvalidCardError):
        Card.parse("7h 8h")
    with pytest.raises(InvalidCardError):
        Card.parse("")


@pytest.mark.parametrize("bad", [52, -1, -52, 100, True, False, 3.0, "7h", None])
def test_card_index_out_of_range(bad: object) -> None:
    with pytest.raises(InvalidCardError):
        Card(bad)  # type: ignore[arg-type]


def test_duplicates_rejected_where_a_hand_is_expected() -> None:
    with pytest.raises(InvalidCardError, match="7h"):
        to_mask("7h 7H", what="hand")
    with pytest.raises(InvalidCardError, match="7h"):
        CardSet("7h 8h 7♥")
    with pytest.raises(InvalidCardError):
        CardSet([SEVEN_OF_HEARTS, SEVEN_OF_HEARTS])
    deck = [str(Card(i)) for i in range(52)]
    deck[51] = deck[0]
    with pytest.raises(InvalidCardError):
        Hand(deck=deck)
    with pytest.raises(InvalidCardError):
        settle_hand("Ac 2c 3c 4c 5c 6c 7c 8c 9c 9c", "Ad 2d 3d 4d 5d 6d 7d 8d 9d Td")
    with pytest.raises(InvalidCardError, match="both"):
        settle_hand("Ac 2c 3c 4c 5c 6c 7c 8c 9c Tc", "Tc 2d 3d 4d 5d 6d 7d 8d 9d Td")


def test_cardset_text_and_repr_paste_back() -> None:
    cs = CardSet("9h 8h 7h As")
    assert str(cs) == "7h8h9hAs"
    assert eval(repr(cs)) == cs
    assert eval(repr(CardSet())) == CardSet()
    assert list(cs) == [SEVEN_OF_HEARTS, SEVEN_OF_HEARTS + 1, SEVEN_OF_HEARTS + 2, 39]
    assert list(reversed(cs)) == list(cs)[::-1]
    assert cs.deadwood_value == 7 + 8 + 9 + 1


@given(st.sets(st.integers(0, 51)))
def test_cardset_repr_round_trip(cards: set[int]) -> None:
    cs = CardSet(sorted(cards))
    assert eval(repr(cs)) == cs
    assert CardSet(str(cs)) == cs
    assert CardSet.from_mask(cs.mask) == cs
    assert int(cs) == sum(1 << c for c in cards)


def test_cardset_from_mask_checks_range() -> None:
    with pytest.raises(InvalidCardError):
        CardSet.from_mask(1 << 52)
    with pytest.raises(InvalidCardError):
        CardSet.from_mask(-1)
    with pytest.raises(InvalidCardError):
        CardSet.from_mask(True)


def test_cardset_not_hashable_like_set() -> None:
    with pytest.raises(TypeError):
        hash(CardSet("7h"))


card_ints = st.integers(0, 51)
card_lists = st.lists(card_ints, max_size=8, unique=True)


class CardSetModel(RuleBasedStateMachine):
    """A CardSet and a Python set of ints receive the same operations and must agree."""

    def __init__(self) -> None:
        super().__init__()
        self.cs = CardSet()
        self.model: set[int] = set()

    @rule(c=card_ints)
    def add(self, c: int) -> None:
        self.cs.add(c)
        self.model.add(c)

    @rule(c=card_ints)
    def add_text(self, c: int) -> None:
        self.cs.add(str(Card(c)))
        self.model.add(c)

    @rule(c=card_ints)
    def remove(self, c: int) -> None:
        if c in self.model:
            self.cs.remove(c)
            self.model.remove(c)
        else:
            with pytest.raises(KeyError):
                self.cs.remove(c)

    @rule(c=card_ints)
    def discard(self, c: int) -> None:
        self.cs.discard(c)
        self.model.discard(c)

    @precondition(lambda self: bool(self.model))
    @rule()
    def pop(self) -> None:
        c = self.cs.pop()
        assert isinstance(c, Card)
        self.model.remove(c)

    @precondition(lambda self: not self.model)
    @rule()
    def pop_empty(self) -> None:
        with pytest.raises(KeyError):
            self.cs.pop()

    @rule()
    def clear(self) -> None:
        self.cs.clear()
        self.model.clear()

    @rule(other=card_lists, others=st.lists(card_lists, max_size=2))
    def update(self, other: list[int], others: list[list[int]]) -> None:
        self.cs.update(other, *others)
        self.model.update(other, *others)

    @rule(other=card_lists)
    def intersection_update(self, other: list[int]) -> None:
        self.cs.intersection_update(other)
        self.model.intersection_update(other)

    @rule(other=card_lists)
    def difference_update(self, other: list[int]) -> None:
        self.cs.difference_update(other)
        self.model.difference_update(other)

    @rule(other=card_lists)
    def symmetric_difference_update(self, other: list[int]) -> None:
        self.cs.symmetric_difference_update(other)
        self.model.symmetric_difference_update(other)

    @rule(other=card_lists, op=st.sampled_from(["|=", "&=", "-=", "^="]))
    def in_place_operator(self, other: list[int], op: str) -> None:
        o = CardSet(other)
        before = self.cs
        if op == "|=":
            self.cs |= o
            self.model |= set(other)
        elif op == "&=":
            self.cs &= o
            self.model &= set(other)
        elif op == "-=":
            self.cs -= o
            self.model -= set(other)
        else:
            self.cs ^= o
            self.model ^= set(other)
        assert self.cs is before, "in-place operators keep the object"

    @rule(other=card_lists)
    def new_sets(self, other: list[int]) -> None:
        o = CardSet(other)
        s = set(other)
        before = self.cs.mask
        assert (self.cs | o) == self.model | s
        assert (self.cs & o) == self.model & s
        assert (self.cs - o) == self.model - s
        assert (self.cs ^ o) == self.model ^ s
        assert self.cs.union(other, [0]) == self.model.union(s, {0})
        assert self.cs.intersection(other) == self.model.intersection(s)
        assert self.cs.difference(other) == self.model.difference(s)
        assert self.cs.symmetric_difference(other) == self.model.symmetric_difference(s)
        assert self.cs.mask == before, "operators do not change the operands"

    @rule(other=card_lists)
    def comparisons(self, other: list[int]) -> None:
        o = CardSet(other)
        s = set(other)
        assert (self.cs <= o) == (self.model <= s)
        assert (self.cs < o) == (self.model < s)
        assert (self.cs >= o) == (self.model >= s)
        assert (self.cs > o) == (self.model > s)
        assert (self.cs == o) == (self.model == s)
        assert (self.cs != o) == (self.model != s)
        assert self.cs.issubset(other) == self.model.issubset(s)
        assert self.cs.issuperset(other) == self.model.issuperset(s)
        assert self.cs.isdisjoint(other) == self.model.isdisjoint(s)

    @rule()
    def copy_is_independent(self) -> None:
        dup = self.cs.copy()
        assert dup == self.cs and dup is not self.cs
        dup.add(0 if 0 not in self.model else 1)
        assert self.cs == self.model

    @invariant()
    def agrees(self) -> None:
        assert self.cs == self.model
        assert self.cs == frozenset(self.model)
        assert len(self.cs) == len(self.model)
        assert bool(self.cs) == bool(self.model)
        assert list(self.cs) == sorted(self.model)
        for c in range(52):
            assert (c in self.cs) == (c in self.model)
            assert (str(Card(c)) in self.cs) == (c in self.model)
        assert 52 not in self.cs and -1 not in self.cs


TestCardSetModel = CardSetModel.TestCase


def test_membership_of_text_that_is_no_card_is_false_like_a_set() -> None:
    cards = CardSet("7h 8h")
    assert "7h" in cards
    assert "zz" not in cards
    assert "" not in cards


def test_card_value_and_rank_masks_from_the_rules() -> None:
    # RULES.md, "Deadwood": ace 1, two to ten their number, jack, queen and king 10.
    from ginrummy.engine.cards import CARD_VALUE, RANK_MASK

    for text, value in (("Ac", 1), ("2d", 2), ("9h", 9), ("Ts", 10), ("Jc", 10), ("Kh", 10)):
        assert CARD_VALUE[Card.parse(text)] == value
    for rank in range(13):
        assert RANK_MASK[rank] == sum(1 << c for c in range(52) if Card(c).rank == rank)


# ---------------------------------------------------------------------------------------------
# Bad input: a precise InvalidCardError, and nothing changed.


@pytest.mark.parametrize("text", ["7ſ", "\u212ah", "7h \u212ah", "7h8ſ"])
def test_unicode_look_alikes_are_not_cards(text: str) -> None:
    # Ignoring case the Unicode way, the long s matches s and the Kelvin sign k; they are in
    # no lookup table, so they must be refused, not fail with a KeyError.
    with pytest.raises(InvalidCardError, match="is no rank or suit") as err:
        parse_cards(text)
    assert err.value.token is not None and err.value.token in text
    with pytest.raises(InvalidCardError):
        Card.parse(text)
    with pytest.raises(InvalidCardError):
        CardSet(text)


def test_a_huge_bad_input_is_quoted_short() -> None:
    text = "zz" * 50_000
    with pytest.raises(InvalidCardError) as err:
        parse_cards(text)
    assert len(str(err.value)) < 200 and "…" in str(err.value)
    assert err.value.token == text  # the whole token stays on the error for code to read
    with pytest.raises(InvalidCardError) as err:
        Card(10**5000)
    assert len(str(err.value)) < 200


@pytest.mark.parametrize(
    ("method", "args"),
    [
        ("update", ("Th", "zz")),
        ("update", ("Th", None)),
        ("difference_update", ("8h", "zz")),
        ("difference_update", ("8h", 5)),
        ("intersection_update", ("7h8h", None)),
        ("intersection_update", ("7h8h", ["7h", True])),
    ],
)
def test_a_failed_update_changes_nothing(method: str, args: tuple[object, ...]) -> None:
    cs = CardSet("7h 8h 9h")
    with pytest.raises(InvalidCardError):
        getattr(cs, method)(*args)
    assert cs == CardSet("7h 8h 9h")


@pytest.mark.parametrize("other", [5, None, 3.5, object()])
def test_a_cardset_combines_only_with_cards(other: object) -> None:
    """Every way of combining refuses a non-card with the same InvalidCardError, compiled or
    not (compiled, an annotation narrower than ``object`` would raise its own TypeError)."""
    cs = CardSet("7h 8h")
    calls = [
        lambda: cs | other, lambda: cs & other, lambda: cs - other, lambda: cs ^ other,
        lambda: cs <= other, lambda: cs < other, lambda: cs >= other, lambda: cs > other,
        lambda: cs.union(other), lambda: cs.intersection(other), lambda: cs.difference(other),
        lambda: cs.symmetric_difference(other), lambda: cs.issubset(other),
        lambda: cs.issuperset(other), lambda: cs.isdisjoint(other),
    ]
    for call in calls:
        with pytest.raises(InvalidCardError, match=r"expected cards|single int"):
            call()
    for update in ("__ior__", "__iand__", "__isub__", "__ixor__", "update",
                   "symmetric_difference_update"):
        with pytest.raises(InvalidCardError):
            getattr(cs, update)(other)
    assert cs == CardSet("7h 8h")


def test_in_answers_false_for_what_is_not_a_card() -> None:
    cs = CardSet("Ac 2c Ks")
    assert Card(1) in cs and 0 in cs and 1 in cs and "2c" in cs and 51 in cs
    for other in (True, False, -1, 52, "zz", "7ſ", None, 0.0, 1.0):
        assert other not in cs
