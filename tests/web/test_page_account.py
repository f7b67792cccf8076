"""The page's account settings and forfeit warning, in Chromium: a transfer code shown on one
browser signs another in to the same match (once), "Sign out everywhere" signs the other out,
and the New game window says that starting over an unfinished match forfeits it, which the
history then shows as a loss."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from .conftest import Server, http_get
from .test_page import deal, open_table, state_of


@pytest.fixture()
def two(browser: Any) -> Iterator[tuple[Any, Any]]:
    """Two browsers (contexts with their own storage)."""
    first = browser.new_context(viewport={"width": 1280, "height": 800}, bypass_csp=True)
    second = browser.new_context(viewport={"width": 1280, "height": 800}, bypass_csp=True)
    yield first.new_page(), second.new_page()
    first.close()
    second.close()


def _settings(page: Any) -> None:
    page.click("#btn-settings")
    page.wait_for_selector("#dlg-settings[open]")


def test_a_transfer_code_carries_the_match_and_a_new_game_is_a_forfeit(
    two: tuple[Any, Any], live_server: Server
) -> None:
    a, b = two
    open_table(a, live_server)
    deal(a)
    match_id = state_of(a, live_server)["id"]

    _settings(a)
    a.click("#account-code")
    a.wait_for_function("document.getElementById('account-code-out').textContent.length > 0")
    code = a.text_content("#account-code-out")
    assert code and len(code) == 14
    a.click("#dlg-settings button.close")

    open_table(b, live_server)
    b.wait_for_selector("#dlg-new[open]")
    b.click("#new-cancel")
    _settings(b)
    b.fill("#account-claim-code", code.lower())
    with b.expect_navigation():
        b.click("#account-claim button[type=submit]")
    b.wait_for_selector("body[data-ready=true]")
    assert state_of(b, live_server)["id"] == match_id
    b_token = b.evaluate("localStorage.getItem('ginrummy.token')")

    _settings(b)  # the code works once
    b.fill("#account-claim-code", code)
    b.click("#account-claim button[type=submit]")
    b.wait_for_function(
        "document.getElementById('account-status').textContent.includes('used already')")
    assert b.get_attribute("#account-claim-code", "aria-invalid") == "true"

    _settings(a)
    a.once("dialog", lambda d: d.accept())
    a.click("#account-signout")
    a.wait_for_function(
        "document.getElementById('account-status').textContent.includes('signed out')")
    a.click("#dlg-settings button.close")
    gone = http_get(live_server.url + "/api/me", headers={"Authorization": f"Bearer {b_token}"})
    assert gone.status_code == 401
    assert state_of(a, live_server)["id"] == match_id  # this browser keeps it

    a.click("#btn-new")
    a.wait_for_selector("#dlg-new[open]")
    warning = a.locator("#new-warning")
    assert warning.is_visible()
    text = warning.text_content() or ""
    assert text.startswith("Starting a new game ends your match against the computer (")
    assert text.endswith("it counts as a loss.")
    # The button itself says it: the person's yes is explicit (issue 37 item 1).
    assert a.text_content("#new-start") == "End my match and start"
    deal(a)
    assert state_of(a, live_server)["id"] != match_id
    a.click("#btn-history")
    a.wait_for_selector("#matches table")
    row = a.locator("#matches tbody tr").first.text_content()
    assert row is not None and "forfeit (lost)" in row
    assert "1 (0–1)" in (a.text_content("#stats") or "")
