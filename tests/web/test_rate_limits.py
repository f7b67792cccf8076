"""Rate limits counted in the database (``ginrummy.server.store.limits``): moving windows that are
exact at their edges, refused requests not counted, one count for every process on a
database (two stores on one SQLite file; racing threads on SQLite and PostgreSQL), and the
rows cleaned away. The same through two real worker processes: test_serve_workers.py."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text

from ginrummy.server import create_app
from ginrummy.server.limits import RateLimiter, RateLimits, TooMany
from ginrummy.server.store import Store

from .pg_databases import database_url

MINUTE, HOUR = 60.0, 3600.0


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    yield from database_url(request, tmp_path)


def rows(store: Store) -> int:
    with store.engine.connect() as db:
        return int(db.execute(text("SELECT count(*) FROM rate_hits")).scalar_one())


def test_a_moving_window_is_exact_at_its_edge_and_refusals_do_not_count(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'g.sqlite3'}")
    try:
        three = [(3, MINUTE)]
        t0 = 1_000_000.0
        for dt in (0, 10, 20):
            assert store.rate_hit("k", "ann", three, t0 + dt) is None
        # The fourth in the minute: over the first window until the hit at t0 is a minute old.
        assert store.rate_hit("k", "ann", three, t0 + 30) == (0, pytest.approx(30.0))
        assert store.rate_hit("k", "ann", three, t0 + 59.5) == (0, pytest.approx(0.5))
        # Exactly a minute after the first hit it no longer counts; the refusals never did.
        assert store.rate_hit("k", "ann", three, t0 + 60) is None
        assert store.rate_hit("k", "ann", three, t0 + 60.5) == (0, pytest.approx(9.5))
        # Someone else, or another kind, has a count of their own.
        assert store.rate_hit("k", "bob", three, t0 + 60.5) is None
        assert store.rate_hit("other", "ann", three, t0 + 60.5) is None
        # Ann's first hit was deleted when it left the window; five remain.
        assert rows(store) == 5
    finally:
        store.close()


def test_the_window_that_refuses_is_named_and_old_rows_are_deleted(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'g.sqlite3'}")
    try:
        windows = [(2, MINUTE), (3, HOUR)]
        t0 = 2_000_000.0
        assert store.rate_hit("k", "ann", windows, t0) is None
        assert store.rate_hit("k", "ann", windows, t0 + 1) is None
        assert store.rate_hit("k", "ann", windows, t0 + 2) == (0, pytest.approx(58.0))
        assert store.rate_hit("k", "ann", windows, t0 + 61) is None
        # Two a minute would let it in now, three an hour do not until t0 + 3600.
        assert store.rate_hit("k", "ann", windows, t0 + 200) == (1, pytest.approx(3400.0))
        assert rows(store) == 3
        # Past the longest window every row of the key goes on its next check.
        assert store.rate_hit("k", "ann", windows, t0 + HOUR + 62) is None
        assert rows(store) == 1
    finally:
        store.close()


def test_two_stores_on_one_database_share_the_count(tmp_path: Path) -> None:
    """Two server processes on one database: each store's limiter counts the other's
    requests (counted in memory, each would let 3 through)."""
    url = f"sqlite:///{tmp_path / 'g.sqlite3'}"
    one, two = Store(url), Store(url)
    try:
        limits = RateLimits(coach_player="3/minute", coach_address="", lesson_address="",
                            players_address="")
        clock = [3_000_000.0]
        first, second = (RateLimiter(limits, s, clock=lambda: clock[0]) for s in (one, two))
        for limiter in (first, second, first):
            limiter.check("coach_player", "player:1", "coach requests")
        with pytest.raises(TooMany) as refused:
            second.check("coach_player", "player:1", "coach requests")
        assert refused.value.status_code == 429
        assert refused.value.detail == ("Too many coach requests: at most 3 per minute. Try "
                                        "again in 60 s.")
        assert refused.value.headers == {"Retry-After": "60"}
        clock[0] += MINUTE
        second.check("coach_player", "player:1", "coach requests")
    finally:
        one.close()
        two.close()


def test_racing_requests_let_exactly_the_limit_in(db_url: str) -> None:
    """Threads with a store each (a connection each, as separate processes have) send their
    requests at once, in eight rounds of 4 x 5 requests against a limit of 10 (a key of its
    own each round): exactly 10 are let in each round."""
    stores = [Store(db_url) for _ in range(4)]
    rounds = 8
    try:
        let_in: list[list[bool]] = [[] for _ in range(rounds)]
        guard = threading.Lock()
        start = threading.Barrier(len(stores))

        def send(store: Store) -> None:
            for n in range(rounds):
                start.wait(timeout=30)
                for _ in range(5):
                    ok = store.rate_hit("k", f"address:{n}", [(10, HOUR)], 4_000_000.0) is None
                    with guard:
                        let_in[n].append(ok)

        threads = [threading.Thread(target=send, args=(s,)) for s in stores]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=60)
        assert not any(t.is_alive() for t in threads)
        assert [(len(r), r.count(True)) for r in let_in] == [(20, 10)] * rounds
        assert rows(stores[0]) == 10 * rounds
    finally:
        for s in stores:
            s.close()


def test_the_api_counts_in_the_database(tmp_path: Path) -> None:
    """Two apps on one database (two workers' worth, in process): new players from one
    address are counted together."""
    url = f"sqlite:///{tmp_path / 'g.sqlite3'}"
    stores = [Store(url), Store(url)]
    try:
        limits = RateLimits(coach_player="", coach_address="", lesson_address="",
                            players_address="4/minute")
        clients = [TestClient(create_app(store=s, limits=limits, coach_processes=0))
                   for s in stores]
        answers = [clients[i % 2].post("/api/players", json={"name": "Kim"}).status_code
                   for i in range(6)]
        assert answers == [201] * 4 + [429] * 2
    finally:
        for s in stores:
            s.close()



def test_a_request_refused_as_malformed_uses_up_nothing(db_url: str) -> None:
    """The limits are counted before FastAPI checks a request's parameters and body; a
    request then refused as malformed (422) is taken back, for each limited kind: a bad body
    for a new player or a sample situation's coach, a bad path for the coach of a match. Over
    the limit, a malformed request is still a 429 (the limit is checked first)."""
    store = Store(db_url)
    try:
        limits = RateLimits(coach_player="2/minute", coach_address="", lesson_address="1/minute",
                            players_address="2/minute")
        client = TestClient(create_app(store=store, limits=limits, coach_processes=0))
        bad = [client.post("/api/players", json={"name": 7}).status_code for _ in range(3)]
        assert bad == [422] * 3 and rows(store) == 0
        tokens = []
        for _ in range(2):
            r = client.post("/api/players", json={"name": "Kim"})
            assert r.status_code == 201
            tokens.append(r.json()["token"])
        refused = client.post("/api/players", json={"name": 7})
        assert refused.status_code == 429 and "Retry-After" in refused.headers

        auth = {"Authorization": f"Bearer {tokens[0]}"}
        match = client.post("/api/matches", json={"level": "random"}, headers=auth).json()["id"]
        coach = f"/api/matches/{match}/coach"
        assert [client.get(f"{coach}/hands/0/decisions/0", headers=auth).status_code
                for _ in range(3)] == [422] * 3
        assert [client.get(f"{coach}/latest", headers=auth).status_code
                for _ in range(3)] == [200, 200, 429]

        situation = client.get("/api/situations").json()[0]["id"]
        lesson = f"/api/situations/{situation}/coach"
        move = client.get(f"/api/situations/{situation}").json()["table"]["hand"]["legal_moves"][0]
        assert [client.post(lesson, json={"move": 5}).status_code for _ in range(2)] == [422] * 2
        assert [client.post(lesson, json={"move": move}).status_code
                for _ in range(2)] == [200, 429]
    finally:
        store.close()
