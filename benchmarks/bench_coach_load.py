"""Another player's move while the coach is hammered: p50/p95 of a move, ms, without and with
``--loopers`` clients asking the coach as fast as they are answered.

Run from the repository root (after ``./scripts/setup``)::

    python benchmarks/bench_coach_load.py [--moves 200] [--loopers 4] [--coach-processes 1]
                                          [--limits off|on] [--level hard]

It starts one server process on 127.0.0.1 (uvicorn over ``create_app``, a fresh SQLite file,
the socket ``ginrummy serve`` binds) with the coach's work in ``--coach-processes`` worker
processes (``0``: in the server's request threads, as before issue 12) and the rate limits
off (the worst case: what the pool alone achieves) or on (the defaults).

Each looper is a player of its own that judges moves at the decisions of finished hands of its
own (``POST .../coach/hands/1/decisions/{k}/answer``), every decision and every legal move in
turn, so no answer comes from a cache (its hands are played and its questions listed before any
timing; a looper that has asked them all starts over, from the cache). The measured player
plays whole matches at ``--level`` through one keep-alive client: a few untimed moves, then
``--moves`` moves without load, ``--moves`` moves while the loopers run, and ``--moves`` moves
without load again (the quiet figure is taken from both quiet phases, so a change in the
machine's other load shows). Every loop is bounded by the measured player's moves.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from typing import Any

import httpx

from _common import environment_lines, load_line, posed_address
from bench_web import choose, percentile

STARTUP_SECONDS = 60


def serve(port: int, db: str, processes: int, limits: str) -> None:
    """The server side (run in a subprocess of this script)."""
    import uvicorn

    from ginrummy.cli.serve import bind_socket
    from ginrummy.server import create_app
    from ginrummy.server.limits import RateLimits

    app = create_app(db, limits=RateLimits() if limits == "on" else RateLimits.off(),
                     coach_processes=processes)
    sock = bind_socket("127.0.0.1", port, tries=1)
    uvicorn.Server(uvicorn.Config(app, log_level="warning")).run(sockets=[sock])


def start_server(db: str, processes: int, limits: str) -> tuple[subprocess.Popen[bytes], str]:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen(
        [sys.executable, __file__, "--serve", str(port), "--db", db,
         "--coach-processes", str(processes), "--limits", limits],
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + STARTUP_SECONDS
    while time.monotonic() < deadline:
        try:
            if httpx.get(url + "/api/options", timeout=2).status_code == 200:
                return proc, url
        except httpx.HTTPError:
            time.sleep(0.05)  # poll until the server answers
    proc.kill()
    raise SystemExit("the server did not start")


def new_client(url: str, name: str, n: int = 0) -> httpx.Client:
    """A new player's client, posing as client address ``n`` (the server bounds new players
    and requests per address)."""
    client = httpx.Client(base_url=url, timeout=120,
                          headers={"X-Forwarded-For": posed_address(1000 + n)})
    r = client.post("/api/players", json={"name": name})
    r.raise_for_status()
    client.headers["Authorization"] = f"Bearer {r.json()['token']}"
    return client


def deal(client: httpx.Client, state: dict[str, Any]) -> dict[str, Any]:
    """The next hand dealt, with a client seed of this client's (a match may start undealt)."""
    r = client.post(f"/api/matches/{state['id']}/next-hand",
                    json={"version": state["version"], "client_seed": os.urandom(8).hex()})
    r.raise_for_status()
    dealt: dict[str, Any] = r.json()
    return dealt


def finished_hand(client: httpx.Client, rng: random.Random) -> str:
    """A new match (computer: random) played by ``choose`` until its first hand is over."""
    state = client.post("/api/matches", json={"level": "random", "hollywood": True}).json()
    if state["hand"] is None:
        state = deal(client, state)
    while state["hand"]["result"] is None:
        move = choose(state) if rng.random() > 0.2 else rng.choice(state["hand"]["legal_moves"])
        state = client.post(f"/api/matches/{state['id']}/moves",
                            json={"move": move, "version": state["version"]}).json()
    return str(state["id"])


class Looper(threading.Thread):
    """One client asking the coach to judge moves at a finished hand's decisions, each once."""

    def __init__(self, url: str, n: int, stop: threading.Event, hands: int = 2) -> None:
        super().__init__(daemon=True)
        self.client = new_client(url, f"looper {n}", n)
        self.rng = random.Random(n)
        self.stop = stop
        self.answers: dict[int, int] = {}
        self.todo = [q for _ in range(hands) for q in self.questions()]

    def questions(self) -> list[tuple[str, int, str]]:
        match_id = finished_hand(self.client, self.rng)
        review = self.client.get(f"/api/matches/{match_id}/coach/hands/1").json()
        found = []
        for d in review["decisions"]:
            table = self.client.get(
                f"/api/matches/{match_id}/coach/hands/1/decisions/{d['index']}").json()
            found += [(match_id, d["index"], m) for m in table["table"]["hand"]["legal_moves"]]
        return found

    def run(self) -> None:
        while not self.stop.is_set():  # after the first pass the answers come from the cache
            for match_id, index, move in self.todo:
                if self.stop.is_set():
                    return
                r = self.client.post(
                    f"/api/matches/{match_id}/coach/hands/1/decisions/{index}/answer",
                    json={"move": move})
                self.answers[r.status_code] = self.answers.get(r.status_code, 0) + 1
                if r.status_code in (429, 503):  # honour Retry-After, bounded by the run
                    self.stop.wait(float(r.headers.get("retry-after", "1")))


