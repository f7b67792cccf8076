"""The knocker chooses the melds (issue 11, item 5), through the JSON API: each knock-able card
option lists every least-deadwood arrangement (checked against the brute-force solver), the
default first, with layoff spots judged from the person's own cards and the discard pile only; a
declared knock is accepted and recorded with its melds; a bogus one gets the engine's sentence
and changes nothing."""

from __future__ import annotations

import random
from typing import Any

import pytest
from fastapi.testclient import TestClient

import bruteforce as bf
from deals import build_deck
from ginrummy import Match, get_rules
from ginrummy.engine.move import Move
from ginrummy.engine.record import loads
from ginrummy.server.serialize import hand_out
from ginrummy.server.store import Store

from .helpers import choose
from .knock_choice import (
    DEFAULT_MELDS,
    MINE,
    OTHER_MELDS,
    OTHER_MOVE,
    knock_choice_match,
    stored_knock_choice,
)


def _get(client: TestClient, auth: dict[str, str], match_id: str) -> dict[str, Any]:
    r = client.get(f"/api/matches/{match_id}", headers=auth)
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


def _option(state: dict[str, Any], card: str) -> dict[str, Any]:
    found: dict[str, Any] = next(o for o in state["hand"]["card_options"] if o["card"] == card)
    return found


def _meld_sets(melds: list[list[str]]) -> frozenset[frozenset[int]]:
    return frozenset(frozenset(bf.card(c) for c in m) for m in melds)


def check_arrangements(state: dict[str, Any]) -> int:
    """Every knock option of ``state`` lists exactly the least-deadwood arrangements of the
    cards left (the brute-force solver's), the default first and as a plain knock, every other
    as a declared knock of its melds; returns how many options had a choice."""
    hand = state["hand"]
    held = {bf.card(c) for c in hand["cards"]}
    pile = {bf.card(c) for c in hand["discard_pile"]}
    choices = 0
    for o in hand["card_options"]:
        if not o["knock"]:
            assert o["arrangements"] == []
            continue
        rest = held - {bf.card(o["card"])}
        arrs = o["arrangements"]
        assert {_meld_sets(a["melds"]) for a in arrs} == bf.best_arrangements(rest)
        assert len(arrs) == len(bf.best_arrangements(rest))
        assert [a["default"] for a in arrs] == [True] + [False] * (len(arrs) - 1)
        assert arrs[0]["move"] == f"knock {o['card']}"
        for a in arrs:
            assert a["deadwood"] == o["deadwood_after"]
            assert {bf.card(c) for c in a["deadwood_cards"]} == rest - set().union(
                *(_meld_sets(a["melds"])))
            if not a["default"]:
                assert Move.parse(a["move"]).melds is not None
                assert _meld_sets([[str(c) for c in m] for m in Move.parse(a["move"]).melds
                                   or ()]) == _meld_sets(a["melds"])
            # The spots: cards that extend each meld, never one the person holds or that lies
            # in the discard pile.
            for meld, spots in zip(a["melds"], a["spots"], strict=True):
                for s in spots:
                    assert bf.card(s) not in held and bf.card(s) not in pile
                    assert bf.is_meld({bf.card(c) for c in meld} | {bf.card(s)})
        choices += len(arrs) > 1
    return choices


def test_the_stacked_knock_lists_both_groupings_with_their_spots(
    client: TestClient, store: Store
) -> None:
    token, match_id = stored_knock_choice(store)
    state = _get(client, {"Authorization": f"Bearer {token}"}, match_id)
    assert check_arrangements(state) == 1
    arrs = _option(state, "Kc")["arrangements"]
    assert [(a["move"], a["default"], a["melds"], a["spots"], a["deadwood"]) for a in arrs] == [
        ("knock Kc", True, DEFAULT_MELDS, [[], ["4h"]], 6),
        (OTHER_MOVE, False, OTHER_MELDS, [[], ["4h", "9h"]], 6),
    ]


def test_the_spots_say_nothing_of_the_computer_s_hand() -> None:
    """The same position with the computer's cards swapped for cards of the stock: the
    person's state, arrangements and spots included, is the same."""
    def state(theirs: str) -> Any:
        m = Match(get_rules("traditional"), seed="knock-choice", first_dealer=1, start=False)
        m.next_hand(build_deck(MINE, theirs, "Qh", "Kc"))
        for move in ("pass", "pass", "draw"):
            m.play(move)
        return hand_out(m.view(0)).card_options

    assert state("9h Kd Qs Jc Tc 2c 4c 6d Td 3h") == state("4h Kh Qc Jd Ts 2h 5c 6s 9d 3c")


