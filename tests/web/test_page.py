"""The page in Debian's Chromium (Playwright) against the real server: a whole hand by clicks,
reload resumes, a phone-sized screen, and an illegal action's reason. (The whole hand by
keyboard only is played in ``test_page_phone.py``, at desktop size, where the layout of the same
hand is checked too.)

The tests decide like a person who reads the table: the move is chosen from the player's own
state (the same JSON the page shows), then made through the page.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .conftest import Server, http_get, http_post
from .helpers import choose

#: Upper bound on turns in one hand (31 stock cards): a loop that runs past it is a bug.
MAX_STEPS = 80


@pytest.fixture()
def context(browser: Any) -> Iterator[Any]:
    ctx = browser.new_context(
        viewport={"width": 1280, "height": 900}, reduced_motion="reduce", bypass_csp=True
    )
    yield ctx
    ctx.close()


COUNT_FLYERS = """
    window.__flyers = 0;
    document.addEventListener('DOMContentLoaded', () => {
      new MutationObserver((records) => {
        for (const r of records) window.__flyers += r.addedNodes.length;
      }).observe(document.getElementById('flyer-layer'), {childList: true});
    });
"""


def open_table(page: Any, server: Server) -> None:
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.url + "/")
    page.wait_for_selector("body[data-ready=true]")
    page.errors = errors


def deal(page: Any, *, keyboard: bool = False, client_seed: str | None = None) -> None:
    """Start a match from the new-game window: its first hand is dealt at once from its sealed
    deal (with the client seed the page drew, or ``client_seed`` typed into the window)."""
    page.wait_for_selector("#dlg-new[open]")
    if client_seed is not None:
        page.click("#new-seal summary")
        page.fill("#new-seed", client_seed)
    if keyboard:
        assert page.evaluate("document.activeElement.id") == "new-start"
        page.keyboard.press("Enter")  # focus starts on "Start"
    else:
        page.click("#new-start")
    page.wait_for_selector("#hand .card")
    page.wait_for_function("document.body.dataset.busy === 'false'")


def state_of(page: Any, server: Server) -> dict[str, Any]:
    """The player's state from the API, with the token the page keeps."""
    token = page.evaluate("localStorage.getItem('ginrummy.token')")
    auth = {"Authorization": f"Bearer {token}"}
    current = http_get(server.url + "/api/me", headers=auth).json()["current_match"]
    st: dict[str, Any] = http_get(f"{server.url}/api/matches/{current}", headers=auth).json()
    return st


def finish_hand_through_api(page: Any, server: Server, limit: int) -> None:
    """Play the rest of the hand on the page's table through the API, with the page's own
    token and :func:`choose`'s moves (at most ``limit`` moves); the page is not reloaded."""
    token = page.evaluate("localStorage.getItem('ginrummy.token')")
    auth = {"Authorization": f"Bearer {token}"}
    for _ in range(limit):
        state = state_of(page, server)
        if state["status"] != "playing":
            return
        r = http_post(f"{server.url}/api/matches/{state['id']}/moves", headers=auth,
                      json={"move": choose(state), "version": state["version"]})
        assert r.status_code == 200, r.text


def wait_after(page: Any, version: int) -> None:
    page.wait_for_function(
        f"document.body.dataset.version !== '{version}' && document.body.dataset.busy === 'false'"
    )


def button_for(state: dict[str, Any], move: str) -> str:
    if move.startswith("knock "):
        card = move.split()[1]
        option = next(o for o in state["hand"]["card_options"] if o["card"] == card)
        return "gin" if option["gin"] else "knock"
    return {"pass": "pass", "draw": "draw", "take": "take", "big gin": "big_gin"}.get(
        move, "discard"
    )


