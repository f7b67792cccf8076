"""``ginrummy serve --workers 2`` on SQLite and on PostgreSQL: both workers answer on the one
port, a match plays on whichever answers, and a ``kill -9`` of a worker in mid-match loses no
acknowledged move (uvicorn's supervisor starts a new worker; the other serves meanwhile)."""

from __future__ import annotations

import os
import secrets
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from .conftest import Server
from .helpers import choose
from .pg_databases import new_pg_database

#: How many fresh connections may be tried before both workers must have answered.
TRIES = 400


# PostgreSQL with two workers is also the reliability suite's default deployment
# (test_reliability.py: simultaneous starts, kill -9 of a worker): here with --slow.
@pytest.fixture(params=["sqlite", pytest.param("postgresql",
                                               marks=[pytest.mark.postgres, pytest.mark.slow])])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'games.sqlite3'}"
        return
    yield from new_pg_database(request.getfixturevalue("pg_url"))


@pytest.fixture()
def server(db_url: str, tmp_path: Path) -> Iterator[Server]:
    s = Server(db_url, tmp_path / "server.log", ("--workers", "2")).start()
    yield s
    s.stop()


def _workers_seen(url: str, want: int, avoid: frozenset[str] = frozenset()) -> set[str]:
    """Worker ids answering ``GET /api/health`` on new connections, until ``want`` ids not in
    ``avoid`` are seen (or :data:`TRIES` connections were made)."""
    seen: set[str] = set()
    for _ in range(TRIES):
        try:
            answer = httpx.get(url + "/api/health", timeout=10).json()
        except httpx.TransportError:
            continue  # a worker being replaced
        assert answer["ok"] is True
        if answer["worker"] not in avoid:
            seen.add(answer["worker"])
        if len(seen) >= want:
            break
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
        r = httpx.post(f"{url}/api/matches/{mid}/next-hand", headers=auth, timeout=30,
                       json={"version": state["version"], "client_seed": secrets.token_hex(8)})
    else:
        r = httpx.post(f"{url}/api/matches/{mid}/moves", headers=auth, timeout=30,
                       json={"move": choose(state), "version": state["version"]})
    assert r.status_code == 200, r.text
    return dict(r.json())


def test_two_workers_answer_and_a_match_survives_a_worker_killed(server: Server) -> None:
    url = server.url
    first = _workers_seen(url, 2)
    assert len(first) == 2
    assert server.proc is not None
    pids = _worker_pids(server.proc.pid)
    assert len(pids) == 2

    r = httpx.post(url + "/api/players", json={"name": "Ann"}, timeout=30)
    auth = {"Authorization": f"Bearer {r.json()['token']}"}
    r = httpx.post(url + "/api/matches", json={"level": "random"}, headers=auth, timeout=30)
    assert r.status_code == 201, r.text
    state = r.json()
    for _ in range(10):
        state = _step(url, auth, state)
    acknowledged = state

    os.kill(pids[0], signal.SIGKILL)
    # The match as acknowledged, from whichever worker answers (retrying a refused connect).
    for _ in range(TRIES):
        try:
            r = httpx.get(f"{url}/api/matches/{state['id']}", headers=auth, timeout=30)
            break
        except httpx.TransportError:
            continue
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


def test_simultaneous_starts_on_two_workers_leave_one_match_playing(server: Server) -> None:
    import threading

    url = server.url
    assert len(_workers_seen(url, 2)) == 2
    token = httpx.post(url + "/api/players", json={"name": "Ann"}, timeout=30).json()["token"]
    auth = {"Authorization": f"Bearer {token}"}
    for _ in range(10):
        start = threading.Barrier(2)
        codes: list[int] = []
        made: list[str] = []

        def go(start: threading.Barrier = start, codes: list[int] = codes,
               made: list[str] = made) -> None:
            with httpx.Client(base_url=url, headers=auth, timeout=30) as client:
                client.get("/api/health")  # connected before the race starts
                start.wait()
                r = client.post("/api/matches", json={"level": "random"})
            codes.append(r.status_code)
            if r.status_code == 201:
                made.append(r.json()["id"])

        threads = [threading.Thread(target=go) for _ in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sorted(codes) in ([201, 201], [201, 409])
        statuses = [httpx.get(f"{url}/api/matches/{m}", headers=auth, timeout=30).json()["status"]
                    for m in made]
        unfinished = [s for s in statuses if s != "abandoned"]
        assert len(unfinished) == 1, statuses
