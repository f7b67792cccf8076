"""A killed server loses nothing: every acknowledged move is in the database."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import httpx

from .conftest import Server
from .helpers import choose


def _advance(client: httpx.Client, state: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    if state["status"] == "between_hands":
        r = client.post(f"/api/matches/{state['id']}/next-hand",
                        json={"version": state["version"]})
    else:
        r = client.post(f"/api/matches/{state['id']}/moves",
                        json={"move": choose(state, rng, wild=0.2), "version": state["version"]})
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


def test_sigkill_mid_match_then_restart_keeps_every_acknowledged_move(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    rng = random.Random(99)
    server = Server(db, tmp_path / "server.log").start()
    try:
        client = httpx.Client(base_url=server.url, timeout=30)
        token = client.post("/api/players", json={"name": "Kim"}).json()["token"]
        client.headers["Authorization"] = f"Bearer {token}"
        state = client.post("/api/matches", json={"level": "random"}).json()
        for _ in range(37):
            state = _advance(client, state, rng)
            if state["status"] == "over":  # pragma: no cover - 37 moves rarely finish a match
                break
        last = state
        server.kill()  # right after the last acknowledged answer
        client.close()
    finally:
        server.stop()

    again = Server(db, tmp_path / "server2.log").start()
    try:
        client = httpx.Client(base_url=again.url, timeout=30,
                              headers={"Authorization": f"Bearer {token}"})
        assert client.get("/api/me").json()["current_match"] == last["id"]
        resumed = client.get(f"/api/matches/{last['id']}").json()
        assert {**resumed, "computer_moves": []} == {**last, "computer_moves": []}
        # And play goes on from there.
        state = resumed
        for _ in range(10):
            if state["status"] == "over":
                break
            state = _advance(client, state, rng)
        assert state["version"] > last["version"]
        client.close()
    finally:
        again.stop()
