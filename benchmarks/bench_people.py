"""Live events under load: time from a move's request to the event on another client's stream.

Run from the repository root::

    python benchmarks/bench_people.py [--tables 100] [--moves 20] [--workers 2] [--db URL]

Until people-vs-people tables exist this plays computer matches: each table has two clients
on loopback, a *mover* that plays random legal moves (deals the next hand, starts a new match
when one ends) and a *watcher* holding the match's event stream (``GET
/api/matches/{id}/events``) on its own connection. What is timed is each move from sending
its request to the watcher parsing the ``version`` event of the move's new version: the move,
the computer's reply, the save, the announcement (in-process, a poll, or PostgreSQL
``NOTIFY``) and the stream's delivery. ``--tables 100`` is 200 clients, all in this one
process (asyncio and httpx), on the same machine as the servers.

``--workers N`` starts N server processes on the one database (``ginrummy serve`` each on its
own port) and seats every table's watcher on the server after its mover's, so with two or more
every event crosses processes (the worst case of a load balancer). The figures: latency
p50/p95/p99/max, errors (a refused request, an event not seen within ``--timeout``, a stream
that ended), and CPU per move: the servers' CPU time (user + system, from ``/proc``) over the
timed phase divided by the moves; ``db cpu`` adds the local PostgreSQL processes' when the
database is PostgreSQL on this machine. ``--think`` pauses each mover a random 0 to 2×THINK
seconds between moves (default 0: every table moves as fast as it can, a saturation test).
``--hold S`` first keeps every stream open S seconds with nobody moving and prints the
servers' CPU meanwhile (the keep-alives, the presence rows, the poll or the listener).
Every loop is bounded: ``--moves`` per table, ``--timeout`` per wait, ``--deadline`` in all.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from typing import Any

import httpx

from _common import environment_lines, load_line

TICKS = os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def start_servers(db: str, workers: int) -> list[tuple[subprocess.Popen[bytes], str]]:
    """``workers`` servers on ``db``, started one after the other (the first creates the
    tables)."""
    started: list[tuple[subprocess.Popen[bytes], str]] = []
    for _ in range(workers):
        port = free_port()
        proc = subprocess.Popen(
            [sys.executable, "-m", "ginrummy", "serve", "--port", str(port), "--db", db],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        url = f"http://127.0.0.1:{port}"
        started.append((proc, url))
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(url + "/api/options", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                stop(started)
                raise SystemExit("a server did not start")
            time.sleep(0.05)
    return started


def stop(servers: list[tuple[subprocess.Popen[bytes], str]]) -> None:
    for proc, _url in servers:
        proc.terminate()
    for proc, _url in servers:
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def cpu_seconds(pids: list[int]) -> float:
    """User + system CPU seconds of these processes so far."""
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat", encoding="ascii") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
        except (OSError, IndexError, ValueError):
            pass
    return total / TICKS


def postgres_pids() -> list[int]:
    """Every local process named ``postgres`` (the cluster's server processes)."""
    out = []
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/comm", encoding="ascii") as f:
                    if f.read().strip() == "postgres":
                        out.append(int(name))
            except OSError:
                pass
    return out


@dataclass
class Results:
    latencies: list[float] = field(default_factory=list)
    requests: list[float] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)
    ready: int = 0
    client_cpu: float = 0.0
    idle: float | None = None

    def error(self, kind: str) -> None:
        self.errors[kind] = self.errors.get(kind, 0) + 1


class Watcher:
    """A client holding one match's event stream; remembers when each version arrived."""

    def __init__(self, client: httpx.AsyncClient, match_id: str, results: Results) -> None:
        self.client = client
        self.match_id = match_id
        self.results = results
        self.arrived: dict[int, float] = {}
        self.changed = asyncio.Event()
        self.task = asyncio.create_task(self._read())
        self.open = asyncio.Event()

    async def _read(self) -> None:
        try:
            async with self.client.stream("GET", f"/api/matches/{self.match_id}/events") as r:
                if r.status_code != 200:
                    self.results.error(f"stream {r.status_code}")
                    return
                kind = ""
                async for line in r.aiter_lines():
                    if line.startswith("event:"):
                        kind = line[6:].strip()
                    elif line.startswith("data:") and kind == "version":
                        version = json.loads(line[5:])["version"]
                        self.arrived.setdefault(version, time.perf_counter())
                        self.open.set()
                        self.changed.set()
        except httpx.HTTPError:
            self.results.error("stream broken")
        except asyncio.CancelledError:
            return

    async def wait_for(self, version: int, timeout: float) -> float | None:
        deadline = time.monotonic() + timeout
        while version not in self.arrived:
            left = deadline - time.monotonic()
            if left <= 0 or self.task.done():
                return None
            self.changed.clear()
            try:
                await asyncio.wait_for(self.changed.wait(), left)
            except TimeoutError:
                return None
        return self.arrived[version]

    async def close(self) -> None:
        self.task.cancel()
        await asyncio.gather(self.task, return_exceptions=True)


