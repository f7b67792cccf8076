"""The CPU one player or one address can use (issue 12, item 3): rate limits with 429 and
Retry-After, the coach's bounded pool (503 when full, one job per owner), its work in a worker
process giving what the server's thread gives, and cached answers equal to fresh ones."""

from __future__ import annotations

import os
import random
import signal
from dataclasses import replace
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text

from ginrummy.coach import decisions_of
from ginrummy.server import create_app
from ginrummy.server.coach_service import _assess
from ginrummy.server.limits import CoachPool, RateLimits, TooMany, _shared_executor
from ginrummy.server.store import Store

from .helpers import choose
from .test_api import advance, new_match, new_player

SAMPLES = 4  # the API's behaviour, not the coach's precision, is tested


def _app(store: Store, limits: RateLimits | None = None, processes: int = 0,
         queue: int = 4) -> Any:
    app = create_app(store=store, limits=limits or RateLimits.off(),
                     coach_processes=processes, coach_queue=queue)
    app.state.coach.samples = SAMPLES
    return app


def _finished_hand(client: TestClient, auth: dict[str, str], seed: int = 3) -> dict[str, Any]:
    rng = random.Random(seed)
    state = new_match(client, auth, level="random", hollywood=True)
    while state["hand"]["result"] is None:
        state = advance(client, auth, state, choose(state, rng, wild=0.2))
    return state


def _retry_after(r: Any) -> int:
    seconds = int(r.headers["retry-after"])
    assert seconds >= 1
    return seconds


def test_new_players_are_limited_per_address(store: Store) -> None:
    client = TestClient(_app(store, replace(RateLimits.off(), players_address="3/minute")))
    for _ in range(3):
        assert client.post("/api/players", json={"name": "Kim"}).status_code == 201
    with store.engine.connect() as db:
        before = db.execute(text("SELECT count(*) FROM players")).scalar_one()
    r = client.post("/api/players", json={"name": "Kim"})
    assert r.status_code == 429 and _retry_after(r) <= 60
    assert r.json()["detail"].startswith("Too many new players: at most 3 per minute.")
    assert r.headers["x-content-type-options"] == "nosniff"
    with store.engine.connect() as db:
        assert db.execute(text("SELECT count(*) FROM players")).scalar_one() == before


def test_coach_requests_are_limited_per_player_and_per_address(store: Store) -> None:
    limits = RateLimits(coach_player="2/minute", coach_address="3/minute", lesson_address="",
                        players_address="")
    client = TestClient(_app(store, limits))
    ann, bob = new_player(client, "Ann"), new_player(client, "Bob")
    ann_match = new_match(client, ann, level="random")["id"]
    bob_match = new_match(client, bob, level="random")["id"]
    latest = "/api/matches/{}/coach/latest"
    for _ in range(2):
        assert client.get(latest.format(ann_match), headers=ann).status_code == 200
    r = client.get(latest.format(ann_match), headers=ann)
    assert r.status_code == 429 and "at most 2 per minute" in r.json()["detail"]
    _retry_after(r)
    # Bob has his own count, but shares the address's: one more from it, then 429.
    assert client.get(latest.format(bob_match), headers=bob).status_code == 200
    r = client.get(latest.format(bob_match), headers=bob)
    assert r.status_code == 429 and "from your address" in r.json()["detail"]
    _retry_after(r)
    # The table itself is not limited.
    assert client.get(f"/api/matches/{bob_match}", headers=bob).status_code == 200


def test_the_lesson_coach_is_limited_per_address(store: Store) -> None:
    limits = RateLimits(coach_player="", coach_address="", lesson_address="1/minute",
                        players_address="")
    client = TestClient(_app(store, limits))
    situation = client.get("/api/situations").json()[0]
    table = client.get(f"/api/situations/{situation['id']}").json()["table"]
    move = table["hand"]["legal_moves"][0]
    path = f"/api/situations/{situation['id']}/coach"
    assert client.post(path, json={"move": move}).status_code == 200
    r = client.post(path, json={"move": move})
    assert r.status_code == 429 and _retry_after(r) <= 60


def test_the_default_limits_let_a_page_play_and_stop_a_flood(store: Store) -> None:
    client = TestClient(_app(store, RateLimits()))
    answers = [client.post("/api/players", json={"name": "Kim"}).status_code
               for _ in range(15)]
    assert answers[:10] == [201] * 10 and set(answers[10:]) == {429}  # 10 a minute


