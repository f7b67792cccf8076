"""The coach in the page, in Debian's Chromium: the toggle shows a remark after your decision
(in a polite live region), and a decision is revisited from a finished hand's review."""

from __future__ import annotations

import contextlib
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from .conftest import Server, http_get, http_post
from .helpers import choose
from .test_page import (
    MAX_STEPS,
    button_for,
    deal,
    finish_hand_through_api,
    open_table,
    state_of,
    wait_after,
)

#: How long an assessment ahead may take to be answered: the coach's process runs niced
#: (limits.COACH_NICENESS), and beside both test workers, their browsers and mypy it gets a
#: few percent of a core.
AHEAD_SECONDS = 60


def _counted(answer: Any) -> int:
    """The decisions of the hand an assessment ahead found assessed or kept."""
    counts = answer.json()
    return int(counts["assessed"]) + int(counts["kept"])


@pytest.fixture()
def page(browser: Any) -> Iterator[Any]:
    ctx = browser.new_context(
        viewport={"width": 1280, "height": 900}, reduced_motion="reduce", bypass_csp=True
    )
    pg = ctx.new_page()
    yield pg
    assert not getattr(pg, "errors", [])
    ctx.close()


def click_move(page: Any, state: dict[str, Any], move: str) -> None:
    act = button_for(state, move)
    if act in ("discard", "knock", "gin"):
        page.click(f'#hand .card[data-card="{move.split()[1]}"]')
    page.click(f"[data-act={act}]")
    wait_after(page, state["version"])


def test_the_toggle_shows_a_remark_after_a_decision(
    page: Any, live_server: Server, artifacts: Path
) -> None:
    open_table(page, live_server)
    deal(page)
    toggle = page.locator("#coach-toggle")
    assert toggle.get_attribute("aria-pressed") == "false"
    toggle.click()
    assert toggle.get_attribute("aria-pressed") == "true"
    slot = page.locator("#coach-slot")
    assert slot.get_attribute("role") == "status"
    assert slot.get_attribute("aria-live") == "polite"
    for _ in range(6):
        state = state_of(page, live_server)
        if state["hand"]["result"]:
            # The computer took the upcard and knocked at once (a deal in a few dozen): no
            # decision of yours in that hand; the next one.
            page.click("#btn-next")
            wait_after(page, state["version"])
            continue
        legal = state["hand"]["legal_moves"]
        move = choose(state)
        click_move(page, state, move)
        if len(legal) > 1:
            page.wait_for_selector("#coach-slot[data-rating]")
            break
    else:
        raise AssertionError("no decision with a choice came up")
    text = slot.inner_text()
    rating = slot.get_attribute("data-rating")
    assert rating in ("good", "inaccuracy", "mistake")
    assert text.startswith("Coach:") and {"good": "Good", "inaccuracy": "Inaccuracy",
                                          "mistake": "Mistake"}[rating] in text
    page.screenshot(path=str(artifacts / "coach-remark.png"))
    # Off again: the remark goes, and the next decision gets none.
    toggle.click()
    assert slot.inner_text() == ""


def test_a_decision_is_revisited_from_a_hand_review(
    page: Any, live_server: Server, artifacts: Path
) -> None:
    open_table(page, live_server)
    deal(page)
    page.click("#coach-toggle")
    # Play the hand through the API with the page's token (faster than clicks), then reload:
    # the page shows the hand's end with the coach's review.
    token = page.evaluate("localStorage.getItem('ginrummy.token')")
    auth = {"Authorization": f"Bearer {token}"}
    for _ in range(MAX_STEPS * 4):
        state = state_of(page, live_server)
        mid = state["id"]
        if state["status"] == "between_hands":
            # A hand in which you drew from the stock at least once is what the test needs.
            number = state["hand"]["number"]
            review = http_get(f"{live_server.url}/api/matches/{mid}/coach/hands/{number}",
                              headers=auth, timeout=60).json()
            if any(d["move"] == "draw" for d in review["decisions"]):
                break
            r = http_post(f"{live_server.url}/api/matches/{mid}/next-hand", headers=auth,
                          json={"version": state["version"], "client_seed": "next"})
        else:
            assert state["status"] == "playing"
            r = http_post(f"{live_server.url}/api/matches/{mid}/moves", headers=auth,
                          json={"move": choose(state), "version": state["version"]})
        assert r.status_code == 200, r.text
    else:
        raise AssertionError("no hand ended with a draw decision of yours")
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    page.wait_for_selector("#hand-end:not([hidden])")
    page.wait_for_selector("#coach-review .coach-summary")
    summary = page.inner_text("#coach-review .coach-summary")
    assert "decision" in summary
    # The hand's end shows both the sealed deal (its server seed revealed, in the details a
    # click away from the quiet line) and the review.
    revealed = state["meta"]["sealed"]["hand"]["server_seed"]
    assert revealed and revealed in page.text_content("#hand-meta .seal-revealed")
    page.screenshot(path=str(artifacts / "coach-review.png"), full_page=True)
    # Revisit a decision where you drew from the stock (open the full list first).
    page.click("#coach-review .coach-all summary")
    item = page.locator("#coach-review .coach-all .coach-item",
                        has_text="draw from the stock").first
    item.locator(".coach-revisit").click()
    page.wait_for_selector('body[data-mode="revisit"]')
    page.wait_for_function("document.body.dataset.busy === 'false'")
    assert page.locator("#revisit").is_visible()
    assert "draw from the stock" in page.inner_text("#revisit-question")
    # The hand and the turn are named once, in the question, not in the title too (issue 38).
    said = page.inner_text("#revisit-title") + "\n" + page.inner_text("#revisit-question")
    assert len(re.findall(r"Hand \d+, your turn \d+", said)) == 1, said
    assert page.locator("#hand-end").is_hidden()  # the table is back at the decision
    assert page.locator("#coach-review").is_hidden()
    # A reopened decision is a position, not a dealt hand: nothing sealed is shown for it.
    assert page.inner_text("#seal-line") == ""
    assert page.locator("#deal-panel").is_hidden()
    # Play it again: take the top discard this time.
    page.keyboard.press("t")
    page.wait_for_selector("body[data-answered]")
    page.wait_for_selector("#revisit-answer .coach-alts")
    answer = page.inner_text("#revisit-answer")
    assert "(your move)" in answer and "In the game" in answer
    assert "draw from the stock" in answer and "take the" in answer
    assert page.evaluate("document.activeElement.id") == "revisit-answer"
    page.screenshot(path=str(artifacts / "coach-revisit.png"), full_page=True)
    page.click("#revisit-exit")
    page.wait_for_selector("#coach-review:not([hidden]) .coach-summary")
    assert page.locator("#revisit").is_hidden()
    assert revealed in page.text_content("#hand-meta .seal-revealed")


