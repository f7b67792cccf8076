"""Two people against each other in the page (issue 13), in Chromium through Playwright against
the real server: one creates a table and sends the invite link, the other opens it and gives a
name, and they play a whole match to the end by clicking, each page learning the other's moves
from the live event stream (never by reloading). One of them reloads mid-hand, the other
closes the page and opens it again; both check every finished hand's sealed deal in the page.

Each side picks its moves with a simple rule (gin or knock when it can, else the discard that
leaves the least deadwood), read from its own seat's state; every move is made with the page's
own controls. Every wait is on a condition of a page (Playwright's bounded waits), none on time.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from .conftest import Server

DESKTOP = {"viewport": {"width": 1280, "height": 900}}
PHONE = {
    "viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True,
    "device_scale_factor": 2,
}
#: No match of this test needs more hands (a bound on the loop, not a timing).
MAX_HANDS = 40
#: Nor more turns in a hand.
MAX_TURNS = 200


class Person:
    """One person's browser (its own context: its own localStorage and player token). On a
    phone (a touch screen) the person taps the page's controls; on a desktop, clicks them."""

    def __init__(self, browser: Any, server: Server, size: dict[str, Any]) -> None:
        self.server = server
        self.phone = bool(size.get("has_touch"))
        self.ctx = browser.new_context(**size, reduced_motion="reduce")
        self.errors: list[str] = []
        self.page: Any = None
        self.open_page()

    def open_page(self, url: str = "/") -> Any:
        self.page = self.ctx.new_page()
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("dialog", lambda d: d.accept())  # the resign confirmation
        self.page.set_default_timeout(20_000)
        self.page.goto(self.server.url + url)
        return self.page

    def press(self, selector: str) -> None:
        """Tap (phone) or click (desktop) a control of the page."""
        if self.phone:
            self.page.tap(selector)
        else:
            self.page.click(selector)

    def fits(self) -> None:
        """Nothing of the page reaches past the screen's width (no sideways scrolling)."""
        assert self.page.evaluate("document.documentElement.scrollWidth <= innerWidth")

    def state(self) -> dict[str, Any]:
        """This person's state as the server gives it to them (with their page's token)."""
        st: dict[str, Any] = self.page.evaluate("""async () => {
            const r = await fetch(`/api/matches/${document.body.dataset.match}`, {headers: {
              Authorization: `Bearer ${localStorage.getItem('ginrummy.token')}`}});
            return r.json();
        }""")
        return st

    def shows(self, version: int) -> None:
        """Wait until the page shows this version of the match (without any reload)."""
        self.page.wait_for_function(
            "v => Number(document.body.dataset.version) >= v"
            " && document.body.dataset.busy === 'false'",
            arg=version)

    def close(self) -> None:
        self.ctx.close()


@pytest.fixture()
def people(browser: Any, live_server: Server, request: pytest.FixtureRequest
           ) -> Iterator[tuple[Person, Person]]:
    size = PHONE if getattr(request, "param", "desktop") == "phone" else DESKTOP
    ann, bob = Person(browser, live_server, size), Person(browser, live_server, size)
    yield ann, bob
    ann.close()
    bob.close()


def create_table(ann: Person, *, clock: str = "", open_: bool = False) -> str:
    """Ann makes a table for two in the New game window; returns the invite link shown."""
    p = ann.page
    p.wait_for_selector("#dlg-new[open]")
    ann.press("input[name=opponent][value=person]")
    assert p.is_checked("input[name=opponent][value=person]")
    assert p.locator("#levels").is_hidden() and p.locator("#person-options").is_visible()
    p.fill("#opt-name", "Ann")
    p.select_option("#opt-clock", clock)
    if open_:
        ann.press("#opt-open")
        assert p.is_checked("#opt-open")
    ann.press("#new-start")
    p.wait_for_selector("#invite-box:not([hidden])")
    assert p.text_content("#invite-wait") == "Waiting for your friend to join…"
    code = p.text_content("#invite-code")
    assert code and len(code.replace("-", "")) >= 6
    link: str = p.input_value("#invite-link")
    assert "invite=" in link
    return link


def join_by_link(bob: Person, link: str) -> None:
    """Bob, a newcomer, opens the link, gives a name, reads the table's terms and takes the
    other seat."""
    bob.page.goto(link)
    accept_terms(bob)


