"""Saved games: players, matches and finished hands in a SQL database (SQLAlchemy).

A SQLite file in the user's data directory by default; any SQLAlchemy URL by option
(``postgresql+psycopg://...`` is tested). The store knows nothing of HTTP and little of the
game: a match is kept as its record text (:func:`ginrummy.engine.record.dumps`, which replays move
by move) plus a few columns for listing and statistics, and one row per finished hand.

Players are known by random tokens that only they hold, one for each browser, with a lifetime
renewed on use, plus one-time transfer codes that carry an account to another browser
(:mod:`ginrummy.server.store.tokens`); the store keeps only their SHA-256 hashes, so a copy of the
database does not let anyone act as a player. Every change to a match is one
transaction guarded by the match's ``version`` (optimistic concurrency): a save that does not
find the version it expects changes nothing and raises :class:`ConflictError`.

A match dealt from sealed deals also has a row in ``match_seals``: the private state of its
:class:`~ginrummy.engine.sealer.DealSealer` (the server seeds, unrevealed ones included), saved in
the same transaction as the record. Matches written before sealed deals have no row (unsealed).

The live secrets (a match's record, which lists the decks of its hands, its deal seed, and its
sealed-deal private state) are stored encrypted with the server's key
(:mod:`ginrummy.server.store.keys`); a copy of the database shows no hand in play.

The schema is managed by Alembic migrations (:mod:`ginrummy.server.store.migrations`):
``Store(url)`` brings the database to the newest revision first; ``Store(url,
migrate=False)`` (a web worker, which must not race other workers on the schema) refuses a
database that is not there yet.

>>> store = Store("sqlite://")
>>> player, token = store.create_player("Ann")
>>> store.player_by_token(token) == player, store.player_by_token("forged") is None
(True, True)
"""

from __future__ import annotations

import contextlib
import dataclasses
import datetime as dt
import functools
import os
import secrets
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, Unpack

from sqlalchemy import (
    bindparam,
    case,
    create_engine,
    event,
    func,
    select,
    update,
)
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import (
    Session,
    sessionmaker,
)
from sqlalchemy.pool import StaticPool
from sqlalchemy.sql import Select

from ...words.names import clean_name
from ..fields import same_fields
from . import limits as _limits
from . import ratings as _ratings
from . import tokens as _tokens
from .keys import PREFIX as _SEALED
from .keys import SecretBox, SecretKeyError, load_keys
from .models import (
    _RESULT_FIELDS,
    COUNTED,
    FORFEIT_WINNER,
    NO_OPEN_TABLE,
    ConflictError,
    HandSummary,
    InviteError,
    LobbyEntry,
    MatchInfo,
    MatchSave,
    PeopleInfo,
    PlayerInfo,
    PlayerStats,
    RatedMatch,
    Rating,
    RecentMatch,
    SavedMatch,
    SeatedMatch,
    UnfinishedMatchError,
    _HandRow,
    _info,
    _Match,
    _now,
    _PeopleTable,
    _Player,
    _Rating,
    _RatingChange,
    _Seal,
    hash_token,
)

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


def default_url() -> str:
    """The SQLite file in the user's data directory (created on first use)."""
    from platformdirs import user_data_dir

    folder = user_data_dir("ginrummy", appauthor=False)
    os.makedirs(folder, exist_ok=True)
    return "sqlite:///" + os.path.join(folder, "ginrummy.sqlite3")


def _people_info(s: Session | None, row: _PeopleTable,
                 names: dict[int, str] | None = None) -> PeopleInfo:
    """The row as the service uses it; ``names``: the seated players' names when the caller
    read them already (else they are read here)."""
    import json

    if names is None:
        assert s is not None
        names = {p.id: p.name for p in s.scalars(
            select(_Player).where(_Player.id.in_([row.seat0, row.seat1 or row.seat0])))}
    seeds = {int(k): v for k, v in json.loads(row.seeds or "{}").items()}
    return PeopleInfo(
        match_id=row.match_id,
        seats=(row.seat0, row.seat1),
        names=(names[row.seat0], names.get(row.seat1) if row.seat1 is not None else None),
        invite=row.invite, code=row.code, open=row.open, clock=row.clock,
        clock_started=row.clock_started, seen=(row.seen0, row.seen1), seeds=seeds,
        ended=row.ended, ended_at=row.ended_at, rematch_offer=row.rematch_offer,
        rematch_id=row.rematch_id, addresses=(row.address0, row.address1),
        unrated=row.unrated, rated=bool(row.rated),
    )


