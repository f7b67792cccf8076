"""``ginrummy verify`` and :mod:`ginrummy.engine.verify`: a sealed record verifies, and each kind of
tampering (seed, commitment, nonce, client seed, deck, a dealt, turned-up or drawn card, the
moves, the result) is caught by the check that names it. verify.js's ``verifyHand`` is held to
the same cases."""

from __future__ import annotations

import re
from functools import cache
from typing import Any

import pytest
from click.testing import CliRunner

from ginrummy.cli import main
from ginrummy.engine import record
from ginrummy.engine.cards import CARD_TEXT, Card
from ginrummy.engine.hand import deal_order
from ginrummy.engine.match import Match
from ginrummy.engine.sealer import DealSealer
from ginrummy.engine.verify import HandReport, verify_record
from ginrummy.players import make
from sealed_node import run_js

SEED1 = (bytes([1]) * 32).hex()
SEED2 = (bytes([2]) * 32).hex()


@cache
def sealed_match() -> tuple[str, Match, DealSealer]:
    """Two finished sealed hands (both with stock draws) and a third one being played."""
    match = Match("modern", seed="verify", start=False)
    counter = iter(range(1, 256))
    sealer = DealSealer(match, new_seed=lambda: bytes([next(counter)]) * 32)
    players = [make("random", seed=11), make("random", seed=12)]
    for n in range(2):
        sealer.commitment(n)
        sealer.set_client_seed(n, f"client {n + 1}")
        match.next_hand()
        while not match.hand.over:
            seat = match.hand.to_play
            match.play(players[seat].choose(match.view(seat)))
    sealer.commitment(2)
    sealer.set_client_seed(2, "client 3")
    match.next_hand()
    for _ in range(4):
        seat = match.hand.to_play
        match.play(players[seat].choose(match.view(seat)))
    text = record.dumps(match, players=["Ann", "Bot"], hand_meta=sealer.hand_meta())
    assert all(any(e.kind == "draw" for e in h.history) for h in match.hands[:2])
    assert not match.hand.over
    return text, match, sealer


def record_text() -> str:
    return sealed_match()[0]


def hand_of(report: Any, number: int) -> HandReport:
    hand: HandReport = report.hands[number - 1]
    assert hand.number == number
    return hand


def failed(hand: HandReport) -> dict[str, str]:
    return {c.name: c.detail for c in hand.failures}


def deck_line(text: str, number: int) -> str:
    return re.findall(r'^deck = ".*"$', text, re.M)[number - 1]


def with_deck(text: str, number: int, deck: list[str]) -> str:
    return text.replace(deck_line(text, number), f'deck = "{" ".join(deck)}"')


def deck_of(text: str, number: int) -> list[str]:
    return deck_line(text, number)[len('deck = "'):-1].split()


def swap(deck: list[str], i: int, j: int) -> list[str]:
    out = list(deck)
    out[i], out[j] = out[j], out[i]
    return out


# -------------------------------------------------------------------------------------------
# The honest record.


def test_an_honest_record_verifies() -> None:
    report = verify_record(record_text())
    assert report.ok and not report.problems
    assert [h.status for h in report.hands] == ["verified", "verified", "sealed"]
    names = [c.name for c in hand_of(report, 1).checks]
    assert names == ["version", "nonce", "commitment", "deck", "replay", "dealt", "upcard",
                     "draws", "result"]
    assert all(c.ok for c in hand_of(report, 1).checks)


def test_a_hand_in_play_has_only_its_commitment() -> None:
    text, _, sealer = sealed_match()
    hand = hand_of(verify_record(text), 3)
    assert hand.status == "sealed"
    assert "not revealed yet" in hand.note and "only the commitment" in hand.note
    assert hand.commitment == sealer.public(2)["commitment"]
    assert "server_seed" not in text.split("[[hands]]")[3]


# -------------------------------------------------------------------------------------------
# Tampering, one kind at a time.


def test_a_changed_server_seed_breaks_the_commitment() -> None:
    text = record_text().replace(SEED1, "01" * 31 + "ff")
    hand = hand_of(verify_record(text), 1)
    assert hand.status == "failed"
    assert "SHA-256 of the revealed server seed with nonce 1" in failed(hand)["commitment"]
    assert "deck" in failed(hand)
    assert hand_of(verify_record(text), 2).status == "verified"


def test_a_changed_commitment_is_caught() -> None:
    _, _, sealer = sealed_match()
    published = sealer.public(0)["commitment"]
    text = record_text().replace(published, "0" * 64)
    hand = hand_of(verify_record(text), 1)
    assert set(failed(hand)) == {"commitment"}
    assert "but the commitment is 0000000000000000" in failed(hand)["commitment"]


