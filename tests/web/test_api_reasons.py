"""The reasons the page shows for a disabled button are the engine's own: posting the move
anyway gets back exactly the sentence the button carried (and changes nothing)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from fastapi.testclient import TestClient

from .test_api import advance, new_match, new_player

#: Buttons that stand for one move whatever card is selected.
_MOVES = {"take": "take", "pass": "pass", "draw": "draw", "big_gin": "big gin"}


def _refused(client: TestClient, auth: dict[str, str], state: dict[str, Any], move: str) -> str:
    r = client.post(f"/api/matches/{state['id']}/moves",
                    json={"move": move, "version": state["version"]}, headers=auth)
    assert r.status_code == 400, (move, r.text)
    detail: str = r.json()["detail"]
    return detail


def test_a_disabled_buttons_reason_is_what_the_engine_says(
    client: TestClient, request: pytest.FixtureRequest
) -> None:
    """Every disabled button of every position of a hand of random moves (three hands with
    --slow: each is about 500 refused requests)."""
    auth = new_player(client)
    rng = random.Random(2)
    checked = 0
    for _ in range(3 if request.config.getoption("--slow") else 1):
        state = new_match(client, auth, profile="modern")
        while state["status"] == "playing" and state["hand"]["your_turn"]:
            hand = state["hand"]
            for act, move in _MOVES.items():
                action = hand["actions"][act]
                if not action["enabled"]:
                    assert _refused(client, auth, state, move) == action["reason"]
                    checked += 1
            for option in hand["card_options"]:
                for act, verb in (("discard", "discard"), ("knock", "knock")):
                    action = option["actions"][act]
                    if not action["enabled"] and not (act == "knock" and option["gin"]):
                        reason = _refused(client, auth, state, f"{verb} {option['card']}")
                        assert reason == action["reason"]
                        checked += 1
            if not hand["card_options"] and hand["phase"] in ("draw", "opening"):
                card = hand["cards"][0]
                assert _refused(client, auth, state, f"discard {card}") == (
                    hand["actions"]["discard"]["reason"])
            state = advance(client, auth, state, rng.choice(hand["legal_moves"]))
    assert checked > 10, checked