def accept_terms(bob: Person) -> None:
    """The Join window: the table's terms, then Join (nothing of Bob's is in progress), then
    the name Ann will see."""
    bob.page.wait_for_selector("#dlg-join[open]")
    assert bob.page.text_content("#join-title") == "Join Ann's table?"
    assert bob.page.locator("#join-warning").is_hidden()
    bob.press("#join-yes")
    bob.page.wait_for_selector("#dlg-name[open]")
    bob.page.fill("#name-input", "Bob")
    bob.press("#name-ok")
    bob.page.wait_for_selector("#people-bar:not([hidden])")


def wait_dealt(person: Person, number: int) -> None:
    """Wait until this person's page shows hand ``number`` being played: nobody pressed
    Deal (issue 37 item 2), each page sent its seed by itself."""
    person.page.wait_for_function(
        "n => Number(document.body.dataset.hand) === n"
        " && document.body.dataset.status === 'playing'", arg=number)


def click_card(person: Person, card: str) -> None:
    person.press(f'#hand .card[data-card="{card}"]')
    person.page.wait_for_selector(f'#hand .card[data-card="{card}"][aria-pressed="true"]')


def play_turn(person: Person, st: dict[str, Any]) -> None:
    """One move by the simple rule, made with the page's controls."""
    p, hand = person.page, st["hand"]
    legal = hand["legal_moves"]
    if hand["phase"] == "discard":
        options = [o for o in hand["card_options"] if o["discard"] or o["knock"] or o["gin"]]
        gin = [o for o in options if o["gin"]]
        knock = sorted((o for o in options if o["knock"]), key=lambda o: o["deadwood_after"])
        if "big gin" in legal:
            person.press("[data-act=big_gin]")
        elif gin:
            click_card(person, gin[0]["card"])
            person.press("[data-act=gin]")
        elif knock:
            click_card(person, knock[0]["card"])
            person.press("[data-act=knock]")
            dialog = p.locator("#dlg-melds[open]")
            p.wait_for_function(
                "v => Number(document.body.dataset.version) > v"
                " || document.querySelector('#dlg-melds[open]')",
                arg=st["version"])
            if dialog.count():
                person.press("#melds-knock")
        else:
            best = min((o for o in options if o["discard"]), key=lambda o: o["deadwood_after"])
            click_card(person, best["card"])
            person.press("[data-act=discard]")
    elif "draw" in legal:
        person.press("#stock")
    elif "pass" in legal:
        person.press("[data-act=pass]")
    else:
        raise AssertionError(f"no rule for {legal} in phase {hand['phase']}")
    person.shows(st["version"] + 1)


def send_seed(person: Person, st: dict[str, Any]) -> None:
    """Deal (or ask for the next hand) with the page's own client seed."""
    p = person.page
    person.press("#btn-deal" if st["hand"] is None else "#btn-next")
    p.wait_for_function(
        "v => Number(document.body.dataset.version) > v", arg=st["version"])


def play_match(ann: Person, bob: Person, events: dict[str, int]) -> dict[str, Any]:
    """Both play until the match is over; `events` counts what happened on the way."""
    seats = {0: ann, 1: bob}
    for index in range(MAX_HANDS):
        first = seats[0].state()
        if first["status"] == "over":
            return first
        if index:
            # Between hands: Ann deals at once with Next hand and waits for Bob, who leaves
            # his page to send its seed by itself a few seconds later.
            assert first["status"] == "between_hands", first["status"]
            send_seed(ann, ann.state())
            ann.page.wait_for_selector("#people-wait[data-waiting=true]")
            assert "as soon as Bob is ready" in ann.page.text_content("#people-wait")
        for person in (ann, bob):
            wait_dealt(person, index + 1)
        number = None
        for turn in range(MAX_TURNS):
            st0 = ann.state()
            if st0["status"] != "playing":
                break
            number = st0["hand"]["number"]
            mover = ann if st0["hand"]["your_turn"] else bob
            st = st0 if mover is ann else bob.state()
            assert st["hand"]["your_turn"]
            # The mover's page has learned the other's last move from the stream.
            mover.shows(st["version"])
            play_turn(mover, st)
            events["moves"] += 1
            # Bob reloads in the middle of the first hand that lasts a few moves.
            if not events["reloaded"] and turn == 3:
                bob.page.reload()
                bob.page.wait_for_selector("body[data-ready=true]")
                events["reloaded"] = number
            # Ann closes her page and opens it again in the next hand after that.
            if events["reloaded"] and not events["reopened"] and number != events["reloaded"]:
                ann.page.close()
                bob.page.wait_for_selector("#people-presence[data-here=false]")
                assert "Ann left" in bob.page.text_content("#people-presence")
                ann.open_page()
                ann.page.wait_for_selector("body[data-ready=true]")
                bob.page.wait_for_selector("#people-presence[data-here=true]")
                events["reopened"] = 1
        else:
            raise AssertionError("the hand did not end")
        # The hand is over on both pages, and each checks the sealed deal in the page.
        for person in (ann, bob):
            person.shows(person.state()["version"])
            person.page.wait_for_selector("#hand-end:not([hidden])")
            person.page.wait_for_selector("#seal-verdict[data-ok=true]")
            person.fits()
        events["hands"] += 1
    raise AssertionError("the match did not end")


