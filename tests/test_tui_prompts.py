"""Every prompt the terminal tables show fits in 40 columns, the narrowest terminal they are
drawn for (docs/terminal.md): a prompt one column wider wraps, and the person types on a line
of its own. The prompts are built by the code itself (a whole match played at the table, a
table waiting to deal hand 99, the lessons' menu and questions, every phase's question with
every top card) and measured."""

from __future__ import annotations

import io
from collections.abc import Iterator
from dataclasses import replace
from itertools import combinations
from pathlib import Path
from typing import get_args

import pytest
from rich.cells import cell_len
from rich.console import Console

from ginrummy.engine.cards import Card
from ginrummy.engine.events import Phase
from ginrummy.engine.match import Match
from ginrummy.engine.rules import get_rules
from ginrummy.lessons import load_situations
from ginrummy.tui.lesson import LessonTable
from ginrummy.tui.parse import short_move
from ginrummy.tui.render import prompt_text
from ginrummy.tui.saves import SavedMatch
from test_tui_sealed import sealed
from test_tui_table import META, NAMES, Session, scripted
from tui_support import greedy_choice, match_with

WIDTH = 40


def too_wide(prompts: list[str]) -> list[tuple[int, str]]:
    return [(cell_len(p), p) for p in prompts if cell_len(p) > WIDTH]


def test_every_prompt_of_a_whole_match_fits(tmp_path: Path) -> None:
    s = Session(sealed("prompts", target=150), tmp_path, scripted(4000))
    assert s.run() is True
    deals = [p for p in s.prompts if "hand" in p.lower()]
    assert len(deals) >= 3 and len(s.prompts) > 50  # every deal's question and every turn's
    assert too_wide(s.prompts) == []


def test_the_prompt_before_hand_99_fits(tmp_path: Path) -> None:
    match = Match(get_rules("traditional", target=10_000), seed="long")
    while True:
        while not match.hand.over:
            match.play(greedy_choice(match.view(match.hand.to_play)))
        if len(match.hands) == 98:
            break
        match.next_hand()
    assert not match.over
    s = Session(SavedMatch(match, NAMES, META), tmp_path, [])
    assert s.run() is False  # the end of input at the first question: the deal of hand 99
    [asked] = s.prompts
    assert "99" in asked
    assert too_wide([asked]) == []


def every_question() -> Iterator[str]:
    """The question of a real view put in every phase a person is asked in, with every top
    card of the pile and every combination of legal moves the question can name, in plain
    mode and with card symbols."""
    view = match_with("7h 8h 9h Kc Kd Ks 2c 5d 9s Jh", "3c 4c 5c Qh Qd Qs 6s 7d Ac 2d",
                      "4s").view(0)
    kinds = ("take", "pass", "draw", "discard 7h", "knock 7h", "big gin")
    legal = [combo for n in range(len(kinds) + 1) for combo in combinations(kinds, n)]
    phases = [phase for phase in get_args(Phase) if phase != "over"]
    assert len(phases) == 6
    for phase in phases:
        for card in range(52):
            for moves in legal:
                asked = replace(view, phase=phase, discard_pile=(Card(card),), legal_moves=moves)
                for plain in (True, False):
                    yield prompt_text(asked, plain)


def test_every_question_of_every_phase_fits() -> None:
    questions = set(every_question())
    assert any("10♥" in q for q in questions) and any("Big gin" in q for q in questions)
    assert too_wide(sorted(questions)) == []


SITUATIONS = load_situations()


@pytest.mark.parametrize("plain", [True, False])
def test_the_lessons_prompts_fit(plain: bool) -> None:
    first = SITUATIONS[0]
    move = short_move(first.position.view().legal_moves[0])
    script = ["1", move, "", "q"]
    prompts: list[str] = []

    def ask(prompt: str) -> str | None:
        prompts.append(prompt)
        return script.pop(0) if script else None

    console = Console(file=io.StringIO(), width=WIDTH)
    LessonTable(console, plain=plain, ask=ask).menu(SITUATIONS)
    assert not script and len(prompts) == 4  # the menu, the question, the list again, the menu
    for situation in SITUATIONS:  # each situation's question
        LessonTable(console, plain=plain, ask=prompts.append).play(situation)
    assert len(prompts) == 4 + len(SITUATIONS)
    assert too_wide(prompts) == []
