"""The store's tables (SQLAlchemy models on one declarative base) and the plain records it
answers with. The tables of the store's other parts are declared beside their code on the same
base: transfer codes (:mod:`.tokens`), rate-limit hits (:mod:`.limits`); the coach's notes and
the live streams' presence are declared here for their modules in ``server/``. Migrations
(:mod:`.migrations`) check the schema at head against :data:`_Base.metadata`, so they import
this module and those two, never the store's code.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import TYPE_CHECKING, NotRequired, Protocol, TypedDict

from sqlalchemy import Boolean, DateTime, Float, ForeignKey, Index, Integer, String, Text, text
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

from ...words.names import NAME_LENGTH
from ..fields import same_fields
from .keys import SecretBox

if TYPE_CHECKING:
    from ...engine.settle import HandResult


#: What the store package re-exports (``from .models import *``): the plain records the store
#: answers with, its errors and the constants its callers use. The tables stay private.
__all__ = [
    "COUNTED",
    "FORFEIT_WINNER",
    "NEW_RATING",
    "NO_OPEN_TABLE",
    "PERSON",
    "PLAYING",
    "ConflictError",
    "HandSummary",
    "InviteError",
    "LobbyEntry",
    "MatchInfo",
    "MatchSave",
    "PeopleInfo",
    "PlayerInfo",
    "PlayerStats",
    "RatedMatch",
    "Rating",
    "RecentMatch",
    "SavedMatch",
    "SeatedMatch",
    "UnfinishedMatchError",
    "hash_token",
]


class Database(Protocol):
    """What the store's parts (:mod:`.tokens`, :mod:`.limits`) use of a
    :class:`~ginrummy.server.store.Store`: its engines, its clock and its transactions. (The
    store imports them, so they name only this.)"""

    engine: Engine
    reader: Engine

    def clock(self) -> dt.datetime: ...

    def _tx(self) -> AbstractContextManager[Session]: ...


class ConflictError(Exception):
    """A save found the match changed since it was read (another tab or request won)."""


class UnfinishedMatchError(ConflictError):
    """A new unfinished match for a player who has one already, without abandoning it."""

#: Where a match counts as unfinished: at most one such match per player (a unique index).
PLAYING = "status = 'playing'"

#: The statuses of the matches that count in the history and the statistics: finished ones and
#: abandoned ones (forfeits: a player cannot drop a losing match to keep a clean record).
COUNTED = ("over", "abandoned")

#: The winner of a forfeit: the computer's seat (the person is seat 0).
FORFEIT_WINNER = 1


def hash_token(token: str) -> str:
    """The stored form of a player token or transfer code (tokens are 256 random bits: a plain
    hash suffices; codes are short, but good once and for minutes)."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def _now() -> dt.datetime:
    return dt.datetime.now(dt.UTC).replace(tzinfo=None)


class _Base(DeclarativeBase):
    pass


class _Player(_Base):
    __tablename__ = "players"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(NAME_LENGTH))
    created_at: Mapped[dt.datetime] = mapped_column(DateTime)


class _Match(_Base):
    __tablename__ = "matches"
    __table_args__ = (
        # At most one unfinished match per player, whatever the processes do (revision 0002).
        Index("uq_matches_one_playing", "player_id", unique=True,
              sqlite_where=text(PLAYING), postgresql_where=text(PLAYING)),
    )

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    level: Mapped[str] = mapped_column(String(20))
    profile: Mapped[str] = mapped_column(String(20))
    rules: Mapped[str] = mapped_column(String(400))
    hollywood: Mapped[bool] = mapped_column(Boolean)
    status: Mapped[str] = mapped_column(String(12), index=True)
    version: Mapped[int] = mapped_column(Integer)
    deal_seed: Mapped[str] = mapped_column(Text)  # encrypted (revision 0003)
    hands_played: Mapped[int] = mapped_column(Integer)
    score_0: Mapped[int] = mapped_column(Integer)
    score_1: Mapped[int] = mapped_column(Integer)
    winner: Mapped[int | None] = mapped_column(Integer, nullable=True)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime)
    updated_at: Mapped[dt.datetime] = mapped_column(DateTime, index=True)
    record: Mapped[str] = mapped_column(Text, deferred=True)


class _Seal(_Base):
    """A match's sealed-deal private state (JSON of ``DealSealer.private_state()``): it holds
    the server seeds of hands not over yet, so it is never sent to a player."""

    __tablename__ = "match_seals"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    state: Mapped[str] = mapped_column(Text)


class _HandRow(_Base):
    __tablename__ = "hands"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    kind: Mapped[str] = mapped_column(String(12))
    winner_seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    knocker_seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    knocker_deadwood: Mapped[int] = mapped_column(Integer)
    defender_deadwood: Mapped[int] = mapped_column(Integer)
    points: Mapped[int] = mapped_column(Integer)


