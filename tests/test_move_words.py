"""One way to tell a move: the coach, the lessons, the terminal and the web all say moves through
:mod:`ginrummy.engine.move` (``Move.words`` for what to do, ``narrate`` for what happened)."""

from __future__ import annotations

import pytest

from ginrummy.coach import Coach, move_words
from ginrummy.engine.cards import Card
from ginrummy.engine.errors import IllegalMoveError
from ginrummy.engine.match import Match
from ginrummy.engine.move import Move, narrate
from ginrummy.engine.rules import get_rules
from ginrummy.engine.view import PublicEvent
from ginrummy.lessons.text import move_words as lesson_words
from ginrummy.players import make
from ginrummy.server.serialize import NAMES, public_moves
from ginrummy.tui.parse import short_move
from ginrummy.tui.render import _describe
from tui_support import match_with

HUMAN = "7h 8h 9h Kc Kd Ks 2c 5d 9s Jh"
COMPUTER = "Ac 2d 3s 5c 6h 7d 8c 9d Tc Js"
VERBS = {"take": "took", "pass": "passed", "draw": "drew", "discard": "discarded",
         "knock": "knocked,", "big gin": "went"}


def _event(seat: int, kind: str, card: str | None = None) -> PublicEvent:
    return PublicEvent(seat, kind, None if card is None else Card.parse(card))


def test_the_coach_says_every_legal_move_as_move_words_does() -> None:
    match = match_with(HUMAN, COMPUTER, "4s")
    view = match.view(0)
    assert [move_words(view, m) for m in view.legal_moves] == ["take the 4♠", "pass the 4♠"]
    match.play("take")
    view = match.view(0)
    for m in view.legal_moves:
        assert move_words(view, m) == Move.parse(m).words(top=view.top_discard)
    assert move_words(view, "discard Jh") == "discard the J♥"


def test_a_knock_is_told_with_its_deadwood_and_gin_as_gin() -> None:
    view = match_with(HUMAN, COMPUTER, "4s").view(0)
    knock = Move.knock(Card.parse("9s"))
    assert knock.words(deadwood=7) == "knock with 7, discarding the 9♠"
    assert knock.words(deadwood=0) == "go gin, discarding the 9♠"
    # Declared melds are not read out by the coach (its deadwood says what they leave: the
    # 2♣, 5♦ and J♥ of the hand without the 9♠).
    declared = Move.parse("knock 9s with 7h8h9h KcKdKs")
    assert move_words(view, declared) == "knock with 17, discarding the 9♠"
    assert declared.words() == "knock, discarding the 9♠, laying down 7h8h9h KcKdKs"


def test_the_lessons_say_moves_the_shared_way() -> None:
    assert lesson_words("knock 6d") == "knock, discarding the 6♦"
    assert lesson_words("Discard 10h") == "discard the 10♥"
    assert lesson_words("take") == "take the card"
    assert lesson_words("not a move") == "not a move"


def test_the_coach_reads_any_spelling_of_a_legal_move() -> None:
    match = match_with(HUMAN, COMPUTER, "4s")
    match.play("take")
    coach = Coach(seed=1, samples=4)
    view = match.view(0)
    assert coach.assess(view, "  Discard JH ").move == "discard Jh"
    with pytest.raises(IllegalMoveError, match="not a legal move here"):
        coach.assess(view, "discard 3h")
    with pytest.raises(IllegalMoveError, match="not a legal move here"):
        coach.assess(view, "fold")


def test_short_move_reads_declared_melds_through_move() -> None:
    assert short_move("knock Th with 7h8h9h") == "k 10h with 7h8h9h"
    assert short_move(Move.parse("big gin")) == "bg"


# A hand's history with every kind of move: an upcard pass and take, stock draws (one hidden),
# a discard, a knock, a last-discard pass and big gin (not one hand's events, but each is
# told from what precedes it).
_HISTORY = (
    _event(1, "pass", "4s"),
    _event(0, "take", "4s"),
    _event(0, "discard", "Jh"),
    _event(1, "draw"),
    _event(1, "discard", "2d"),
    _event(0, "take", "2d"),
    _event(0, "knock", "9s"),
    _event(1, "draw", "6c"),
    _event(1, "big gin"),
    _event(0, "pass", "6c"),
)


def test_web_narration_of_every_kind() -> None:
    texts = [m.text for m in public_moves(_HISTORY, 0, whole_hand=True)]
    assert texts == [
        "Computer passed the upcard 4♠",
        "You took the upcard 4♠",
        "You discarded J♥",
        "Computer drew from the stock",
        "Computer discarded 2♦",
        "You took 2♦ from the discard pile",
        "You knocked, discarding 9♠ face down",
        "Computer drew 6♣",
        "Computer went big gin",
        "You passed on the last discard 6♣",
    ]
    # A run cut from the hand (the computer's latest moves) has no context to tell the upcard.
    assert public_moves(_HISTORY[:1], 0)[0].text == "Computer passed on 4♠"
    assert public_moves(_HISTORY[:1], 0, whole_hand=True)[0].text == (
        "Computer passed the upcard 4♠"
    )


def _terminal_lines(history: tuple[PublicEvent, ...]) -> list[tuple[int, int, str]]:
    out, i = [], 0
    while i < len(history):
        line, j = _describe(history, i, NAMES[history[i].seat], False)
        out.append((i, j, line))
        i = j
    return out


def _check_agreement(history: tuple[PublicEvent, ...]) -> set[str]:
    """Each terminal sentence starts with the web's sentence for its first move, and a joined
    second move is told with the web's words for it; both use the verb of the move's kind."""
    web = [m.text for m in public_moves(history, 0, whole_hand=True)]
    for i, event in enumerate(history):
        assert web[i].split()[1] == VERBS[event.kind], web[i]
    for i, j, line in _terminal_lines(history):
        assert line.startswith(web[i]), (line, web[i])
        if j == i + 2:
            actor, rest = web[i + 1].split(" ", 1)
            assert actor == NAMES[history[i].seat]
            assert line[len(web[i]):] in (f" and {rest}.", f" and {rest}!"), line
    return {e.kind for e in history}


def test_the_terminal_and_the_web_tell_every_kind_alike() -> None:
    assert _check_agreement(_HISTORY) == set(VERBS)
    lines = [line for _, _, line in _terminal_lines(_HISTORY)]
    assert lines[0] == "Computer passed the upcard 4♠."
    assert lines[1] == "You took the upcard 4♠ and discarded J♥."
    assert lines[-1] == "You passed on the last discard 6♣; the hand is cancelled."


@pytest.mark.parametrize("profile", ["traditional", "oklahoma"])
def test_the_terminal_and_the_web_agree_over_played_hands(profile: str) -> None:
    rules = get_rules(profile, last_discard_chance=True)
    kinds: set[str] = set()
    for seed in range(6):
        match = Match(rules, seed=f"words-{seed}")
        players = (make("simple", seed=seed), make("random", seed=seed))
        while not match.hand.over:
            seat = match.hand.to_play
            match.play(players[seat].choose(match.view(seat)))
        for seat in (0, 1):
            kinds |= _check_agreement(tuple(match.view(seat).history))
    assert {"take", "pass", "draw", "discard"} <= kinds


def test_narrate_is_the_actor_and_past_tense() -> None:
    assert narrate("Anna", "discard", "7♥") == "Anna discarded 7♥"
