"""``ginrummy strategy``: the strategy tips, each with its sample situation and the evidence
from our own self-play (:mod:`ginrummy.strategy`)."""

from __future__ import annotations

import json

import click
from rich.console import Console
from rich.markup import escape

from ..strategy import strategy_data, strategy_tips


@click.command()
@click.option("--json", "as_json", is_flag=True, help="Print the tips and figures as JSON.")
def strategy(as_json: bool) -> None:
    """The seven strategy tips: each in a few words, a sample situation that shows it
    (`ginrummy learn play ID`), and how much it pays in self-play, with its 95% interval."""
    tips = strategy_tips()
    made_by = strategy_data()["made_by"]
    if as_json:
        click.echo(json.dumps({
            "made_by": made_by,
            "tips": [{
                "key": t.key, "title": t.title, "tip": t.text, "situation": t.situation_id,
                "note": t.note,
                "evidence": [{"follower": e.follower, "ignorer": e.ignorer, "hands": e.hands,
                              "mean": e.mean, "low": e.low, "high": e.high,
                              "verdict": e.verdict, "sentence": e.sentence,
                              "command": e.command}
                             for e in t.evidence],
            } for t in tips],
        }, indent=2, ensure_ascii=False))
        return
    console = Console()
    for number, tip in enumerate(tips, 1):
        console.print(f"[bold]{number}. {escape(tip.title)}[/bold]")
        console.print(escape(tip.text))
        console.print(f"  See it: {escape(tip.situation_title)} "
                      f"(ginrummy learn play {tip.situation_id})")
        for e in tip.evidence:
            console.print(f"  Evidence: {escape(e.sentence)}")
            console.print(f"    made by: {escape(e.command)}", soft_wrap=True)
        if tip.note:
            console.print(f"  {escape(tip.note)}")
        console.print()
    console.print("Figures: net points per hand of the player that follows the tip, modern "
                  "rules, 95% intervals; each with the command that reproduces it.")
