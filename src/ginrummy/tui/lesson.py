"""Sample situations at the terminal: ``ginrummy learn``.

A situation is drawn exactly like a turn at the terminal table (:func:`.render.render_table` from
the learner's :class:`~ginrummy.engine.view.PlayerView`), with its question. The learner answers
with the table's own commands; the engine judges the move (:func:`ginrummy.lessons.answer`), and
only then is the explanation shown, with the opponent's hand.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console, Group, RenderableType
from rich.text import Text

from ..engine.cards import Card
from ..engine.errors import IllegalMoveError, InvalidCardError
from ..engine.melds import deadwood_after_discard
from ..engine.move import KNOCK, Move
from ..engine.view import PlayerView
from ..lessons import NAMES, TOPICS, Answer, Situation, answer
from ..lessons.text import (
    answers_text,
    fact_text,
    move_words,
    proof_text,
    rules_label,
    shown_title,
    verdict_text,
)
from .lines import InputFn, Quit, read_line
from .pages import render_help, render_rules
from .parse import CommandError, parse_command, short_move
from .render import SortOrder, asciify, hand_text, moves_text, prompt_text, render_table

__all__ = ["LessonTable", "situation_menu", "seat_names", "pick"]



def seat_names(seat: int) -> tuple[str, str]:
    """Seat names with the learner as "You"."""
    return NAMES if seat == 0 else (NAMES[1], NAMES[0])


def situation_menu(situations: Sequence[Situation]) -> list[str]:
    """The numbered list of situations, grouped by topic, each by its neutral heading (the
    lesson's title may say the answer) and its rules in plain words, as on the page."""
    lines: list[str] = []
    topic = None
    for number, s in enumerate(situations, 1):
        if s.lesson.topic != topic:
            topic = s.lesson.topic
            lines.append(f"{TOPICS[topic]}:")
        lines.append(f"  {number:2d}. {shown_title(s, answered=False)}  [{rules_label(s)}]  "
                     f"({s.id})")
    return lines


class LessonTable:
    """Plays situations with a person at the terminal."""

    def __init__(self, console: Console, *, plain: bool = False, ask: InputFn | None = None):
        self.console = console
        self.plain = plain
        self._ask = ask
        self.order: SortOrder = "rank"

    def say(self, text: str, style: str = "") -> None:
        """A line of prose, wrapped at word boundaries to the console's width (with
        ``soft_wrap`` the terminal broke lines mid-word: "You dre / w the 8♣")."""
        self.console.print(Text(asciify(text) if self.plain else text,
                                style="" if self.plain else style, overflow="ignore"))

    def ask(self, prompt: str) -> str:
        return read_line(self.console, self._ask, prompt, plain=self.plain)

    # ------------------------------------------------------------------------------------
    # The menu.

    def menu(self, situations: Sequence[Situation]) -> None:
        """List the situations and play the ones chosen until the learner quits."""
        try:
            while True:
                for line in situation_menu(situations):
                    self.say(line)
                choice = self.ask("Situation number or id (q to quit) > ").strip()
                if choice.lower() in ("q", "quit", "exit"):
                    return
                chosen = pick(situations, choice)
                if chosen is None:
                    self.say(f"There is no situation {choice!r}.", "yellow")
                    continue
                self._play(chosen)
                again = self.ask("Press Enter for the list (q to quit) > ")
                if again.strip().lower() in ("q", "quit", "exit"):
                    return
        except Quit:
            return

    def play(self, situation: Situation) -> bool:
        """Play one situation; False when the learner quit before answering."""
        try:
            self._play(situation)
        except Quit:
            return False
        return True

    # ------------------------------------------------------------------------------------
    # One situation.

    def _table(self, situation: Situation, view: PlayerView) -> RenderableType:
        match = situation.position.match()
        names = seat_names(situation.position.seat)
        return render_table(view, names, match.score, plain=self.plain, order=self.order)

    def _play(self, situation: Situation) -> None:
        lesson = situation.lesson
        view = situation.position.view()
        self.say(f"Situation: {shown_title(situation, answered=False)} "
                 f"({TOPICS[lesson.topic]}; {rules_label(situation)})", "bold")
        self.console.print(self._table(situation, view))
        self.say(lesson.question, "bold")
        while True:
            line = self.ask(prompt_text(view, self.plain))
            try:
                command = parse_command(line, view.phase)
            except (CommandError, InvalidCardError) as exc:
                self.say(str(exc), "yellow")
                continue
            action = command.action
            if action == "quit":
                raise Quit
            if action in ("look", "enter"):
                self.console.print(self._table(situation, view))
                self.say(lesson.question, "bold")
                continue
            if action == "help":
                self.console.print(render_help(self.plain))
                continue
            if action == "rules":
                self.console.print(render_rules(situation.position.rules, self.plain))
                continue
            if action == "moves":
                self.say(moves_text(view))
                continue
            if action == "sort":
                self.order = "suit" if self.order == "rank" else "rank"
                self.console.print(self._table(situation, view))
                continue
            if action == "sheet":
                self.say("The score is shown above; the sheet belongs to a real match.")
                continue
            if action in ("commitment", "seed", "coach"):
                self.say(f"'{action}' belongs to a real match (ginrummy play); here, answer "
                         "the question.")
                continue
            move = command.move
            if action == "gin":
                move = self._gin_move(view, command.card)
                if move is None:
                    continue
            assert move is not None
            try:
                result = answer(situation, move)
            except IllegalMoveError as exc:
                self.say(str(exc), "yellow")
                continue
            self.console.print(self.render_answer(result))
            return

    def _gin_move(self, view: PlayerView, card: Card | None) -> str | None:
        """``gin`` names the knock that leaves no deadwood; refused when there is none."""
        gins = [m for m in view.legal_moves if (mv := Move.parse(m)).code == KNOCK
                and mv.card is not None and deadwood_after_discard(view.hand_mask, mv.card) == 0]
        if card is not None:
            move = Move.knock(card)
            if move in gins:
                return move
            self.say("That discard does not leave you gin.", "yellow")
            return None
        if len(gins) == 1:
            return gins[0]
        if not gins:
            self.say("No discard leaves you without deadwood: you cannot go gin now.", "yellow")
            return None
        self.say("Say which card: " + " or ".join(short_move(m).replace("k ", "gin ")
                                                  for m in gins) + ".", "yellow")
        return None

    def render_answer(self, result: Answer) -> RenderableType:
        """The explanation: right or not, the engine's outcomes, why, the opponent's hand."""
        situation = result.situation
        lesson = situation.lesson
        plain = self.plain
        parts: list[RenderableType] = []

        def line(text: str, style: str = "") -> None:
            parts.append(Text(asciify(text) if plain else text, style="" if plain else style))

        line("=" * 60 if plain else "")
        line(f"Lesson: {shown_title(situation, answered=True)}", "bold")
        line(verdict_text(result), "bold green" if result.correct else "bold yellow")
        line(f"Your move, {move_words(result.move)}: {result.yours.sentence()}")
        if result.taught is not None:
            line(f"The lesson's answer, {answers_text(situation)}: {result.taught.sentence()}")
        line(f"Why: {lesson.why}")
        if result.facts:
            line("Checked by the engine:")
            for fact, outcome in result.facts:
                line(f"  - {fact_text(fact, outcome)}")
        opp = situation.position.opponent_mask()
        opp_line = Text("Your opponent held: ")
        opp_line.append_text(hand_text(opp, plain=plain, order="suit"))
        parts.append(opp_line)
        line(f"Takeaway: {lesson.takeaway}", "bold")
        line(f"({proof_text(situation)})", "dim")
        return Group(*parts)


def pick(situations: Sequence[Situation], choice: str) -> Situation | None:
    """The situation named by its number in the menu (1-based) or by its id."""
    choice = choice.strip().lower()
    if choice.isdigit():
        n = int(choice)
        return situations[n - 1] if 1 <= n <= len(situations) else None
    return next((s for s in situations if s.id == choice), None)

