"""The terminal table's interpreter, driven in-process with scripted input."""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable
from dataclasses import replace
from pathlib import Path
from typing import get_args

import pytest
from rich.console import Console

from ginrummy.engine.errors import IllegalMoveError
from ginrummy.engine.hand import Hand
from ginrummy.engine.match import Match
from ginrummy.engine.rules import get_rules
from ginrummy.players import Player, make
from ginrummy.tui.pages import render_rules
from ginrummy.tui.parse import Action, short_move
from ginrummy.tui.render import deal_prompt
from ginrummy.tui.saves import SavedMatch, SaveMeta, SaveStore, new_saved_match
from ginrummy.tui.table import TerminalTable
from tui_support import greedy_choice, match_with

META = SaveMeta(level="random", human_seat=0, match_seed="t", computer_seed="t/computer")
NAMES = ("You", "Computer")


class Session:
    """A table wired to a recording console, a store in a temporary directory and a script.

    Each script item is a line of text, or a function of the human's view (``None`` before the
    first deal) returning one. When the script runs out the input ends (as Ctrl-D would),
    which saves and leaves.
    """

    def __init__(self, saved: SavedMatch, tmp: Path, script: Iterable[object],
                 player: Player | None = None, client_seed: str | None = None) -> None:
        self.out = io.StringIO()
        self.console = Console(file=self.out, width=200, color_system=None)
        self.store = SaveStore(tmp / "data")
        self.store.prepare()
        self.store.write(saved)
        self.script = list(script)
        self.prompts: list[str] = []
        self.table = TerminalTable(
            saved, player or make(saved.meta.level, seed=saved.meta.computer_seed), self.store,
            self.console, plain=True, ask=self.ask, client_seed=client_seed,
        )

    def ask(self, prompt: str) -> str | None:
        self.prompts.append(prompt)
        if not self.script:
            return None
        item = self.script.pop(0)
        if callable(item):
            return str(item(self.table.view() if self.table.match.hands else None))
        return str(item)

    def run(self) -> bool:
        return self.table.run()

    @property
    def text(self) -> str:
        return self.out.getvalue()


def known(moves: Iterable[str] = ()) -> SavedMatch:
    match = match_with("7h 8h 9h Kc Kd Ks 2c 5d 9s Jh", "3c 4c 5c Qh Qd Qs 6s 7d Ac 2d", "4s")
    for m in moves:
        match.play(m)
    return SavedMatch(match, NAMES, META)


def engine_says(hand: Hand, move: str) -> str:
    """The engine's own sentence for an illegal move (played on a copy)."""
    with pytest.raises(IllegalMoveError) as info:
        hand.copy().play(move)
    return str(info.value)


def test_bad_input_changes_nothing_and_the_engine_explains(tmp_path: Path) -> None:
    saved = known()
    s = Session(saved, tmp_path, [])
    s.script = [
        "xyzzy",  # garbage
        "x 1z",  # bad card text
        "d",  # drawing during the upcard offer
        "gin",  # gin during the upcard offer
        "t",  # take the upcard 4s
        "x 4s",  # discarding the card just taken
        "x Qd",  # a card not held
        "k 2c",  # knocking over the limit
        "gin 2c",  # "gin" that would leave deadwood
    ]
    taken = saved.match.hand.copy()
    taken.play("take")
    s.run()
    text = s.text
    assert "'xyzzy' is not a command; type ? for help." in text
    assert "'1z' is not a card" in text
    assert "First take or pass the upcard 4s; you cannot draw yet." in text
    assert "Take or pass the upcard first; after a take, 'gin 7h'" in text
    assert engine_says(taken, "discard 4s") in text
    assert engine_says(taken, "discard Qd") in text
    assert engine_says(taken, "knock 2c") in text
    # Over the knock limit, no knock is suggested in its place (it would be refused too).
    assert "Discarding the 2c leaves" in text and "so that is not gin; nor may you knock" in text
    assert "type 'k 2c'" not in text
    # Only the take was played; everything else left the match as it was.
    assert s.store.read().match.hand.moves == ["take"]


def test_each_bad_line_leaves_the_save_untouched(tmp_path: Path) -> None:
    s = Session(known(["take"]), tmp_path, [])
    before = s.store.current.read_bytes()
    for line in ["xyzzy", "x 1z", "x Qd", "k 2c", "x 4s", "p", "d", "gin"]:
        s.script = [line]
        s.run()
        assert s.store.current.read_bytes() == before, line


def test_gin_finds_its_card(tmp_path: Path) -> None:
    # After taking the 10h the human holds 7-8-9-10 of hearts, three kings and 2-3-4 of clubs
    # plus the jack of spades: discarding it leaves no deadwood.
    match = match_with("7h 8h 9h Kc Kd Ks 2c 3c 4c Js", "Qh Qd Qs 6s 7d Ac 2d 5s 9c 5d", "Th")
    s = Session(SavedMatch(match, NAMES, META), tmp_path, ["t", "gin"])
    s.run()
    assert "You went gin" in s.text
    assert match.hand.result is not None and match.hand.result.kind == "gin"


