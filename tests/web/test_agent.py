"""A trained agent as the opponent: ``ginrummy serve --opponent-module MODULE:ATTR`` offers the
policy as level ``"agent"``, seated through ``PolicyPlayer`` in the computer's seat; a server
without one neither offers nor accepts it, and a reload (or another server started with the
same option) seats it again."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient

from ginrummy.cli import main
from ginrummy.engine.errors import GinRummyError
from ginrummy.server import create_app
from ginrummy.server.store import Store

from .helpers import choose
from .test_api import advance, new_player

HERE = Path(__file__).resolve().parent
AGENT = "agent_policy:first_legal"


@pytest.fixture()
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Store]:
    monkeypatch.syspath_prepend(str(HERE))
    s = Store(f"sqlite:///{tmp_path / 'games.sqlite3'}")
    yield s
    s.close()


def start(client: TestClient, auth: dict[str, str]) -> dict[str, Any]:
    r = client.post("/api/matches", json={"level": "agent"}, headers=auth)
    assert r.status_code == 201, r.text
    return advance(client, auth, r.json(), None)


def test_the_agent_is_offered_and_plays_whole_hands(store: Store) -> None:
    import agent_policy

    client = TestClient(create_app(store=store, agent=AGENT))
    options = client.get("/api/options").json()
    assert options["levels"][-1] == "agent" and options["agent"] == AGENT
    auth = new_player(client)
    agent_policy.SEEN.clear()
    state = start(client, auth)
    assert state["level"] == "agent"
    hands = 0  # hands finished
    for _ in range(400):
        if state["status"] == "over":
            break
        if state["status"] == "between_hands":
            hands += 1
            if hands == 3:  # stop between hands: the record lists only finished hands
                break
            state = advance(client, auth, state, None)
        else:
            state = advance(client, auth, state, choose(state))
    assert hands == 3 or state["status"] == "over"
    assert agent_policy.SEEN  # the computer's moves were the policy's
    # The record names the agent, for the history and `ginrummy verify`.
    r = client.get(f"/api/matches/{state['id']}/record", headers=auth)
    assert r.status_code == 200 and f"agent {AGENT}" in r.text


def test_a_reload_and_a_second_server_keep_the_agent(store: Store) -> None:
    client = TestClient(create_app(store=store, agent=AGENT))
    auth = new_player(client)
    state = start(client, auth)
    state = advance(client, auth, state, choose(state))
    again = TestClient(create_app(store=store, agent=AGENT))  # no cache: rebuilt from the store
    reloaded = again.get(f"/api/matches/{state['id']}", headers=auth).json()
    assert reloaded["level"] == "agent" and reloaded["version"] == state["version"]
    assert reloaded["hand"] == state["hand"]
    after = advance(again, auth, reloaded, choose(reloaded))
    assert after["version"] > state["version"]


def test_without_the_option_there_is_no_agent(store: Store) -> None:
    plain = TestClient(create_app(store=store))
    assert "agent" not in plain.get("/api/options").json()["levels"]
    assert plain.get("/api/options").json()["agent"] is None
    auth = new_player(plain)
    r = plain.post("/api/matches", json={"level": "agent"}, headers=auth)
    assert r.status_code == 400 and "--opponent-module" in r.json()["detail"]
    # A match against the agent, opened on a server without it: refused with the reason.
    state = start(TestClient(create_app(store=store, agent=AGENT)), auth)
    r = plain.get(f"/api/matches/{state['id']}", headers=auth)
    assert r.status_code == 409 and "without one" in r.json()["detail"]


@pytest.mark.parametrize(("reference", "reason"), [
    ("agent_policy", "package.module:attribute"),
    ("no_such_module_here:policy", "cannot import"),
    ("agent_policy:nothing", "has no"),
    ("agent_policy:NOT_A_POLICY", "not callable"),
])
def test_a_bad_reference_is_refused_before_the_server_starts(
    store: Store, reference: str, reason: str
) -> None:
    with pytest.raises(GinRummyError, match=reason):
        create_app(store=store, agent=reference)
    result = CliRunner().invoke(main, ["serve", "--port", "0", "--opponent-module", reference])
    assert result.exit_code == 2 and reason in result.output, result.output
    assert "ready" not in result.output


@pytest.mark.parametrize(("reference", "reason"), [
    ("agent_policy:failing", "RuntimeError: weights file missing"),
    ("agent_policy:illegal", "which is not legal here"),
])
def test_an_agent_that_fails_to_move_is_the_servers_fault_and_changes_nothing(
    store: Store, reference: str, reason: str
) -> None:
    """The policy raises, or picks an action the mask forbids: the request that asked it to
    move is a 500 saying so (not a 400, as for the person's own illegal move), and the match
    is as it was before that request."""
    client = TestClient(create_app(store=store, agent=reference), raise_server_exceptions=False)
    auth = new_player(client)
    r = client.post("/api/matches", json={"level": "agent"}, headers=auth)
    assert r.status_code == 201, r.text
    state = r.json()
    for _ in range(10):  # the person's moves, until the agent is asked for one
        if state["status"] == "between_hands":
            body: dict[str, Any] = {"version": state["version"], "client_seed": "seed"}
            r = client.post(f"/api/matches/{state['id']}/next-hand", json=body, headers=auth)
        else:
            r = client.post(f"/api/matches/{state['id']}/moves", headers=auth,
                            json={"move": choose(state), "version": state["version"]})
        if r.status_code != 200:
            break
        state = r.json()
    else:
        raise AssertionError("the agent was never asked for a move")
    assert r.status_code == 500, r.text
    detail = r.json()["detail"]
    assert detail.startswith("The computer player failed to move, so nothing was played")
    assert reason in detail
    now = client.get(f"/api/matches/{state['id']}", headers=auth).json()
    assert (now["version"], now["status"], now["hand"]) == (
        state["version"], state["status"], state["hand"])
