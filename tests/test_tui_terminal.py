"""``ginrummy play`` driven as a terminal program through a pseudo-terminal (pexpect).

The scripted human reads only the screen: the prompt tells it the phase, and the ``m`` command
lists its legal moves. Every wait is on output, never on time.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pexpect
import pytest

from ginrummy.engine.cards import Card, parse_cards
from ginrummy.engine.hand import Hand
from ginrummy.engine.match import Match
from ginrummy.engine.melds import min_deadwood
from ginrummy.engine.rules import get_rules
from ginrummy.tui.render import deal_prompt
from ginrummy.tui.sealing import derived_client_seed, make_sealer
from tui_support import spawn_ginrummy

SRC = Path(__file__).resolve().parent.parent / "src"
TIMEOUT = 30
FAST = ["--plain", "--level", "random", "--rule", "target=20"]


def spawn(data: Path, *args: str) -> pexpect.spawn:
    env = dict(os.environ, PYTHONPATH=str(SRC), GINRUMMY_DATA_DIR=str(data), TERM="xterm")
    env.pop("NO_COLOR", None)
    for sized in ("COLUMNS", "LINES"):  # the pseudo-terminal's own size applies (xdist sets 80)
        env.pop(sized, None)
    child: pexpect.spawn = spawn_ginrummy(["play", *args], env=env, dimensions=(60, 200),
                                          timeout=TIMEOUT)
    return child


def prompt(child: pexpect.spawn) -> str | None:
    """Wait for the next prompt and return its line, or ``None`` when the program ended."""
    if child.expect([r"> $", pexpect.EOF]) == 1:
        return None
    return (child.before or "").rsplit("\n", 1)[-1].strip()


def legal_moves(child: pexpect.spawn) -> list[str]:
    child.sendline("m")
    child.expect(r"You can: ([^\r\n]*)\r?\n")
    moves = child.match.group(1).split(", ")
    child.expect(r"> $")
    return moves


def answer(child: pexpect.spawn, question: str) -> str:
    """The scripted human's reply to a prompt: pass the upcard, draw from the stock, knock as
    soon as it may, otherwise discard the card that leaves the least deadwood."""
    if question.startswith(("Take ", "The stock is down")):  # the upcard or the last discard
        return "p"
    if question.startswith("Draw "):
        return "d"
    if question.startswith("Press Enter"):
        return ""
    moves = legal_moves(child)
    if "bg" in moves:
        return "bg"
    knocks = [m for m in moves if m.startswith("k ")]
    if knocks:
        return knocks[0]
    cards = [parse_cards(m[2:])[0] for m in moves if m.startswith("x ")]
    mask = sum(1 << c for c in cards)
    best = min(cards, key=lambda c: min_deadwood(mask & ~(1 << c)))
    return f"x {best}"


def play_on(child: pexpect.spawn, turns: int | None = None) -> int:
    """Answer prompts until the program ends (or ``turns`` prompts were answered)."""
    answered = 0
    while turns is None or answered < turns:
        question = prompt(child)
        if question is None:
            return answered
        child.sendline(answer(child, question))
        answered += 1
    return answered


def finish(child: pexpect.spawn) -> str:
    child.expect(pexpect.EOF)
    child.close()
    return child.before or ""


def test_a_whole_match_in_the_terminal(tmp_path: Path) -> None:
    child = spawn(tmp_path, *FAST, "--seed", "full")
    child.expect("New match: traditional \\(target=20\\)")
    log: list[str] = []
    child.logfile_read = _Collect(log)
    play_on(child)
    child.close()
    assert child.exitstatus == 0
    text = "".join(log)
    assert "Hand 1 is over" in text
    assert "The match is over." in text
    ended = re.search(r"(You|Computer) won by (\d+) points?\. Final totals: You (\d+), "
                      r"Computer (\d+)\.|The game is a tie at (\d+) each", text)
    assert ended is not None
    if ended[1]:  # traditional: the higher final total wins, by the difference
        you, computer = int(ended[3]), int(ended[4])
        assert (ended[1] == "You") == (you > computer)
        assert int(ended[2]) == abs(you - computer)
    assert not (tmp_path / "current.toml").exists()
    [kept] = list((tmp_path / "finished").iterdir())
    assert re.search(r"result = \"(knock|gin|undercut|big_gin): seat \d scores", kept.read_text())
    # Every hand was dealt from a sealed deal: the finished file passes 'ginrummy verify'.
    assert f"Check every deal: ginrummy verify {kept}" in text
    env = dict(os.environ, PYTHONPATH=str(SRC))
    checked = subprocess.run([sys.executable, "-m", "ginrummy", "verify", str(kept)], env=env,
                             capture_output=True, text=True, timeout=TIMEOUT)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert re.search(r"All \d+ finished hand\(s\) verified\.", checked.stdout)


class _Collect:
    """A pexpect log sink that keeps everything read."""

    def __init__(self, out: list[str]) -> None:
        self.out = out

    def write(self, data: str) -> None:
        self.out.append(data)

    def flush(self) -> None:
        pass


def sealed_first_hand(seed: str) -> Hand:
    """The first hand ``ginrummy play --seed SEED`` deals when Enter takes the offered client
    seed: its sealed deal derived from the seed (docs/terminal.md)."""
    match = Match(get_rules("traditional"), seed=seed, start=False)
    sealer = make_sealer(match, reproducible_from=seed)
    sealer.commitment(0)
    sealer.set_client_seed(0, derived_client_seed(seed, 0))
    match.next_hand()
    return match.hand


def first_turn_seed() -> tuple[str, Hand]:
    """A seed whose first hand offers the upcard to the human (the computer deals)."""
    for i in range(100):
        hand = sealed_first_hand(f"bad-{i}")
        if hand.dealer == 1:
            return f"bad-{i}", hand
    raise AssertionError("no seed found")


def engine_says(hand: Hand, move: str) -> str:
    from ginrummy.engine.errors import IllegalMoveError

    with pytest.raises(IllegalMoveError) as info:
        hand.copy().play(move)
    return str(info.value)


def test_bad_input_gets_the_right_message_and_play_goes_on(tmp_path: Path) -> None:
    seed, hand = first_turn_seed()
    upcard = hand.discard_pile[-1]
    taken = hand.copy()
    taken.play("take")
    held = taken.hands[0]
    not_held = next(c for c in range(52) if not held >> c & 1)
    over_limit = next(
        c for c in range(52)
        if held >> c & 1 and c != upcard and min_deadwood(held & ~(1 << c)) > 10
    )
    child = spawn(tmp_path, "--plain", "--level", "random", "--seed", seed)
    assert prompt(child) == deal_prompt(1).removesuffix(" > ")
    child.sendline("")
    text = str(Card(upcard))  # plain mode writes a ten as 10h, not Th
    label = ("10" if text[0] == "T" else text[0]) + text[1]
    assert prompt(child) == f"Take the upcard {label} (t) or pass (p)"
    bad = [
        ("xyzzy", "'xyzzy' is not a command; type ? for help."),
        ("x 1z", "'1z' is not a card"),
        ("k 7h", "First take or pass the upcard"),
    ]
    for line, message in bad:
        child.sendline(line)
        child.expect_exact(message)
        assert prompt(child).startswith("Take the upcard")
    child.sendline("t")
    assert prompt(child).startswith("Discard")
    refused = [f"discard {Card(upcard)}", f"discard {Card(not_held)}", f"knock {Card(over_limit)}"]
    for move in refused:
        verb, card = move.split()
        child.sendline(f"{'k' if verb == 'knock' else 'x'} {card}")
        child.expect_exact(engine_says(taken, move))
        assert prompt(child).startswith("Discard")
    # The game goes on: a legal discard is played and the computer answers.
    child.sendline(answer(child, "Discard"))
    assert prompt(child) is not None
    child.sendline("q")
    child.expect_exact("Saved in")
    finish(child)
    record = (tmp_path / "current.toml").read_text()
    assert record.count('  "take",') == 1  # nothing of the refused input reached the record


def uninterrupted(tmp: Path, seed: str) -> str:
    child = spawn(tmp, *FAST, "--seed", seed)
    play_on(child)
    child.close()
    [kept] = list((tmp / "finished").iterdir())
    return kept.read_text()


def test_a_killed_table_resumes_with_every_acknowledged_move(tmp_path: Path) -> None:
    seed = "kill-6"  # a long first hand: both kills land mid-hand
    expected = uninterrupted(tmp_path / "whole", seed)
    data = tmp_path / "killed"
    child = spawn(data, *FAST, "--seed", seed)
    for turns in (9, 14):
        play_on(child, turns)
        # The answer to the last prompt is acknowledged once the next prompt shows.
        question = prompt(child)
        assert question is not None and not question.startswith("Press Enter")
        cards = re.findall(r"Your cards: ([^\r\n]*)", child.before or "")
        saved_moves = (data / "current.toml").read_text()
        child.kill(signal.SIGKILL)
        child.expect(pexpect.EOF)
        child.close()
        assert child.signalstatus == signal.SIGKILL
        assert (data / "current.toml").read_text() == saved_moves
        child = spawn(data, *FAST, "--seed", seed)
        child.expect_exact("Resuming your match")
        assert prompt(child) == question
        if cards:
            assert f"Your cards: {cards[-1]}" in (child.before or "")
        child.sendline(answer(child, question))
    # Killed right after typing a move, before it is acknowledged: either way the save loads.
    play_on(child, 3)
    child.sendline("d")
    child.kill(signal.SIGKILL)
    child.close()
    child = spawn(data, *FAST, "--seed", seed)
    child.expect_exact("Resuming your match")
    play_on(child)
    child.close()
    [kept] = list((data / "finished").iterdir())
    assert kept.read_text() == expected


def test_a_corrupt_save_is_reported_kept_aside_and_a_new_match_starts(tmp_path: Path) -> None:
    tmp_path.mkdir(exist_ok=True)
    garbage = b"format = 1\nprofile = 'traditional'\n[[hands]\nthis is not a save\n"
    (tmp_path / "current.toml").write_bytes(garbage)
    child = spawn(tmp_path, *FAST)
    child.expect_exact("Your saved match could not be read: the record is not valid TOML")
    child.expect(r"The file is kept as (\S+current\.corrupt-\S+\.toml); starting a new match\.")
    kept = Path(child.match.group(1))
    child.expect_exact("New match:")
    assert prompt(child) is not None
    child.sendline("q")
    finish(child)
    assert kept.read_bytes() == garbage
    assert kept.parent == tmp_path
    # The new match is saved with its first hand sealed, waiting to be dealt.
    from ginrummy.tui.saves import SaveStore

    new = SaveStore(tmp_path).read()
    assert new.sealer is not None and not new.match.hands
    assert len(new.sealer.public(0)["commitment"]) == 64


def test_hollywood_keeps_three_games_side_by_side(tmp_path: Path) -> None:
    child = spawn(tmp_path, *FAST, "--hollywood", "--seed", "holly")
    # Said once: the rules' own line names it, with no ", Hollywood" after it.
    child.expect(r"New match: traditional \((?:[^)]*, )?hollywood=on\), game to 20")
    while True:
        question = prompt(child)
        assert question is not None
        if question == deal_prompt(2).removesuffix(" > "):
            break
        child.sendline(answer(child, question))
    screen = child.before or ""
    assert re.search(r"Hand\s+Dealer\s+Ending\s+Points\s+Game 1\s+Game 2\s+Game 3", screen)
    assert "Game columns read You-Computer." in screen
    assert "Game 3: You 0, Computer 0 (to 20)" in screen
    child.sendline("q")
    finish(child)


def test_new_abandons_the_saved_match_only_when_confirmed(tmp_path: Path) -> None:
    child = spawn(tmp_path, *FAST, "--seed", "one")
    prompt(child)
    child.sendline("q")
    finish(child)
    first = (tmp_path / "current.toml").read_bytes()
    child = spawn(tmp_path, *FAST, "--new")
    child.expect_exact("Abandon your unfinished match")
    child.sendline("n")
    child.expect_exact("Keeping it.")
    child.expect_exact("Resuming your match")
    prompt(child)
    child.sendline("q")
    finish(child)
    child = spawn(tmp_path, *FAST, "--new", "--seed", "two")
    child.expect_exact("Abandon your unfinished match")
    child.sendline("y")
    child.expect(r"Abandoned; its record is kept in (\S+current\.abandoned-\S+\.toml)\.")
    kept = Path(child.match.group(1))
    child.expect_exact("New match:")
    prompt(child)
    child.sendline("q")
    finish(child)
    assert kept.read_bytes() == first


def test_a_match_abandoned_mid_hand_keeps_that_deal_checkable(tmp_path: Path) -> None:
    """Abandoned with --new in the middle of a hand: the kept record reveals that hand's
    server seed (the match will never be played on), and `ginrummy verify` checks its deal.
    The name, with brackets, is text everywhere, the question's [y/N] included."""
    from ginrummy.engine.verify import verify_record

    child = spawn(tmp_path, *FAST, "--seed", "mid-hand", "--name", "Ann [/x]")
    for _ in range(3):  # deal, then a move or two of the hand
        question = prompt(child)
        assert question is not None
        child.sendline(answer(child, question))
    prompt(child)
    child.sendline("sheet")
    child.expect_exact("Ann [/x]")
    prompt(child)
    child.sendline("q")
    finish(child)
    child = spawn(tmp_path, *FAST, "--new")
    child.expect_exact("Your unfinished match: hand 1, ")
    child.expect_exact("Ann [/x]")
    child.expect_exact("Abandon your unfinished match? [y/N]")
    child.sendline("y")
    child.expect(r"Abandoned; its record is kept in (\S+current\.abandoned-\S+\.toml)\. "
                 r"Hand 1 was not over")
    kept = Path(child.match.group(1))
    child.expect_exact("New match:")
    prompt(child)
    child.sendline("q")
    finish(child)
    report = verify_record(kept.read_text(encoding="utf-8"))
    assert report.ok and [h.status for h in report.hands] == ["verified"]


