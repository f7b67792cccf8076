"""The server's bounds under abuse (issue 37): every abuse the issue tried, against a real
``ginrummy serve --workers 2``, and one table of what each limit let through.

Run from the repository root::

    nice -n 5 python benchmarks/bench_abuse.py [--db sqlite|postgresql|URL] [--workers 2]
        [--streams 4000] [--half-sent 3000] [--only streams]

This is not a test: it prints figures and fails on none. Every loop is bounded. The abuses, in
order, each from client addresses of its own (``X-Forwarded-For`` from loopback, which the
server trusts, so one process poses as many addresses):

- *accounts*: 40 ``POST /api/players`` at once from one address;
- *tables*: one account sends 100 ``POST /api/matches`` (tables for two); then 10 accounts of
  one address 30 each;
- *invite codes*: one account tries 100 random short codes; then 10 accounts of one address
  20 each (a 404 is a guess let through; telling the codes apart is another matter: one 404
  answers unknown, used and closed alike);
- *transfer codes*: one address tries 50 random codes; one account asks for 20 codes;
- *lobby*: 50 accounts of one address each open a table "anyone may join", then a person at
  another address opens one: how many of the 50 the lobby lists, and whether the person's is;
- *streams*: 100 accounts of one address open 8 event streams each; then ``--streams``
  streams from many addresses (4 per account, 5 accounts an address), more than the two
  workers hold; then a fresh player at a new address opens one. The memory (RSS) of the
  worker processes before, during, and after every stream closed (once it stops moving);
- *half-sent*: ``--half-sent`` connections that send half a request head and wait, while a
  normal client asks ``GET /api/health`` every 0.2 s: how long until the server has closed
  them all, and the slowest answer to the normal client meanwhile.

The accounts are made in the database directly (the server bounds new accounts per address).
With ``--db postgresql`` a throwaway cluster is started and removed, as
``bench_web_clients.py`` does.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import socket
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import text
from sqlalchemy.engine import Engine

from _common import environment_lines, load_line
from _common import posed_address as address
from bench_people import make_players, process_tree
from bench_web_clients import fresh_database, postgres_cluster

#: How long a server may take to start.
STARTUP_SECONDS = 60
#: The short codes' letters (ginrummy.server.people) and the transfer codes' (store_tokens).
CODE_LETTERS = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
TRANSFER_LETTERS = "ABCDEFGHJKMNPQRSTVWXYZ23456789"


@dataclass
class Row:
    """One line of the table: a limit, its number, and what came of the requests."""

    what: str
    limit: str
    tried: int = 0
    through: int = 0
    refused: int = 0
    other: Counter[str] = field(default_factory=Counter)
    note: str = ""

    def count(self, status: int, through: tuple[int, ...]) -> None:
        self.tried += 1
        if status in through:
            self.through += 1
        elif status == 429:
            self.refused += 1
        else:
            self.other[str(status)] += 1


@contextmanager
def server(db: str, workers: int, args: list[str]) -> Iterator[tuple[str, int]]:
    """``ginrummy serve --workers N`` on a free port: its URL and the supervisor's pid."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen(
        [sys.executable, "-m", "ginrummy", "serve", "--port", str(port), "--db", db,
         "--workers", str(workers), *args],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + STARTUP_SECONDS
        while True:
            if proc.poll() is not None or time.monotonic() > deadline:
                raise SystemExit("the server did not start")
            try:
                if httpx.get(url + "/api/health", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            time.sleep(0.05)  # polling for readiness, bounded by the deadline
        yield url, proc.pid
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def worker_pids(parent: int) -> list[int]:
    """The uvicorn worker processes under ``parent`` (spawned: ``spawn_main`` in their command
    line)."""
    return sorted(pid for pid in process_tree([parent])[1:]
                  if b"spawn_main" in Path(f"/proc/{pid}/cmdline").read_bytes())


def rss_mb(pids: list[int]) -> list[float]:
    out = []
    for pid in pids:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                out.append(int(line.split()[1]) / 1024)
    return out


def rss_parts_mb(pid: int) -> dict[str, float]:
    """Where a process's resident memory lies (``/proc/PID/smaps``): ``heap`` (the main
    thread's malloc arena, grown with ``brk``), ``anon`` (anonymous mappings: other threads'
    malloc arenas, large blocks, Python's own arenas, thread stacks) and ``file``."""
    parts = {"heap": 0.0, "anon": 0.0, "file": 0.0}
    kind = "anon"
    for line in Path(f"/proc/{pid}/smaps").read_text().splitlines():
        fields = line.split()
        if fields and "-" in fields[0] and not fields[0].endswith(":"):
            name = fields[5] if len(fields) > 5 else ""
            kind = "heap" if name == "[heap]" else "file" if name.startswith("/") else "anon"
        elif fields and fields[0] == "Rss:":
            parts[kind] += int(fields[1]) / 1024
    return parts


class Poser:
    """An httpx client posing client addresses (``X-Forwarded-For``) and tokens."""

    def __init__(self, url: str, connections: int = 50) -> None:
        # Idle connections are closed here before uvicorn's 5 s keep-alive closes them, so a
        # request is never sent on a connection the server is closing.
        self.http = httpx.AsyncClient(base_url=url, timeout=60, verify=False,
                                      limits=httpx.Limits(max_connections=connections,
                                                          keepalive_expiry=2.0))

    async def send(self, method: str, path: str, at: int, token: str | None = None,
                   **kwargs: Any) -> int:
        headers = {"X-Forwarded-For": address(at)}
        if token is not None:
            headers["Authorization"] = f"Bearer {token}"
        try:
            r = await self.http.request(method, path, headers=headers, **kwargs)
        except httpx.HTTPError:
            return 0
        return r.status_code

    async def close(self) -> None:
        await self.http.aclose()


async def together(calls: list[Callable[[], Awaitable[int]]], row: Row,
                   through: tuple[int, ...]) -> None:
    for status in await asyncio.gather(*(c() for c in calls)):
        row.count(status, through)


def code() -> str:
    return "".join(random.choice(CODE_LETTERS) for _ in range(8))


async def accounts_and_codes(p: Poser, tokens: list[str], rows: list[Row]) -> None:
    """Accounts, tables, invite codes and transfer codes (addresses 1 to 99)."""
    row = Row("new accounts, one address", "10/min, 100/h, 300/day")
    await together([lambda: p.send("POST", "/api/players", 1, json={"name": "x"})] * 40,
                   row, (201,))
    rows.append(row)

    row = Row("new tables, one account", "30/min, 300/h")
    body = {"opponent": "person", "open": False, "forfeit_current": True}
    for _ in range(100):  # one after the other: each new one closes the account's last
        row.count(await p.send("POST", "/api/matches", 2, tokens[0], json=body), (201,))
    rows.append(row)
    row = Row("new tables, 10 accounts of one address", "120/min, 1,500/h")
    for _ in range(30):
        await together([lambda t=t: p.send("POST", "/api/matches", 3, t, json=body)
                        for t in tokens[1:11]], row, (201,))
    rows.append(row)

    row = Row("invite codes tried, one account", "20/min, 200/h")
    await together([lambda: p.send("POST", f"/api/invites/{code()}", 4, tokens[11])] * 100,
                   row, (404, 200))
    rows.append(row)
    row = Row("invite codes tried, 10 accounts of one address", "60/min, 600/h, 2,000/day")
    await together([lambda t=t: p.send("POST", f"/api/invites/{code()}", 5, t)
                    for t in tokens[12:22] for _ in range(20)], row, (404, 200))
    rows.append(row)

    row = Row("transfer codes tried, one address", "5/min, 20/h, 100/day")

    def claim() -> Awaitable[int]:
        guess = "".join(random.choice(TRANSFER_LETTERS) for _ in range(12))
        return p.send("POST", "/api/players/claim", 6, json={"code": guess})

    await together([claim] * 50, row, (404, 200))
    rows.append(row)
    row = Row("transfer codes made, one account", "5/min, 30/h")
    await together([lambda: p.send("POST", "/api/me/transfer-code", 7, tokens[22])] * 20,
                   row, (201,))
    rows.append(row)


async def lobby(p: Poser, tokens: list[str], rows: list[Row]) -> None:
    """50 accounts of address 100 open tables, then a person at address 101 opens one."""
    row = Row("lobby: tables listed per address", "3 (present creators only)")
    body = {"opponent": "person", "open": True, "forfeit_current": True}
    made = await asyncio.gather(*(p.http.post("/api/matches", json=body, headers={
        "X-Forwarded-For": address(100), "Authorization": f"Bearer {t}"}) for t in tokens[:50]))
    for r in made:
        row.count(r.status_code, (201,))
    flood = {r.json()["invite"] for r in made if r.status_code == 201}
    r = await p.http.post("/api/matches", json=body, headers={
        "X-Forwarded-For": address(101), "Authorization": f"Bearer {tokens[50]}"})
    mine = r.json()["invite"]
    listed = {t["invite"] for t in (await p.http.get("/api/lobby")).json()}
    row.note = (f"{len(listed & flood)} of the 50 listed; the other address's table "
                f"{'listed' if mine in listed else 'NOT listed'}")
    rows.append(row)


@dataclass
class Stream:
    reader: asyncio.StreamReader
    writer: asyncio.StreamWriter
    status: int
    #: The last bytes read (for the chunked body's end).
    tail: bytes = b""


async def open_stream(host: str, port: int, match_id: str, token: str, at: int) -> Stream | int:
    """An event stream on a raw connection: the open stream, or the refusal's status."""
    try:
        reader, writer = await asyncio.open_connection(host, port)
    except OSError:
        return 0
    writer.write(f"GET /api/matches/{match_id}/events HTTP/1.1\r\nHost: {host}\r\n"
                 f"Authorization: Bearer {token}\r\nX-Forwarded-For: {address(at)}\r\n"
                 "Accept: text/event-stream\r\n\r\n".encode())
    try:
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 60)
    except (OSError, asyncio.IncompleteReadError, TimeoutError):
        writer.close()
        return 0
    status = int(head.split(b" ", 2)[1])
    if status != 200:
        writer.close()
        return status
    return Stream(reader, writer, status)