@pytest.mark.slow
@pytest.mark.parametrize("people", ["desktop", "phone"], indirect=True)
def test_two_people_play_a_whole_match_through_the_page(
    people: tuple[Person, Person], artifacts: Path, request: pytest.FixtureRequest
) -> None:
    """The whole match, at desktop width (clicks) and at phone width (taps, and nothing
    wider than the screen at the end of every hand). A few minutes each, so behind --slow;
    the phone test below keeps the two people, the live moves and a reload in the default
    run."""
    ann, bob = people
    ann.page.wait_for_selector("body[data-ready=true]")
    link = create_table(ann)
    join_by_link(bob, link)
    # Ann's page hears that Bob sat down, without a reload; names on both sides.
    ann.page.wait_for_selector("#people-bar:not([hidden])")
    assert ann.page.text_content("#people-other") == "Bob"
    assert bob.page.text_content("#people-other") == "Ann"
    assert bob.page.text_content("#people-you") == "Bob (you)"
    bob.page.wait_for_selector("#people-presence[data-here=true]")
    # The coach and the learning tools are off while the match is played.
    for person in (ann, bob):
        assert person.page.locator(".coach-bar").is_hidden()
        assert person.page.locator("#btn-learn").is_disabled()
    events = {"moves": 0, "hands": 0, "reloaded": 0, "reopened": 0}
    final = play_match(ann, bob, events)
    assert events["reloaded"] and events["reopened"] and events["hands"] >= 2, events
    assert final["status"] == "over" and final["score"]["outcome"]
    for person, other in ((ann, "Bob"), (bob, "Ann")):
        person.shows(final["version"])
        person.page.wait_for_selector("#end-match:not([hidden])")
        # The server's outcome, from this person's side, with the other person named.
        outcome = person.state()["score"]["outcome"].replace("Computer", other)
        assert outcome in person.page.text_content("#end-match")
        assert "omputer" not in person.page.text_content("#end-match")
        assert person.page.locator("#btn-learn").is_enabled()
        assert person.page.locator("#btn-rematch").is_visible()
    assert ann.page.text_content("#opp-title") == "Bob"
    ann.fits()
    ann.page.screenshot(path=str(artifacts / f"people-{request.node.callspec.id}-over.png"))
    assert not ann.errors and not bob.errors, ann.errors + bob.errors