def test_quit_and_end_of_input_save_and_leave(tmp_path: Path) -> None:
    s = Session(known(), tmp_path, ["p", "q"])
    assert s.run() is False
    assert "Saved in" in s.text
    assert s.store.read().match.hand.moves[0] == "pass"


def human(view: object) -> str:
    return short_move(greedy_choice(view))  # type: ignore[arg-type]


def scripted(n: int) -> list[Callable[[object], str]]:
    """``n`` turns of the greedy human; between hands it presses Enter."""

    def turn(view: object) -> str:
        if view is None or view.phase == "over":  # type: ignore[attr-defined]
            return ""
        return human(view)

    return [turn] * n


def fresh(tmp: Path, target: int = 20) -> SavedMatch:
    rules = get_rules("traditional", target=target)
    return SavedMatch(Match(rules, seed="t"), NAMES, META)


def test_a_whole_match_is_played_and_filed(tmp_path: Path) -> None:
    s = Session(fresh(tmp_path), tmp_path, scripted(2000))
    assert s.run() is True
    assert "The match is over." in s.text
    score = s.table.match.score
    a, b = score.totals
    if score.winner is None:
        assert f"The game is a tie at {a} each" in s.text
    else:
        # Traditional: the higher final total wins, by the difference of the totals.
        assert score.winner == (0 if a > b else 1)
        assert f"{NAMES[score.winner]} won by {abs(a - b)} point" in s.text
    assert f"Final totals: {NAMES[0]} {a}, {NAMES[1]} {b}." in s.text
    assert not s.store.exists()
    [kept] = list(s.store.finished_dir.iterdir())
    assert "[[hands]]" in kept.read_text()


def test_a_resumed_match_plays_exactly_as_an_uninterrupted_one(tmp_path: Path) -> None:
    whole = Session(fresh(tmp_path / "a"), tmp_path / "a", scripted(2000))
    whole.run()
    [record_a] = list(whole.store.finished_dir.iterdir())
    # The same match, left three times and resumed from the save each time.
    base = tmp_path / "b"
    saved = fresh(base)
    first = Session(saved, base, scripted(7))
    assert first.run() is False
    for _ in range(2):
        resumed = first.store.read()
        first.script = scripted(9)
        first.table = TerminalTable(resumed, make("random", seed=META.computer_seed),
                                    first.store, first.console, plain=True, ask=first.ask)
        assert first.run() is False
    resumed = first.store.read()
    first.script = scripted(2000)
    first.table = TerminalTable(resumed, make("random", seed=META.computer_seed), first.store,
                                first.console, plain=True, ask=first.ask)
    assert first.run() is True
    [record_b] = list(first.store.finished_dir.iterdir())
    assert record_b.read_text() == record_a.read_text()


def test_every_prompt_comes_after_the_save(tmp_path: Path) -> None:
    """Whatever the human sees when asked has already reached the disk: the human's moves and
    the computer's replies alike."""
    checked: list[int] = []
    s = Session(fresh(tmp_path), tmp_path, [])
    turn = scripted(1)[0]

    def check_then_play(view: object) -> str:
        on_disk = s.store.read().match
        in_play = s.table.match
        assert [h.moves for h in on_disk.hands] == [h.moves for h in in_play.hands]
        checked.append(len(in_play.hand.moves))
        return turn(view)

    s.script = [check_then_play] * 2000
    assert s.run() is True
    assert len(checked) > 20 and any(n > 0 for n in checked)


BETWEEN_SEALED = ("Press Enter to deal hand {n} or q to quit; or type sheet, rules, commitment, "
                  "'seed TEXT', coach or help.")


def test_between_hands_text_that_is_no_command_says_so(tmp_path: Path) -> None:
    """Before a deal, a line that is not one of the between-hands commands is named and
    answered with what can be typed; it deals nothing and changes nothing. Enter deals."""
    saved = new_saved_match(get_rules("traditional"), "random", "between", NAMES)
    s = Session(saved, tmp_path, [])
    before = s.store.current.read_bytes()
    typed = ["tea", "  Tea Time ", "1z", "d", "pass", "x 7h", "sort", "l", "coach maybe"]

    def unchanged(line: str) -> Callable[[object], str]:
        def check(view: object) -> str:
            assert view is None and not s.table.match.hands  # nothing dealt
            assert s.store.current.read_bytes() == before  # nothing saved
            return line
        return check

    s.script = [unchanged(line) for line in typed] + [unchanged(""), "q"]
    assert s.run() is False
    rest = BETWEEN_SEALED.format(n=1)
    for line in ("tea", "Tea Time", "1z"):
        assert f"'{line}' is not a command. {rest}" in s.text
    for line in ("d", "pass", "x 7h", "sort", "l"):  # it needs a hand: one short line
        said = [a for a in s.text.splitlines() if a.startswith(f"'{line}'")]
        assert said == [f"'{line}': no hand yet; press Enter to deal hand 1."]
        assert len(said[0]) <= 60  # issue 38: 'pass' was answered with a two-line lecture
    assert "Say 'coach on' or 'coach off' (or just 'coach' to switch)." in s.text
    assert s.prompts[: len(typed) + 1] == [deal_prompt(1)] * (len(typed) + 1)
    assert s.prompts[len(typed) + 1] != deal_prompt(1)  # the empty line dealt
    assert len(s.store.read().match.hands) == 1


