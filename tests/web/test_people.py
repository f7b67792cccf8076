"""Tables for two people through the API (issue 13): invites and the lobby, each person's own
view, turns, two-party sealed deals that verify, and a leak scan over whole matches."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient

from ginrummy.engine.record import loads
from ginrummy.engine.shuffle import combine_client_seeds, shuffle_deck
from ginrummy.engine.verify import verify_record
from ginrummy.server.limits import RateLimiter, RateLimits
from ginrummy.server.store import Store

from .helpers import (
    People,
    card_tokens,
    choose,
    new_player,
    people_app,
    secrets_by_seat,
    where_cards,
    without_spots,
)

# -------------------------------------------------------------------------------------------
# Invites and the lobby.


def test_an_invite_seats_the_second_person_once(client: TestClient) -> None:
    ann, bob, cid = new_player(client, "Ann"), new_player(client, "Bob"), new_player(client, "Cy")
    r = client.post("/api/matches", json={"opponent": "person", "profile": "modern"},
                    headers=ann)
    assert r.status_code == 201, r.text
    made = r.json()
    assert made["status"] == "waiting" and made["seat"] == 0 and made["opponent"] == "person"
    assert made["invite"] and made["people"]["names"] == ["Ann", None]
    assert made["meta"]["sealed"]["next"]["hand"] == 1  # committed before anyone's seed
    # Moves wait for the second person; a client seed may come first (issue 37 item 2: the
    # creator's page sends it by itself, so the join deals the first hand).
    r = client.post(f"/api/matches/{made['id']}/moves", json={"move": "draw"}, headers=ann)
    assert r.status_code == 409 and "invite" in r.json()["detail"]
    r = client.post(f"/api/matches/{made['id']}/next-hand", json={"client_seed": "x"},
                    headers=ann)
    assert r.status_code == 200 and r.json()["people"]["seeds_in"] == [True, False]
    assert r.json()["status"] == "waiting"
    # Unknown and own invites.
    unknown = client.post("/api/invites/nosuchinvite", headers=bob)
    assert unknown.status_code == 404 and unknown.json()["detail"].startswith("No open table")
    r = client.post(f"/api/invites/{made['invite']}", headers=ann)
    assert r.status_code == 409 and "your own table" in r.json()["detail"]
    # The short code works too, read aloud: any case, with or without its dash.
    code = made["people"]["code"]
    r = client.post(f"/api/invites/{code.lower()}", headers=bob)
    assert r.status_code == 200, r.text
    joined = r.json()
    assert joined["id"] == made["id"] and joined["seat"] == 1
    assert joined["names"] == ["Bob", "Ann"] and joined["status"] == "between_hands"
    assert joined["meta"]["sealed"]["next"]["commitment"] == \
        made["meta"]["sealed"]["next"]["commitment"]
    assert joined["people"]["seeds_in"] == [True, False] and joined["hand"] is None
    # Used: a third person gets the unknown invite's answer, and still cannot see the match.
    r = client.post(f"/api/invites/{made['invite']}", headers=cid)
    assert (r.status_code, r.json()) == (404, unknown.json())
    assert client.get(f"/api/matches/{made['id']}", headers=cid).status_code == 404
    assert client.get("/api/me", headers=bob).json()["current_match"] == made["id"]


def test_an_invite_shows_its_terms_and_ends_no_match_without_a_yes(
    client: TestClient, store: Store
) -> None:
    """Issue 37 item 1: opening an invite link joined at once, forfeiting the match in
    progress. Its terms are read first (GET, changing nothing), and joining over an unfinished
    match is refused, saying what it would end, until the person says yes."""
    ann, bob = new_player(client, "Ann"), new_player(client, "Bob")
    made = client.post("/api/matches", headers=ann, json={
        "opponent": "person", "profile": "oklahoma", "clock": 30}).json()
    playing = client.post("/api/matches", json={"level": "random"}, headers=bob).json()
    before = (store.load_match(made["id"]), store.load_match(playing["id"]))
    r = client.get(f"/api/invites/{made['people']['code']}", headers=bob)
    assert r.status_code == 200, r.text
    terms = r.json()
    assert terms["creator"] == "Ann" and terms["clock"] == 30 and terms["seat"] == "free"
    assert terms["rules"]["profile"] == "oklahoma" and terms["match_id"] == made["id"]
    assert terms["current"]["id"] == playing["id"]
    assert terms["current"]["against"] == "computer" and "loss" in terms["current"]["ends"]
    assert terms["sealed"]["next"]["commitment"] == made["meta"]["sealed"]["next"]["commitment"]
    assert client.get(f"/api/invites/{made['invite']}", headers=ann).json()["seat"] == "yours"
    r = client.post(f"/api/invites/{made['invite']}", headers=bob)
    assert r.status_code == 409 and "forfeit_current" in r.json()["detail"]
    assert (store.load_match(made["id"]), store.load_match(playing["id"])) == before
    assert client.get("/api/me", headers=bob).json()["current_match"] == playing["id"]
    # A broken seed is refused before anything changes, too.
    r = client.post(f"/api/invites/{made['invite']}", headers=bob,
                    json={"client_seed": " x", "forfeit_current": True})
    assert r.status_code == 400
    assert (store.load_match(made["id"]), store.load_match(playing["id"])) == before
    # Yes, with a seed: Bob sits down; Ann's page sends hers, and the hand is dealt.
    r = client.post(f"/api/invites/{made['invite']}", headers=bob,
                    json={"client_seed": "bob's", "forfeit_current": True})
    assert r.status_code == 200 and r.json()["people"]["seeds_in"] == [False, True]
    assert client.get(f"/api/matches/{playing['id']}", headers=bob).json()["status"] == \
        "abandoned"
    dealt = client.post(f"/api/matches/{made['id']}/next-hand", headers=ann,
                        json={"client_seed": "ann's"}).json()
    assert dealt["hand"]["number"] == 1
    assert dealt["meta"]["sealed"]["hand"]["client_seeds"] == ["ann's", "bob's"]
    # Joined: the link answers the table for Bob, and is no invite for anyone else.
    assert client.post(f"/api/invites/{made['invite']}", headers=bob).json()["id"] == made["id"]
    cy = new_player(client, "Cy")
    assert client.get(f"/api/invites/{made['invite']}", headers=cy).status_code == 404


def test_a_seed_sent_before_the_join_deals_the_first_hand_at_the_join(
    client: TestClient,
) -> None:
    """Issue 37 item 2: no press of Deal from either person: the creator's page sends its seed
    as soon as the table is made, the joiner's with the join, and the join deals."""
    ann, bob = new_player(client, "Ann"), new_player(client, "Bob")
    made = client.post("/api/matches", headers=ann, json={"opponent": "person",
                                                           "clock": 60}).json()
    r = client.post(f"/api/matches/{made['id']}/next-hand", headers=ann,
                    json={"client_seed": "ann", "version": made["version"]})
    assert r.status_code == 200
    joined = client.post(f"/api/invites/{made['invite']}", headers=bob,
                         json={"client_seed": "bob"}).json()
    assert joined["status"] == "playing" and joined["hand"]["number"] == 1
    assert joined["meta"]["sealed"]["hand"]["client_seeds"] == ["ann", "bob"]
    assert joined["people"]["clock"]["seats"]  # the clock starts with the hand