def _invite_query(invite: str) -> Select[Any]:
    """The people row whose invite is ``invite``, or whose short code it is (read aloud: any
    case, with or without its dash)."""
    key = invite.strip()
    return select(_PeopleTable).where(
        (_PeopleTable.invite == key) | (_PeopleTable.code == key.upper().replace("-", "")))


def _end_early(s: Session, match: _Match, people: _PeopleTable | None, winner: int | None,
               reason: str, at: float) -> None:
    """End ``match`` before its last hand: over, ``winner`` (or none), one version on."""
    match.status = "over"
    match.winner = winner
    match.version += 1
    match.updated_at = _now()
    if people is not None:
        people.ended, people.ended_at = reason, at
        _ratings.rate(s, match, people, at)


class _PeopleStore:
    """The store's methods for people tables (mixed into :class:`Store`)."""

    _tx: Any
    _write_match: Any  # Store._write_match
    secrets: SecretBox
    reader: Engine

    def create_people_match(
        self, *, player_id: int, invite: str, code: str, open: bool, clock: int | None,
        now: float, seat1: int | None = None, rematch_of: str | None = None,
        rematch_version: int | None = None,
        addresses: tuple[str | None, str | None] = (None, None), consent: bool = True,
        **match: Any,
    ) -> tuple[MatchInfo, list[tuple[str, int]]]:
        """Save a new people match with the creator in seat 0 (and ``seat1`` seated already,
        for a rematch of ``rematch_of``), in one transaction: each one's unfinished matches end
        first (computer ones abandoned, people ones forfeited, tables nobody joined closed).
        ``addresses``: the hashed client address of each seat
        (:func:`~ginrummy.server.store.limits.address_hash`), or ``None`` where not known. Without
        the creator's ``consent`` an unfinished match of theirs raises
        :class:`UnfinishedMatchError` and nothing changes. Returns the match and the (id,
        version) of the matches ended.

        A rematch is made once: the old match's row is locked first, and a rematch of a match
        that has one already, or that is no longer at ``rematch_version`` (another press,
        perhaps in another process, changed it since it was read), raises
        :class:`ConflictError`, changing nothing."""
        with self._tx() as s:
            if rematch_of is not None:
                old_match = s.get(_Match, rematch_of, with_for_update=True)
                old = s.get(_PeopleTable, rematch_of)
                assert old is not None and old_match is not None
                if old.rematch_id is not None or rematch_version not in (
                        None, old_match.version):
                    raise ConflictError(f"match {rematch_of} changed since it was read")
            if seat1 is not None:
                # Both players' rows first, in one order: ending their matches may take the
                # ratings' turn (store_ratings), which must never wait while a row another
                # transaction wants is held after it.
                s.execute(select(_Player.id).where(_Player.id.in_([player_id, seat1]))
                          .order_by(_Player.id).with_for_update())
            ended = _leave(s, player_id, now, consent=consent)
            if seat1 is not None:
                ended += _leave(s, seat1, now, consent=consent)
            stamp = _now()
            hands = match.pop("hands", ())
            seals = match.pop("seals", None)
            match["deal_seed"] = self.secrets.seal(match["deal_seed"])
            match["record"] = self.secrets.seal(match["record"])
            row = _Match(id=secrets.token_urlsafe(12), player_id=player_id, version=1,
                         hands_played=len(hands), winner=None, created_at=stamp,
                         updated_at=stamp, score_0=0, score_1=0, **match)
            s.add(row)
            s.flush()
            if seals is not None:
                s.add(_Seal(match_id=row.id, state=self.secrets.seal(seals)))
            s.add(_PeopleTable(match_id=row.id, seat0=player_id, seat1=seat1, invite=invite,
                               code=code, open=open, clock=clock, clock_started=now,
                               seen0=now, seen1=now, seeds="{}", address0=addresses[0],
                               address1=addresses[1]))
            if rematch_of is not None:
                old.rematch_id = row.id
                old_match.version += 1
                ended.append((old_match.id, old_match.version))
            s.flush()
            return _info(row, self.secrets), ended

    def leave_unfinished(
        self, player_id: int, now: float, *, computer: bool = True, consent: bool = True
    ) -> list[tuple[str, int]]:
        """End the player's unfinished matches before they start another (people matches
        forfeited to the other person; with ``computer``, matches against the computer
        abandoned too); the (id, version) of each match ended. Without ``consent``, any
        unfinished match (of either kind) raises :class:`UnfinishedMatchError` instead."""
        with self._tx() as s:
            return _leave(s, player_id, now, computer=computer, consent=consent)

    def join_people_match(
        self, invite: str, player_id: int, now: float, *, address: str | None = None,
        seed: str | None = None, consent: bool = True, grace: float | None = None,
    ) -> tuple[str, list[tuple[str, int]], bool]:
        """Seat ``player_id`` in seat 1 of the table of ``invite`` (the invite or its code),
        ending the player's unfinished matches first, in one transaction; ``address``: the
        hashed client address they join from; ``seed``: their client seed for the first deal
        (checked by the caller), kept with the join. Without ``consent`` an unfinished match
        of theirs raises :class:`UnfinishedMatchError` and nothing changes. Returns the match
        id, the ids of the matches ended and whether the player was seated now (``False``:
        they sat at it already, and nothing changed). A table still waiting whose creator has
        not been seen for ``grace`` seconds is closed instead (:func:`_close_waiting`) and
        refused like a closed one. Raises :class:`InviteError`."""
        import json

        with self._tx() as s:
            row = s.scalars(_invite_query(invite).with_for_update()).first()
            if row is None:
                raise InviteError(404, NO_OPEN_TABLE)
            match = s.get(_Match, row.match_id)
            assert match is not None
            waiting = row.seat1 is None and match.status == "playing"
            if player_id == row.seat1 or (player_id == row.seat0 and not waiting):
                return row.match_id, [], False
            if player_id == row.seat0:
                raise InviteError(409, "This is your own table: send the invite to the other "
                                  "person.")
            if not waiting:
                raise InviteError(404, NO_OPEN_TABLE)
            if grace is not None and row.seen0 + grace <= now:
                closed = (row.match_id, _close_waiting(match))
            else:
                ended = _leave(s, player_id, now, consent=consent, doing="joining this table")
                row.seat1 = player_id
                row.address1 = address
                if seed is not None:
                    seeds = json.loads(row.seeds or "{}")
                    seeds["1"] = seed
                    row.seeds = json.dumps(seeds)
                # Both grace periods start at the join: the creator may have waited a while.
                row.seen0 = row.seen1 = now
                row.clock_started = now
                match.version += 1
                match.updated_at = _now()
                return row.match_id, ended, True
        raise InviteError(404, NO_OPEN_TABLE, [closed])

    def close_waiting(self, match_id: str, *, expected_version: int) -> int:
        """Close a table for two nobody joined (its creator gone: :func:`~ginrummy.server.people.
        due`), as starting another match closes it; its new version."""
        with self._tx() as s:
            match = s.get(_Match, match_id, with_for_update=True)
            if match is None or match.version != expected_version:
                raise ConflictError(f"match {match_id} changed since it was read")
            return _close_waiting(match)

    def find_invite(self, invite: str) -> PeopleInfo | None:
        """The people row of the table of ``invite`` (its link token or short code), or
        ``None`` when there is no such invite."""
        with self._tx() as s:
            row = s.scalars(_invite_query(invite)).first()
            return _people_info(s, row) if row is not None else None

    def people_of(self, match_id: str) -> PeopleInfo | None:
        with self._tx() as s:
            row = s.get(_PeopleTable, match_id)
            return _people_info(s, row) if row is not None else None

    def update_people(self, match_id: str, expected_version: int, **values: Any) -> int:
        """Change the people row (seeds, presence, rematch offer) as one new version."""
        import json

        with self._tx() as s:
            match = s.get(_Match, match_id, with_for_update=True)
            if match is None or match.version != expected_version:
                raise ConflictError(f"match {match_id} changed since it was read")
            people = s.get(_PeopleTable, match_id)
            assert people is not None
            if "seeds" in values:
                values["seeds"] = json.dumps({str(k): v for k, v in values["seeds"].items()})
            for key, value in values.items():
                setattr(people, key, value)
            match.version += 1
            version: int = match.version
            return version

    def touch_people(self, match_id: str, seat: int, now: float) -> None:
        """Record that the person in ``seat`` was seen now (no new version: presence only)."""
        with self._tx() as s:
            people = s.get(_PeopleTable, match_id)
            if people is not None:
                setattr(people, f"seen{seat}", now)

    def save_people_match(
        self, match_id: str, *, expected_version: int, record: str, status: str,
        hands_played: int, scores: tuple[int, int], winner: int | None,
        new_hands: Sequence[HandSummary] = (), seals: str | None = None,
        at: float | None = None, **people: Any,
    ) -> tuple[int, PeopleInfo]:
        """:meth:`Store.save_match` for a people match, with its people row (clock, seeds,
        presence) in the same transaction; rates the match when it ends (at ``at``, seconds
        since the epoch: by default now). Returns the new version and the people row as
        saved."""
        import json

        with self._tx() as s:
            save = MatchSave(
                expected_version=expected_version, record=record, status=status,
                hands_played=hands_played, scores=scores, winner=winner, new_hands=new_hands,
                seals=seals,
            )
            row = self._write_match(s, match_id, save, want_row=status == "over")
            if "seeds" in people:
                people["seeds"] = json.dumps({str(k): v for k, v in people["seeds"].items()})
            conn = s.connection()
            if people:
                query = _update_query(_PeopleTable.__table__, "match_id", tuple(sorted(people)))
                conn.execute(query, {"key": match_id, **{f"v_{k}": v for k, v in people.items()}})
            if row is not None:
                table = s.get(_PeopleTable, match_id)
                assert table is not None
                _ratings.rate(s, row, table, time.time() if at is None else at)
                s.flush()  # the read below is a plain statement: it must see the rating
            fresh = conn.execute(_seated_query(False), {"match_id": match_id}).one()
            info = _people_of_row(fresh)
            assert info is not None
            return expected_version + 1, info

    def end_match_early(self, match_id: str, *, expected_version: int, winner: int | None,
                        reason: str, at: float, **people: Any) -> int:
        """End a match before its last hand (resigned, out of time, left), one new version;
        a people match is rated."""
        with self._tx() as s:
            row = s.get(_Match, match_id, with_for_update=True)
            if row is None or row.version != expected_version:
                raise ConflictError(f"match {match_id} changed since it was read")
            table = s.get(_PeopleTable, match_id)
            if table is not None:
                for key, value in people.items():
                    setattr(table, key, value)
            _end_early(s, row, table, winner, reason, at)
            version: int = row.version
            return version

    def lobby(self, now: float, *, present: float, gone: float, per_address: int,
              limit: int = 50) -> tuple[list[LobbyEntry], list[tuple[str, int]]]:
        """Open tables nobody has joined yet whose creator was seen in the last ``present``
        seconds, newest first, at most ``per_address`` of them made from one client address
        (``address0``; a table without one counts alone). On the way, tables nobody joined
        whose creator has not been seen for ``gone`` seconds are closed (a few at a time):
        returns the entries and the (id, version) of the tables closed."""
        left = (select(_Match).join(_PeopleTable, _PeopleTable.match_id == _Match.id)
                .where(_PeopleTable.seat1.is_(None), _Match.status == "playing",
                       _PeopleTable.seen0 <= now - gone).limit(_CLOSE_AT_ONCE))
        closed: list[tuple[str, int]] = []
        with self.reader.connect() as conn:
            any_left = conn.execute(left.with_only_columns(_Match.id)).first() is not None
        if any_left:  # a read first: most readings of the lobby write nothing
            with self._tx() as s:
                found = s.scalars(left.with_for_update(skip_locked=True)).all()
                closed = [(m.id, _close_waiting(m)) for m in found]
        with self.reader.connect() as conn:
            newest = func.row_number().over(
                partition_by=func.coalesce(_PeopleTable.address0, _PeopleTable.match_id),
                order_by=_Match.created_at.desc()).label("newest")
            listed = (
                select(_PeopleTable.invite, _PeopleTable.code, _Player.name, _Match.profile,
                       _Match.rules, _Match.hollywood, _PeopleTable.clock, _Match.created_at,
                       newest)
                .join(_Match, _Match.id == _PeopleTable.match_id)
                .join(_Player, _Player.id == _PeopleTable.seat0)
                .where(_PeopleTable.open.is_(True), _PeopleTable.seat1.is_(None),
                       _Match.status == "playing", _PeopleTable.seen0 > now - present)
                .subquery())
            rows = conn.execute(
                select(*[c for c in listed.c if c.name != "newest"])
                .where(listed.c.newest <= per_address)
                .order_by(listed.c.created_at.desc()).limit(limit)).all()
        return [LobbyEntry(*r) for r in rows], closed

    def rating(self, player_id: int) -> tuple[Rating | None, list[RatedMatch]]:
        """The player's rating (``None`` before their first people match) and its matches,
        newest first."""
        with self._tx() as s:
            row = s.get(_Rating, player_id)
            changes = s.execute(
                select(_RatingChange, _Player.name)
                .join(_Player, _Player.id == _RatingChange.opponent_id)
                .where(_RatingChange.player_id == player_id)
                .order_by(_RatingChange.at.desc()).limit(100)
            ).all()
            rated = [RatedMatch(c.match_id, name, c.score, round(c.before, 1), round(c.after, 1))
                     for c, name in changes]
            if row is None:
                return None, rated
            return Rating(round(row.rating, 1), round(row.rd, 1), row.matches), rated

    def joined_matches(
        self, player_id: int, *, statuses: Sequence[str] = ("over",), limit: int = 100
    ) -> list[MatchInfo]:
        """The people matches the player joined (seat 1) with these statuses, newest first,
        seen from their side: scores and winner as if they sat in seat 0."""
        with self._tx() as s:
            joined = select(_PeopleTable.match_id).where(_PeopleTable.seat1 == player_id)
            rows = s.scalars(
                select(_Match).where(_Match.id.in_(joined), _Match.status.in_(list(statuses)))
                .order_by(_Match.updated_at.desc()).limit(limit)
            ).all()
            out = []
            for r in rows:
                info = _info(r, self.secrets)
                out.append(dataclasses.replace(
                    info, scores=(info.scores[1], info.scores[0]),
                    winner=None if info.winner is None else 1 - info.winner))
            return out

    def joined_stats(self, player_id: int) -> PlayerStats:
        """:meth:`Store.stats` over the people matches the player joined (seat 1), from their
        side: added to the seat-0 figures by the API."""
        with self._tx() as s:
            joined = select(_PeopleTable.match_id).where(_PeopleTable.seat1 == player_id)
            rows = s.scalars(
                select(_Match).where(_Match.id.in_(joined), _Match.status == "over")
                .order_by(_Match.updated_at.desc())
            ).all()
            ids = [r.id for r in rows]
            hands = s.scalars(select(_HandRow).where(_HandRow.match_id.in_(ids))).all()
        knocks = [h for h in hands if h.knocker_seat == 1]
        return PlayerStats(
            matches=len(rows),
            forfeits=0,  # leaving a table for two is a loss counted in matches_lost
            matches_won=sum(1 for r in rows if r.winner == 1),
            matches_lost=sum(1 for r in rows if r.winner == 0),
            hands=len(hands),
            hands_won=sum(1 for h in hands if h.winner_seat == 1),
            gins=sum(1 for h in knocks if h.kind in ("gin", "big_gin")),
            undercuts_made=sum(1 for h in hands if h.kind == "undercut" and h.winner_seat == 1),
            undercuts_suffered=sum(
                1 for h in hands if h.kind == "undercut" and h.winner_seat == 0),
            knocks=len(knocks),
            average_knock_deadwood=(
                sum(h.knocker_deadwood for h in knocks) / len(knocks) if knocks else None),
            recent=tuple(RecentMatch(r.id, r.score_1, r.score_0) for r in reversed(rows[:20])),
        )


