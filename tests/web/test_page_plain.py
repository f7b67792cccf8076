"""Plain words at the table (issue 38, items 1 and 2), in Chromium against the real server, at
desktop (1280×800) and phone (390×844) sizes:

- the New game window's Start is on screen without scrolling, for either opponent, and the
  two choices (who to play; how well the computer plays) are visibly separate;
- no view of the table shows the words commitment, nonce or seed unless a "details" is open:
  a hand against the computer, its end, a table for two waiting and being played; opening
  the details shows them.

Before this, Start sat below the window's edge (at y≈1424 on the phone), the opponent and the
levels read as one list of six with two ticked, and the score box always showed the
commitment and the seed."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from .conftest import Server, loopback_client
from .helpers import People
from .test_page import deal, finish_hand_through_api, open_table

SIZES = {
    "desktop": {"viewport": {"width": 1280, "height": 800}},
    "phone": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True},
}
JARGON = re.compile(r"commitment|nonce|seed", re.IGNORECASE)


@pytest.fixture(params=list(SIZES))
def page(browser: Any, request: pytest.FixtureRequest) -> Iterator[Any]:
    ctx = browser.new_context(**SIZES[request.param], reduced_motion="reduce", bypass_csp=True)
    yield ctx.new_page()
    ctx.close()


def _on_screen(page: Any, selector: str) -> bool:
    box = page.locator(selector).bounding_box()
    view = page.viewport_size
    return bool(box) and box["y"] >= 0 and box["x"] >= 0 and (
        box["y"] + box["height"] <= view["height"]) and box["x"] + box["width"] <= view["width"]


def test_start_is_on_screen_and_the_two_choices_are_apart(page: Any, live_server: Server) -> None:
    open_table(page, live_server)
    page.wait_for_selector("#dlg-new[open]")
    for opponent in ("computer", "person", "computer"):
        page.locator(f"input[name=opponent][value={opponent}]").check(force=True)
        assert _on_screen(page, "#new-start"), opponent
        assert page.evaluate("document.documentElement.scrollTop") == 0
    # Who to play, and how well the computer plays: two groups with their own headings, one
    # above the other, never one list.
    who = page.locator(".choose-opponent").bounding_box()
    levels = page.locator("#levels-box").bounding_box()
    assert who and levels and who["y"] + who["height"] <= levels["y"]
    assert page.text_content(".choose-opponent legend") == "Who do you want to play?"
    assert page.text_content("#levels-box legend") == "How well the computer plays"
    assert page.locator(".choose-opponent input").count() == 2
    assert page.locator("#levels input").count() >= 4
    page.locator("#dlg-new").screenshot(path="test-artifacts/new-game-window.png")


def _shown(page: Any) -> str:
    """The text a person sees: rendered text only (closed details and windows are not)."""
    text: str = page.evaluate("document.body.innerText")
    return text


def _no_jargon(page: Any, where: str) -> None:
    found = JARGON.findall(_shown(page))
    assert not found, f"{where}: {found}"


def test_no_view_of_a_computer_table_shows_seal_words_until_details_open(
    page: Any, live_server: Server
) -> None:
    open_table(page, live_server)
    deal(page)
    _no_jargon(page, "mid-hand")
    page.click("#seal-line-more summary")
    assert "commitment" in page.inner_text("#seal-line")
    finish_hand_through_api(page, live_server, 400)
    page.reload()
    page.wait_for_selector("#hand-end:not([hidden])")
    page.wait_for_selector("#seal-verdict[data-ok=true]")
    _no_jargon(page, "hand end")
    page.click("#seal-more")
    assert JARGON.search(page.inner_text("#hand-meta"))
    assert not page.errors


def test_no_view_of_a_table_for_two_shows_seal_words(
    page: Any, live_server: Server
) -> None:
    open_table(page, live_server)
    page.wait_for_selector("#dlg-new[open]")
    page.locator("input[name=opponent][value=person]").check(force=True)
    page.fill("#opt-name", "Ann")
    page.click("#new-start")
    page.wait_for_selector("#invite-box:not([hidden])")
    _no_jargon(page, "waiting for the other person")
    with loopback_client(base_url=live_server.url, timeout=30) as client:
        t = People.join_page(client, page, "bob")
        # Ann's page sends its own seed by itself: the hand is dealt, nobody pressed Deal.
        page.wait_for_function("document.body.dataset.status === 'playing'")
        _no_jargon(page, "a hand between two people")
        t.finish_hand()
    page.wait_for_selector("#hand-end:not([hidden])")
    page.wait_for_selector("#seal-verdict[data-ok=true]")
    _no_jargon(page, "a hand between two people, over")
    assert not page.errors
