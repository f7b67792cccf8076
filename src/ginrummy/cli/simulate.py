"""``ginrummy simulate``: many hands or matches between two computer players, with statistics.

The numbers come from :mod:`ginrummy.selfplay.summary`; this module only parses options, runs the
games with a progress bar and prints the summary as a Rich table or as JSON.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from .. import __version__
from ..engine.rules import RuleSet
from ..players import LEVELS, PLAYERS, names
from ..selfplay.simulate import HandRecord, Job, MatchRecord, Mode, Part, Setup, chunk_size, split
from ..selfplay.summary import summarize_hands, summarize_matches
from .options import build_rules, rule_options
from .running import (
    SMALL_NOTE,
    RunOptions,
    check_player,
    default_workers,
    mean_cells,
    pct,
    ray_session,
    run_options,
    run_with_progress,
    share_cells,
)

if TYPE_CHECKING:
    from ..selfplay.dataset import ParquetSink
    from ..selfplay.distributed import RaySession

DEFAULT_HANDS = 1000

#: The longest runs one command accepts. The summary keeps a small record of every hand
#: (about 210 bytes), so 100 million hands need about 21 GB on the machine that runs the
#: command; docs/simulate.md shows how to cut a larger dataset into runs.
MAX_HANDS = 100_000_000
MAX_MATCHES = 10_000_000

_OUTCOME_LABELS = {
    "knock": "Plain knocks",
    "undercut": "Undercuts",
    "gin": "Gins",
    "big_gin": "Big gins",
    "cancelled": "Cancelled hands",
}


def default_player() -> str:
    """``hard``, the strongest of the quick players (``expert`` searches for about 30 ms a
    decision, far too slow for thousands of hands by default), or the next one this
    installation has."""
    for name in ("hard", "simple", "random"):
        if name in names():
            return name
    return names()[0]


def simulation_json(
    rules: RuleSet,
    players: Sequence[str],
    seed: str,
    mode: str,
    count: int,
    summary: dict[str, Any],
) -> dict[str, Any]:
    """The ``--json`` document: stable keys, and nothing that depends on --workers or time."""
    return {
        "command": "simulate",
        "version": __version__,
        "seed": seed,
        "rules": {"description": rules.describe(), "settings": rules.as_dict()},
        "players": list(players),
        "mode": mode,
        "count": count,
        "summary": summary,
    }


def hand_table(s: dict[str, Any], title: str, big_gin: bool = True) -> Table:
    """The table of hand statistics from a :func:`summarize_hands` summary (``big_gin``
    false: the rules have no big gin, and its row says so instead of showing 0%)."""
    table = Table(title=title, title_justify="left")
    table.add_column("Statistic")
    table.add_column("Value", justify="right")
    table.add_column("95% interval", justify="right")
    table.add_column("n", justify="right")

    def share(label: str, p: dict[str, Any]) -> None:
        table.add_row(label, *share_cells(p), f"{p['n']:,}")

    def mean(label: str, m: dict[str, Any]) -> None:
        table.add_row(label, *mean_cells(m), f"{m['n']:,}")

    for kind, label in _OUTCOME_LABELS.items():
        if kind == "big_gin" and not big_gin:
            table.add_row(label, "—", "not in these rules", "")
            continue
        share(label, s["outcomes"][kind])
    table.add_section()
    mean("Knock deadwood (knocks but gin)", s["knock_deadwood"])
    mean("Points per scored hand", s["points_per_scored_hand"])
    mean("Turns per hand", s["turns_per_hand"])
    table.add_section()
    share("First to act: scored hands won", s["first_player"]["hand_wins"])
    mean("First to act: net points per hand", s["first_player"]["net_points_per_hand"])
    mean("Fresh-deal deadwood, dealer", s["fresh_deadwood"]["dealer"])
    mean("Fresh-deal deadwood, non-dealer", s["fresh_deadwood"]["non_dealer"])
    table.add_section()
    for tag, p in zip("AB", s["players"], strict=True):
        share(f"{tag} ({p['name']}): scored hands won", p["hand_wins"])
        mean(f"{tag} ({p['name']}): net points per hand", p["net_points_per_hand"])
    return table


def match_table(s: dict[str, Any], title: str) -> Table:
    """The table of match results from a :func:`summarize_matches` summary."""
    table = Table(title=title, title_justify="left")
    table.add_column("Statistic")
    table.add_column("Value", justify="right")
    table.add_column("95% interval", justify="right")
    table.add_column("n", justify="right")
    for tag, p in zip("AB", s["players"], strict=True):
        table.add_row(f"{tag} ({p['name']}): matches won", str(p["wins"]), "", f"{s['finished']:,}")
        table.add_row(f"{tag} ({p['name']}): match score (ties ½)", *share_cells(p["score"]),
                      f"{p['score']['n']:,}")
        table.add_row(f"{tag} ({p['name']}): average margin", *mean_cells(p["margin"], 1),
                      f"{p['margin']['n']:,}")
    table.add_row("Tied matches", str(s["ties"]), "", f"{s['finished']:,}")
    p = s["first_player_wins"]
    table.add_row("First to act in the match: matches won", *share_cells(p), f"{p['n']:,}")
    m = s["hands_per_match"]
    table.add_row("Hands per match", *mean_cells(m), f"{m['n']:,}")
    if s["unfinished"]:
        table.add_row("Stopped unfinished (not counted)", str(s["unfinished"]), "", "")
    return table


def headline(summary: dict[str, Any], mode: Mode) -> list[str]:
    """The lines printed before the tables: with ``--matches`` the matches won first, then each
    player's net points per hand (what decides a match), and one line on how to read them.
    Hands won is not the measure: a player can win fewer hands and more points, by holding
    out for gin and undercuts while its losses stay small."""
    hands = summary["hand_stats"] if mode == "matches" else summary
    a, b = hands["players"]
    lines = []
    if mode == "matches":
        pa, pb = summary["players"]
        score = pa["score"]
        interval = ("" if score["low"] is None else
                    f", 95% interval {pct(score['low'])} – {pct(score['high'])}")
        lines.append(
            f"Matches: A ({pa['name']}) won {pa['wins']:,}, B ({pb['name']}) won {pb['wins']:,}"
            + (f", {summary['ties']:,} tied" if summary["ties"] else "")
            + f" of {summary['finished']:,}; A's match score {share_text(score)}{interval}."
        )
    net = a["net_points_per_hand"]
    if net["mean"] is not None:
        lines.append(
            f"Points per hand: A ({a['name']}) {_signed(net['mean'])}, B ({b['name']}) "
            f"{_signed(-net['mean'])}"
            + ("" if net["low"] is None else
               f" (A's 95% interval {_signed(net['low'])} to {_signed(net['high'])})")
            + f"; A won {share_text(a['hand_wins'])} of the hands that scored."
        )
    lines.append(
        "How to read it: net points per hand (and matches won) say who is better; hands won do "
        "not, since a player can win fewer hands but bigger ones (gins, undercuts). An interval "
        "that contains 0 means these games cannot tell the two apart: play more."
    )
    return lines


def share_text(p: dict[str, Any]) -> str:
    return "—" if p["share"] is None else pct(p["share"])


def _signed(x: float) -> str:
    return f"{x:+.2f}"


def has_small(summary: Any) -> bool:
    """True when any mean in the summary came from fewer than 30 observations."""
    if isinstance(summary, dict):
        if summary.get("small_sample") and summary.get("low") is not None:
            return True
        return any(has_small(v) for v in summary.values())
    if isinstance(summary, list):
        return any(has_small(v) for v in summary)
    return False


def _check_plot(plot: str | None) -> None:
    if plot is None:
        return
    path = Path(plot)
    if path.suffix.lower() != ".png":
        raise click.BadParameter(f"{plot!r} must end in .png", param_hint="--plot")
    parent = path.parent if str(path.parent) else Path(".")
    if not parent.is_dir():
        raise click.BadParameter(f"the folder {str(parent)!r} does not exist",
                                 param_hint="--plot")


def _check_out(out: str | None) -> None:
    """The dataset's folder must exist and pyarrow must be installed, before anything is
    played."""
    if out is None:
        return
    path = Path(out)
    parent = path.parent if str(path.parent) else Path(".")
    if not parent.is_dir():
        raise click.BadParameter(f"the folder {str(parent)!r} does not exist",
                                 param_hint="--out")
    if path.is_dir():
        raise click.BadParameter(f"{out!r} is a folder", param_hint="--out")
    from ..selfplay.dataset import MissingExtraError, require

    try:
        require("pyarrow.parquet", "data", "--out (the hand dataset)")
    except MissingExtraError as exc:
        raise click.ClickException(str(exc)) from None


def player_names_said() -> str:
    """The names ``simulate`` accepts, from the players' registry (``PLAYERS``) and the levels
    that are other names for them: ``random, simple, …, or easy (the same as simple)``."""
    aliases = [f"{level} (the same as {player})" for level, player in LEVELS.items()
               if level != player]
    return ", ".join(PLAYERS) + "".join(f", or {a}" for a in aliases)


SIMULATE_HELP = f"""Play computer players against each other and print what happened.