def test_every_knock_option_lists_every_least_deadwood_arrangement(client: TestClient) -> None:
    rng = random.Random(11)
    auth = {"Authorization": f"Bearer {client.post('/api/players', json={}).json()['token']}"}
    knocks = choices = 0
    for _ in range(6):
        state = client.post("/api/matches", json={"level": "random", "forfeit_current": True},
                            headers=auth).json()
        state = client.post(f"/api/matches/{state['id']}/next-hand", headers=auth,
                            json={"client_seed": f"seed {rng.random()}"}).json()
        while state["status"] == "playing" and state["hand"]["result"] is None:
            if state["hand"]["card_options"]:
                knocks += any(o["knock"] for o in state["hand"]["card_options"])
                choices += check_arrangements(state)
            move = choose(state, rng, wild=0.2)
            if move.startswith("knock"):
                move = "discard " + move.split()[1] if rng.random() < 0.7 else move
                if move not in state["hand"]["legal_moves"]:
                    move = choose(state)
            r = client.post(f"/api/matches/{state['id']}/moves",
                            json={"move": move, "version": state["version"]}, headers=auth)
            assert r.status_code == 200, r.text
            state = r.json()
    assert knocks > 0


def _knock_in_stored_match(
    client: TestClient, store: Store, move: str
) -> tuple[dict[str, str], str, dict[str, Any]]:
    """Play ``move`` (a knock with the K♣) in the stored two-grouping position: the player's
    headers, the match id and the hand's result."""
    token, match_id = stored_knock_choice(store)
    auth = {"Authorization": f"Bearer {token}"}
    before = _get(client, auth, match_id)
    r = client.post(f"/api/matches/{match_id}/moves",
                    json={"move": move, "version": before["version"]}, headers=auth)
    assert r.status_code == 200, r.text
    result: dict[str, Any] = r.json()["hand"]["result"]
    return auth, match_id, result


def test_a_declared_knock_is_accepted_and_recorded_with_its_melds(
    client: TestClient, store: Store
) -> None:
    auth, match_id, result = _knock_in_stored_match(client, store, OTHER_MOVE)
    assert result["kind"] == "knock" and result["knocker"] == "you"
    assert result["you"]["melds"] == OTHER_MELDS
    # The 9♥ extends 5-6-7-8♥: the computer lays it off (on the default grouping it could not).
    assert result["layoffs"] == ["9h"] and result["computer"]["laid_off"] == ["9h"]
    _version, text, _seals = store.load_match(match_id)
    assert OTHER_MOVE in text
    hand = loads(text).hands[0]
    assert hand.result is not None
    assert [[str(c) for c in m] for m in hand.result.knocker_melds] == OTHER_MELDS
    # The coach reads the declared knock as the person's move.
    r = client.get(f"/api/matches/{match_id}/coach/latest", headers=auth)
    assert r.status_code == 200, r.text
    assert r.json()["remark"]["move"] == OTHER_MOVE


def test_the_default_knock_lays_down_the_default_grouping(
    client: TestClient, store: Store
) -> None:
    _auth, _match_id, result = _knock_in_stored_match(client, store, "knock Kc")
    assert result["you"]["melds"] == DEFAULT_MELDS and result["layoffs"] == []


@pytest.mark.parametrize("move", [
    "knock Kc with 8c8d8s 5h6h7h",        # leaves the 8♥ as deadwood: 14, over the limit
    "knock Kc with 8c8d8h 5h6h7h8h",      # the 8♥ in two melds
    "knock Kc with 8c8d 5h6h7h8h",        # not a meld
    "knock Kc with 8c8d8s 5h6h7h8h9h",    # a card the person does not hold
    "knock 8c with 8c8d8s 5h6h7h8h",      # the knock discard inside a meld
])
def test_a_bogus_declared_knock_gets_the_engine_s_sentence_and_changes_nothing(
    client: TestClient, store: Store, move: str
) -> None:
    token, match_id = stored_knock_choice(store)
    auth = {"Authorization": f"Bearer {token}"}
    before = _get(client, auth, match_id)
    _v, text_before, _s = store.load_match(match_id)
    expected = knock_choice_match().view(0).refusal(Move.parse(move))
    assert expected is not None
    r = client.post(f"/api/matches/{match_id}/moves",
                    json={"move": move, "version": before["version"]}, headers=auth)
    assert r.status_code == 400
    assert r.json()["detail"] == expected
    assert _get(client, auth, match_id) == before
    assert store.load_match(match_id)[1] == text_before
