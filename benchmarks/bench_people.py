"""Live events under load: time from a move's request to the event on another client's stream.

Run from the repository root::

    python benchmarks/bench_people.py --people [--tables 100] [--moves 20] [--workers 2] [--db URL]
    python benchmarks/bench_people.py [--tables 100] [--moves 20] [--servers 2] [--db URL]

``--people`` plays tables for two people: each table is two players (Ann opens it, Bob joins
with the invite), each with two clients on loopback, one for requests and one holding the
match's event stream (``GET /api/matches/{id}/events``); ``--tables 100`` is 200 people, 400
connections. Whoever is to play sends a random legal move (between hands both send a client
seed for the sealed deal; either may be first); what is timed is each such request from
sending it to the *other person's* stream delivering the event of its new version (or a later
one). The other person then reads the table (``GET /api/matches/{id}``), as the page does on an
event, and plays if it is their turn. Random legal moves rarely knock, so hands mostly end when
the stock runs out; a match that ends is followed by a new one.

Without ``--people`` it plays computer matches: each table has a *mover* that plays random
legal moves (deals the next hand, starts a new match when one ends) and a *watcher* holding
the match's event stream on its own connection; timed is each move from its request to the
watcher's event (the move, the computer's reply, the save, the announcement and the delivery).

``--workers N`` runs one ``ginrummy serve --workers N``: the kernel gives each new connection
to one of the N worker processes, as a load balancer would, so an event crosses processes when
the two connections landed on different workers; every connection asks ``GET /api/health``
which worker it reached, and the latency is shown for both cases. ``--servers N`` instead
starts N separate ``ginrummy serve`` processes on the one database, each on its own port, and
seats the two people (or the mover and the watcher) on different servers, so every event
crosses processes. All the clients run in this one process (asyncio and httpx), on the same
machine as the servers. The players are made in the database directly (the server limits new
players per address).

The figures: latency p50/p95/p99/max, errors (a refused request, an event not seen within
``--timeout``, a stream that ended), and CPU per move: the server processes' CPU time (user +
system, from ``/proc``, the supervisor and its workers) over the timed phase divided by the
moves; ``db cpu`` adds the CPU of the PostgreSQL server's processes when it runs on this
machine. ``--think`` pauses a random 0 to 2×THINK seconds before each move (default 0: every
table moves as fast as it can, a saturation test). ``--hold S`` first keeps every stream open S
seconds with nobody moving and prints the servers' CPU meanwhile. Every loop is bounded:
``--moves`` per table, ``--timeout`` per wait, ``--deadline`` in all.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import zlib
from contextlib import AsyncExitStack, ExitStack
from dataclasses import dataclass, field
from typing import Any

import httpx

from _common import environment_lines, load_line, posed_address

TICKS = os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def start_servers(db: str, servers: int,
                  workers: int) -> list[tuple[subprocess.Popen[bytes], str]]:
    """``servers`` servers on ``db`` (each ``ginrummy serve --workers workers``), started one
    after the other (the first creates the tables)."""
    started: list[tuple[subprocess.Popen[bytes], str]] = []
    try:
        _start(db, servers, workers, started)
    except BaseException:  # a server that did not start, or Ctrl-C: stop what started
        stop(started)
        raise
    return started


def _start(db: str, servers: int, workers: int,
           started: list[tuple[subprocess.Popen[bytes], str]]) -> None:
    for _ in range(servers):
        port = free_port()
        proc = subprocess.Popen(
            [sys.executable, "-m", "ginrummy", "serve", "--port", str(port), "--db", db,
             "--workers", str(workers)],
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
                raise SystemExit("a server did not start")
            time.sleep(0.05)


def stop(servers: list[tuple[subprocess.Popen[bytes], str]]) -> None:
    for proc, _url in servers:
        proc.terminate()
    for proc, _url in servers:
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def process_tree(roots: list[int]) -> list[int]:
    """``roots`` and every process below them (uvicorn's workers under its supervisor)."""
    children: dict[int, list[int]] = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/stat", encoding="ascii") as f:
                    ppid = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(name))
    found, todo = [], list(roots)
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo.extend(children.get(pid, []))
    return found


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


