"""A killed server loses nothing: every acknowledged move is in the database."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import httpx

from .conftest import Server
from .helpers import choose


def _advance(client: httpx.Client, state: dict[str, Any], rng: random.Random,
             knock: bool = True) -> dict[str, Any]:
    if state["status"] == "between_hands":
        r = client.post(f"/api/matches/{state['id']}/next-hand",
                        json={"version": state["version"]})
    else:
        move = choose(state, rng, wild=0.2)
        if not knock and move.startswith(("knock", "big gin")):
            move = next(m for m in state["hand"]["legal_moves"] if m.startswith("discard"))
        r = client.post(f"/api/matches/{state['id']}/moves",
                        json={"move": move, "version": state["version"]})
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
        # Hollywood: the match cannot end before three hands have been won.
        state = client.post("/api/matches", json={"level": "random", "hollywood": True}).json()
        # Finish the first hand, then play on in the second without knocking (the random
        # computer almost never does), so the kill lands mid-hand, mid-match.
        while state["hand"]["number"] == 1:
            state = _advance(client, state, rng)
        for _ in range(6):
            if state["hand"]["result"] is not None:
                break
            state = _advance(client, state, rng, knock=False)
        assert state["status"] in ("playing", "between_hands")
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
