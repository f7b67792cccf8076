"""``ginrummy serve --workers 2`` on SQLite and on PostgreSQL: both workers answer on the one
port, a match plays on whichever answers, and a ``kill -9`` of a worker in mid-match loses no
acknowledged move (uvicorn's supervisor starts a new worker; the other serves meanwhile).

One server per database serves the whole module (a two-worker server takes seconds to start).
So that the rate-limit test counts from a fresh budget whatever ran before it, the other tests
make their players in the database, not through ``POST /api/players``; and the test that kills
a worker comes last (it waits for the new worker, so a test after it would still find two).
"""

from __future__ import annotations

import os
import secrets
import signal
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from ginrummy.server.store import Store

from .conftest import STARTUP_SECONDS, Server, http_get, http_post, loopback_client, retried
from .helpers import choose
from .pg_databases import database_url

#: How many fresh connections are tried to reach a given worker (or another one).
TRIES = 400
#: New connections per look for workers not seen yet (two workers share them at random).
ROUND = 20


# PostgreSQL with two workers is also the reliability suite's default deployment
# (test_reliability.py: simultaneous starts, kill -9 of a worker): here with --slow.
@pytest.fixture(scope="module", params=[
    "sqlite", pytest.param("postgresql", marks=[pytest.mark.postgres, pytest.mark.slow])])