def test_a_changed_nonce_is_caught() -> None:
    text = record_text().replace("nonce = 1,", "nonce = 5,")
    hand = hand_of(verify_record(text), 1)
    assert failed(hand)["nonce"] == "the nonce is 5, but this is hand 1 so it must be 1"
    assert "commitment" in failed(hand)
    # Equal to the hand's number in Python, yet no nonce: failed, and said so (the hand is
    # never FAILED with only passing checks listed).
    for written in ("1.0", "true"):
        hand = hand_of(verify_record(record_text().replace("nonce = 1,", f"nonce = {written},")),
                       1)
        assert hand.status == "failed"
        assert failed(hand)["nonce"].startswith(
            f"the nonce is {'1.0' if written == '1.0' else 'True'}, not a whole number")


def test_a_changed_client_seed_gives_another_deck() -> None:
    text = record_text().replace('client_seed = "client 1"', 'client_seed = "client 9"')
    hand = hand_of(verify_record(text), 1)
    assert "commitment" not in failed(hand)
    assert failed(hand)["deck"].startswith("the record's deck differs from the sealed deck")


def test_a_changed_undrawn_stock_card_is_caught_by_the_deck_check_alone() -> None:
    text = record_text()
    deck = deck_of(text, 1)
    hand = hand_of(verify_record(with_deck(text, 1, swap(deck, 50, 51))), 1)
    assert set(failed(hand)) == {"deck"}
    assert failed(hand)["deck"] == (
        f"the record's deck differs from the sealed deck at 2 position(s), first at position "
        f"50, stock card 30 (record {deck[51]}, sealed {deck[50]})"
    )


def test_a_changed_drawn_card_is_caught_at_its_draw() -> None:
    text, match, _ = sealed_match()
    first_draw = next(j for j, e in enumerate(match.hands[0].history, 1) if e.kind == "draw")
    drawer = match.hands[0].history[first_draw - 1].seat
    deck = deck_of(text, 1)
    hand = hand_of(verify_record(with_deck(text, 1, swap(deck, 21, 51))), 1)
    assert failed(hand)["draws"].startswith(
        f"draw 1 (move {first_draw}, seat {drawer}) was {deck[51]}; the sealed deck has "
        f"{deck[21]} there (position 21)"
    )
    assert "deck" in failed(hand)
    assert "commitment" not in failed(hand)


def test_a_changed_dealt_card_is_caught() -> None:
    text, match, _ = sealed_match()
    deck = deck_of(text, 1)
    dealer = match.hands[0].dealer
    hand = hand_of(verify_record(with_deck(text, 1, swap(deck, 0, 51))), 1)
    seat = 1 - dealer  # card 0 goes to the non-dealer
    assert failed(hand)["dealt"] == (
        f"seat {seat} was dealt {deck[51]} where the sealed deck deals {deck[0]}"
    )


def test_a_changed_upcard_is_caught() -> None:
    text = record_text()
    deck = deck_of(text, 1)
    hand = hand_of(verify_record(with_deck(text, 1, swap(deck, 20, 51))), 1)
    assert failed(hand)["upcard"] == (
        f"the upcard was {deck[51]}; the sealed deck turns up {deck[20]} (position 20)"
    )


def test_changed_moves_fail_the_replay() -> None:
    text, match, _ = sealed_match()
    hand0 = match.hands[0]
    j, event = next((j, e) for j, e in enumerate(hand0.history, 1) if e.kind == "discard")
    held = hand0.hands[0] | hand0.hands[1] | (1 << int(event.card))  # type: ignore[arg-type]
    stranger = next(c for c in hand0.stock if not held >> c & 1)
    lines = text.split("\n")
    k = next(i for i, line in enumerate(lines) if line == f'  "{event.text}",')
    lines[k] = f'  "discard {CARD_TEXT[stranger]}",'
    report = verify_record("\n".join(lines))
    detail = failed(hand_of(report, 1))["replay"]
    assert detail.startswith(f"move {j} 'discard {CARD_TEXT[stranger]}' is illegal: You do not")
    assert report.problems and not report.ok


def test_a_changed_result_is_caught() -> None:
    text, match, _ = sealed_match()
    claimed = match.hands[0].result.summary()  # type: ignore[union-attr]
    text = text.replace(f"result = {record._toml_value(claimed)}", 'result = "a draw"', 1)
    report = verify_record(text)
    assert "the record claims 'a draw'" in failed(hand_of(report, 1))["result"]
    assert not report.ok