def test_the_coach_on_from_the_start_waits_for_the_sealed_first_deal(
    page: Any, live_server: Server
) -> None:
    """With the coach already on, a match waiting for its sealed first deal (one started
    through the API without a deal: the page itself deals at once) shows no hand to remark on
    or review, also after a reload, and then deals as usual."""
    page.add_init_script("localStorage.setItem('ginrummy.coach', 'on')")
    open_table(page, live_server)
    page.wait_for_selector("#dlg-new[open]")
    page.click("#new-cancel")
    token = page.evaluate("localStorage.getItem('ginrummy.token')")
    r = http_post(f"{live_server.url}/api/matches", json={"deal": False},
                  headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 201, r.text
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    page.wait_for_selector("#deal-panel:not([hidden]) #client-seed")
    assert page.get_attribute("#coach-toggle", "aria-pressed") == "true"
    assert page.inner_text("#prompt") == "Deal the first hand."
    assert page.locator("#coach-review").is_hidden()
    assert state_of(page, live_server)["hand"] is None
    version = page.get_attribute("body", "data-version")
    page.click("#btn-deal")
    wait_after(page, int(version or 0))
    page.wait_for_selector("#hand .card")
    assert state_of(page, live_server)["hand"]["number"] == 1
    assert page.locator("#coach-review").is_hidden()


def test_with_the_coach_off_decisions_are_assessed_ahead_and_the_review_streams(
    page: Any, live_server: Server
) -> None:
    """With the coach off nothing is shown during play, but after each of your decisions the
    page asks the coach to assess it ahead; the review you then ask for at the hand's end
    arrives by the streamed route and lists every decision."""
    open_table(page, live_server)
    deal(page)
    assert page.get_attribute("#coach-toggle", "aria-pressed") == "false"
    answers: list[Any] = []
    page.on("response", lambda r: answers.append(r) if r.url.endswith("/coach/ahead") else None)
    ahead = 0
    state = state_of(page, live_server)
    for _ in range(MAX_STEPS):
        if ahead >= 3 or (state["hand"]["result"] and ahead):
            break
        if state["hand"]["result"]:
            # The hand ended before a decision of yours was assessed (the computer can take the
            # upcard and knock at once, or answer your first move with a knock): the next one.
            page.click("#btn-next")
            wait_after(page, state["version"])
            state = state_of(page, live_server)
            continue
        decision = len(state["hand"]["legal_moves"]) > 1
        seen = len(answers)
        click_move(page, state, choose(state))
        assert page.inner_text("#coach-slot") == ""  # the coach is off: no remark shown
        state = state_of(page, live_server)
        if not decision or state["hand"]["result"]:
            continue  # a forced move; or the knock, or the computer's reply, ended the hand
        # The page asks the coach to assess ahead after each move of yours; an answer asked
        # after this decision counts it among the decisions assessed or kept.
        deadline = time.monotonic() + AHEAD_SECONDS
        while not any(r.status == 200 and _counted(r) >= ahead + 1 for r in answers[seen:]):
            assert time.monotonic() < deadline, f"no assessment ahead counts decision {ahead + 1}"
            with contextlib.suppress(PlaywrightTimeout):  # poll: it may have come meanwhile
                page.wait_for_event("response", lambda r: r.url.endswith("/coach/ahead"),
                                    timeout=1000)
        ahead += 1
    assert ahead >= 1 and answers and all(r.status == 200 for r in answers)
    # The rest of the hand through the API, then the review, asked for at the hand's end.
    finish_hand_through_api(page, live_server, MAX_STEPS * 2)
    token = page.evaluate("localStorage.getItem('ginrummy.token')")
    auth = {"Authorization": f"Bearer {token}"}
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    page.wait_for_selector("#coach-review-ask")
    with page.expect_response(lambda r: "/coach/hands/" in r.url
                              and r.url.endswith("/stream")) as streamed:
        page.click("#coach-review-ask")
    assert streamed.value.status == 200
    page.wait_for_selector("#coach-review .coach-summary")
    number = state["hand"]["number"]
    review = http_get(f"{live_server.url}/api/matches/{state['id']}/coach/hands/{number}",
                      headers=auth, timeout=60).json()
    assert page.inner_text("#coach-review .coach-summary") == review["summary"]
    assert page.locator("#coach-review .coach-all .coach-item").count() == len(
        review["decisions"])
    assert page.locator("#coach-review [data-pending]").count() == 0
