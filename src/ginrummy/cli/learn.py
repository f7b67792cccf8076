"""``ginrummy learn``: sample situations in the terminal, and the tools to write new ones.

    ginrummy learn                   # the list of situations; choose one, answer, read why
    ginrummy learn play ID|NUMBER    # one situation
    ginrummy learn list              # the list only
    ginrummy learn build SPEC [-o OUT]   # a readable spec -> a situation record, checked
    ginrummy learn check [FILE ...]  # load and check situation files (default: the shipped ones)
    ginrummy learn show FILE         # any record as a spec: cards by seat, the stock in order
"""

from __future__ import annotations

from pathlib import Path

import click
from rich.console import Console
from rich.text import Text

from ..engine.errors import GinRummyError
from ..lessons import InvalidSituationError, Situation, load_situation, load_situations
from ..lessons.spec import build_record, record_to_spec
from ..lessons.text import GOAL
from ..tui.lesson import LessonTable, pick, situation_menu

__all__ = ["learn"]


def _console(plain: bool) -> Console:
    if plain:
        return Console(color_system=None, emoji=False, highlight=False, safe_box=True)
    return Console(highlight=False, emoji=False)


def _situations() -> list[Situation]:
    try:
        return load_situations()
    except InvalidSituationError as exc:
        raise click.ClickException(f"a shipped situation is broken: {exc}") from None


_plain = click.option("--plain", is_flag=True, help="No colours, box drawing or card symbols.")


@click.group(invoke_without_command=True)
@_plain
@click.pass_context
def learn(ctx: click.Context, plain: bool) -> None:
    """Learn the game from sample situations: one decision each, explained and checked by the
    rules engine."""
    if ctx.invoked_subcommand is None:
        console = _console(plain)
        console.print(Text(" ".join(GOAL)))
        console.print()
        console.print("Sample situations: each asks for one decision; answer with the "
                      "table's commands (t, p, d, x 7h, k 7h, bg; ? for help).")
        LessonTable(console, plain=plain).menu(_situations())


@learn.command("list")
def list_() -> None:
    """List the situations by topic."""
    for line in situation_menu(_situations()):
        click.echo(line)


@learn.command()
@click.argument("which")
@_plain
def play(which: str, plain: bool) -> None:
    """Play one situation, given by its number in the list or its id."""
    situations = _situations()
    chosen = pick(situations, which)
    if chosen is None:
        raise click.BadParameter(f"no situation {which!r}; see 'ginrummy learn list'",
                                 param_hint="WHICH")
    LessonTable(_console(plain), plain=plain).play(chosen)


@learn.command()
@click.argument("spec", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("-o", "--out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write the record here (default: print it).")
def build(spec: Path, out: Path | None) -> None:
    """Turn a situation spec (cards by seat, the upcard, the stock's top cards, the moves and
    the lesson) into a situation record, after checking it with the engine."""
    try:
        text = build_record(spec.read_text(encoding="utf-8"), spec.name)
    except (GinRummyError, OSError, UnicodeDecodeError) as exc:
        raise click.ClickException(str(exc)) from None
    if out is None:
        click.echo(text, nl=False)
    else:
        try:
            out.write_text(text, encoding="utf-8")
        except OSError as exc:
            raise click.ClickException(f"cannot write {out}: {exc.strerror or exc}") from None
        click.echo(f"Wrote {out}.")


@learn.command()
@click.argument("files", nargs=-1, type=click.Path(exists=True, dir_okay=False, path_type=Path))
def check(files: tuple[Path, ...]) -> None:
    """Load and check situation files against the engine (default: every shipped one)."""
    if not files:
        situations = _situations()
        click.echo(f"{len(situations)} situations are valid.")
        return
    failed = 0
    for f in files:
        try:
            s = load_situation(f.read_text(encoding="utf-8"), f.name)
        except (GinRummyError, OSError, UnicodeDecodeError) as exc:
            failed += 1
            click.echo(f"FAIL {exc}")
        else:
            click.echo(f"ok   {f.name}: {s.lesson.title}")
    if failed:
        raise click.ClickException(f"{failed} of {len(files)} file(s) failed")


@learn.command()
@click.argument("record", type=click.Path(exists=True, dir_okay=False, path_type=Path))
def show(record: Path) -> None:
    """Print a record (a situation or any saved match) as a readable spec."""
    try:
        click.echo(record_to_spec(record.read_text(encoding="utf-8")), nl=False)
    except (GinRummyError, OSError, UnicodeDecodeError) as exc:
        raise click.ClickException(str(exc)) from None
