"""Learning in the page, in Debian's Chromium: a sample situation solved with the table's own
controls, the calm first round completed by following its guide, and the rules panel printed
to PDF with every number checked against the profile's RuleSet."""

from __future__ import annotations

import io
import re
import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect
from pypdf import PdfReader

from ginrummy.engine.cards import CardSet
from ginrummy.engine.rules import PROFILE_NAMES, get_rules
from ginrummy.lessons import answer, load_situations
from ginrummy.words.cheatsheet import cheat_sheet

from .conftest import Server
from .knock_choice import DEFAULT_MELDS, meld_groups, open_stacked

#: Upper bound on guide steps in one hand (31 stock cards, three steps a turn).
MAX_STEPS = 150
SITUATIONS = {s.id: s for s in load_situations()}


@contextmanager
def blank_page(browser: Any, width: int, *, bypass_csp: bool = False) -> Iterator[Any]:
    """A new page at ``width`` × 900 with reduced motion, nothing loaded yet; no page error may
    happen while it is used."""
    ctx = browser.new_context(
        viewport={"width": width, "height": 900}, reduced_motion="reduce", bypass_csp=bypass_csp
    )
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    yield pg
    assert not errors
    ctx.close()


@contextmanager
def page_at(
    browser: Any, live_server: Server, width: int, *, bypass_csp: bool = False
) -> Iterator[Any]:
    """The page, freshly loaded at ``width`` × 900 with its first new-game window open; no
    page error may happen while it is used."""
    with blank_page(browser, width, bypass_csp=bypass_csp) as pg:
        pg.goto(live_server.url + "/")
        pg.wait_for_selector("body[data-ready=true]")
        pg.wait_for_selector("#dlg-new[open]")  # a first visit opens the new-game window
        yield pg


@pytest.fixture()
def page(browser: Any, live_server: Server) -> Iterator[Any]:
    with page_at(browser, live_server, 1280, bypass_csp=True) as pg:
        yield pg


def open_situation(page: Any, situation_id: str) -> None:
    page.click("#btn-learn")
    page.click(f'#learn-list button[data-situation="{situation_id}"]')
    page.wait_for_selector(f'body[data-situation="{situation_id}"]')
    page.wait_for_function("document.body.dataset.busy === 'false'")


def test_a_situation_is_solved_through_the_page(page: Any, artifacts: Path) -> None:
    page.click("#new-cancel")
    s = SITUATIONS["qka-not-a-run"]
    open_situation(page, s.id)
    assert page.inner_text("#lesson-question") == s.lesson.question
    # A neutral heading until answered: the lesson's title says the answer (issue 38).
    assert page.inner_text("#lesson-title") == s.lesson.heading != s.lesson.title
    assert page.locator("#lesson-answer").is_hidden()
    # The table shows the learner's own cards, drawn by the table's renderer.
    cards = page.eval_on_selector_all("#hand .card", "els => els.map(e => e.dataset.card)")
    assert sorted(cards) == sorted(str(c) for c in s.position.view().hand)
    page.click('#hand .card[data-card="Ks"]')
    page.click('[data-act="discard"]')
    page.wait_for_selector("body[data-answered=right]")
    assert page.inner_text("#lesson-title") == s.lesson.title
    text = page.inner_text("#lesson-answer")
    assert "Right!" in text
    for fact, outcome in answer(s, "discard Ks").facts:
        assert outcome.sentence() in text  # every fact, in the engine's own words
        del fact
    assert "Your opponent held" in text and s.lesson.takeaway in text
    # The opponent's hand, laid out in groups, is every card it held, named as one list.
    held = s.position.opponent_mask()
    shown = page.eval_on_selector_all("#lesson-answer .lesson-opp .card",
                                      "els => els.map(e => e.dataset.card)")
    assert sorted(shown) == sorted(str(c) for c in CardSet.from_mask(held))
    label = page.get_attribute("#lesson-answer .lesson-opp", "aria-label")
    assert label is not None and label.startswith("Your opponent's cards: ")
    assert page.evaluate("document.activeElement.id") == "lesson-answer"
    page.screenshot(path=str(artifacts / "learn-solved.png"), full_page=True)

    # A wrong answer: the engine's outcome of the learner's move against the taught one.
    chain = SITUATIONS["layoffs-chain-along-a-run"]
    page.click("#lesson-all")
    page.click(f'#learn-list button[data-situation="{chain.id}"]')
    page.wait_for_selector(f'body[data-situation="{chain.id}"]:not([data-answered])')
    page.click('#hand .card[data-card="3c"]')
    page.keyboard.press("k")
    page.wait_for_selector("body[data-answered=wrong]")
    judged = answer(chain, "knock 3c")
    assert judged.taught is not None
    text = page.inner_text("#lesson-answer")
    assert judged.yours.sentence() in text and judged.taught.sentence() in text
    assert page.inner_text("#end-text") == judged.yours.sentence()
    assert page.locator("#btn-next").is_hidden()  # a lesson has no next hand
    page.screenshot(path=str(artifacts / "learn-wrong.png"), full_page=True)
    page.click("#lesson-exit")
    page.wait_for_selector("#lesson", state="hidden")
    assert page.get_attribute("body", "data-mode") is None