def test_a_full_coach_pool_is_503_and_one_owner_has_one_job(store: Store) -> None:
    app = _app(store, queue=0)  # room for the running job only
    client = TestClient(app)
    auth = new_player(client)
    state = _finished_hand(client, auth)
    pool: CoachPool = app.state.coach.pool
    with pool._slot("player:someone else"):
        r = client.get(f"/api/matches/{state['id']}/coach/hands/1", headers=auth)
        assert r.status_code == 503 and "busy" in r.json()["detail"]
        _retry_after(r)
    me = client.get("/api/me", headers=auth).json()["id"]
    with pool._slot(f"player:{me}"):
        with pytest.raises(TooMany) as refused:
            pool.run(f"player:{me}", len, "x")
        assert refused.value.status_code == 429
    # Nothing was kept from the refused requests; the review now comes.
    assert client.get(f"/api/matches/{state['id']}/coach/hands/1",
                      headers=auth).status_code == 200


def test_cached_revisit_answers_equal_fresh_ones(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = _app(store)
    client = TestClient(app)
    auth = new_player(client)
    state = _finished_hand(client, auth, seed=5)
    review = client.get(f"/api/matches/{state['id']}/coach/hands/1", headers=auth).json()
    index = review["decisions"][0]["index"]
    base = f"/api/matches/{state['id']}/coach/hands/1/decisions/{index}"
    opened = client.get(base, headers=auth).json()
    move = opened["table"]["hand"]["legal_moves"][-1]
    first = client.post(base + "/answer", json={"move": move}, headers=auth)
    assert first.status_code == 200, first.text

    # From now on the coach's pool must not be used: the answers come from the caches.
    def refuse(*_args: object) -> None:
        raise AssertionError("the coach was asked again")

    monkeypatch.setattr(app.state.coach.pool, "run", refuse)
    assert client.get(base, headers=auth).json() == opened
    again = client.post(base + "/answer", json={"move": move}, headers=auth)
    assert again.json() == first.json()
    monkeypatch.undo()
    # A fresh server (no cache) over the same database gives the same answers.
    fresh = TestClient(_app(store))
    assert fresh.get(base, headers=auth).json() == opened
    assert fresh.post(base + "/answer", json={"move": move}, headers=auth).json() == first.json()
    # The cache is keyed on the player's match: another player gets 404, not the answer.
    other = new_player(client, "Eve")
    assert client.post(base + "/answer", json={"move": move}, headers=other).status_code == 404


def test_cached_lesson_remarks_equal_fresh_ones(store: Store) -> None:
    client, fresh = TestClient(_app(store)), TestClient(_app(store))
    situation = client.get("/api/situations").json()[1]["id"]
    table = client.get(f"/api/situations/{situation}").json()["table"]
    move = table["hand"]["legal_moves"][0]
    path = f"/api/situations/{situation}/coach"
    first = client.post(path, json={"move": move}).json()
    assert client.post(path, json={"move": move}).json() == first
    assert fresh.post(path, json={"move": move}).json() == first


def test_the_coach_in_a_worker_process_answers_as_in_the_thread(store: Store) -> None:
    pool = CoachPool(processes=1)
    try:
        app = _app(store)
        client = TestClient(app)
        auth = new_player(client)
        state = _finished_hand(client, auth, seed=8)
        service = app.state.service
        player = service.player(auth["Authorization"].removeprefix("Bearer "))
        _number, hand = service.hand_copy(player, state["id"], 1)
        for _index, _turn, view, move in list(decisions_of(hand, 0))[:2]:
            here = _assess(view, move, SAMPLES)
            assert pool.run("player:1", _assess, view, move, SAMPLES) == here
        # An engine error raised in the worker comes back as itself: a 400 with its sentence.
        app = _app(store, processes=1)
        client = TestClient(app)
        review = client.get(f"/api/matches/{state['id']}/coach/hands/1", headers=auth).json()
        base = (f"/api/matches/{state['id']}/coach/hands/1/decisions/"
                f"{review['decisions'][0]['index']}/answer")
        r = client.post(base, json={"move": "knock Kz"}, headers=auth)
        assert r.status_code in (400, 422)
        r = client.post(base, json={"move": "big gin"}, headers=auth)
        assert r.status_code == 400 and r.json()["detail"]
        app.state.coach.pool.close()
    finally:
        pool.close()


def test_a_killed_coach_worker_is_replaced() -> None:
    pool = CoachPool(processes=1)
    try:
        assert pool.run("player:1", len, "abc") == 3
        executor = _shared_executor(1)
        for process in list(executor._processes.values()):  # type: ignore[attr-defined]
            os.kill(process.pid, signal.SIGKILL)
            process.join(30)
        # The request that finds the pool broken gets a 503 to retry; the next is answered.
        with pytest.raises(TooMany) as refused:
            pool.run("player:1", len, "abc")
        assert refused.value.status_code == 503
        assert pool.run("player:1", len, "abcd") == 4
    finally:
        pool.close()