def test_between_hands_of_an_unsealed_match_no_seed_is_offered(tmp_path: Path) -> None:
    s = Session(fresh(tmp_path, target=500), tmp_path, [])
    turn = scripted(1)[0]
    between = ["tea", "seed mine", "commitment", ""]
    saves: list[bytes] = []

    def play(view: object) -> str:
        if len(s.table.match.hands) == 2:
            return "q"
        if view is not None and view.phase == "over":  # type: ignore[attr-defined]
            saves.append(s.store.current.read_bytes())
            return between.pop(0)
        return turn(view)

    s.script = [play] * 400
    assert s.run() is False
    assert not between and len(set(saves)) == 1  # no line before the deal changed the save
    assert ("'tea' is not a command. Press Enter to deal hand 2 or q to quit; or type sheet, "
            "rules, coach or help.") in s.text
    # 'seed mine' is answered with what seed does, when, and why not here.
    assert ("'seed TEXT' chooses your client seed between hands, before the deal, in a sealed "
            "match. This match was started before sealed deals: its hands are not sealed, so "
            "there is no client seed to choose.") in " ".join(s.text.split())
    assert len(s.store.read().match.hands) == 2


def offered(text: str) -> list[str]:
    """The words an answer between hands offers: "...; or type sheet, rules or help." ->
    ["sheet", "rules", "help"]."""
    listed = text.split("; or type ", 1)[1].split(".\n", 1)[0]
    head, last = listed.rsplit(" or ", 1)
    return [*head.split(", "), last]


#: Commands that need a hand on the table.
DURING_A_HAND = ("sort", "moves", "look", "gin", "x 7h")


@pytest.mark.parametrize("sealed", [True, False])
def test_between_hands_everything_offered_works_and_nothing_else(
    tmp_path: Path, sealed: bool
) -> None:
    """What the answer offers between hands is what works there: no word it offers is
    answered as not working, and the commands that need a hand are answered with the same
    offer."""
    if sealed:
        saved = new_saved_match(get_rules("traditional"), "random", "offered", NAMES)
    else:
        saved = fresh(tmp_path, target=500)
    s = Session(saved, tmp_path, [])
    turn = scripted(1)[0]
    typed: list[str] = []
    to_type: list[str] = []

    def ask(view: object) -> str:
        if view is not None and view.phase != "over":  # type: ignore[attr-defined]
            return turn(view)  # the unsealed match's first hand, played to its end
        if typed == ["tea"]:  # answered: each word it offers, then what needs a hand
            for word in offered(s.text):
                to_type.append({"'seed TEXT'": "seed mine", "coach": "coach off"}.get(word, word))
            to_type.extend(DURING_A_HAND)
        if typed and not to_type:
            return "q"
        typed.append(to_type.pop(0) if typed else "tea")
        return typed[-1]

    s.script = [ask] * 400
    assert s.run() is False
    words = offered(s.text)
    n = len(s.table.match.hands) + 1
    expected = ["sheet", "rules", "commitment", "'seed TEXT'", "coach", "help"]
    assert words == (expected if sealed else [w for w in expected if w not in (
        "commitment", "'seed TEXT'")])
    answers = s.text.splitlines()
    for line in typed[1:]:
        said = [a for a in answers if a.startswith(f"{line!r}")]
        if line in DURING_A_HAND:
            assert said == [f"{line!r}: no hand yet; press Enter to deal hand {n}."]
        else:
            assert said == [], line
    assert len(typed) == 1 + len(words) + len(DURING_A_HAND)


def test_every_command_the_parser_knows_has_its_place_in_the_table() -> None:
    """The parser's actions and the table's commands are the same set: a command added to the
    parser without saying what it does at the table fails here, not at a person's keyboard."""
    assert set(TerminalTable._COMMANDS) == set(get_args(Action))


def test_between_hands_one_table_says_what_works(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The check, the dispatch and the answer's list come from one table: a command taken out
    of it is no longer offered, no longer works between hands, and is answered like a move."""
    narrower = {**TerminalTable._COMMANDS,
                "rules": replace(TerminalTable._COMMANDS["rules"], between=None)}
    monkeypatch.setattr(TerminalTable, "_COMMANDS", narrower)
    saved = new_saved_match(get_rules("traditional"), "random", "one table", NAMES)
    s = Session(saved, tmp_path, ["rules", "q"])
    assert s.run() is False
    assert "'rules': no hand yet; press Enter to deal hand 1.\n" in s.text
    s = Session(saved, tmp_path, ["tea", "q"])
    assert s.run() is False
    assert ("'tea' is not a command. Press Enter to deal hand 1 or q to quit; or type sheet, "
            "commitment, 'seed TEXT', coach or help.") in s.text
    rules_page = io.StringIO()
    Console(file=rules_page, width=200, color_system=None).print(
        render_rules(saved.match.rules, plain=True))
    assert rules_page.getvalue().splitlines()[0] not in s.text  # the rules were not shown
