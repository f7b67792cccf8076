"""``ginrummy strategy``: the strategy tips, each with its sample situation and what it was
worth in our own self-play, in one line (:mod:`ginrummy.lessons.strategy`)."""

from __future__ import annotations

import json

import click
from rich.console import Console
from rich.markup import escape

from ..lessons.strategy import ABOUT, strategy_data, strategy_tips


@click.command()
@click.option("--json", "as_json", is_flag=True,
              help="Print the tips and figures as JSON, with the commands that made them.")
def strategy(as_json: bool) -> None:
    """The seven strategy tips, surest first: each in a few words, a sample situation that
    shows it (`ginrummy learn play ID`), and what it gained in self-play."""
    tips = strategy_tips()
    if as_json:
        click.echo(json.dumps({
            "made_by": strategy_data()["made_by"],
            "tips": [{
                "key": t.key, "title": t.title, "tip": t.text, "situation": t.situation_id,
                "line": t.line,
                "evidence": [{"follower": e.follower, "ignorer": e.ignorer, "hands": e.hands,
                              "mean": e.mean, "low": e.low, "high": e.high,
                              "verdict": e.verdict, "line": e.line, "command": e.command}
                             for e in t.evidence],
            } for t in tips],
        }, indent=2, ensure_ascii=False))
        return
    console = Console()
    console.print(escape(ABOUT))
    console.print()
    for number, tip in enumerate(tips, 1):
        console.print(f"[bold]{number}. {escape(tip.title)}[/bold]")
        console.print(escape(tip.text))
        console.print(f"  Try it: {escape(tip.situation_title)} "
                      f"(ginrummy learn play {tip.situation_id})")
        console.print(f"  {escape(tip.line)}")
        console.print()