def knock_default_melds(page: Any, version: int) -> None:
    """After a knock: when the cards kept group in more than one way, the melds window opens
    (``test_page_knock_melds.py``); Enter lays down the engine's default grouping."""
    page.wait_for_function(f"document.querySelector('#dlg-melds[open]') !== null"
                           f" || document.body.dataset.version !== '{version}'")
    if page.locator("#dlg-melds[open]").count():
        page.keyboard.press("Enter")


def play_by_clicks(page: Any, server: Server, moves: int) -> dict[str, Any]:
    """Play at most ``moves`` of the person's moves by clicks (each answered by the computer's
    moves, shown on the page), stopping early at the hand's end; the state after them."""
    for _ in range(moves):
        if page.locator("#hand-end").is_visible():
            break
        state = state_of(page, server)
        move = choose(state)
        act = button_for(state, move)
        if act in ("discard", "knock", "gin"):
            page.click(f'#hand .card[data-card="{move.split()[1]}"]')
            assert page.get_attribute(f'#hand .card[data-card="{move.split()[1]}"]',
                                      "aria-pressed") == "true"
        if act == "draw":
            page.click("#stock")  # the stock itself is the draw button
        else:
            page.click(f"[data-act={act}]")
        if act == "knock":
            knock_default_melds(page, state["version"])
        wait_after(page, state["version"])
    return state_of(page, server)


def play_hand_by_clicks(page: Any, server: Server) -> dict[str, Any]:
    final = play_by_clicks(page, server, MAX_STEPS)
    assert page.locator("#hand-end").is_visible(), "the hand did not end"
    return final


#: The key of each action button.
KEYS = {"pass": "p", "draw": "d", "take": "t", "discard": "x", "knock": "k", "gin": "g",
        "big_gin": "b"}


def focus_card_by_keyboard(page: Any, card: str) -> None:
    """Move the focus to ``card`` in the hand with the keys alone (h, Home, arrows)."""
    order = page.eval_on_selector_all("#hand .card", "els => els.map(e => e.dataset.card)")
    page.keyboard.press("h")
    page.keyboard.press("Home")
    for _ in range(order.index(card)):
        page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement.dataset.card") == card


def play_hand_by_keyboard(page: Any, server: Server) -> dict[str, Any]:
    for _ in range(MAX_STEPS):
        if page.locator("#hand-end").is_visible():
            return state_of(page, server)
        state = state_of(page, server)
        move = choose(state)
        act = button_for(state, move)
        if act in ("discard", "knock", "gin"):
            card = move.split()[1]
            focus_card_by_keyboard(page, card)
            page.keyboard.press("Enter")
            assert page.get_attribute(f'#hand .card[data-card="{card}"]', "aria-pressed") == "true"
        page.keyboard.press(KEYS[act])
        if act == "knock":
            knock_default_melds(page, state["version"])
        wait_after(page, state["version"])
    raise AssertionError("the hand did not end")


def test_a_whole_hand_by_clicks_with_the_computer_shown_move_by_move(
    browser: Any, live_server: Server, artifacts: Path
) -> None:
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, bypass_csp=True)  # animated
    page = ctx.new_page()
    page.add_init_script(COUNT_FLYERS)
    # Record every line the page shows for the computer's moves, in order.
    page.add_init_script("""
        window.__moves = [];
        document.addEventListener('DOMContentLoaded', () => {
          const el = document.getElementById('last-move');
          new MutationObserver(() => { if (el.textContent) window.__moves.push(el.textContent); })
            .observe(el, {subtree: true, childList: true, characterData: true});
        });
    """)
    open_table(page, live_server)
    deal(page)
    page.screenshot(path=str(artifacts / "page-start.png"))
    final = play_hand_by_clicks(page, live_server)
    result = final["hand"]["result"]
    assert page.locator("#end-text").inner_text() == result["explanation"]
    page.screenshot(path=str(artifacts / "page-hand-end.png"), full_page=True)
    shown = page.evaluate("window.__moves")
    verbs = {"take": "took", "pass": "passed", "draw": "drew", "discard": "discarded",
             "knock": "knocked", "big gin": "went"}
    computer = [verbs[m["kind"]] for m in final["hand"]["history"] if m["who"] == "computer"]
    # Each of the computer's moves appeared on its own line, one after another, in order.
    assert [text.split()[1].rstrip(",") for text in shown] == computer
    assert page.evaluate("window.__flyers") > 0  # cards flew (motion allowed here)
    assert not page.errors
    ctx.close()