@dataclass(frozen=True)
class PlayerInfo:
    id: int
    name: str


@dataclass(frozen=True)
class MatchInfo:
    """A match's listing columns (the record is read separately: it can be long)."""

    id: str
    player_id: int
    level: str
    profile: str
    rules: str
    hollywood: bool
    status: str
    version: int
    deal_seed: str
    hands_played: int
    scores: tuple[int, int]
    winner: int | None
    created_at: dt.datetime
    updated_at: dt.datetime

    @property
    def ended(self) -> bool:
        """No longer being played: over (played out, resigned, forfeited), abandoned or
        cancelled."""
        return self.status != "playing"


@dataclass(frozen=True)
class HandSummary:
    """One finished hand, for statistics. Seats as in the match (the person is seat 0)."""

    number: int
    kind: str
    winner_seat: int | None
    knocker_seat: int | None
    knocker_deadwood: int
    defender_deadwood: int
    points: int

    @classmethod
    def of(cls, number: int, result: HandResult) -> HandSummary:
        """The summary of hand ``number`` (1-based) from its result."""
        return cls(number=number, **same_fields(result, _RESULT_FIELDS))


class MatchSave(TypedDict):
    """A match's new state, as :meth:`~ginrummy.server.store.Store.save_match` writes it:
    ``expected_version`` is the version it was read at; ``new_hands`` the hands finished since
    (none by default); ``seals`` the sealed-deal private state (``None``: left as it is)."""

    expected_version: int
    record: str
    status: str
    hands_played: int
    scores: tuple[int, int]
    winner: int | None
    new_hands: NotRequired[Sequence[HandSummary]]
    seals: NotRequired[str | None]


#: The fields a hand's summary copies from its :class:`~ginrummy.engine.settle.HandResult`.
_RESULT_FIELDS = "kind winner_seat knocker_seat knocker_deadwood defender_deadwood points"


@dataclass(frozen=True)
class RecentMatch:
    """The final totals of one finished match (seat 0 is the person)."""

    id: str
    you: int
    computer: int


@dataclass(frozen=True)
class PlayerStats:
    """One player's figures over their finished and forfeited matches (seat 0 is the person;
    a forfeit is a lost match, counted in ``matches_lost`` too); also the answer of
    ``GET /api/stats`` as it is. ``recent``: final totals, oldest first."""

    matches: int
    matches_won: int
    matches_lost: int
    forfeits: int
    hands: int
    hands_won: int
    gins: int
    undercuts_made: int
    undercuts_suffered: int
    knocks: int
    average_knock_deadwood: float | None
    recent: tuple[RecentMatch, ...]


def _info(row: _Match, box: SecretBox) -> MatchInfo:
    return MatchInfo(
        **same_fields(row, _INFO_FIELDS),
        deal_seed=box.open(row.deal_seed),
        scores=(row.score_0, row.score_1),
    )


#: The listing columns a :class:`MatchInfo` copies from its row as they are.
_INFO_FIELDS = (
    "id player_id level profile rules hollywood status version hands_played winner "
    "created_at updated_at"
)


# ===========================================================================================
# People tables (issue 13): two people at one match. Kept apart from the rest of the store:
# new tables and new methods only. A people match is an ordinary row of ``matches`` (its
# ``player_id`` is the creator, who sits in seat 0; its level is ``"person"``) plus one row of
# ``people_tables`` (the second seat, the invite, the clock, presence, the client seeds sent
# for the next deal, how it ended). Ratings (Glicko-2) come from people matches only.

#: The level of a match between two people.
PERSON = "person"

#: A new player's Glicko-2 rating, deviation and volatility.
NEW_RATING = (1500.0, 350.0, 0.06)


class _PeopleTable(_Base):
    """The people side of a match between two people. ``seeds`` (JSON, seat -> client seed)
    holds the seeds sent for the next deal: secret until both are in, never sent to the other
    person. Times are seconds since the epoch, from the service's clock."""

    __tablename__ = "people_tables"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    seat0: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    seat1: Mapped[int | None] = mapped_column(ForeignKey("players.id"), index=True, nullable=True)
    invite: Mapped[str] = mapped_column(String(32), unique=True)
    code: Mapped[str] = mapped_column(String(16), unique=True)
    open: Mapped[bool] = mapped_column(Boolean, index=True)
    clock: Mapped[int | None] = mapped_column(Integer, nullable=True)
    clock_started: Mapped[float] = mapped_column(Float)
    seen0: Mapped[float] = mapped_column(Float)
    seen1: Mapped[float] = mapped_column(Float)
    seeds: Mapped[str] = mapped_column(Text, default="{}")
    ended: Mapped[str | None] = mapped_column(String(16), nullable=True)
    ended_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    rematch_offer: Mapped[int | None] = mapped_column(Integer, nullable=True)
    rematch_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    rated: Mapped[bool] = mapped_column(Boolean, default=False)
    #: The hash of the client address each seat was taken from (revision 0009).
    address0: Mapped[str | None] = mapped_column(String(64), index=True, nullable=True)
    address1: Mapped[str | None] = mapped_column(String(64), nullable=True)
    #: Why the finished match was not rated (``None``: rated, or not over yet).
    unrated: Mapped[str | None] = mapped_column(String(16), nullable=True)