def test_a_name_with_a_control_character_is_refused(tmp_path: Path) -> None:
    child = spawn(tmp_path, *FAST, "--name", "\x1b[2JEvil")
    child.expect_exact("contains the control character U+001B at character 1; a name is plain text")
    finish(child)
    assert child.exitstatus == 2 and not (tmp_path / "current.toml").exists()


def test_the_table_draws_card_symbols_without_plain(tmp_path: Path) -> None:
    child = spawn(tmp_path, "--level", "random", "--seed", "pretty")
    child.expect_exact(deal_prompt(1).removesuffix(" > "))
    child.sendline("")
    child.expect("Your cards: ")
    child.expect(r"> (\x1b\[0m)?$")  # the prompt is bold: the style ends after it
    assert re.search("[♣♦♥♠]", child.before or "")
    child.sendline("q")
    finish(child)


def test_unknown_level_lists_the_levels(tmp_path: Path) -> None:
    child = spawn(tmp_path, "--level", "grandmaster")
    child.expect_exact("there is no level 'grandmaster' in this version; choose one of")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 2
    assert not (tmp_path / "current.toml").exists()


def test_a_save_against_a_missing_level_is_left_alone(tmp_path: Path) -> None:
    from ginrummy.tui.saves import SavedMatch, SaveMeta, SaveStore

    store = SaveStore(tmp_path)
    store.prepare()
    meta = SaveMeta(level="grandmaster", human_seat=0, match_seed="m", computer_seed="c")
    store.write(SavedMatch(Match(get_rules("traditional"), seed="m"), ("You", "Computer"), meta))
    content = store.current.read_bytes()
    child = spawn(tmp_path, "--plain")
    child.expect_exact("the saved match is against level 'grandmaster'")
    finish(child)
    assert child.exitstatus == 1
    assert store.current.read_bytes() == content
    child = spawn(tmp_path, *FAST, "--new")
    child.expect_exact("Abandon your unfinished match")
    child.sendline("y")
    child.expect_exact("New match:")
    prompt(child)
    child.sendline("q")
    finish(child)
    [kept] = list(tmp_path.glob("current.abandoned-*.toml"))
    assert kept.read_bytes() == content


def test_a_bad_client_seed_option_gets_the_engines_message(tmp_path: Path) -> None:
    child = spawn(tmp_path, "--plain", "--client-seed", "ends with a space ")
    child.expect_exact("the client seed may not begin or end with a space")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 2
    assert not (tmp_path / "current.toml").exists()
    # A good one deals the first hand with it.
    child = spawn(tmp_path, *FAST, "--client-seed", "mine, all mine")
    assert prompt(child) == deal_prompt(1).removesuffix(" > ")
    child.sendline("commitment")  # the seed is one command away
    child.expect_exact("Your client seed: mine, all mine (from --client-seed;")
    assert prompt(child) == deal_prompt(1).removesuffix(" > ")
    child.sendline("")
    assert prompt(child) is not None
    child.sendline("q")
    finish(child)
    assert 'client_seed = "mine, all mine"' in (tmp_path / "current.toml").read_text()