def _leave(s: Session, player_id: int, now: float, *, computer: bool = True,
           consent: bool = True, doing: str = "starting another") -> list[tuple[str, int]]:
    """End the player's unfinished matches (see :meth:`_PeopleStore.leave_unfinished`): the
    rule "one unfinished match per player", kept in one place for both kinds of match.

    The player's row is locked for the rest of the transaction (``SELECT ... FOR UPDATE``;
    SQLite serializes writers anyway), so two starts for one player run one after the other.
    A match against the computer becomes ``abandoned``: a forfeit, so the computer (seat 1)
    is its winner and it counts as a loss in the history and the statistics. The partial
    unique index on ``matches`` backs the rule up in the database itself. ``now``: seconds
    since the epoch, the time a people match is forfeited at. Without the person's
    ``consent`` nothing is ended: an unfinished match raises :class:`UnfinishedMatchError`
    saying what ``doing`` would end (the transaction then changes nothing). Returns the (id,
    version) of each match ended."""
    ended: list[tuple[str, int]] = []
    stamp = _now()
    s.execute(select(_Player.id).where(_Player.id == player_id).with_for_update())
    mine = s.scalars(select(_Match).where(_Match.player_id == player_id,
                                          _Match.status == "playing")).all()
    joined = s.scalars(
        select(_Match).join(_PeopleTable, _PeopleTable.match_id == _Match.id)
        .where(_PeopleTable.seat1 == player_id, _Match.status == "playing")).all()
    if not consent and (mine or joined):
        raise UnfinishedMatchError(_unfinished_sentence(s, player_id, [*mine, *joined][0],
                                                        doing))
    for match in [*mine, *joined]:
        people = s.get(_PeopleTable, match.id)
        if people is None and not computer:
            continue
        if people is None:  # against the computer: abandoned, a forfeit (as create_match)
            match.status, match.version, match.updated_at = "abandoned", match.version + 1, stamp
            match.winner = FORFEIT_WINNER
        elif people.seat1 is None:  # nobody joined: the table is closed, nothing to count
            _close_waiting(match)
        else:  # against a person: a forfeit, counted for both
            seat = 0 if people.seat0 == player_id else 1
            _end_early(s, match, people, 1 - seat, "left", now)
        ended.append((match.id, match.version))
    return ended

