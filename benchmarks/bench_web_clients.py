"""Many players at once: ms per request with ``--clients`` concurrent players, each playing its
own match against the computer through its own keep-alive connection, on one server process or
``--workers N``, on SQLite or PostgreSQL, with or without ``--coach`` clients hammering the
coach meanwhile.

Run from the repository root (after ``./scripts/setup``)::

    python benchmarks/bench_web_clients.py [--clients 20,100] [--workers 1,2]
        [--db sqlite,postgresql] [--coach 0,4] [--moves 30] [--level hard] [--think 0]
        [--pg-url URL]

Every list option is a comma-separated list; one run is made for each combination, and one
table printed at the end. Each run starts ``ginrummy serve`` (its defaults: rate limits on, the
coach in its own process per worker) on a free port of 127.0.0.1 over a fresh database: a new
SQLite file, or a new database on a PostgreSQL cluster (``--pg-url``, else a throwaway cluster
this script starts with the server binaries ``initdb`` and ``pg_ctl`` and removes at the end).

Each client is a player of its own, made in the database before the server starts (the
server's limit on new players per address would refuse a crowd from one address); it starts a
match and sends ``--moves`` requests (dealing each hand with a client seed of its own when the
match waits for one, starting a new match when one ends), choosing as ``bench_web.py`` does.
What is timed is each move or deal request, from sending to the parsed answer. By default a
client sends its next request the moment an answer comes (a saturation test: the clients keep
both cores busy and the figures measure the queue for them); ``--think S`` pauses a random 0
to 2S seconds before each request, untimed, as a person would. Errors (any
answer other than 200/201, or a failed connection) are counted; a client stops at its first.

With ``--coach N`` (N > 0), N more players each ask the coach to judge moves at the decisions of
finished hands of theirs as fast as they are answered (``bench_coach_load.Looper``: their hands
are played and their questions listed before the clients start, and each honours a 429's
``Retry-After``), from before the clients start until they finish. The ``vs quiet`` column is
that run's p50 over the p50 of the same run without them (the issue's target: at most 2); the
``load`` column, the machine's 1-minute load average before and after the run (other jobs).
"""

from __future__ import annotations

import argparse
import glob
import itertools
import os
import pwd
import random
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import httpx

from _common import environment_lines, load_line, posed_address
from bench_web import choose, percentile

#: How long a server or a database may take to start.
STARTUP_SECONDS = 60


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
    deadline = time.monotonic() + STARTUP_SECONDS
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            if httpx.get(url + "/api/health", timeout=2).status_code == 200:
                return proc, url
        except httpx.HTTPError:
            pass
        time.sleep(0.05)  # polling for readiness, bounded by the deadline
    proc.kill()
    raise SystemExit("the server did not start")


@contextmanager
def postgres_cluster() -> Iterator[str]:
    """A throwaway PostgreSQL cluster on 127.0.0.1 (run as ``postgres`` when this is root);
    its admin URL."""
    found = shutil.which("pg_ctl")
    candidates = [os.path.dirname(os.path.realpath(found))] if found else []
    candidates += sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True)
    bindir = next((d for d in candidates if os.path.exists(os.path.join(d, "initdb"))), None)
    if bindir is None:
        raise SystemExit("PostgreSQL's server binaries are not installed (or give --pg-url)")
    prefix, user = [], pwd.getpwuid(os.geteuid()).pw_name
    folder = tempfile.mkdtemp(prefix="ginrummy-bench-pg-")
    if os.geteuid() == 0:  # initdb refuses root
        pw = pwd.getpwnam("postgres")
        os.chown(folder, pw.pw_uid, pw.pw_gid)
        prefix, user = ["runuser", "-u", "postgres", "--"], "postgres"
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    data = os.path.join(folder, "data")

    def run(*args: str) -> None:
        subprocess.run([*prefix, *args], check=True, capture_output=True,
                       timeout=STARTUP_SECONDS)

    run(f"{bindir}/initdb", "-D", data, "-A", "trust", "-U", user, "--no-sync")
    run(f"{bindir}/pg_ctl", "-D", data, "-l", os.path.join(folder, "pg.log"), "-w",
        "-o", f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c max_connections=300",
        "start")
    try:
        yield f"postgresql+psycopg://{user}@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run([*prefix, f"{bindir}/pg_ctl", "-D", data, "-m", "immediate", "stop"],
                       capture_output=True, timeout=STARTUP_SECONDS)
        shutil.rmtree(folder, ignore_errors=True)


