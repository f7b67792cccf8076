"""``ginrummy rules``: the one-page cheat sheet of a rule profile, in the terminal."""

from __future__ import annotations

import json
from collections.abc import Sequence

import click
from rich.console import Console
from rich.table import Table

from ..words.cheatsheet import CheatSheet, cheat_sheet
from .options import build_rules, rule_options


def render_cheat_sheet(sheet: CheatSheet, console: Console) -> None:
    """Print the sheet as titled two-column tables."""
    console.print(f"[bold]{sheet.title}[/bold]")
    for section in sheet.sections:
        table = Table(title=section.title, title_justify="left", show_header=False,
                      box=None, padding=(0, 2))
        table.add_column(style="bold", no_wrap=True)
        table.add_column()
        for label, text in section.lines:
            table.add_row(label, text)
        console.print(table)


@click.command()
@rule_options
@click.option("--json", "as_json", is_flag=True, help="Print the sheet as JSON.")
def rules(
    profile: str,
    rule_overrides: Sequence[str],
    hollywood: bool,
    last_discard_chance: bool,
    as_json: bool,
) -> None:
    """Print the cheat sheet of a rule profile: card values, melds, knock limit, layoffs,
    every bonus and the end-of-game bonuses."""
    sheet = cheat_sheet(build_rules(profile, rule_overrides, hollywood, last_discard_chance))
    if as_json:
        click.echo(json.dumps(sheet.as_dict(), indent=2, ensure_ascii=False))
    else:
        render_cheat_sheet(sheet, Console())
