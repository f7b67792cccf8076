"""Live events over a real server (``ginrummy serve`` on SQLite in a subprocess): a change made
through the API reaches an open stream, resuming from ``Last-Event-ID``, ownership, the
per-player cap, two processes on one SQLite file (the poll), and shutdown with a stream open.

Every wait is bounded: reading the stream has a read timeout, and each wait for an event reads
at most a few events before failing."""

from __future__ import annotations

import json
import signal
import subprocess
import time
from collections.abc import Iterator
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

import httpx
import pytest

from .conftest import Server, http_get, loopback_client

#: A read that gets nothing for this long fails the test (keep-alives come every 15 s).
READ_TIMEOUT = 40.0


class Events:
    """An open event stream, read event by event (comments skipped)."""

    def __init__(self, base: str, match_id: str, token: str,
                 client: httpx.Client | None = None, **headers: str) -> None:
        self.client = client or loopback_client(base_url=base, timeout=httpx.Timeout(READ_TIMEOUT))
        self._cm: AbstractContextManager[httpx.Response] = self.client.stream(
            "GET", f"/api/matches/{match_id}/events",
            headers={"Authorization": f"Bearer {token}", **headers},
        )
        self.response = self._cm.__enter__()
        self._lines = self.response.iter_lines()

    def next(self) -> dict[str, Any]:
        """The next event: ``event``, ``id`` and the parsed ``data``."""
        event: dict[str, Any] = {}
        for line in self._lines:
            if not line:
                if "data" in event:
                    return event
                continue
            if line.startswith(":"):
                continue
            name, _, value = line.partition(":")
            value = value.removeprefix(" ")
            event[name] = json.loads(value) if name == "data" else value
        raise EOFError("the stream ended")

    def until(self, kind: str, check: Any = lambda d: True, limit: int = 20) -> dict[str, Any]:
        """The first event of ``kind`` whose data passes ``check``, within ``limit`` events."""
        for _ in range(limit):
            e = self.next()
            if e.get("event") == kind and check(e["data"]):
                return e
        raise AssertionError(f"no {kind} event within {limit} events")

    def close(self) -> None:
        self._cm.__exit__(None, None, None)
        self.client.close()


class Api:
    """A player's JSON client."""

    #: How many have been made: each poses as a client address of its own (X-Forwarded-For),
    #: as the people of these tests would be, below the limit on new players per address.
    made = 0

    def __init__(self, base: str, token: str | None = None, name: str = "Ann") -> None:
        self.base = base
        Api.made += 1
        self.http = loopback_client(base_url=base, timeout=60,
                                    headers={"X-Forwarded-For": f"10.1.{Api.made // 250}."
                                             f"{Api.made % 250}"})
        if token is None:
            token = self.http.post("/api/players", json={"name": name}).json()["token"]
        self.token = token
        self.http.headers["Authorization"] = f"Bearer {token}"

    def new_match(self) -> dict[str, Any]:
        r = self.http.post("/api/matches", json={"level": "easy"})
        assert r.status_code == 201, r.text
        return dict(r.json())

    def move(self, state: dict[str, Any]) -> dict[str, Any]:
        """Play the first legal move (or deal the next hand)."""
        if state["status"] == "between_hands":
            r = self.http.post(f"/api/matches/{state['id']}/next-hand",
                               json={"version": state["version"], "client_seed": "a seed"})
        else:
            move = state["hand"]["legal_moves"][0]
            r = self.http.post(f"/api/matches/{state['id']}/moves",
                               json={"move": move, "version": state["version"]})
        assert r.status_code == 200, r.text
        return dict(r.json())

    def events(self, match_id: str, **headers: str) -> Events:
        return Events(self.base, match_id, self.token, **headers)

    def close(self) -> None:
        self.http.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp("live")
    s = Server(f"sqlite:///{folder / 'games.sqlite3'}", folder / "server.log").start()
    yield s
    s.stop()
    log = (folder / "server.log").read_text()
    assert "Traceback" not in log and "ERROR" not in log, log


@pytest.fixture()
def ann(server: Server) -> Iterator[Api]:
    api = Api(server.url)
    yield api
    api.close()


def test_a_move_from_another_tab_arrives_on_the_open_stream(ann: Api) -> None:
    state = ann.new_match()
    stream = ann.events(state["id"])
    try:
        assert stream.response.headers["content-type"].startswith("text/event-stream")
        first = stream.next()
        assert first["event"] == "version" and first["id"] == str(state["version"])
        assert first["data"] == {"type": "version", "match": state["id"],
                                 "version": state["version"]}
        presence = stream.until("presence")["data"]
        assert presence["you"] == 0
        assert [(s["seat"], s["here"]) for s in presence["seats"]] == [(0, True)]
        other_tab = Api(ann.base, ann.token)
        try:
            for _ in range(3):
                state = other_tab.move(state)
                e = stream.until("version")
                assert e["data"]["version"] == state["version"]
                assert e["id"] == str(state["version"])
        finally:
            other_tab.close()
    finally:
        stream.close()


def test_presence_while_a_stream_is_open_and_after(ann: Api, server: Server) -> None:
    state = ann.new_match()
    path = f"/api/matches/{state['id']}/presence"
    assert ann.http.get(path).json() == {"type": "presence", "match": state["id"], "you": 0,
                                         "seats": []}
    stream = ann.events(state["id"])
    try:
        shown = stream.until("presence")["data"]
        assert ann.http.get(path).json() == shown
        assert [(s["seat"], s["here"]) for s in shown["seats"]] == [(0, True)]
    finally:
        stream.close()
    # The server notes the stream's end when it sees the connection go: poll (bounded).
    for _ in range(400):
        seats = ann.http.get(path).json()["seats"]
        if not seats[0]["here"]:
            break
        time.sleep(0.05)
    assert [(s["seat"], s["here"]) for s in seats] == [(0, False)]
    assert seats[0]["last_seen"].endswith("Z")
    bob = Api(server.url, name="Bob")
    try:
        assert bob.http.get(path).status_code == 404
    finally:
        bob.close()


