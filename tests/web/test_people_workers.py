"""A whole match between two people through the API, each person on a different worker process
of ``ginrummy serve --workers 2`` over a throwaway PostgreSQL database (issue 13, "Must hold").

Ann's requests and her event stream go to one worker, Bob's to the other, so every move of one
person reaches the other's stream only through PostgreSQL's ``LISTEN/NOTIFY``. Which worker
serves a request is the kernel's choice per connection: each client is held to one connection
(``max_connections=1``), asks ``GET /api/health`` which worker it reached, and checks after
every request that the connection is still the same one (a client idle for a while is asked
again first, since the server closes idle connections after a few seconds).

The match is played to its end: both people send a client seed for every hand (either may send
first), and the moves are the helpers' chooser with random legal moves mixed in (purely random
moves rarely knock, and a match of dead hands never ends; the rules' target is not something
the API lets a table lower). One move in ten is random in the default run (a match of about
370 requests on average); ``--slow`` makes it three in ten, whose matches are twice as long.
After every request the test's own ``LISTEN`` on the workers' channel must hear the new version
announced (so it went through PostgreSQL, not a later catch-up read), and both streams are read
until they show it, so every version the server answered must appear on both streams. A person
reads the table (``GET``) only when it becomes their turn; otherwise the answer to their own
last request says what they may do.

Every wait is bounded: a stream read times out, and a wait for an event reads a bounded number
of events."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
from sqlalchemy.engine import make_url

from ginrummy.cli.serve import serve
from ginrummy.engine.verify import verify_record
from ginrummy.server.live import CHANNEL

from .conftest import Server, http_post, loopback_client
from .helpers import choose
from .pg_databases import new_pg_database
from .test_live import READ_TIMEOUT, Events

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.skipif(not any(p.name == "workers" for p in serve.params),
                       reason="this ginrummy serve has no --workers"),
]

#: How many fresh connections may be tried to reach a given worker.
TRIES = 400
#: A client idle longer than this asks which worker it reaches before its next request
#: (uvicorn closes a connection idle for 5 s).
IDLE_SECONDS = 1.0
#: Most requests one match may take before the test fails.
STEPS = 4000
#: The chance of a random legal move instead of the chooser's (with --slow, and without).
WILD, WILD_DEFAULT = 0.3, 0.1
#: Longest wait for one notification on the test's own listening connection.
NOTIFY_TIMEOUT = 30.0


def _port(r: httpx.Response) -> int:
    """The local port of the connection that carried ``r``."""
    addr = r.extensions["network_stream"].get_extra_info("client_addr")
    return int(addr[1])


class Pinned:
    """An httpx client held to one connection on one worker (``worker``; ``None``: any worker
    but ``avoid``)."""

    def __init__(self, url: str, token: str | None, worker: str | None = None,
                 avoid: str | None = None) -> None:
        self.url, self.token = url, token
        self.client: httpx.Client | None = None
        self.worker, self.port, self.last = "", 0, 0.0
        self._connect(worker, avoid)

    def _new(self) -> tuple[httpx.Client, str, int]:
        client = loopback_client(base_url=self.url, timeout=httpx.Timeout(READ_TIMEOUT),
                                 limits=httpx.Limits(max_connections=1))
        if self.token is not None:
            client.headers["Authorization"] = f"Bearer {self.token}"
        r = client.get("/api/health")
        return client, str(r.json()["worker"]), _port(r)

    def _connect(self, worker: str | None, avoid: str | None = None) -> None:
        if self.client is not None:
            self.client.close()
        for _ in range(TRIES):
            client, there, port = self._new()
            if (worker is None and there != avoid) or there == worker:
                self.client, self.worker, self.port = client, there, port
                self.last = time.monotonic()
                return
            client.close()
        raise AssertionError(f"no connection reached the wanted worker in {TRIES} tries")

    def request(self, method: str, path: str, **kwargs: Any) -> httpx.Response:
        assert self.client is not None
        if time.monotonic() - self.last > IDLE_SECONDS:
            r = self.client.get("/api/health")
            if r.json()["worker"] != self.worker:  # the old connection was closed
                self._connect(self.worker)
            else:
                self.port = _port(r)
        r = self.client.request(method, path, **kwargs)
        assert _port(r) == self.port, f"{method} {path} went out on a new connection"
        self.last = time.monotonic()
        return r

    def close(self) -> None:
        if self.client is not None:
            self.client.close()


class Stream:
    """One person's event stream, held on a connection to ``worker``; remembers every version
    and presence event it read."""

    def __init__(self, url: str, token: str, match_id: str, worker: str) -> None:
        self.held = Pinned(url, token, worker)
        assert self.held.client is not None
        self.events = Events(url, match_id, token, client=self.held.client)
        port = self.events.response.extensions["network_stream"].get_extra_info(
            "client_addr")[1]
        assert port == self.held.port, "the stream opened a connection of its own"
        self.versions: list[int] = []
        self.presence: list[dict[str, Any]] = []

    def reach(self, version: int, limit: int = 50) -> None:
        """Read events until one shows ``version`` or later (at most ``limit`` events)."""
        for _ in range(limit):
            if self.versions and self.versions[-1] >= version:
                return
            e = self.events.next()
            if e.get("event") == "version":
                self.versions.append(int(e["data"]["version"]))
            elif e.get("event") == "presence":
                self.presence.append(e["data"])
        raise AssertionError(f"version {version} not seen within {limit} events")

    def close(self) -> None:
        self.events.close()


class Person:
    """A person at the table: their requests on one worker, their stream on the same one."""

    def __init__(self, url: str, name: str, worker: str | None = None,
                 avoid: str | None = None) -> None:
        token = http_post(url + "/api/players", json={"name": name}, timeout=30).json()["token"]
        self.url, self.token = url, token
        self.http = Pinned(url, token, worker, avoid)
        self.worker = self.http.worker
        self.stream: Stream | None = None

    def post(self, path: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
        r = self.http.request("POST", path, json=body)
        assert r.status_code in (200, 201), r.text
        return dict(r.json())

    def get(self, path: str) -> dict[str, Any]:
        r = self.http.request("GET", path)
        assert r.status_code == 200, r.text
        return dict(r.json())

    def listen(self, match_id: str) -> Stream:
        self.stream = Stream(self.url, self.token, match_id, self.worker)
        return self.stream

    def close(self) -> None:
        if self.stream is not None:
            self.stream.close()
        self.http.close()


class Notifications:
    """The test's own ``LISTEN`` on the workers' channel: which versions of a match the
    workers announced through PostgreSQL (not merely through a later catch-up read)."""

    def __init__(self, db_url: str) -> None:
        conninfo = make_url(db_url).set(drivername="postgresql").render_as_string(
            hide_password=False)
        self.conn = psycopg.connect(conninfo, autocommit=True)
        self.conn.execute(f"LISTEN {CHANNEL}")
        self.versions: dict[str, set[int]] = {}

    def reach(self, match_id: str, version: int) -> None:
        """Read notifications until one announces ``version`` of ``match_id`` (bounded)."""
        seen = self.versions.setdefault(match_id, set())
        while version not in seen:
            got = False
            for n in self.conn.notifies(timeout=NOTIFY_TIMEOUT, stop_after=1):
                got = True
                _sender, match, v = n.payload.split(" ")
                if v != "p":  # "p": a presence change
                    self.versions.setdefault(match, set()).add(int(v))
            assert got, f"no NOTIFY of version {version} within {NOTIFY_TIMEOUT} s"

    def close(self) -> None:
        self.conn.close()


@pytest.fixture()
def server(pg_url: str, tmp_path: Path) -> Iterator[Server]:
    for db in new_pg_database(pg_url):
        s = Server(db, tmp_path / "server.log", ("--workers", "2")).start()
        try:
            yield s
        finally:
            s.stop()
    log = (tmp_path / "server.log").read_text()
    assert "Traceback" not in log, log


def test_a_whole_match_between_people_on_two_workers_hears_every_move(
    server: Server, request: pytest.FixtureRequest
) -> None:
    wild = WILD if request.config.getoption("--slow") else WILD_DEFAULT
    rng = random.Random(13)
    ann = Person(server.url, "Ann")
    bob = Person(server.url, "Bob", avoid=ann.worker)
    people = (ann, bob)
    heard = Notifications(server.db_url)
    try:
        assert ann.worker != bob.worker
        made = ann.post("/api/matches", {"opponent": "person", "profile": "modern"})
        mid = made["id"]
        joined = bob.post(f"/api/invites/{made['invite']}")
        assert joined["id"] == mid and joined["seat"] == 1
        streams = (ann.listen(mid), bob.listen(mid))
        answered = [joined["version"]]
        heard.reach(mid, joined["version"])
        for s in streams:
            s.reach(joined["version"])
        deals = 0
        # The last answer, and whose: the next move is read from it when that person is to
        # play again (drawing, then discarding), else from the other person's own state.
        last, seat = joined, 1
        for _step in range(STEPS):
            state = last
            if state["status"] == "over":
                break
            if state["status"] == "between_hands":
                seat = rng.choice([s for s in (0, 1) if not state["people"]["seeds_in"][s]])
                out = people[seat].post(f"/api/matches/{mid}/next-hand", {
                    "client_seed": f"{people[seat].token[:6]} {rng.random()}",
                    "version": state["version"]})
                deals += out["hand"] is not None
            else:
                if not state["hand"]["your_turn"]:
                    seat = 1 - seat
                    state = people[seat].get(f"/api/matches/{mid}")
                    assert state["version"] == last["version"]
                assert state["hand"]["your_turn"]
                out = people[seat].post(f"/api/matches/{mid}/moves", {
                    "move": choose(state, rng, wild=wild), "version": state["version"]})
            last = out
            answered.append(out["version"])
            heard.reach(mid, out["version"])
            # Both people hear of it before anyone moves again: the mover's stream from its
            # own worker, the other's across processes (PostgreSQL NOTIFY).
            for s in streams:
                s.reach(out["version"])
        else:
            pytest.fail(f"the match did not end in {STEPS} requests")

        final = [p.get(f"/api/matches/{mid}") for p in people]
        assert [f["status"] for f in final] == ["over", "over"]
        assert final[0]["version"] == final[1]["version"] == answered[-1]
        assert deals >= 1 and final[0]["meta"]["sealed"]["hand"]["client_seeds"]
        for seat, s in enumerate(streams):
            assert s.versions == sorted(set(s.versions)), "versions out of order or repeated"
            missed = sorted(set(answered) - set(s.versions))
            assert not missed, f"seat {seat}'s stream never showed versions {missed}"
            assert s.versions[-1] == answered[-1]
            # The other person's stream opening (on the other worker) was told here too.
            other_here = [p for p in s.presence
                          if any(x["seat"] == 1 - seat and x["here"] for x in p["seats"])]
            assert other_here, f"seat {seat} never saw the other person here"
        # A rematch across the workers: a repeated offer changes nothing; a hand of the new
        # match cut short by a resignation on one worker is revealed on the other and its
        # record verifies there.
        offered = bob.post(f"/api/matches/{mid}/rematch")
        assert bob.post(f"/api/matches/{mid}/rematch")["version"] == offered["version"]
        again = ann.post(f"/api/matches/{mid}/rematch")["people"]["rematch"]
        for n, p in enumerate(people):
            state = p.get(f"/api/matches/{again}")
            p.post(f"/api/matches/{again}/next-hand",
                   {"client_seed": f"seed {n}", "version": state["version"]})
        ann.post(f"/api/matches/{again}/resign")
        sealed = bob.get(f"/api/matches/{again}")["meta"]["sealed"]["hand"]
        assert sealed["server_seed"] is not None and sealed["deck"] is not None
        record = bob.http.request("GET", f"/api/matches/{again}/record")
        assert record.status_code == 200, record.text
        assert verify_record(record.text).ok
        # Both requests and streams stayed on their workers.
        for p in people:
            assert p.get("/api/health")["worker"] == p.worker
    finally:
        heard.close()
        for p in people:
            p.close()
