"""The table's other pages: the score sheet, the match's outcome, the commands and the rules.

Like :mod:`.render`, pure functions from data to Rich renderables. The sheet is drawn from
:func:`ginrummy.words.sheet.score_sheet`'s rows, so every number on it is the engine's.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich import box
from rich.console import (
    Console,
    ConsoleOptions,
    Group,
    OverflowMethod,
    RenderableType,
    RenderResult,
)
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from ..engine.match import MatchScore
from ..engine.rules import RuleSet
from ..words.cheatsheet import cheat_sheet
from ..words.sheet import GameSheet, SheetRow, game_outcome
from ..words.sheet import match_outcome as match_outcome_words
from .parse import COMMANDS
from .render import asciify

__all__ = [
    "render_sheet", "ScoreSheet", "sheet_summary", "match_outcome", "render_help", "render_rules",
]


# ---------------------------------------------------------------------------------------------
# The score sheet.


def _bonus_parts(g: GameSheet, seat: int) -> list[str]:
    parts = [str(g.points[seat])]
    if g.game_bonus[seat]:
        parts.append(f"game bonus {g.game_bonus[seat]}")
    if g.box_bonus[seat]:
        won = g.hands_won[seat]
        parts.append(f"box bonus {g.box_bonus[seat]} ({won} hand{'s' if won != 1 else ''} won)")
    return parts


def sheet_summary(games: Sequence[GameSheet], names: Sequence[str], target: int) -> list[str]:
    """One line per game: running points, or once over the final totals with every bonus,
    who won and the margin of victory."""
    out = []
    hollywood = len(games) > 1
    for g in games:
        name = f"Game {g.index + 1}" if hollywood else "Game"
        if not g.over:
            out.append(
                f"{name}: {names[0]} {g.points[0]}, {names[1]} {g.points[1]} (to {target})"
            )
            continue
        sides = []
        for s in (0, 1):
            text = " + ".join(_bonus_parts(g, s))
            if g.doubled[s]:
                text += ", doubled for the shutout"
            sides.append(f"{names[s]} {text} = {g.totals[s]}")
        shut = " (a shutout)" if g.shutout else ""
        won = game_outcome(g, (names[0], names[1]), target) + shut
        out.append(f"{name} over: " + "; ".join(sides) + f": {won}.")
    return out


def rules_title(rules: RuleSet) -> str:
    """The rules in a line: the profile and its overrides, and "Hollywood" when that is not
    already one of them (``traditional (hollywood=on)`` says it once)."""
    said = rules.describe()
    if rules.hollywood and "hollywood" not in dict(rules.overrides):
        said += ", Hollywood"
    return said


def render_sheet(
    rows: Sequence[SheetRow],
    games: Sequence[GameSheet],
    names: Sequence[str],
    rules: RuleSet,
    *,
    plain: bool = False,
) -> RenderableType:
    """The hand-by-hand score sheet (three games side by side under Hollywood) with the
    end-of-game bonuses of every finished game; stacked, one block per hand, where the console
    is too narrow for the table to show every word whole (see :class:`ScoreSheet`)."""
    return ScoreSheet(rows, games, names, rules, plain=plain)


class ScoreSheet:
    """The score sheet, laid out for the width it is drawn at.

    :meth:`wide` is the table, one row per hand. Where the console is too narrow for it, Rich
    would squeeze its columns and cut words ("G…", "Bar…"); there the sheet is drawn as
    :meth:`stacked` instead, one block of "label: value" lines per hand, which wraps without
    losing a name or a number. Both say the same things, from the same rows. The terminal
    table and ``ginrummy replay`` both print this sheet.
    """

    def __init__(
        self,
        rows: Sequence[SheetRow],
        games: Sequence[GameSheet],
        names: Sequence[str],
        rules: RuleSet,
        *,
        plain: bool = False,
    ) -> None:
        self.rows = rows
        self.games = games
        self.names = names
        self.rules = rules
        self.plain = plain

    @property
    def hollywood(self) -> bool:
        return len(self.games) > 1

    @property
    def title(self) -> str:
        return f"Score sheet: {rules_title(self.rules)}"

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield self.wide() if self.fits(console, options) else self.stacked()

    def fits(self, console: Console, options: ConsoleOptions) -> bool:
        """Whether the table shows every word whole at this width. A cell too narrow for a word
        ends it with "…" where a folding cell carries it on to the next line, so the two
        drawings differ exactly when the table would cut something."""
        cut = console.render_lines(self._table("ellipsis"), options, pad=False)
        folded = console.render_lines(self._table("fold"), options, pad=False)
        return cut == folded

    def wide(self) -> RenderableType:
        """The sheet as a table, one row per hand, with the notes below it."""
        names = self.names
        notes: list[Text] = []
        if self.hollywood:
            notes.append(Text(f"Game columns read {names[0]}-{names[1]}."))
        notes.extend(Text(line) for line in sheet_summary(self.games, names, self.rules.target))
        return Group(self._table("ellipsis"), *notes)

    def _table(self, overflow: OverflowMethod) -> Table:
        names = self.names
        table = Table(
            title=self.title,
            box=None if self.plain else box.SIMPLE_HEAVY,
            show_edge=not self.plain,
            pad_edge=False,
        )
        table.add_column("Hand", justify="right", overflow=overflow)
        table.add_column("Dealer", overflow=overflow)
        table.add_column("Ending", overflow=overflow)
        table.add_column("Points", justify="right", overflow=overflow)
        if self.hollywood:
            for g in self.games:
                table.add_column(f"Game {g.index + 1}", justify="right", overflow=overflow)
        else:
            # Names as text, never Rich markup: "Ann [/x]" is a name, not a closing tag.
            table.add_column(Text(names[0]), justify="right", overflow=overflow)
            table.add_column(Text(names[1]), justify="right", overflow=overflow)
        for row in self.rows:
            ending = _ending(row)
            if row.winner is not None:
                ending += f" ({names[row.winner]})"
            points = str(row.points) if row.winner is not None else "-"
            cells = [str(row.hand), names[row.dealer], ending, points]
            if self.hollywood:
                for entered, running in zip(row.entered, row.running, strict=True):
                    cells.append(f"{running[0]}-{running[1]}" if entered else "")
            else:
                cells.extend([str(row.running[0][0]), str(row.running[0][1])])
            table.add_row(*(Text(cell) for cell in cells))
        return table

    def stacked(self) -> RenderableType:
        """The sheet for a narrow console: under each "Hand N" its dealer, how it ended, who
        won it and the points, then the running score (under Hollywood, each game it was
        entered in, as ``you-computer``); the same notes follow."""
        names = self.names
        bold = "" if self.plain else "bold"
        parts: list[RenderableType] = [Text(self.title, style=bold)]
        if self.hollywood:
            parts.append(Text(f"Game scores read {names[0]}-{names[1]}."))
        for row in self.rows:
            lines = Table.grid(padding=(0, 1, 0, 0))
            lines.add_column(overflow="fold")
            lines.add_column(overflow="fold")
            lines.add_row("Dealer:", Text(names[row.dealer]))
            lines.add_row("Ending:", Text(_ending(row)))
            if row.winner is not None:
                lines.add_row("Winner:", Text(names[row.winner]))
                lines.add_row("Points:", str(row.points))
            if self.hollywood:
                for g, entered, running in zip(self.games, row.entered, row.running,
                                               strict=True):
                    if entered:
                        lines.add_row(f"Game {g.index + 1}:", f"{running[0]}-{running[1]}")
            else:
                # One player a line, so a long name is never broken by the other's.
                (a, b), = row.running
                lines.add_row("Score:", Text(f"{names[0]} {a}\n{names[1]} {b}"))
            parts.append(Text(f"Hand {row.hand}", style=bold))
            parts.append(Padding(lines, (0, 0, 0, 2)))
        parts.extend(Text(line) for line in sheet_summary(self.games, names, self.rules.target))
        return Group(*parts)


def _ending(row: SheetRow) -> str:
    """How a hand ended, without its points: "knock", "gin", "cancelled (stock ran out)"."""
    return row.outcome.split(":")[0]


def match_outcome(score: MatchScore, names: Sequence[str], you: int | None = None) -> str:
    """The match's last line: who won and by how much, with the final totals."""
    a, b = score.totals
    words = match_outcome_words(score, (names[0], names[1]), you=you)
    over = " over the three games" if score.hollywood else ""
    return f"{words}. Final totals{over}: {names[0]} {a}, {names[1]} {b}."


# ---------------------------------------------------------------------------------------------
# Help and rules.


def render_help(plain: bool = False) -> RenderableType:
    """Every command with its short forms."""
    table = Table(
        title="Commands", box=None if plain else box.SIMPLE, show_header=False, pad_edge=False
    )
    table.add_column("type")
    table.add_column("to")
    for words, what in COMMANDS:
        table.add_row(Text(words), Text(what))  # "s, sort [rank|suit]" is text, not markup
    return table


def render_rules(rules: RuleSet, plain: bool = False) -> RenderableType:
    """The match's rules as the cheat sheet (:func:`ginrummy.words.cheatsheet.cheat_sheet`) has
    them, built from the same rule set the engine plays."""
    sheet = cheat_sheet(rules)
    parts: list[RenderableType] = [Text(sheet.title, style="" if plain else "bold")]
    for section in sheet.sections:
        table = Table(
            title=section.title,
            title_justify="left",
            show_header=False,
            box=None,
            pad_edge=False,
            padding=(0, 2),
        )
        table.add_column(no_wrap=True, style="" if plain else "bold")
        table.add_column()
        for label, text in section.lines:
            table.add_row(label, asciify(text) if plain else text)
        parts.append(table)
    return Group(*parts)
