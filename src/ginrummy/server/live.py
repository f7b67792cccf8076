"""Live updates: the bus that tells open event streams a match changed, and who is connected.

A change to a match is announced as ``(match id, version)`` by :meth:`Bus.publish`, which any
thread may call (the service saves in FastAPI's thread pool, then calls its ``on_change``
hook). Streams are async: each holds a :class:`Subscription`, a mailbox keeping the newest
version announced and a "presence changed" flag, woken on its own event loop. A slow stream
never queues: it wakes once and reads the newest version.

Two buses behind the one interface, chosen from the store's URL by :func:`bus_for`:

- :class:`LocalBus` (SQLite and any other database): changes made by this process reach its
  streams at once through the event loop. Changes made by another process on the same
  database file (``serve --workers 2``, or two servers on one file) are found by a bounded
  poll: while streams are open, every :data:`POLL_SECONDS` SQLite's ``PRAGMA data_version``
  (a counter of commits by other connections, read on a connection of the bus's own) tells
  whether anything was committed since the last look, and only then one indexed query reads
  the versions of the watched matches.
- :class:`PostgresBus` (PostgreSQL): the database's own ``LISTEN/NOTIFY``. Each process keeps
  one listening connection (psycopg 3, reconnecting with backoff; after a reconnect every
  watched match's version is read again, since notifications sent meanwhile are lost) and one
  sending connection. The ``NOTIFY`` goes out *right after* the save commits: the service's
  ``on_change`` hook, called only for committed changes, queues it, and the sender sends what
  has queued in one statement. So no stream ever hears of a version that was rolled back, a
  stream reading the match on the notification finds it, and the request does not wait for the
  notification. The cost of sending after rather than inside the transaction is that a process
  dying between the commit and the ``NOTIFY`` loses that notification; every
  :data:`HEARTBEAT_SECONDS` the process reads the versions of the matches it has streams for
  (one query), which heals it.

Presence lives in the database (table ``live_presence``, one row per match and seat: how many
streams are open and when the seat was last seen), so every worker and machine sees the same
answer; :class:`Presence` reads and writes it. A row's count can stay too high after a worker
is killed, so a seat counts as here only while its row is also refreshed by a stream's
keep-alive (:data:`STALE_SECONDS`).
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import logging
import random
import secrets
import sqlite3
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from sqlalchemy import (
    case,
    column,
    select,
    table,
    text,
    tuple_,
    update,
)
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import sessionmaker

from .store import Store
from .store.models import _Presence

__all__ = [
    "Bus",
    "LocalBus",
    "PostgresBus",
    "Presence",
    "SeatPresence",
    "Subscription",
    "bus_for",
    "read_versions",
    "APPLICATION_NAME",
    "CHANNEL",
    "HEARTBEAT_SECONDS",
    "POLL_SECONDS",
    "STALE_SECONDS",
]

log = logging.getLogger(__name__)

#: The PostgreSQL notification channel of every process.
CHANNEL = "ginrummy_live"
#: The ``application_name`` of the listening connections (as ``pg_stat_activity`` shows them).
APPLICATION_NAME = "ginrummy-live"
#: How often an open stream refreshes its seat's presence and rereads its match's version.
HEARTBEAT_SECONDS = 15.0
#: A seat whose row was not refreshed for this long is not here, whatever its count says.
STALE_SECONDS = 2.5 * HEARTBEAT_SECONDS
#: How often :class:`LocalBus` looks for other processes' changes (a counter read; the
#: versions of the watched matches are read only when it moved).
POLL_SECONDS = 0.02
#: Largest ``IN (...)`` list of one version query.
_CHUNK = 500

_MATCHES = table("matches", column("id"), column("version"))


def read_versions(engine: Engine, match_ids: Iterable[str]) -> dict[str, int]:
    """The stored version of each of these matches (an unknown id is left out)."""
    ids = list(match_ids)
    out: dict[str, int] = {}
    with engine.connect() as conn:
        for start in range(0, len(ids), _CHUNK):
            chunk = ids[start:start + _CHUNK]
            rows = conn.execute(
                select(_MATCHES.c.id, _MATCHES.c.version).where(_MATCHES.c.id.in_(chunk))
            )
            out.update({r[0]: int(r[1]) for r in rows})
    return out


class Subscription:
    """One stream's mailbox for one match: the newest version announced and whether presence
    changed since the stream last looked. Written only on its own event loop."""

    def __init__(self, match_id: str, loop: asyncio.AbstractEventLoop) -> None:
        self.match_id = match_id
        self.loop = loop
        self.version = 0
        self.presence = False
        self.stopped = False
        self._wake = asyncio.Event()

    def note(self, version: int | None) -> None:
        """A new version (``None``: presence changed). Call on :attr:`loop` only."""
        if version is None:
            self.presence = True
        elif version > self.version:
            self.version = version
        else:
            return
        self._wake.set()

    async def wait(self, timeout: float) -> bool:
        """Wait for news for up to ``timeout`` seconds; ``False`` when none came."""
        try:
            await asyncio.wait_for(self._wake.wait(), timeout)
        except TimeoutError:
            return False
        self._wake.clear()
        return True

    def stop(self) -> None:
        """The server is shutting down: wake the stream to end. Call on :attr:`loop` only."""
        self.stopped = True
        self._wake.set()

    def take_presence(self) -> bool:
        changed, self.presence = self.presence, False
        return changed


class Bus:
    """The channel from committed changes to open streams, within this process. Subclasses add
    the way changes of other processes come in (:meth:`_run`) and go out (:meth:`_send`)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._subs: dict[str, set[Subscription]] = {}
        self._lock = threading.Lock()
        self._seen: dict[str, int] = {}
        self._task: asyncio.Task[None] | None = None
        self._closed = False

    # Announcing.

    def publish(self, match_id: str, version: int) -> None:
        """Announce that ``match_id`` is now at ``version`` (committed). Any thread."""
        self._deliver(match_id, version)
        self._send(match_id, version)

    def publish_presence(self, match_id: str) -> None:
        """Announce that someone arrived at or left ``match_id``'s streams. Any thread."""
        self._deliver(match_id, None)
        self._send(match_id, None)

    def _send(self, match_id: str, version: int | None) -> None:
        """Tell other processes (nothing here: they poll)."""

    def _deliver(self, match_id: str, version: int | None) -> None:
        with self._lock:
            subs = list(self._subs.get(match_id, ()))
            if version is not None:
                if version <= self._seen.get(match_id, 0):
                    return
                if subs:
                    self._seen[match_id] = version
        for sub in subs:
            with contextlib.suppress(RuntimeError):  # a closed loop: that stream is gone
                sub.loop.call_soon_threadsafe(sub.note, version)

    # Listening.

    def subscribe(self, match_id: str) -> Subscription:
        """A mailbox for ``match_id`` on the running event loop; :meth:`unsubscribe` it."""
        sub = Subscription(match_id, asyncio.get_running_loop())
        with self._lock:
            self._subs.setdefault(match_id, set()).add(sub)
        return sub

    def unsubscribe(self, sub: Subscription) -> None:
        with self._lock:
            subs = self._subs.get(sub.match_id)
            if subs is not None:
                subs.discard(sub)
                if not subs:
                    del self._subs[sub.match_id]
                    self._seen.pop(sub.match_id, None)

    def watched(self) -> list[str]:
        with self._lock:
            return list(self._subs)

    @property
    def streams(self) -> int:
        """How many subscriptions are open in this process."""
        with self._lock:
            return sum(len(s) for s in self._subs.values())

    async def start(self) -> None:
        """Start the background work on the running loop (again, if its loop has gone)."""
        if self._closed:
            return
        task = self._task
        if task is not None and not task.done() and task.get_loop() is asyncio.get_running_loop():
            return
        self._task = asyncio.get_running_loop().create_task(self._run())
        await self._ready()

    async def _ready(self) -> None:
        """Wait (bounded) until changes of other processes are heard."""

    async def _run(self) -> None:
        """Hear changes of other processes until cancelled (nothing in the base class)."""

    async def close(self) -> None:
        self._closed = True
        task, self._task = self._task, None
        if task is not None and task.get_loop() is asyncio.get_running_loop():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    async def _resync(self) -> None:
        """Read every watched match's version and deliver the news."""
        ids = self.watched()
        if not ids:
            return
        versions = await asyncio.to_thread(read_versions, self.store.engine, ids)
        for match_id, version in versions.items():
            self._deliver(match_id, version)


