"""The server's bounds against abuse (issue 37, items 4 to 6), in process, at their exact edges:
rate limits for new matches, joins and transfer codes (all or nothing, malformed requests
refunded), one answer for unknown, used and closed codes, the lobby (present creators only, a
few per address, tables of creators gone closed), the event streams' bounds (injected clock)
and ``serve``'s options. The same through ``serve --workers 2`` on SQLite and PostgreSQL:
test_abuse_bounds_workers.py."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path
from typing import Any

import click
import pytest
from click.testing import CliRunner
from fastapi import HTTPException
from fastapi.testclient import TestClient
from sqlalchemy import text

from ginrummy.cli.serve import _rate_limits, serve
from ginrummy.server import create_app
from ginrummy.server.limits import RateLimits
from ginrummy.server.people import LOBBY_PER_ADDRESS, LOBBY_PRESENT_SECONDS
from ginrummy.server.schemas import PeopleMatchIn
from ginrummy.server.store import Store
from ginrummy.server.store.limits import address_hash
from ginrummy.server.streams import REPLACE_AFTER, TRIM_AFTER, StreamLimits, Streams

from .helpers import people_app
from .test_api import new_player

#: New matches, each ending the player's last (their yes given: issue 37 item 1).
PERSON = {"opponent": "person", "forfeit_current": True}
COMPUTER = {"level": "random", "forfeit_current": True}
OPEN_TABLE = {"opponent": "person", "open": True, "forfeit_current": True}


def _app(store: Store, **kinds: str) -> TestClient:
    return TestClient(create_app(store=store, limits=replace(RateLimits.off(), **kinds),
                                 coach_processes=0))


def _rows(store: Store, table: str) -> int:
    with store.engine.connect() as db:
        return int(db.execute(text(f"SELECT count(*) FROM {table}")).scalar_one())


def _code() -> str:
    return "".join(random.choice("ABCDEFGHJKMNPQRSTUVWXYZ23456789") for _ in range(8))


# Rate limits ---------------------------------------------------------------------------------


def test_the_default_limits_bound_new_tables_and_guessed_codes(store: Store) -> None:
    """The issue's floods with the default limits: one account's tables, one account's invite
    guesses, one address's transfer-code guesses are each cut off at the limit's number."""
    client = TestClient(create_app(store=store, coach_processes=0))
    ann = new_player(client, "Ann")
    tables = [client.post("/api/matches", json=PERSON, headers=ann).status_code
              for _ in range(35)]
    assert tables == [201] * 30 + [429] * 5  # 30 a minute
    bob = new_player(client, "Bob")
    guesses = [client.post(f"/api/invites/{_code()}", headers=bob).status_code
               for _ in range(25)]
    assert guesses == [404] * 20 + [429] * 5  # 20 a minute
    claims = [client.post("/api/players/claim", json={"code": "ABCD-EFGH-JKMN"}).status_code
              for _ in range(8)]
    assert claims == [404] * 5 + [429] * 3  # 5 a minute


def test_new_matches_are_limited_all_or_nothing_and_a_refusal_changes_nothing(
    store: Store,
) -> None:
    client = _app(store, matches_player="3/minute", matches_address="4/minute")
    ann, bob = new_player(client, "Ann"), new_player(client, "Bob")
    made = [client.post("/api/matches", json=COMPUTER, headers=ann)
            for _ in range(3)]
    assert [r.status_code for r in made] == [201] * 3
    r = client.post("/api/matches", json=COMPUTER, headers=ann)
    assert r.status_code == 429 and int(r.headers["retry-after"]) >= 1
    assert r.json()["detail"].startswith("Too many new matches: at most 3 per minute.")
    # The refused request ended nothing: Ann's third match is still her current one.
    assert client.get("/api/me", headers=ann).json()["current_match"] == made[2].json()["id"]
    # A malformed request is refunded: Bob still has the address's last one.
    assert client.post("/api/matches", json={"level": 5}, headers=bob).status_code == 422
    hits = _rows(store, "rate_hits")
    assert client.post("/api/matches", json=COMPUTER, headers=bob).status_code == 201
    # Over the address's limit Bob's own count is not used either (all or nothing): the
    # refusal adds no row.
    assert _rows(store, "rate_hits") == hits + 2
    r = client.post("/api/matches", json=COMPUTER, headers=bob)
    assert r.status_code == 429 and "new matches from your address" in r.json()["detail"]
    assert _rows(store, "rate_hits") == hits + 2


def test_joins_transfer_codes_and_claims_are_limited(store: Store) -> None:
    client = _app(store, joins_player="2/minute", transfer_player="2/minute",
                  claims_address="3/minute")
    ann = new_player(client, "Ann")
    assert [client.post(f"/api/invites/{_code()}", headers=ann).status_code
            for _ in range(3)] == [404, 404, 429]
    assert [client.post("/api/me/transfer-code", headers=ann).status_code
            for _ in range(3)] == [201, 201, 429]
    assert _rows(store, "transfer_codes") == 2  # the refused one made no code
    assert client.post("/api/players/claim", json={"code": 7}).status_code == 422  # refunded
    assert [client.post("/api/players/claim", json={"code": "ABCD-EFGH-JKMN"}).status_code
            for _ in range(4)] == [404, 404, 404, 429]


# One answer for codes ------------------------------------------------------------------------


def test_unknown_used_and_closed_invites_get_one_answer_and_a_seated_join_changes_nothing(
    tmp_path: Path,
) -> None:
    with people_app(tmp_path) as (client, _clock, _service, changes):
        ann, bob, cy, dan = (new_player(client, n) for n in ("Ann", "Bob", "Cy", "Dan"))
        used = client.post("/api/matches", json=PERSON, headers=ann).json()
        assert client.post(f"/api/invites/{used['invite']}", headers=bob).status_code == 200
        closed = client.post("/api/matches", json=PERSON, headers=dan).json()
        assert client.post("/api/matches", json=COMPUTER,
                           headers=dan).status_code == 201  # closes Dan's waiting table
        answers = [client.post(f"/api/invites/{key}", headers=cy)
                   for key in ("nosuchinvite", used["invite"], used["people"]["code"],
                               closed["invite"])]
        assert {(r.status_code, r.json()["detail"]) for r in answers} == {
            (404, answers[0].json()["detail"])}
        # One's own table still waiting: told so (409).
        mine = client.post("/api/matches", json=PERSON, headers=cy).json()
        r = client.post(f"/api/invites/{mine['invite']}", headers=cy)
        assert r.status_code == 409 and "your own table" in r.json()["detail"]
        # A table one sits at: its state, nothing changed, nobody told of anything.
        before = client.get(f"/api/matches/{used['id']}", headers=bob).json()
        changes.clear()
        for who, seat in ((bob, 1), (ann, 0)):
            r = client.post(f"/api/invites/{used['invite']}", headers=who)
            assert r.status_code == 200 and r.json()["seat"] == seat
            assert r.json()["version"] == before["version"]
        assert changes == []
        # Even after Bob has left it for a match against the computer, which it does not end.
        computer = client.post("/api/matches", json=COMPUTER, headers=bob).json()
        r = client.post(f"/api/invites/{used['invite']}", headers=bob)
        assert r.status_code == 200 and r.json()["status"] == "over"
        assert client.get("/api/me", headers=bob).json()["current_match"] == computer["id"]


# The lobby -----------------------------------------------------------------------------------


def _open_table(service: Any, name: str, address: str) -> dict[str, Any]:
    """A table anyone may join, made by a new player from ``address``."""
    player, _token = service.store.create_player(name)
    state = service.new_match(player, PeopleMatchIn(opponent="person", open=True),
                              address=address_hash(f"address:{address}"))
    return {"id": state.id, "invite": state.invite, "player": player}


def test_the_lobby_lists_present_creators_only_a_few_per_address(tmp_path: Path) -> None:
    with people_app(tmp_path) as (client, clock, service, changes):
        flood = [_open_table(service, f"f{i}", "10.0.0.1") for i in range(LOBBY_PER_ADDRESS + 4)]
        clock.t += 1
        person = _open_table(service, "Kim", "10.0.0.2")
        listed = [t["invite"] for t in client.get("/api/lobby").json()]
        assert person["invite"] in listed
        assert len(set(listed) & {t["invite"] for t in flood}) == LOBBY_PER_ADDRESS

        # Silent past LOBBY_PRESENT_SECONDS: gone from the list; Kim's page is open (her
        # stream's keep-alive records her, as it does every 15 s), so hers stays.
        for _ in range(3):
            clock.t += LOBBY_PRESENT_SECONDS / 2
            service.seen(person["id"], 0)
        assert [t["invite"] for t in client.get("/api/lobby").json()] == [person["invite"]]

        # Past the grace period the silent creators' tables are closed by the lobby's reading,
        # and those streams told; Kim's is untouched.
        for _ in range(int(service.grace // 15)):
            clock.t += 15
            service.seen(person["id"], 0)
        changes.clear()
        assert [t["invite"] for t in client.get("/api/lobby").json()] == [person["invite"]]
        assert {m for m, _v in changes} == {t["id"] for t in flood}
        bob = new_player(client, "Bob")
        r = client.post(f"/api/invites/{flood[0]['invite']}", headers=bob)
        assert r.status_code == 404 and r.json()["detail"].startswith("No open table")
        assert client.post(f"/api/invites/{person['invite']}", headers=bob).status_code == 200


def test_a_waiting_table_is_closed_when_its_creator_is_gone_past_the_grace_period(
    tmp_path: Path,
) -> None:
    with people_app(tmp_path) as (client, clock, service, _changes):
        ann, bob = new_player(client, "Ann"), new_player(client, "Bob")
        made = client.post("/api/matches", json=PERSON, headers=ann).json()
        clock.t += service.grace - 1
        assert not service.expire_due(made["id"])
        clock.t += 1
        # Joining it now finds it closed (and closes it), as the creator's next look does.
        r = client.post(f"/api/invites/{made['invite']}", headers=bob)
        assert r.status_code == 404
        state = client.get(f"/api/matches/{made['id']}", headers=ann).json()
        assert state["status"] == "abandoned" and state["people"]["winner"] is None
        assert client.get("/api/stats", headers=ann).json()["rating"] is None


# The event streams' bounds -------------------------------------------------------------------


class _Clock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


def _streams(**limits: int) -> tuple[Streams, _Clock, list[str]]:
    clock, stopped = _Clock(), []
    streams = Streams(StreamLimits(**limits), clock=clock)
    return streams, clock, stopped


def _open(streams: Streams, stopped: list[str], player: int, address: str, name: str) -> Any:
    slot = streams.take(player, address)
    slot.attach(lambda: stopped.append(name))
    return slot


def test_a_players_stream_past_the_bound_replaces_their_oldest_once_it_is_old_enough() -> None:
    streams, clock, stopped = _streams(per_player=2, per_address=10, total=10)
    _open(streams, stopped, 1, "a", "first")
    clock.t += 1
    _open(streams, stopped, 1, "a", "second")
    with pytest.raises(HTTPException) as refused:  # two tabs do not take turns
        streams.take(1, "a")
    assert refused.value.status_code == 429 and stopped == []
    clock.t += REPLACE_AFTER
    _open(streams, stopped, 1, "b", "third")
    assert stopped == ["first"] and len(streams) == 2


def test_an_address_past_its_bound_is_refused_and_sheds_nothing() -> None:
    streams, _clock, stopped = _streams(per_player=5, per_address=2, total=10)
    _open(streams, stopped, 1, "a", "one")
    _open(streams, stopped, 2, "a", "two")
    with pytest.raises(HTTPException) as refused:
        streams.take(3, "a")
    assert refused.value.status_code == 429 and "address" in str(refused.value.detail)
    assert refused.value.headers == {"Retry-After": "5"}
    assert stopped == [] and len(streams) == 2
    _open(streams, stopped, 3, "b", "elsewhere")  # another address is not held up


def test_a_full_process_sheds_the_longest_idle_stream_for_a_fresh_one() -> None:
    streams, clock, stopped = _streams(per_player=5, per_address=5, total=3)
    quiet = _open(streams, stopped, 1, "a", "quiet")
    clock.t += 1
    busy = _open(streams, stopped, 2, "b", "busy")
    clock.t += 1
    _open(streams, stopped, 3, "c", "new")
    clock.t += 1
    streams.sent(quiet)  # an event went out on the oldest: it is not the idle one
    _open(streams, stopped, 4, "d", "fresh")
    assert stopped == ["busy"] and len(streams) == 3
    # The shed stream's end gives nothing back twice; another close does.
    streams.give_back(busy)
    assert len(streams) == 3
    streams.give_back(quiet)
    assert len(streams) == 2


def test_memory_is_given_back_after_many_closes() -> None:
    calls: list[int] = []
    streams = Streams(StreamLimits(total=TRIM_AFTER + 1, per_address=TRIM_AFTER + 1),
                      on_many_closed=lambda: calls.append(1))
    slots = [streams.take(n, f"a{n}") for n in range(TRIM_AFTER)]
    for slot in slots[:-1]:
        streams.give_back(slot)
        streams.closed()
    assert calls == []
    streams.give_back(slots[-1])
    streams.closed()
    assert calls == [1]


# serve's options -----------------------------------------------------------------------------


def test_serve_reads_rate_limits_and_refuses_bad_ones() -> None:
    assert _rate_limits(("joins_address=off", "players_address = 20/minute;200/hour")) == {
        "joins_address": "off", "players_address": " 20/minute;200/hour"}
    for bad, said in (("nosuch=1/minute", "no rate limit 'nosuch'"),
                      ("players_address=often", "not a limit"), ("players_address", "KIND=")):
        with pytest.raises(click.BadParameter, match=said):
            _rate_limits((bad,))
    result = CliRunner().invoke(serve, ["--rate-limit", "players_address=often"])
    assert result.exit_code == 2 and "not a limit" in result.output