class _Rating(_Base):
    __tablename__ = "ratings"

    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), primary_key=True)
    rating: Mapped[float] = mapped_column(Float)
    rd: Mapped[float] = mapped_column(Float)
    vol: Mapped[float] = mapped_column(Float)
    matches: Mapped[int] = mapped_column(Integer)


class _RatingChange(_Base):
    """One rated match of one player: the rating before and after it."""

    __tablename__ = "rating_changes"
    __table_args__ = (
        # A player's rated matches, newest first, and the ratings' bounds per account
        # (store_ratings: revision 0009).
        Index("ix_rating_changes_player_at", "player_id", "at"),
    )

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), primary_key=True)
    opponent_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    score: Mapped[float] = mapped_column(Float)
    before: Mapped[float] = mapped_column(Float)
    after: Mapped[float] = mapped_column(Float)
    at: Mapped[dt.datetime] = mapped_column(DateTime, index=True)
    #: The hash of the client address the player sat from (revision 0009).
    address: Mapped[str | None] = mapped_column(String(64), index=True, nullable=True)


@dataclass(frozen=True)
class PeopleInfo:
    """A people table's row, as the service uses it (``seeds``: seat -> client seed)."""

    match_id: str
    seats: tuple[int, int | None]
    names: tuple[str, str | None]
    invite: str
    code: str
    open: bool
    clock: int | None
    clock_started: float
    seen: tuple[float, float]
    seeds: dict[int, str]
    ended: str | None
    ended_at: float | None
    rematch_offer: int | None
    rematch_id: str | None
    #: The hashed client address each seat was taken from (``None`` where not known).
    addresses: tuple[str | None, str | None] = (None, None)
    #: Why the finished match was not rated (``None``: rated, or not over yet).
    unrated: str | None = None
    #: The finished match was rated (:mod:`ginrummy.server.store.ratings`).
    rated: bool = False


@dataclass(frozen=True)
class SavedMatch:
    """A match's saved state at ``version``: its record and its sealed-deal private state
    (``None`` for a match dealt without sealed deals)."""

    version: int
    record: str
    seals: str | None


@dataclass(frozen=True)
class SeatedMatch:
    """A match as one seated player reaches it (:meth:`Store.read_seated`)."""

    info: MatchInfo
    seat: int
    people: PeopleInfo | None
    saved: SavedMatch | None


@dataclass(frozen=True)
class LobbyEntry:
    invite: str
    code: str
    creator: str
    profile: str
    rules: str
    hollywood: bool
    clock: int | None
    created_at: dt.datetime


@dataclass(frozen=True)
class Rating:
    rating: float
    rd: float
    matches: int


@dataclass(frozen=True)
class RatedMatch:
    match_id: str
    opponent: str
    score: float
    before: float
    after: float


class InviteError(Exception):
    """An invite that cannot be used: ``status`` 404 (unknown, used by others, closed: one
    answer, :data:`NO_OPEN_TABLE`) or 409 (your own table, still waiting). ``changed``: the
    (id, version) of a match the attempt changed all the same (a waiting table found
    abandoned by its creator, closed on the way)."""

    def __init__(self, status: int, message: str,
                 changed: Sequence[tuple[str, int]] = ()) -> None:
        super().__init__(message)
        self.status = status
        self.changed = list(changed)


#: The one answer to an invite or short code that seats nobody: unknown, both seats taken, or
#: the table closed. Telling these apart would tell someone guessing codes which ones exist.
NO_OPEN_TABLE = ("No open table has this invite or code: it may be mistyped, taken by someone "
                 "else already, or closed. Check it, or ask for a new one.")


# The tables of server/coach_store.py and server/live.py.


class _Note(_Base):
    __tablename__ = "coach_notes"

    match_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    hand: Mapped[int] = mapped_column(Integer, primary_key=True)
    idx: Mapped[int] = mapped_column(Integer, primary_key=True)
    turn: Mapped[int] = mapped_column(Integer)
    data: Mapped[str] = mapped_column(Text)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime)


class _Presence(_Base):
    __tablename__ = "live_presence"

    match_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    streams: Mapped[int] = mapped_column(Integer)
    last_seen: Mapped[dt.datetime] = mapped_column(DateTime)