def postmaster_of(db: str) -> int | None:
    """The pid of the PostgreSQL server of ``db`` when it runs on this machine (the parent of
    a backend), so that only its processes are counted, not other clusters'."""
    import psycopg
    from sqlalchemy.engine import make_url

    conninfo = make_url(db).set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(conninfo) as conn:
        row = conn.execute("SELECT pg_backend_pid()").fetchone()
    try:
        with open(f"/proc/{row[0] if row else 0}/stat", encoding="ascii") as f:
            return int(f.read().rsplit(")", 1)[1].split()[1])
    except (OSError, IndexError, ValueError):
        return None  # not on this machine


def postgres_pids(postmaster: int | None) -> list[int]:
    """The processes of the PostgreSQL server ``postmaster`` (none when it is elsewhere)."""
    return process_tree([postmaster]) if postmaster is not None else []


@dataclass
class Results:
    latencies: list[float] = field(default_factory=list)
    crossed: list[bool | None] = field(default_factory=list)  # None: a worker unknown
    requests: list[float] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)
    ready: int = 0
    client_cpu: float = 0.0
    idle: float | None = None

    def error(self, kind: str) -> None:
        self.errors[kind] = self.errors.get(kind, 0) + 1


def local_port(r: httpx.Response) -> int | None:
    """The local port of the connection that carried ``r`` (``None`` if httpx hides it)."""
    stream = r.extensions.get("network_stream")
    addr = stream.get_extra_info("client_addr") if stream is not None else None
    return int(addr[1]) if addr else None


class Client:
    """An httpx client on one connection at a time that knows which worker process each of its
    connections reached (``GET /api/health`` once per new connection)."""

    def __init__(self, http: httpx.AsyncClient) -> None:
        self.http = http
        self.workers: dict[int, str] = {}

    async def worker_of(self, r: httpx.Response) -> str:
        port = local_port(r)
        if port is None:
            return "?"
        if port not in self.workers:
            h = await self.http.get("/api/health")
            if local_port(h) != port:
                return "?"  # the connection closed meanwhile
            self.workers[port] = str(h.json()["worker"])
        return self.workers[port]


class Watcher:
    """A client holding one match's event stream; remembers when each version arrived, and
    which worker the stream is on."""

    def __init__(self, client: Client, match_id: str, results: Results) -> None:
        self.client = client
        self.match_id = match_id
        self.results = results
        self.arrived: dict[int, float] = {}
        self.newest = -1
        self.worker = "?"
        self.changed = asyncio.Event()
        self.task = asyncio.create_task(self._read())

    async def _read(self) -> None:
        try:
            # The connection the stream will use, asked first (it is reused at once).
            h = await self.client.http.get("/api/health")
            async with self.client.http.stream(
                    "GET", f"/api/matches/{self.match_id}/events") as r:
                if r.status_code != 200:
                    self.results.error(f"stream {r.status_code}")
                    return
                if local_port(h) is not None and local_port(h) == local_port(r):
                    self.worker = str(h.json()["worker"])
                kind = ""
                async for line in r.aiter_lines():
                    if line.startswith("event:"):
                        kind = line[6:].strip()
                    elif line.startswith("data:") and kind == "version":
                        version = json.loads(line[5:])["version"]
                        self.arrived.setdefault(version, time.perf_counter())
                        self.newest = max(self.newest, version)
                        self.changed.set()
        except httpx.HTTPError:
            self.results.error("stream broken")
        except asyncio.CancelledError:
            return

    async def wait_for(self, version: int, timeout: float) -> float | None:
        """When the stream first showed ``version`` or a later one (a stream that falls behind
        sends only the newest); ``None`` if not within ``timeout``."""
        deadline = time.monotonic() + timeout
        while self.newest < version:
            left = deadline - time.monotonic()
            if left <= 0 or self.task.done():
                return None
            self.changed.clear()
            try:
                await asyncio.wait_for(self.changed.wait(), left)
            except TimeoutError:
                return None
        return min(t for v, t in self.arrived.items() if v >= version)

    async def close(self) -> None:
        self.task.cancel()
        await asyncio.gather(self.task, return_exceptions=True)


def crossed(mover: str, stream: str) -> bool | None:
    """Whether the event crossed worker processes (``None`` when either is unknown)."""
    return None if "?" in (mover, stream) else mover != stream


