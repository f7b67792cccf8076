"""Player tokens through the API, with the store's clock moved by the test (no waiting):
a lifetime renewed on use (written at most hourly), sign out everywhere, and one-time transfer
codes that carry the account to another browser."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select, text

from ginrummy.server.store import Store
from ginrummy.server.store.tokens import CODE_REFUSED, _Token


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = dt.datetime(2026, 1, 1, 12, 0, 0)

    def __call__(self) -> dt.datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += dt.timedelta(**delta)


@pytest.fixture()
def clock() -> Clock:
    return Clock()


@pytest.fixture()
def store(tmp_path: Path, clock: Clock) -> Iterator[Store]:
    s = Store(f"sqlite:///{tmp_path / 'games.sqlite3'}", clock=clock)
    yield s
    s.close()


def _me(client: TestClient, token: str) -> int:
    return client.get("/api/me", headers={"Authorization": f"Bearer {token}"}).status_code


def _last_used(store: Store) -> list[dt.datetime]:
    with store.engine.connect() as conn:
        return list(conn.execute(select(_Token.last_used_at).order_by(_Token.id)).scalars())


def test_a_token_expires_unless_used_and_use_renews_it_at_most_hourly(
    client: TestClient, store: Store, clock: Clock
) -> None:
    token = client.post("/api/players", json={"name": "Ann"}).json()["token"]
    made = _last_used(store)
    clock.advance(minutes=59)
    assert _me(client, token) == 200
    assert _last_used(store) == made  # used within the hour: nothing written
    clock.advance(days=80)
    assert _me(client, token) == 200  # renewed: 90 days from now
    assert _last_used(store) == [clock.now]
    clock.advance(days=89)
    assert _me(client, token) == 200
    clock.advance(days=90, seconds=1)
    assert _me(client, token) == 401


def test_an_expired_token_of_another_browser_is_forgotten_when_one_is_renewed(
    client: TestClient, store: Store, clock: Clock
) -> None:
    made = client.post("/api/players", json={"name": "Ann"}).json()
    auth = {"Authorization": f"Bearer {made['token']}"}
    code = client.post("/api/me/transfer-code", headers=auth).json()["code"]
    away = client.post("/api/players/claim", json={"code": code}).json()["token"]
    for _ in range(4):  # the first browser comes back every 30 days; the other never
        clock.advance(days=30)
        assert _me(client, made["token"]) == 200
    assert _me(client, away) == 401
    assert len(_last_used(store)) == 1


def test_sign_out_everywhere_revokes_every_token_and_gives_a_fresh_one(
    client: TestClient, store: Store
) -> None:
    made = client.post("/api/players", json={"name": "Ann"}).json()
    first = made["token"]
    auth = {"Authorization": f"Bearer {first}"}
    code = client.post("/api/me/transfer-code", headers=auth).json()["code"]
    second = client.post("/api/players/claim", json={"code": code}).json()["token"]
    unused = client.post("/api/me/transfer-code", headers=auth).json()["code"]
    assert _me(client, second) == 200

    r = client.post("/api/me/sign-out-everywhere", headers=auth)
    assert r.status_code == 200
    fresh = r.json()
    assert fresh["id"] == made["id"] and fresh["token"] not in (first, second)
    assert (_me(client, first), _me(client, second), _me(client, fresh["token"])) == (401, 401,
                                                                                     200)
    r = client.post("/api/players/claim", json={"code": unused})
    assert r.status_code == 404 and r.json()["detail"] == CODE_REFUSED


def test_a_transfer_code_signs_in_another_browser_once(
    client: TestClient, store: Store, clock: Clock
) -> None:
    made = client.post("/api/players", json={"name": "Ann"}).json()
    auth = {"Authorization": f"Bearer {made['token']}"}
    match = client.post("/api/matches", json={"level": "random"}, headers=auth).json()
    r = client.post("/api/me/transfer-code", headers=auth)
    assert r.status_code == 201
    code = r.json()["code"]
    assert len(code) == 14 and code.count("-") == 2 and r.json()["lifetime_seconds"] == 600

    # Typed in lower case with spaces, on the other browser.
    r = client.post("/api/players/claim", json={"code": code.lower().replace("-", " ")})
    assert r.status_code == 200
    other = r.json()
    assert other["id"] == made["id"] and other["token"] != made["token"]
    me = client.get("/api/me", headers={"Authorization": f"Bearer {other['token']}"}).json()
    assert me["current_match"] == match["id"]
    assert _me(client, made["token"]) == 200  # the first browser stays signed in

    # Used already, expired and unknown: one answer, so a guess learns nothing of the codes.
    used = client.post("/api/players/claim", json={"code": code})
    late = client.post("/api/me/transfer-code", headers=auth).json()["code"]
    clock.advance(minutes=10)
    expired = client.post("/api/players/claim", json={"code": late})
    unknown = client.post("/api/players/claim", json={"code": "ABCD-EFGH-JKMN"})
    for r in (used, expired, unknown):
        assert (r.status_code, r.json()) == (404, {"detail": CODE_REFUSED})

    with store.engine.connect() as conn:
        stored = " ".join(str(v) for row in conn.execute(text("SELECT * FROM transfer_codes"))
                          for v in row)
    assert code.replace("-", "") not in stored and late.replace("-", "") not in stored


def test_bad_claims_and_anonymous_requests_change_nothing(client: TestClient, store: Store) -> None:
    made = client.post("/api/players", json={"name": "Ann"}).json()
    before = _last_used(store)
    for body in ({}, {"code": ""}, {"code": "x" * 41}, {"code": "ABCD", "extra": 1},
                 {"code": 12345678}):
        r = client.post("/api/players/claim", json=body)
        assert r.status_code in (404, 422) and r.json()["detail"], body
    r = client.post("/api/players/claim", json={"code": "ABCD-EFGH-JKMN"})
    assert r.status_code == 404 and r.json()["detail"] == CODE_REFUSED
    for path in ("/api/me/transfer-code", "/api/me/sign-out-everywhere"):
        assert client.post(path).status_code == 401
        assert client.post(path, headers={"Authorization": "Bearer forged"}).status_code == 401
    assert _last_used(store) == before
    assert _me(client, made["token"]) == 200
    with store.engine.connect() as conn:
        assert conn.execute(text("SELECT COUNT(*) FROM transfer_codes")).scalar_one() == 0