@pytest.mark.parametrize("width", [1280, 390], ids=["desktop", "phone"])
def test_learn_starts_with_the_goal_and_keeps_the_answers_and_statistics_back(
    browser: Any, live_server: Server, width: int
) -> None:
    """Issue 38: Learn's first screen states the goal of the game (the same three sentences
    as ``ginrummy learn``); the situations are listed by neutral headings, not titles that say
    the answer, with their rules in plain words and no topic repeated as its only item; the
    statistics are behind a link."""
    from ginrummy.lessons.text import GOAL, rules_label

    with page_at(browser, live_server, width) as pg:
        pg.click("#new-cancel")
        pg.click("#btn-learn")
        pg.wait_for_selector("#learn-list li")
        goal = pg.locator("#learn-goal")
        assert " ".join(goal.inner_text().split()) == " ".join(GOAL)
        box = goal.bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 900, box
        assert pg.locator("#learn-goal-title").inner_text() == "The goal"
        shown = pg.eval_on_selector_all(
            "#learn-list button[data-situation]",
            "els => els.map(e => [e.dataset.situation, e.textContent, "
            "e.nextElementSibling.textContent])")
        assert [sid for sid, _, _ in shown] == list(SITUATIONS)
        for sid, text, rules in shown:
            assert text == SITUATIONS[sid].lesson.heading != SITUATIONS[sid].lesson.title
            assert rules == rules_label(SITUATIONS[sid])
            assert "=" not in rules and rules[0].isupper()
        for topic in pg.locator("#learn-list h4").all():
            items = topic.locator("xpath=following-sibling::ul[1]/li/button").all_inner_texts()
            assert items != [topic.inner_text()]
        visible = pg.inner_text("#dlg-learn")
        for word in ("Wilson", "ginrummy simulate", "--seed"):
            assert word not in visible, word
        assert pg.locator("#learn-measured summary").is_visible()