def test_resuming_from_last_event_id(ann: Api) -> None:
    state = ann.new_match()
    seen = state["version"]
    # Still at the version seen: nothing to catch up on, the stream starts with presence.
    stream = ann.events(state["id"], **{"Last-Event-ID": str(seen)})
    try:
        assert stream.next()["event"] == "presence"
        state = ann.move(state)
        assert stream.until("version")["data"]["version"] == state["version"]
    finally:
        stream.close()
    # Moves made while no stream was open: the newest version comes first, at once.
    state = ann.move(ann.move(state))
    for resume in ({"Last-Event-ID": str(seen)}, {}):
        path = f"/api/matches/{state['id']}/events"
        if not resume:
            path += f"?since={seen}"
        with loopback_client(base_url=ann.base, timeout=READ_TIMEOUT) as c, c.stream(
            "GET", path, headers={"Authorization": f"Bearer {ann.token}", **resume}
        ) as r:
            lines = r.iter_lines()
            head = [next(lines) for _ in range(3)]
        data = {"type": "version", "match": state["id"], "version": state["version"]}
        assert head == [f"id: {state['version']}", "event: version",
                        f"data: {json.dumps(data)}"]


def test_someone_elses_or_an_unknown_match_is_404_and_a_bad_resume_422(
    ann: Api, server: Server
) -> None:
    state = ann.new_match()
    bob = Api(server.url, name="Bob")
    try:
        for match_id in (state["id"], "nosuchmatch"):
            r = bob.http.get(f"/api/matches/{match_id}/events")
            assert r.status_code == 404
            assert r.json() == {"detail": "No such match (or it is not yours)."}
        r = http_get(f"{server.url}/api/matches/{state['id']}/events")
        assert r.status_code == 401 and "token" in r.json()["detail"]
        r = ann.http.get(f"/api/matches/{state['id']}/events",
                         headers={"Last-Event-ID": "seven"})
        assert r.status_code == 422 and r.json()["detail"]
    finally:
        bob.close()


def test_a_player_past_the_stream_cap_gets_429_with_retry_after(ann: Api) -> None:
    from ginrummy.server.live_routes import MAX_STREAMS_PER_PLAYER

    state = ann.new_match()
    streams = [ann.events(state["id"]) for _ in range(MAX_STREAMS_PER_PLAYER)]
    try:
        for s in streams:
            assert s.response.status_code == 200 and s.next()["event"] == "version"
        r = ann.http.get(f"/api/matches/{state['id']}/events")
        assert r.status_code == 429
        assert int(r.headers["retry-after"]) > 0 and "streams" in r.json()["detail"]
        streams.pop().close()
        # The closed stream's slot comes back once the server has seen it go: poll for it,
        # a bounded number of times (each refused attempt is answered at once).
        for _ in range(200):
            again = ann.events(state["id"])
            if again.response.status_code == 200:
                streams.append(again)
                break
            again.close()
        else:
            raise AssertionError("the closed stream's slot never came back")
        assert streams[-1].next()["event"] == "version"
    finally:
        for s in streams:
            s.close()


def test_two_servers_on_one_sqlite_file_see_each_others_moves(
    server: Server, tmp_path: Path
) -> None:
    second = Server(server.db_url, tmp_path / "second.log").start()
    ann = Api(server.url)
    try:
        state = ann.new_match()
        stream = ann.events(state["id"])
        try:
            assert stream.next()["data"]["version"] == state["version"]
            elsewhere = Api(second.url, ann.token)
            try:
                state = elsewhere.move(state)
            finally:
                elsewhere.close()
            assert stream.until("version")["data"]["version"] == state["version"]
        finally:
            stream.close()
    finally:
        ann.close()
        second.stop()


def sigterm_with_a_stream_open(s: Server, log_path: Path) -> tuple[int, str, Api, Events]:
    """Open a stream on the started server ``s``, send it SIGTERM, wait (bounded) for it to
    exit: its exit code, its log, the client and the stream."""
    ann = Api(s.url)
    state = ann.new_match()
    stream = ann.events(state["id"])
    assert stream.next()["event"] == "version"
    assert s.proc is not None
    s.proc.send_signal(signal.SIGTERM)
    try:
        code = s.proc.wait(timeout=60)
    except subprocess.TimeoutExpired:
        raise AssertionError("the server hung on shutdown with a stream open") from None
    return code, log_path.read_text(), ann, stream


def test_the_server_shuts_down_with_a_stream_open(tmp_path: Path) -> None:
    s = Server(f"sqlite:///{tmp_path / 'games.sqlite3'}", tmp_path / "server.log").start()
    try:
        code, log, ann, stream = sigterm_with_a_stream_open(s, tmp_path / "server.log")
        # uvicorn ends by raising the signal it caught again: -SIGTERM is its clean exit.
        assert code in (0, -signal.SIGTERM), log
        assert "ERROR" not in log and "Traceback" not in log, log
        with pytest.raises((EOFError, httpx.HTTPError)):
            for _ in range(10):
                stream.next()
        stream.close()
        ann.close()
    finally:
        s.stop()