def http_client(url: str, token: str, args: argparse.Namespace) -> httpx.AsyncClient:
    # Idle connections are closed by the client before uvicorn's 5 s keep-alive runs out, so
    # a move is never sent on a connection the server is closing.
    # Each player poses as a client address of its own (the server bounds tables and streams
    # per address, and every client here is on loopback).
    return httpx.AsyncClient(
        base_url=url, timeout=httpx.Timeout(args.timeout),
        limits=httpx.Limits(max_connections=1, keepalive_expiry=2.0),
        headers={"Authorization": f"Bearer {token}",
                 "X-Forwarded-For": posed_address(zlib.crc32(token.encode()))})


async def computer_table(n: int, urls: list[str], tokens: list[str], args: argparse.Namespace,
                         results: Results, start: asyncio.Event, rng: random.Random) -> int:
    """One table against the computer: returns the moves it timed."""
    mover_url, watcher_url = urls[n % len(urls)], urls[(n + 1) % len(urls)]
    async with http_client(mover_url, tokens[0], args) as m, \
            http_client(watcher_url, tokens[0], args) as w:
        mover, watch = Client(m), Client(w)
        state: dict[str, Any] = {}
        watcher: Watcher | None = None
        timed = 0

        async def new_match() -> None:
            nonlocal state, watcher
            if watcher is not None:
                await watcher.close()
            r = await mover.http.post("/api/matches", json={"level": args.level})
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
                    path, body = "next-hand", {"version": state["version"],
                                               "client_seed": f"t{n} {rng.random()}"}
                else:
                    move = rng.choice(state["hand"]["legal_moves"])
                    path, body = "moves", {"move": move, "version": state["version"]}
                t0 = time.perf_counter()
                r = await mover.http.post(f"/api/matches/{state['id']}/{path}", json=body)
                t1 = time.perf_counter()
                if r.status_code != 200:
                    results.error(f"move {r.status_code}")
                    state = (await mover.http.get(f"/api/matches/{state['id']}")).json()
                    continue
                state = r.json()
                timed += 1
                results.requests.append(t1 - t0)
                if watcher is None:
                    continue
                where = await mover.worker_of(r)
                arrived = await watcher.wait_for(state["version"], args.timeout)
                if arrived is None:
                    results.error("event missing")
                else:
                    results.latencies.append(arrived - t0)
                    results.crossed.append(crossed(where, watcher.worker))
        finally:
            if watcher is not None:
                await watcher.close()
        return timed


