"""The ratings' policy (issue 37, item 3; ``ginrummy.server.store.ratings``) at its exact edges, in
process on SQLite and on PostgreSQL: a match with no finished hand is unrated; one pair of
accounts counts :data:`PAIR_RATED` rated matches a day, either seat order; an account
:data:`ACCOUNT_RATED` results and a client address :data:`ADDRESS_RATED`; each bound lets go
as its day moves on. Through the API, both people are told whether the match was rated and,
if not, why. (A farm against ``serve --workers 2``: test_abuse_workers.py.)

The store's edges use matches written straight into the store (a finished hand is its count
in ``hands_played``, which is all the policy reads) ended at chosen times, so each bound is
reached in a second."""

from __future__ import annotations

import itertools
import secrets
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ginrummy.server.store import PERSON, Store
from ginrummy.server.store.ratings import (
    ACCOUNT_RATED,
    ADDRESS_RATED,
    PAIR_RATED,
    WHY_UNRATED,
    WINDOW_SECONDS,
)

from .helpers import People, people_app
from .pg_databases import database_url

T0 = 1_800_000_000.0

_serial = itertools.count()


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    for url in database_url(request, tmp_path):
        s = Store(url)
        try:
            yield s
        finally:
            s.close()


class Table:
    """People matches written into the store and ended at a chosen time."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def player(self) -> int:
        return self.store.create_player(f"P{next(_serial)}")[0].id

    def end(self, a: int, b: int, at: float, *, hands: int = 1, winner: int = 0,
            addresses: tuple[str | None, str | None] = (None, None)) -> tuple[bool, str | None]:
        """A match of ``a`` (seat 0) and ``b`` with ``hands`` finished hands, resigned at
        ``at``: (rated, why not)."""
        match_id, version = self.ready(a, b, at, hands=hands, addresses=addresses)
        return self.resign(match_id, version, at, winner=winner)

    def ready(self, a: int, b: int, at: float, *, hands: int = 1,
              addresses: tuple[str | None, str | None] = (None, None)) -> tuple[str, int]:
        """A match of ``a`` (seat 0) and ``b`` with ``hands`` finished hands: its id and
        version."""
        info, _ended = self.store.create_people_match(
            player_id=a, seat1=b, invite=secrets.token_urlsafe(12), code=secrets.token_hex(4),
            open=False, clock=None, now=at, addresses=addresses, level=PERSON,
            profile="modern", rules="modern", hollywood=False, deal_seed="s" * 32,
            status="playing", record="(not read)")
        version = info.version
        if hands:
            version, _people = self.store.save_people_match(
                info.id, expected_version=version, record="(not read)", status="playing",
                hands_played=hands, scores=(25, 0), winner=None, at=at)
        return info.id, version

    def resign(self, match_id: str, version: int, at: float, *, winner: int = 0
               ) -> tuple[bool, str | None]:
        """End the match at ``at`` (resigned): (rated, why not)."""
        self.store.end_match_early(match_id, expected_version=version, winner=winner,
                                   reason="resigned", at=at)
        people = self.store.people_of(match_id)
        assert people is not None
        return people.rated, people.unrated


def _changes(store: Store, player: int) -> int:
    rating, rated = store.rating(player)
    assert (rating.matches if rating else 0) == len(rated)
    return len(rated)


def test_no_finished_hand_is_not_rated(store: Store) -> None:
    t = Table(store)
    a, b = t.player(), t.player()
    assert t.end(a, b, T0, hands=0) == (False, "no_hand")
    assert store.rating(a) == (None, []) and store.rating(b) == (None, [])
    assert t.end(a, b, T0 + 1) == (True, None)
    rating, rated = store.rating(a)
    assert rating is not None and rating.rating > 1500 and rated[0].opponent.startswith("P")


def test_one_pair_counts_twice_a_day_either_way_round(store: Store) -> None:
    t = Table(store)
    a, b, c = t.player(), t.player(), t.player()
    assert t.end(a, b, T0) == (True, None)
    assert t.end(b, a, T0 + 10) == (True, None)  # the other seat order: the same pair
    assert PAIR_RATED == 2
    assert t.end(a, b, T0 + 20) == (False, "pair")
    assert t.end(b, a, T0 + 30, winner=1) == (False, "pair")
    assert t.end(a, c, T0 + 40) == (True, None)  # another pair is not held back
    # A day after the first, it has left the window: one more counts, then not again.
    assert t.end(a, b, T0 + WINDOW_SECONDS - 1) == (False, "pair")
    assert t.end(a, b, T0 + WINDOW_SECONDS) == (True, None)
    assert t.end(b, a, T0 + WINDOW_SECONDS + 1) == (False, "pair")
    assert _changes(store, a) == 4 and _changes(store, b) == 3


def test_an_account_has_its_rated_results_bounded_a_day(store: Store) -> None:
    t = Table(store)
    farmer = t.player()
    for n in range(ACCOUNT_RATED):  # against new accounts from addresses of their own
        assert t.end(farmer, t.player(), T0 + n, addresses=(None, f"stooge {n}")) == (
            True, None)
    assert t.end(farmer, t.player(), T0 + 100) == (False, "account")
    other = t.player()  # the bound of either seat holds the match back
    assert t.end(other, farmer, T0 + 101) == (False, "account")
    assert _changes(store, other) == 0
    assert t.end(farmer, t.player(), T0 + WINDOW_SECONDS + 1) == (True, None)
    assert _changes(store, farmer) == ACCOUNT_RATED + 1


def test_an_address_has_its_rated_results_bounded_a_day(store: Store) -> None:
    t = Table(store)
    home, far = f"home {secrets.token_hex(4)}", f"far {secrets.token_hex(4)}"
    # Both seats from one address: two results a match.
    for _ in range(ADDRESS_RATED // 2):
        assert t.end(t.player(), t.player(), T0, addresses=(home, home)) == (True, None)
    for at, seats in ((T0 + 1, (home, far)), (T0 + WINDOW_SECONDS - 1, (far, home))):
        assert t.end(t.player(), t.player(), at, addresses=seats) == (False, "address")
    assert t.end(t.player(), t.player(), T0 + 2, addresses=(far, far)) == (True, None)
    assert t.end(t.player(), t.player(), T0 + WINDOW_SECONDS, addresses=(home, home)) == (
        True, None)  # a day on, the first results have left the window
    # One short of the bound: a match with one seat from it counts, one with both does not.
    lone = f"lone {secrets.token_hex(4)}"
    for _ in range(ADDRESS_RATED - 1):
        assert t.end(t.player(), t.player(), T0, addresses=(lone, None)) == (True, None)
    assert t.end(t.player(), t.player(), T0 + 1, addresses=(lone, lone)) == (False, "address")
    assert t.end(t.player(), t.player(), T0 + 2, addresses=(None, lone)) == (True, None)
    assert t.end(t.player(), t.player(), T0 + 3, addresses=(lone, None)) == (False, "address")


def test_two_matches_ending_at_once_cannot_both_take_the_last_place(store: Store) -> None:
    """Two matches from one address ending at the same moment (in two threads, two
    connections), one place left under the address's bound: one is rated, the other not.
    Without the ratings' turn both counted 29 and both were rated in 13 of 15 such trials on
    PostgreSQL (SQLite lets one writer in at a time anyway)."""
    t = Table(store)
    for _trial in range(5):
        address = f"race {secrets.token_hex(4)}"
        for _ in range(ADDRESS_RATED // 2 - 1):  # two results each: one place left after
            t.end(t.player(), t.player(), T0, addresses=(address, address))
        t.end(t.player(), t.player(), T0, addresses=(address, None))
        ready = [t.ready(t.player(), t.player(), T0, addresses=(address, None))
                 for _ in range(2)]
        start = threading.Barrier(2)
        ended: list[tuple[bool, str | None]] = []

        def end(match: tuple[str, int], start: threading.Barrier = start,
                ended: list[tuple[bool, str | None]] = ended) -> None:
            start.wait()
            ended.append(t.resign(*match, T0 + 1))

        threads = [threading.Thread(target=end, args=(m,)) for m in ready]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sorted(ended) == [(False, "address"), (True, None)]


def test_both_people_are_told_whether_it_was_rated(tmp_path: Any) -> None:
    with people_app(tmp_path) as (client, clock, _service, _changes):
        t = People.start(client)
        t.deal({0: "a", 1: "b"})
        for seat in (0, 1):
            people = t.state(seat)["people"]
            assert people["rated"] is None and people["unrated"] is None
        out = t.post(1, "resign", None).json()["people"]
        assert (out["rated"], out["unrated"]) == (False, "no_hand")
        assert out["unrated_why"] == "Not rated: no hand was finished."
        assert t.state(0)["people"]["unrated_why"] == WHY_UNRATED["no_hand"]

        for n in range(PAIR_RATED + 1):  # a hand finished each time; the third is one too many
            clock.t += 60
            r = t.post(n % 2, "rematch", None)
            assert r.status_code == 200, r.text
            again = t.post(1 - n % 2, "rematch", None).json()["people"]["rematch"]
            t = People(client, again, t.auth)
            t.deal({0: f"c{n}", 1: f"d{n}"})
            t.finish_hand()
            if t.state(0)["status"] != "over":
                assert t.post(1, "resign", None).status_code == 200
            for seat in (0, 1):
                people = t.state(seat)["people"]
                if n < PAIR_RATED:
                    assert (people["rated"], people["unrated"], people["unrated_why"]) == (
                        True, None, None)
                else:
                    assert (people["rated"], people["unrated"]) == (False, "pair")
                    assert people["unrated_why"] == (
                        f"Not rated: you two had {PAIR_RATED} rated matches together in the "
                        "last 24 hours already.")
        stats = [client.get("/api/stats", headers=t.auth[s]).json() for s in (0, 1)]
        assert [len(s["rated_matches"]) for s in stats] == [PAIR_RATED, PAIR_RATED]
        assert stats[1]["rated_matches"][0]["opponent"] == "Ann"
