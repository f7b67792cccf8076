"""Sealed deals at the terminal table, driven in process: the commitment is saved before it is
shown, the human's client seed is taken (``seed TEXT``, ``--client-seed``, or random), the server
seed is revealed after each hand, finished files pass ``ginrummy verify``, resumed matches keep
their seals, and the computer never sees a seed."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from ginrummy.cli import main
from ginrummy.engine.match import Match
from ginrummy.engine.rules import get_rules
from ginrummy.engine.shuffle import SealError, check_client_seed
from ginrummy.engine.verify import verify_record
from ginrummy.engine.view import PlayerView
from ginrummy.players import Player, make
from ginrummy.tui.saves import CorruptSaveError, SavedMatch, new_saved_match
from ginrummy.tui.table import TerminalTable
from test_tui_table import META, NAMES, Session, scripted


def sealed(seed: str | None = None, target: int = 20) -> SavedMatch:
    return new_saved_match(get_rules("traditional", target=target), "random", seed, NAMES)


def hands_meta(text: str) -> list[dict[str, Any]]:
    return [h["meta"]["sealed"] for h in tomllib.loads(text).get("hands", [])]


def engine_sentence(seed: str) -> str:
    with pytest.raises(SealError) as info:
        check_client_seed(seed)
    message = str(info.value)
    return message[0].upper() + message[1:] + "."


def test_a_sealed_match_is_played_and_its_finished_file_verifies(tmp_path: Path) -> None:
    s = Session(sealed(), tmp_path, scripted(2000))
    assert s.run() is True
    [kept] = list(s.store.finished_dir.iterdir())
    text = kept.read_text(encoding="utf-8")
    report = verify_record(text)
    sealed_hands = hands_meta(text)
    assert report.ok and [h.status for h in report.hands] == ["verified"] * len(sealed_hands)
    result = CliRunner().invoke(main, ["verify", str(kept)])
    assert result.exit_code == 0, result.output
    assert f"All {len(sealed_hands)} finished hand(s) verified." in result.output
    assert f"Check every deal: ginrummy verify {kept}" in s.text
    # Each hand is said to be sealed before it is dealt, and to have been dealt from it once it
    # is over, in plain words (issue 38: the commitment and the seeds are one command away).
    for number, _meta in enumerate(sealed_hands, 1):
        before = s.text.index(f"Hand {number}: ")
        after = s.text.index(f"Hand {number} was dealt from the deck sealed before it: nobody "
                             "could change it ('commitment' shows the details).")
        assert before < after
    assert "commitment " not in s.text.lower().replace("'commitment'", "")


def test_seed_and_commitment_commands_before_the_deal(tmp_path: Path) -> None:
    bad = [" leading space", "x" * 257, "tab\there"]
    mine = "my lucky seed ♥ 10h"
    script: list[object] = ["commitment", "seed", *[f"seed {b}" for b in bad], f"seed {mine}", ""]
    s = Session(sealed(), tmp_path, script)
    first = s.store.read().sealer
    assert first is not None
    commitment = first.public(0)["commitment"]
    assert s.run() is False
    assert re.search(rf"Hand 1: commitment {commitment} \(ginrummy-shuffle-v1, nonce 1, "
                     r"dealer seat \d: (You|Computer)\)\.", s.text)
    offered = re.search(r"Your client seed: ([0-9a-f]{16}) \(drawn at random;", s.text)
    assert offered is not None
    for b in bad:
        assert engine_sentence(b) in s.text
    assert f"Your client seed for hand 1: {mine}" in s.text  # shown as typed, even in plain
    saved = s.store.current.read_text(encoding="utf-8")
    [meta] = hands_meta(saved)
    assert meta["client_seed"] == mine and meta["commitment"] == commitment
    assert "server_seed" not in meta  # the hand is being played: its seed stays sealed
    # During the hand, 'commitment' shows the hand on the table; a seed is too late.
    s.script = ["commitment", "seed too late"]
    s.table = TerminalTable(s.store.read(), make("random", seed=1), s.store, s.console,
                            plain=True, ask=s.ask)
    s.run()
    assert s.text.count(f"Hand 1: commitment {commitment}") == 2
    assert "Hand 1 is already dealt: type it before the next deal." in s.text
    assert hands_meta(s.store.current.read_text(encoding="utf-8"))[0]["client_seed"] == mine


def test_the_client_seed_option_deals_every_hand_of_the_session(tmp_path: Path) -> None:
    with pytest.raises(SealError):
        TerminalTable(sealed(), make("random"), None, None, client_seed=" x")  # type: ignore[arg-type]
    s = Session(sealed("flag", target=500), tmp_path, scripted(2000), client_seed="from the flag")
    s.script = s.script[:120]
    s.run()
    metas = hands_meta(s.store.current.read_text(encoding="utf-8"))
    assert len(metas) >= 2
    assert {m["client_seed"] for m in metas} == {"from the flag"}


def test_a_resumed_match_deals_from_the_seals_saved_before(tmp_path: Path) -> None:
    s = Session(sealed(target=500), tmp_path, ["commitment", "q"])
    s.run()
    before = s.store.read()
    assert before.sealer is not None and not before.match.hands
    first = before.sealer.public(0)["commitment"]
    assert s.text.count(f"Hand 1: commitment {first}") == 1
    # Resumed: the same commitment is shown again, the hand is dealt from it and played out;
    # the human leaves once hand 2 is dealt.
    def until_hand_two(view: PlayerView | None) -> str:
        return "q" if len(s.table.match.hands) == 2 else scripted(1)[0](view)

    s.script = ["commitment", *[until_hand_two] * 400]
    s.table = TerminalTable(before, make("random", seed=2), s.store, s.console, plain=True,
                            ask=s.ask)
    s.run()
    assert s.text.count(f"Hand 1: commitment {first}") == 2
    text = s.store.current.read_text(encoding="utf-8")
    report = verify_record(text, published={1: first})
    assert report.ok and [h.status for h in report.hands] == ["verified", "sealed"]
    result = CliRunner().invoke(main, ["verify", str(s.store.current)])
    assert result.exit_code == 0 and "1 hand(s) still sealed" in result.output


def test_every_commitment_is_on_disk_before_it_is_shown(tmp_path: Path) -> None:
    checked: list[int] = []
    s = Session(sealed("on disk", target=150), tmp_path, [])
    turn = scripted(1)[0]

    def check_then_play(view: PlayerView | None) -> str:
        if view is None or view.phase == "over":
            on_disk = s.store.read()
            assert on_disk.sealer is not None
            n = len(on_disk.match.hands)
            if not checked or checked[-1] != n:  # ask for it, then check what was shown
                checked.append(n)
                return "commitment"
            shown = re.findall(r"Hand (\d+): commitment (\S+) ", s.text)[-1]
            assert shown == (str(n + 1), on_disk.sealer.public(n)["commitment"])
        return turn(view)

    s.script = [check_then_play] * 4000
    assert s.run() is True
    assert checked[:2] == [0, 1]


class Spy(Player):
    """A computer player that records every view it is given."""

    name = "spy"

    def __init__(self) -> None:
        super().__init__()
        self.inner = make("random", seed=9)
        self.views: list[PlayerView] = []

    def decide(self, view: PlayerView) -> str:
        self.views.append(view)
        return self.inner.choose(view)


def test_the_computer_never_sees_a_seed(tmp_path: Path) -> None:
    spy = Spy()
    s = Session(sealed("spy", target=150), tmp_path, scripted(4000), player=spy)
    assert s.run() is True
    [kept] = list(s.store.finished_dir.iterdir())
    seeds = [h["server_seed"] for h in hands_meta(kept.read_text(encoding="utf-8"))]
    assert len(seeds) >= 2 and len(spy.views) > 20
    for view in spy.views:
        assert type(view) is PlayerView and view.seat == 1
        assert not any(seed in repr(view) for seed in seeds)


def test_a_save_whose_seals_do_not_fit_its_deals_is_corrupt(tmp_path: Path) -> None:
    s = Session(sealed(), tmp_path, ["", "q"])
    s.run()
    text = s.store.current.read_text(encoding="utf-8")
    data = tomllib.loads(text)
    private = data["meta"]["sealed"]["hands"][0]["server_seed"]
    s.store.current.write_text(text.replace(private, "ab" * 32), encoding="utf-8")
    with pytest.raises(CorruptSaveError, match="its sealed deals do not fit the match"):
        s.store.read()


def test_the_dealer_is_named_with_the_verb_that_agrees(tmp_path: Path) -> None:
    # "You deal", "Computer deals" (issue 11, item 7: the table printed "You deals").
    s = Session(sealed("grammar", target=100), tmp_path, scripted(4000))
    assert s.run() is True
    dealers = [hand.dealer for hand in s.table.match.hands]
    assert {0, 1} <= set(dealers) and NAMES[0] == "You"  # both seats deal in this match
    for number, dealer in enumerate(dealers, 1):
        subject = "You deal" if NAMES[dealer] == "You" else f"{NAMES[dealer]} deals"
        assert f"Hand {number}: {subject} from a deck sealed before the deal" in s.text
    assert "You deals" not in s.text


@pytest.mark.parametrize("sealed_match", [True, False])
def test_seed_during_a_hand_says_what_it_is_and_when_it_works(
    tmp_path: Path, sealed_match: bool
) -> None:
    """``seed TEXT`` typed while a hand is played (or in a match started before sealed deals,
    at any time) is named as the command it is, with when it works; it changes nothing."""
    if sealed_match:
        saved = sealed("during")
        script: list[object] = [""]  # deal hand 1
    else:
        saved = SavedMatch(Match(get_rules("traditional", target=500), seed="t"), NAMES, META)
        script = []  # hand 1 is dealt already
    s = Session(saved, tmp_path, script)
    s.run()
    before = s.store.current.read_bytes()
    typed = ["seed x", "seed", "SEED  Ann's 7"]
    s.script = list(typed)
    s.table = TerminalTable(s.store.read(), make("random", seed=1), s.store, s.console,
                            plain=True, ask=s.ask)
    s.run()
    assert s.store.current.read_bytes() == before
    assert s.table.match.hands and not s.table.match.hand.over  # asked during hand 1
    text = " ".join(s.text.split())
    assert "is not a command" not in text
    works = ("'seed TEXT' chooses your client seed between hands, before the deal, in a sealed "
             "match.")
    if sealed_match:
        why = "Hand 1 is already dealt: type it before the next deal."
    else:
        why = ("This match was started before sealed deals: its hands are not sealed, so there "
               "is no client seed to choose.")
    assert text.count(f"{works} {why}") == len(typed)