class LocalBus(Bus):
    """In-process delivery, plus a poll of the watched matches' versions every ``poll``
    seconds (``None``: no poll, for a database no other process can open)."""

    def __init__(self, store: Store, *, poll: float | None = POLL_SECONDS) -> None:
        super().__init__(store)
        self.poll = poll
        url = store.engine.url
        self._file = url.database if url.get_backend_name() == "sqlite" else None
        self._counter: sqlite3.Connection | None = None
        self._count: int | None = None

    async def _run(self) -> None:
        if self.poll is None:
            return
        try:
            while True:
                await asyncio.sleep(self.poll)
                try:
                    if self.watched() and self._committed():
                        await self._resync()
                except Exception:  # a busy or vanished database: try again next round
                    self._count = None
                    log.warning("reading the watched matches' versions failed", exc_info=True)
        finally:
            if self._counter is not None:
                self._counter.close()
                self._counter = None

    def _committed(self) -> bool:
        """Whether another connection committed to the database since the last look (always
        True but for a SQLite file): ``PRAGMA data_version`` on a connection of this bus's
        own, which never writes; a read of a counter, quick enough for the event loop."""
        if self._file is None:
            return True
        if self._counter is None:
            self._counter = sqlite3.connect(self._file, isolation_level=None,
                                            check_same_thread=False)
        count = self._counter.execute("PRAGMA data_version").fetchone()[0]
        moved, self._count = count != self._count, count
        return bool(moved)