async def people_table(n: int, urls: list[str], tokens: list[str], args: argparse.Namespace,
                       results: Results, start: asyncio.Event, rng: random.Random) -> int:
    """One table for two people: returns the requests it timed (moves and client seeds)."""
    # With separate servers, Ann on one and Bob on the next: every event crosses processes.
    seat_urls = (urls[n % len(urls)], urls[(n + 1) % len(urls)])
    async with AsyncExitStack() as stack:
        http = [Client(await stack.enter_async_context(http_client(u, t, args)))
                for u, t in zip(seat_urls, tokens, strict=True)]
        listen = [Client(await stack.enter_async_context(http_client(u, t, args)))
                  for u, t in zip(seat_urls, tokens, strict=True)]
        state: list[dict[str, Any]] = [{}, {}]
        watchers: list[Watcher] = []
        timed = 0

        async def new_table() -> None:
            nonlocal watchers
            for w in watchers:
                await w.close()
            r = await http[0].http.post("/api/matches", json={
                "opponent": "person", "profile": args.profile})
            made = r.json()
            r = await http[1].http.post(f"/api/invites/{made['invite']}")
            state[1] = r.json()
            state[0] = (await http[0].http.get(f"/api/matches/{made['id']}")).json()
            watchers = [Watcher(listen[seat], made["id"], results) for seat in (0, 1)]
            for w in watchers:
                if await w.wait_for(state[1]["version"], args.timeout) is None:
                    results.error("first event missing")

        await new_table()
        results.ready += 1
        await start.wait()
        async def read_both(mid: str) -> None:
            for s in (0, 1):
                state[s] = (await http[s].http.get(f"/api/matches/{mid}")).json()

        try:
            # Bounded: a request that fails is counted and the table goes on, a few times over.
            for _attempt in range(3 * args.moves + 10):
                if timed >= args.moves:
                    break
                if args.think:
                    await asyncio.sleep(rng.uniform(0, 2 * args.think))
                table = state[0]  # always current: seat 0 moved or read it last
                mid = table["id"]
                try:
                    if any(w.task.done() for w in watchers):  # a stream ended: the page reopens
                        for seat, w in enumerate(watchers):
                            if w.task.done():
                                watchers[seat] = Watcher(listen[seat], mid, results)
                    if table["status"] == "over":
                        await new_table()
                        continue
                    if table["status"] == "between_hands":
                        seat = rng.choice([s for s in (0, 1)
                                           if not table["people"]["seeds_in"][s]])
                        path, body = "next-hand", {"version": state[seat]["version"],
                                                   "client_seed": f"t{n} s{seat} {rng.random()}"}
                    else:
                        seat = 0 if table["hand"]["your_turn"] else 1
                        move = rng.choice(state[seat]["hand"]["legal_moves"])
                        path, body = "moves", {"move": move, "version": state[seat]["version"]}
                    other = 1 - seat
                    t0 = time.perf_counter()
                    r = await http[seat].http.post(f"/api/matches/{mid}/{path}", json=body)
                    t1 = time.perf_counter()
                    if r.status_code != 200:
                        results.error(f"move {r.status_code}")
                        await read_both(mid)
                        continue
                    state[seat] = r.json()
                    timed += 1
                    results.requests.append(t1 - t0)
                    where = await http[seat].worker_of(r)
                    arrived = await watchers[other].wait_for(state[seat]["version"],
                                                             args.timeout)
                    if arrived is None:
                        results.error("event missing")
                    else:
                        results.latencies.append(arrived - t0)
                        results.crossed.append(crossed(where, watchers[other].worker))
                    # The other person reads the table on the event, as the page does.
                    r = await http[other].http.get(f"/api/matches/{mid}")
                    if r.status_code != 200:
                        results.error(f"read {r.status_code}")
                        await read_both(mid)
                        continue
                    state[other] = r.json()
                except httpx.TransportError as exc:
                    results.error(f"{type(exc).__name__}: {exc}"[:120])
                    try:
                        await read_both(mid)
                    except httpx.TransportError as again:
                        results.error(f"{type(again).__name__}: {again}"[:120])
        finally:
            for w in watchers:
                await w.close()
        return timed


def percentile(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(p * (len(xs) - 1)))] if xs else float("nan")


async def run(urls: list[str], tokens: list[list[str]], args: argparse.Namespace,
              results: Results, roots: list[int],
              postmaster: int | None) -> tuple[int, float, float, float]:
    start = asyncio.Event()
    rng = random.Random(args.seed)
    play = people_table if args.people else computer_table
    tasks = [asyncio.create_task(play(n, urls, tokens[n], args, results, start,
                                      random.Random(rng.getrandbits(64))))
             for n in range(args.tables)]
    # Every table has its match and its open streams before the clock starts (bounded).
    for _ in range(int(args.deadline * 20)):
        if results.ready >= args.tables or any(t.done() for t in tasks):
            break
        await asyncio.sleep(0.05)
    pids = process_tree(roots)
    if args.hold:  # the streams open, nobody moving: what holding them costs
        c0, w0 = cpu_seconds(pids), time.perf_counter()
        await asyncio.sleep(args.hold)
        results.idle = (cpu_seconds(pids) - c0) / (time.perf_counter() - w0)
    db_before = {pid: cpu_seconds([pid]) for pid in postgres_pids(postmaster)}
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
            results.error(f"{type(d).__name__}: {d}"[:120])
        else:
            moves += d
    # Database connections opened during the run count whole.
    db_cpu = sum(cpu_seconds([pid]) - db_before.get(pid, 0.0)
                 for pid in postgres_pids(postmaster))
    return moves, cpu_seconds(pids) - cpu0, db_cpu, wall


