"""A table for two people looks like one (issue 37, item 10), in Chromium against the real
server: the other seat is never called "Computer" (the seat's title while waiting, the score
sheet's column), the presence line is readable (WCAG AA contrast), "Copy the link" and
"Resign" are styled buttons, and a table with no hand shows no stock or pile left over from
the table before.

Before this, the waiting seat was titled "Computer", the sheet's column said "Comp.", "vs · Bob
is here" was grey on near-white, the two buttons were the browser's bare ones, and the empty
table kept the old stock and pile."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from .conftest import Server, loopback_client
from .helpers import People
from .test_page import deal, open_table

#: The contrast of text against its background that WCAG 2 level AA asks for.
AA = 4.5

CONTRAST = """sel => {
  const rgb = (s) => s.match(/[\\d.]+/g).map(Number);
  const lum = ([r, g, b]) => {
    const f = (c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  // The panel's own background over the felt behind it (the darkest felt, the worst case).
  const bg = rgb(getComputedStyle(document.querySelector('.people')).backgroundColor);
  const alpha = bg.length > 3 ? bg[3] : 1;
  const felt = [22, 79, 51];
  const under = [0, 1, 2].map((i) => bg[i] * alpha + felt[i] * (1 - alpha));
  const fg = rgb(getComputedStyle(document.querySelector(sel)).color);
  const [a, b] = [lum(fg), lum(under)].sort((x, y) => y - x);
  return (a + 0.05) / (b + 0.05);
}"""


@pytest.fixture()
def page(browser: Any) -> Iterator[Any]:
    ctx = browser.new_context(viewport={"width": 1280, "height": 800}, reduced_motion="reduce",
                              bypass_csp=True)
    yield ctx.new_page()
    ctx.close()


def _styled(page: Any, selector: str) -> None:
    style = page.eval_on_selector(selector, """el => {
        const s = getComputedStyle(el);
        return {radius: parseFloat(s.borderTopLeftRadius), background: s.backgroundColor};
    }""")
    # The page's own buttons are pills; the browser's bare button is square and grey.
    assert style["radius"] >= 10, (selector, style)
    assert style["background"] != "rgb(239, 239, 239)", (selector, style)


def test_a_table_for_two_names_the_other_person_and_is_readable(
    page: Any, live_server: Server
) -> None:
    open_table(page, live_server)
    deal(page)  # a hand against the computer on the table first: its piles must not stay
    page.click("#btn-new")
    page.wait_for_selector("#dlg-new[open]")
    page.locator("input[name=opponent][value=person]").check(force=True)
    page.fill("#opt-name", "Ann")
    assert page.text_content("#new-start") == "End my match and create the table"
    page.click("#new-start")
    page.wait_for_selector("#invite-box:not([hidden])")
    assert page.text_content("#opp-title") == "Waiting for someone to join"
    assert page.locator("#stock .card").is_hidden()
    assert page.locator("#discard-pile .card").count() == 0
    assert (page.text_content("#stock-count") or "") == ""
    _styled(page, "#invite-copy")

    with loopback_client(base_url=live_server.url, timeout=30) as client:
        table = People.join_page(client, page, "b")
        page.wait_for_function("document.body.dataset.status === 'playing'")
        assert page.text_content("#opp-title") == "Bob"
        # Bob's presence: "Bob is here" once his stream opens; without one, "away".
        page.wait_for_selector("#people-presence:not(:empty)")
        assert "Bob" in (page.text_content("#people-presence") or "")
        assert page.evaluate(CONTRAST, "#people-presence") >= AA
        assert page.evaluate(CONTRAST, ".people-names .muted") >= AA
        _styled(page, "#btn-resign")
        table.finish_hand()
    page.wait_for_selector("#hand-end:not([hidden])")
    heads = page.eval_on_selector_all("#sheet thead th", "els => els.map(e => e.textContent)")
    assert "Bob" in heads and "Comp." not in heads, heads
    assert "omputer" not in page.inner_text("#score")
    assert not page.errors