def test_the_lobby_lists_open_tables_until_someone_joins(client: TestClient) -> None:
    ann, bob, cy = new_player(client, "Ann"), new_player(client, "Bob"), new_player(client, "Cy")
    open_ = client.post("/api/matches", headers=ann, json={
        "opponent": "person", "open": True, "clock": 60, "hollywood": True}).json()
    client.post("/api/matches", headers=bob, json={"opponent": "person"})  # private
    lobby = client.get("/api/lobby").json()
    assert [t["invite"] for t in lobby] == [open_["invite"]]
    assert lobby[0]["creator"] == "Ann" and lobby[0]["clock"] == 60 and lobby[0]["hollywood"]
    # Its rules in the words of the table's own cheat sheet, not the score sheet's notation.
    assert lobby[0]["name"] == open_["rules"]["name"] and "Hollywood" in lobby[0]["name"]
    assert "=" not in lobby[0]["name"]
    assert client.post(f"/api/invites/{lobby[0]['invite']}", headers=cy).status_code == 200
    assert client.get("/api/lobby").json() == []


@pytest.mark.parametrize("body,status", [
    ({"opponent": "person", "clock": 45}, 422),
    ({"opponent": "robot"}, 422),
    ({"opponent": "person", "open": "yes"}, 422),
    ({"opponent": "person", "deal": True}, 422),
    ({"opponent": "person", "level": "hard"}, 422),
    ({"level": "random", "clock": 30}, 422),
    ({"level": "random", "open": True}, 422),
])
def test_bad_people_tables_are_refused(client: TestClient, store: Store,
                                       body: dict[str, Any], status: int) -> None:
    ann = new_player(client)
    r = client.post("/api/matches", json=body, headers=ann)
    assert r.status_code == status and r.json()["detail"]
    assert client.get("/api/me", headers=ann).json()["current_match"] is None
    assert client.get("/api/lobby").json() == []


