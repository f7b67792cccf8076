"""Sealed deals in the page (Debian's Chromium through Playwright, against the real server):
the commitment before the deal, a typed client seed, "Verify this deal" checking the hand with
the page's own WebCrypto code, the record download, and a tampered report caught."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ginrummy.engine.shuffle import SealError, check_client_seed
from ginrummy.engine.verify import verify_record

from .conftest import Server
from .test_page import (
    MAX_STEPS,
    deal,
    finish_hand_through_api,
    open_table,
    state_of,
    wait_after,
)

#: Every check the view runs for a hand this browser saw from its commitment to its end.
ALL_CHECKS = ["seen", "seed", "nonce", "version", "commitment", "deck", "hands", "upcard",
              "draws"]


@pytest.fixture()
def page(browser: Any) -> Iterator[Any]:
    ctx = browser.new_context(
        viewport={"width": 1280, "height": 900}, reduced_motion="reduce", bypass_csp=True,
        accept_downloads=True,
    )
    page = ctx.new_page()
    yield page
    ctx.close()


def checks_shown(page: Any) -> dict[str, bool]:
    page.wait_for_selector("#dlg-verify[open]")
    page.wait_for_function("document.getElementById('dlg-verify').dataset.result !== 'running'")
    items = page.eval_on_selector_all(
        "#verify-checks li", "els => els.map(e => [e.dataset.check, e.dataset.ok === 'true'])"
    )
    return {name: ok for name, ok in items}


def test_a_hand_with_a_typed_client_seed_verifies_in_the_browser(
    page: Any, live_server: Server, artifacts: Path
) -> None:
    open_table(page, live_server)
    page.wait_for_selector("#dlg-new[open]")
    # The first hand's client seed is drawn in the browser, in the New game window, folded.
    assert not page.locator("#new-seed").is_visible()
    page.click("#new-seal summary")
    offered = page.input_value("#new-seed")
    assert re.fullmatch(r"[0-9a-f]{16}", offered)
    page.locator("#dlg-new").screenshot(path=str(artifacts / "new-game.png"))
    # A seed the rules refuse: the match is sealed but nothing is dealt; the deal panel shows
    # the commitment and the engine's sentence beside the field, which keeps what was typed.
    page.fill("#new-seed", " leading space")
    page.click("#new-start")
    page.wait_for_selector("#deal-panel:not([hidden]) #client-seed")
    with pytest.raises(SealError) as engine:
        check_client_seed(" leading space")
    message = str(engine.value)
    page.locator("#seed-error").filter(has_text=message[0].upper() + message[1:]).wait_for()
    assert page.get_attribute("#client-seed", "aria-invalid") == "true"
    assert page.input_value("#client-seed") == " leading space"
    before = state_of(page, live_server)
    upcoming = before["meta"]["sealed"]["next"]
    assert before["hand"] is None
    panel = page.inner_text("#deal-panel")
    assert upcoming["commitment"] in panel and "ginrummy-shuffle-v1" in panel
    assert re.search(r"Nonce\s+1", panel)
    page.screenshot(path=str(artifacts / "sealed-deal.png"))
    page.click("#seed-random")
    assert re.fullmatch(r"[0-9a-f]{16}", page.input_value("#client-seed"))
    # The keyboard reaches the field from the Deal button; Enter in the field deals.
    page.focus("#btn-deal")
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Shift+Tab")
    assert page.evaluate("document.activeElement.id") == "client-seed"
    typed = "typed by a person ♥ 7h"
    page.keyboard.press("Control+A")
    page.keyboard.type(typed)
    page.keyboard.press("Enter")
    wait_after(page, before["version"])
    dealt = state_of(page, live_server)
    assert dealt["meta"]["sealed"]["hand"]["client_seed"] == typed
    assert dealt["meta"]["sealed"]["hand"]["commitment"] == upcoming["commitment"]
    # The score panel says it in plain words; the commitment and the seed are one tap away.
    line = page.inner_text("#seal-line")
    assert line.startswith("Fair deal: these cards were fixed before the deal")
    assert "commitment" not in line.lower() and "seed" not in line.lower()
    page.click("#seal-line-more summary")
    assert upcoming["commitment"][:16] in page.inner_text("#seal-line")

    # The rest of the hand through the API with the page's token, then a reload: what the page
    # kept at the deal (its witness: the commitment shown, the seed, the dealt cards) is what
    # the checks compare, and the moves come from the state. (A whole hand by clicks ending in
    # the same quiet line is played in test_page.py and, at three sizes, test_page_phone.py.)
    finish_hand_through_api(page, live_server, MAX_STEPS)
    final = state_of(page, live_server)
    assert final["status"] != "playing", "the hand did not end"
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    page.wait_for_selector("#hand-end:not([hidden])")
    revealed = final["meta"]["sealed"]["hand"]
    # At the hand's end the seal is one quiet line, checked in this browser; the details (the
    # revealed server seed, the seeds, the next hand's commitment) are a click away.
    page.wait_for_selector('#seal-verdict[data-ok="true"]')
    assert re.fullmatch(r"Fair deal ✓ — verify · details", page.inner_text(".seal-summary"))
    assert revealed["server_seed"] not in page.inner_text("#hand-end")
    assert page.get_attribute("#seal-more", "aria-expanded") == "false"
    page.click("#seal-more")
    assert page.get_attribute("#seal-more", "aria-expanded") == "true"
    shown = page.inner_text("#hand-meta")
    page.locator("#hand-end").screenshot(path=str(artifacts / "sealed-details.png"))
    for value in (revealed["server_seed"], revealed["commitment"], typed):
        assert value in shown
    page.click("#btn-verify")
    checks = checks_shown(page)
    assert checks == dict.fromkeys(ALL_CHECKS, True)
    summary = page.inner_text("#verify-summary")
    # One plain sentence first (issue 38); the checks are one tap away.
    assert summary.startswith("Yes. The cards of hand 1 were fixed before the deal began, and "
                              "nobody could change them")
    assert f"({len(ALL_CHECKS)} checks passed)" in summary
    assert not page.is_visible("#verify-checks")
    page.click("#verify-more summary")
    assert page.locator("#verify-checks li.fail").count() == 0
    assert page.locator("#verify-checks li", has_text="✓ Passed").count() == len(ALL_CHECKS)
    page.screenshot(path=str(artifacts / "page-verify.png"))
    page.locator("#dlg-verify").screenshot(path=str(artifacts / "verify-deal.png"))
    page.click("#dlg-verify button.close")

    # The record downloaded from the page verifies offline, against the commitment shown.
    with page.expect_download() as info:
        page.click("#btn-record")
    text = Path(info.value.path()).read_text(encoding="utf-8")
    report = verify_record(text, published={1: upcoming["commitment"]})
    assert report.ok and [h.status for h in report.hands] == ["verified"]

    # The next hand's commitment and its seed field are in the details; "Next hand" deals with it.
    if final["status"] == "between_hands":
        nxt = final["meta"]["sealed"]["next"]
        assert nxt["commitment"] in shown
        seed = page.input_value("#client-seed")
        page.click("#btn-next")
        wait_after(page, final["version"])
        assert state_of(page, live_server)["meta"]["sealed"]["hand"]["client_seed"] == seed
    assert not page.errors


def test_the_verify_view_names_the_check_a_tampered_report_fails(
    page: Any, live_server: Server
) -> None:
    # Dealt as a person starts: Start deals at once with the seed drawn in the browser, and
    # every check (the commitment seen before the deal and the seed sent included) passes.
    # The hand is played through the API with the page's token (the test above plays one by
    # clicks) and the reloaded page checks it.
    open_table(page, live_server)
    deal(page)
    finish_hand_through_api(page, live_server, MAX_STEPS)
    final = state_of(page, live_server)
    assert final["hand"]["result"] is not None
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    page.wait_for_selector('#seal-verdict[data-ok="true"]')
    page.click("#btn-verify")
    assert checks_shown(page) == dict.fromkeys(ALL_CHECKS, True)
    page.click("#dlg-verify button.close")
    revealed = final["meta"]["sealed"]["hand"]

    # From now on the page is told what a dishonest server would report: first a deck with
    # its last two (never drawn) cards swapped, then another server seed.
    mode = {"what": "deck"}

    def tamper(route: Any) -> None:
        response = route.fetch()
        data = response.json()
        sealed = data["meta"]["sealed"]["hand"]
        if sealed and sealed["server_seed"]:
            if mode["what"] == "deck":
                deck = sealed["deck"]
                deck[50], deck[51] = deck[51], deck[50]
            else:
                sealed["server_seed"] = "0" * 64
        route.fulfill(response=response, body=json.dumps(data))

    page.route(re.compile(r".*/api/matches/[A-Za-z0-9_-]+$"), tamper)
    for what in ("deck", "seed"):
        mode["what"] = what
        page.reload()
        page.wait_for_selector("body[data-ready=true]")
        # The quiet line says so at once.
        page.wait_for_selector('#seal-verdict[data-ok="false"]')
        assert "✗" in page.inner_text("#seal-verdict")
        page.click("#btn-verify")
        checks = checks_shown(page)
        failed = {name for name, ok in checks.items() if not ok}
        if what == "deck":
            assert failed == {"deck"}
            assert page.inner_text("#verify-summary").startswith(
                "No: 1 of 9 checks failed: Deck.")
            assert page.is_visible("#verify-checks")  # a failure opens the checks
            line = page.inner_text('#verify-checks li[data-check="deck"]')
            assert line.startswith("✗ Failed") and "position 50" in line
        else:
            assert "0" * 64 in page.text_content("#hand-meta")
            # The seed no longer matches the commitment shown before the deal, and the deck it
            # gives is not the one the page saw dealt (its upcard may match by chance: 1 in 52).
            assert {"commitment", "deck", "hands"} <= failed
            assert {"seen", "seed", "nonce", "version"}.isdisjoint(failed)
            line = page.inner_text('#verify-checks li[data-check="commitment"]')
            assert line.startswith("✗ Failed") and revealed["commitment"] in line
        page.click("#dlg-verify button.close")
    assert not page.errors
