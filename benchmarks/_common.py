"""What every benchmark script shares: the environment header, timing and the results table.

The scripts are not tests: they print figures. Each figure is a throughput (things per second)
taken over several repetitions of the same work; the table shows the best repetition (the
least disturbed by other processes) and the median, and the ratio of ours to the reference.
Within a repetition every engine runs once, one after the other, so a burst of load from
other jobs on a shared machine hits all of them alike rather than one.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from importlib import metadata

__all__ = [
    "Measure",
    "posed_address",
    "cpu_model",
    "environment_lines",
    "load_line",
    "print_table",
    "run_interleaved",
]


def cpu_model() -> str:
    """The CPU's model name from /proc/cpuinfo (Linux), else what :mod:`platform` says."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _version(dist: str) -> str:
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return "not installed"


def environment_lines(packages: Sequence[str]) -> list[str]:
    """Machine, OS, Python and library versions, and the load average when the run started."""
    impl = platform.python_implementation()
    return [
        f"machine : {cpu_model()}, {os.cpu_count()} logical CPUs, {platform.machine()}",
        f"system  : {platform.platform()}",
        f"python  : {impl} {platform.python_version()} ({sys.executable})",
        "packages: " + ", ".join(f"{p} {_version(p)}" for p in packages),
        f"core    : {core_line()}",
        load_line("at start"),
    ]


def core_line() -> str:
    """Whether ginrummy's core runs compiled (ginrummy/engine/native.py) or as its Python source."""
    from ginrummy.engine import native  # importing it picks the build or the source

    if native.compiled():
        return "ginrummy's core compiled (mypyc: " + ", ".join(native.COMPILED) + ")"
    why = "GINRUMMY_PURE=1" if native.forced_pure() else "not compiled in this install"
    return f"ginrummy's core as Python source ({why})"


def parse_shared_args(parser: argparse.ArgumentParser,
                      argv: Sequence[str] | None) -> argparse.Namespace:
    """Parse the script's arguments; ``./scripts/bench`` passes the same arguments to every
    script, so the ones this script does not take are named on stderr and ignored."""
    args, ignored = parser.parse_known_args(argv)
    if ignored:
        print(f"(ignoring arguments this script does not take: {' '.join(ignored)})",
              file=sys.stderr)
    return args


def load_line(when: str) -> str:
    """The 1, 5 and 15 minute load averages as the OS reports them now (a sign of other jobs
    sharing the CPUs; in a container it may count processes outside it, or miss some)."""
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    return f"load    : {load} (1, 5, 15 min load averages {when})"


@dataclass
class Measure:
    """One row of a table: a named piece of work and the seconds each repetition took.

    ``work`` runs the whole batch once and returns how many units it did (calls, hands);
    ``extra`` holds additional per-row facts shown in the table (moves per hand, say).
    """

    engine: str
    what: str
    work: Callable[[], int]
    reference: bool = False
    times: list[float] = field(default_factory=list)
    units: int = 0
    extra: dict[str, str] = field(default_factory=dict)

    def rate(self, seconds: float) -> float:
        return self.units / seconds if seconds > 0 else float("inf")

    @property
    def best(self) -> float:
        return self.rate(min(self.times))

    @property
    def median(self) -> float:
        return self.rate(statistics.median(self.times))


def run_interleaved(
    measures: Sequence[Measure], reps: int, *, progress: bool = True, cpu: bool = False
) -> None:
    """Run every measure ``reps`` times, round-robin, recording the wall time of each batch
    (with ``cpu``, this process's CPU time instead: steadier on a machine shared with other
    jobs, and fair only when every row runs in this process)."""
    clock = time.process_time if cpu else time.perf_counter
    for rep in range(reps):
        for m in measures:
            start = clock()
            units = m.work()
            m.times.append(clock() - start)
            if m.units and units != m.units:
                raise RuntimeError(f"{m.engine} {m.what}: batch size changed ({units})")
            m.units = units
        if progress:
            print(f"  repetition {rep + 1}/{reps} done", file=sys.stderr, flush=True)


def print_rows(header: Sequence[str], rows: Sequence[Sequence[str]], *, markdown: bool,
               right_from: int | None = None) -> None:
    """A table of text cells: Markdown, or columns padded to line up (from column
    ``right_from`` on, right-aligned)."""
    if markdown:
        print("| " + " | ".join(header) + " |")
        print("|" + "|".join("---" for _ in header) + "|")
        for row in rows:
            print("| " + " | ".join(row) + " |")
        return
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    for row in [header, *rows]:
        print("  ".join(
            c.rjust(w) if right_from is not None and i >= right_from else c.ljust(w)
            for i, (c, w) in enumerate(zip(row, widths, strict=True))).rstrip())


def _fmt_rate(x: float) -> str:
    return f"{x:,.0f}" if x >= 100 else f"{x:,.1f}"


def print_table(
    title: str,
    unit: str,
    measures: Sequence[Measure],
    *,
    markdown: bool,
    time_unit: str = "µs",
) -> None:
    """Print the results as an aligned text table (or a Markdown table).

    The ratio column divides each row's median rate by the reference row's median rate;
    ``time_unit`` (µs or ms) is the unit of the time-per-unit column.
    """
    scale = {"µs": 1e6, "ms": 1e3}[time_unit]
    ref = next((m for m in measures if m.reference), None)
    extra_keys: list[str] = []
    for m in measures:
        extra_keys.extend(k for k in m.extra if k not in extra_keys)
    header = [
        "engine",
        "what is timed",
        f"best {unit}/s",
        f"median {unit}/s",
        f"median {time_unit} each",
        *extra_keys,
        "vs reference",
    ]
    rows: list[list[str]] = []
    for m in measures:
        ratio = "reference" if m is ref else (f"{m.median / ref.median:.2f}x" if ref else "-")
        rows.append(
            [
                m.engine,
                m.what,
                _fmt_rate(m.best),
                _fmt_rate(m.median),
                f"{scale / m.median:.2f}",
                *(m.extra.get(k, "-") for k in extra_keys),
                ratio,
            ]
        )
    print()
    print(title)
    numeric = [False, False] + [True] * (len(header) - 2)
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]

    def line(cells: Sequence[str]) -> str:
        out = []
        for cell, width, right in zip(cells, widths, numeric, strict=True):
            out.append(cell.rjust(width) if right else cell.ljust(width))
        return ("| " + " | ".join(out) + " |") if markdown else "  ".join(out).rstrip()

    print(line(header))
    if markdown:
        print(
            "|"
            + "|".join(
                ("-" * (w + 1) + ":") if r else ("-" * (w + 2))
                for w, r in zip(widths, numeric, strict=True)
            )
            + "|"
        )
    else:
        print("  ".join("-" * w for w in widths))
    for r in rows:
        print(line(r))


def posed_address(n: int) -> str:
    """A made-up client address for the ``n``-th client of a benchmark, sent as
    ``X-Forwarded-For`` (which the server trusts from loopback): the server bounds what one
    address may do (new accounts, tables, streams), and a crowd of clients in one process would
    otherwise all be one address."""
    return f"10.{(n >> 16) & 255}.{(n >> 8) & 255}.{n & 255}"