def test_the_first_round_is_completed_by_following_its_steps(page: Any, artifacts: Path) -> None:
    assert page.locator("#tour-offer").is_visible()  # offered on the first visit
    page.click("#new-tour")
    page.wait_for_selector("#guide:not([hidden])")
    steps: list[str] = []
    for _ in range(MAX_STEPS):
        page.wait_for_function(
            "document.body.dataset.busy === 'false'"
            " && document.getElementById('guide').dataset.step !== 'wait'"
        )
        step = page.get_attribute("#guide", "data-step")
        target = page.get_attribute("#guide", "data-target")
        key = page.get_attribute("#guide", "data-key")
        steps.append(step)
        if step == "done":
            break
        # The control the guide names is the one it highlights; follow it.
        assert "guide-target" in (page.get_attribute(target, "class") or "")
        if len(steps) == 3:
            page.screenshot(path=str(artifacts / "learn-first-round.png"), full_page=True)
        page.click(target)
        # Knock opens a window when several groupings leave the same deadwood (rare here; the
        # next test stacks it): the guide said so, and its first grouping is the one it suggests.
        page.wait_for_function(
            f"document.getElementById('guide').dataset.key !== {key!r}"
            " || Boolean(document.querySelector('#dlg-melds[open]'))"
        )
        if page.locator("#dlg-melds[open]").count():
            assert step == "knock"
            assert "a window shows them" in page.inner_text("#guide-text")
            page.click("#melds-knock")
            page.wait_for_function(f"document.getElementById('guide').dataset.key !== {key!r}")
    else:
        raise AssertionError("the guided hand did not end")
    # The first hand is sealed and dealt at once: the guide starts at the opening.
    assert steps[0] in ("opening", "draw")
    assert {"select", "discard"} <= set(steps) or {"select-knock", "select-gin"} & set(steps)
    assert page.locator("#hand-end").is_visible()
    page.click("#guide-skip")  # "Finish the guide"
    assert page.locator("#guide").is_hidden()
    page.click("#btn-new")
    assert page.locator("#tour-offer").is_hidden()  # offered once
    page.click("#new-cancel")


#: The guide's steps whose control makes a move (a decision); the others select a card or wait.
MOVE_STEPS = {"opening", "draw", "discard", "knock", "gin", "last-chance"}


def test_the_guide_counts_decisions_not_clicks(page: Any) -> None:
    """Issue 38: the guided round's counter said "step 38" after three turns (it counted every
    redraw); it counts the person's decisions: selecting a card and pressing Discard is one,
    and the computer's turns add none."""
    page.click("#new-tour")
    page.wait_for_selector("#guide:not([hidden])")
    made = 0
    discards = 0
    for _ in range(MAX_STEPS):
        page.wait_for_function(
            "document.body.dataset.busy === 'false'"
            " && document.getElementById('guide').dataset.step !== 'wait'"
        )
        step = page.get_attribute("#guide", "data-step")
        count = page.inner_text("#guide-count")
        if step == "done" or discards == 3:
            break
        number = re.search(r"\d+", count)
        assert number is not None and int(number.group()) == made + 1, (step, count, made)
        key = page.get_attribute("#guide", "data-key")
        page.click(page.get_attribute("#guide", "data-target"))
        page.wait_for_function(
            f"document.getElementById('guide').dataset.key !== {key!r}"
            " || Boolean(document.querySelector('#dlg-melds[open]'))"
        )
        if page.locator("#dlg-melds[open]").count():
            page.click("#melds-knock")
        made += step in MOVE_STEPS
        discards += step == "discard"
    else:
        raise AssertionError("the guide did not reach three discards or the end")
    if step == "done":
        assert count == f"· {made} decision{'s' if made != 1 else ''}"
    else:  # three turns in: the counter is at the fourth turn's first decision, or so
        assert count == f"· decision {made + 1}" and made <= 8


def test_the_guide_leads_through_the_window_of_groupings(browser: Any, live_server: Server) -> None:
    """The guided first round reaches a knock with two groupings of the same deadwood (the
    stacked match of knock_choice.py, the guide on for it): the guide's Knock step says a window
    will offer them, Knock opens it, and its Knock lays the first down and ends the hand."""
    with blank_page(browser, 1280, bypass_csp=True) as page:
        open_stacked(page, live_server, tour=True)
        ready = ("document.body.dataset.busy === 'false'"
                 " && !document.getElementById('guide').hidden"
                 " && document.getElementById('guide').dataset.step === ")
        page.wait_for_function(ready + "'select-knock'")
        assert page.get_attribute("#guide", "data-target") == '#hand .card[data-card="Kc"]'
        assert "window" not in page.inner_text("#guide-text")
        page.click('#hand .card[data-card="Kc"]')
        page.wait_for_function(ready + "'knock'")
        text = page.inner_text("#guide-text")
        assert "in 2 ways that leave the same deadwood" in text and "a window shows them" in text
        page.click(page.get_attribute("#guide", "data-target"))
        expect(page.locator("#dlg-melds[open]")).to_be_visible()
        assert page.locator("#dlg-melds .melds-choice").count() == 2
        page.click("#melds-knock")
        page.wait_for_function(ready + "'done'")
        assert meld_groups(page, "#end-you") == DEFAULT_MELDS


