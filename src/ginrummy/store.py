"""Saved games: players, matches and finished hands in a SQL database (SQLAlchemy).

A SQLite file in the user's data directory by default; any SQLAlchemy URL by option
(``postgresql+psycopg://...`` is tested). The store knows nothing of HTTP and little of the
game: a match is kept as its record text (:func:`ginrummy.record.dumps`, which replays move by
move) plus a few columns for listing and statistics, and one row per finished hand.

Players are known by random tokens that only they hold, one for each browser, with a lifetime
renewed on use, plus one-time transfer codes that carry an account to another browser
(:mod:`ginrummy.store_tokens`); the store keeps only their SHA-256 hashes, so a copy of the
database does not let anyone act as a player. Every change to a match is one
transaction guarded by the match's ``version`` (optimistic concurrency): a save that does not
find the version it expects changes nothing and raises :class:`ConflictError`.

A match dealt from sealed deals also has a row in ``match_seals``: the private state of its
:class:`~ginrummy.sealer.DealSealer` (the server seeds, unrevealed ones included), saved in the
same transaction as the record. Matches written before sealed deals have no row (unsealed).

The live secrets (a match's record, which lists the decks of its hands, its deal seed, and its
sealed-deal private state) are stored encrypted with the server's key
(:mod:`ginrummy.store_keys`); a copy of the database shows no hand in play.

The schema is managed by Alembic migrations (:mod:`ginrummy.migrations`): ``Store(url)`` brings
the database to the newest revision first; ``Store(url, migrate=False)`` (a web worker, which
must not race other workers on the schema) refuses a database that is not there yet.

>>> store = Store("sqlite://")
>>> player, token = store.create_player("Ann")
>>> store.player_by_token(token) == player, store.player_by_token("forged") is None
(True, True)
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import hashlib
import os
import secrets
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlalchemy import (
    Boolean,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    create_engine,
    event,
    func,
    select,
    text,
    update,
)
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, sessionmaker
from sqlalchemy.pool import StaticPool

from .fields import same_fields
from .store_keys import PREFIX as _SEALED
from .store_keys import SecretBox, SecretKeyError, load_keys

if TYPE_CHECKING:
    from .settle import HandResult

__all__ = [
    "ConflictError",
    "UnfinishedMatchError",
    "HandSummary",
    "RecentMatch",
    "MatchInfo",
    "PlayerInfo",
    "PlayerStats",
    "SecretKeyError",
    "Store",
    "default_url",
    "hash_token",
]

#: Longest player name kept.
NAME_LENGTH = 40



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


def default_url() -> str:
    """The SQLite file in the user's data directory (created on first use)."""
    from platformdirs import user_data_dir

    folder = user_data_dir("ginrummy", appauthor=False)
    os.makedirs(folder, exist_ok=True)
    return "sqlite:///" + os.path.join(folder, "ginrummy.sqlite3")


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


#: The fields a hand's summary copies from its :class:`~ginrummy.settle.HandResult`.
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