def test_reload_mid_hand_resumes_exactly(context: Any, live_server: Server) -> None:
    page = context.new_page()
    open_table(page, live_server)
    deal(page)
    for _ in range(4):
        state = state_of(page, live_server)
        if state["hand"]["result"]:
            break
        move = choose(state)
        act = button_for(state, move)
        if act in ("discard", "knock", "gin"):
            page.click(f'#hand .card[data-card="{move.split()[1]}"]')
        page.click("#stock" if act == "draw" else f"[data-act={act}]")
        wait_after(page, state["version"])

    def snapshot() -> dict[str, Any]:
        return {
            "version": page.get_attribute("body", "data-version"),
            "cards": sorted(page.eval_on_selector_all(
                "#hand .card", "els => els.map(e => e.dataset.card)")),
            "pile": page.get_attribute("#discard-pile", "aria-label"),
            "stock": page.inner_text("#stock-count"),
            "prompt": page.inner_text("#prompt"),
            "score": page.inner_text("#totals"),
        }

    before = snapshot()
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    page.wait_for_function("document.body.dataset.busy === 'false'")
    assert snapshot() == before
    assert page.locator("#dlg-new[open]").count() == 0


def test_phone_width_the_hand_wraps_and_nothing_overflows(
    browser: Any, live_server: Server, artifacts: Path
) -> None:
    ctx = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True,
        device_scale_factor=2, reduced_motion="reduce", bypass_csp=True,
    )
    page = ctx.new_page()
    open_table(page, live_server)
    deal(page)
    state = state_of(page, live_server)
    if "draw" in state["hand"]["legal_moves"]:
        page.tap("#stock")
        wait_after(page, state["version"])
    rows = page.eval_on_selector_all(
        "#hand .card",
        "els => new Set(els.map(e => Math.round(e.getBoundingClientRect().top))).size",
    )
    assert rows >= 2
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    for sel in ["[data-act=take]", "[data-act=discard]", "#stock", "#discard-pile"]:
        box = page.locator(sel).bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390
        assert box["height"] >= 32  # big enough to tap
    page.screenshot(path=str(artifacts / "page-phone.png"), full_page=True)
    ctx.close()


def test_an_illegal_action_shows_its_reason(context: Any, live_server: Server,
                                            artifacts: Path) -> None:
    page = context.new_page()
    open_table(page, live_server)
    deal(page)
    state = state_of(page, live_server)
    assert "take" in state["hand"]["legal_moves"]  # the first turn always offers a card
    # aria-disabled buttons stay clickable (and focusable) so they can say why; Playwright
    # would wait for them to be enabled, so the click is forced like a person's tap.
    page.click("[data-act=discard]", force=True)
    reason = page.locator("#reason")
    expected = state["hand"]["actions"]["discard"]["reason"]
    assert expected.startswith(("Draw first", "First take or pass"))
    reason.filter(has_text=expected).wait_for()
    assert page.get_attribute("body", "data-version") == str(state["version"])
    page.click("[data-act=take]")
    wait_after(page, state["version"])
    taken = state_of(page, live_server)["hand"]["taken"]
    page.click(f'#hand .card[data-card="{taken}"]')
    page.click("[data-act=discard]", force=True)
    reason.filter(has_text="from the discard pile this turn").wait_for()
    page.click("#stock", force=True)
    reason.filter(has_text="You have drawn this turn").wait_for()
    page.screenshot(path=str(artifacts / "page-reason.png"))
    # Nothing was sent: the taken card is still in the hand.
    assert page.locator(f'#hand .card[data-card="{taken}"]').count() == 1


