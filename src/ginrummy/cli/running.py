"""What ``simulate`` and ``tournament`` share: the --seed, --workers and --ray options, the Ray
session, player-name checks, the progress bar, and formatting a share or a mean with its
interval."""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar, cast

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

from ..engine.errors import GinRummyError
from ..players import make, names
from ..selfplay.simulate import BackendError, Job, Part, Record, iter_parts

if TYPE_CHECKING:
    from ..selfplay.distributed import RaySession

F = TypeVar("F", bound=Callable[..., Any])


def default_workers() -> int:
    """One worker per core this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not on Linux
        return max(1, os.cpu_count() or 1)


@dataclass(frozen=True)
class RunOptions:
    """What --seed, --workers, --ray, --json and --no-progress asked for."""

    seed: str | None
    workers: int | None
    ray_address: str | None
    as_json: bool
    no_progress: bool


def run_options(func: F) -> F:
    """Add --seed, --workers, --ray, --json and --no-progress to a Click command, which gets
    them together as ``run``, a :class:`RunOptions`."""

    @functools.wraps(func)
    def command(*args: Any, seed: str | None, workers: int | None, ray_address: str | None,
                as_json: bool, no_progress: bool, **kwargs: Any) -> Any:
        run = RunOptions(seed, workers, ray_address, as_json, no_progress)
        return func(*args, run=run, **kwargs)

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
        click.option(
            "--ray",
            "ray_address",
            is_flag=False,
            flag_value=LOCAL_RAY,
            default=None,
            metavar="[ADDRESS]",
            callback=_check_ray_address,
            help="Run on Ray: alone, a local Ray started for this run; with an ADDRESS "
            "(HOST:PORT, ray://HOST:PORT or auto), that cluster. Same results as without. "
            'Needs pip install "ginrummy[ray]".',
        ),
        click.option("--json", "as_json", is_flag=True, help="Print the results as JSON."),
        click.option(
            "--no-progress", is_flag=True, help="Do not draw the progress bar (on stderr)."
        ),
    ]
    wrapped: Callable[..., Any] = command
    for option in reversed(options):
        wrapped = option(wrapped)
    return cast(F, wrapped)


#: ``--ray`` given without an address: start a local Ray (the value of :data:`simray.LOCAL`).
LOCAL_RAY = "local"


def _check_ray_address(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """A Ray address looks like ``HOST:PORT``, ``ray://...``, ``auto`` or ``local``. Anything
    else is most likely a player's name that ``--ray`` swallowed as its value."""
    if value is None or value in (LOCAL_RAY, "auto") or ":" in value:
        return value
    raise click.BadParameter(
        f"{value!r} is not a Ray address (HOST:PORT, ray://HOST:PORT or auto); for a local "
        "Ray write --ray after the players, or --ray=local",
        param_hint="--ray",
    )


@contextmanager
def ray_session(
    address: str | None, workers: int | None, show: bool
) -> Iterator[RaySession | None]:
    """The Ray session for ``--ray`` (``None`` without it), shut down on leaving; a missing
    Ray or a cluster that cannot be reached becomes a Click error (exit status 1)."""
    if address is None:
        yield None
        return
    from ..selfplay.distributed import RaySession

    if show:
        where = "a local Ray" if address == LOCAL_RAY else f"Ray at {address}"
        Console(stderr=True).print(f"Starting {where}…")
    try:
        session = RaySession(address, workers=workers)
    except GinRummyError as exc:
        raise click.ClickException(str(exc)) from None
    with session:
        yield session


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
    ray: RaySession | None = None,
    on_part: Callable[[Part], None] | None = None,
) -> list[list[Record]]:
    """Run ``jobs`` (here, in ``workers`` processes, or on ``ray``) with a Rich progress bar on
    stderr and return their records in job order; ``on_part`` sees each job's whole part (its
    dataset rows too) in job order, as soon as it can, and the rows are not kept. Engine and
    backend errors become Click errors."""
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
            out = []
            for part in iter_parts(jobs, workers=workers, progress=advance, ray=ray):
                if on_part is not None:
                    on_part(part)
                out.append(part.records)
            return out
    except BackendError as exc:
        raise click.ClickException(str(exc)) from None
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
    """(value, interval) cells of a proportion dictionary from :mod:`ginrummy.selfplay.stats`."""
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