def test_a_finished_hand_must_reveal_its_seed() -> None:
    text = re.sub(r', server_seed = "[0-9a-f]{64}"', "", record_text(), count=1)
    hand = hand_of(verify_record(text), 1)
    assert failed(hand) == {"seed": "the hand is over but its server seed was not revealed"}


def test_a_hand_without_sealed_data_fails() -> None:
    _, match, _ = sealed_match()
    report = verify_record(record.dumps(match))
    assert [h.status for h in report.hands] == ["failed"] * 3
    assert "not dealt from a sealed deal" in failed(hand_of(report, 1))["sealed"]


def test_unknown_versions_and_malformed_seeds_are_named() -> None:
    text = record_text().replace('"ginrummy-shuffle-v1"', '"ginrummy-shuffle-v9"', 1)
    assert "'ginrummy-shuffle-v9' is not known" in failed(hand_of(verify_record(text), 1))[
        "version"]
    text = record_text().replace(SEED2, "zz" * 32)
    assert failed(hand_of(verify_record(text), 2))["server seed"] == (
        "the server seed must be 64 hex digits"
    )
    text = record_text().replace('client_seed = "client 1"', 'client_seed = " client 1"')
    assert "space" in failed(hand_of(verify_record(text), 1))["client seed"]


def test_an_impossible_dealer_is_named() -> None:
    text = record_text().replace("\ndealer = ", "\ndealer = 7 #", 1)
    report = verify_record(text)
    assert failed(hand_of(report, 1)) == {"dealer": "the dealer must be seat 0 or 1, not 7"}
    assert not report.ok


def test_a_noted_commitment_is_compared() -> None:
    _, _, sealer = sealed_match()
    good = sealer.public(0)["commitment"]
    assert verify_record(record_text(), published={1: good.upper()}).ok
    report = verify_record(record_text(), published={1: "ab" * 32})
    assert "is not the one you noted" in failed(hand_of(report, 1))["published"]
    assert verify_record(record_text(), published={7: good}).problems


# -------------------------------------------------------------------------------------------
# The command.


def invoke(*args: str, text: str | None = None) -> Any:
    runner = CliRunner()
    return runner.invoke(main, ["verify", *args], input=text, env={"COLUMNS": "400"})


def test_the_command_passes_an_honest_record() -> None:
    result = invoke("-", text=record_text())
    assert result.exit_code == 0, result.output
    assert "All 2 finished hand(s) verified. 1 hand(s) still sealed." in result.output
    assert "not revealed yet" in result.output


def test_the_command_names_the_failed_check(tmp_path: Any) -> None:
    path = tmp_path / "match.toml"
    path.write_text(record_text().replace("nonce = 2,", "nonce = 3,"), encoding="utf-8")
    result = invoke(str(path))
    assert result.exit_code == 1
    assert "✗ nonce: the nonce is 3, but this is hand 2 so it must be 2" in result.output
    assert "Verification failed for hand(s) 2." in result.output


def test_the_command_checks_a_noted_commitment() -> None:
    _, _, sealer = sealed_match()
    good = sealer.public(1)["commitment"]
    assert invoke("-", "--commitment", f"2:{good}", text=record_text()).exit_code == 0
    bad = invoke("-", "--commitment", "2:" + "00" * 32, text=record_text())
    assert bad.exit_code == 1 and "published" in bad.output
    assert invoke("-", "--commitment", "two", text=record_text()).exit_code == 2


def test_the_command_reports_unreadable_input(tmp_path: Any) -> None:
    missing = invoke(str(tmp_path / "none.toml"))
    assert missing.exit_code == 1 and "cannot read" in missing.output
    garbage = invoke("-", text="this is not toml [")
    assert garbage.exit_code == 1 and "not valid TOML" in garbage.output
    # What a hostile file can bring beyond a syntax error: nesting deeper than Python
    # recurses, an integer of more digits than it converts, bytes that are not UTF-8.
    for text, reason in (("format = 1\nx = " + "[" * 100_000 + "]" * 100_000 + "\n",
                          "nests arrays or tables too deep"),
                         ("format = " + "9" * 5000 + "\n", "not valid TOML")):
        hostile = invoke("-", text=text)
        assert hostile.exit_code == 1 and reason in hostile.output, hostile.output
        assert "Traceback" not in hostile.output
    binary = tmp_path / "binary.toml"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    result = invoke(str(binary))
    assert result.exit_code == 1 and "is not a text file" in result.output


