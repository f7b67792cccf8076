"""Abuse of tables for two people against ``ginrummy serve --workers 2``, on SQLite and on
PostgreSQL (issue 37): a farm of create/join/resign cycles moves no rating and repeated rated
matches between one pair stop counting (item 3); simultaneous rematch presses, one to each
worker, make one rematch that both people see, and two client seeds at once are both kept
(item 9); a deceptive name is refused by both
workers (item 7).

Each person's requests are held to one worker (``Pinned`` of test_people_workers.py; the two
people of a table on different workers) and carry an ``X-Forwarded-For`` address of their own
(the server believes it from loopback), so the ratings record the address each seat came
from. Players are made in the database, not through ``POST /api/players`` (limited per
address). The exact edges of the ratings' bounds are tested in process (test_ratings.py)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, text

from ginrummy.cli.serve import serve
from ginrummy.server.store import Store
from ginrummy.server.store.limits import address_hash
from ginrummy.server.store.ratings import WHY_UNRATED

from .conftest import Server
from .helpers import choose
from .pg_databases import database_url
from .test_people_workers import Pinned

pytestmark = pytest.mark.skipif(not any(p.name == "workers" for p in serve.params),
                                reason="this ginrummy serve has no --workers")

#: The farm of issue 37: create, join, resign, this many times.
CYCLES = 30
#: Trials of two rematch presses at once.
TRIALS = 25
#: The farm and the races make a table every few requests, past the rate limits on new
#: matches and joins (tested in test_abuse_bounds_workers.py): off here, so that what is
#: tested is the ratings and the races.
NO_TABLE_LIMITS = tuple(a for kind in ("matches_player", "matches_address", "joins_player",
                                       "joins_address")
                        for a in ("--rate-limit", f"{kind}=off"))
#: Most moves of one hand before the test fails (a hand has at most 31 draws a seat).
MOVES = 200


@pytest.fixture(scope="module", params=[
    "sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def db_url(request: pytest.FixtureRequest,
           tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    yield from database_url(request, tmp_path_factory.mktemp("abuse-workers"))


@pytest.fixture(scope="module")
def server(db_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    log = tmp_path_factory.mktemp("abuse-server") / "server.log"
    s = Server(db_url, log, ("--workers", "2", *NO_TABLE_LIMITS)).start()
    try:
        yield s
    finally:
        s.stop()
    assert "Traceback" not in log.read_text(), log.read_text()


class Seat:
    """One person: their requests held to one worker, from their own client address."""

    def __init__(self, server: Server, name: str, address: str,
                 avoid: str | None = None) -> None:
        store = Store(server.db_url)
        try:
            info, token = store.create_player(name)
            self.id = info.id
        finally:
            store.close()
        self.token, self.address = token, address
        self.http = Pinned(server.url, token, avoid=avoid)
        self.worker = self.http.worker

    def send(self, method: str, path: str, body: dict[str, Any] | None = None
             ) -> httpx.Response:
        return self.http.request(method, path, json=body,
                                 headers={"X-Forwarded-For": self.address})

    def post(self, path: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
        r = self.send("POST", path, body)
        assert r.status_code in (200, 201), r.text
        return dict(r.json())

    def get(self, path: str) -> dict[str, Any]:
        r = self.send("GET", path)
        assert r.status_code == 200, r.text
        return dict(r.json())

    def close(self) -> None:
        self.http.close()


@pytest.fixture()
def pair(server: Server) -> Iterator[tuple[Seat, Seat]]:
    """Two people on different workers, from different addresses."""
    n = next(_numbers)
    first = Seat(server, "Mallory", f"10.0.{n}.1")
    second = Seat(server, "Stooge", f"10.0.{n}.2", avoid=first.worker)
    assert first.worker != second.worker
    yield first, second
    first.close()
    second.close()


_numbers = iter(range(1, 200))


def _table(seats: tuple[Seat, Seat]) -> str:
    """A table for two opened by the first person, joined by the second; its id."""
    made = seats[0].post("/api/matches", {"opponent": "person"})
    seats[1].post(f"/api/invites/{made['invite']}")
    return str(made["id"])


def _finish_a_hand(seats: tuple[Seat, Seat], mid: str) -> dict[str, Any]:
    """Both client seeds, then the helpers' chooser for whoever is to play, until the hand
    is over; the last state."""
    for n, seat in enumerate(seats):
        state = seat.post(f"/api/matches/{mid}/next-hand", {"client_seed": f"seed {n}"})
    holder = 1
    for _ in range(MOVES):
        hand = state["hand"]
        if state["status"] != "playing" or hand["result"] is not None:
            return state
        if not hand["your_turn"]:
            holder = 1 - holder
            state = seats[holder].get(f"/api/matches/{mid}")
            continue
        state = seats[holder].post(f"/api/matches/{mid}/moves",
                                   {"move": choose(state), "version": state["version"]})
    raise AssertionError(f"the hand did not end in {MOVES} moves")


def test_a_farm_of_cycles_moves_no_rating_and_one_pair_counts_twice_a_day(
    server: Server, pair: tuple[Seat, Seat]
) -> None:
    mallory, stooge = pair
    ends = []
    for _ in range(CYCLES):  # issue 37: 1500 -> 1916.5 in 0.6 s
        mid = _table(pair)
        ends.append(stooge.post(f"/api/matches/{mid}/resign")["people"])
    stats = mallory.get("/api/stats")
    assert stats["matches_won"] == CYCLES
    assert stats["rating"] is None and stats["rated_matches"] == []
    assert stooge.get("/api/stats")["rating"] is None
    assert all(e["rated"] is False and e["unrated"] == "no_hand" for e in ends), ends[0]
    assert ends[0]["unrated_why"] == "Not rated: no hand was finished."

    # With a hand finished a match counts, but one pair only twice a day, either way round.
    rated = []
    for n in range(3):
        seats = pair if n % 2 == 0 else (stooge, mallory)
        mid = _table(seats)
        state = _finish_a_hand(seats, mid)
        if state["status"] != "over":  # a hand can end the match; else the loser resigns
            state = seats[1].post(f"/api/matches/{mid}/resign")
        people = mallory.get(f"/api/matches/{mid}")["people"]
        rated.append((people["rated"], people["unrated"]))
        if n == 2:
            assert people["unrated_why"] == WHY_UNRATED["pair"]
    assert rated == [(True, None), (True, None), (False, "pair")]
    stats = mallory.get("/api/stats")
    assert stats["rating"]["matches"] == 2 and len(stats["rated_matches"]) == 2
    engine = create_engine(server.db_url)
    try:
        with engine.connect() as db:
            where = {str(row[0]): row[1] for row in db.execute(text(
                "SELECT player_id, address FROM rating_changes WHERE player_id IN (:a, :b)"),
                {"a": mallory.id, "b": stooge.id})}
    finally:
        engine.dispose()
    assert where == {str(mallory.id): address_hash(f"address:{mallory.address}"),
                     str(stooge.id): address_hash(f"address:{stooge.address}")}


def test_simultaneous_rematch_presses_on_two_workers_make_one_rematch(
    server: Server, pair: tuple[Seat, Seat]
) -> None:
    seats = pair
    mid = _table(seats)
    seats[1].post(f"/api/matches/{mid}/resign")
    engine = create_engine(server.db_url)
    failures: list[str] = []
    try:
        for trial in range(TRIALS):
            start = threading.Barrier(2)
            answers: dict[int, httpx.Response] = {}

            def press(seat: int, start: threading.Barrier = start, mid: str = mid,
                      answers: dict[int, httpx.Response] = answers) -> None:
                seats[seat].send("GET", "/api/health")  # the connection checked first
                start.wait()
                answers[seat] = seats[seat].send("POST", f"/api/matches/{mid}/rematch")

            threads = [threading.Thread(target=press, args=(s,)) for s in (0, 1)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            codes = [answers[s].status_code for s in (0, 1)]
            seen = [seats[s].get(f"/api/matches/{mid}")["people"]["rematch"] for s in (0, 1)]
            with engine.connect() as db:
                made = db.execute(text(
                    "SELECT count(*) FROM people_tables WHERE seat0 = :a OR seat1 = :a"),
                    {"a": seats[0].id}).scalar_one()
            if codes != [200, 200] or seen[0] is None or seen[0] != seen[1] \
                    or made != trial + 2:
                failures.append(f"trial {trial}: {codes} {answers[0].text[:60]!r} "
                                f"{answers[1].text[:60]!r}, rematch {seen}, {made} matches")
                # Pressed again one after the other, so the next trials go on from there.
                seen = [seats[s].post(f"/api/matches/{mid}/rematch")["people"]["rematch"]
                        for s in (0, 1)]
                assert seen[1] is not None, seen
            new = str(seen[1])
            for s in (0, 1):
                state = seats[s].get(f"/api/matches/{new}")
                assert state["status"] == "between_hands" and state["seat"] == s
            seats[trial % 2].post(f"/api/matches/{new}/resign")
            mid = new
    finally:
        engine.dispose()
    assert not failures, f"{len(failures)} of {TRIALS} trials failed, first: {failures[:3]}"


def test_two_seeds_sent_at_once_to_two_workers_are_both_kept(
    server: Server, pair: tuple[Seat, Seat]
) -> None:
    """Item 9: two client seeds sent at once, each on the version both pages read, gave one
    409 every time; both must be kept and the hand dealt once, from both."""
    failures: list[str] = []
    for trial in range(TRIALS):
        mid = _table(pair)
        version = pair[0].get(f"/api/matches/{mid}")["version"]
        start = threading.Barrier(2)
        answers: dict[int, httpx.Response] = {}

        def send(seat: int, start: threading.Barrier = start, mid: str = mid,
                 answers: dict[int, httpx.Response] = answers, trial: int = trial,
                 version: int = version) -> None:
            pair[seat].send("GET", "/api/health")  # the connection checked first
            start.wait()
            answers[seat] = pair[seat].send("POST", f"/api/matches/{mid}/next-hand", {
                "client_seed": f"seat {seat}, trial {trial}", "version": version})

        threads = [threading.Thread(target=send, args=(s,)) for s in (0, 1)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        codes = [answers[s].status_code for s in (0, 1)]
        dealt = pair[0].get(f"/api/matches/{mid}")
        seeds = (dealt["meta"]["sealed"]["hand"] or {}).get("client_seeds") \
            if dealt["hand"] else None
        if codes != [200, 200] or seeds != [f"seat {s}, trial {trial}" for s in (0, 1)]:
            failures.append(f"trial {trial}: {codes} {answers[0].text[:60]!r} "
                            f"{answers[1].text[:60]!r}, seeds {seeds}")
        pair[trial % 2].post(f"/api/matches/{mid}/resign")
    assert not failures, f"{len(failures)} of {TRIALS} trials failed, first: {failures[:3]}"


def test_a_deceptive_name_is_refused_by_both_workers(server: Server) -> None:
    workers: set[str] = set()
    for _ in range(2):
        held = Pinned(server.url, None, avoid=next(iter(workers), None))
        try:
            r = held.request("POST", "/api/players", json={"name": "Ann\u202eBob"})
            workers.add(held.worker)
        finally:
            held.close()
        assert r.status_code == 422 and "bidirectional" in r.json()["detail"], r.text
    assert len(workers) == 2
