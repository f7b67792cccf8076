"""The Move type: parsing every spelling, canonical text, equality with plain strings, words."""

from __future__ import annotations

import pickle

import pytest

from ginrummy.engine.cards import CARD_TEXT, Card
from ginrummy.engine.errors import IllegalMoveError
from ginrummy.engine.move import InvalidMoveError, Move, narrate


def test_every_canonical_move_round_trips() -> None:
    texts = ["take", "pass", "draw", "big gin"]
    texts += [f"{verb} {c}" for verb in ("discard", "knock") for c in CARD_TEXT]
    for text in texts:
        move = Move.parse(text)
        assert move == text and str(move) == text and hash(move) == hash(text)
        assert type(str(move)) is str
        assert Move.parse(str(move)) is move  # canonical moves exist once
        assert pickle.loads(pickle.dumps(move)) == move


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("  DRAW ", "draw"),
        ("discard 10h", "discard Th"),
        ("Discard 7♥", "discard 7h"),
        ("knock 7h with 7c-7d-7s 8h9hTh", "knock 7h with 7c7d7s 8h9hTh"),
        ("knock 7h with 7c7d7s,8h9hTh", "knock 7h with 7c7d7s 8h9hTh"),
        ("big  gin", "big gin"),
    ],
)
def test_spellings_parse_to_the_canonical_text(text: str, canonical: str) -> None:
    assert Move.parse(text) == canonical


def test_fields() -> None:
    m = Move.parse("knock 7h with 7c7d7s 8h9hTh")
    assert (m.kind, m.card, m.goes_out, m.is_draw) == ("knock", Card.parse("7h"), True, False)
    assert m.melds is not None and [str(x) for x in m.melds] == ["7c7d7s", "8h9hTh"]
    assert m.plain == "knock 7h" and m.plain.melds is None
    assert Move.parse("take").card is None and Move.parse("draw").is_draw
    assert Move.of("discard", Card.parse("Qs")) == "discard Qs"
    with pytest.raises(AttributeError):
        m.card = Card.parse("2c")  # type: ignore[misc]


@pytest.mark.parametrize(
    "text",
    ["", "   ", "discard", "discard 7x", "discard 7h 8h", "knock 7h 8h", "knock 7h with",
     "knock 7h using 7c7d7s", "fold", "take 7h", "big", "discard 7h7c", 7],
)
def test_bad_text_is_refused_with_the_text_quoted(text: object) -> None:
    with pytest.raises(InvalidMoveError) as err:
        Move.parse(text)  # type: ignore[arg-type]
    assert isinstance(err.value, IllegalMoveError)
    if isinstance(text, str) and text.strip():
        assert repr(text) in str(err.value) or text.strip() in str(err.value)


def test_words_and_narration() -> None:
    seven = Card.parse("7h")
    assert Move.parse("take").words(top=seven) == "take the 7♥"
    assert Move.parse("pass").words(top=seven, last_chance=True) == "pass the last discard"
    assert Move.parse("knock 7h").words(deadwood=0) == "go gin, discarding the 7♥"
    assert narrate("Computer", "pass", "7♥", upcard=True) == "Computer passed the upcard 7♥"
    assert narrate("You", "knock", "7♥") == "You knocked, discarding 7♥ face down"
    with pytest.raises(InvalidMoveError):
        narrate("You", "fold", None)


# ---------------------------------------------------------------------------------------------
# Bad input: InvalidMoveError (or InvalidCardError) with a precise message, never a bare
# IndexError, KeyError or TypeError, and never another card than the one meant.


@pytest.mark.parametrize("text", ["discard 7ſ", "knock \u212ah", "\u212anock 7h", "draw\u212a",
                                  "knock 7h with 7c7d7ſ"])
def test_unicode_look_alikes_are_refused(text: str) -> None:
    # str.lower() turns the Kelvin sign into 'k': neither a card nor a verb may be read so.
    with pytest.raises(InvalidMoveError):
        Move.parse(text)


def test_a_knock_with_no_melds_after_with_is_refused() -> None:
    for text in ("knock 7h with |", "knock 7h with , ,", "knock 7h with | |"):
        with pytest.raises(InvalidMoveError, match="name the melds after 'with'"):
            Move.parse(text)
    move = Move.parse("knock 7h WITH 7c7d7s")
    assert Move.parse(str(move)) == move and pickle.loads(pickle.dumps(move)) == move


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (lambda: Move.discard(52), "not 52"),
        (lambda: Move.discard(-1), "not -1"),
        (lambda: Move.discard(True), "not True"),  # type: ignore[arg-type]
        (lambda: Move.discard("7h"), "not '7h'"),  # type: ignore[arg-type]
        (lambda: Move.discard(7.0), "not 7.0"),  # type: ignore[arg-type]
        (lambda: Move.knock(-1), "not -1"),
        (lambda: Move.knock(52), "not 52"),
        (lambda: Move.knock(5, melds=(-1,)), "-1 is not a declared meld"),
        (lambda: Move.knock(5, melds=(1 << 52,)), "is not a declared meld"),
        (lambda: Move.knock(5, melds=(0,)), "0 is not a declared meld"),
        (lambda: Move.knock(5, melds=5), "not 5"),  # type: ignore[arg-type]
        (lambda: Move.knock(5, melds="7c7d7s"), "not '7c7d7s'"),  # type: ignore[arg-type]
        (lambda: Move.of("discard", True), "not True"),
        (lambda: Move.of("discard", "7h"), "not '7h'"),  # type: ignore[arg-type]
        (lambda: Move.of("discard"), "not None"),
        (lambda: Move.of("knock", 5, melds=("x",)), "'x' is not a declared meld"),  # type: ignore[arg-type]
        (lambda: Move.of("knock", 5, melds=(True,)), "True is not a declared meld"),
        (lambda: Move.of("bogus"), "'bogus' is not a kind of move"),  # type: ignore[arg-type]
        (lambda: Move.of(["take"]), "is not a kind of move"),  # type: ignore[arg-type]
        (lambda: Move.of("take", 5), "names no card"),
    ],
)
def test_the_builders_refuse_what_is_not_a_move(build: object, message: str) -> None:
    with pytest.raises(InvalidMoveError, match=message):
        build()  # type: ignore[operator]


def test_the_builders_take_cards_and_masks() -> None:
    seven = Card.parse("7h")
    assert Move.discard(seven) is Move.discard(int(seven)) == "discard 7h"
    assert Move.knock(seven) == Move.of("knock", seven) == "knock 7h"
    melds = Move.parse("knock 7h with 7c7d7s 8h9hTh").melds
    assert melds is not None
    assert Move.knock(seven, melds) == "knock 7h with 7c7d7s 8h9hTh"  # type: ignore[arg-type]
    assert Move.knock(seven, tuple(m.mask for m in melds)).meld_masks == tuple(
        m.mask for m in melds
    )


def test_a_huge_move_text_is_quoted_short() -> None:
    with pytest.raises(InvalidMoveError) as err:
        Move.parse("discard " + "7h" * 50_000)
    assert len(str(err.value)) < 300