# -------------------------------------------------------------------------------------------
# Turns, views, sealed deals.


def test_each_person_sees_their_own_seat_and_moves_only_in_turn(client: TestClient) -> None:
    t = People.start(client)
    t.deal({0: "ann's seed", 1: "bob's seed"})
    for seat in (0, 1):
        state = t.state(seat)
        assert state["seat"] == seat and state["hand"]["number"] == 1
        assert len(state["hand"]["cards"]) == 10
    mover = t.state(0)["hand"]["to_play"]
    seat = 0 if mover == "you" else 1
    other = 1 - seat
    assert t.state(seat)["hand"]["your_turn"] and not t.state(other)["hand"]["your_turn"]
    assert "is playing" in t.state(other)["hand"]["prompt"]
    before = t.state(other)
    legal = t.state(seat)["hand"]["legal_moves"][0]
    r = t.post(other, "moves", {"move": legal})
    assert r.status_code == 409 and "not your turn" in r.json()["detail"]
    assert t.state(other)["version"] == before["version"]
    # The two hands are disjoint: neither sees the other's.
    assert not set(t.state(0)["hand"]["cards"]) & set(t.state(1)["hand"]["cards"])
    r = t.post(seat, "moves", {"move": legal, "version": before["version"]})
    assert r.status_code == 200, r.text
    assert t.state(other)["version"] == r.json()["version"]


def test_a_third_person_gets_404_like_a_missing_match(client: TestClient) -> None:
    t = People.start(client)
    t.deal({0: "a", 1: "b"})
    cy = new_player(client, "Cy")
    mid = t.id
    for method, path, body in [
        ("GET", f"/api/matches/{mid}", None),
        ("POST", f"/api/matches/{mid}/moves", {"move": "pass"}),
        ("POST", f"/api/matches/{mid}/next-hand", {"client_seed": "c"}),
        ("POST", f"/api/matches/{mid}/resign", None),
        ("POST", f"/api/matches/{mid}/rematch", None),
        ("GET", f"/api/matches/{mid}/record", None),
        ("GET", f"/api/matches/{mid}/coach/latest", None),
    ]:
        r = client.request(method, path, json=body, headers=cy)
        r2 = client.request(method, path.replace(mid, "nosuchmatch"), json=body, headers=cy)
        assert r.status_code == 404 and r2.status_code == 404 and r.json() == r2.json(), path


def test_two_party_seeds_stay_hidden_until_both_are_in_then_both_make_the_deck(
    client: TestClient, store: Store
) -> None:
    t = People.start(client)
    commitment = t.state(1)["meta"]["sealed"]["next"]["commitment"]
    r = t.post(0, "next-hand", {"client_seed": "ann ♥ 7"})
    assert r.status_code == 200 and r.json()["hand"] is None
    assert r.json()["people"]["seeds_in"] == [True, False]
    assert r.json()["people"]["your_seed"] == "ann ♥ 7"
    seen_by_bob = t.get(1)
    assert "ann ♥ 7" not in seen_by_bob.text and seen_by_bob.json()["hand"] is None
    assert seen_by_bob.json()["people"]["seeds_in"] == [True, False]
    assert seen_by_bob.json()["people"]["your_seed"] is None
    # Once sent, a seed cannot be changed; a missing or broken one deals nothing.
    version = seen_by_bob.json()["version"]
    r = t.post(0, "next-hand", {"client_seed": "another"})
    assert r.status_code == 409 and "already" in r.json()["detail"]
    assert t.post(1, "next-hand", {}).status_code == 400
    assert t.post(1, "next-hand", {"client_seed": " spaced"}).status_code == 400
    assert t.post(1, "moves", {"move": "draw"}).status_code == 409
    assert t.state(1)["version"] == version and t.state(0)["people"]["your_seed"] == "ann ♥ 7"
    r = t.post(1, "next-hand", {"client_seed": "bob"})
    assert r.status_code == 200, r.text
    sealed = r.json()["meta"]["sealed"]["hand"]
    assert sealed["commitment"] == commitment
    assert sealed["client_seeds"] == ["ann ♥ 7", "bob"]
    assert sealed["client_seed"] == combine_client_seeds("ann ♥ 7", "bob")
    assert t.state(0)["meta"]["sealed"]["hand"]["client_seeds"] == ["ann ♥ 7", "bob"]
    t.finish_hand(random.Random(1))
    for seat in (0, 1):
        done = t.state(seat)["meta"]["sealed"]["hand"]
        deck = shuffle_deck(bytes.fromhex(done["server_seed"]),
                            combine_client_seeds("ann ♥ 7", "bob"), 1)
        assert [str(c) for c in cards_of(deck)] == done["deck"]
        record = client.get(f"/api/matches/{t.id}/record?hands=1", headers=t.auth[seat])
        report = verify_record(record.text, published={1: commitment})
        assert report.ok, report
        names = {c.name for c in report.hands[0].checks}
        assert "client seeds" in names