PLAYER_A plays PLAYER_B (default: hard against itself, the strongest of the quick
players; one name plays itself). A player is {player_names_said()}; docs/players.md says
how each plays. Seats and the deal alternate so that each player deals half the hands.
Every share and mean comes with its 95% interval; see docs/simulate.md.
"""


@click.command(help=SIMULATE_HELP)
@click.argument("players", nargs=-1, metavar="[PLAYER_A [PLAYER_B]]")
@click.option("--hands", type=click.IntRange(min=1, max=MAX_HANDS), default=None,
              help=f"Play this many independent hands (default {DEFAULT_HANDS}).")
@click.option("--matches", type=click.IntRange(min=1, max=MAX_MATCHES), default=None,
              help="Play this many whole matches instead.")
@rule_options
@run_options
@click.option("--chunk", type=click.IntRange(min=1), default=None, metavar="N",
              help="Games per job (default: at most 50 hands or 4 matches). Results do "
              "not depend on it.")
@click.option("--plot", metavar="FILE.png", default=None,
              help="Also draw the distributions into this PNG file.")
@click.option("--out", metavar="FILE.parquet", default=None,
              help="Also write every hand (deal, moves, result, players, rules) to this "
              'Parquet file, as the run goes. Needs pip install "ginrummy[data]".')
def simulate(
    players: tuple[str, ...],
    hands: int | None,
    matches: int | None,
    profile: str,
    rule_overrides: Sequence[str],
    hollywood: bool,
    last_discard_chance: bool,
    run: RunOptions,
    chunk: int | None,
    plot: str | None,
    out: str | None,
) -> None:
    """``ginrummy simulate`` (its help is :data:`SIMULATE_HELP`)."""
    if len(players) > 2:
        raise click.UsageError(f"give at most two players, not {len(players)}")
    if hands is not None and matches is not None:
        raise click.UsageError("give --hands or --matches, not both")
    names_given = list(players) or [default_player()]
    if len(names_given) == 1:
        names_given.append(names_given[0])
    pair = [check_player(n, "PLAYER") for n in names_given]
    rules = build_rules(profile, rule_overrides, hollywood, last_discard_chance)
    _check_plot(plot)
    _check_out(out)
    mode: Mode = "matches" if matches is not None else "hands"
    count = matches if matches is not None else (hands or DEFAULT_HANDS)
    setup = Setup.of(rules, pair, seed=run.seed)

    with ray_session(run.ray_address, run.workers, show=not run.no_progress) as ray:
        n_workers = run.workers or (ray.cpus if ray is not None else default_workers())
        size = chunk or chunk_size(mode, count, n_workers)
        jobs = split(setup, mode, count, size, rows=out is not None)
        started = time.perf_counter()
        parts, written = _run(jobs, count, mode, n_workers, run.no_progress, ray, out)
        elapsed = time.perf_counter() - started
    where = f" on {ray.describe()}" if ray is not None else ""
    records = [r for part in parts for r in part]

    if mode == "hands":
        hand_records = [r for r in records if isinstance(r, HandRecord)]
        summary = summarize_hands(hand_records, pair)
        hand_summary = summary
    else:
        match_records = [r for r in records if isinstance(r, MatchRecord)]
        hand_records = [h for m in match_records for h in m.hands]
        summary = summarize_matches(match_records, pair)
        hand_summary = summary["hand_stats"]

    def draw() -> None:
        # After the figures are out: a plot that cannot be written loses only itself.
        if plot is None:
            return
        from ..selfplay.plot import plot_hands

        title = (f"{pair[0]} (A) vs {pair[1]} (B), {len(hand_records):,} hands, "
                 f"{rules.describe()}, seed {setup.seed}")
        try:
            plot_hands(hand_records, hand_summary, plot, title, rules.big_gin)
        except OSError as exc:
            raise click.ClickException(f"cannot write {plot}: {exc.strerror or exc}") from None

    if out is not None:
        Console(stderr=run.as_json).print(f"{written:,} hands written to {out}")
    if run.as_json:
        doc = simulation_json(rules, pair, setup.seed, mode, count, summary)
        click.echo(json.dumps(doc, indent=2, ensure_ascii=False))
        draw()
        return
    console = Console()
    console.print(
        f"[bold]{pair[0]}[/bold] (A) vs [bold]{pair[1]}[/bold] (B): {count:,} {mode}, "
        f"rules {rules.describe()}, seed {escape(repr(setup.seed))}"
    )
    console.print(f"{elapsed:.1f} s with {n_workers} worker{'s' if n_workers > 1 else ''}{where}")
    for line in headline(summary, mode):
        console.print(line, markup=False, highlight=False)
    if mode == "matches":
        console.print(match_table(summary, f"Matches ({summary['finished']:,} finished)"))
    console.print(hand_table(hand_summary, f"Hands ({hand_summary['hands']:,})", rules.big_gin))
    if has_small(summary):
        console.print(SMALL_NOTE)
    if plot is not None:
        draw()
        console.print(f"Distributions drawn in {escape(plot)}")


def _run(
    jobs: Sequence[Job],
    count: int,
    mode: Mode,
    workers: int,
    no_progress: bool,
    ray: RaySession | None,
    out: str | None,
) -> tuple[list[list[HandRecord | MatchRecord]], int]:
    """Run the jobs; with ``out``, stream every hand's row into the Parquet file as the parts
    arrive in order (the rows are written, then dropped). Returns the records by job and the
    number of rows written."""
    if out is None:
        return run_with_progress(jobs, total=count, label=mode.capitalize(), workers=workers,
                                 show=not no_progress, ray=ray), 0
    from ..selfplay.dataset import ParquetSink as Sink

    try:
        sink: ParquetSink = Sink(out)
    except OSError as exc:
        raise click.ClickException(f"cannot write {out}: {exc.strerror or exc}") from None

    def write(part: Part) -> None:
        sink.write(part.rows)

    with sink:
        parts = run_with_progress(jobs, total=count, label=mode.capitalize(), workers=workers,
                                  show=not no_progress, ray=ray, on_part=write)
    return parts, sink.rows_written