async def table(n: int, urls: list[str], args: argparse.Namespace, results: Results,
                start: asyncio.Event, rng: random.Random) -> int:
    """One table: returns the moves it timed."""
    # Idle connections are closed by the client before uvicorn's 5 s keep-alive runs out, so
    # a move is never sent on a connection the server is closing.
    limits = httpx.Limits(max_connections=2, keepalive_expiry=2.0)
    timeout = httpx.Timeout(args.timeout)
    mover_url, watcher_url = urls[n % len(urls)], urls[(n + 1) % len(urls)]
    async with httpx.AsyncClient(base_url=mover_url, timeout=timeout, limits=limits) as mover, \
            httpx.AsyncClient(base_url=watcher_url, timeout=timeout, limits=limits) as watch:
        token = (await mover.post("/api/players", json={"name": f"t{n}"})).json()["token"]
        for c in (mover, watch):
            c.headers["Authorization"] = f"Bearer {token}"
        state: dict[str, Any] = {}
        watcher: Watcher | None = None
        timed = 0

        async def new_match() -> None:
            nonlocal state, watcher
            if watcher is not None:
                await watcher.close()
            r = await mover.post("/api/matches", json={"level": args.level})
            state = r.json()
            if args.no_watchers:
                return
            watcher = Watcher(watch, state["id"], results)
            if await watcher.wait_for(state["version"], args.timeout) is None:
                results.error("first event missing")

        await new_match()
        results.ready += 1
        await start.wait()
        try:
            while timed < args.moves:
                if args.think:
                    await asyncio.sleep(rng.uniform(0, 2 * args.think))
                if state["status"] == "over":
                    await new_match()
                    continue
                if state["status"] == "between_hands":
                    path, body = "next-hand", {"version": state["version"]}
                else:
                    move = rng.choice(state["hand"]["legal_moves"])
                    path, body = "moves", {"move": move, "version": state["version"]}
                t0 = time.perf_counter()
                r = await mover.post(f"/api/matches/{state['id']}/{path}", json=body)
                t1 = time.perf_counter()
                if r.status_code != 200:
                    results.error(f"move {r.status_code}")
                    state = (await mover.get(f"/api/matches/{state['id']}")).json()
                    continue
                state = r.json()
                timed += 1
                results.requests.append(t1 - t0)
                if watcher is None:
                    continue
                arrived = await watcher.wait_for(state["version"], args.timeout)
                if arrived is None:
                    results.error("event missing")
                else:
                    results.latencies.append(arrived - t0)
        finally:
            if watcher is not None:
                await watcher.close()
        return timed


def percentile(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(p * (len(xs) - 1)))] if xs else float("nan")