def cards_of(deck: list[int]) -> list[str]:
    from ginrummy.engine.cards import CARD_TEXT

    return [CARD_TEXT[c] for c in deck]


# -------------------------------------------------------------------------------------------
# A whole match, scanned for leaks.


Secrets = dict[int, tuple[set[str] | None, set[str]]]


def secrets_of_both(store: Store, t: People) -> Secrets:
    """What each person may not know now (:func:`~.helpers.secrets_by_seat`), and the other
    person's client seed not yet used in a deal, as the database holds the match now."""
    people = store.people_of(t.id)
    assert people is not None
    return {
        seat: (hidden, seeds | {v for k, v in people.seeds.items() if k != seat})
        for seat, (hidden, seeds) in secrets_by_seat(store, t.id).items()
    }


def scan(secrets: Secrets, seat: int, text: str) -> int:
    hidden, secret = secrets[seat]
    assert not any(s in text for s in secret), "a secret seed leaked"
    if not hidden:
        return 0
    data = json.loads(text)
    scanned = without_spots({k: v for k, v in data.items() if k not in ("id", "invite")})
    leaked = card_tokens(scanned) & hidden
    assert not leaked, f"seat {seat} saw {leaked} in {where_cards(scanned, leaked)}"
    return 1


# One match on known deals (the known_deals fixture: seed 10, a match of median length among
# seeds 0-11, which took 2 to 28 s beside another test worker), so the run takes as long every
# time; --slow adds six matches on secret deals, with more random moves.
@pytest.mark.parametrize("matches,wild,deals", [
    pytest.param(1, 0.05, 10, id="1-match"),
    pytest.param(6, 0.3, None, marks=pytest.mark.slow, id="6-wilder-matches"),
])
def test_whole_matches_leak_nothing_to_either_person_and_verify(
    client: TestClient, store: Store, known_deals: Callable[[int], None], matches: int,
    wild: float, deals: int | None
) -> None:
    """Moves from both seats (the helpers' chooser, with random legal moves mixed in) until
    each match is over; every answer to each
    person is scanned for the other's hidden cards, the stock, unrevealed server seeds and
    the other's pending client seed; each finished hand verifies from both seats.

    What each person may not know is read from the database once per change of the match:
    after each request that changes it, for the answer to that request and for both people's
    reads of the table that follow (reads change no card and no seed)."""
    if deals is not None:
        known_deals(deals)
    # Six matches' twelve players may be made within a minute, all from one (test) address:
    # past the limit on new players per address, which this test is not about.
    client.app.state.limiter = RateLimiter(RateLimits.off(), store)
    rng = random.Random(13 + matches)
    checked = 0
    for i in range(matches):
        t = People.start(client, profile=["modern", "oklahoma", "browser"][i % 3],
                         hollywood=i % 2 == 1)
        shown: dict[int, str] = {}
        secrets = secrets_of_both(store, t)
        for _step in range(3000):
            seen = {seat: t.get(seat) for seat in (0, 1)}
            for seat, r in seen.items():
                checked += scan(secrets, seat, r.text)
            state = seen[0].json()
            if state["status"] == "over":
                break
            if state["status"] == "between_hands":
                nxt = state["meta"]["sealed"]["next"]
                shown[nxt["hand"]] = nxt["commitment"]
                # Either person may send first.
                seat = rng.choice([s for s in (0, 1) if not state["people"]["seeds_in"][s]])
                r = t.post(seat, "next-hand", {"client_seed": f"s{seat} {rng.random()}"})
            else:
                seat = 0 if state["hand"]["your_turn"] else 1
                mine = seen[seat].json()
                r = t.post(seat, "moves", {"move": choose(mine, rng, wild=wild),
                                            "version": mine["version"]})
            assert r.status_code == 200, r.text
            secrets = secrets_of_both(store, t)
            checked += scan(secrets, seat, r.text)
        else:
            pytest.fail("the match did not end in 3000 steps")
        for seat in (0, 1):
            record = client.get(f"/api/matches/{t.id}/record", headers=t.auth[seat])
            assert record.status_code == 200
            report = verify_record(record.text, published=shown)
            assert report.ok and all(h.status == "verified" for h in report.hands)
            assert loads(record.text).over
    assert checked > 30 * matches


