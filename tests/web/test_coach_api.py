"""The coach's API, in process: remarks only on the person's own decisions, computed from their
view (no hidden card in any remark before the hand ends), kept for the hand's review, which
reuses them; revisits of finished hands only; ownership and bad input."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from ginrummy.engine.record import loads
from ginrummy.server import create_app
from ginrummy.server.limits import RateLimits
from ginrummy.server.store import Store

from .helpers import card_tokens, choose, stored_match
from .test_api import advance, new_match, new_player, secrets_now


@pytest.fixture()
def client(store: Store) -> Iterator[TestClient]:
    # Rate limits off: these tests ask for remarks far faster than anyone plays; the coach in
    # the request's thread (the limits and the coach's worker processes have their own tests
    # in test_hardening_cpu.py).
    app = create_app(store=store, limits=RateLimits.off(), coach_processes=0)
    app.state.coach.samples = 4  # the API's behaviour, not the coach's precision, is tested
    with TestClient(app) as c:  # one event loop for every request (conftest.client)
        yield c


def latest(client: TestClient, auth: dict[str, str], match_id: str) -> dict[str, Any] | None:
    r = client.get(f"/api/matches/{match_id}/coach/latest", headers=auth)
    assert r.status_code == 200, r.text
    remark: dict[str, Any] | None = r.json()["remark"]
    return remark


def play_hand_with_remarks(
    client: TestClient, store: Store, auth: dict[str, str], state: dict[str, Any],
    rng: random.Random,
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Play the current hand to its end, asking for a remark after each of the person's moves
    and checking each against the record; returns the final state and the remarks."""
    number = state["hand"]["number"]
    remarks = []
    while state["status"] == "playing" and state["hand"]["number"] == number:
        move = choose(state, rng, wild=0.25)
        before = state["version"]
        state = advance(client, auth, state, move)
        remark = latest(client, auth, state["id"])
        match, _seals = stored_match(store, state["id"])
        hand = match.hands[number - 1]
        # The person's move is the last of their moves in the hand so far.
        mine = [i for i, e in enumerate(hand.history) if e.seat == 0]
        if remark is None:
            continue
        assert remark["hand"] == number
        assert remark["index"] == mine[-1]
        assert hand.history[remark["index"]].seat == 0
        assert remark["move"].split(" with ")[0] == hand.moves[remark["index"]].split(" with ")[0]
        hidden, seeds = secrets_now(store, state["id"])
        if hidden is not None:
            leaked = card_tokens(remark) & hidden
            assert not leaked, f"hidden cards {leaked} in a remark: {remark}"
        assert not [s for s in seeds if s in json.dumps(remark)], "a server seed in a remark"
        # Asking costs the match nothing: its version is the one the move produced.
        assert client.get(f"/api/matches/{state['id']}", headers=auth).json()["version"] == (
            state["version"])
        assert state["version"] > before
        remarks.append(remark)
    return state, remarks


def test_remarks_are_about_the_persons_own_moves_and_hide_nothing(
    client: TestClient, store: Store
) -> None:
    rng = random.Random(7)
    auth = new_player(client)
    seen = 0
    for i, profile in enumerate(("oklahoma", "modern")):
        state = new_match(client, auth, profile=profile, last_discard_chance=i == 1,
                          forfeit_current=True)
        for _ in range(2):
            state, remarks = play_hand_with_remarks(client, store, auth, state, rng)
            seen += len(remarks)
            assert {r["rating"] for r in remarks} <= {"good", "inaccuracy", "mistake"}
            if state["status"] == "over":
                break
            state = advance(client, auth, state, None)
    assert seen >= 8


