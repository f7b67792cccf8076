"""The table's other pages: the score sheet, the match's outcome, the commands and the rules.

Like :mod:`.render`, pure functions from data to Rich renderables. The sheet is drawn from
:func:`ginrummy.sheet.score_sheet`'s rows, so every number on it is the engine's.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from ..cheatsheet import cheat_sheet
from ..match import MatchScore
from ..rules import RuleSet
from ..sheet import GameSheet, SheetRow, game_outcome
from ..sheet import match_outcome as match_outcome_words
from .parse import COMMANDS
from .render import asciify

__all__ = ["render_sheet", "sheet_summary", "match_outcome", "render_help", "render_rules"]


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
    end-of-game bonuses of every finished game."""
    hollywood = len(games) > 1
    table = Table(
        title=f"Score sheet: {rules_title(rules)}",
        box=None if plain else box.SIMPLE_HEAVY,
        show_edge=not plain,
        pad_edge=False,
    )
    table.add_column("Hand", justify="right")
    table.add_column("Dealer")
    table.add_column("Ending")
    table.add_column("Points", justify="right")
    if hollywood:
        for g in games:
            table.add_column(f"Game {g.index + 1}", justify="right")
    else:
        # Names as text, never Rich markup: "Ann [/x]" is a name, not a closing tag.
        table.add_column(Text(names[0]), justify="right")
        table.add_column(Text(names[1]), justify="right")
    for row in rows:
        ending = row.outcome.split(":")[0]
        if row.winner is not None:
            ending += f" ({names[row.winner]})"
        points = str(row.points) if row.winner is not None else "-"
        cells = [str(row.hand), names[row.dealer], ending, points]
        if hollywood:
            for entered, running in zip(row.entered, row.running, strict=True):
                cells.append(f"{running[0]}-{running[1]}" if entered else "")
        else:
            cells.extend([str(row.running[0][0]), str(row.running[0][1])])
        table.add_row(*(Text(cell) for cell in cells))
    notes: list[Text] = []
    if hollywood:
        notes.append(Text(f"Game columns read {names[0]}-{names[1]}."))
    notes.extend(Text(line) for line in sheet_summary(games, names, rules.target))
    return Group(table, *notes)


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
    """The match's rules as the cheat sheet (:func:`ginrummy.cheatsheet.cheat_sheet`) has them,
    built from the same rule set the engine plays."""
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