# -------------------------------------------------------------------------------------------
# Clocks, leaving, resigning, rematches, ratings, the coach.


def test_the_clock_runs_out_exactly_at_the_deadline(tmp_path: Any) -> None:
    with people_app(tmp_path) as (client, clock, service, changes):
        t = People.start(client, clock=30)
        start = clock.t
        t.deal({0: "a", 1: "b"})
        state = t.state(0)
        mover = 0 if state["hand"]["your_turn"] else 1
        running = t.state(mover)["people"]["clock"]
        assert running["limit"] == 30 and running["seats"] == [mover]
        assert running["seconds_left"] == 30
        clock.t = start + 29.5  # still in time: the move counts and restarts the clock
        move = t.state(mover)["hand"]["legal_moves"][0]
        r = t.post(mover, "moves", {"move": move})
        assert r.status_code == 200
        follower = t.state(0)["hand"]["to_play"]
        nxt = 0 if follower == "you" else 1
        assert t.state(nxt)["people"]["clock"]["seats"] == [nxt]
        clock.t = start + 29.5 + 30  # the deadline itself: out of time
        late = t.state(nxt)["hand"]["legal_moves"][0]
        r = t.post(nxt, "moves", {"move": late})
        assert r.status_code == 409 and "over" in r.json()["detail"]
        for seat in (0, 1):
            out = t.state(seat)
            assert out["status"] == "over" and out["people"]["ended"] == "time"
            assert out["people"]["winner"] == 1 - nxt
        people = service.store.people_of(t.id)
        assert people is not None and people.ended_at == start + 59.5
        stats = [client.get("/api/stats", headers=t.auth[s]).json() for s in (0, 1)]
        assert stats[1 - nxt]["matches_won"] == 1 and stats[nxt]["matches_lost"] == 1
        assert (t.id, t.state(0)["version"]) in changes


def test_expire_due_applies_a_passed_deadline_without_any_request(tmp_path: Any) -> None:
    with people_app(tmp_path) as (client, clock, service, changes):
        t = People.start(client, clock=60)
        t.deal({0: "mine", 1: "yours"})
        mover = 0 if t.state(0)["hand"]["your_turn"] else 1
        assert not service.expire_due(t.id)
        assert service.deadline(t.id) == clock.t + 60  # the mover's clock
        clock.t += 61
        changes.clear()
        assert service.expire_due(t.id)
        assert changes and changes[-1][0] == t.id
        assert t.state(0)["people"]["ended"] == "time"
        assert t.state(0)["people"]["winner"] == 1 - mover
        assert not service.expire_due(t.id)


def test_no_clock_runs_before_a_hand_is_dealt(tmp_path: Any) -> None:
    """Issue 37 item 2: a 60 s people match ended "you ran out of time" while the other person
    had not pressed Deal. Between hands no clock runs: only a page that sends no seed within
    the grace period (a page gone, or a client holding the table) forfeits, as "left"."""
    with people_app(tmp_path) as (client, clock, service, _changes):
        t = People.start(client, clock=60)
        assert t.post(0, "next-hand", {"client_seed": "mine"}).status_code == 200
        for seat in (0, 1):
            assert t.state(seat)["people"]["clock"]["seats"] == []
        clock.t += 61  # a clock would have run out: nothing has
        for seat in (0, 1):
            assert t.state(seat)["status"] == "between_hands"
            assert t.state(seat)["people"]["ended"] is None
        assert service.deadline(t.id) is not None  # the grace period still runs
        clock.t += service.grace  # seat 1's page never sent its seed (both kept coming)
        out = t.state(0)
        assert out["status"] == "over" and out["people"]["ended"] == "left"
        assert out["people"]["winner"] == 0


def test_two_seeds_sent_at_once_are_both_kept(client: TestClient, store: Store) -> None:
    """Issue 37 item 9: two seeds sent at once both count and the hand is dealt once, even
    when the second was chosen on the version before the first (a stale version does not
    refuse a seed)."""
    t = People.start(client)
    version = t.state(0)["version"]
    assert t.post(0, "next-hand", {"client_seed": "a", "version": version}).status_code == 200
    r = t.post(1, "next-hand", {"client_seed": "b", "version": version})
    assert r.status_code == 200, r.text
    assert r.json()["meta"]["sealed"]["hand"]["client_seeds"] == ["a", "b"]


