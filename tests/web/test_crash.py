"""A killed server loses nothing: every acknowledged move is in the database, and so are the
sealed deals (the commitment shown before the kill is the one the deal keeps to after it)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import httpx

from ginrummy.engine.verify import verify_record

from .conftest import Server, loopback_client
from .helpers import choose


def _advance(client: httpx.Client, state: dict[str, Any], rng: random.Random,
             knock: bool = True, shown: dict[int, str] | None = None) -> dict[str, Any]:
    if state["status"] == "between_hands":
        upcoming = state["meta"]["sealed"]["next"]
        if shown is not None:
            shown[upcoming["hand"]] = upcoming["commitment"]
        r = client.post(f"/api/matches/{state['id']}/next-hand",
                        json={"version": state["version"], "client_seed": f"kim {rng.random()}"})
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
        client = loopback_client(base_url=server.url, timeout=30)
        token = client.post("/api/players", json={"name": "Kim"}).json()["token"]
        client.headers["Authorization"] = f"Bearer {token}"
        # Hollywood: the match cannot end before three hands have been won.
        state = client.post("/api/matches", json={"level": "random", "hollywood": True,
                                                  "deal": False}).json()
        shown: dict[int, str] = {}  # hand number -> commitment shown before its deal
        # Finish the first hand, then play on in the second without knocking (the random
        # computer almost never does), so the kill lands mid-hand, mid-match.
        while state["hand"] is None or state["hand"]["number"] == 1:
            state = _advance(client, state, rng, shown=shown)
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
        client = loopback_client(base_url=again.url, timeout=30,
                                 headers={"Authorization": f"Bearer {token}"})
        assert client.get("/api/me").json()["current_match"] == last["id"]
        resumed = client.get(f"/api/matches/{last['id']}").json()
        assert {**resumed, "computer_moves": []} == {**last, "computer_moves": []}
        # And play goes on from there, with the seals made before the kill: the hands finished
        # by then verify against the commitments shown before their deals.
        state = resumed
        while state["status"] != "over" and len(shown) < 3:
            state = _advance(client, state, rng, shown=shown)
        assert state["version"] > last["version"]
        done = state["hand"]["number"] - (state["hand"]["result"] is None)
        assert done >= 2
        record = client.get(f"/api/matches/{state['id']}/record", params={"hands": done})
        assert record.status_code == 200
        report = verify_record(record.text, published={n: shown[n] for n in range(1, done + 1)})
        assert report.ok and [h.status for h in report.hands] == ["verified"] * done
        client.close()
    finally:
        again.stop()
