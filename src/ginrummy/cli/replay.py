"""``ginrummy replay FILE``: replay a match record and print its hand-by-hand score sheet; or
``ginrummy replay hands.parquet --row N``: replay one hand of a self-play dataset
(:mod:`ginrummy.selfplay.dataset`) and print it as a match record."""

from __future__ import annotations

import click
from rich.console import Console
from rich.text import Text

from ..engine.errors import GinRummyError
from ..engine.record import loads, players_of
from ..tui.pages import render_sheet
from ..words.sheet import match_outcome, score_sheet
from .record_file import with_record


def print_sheet(text: str, console: Console) -> None:
    """Print the score sheet of the record ``text``: the terminal table's own
    (:class:`ginrummy.tui.pages.ScoreSheet`), a table where it fits the console and stacked, one
    block per hand, where the table would cut a word."""
    match = loads(text)
    stored = players_of(text)
    # Names are drawn as text, never as Rich markup ("[/]" in a record is a name).
    names = (stored[0], stored[1]) if stored else ("Seat 0", "Seat 1")
    rows, games = score_sheet(match, names)
    console.print(render_sheet(rows, games, names, match.rules))
    if match.rules.hollywood and match.score.over:
        console.print(Text(f"Match: {match_outcome(match.score, names)}."))
    if match.hands and not match.hand.over:
        console.print(f"Hand {len(match.hands)} is still being played.")


def render_row(file: str, number: int) -> str:
    """Row ``number`` of the dataset ``file``, replayed through the engine and checked, as the
    text of a match record (which ``ginrummy replay`` reads back)."""
    from ..selfplay.dataset import read_row, row_record

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
    with_record(file, lambda text: print_sheet(text, console))
