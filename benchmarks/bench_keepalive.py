"""Keep-alive round trips on ``ginrummy serve --workers N``: ms per request, p50/p95/max.

Run from the repository root::

    python benchmarks/bench_keepalive.py [--workers 2] [--requests 300] [--db URL]

It starts the real server on a free port (a fresh SQLite file unless ``--db`` is given) and
sends ``GET /api/health`` and ``GET /api/options`` over one keep-alive connection, one request
after another. Nagle's algorithm on the server's sockets shows here as a floor of about 40 ms
(a delayed ACK per answer); with ``TCP_NODELAY`` on, as ``serve`` sets it up in every worker,
the figures stay near the bare HTTP cost.
"""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import tempfile
import time

import httpx


def _at(ordered: list[float], q: float) -> float:
    """The ``q`` quantile of sorted figures (nearest rank)."""
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--requests", type=int, default=300)
    ap.add_argument("--db", default=None, help="database URL (default: a fresh SQLite file)")
    args = ap.parse_args(argv)
    db = args.db or "sqlite:///" + os.path.join(tempfile.mkdtemp(), "bench.sqlite3")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen(
        [sys.executable, "-m", "ginrummy", "serve", "--port", str(port), "--db", db,
         "--workers", str(args.workers)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(url + "/api/health", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline or proc.poll() is not None:
                raise SystemExit("the server did not start")
            time.sleep(0.05)  # polling for readiness, bounded by the deadline
        print(f"workers {args.workers}, {args.requests} requests each, db {db}")
        with httpx.Client(base_url=url, timeout=30) as client:
            for _ in range(20):
                client.get("/api/health")
            for path in ("/api/health", "/api/options"):
                times = []
                for _ in range(args.requests):
                    t0 = time.perf_counter()
                    r = client.get(path)
                    times.append((time.perf_counter() - t0) * 1000)
                    r.raise_for_status()
                times.sort()
                print(f"{path:14} p50 {_at(times, 0.5):6.2f} ms  p95 {_at(times, 0.95):6.2f} ms"
                      f"  max {times[-1]:6.2f} ms")
    finally:
        proc.terminate()
        proc.wait(timeout=30)


if __name__ == "__main__":
    main()