def test_the_review_lists_every_decision_and_reuses_the_live_remarks(
    client: TestClient, store: Store
) -> None:
    rng = random.Random(3)
    auth = new_player(client)
    state = new_match(client, auth, profile="traditional")
    number = state["hand"]["number"]
    r = client.get(f"/api/matches/{state['id']}/coach/hands/{number}", headers=auth)
    assert r.status_code == 409  # not over yet
    state, remarks = play_hand_with_remarks(client, store, auth, state, rng)
    r = client.get(f"/api/matches/{state['id']}/coach/hands/{number}", headers=auth)
    assert r.status_code == 200, r.text
    review = r.json()
    hand = loads(store.load_record(state["id"])[1]).hands[number - 1]
    replay_choices = _decision_indices(hand)
    assert [d["index"] for d in review["decisions"]] == replay_choices
    by_index = {d["index"]: d for d in review["decisions"]}
    for remark in remarks:
        assert by_index[remark["index"]] == remark  # the same remark, kept, not recomputed
    assert sum(review["counts"].values()) == len(review["decisions"])
    losses = [d["loss"] for d in review["costliest"]]
    assert losses == sorted(losses, reverse=True)
    assert all(d["rating"] != "good" for d in review["costliest"])
    assert client.get(f"/api/matches/{state['id']}/coach/hands/99",
                      headers=auth).status_code == 404


def _decision_indices(hand: Any) -> list[int]:
    from ginrummy import Hand

    replay = Hand(hand.rules, deck=list(hand.deck), dealer=hand.dealer)
    out = []
    for i, move in enumerate(hand.moves):
        if replay.to_play == 0 and len(replay.legal_moves()) > 1:
            out.append(i)
        replay.play(move)
    return out


def test_a_decision_of_a_finished_hand_is_revisited(client: TestClient, store: Store) -> None:
    rng = random.Random(11)
    auth = new_player(client)
    state = new_match(client, auth, profile="modern")
    number = state["hand"]["number"]
    state, _ = play_hand_with_remarks(client, store, auth, state, rng)
    review = client.get(f"/api/matches/{state['id']}/coach/hands/{number}", headers=auth).json()
    decision = review["decisions"][-1]
    base = f"/api/matches/{state['id']}/coach/hands/{number}/decisions/{decision['index']}"
    r = client.get(base, headers=auth)
    assert r.status_code == 200, r.text
    shown = r.json()
    hand = loads(store.load_record(state["id"])[1]).hands[number - 1]
    from ginrummy import Hand

    replay = Hand(hand.rules, deck=list(hand.deck), dealer=hand.dealer)
    for m in hand.moves[: decision["index"]]:
        replay.play(m)
    table = shown["table"]["hand"]
    assert set(table["cards"]) == {str(c) for c in replay.hand_of(0)}
    assert table["legal_moves"] == replay.legal_moves()
    assert table["result"] is None  # the position, not the hand's end
    assert shown["played"] == decision["words"]
    # Playing it again: the coach judges the new move; an illegal one is refused.
    legal = table["legal_moves"]
    r = client.post(base + "/answer", json={"move": legal[0]}, headers=auth)
    assert r.status_code == 200, r.text
    answer = r.json()
    assert answer["remark"]["move"].split(" with ")[0] == legal[0]
    assert answer["remark"]["alternatives"][0]["move"] == answer["remark"]["best"]
    assert answer["played"] == decision
    assert set(answer["opponent"]["cards"]) == {str(c) for c in replay.hand_of(1)}
    bad = client.post(base + "/answer", json={"move": "discard 2x"}, headers=auth)
    assert bad.status_code in (400, 422)
    # A computer's move, or a point past the hand, is no decision of the person's.
    theirs = next(i for i, e in enumerate(hand.history) if e.seat == 1)
    path = f"/api/matches/{state['id']}/coach/hands/{number}/decisions/{theirs}"
    assert client.get(path, headers=auth).status_code == 404


def test_a_hand_in_play_cannot_be_revisited(client: TestClient) -> None:
    auth = new_player(client)
    state = new_match(client, auth)
    path = f"/api/matches/{state['id']}/coach/hands/1/decisions/0"
    assert client.get(path, headers=auth).status_code == 409


def test_only_the_owner_reaches_the_coach(client: TestClient) -> None:
    auth = new_player(client, "Ann")
    other = new_player(client, "Bob")
    state = new_match(client, auth)
    state = advance(client, auth, state, choose(state))
    mid = state["id"]
    for path in (f"/api/matches/{mid}/coach/latest", f"/api/matches/{mid}/coach/hands/1",
                 f"/api/matches/{mid}/coach/hands/1/decisions/0"):
        assert client.get(path, headers=other).status_code == 404
        assert client.get(path).status_code == 401
    assert client.get(f"/api/matches/{mid}/coach/hands/0", headers=auth).status_code == 422


