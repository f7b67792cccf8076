"""Many players at once: ms per move with ``--clients`` concurrent players, each playing its own
match against the computer through its own keep-alive connection, on one server process or
``--workers N``.

Run from the repository root (after ``./scripts/setup``)::

    python benchmarks/bench_web_clients.py [--clients 20] [--moves 40] [--workers 2]
                                           [--level hard] [--db URL]

It starts ``ginrummy serve`` on a free port (a fresh SQLite file unless ``--db`` is given; for
PostgreSQL set ``GINRUMMY_SECRET_KEY`` too) and starts every client at once. Each has a player
of its own, made in the database before the server starts (the server's limit on new players
per address would refuse a crowd from one address); it starts a match and plays ``--moves`` of
its moves (dealing hands with a client seed of its own as they come, starting a new match when
one ends), choosing as ``bench_web.py`` does.
What is timed is each move or deal request, from sending to the parsed answer. Errors (any
answer other than 200/201, or a failed connection) are counted, not retried.
"""

from __future__ import annotations

import argparse
import os
import secrets
import socket
import subprocess
import sys
import tempfile
import threading
import time
from typing import Any

import httpx

from _common import environment_lines, load_line
from bench_web import choose, percentile


def start(db: str, workers: int) -> tuple[subprocess.Popen[bytes], str]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen(
        [sys.executable, "-m", "ginrummy", "serve", "--port", str(port), "--db", db,
         *(["--workers", str(workers)] if workers != 1 else [])],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            if httpx.get(url + "/api/health", timeout=2).status_code == 200:
                return proc, url
        except httpx.HTTPError:
            pass
        time.sleep(0.05)  # polling for readiness, bounded by the deadline
    proc.kill()
    raise SystemExit("the server did not start")


def player(url: str, token: str, level: str, moves: int, go: threading.Barrier,
           times: list[float], errors: list[str]) -> None:
    """One client: ``moves`` timed requests of its own match(es)."""
    with httpx.Client(base_url=url, timeout=120) as client:
        try:
            client.headers["Authorization"] = f"Bearer {token}"
            state: dict[str, Any] = client.post("/api/matches", json={"level": level}).json()
        except (httpx.HTTPError, KeyError) as exc:
            errors.append(f"setup: {exc}")
            go.wait()
            return
        go.wait()
        for _ in range(moves):
            mid = state["id"]
            if state["status"] == "over":
                path, body = "/api/matches", {"level": level}
            elif state["status"] == "between_hands" or state["hand"] is None:
                path = f"/api/matches/{mid}/next-hand"
                body = {"version": state["version"], "client_seed": secrets.token_hex(8)}
            else:
                path = f"/api/matches/{mid}/moves"
                body = {"move": choose(state), "version": state["version"]}
            t0 = time.perf_counter()
            try:
                r = client.post(path, json=body)
            except httpx.HTTPError as exc:
                errors.append(f"{path}: {exc}")
                return
            times.append(time.perf_counter() - t0)
            if r.status_code not in (200, 201):
                errors.append(f"{path}: {r.status_code} {r.text[:120]}")
                return
            state = r.json()


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--clients", type=int, default=20)
    ap.add_argument("--moves", type=int, default=40, help="timed requests per client")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--level", default="hard")
    ap.add_argument("--db", default=None, help="database URL (default: a fresh SQLite file)")
    args = ap.parse_args(argv)
    db = args.db or "sqlite:///" + os.path.join(tempfile.mkdtemp(), "bench.sqlite3")
    for line in environment_lines(["ginrummy", "fastapi", "uvicorn", "SQLAlchemy", "httpx"]):
        print(line)
    print(f"work    : {args.clients} clients x {args.moves} requests, level {args.level}, "
          f"workers {args.workers}, db {db.split('@')[-1]}")
    print(load_line("before"))
    from ginrummy.store import Store

    store = Store(db)
    tokens = [store.create_player(f"bench {n}")[1] for n in range(args.clients)]
    store.close()
    proc, url = start(db, args.workers)
    times: list[float] = []
    errors: list[str] = []
    go = threading.Barrier(args.clients)
    threads = [threading.Thread(target=player, args=(url, token, args.level, args.moves, go,
                                                     times, errors)) for token in tokens]
    try:
        t0 = time.perf_counter()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        wall = time.perf_counter() - t0
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    print(load_line("after"))
    ms = [t * 1000 for t in times]
    if ms:
        print(f"requests {len(ms)} in {wall:.1f} s; per request p50 {percentile(ms, 0.5):.1f} ms,"
              f" p95 {percentile(ms, 0.95):.1f} ms, p99 {percentile(ms, 0.99):.1f} ms, "
              f"max {max(ms):.1f} ms; errors {len(errors)}")
    for e in errors[:5]:
        print("  error:", e)


if __name__ == "__main__":
    main()