class PostgresBus(Bus):
    """``LISTEN/NOTIFY`` on :data:`CHANNEL`: one listening connection per process."""

    #: Backoff between reconnections: from the first to the last, doubling, with jitter.
    BACKOFF = (0.1, 5.0)
    #: How long a stream's first subscription waits for the listener to be connected.
    READY_SECONDS = 5.0
    #: Notifications waiting for the sender, at most (beyond, they are dropped and healed).
    OUTBOX = 10_000

    def __init__(self, store: Store) -> None:
        super().__init__(store)
        url = store.engine.url.set(drivername="postgresql")
        self._conninfo = url.render_as_string(hide_password=False)
        self._me = secrets.token_hex(4)
        self._listening = asyncio.Event()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._outbox: asyncio.Queue[str] | None = None
        self.reconnects = 0

    def _send(self, match_id: str, version: int | None) -> None:
        """Queue the notification for this process's sender (any thread); with no sender
        running (no loop yet), send it at once on a connection of the pool."""
        payload = f"{self._me} {match_id} {'p' if version is None else version}"
        loop, outbox = self._loop, self._outbox
        if loop is not None and outbox is not None:
            try:
                loop.call_soon_threadsafe(self._post, outbox, payload)
                return
            except RuntimeError:  # that loop is closed
                pass
        try:
            with self.store.engine.connect() as conn:
                conn.execute(text("SELECT pg_notify(:c, :p)"), {"c": CHANNEL, "p": payload})
                conn.commit()
        except Exception:  # the change is saved; streams reread versions at keep-alive
            log.warning("NOTIFY failed for match %s", match_id, exc_info=True)

    @staticmethod
    def _post(outbox: asyncio.Queue[str], payload: str) -> None:
        try:
            outbox.put_nowait(payload)
        except asyncio.QueueFull:  # the database is away: streams reread at keep-alive
            log.warning("the live outbox is full; a notification was dropped")

    async def _ready(self) -> None:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._listening.wait(), self.READY_SECONDS)

    def _heard(self, payload: str) -> None:
        parts = payload.split(" ")
        if len(parts) != 3 or parts[0] == self._me:
            return
        _me, match_id, what = parts
        if what == "p":
            self._deliver(match_id, None)
        elif what.isdigit():
            self._deliver(match_id, int(what))

    async def _run(self) -> None:
        self._outbox = asyncio.Queue(self.OUTBOX)
        self._loop = asyncio.get_running_loop()
        try:
            await asyncio.gather(self._listen(), self._sender(), self._heal())
        finally:
            self._loop = self._outbox = None

    async def _heal(self) -> None:
        """Every :data:`HEARTBEAT_SECONDS`, read the watched matches' versions (one query per
        500): a notification lost after a commit is made good here."""
        while True:
            await asyncio.sleep(HEARTBEAT_SECONDS)
            try:
                await self._resync()
            except Exception:
                log.warning("reading the watched matches' versions failed", exc_info=True)

    async def _sender(self) -> None:
        """Send the queued notifications on a connection of their own, many per statement
        when they queue up (each in its own autocommitted transaction, after the save's)."""
        import psycopg

        assert self._outbox is not None
        outbox = self._outbox
        delay = self.BACKOFF[0]
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(
                    self._conninfo, autocommit=True, application_name=APPLICATION_NAME + "-send"
                ) as conn:
                    delay = self.BACKOFF[0]
                    while True:
                        batch = [await outbox.get()]
                        while len(batch) < _CHUNK and not outbox.empty():
                            batch.append(outbox.get_nowait())
                        await conn.execute(
                            "SELECT pg_notify(%s, p) FROM unnest(%s::text[]) AS p",
                            (CHANNEL, batch),
                        )
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # that batch is lost: streams reread at keep-alive
                log.warning("live sender lost its connection (%s); reconnecting", exc)
                await asyncio.sleep(delay * (0.5 + random.random()))
                delay = min(delay * 2, self.BACKOFF[1])

    async def _listen(self) -> None:
        import psycopg

        self._listening.clear()
        delay = self.BACKOFF[0]
        first = True
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(
                    self._conninfo, autocommit=True, application_name=APPLICATION_NAME
                ) as conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    self._listening.set()
                    delay = self.BACKOFF[0]
                    if not first:
                        self.reconnects += 1
                        await self._resync()
                        for match_id in self.watched():
                            self._deliver(match_id, None)
                    first = False
                    while True:
                        async for note in conn.notifies(timeout=HEARTBEAT_SECONDS):
                            self._heard(note.payload)
                        await conn.execute("SELECT 1")  # a dead connection raises here
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                self._listening.clear()
                log.warning("live listener lost its connection (%s); reconnecting", exc)
                await asyncio.sleep(delay * (0.5 + random.random()))
                delay = min(delay * 2, self.BACKOFF[1])


