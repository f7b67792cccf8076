"""``ginrummy learn`` and ``ginrummy play --tutorial`` driven through a pseudo-terminal
(pexpect), and the authoring commands through Click's runner. Every wait is on output."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pexpect
from click.testing import CliRunner
from rich.console import Console

from ginrummy.cli import main
from ginrummy.engine.cards import cards_of_mask, parse_cards
from ginrummy.lessons import answer, load_situations
from ginrummy.lessons.text import GOAL, rules_label
from ginrummy.tui.lesson import LessonTable
from ginrummy.tui.parse import typed_card
from ginrummy.tui.render import asciify
from tui_support import spawn_ginrummy

SRC = Path(__file__).resolve().parent.parent / "src"
SPECS = SRC / "ginrummy" / "lessons" / "situations" / "specs"
TIMEOUT = 30
SITUATIONS = load_situations()


def spawn(*args: str, data: Path | None = None) -> pexpect.spawn:
    env = dict(os.environ, PYTHONPATH=str(SRC), TERM="xterm")
    for sized in ("COLUMNS", "LINES"):  # the pseudo-terminal's own size applies
        env.pop(sized, None)
    if data is not None:
        env["GINRUMMY_DATA_DIR"] = str(data)
    child: pexpect.spawn = spawn_ginrummy(list(args), env=env, dimensions=(60, 250),
                                          timeout=TIMEOUT)
    return child


def test_learn_lists_plays_and_explains_a_situation() -> None:
    number = next(i for i, s in enumerate(SITUATIONS, 1) if s.id == "layoffs-chain-along-a-run")
    situation = SITUATIONS[number - 1]
    child = spawn("learn", "--plain")
    # The goal of the game first (issue 38), wrapped to the terminal's width.
    child.expect(r"\s+".join(re.escape(word) for word in " ".join(GOAL).split()))
    child.expect_exact("Layoffs:")
    # Each by its neutral heading (the title says the answer) and its rules in plain words.
    heading, rules = situation.lesson.heading, rules_label(situation)
    assert heading != situation.lesson.title and rules == "Modern"  # not "modern"
    child.expect_exact(f"{number:2d}. {heading}  [{rules}]")
    child.expect_exact("Situation number or id (q to quit) > ")
    child.sendline(str(number))
    child.expect_exact(f"Situation: {heading} (Layoffs; {rules})")
    child.expect_exact("Your cards: ")
    child.expect_exact("Which card do you knock with?")
    child.expect(r"> $")
    child.sendline("x 9c")  # not in the hand: the engine's sentence, and the question again
    child.expect_exact("You do not hold the 9c.")
    child.expect(r"> $")
    child.sendline("k 3c")  # a legal knock, but not the lesson's
    expected = answer(situation, "knock 3c")
    child.expect_exact(f"Lesson: {situation.lesson.title}")  # the title, once answered
    child.expect_exact(
        "The lesson's answer is to knock, discarding the 7h; you chose to knock, discarding "
        "the 3c."
    )
    child.expect_exact(
        asciify(f"Your move, knock, discarding the 3c: {expected.yours.sentence()}")
    )
    assert expected.taught is not None
    child.expect_exact(asciify(expected.taught.sentence()))
    child.expect_exact("Your opponent held: ")
    child.expect_exact("Takeaway: ")
    child.expect_exact("Press Enter for the list (q to quit) > ")
    child.sendline("")
    child.expect_exact("Situation number or id (q to quit) > ")
    child.sendline("qka-not-a-run")
    child.expect(r"Discard \(x <card>\) > $")
    child.sendline("x ks")
    child.expect_exact("Right: discard the Ks.")
    child.expect_exact("Invalid melds: AsQsKs is not a set or a run.")
    child.expect_exact("Press Enter for the list (q to quit) > ")
    child.sendline("q")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_the_question_never_shows_the_opponent_s_hidden_cards() -> None:
    for situation in SITUATIONS:
        console = Console(record=True, width=200, color_system=None)
        prompts: list[str] = []
        # Each prompt is kept; answering None is the end of input: the learner quits.
        assert not LessonTable(console, plain=True, ask=prompts.append).play(situation)
        shown = console.export_text() + "".join(prompts)
        view = situation.position.view()
        hidden = situation.position.opponent_mask() & ~view.opponent_known_mask
        assert hidden
        tokens = set(re.findall(r"(?<![0-9A-Za-z])(?:10|[2-9AJQK])[cdhs](?![0-9A-Za-z])", shown))
        assert view.hand.issubset(parse_cards(" ".join(tokens)))  # the reader sees the hand
        assert not tokens & {typed_card(c) for c in cards_of_mask(hidden)}, situation.id


def test_play_tutorial_tips_each_decision_and_can_be_skipped(tmp_path: Path) -> None:
    child = spawn("play", "--tutorial", "--plain", "--seed", "tip", data=tmp_path)
    child.expect_exact("New match: traditional")
    child.expect_exact("Tip: press Enter to deal.")  # the first hand is sealed first
    child.expect_exact("Press Enter for hand 1")
    child.sendline("")
    child.expect(r"Tip: (the upcard|start your turn)")
    first = child.match.group(1)
    child.expect(r"> $")
    child.sendline("p" if first == "the upcard" else "d")
    child.expect(r"Tip: ")
    child.expect(r"> $")
    child.sendline("skip")
    child.expect_exact("Tips are off; type ? for the commands.")
    child.expect(r"> $")
    child.sendline("m")
    child.expect(r"You can: ([^,\r\n]*)")
    move = child.match.group(1)
    child.expect(r"> $")
    child.sendline(move)
    child.expect(r"> $")  # the next decision (the computer has played in between)
    assert "Tip:" not in (child.before or "")
    child.sendline("q")
    child.expect_exact("Saved in")
    child.expect(pexpect.EOF)
    child.close()


def test_build_check_and_show_for_authors(tmp_path: Path) -> None:
    runner = CliRunner()
    spec = SPECS / "qka-not-a-run.toml"
    out = tmp_path / "qka.toml"
    done = runner.invoke(main, ["learn", "build", str(spec), "-o", str(out)])
    assert done.exit_code == 0, done.output
    checked = runner.invoke(main, ["learn", "check", str(out)])
    assert checked.exit_code == 0 and "ok   qka.toml: Q-K-A is not a run" in checked.output
    shown = runner.invoke(main, ["learn", "show", str(out)])
    assert shown.exit_code == 0 and 'seat0 = "Qs Ks As 7c 7d 7h 3h 4h 5h 6h"' in shown.output
    bad = tmp_path / "bad.toml"
    bad.write_text(out.read_text().replace("deadwood = 13", "deadwood = 14"))
    refused = runner.invoke(main, ["learn", "check", str(bad)])
    assert refused.exit_code == 1
    assert "bad.toml (qka-not-a-run)" in refused.output and "engine finds 13" in refused.output
    unwritable = runner.invoke(main, ["learn", "build", str(spec), "-o",
                                      str(tmp_path / "no-such-folder" / "x.toml")])
    assert unwritable.exit_code == 1 and "Traceback" not in unwritable.output
    assert "cannot write" in unwritable.output and "No such file or directory" in unwritable.output
    every = runner.invoke(main, ["learn", "check"])
    assert every.exit_code == 0 and f"{len(SITUATIONS)} situations are valid." in every.output


def test_lesson_lines_wrap_between_words_at_a_narrow_console() -> None:
    """A question longer than the console's width is wrapped by the table at word boundaries,
    never mid-word (with the terminal left to wrap, "You dre / w the 8c" happened)."""
    out = __import__("io").StringIO()
    console = Console(file=out, width=24, color_system=None)
    table = LessonTable(console, plain=True)
    text = "You drew the 8c. Queen, king and ace of spades: is that a run?"
    table.say(text)
    lines = out.getvalue().splitlines()
    assert len(lines) > 1 and all(len(line) <= 24 for line in lines)
    assert " ".join(line.strip() for line in lines) == text  # every break is between words


def test_a_match_s_commands_in_a_situation_are_answered() -> None:
    """``coach``, ``commitment`` and ``seed TEXT`` belong to a match: in a situation each gets a
    sentence and the question again (they used to stop the lesson with an AssertionError)."""
    script = ["coach", "commitment", "seed mine"]
    prompts: list[str] = []

    def ask(prompt: str) -> str | None:
        prompts.append(prompt)
        return script.pop(0) if script else None

    console = Console(record=True, width=200, color_system=None)
    assert not LessonTable(console, plain=True, ask=ask).play(SITUATIONS[0])
    text = console.export_text()
    for word in ("coach", "commitment", "seed"):
        assert f"'{word}' belongs to a real match (ginrummy play)" in text
    assert len(prompts) == 4 and len(set(prompts)) == 1  # the same question each time
