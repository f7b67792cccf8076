"""The server's bounds against abuse (issue 37, items 4 to 6) through a real ``ginrummy serve
--workers 2``, on SQLite and on PostgreSQL: the rate limits count the requests of both workers,
one answer for unknown and used codes from either worker, the lobby's bounds in the shared
database, the event streams' bounds per worker with a full worker shedding its longest idle
stream, and half-sent requests closed by the server while a normal client is served.

The test poses as many client addresses by sending ``X-Forwarded-For`` from loopback (which
uvicorn trusts from 127.0.0.1). The server runs with small bounds where the defaults would take
long to reach (``--header-timeout 1``, ``--body-timeout 1``, 4 streams a worker, 2 per address);
the rate limits are the defaults. The exact edges are tested in process: test_abuse_limits.py.
"""

from __future__ import annotations

import random
import socket
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from sqlalchemy import text

from ginrummy.server.store import Store

from .conftest import STARTUP_SECONDS, Server
from .pg_databases import database_url
from .test_live import Events
from .test_serve_workers import _client_on, _workers_seen

#: The server's bounds in this module (see the docstring).
ARGS = ("--workers", "2", "--header-timeout", "1", "--body-timeout", "1", "--max-streams", "4",
        "--streams-per-address", "2")
#: How long past its timeout a half-sent request may stay open before the test fails (the
#: server closes it at the timeout; this is only the poll's bound on a loaded machine).
MARGIN = 10.0

#: New matches, each ending the player's last (their yes given: issue 37 item 1).
PERSON = {"opponent": "person", "forfeit_current": True}
COMPUTER = {"level": "random", "forfeit_current": True}
OPEN_TABLE = {"opponent": "person", "open": True, "forfeit_current": True}


@pytest.fixture(scope="module", params=["sqlite",
                                        pytest.param("postgresql", marks=pytest.mark.postgres)])
