"""The API's reliability suite (issue 12, "Must hold"), run against real servers on 127.0.0.1:
SQLite and PostgreSQL, one process and ``serve --workers 2``. For each deployment: racing
starts with one token leave one match playing; a move sent twice at once is taken once (one
200, one 409); no answer shows a hidden card, the stock or an unrevealed server seed; hostile
bodies, paths and headers get a 4xx JSON reason and change nothing; a ``kill -9`` (of a worker,
or of the one process followed by a restart) loses no acknowledged move. No answer is a 5xx and
the server's log shows no failed request.

One server per deployment serves the whole module; the computer plays ``random`` and every
loop is bounded. Clients deal a hand whenever the state is ``between_hands`` (always with a
client seed of their own), so they never rely on the start of a match dealing one.
"""

from __future__ import annotations

import os
import random
import re
import signal
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import func, select

from ginrummy.engine.record import parse
from ginrummy.server.store import Store
from ginrummy.server.store.models import _Match, _Player

from .conftest import STARTUP_SECONDS, Server, loopback_client, retried
from .helpers import card_tokens, choose, where_cards, without_spots
from .pg_databases import new_pg_database
from .test_api import secrets_now
from .test_serve_workers import _worker_pids

#: Bounds on the loops: racing starts, double submits, requests of a leak-scanned match.
RACES, DOUBLE_SUBMITS, SCANNED_REQUESTS = 3, 6, 40
#: A failed request in the server's log (``ginrummy.server`` logs each 500 with its traceback).
FAILED = re.compile(r"Traceback|Internal Server Error|^[A-Z]+ /\S* failed$", re.MULTILINE)


class Deployment:
    """A server under test, the database it serves (opened here too, to read what the person
    may not see and what was saved), and every answer the tests' clients got from it."""

    def __init__(self, name: str, db_url: str, workers: int, folder: Path) -> None:
        self.name, self.workers = name, workers
        # Opened (and so migrated, and for SQLite given its key file) before the server starts.
        self.store = Store(db_url)
        self.server = Server(db_url, folder / "server.log", ("--workers", str(workers)))
        self.statuses: list[tuple[str, int]] = []

    @property
    def url(self) -> str:
        return self.server.url

    def _seen(self, response: httpx.Response) -> None:
        self.statuses.append((f"{response.request.method} {response.request.url.path}",
                              response.status_code))

    def client(self, token: str | None = None) -> httpx.Client:
        """A keep-alive client of the server whose answers are kept for :meth:`check`."""
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return loopback_client(base_url=self.url, headers=headers, timeout=60,
                               event_hooks={"response": [self._seen]})

    def player(self, name: str = "Ann") -> tuple[int, str]:
        """A new player, made in the database (the server limits new players per address)."""
        info, token = self.store.create_player(name)
        return info.id, token

    def check(self) -> None:
        """No 5xx to any client, and no failed request in the server's log."""
        errors = [(what, code) for what, code in self.statuses if code >= 500]
        assert not errors, errors
        log = self.server.log_path.read_text(encoding="utf-8", errors="replace")
        found = FAILED.search(log)
        assert found is None, log[max(0, found.start() - 2000):found.end() + 2000]


#: The default run covers both databases and two worker processes with two deployments
#: (SQLite in one process, PostgreSQL with two workers); ``--slow`` adds the other two.
DEPLOYMENTS = [
    pytest.param(("sqlite", 1), id="sqlite"),
    pytest.param(("sqlite", 2), id="sqlite-2-workers", marks=pytest.mark.slow),
    pytest.param(("postgresql", 1), id="postgresql",
                 marks=[pytest.mark.postgres, pytest.mark.slow]),
    pytest.param(("postgresql", 2), id="postgresql-2-workers", marks=pytest.mark.postgres),
]


@pytest.fixture(scope="module", params=DEPLOYMENTS)
def deployment(request: pytest.FixtureRequest,
               tmp_path_factory: pytest.TempPathFactory) -> Iterator[Deployment]:
    backend, workers = request.param
    folder = tmp_path_factory.mktemp(f"{backend}-{workers}")
    databases: Iterator[str] | None = None
    if backend == "sqlite":
        db_url = f"sqlite:///{folder / 'games.sqlite3'}"
    else:
        databases = new_pg_database(request.getfixturevalue("pg_url"))
        db_url = next(databases)
    d = Deployment(f"{backend}-{workers}", db_url, workers, folder)
    try:
        d.server.start()
        yield d
    finally:
        d.server.stop()
        d.store.close()
        if databases is not None:
            next(databases, None)  # drops the database