def test_the_guide_can_be_skipped_with_the_keyboard(page: Any) -> None:
    page.focus("#new-tour")
    page.keyboard.press("Enter")
    page.wait_for_selector("#guide:not([hidden])")
    page.keyboard.press("Escape")
    page.wait_for_selector("#guide", state="hidden")
    assert page.evaluate("JSON.parse(localStorage.getItem('ginrummy.tour')).ended") == "skipped"
    assert page.locator(".guide-target").count() == 0


def _flat(pdf: bytes) -> tuple[int, str]:
    reader = PdfReader(io.BytesIO(pdf))
    text = " ".join(p.extract_text() for p in reader.pages)
    text = unicodedata.normalize("NFKC", text)  # the PDF's ligatures: "ﬁ" -> "fi"
    return len(reader.pages), re.sub(r"\s+", " ", text)


def test_the_cheat_sheet_prints_on_one_page_with_the_profile_s_numbers(
    page: Any, artifacts: Path
) -> None:
    page.add_init_script(
        "window.print = () => { window.__printed = (window.__printed || 0) + 1; };"
    )
    page.reload()
    page.wait_for_selector("#dlg-new[open]")
    page.click("#new-cancel")
    page.click("#btn-rules")
    page.click("#rules-print")
    assert page.evaluate("window.__printed") == 1  # the Print button asks the browser to print
    for profile in PROFILE_NAMES:
        r = get_rules(profile)
        page.select_option("#rules-choose", profile)
        page.wait_for_selector(f"body[data-rules-profile={profile}]")
        for size in ("A4", "Letter"):
            pages, text = _flat(page.pdf(format=size))
            assert pages == 1, (profile, size)
        if profile == "oklahoma":
            (artifacts / "cheat-sheet-oklahoma.pdf").write_bytes(page.pdf(format="A4"))
        # The title names the rules once, in plain words (issue 38: it said "Traditional —
        # traditional"), as the terminal's sheet does.
        title = cheat_sheet(r).title
        assert title in text and f"— {profile}" not in text
        assert f"deadwood + {r.gin_bonus}; a gin is never undercut" in text
        assert f"the difference + {r.undercut_bonus}" in text
        assert f"reaches {r.target} ends the game" in text
        if r.oklahoma:
            assert "set by the first upcard" in text and "an ace allows gin only" in text
        else:
            assert f"Knock limit {r.knock_limit} points of deadwood or less" in text
        if r.big_gin:
            assert f"Big gin the opponent's whole deadwood + {r.big_gin_bonus}" in text
        else:
            assert "Big gin not played at this table" in text
        if r.game_bonus:
            assert f"Game bonus {r.game_bonus} to the player who reached {r.target}" in text
        else:
            assert "Game bonus none" in text
        if r.shutout == "game_bonus":
            assert f"or {r.shutout_game_bonus} if" in text
        if r.shutout == "double":
            assert "the winner's final total is doubled" in text
        if r.box_bonus:
            assert f"Box bonus {r.box_bonus} to each player for every hand they won" in text
        else:
            assert "Box bonus none" in text
        assert ("Spade upcard" in text) == r.spade_double
        for chrome in ("New game", "Score sheet", "Fair play", "Close", "Deadwood:"):
            assert chrome not in text, (profile, chrome)