def bus_for(store: Store) -> Bus:
    """The bus for the store's database: ``LISTEN/NOTIFY`` on PostgreSQL; otherwise in-process
    delivery with the poll (none for an in-memory SQLite database, which no other process can
    open)."""
    url = store.engine.url
    if url.get_backend_name() == "postgresql":
        return PostgresBus(store)
    memory = url.get_backend_name() == "sqlite" and url.database in (None, "", ":memory:")
    return LocalBus(store, poll=None if memory else POLL_SECONDS)


# Presence ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class SeatPresence:
    """One seat's presence: ``here`` (a stream of it is open) and when it was last seen."""

    seat: int
    here: bool
    last_seen: dt.datetime

    def as_dict(self) -> dict[str, object]:
        return {"seat": self.seat, "here": self.here,
                "last_seen": self.last_seen.isoformat(timespec="seconds") + "Z"}


def _now() -> dt.datetime:
    return dt.datetime.now(dt.UTC).replace(tzinfo=None)


class Presence:
    """Who is connected to each match's streams, in the table ``live_presence`` beside the
    store's tables (every worker and machine reads the same rows)."""

    def __init__(self, store: Store, *, stale: float = STALE_SECONDS) -> None:
        self._sessions = sessionmaker(store.engine, expire_on_commit=False)
        self.stale = dt.timedelta(seconds=stale)

    def arrive(self, match_id: str, seat: int) -> None:
        """A stream of ``seat`` opened."""
        self._change(match_id, seat, _Presence.streams + 1, first=1)

    def beat(self, match_id: str, seat: int) -> None:
        """A stream of ``seat`` is still open."""
        self._change(match_id, seat, _Presence.streams, first=1)

    def leave(self, match_id: str, seat: int) -> None:
        """A stream of ``seat`` closed."""
        fewer = case((_Presence.streams > 0, _Presence.streams - 1), else_=0)
        self._change(match_id, seat, fewer, first=0)

    def beat_many(self, seats: Sequence[tuple[str, int]]) -> None:
        """Streams of these ``(match id, seat)`` are still open: one statement per 500."""
        now = _now()
        with self._sessions() as s, s.begin():
            for start in range(0, len(seats), _CHUNK):
                chunk = list(seats[start:start + _CHUNK])
                s.execute(update(_Presence)
                          .where(tuple_(_Presence.match_id, _Presence.seat).in_(chunk))
                          .values(last_seen=now))

    def of(self, match_id: str) -> list[SeatPresence]:
        """Every seat of the match that ever had a stream, by seat."""
        return self.of_many([match_id]).get(match_id, [])

    def of_many(self, match_ids: Sequence[str]) -> dict[str, list[SeatPresence]]:
        """:meth:`of` for each of these matches (those with no row are left out)."""
        fresh = _now() - self.stale
        out: dict[str, list[SeatPresence]] = {}
        with self._sessions() as s:
            for start in range(0, len(match_ids), _CHUNK):
                rows = s.execute(
                    select(_Presence.match_id, _Presence.seat, _Presence.streams,
                           _Presence.last_seen)
                    .where(_Presence.match_id.in_(list(match_ids[start:start + _CHUNK])))
                    .order_by(_Presence.match_id, _Presence.seat)
                ).all()
                for match_id, seat, streams, seen in rows:
                    out.setdefault(match_id, []).append(
                        SeatPresence(seat, streams > 0 and seen >= fresh, seen))
        return out

    def _change(self, match_id: str, seat: int, streams: object, *, first: int) -> None:
        where = (_Presence.match_id == match_id, _Presence.seat == seat)
        for _attempt in range(3):
            with self._sessions() as s, s.begin():
                done = s.execute(
                    update(_Presence).where(*where).values(streams=streams, last_seen=_now())
                )
                if getattr(done, "rowcount", 1) == 1:
                    return
            try:
                with self._sessions() as s, s.begin():
                    s.add(_Presence(match_id=match_id, seat=seat, streams=first,
                                    last_seen=_now()))
                return
            except IntegrityError:  # another stream made the row first: update it
                continue


def presence_key(seats: Sequence[SeatPresence]) -> tuple[tuple[int, bool, dt.datetime | None], ...]:
    """What a ``presence`` event tells that matters: who is here, and since when each absent
    seat is gone (a present seat's refreshed ``last_seen`` is no news)."""
    return tuple((p.seat, p.here, None if p.here else p.last_seen) for p in seats)


def presence_data(match_id: str, seat: int, seats: Sequence[SeatPresence]) -> dict[str, object]:
    """The data of a ``presence`` event for the stream of ``seat``."""
    return {"type": "presence", "match": match_id, "you": seat,
            "seats": [p.as_dict() for p in seats]}