class Store:
    """The repository of saved games over one SQLAlchemy engine."""

    def __init__(
        self,
        url: str | None = None,
        *,
        echo: bool = False,
        migrate: bool = True,
        key_file: str | os.PathLike[str] | None = None,
        keys: SecretBox | None = None,
        clock: Callable[[], dt.datetime] | None = None,
    ) -> None:
        """Open the database at ``url`` (default: :func:`default_url`). ``migrate``: bring its
        schema to the newest revision first; else raise
        :class:`~ginrummy.migrations.SchemaError` unless it is already there. The secrets'
        keys are ``keys``, or found by :func:`~ginrummy.store_keys.load_keys` (``key_file``);
        keys that do not open the stored secrets raise :class:`SecretKeyError` here.
        ``clock``: the time of day for tokens and transfer codes (naive UTC; tests pass one)."""
        from . import migrations

        self.clock = clock or _now
        self.url = url or default_url()
        self.secrets = keys or load_keys(self.url, key_file)
        self.engine = _make_engine(self.url, echo=echo)
        try:
            if migrate:
                migrations.upgrade(self.engine)
            else:
                migrations.check(self.engine)
        except BaseException:
            self.engine.dispose()
            raise
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)
        try:
            self.check_keys()
        except BaseException:
            self.engine.dispose()
            raise

    @contextmanager
    def _tx(self) -> Iterator[Session]:
        with self._sessions() as session, session.begin():
            yield session

    def close(self) -> None:
        self.engine.dispose()

    def check_keys(self) -> None:
        """Raise :class:`SecretKeyError` unless the keys open the newest encrypted secret
        (so a server given the wrong key stops at start, with the reason)."""
        with self._tx() as s:
            sample = s.scalars(
                select(_Match.deal_seed)
                .where(_Match.deal_seed.startswith(_SEALED))
                .order_by(_Match.updated_at.desc())
                .limit(1)
            ).first()
        if sample is not None:
            self.secrets.open(sample)

    def rotate_keys(self, batch: int = 200) -> int:
        """Encrypt every stored secret with the current key (plain ones from before
        encryption too), a batch of matches per transaction; returns how many matches were
        rewritten. Safe beside a running server: a match saved meanwhile (its version moved
        on) was written with the current key already and is left as it is."""
        done, after = 0, ""
        while True:
            with self._tx() as s:
                rows = s.execute(
                    select(_Match.id, _Match.version, _Match.deal_seed, _Match.record, _Seal.state)
                    .outerjoin(_Seal, _Seal.match_id == _Match.id)
                    .where(_Match.id > after)
                    .order_by(_Match.id)
                    .limit(batch)
                ).all()
                for mid, version, seed, record, state in rows:
                    result = s.execute(
                        update(_Match)
                        .where(_Match.id == mid, _Match.version == version)
                        .values(deal_seed=self.secrets.rotate(seed),
                                record=self.secrets.rotate(record))
                    )
                    done += getattr(result, "rowcount", 1)
                    if state is not None:
                        s.execute(
                            update(_Seal)
                            .where(_Seal.match_id == mid, _Seal.state == state)
                            .values(state=self.secrets.rotate(state))
                        )
            if len(rows) < batch:
                return done
            after = rows[-1][0]

    # Players.

    def create_player(self, name: str = "You") -> tuple[PlayerInfo, str]:
        """A new player and the token that identifies them (shown once, never stored)."""
        clean = (name or "You").strip()[:NAME_LENGTH] or "You"
        return _tokens.create_player(self, clean)

    def player_by_token(self, token: str) -> PlayerInfo | None:
        """The player holding this token, if it is known and not expired (renewing it)."""
        return _tokens.player_by_token(self, token)

    def sign_out_everywhere(self, player_id: int) -> str:
        """Revoke every token of the player (and unused transfer codes); a fresh token for
        the browser that asked."""
        return _tokens.sign_out_everywhere(self, player_id)

    def new_transfer_code(self, player_id: int) -> tuple[str, dt.datetime]:
        """A one-time code (as shown, e.g. ``ABCD-EFGH-JKMN``) that gives another browser a
        token of this player, and when it expires."""
        return _tokens.new_transfer_code(self, player_id)

    def claim_transfer_code(self, code: str) -> tuple[PlayerInfo, str]:
        """The player of a transfer code and a new token for them; the code is used up.
        Raises :class:`~ginrummy.store_tokens.TransferCodeError` (with the reason) for an
        unknown, used or expired code."""
        return _tokens.claim_transfer_code(self, code)

    # Matches.

    def create_match(
        self,
        *,
        player_id: int,
        level: str,
        profile: str,
        rules: str,
        hollywood: bool,
        deal_seed: str,
        record: str,
        status: str = "playing",
        scores: tuple[int, int] = (0, 0),
        winner: int | None = None,
        hands: Sequence[HandSummary] = (),
        abandon_others: bool = True,
        seals: str | None = None,
    ) -> MatchInfo:
        """Save a new match; the player's unfinished match becomes ``abandoned`` first (see
        :meth:`_abandon_unfinished`). With ``abandon_others=False`` a new unfinished match
        for a player who has one raises :class:`UnfinishedMatchError`, changing nothing.

        ``seals`` is the sealed-deal private state, kept beside the record (see the module)."""
        for attempt in range(3):
            try:
                return self._insert_match(
                    player_id=player_id, level=level, profile=profile, rules=rules,
                    hollywood=hollywood, deal_seed=deal_seed, record=record, status=status,
                    scores=scores, winner=winner, hands=hands, abandon_others=abandon_others,
                    seals=seals,
                )
            except IntegrityError:
                # The one-unfinished-match index refused the insert: another request made an
                # unfinished match after ours looked (possible only without the player lock,
                # which SQLite does not take). Abandoning again settles it; a bounded retry.
                if not abandon_others or attempt == 2:
                    raise UnfinishedMatchError(
                        "You already have an unfinished match; finish it or start a new one "
                        "over it."
                    ) from None
        raise AssertionError("unreachable")

    def _insert_match(
        self,
        *,
        player_id: int,
        level: str,
        profile: str,
        rules: str,
        hollywood: bool,
        deal_seed: str,
        record: str,
        status: str,
        scores: tuple[int, int],
        winner: int | None,
        hands: Sequence[HandSummary],
        abandon_others: bool,
        seals: str | None,
    ) -> MatchInfo:
        now = _now()
        with self._tx() as s:
            if abandon_others:
                self._abandon_unfinished(s, player_id, now)
            row = _Match(
                id=secrets.token_urlsafe(12),
                player_id=player_id,
                level=level,
                profile=profile,
                rules=rules,
                hollywood=hollywood,
                status=status,
                version=1,
                deal_seed=self.secrets.seal(deal_seed),
                hands_played=len(hands),
                score_0=scores[0],
                score_1=scores[1],
                winner=winner,
                created_at=now,
                updated_at=now,
                record=self.secrets.seal(record),
            )
            s.add(row)
            s.flush()
            for h in hands:
                s.add(_hand_row(row.id, player_id, h))
            if seals is not None:
                s.add(_Seal(match_id=row.id, state=self.secrets.seal(seals)))
            s.flush()
            return _info(row, self.secrets)

    @staticmethod
    def _abandon_unfinished(s: Session, player_id: int, now: dt.datetime) -> None:
        """The rule "one unfinished match per player", kept in one place: lock the player's
        row for the rest of the transaction (``SELECT ... FOR UPDATE``; SQLite serializes
        writers anyway), so two starts for one player run one after the other, then mark
        their unfinished match ``abandoned``: a forfeit, so the computer (seat 1) is its
        winner and it counts as a loss in the history and the statistics. The partial unique
        index on ``matches`` backs the rule up in the database itself."""
        s.execute(select(_Player.id).where(_Player.id == player_id).with_for_update())
        s.execute(
            update(_Match)
            .where(_Match.player_id == player_id, _Match.status == "playing")
            .values(status="abandoned", winner=FORFEIT_WINNER, version=_Match.version + 1,
                    updated_at=now)
        )

    def get_match(self, player_id: int, match_id: str) -> MatchInfo | None:
        """The match if it exists and belongs to this player (else ``None``: no hint either way)."""
        with self._tx() as s:
            row = s.get(_Match, match_id)
            if row is None or row.player_id != player_id:
                return None
            return _info(row, self.secrets)

    def load_record(self, match_id: str) -> tuple[int, str]:
        """The match's version and record text, read together."""
        with self._tx() as s:
            row = s.execute(
                select(_Match.version, _Match.record).where(_Match.id == match_id)
            ).one()
        return row[0], self.secrets.open(row[1])

    def load_match(self, match_id: str) -> tuple[int, str, str | None]:
        """The match's version, record text and sealed-deal private state (``None`` for a
        match dealt without sealed deals), read together in one transaction."""
        with self._tx() as s:
            row = s.execute(
                select(_Match.version, _Match.record, _Seal.state)
                .outerjoin(_Seal, _Seal.match_id == _Match.id)
                .where(_Match.id == match_id)
            ).one()
        seals = self.secrets.open(row[2]) if row[2] is not None else None
        return row[0], self.secrets.open(row[1]), seals

    def save_match(
        self,
        match_id: str,
        *,
        expected_version: int,
        record: str,
        status: str,
        hands_played: int,
        scores: tuple[int, int],
        winner: int | None,
        new_hands: Sequence[HandSummary] = (),
        seals: str | None = None,
    ) -> int:
        """Store the match's new state and its newly finished hands in one transaction.

        ``seals``, when given, replaces the match's sealed-deal private state in the same
        transaction. Returns the new version; raises :class:`ConflictError` (changing nothing)
        when the stored version is not ``expected_version``.
        """
        with self._tx() as s:
            done = s.execute(
                update(_Match)
                .where(_Match.id == match_id, _Match.version == expected_version)
                .values(
                    record=self.secrets.seal(record),
                    status=status,
                    hands_played=hands_played,
                    score_0=scores[0],
                    score_1=scores[1],
                    winner=winner,
                    version=expected_version + 1,
                    updated_at=_now(),
                )
            )
            if getattr(done, "rowcount", 1) != 1:
                raise ConflictError(f"match {match_id} changed since it was read")
            row = s.get(_Match, match_id)
            assert row is not None
            for h in new_hands:
                s.add(_hand_row(match_id, row.player_id, h))
            if seals is not None:
                sealed = self.secrets.seal(seals)
                seal = s.get(_Seal, match_id)
                if seal is None:
                    s.add(_Seal(match_id=match_id, state=sealed))
                else:
                    seal.state = sealed
        return expected_version + 1

    def current_match(self, player_id: int) -> MatchInfo | None:
        """The player's most recently played unfinished match."""
        with self._tx() as s:
            row = s.scalars(
                select(_Match)
                .where(_Match.player_id == player_id, _Match.status == "playing")
                .order_by(_Match.updated_at.desc())
                .limit(1)
            ).first()
            return _info(row, self.secrets) if row else None

    def list_matches(
        self, player_id: int, *, statuses: Sequence[str] = COUNTED, limit: int = 100
    ) -> list[MatchInfo]:
        """The player's matches with these statuses (by default those that count: finished
        and forfeited), newest first."""
        with self._tx() as s:
            rows = s.scalars(
                select(_Match)
                .where(_Match.player_id == player_id, _Match.status.in_(list(statuses)))
                .order_by(_Match.updated_at.desc())
                .limit(limit)
            ).all()
            return [_info(r, self.secrets) for r in rows]

    def hands_of(self, match_id: str) -> list[HandSummary]:
        with self._tx() as s:
            rows = s.scalars(
                select(_HandRow).where(_HandRow.match_id == match_id).order_by(_HandRow.number)
            ).all()
            return [_summary(r) for r in rows]

    def stats(self, player_id: int, *, recent: int = 20) -> PlayerStats:
        """Figures over the player's matches that count (the person is seat 0): finished ones
        and forfeits (abandoned matches, lost), with the hands finished in either."""
        with self._tx() as s:
            counted = (_Match.player_id == player_id, _Match.status.in_(COUNTED))
            finished = select(_Match.id).where(*counted)
            matches = s.execute(
                select(_Match.winner, func.count()).where(*counted).group_by(_Match.winner)
            ).all()
            forfeits = s.execute(
                select(func.count()).where(
                    _Match.player_id == player_id, _Match.status == "abandoned"
                )
            ).scalar_one()
            hands = s.scalars(
                select(_HandRow).where(_HandRow.match_id.in_(finished))
            ).all()
            last = s.execute(
                select(_Match.id, _Match.score_0, _Match.score_1)
                .where(*counted)
                .order_by(_Match.updated_at.desc())
                .limit(recent)
            ).all()
        by_winner: dict[Any, int] = {w: n for w, n in matches}
        knocks = [h for h in hands if h.knocker_seat == 0]
        return PlayerStats(
            matches=sum(by_winner.values()),
            matches_won=by_winner.get(0, 0),
            matches_lost=by_winner.get(1, 0),
            forfeits=forfeits,
            hands=len(hands),
            hands_won=sum(1 for h in hands if h.winner_seat == 0),
            gins=sum(1 for h in knocks if h.kind in ("gin", "big_gin")),
            undercuts_made=sum(1 for h in hands if h.kind == "undercut" and h.winner_seat == 0),
            undercuts_suffered=sum(
                1 for h in hands if h.kind == "undercut" and h.winner_seat == 1
            ),
            knocks=len(knocks),
            average_knock_deadwood=(
                sum(h.knocker_deadwood for h in knocks) / len(knocks) if knocks else None
            ),
            recent=tuple(RecentMatch(r[0], r[1], r[2]) for r in reversed(last)),
        )


