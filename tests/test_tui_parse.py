"""The terminal table's command reader: forgiving about form, never judging legality."""

from __future__ import annotations

import pytest

from ginrummy.engine.cards import Card
from ginrummy.engine.errors import InvalidCardError
from ginrummy.tui.parse import Command, CommandError, parse_command, short_move


@pytest.mark.parametrize(
    ("text", "move"),
    [
        ("d", "draw"),
        ("DRAW", "draw"),
        ("  d  ", "draw"),
        ("t", "take"),
        ("take", "take"),
        ("p", "pass"),
        ("pass", "pass"),
        ("x 7h", "discard 7h"),
        ("x7h", "discard 7h"),
        ("discard 7H", "discard 7h"),
        ("x 10♥", "discard Th"),
        ("x 10h", "discard Th"),
        ("drop qs", "discard Qs"),
        ("k 7h", "knock 7h"),
        ("knock   9s", "knock 9s"),
        ("k10d", "knock Td"),
        ("bg", "big gin"),
        ("big gin", "big gin"),
        ("k 7h with 7c7d7s 8h9hTh", "knock 7h with 7c7d7s 8h9hth"),
    ],
)
def test_moves_become_engine_notation(text: str, move: str) -> None:
    assert parse_command(text) == Command("move", move=move)


@pytest.mark.parametrize(
    ("text", "phase", "move"),
    [
        ("7h", "discard", "discard 7h"),
        ("10♠", "discard", "discard Ts"),
        ("kc", "discard", "discard Kc"),  # the king of clubs, not "knock c"
        ("qh", "discard", "discard Qh"),  # the queen of hearts, not "quit h"
        ("ah", "discard", "discard Ah"),
        # Once only knocks are legal (after taking the last discard) a card means a knock.
        ("7h", "last_chance_knock", "knock 7h"),
        # Out of turn a bare card still reads as a discard; the engine explains why not.
        ("7h", "draw", "discard 7h"),
    ],
)
def test_a_bare_card_is_read_by_phase(text: str, phase: str, move: str) -> None:
    assert parse_command(text, phase) == Command("move", move=move)


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("", "enter"),
        ("   ", "enter"),
        ("?", "help"),
        ("h", "help"),
        ("HELP", "help"),
        ("q", "quit"),
        ("quit", "quit"),
        ("sheet", "sheet"),
        ("rules", "rules"),
        ("m", "moves"),
        ("moves", "moves"),
        ("l", "look"),
        ("s", "sort"),
        ("gin", "gin"),
    ],
)
def test_table_commands(text: str, action: str) -> None:
    assert parse_command(text).action == action


def test_sort_takes_an_order() -> None:
    assert parse_command("sort suit") == Command("sort", arg="suit")
    assert parse_command("s rank") == Command("sort", arg="rank")
    assert parse_command("s") == Command("sort")
    with pytest.raises(CommandError, match="'rank' or by 'suit'"):
        parse_command("sort colour")


def test_gin_names_its_card() -> None:
    assert parse_command("gin 7h") == Command("gin", card=Card.parse("7h"))
    assert parse_command("g7h") == Command("gin", card=Card.parse("7h"))
    assert parse_command("gin") == Command("gin")


@pytest.mark.parametrize(
    "text", ["xyzzy", "hello there", "draw 7h", "take it", "t 7h", "tea", "jump", "kiss"]
)
def test_garbage_is_no_command(text: str) -> None:
    with pytest.raises(CommandError, match="is not a command; type \\? for help"):
        parse_command(text)


@pytest.mark.parametrize("text", ["x 1z", "x 7x", "k 11h", "1z", "7x", "11h", "a", "gin zz"])
def test_bad_card_text_raises_the_card_error(text: str) -> None:
    with pytest.raises(InvalidCardError, match="is not a card"):
        parse_command(text)


@pytest.mark.parametrize("text", ["x", "discard", "k", "x 7h 8h", "k 7h with"])
def test_a_move_needs_exactly_one_card(text: str) -> None:
    with pytest.raises(CommandError):
        parse_command(text)


def test_short_moves_are_what_people_type() -> None:
    assert short_move("discard Th") == "x 10h"
    assert short_move("knock Ac") == "k Ac"
    assert short_move("pass") == "p"
    # Every short form reads back as the same engine move.
    for move in ("draw", "take", "pass", "discard Th", "knock 7h", "big gin"):
        assert parse_command(short_move(move)).move == move


def test_seed_keeps_its_text_as_typed() -> None:
    assert parse_command("seed Ann's lucky 7") == Command("seed", arg="Ann's lucky 7")
    assert parse_command("  SEED  two spaces\n") == Command("seed", arg=" two spaces")
    assert parse_command("seed tail ") == Command("seed", arg="tail ")
    assert parse_command("seed") == Command("seed") == parse_command(" Seed  ")
    with pytest.raises(CommandError, match="is not a command"):
        parse_command("seedling")