# A card button's name starts with the text its face shows (rank, suit symbol, suit letter:
# WCAG 2.5.3, Label in Name), then says the card in words.
CARD_NAME = (r"^(A|[2-9]|10|J|Q|K)[♣♦♥♠] [CDHS], "
             r"(ace|two|three|four|five|six|seven|eight|nine|ten|jack|queen|king) of "
             r"(clubs|diamonds|hearts|spades)(, just (drawn|taken))?$")


def test_cards_are_named_and_colour_is_never_the_only_cue(
    context: Any, live_server: Server
) -> None:
    import re

    page = context.new_page()
    open_table(page, live_server)
    deal(page)
    labels = page.eval_on_selector_all("#hand .card", "els => els.map(e => e.ariaLabel)")
    assert len(labels) in (10, 11) and all(re.match(CARD_NAME, x) for x in labels)
    letters = page.eval_on_selector_all(
        "#hand .card",
        "els => els.map(e => [e.dataset.card, e.querySelector('.letter').textContent])",
    )
    assert all(code[1].upper() == letter for code, letter in letters)
    # Each name, and the discard pile's, starts with the text the face shows ("7♣ C, ...").
    faces = page.eval_on_selector_all(
        "#hand .card, #discard-pile",
        """els => els.map(e => [e.ariaLabel,
                                e.querySelector('.corner').innerText.replace(/\\s/g, '')
                                + ' ' + e.querySelector('.letter').innerText])""",
    )
    assert len(faces) == len(labels) + 1
    assert all(label.startswith(face + ", ") for label, face in faces), faces
    assert page.get_attribute("#announcer", "aria-live") == "polite"
    # A seven of clubs drawn by the page's own card module (the hand may hold no club).
    page.evaluate("""async () => {
        const m = await import('/static/js/cards.js');
        const el = m.cardElement('7c');
        el.id = 'probe';
        document.body.append(el);
    }""")
    club = page.locator("#probe")

    def colour() -> str:
        return str(club.evaluate("e => getComputedStyle(e).color"))

    before = colour()
    page.click("#btn-settings")
    page.check("#set-four")
    page.click("#dlg-settings button.close")
    assert colour() != before  # clubs turn green, diamonds blue
    width = page.locator("#hand .card").first.bounding_box()["width"]
    page.click("#btn-settings")
    page.check("#set-large")
    page.click("#dlg-settings button.close")
    assert page.locator("#hand .card").first.bounding_box()["width"] > width
    page.reload()  # settings are kept
    page.wait_for_selector("body[data-ready=true]")
    assert page.evaluate("document.body.classList.contains('four')")


def test_dragging_a_card_onto_the_discard_pile_discards_it(
    context: Any, live_server: Server
) -> None:
    """Optional: a mouse can drag a card to the pile (tapping and the buttons remain)."""
    page = context.new_page()
    open_table(page, live_server)
    deal(page)
    state = state_of(page, live_server)
    page.click("#stock" if "draw" in state["hand"]["legal_moves"] else "[data-act=take]")
    wait_after(page, state["version"])
    state = state_of(page, live_server)
    card = next(o["card"] for o in state["hand"]["card_options"] if o["discard"])
    box = page.locator(f'#hand .card[data-card="{card}"]').bounding_box()
    pile = page.locator("#discard-pile").bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.mouse.move(box["x"] + 40, box["y"] - 40, steps=4)
    page.mouse.move(pile["x"] + pile["width"] / 2, pile["y"] + pile["height"] / 2, steps=6)
    page.mouse.up()
    wait_after(page, state["version"])
    after = state_of(page, live_server)
    assert card not in after["hand"]["cards"]
    assert any(m["who"] == "you" and m["kind"] == "discard" and m["card"] == card
               for m in after["hand"]["history"])