def _unfinished_sentence(s: Session, player_id: int, match: _Match, doing: str) -> str:
    """Why ``doing`` (``"starting another"``, ``"joining this table"``) waits for the
    person's yes: what it would end, and how to say yes."""
    people = s.get(_PeopleTable, match.id)
    yes = 'Send "forfeit_current": true to go ahead.'
    if people is not None and people.seat1 is None:
        return (f"Your table is still waiting for someone to join: {doing} closes it. {yes}")
    mine = 0 if match.player_id == player_id else 1
    scores = (match.score_0, match.score_1)
    score = f"{scores[mine]} to {scores[1 - mine]}"
    if people is None:
        against = f"the computer ({match.level})"
    else:
        other = s.get(_Player, people.seat1 if mine == 0 else people.seat0)
        against = other.name if other is not None else "another person"
    return (f"You have a match in progress against {against}, {score}: {doing} ends it, "
            f"and it counts as a loss. {yes}")


#: At most this many tables left by their creators are closed by one reading of the lobby.
_CLOSE_AT_ONCE = 100


def _close_waiting(match: _Match) -> int:
    """Close a table for two nobody joined: ``cancelled`` (nothing to count), one version on;
    the new version."""
    match.status, match.version, match.updated_at = "cancelled", match.version + 1, _now()
    version: int = match.version
    return version


