"""Names through the API (issue 37, item 7), on SQLite and on PostgreSQL: a deceptive name is a
422 naming the field and saying why (the names rule, tests/test_names.py), and changes nothing;
a fine one is kept as the rule normalises it. (Against ``serve --workers 2``:
test_abuse_workers.py.)"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text

from ginrummy.server import create_app
from ginrummy.server.store import Store
from names_support import DECEPTIVE

from .helpers import new_player


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def any_client(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[TestClient]:
    if request.param == "sqlite":
        store = Store(f"sqlite:///{tmp_path / 'games.sqlite3'}")
    else:
        store = Store(request.getfixturevalue("pg_url"))
    try:
        with TestClient(create_app(store=store, coach_processes=0)) as client:
            yield client
    finally:
        store.close()


def _names(client: TestClient) -> list[str]:
    store: Store = client.app.state.service.store  # type: ignore[attr-defined]
    with store.engine.connect() as db:
        return list(db.execute(text("SELECT name FROM players ORDER BY id")).scalars())


def test_deceptive_names_are_422s_that_say_why_and_change_nothing(
    any_client: TestClient,
) -> None:
    client = any_client
    auth = new_player(client, "Ann")
    before = _names(client)
    for name, why in DECEPTIVE:
        if len(name) > 40:
            continue  # the field's own length check answers first
        for path, headers in (("/api/players", {}), ("/api/me/name", auth)):
            r = client.post(path, json={"name": name}, headers=headers)
            assert r.status_code == 422, (path, name, r.text)
            detail = r.json()["detail"]
            assert detail.startswith("name: ") and why in detail, (path, name, detail)
    assert _names(client) == before
    assert client.get("/api/me", headers=auth).json()["name"] == "Ann"


def test_fine_names_are_kept_normalised(any_client: TestClient) -> None:
    client = any_client
    r = client.post("/api/players", json={"name": "  Ｋｉｍ \u3000 \u2764\ufe0f "})
    assert r.status_code == 201 and r.json()["name"] == "Kim \u2764\ufe0f"
    auth = {"Authorization": f"Bearer {r.json()['token']}"}
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467 \u0645\u06cc\u200c\u062e"
    r = client.post("/api/me/name", json={"name": family}, headers=auth)
    assert r.status_code == 200 and r.json()["name"] == family
    assert _names(client)[-1] == family
