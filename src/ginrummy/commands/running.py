"""What ``simulate`` and ``tournament`` share: the --seed and --workers options, player-name
checks, the progress bar, and formatting a share or a mean with its interval."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

import click
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from ..errors import GinRummyError
from ..players import make, names
from ..simulate import Job, Record, run_jobs

F = TypeVar("F", bound=Callable[..., Any])


def default_workers() -> int:
    """One worker per core this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not on Linux
        return max(1, os.cpu_count() or 1)


def run_options(func: F) -> F:
    """Add --seed, --workers, --json and --no-progress to a Click command."""
    options = [
        click.option(
            "--seed",
            default=None,
            metavar="TEXT",
            help="Master seed: the same seed and options give the same results, whatever "
            "--workers is. Random (and printed) when not given.",
        ),
        click.option(
            "--workers",
            type=click.IntRange(min=1, max=256),
            default=None,
            help="Worker processes (default: one per core).",
        ),
        click.option("--json", "as_json", is_flag=True, help="Print the results as JSON."),
        click.option(
            "--no-progress", is_flag=True, help="Do not draw the progress bar (on stderr)."
        ),
    ]
    for option in reversed(options):
        func = option(func)
    return func


def check_player(name: str, param_hint: str) -> str:
    """The player name, lower-cased, or a Click usage error listing the known players."""
    try:
        make(name, seed=0)
    except GinRummyError:
        raise click.BadParameter(
            f"unknown player {name!r}; choose one of {', '.join(names())}",
            param_hint=param_hint,
        ) from None
    return name.strip().lower()


def run_with_progress(
    jobs: Sequence[Job],
    *,
    total: int,
    label: str,
    workers: int,
    show: bool,
) -> list[list[Record]]:
    """Run ``jobs`` with a Rich progress bar on stderr; engine errors become Click errors."""
    console = Console(stderr=True)
    progress = Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("left"),
        TimeRemainingColumn(),
        console=console,
        transient=True,
        disable=not show,
        # No refresh thread: worker processes are forked, and forking while another thread
        # runs can copy a held lock into the child. The bar is redrawn as each job finishes.
        auto_refresh=False,
    )
    task = progress.add_task(label, total=total)

    def advance(n: int) -> None:
        progress.advance(task, n)
        progress.refresh()

    try:
        with progress:
            return run_jobs(jobs, workers=workers, progress=advance)
    except GinRummyError as exc:
        raise click.ClickException(f"a game stopped with an error: {exc}") from None
    except BrokenProcessPool:
        raise click.ClickException(
            "a worker process died (out of memory?); try fewer --workers"
        ) from None


def pct(x: float | None) -> str:
    """A share as a percentage: ``61.8%``."""
    return "—" if x is None else f"{100 * x:.1f}%"


def share_cells(p: Mapping[str, Any]) -> tuple[str, str]:
    """(value, interval) cells of a proportion dictionary from :mod:`ginrummy.stats`."""
    if p["share"] is None:
        return "—", "—"
    return pct(p["share"]), f"{pct(p['low'])} – {pct(p['high'])}"


def mean_cells(m: Mapping[str, Any], digits: int = 2) -> tuple[str, str]:
    """(value, interval) cells of a mean dictionary; an interval from fewer than 30
    observations is marked with an asterisk."""
    if m["mean"] is None:
        return "—", "—"
    value = f"{m['mean']:.{digits}f}"
    if m["low"] is None:
        return value, "—"
    mark = " *" if m["small_sample"] else ""
    return value, f"{m['low']:.{digits}f} – {m['high']:.{digits}f}{mark}"


SMALL_NOTE = "* fewer than 30 observations: the normal interval is only a rough guide."