@contextmanager
def given(url: str | None) -> Iterator[str | None]:
    yield url


@contextmanager
def fresh_database(kind: str, cluster: str | None) -> Iterator[str]:
    """A new empty database of ``kind`` (a SQLite file, or a database on ``cluster``)."""
    if kind == "sqlite":
        folder = tempfile.mkdtemp(prefix="ginrummy-bench-")
        try:
            yield "sqlite:///" + os.path.join(folder, "bench.sqlite3")
        finally:
            shutil.rmtree(folder, ignore_errors=True)
        return
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    assert cluster is not None
    name = "bench_" + secrets.token_hex(4)
    admin = create_engine(cluster, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f"CREATE DATABASE {name}"))
    try:
        yield make_url(cluster).set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as conn:
            conn.execute(text(f"DROP DATABASE {name} WITH (FORCE)"))
        admin.dispose()


def player(url: str, token: str, level: str, moves: int, go: threading.Barrier,
           times: list[float], errors: list[str], think: float = 0.0, seed: int = 0) -> None:
    """One client: ``moves`` timed requests of its own match(es), each after a pause of a
    random 0 to 2 x ``think`` seconds (not timed)."""
    pause = random.Random(seed)
    with httpx.Client(base_url=url, timeout=120,
                      headers={"X-Forwarded-For": posed_address(seed)}) as client:
        try:
            client.headers["Authorization"] = f"Bearer {token}"
            r = client.post("/api/matches", json={"level": level})
            r.raise_for_status()
            state: dict[str, Any] = r.json()
        except httpx.HTTPError as exc:
            errors.append(f"setup: {exc!r}")
            go.wait()
            return
        go.wait()
        for _ in range(moves):
            if think:
                time.sleep(pause.uniform(0, 2 * think))  # a person thinking, not a wait
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
                errors.append(f"{path}: {exc!r}")
                return
            times.append(time.perf_counter() - t0)
            if r.status_code not in (200, 201):
                errors.append(f"{path}: {r.status_code} {r.text[:120]}")
                return
            state = r.json()


@dataclass
class Result:
    db: str
    workers: int
    clients: int
    coach: int
    ms: list[float]
    errors: list[str]
    wall: float
    load: tuple[float, float]  # the 1-minute load average before and after
    coach_answers: dict[int, int] = field(default_factory=dict)


