"""The coach at the terminal table: a remark after each of the human's decisions, ``coach on``
and ``coach off``, a review after the hand; and ``ginrummy play --coach`` in a terminal."""

from __future__ import annotations

from pathlib import Path

from ginrummy.coach import Coach
from ginrummy.tui.parse import Command, parse_command
from ginrummy.tui.saves import SavedMatch
from test_tui_table import META, NAMES, Session
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
    for _ in range(120):
        question = prompt(child)
        if question is None or question.startswith("Press Enter"):
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
    assert "The coach's review of hand 1" in text