@pytest.mark.parametrize("width", [1280, 390], ids=["desktop", "phone"])
def test_by_the_numbers_shows_the_real_runs_with_their_commands(
    browser: Any, live_server: Server, artifacts: Path, width: int
) -> None:
    """Behind the Learn panel's "how we measured this", every figure of the package's data
    file (made by scripts/by_the_numbers.py) with its interval, and the command of each run."""
    from ginrummy.server.learn_routes import by_the_numbers

    data = by_the_numbers()
    with page_at(browser, live_server, width) as pg:
        pg.click("#new-cancel")
        pg.click("#btn-learn")
        pg.wait_for_selector("#learn-list li")
        assert pg.locator("#learn-numbers").is_hidden()  # behind "how we measured this"
        pg.click("#learn-measured summary")
        pg.wait_for_selector('#learn-numbers td[data-figure="medium-knock"]')
        for run in data["runs"]:
            knock = pg.inner_text(f'#learn-numbers td[data-figure="{run["level"]}-knock"]')
            f = run["knock"]
            assert knock == (f"{100 * f['value']:.1f}% ({100 * f['low']:.1f}–"
                             f"{100 * f['high']:.1f}%)")
            turns = pg.inner_text(f'#learn-numbers td[data-figure="{run["level"]}-turns_per_hand"]')
            t = run["turns_per_hand"]
            assert turns == f"{t['value']:.1f} ({t['low']:.1f}–{t['high']:.1f})"
            assert run["command"] in pg.inner_text("#learn-numbers")
        pg.locator("#learn-numbers").scroll_into_view_if_needed()
        # The dialog itself never scrolls sideways: the table scrolls inside its own box.
        assert pg.evaluate("(() => { const d = document.getElementById('dlg-learn');"
                           " return d.scrollWidth <= d.clientWidth + 1; })()")
        pg.screenshot(path=str(artifacts / f"learn-numbers-{width}.png"), full_page=True)


@pytest.mark.parametrize("width", [1280, 390], ids=["desktop", "phone"])
def test_the_strategy_panel_shows_every_tip_with_its_situation_and_figures(
    browser: Any, live_server: Server, artifacts: Path, width: int
) -> None:
    """Strategy (in the top bar): every tip, surest first, the situation that shows it (which
    opens on the table), and its self-play figure in one short line; no command, no tip
    contradicted by its own figure, and the whole window short enough to read (issue 38)."""
    from ginrummy.lessons.strategy import ABOUT, strategy_tips

    tips = strategy_tips()
    with page_at(browser, live_server, width) as pg:
        pg.click("#new-cancel")
        pg.click("#btn-strategy")
        pg.wait_for_selector("#strategy-list .strategy-tip")
        assert pg.eval_on_selector_all("#strategy-list .strategy-tip",
                                       "els => els.map(e => e.dataset.tip)") == [
            t.key for t in tips]
        for tip in tips:
            sec = pg.locator(f'#strategy-list .strategy-tip[data-tip="{tip.key}"]')
            text = " ".join(sec.inner_text().split())
            assert tip.title in text and tip.text in text
            assert sec.locator(f'button[data-situation="{tip.situation_id}"]').inner_text() == (
                tip.situation_title)
            assert sec.locator(".strategy-figure").inner_text() == tip.line
        whole = pg.inner_text("#dlg-strategy")
        assert ABOUT in " ".join(whole.split())
        for word in ("Made by", "benchmarks/", "--seed", "disagree"):
            assert word not in whole, word
        assert len(whole) <= 2500, len(whole)  # it was 5.4k characters
        assert pg.evaluate("(() => { const d = document.getElementById('dlg-strategy');"
                           " return d.scrollWidth <= d.clientWidth + 1; })()")
        pg.screenshot(path=str(artifacts / f"strategy-{width}.png"), full_page=True)
        # A tip's situation opens on the table, from the learner's seat.
        late = next(t for t in tips if t.key == "safe-late")
        pg.click(f'#strategy-list button[data-situation="{late.situation_id}"]')
        pg.wait_for_selector(f'body[data-situation="{late.situation_id}"]')
