"""The web table's round trip: a move over HTTP, the computer's reply included, ms per request.

Run from the repository root (after ``./scripts/setup``)::

    python benchmarks/bench_web.py [--level hard] [--matches 20] [--workers 1] [--db URL]

It starts the real server (``python -m ginrummy serve`` on a free port, uvicorn, a fresh SQLite
file in a temporary folder unless ``--db`` is given) and plays whole matches through the JSON API
with one keep-alive HTTP client, as the page does: each request is a person's move (the client
chooses like a careful beginner: gin or knock when it can, else the discard that leaves the least
deadwood, and always the stock) or "next hand". What is timed is each request from sending to
having the parsed answer, which includes applying the move, the computer's replies at
``--level``, writing the match to the database in one transaction, and building the answer.

The reference row, measured in the same run against the same server, is ``GET /api/options``:
the same HTTP stack and JSON with no game and no database, the floor any request pays.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any

import httpx

from _common import environment_lines, load_line


def choose(state: dict[str, Any]) -> str:
    hand = state["hand"]
    legal = hand["legal_moves"]
    options = hand["card_options"]
    if options:
        for o in options:
            if o["gin"]:
                return f"knock {o['card']}"
        if "big gin" in legal:
            return "big gin"
        knocks = [o for o in options if o["knock"]]
        if knocks:
            return f"knock {min(knocks, key=lambda o: o['deadwood_after'])['card']}"
        discards = [o for o in options if o["discard"]]
        return f"discard {min(discards, key=lambda o: o['deadwood_after'])['card']}"
    for move in ("draw", "pass"):
        if move in legal:
            return move
    return str(legal[0])


def start_server(db: str) -> tuple[subprocess.Popen[bytes], str]:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen(
        [sys.executable, "-m", "ginrummy", "serve", "--port", str(port), "--db", db],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(url + "/api/options", timeout=2).status_code == 200:
                return proc, url
        except httpx.HTTPError:
            time.sleep(0.05)
    proc.kill()
    raise SystemExit("the server did not start")


def percentile(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(p * (len(xs) - 1)))]


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--level", default="hard", help="opponent level (default hard)")
    ap.add_argument("--matches", type=int, default=20, help="whole matches to play")
    ap.add_argument("--profile", default="traditional")
    ap.add_argument("--db", default=None, help="database URL (default: a fresh SQLite file)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)

    folder = tempfile.mkdtemp(prefix="ginrummy-bench-web-")
    db = args.db or f"sqlite:///{os.path.join(folder, 'bench.sqlite3')}"
    for line in environment_lines(["ginrummy", "fastapi", "uvicorn", "SQLAlchemy", "httpx"]):
        print(line)
    print(f"work    : {args.matches} matches, level {args.level}, rules {args.profile}, db {db}")
    proc, url = start_server(db)
    random.seed(args.seed)
    moves: list[float] = []
    deals: list[float] = []
    floor: list[float] = []
    played_by = "?"
    try:
        with httpx.Client(base_url=url, timeout=60) as client:
            token = client.post("/api/players", json={"name": "bench"}).json()["token"]
            client.headers["Authorization"] = f"Bearer {token}"
            for _ in range(20):  # warm up the connection and the server's imports
                client.get("/api/options")
            for m in range(args.matches):
                r = client.post("/api/matches", json={"level": args.level,
                                                       "profile": args.profile})
                state = r.json()
                played_by = state["opponent_player"]
                while state["status"] != "over":
                    if state["status"] == "between_hands":
                        body = {"version": state["version"], "client_seed": f"bench {m}"}
                        t0 = time.perf_counter()
                        r = client.post(f"/api/matches/{state['id']}/next-hand", json=body)
                        state = r.json()
                        deals.append(time.perf_counter() - t0)
                    else:
                        body = {"move": choose(state), "version": state["version"]}
                        t0 = time.perf_counter()
                        r = client.post(f"/api/matches/{state['id']}/moves", json=body)
                        state = r.json()
                        moves.append(time.perf_counter() - t0)
                    if r.status_code != 200:
                        raise SystemExit(f"unexpected answer {r.status_code}: {r.text}")
                    # The reference, interleaved so load from other jobs hits both alike.
                    t0 = time.perf_counter()
                    client.get("/api/options")
                    floor.append(time.perf_counter() - t0)
                print(f"  match {m + 1}/{args.matches}: {state['score']['totals']}",
                      file=sys.stderr, flush=True)
    finally:
        proc.terminate()
        proc.wait(timeout=15)
    ms = 1000.0
    print()
    print(f"Round trip per request over HTTP (ms); computer level {args.level} "
          f"(played by: {played_by})")
    print(f"{'what':42} {'requests':>9} {'median':>8} {'p95':>8} {'max':>8}")
    for label, xs in [
        ("move + computer's reply, saved (ours)", moves),
        ("next hand + computer's opening (ours)", deals),
        ("GET /api/options (reference floor)", floor),
    ]:
        if xs:
            print(f"{label:42} {len(xs):>9} {statistics.median(xs) * ms:>8.2f} "
                  f"{percentile(xs, 0.95) * ms:>8.2f} {max(xs) * ms:>8.2f}")
    print(load_line("at the end"))


if __name__ == "__main__":
    main()