# -------------------------------------------------------------------------------------------
# The browser's verifier on the same hands.


def browser_inputs(number: int) -> dict[str, Any]:
    """What the page knows once hand ``number`` is over (here: both seats' cards)."""
    _, match, sealer = sealed_match()
    hand = match.hands[number - 1]
    h0, h1, up, _ = deal_order([int(c) for c in hand.deck], hand.dealer)
    return {
        **sealer.public(number - 1),
        "serverSeed": sealer.reveal(number - 1),
        "clientSeed": sealer.client_seed(number - 1),
        "dealer": hand.dealer,
        "deck": [CARD_TEXT[c] for c in hand.deck],
        "hands": [[CARD_TEXT[c] for c in range(52) if m >> c & 1] for m in (h0, h1)],
        "upcard": CARD_TEXT[up],
        "draws": [str(e.card) for e in hand.history if e.kind == "draw"],
    }


def shown(card: str) -> str:
    """A card as the page shows it: the engine's symbol text ("9♦", "10♥")."""
    return Card.parse(card).symbol()


def js_failures(result: dict[str, Any]) -> dict[str, str]:
    return {c["check"]: c["detail"] for c in result["value"]["checks"] if not c["ok"]}


def test_verify_js_agrees_on_honest_and_tampered_hands() -> None:
    honest = browser_inputs(1)
    deck = honest["deck"]
    draws = honest["draws"]
    cases = [
        honest,
        browser_inputs(2),
        {**honest, "serverSeed": "01" * 31 + "ff"},
        {**honest, "commitment": "00" * 32},
        {**honest, "nonce": 2},
        {**honest, "dealer": 1 - honest["dealer"], "hands": None},
        {**honest, "clientSeed": "client 9"},
        {**honest, "deck": swap(deck, 50, 51)},
        {**honest, "draws": [deck[51], *draws[1:]]},
        {**honest, "upcard": deck[51]},
        {**honest, "hands": [honest["hands"][0], [deck[51], *honest["hands"][1][1:]]]},
        {**honest, "version": "ginrummy-shuffle-v9"},
        {**honest, "clientSeed": "bad\nseed"},
        {**honest, "hands": [honest["hands"][0], None], "deck": None},
    ]
    out = run_js([("verifyHand", [{k: v for k, v in case.items() if k != "client_seed"}])
                  for case in cases])
    assert out[0]["value"]["ok"] and out[0]["value"]["deck"] == deck
    assert [c["check"] for c in out[0]["value"]["checks"]] == [
        "version", "commitment", "deck", "hands", "upcard", "draws"]
    assert out[1]["value"]["ok"]
    failures = [js_failures(o) for o in out[2:]]
    assert set(failures[0]) >= {"commitment", "deck"}
    assert set(failures[1]) == {"commitment"}
    assert set(failures[2]) >= {"commitment", "deck"}
    assert set(failures[3]) == {"commitment"}
    assert set(failures[4]) >= {"deck"} and "commitment" not in failures[4]
    assert failures[5]["deck"].startswith("the reported deck differs from the sealed deck at 2")
    # The details name cards as the page shows them everywhere else ("9♦", not "9d").
    assert failures[6] == {
        "draws": f"draw 1 was {shown(deck[51])}; the sealed deck has {shown(deck[21])} there "
                 "(position 21)"}
    assert failures[7] == {
        "upcard": f"the upcard was {shown(deck[51])}; the sealed deck turns up "
                  f"{shown(deck[20])}"}
    honest_details = {c["check"]: c["detail"] for c in out[0]["value"]["checks"]}
    assert honest_details["upcard"] == f"the upcard {shown(deck[20])} matches"
    assert not re.search(r"\b(10|[2-9TJQKA])[cdhs]\b", " ".join(
        d for f in failures for d in f.values()))
    assert set(failures[8]) == {"hands"} and "seat 1 was dealt" in failures[8]["hands"]
    assert set(failures[9]) == {"version"}
    assert failures[10] == {"inputs": "the client seed contains a control character (U+000A)"}
    assert out[-1]["value"]["ok"]  # a seat the page did not see is not compared


@pytest.mark.parametrize("number", [1, 2])
def test_python_and_js_recompute_the_same_deck(number: int) -> None:
    inputs = browser_inputs(number)
    out = run_js([("shuffleDeck", [inputs["serverSeed"], inputs["clientSeed"], inputs["nonce"]])])
    assert out[0]["value"] == inputs["deck"]