def one_run(kind: str, cluster: str | None, clients: int, workers: int, coach: int,
            moves: int, level: str, think: float = 0.0) -> Result:
    from bench_coach_load import Looper
    from ginrummy.server.store import Store

    with fresh_database(kind, cluster) as db:
        store = Store(db)
        tokens = [store.create_player(f"bench {n}")[1] for n in range(clients)]
        store.close()
        before = os.getloadavg()[0]
        proc, url = start(db, workers)
        times: list[float] = []
        errors: list[str] = []
        stop = threading.Event()
        loopers: list[Looper] = []
        try:
            loopers = [Looper(url, n, stop) for n in range(coach)]
            for looper in loopers:
                looper.start()
            deadline = time.monotonic() + 300  # every looper answered once (bounded)
            while any(not lp.answers for lp in loopers) and time.monotonic() < deadline:
                time.sleep(0.1)
            go = threading.Barrier(clients)
            threads = [threading.Thread(target=player, args=(url, token, level, moves, go,
                                                             times, errors, think, n))
                       for n, token in enumerate(tokens)]
            t0 = time.perf_counter()
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            wall = time.perf_counter() - t0
        finally:
            stop.set()
            for looper in loopers:
                looper.join(timeout=120)
            proc.terminate()
            proc.wait(timeout=30)
        answers: dict[int, int] = {}
        for looper in loopers:
            for status, n in looper.answers.items():
                answers[status] = answers.get(status, 0) + n
        return Result(kind, workers, clients, coach, [t * 1000 for t in times], errors, wall,
                      (before, os.getloadavg()[0]), answers)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ints = lambda s: [int(x) for x in s.split(",")]  # noqa: E731
    ap.add_argument("--clients", type=ints, default=[20], help="concurrent players, e.g. 20,100")
    ap.add_argument("--workers", type=ints, default=[1], help="server processes, e.g. 1,2")
    ap.add_argument("--db", type=lambda s: s.split(","), default=["sqlite"],
                    help="sqlite, postgresql or both")
    ap.add_argument("--coach", type=ints, default=[0],
                    help="clients hammering the coach meanwhile, e.g. 0,4")
    ap.add_argument("--moves", type=int, default=30, help="timed requests per client")
    ap.add_argument("--level", default="hard")
    ap.add_argument("--think", type=float, default=0.0,
                    help="mean pause before each request, s: a person's pace (default 0: "
                    "each client sends the next request the moment an answer comes)")
    ap.add_argument("--pg-url", default=None,
                    help="a PostgreSQL cluster's admin URL (default: start a throwaway one)")
    args = ap.parse_args(argv)
    if set(args.db) - {"sqlite", "postgresql"}:
        ap.error("--db takes sqlite and postgresql")
    if "postgresql" in args.db and not os.environ.get("GINRUMMY_SECRET_KEY"):
        from cryptography.fernet import Fernet

        os.environ["GINRUMMY_SECRET_KEY"] = Fernet.generate_key().decode()
    for line in environment_lines(["ginrummy", "fastapi", "uvicorn", "SQLAlchemy", "httpx",
                                   "psycopg"]):
        print(line)
    print(f"work    : each client {args.moves} requests, level {args.level}, think "
          f"{args.think} s")
    print(load_line("before all runs"), flush=True)
    results: list[Result] = []
    own_cluster = "postgresql" in args.db and not args.pg_url
    with postgres_cluster() if own_cluster else given(args.pg_url) as cluster:
        for kind, workers, clients, coach in itertools.product(
                args.db, args.workers, args.clients, args.coach):
            r = one_run(kind, cluster, clients, workers, coach, args.moves, args.level,
                        args.think)
            results.append(r)
            print(f"  {kind} workers {workers} clients {clients} coach {coach}: "
                  f"{len(r.ms)} requests in {r.wall:.1f} s, p50 "
                  f"{percentile(r.ms, 0.5) if r.ms else float('nan'):.1f} ms, errors "
                  f"{len(r.errors)}; load {r.load[0]:.1f} -> {r.load[1]:.1f}", flush=True)
            for e in r.errors[:3]:
                print("    error:", e)
    print(load_line("after all runs"))
    quiet = {(r.db, r.workers, r.clients): percentile(r.ms, 0.5)
             for r in results if r.coach == 0 and r.ms}
    print()
    print("| database | workers | clients | coach clients | requests | p50 ms | p95 ms | "
          "p99 ms | max ms | errors | p50 vs quiet | coach answers | load |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|")
    for r in results:
        if not r.ms:
            print(f"| {r.db} | {r.workers} | {r.clients} | {r.coach} | 0 | | | | | "
                  f"{len(r.errors)} | | | |")
            continue
        p50 = percentile(r.ms, 0.5)
        base = quiet.get((r.db, r.workers, r.clients))
        ratio = f"{p50 / base:.2f}" if r.coach and base else ""
        answers = ", ".join(f"{k}: {v}" for k, v in sorted(r.coach_answers.items()))
        print(f"| {r.db} | {r.workers} | {r.clients} | {r.coach} | {len(r.ms)} | {p50:.1f} | "
              f"{percentile(r.ms, 0.95):.1f} | {percentile(r.ms, 0.99):.1f} | {max(r.ms):.1f} | "
              f"{len(r.errors)} | {ratio} | {answers} | {r.load[0]:.1f} → {r.load[1]:.1f} |")


if __name__ == "__main__":
    main()