def make_players(db: str, count: int) -> list[str]:
    """``count`` players made in the database directly; their tokens."""
    from ginrummy.server.store import Store

    store = Store(db, migrate=False)
    try:
        return [store.create_player(f"p{i}")[1] for i in range(count)]
    finally:
        store.engine.dispose()


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--people", action="store_true",
                    help="tables for two people (default: a person against the computer)")
    ap.add_argument("--tables", type=int, default=100, help="concurrent tables (2 clients each)")
    ap.add_argument("--moves", type=int, default=20, help="timed moves per table")
    ap.add_argument("--workers", type=int, default=1,
                    help="worker processes of the server (ginrummy serve --workers)")
    ap.add_argument("--servers", type=int, default=1,
                    help="separate servers on the database, the two sides on different ones")
    ap.add_argument("--db", default=None,
                    help="database URL, or 'postgresql' for a throwaway cluster this script "
                    "starts and removes (default: a fresh SQLite file)")
    ap.add_argument("--level", default="random", help="the computer's level (default random)")
    ap.add_argument("--profile", default="modern", help="the rules of people's tables")
    ap.add_argument("--think", type=float, default=0.0, help="mean pause between moves, s")
    ap.add_argument("--timeout", type=float, default=30.0, help="longest wait for one answer")
    ap.add_argument("--deadline", type=float, default=900.0, help="longest whole run, s")
    ap.add_argument("--no-watchers", action="store_true",
                    help="computer tables without event streams (the reference: what the "
                    "moves cost without them)")
    ap.add_argument("--hold", type=float, default=0.0,
                    help="first hold the streams open this many seconds with no moves and "
                    "print the servers' CPU meanwhile")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)

    with ExitStack() as stack:
        db = args.db
        if db == "postgresql":
            from bench_web_clients import fresh_database, postgres_cluster

            db = stack.enter_context(fresh_database("postgresql",
                                                    stack.enter_context(postgres_cluster())))
        _main(args, db)


def _main(args: argparse.Namespace, db: str | None) -> None:
    folder = tempfile.mkdtemp(prefix="ginrummy-bench-people-")
    db = db or f"sqlite:///{os.path.join(folder, 'bench.sqlite3')}"
    if db.startswith("postgresql") and "GINRUMMY_SECRET_KEY" not in os.environ:
        from cryptography.fernet import Fernet  # the servers and this process share it

        os.environ["GINRUMMY_SECRET_KEY"] = Fernet.generate_key().decode()
    for line in environment_lines(["ginrummy", "uvicorn", "sse-starlette", "SQLAlchemy",
                                   "psycopg", "httpx"]):
        print(line)
    shown_db = db.split("@")[-1] if "@" in db else db
    kind = "people-vs-people" if args.people else f"against the computer ({args.level})"
    clients = 4 * args.tables if args.people else 2 * args.tables
    print(f"work    : {args.tables} tables {kind} ({clients} connections), {args.moves} moves "
          f"each, {args.servers} server(s) x {args.workers} worker(s), think {args.think} s, "
          f"db {shown_db}" + (", no watchers" if args.no_watchers else ""))
    servers = start_servers(db, args.servers, args.workers)
    roots = [p.pid for p, _u in servers]
    postmaster = postmaster_of(db) if db.startswith("postgresql") else None
    db_pids = postgres_pids(postmaster)
    results = Results()
    try:
        per_table = 2 if args.people else 1
        flat = make_players(db, per_table * args.tables)
        tokens = [flat[per_table * n:per_table * (n + 1)] for n in range(args.tables)]
        moves, cpu, db_cpu, wall = asyncio.run(
            run([u for _p, u in servers], tokens, args, results, roots, postmaster))
    finally:
        stop(servers)
        shutil.rmtree(folder, ignore_errors=True)  # the SQLite file, when it made one
    ms = 1000.0
    lat, req = results.latencies, results.requests
    across = [x for x, c in zip(lat, results.crossed, strict=True) if c is True]
    same = [x for x, c in zip(lat, results.crossed, strict=True) if c is False]
    other = "the other person's event" if args.people else "watcher's event"
    print()
    print(f"{'what (ms)':44} {'n':>6} {'p50':>7} {'p95':>7} {'p99':>7} {'max':>7}")
    for label, xs in [(f"request -> {other}", lat),
                      ("  of which across worker processes", across),
                      ("  of which within one process", same),
                      ("request -> its answer (the mover)", req)]:
        if xs:
            print(f"{label:44} {len(xs):>6} {statistics.median(xs) * ms:>7.1f} "
                  f"{percentile(xs, 0.95) * ms:>7.1f} {percentile(xs, 0.99) * ms:>7.1f} "
                  f"{max(xs) * ms:>7.1f}")
    if results.idle is not None:
        print(f"holding the streams with no moves for {args.hold:.0f} s: servers' "
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
