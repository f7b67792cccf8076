"""Nothing in the page ends a person's match without their yes (issue 37, item 1), in Chromium
against the real server: opening an invite link shows the table's terms and what joining would
end, and "Not now" changes nothing; the guided round asks the same before it starts.

Before this, ``/?invite=X`` joined at once, forfeiting the match in progress as a rated loss,
and Learn's "Start the guided round" abandoned it silently."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from .conftest import Server, http_get, http_post
from .test_page import deal, open_table, state_of


@pytest.fixture()
def page(browser: Any) -> Iterator[Any]:
    ctx = browser.new_context(viewport={"width": 1280, "height": 800}, reduced_motion="reduce",
                              bypass_csp=True)
    yield ctx.new_page()
    ctx.close()


def _table_for_two(server: Server, clock: int | None = 60) -> dict[str, Any]:
    """Ann's table for two (made through the API), waiting for someone to join."""
    token = http_post(server.url + "/api/players", json={"name": "Ann"}).json()["token"]
    made: dict[str, Any] = http_post(
        server.url + "/api/matches", headers={"Authorization": f"Bearer {token}"},
        json={"opponent": "person", "profile": "oklahoma", "clock": clock}).json()
    return made


def _status(page: Any, server: Server, match_id: str) -> str:
    token = page.evaluate("localStorage.getItem('ginrummy.token')")
    r = http_get(f"{server.url}/api/matches/{match_id}",
                 headers={"Authorization": f"Bearer {token}"})
    status: str = r.json()["status"]
    return status


def test_an_invite_link_asks_first_and_says_what_joining_ends(
    page: Any, live_server: Server
) -> None:
    open_table(page, live_server)
    deal(page)  # a match against the computer, in progress
    mine = state_of(page, live_server)["id"]
    made = _table_for_two(live_server)

    page.goto(f"{live_server.url}/?invite={made['invite']}")
    page.wait_for_selector("#dlg-join[open]")
    assert page.text_content("#join-title") == "Join Ann's table?"
    terms = page.inner_text("#join-terms")
    assert "Oklahoma" in terms and "60 seconds a move" in terms
    warning = page.inner_text("#join-warning")
    assert "ends your match against the computer" in warning and "loss" in warning
    assert page.text_content("#join-yes") == "End my match and join"
    # Not now: nothing changed, the match in progress is still on the table.
    page.click("#join-no")
    page.wait_for_function("document.body.dataset.busy === 'false'")
    assert _status(page, live_server, mine) == "playing"
    assert state_of(page, live_server)["id"] == mine
    page.wait_for_function(f"document.body.dataset.match === '{mine}'")
    assert not page.errors

    # The link again, and the person's yes: seated at Ann's table, the old match forfeited.
    page.goto(f"{live_server.url}/?invite={made['invite']}")
    page.wait_for_selector("#dlg-join[open]")
    page.click("#join-yes")
    page.wait_for_selector("#dlg-name[open]")  # the name Ann will see, asked after the yes
    page.fill("#name-input", "Bob")
    page.click("#name-ok")
    page.wait_for_selector("#people-bar:not([hidden])")
    assert state_of(page, live_server)["id"] == made["id"]
    assert _status(page, live_server, mine) == "abandoned"
    assert not page.errors


def test_an_unknown_invite_says_so_and_leaves_the_match_alone(
    page: Any, live_server: Server
) -> None:
    open_table(page, live_server)
    deal(page)
    mine = state_of(page, live_server)["id"]
    page.goto(f"{live_server.url}/?invite=NOSUCHCODE")
    page.wait_for_selector("body[data-ready=true]")
    page.locator("#reason").filter(has_text="No open table").wait_for()
    assert _status(page, live_server, mine) == "playing"


def test_the_guided_round_asks_before_it_ends_a_match_in_progress(
    page: Any, live_server: Server
) -> None:
    open_table(page, live_server)
    deal(page)
    mine = state_of(page, live_server)["id"]
    for answer in ("#confirm-no", "#confirm-yes"):
        page.click("#btn-learn")
        page.wait_for_selector("#dlg-learn[open]")
        page.click("#learn-tour")
        page.wait_for_selector("#dlg-confirm[open]")
        assert page.text_content("#confirm-title") == "Start the guided round?"
        text = page.text_content("#confirm-text") or ""
        assert "ends your match against the computer" in text and "loss" in text
        page.click(answer)
        page.wait_for_function("!document.querySelector('#dlg-confirm[open]')")
        if answer == "#confirm-no":
            assert _status(page, live_server, mine) == "playing"
    page.wait_for_selector("#guide:not([hidden])")
    assert _status(page, live_server, mine) == "abandoned"
    assert state_of(page, live_server)["id"] != mine
    assert not page.errors