def play(client: httpx.Client, level: str, moves: int) -> list[float]:
    """``moves`` timed moves (whole matches, new ones as needed), seconds each."""
    times: list[float] = []
    state: dict[str, Any] = {"status": "over"}
    while len(times) < moves:
        if state["status"] == "over":
            state = client.post("/api/matches", json={"level": level}).json()
        if state["status"] == "between_hands" or state["hand"] is None:
            state = deal(client, state)
            continue
        body = {"move": choose(state), "version": state["version"]}
        t0 = time.perf_counter()
        r = client.post(f"/api/matches/{state['id']}/moves", json=body)
        times.append(time.perf_counter() - t0)
        if r.status_code != 200:
            raise SystemExit(f"unexpected answer {r.status_code}: {r.text}")
        state = r.json()
    return times


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--moves", type=int, default=200, help="moves timed in each phase")
    ap.add_argument("--loopers", type=int, default=4, help="clients hammering the coach")
    ap.add_argument("--coach-processes", type=int, default=1,
                    help="the coach's worker processes (0: in the server's threads)")
    ap.add_argument("--limits", choices=["off", "on"], default="off",
                    help="the server's rate limits (default off: the worst case)")
    ap.add_argument("--level", default="hard", help="the measured player's opponent")
    ap.add_argument("--db", default=None, help=argparse.SUPPRESS)
    ap.add_argument("--serve", type=int, default=None, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.serve is not None:
        serve(args.serve, args.db, args.coach_processes, args.limits)
        return

    folder = tempfile.mkdtemp(prefix="ginrummy-bench-coach-")
    db = f"sqlite:///{os.path.join(folder, 'bench.sqlite3')}"
    for line in environment_lines(["ginrummy", "fastapi", "uvicorn", "httpx"]):
        print(line)
    print(f"work    : {args.moves} moves at level {args.level} per phase, {args.loopers} "
          f"loopers, coach processes {args.coach_processes}, limits {args.limits}")
    proc, url = start_server(db, args.coach_processes, args.limits)
    stop = threading.Event()
    loopers: list[Looper] = []
    try:
        client = new_client(url, "measured")
        try:
            for _ in range(20):  # warm the connection and the server's imports
                client.get("/api/options")
            loopers = [Looper(url, n, stop) for n in range(args.loopers)]
            play(client, args.level, args.moves // 4)  # warm-up, not timed
            quiet = play(client, args.level, args.moves)
            for looper in loopers:
                looper.start()
            # Wait until every looper has had at least one answer (bounded).
            deadline = time.monotonic() + 300
            while any(not lp.answers for lp in loopers) and time.monotonic() < deadline:
                time.sleep(0.1)
            t0 = time.monotonic()
            loaded = play(client, args.level, args.moves)
            span = time.monotonic() - t0
            stop.set()
            for looper in loopers:
                looper.join(timeout=300)
            after = play(client, args.level, args.moves)
        finally:
            client.close()
    finally:
        stop.set()
        for looper in loopers:
            looper.join(timeout=120)
        proc.terminate()
        proc.wait(timeout=30)
    ms = 1000.0
    print()
    print(f"{'phase':32} {'moves':>6} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8}")
    for label, xs in [("quiet, before", quiet),
                      (f"{args.loopers} clients hammering the coach", loaded),
                      ("quiet, after", after)]:
        print(f"{label:32} {len(xs):>6} {statistics.median(xs) * ms:>8.2f} "
              f"{percentile(xs, 0.95) * ms:>8.2f} {max(xs) * ms:>8.2f}")
    ratio = statistics.median(loaded) / statistics.median(quiet + after)
    print(f"p50 with the coach hammered / quiet (before and after): {ratio:.2f}")
    answers: dict[int, int] = {}
    for looper in loopers:
        for status, n in looper.answers.items():
            answers[status] = answers.get(status, 0) + n
    questions = sum(len(lp.todo) for lp in loopers)
    print(f"coach answers to the loopers ({questions} distinct questions), from their start "
          f"to the end of the loaded phase ({span:.1f} s): "
          + ", ".join(f"{k}: {v}" for k, v in sorted(answers.items())))
    print(load_line("at the end"))


if __name__ == "__main__":
    main()
