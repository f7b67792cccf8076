"""The table on a phone and the first minutes in the browser (issue 16), in Debian's Chromium
against the real server: a turn fits on one screen at 390×844, 360×740 and 1280×800 (checked by
the elements' bounding boxes), the result of a hand and of a match is where the person looks,
and the screenshots in docs/screenshots/ come from here (saved to test-artifacts/).

Also the small things a newcomer meets: the empty table after cancelling the first New game
window, a double click on the stock, two tabs, the Rules window and the keyboard hints on a
touch screen, focus against selection, and an axe-core scan of the table, a lesson and the
coach's review (no serious or critical violation).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import Server
from .helpers import choose
from .test_page import (
    COUNT_FLYERS,
    KEYS,
    button_for,
    deal,
    finish_hand_through_api,
    focus_card_by_keyboard,
    open_table,
    play_hand_by_clicks,
    play_hand_by_keyboard,
    state_of,
    wait_after,
)
from .test_page_match_end import stored_comeback

AXE = Path(__file__).parent / "vendor" / "axe.min.js"
SIZES = {
    "phone": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True,
              "device_scale_factor": 2},
    "small-phone": {"viewport": {"width": 360, "height": 740}, "is_mobile": True,
                    "has_touch": True, "device_scale_factor": 2},
    "desktop": {"viewport": {"width": 1280, "height": 800}},
}


def new_page(browser: Any, size: str) -> tuple[Any, Any]:
    ctx = browser.new_context(**SIZES[size], reduced_motion="reduce", bypass_csp=True)
    page = ctx.new_page()
    page.size_name = size
    return ctx, page


@pytest.fixture(params=list(SIZES))
def sized(request: pytest.FixtureRequest, browser: Any) -> Iterator[Any]:
    ctx, page = new_page(browser, request.param)
    yield page
    ctx.close()


@pytest.fixture()
def desktop(browser: Any) -> Iterator[Any]:
    ctx, page = new_page(browser, "desktop")
    yield page
    ctx.close()


@pytest.fixture()
def phone(browser: Any) -> Iterator[Any]:
    ctx, page = new_page(browser, "phone")
    yield page
    ctx.close()


def inside(page: Any, selector: str) -> None:
    """``selector``'s box lies wholly inside the viewport, as the page stands (no scrolling)."""
    box = page.locator(selector).bounding_box()
    view = page.viewport_size
    assert box is not None, f"{selector} is not shown"
    assert box["x"] >= 0 and box["x"] + box["width"] <= view["width"], (selector, box)
    assert box["y"] >= 0 and box["y"] + box["height"] <= view["height"], (selector, box)