def test_a_person_gone_past_the_grace_period_forfeits(tmp_path: Any) -> None:
    with people_app(tmp_path) as (client, clock, service, _changes):
        t = People.start(client)  # no clock: only leaving can end it early
        t.deal({0: "a", 1: "b"})
        start = clock.t
        for _ in range(5):  # seat 0 keeps its stream open; seat 1 says nothing
            clock.t += 25
            service.seen(t.id, 0)
        clock.t = start + service.grace + 1
        out = t.state(0)
        assert out["status"] == "over" and out["people"]["ended"] == "left"
        assert out["people"]["winner"] == 0


def test_a_rematch_never_ends_another_match(client: TestClient, store: Store) -> None:
    """Issue 37 item 1: accepting a rematch abandoned whatever match the other person had
    started since, unasked. Now the rematch waits, saying why, and changes nothing."""
    t = People.start(client)
    t.deal({0: "a", 1: "b"})
    assert t.post(1, "resign", None).status_code == 200
    assert t.post(0, "rematch", None).status_code == 200
    playing = client.post("/api/matches", json={"level": "random"}, headers=t.auth[0]).json()
    before = store.load_match(playing["id"])
    r = t.post(1, "rematch", None)
    assert r.status_code == 409 and "another match" in r.json()["detail"]
    assert store.load_match(playing["id"]) == before
    assert t.state(1)["people"]["rematch"] is None
    # Once that match is over, the rematch starts.
    client.post(f"/api/matches/{playing['id']}/resign", headers=t.auth[0])
    assert t.post(1, "rematch", None).json()["people"]["rematch"]


def test_resign_then_rematch_swaps_the_first_deal_and_no_hand_finished_is_not_rated(
    client: TestClient,
) -> None:
    t = People.start(client)
    t.deal({0: "a", 1: "b"})
    first_dealer = t.state(0)["hand"]["dealer"]  # from seat 0's side
    r = t.post(1, "resign", None)
    assert r.status_code == 200 and r.json()["status"] == "over"
    assert r.json()["people"]["ended"] == "resigned" and r.json()["people"]["winner"] == 0
    assert t.post(0, "moves", {"move": "draw"}).status_code == 409
    # The hand cut short is shown to both and its two-party deal verifies.
    for seat in (0, 1):
        assert t.state(seat)["meta"]["sealed"]["hand"]["server_seed"] is not None
        record = client.get(f"/api/matches/{t.id}/record", headers=t.auth[seat])
        assert record.status_code == 200, record.text
        report = verify_record(record.text)
        assert report.ok and [h.status for h in report.hands] == ["verified"]
    stats = [client.get("/api/stats", headers=t.auth[s]).json() for s in (0, 1)]
    assert stats[0]["matches_won"] == 1 and stats[1]["matches_lost"] == 1
    # Resigned during the first hand: it counts in the figures, not in the ratings
    # (test_ratings.py has rated ones).
    assert stats[0]["rating"] is None and stats[1]["rated_matches"] == []
    assert r.json()["people"]["rated"] is False and r.json()["people"]["unrated"] == "no_hand"
    assert t.state(0)["people"]["unrated_why"] == "Not rated: no hand was finished."
    listed = [client.get("/api/matches", headers=t.auth[s]).json() for s in (0, 1)]
    assert listed[0][0]["winner"] == "you" and listed[1][0]["winner"] == "opponent"
    # Rematch: an offer, then the other's acceptance starts it.
    r = t.post(0, "rematch", None)
    assert r.status_code == 200 and r.json()["people"]["rematch_offer"] == 0
    assert r.json()["people"]["rematch"] is None
    again = t.post(0, "rematch", None)  # offered already: nothing changes, not even the version
    assert again.status_code == 200 and again.json()["version"] == r.json()["version"]
    assert again.json()["people"]["rematch_offer"] == 0
    r = t.post(1, "rematch", None)
    new_id = r.json()["people"]["rematch"]
    assert new_id and new_id != t.id
    again = People(client, new_id, t.auth)
    assert again.state(1)["status"] == "between_hands" and again.state(1)["seat"] == 1
    again.deal({0: "c", 1: "d"})
    swapped = "computer" if first_dealer == "you" else "you"
    assert again.state(0)["hand"]["dealer"] == swapped
    assert t.post(1, "rematch", None).json()["people"]["rematch"] == new_id


def test_starting_a_new_match_forfeits_the_unfinished_people_match(client: TestClient) -> None:
    t = People.start(client)
    t.deal({0: "a", 1: "b"})
    before = t.state(0)
    r = client.post("/api/matches", json={"level": "random"}, headers=t.auth[1])
    assert r.status_code == 409 and "against Ann" in r.json()["detail"]
    assert t.state(0) == before
    r = client.post("/api/matches", json={"level": "random", "forfeit_current": True},
                    headers=t.auth[1])
    assert r.status_code == 201
    out = t.state(0)
    assert out["status"] == "over" and out["people"]["ended"] == "left"
    assert out["people"]["winner"] == 0
    assert client.get("/api/stats", headers=t.auth[1]).json()["matches_lost"] == 1