# ===========================================================================================
# End of the people tables' block.


class Store(_PeopleStore):
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
        :class:`~ginrummy.server.store.migrations.SchemaError` unless it is already there. The
        secrets' keys are ``keys``, or found by :func:`~ginrummy.server.store.keys.load_keys`
        (``key_file``); keys that do not open the stored secrets raise :class:`SecretKeyError` here.
        ``clock``: the time of day for tokens and transfer codes (naive UTC; tests pass one)."""
        from . import migrations

        self.clock = clock or _now
        self.url = url or default_url()
        self.engine = _make_engine(self.url, echo=echo)  # a bad URL is reported first
        try:
            self.secrets = keys or load_keys(self.url, key_file)
        except BaseException:
            self.engine.dispose()
            raise
        try:
            if migrate:
                migrations.upgrade(self.engine)
            else:
                migrations.check(self.engine)
        except BaseException:
            self.engine.dispose()
            raise
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)
        self._writers = _writers_lock(self.engine)
        #: The engine for single-statement reads (every request makes two): autocommit, so
        #: no BEGIN and ROLLBACK round trips around the one query on PostgreSQL. (SQLite's
        #: driver begins no transaction for a read anyway, and switching a connection to
        #: autocommit commits it: in memory every thread shares one connection.)
        self.reader: Engine = self.engine
        if self.engine.dialect.name != "sqlite":
            self.reader = self.engine.execution_options(isolation_level="AUTOCOMMIT")
        try:
            self.check_keys()
        except BaseException:
            self.engine.dispose()
            raise

    @contextmanager
    def _tx(self) -> Iterator[Session]:
        with self._writers(), self._sessions() as session, session.begin():
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
        """A new player and the token that identifies them (shown once, never stored). The
        name is kept as :func:`~ginrummy.words.names.clean_name` gives it; a name it refuses raises
        :class:`~ginrummy.engine.errors.InvalidNameError`, changing nothing."""
        return _tokens.create_player(self, clean_name(name))

    def rename_player(self, player_id: int, name: str) -> PlayerInfo:
        """Give the player a new name (the one the other person sees at a table for two),
        kept as :func:`~ginrummy.words.names.clean_name` gives it (or
        :class:`~ginrummy.engine.errors.InvalidNameError`, changing nothing)."""
        clean = clean_name(name)
        with self._tx() as s:
            s.execute(update(_Player).where(_Player.id == player_id).values(name=clean))
        return PlayerInfo(player_id, clean)

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
        Raises :class:`~ginrummy.server.store.tokens.TransferCodeError` (with the reason) for an
        unknown, used or expired code."""
        return _tokens.claim_transfer_code(self, code)

    # Rate limits.

    def rate_hit(self, kind: str, who: str, windows: Sequence[tuple[int, float]],
                 now: float) -> tuple[int, float] | None:
        """Count a request of ``kind`` from ``who`` at ``now`` (seconds since the epoch)
        against ``windows`` (``(amount, seconds)``), for every process on this database:
        ``None`` if let through (and counted), else ``(index of the window it is over,
        seconds until that window lets one more in)`` (:mod:`ginrummy.server.store.limits`)."""
        return _limits.hit(self, _limits.limit_key(kind, who), windows, now)

    def rate_unhit(self, kind: str, who: str, at: float) -> None:
        """Take back a request :meth:`rate_hit` counted at ``at`` (refused as malformed)."""
        _limits.unhit(self, _limits.limit_key(kind, who), at)

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
        """Save a new match; the player's unfinished match ends first (see :func:`_leave`:
        against the computer it is ``abandoned``, a forfeit). With ``abandon_others=False``
        a new unfinished match for a player who has one raises :class:`UnfinishedMatchError`,
        changing nothing.

        ``seals`` is the sealed-deal private state, kept beside the record (see the module)."""
        for attempt in range(3):
            try:
                now = _now()
                with self._tx() as s:
                    if abandon_others:
                        _leave(s, player_id, time.time())
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

    def get_match(self, player_id: int, match_id: str) -> MatchInfo | None:
        """The match if it exists and belongs to this player (else ``None``: no hint either way)."""
        with self._tx() as s:
            row = s.get(_Match, match_id)
            if row is None or row.player_id != player_id:
                return None
            return _info(row, self.secrets)

    def read_seated(
        self, match_id: str, player_id: int | None = None, *, have: int | None = None,
        record: bool = True,
    ) -> SeatedMatch | None:
        """The match as the player ``player_id`` reaches it (their seat, the people row of a
        table for two) in one query; ``None`` unless the match exists and they sit at it
        (``player_id=None``: whoever sits in seat 0). The record and the sealed-deal state
        come with it (``saved``) only when the match's version is not ``have`` (the caller
        holds that version already, and they can be long), and never without ``record``.

        This runs on every request, so the query is built once (:func:`_seated_query`) and
        read as plain rows, not through the ORM's objects."""
        query = _seated_query(record)
        params = {"match_id": match_id, "have": -1 if have is None else have}
        with self.reader.connect() as conn:
            row = conn.execute(query, params).first()
        if row is None:
            return None
        if player_id is None or row.player_id == player_id:
            seat = 0
        elif row.seat1 is not None and row.seat1 == player_id:
            seat = 1
        else:
            return None
        people = _people_of_row(row)
        info = _info(row, self.secrets)  # type: ignore[arg-type]
        saved = None
        if record and row.sealed_record is not None:
            saved = SavedMatch(
                info.version, self.secrets.open(row.sealed_record),
                self.secrets.open(row.sealed_seals) if row.sealed_seals is not None else None)
        return SeatedMatch(info, seat, people, saved)

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

    def save_match(self, match_id: str, **save: Unpack[MatchSave]) -> int:
        """Store the match's new state and its newly finished hands in one transaction.

        ``seals``, when given, replaces the match's sealed-deal private state in the same
        transaction. Returns the new version; raises :class:`ConflictError` (changing nothing)
        when the stored version is not ``expected_version``.
        """
        with self._tx() as s:
            self._write_match(s, match_id, save)
        return save["expected_version"] + 1

    def _write_match(
        self, s: Session, match_id: str, save: MatchSave, want_row: bool = False
    ) -> _Match | None:
        """Within transaction ``s``: the match's new state (one version on, if it is still at
        ``expected_version``, else :class:`ConflictError`), its newly finished hands and its
        sealed-deal private state; the row as saved, when there were finished hands or
        ``want_row`` (else it is not read back)."""
        expected_version, scores = save["expected_version"], save["scores"]
        new_hands, seals = save.get("new_hands", ()), save.get("seals")
        conn = s.connection()  # plain statements, built once: this runs on every move
        done = conn.execute(_update_query(_Match.__table__, "id", _SAVED_COLUMNS), {
            "key": match_id, "expected": expected_version,
            "v_record": self.secrets.seal(save["record"]), "v_status": save["status"],
            "v_hands_played": save["hands_played"], "v_score_0": scores[0],
            "v_score_1": scores[1], "v_winner": save["winner"], "v_version": expected_version + 1,
            "v_updated_at": _now(),
        })
        if done.rowcount != 1:
            raise ConflictError(f"match {match_id} changed since it was read")
        row = None
        if new_hands or want_row:
            row = s.get(_Match, match_id)
            assert row is not None
        for h in new_hands:
            assert row is not None
            s.add(_hand_row(match_id, row.player_id, h))
        if seals is not None:
            sealed = self.secrets.seal(seals)
            query = _update_query(_Seal.__table__, "match_id", ("state",))
            if conn.execute(query, {"key": match_id, "v_state": sealed}).rowcount != 1:
                s.add(_Seal(match_id=match_id, state=sealed))
        return row

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


