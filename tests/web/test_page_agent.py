"""The page against a server started with ``--opponent-module``: the New game window offers the
trained agent, and the agent answers moves made by clicks.

The first-legal policy rarely ends a hand, so a whole hand against it in the browser is long:
the page plays the first moves by clicks, the rest of the hand goes through the API with the
page's token (whole hands against the agent are played in process in ``test_agent.py``), and
the reloaded page shows the hand's end against the same opponent."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from .conftest import PAGE_SERVER_ARGS, Server
from .test_page import MAX_STEPS, finish_hand_through_api, open_table, play_by_clicks, state_of

AGENT = "agent_policy:first_legal"
#: The person's moves made by clicks: past the upcard, into draws and discards.
CLICKED_MOVES = 6


@pytest.fixture(scope="module")
def agent_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp("agent-server")
    server = Server(f"sqlite:///{folder / 'games.sqlite3'}", folder / "server.log",
                    args=("--opponent-module", AGENT, *PAGE_SERVER_ARGS)).start()
    yield server
    server.stop()


def test_the_new_game_window_offers_the_agent_and_a_hand_is_played_against_it(
    browser: Any, agent_server: Server
) -> None:
    ctx = browser.new_context(
        viewport={"width": 1280, "height": 900}, reduced_motion="reduce", bypass_csp=True
    )
    try:
        page = ctx.new_page()
        open_table(page, agent_server)
        page.wait_for_selector("#dlg-new[open]")
        choice = page.locator("#levels label", has_text=f"Agent ({AGENT})")
        assert choice.count() == 1
        choice.locator("input").check()
        page.click("#new-start")
        page.wait_for_selector("#hand .card")
        page.wait_for_function("document.body.dataset.busy === 'false'")
        assert state_of(page, agent_server)["level"] == "agent"
        assert "agent" in page.text_content("#opp-level")
        state = play_by_clicks(page, agent_server, CLICKED_MOVES)
        agent_moves = [m for m in state["hand"]["history"] if m["who"] == "computer"]
        assert agent_moves  # the agent answered the clicks
        if state["hand"]["result"] is None:
            yours = [m for m in state["hand"]["history"] if m["who"] == "you"]
            assert len(yours) == CLICKED_MOVES
        finish_hand_through_api(page, agent_server, MAX_STEPS)
        final = state_of(page, agent_server)
        assert final["hand"]["result"] is not None
        page.reload()  # the match, and its opponent, come back
        page.wait_for_selector("body[data-ready=true]")
        page.wait_for_selector("#hand-end:not([hidden])")
        assert page.inner_text("#end-text") == final["hand"]["result"]["explanation"]
        assert state_of(page, agent_server)["level"] == "agent"
        assert "agent" in page.text_content("#opp-level")
        assert page.errors == []
    finally:
        ctx.close()


def test_a_plain_server_does_not_offer_it(browser: Any, live_server: Server) -> None:
    page = browser.new_page()
    try:
        open_table(page, live_server)
        page.wait_for_selector("#dlg-new[open]")
        assert page.locator("#levels input[value=agent]").count() == 0
    finally:
        page.close()