def test_the_coach_is_off_during_play_and_reviews_only_your_own_decisions_after(
    client: TestClient,
) -> None:
    # Whose decisions a review holds is the question, not the remarks: a light coach.
    client.app.state.coach.samples = 16  # type: ignore[attr-defined]
    t = People.start(client)
    t.deal({0: "a", 1: "b"})
    for seat in (0, 1):
        r = client.get(f"/api/matches/{t.id}/coach/latest", headers=t.auth[seat])
        assert r.status_code == 409 and "off" in r.json()["detail"]
    t.finish_hand(random.Random(3))
    r = client.get(f"/api/matches/{t.id}/coach/hands/1", headers=t.auth[1])
    assert r.status_code == 409  # the match is not over yet
    t.post(0, "resign", None)
    record = loads(client.get(f"/api/matches/{t.id}/record", headers=t.auth[0]).text)
    for seat in (0, 1):
        r = client.get(f"/api/matches/{t.id}/coach/hands/1", headers=t.auth[seat])
        assert r.status_code == 200, r.text
        mine = [e.text for e in record.hands[0].history if e.seat == seat]
        review = r.json()
        assert all(d["move"] in mine for d in review["decisions"])
    # A decision reopened by its owner first is still refused to the other person (the
    # answers are kept per seat, not handed to whoever asks next), both ways round.
    for seat in (0, 1):
        index = next(i for i, e in enumerate(record.hands[0].history)
                     if e.seat == seat and i > 0)
        url = f"/api/matches/{t.id}/coach/hands/1/decisions/{index}"
        own = client.get(url, headers=t.auth[seat])
        assert own.status_code == 200, own.text
        other = client.get(url, headers=t.auth[1 - seat])
        assert other.status_code == 404, other.text
        assert "no decision of yours" in other.json()["detail"]


def test_on_change_hears_every_committed_change(tmp_path: Any) -> None:
    with people_app(tmp_path) as (client, _clock, _service, changes):
        t = People.start(client)
        t.deal({0: "a", 1: "b"})
        versions = [v for m, v in changes if m == t.id]
        assert versions == sorted(versions) and versions[-1] == t.state(0)["version"]
        assert len(versions) >= 4  # created, joined, a seed, the deal


# -------------------------------------------------------------------------------------------
# The two-party combination as docs/sealed-deals.md writes it.


def test_the_documented_two_party_snippet_and_vectors_agree_with_the_shuffle() -> None:
    import re
    from pathlib import Path

    from ginrummy.engine.cards import CARD_TEXT
    from ginrummy.engine.shuffle import commitment

    doc = (Path(__file__).resolve().parents[2] / "docs" / "sealed-deals.md").read_text()
    snippet = doc.split("<!-- two-party-by-hand -->")[1].split("```python")[1].split("```")[0]
    space: dict[str, Any] = {}
    exec(snippet, space)  # the doc's own code, run as it promises
    block = doc.split("<!-- two-party-vectors -->")[1].split("```text")[1].split("```")[0]
    vectors = re.findall(r'"([^"]*)", "([^"]*)"\s+-> ([0-9a-f]{64})', block)
    assert len(vectors) == 4
    for a, b, want in vectors:
        assert combine_client_seeds(a, b) == space["combine"](a, b) == want
    seed = bytes(range(32))
    assert commitment(seed, 1, 0) in doc
    deck = shuffle_deck(seed, combine_client_seeds("ann", "bob"), 1)
    assert " ".join(CARD_TEXT[c] for c in deck) in doc


def test_a_two_party_record_verifies_with_the_command_and_a_swapped_seed_fails() -> None:
    """The sealer keeps both seeds through a save; ``ginrummy verify`` checks their
    combination, and a record whose two seeds were changed fails the ``client seeds`` check."""
    from click.testing import CliRunner

    from ginrummy.cli import main
    from ginrummy.engine import record
    from ginrummy.engine.match import Match
    from ginrummy.engine.sealer import DealSealer
    from ginrummy.engine.table import Computer, Table
    from ginrummy.players import make

    match = Match("modern", seed="two", start=False)
    sealer = DealSealer(match)
    table = Table(match, [Computer(make("simple"), reseed_from="x")] * 2, sealer=sealer)
    table.seal_next()
    sealer.set_client_seeds(0, "ann", "bob")
    saved = sealer.private_state()
    assert saved["hands"][0]["client_seeds"] == ["ann", "bob"]
    table.deal()
    table.advance()
    assert DealSealer(match, state=sealer.private_state()).client_seed(0) == \
        combine_client_seeds("ann", "bob")
    text = record.dumps(match, hand_meta=sealer.hand_meta())
    assert 'client_seeds = ["ann", "bob"]' in text
    ok = CliRunner().invoke(main, ["verify", "-"], input=text)
    assert ok.exit_code == 0, ok.output
    bad = CliRunner().invoke(main, ["verify", "-"],
                             input=text.replace('["ann", "bob"]', '["bob", "ann"]'))
    assert bad.exit_code == 1 and "client seeds" in bad.output