@functools.cache
def _seated_query(record: bool) -> Select[Any]:
    """The query of :meth:`Store.read_seated` (parameters ``match_id`` and ``have``): the
    match's listing columns, its people row and the two seated players' names, and with
    ``record`` the record and sealed-deal state when the version is not ``have``."""
    m, p = _Match.__table__, _PeopleTable.__table__
    p0, p1 = _Player.__table__.alias("p0"), _Player.__table__.alias("p1")
    columns: list[Any] = [c for c in m.c if c.name != "record"]
    columns += [*p.c, p0.c.name.label("name0"), p1.c.name.label("name1")]
    joined = (m.outerjoin(p, p.c.match_id == m.c.id)
              .outerjoin(p0, p0.c.id == p.c.seat0)
              .outerjoin(p1, p1.c.id == p.c.seat1))
    if record:
        seal = _Seal.__table__
        stale = m.c.version != bindparam("have")
        columns += [case((stale, m.c.record)).label("sealed_record"),
                    case((stale, seal.c.state)).label("sealed_seals")]
        joined = joined.outerjoin(seal, seal.c.match_id == m.c.id)
    return select(*columns).select_from(joined).where(m.c.id == bindparam("match_id"))


def _people_of_row(row: Any) -> PeopleInfo | None:
    """The people row in a row of :func:`_seated_query` (``None`` for a computer match)."""
    if row.match_id is None:
        return None
    names = {row.seat0: row.name0}
    if row.seat1 is not None:
        names[row.seat1] = row.name1
    return _people_info(None, row, names)


