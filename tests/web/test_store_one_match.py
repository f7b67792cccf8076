"""At most one unfinished match per player, by construction in the database: racing starts
(PostgreSQL's READ COMMITTED, several threads of one app) leave exactly one match playing, and
the partial unique index refuses a second one even when the store's lock is bypassed."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select, text
from sqlalchemy.exc import IntegrityError

from ginrummy.server import create_app
from ginrummy.server.limits import RateLimits
from ginrummy.server.store import Store, UnfinishedMatchError
from ginrummy.server.store.models import _Match

from .pg_databases import new_pg_database

#: How many times two starts race.
TRIALS = 20


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    if request.param == "sqlite":
        s = Store(f"sqlite:///{tmp_path / 'games.sqlite3'}")
        yield s
        s.close()
        return
    for url in new_pg_database(request.getfixturevalue("pg_url")):
        s = Store(url)
        yield s
        s.close()


def _playing(store: Store, player_id: int) -> int:
    with store.engine.connect() as conn:
        return int(conn.execute(
            select(func.count()).select_from(_Match)
            .where(_Match.player_id == player_id, _Match.status == "playing")
        ).scalar_one())


def test_two_simultaneous_starts_leave_one_match_playing(store: Store) -> None:
    # Forty starts in a few seconds, past the limit on new matches (test_abuse_limits.py).
    app = create_app(store=store, limits=RateLimits.off())
    setup = TestClient(app)
    token = setup.post("/api/players", json={"name": "Ann"}).json()["token"]
    auth = {"Authorization": f"Bearer {token}"}
    player = store.player_by_token(token)
    assert player is not None
    for _ in range(TRIALS):
        start = threading.Barrier(2)
        answers: list[tuple[int, dict[str, object]]] = []

        def go(start: threading.Barrier = start,
               answers: list[tuple[int, dict[str, object]]] = answers) -> None:
            client = TestClient(app)
            start.wait()
            r = client.post("/api/matches", json={"level": "random", "forfeit_current": True},
                            headers=auth)
            answers.append((r.status_code, r.json()))

        threads = [threading.Thread(target=go) for _ in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sorted(code for code, _ in answers) in ([201, 201], [201, 409]), answers
        assert _playing(store, player.id) == 1
        # The one that lost (abandoned, if both were created) refuses moves.
        made = [body["id"] for code, body in answers if code == 201]
        current = setup.get("/api/me", headers=auth).json()["current_match"]
        assert current in made
        for mid in made:
            if mid != current:
                r = setup.post(f"/api/matches/{mid}/moves", json={"move": "draw"}, headers=auth)
                assert r.status_code == 409 and "abandoned" in r.json()["detail"]


def test_the_index_refuses_a_second_unfinished_match_whatever_the_code(store: Store) -> None:
    player, _ = store.create_player("Ann")
    common = dict(player_id=player.id, level="easy", profile="traditional",
                  rules="traditional", hollywood=False, deal_seed="x", record="r")
    first = store.create_match(**common)  # type: ignore[arg-type]
    with pytest.raises(UnfinishedMatchError, match="unfinished match"):
        store.create_match(**common, abandon_others=False)  # type: ignore[arg-type]
    assert _playing(store, player.id) == 1
    # Straight into the table, as a process without the store's lock would.
    with pytest.raises(IntegrityError), store.engine.begin() as conn:
        conn.execute(text(
            "INSERT INTO matches (id, player_id, level, profile, rules, hollywood, status, "
            "version, deal_seed, hands_played, score_0, score_1, winner, created_at, "
            "updated_at, record) SELECT 'intruder', player_id, level, profile, rules, "
            "hollywood, status, 1, deal_seed, 0, 0, 0, NULL, created_at, updated_at, record "
            f"FROM matches WHERE id = '{first.id}'"
        ))
    # A finished match and an abandoned one are not limited.
    store.create_match(**common, status="over", abandon_others=False)  # type: ignore[arg-type]
    store.create_match(**common)  # type: ignore[arg-type]
    assert store.get_match(player.id, first.id).status == "abandoned"  # type: ignore[union-attr]
    assert _playing(store, player.id) == 1
