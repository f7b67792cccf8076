"""Self-play throughput against the number of workers: here, local processes and Ray, hands/s.

Run from the repository root (after ``pip install -e ".[ray,data]"``)::

    python benchmarks/bench_selfplay_scale.py [--players simple,simple] [--hands 1000]
        [--reps 3] [--workers 1,2] [--seed 1] [--no-ray] [--markdown]

Every row plays the same ``--hands`` independent hands of the same run (the same master seed,
so the same deals and the same moves) through :func:`ginrummy.selfplay.simulate.iter_parts`, the
runner ``ginrummy simulate`` uses, cut into the jobs the command would make for that many workers:

- ``here``: one worker, the jobs played in this process (``--workers 1``);
- ``processes xN``: N local worker processes (``--workers N``), the pool started inside the
  timed batch as the command starts it;
- ``Ray xN``: N tasks at a time on one local Ray started once, before timing, with as many
  CPUs as the largest N (``--ray --workers N``; the ~10 s Ray takes to start is printed apart);
- ``processes xN + Parquet``: as ``processes xN``, also building every hand's dataset row and
  writing them to a Parquet file as they arrive (``--out``), to show what the dataset costs.

Before timing, the script checks that every row yields the same records. The reference row is
``here``, so the ratio column is the speed-up over one worker. The last lines turn the best
one-worker rate into CPU-hours per 100 million hands (the figure docs/simulate.md uses for a
cluster).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections.abc import Callable, Sequence

from _common import (
    Measure,
    environment_lines,
    load_line,
    parse_shared_args,
    print_table,
    run_interleaved,
)
from ginrummy.selfplay.simulate import Job, Setup, chunk_size, iter_parts, split


def jobs_for(setup: Setup, hands: int, workers: int, rows: bool = False) -> list[Job]:
    """The jobs ``ginrummy simulate --hands N --workers W`` would make."""
    return split(setup, "hands", hands, chunk_size("hands", hands, workers), rows=rows)


def batch(setup: Setup, hands: int, workers: int, ray: object = None,
          out: str | None = None) -> Callable[[], int]:
    """Play the run once; returns the number of hands played."""

    def work() -> int:
        jobs = jobs_for(setup, hands, workers, rows=out is not None)
        played = 0
        if out is None:
            for part in iter_parts(jobs, workers=workers, ray=ray):  # type: ignore[arg-type]
                played += len(part.records)
            return played
        from ginrummy.selfplay.dataset import ParquetSink

        with ParquetSink(out) as sink:
            for part in iter_parts(jobs, workers=workers):
                sink.write(part.rows)
                played += len(part.records)
        return played

    return work


def records(setup: Setup, hands: int, workers: int, ray: object = None) -> list[object]:
    jobs = jobs_for(setup, hands, workers)
    return [r for p in iter_parts(jobs, workers=workers, ray=ray)  # type: ignore[arg-type]
            for r in p.records]


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--players", default="simple,simple",
                        help="players A,B (simple,simple)")
    parser.add_argument("--hands", type=int, default=1000, help="hands per batch (1000)")
    parser.add_argument("--reps", type=int, default=3, help="repetitions of each batch (3)")
    parser.add_argument("--workers", default="1,2", help="worker counts to measure (1,2)")
    parser.add_argument("--seed", default="1", help="master seed of the run (1)")
    parser.add_argument("--no-ray", action="store_true", help="leave out the Ray rows")
    parser.add_argument("--markdown", action="store_true", help="print Markdown tables")
    args = parse_shared_args(parser, argv)
    players = [p.strip() for p in args.players.split(",")]
    counts = sorted({int(w) for w in args.workers.split(",")})
    setup = Setup.of("traditional", players, seed=args.seed)
    n = args.hands

    print("Self-play throughput against workers, hands per second")
    for line in environment_lines(["ginrummy", "ray", "pyarrow"]):
        print(line)
    print(f"work    : {n:,} hands of {players[0]} vs {players[1]} per batch (seed "
          f"{args.seed!r}), repetitions of every batch: {args.reps}; workers {counts}")

    session = None
    if not args.no_ray:
        from ginrummy.selfplay.distributed import RaySession

        started = time.perf_counter()
        session = RaySession(workers=max(counts))
        print(f"ray     : a local Ray with {session.cpus} CPUs, started in "
              f"{time.perf_counter() - started:.1f} s (not timed below)")

    rows: list[Measure] = []
    for w in counts:
        if w == 1:
            rows.append(Measure("here", "1 worker: iter_parts in this process", batch(setup, n, 1),
                                reference=True))
        else:
            rows.append(Measure(f"processes x{w}", f"{w} local worker processes",
                                batch(setup, n, w)))
    if session is not None:
        for w in counts:
            tasks = f"{w} Ray task{'s' if w > 1 else ''} at a time, local Ray"
            rows.append(Measure(f"Ray x{w}", tasks, batch(setup, n, w, ray=session)))
    folder = tempfile.mkdtemp(prefix="bench-selfplay-")
    out = os.path.join(folder, "hands.parquet")
    w = max(counts)
    label = "here" if w == 1 else f"processes x{w}"
    rows.append(Measure(f"{label} + Parquet", "also every row written to Parquet",
                        batch(setup, n, w, out=out)))

    try:
        print("Checking that every backend plays the same records...", file=sys.stderr)
        expected = records(setup, min(n, 200), 1)
        for w in counts:
            assert records(setup, min(n, 200), w) == expected, f"processes x{w} differ"
            if session is not None:
                assert records(setup, min(n, 200), w, session) == expected, f"Ray x{w} differ"
        print("\nTiming (progress on stderr):", file=sys.stderr)
        run_interleaved(rows, args.reps)
    finally:
        if session is not None:
            session.close()
    print_table(f"Self-play of {n:,} hands, hands/s (vs reference = speed-up over one worker)",
                "hands", rows, markdown=args.markdown, time_unit="ms")
    size = os.path.getsize(out)
    print(f"\nParquet: {size / n:,.0f} bytes a hand on disk (zstd), {size:,} bytes in all")
    one = rows[0]
    per_core = one.best
    hours = 100_000_000 / per_core / 3600
    print(f"One worker, best batch: {per_core:,.0f} hands/s, so 100 million hands take about "
          f"{hours:,.0f} CPU-hours of {players[0]} vs {players[1]} at this machine's speed.")
    print(load_line("at the end"))
    os.remove(out)
    os.rmdir(folder)


if __name__ == "__main__":
    main()