#: The columns a save of a match writes (see :meth:`Store._write_match`).
_SAVED_COLUMNS = ("record", "status", "hands_played", "score_0", "score_1", "winner", "version",
                  "updated_at")


@functools.cache
def _update_query(table: Any, key: str, columns: tuple[str, ...]) -> Any:
    """``UPDATE table SET column = :v_column ... WHERE key = :key`` (and ``version =
    :expected`` when the table has a version), built once per shape."""
    query = update(table).where(table.c[key] == bindparam("key"))
    if "version" in table.c:
        query = query.where(table.c.version == bindparam("expected"))
    return query.values({c: bindparam(f"v_{c}") for c in columns})


def _hand_row(match_id: str, player_id: int, h: HandSummary) -> _HandRow:
    return _HandRow(match_id=match_id, player_id=player_id, **dataclasses.asdict(h))


def _summary(r: _HandRow) -> HandSummary:
    return HandSummary(**same_fields(r, "number " + _RESULT_FIELDS))


class _WritersLock:
    """Turns for the transactions on one SQLite file, across processes and threads: an
    exclusive ``flock`` on ``<database>.write-lock``, on a descriptor opened for each holding
    (so two threads exclude each other too; re-entrant within a thread).

    SQLite lets one writer in at a time and makes the others poll, sleeping up to 100 ms
    between tries; with two worker processes a waiting move then waits long after the file is
    free (the p99 of the 20-client benchmark was over a second). A waiter on this lock is
    woken by the kernel the moment it is released. Reads on plain connections
    (:meth:`Store.read_seated`, the token lookup) do not take it: in WAL mode readers never
    wait for writers."""

    def __init__(self, path: str) -> None:
        self.path = path
        self._local = threading.local()

    @contextmanager
    def __call__(self) -> Iterator[None]:
        import fcntl

        local = self._local
        depth = getattr(local, "depth", 0)
        if depth == 0:
            local.fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
            try:
                fcntl.flock(local.fd, fcntl.LOCK_EX)
            except BaseException:
                os.close(local.fd)
                raise
        local.depth = depth + 1
        try:
            yield
        finally:
            local.depth -= 1
            if local.depth == 0:
                os.close(local.fd)  # which lets the lock go (one descriptor per holding)


def _writers_lock(engine: Engine) -> Callable[[], contextlib.AbstractContextManager[None]]:
    """The :class:`_WritersLock` of a SQLite file; for other databases (which let writers
    wait properly) and SQLite in memory (one process), no lock."""
    path = engine.url.database if engine.dialect.name == "sqlite" else None
    if not path or path == ":memory:" or os.name != "posix":
        return contextlib.nullcontext
    return _WritersLock(os.path.abspath(path) + ".write-lock")


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


