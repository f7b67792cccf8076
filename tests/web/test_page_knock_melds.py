"""The knocker chooses the melds in the page (issue 11, item 5), in Chromium through Playwright
against the real server, at desktop and phone widths.

The match is stacked (``knock_choice.py``): knocking with the K♣ leaves two groupings with the
same 6 deadwood. The window offers both, the default checked, each with the spots where cards
could be laid off; the person picks the other one by keyboard or by click (a tap on the phone),
and the hand's result lays down those melds (the computer lays off the 9♥ on 5-6-7-8♥).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import Server, http_get
from .knock_choice import DEFAULT_MELDS, OTHER_MELDS, OTHER_MOVE, meld_groups, open_stacked

DESKTOP = {"viewport": {"width": 1280, "height": 900}}
PHONE = {
    "viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True,
    "device_scale_factor": 2,
}
#: Upper bound on arrow presses to reach a card of an eleven-card hand.
MAX_KEYS = 11


@pytest.fixture(params=["desktop", "phone"])
def page(request: pytest.FixtureRequest, browser: Any) -> Iterator[Any]:
    ctx = browser.new_context(
        **(DESKTOP if request.param == "desktop" else PHONE), reduced_motion="reduce",
        bypass_csp=True,
    )
    p = ctx.new_page()
    p.width_name = request.param
    p.errors = []
    p.on("pageerror", lambda e: p.errors.append(str(e)))
    yield p
    ctx.close()


def state(server: Server, auth: dict[str, str], match_id: str) -> dict[str, Any]:
    out: dict[str, Any] = http_get(f"{server.url}/api/matches/{match_id}", headers=auth).json()
    return out


def check_result(page: Any, server: Server, auth: dict[str, str], match_id: str,
                 melds: list[list[str]], laid_off: list[str]) -> None:
    page.wait_for_selector("#hand-end:not([hidden])")
    assert meld_groups(page, "#end-you") == melds
    laid = page.eval_on_selector_all("#end-comp .group.laid .card",
                                     "cs => cs.map(c => c.dataset.card)")
    assert laid == laid_off
    result = state(server, auth, match_id)["hand"]["result"]
    assert result["you"]["melds"] == melds and result["layoffs"] == laid_off
    history = http_get(f"{server.url}/api/matches/{match_id}/record", headers=auth)
    assert history.status_code == 200
    knock = OTHER_MOVE if melds == OTHER_MELDS else "knock Kc"
    assert f'"{knock}"' in history.text


def test_pick_the_other_grouping_by_keyboard(page: Any, live_server: Server,
                                            artifacts: Path) -> None:
    auth, match_id = open_stacked(page, live_server)
    page.keyboard.press("h")
    for _ in range(MAX_KEYS):
        if page.evaluate("document.activeElement.dataset.card") == "Kc":
            break
        page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement.dataset.card") == "Kc"
    page.keyboard.press("Enter")
    expect(page.locator('#hand .card[data-card="Kc"]')).to_have_attribute("aria-pressed", "true")
    version = state(live_server, auth, match_id)["version"]
    page.keyboard.press("k")
    dialog = page.locator("#dlg-melds[open]")
    expect(dialog).to_be_visible()
    # Escape goes back with nothing sent; K opens the window again.
    page.keyboard.press("Escape")
    expect(page.locator("#dlg-melds")).not_to_be_visible()
    assert state(live_server, auth, match_id)["version"] == version
    page.keyboard.press("k")
    expect(dialog).to_be_visible()
    # Cancelled and opened again at once, in one task: the closing's "close" event comes after
    # the new opening, and must not answer for it (the window stays open, and its Knock knocks).
    page.evaluate("""() => {
        document.getElementById("melds-cancel").click();
        document.dispatchEvent(new KeyboardEvent("keydown", {key: "k", bubbles: true}));
    }""")
    expect(dialog).to_be_visible()
    radios = dialog.get_by_role("radio")
    expect(radios).to_have_count(2)
    # The default is checked and has the focus; its name says its melds and its one spot.
    expect(radios.nth(0)).to_be_checked()
    expect(radios.nth(0)).to_be_focused()
    expect(radios.nth(0)).to_have_accessible_name(
        "Default: melds eight of clubs, eight of diamonds, eight of hearts, eight of spades; "
        "five of hearts, six of hearts, seven of hearts; deadwood 6 (ace of clubs, two of "
        "diamonds, three of spades); cards that could be laid off: four of hearts")
    expect(radios.nth(1)).to_have_accessible_name(
        "melds eight of clubs, eight of diamonds, eight of spades; five of hearts, six of "
        "hearts, seven of hearts, eight of hearts; deadwood 6 (ace of clubs, two of diamonds, "
        "three of spades); cards that could be laid off: four of hearts, nine of hearts")
    page.keyboard.press("ArrowDown")
    expect(radios.nth(1)).to_be_checked()
    page.screenshot(path=str(artifacts / f"knock-melds-{page.width_name}.png"))
    page.keyboard.press("Enter")
    expect(page.locator("#dlg-melds")).not_to_be_visible()
    check_result(page, live_server, auth, match_id, OTHER_MELDS, ["9h"])
    assert page.errors == []


def test_pick_the_other_grouping_by_click_or_tap_after_a_cancel(
    page: Any, live_server: Server
) -> None:
    auth, match_id = open_stacked(page, live_server)
    version = state(live_server, auth, match_id)["version"]
    press = (lambda loc: loc.tap()) if page.width_name == "phone" else (lambda loc: loc.click())
    press(page.locator('#hand .card[data-card="Kc"]'))
    press(page.locator("[data-act=knock]"))
    dialog = page.locator("#dlg-melds[open]")
    expect(dialog).to_be_visible()
    # The spots are drawn beside each meld: the 4♥ for the default; the 4♥ and 9♥ for the other.
    choices = dialog.locator(".melds-choice")
    spots = "els => els.map(e => e.dataset.card)"
    assert choices.nth(0).locator(".card.spot").evaluate_all(spots) == ["4h"]
    assert choices.nth(1).locator(".card.spot").evaluate_all(spots) == ["4h", "9h"]
    box = dialog.bounding_box()
    width = page.viewport_size["width"]
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
    # Cancel sends nothing: the card stays selected and the hand goes on.
    press(page.locator("#melds-cancel"))
    expect(page.locator("#dlg-melds")).not_to_be_visible()
    assert state(live_server, auth, match_id)["version"] == version
    expect(page.locator('#hand .card[data-card="Kc"]')).to_have_attribute("aria-pressed", "true")
    press(page.locator("[data-act=knock]"))
    expect(dialog).to_be_visible()
    expect(dialog.get_by_role("radio").nth(0)).to_be_checked()
    press(choices.nth(1))
    expect(dialog.get_by_role("radio").nth(1)).to_be_checked()
    press(page.locator("#melds-knock"))
    check_result(page, live_server, auth, match_id, OTHER_MELDS, ["9h"])
    assert page.errors == []


def test_the_default_grouping_is_one_press_away(page: Any, live_server: Server) -> None:
    auth, match_id = open_stacked(page, live_server)
    page.click('#hand .card[data-card="Kc"]')
    page.click("[data-act=knock]")
    expect(page.locator("#dlg-melds[open]")).to_be_visible()
    page.keyboard.press("Enter")
    check_result(page, live_server, auth, match_id, DEFAULT_MELDS, [])
    assert page.errors == []