def test_the_coach_judges_a_move_at_a_sample_situation(client: TestClient) -> None:
    from ginrummy.lessons import load_situations

    situation = next(s for s in load_situations() if s.id == "do-not-feed-your-opponent")
    r = client.post(f"/api/situations/{situation.id}/coach", json={"move": "discard Kd"})
    assert r.status_code == 200, r.text
    remark = r.json()
    assert remark["rating"] == "good" and remark["move"] == "discard Kd"
    mine = {str(c) for c in situation.position.view().hand}
    assert card_tokens(remark) <= mine | {"9c", "Qd", "Jc", "Kh"}  # and what the opponent showed
    bad = client.post(f"/api/situations/{situation.id}/coach", json={"move": "discard 9c"})
    assert bad.status_code == 400
    assert client.post("/api/situations/nope/coach", json={"move": "draw"}).status_code == 404


def test_the_coach_on_a_sealed_match_reads_finished_hands_only(
    client: TestClient, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Before the first deal there is nothing to remark on or review; once hand 1 is over and
    hand 2 is being played, hand 1's decisions are reviewed and revisited from a record of the
    finished hands alone (no deck of hand 2 reaches the coach), and no response holds a server
    seed not revealed yet."""
    from ginrummy.server import coach_service

    read: list[str] = []
    real = coach_service.Position.from_record

    def spy(text: str, **kw: Any) -> Any:
        read.append(text)
        return real(text, **kw)

    monkeypatch.setattr(coach_service.Position, "from_record", spy)
    rng = random.Random(5)
    auth = new_player(client)
    # Hollywood: no single hand ends the match, so hand 2 is dealt.
    state = new_match(client, auth, deal=False, hollywood=True)
    mid = state["id"]
    assert state["hand"] is None and state["status"] == "between_hands"
    assert latest(client, auth, mid) is None
    assert client.get(f"/api/matches/{mid}/coach/hands/1", headers=auth).status_code == 404
    assert client.get(f"/api/matches/{mid}/coach/hands/1/decisions/0",
                      headers=auth).status_code == 404
    state = advance(client, auth, state, None, client_seed="coached and sealed")
    state, _ = play_hand_with_remarks(client, store, auth, state, rng)
    assert state["status"] == "between_hands" and state["hand"]["result"] is not None
    state = advance(client, auth, state, None)  # hand 2 is dealt and now being played
    if state["hand"]["your_turn"]:
        state = advance(client, auth, state, choose(state, rng))
    assert state["hand"]["number"] == 2 and state["hand"]["result"] is None
    review = client.get(f"/api/matches/{mid}/coach/hands/1", headers=auth)
    assert review.status_code == 200, review.text
    decision = review.json()["decisions"][0]
    base = f"/api/matches/{mid}/coach/hands/1/decisions/{decision['index']}"
    shown = client.get(base, headers=auth)
    assert shown.status_code == 200, shown.text
    assert shown.json()["table"]["meta"] == {"sealed": None, "situation": None,
                                             "revisit": shown.json()["table"]["id"]}
    legal = shown.json()["table"]["hand"]["legal_moves"]
    answered = client.post(base + "/answer", json={"move": legal[0]}, headers=auth)
    assert answered.status_code == 200, answered.text
    # What the coach read: the record of hand 1 alone, which is over.
    assert read and all(len(loads(text).hands) == 1 for text in read)
    assert all(loads(text).hands[0].result is not None for text in read)
    # The hand being played is neither reviewed nor revisited.
    assert client.get(f"/api/matches/{mid}/coach/hands/2", headers=auth).status_code == 409
    assert client.get(f"/api/matches/{mid}/coach/hands/2/decisions/0",
                      headers=auth).status_code == 409
    _hidden, seeds = secrets_now(store, mid)
    assert seeds
    for r in (review, shown, answered, client.get(f"/api/matches/{mid}/coach/latest",
                                                  headers=auth)):
        assert not [s for s in seeds if s in r.text], "an unrevealed server seed in a response"


def _stream(client: TestClient, auth: dict[str, str], match_id: str,
            number: int) -> list[dict[str, Any]]:
    with client.stream("GET", f"/api/matches/{match_id}/coach/hands/{number}/stream",
                       headers=auth) as r:
        assert r.status_code == 200, r.read()
        assert r.headers["content-type"].startswith("application/x-ndjson")
        return [json.loads(line) for line in r.iter_lines() if line]


def test_assessing_ahead_and_the_streamed_review(client: TestClient, store: Store) -> None:
    """The page asks the coach to assess ahead after each of the person's moves: each answer
    counts the decisions played so far (nothing from the future, no verdict shown). The hand's
    streamed review then lists every decision pending, one remark per decision, and ends with
    the review the plain route answers; the remarks assessed ahead are the ones kept."""
    rng = random.Random(13)
    auth = new_player(client)
    state = new_match(client, auth, profile="traditional")
    mid, number = state["id"], state["hand"]["number"]
    path = f"/api/matches/{mid}/coach/ahead"
    assert client.post(path, headers=auth).json() == {"assessed": 0, "kept": 0}
    while state["status"] == "playing" and state["hand"]["number"] == number:
        state = advance(client, auth, state, choose(state, rng, wild=0.25))
        r = client.post(path, headers=auth)
        assert r.status_code == 200, r.text
        hand = loads(store.load_record(mid)[1]).hands[number - 1]
        played = _decision_indices(hand)
        assert r.json()["assessed"] + r.json()["kept"] == len(played)
        assert r.json()["assessed"] <= 1  # only the decision just played was new
    assert client.post(path, headers=auth).json()["assessed"] == 0
    kept = {i: a for i, (_t, a) in app_notes(client).get(mid, number).items()}
    lines = _stream(client, auth, mid, number)
    hand = loads(store.load_record(mid)[1]).hands[number - 1]
    indices = _decision_indices(hand)
    assert [e["event"] for e in lines] == ["start"] + ["decision"] * len(indices) + ["review"]
    assert [p["index"] for p in lines[0]["pending"]] == indices
    remarks = [e["remark"] for e in lines[1:-1]]
    assert sorted(r["index"] for r in remarks) == indices
    assert set(kept) == set(indices)
    for remark, pending in zip(remarks, lines[0]["pending"], strict=True):
        assert remark["words"] == pending["words"] and remark["turn"] == pending["turn"]
        assert remark["rating"] == kept[remark["index"]].rating
    plain = client.get(f"/api/matches/{mid}/coach/hands/{number}", headers=auth).json()
    assert lines[-1]["review"] == plain
    assert plain["decisions"] == remarks


def test_the_streamed_review_assesses_what_was_not_assessed_ahead(
    client: TestClient, store: Store
) -> None:
    """Without any remark or assessing ahead, the streamed review assesses each decision in
    the order played and keeps it; a hand in play is refused before anything is streamed."""
    rng = random.Random(17)
    auth = new_player(client)
    state = new_match(client, auth, profile="modern")
    mid, number = state["id"], state["hand"]["number"]
    stream = f"/api/matches/{mid}/coach/hands/{number}/stream"
    assert client.get(stream, headers=auth).status_code == 409
    while state["status"] == "playing" and state["hand"]["number"] == number:
        state = advance(client, auth, state, choose(state, rng))
    assert not app_notes(client).get(mid, number)
    lines = _stream(client, auth, mid, number)
    indices = [p["index"] for p in lines[0]["pending"]]
    assert [e["remark"]["index"] for e in lines[1:-1]] == indices
    assert sorted(app_notes(client).get(mid, number)) == indices
    assert lines[-1]["review"]["decisions"] == [e["remark"] for e in lines[1:-1]]


def test_only_the_owner_assesses_ahead_or_streams(client: TestClient) -> None:
    auth = new_player(client, "Ann")
    other = new_player(client, "Bob")
    state = new_match(client, auth)
    mid = state["id"]
    assert client.post(f"/api/matches/{mid}/coach/ahead", headers=other).status_code == 404
    assert client.post(f"/api/matches/{mid}/coach/ahead").status_code == 401
    path = f"/api/matches/{mid}/coach/hands/1/stream"
    assert client.get(path, headers=other).status_code == 404
    assert client.get(path).status_code == 401


def app_notes(client: TestClient) -> Any:
    return client.app.state.coach.notes  # type: ignore[attr-defined]