def server(request: pytest.FixtureRequest,
           tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp("abuse")
    for db in database_url(request, folder):
        s = Server(db, folder / "server.log", ARGS).start()
        yield s
        s.stop()
        log = (folder / "server.log").read_text()
        assert "Traceback" not in log and "ERROR" not in log, log


@pytest.fixture()
def workers(server: Server) -> Iterator[dict[str, httpx.Client]]:
    """A kept-alive client on each of the two workers (new for each test: the server closes
    a connection idle for 5 s)."""
    seen = sorted(_workers_seen(server.url, 2))
    assert len(seen) == 2
    clients = {w: _client_on(server.url, w) for w in seen}
    yield clients
    for c in clients.values():
        c.close()


def _tokens(server: Server, count: int) -> list[str]:
    """New players made in the database (the server bounds new players per address)."""
    store = Store(server.db_url, migrate=False)
    try:
        return [store.create_player(f"p{n}")[1] for n in range(count)]
    finally:
        store.close()


def _as(address: str, token: str | None = None) -> dict[str, str]:
    headers = {"X-Forwarded-For": address}
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    return headers


def _send(workers: dict[str, httpx.Client], n: int, method: str, path: str,
          **kwargs: Any) -> tuple[str, int, httpx.Response]:
    """The ``n``-th request of a series, to the workers in turn."""
    worker = sorted(workers)[n % 2]
    r = workers[worker].request(method, path, **kwargs)
    return worker, r.status_code, r


def _code() -> str:
    return "".join(random.choice("ABCDEFGHJKMNPQRSTUVWXYZ23456789") for _ in range(8))


def test_the_rate_limits_count_the_requests_of_both_workers(
    server: Server, workers: dict[str, httpx.Client]
) -> None:
    """Each kind the issue found unbounded, sent to the two workers in turn from an address of
    its own: exactly the default limit's number is let through, then 429 with Retry-After,
    from either worker (each counting alone would let twice as many through)."""
    ann, bob, cy = _tokens(server, 3)
    series = [
        ("players", 10, 12, lambda: ("POST", "/api/players", {"json": {"name": "Kim"}})),
        ("matches", 30, 32, lambda: ("POST", "/api/matches", {
            "json": PERSON, "token": ann})),
        ("joins", 20, 22, lambda: ("POST", f"/api/invites/{_code()}", {"token": bob})),
        ("claims", 5, 7, lambda: ("POST", "/api/players/claim", {
            "json": {"code": "ABCD-EFGH-JKMN"}})),
        ("transfer codes", 5, 7, lambda: ("POST", "/api/me/transfer-code", {"token": cy})),
    ]
    for k, (what, limit, tried, request) in enumerate(series):
        answers = []
        for n in range(tried):
            method, path, options = request()
            headers = _as(f"10.20.{k}.1", options.pop("token", None))
            answers.append(_send(workers, n, method, path, headers=headers, **options))
        codes = [code != 429 for _w, code, _r in answers]
        assert codes == [True] * limit + [False] * (tried - limit), (what, answers)
        for _w, code, r in answers:
            if code == 429:
                assert r.json()["detail"].startswith("Too many")
                assert int(r.headers["retry-after"]) >= 1
        assert {w for w, code, _r in answers if code != 429} == set(workers), what
        assert {w for w, code, _r in answers if code == 429} == set(workers), what


def test_unknown_used_and_closed_codes_get_one_answer_from_either_worker(
    server: Server, workers: dict[str, httpx.Client]
) -> None:
    one, two = (workers[w] for w in sorted(workers))
    ann, bob, cy, dan = _tokens(server, 4)
    made = one.post("/api/matches", json=PERSON,
                    headers=_as("10.21.0.1", ann)).json()
    assert two.post(f"/api/invites/{made['invite']}",
                    headers=_as("10.21.0.2", bob)).status_code == 200
    gone = two.post("/api/matches", json=PERSON,
                    headers=_as("10.21.0.3", dan)).json()
    one.post("/api/matches", json=COMPUTER, headers=_as("10.21.0.3", dan))
    answers = [client.post(f"/api/invites/{key}", headers=_as("10.21.0.4", cy))
               for client in (one, two)
               for key in (_code(), made["invite"], made["people"]["code"], gone["invite"])]
    assert {(r.status_code, r.json()["detail"]) for r in answers} == {
        (404, answers[0].json()["detail"])}
    # Bob sits at the table already: its state, the same version, from either worker.
    again = [c.post(f"/api/invites/{made['invite']}", headers=_as("10.21.0.2", bob)).json()
             for c in (one, two)]
    assert {(s["seat"], s["version"]) for s in again} == {(1, again[0]["version"])}

    code = one.post("/api/me/transfer-code", headers=_as("10.21.0.5", ann)).json()["code"]
    assert two.post("/api/players/claim", json={"code": code},
                    headers=_as("10.21.0.6")).status_code == 200
    claims = [c.post("/api/players/claim", json={"code": guess}, headers=_as("10.21.0.6"))
              for c in (one, two) for guess in (code, "ABCD-EFGH-JKMN")]
    assert {(r.status_code, r.json()["detail"]) for r in claims} == {
        (404, claims[0].json()["detail"])}


def _age(server: Server, match_ids: list[str], seconds: float) -> None:
    """The creators of these tables last seen ``seconds`` earlier than recorded (as if they
    had gone quiet that long)."""
    store = Store(server.db_url, migrate=False)
    try:
        with store.engine.begin() as db:
            for match_id in match_ids:
                db.execute(text("UPDATE people_tables SET seen0 = seen0 - :s WHERE match_id = :m"),
                           {"s": seconds, "m": match_id})
    finally:
        store.close()


def test_the_lobby_lists_a_few_tables_an_address_and_only_creators_who_are_here(
    server: Server, workers: dict[str, httpx.Client]
) -> None:
    tokens = _tokens(server, 8)
    flood = [_send(workers, n, "POST", "/api/matches", json=OPEN_TABLE,
                   headers=_as("10.22.0.1", t))[2].json() for n, t in enumerate(tokens[:7])]
    person = workers[sorted(workers)[0]].post(
        "/api/matches", json=OPEN_TABLE,
        headers=_as("10.22.0.2", tokens[7])).json()
    flooded = {t["invite"] for t in flood}
    for client in workers.values():
        listed = {t["invite"] for t in client.get("/api/lobby").json()}
        assert person["invite"] in listed and len(listed & flooded) == 3

    _age(server, [t["id"] for t in flood], 60)  # silent a minute: not listed, not closed
    for client in workers.values():
        listed = {t["invite"] for t in client.get("/api/lobby").json()}
        assert person["invite"] in listed and not listed & flooded
    _age(server, [t["id"] for t in flood], 120)  # past the grace period: closed on the way
    one = workers[sorted(workers)[1]]
    assert person["invite"] in {t["invite"] for t in one.get("/api/lobby").json()}
    state = one.get(f"/api/matches/{flood[0]['id']}", headers=_as("10.22.0.1", tokens[0]))
    assert state.json()["status"] == "abandoned"
    (joiner,) = _tokens(server, 1)
    r = one.post(f"/api/invites/{flood[1]['invite']}", headers=_as("10.22.0.3", joiner))
    assert r.status_code == 404


def _stream_on(server: Server, worker: str, token: str, match_id: str, address: str) -> Events:
    """An event stream on a connection of its own to ``worker``."""
    client = _client_on(server.url, worker)
    client.timeout = httpx.Timeout(30)
    return Events(server.url, match_id, token, client, **{"X-Forwarded-For": address})


def test_streams_are_bounded_per_address_and_a_full_worker_sheds_the_longest_idle(
    server: Server, workers: dict[str, httpx.Client]
) -> None:
    tokens = _tokens(server, 6)
    matches = [workers[sorted(workers)[0]].post(
        "/api/matches", json=COMPUTER, headers=_as(f"10.23.0.{n}", t)).json()["id"]
        for n, t in enumerate(tokens)]
    first = sorted(workers)[0]
    streams: list[Events] = []
    try:
        # One address: two streams on this worker (two players), a third is refused.
        for n in (0, 1):
            streams.append(_stream_on(server, first, tokens[n], matches[n], "10.23.1.1"))
            assert streams[-1].response.status_code == 200
            assert streams[-1].next()["event"] == "version"
        over = _stream_on(server, first, tokens[2], matches[2], "10.23.1.1")
        assert over.response.status_code == 429 and "address" in over.response.read().decode()
        over.close()
        # Two more addresses fill the worker (4 streams).
        for n in (2, 3):
            streams.append(_stream_on(server, first, tokens[n], matches[n], f"10.23.2.{n}"))
            assert streams[-1].response.status_code == 200
            assert streams[-1].next()["event"] == "version"
        # A fresh player at a new address is let in; the longest idle stream (the first, no
        # event since it opened) ends cleanly, so a page would reconnect later.
        fresh = _stream_on(server, first, tokens[4], matches[4], "10.23.3.1")
        streams.append(fresh)
        assert fresh.response.status_code == 200 and fresh.next()["event"] == "version"
        with pytest.raises(EOFError):
            for _ in range(5):
                streams[0].next()
        # The others stay open: each still answers a change of its match.
        moved = workers[first].post(f"/api/matches/{matches[1]}/next-hand", json={
            "client_seed": "a seed"}, headers=_as("10.23.0.1", tokens[1]))
        assert moved.status_code == 200, moved.text
        assert streams[1].until("version")["data"]["version"] == moved.json()["version"]
    finally:
        for s in streams:
            s.close()


def test_half_sent_requests_are_closed_while_a_normal_client_is_served(
    server: Server, workers: dict[str, httpx.Client]
) -> None:
    """200 connections send half a request head, 20 send nothing, 20 send a head and half a
    body: the server closes all of them about a second later (a 408 to those that sent part
    of a request), while a kept-alive client goes on being answered. On a server without a
    request-head timeout they stay open (the issue: 3,000 for 45 s)."""
    host, port = server.url.removeprefix("http://").split(":")
    half_head = b"GET /api/health HTTP/1.1\r\nHost: x\r\nX-Slow: "
    half_body = (b"POST /api/players HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                 b"Content-Length: 100\r\nX-Forwarded-For: 10.24.0.1\r\n\r\n{\"name\"")
    kinds = [half_head] * 200 + [b""] * 20 + [half_body] * 20
    socks: list[socket.socket] = []
    started = time.monotonic()
    for sent in kinds:
        sock = socket.create_connection((host, int(port)), timeout=STARTUP_SECONDS)
        sock.sendall(sent)
        sock.setblocking(False)
        socks.append(sock)
    received = [b""] * len(socks)
    closed = [False] * len(socks)
    served = 0
    normal = next(iter(workers.values()))
    try:
        deadline = started + 1 + MARGIN
        while not all(closed) and time.monotonic() < deadline:
            for i, sock in enumerate(socks):
                if closed[i]:
                    continue
                try:
                    data = sock.recv(65536)
                except BlockingIOError:
                    continue
                except OSError:
                    data = b""
                received[i] += data
                closed[i] = not data
            assert normal.get("/api/health").status_code == 200
            served += 1
            time.sleep(0.05)  # poll the sockets until the deadline
    finally:
        for sock in socks:
            sock.close()
    assert all(closed), f"{closed.count(False)} connections still open"
    assert served > 0
    for sent, reply in zip(kinds, received, strict=True):
        if sent:
            assert reply.startswith(b"HTTP/1.1 408 "), reply[:80]
        else:
            assert reply == b"", reply[:80]