def _hand_row(match_id: str, player_id: int, h: HandSummary) -> _HandRow:
    return _HandRow(match_id=match_id, player_id=player_id, **dataclasses.asdict(h))


def _summary(r: _HandRow) -> HandSummary:
    return HandSummary(**same_fields(r, "number " + _RESULT_FIELDS))


def _make_engine(url: str, *, echo: bool) -> Engine:
    if not url.startswith("sqlite"):
        return create_engine(url, echo=echo, pool_pre_ping=True)
    memory = url in ("sqlite://", "sqlite:///:memory:")
    options: dict[str, Any] = {"connect_args": {"check_same_thread": False, "timeout": 30}}
    if memory:
        options["poolclass"] = StaticPool
    engine = create_engine(url, echo=echo, **options)

    @event.listens_for(engine, "connect")
    def _pragmas(dbapi_connection: Any, _record: Any) -> None:
        cursor = dbapi_connection.cursor()
        # WAL with synchronous=NORMAL: a committed move survives the server process being
        # killed (the log is in the operating system's hands); only a power cut may lose the
        # last moves. Foreign keys on, as every other database has them.
        if not memory:
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()

    return engine


# The token tables live in a module of their own; importing it here registers them with
# the models (it imports this module's names, so it comes last).
from . import store_tokens as _tokens  # noqa: E402
