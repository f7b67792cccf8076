"""Dealing a match from sealed deals: commitment before the client seed, deal, reveal only once
the hand is over, and the seed kept away from the players' views and from unfinished records."""

from __future__ import annotations

import re
from dataclasses import fields

import pytest

from ginrummy.engine import record
from ginrummy.engine.match import Match
from ginrummy.engine.sealer import DealSealer
from ginrummy.engine.shuffle import SealError, commitment, shuffle_deck
from ginrummy.players import make


def known_seeds() -> DealSealer:
    """A sealer over a new match whose server seeds are 32 bytes of 1, then of 2, and so on."""
    match = Match("modern", seed="sealer", start=False)
    counter = iter(range(1, 256))
    return DealSealer(match, new_seed=lambda: bytes([next(counter)]) * 32)


def play_out(match: Match, seed: int = 1) -> None:
    players = [make("random", seed=seed), make("random", seed=seed + 1)]
    while not match.hand.over:
        seat = match.hand.to_play
        match.play(players[seat].choose(match.view(seat)))


def test_the_protocol_from_commitment_to_reveal() -> None:
    sealer = known_seeds()
    match = sealer.match
    dealer = match.next_dealer
    published = sealer.commitment(0)
    assert published == commitment(bytes([1]) * 32, 1, dealer)
    assert sealer.commitment(0) == published  # asking again does not reseal
    sealer.set_client_seed(0, "lucky seven")
    hand = match.next_hand()
    assert [int(c) for c in hand.deck] == shuffle_deck(bytes([1]) * 32, "lucky seven", 1)
    assert hand.dealer == dealer
    with pytest.raises(SealError, match="still being played"):
        sealer.reveal(0)
    play_out(match)
    revealed = sealer.reveal(0)
    assert revealed == (bytes([1]) * 32).hex()
    assert commitment(bytes.fromhex(revealed), 1, hand.dealer) == published


def test_the_second_hand_gets_a_new_seed_and_the_next_nonce() -> None:
    sealer = known_seeds()
    match = sealer.match
    sealer.commitment(0)
    sealer.set_client_seed(0, "first")
    match.next_hand()
    with pytest.raises(SealError, match="seal hand 2 once it is over"):
        sealer.commitment(1)
    play_out(match)
    second = sealer.commitment(1)
    assert second == commitment(bytes([2]) * 32, 2, match.next_dealer)
    sealer.set_client_seed(1, "again")
    match.next_hand()
    assert sealer.public(1)["nonce"] == 2
    assert [int(c) for c in match.hand.deck] == shuffle_deck(bytes([2]) * 32, "again", 2)


def test_no_deal_without_a_published_commitment() -> None:
    sealer = known_seeds()
    with pytest.raises(SealError, match="no published commitment"):
        sealer.match.next_hand()
    assert sealer.match.hands == []


def test_the_client_seed_is_fixed_once_dealt() -> None:
    sealer = known_seeds()
    with pytest.raises(SealError, match="not been sealed"):
        sealer.set_client_seed(0, "too early")
    sealer.commitment(0)
    with pytest.raises(SealError, match="control character"):
        sealer.set_client_seed(0, "bad\nseed")
    assert sealer.client_seed(0) is None
    sealer.set_client_seed(0, "first")
    sealer.set_client_seed(0, "changed my mind")
    sealer.match.next_hand()
    with pytest.raises(SealError, match="its client seed is fixed"):
        sealer.set_client_seed(0, "after the deal")
    assert sealer.client_seed(0) == "changed my mind"


def test_a_player_who_types_nothing_gets_a_random_client_seed() -> None:
    sealer = known_seeds()
    sealer.commitment(0)
    sealer.match.next_hand()
    seed = sealer.client_seed(0)
    assert seed is not None and re.fullmatch(r"[0-9a-f]{16}", seed)


def test_only_the_next_hand_can_be_sealed_and_not_after_the_match() -> None:
    sealer = known_seeds()
    with pytest.raises(SealError, match="not been sealed"):
        sealer.commitment(1)
    with pytest.raises(SealError, match="not been sealed"):
        sealer.reveal(0)
    sealer.commitment(0)
    with pytest.raises(SealError, match="has not been dealt"):
        sealer.reveal(0)