# Playing -----------------------------------------------------------------------------------


def _request_of(state: dict[str, Any], rng: random.Random | None,
                wild: float = 0.0) -> tuple[str, dict[str, Any]]:
    """The person's next request: deal (with a client seed of theirs) or a move."""
    mid = state["id"]
    if state["status"] == "between_hands" or state["hand"] is None:
        seed = f"seed {rng.random() if rng else os.urandom(6).hex()}"
        return (f"/api/matches/{mid}/next-hand",
                {"version": state["version"], "client_seed": seed})
    return (f"/api/matches/{mid}/moves",
            {"move": choose(state, rng, wild), "version": state["version"]})


def _step(client: httpx.Client, state: dict[str, Any], rng: random.Random | None = None,
          wild: float = 0.0) -> httpx.Response:
    path, body = _request_of(state, rng, wild)
    r = client.post(path, json=body)
    assert r.status_code == 200, r.text
    return r


def _new_match(client: httpx.Client, **options: Any) -> dict[str, Any]:
    r = client.post("/api/matches", json={"level": "random", "forfeit_current": True,
                                          **options})
    assert r.status_code == 201, r.text
    state: dict[str, Any] = r.json()
    return state


def _dealt(client: httpx.Client, state: dict[str, Any]) -> dict[str, Any]:
    """``state``, with a hand on the table (dealt with a client seed if it was not yet)."""
    while state["status"] == "between_hands" or state["hand"] is None:
        state = _step(client, state).json()
    return state


def _same(now: dict[str, Any], before: dict[str, Any]) -> bool:
    """The same state, but for ``computer_moves`` (the moves since the last request)."""
    return {**now, "computer_moves": []} == {**before, "computer_moves": []}


def _playing(store: Store, player_id: int) -> int:
    with store.engine.connect() as conn:
        return int(conn.execute(
            select(func.count()).select_from(_Match)
            .where(_Match.player_id == player_id, _Match.status == "playing")
        ).scalar_one())


