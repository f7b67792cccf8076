"""The coach's hand review at the web table: from the end of a hand to its first results.

Run from the repository root (after ``./scripts/setup``)::

    python benchmarks/bench_review.py [--hands 20] [--level hard] [--no-ahead]

It starts the real server (``python -m ginrummy serve`` on a free port, a fresh SQLite file)
and plays hands through the JSON API as the page does with the coach on: after each of the
person's moves that leaves the hand going, ``GET .../coach/latest`` (the remark, which assesses
and keeps that decision; with the coach off the page sends ``POST .../coach/ahead`` instead,
which does the same work without an answer), waited for as a person who reads the remark before
moving again. The person chooses like a careful beginner (``bench_web.choose``).

When a move's answer shows the hand over, the clock starts (the page has what it needs to draw
the hand's end) and the page's two requests go out at once: ``GET .../coach/latest`` for the
last move, and ``GET .../coach/hands/{n}/stream``, read line by line. What is timed, from the
clock's start:

* **list**: the stream's first line, every decision of the hand listed (turn and move in words);
* **first verdict**: the first ``decision`` line (a verdict with its reason);
* **all verdicts**: the closing ``review`` line (every verdict and the summary).

``--no-ahead`` skips the requests during the hand: every decision is then assessed by the
review itself (what the page did before it assessed ahead), for comparison.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import threading
import time

import httpx

from _common import environment_lines, load_line
from bench_web import choose, percentile, start_server


def timed_stream(client: httpx.Client, url: str, t0: float) -> tuple[float, float, float, int]:
    """Read the review's stream: seconds to the list, to the first verdict and to the whole
    review, and how many decisions it lists."""
    first_line = first_verdict = whole = float("nan")
    listed = 0
    with client.stream("GET", url) as r:
        if r.status_code != 200:
            raise SystemExit(f"unexpected answer {r.status_code}: {r.read()!r}")
        for line in r.iter_lines():
            if not line:
                continue
            event = json.loads(line)
            now = time.perf_counter() - t0
            if event["event"] == "start":
                first_line, listed = now, len(event["pending"])
            elif event["event"] == "decision" and first_verdict != first_verdict:
                first_verdict = now
            elif event["event"] == "review":
                whole = now
    return first_line, first_verdict, whole, listed


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hands", type=int, default=20, help="hands to play and review")
    ap.add_argument("--level", default="hard", help="opponent level (default hard)")
    ap.add_argument("--profile", default="traditional")
    ap.add_argument("--no-ahead", action="store_true",
                    help="no coach requests during the hand (the review assesses everything)")
    args = ap.parse_args(argv)

    folder = tempfile.mkdtemp(prefix="ginrummy-bench-review-")
    db = f"sqlite:///{os.path.join(folder, 'bench.sqlite3')}"
    for line in environment_lines(["ginrummy", "fastapi", "uvicorn", "SQLAlchemy", "httpx"]):
        print(line)
    print(f"work    : {args.hands} hands, level {args.level}, rules {args.profile}, "
          f"{'no assessing ahead' if args.no_ahead else 'coach on (each decision assessed ahead)'}")
    proc, url = start_server(db)
    lists: list[float] = []
    firsts: list[float] = []
    wholes: list[float] = []
    listed: list[int] = []
    try:
        with httpx.Client(base_url=url, timeout=120) as client, \
                httpx.Client(base_url=url, timeout=120) as side:
            token = client.post("/api/players", json={"name": "bench"}).json()["token"]
            for c in (client, side):
                c.headers["Authorization"] = f"Bearer {token}"
            for _ in range(20):  # warm up the connections and the server's imports
                client.get("/api/options")
                side.get("/api/options")
            state = client.post("/api/matches", json={"level": args.level,
                                                       "profile": args.profile}).json()
            mid = state["id"]
            # One coach request first, so the coach's own imports are not timed.
            client.get(f"/api/matches/{mid}/coach/latest")
            while len(lists) < args.hands:
                if state["status"] == "over":
                    state = client.post("/api/matches", json={"level": args.level,
                                                               "profile": args.profile}).json()
                    mid = state["id"]
                    continue
                if state["status"] == "between_hands":
                    r = client.post(f"/api/matches/{mid}/next-hand",
                                    json={"version": state["version"],
                                          "client_seed": "bench"})
                    state = r.json()
                    continue
                r = client.post(f"/api/matches/{mid}/moves",
                                json={"move": choose(state), "version": state["version"]})
                if r.status_code != 200:
                    raise SystemExit(f"unexpected answer {r.status_code}: {r.text}")
                t0 = time.perf_counter()
                state = r.json()
                hand = state["hand"]
                if not hand["result"]:
                    if not args.no_ahead:
                        client.get(f"/api/matches/{mid}/coach/latest")
                    continue
                # The hand is over: the remark on the last move and the review, at once.
                remark = threading.Thread(
                    target=side.get, args=(f"/api/matches/{mid}/coach/latest",))
                if not args.no_ahead:
                    remark.start()
                got = timed_stream(client, f"/api/matches/{mid}/coach/hands/"
                                           f"{hand['number']}/stream", t0)
                if not args.no_ahead:
                    remark.join()
                lists.append(got[0])
                firsts.append(got[1])
                wholes.append(got[2])
                listed.append(got[3])
                print(f"  hand {len(lists)}/{args.hands}: {got[3]} decisions, list "
                      f"{got[0] * 1000:.0f} ms, first verdict {got[1] * 1000:.0f} ms, all "
                      f"{got[2] * 1000:.0f} ms", file=sys.stderr, flush=True)
    finally:
        proc.terminate()
        proc.wait(timeout=15)
    ms = 1000.0
    print()
    print(f"From a hand's end to the review's results (ms), {len(lists)} hands, "
          f"{statistics.mean(listed):.1f} decisions a hand on average")
    print(f"{'what':34} {'median':>8} {'p95':>8} {'max':>8}")
    for label, xs in [("list of decisions (first line)", lists),
                      ("first verdict", firsts),
                      ("all verdicts and the summary", wholes)]:
        print(f"{label:34} {statistics.median(xs) * ms:>8.0f} "
              f"{percentile(xs, 0.95) * ms:>8.0f} {max(xs) * ms:>8.0f}")
    print(load_line("at the end"))


if __name__ == "__main__":
    main()
