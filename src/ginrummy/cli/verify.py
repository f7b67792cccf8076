"""``ginrummy verify RECORD``: check the sealed deals of a match record, hand by hand."""

from __future__ import annotations

import click
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from ..engine.verify import RecordReport, verify_record
from .record_file import with_record


def render_report(report: RecordReport, console: Console) -> None:
    """Print one line per hand: its status, the checks that passed, and each failure in full."""
    table = Table(show_lines=True)
    table.add_column("Hand", justify="right")
    table.add_column("Deal")
    table.add_column("Checks", overflow="fold")
    for hand in report.hands:
        if hand.status == "verified":
            status = "[green]verified[/green]"
        elif hand.status == "sealed":
            status = "[yellow]sealed[/yellow]"
        else:
            status = "[bold red]FAILED[/bold red]"
        passed = [c.name for c in hand.checks if c.ok]
        lines = [f"[red]✗ {escape(c.name)}:[/red] {escape(c.detail)}" for c in hand.failures]
        if passed:
            lines.append("[green]✓[/green] " + ", ".join(escape(n) for n in passed))
        if hand.note:
            lines.append(escape(hand.note))
        if hand.commitment and hand.status == "sealed":
            lines.append(f"commitment {hand.commitment}")
        table.add_row(str(hand.number), status, "\n".join(lines))
    if report.hands:
        console.print(table)
    else:
        console.print("The record has no hands: there is nothing to verify.")
    for problem in report.problems:
        console.print(f"[bold red]✗[/bold red] {escape(problem)}")
    failed = [h.number for h in report.hands if h.status == "failed"]
    verified = sum(h.status == "verified" for h in report.hands)
    sealed = sum(h.status == "sealed" for h in report.hands)
    if report.ok:
        summary = f"[green]All {verified} finished hand(s) verified.[/green]"
        if sealed:
            summary += f" {sealed} hand(s) still sealed."
    else:
        where = f"hand(s) {', '.join(map(str, failed))}" if failed else "the record"
        summary = f"[bold red]Verification failed[/bold red] for {where}."
    console.print(summary)


def _published(values: tuple[str, ...]) -> dict[int, str]:
    out: dict[int, str] = {}
    for value in values:
        number, sep, text = value.partition(":")
        if not sep or not number.strip().isdigit() or not text.strip():
            raise click.BadParameter(
                f"{value!r}: write HAND:COMMITMENT, such as 1:72ec4863…", param_hint="--commitment"
            )
        out[int(number)] = text.strip()
    return out


@click.command()
@click.argument("record", type=click.Path(dir_okay=False, allow_dash=True))
@click.option(
    "--commitment",
    "commitments",
    multiple=True,
    metavar="HAND:HEX",
    help="A commitment you noted before hand HAND was dealt; checked against the record.",
)
def verify(record: str, commitments: tuple[str, ...]) -> None:
    """Check the sealed deals of the match record RECORD.

    For every finished hand: the revealed server seed matches the commitment, the deck
    recomputed from the seeds is the record's deck, and every card dealt, turned up and drawn
    is the one that deck puts there. Exits with status 1 when any check fails.
    """
    published = _published(commitments)
    console = Console()
    report = with_record(record, lambda text: verify_record(text, published=published))
    render_report(report, console)
    if not report.ok:
        raise SystemExit(1)