def _together(calls: list[Callable[[httpx.Client], httpx.Response]],
              clients: list[httpx.Client]) -> list[httpx.Response]:
    """Each call on its own (already connected) client, released at the same moment."""
    start = threading.Barrier(len(calls))
    answers: list[httpx.Response | BaseException] = [RuntimeError("no answer")] * len(calls)

    def go(i: int) -> None:
        start.wait()
        try:
            answers[i] = calls[i](clients[i])
        except BaseException as exc:  # reported by the test below
            answers[i] = exc

    threads = [threading.Thread(target=go, args=(i,)) for i in range(len(calls))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    out = []
    for a in answers:
        if isinstance(a, BaseException):
            raise a
        out.append(a)
    return out


# The suite ---------------------------------------------------------------------------------


def test_simultaneous_starts_with_one_token_leave_one_match_playing(
    deployment: Deployment,
) -> None:
    player_id, token = deployment.player()
    clients = [deployment.client(token) for _ in range(4)]
    try:
        for c in clients:  # connected before the race starts
            assert c.get("/api/health").status_code == 200
        for _ in range(RACES):
            answers = _together(
                [lambda c: c.post("/api/matches", json={"level": "random",
                                                        "forfeit_current": True})]
                * len(clients),
                clients)
            codes = sorted(r.status_code for r in answers)
            assert set(codes) <= {201, 409} and 201 in codes, [r.text for r in answers]
            for r in answers:
                if r.status_code == 409:
                    assert r.json()["detail"][0].isupper()
            assert _playing(deployment.store, player_id) == 1
            made = [r.json()["id"] for r in answers if r.status_code == 201]
            current = clients[0].get("/api/me").json()["current_match"]
            assert current in made
            for mid in made:
                state = clients[0].get(f"/api/matches/{mid}").json()
                if mid == current:
                    assert state["status"] in ("playing", "between_hands")
                    continue
                assert state["status"] == "abandoned"
                # The match that lost the race takes no move and no deal.
                path, body = (
                    (f"/api/matches/{mid}/moves", {"move": "draw", "version": state["version"]})
                    if state["hand"] else
                    (f"/api/matches/{mid}/next-hand",
                     {"version": state["version"], "client_seed": "late"}))
                r = clients[0].post(path, json=body)
                assert r.status_code == 409 and r.json()["detail"], r.text
    finally:
        for c in clients:
            c.close()
    deployment.check()


def test_a_request_sent_twice_at_once_is_taken_once(deployment: Deployment) -> None:
    _, token = deployment.player()
    clients = [deployment.client(token) for _ in range(2)]
    rng = random.Random(12)
    try:
        state = _new_match(clients[0])
        for _ in range(DOUBLE_SUBMITS):
            if state["status"] == "over":
                state = _new_match(clients[0])
            path, body = _request_of(state, rng)
            answers = _together([lambda c, p=path, b=body: c.post(p, json=b)] * 2, clients)
            assert sorted(r.status_code for r in answers) == [200, 409], \
                [r.text for r in answers]
            taken = next(r for r in answers if r.status_code == 200).json()
            refused = next(r for r in answers if r.status_code == 409).json()
            assert refused["detail"][0].isupper()
            assert taken["version"] > state["version"]
            # What is stored is what the one 200 said, from whichever worker answers.
            now = clients[1].get(f"/api/matches/{state['id']}").json()
            assert _same(now, taken)
            assert deployment.store.load_record(state["id"])[0] == taken["version"]
            state = taken
    finally:
        for c in clients:
            c.close()
    deployment.check()


def _scan(deployment: Deployment, mid: str, answer: httpx.Response) -> bool:
    """Check one answer about match ``mid`` for a server seed not revealed yet and for the
    cards the person may not know (read from the database now); whether the hand is live."""
    hidden, seeds = secrets_now(deployment.store, mid)
    data = answer.json()
    assert seeds or data["status"] == "over"  # a hand still to be dealt is sealed already
    assert not any(s in answer.text for s in seeds), "a server seed leaked"
    if hidden is None:
        return False
    # The match id is random text that can spell a card by chance: left out of the scan.
    scanned = without_spots({k: v for k, v in data.items() if k != "id"})
    leaked = card_tokens(scanned) & hidden
    assert not leaked, f"hidden cards {leaked} in {where_cards(scanned, leaked)}"
    return True


def test_no_answer_shows_a_hidden_card_or_an_unrevealed_seed(deployment: Deployment) -> None:
    _, token = deployment.player()
    rng = random.Random(f"leaks {deployment.name}")
    live = 0
    with deployment.client(token) as client:
        for options in ({"hollywood": True, "profile": "oklahoma"}, {"profile": "modern"}):
            state = _new_match(client, **options)
            mid = state["id"]
            for n in range(SCANNED_REQUESTS):
                if state["status"] == "over":
                    break
                r = _step(client, state, rng, wild=0.3)
                live += _scan(deployment, mid, r)
                state = r.json()
                again = client.get(f"/api/matches/{mid}")
                assert again.status_code == 200 and _same(again.json(), state)
                _scan(deployment, mid, again)
                if n % 5:
                    continue
                me = client.get("/api/me")
                hidden, seeds = secrets_now(deployment.store, mid)
                assert not any(s in me.text for s in seeds)
                mine = {k: v for k, v in me.json().items() if k != "current_match"}
                assert not (hidden and card_tokens(mine) & hidden)
            # A record lists the decks of the hands it holds: finished ones only, before the
            # match is over.
            r = client.get(f"/api/matches/{mid}/record")
            _, seeds = secrets_now(deployment.store, mid)
            assert r.status_code in (200, 409) and not any(s in r.text for s in seeds)
            if r.status_code == 200:
                assert all("result" in h for h in parse(r.text).get("hands", [])), r.text
    assert live > 30
    deployment.check()


def _hostile(mid: str, version: int, legal: str,
             other: str) -> list[tuple[str, str, Any, dict[str, str]]]:
    """Requests an attacker or a broken client might send: (method, path, body, headers);
    a ``bytes`` body is sent as it is, labelled JSON unless the headers say otherwise.
    ``other`` is another player's token: their requests get the 404 of a missing match."""
    moves = f"/api/matches/{mid}/moves"
    nest = b"[" * 5000 + b"]" * 5000
    theirs = {"Authorization": f"Bearer {other}"}
    return [
        ("POST", moves, {"move": legal, "version": version}, theirs),
        ("POST", f"/api/matches/{mid}/next-hand", {"version": version, "client_seed": "s"},
         theirs),
        ("GET", f"/api/matches/{mid}", None, theirs),
        ("GET", f"/api/matches/{mid}/record", None, theirs),
        ("GET", f"/api/matches/{mid}/coach/hands/1", None, theirs),
        ("POST", moves, b"{not json", {}),
        ("POST", moves, b"", {}),
        ("POST", moves, b"[]", {}),
        ("POST", moves, b"null", {}),
        ("POST", moves, nest, {}),
        ("POST", moves, b'{"move": "' + b"\xff\xfe" + b'"}', {}),
        ("POST", moves, {"move": legal, "version": version, "extra": 1}, {}),
        ("POST", moves, {"move": 7, "version": version}, {}),
        ("POST", moves, {"move": ["draw"], "version": version}, {}),
        ("POST", moves, {"move": "", "version": version}, {}),
        ("POST", moves, {"move": legal + "\x00", "version": version}, {}),
        ("POST", moves, {"move": "x" * 500, "version": version}, {}),
        ("POST", moves, {"move": "x" * 9000, "version": version}, {}),
        ("POST", moves, {"move": "discard 1x", "version": version}, {}),
        ("POST", moves, {"move": "fold", "version": version}, {}),
        ("POST", moves, {"move": legal, "version": True}, {}),
        ("POST", moves, {"move": legal, "version": "10"}, {}),
        ("POST", moves, {"move": legal, "version": -1}, {}),
        ("POST", moves, {"move": legal, "version": 10**30}, {}),
        ("POST", moves, {"move": legal, "version": version - 1}, {}),
        ("POST", moves, {"move": legal, "version": version}, {"Authorization": ""}),
        ("POST", moves, {"move": legal, "version": version},
         {"Authorization": "Bearer " + "x" * 4000}),
        ("POST", moves, {"move": legal, "version": version}, {"Authorization": "Basic YTpi"}),
        ("POST", moves, {"move": legal, "version": version},
         {"Content-Type": "application/x-www-form-urlencoded"}),
        ("POST", moves, f"move={legal}&version={version}".encode(),
         {"Content-Type": "application/x-www-form-urlencoded"}),
        ("GET", moves, None, {}),
        ("DELETE", f"/api/matches/{mid}", None, {}),
        ("POST", f"/api/matches/{mid}/next-hand",
         {"version": version, "client_seed": "a\x00b"}, {}),
        ("POST", f"/api/matches/{mid}/next-hand", {"version": version, "client_seed": ""}, {}),
        ("POST", f"/api/matches/{mid}/next-hand",
         {"version": version, "client_seed": "x" * 300}, {}),
        ("POST", f"/api/matches/{mid}/next-hand", {"version": version, "client_seed": 5}, {}),
        ("GET", f"/api/matches/{mid}/record", None, {}),
        ("GET", f"/api/matches/{mid}/record?hands=-1", None, {}),
        ("GET", f"/api/matches/{mid}/record?hands=abc", None, {}),
        ("GET", f"/api/matches/{mid}/record?hands=" + "9" * 40, None, {}),
        ("GET", f"/api/matches/{mid}/coach/hands/0", None, {}),
        ("GET", f"/api/matches/{mid}/coach/hands/99999", None, {}),
        ("GET", "/api/matches/" + "a" * 40, None, {}),
        ("GET", "/api/matches/..%2F..%2Fetc%2Fpasswd", None, {}),
        ("GET", "/api/matches/%00", None, {}),
        ("GET", "/api/matches/x%20y", None, {}),
        ("GET", "/api/nothing-here", None, {}),
        ("POST", "/api/matches", {"level": 3}, {}),
        ("POST", "/api/matches", {"level": "random", "hollywood": "yes"}, {}),
        ("POST", "/api/matches", {"level": "random", "profile": "nope"}, {}),
        ("POST", "/api/matches", {"level": "godlike"}, {}),
        ("POST", "/api/matches", {"level": "random", "extra": 1}, {}),
        ("POST", "/api/matches", b"{", {}),
        ("POST", "/api/players", {"name": "a\x00b"}, {}),
        ("POST", "/api/players", {"name": ""}, {}),
        ("POST", "/api/players", {"name": "x" * 5000}, {}),
        ("POST", "/api/players", {"name": 5}, {}),
        ("POST", "/api/players", b"[]", {}),
    ]


def test_bad_input_is_a_4xx_with_a_reason_and_changes_nothing(deployment: Deployment) -> None:
    _, token = deployment.player()
    _, other = deployment.player("Bob")
    with deployment.client(token) as client:
        state = _dealt(client, _new_match(client))
        state = _step(client, state, random.Random(4)).json()
        mid = state["id"]
        before = state
        record = deployment.store.load_record(mid)
        me = client.get("/api/me").json()
        with deployment.store.engine.connect() as conn:
            players = conn.execute(select(func.count()).select_from(_Player)).scalar_one()
        legal = state["hand"]["legal_moves"][0] if state["hand"]["legal_moves"] else "draw"
        for method, path, body, headers in _hostile(mid, state["version"], legal, other):
            kwargs: dict[str, Any] = {"headers": headers}
            if isinstance(body, bytes):
                kwargs["content"] = body
                kwargs["headers"] = {"Content-Type": "application/json", **headers}
            elif body is not None:
                kwargs["json"] = body
            r = client.request(method, path, **kwargs)
            if headers.get("Authorization") == f"Bearer {other}":
                assert r.status_code == 404, (path, r.text)
            what = f"{method} {path[:60]} {str(body)[:60]!r} {list(headers)}"
            assert 400 <= r.status_code < 500, (what, r.status_code, r.text[:300])
            assert r.headers["content-type"].startswith("application/json"), (what, r.headers)
            detail = r.json()["detail"]
            assert isinstance(detail, str) and detail, (what, r.text[:300])
            now = client.get(f"/api/matches/{mid}")
            assert now.status_code == 200 and _same(now.json(), before), what
        assert deployment.store.load_record(mid) == record
        assert client.get("/api/me").json() == me
        with deployment.store.engine.connect() as conn:
            assert conn.execute(select(func.count()).select_from(_Player)).scalar_one() == players
        # And the match plays on from where it was.
        _step(client, before)
    deployment.check()


def _moves(record: str) -> list[list[str]]:
    return [list(h["moves"]) for h in parse(record).get("hands", [])]


def _extends(later: list[list[str]], earlier: list[list[str]]) -> bool:
    """Whether the record ``later`` holds every move of ``earlier``, in order."""
    if len(later) < len(earlier):
        return False
    return all(later[i] == earlier[i] for i in range(len(earlier) - 1)) and (
        not earlier or later[len(earlier) - 1][:len(earlier[-1])] == earlier[-1])


def test_kill_9_mid_match_loses_no_acknowledged_move(deployment: Deployment) -> None:
    _, token = deployment.player("Kim")
    rng = random.Random(9)
    acknowledged: list[list[list[str]]] = []
    client = deployment.client(token)
    try:
        state = _new_match(client, hollywood=True)
        mid = state["id"]
        for _ in range(12):
            if state["status"] == "over":
                break
            state = _step(client, state, rng).json()
            version, text = deployment.store.load_record(mid)
            assert version == state["version"]
            acknowledged.append(_moves(text))
        last = state
        server = deployment.server
        assert server.proc is not None
        if deployment.workers > 1:
            workers = _worker_pids(server.proc.pid)
            assert len(workers) == deployment.workers
            os.kill(workers[0], signal.SIGKILL)
        else:
            server.kill()
            client.close()
            server.start()  # the same database, a new process (and port)
            client = deployment.client(token)
        resumed = retried(lambda: client.get(f"/api/matches/{mid}"))
        assert resumed.status_code == 200 and _same(resumed.json(), last)
        if deployment.workers > 1:  # a new worker process takes the killed one's place
            deadline = time.monotonic() + STARTUP_SECONDS
            while True:
                now = set(_worker_pids(server.proc.pid))
                if len(now) == deployment.workers and workers[0] not in now:
                    break
                assert time.monotonic() < deadline, f"no new worker: {now}"
                time.sleep(0.05)  # poll the process table until the condition holds
        state = resumed.json()
        for _ in range(8):
            if state["status"] == "over":
                break
            path, body = _request_of(state, rng)
            r = retried(lambda p=path, b=body: client.post(p, json=b))
            if r.status_code == 409:  # sent twice across the kill: the first was taken
                r = client.get(f"/api/matches/{mid}")
            assert r.status_code == 200, r.text
            state = r.json()
        assert state["version"] > last["version"]
        final = _moves(deployment.store.load_record(mid)[1])
        for earlier in acknowledged:
            assert _extends(final, earlier)
    finally:
        client.close()
    deployment.check()