def axe_violations(page: Any) -> list[str]:
    """The serious and critical axe-core violations of the page as it stands."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    found = page.evaluate("""async () => {
        const r = await axe.run(document, {resultTypes: ['violations']});
        return r.violations.filter(v => ['serious', 'critical'].includes(v.impact))
          .map(v => `${v.id} (${v.impact}): ${v.nodes.map(n => n.target.join(' ')).join(', ')}`);
    }""")
    return list(found)


def test_a_turn_fits_on_one_screen_and_the_result_is_in_view(
    sized: Any, live_server: Server, artifacts: Path
) -> None:
    """On the phones the hand is played by clicks and taps; on the desktop by keyboard only
    (the whole hand: the deal, every move, the selection and the next hand), with reduced
    motion, so nothing flies, and the result announced to screen readers."""
    page = sized
    by_keys = page.size_name == "desktop"
    if by_keys:
        page.add_init_script(COUNT_FLYERS)
    open_table(page, live_server)
    deal(page, keyboard=by_keys)
    # The computer, first to play, can take the upcard and knock at once (a deal in a few
    # dozen): that hand ends before the person moves, so its table is not the one measured here.
    for _ in range(10):
        state = state_of(page, live_server)
        if not state["hand"]["result"]:
            break
        if by_keys:
            page.keyboard.press("n")
        else:
            page.click("#btn-next")
        wait_after(page, state["version"])
    else:
        pytest.fail("ten hands in a row ended before the person's first move")
    first = state["hand"]["number"]
    assert page.evaluate("scrollY") == 0
    # After the deal, without scrolling: the computer's summary, both piles, the prompt, every
    # card of your hand and the action buttons.
    for sel in ("#opp-title", "#opp-count", "#stock", "#discard-pile", "#prompt", "#deadwood"):
        inside(page, sel)
    cards = page.locator("#hand .card")
    assert cards.count() in (10, 11)
    for i in range(cards.count()):
        inside(page, f"#hand .card >> nth={i}")
    for act in page.locator("[data-act]:visible").all():
        inside(page, f'[data-act="{act.get_attribute("data-act")}"]')
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]
    assert axe_violations(page) == []
    # Mid-hand: take or draw, so the hand holds 11 cards and a "new" one (the screenshot).
    state = state_of(page, live_server)
    while state["hand"]["phase"] != "discard" and not state["hand"]["result"]:
        move = choose(state)
        act = button_for(state, move)
        if by_keys:
            page.keyboard.press(KEYS[act])
        else:
            page.click("#stock" if act == "draw" else f"[data-act={act}]")
        wait_after(page, state["version"])
        state = state_of(page, live_server)
    if not state["hand"]["result"]:
        for i in range(cards.count()):
            inside(page, f"#hand .card >> nth={i}")
        inside(page, "[data-act=discard]")
        page.screenshot(path=str(artifacts / f"mid-hand-{page.size_name}.png"))
        # With a "new" card and a selected one (its ✓); a second click (or Enter) puts it back.
        last = page.locator("#hand .card").last
        if by_keys:
            focus_card_by_keyboard(page, str(last.get_attribute("data-card")))
            page.keyboard.press("Enter")
        else:
            last.click()
        expect(last).to_have_attribute("aria-pressed", "true")
        assert axe_violations(page) == []
        if by_keys:
            page.keyboard.press("Enter")
        else:
            last.click()
        expect(last).to_have_attribute("aria-pressed", "false")
    # The hand's end (a knock, a gin or a dead hand): its title, the result in words and the
    # Next hand button are in view, announced, and the computer's backs are gone.
    final = (play_hand_by_keyboard if by_keys else play_hand_by_clicks)(page, live_server)
    result = final["hand"]["result"]
    page.locator("#announcer").filter(has_text=result["explanation"]).wait_for(state="attached")
    for sel in ("#end-title", "#end-text", "#btn-next"):
        inside(page, sel)
    assert page.evaluate("document.activeElement.id") == "btn-next"
    assert page.locator("#opp-backs").is_hidden() and page.locator("#opp-count").is_hidden()
    # The sealed deal is one quiet line; the hex is a click away.
    page.wait_for_selector('#seal-verdict[data-ok="true"]')
    assert final["meta"]["sealed"]["hand"]["server_seed"] not in page.inner_text("body")
    page.screenshot(path=str(artifacts / f"hand-end-{page.size_name}.png"))
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]
    if by_keys:
        assert page.evaluate("window.__flyers") == 0  # reduced motion: nothing flies
        if final["status"] == "between_hands":  # "n" deals the next hand
            page.keyboard.press("n")
            wait_after(page, final["version"])
            assert state_of(page, live_server)["hand"]["number"] == first + 1
            assert page.locator("#hand-end").is_hidden()
    elif final["status"] == "between_hands":
        # The result was scrolled into view; the next deal is shown from the top again.
        page.click("#btn-next")
        wait_after(page, final["version"])
        assert page.locator("#hand-end").is_hidden()
        assert page.evaluate("scrollY") == 0
    assert not page.errors


def test_the_match_end_is_in_view(sized: Any, live_server: Server, artifacts: Path) -> None:
    page = sized
    token = stored_comeback(live_server)
    page.add_init_script(f"localStorage.setItem('ginrummy.token', {token!r})")
    page.goto(live_server.url + "/")
    page.wait_for_selector("body[data-ready=true]")
    page.click('#hand .card[data-card="Kh"]')
    page.click("[data-act=gin]")
    page.wait_for_selector("#end-match:not([hidden])")
    page.wait_for_function("document.body.dataset.busy === 'false'")
    for sel in ("#end-title", "#end-text", "#end-match", "#btn-next"):
        inside(page, sel)
    assert page.inner_text("#btn-next") == "New game"
    outcome = page.inner_text("#end-match").removeprefix("The match is over. ")
    page.locator("#announcer").filter(has_text=outcome).wait_for(state="attached")
    page.screenshot(path=str(artifacts / f"match-end-{page.size_name}.png"))


def test_cancelling_the_first_new_game_window_leaves_an_empty_table(
    phone: Any, live_server: Server
) -> None:
    page = phone
    open_table(page, live_server)
    page.wait_for_selector("#dlg-new[open]")
    page.click("#new-cancel")
    page.wait_for_selector("#start-panel:not([hidden])")
    # No fake table: no computer's cards, no stock, no deadwood, no buttons that do nothing.
    for sel in ("#opponent", "#middle", "#you", "#actions", "#stock"):
        assert page.locator(sel).is_hidden(), sel
    assert page.evaluate("document.activeElement.id") == "btn-start"
    inside(page, "#btn-start")
    page.click("#btn-start")
    page.wait_for_selector("#dlg-new[open]")
    page.click("#new-start")
    page.wait_for_selector("#hand .card")
    assert page.locator("#start-panel").is_hidden()
    assert not page.errors


def test_a_double_click_on_the_stock_draws_once_and_leaves_no_wait(
    desktop: Any, live_server: Server
) -> None:
    page = desktop
    open_table(page, live_server)
    deal(page)
    state = state_of(page, live_server)
    for _ in range(12):  # past the upcard: the computer may take it, then it is your draw
        if "draw" in state["hand"]["legal_moves"]:
            break
        if state["hand"]["result"]:
            # The computer took the upcard and knocked at once (a deal in a few dozen): the
            # next hand.
            page.click("#btn-next")
        else:
            page.click("[data-act=pass]" if "pass" in state["hand"]["legal_moves"]
                       else "[data-act=take]")
        wait_after(page, state["version"])
        state = state_of(page, live_server)
    assert "draw" in state["hand"]["legal_moves"], "no draw came up in twelve steps"
    page.dblclick("#stock")
    wait_after(page, state["version"])
    after = state_of(page, live_server)
    draws = [m for m in after["hand"]["history"] if m["who"] == "you" and m["kind"] == "draw"]
    assert len(draws) == 1 and after["hand"]["phase"] == "discard"
    assert page.inner_text("#prompt") == after["hand"]["prompt"]
    assert "Wait" not in page.inner_text("#reason")
    # Neither pile glows while the computer's turn is played, nor after: it is your discard.
    assert page.locator("#stock.can").count() == 0


def test_a_second_tab_s_new_game_offers_that_game_in_the_first(
    browser: Any, live_server: Server
) -> None:
    ctx = browser.new_context(**SIZES["desktop"], reduced_motion="reduce", bypass_csp=True)
    first = ctx.new_page()
    open_table(first, live_server)
    deal(first)
    old = state_of(first, live_server)
    second = ctx.new_page()  # the same browser: the same player
    open_table(second, live_server)
    second.click("#btn-new")
    second.click("#new-start")
    second.wait_for_function(f"document.body.dataset.match !== {old['id']!r}"
                             " && document.body.dataset.busy === 'false'")
    new = state_of(second, live_server)
    assert new["id"] != old["id"]
    # The first tab plays on its (now abandoned) match: it is told, and offered the new one.
    move = choose(old)
    act = button_for(old, move)
    if act in ("discard", "knock", "gin"):
        first.click(f'#hand .card[data-card="{move.split()[1]}"]')
    first.click("#stock" if act == "draw" else f"[data-act={act}]")
    first.wait_for_selector("#notice:not([hidden])")
    assert "another tab" in first.inner_text("#notice-text")
    assert first.inner_text("#notice-action") == "Go to the current game"
    assert first.locator(".pile.can").count() == 0  # nothing glows as if it could be played
    first.click("#notice-action")
    first.wait_for_function(f"document.body.dataset.version === '{new['version']}'")
    assert first.locator("#notice").is_hidden()
    shown = sorted(first.eval_on_selector_all("#hand .card", "els => els.map(e => e.dataset.card)"))
    assert shown == sorted(new["hand"]["cards"])
    assert state_of(first, live_server)["id"] == new["id"]  # nothing more was abandoned
    assert not first.errors and not second.errors
    ctx.close()


def test_phone_details(phone: Any, live_server: Server) -> None:
    page = phone
    open_table(page, live_server)
    deal(page)
    # Touch screens show no keyboard hints, and "Discard" stays on one line with larger cards.
    assert page.locator("[data-act=discard] .key-hint").is_hidden()
    page.click("#btn-settings")
    page.check("#set-large")
    page.click("#dlg-settings button.close")
    button = page.locator("[data-act=discard]")
    assert button.evaluate("e => e.scrollWidth <= e.clientWidth")
    assert button.bounding_box()["height"] < 48  # one line of text
    # The Rules window does not scroll sideways; its rule-set chooser fits inside it.
    page.click("#btn-rules")
    dialog = page.locator("#dlg-rules")
    assert dialog.evaluate("e => e.scrollWidth <= e.clientWidth")
    box, chooser = dialog.bounding_box(), page.locator("#rules-choose").bounding_box()
    assert chooser["x"] + chooser["width"] <= box["x"] + box["width"]
    page.click("#dlg-rules button.close")
    # Focus and selection look different: a dashed outline against a lifted, ticked card.
    page.keyboard.press("h")
    focused = page.locator("#hand .card:focus")
    assert focused.evaluate("e => getComputedStyle(e).outlineStyle") == "dashed"
    assert focused.evaluate("e => getComputedStyle(e, '::before').content") == "none"
    card = page.locator("#hand .card").nth(1)
    card.click()
    assert card.get_attribute("aria-pressed") == "true"
    assert card.evaluate("e => getComputedStyle(e, '::before').content") == '"✓"'
    assert not page.errors


def test_desktop_details(desktop: Any, live_server: Server) -> None:
    page = desktop
    open_table(page, live_server)
    page.wait_for_selector("#dlg-new[open]")
    inside(page, "#new-title")  # the window opens at its title, with focus on Start
    assert page.evaluate("document.activeElement.id") == "new-start"
    page.click("#new-start")
    page.wait_for_selector("#hand .card")
    assert page.locator("[data-act=discard] .key-hint").is_visible()  # a keyboard is likely


def test_the_hollywood_sheet_on_a_phone_shows_every_game_or_says_it_scrolls(
    phone: Any, live_server: Server, artifacts: Path
) -> None:
    page = phone
    token = stored_comeback(live_server, hollywood=True)
    page.add_init_script(f"localStorage.setItem('ginrummy.token', {token!r})")
    page.goto(live_server.url + "/")
    page.wait_for_selector("body[data-ready=true]")
    sheet = page.locator("#sheet")
    sheet.scroll_into_view_if_needed()
    heads = page.locator("#sheet th", has_text="Game 3")
    assert heads.count() == 1
    game3 = heads.bounding_box()
    fits = game3["x"] + game3["width"] <= page.viewport_size["width"]
    if not fits:
        assert page.locator("#sheet-cue").is_visible()
        assert sheet.get_attribute("tabindex") == "0"  # reachable to scroll by keyboard
    page.screenshot(path=str(artifacts / "hollywood-sheet-phone.png"))


def test_axe_finds_nothing_serious_in_a_lesson_or_the_coach_review(
    desktop: Any, live_server: Server
) -> None:
    page = desktop
    open_table(page, live_server)
    deal(page)
    # The coach's review at a hand's end (played through the API with the page's token).
    page.click("#coach-toggle")
    finish_hand_through_api(page, live_server, 200)
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    page.wait_for_selector("#coach-review .coach-summary")
    page.click("#seal-more")  # the details of the sealed deal too
    assert axe_violations(page) == []
    # A lesson: a sample situation from the Learn window, answered.
    page.click("#btn-learn")
    assert axe_violations(page) == []
    page.locator("#learn-list button[data-situation]").first.click()
    page.wait_for_selector("body[data-situation]")
    page.wait_for_function("document.body.dataset.busy === 'false'")
    assert axe_violations(page) == []
    assert not page.errors
