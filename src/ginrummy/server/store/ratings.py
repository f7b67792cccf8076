"""Ratings of people matches (Glicko-2), kept by :class:`~ginrummy.server.store.Store`, and the
policy that says which finished matches count (issue 37: ratings could be farmed, 30
create/join/resign cycles in 0.6 s took an account from 1500 to 1916.5).

A finished match between two people is rated once, in the transaction that ends it, unless
(the first that applies; its key is kept in ``people_tables.unrated`` and its sentence,
:data:`WHY_UNRATED`, is shown to both people):

* ``no_hand``: no hand of it was finished (resigned, out of time or left during the first);
* ``pair``: the two accounts had :data:`PAIR_RATED` rated matches together in the
  :data:`WINDOW_SECONDS` before it (either seat order): a rematch counts, a farm of
  matches against one stooge does not;
* ``account``: either account had :data:`ACCOUNT_RATED` rated results in the window;
* ``address``: a seat was taken from a client address (its hash) that had
  :data:`ADDRESS_RATED` rated results in the window, counting this match's (two when both
  seats came from it): many accounts behind one address farm no further.

The window moves with the match's end (seconds since the epoch on the service's clock, so
tests move time instead of waiting). The counts are of ``rating_changes`` rows, one per
person per rated match, each with the address that person sat from. The counting and the
rating happen under one turn for all ratings (on PostgreSQL a transaction-scoped advisory
lock; on SQLite the store's writer lock, one writer at a time), so two workers ending matches
at once cannot both take the last place of a bound, nor lose one of two updates of a rating.
Rated matches end a few times an hour per person; one turn for all costs nothing that shows.
A transaction takes the turn after any player row it locks (a rematch, which ends both
players' other matches, locks both rows first), so two transactions never wait on each other.
"""

from __future__ import annotations

import datetime as dt

from sqlalchemy import func, select, text
from sqlalchemy.orm import Session
from sqlalchemy.sql.elements import ColumnElement

from .models import NEW_RATING, _Match, _PeopleTable, _Rating, _RatingChange

__all__ = [
    "WINDOW_SECONDS", "PAIR_RATED", "ACCOUNT_RATED", "ADDRESS_RATED", "WHY_UNRATED", "rate",
]

#: The moving window the bounds count in: a day.
WINDOW_SECONDS = 24 * 3600

#: Most rated matches between the same two accounts in the window (a match and its rematch).
PAIR_RATED = 2

#: Most rated results of one account in the window: a match lasts 10 to 30 minutes, so 20 is
#: a long day's play for a person, and a farm's ceiling.
ACCOUNT_RATED = 20

#: Most rated results from one client address in the window (each seat taken from it counts):
#: a household or a small office playing the whole day, while a farm of accounts behind one
#: address stops at 15 matches between its own seats. Carrier-grade NAT puts many people
#: behind one address: an operator who serves such a network may raise it here.
ADDRESS_RATED = 30

#: Why a finished match was not rated, by key, as both people are told.
WHY_UNRATED = {
    "no_hand": "Not rated: no hand was finished.",
    "pair": f"Not rated: you two had {PAIR_RATED} rated matches together in the last 24 hours "
            "already.",
    "account": f"Not rated: one of you had {ACCOUNT_RATED} rated matches in the last 24 hours "
               "already.",
    "address": f"Not rated: {ADDRESS_RATED} rated results came from one of your network "
               "addresses in the last 24 hours already.",
}

#: The advisory lock that gives ratings their turn on PostgreSQL (an arbitrary constant:
#: "rating" in ASCII).
RATINGS_TURN = int.from_bytes(b"rating", "big")


def _stamp(at: float) -> dt.datetime:
    """Seconds since the epoch as the naive UTC time the store keeps."""
    return dt.datetime.fromtimestamp(at, dt.UTC).replace(tzinfo=None)


def _count(s: Session, *where: ColumnElement[bool]) -> int:
    return int(s.scalar(select(func.count()).select_from(_RatingChange).where(*where)) or 0)


def why_unrated(s: Session, match: _Match, people: _PeopleTable, at: float) -> str | None:
    """The key of the first rule that keeps the finished ``match`` from being rated (see the
    module), or ``None``: rate it. Takes the ratings' turn when it has to count."""
    if match.hands_played < 1:
        return "no_hand"
    if s.get_bind().dialect.name == "postgresql":
        s.execute(text("SELECT pg_advisory_xact_lock(:turn)"), {"turn": RATINGS_TURN})
    recent = _RatingChange.at > _stamp(at - WINDOW_SECONDS)
    a, b = people.seat0, people.seat1
    if _count(s, recent, _RatingChange.player_id == a, _RatingChange.opponent_id == b) \
            >= PAIR_RATED:
        return "pair"
    for player in (a, b):
        if _count(s, recent, _RatingChange.player_id == player) >= ACCOUNT_RATED:
            return "account"
    seats = [people.address0, people.address1]
    for address in {x for x in seats if x is not None}:
        if _count(s, recent, _RatingChange.address == address) + seats.count(address) \
                > ADDRESS_RATED:
            return "address"
    return None


def _rating_of(s: Session, player_id: int) -> _Rating:
    row = s.get(_Rating, player_id)
    if row is None:
        r, rd, vol = NEW_RATING
        row = _Rating(player_id=player_id, rating=r, rd=rd, vol=vol, matches=0)
        s.add(row)
        s.flush()
    return row


def rate(s: Session, match: _Match, people: _PeopleTable, at: float) -> None:
    """Within the transaction ``s`` that ends the people ``match`` at ``at`` (seconds since the
    epoch): update both players' Glicko-2 ratings, or record why it is not rated (once)."""
    import glicko2  # type: ignore[import-untyped]

    done = people.rated or people.unrated is not None
    if done or people.seat1 is None or match.status != "over":
        return
    why = why_unrated(s, match, people, at)
    if why is not None:
        people.unrated = why
        return
    ids = (people.seat0, people.seat1)
    addresses = (people.address0, people.address1)
    rows = [_rating_of(s, ids[0]), _rating_of(s, ids[1])]
    scores = (0.5, 0.5) if match.winner is None else (
        (1.0, 0.0) if match.winner == 0 else (0.0, 1.0))
    before = [(r.rating, r.rd, r.vol) for r in rows]
    stamp = _stamp(at)
    for seat in (0, 1):
        p = glicko2.Player(*before[seat])
        other = before[1 - seat]
        p.update_player([other[0]], [other[1]], [scores[seat]])
        row = rows[seat]
        row.rating, row.rd, row.vol = float(p.rating), float(p.rd), float(p.vol)
        row.matches += 1
        s.add(_RatingChange(match_id=match.id, player_id=ids[seat], opponent_id=ids[1 - seat],
                            score=scores[seat], before=before[seat][0], after=row.rating,
                            at=stamp, address=addresses[seat]))
    people.rated = True