def test_a_creator_who_waited_long_for_the_other_person_is_not_counted_gone(
    tmp_path: Any,
) -> None:
    with people_app(tmp_path) as (client, clock, service, _changes):
        ann, bob = new_player(client, "Ann"), new_player(client, "Bob")
        made = client.post("/api/matches", json={"opponent": "person", "clock": 30},
                           headers=ann).json()
        for _ in range(20):  # nobody joins for a long while (Ann's page open): nothing runs out
            clock.t += service.grace / 2
            assert client.get(f"/api/matches/{made['id']}", headers=ann).json()["status"] == \
                "waiting"
        joined = client.post(f"/api/invites/{made['invite']}", headers=bob).json()
        assert joined["status"] == "between_hands"
        assert joined["people"]["present"] == [True, True]
        # No clock runs before a hand is dealt (issue 37 item 2).
        assert joined["people"]["clock"]["seats"] == []
        assert joined["people"]["clock"]["seconds_left"] is None


def test_a_table_for_two_on_postgresql(pg_url: str) -> None:
    """The people tables' store methods on PostgreSQL: join, seeds, a deal, resign, the
    rating, a rematch, the lobby and the figures of both seats."""
    from ginrummy.server import create_app

    store = Store(pg_url)
    try:
        client = TestClient(create_app(store=store))
        t = People.start(client, open=False, clock=120)
        t.deal({0: "a", 1: "b"})
        t.finish_hand(random.Random(4))
        t.deal({0: "c", 1: "d"})  # resigned during hand 2: its deal is revealed and verifies
        assert t.post(0, "resign", None).status_code == 200
        record = client.get(f"/api/matches/{t.id}/record", headers=t.auth[1])
        assert record.status_code == 200, record.text
        report = verify_record(record.text)
        assert report.ok and [h.status for h in report.hands] == ["verified", "verified"]
        stats = [client.get("/api/stats", headers=t.auth[s]).json() for s in (0, 1)]
        assert stats[1]["matches_won"] == 1 and stats[0]["matches_lost"] == 1
        assert stats[1]["hands"] == stats[0]["hands"] == 1
        assert stats[1]["rating"]["rating"] > stats[0]["rating"]["rating"]
        offered = t.post(1, "rematch", None).json()
        assert t.post(1, "rematch", None).json()["version"] == offered["version"]
        new_id = t.post(0, "rematch", None).json()["people"]["rematch"]
        assert People(client, new_id, t.auth).state(1)["status"] == "between_hands"
        assert client.get("/api/lobby").json() == []
    finally:
        store.close()


def test_reading_the_table_records_presence_at_most_every_few_seconds(tmp_path: Any) -> None:
    """A page reads the table after every event: those reads count as the person being here,
    but write the presence row only when the last record is a few seconds old."""
    from ginrummy.server.people import SEEN_EVERY_SECONDS

    with people_app(tmp_path) as (client, clock, service, _changes):
        t = People.start(client)
        t.deal({0: "a", 1: "b"})
        writes: list[tuple[str, int, float]] = []
        touch = service.store.touch_people
        service.store.touch_people = lambda m, s, now: (writes.append((m, s, now)),
                                                        touch(m, s, now))[1]
        start = clock.t
        for _ in range(10):
            t.state(1)
        assert writes == []  # the deal just recorded seat 1 as seen
        clock.t = start + SEEN_EVERY_SECONDS
        for _ in range(10):
            t.state(1)
        assert writes == [(t.id, 1, clock.t)]
        assert service.store.people_of(t.id).seen[1] == clock.t  # type: ignore[union-attr]
        # Seat 1 still counts as here within the grace period from that write.
        clock.t = start + 60
        t.state(0)
        clock.t = start + SEEN_EVERY_SECONDS + service.grace - 1
        out = t.state(0)
        assert out["status"] == "playing" and out["people"]["present"] == [True, True]