def test_the_seed_never_reaches_a_view_or_an_unfinished_record() -> None:
    sealer = known_seeds()
    match = sealer.match
    sealer.commitment(0)
    sealer.set_client_seed(0, "watch me")
    match.next_hand()
    secret = (bytes([1]) * 32).hex()
    players = [make("random", seed=5), make("random", seed=6)]
    while not match.hand.over:
        for seat in (0, 1):
            view = match.view(seat)
            assert secret not in repr(view)
            assert not any(isinstance(getattr(view, f.name), DealSealer) for f in fields(view))
        meta = sealer.hand_meta()
        assert "server_seed" not in meta[0]["sealed"]
        assert secret not in record.dumps(match, hand_meta=meta)
        seat = match.hand.to_play
        match.play(players[seat].choose(match.view(seat)))
    assert sealer.hand_meta()[0]["sealed"]["server_seed"] == secret


def test_hand_meta_holds_what_a_record_needs() -> None:
    sealer = known_seeds()
    match = sealer.match
    sealer.commitment(0)
    sealer.set_client_seed(0, "record me")
    match.next_hand()
    play_out(match)
    sealer.commitment(1)
    match.next_hand()
    finished, playing = sealer.hand_meta()
    assert finished == {"sealed": {
        "version": "ginrummy-shuffle-v1",
        "commitment": commitment(bytes([1]) * 32, 1, match.hands[0].dealer),
        "client_seed": "record me",
        "nonce": 1,
        "server_seed": (bytes([1]) * 32).hex(),
    }}
    assert set(playing["sealed"]) == {"version", "commitment", "client_seed", "nonce"}
    text = record.dumps(match, hand_meta=sealer.hand_meta())
    assert record.loads(text).hands[0].deck == match.hands[0].deck


def test_a_saved_sealer_comes_back_with_its_match() -> None:
    sealer = known_seeds()
    match = sealer.match
    sealer.commitment(0)
    sealer.set_client_seed(0, "first")
    match.next_hand()
    play_out(match)
    sealer.commitment(1)
    sealer.set_client_seed(1, "saved")
    match.next_hand()
    state = sealer.private_state()
    text = record.dumps(match, hand_meta=sealer.hand_meta())

    again = record.loads(text)
    restored = DealSealer(again, state=state)
    assert again.decks is restored
    assert restored.public(1) == sealer.public(1)
    with pytest.raises(SealError, match="still being played"):
        restored.reveal(1)
    assert restored.reveal(0) == sealer.reveal(0)


def test_a_saved_sealer_that_disagrees_with_the_match_is_refused() -> None:
    sealer = known_seeds()
    match = sealer.match
    sealer.commitment(0)
    sealer.set_client_seed(0, "original")
    match.next_hand()
    state = sealer.private_state()

    swapped = {**state, "hands": [{**state["hands"][0], "client_seed": "other"}]}
    with pytest.raises(SealError, match="not dealt from its sealed deck"):
        DealSealer(record.loads(record.dumps(match)), state=swapped)
    wrong_nonce = {**state, "hands": [{**state["hands"][0], "nonce": 2}]}
    with pytest.raises(SealError, match="nonce 2"):
        DealSealer(record.loads(record.dumps(match)), state=wrong_nonce)
    bad_seed = {**state, "hands": [{**state["hands"][0], "server_seed": "xyz"}]}
    with pytest.raises(SealError, match="64 hex digits"):
        DealSealer(record.loads(record.dumps(match)), state=bad_seed)
    bad_dealer = {**state, "hands": [{**state["hands"][0], "dealer": "0"}]}
    with pytest.raises(SealError, match="a dealer seat"):
        DealSealer(record.loads(record.dumps(match)), state=bad_dealer)
    with pytest.raises(SealError, match="cover 0 hands"):
        DealSealer(record.loads(record.dumps(match)), state={**state, "hands": []})
    with pytest.raises(SealError, match="version"):
        DealSealer(record.loads(record.dumps(match)), state={"hands": []})


def test_the_default_deck_source_is_unchanged() -> None:
    a = Match("modern", seed="same")
    b = Match("modern", seed="same")
    assert a.hand.deck == b.hand.deck
    assert not isinstance(a.decks, DealSealer)
