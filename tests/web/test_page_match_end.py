"""The end of a match in the page (Chromium through Playwright, against the real server), at
desktop and phone widths: who won by the profile's rule and the margin of victory, in words.

The match is dealt from stacked decks (``tests/comeback.py``) and stored one move before its
end: the person makes the last move (a gin) in the page. Under ``modern`` the person reached
100 first, while the computer's nine small wins give it the higher final total (RULES.md,
"The game"): the person wins, and the margin is negative.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from comeback import comeback_match
from ginrummy.engine.record import dumps
from ginrummy.server.store import HandSummary, Store

from .conftest import Server, http_get

DESKTOP = {"viewport": {"width": 1280, "height": 900}}
PHONE = {
    "viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True,
    "device_scale_factor": 2,
}


def stored_comeback(server: Server, *, hollywood: bool = False) -> str:
    """A new player whose current match is the comeback, stored one move before its end (the
    end of game 1 under Hollywood); returns the player's token."""
    match = comeback_match(finish=False, hollywood=hollywood)
    store = Store(server.db_url)
    try:
        player, token = store.create_player("You")
        store.create_match(
            player_id=player.id, level="medium", profile="modern",
            rules=match.rules.describe(), hollywood=hollywood, deal_seed="comeback",
            record=dumps(match, players=("You", "Computer (medium)"), meta={"level": "medium"}),
            scores=match.score.totals,
            hands=[HandSummary.of(n, h.result)
                   for n, h in enumerate(match.hands, 1) if h.result is not None],
        )
    finally:
        store.close()
    return token


@pytest.fixture(params=["desktop", "phone"])
def page(request: pytest.FixtureRequest, browser: Any) -> Iterator[Any]:
    ctx = browser.new_context(
        **(DESKTOP if request.param == "desktop" else PHONE), reduced_motion="reduce",
        bypass_csp=True,
    )
    p = ctx.new_page()
    p.width_name = request.param
    yield p
    ctx.close()


def test_the_match_over_view_names_the_winner_by_the_rule_and_the_margin(
    page: Any, live_server: Server, artifacts: Path
) -> None:
    token = stored_comeback(live_server)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.add_init_script(f"localStorage.setItem('ginrummy.token', {token!r})")
    page.goto(live_server.url + "/")
    page.wait_for_selector("body[data-ready=true]")
    assert page.locator("#end-match").is_hidden()
    # The last move: the K♥ goes face down and the rest is gin.
    page.click('#hand .card[data-card="Kh"]')
    page.click("[data-act=gin]")
    page.wait_for_selector("#end-match:not([hidden])")

    auth = {"Authorization": f"Bearer {token}"}
    current = http_get(live_server.url + "/api/me", headers=auth).json()
    matches = http_get(live_server.url + "/api/matches", headers=auth).json()
    assert current["current_match"] is None and matches[0]["winner"] == "you"
    state = http_get(f"{live_server.url}/api/matches/{matches[0]['id']}", headers=auth).json()
    score = state["score"]
    you, computer = score["totals"]
    # The rule: the person reached the target first (the last hand, a gin of 118, took the
    # running points from 0 past 100), so the person wins whatever the final totals say.
    assert state["status"] == "over" and score["winner"] == "you"
    assert computer > you and score["margin"] == you - computer
    words = (f"You won, having reached 100 first, though Computer's final total is higher, "
             f"by {computer - you}.")
    assert page.inner_text("#end-match") == f"The match is over. {words}"
    assert page.inner_text("#totals .match-outcome") == words
    assert f"You {you} · Computer {computer}" in page.inner_text("#totals")
    for sel in ("#end-match", "#totals .match-outcome"):
        box = page.locator(sel).bounding_box()
        width = page.viewport_size["width"]
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]
    page.screenshot(path=str(artifacts / f"match-end-{page.width_name}.png"), full_page=True)
    assert errors == []


def test_under_hollywood_each_game_says_who_won_it_when_it_ends(
    page: Any, live_server: Server, artifacts: Path
) -> None:
    token = stored_comeback(live_server, hollywood=True)
    page.add_init_script(f"localStorage.setItem('ginrummy.token', {token!r})")
    page.goto(live_server.url + "/")
    page.wait_for_selector("body[data-ready=true]")
    assert page.locator("#totals .game-outcome").count() == 0
    page.click('#hand .card[data-card="Kh"]')
    page.click("[data-act=gin]")
    page.wait_for_selector('#totals .game-outcome[data-game="1"]')
    auth = {"Authorization": f"Bearer {token}"}
    current = http_get(live_server.url + "/api/me", headers=auth).json()["current_match"]
    state = http_get(f"{live_server.url}/api/matches/{current}", headers=auth).json()
    game1 = state["score"]["games"][0]
    you, computer = game1["totals"]
    assert state["status"] != "over" and game1["over"] and game1["winner"] == "you"
    assert computer > you and game1["margin"] == you - computer
    assert page.inner_text('#totals .game-outcome[data-game="1"]') == (
        f"You won, having reached 100 first, though Computer's final total is higher, "
        f"by {computer - you}."
    )
    # Games 2 and 3 go on; the match is not over, so nothing says it is.
    assert page.locator("#totals .game-outcome").count() == 1
    assert page.locator("#end-match").is_hidden()
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]
    page.screenshot(path=str(artifacts / f"hollywood-game-end-{page.width_name}.png"),
                    full_page=True)