def db_url(request: pytest.FixtureRequest,
           tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    yield from database_url(request, tmp_path_factory.mktemp("serve-workers"))


@pytest.fixture(scope="module")
def server(db_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    s = Server(db_url, tmp_path_factory.mktemp("server") / "server.log",
               ("--workers", "2")).start()
    yield s
    s.stop()


def _auth(server: Server, name: str = "Ann") -> dict[str, str]:
    """A new player's header, the player made in the server's database: the server limits
    new players per address, which the rate-limit test counts from zero."""
    store = Store(server.db_url)
    try:
        _info, token = store.create_player(name)
    finally:
        store.close()
    return {"Authorization": f"Bearer {token}"}


def _workers_seen(url: str, want: int, avoid: frozenset[str] = frozenset()) -> set[str]:
    """Worker ids answering ``GET /api/health`` on new connections, until ``want`` ids not in
    ``avoid`` are seen (or :data:`STARTUP_SECONDS` have passed: a killed worker's replacement
    takes the time of a process start)."""
    seen: set[str] = set()
    deadline = time.monotonic() + STARTUP_SECONDS
    while time.monotonic() < deadline:
        for _ in range(ROUND):
            try:
                answer = http_get(url + "/api/health", timeout=10).json()
            except httpx.TransportError:
                continue  # a worker being replaced
            assert answer["ok"] is True
            if answer["worker"] not in avoid:
                seen.add(answer["worker"])
            if len(seen) >= want:
                return seen
        # ROUND new connections reached no new worker: poll again while one starts.
        time.sleep(0.05)
    return seen


def _worker_pids(parent: int) -> list[int]:
    """The uvicorn worker processes under ``parent`` (from /proc: spawned children)."""
    pids = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
            cmdline = Path(f"/proc/{entry}/cmdline").read_bytes()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        if ppid == parent and b"spawn_main" in cmdline:
            pids.append(int(entry))
    return pids


def _step(url: str, auth: dict[str, str], state: dict[str, Any]) -> dict[str, Any]:
    """One request of the person (deal or move), on a new connection; the new state."""
    mid = state["id"]
    if state["status"] == "between_hands" or state["hand"] is None:
        r = http_post(f"{url}/api/matches/{mid}/next-hand", headers=auth, timeout=30,
                      json={"version": state["version"], "client_seed": secrets.token_hex(8)})
    else:
        r = http_post(f"{url}/api/matches/{mid}/moves", headers=auth, timeout=30,
                      json={"move": choose(state), "version": state["version"]})
    assert r.status_code == 200, r.text
    return dict(r.json())


def test_simultaneous_starts_on_two_workers_leave_one_match_playing(server: Server) -> None:
    import threading

    url = server.url
    assert len(_workers_seen(url, 2)) == 2
    auth = _auth(server)
    for _ in range(10):
        start = threading.Barrier(2)
        codes: list[int] = []
        made: list[str] = []

        def go(start: threading.Barrier = start, codes: list[int] = codes,
               made: list[str] = made) -> None:
            with loopback_client(base_url=url, headers=auth, timeout=30) as client:
                client.get("/api/health")  # connected before the race starts
                start.wait()
                r = client.post("/api/matches",
                                json={"level": "random", "forfeit_current": True})
            codes.append(r.status_code)
            if r.status_code == 201:
                made.append(r.json()["id"])

        threads = [threading.Thread(target=go) for _ in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sorted(codes) in ([201, 201], [201, 409])
        statuses = [http_get(f"{url}/api/matches/{m}", headers=auth, timeout=30).json()["status"]
                    for m in made]
        unfinished = [s for s in statuses if s != "abandoned"]
        assert len(unfinished) == 1, statuses


def _client_on(url: str, worker: str) -> httpx.Client:
    """A client whose one connection reached ``worker`` (new connections until one does)."""
    for _ in range(TRIES):
        client = loopback_client(base_url=url, timeout=30,
                                 limits=httpx.Limits(max_connections=1))
        try:
            if client.get("/api/health").json()["worker"] == worker:
                return client
        except httpx.TransportError:
            pass
        client.close()
    raise AssertionError(f"no connection reached worker {worker} in {TRIES} tries")


def test_a_rate_limit_counts_the_requests_of_every_worker(server: Server) -> None:
    """New players from one address (10 a minute), sent to the two workers in turn: the 11th
    is refused, whichever worker gets it (each counting alone would let 20 through). Malformed
    requests first, to both workers: each a 422, and none uses up the allowance (the worker
    that refused it takes its count back in the shared database)."""
    url = server.url
    workers = sorted(_workers_seen(url, 2))
    assert len(workers) == 2
    clients = {w: _client_on(url, w) for w in workers}  # one kept-alive connection each
    answers: list[tuple[str, int]] = []
    try:
        for i in range(4):
            malformed = clients[workers[i % 2]].post("/api/players", json={"name": 7})
            assert malformed.status_code == 422, malformed.text
        for i in range(16):
            worker = workers[i % 2]
            r = clients[worker].post("/api/players", json={"name": "Kim"})
            answers.append((worker, r.status_code))
            if r.status_code == 429:
                assert r.json()["detail"].startswith(
                    "Too many new players: at most 10 per minute.")
                assert int(r.headers["retry-after"]) >= 1
        for worker, client in clients.items():  # still the same connections
            assert client.get("/api/health").json()["worker"] == worker
    finally:
        for client in clients.values():
            client.close()
    assert [code for _, code in answers] == [201] * 10 + [429] * 6
    assert {w for w, code in answers if code == 201} == set(workers)
    assert {w for w, code in answers if code == 429} == set(workers)


def test_two_workers_answer_and_a_match_survives_a_worker_killed(server: Server) -> None:
    url = server.url
    first = _workers_seen(url, 2)
    assert len(first) == 2
    assert server.proc is not None
    pids = _worker_pids(server.proc.pid)
    assert len(pids) == 2

    auth = _auth(server)
    r = http_post(url + "/api/matches", json={"level": "random"}, headers=auth, timeout=30)
    assert r.status_code == 201, r.text
    state = r.json()
    for _ in range(10):
        state = _step(url, auth, state)
    acknowledged = state

    os.kill(pids[0], signal.SIGKILL)
    # The match as acknowledged, from whichever worker answers (retrying a refused connect).
    r = retried(lambda: http_get(f"{url}/api/matches/{state['id']}", headers=auth, timeout=30))
    assert r.status_code == 200
    again = r.json()
    assert again["version"] == acknowledged["version"]
    assert again["hand"] == acknowledged["hand"]

    # A new worker replaces the killed one; the match plays on across both.
    fresh = _workers_seen(url, 1, avoid=frozenset(first))
    assert len(fresh) == 1
    for _ in range(10):
        if state["status"] == "over":
            break
        state = _step(url, auth, state)
    assert state["version"] > acknowledged["version"]