@pytest.mark.parametrize("people", ["phone"], indirect=True)
def test_on_a_phone_the_clock_runs_and_a_resignation_ends_it_then_a_rematch(
    people: tuple[Person, Person], artifacts: Path
) -> None:
    """At phone width, by taps (a shorter check than the whole match, for the default run):
    the lobby, the clock of the person to move, a move that reaches the other page live, a
    reload mid-hand, one screen wide, resign with its confirmation, and a rematch both
    accept."""
    ann, bob = people
    ann.page.wait_for_selector("body[data-ready=true]")
    create_table(ann, clock="60", open_=True)
    # Bob joins from the open tables in the New game window.
    bob.page.wait_for_selector("#dlg-new[open]")
    bob.press("#join-box summary")
    # The open table reads in plain words (the rules' name, no "profile (key=value)").
    bob.page.wait_for_selector("#lobby button[data-invite]")
    listed = bob.page.locator("#lobby li").first.inner_text()
    assert listed.startswith("Ann: ") and "=" not in listed and "(" not in listed
    bob.press("#lobby button[data-invite]")
    accept_terms(bob)
    ann.page.wait_for_selector("#people-bar:not([hidden])")
    # Nobody presses Deal, and no clock runs until the hand is dealt (issue 37 item 2).
    for person in (ann, bob):
        wait_dealt(person, 1)
    st = ann.state()
    mover, other = (ann, bob) if st["hand"]["your_turn"] else (bob, ann)
    for person in (ann, bob):
        person.shows(st["version"])
    mover.page.wait_for_selector("#people-clock[data-mine=true]")
    assert mover.page.text_content("#people-clock").startswith("Your clock:")
    assert other.page.text_content("#people-clock").startswith(
        "Ann's clock:" if mover is ann else "Bob's clock:")
    play_turn(mover, mover.state())
    # The other page learns the move from the live stream (no reload)...
    moved = mover.state()["version"]
    other.shows(moved)
    # ...then that person reloads mid-hand and finds the same hand, still a table for two.
    held = other.state()["hand"]["cards"]
    other.page.reload()
    other.page.wait_for_selector("body[data-ready=true]")
    other.shows(moved)
    other.page.wait_for_selector("#people-bar:not([hidden])")
    shown = other.page.eval_on_selector_all("#hand .card", "els => els.map(e => e.dataset.card)")
    assert sorted(shown) == sorted(held)
    # One screen wide: nothing scrolls sideways. The rules line names the other person
    # where they dealt (never "the computer").
    dealt_by_ann = st["hand"]["dealer"] == "you"
    for person, dealer_is_me in ((ann, dealt_by_ann), (bob, not dealt_by_ann)):
        person.fits()
        line = person.page.text_content("#rules-line") or ""
        assert ("you dealt" if dealer_is_me else
                ("Bob dealt" if person is ann else "Ann dealt")) in line, line
    # Bob resigns (and confirms); both pages say who won and why.
    bob.press("#btn-resign")
    bob.page.wait_for_selector("#people-ended:not([hidden])")
    assert "you resigned, so Ann wins" in bob.page.text_content("#people-ended")
    ann.page.wait_for_selector("#people-ended:not([hidden])")
    assert "Bob resigned, so you win" in ann.page.text_content("#people-ended")
    # The hand was cut short, never over: its seal is revealed now the match is, and each page
    # checks it in the score panel's seal line, where the commitment was shown during the hand.
    number = st["hand"]["number"]
    for person in (ann, bob):
        ended = person.state()
        assert ended["hand"]["result"] is None
        revealed = ended["meta"]["sealed"]["hand"]["server_seed"]
        person.page.wait_for_selector("#seal-line #seal-verdict[data-ok=true]")
        line = person.page.inner_text("#seal-line")
        assert f"Hand {number} was cut short" in line and "Fair deal ✓" in line
        assert revealed not in line  # the details stay folded until asked for
        person.press("#seal-line #seal-more")
        assert revealed in person.page.inner_text("#seal-details")
    ann.page.locator("#score").screenshot(path=str(artifacts / "people-phone-cut-short-seal.png"))
    ann.press("#btn-verify")
    ann.page.wait_for_selector("#dlg-verify[open]")
    ann.page.wait_for_function(
        "document.getElementById('dlg-verify').dataset.result !== 'running'")
    assert ann.page.get_attribute("#dlg-verify", "data-result") == "pass", (
        ann.page.inner_text("#verify-checks"))
    checked = ann.page.eval_on_selector_all(
        "#verify-checks li", "els => els.map(e => e.dataset.check)")
    assert {"commitment", "deck", "hands", "upcard", "draws"} <= set(checked)
    ann.press("#dlg-verify button.close")
    # A rematch: offered by Ann, accepted by Bob; both pages move to the new table.
    old = ann.state()["id"]
    ann.press("#btn-rematch")
    ann.page.wait_for_selector("#btn-rematch[disabled]")
    bob.page.wait_for_function(
        "() => document.querySelector('#btn-rematch').textContent.startsWith('Accept')")
    bob.press("#btn-rematch")
    for person in (ann, bob):
        person.page.wait_for_function(
            "old => document.body.dataset.match && document.body.dataset.match !== old", arg=old)
        person.page.wait_for_selector("#people-bar:not([hidden])")
    ann.page.screenshot(path=str(artifacts / "people-phone-rematch.png"))
    assert not ann.errors and not bob.errors, ann.errors + bob.errors


def test_a_name_can_be_changed_for_tables_for_two(client: TestClient) -> None:
    token = client.post("/api/players", json={"name": "You"}).json()["token"]
    auth = {"Authorization": f"Bearer {token}"}
    r = client.post("/api/me/name", json={"name": "  Ann  "}, headers=auth)
    assert r.status_code == 200 and r.json()["name"] == "Ann"
    assert client.get("/api/me", headers=auth).json()["name"] == "Ann"
    bad = client.post("/api/me/name", json={"name": ""}, headers=auth)
    assert bad.status_code == 422 and bad.json()["detail"]
    missing = client.post("/api/me/name", json={}, headers=auth)  # no default name
    assert missing.status_code == 422 and "name" in missing.json()["detail"]
    assert client.post("/api/me/name", json={"name": "Bo"}).status_code == 401
    assert client.get("/api/me", headers=auth).json()["name"] == "Ann"
