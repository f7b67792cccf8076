"""Live events with ``ginrummy serve --workers 2`` (skipped where ``serve`` has no
``--workers``): a stream held on one worker process hears moves made on the other, on SQLite
(the poll) and on PostgreSQL (``LISTEN/NOTIFY``). Which worker serves a request is the
kernel's choice per connection, so each client here keeps one connection and asks
``GET /api/health`` which worker it reached."""

from __future__ import annotations

import signal
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from ginrummy.cli.serve import serve

from .conftest import Server, loopback_client
from .test_live import READ_TIMEOUT, Api, Events, sigterm_with_a_stream_open

pytestmark = pytest.mark.skipif(
    not any(p.name == "workers" for p in serve.params),
    reason="this ginrummy serve has no --workers",
)

#: How many fresh connections may be tried to reach the other worker.
TRIES = 400


def one_connection(url: str) -> tuple[httpx.Client, str]:
    """A client held to one connection, and the worker that connection reached."""
    client = loopback_client(base_url=url, timeout=httpx.Timeout(READ_TIMEOUT),
                             limits=httpx.Limits(max_connections=1))
    return client, str(client.get("/api/health").json()["worker"])


# Across workers on PostgreSQL the people's match of test_people_workers.py hears every move
# by default; this one joins it with --slow.
@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.slow)])
def server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Server]:
    if request.param == "sqlite":
        db = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    else:
        db = request.getfixturevalue("pg_url")
    s = Server(db, tmp_path / "server.log", ("--workers", "2")).start()
    yield s
    s.stop()


def test_a_move_on_one_worker_reaches_a_stream_on_the_other(server: Server) -> None:
    ann = Api(server.url)
    state = ann.new_match()
    held, here = one_connection(server.url)
    held.headers["Authorization"] = f"Bearer {ann.token}"
    stream = Events(server.url, state["id"], ann.token, client=held)
    other: httpx.Client | None = None
    try:
        assert stream.next()["data"]["version"] == state["version"]
        for _ in range(TRIES):
            other, there = one_connection(server.url)
            if there != here:
                break
            other.close()
            other = None
        assert other is not None, "every connection reached the stream's worker"
        mover = Api(server.url, ann.token)
        mover.http.close()
        mover.http = other
        other.headers["Authorization"] = f"Bearer {ann.token}"
        for _ in range(3):
            state = mover.move(state)
            assert other.get("/api/health").json()["worker"] == there  # still the other one
            assert stream.until("version")["data"]["version"] == state["version"]
    finally:
        stream.close()
        if other is not None:
            other.close()
        ann.close()


def test_shutdown_with_a_stream_open_on_a_worker(tmp_path: Path) -> None:
    s = Server(f"sqlite:///{tmp_path / 'games.sqlite3'}", tmp_path / "server.log",
               ("--workers", "2")).start()
    try:
        code, log, ann, stream = sigterm_with_a_stream_open(s, tmp_path / "server.log")
        assert code in (0, -signal.SIGTERM), log
        assert "Traceback" not in log, log
        stream.close()
        ann.close()
    finally:
        s.stop()
