"""The coach at the terminal table: a remark after each of the human's decisions, ``coach on``
and ``coach off``, a review after the hand; and ``ginrummy play --coach`` in a terminal."""

from __future__ import annotations

from pathlib import Path

import pytest

import ginrummy.tui.table as table_module
from ginrummy.coach import Coach
from ginrummy.tui.parse import Command, parse_command
from ginrummy.tui.render import deal_prompt
from ginrummy.tui.saves import SavedMatch
from ginrummy.tui.table import SEALED_TIP
from ginrummy.tui.tutorial import FINAL_TIP, tutorial_tip
from test_tui_sealed import sealed
from test_tui_table import META, NAMES, Session, scripted
from test_tui_terminal import _Collect, answer, prompt, spawn
from tui_support import greedy_choice, match_with


def coached(saved: SavedMatch, tmp: Path, script: list[object]) -> Session:
    s = Session(saved, tmp, script)
    s.table.coach = Coach(seed=1, samples=16)
    return s


def test_coach_commands_are_read() -> None:
    assert parse_command("coach") == Command("coach")
    assert parse_command("Coach  ON") == Command("coach", arg="on")
    assert parse_command("coach off") == Command("coach", arg="off")


def test_a_missed_gin_gets_its_remark(tmp_path: Path) -> None:
    # Taking the 7h upcard would give the human gin at once (three melds and the K♦).
    match = match_with("Ac 2c 3c 4h 5h 6h 7s 7d 7c Kd", "Jc Js 5c 6c 9c 3s 4s Qd Kh 2h", "7h")
    s = coached(SavedMatch(match, NAMES, META), tmp_path, ["p"])
    s.run()
    assert "Coach: [Mistake] Taking the 7h would have given you gin." in s.text


def test_every_decision_gets_a_remark_and_the_hand_a_review(tmp_path: Path) -> None:
    match = match_with("7h 8h 9h Kc Kd Ks 2c 5d 9s Jh", "3c 4c 5c Qh Qd Qs 6s 7d Ac 2d", "4s")
    saved = SavedMatch(match, NAMES, META)
    script: list[object] = [
        lambda view: "q" if view.phase == "over" else greedy_choice(view)] * 60
    s = coached(saved, tmp_path, script)
    s.run()
    text = s.text
    assert text.count("Coach: [") >= 3
    assert "The coach's review of hand 1" in text
    review = text[text.index("The coach's review of hand 1"):]
    assert "decision" in review.splitlines()[1]


def test_the_coach_can_be_switched_at_the_table(tmp_path: Path) -> None:
    match = match_with("7h 8h 9h Kc Kd Ks 2c 5d 9s Jh", "3c 4c 5c Qh Qd Qs 6s 7d Ac 2d", "4s")
    s = Session(SavedMatch(match, NAMES, META), tmp_path, ["coach on", "p", "coach off", "d"])
    s.run()
    text = s.text
    assert "The coach is on" in text and "The coach is off." in text
    on, off = text.split("The coach is off.")
    assert "Coach: [" in on  # the remark on the pass
    assert "Coach: [" not in off  # none on the draw


def test_play_with_the_coach_in_a_terminal(tmp_path: Path) -> None:
    child = spawn(tmp_path, "--plain", "--level", "random", "--coach", "--seed", "coach")
    log: list[str] = []
    child.logfile_read = _Collect(log)
    assert prompt(child) == deal_prompt(1).removesuffix(" > ")  # the sealed first deal
    child.sendline("")
    for _ in range(120):
        question = prompt(child)
        if question is None or question == deal_prompt(2).removesuffix(" > "):
            break
        child.sendline(answer(child, question))
    else:
        raise AssertionError("the first hand did not end")
    if question is not None:
        child.sendline("q")
        child.expect_exact("Saved in")
    child.close()
    text = "".join(log)
    assert "Coach: [" in text
    # The hand's end shows the revealed server seed, then the coach's review, then the sheet.
    revealed = text.index("Hand 1 was dealt from the deck sealed before it")
    review = text.index("The coach's review of hand 1")
    assert revealed < review < text.index("Score sheet", review)


def test_a_sealed_match_with_the_tutorial_and_the_coach(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # 'coach on' makes the table's own coach: a light one here (the table is tested, not it).
    monkeypatch.setattr(table_module, "Coach", lambda seed: Coach(seed=seed, samples=16))
    turn = scripted(1)[0]
    script: list[object] = ["coach on", "sheet"] + [
        lambda view: "q" if view is not None and view.phase == "over" else turn(view)] * 80
    s = Session(sealed("tips and coach"), tmp_path, script)
    s.table.tips = tutorial_tip
    s.run()
    lines = s.text.splitlines()
    # Before the first deal: the coach is switched on (no hand to review yet), and the sealed
    # tip follows the seal's own lines once, never the coach's answer or the sheet.
    assert "The coach is on" in s.text
    assert "The coach's review of hand 1" in s.text
    assert s.text.index("The coach is on") < s.text.index("The coach's review of hand 1")
    tips = [i for i, line in enumerate(lines) if line == SEALED_TIP]
    assert len(tips) == 1 and lines[tips[0] - 1].startswith("Hand 1: ")
    assert "sealed before the deal" in lines[tips[0] - 1]
    # During the hand: a tip before each decision, the coach's remark after it, never on one
    # line.
    remarks = [line for line in lines if line.startswith("Coach: [")]
    assert len(remarks) >= 3
    assert not [line for line in lines if "Tip:" in line and "Coach:" in line]
    # The hand's end: the revealed seed, the review, the sheet, the last tip, the next seal.
    at = s.text.index("Hand 1 is over")
    for part in ("Hand 1 was dealt from the deck sealed before it",
                 "The coach's review of hand 1", "Score sheet", FINAL_TIP,
                 "Hand 2: ", "sealed before the deal"):
        at = s.text.index(part, at)  # each after the one before (ValueError otherwise)


def test_the_coach_setting_is_kept_in_the_save(tmp_path: Path) -> None:
    """``coach on`` is saved with the match: after quitting, the resumed table has the coach on
    (and remarks on the next decision); ``coach off`` is saved too."""
    match = match_with("7h 8h 9h Kc Kd Ks 2c 5d 9s Jh", "3c 4c 5c Qh Qd Qs 6s 7d Ac 2d", "4s")
    s = Session(SavedMatch(match, NAMES, META), tmp_path, ["coach on"])
    s.run()
    assert "The coach is on" in s.text
    saved = s.store.read()
    assert saved.meta.coach
    again = Session(saved, tmp_path, ["p", "coach off"])
    assert again.table.coach is not None
    again.run()
    assert "Coach: [" in again.text  # the remark on the pass, with no 'coach on' typed
    assert not again.store.read().meta.coach
    assert Session(again.store.read(), tmp_path, []).table.coach is None
