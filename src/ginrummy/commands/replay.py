"""``ginrummy replay FILE``: replay a match record and print its hand-by-hand score sheet; or
``ginrummy replay hands.parquet --row N``: replay one hand of a self-play dataset
(:mod:`ginrummy.dataset`) and print it as a match record."""

from __future__ import annotations

import click
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from ..errors import GinRummyError
from ..record import loads, players_of
from ..sheet import game_outcome, match_outcome, score_sheet


def render_sheet(text: str, console: Console) -> None:
    """Print the score sheet of the record ``text``."""
    match = loads(text)
    stored = players_of(text)
    # The names as text, never as Rich markup ("[/]" or "[bold]" in a record is a name).
    names = (escape(stored[0]), escape(stored[1])) if stored else ("Seat 0", "Seat 1")
    rows, games = score_sheet(match, names)
    hollywood = len(games) == 3
    console.print(f"Rules: [bold]{match.rules.describe()}[/bold]"
                  + ("  (Hollywood: three games)" if hollywood else ""))
    table = Table(show_lines=False)
    table.add_column("Hand", justify="right")
    table.add_column("Dealer")
    table.add_column("Result")
    for g in games:
        label = f"Game {g.index + 1}: " if hollywood else ""
        table.add_column(f"{label}{names[0]}", justify="right")
        table.add_column(f"{label}{names[1]}", justify="right")
    for row in rows:
        cells = [str(row.hand), names[row.dealer], row.outcome]
        for entered, running in zip(row.entered, row.running, strict=False):
            cells.extend([str(running[0]), str(running[1])] if entered else ["", ""])
        table.add_row(*cells)
    console.print(table)
    for g in games:
        prefix = f"Game {g.index + 1}" if hollywood else "Game"
        if not g.over:
            console.print(f"{prefix}: not over; points {g.points[0]} to {g.points[1]}")
            continue
        parts = []
        for s in (0, 1):
            extra = []
            if g.game_bonus[s]:
                extra.append(f"game bonus {g.game_bonus[s]}")
            if g.box_bonus[s]:
                extra.append(f"box bonus {g.box_bonus[s]}")
            if g.doubled[s]:
                extra.append(f"shutout: doubled from {g.doubled[s]}")
            detail = f" ({', '.join(extra)})" if extra else ""
            parts.append(f"{names[s]} {g.totals[s]}{detail}")
        outcome = game_outcome(g, names, match.rules.target)
        console.print(f"{prefix}: {'; '.join(parts)}: {outcome}.")
    if hollywood and match.score.over:
        console.print(f"Match: {match_outcome(match.score, names)}.")
    unfinished = match.hands and not match.hand.over
    if unfinished:
        console.print(f"Hand {len(match.hands)} is still being played.")


def render_row(file: str, number: int) -> str:
    """Row ``number`` of the dataset ``file``, replayed through the engine and checked, as the
    text of a match record (which ``ginrummy replay`` reads back)."""
    from ..dataset import read_row, row_record

    row = read_row(file, number)
    try:
        return row_record(row, source=file, number=number)
    except GinRummyError as exc:
        raise GinRummyError(f"{file}, row {number}: {exc}") from None


@click.command()
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--row", type=click.IntRange(min=0), default=None, metavar="N",
              help="FILE is a Parquet dataset of hands (simulate --out): replay its row N "
              "(from 0) and print it as a match record.")
def replay(file: str, row: int | None) -> None:
    """Replay a match record FILE and print the hand-by-hand score sheet; with --row, replay
    one hand of a self-play dataset and print its record."""
    console = Console()
    if row is None and file.lower().endswith(".parquet"):
        raise click.UsageError(f"{file} is a dataset of hands: say which with --row N")
    if row is not None:
        try:
            click.echo(render_row(file, row), nl=False)
        except GinRummyError as exc:
            raise click.ClickException(str(exc)) from None
        return
    try:
        with click.open_file(file, encoding="utf-8") as f:
            text = f.read()
        render_sheet(text, console)
    except UnicodeDecodeError:
        raise click.ClickException(
            f"{file} is not a text file: a match record is UTF-8 TOML"
        ) from None
    except OSError as exc:
        raise click.ClickException(f"cannot read {file}: {exc.strerror or exc}") from None
    except GinRummyError as exc:
        raise click.ClickException(str(exc)) from None