async def ended(stream: Stream) -> bool:
    """Whether the server has ended the stream (shed it): its chunked body's last chunk came
    (the connection itself stays open for uvicorn's keep-alive), or the connection closed."""
    try:
        while True:
            chunk = await asyncio.wait_for(stream.reader.read(65536), 0.01)
            if not chunk:
                return True
            stream.tail = (stream.tail + chunk)[-16:]
            if stream.tail.endswith(b"\r\n0\r\n\r\n"):
                return True
    except TimeoutError:
        return False
    except OSError:
        return True


def open_streams(engine: Engine) -> int:
    """The streams the server counts open, from its presence rows (table ``live_presence``)."""
    with engine.connect() as conn:
        return int(conn.execute(text("SELECT COALESCE(SUM(streams), 0) FROM live_presence"))
                   .scalar_one())


async def streams(url: str, pid: int, db: str, p: Poser, tokens: list[str], count: int,
                  rows: list[Row]) -> None:
    host, port = url.removeprefix("http://").split(":")
    pids = worker_pids(pid)
    before = rss_mb(pids)
    before_parts = [rss_parts_mb(p) for p in pids]
    # A match for each account to watch (a computer match: its stream is a stream like any).
    matches: list[str] = []
    for start in range(0, len(tokens), 100):
        batch = tokens[start:start + 100]
        made = await asyncio.gather(*(p.http.post(
            "/api/matches", json={"level": "random", "forfeit_current": True},
            headers={"Authorization": f"Bearer {t}", "X-Forwarded-For": address(200 + n // 5)})
            for n, t in enumerate(batch, start)))
        matches += [r.json()["id"] for r in made]

    held: list[Stream] = []

    async def flood(row: Row, pairs: list[tuple[int, int]]) -> None:
        for start in range(0, len(pairs), 200):  # 200 connections at a time (the backlog)
            got = await asyncio.gather(*(open_stream(host, int(port), matches[n], tokens[n], at)
                                         for n, at in pairs[start:start + 200]))
            for g in got:
                if isinstance(g, Stream):
                    held.append(g)
                    row.count(200, (200,))
                else:
                    row.count(g, (200,))

    one = Row("streams, 100 accounts x 8 of one address", "40 per address per worker")
    await flood(one, [(n, 150) for n in range(100) for _ in range(8)])
    rows.append(one)
    accounts = max(0, min(len(tokens) - 101, count // 4))
    many = Row(f"streams, {accounts} accounts x 4, 5 accounts an address",
               "2,000 per worker; when full, the longest idle is shed")
    await flood(many, [(n, 200 + n // 5) for n in range(100, 100 + accounts) for _ in range(4)])
    rows.append(many)
    during = rss_mb(pids)
    fresh = Row("a fresh player's stream at a new address", "never refused for a full worker")
    got = await open_stream(host, int(port), matches[-1], tokens[-1], 60000)
    fresh.count(got.status if isinstance(got, Stream) else got, (200,))
    if isinstance(got, Stream):
        held.append(got)
    await asyncio.sleep(1)  # the shed streams end (waiting for the server, not a timing)
    shed = sum([await ended(s) for s in held])
    fresh.note = f"{shed} of the {len(held)} streams let in were shed to make room"
    rows.append(fresh)
    for s in held:
        s.writer.close()
    # The server sees them go: each close writes the seat's presence row, the last thing a
    # closing stream does. Once the rows count none, or have not moved for 5 s (120 s at
    # most), the server gives the memory back 2 s after the last close: read the workers'
    # memory each second until it has stayed put for 5 s (30 s at most).
    from ginrummy.server.store import Store

    t0 = time.monotonic()
    store = Store(db, migrate=False)
    try:
        counts = [await asyncio.to_thread(open_streams, store.engine)]
        for _ in range(240):
            if not counts[-1] or (len(counts) > 10 and len(set(counts[-10:])) == 1):
                break
            await asyncio.sleep(0.5)
            counts.append(await asyncio.to_thread(open_streams, store.engine))
    finally:
        store.engine.dispose()
    closing = time.monotonic() - t0
    seen = [rss_mb(pids)]
    for _ in range(30):
        await asyncio.sleep(1)
        seen.append(rss_mb(pids))
        if len(seen) >= 5 and len(set(map(tuple, seen[-5:]))) == 1:
            break
    after = seen[-1]
    where = "; ".join(
        f"{when} " + " + ".join(f"{x['heap']:.0f}/{x['anon']:.0f}/{x['file']:.0f}" for x in parts)
        for when, parts in (("before", before_parts),
                            ("after", [rss_parts_mb(p) for p in pids])))
    rows.append(Row("memory of the workers (RSS, MB)", "gc + malloc_trim when streams close",
                    note=f"before {_mb(before)}, during {_mb(during)}, after {_mb(after)} "
                    f"(heap/other anonymous/files: {where}); the streams closed in "
                    f"{closing:.0f} s, {counts[-1]} left counted in the presence rows"))


def _mb(xs: list[float]) -> str:
    return " + ".join(f"{x:.0f}" for x in xs)


async def half_sent(url: str, count: int, timeout: float, rows: list[Row]) -> None:
    host, port = url.removeprefix("http://").split(":")
    row = Row(f"{count} half-sent request heads", f"closed {timeout:g} s after opening")
    conns: list[tuple[asyncio.StreamReader, asyncio.StreamWriter]] = []
    t0 = time.monotonic()
    for start in range(0, count, 200):
        got = await asyncio.gather(*(asyncio.open_connection(host, int(port))
                                     for _ in range(min(200, count - start))),
                                   return_exceptions=True)
        for g in got:
            if isinstance(g, tuple):
                g[1].write(b"GET /api/health HTTP/1.1\r\nHost: x\r\nX-Wait: ")
                conns.append(g)
    opened = time.monotonic() - t0
    slowest = 0.0
    normal = 0

    async def closed(reader: asyncio.StreamReader) -> float:
        try:
            while await asyncio.wait_for(reader.read(65536), timeout + 30):
                pass
        except (OSError, TimeoutError):
            pass
        return time.monotonic() - t0

    waits = asyncio.gather(*(closed(r) for r, _w in conns))
    async with httpx.AsyncClient(base_url=url, timeout=30) as client:
        while not waits.done():
            t = time.monotonic()
            r = await client.get("/api/health")
            normal += r.status_code == 200
            slowest = max(slowest, time.monotonic() - t)
            await asyncio.sleep(0.2)  # a person's pace, not a timing
    times = waits.result()
    for _r, w in conns:
        w.close()
    row.tried, row.through = len(conns), 0
    row.note = (f"opened in {opened:.1f} s; all closed by the server {max(times):.1f} s after "
                f"the first opened; {normal} answers to a normal client meanwhile, the "
                f"slowest {slowest * 1000:.0f} ms")
    rows.append(row)


async def run(url: str, pid: int, db: str, tokens: list[str], args: argparse.Namespace
              ) -> list[Row]:
    rows: list[Row] = []
    p = Poser(url)
    try:
        if args.only in (None, "accounts"):
            await accounts_and_codes(p, tokens[:30], rows)
            await lobby(p, tokens[30:81], rows)
        if args.only in (None, "streams"):
            await streams(url, pid, db, p, tokens[81:], args.streams, rows)
    finally:
        await p.close()
    if args.only in (None, "half-sent"):
        await half_sent(url, args.half_sent, args.header_timeout, rows)
    return rows


def print_rows(rows: list[Row]) -> None:
    print()
    print("| abuse | limit | tried | let through | 429 | other answers / what came of it |")
    print("|---|---|---:|---:|---:|---|")
    for r in rows:
        other = ", ".join(f"{k}: {v}" for k, v in sorted(r.other.items()))
        tail = "; ".join(x for x in (other, r.note) if x)
        print(f"| {r.what} | {r.limit} | {r.tried} | {r.through} | {r.refused} | {tail} |")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--db", default="sqlite",
                    help="sqlite (a fresh file), postgresql (a throwaway cluster) or a URL")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--streams", type=int, default=4400,
                    help="streams of the many-address flood (4 per account), more than the "
                    "two workers hold")
    ap.add_argument("--half-sent", type=int, default=3000)
    ap.add_argument("--header-timeout", type=float, default=10.0)
    ap.add_argument("--only", choices=["accounts", "streams", "half-sent"],
                    help="run only this part (accounts: accounts, tables, codes and the lobby)")
    args = ap.parse_args(argv)
    random.seed(1)
    with ExitStack() as stack:
        if args.db in ("sqlite", "postgresql"):
            cluster = stack.enter_context(postgres_cluster()) if args.db == "postgresql" else None
            db = stack.enter_context(fresh_database(args.db, cluster))
        else:
            db = args.db
        if db.startswith("postgresql") and "GINRUMMY_SECRET_KEY" not in os.environ:
            from cryptography.fernet import Fernet  # the server and this process share it

            os.environ["GINRUMMY_SECRET_KEY"] = Fernet.generate_key().decode()
        for line in environment_lines(["ginrummy", "uvicorn", "h11", "SQLAlchemy", "psycopg"]):
            print(line)
        from ginrummy.server.store import Store

        Store(db).engine.dispose()  # the schema, before the accounts are made
        accounts = 81 + 100 + args.streams // 4 + 1
        tokens = make_players(db, accounts)
        shown = db.split("@")[-1] if "@" in db else db
        print(f"work    : ginrummy serve --workers {args.workers} --header-timeout "
              f"{args.header_timeout:g}, db {shown}; {accounts} accounts made in the database")
        with server(db, args.workers, ["--header-timeout", str(args.header_timeout)]) as (
                url, pid):
            rows = asyncio.run(run(url, pid, db, tokens, args))
        print_rows(rows)
        print(load_line("at the end"))


if __name__ == "__main__":
    main()