async def run(urls: list[str], args: argparse.Namespace, results: Results,
              pids: list[int], db_pids: list[int]) -> tuple[int, float, float, float]:
    start = asyncio.Event()
    rng = random.Random(args.seed)
    tasks = [asyncio.create_task(table(n, urls, args, results, start,
                                       random.Random(rng.getrandbits(64))))
             for n in range(args.tables)]
    # Every table has its match and its open stream before the clock starts (bounded).
    for _ in range(int(args.deadline * 20)):
        if results.ready >= args.tables or any(t.done() for t in tasks):
            break
        await asyncio.sleep(0.05)
    if args.hold:  # the streams open, nobody moving: what holding them costs
        c0, w0 = cpu_seconds(pids), time.perf_counter()
        await asyncio.sleep(args.hold)
        results.idle = (cpu_seconds(pids) - c0) / (time.perf_counter() - w0)
    db_before = {pid: cpu_seconds([pid]) for pid in db_pids}
    cpu0, t0 = cpu_seconds(pids), time.perf_counter()
    results.client_cpu = -time.process_time()
    start.set()
    done = await asyncio.wait_for(asyncio.gather(*tasks, return_exceptions=True),
                                  args.deadline)
    wall = time.perf_counter() - t0
    results.client_cpu += time.process_time()
    moves = 0
    for d in done:
        if isinstance(d, BaseException):
            results.error(type(d).__name__)
        else:
            moves += d
    # Database connections opened during the run count whole.
    db_cpu = sum(cpu_seconds([pid]) - db_before.get(pid, 0.0)
                 for pid in (postgres_pids() if db_pids else []))
    return moves, cpu_seconds(pids) - cpu0, db_cpu, wall


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tables", type=int, default=100, help="concurrent tables (2 clients each)")
    ap.add_argument("--moves", type=int, default=20, help="timed moves per table")
    ap.add_argument("--workers", type=int, default=1, help="server processes on the database")
    ap.add_argument("--db", default=None, help="database URL (default: a fresh SQLite file)")
    ap.add_argument("--level", default="random", help="the computer's level (default random)")
    ap.add_argument("--think", type=float, default=0.0, help="mean pause between moves, s")
    ap.add_argument("--timeout", type=float, default=30.0, help="longest wait for one answer")
    ap.add_argument("--deadline", type=float, default=900.0, help="longest whole run, s")
    ap.add_argument("--no-watchers", action="store_true",
                    help="no event streams (the reference: what the moves cost without them)")
    ap.add_argument("--hold", type=float, default=0.0,
                    help="first hold the streams open this many seconds with no moves and "
                    "print the servers' CPU meanwhile")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)

    folder = tempfile.mkdtemp(prefix="ginrummy-bench-people-")
    db = args.db or f"sqlite:///{os.path.join(folder, 'bench.sqlite3')}"
    for line in environment_lines(["ginrummy", "uvicorn", "sse-starlette", "SQLAlchemy",
                                   "psycopg", "httpx"]):
        print(line)
    shown_db = db.split("@")[-1] if "@" in db else db
    print(f"work    : {args.tables} tables ({2 * args.tables} clients), {args.moves} moves "
          f"each, {args.workers} server process(es), level {args.level}, think "
          f"{args.think} s, db {shown_db}" + (", no watchers" if args.no_watchers else ""))
    servers = start_servers(db, args.workers)
    pids = [p.pid for p, _u in servers]
    db_pids = postgres_pids() if db.startswith("postgresql") else []
    results = Results()
    try:
        moves, cpu, db_cpu, wall = asyncio.run(
            run([u for _p, u in servers], args, results, pids, db_pids))
    finally:
        stop(servers)
    ms = 1000.0
    lat, req = results.latencies, results.requests
    print()
    print(f"{'what (ms)':38} {'n':>6} {'p50':>7} {'p95':>7} {'p99':>7} {'max':>7}")
    for label, xs in [("move request -> watcher's event", lat),
                      ("move request -> answer (mover)", req)]:
        if xs:
            print(f"{label:38} {len(xs):>6} {statistics.median(xs) * ms:>7.1f} "
                  f"{percentile(xs, 0.95) * ms:>7.1f} {percentile(xs, 0.99) * ms:>7.1f} "
                  f"{max(xs) * ms:>7.1f}")
    if results.idle is not None:
        print(f"holding {args.tables} streams with no moves for {args.hold:.0f} s: servers' "
              f"cpu {results.idle * 100:.1f}% of a core")
    errors = sum(results.errors.values())
    print(f"moves {moves} in {wall:.1f} s ({moves / wall:.0f}/s); errors {errors}"
          + (f" {results.errors}" if errors else ""))
    if moves:
        line = f"server cpu per move {cpu / moves * ms:.2f} ms ({cpu:.1f} s in all)"
        if db_pids:
            line += f"; db cpu per move {db_cpu / moves * ms:.2f} ms ({db_cpu:.1f} s)"
        print(line)
        print(f"clients' cpu (this process) {results.client_cpu:.1f} s, "
              f"{results.client_cpu / wall:.2f} of a core")
    print(load_line("at the end"))


if __name__ == "__main__":
    main()
