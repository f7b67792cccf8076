"""``ginrummy tournament``: a round robin of whole matches, a cross-table and ratings."""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from typing import Any

import click
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from .. import __version__
from ..selfplay.tournament import Tournament, summarize_tournament
from .options import build_rules, rule_options
from .running import (
    RunOptions,
    check_player,
    default_workers,
    pct,
    ray_session,
    run_options,
    run_with_progress,
)

DEFAULT_MATCHES = 20


def cross_table(summary: dict[str, Any], labels: Sequence[str]) -> Table:
    """Rows: each player's match score against each column player (ties ½), its overall
    score and its rating, every figure with its 95% interval; strongest first."""
    table = Table(title="Match score, row player against column (95% interval)",
                  title_justify="left")
    ratings = summary["ratings"]
    order = sorted(labels, key=lambda x: -ratings[x]["rating"]) if ratings else list(labels)
    table.add_column("Player")
    for label in order:
        table.add_column(label, justify="center")
    table.add_column("Overall", justify="center")
    table.add_column("Rating", justify="right")
    for row in order:
        cells = []
        for col in order:
            if col == row:
                cells.append("—")
                continue
            p = summary["cross_table"][row][col]
            cells.append(_cell(p))
        cells.append(_cell(summary["overall"][row]))
        if ratings:
            r = ratings[row]
            cells.append(f"{r['rating']:.0f} ({r['low']:.0f}–{r['high']:.0f})")
        else:
            cells.append("—")
        table.add_row(row, *cells)
    return table


def _cell(p: dict[str, Any]) -> str:
    if p["share"] is None:
        return "—"
    return f"{pct(p['share'])}\n{100 * p['low']:.0f}–{100 * p['high']:.0f}%"


@click.command()
@click.argument("players", nargs=-1, required=True, metavar="PLAYER PLAYER [PLAYER ...]")
@click.option("--matches", type=click.IntRange(min=1, max=100_000), default=DEFAULT_MATCHES,
              show_default=True, help="Matches each pair of players plays.")
@click.option("--anchor", metavar="PLAYER", default=None,
              help="Fix this player's rating at 1500 (default: the mean rating is 1500).")
@rule_options
@run_options
def tournament(
    players: tuple[str, ...],
    matches: int,
    anchor: str | None,
    profile: str,
    rule_overrides: Sequence[str],
    hollywood: bool,
    last_discard_chance: bool,
    run: RunOptions,
) -> None:
    """Round robin: every pair of PLAYERs plays --matches whole matches (seats and the first
    deal alternating). Prints the cross-table of match scores with 95% intervals and
    Bradley–Terry ratings on the Elo scale; see docs/simulate.md. A name may appear twice
    (the second is labelled name#2)."""
    if len(players) < 2:
        raise click.UsageError("a tournament needs at least two players")
    names = [check_player(p, "PLAYER") for p in players]
    rules = build_rules(profile, rule_overrides, hollywood, last_discard_chance)
    t = Tournament.of(rules, names, matches=matches, seed=run.seed)
    if anchor is not None and anchor.strip().lower() not in t.labels:
        raise click.BadParameter(
            f"{anchor!r} is not one of the players ({', '.join(t.labels)})", param_hint="--anchor"
        )
    anchor_label = anchor.strip().lower() if anchor is not None else None
    with ray_session(run.ray_address, run.workers, show=not run.no_progress) as ray:
        n_workers = run.workers or (ray.cpus if ray is not None else default_workers())
        jobs = t.jobs(n_workers)
        started = time.perf_counter()
        parts = run_with_progress(jobs, total=matches * len(t.pairs()), label="Matches",
                                  workers=n_workers, show=not run.no_progress, ray=ray)
        elapsed = time.perf_counter() - started
    where = f" on {ray.describe()}" if ray is not None else ""
    summary = summarize_tournament(t, parts, anchor=anchor_label)
    if run.as_json:
        doc = {
            "command": "tournament",
            "version": __version__,
            "seed": t.seed,
            "rules": {"description": rules.describe(), "settings": rules.as_dict()},
            "players": t.labels,
            "matches_per_pair": matches,
            "anchor": anchor_label,
            **summary,
        }
        click.echo(json.dumps(doc, indent=2, ensure_ascii=False))
        return
    console = Console()
    console.print(
        f"Round robin of {len(t.labels)} players, {matches:,} matches per pair, "
        f"rules {rules.describe()}, seed {escape(repr(t.seed))}"
    )
    console.print(f"{elapsed:.1f} s with {n_workers} worker{'s' if n_workers > 1 else ''}{where}")
    console.print(cross_table(summary, t.labels))
    if summary["ratings"] is None:
        console.print("No ratings: some pair finished no match.")
    else:
        where = f"{anchor_label} fixed at 1500" if anchor_label else "mean 1500"
        console.print(f"Ratings: Bradley–Terry maximum likelihood on the Elo scale ({where}), "
                      "one virtual tied match per pair.")
    if summary["unfinished"]:
        console.print(f"{summary['unfinished']} matches stopped unfinished and are not counted.")
