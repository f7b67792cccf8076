"""``GET /api/matches/{id}/events``: a match's live events as ``text/event-stream``.

Bearer auth as every other route (the page reads the stream with ``fetch`` and a
``ReadableStream``, since ``EventSource`` cannot send headers). The events:

- ``version`` (``id: <version>``, data ``{"type": "version", "match", "version"}``): first the
  current version, then one whenever the match changes. A reader that falls behind gets the
  newest version, not every one in between: the state (``GET /api/matches/{id}``) says the rest.
- ``presence`` (no ``id``; data ``{"type": "presence", "match", "you": your seat, "seats":
  [{"seat", "here", "last_seen"}]}``): after the first ``version``, and whenever a seat's
  streams open or close.
- a comment line every :data:`PING_SECONDS`, so proxies keep the connection open.

Resuming: send the last version seen as ``Last-Event-ID`` (or ``?since=``); when the match is
still at it, the stream starts with ``presence``, otherwise with the newest version at once.

Each worker process bounds its open streams per player, per client address and in all
(:mod:`~ginrummy.server.streams`: a player's stream past their bound replaces their oldest, one
past the address's bound is a 429 with ``Retry-After``, and a full worker sheds its longest idle
stream rather than refuse a fresh one). A stream ends when the client goes, when it is shed
(its response completed: the page reconnects later) or when the server shuts down
(sse-starlette watches uvicorn's exit signal). While it is open
its seat's presence row is refreshed and the service's ``seen`` called for it every
:data:`~.live.HEARTBEAT_SECONDS`, by one keep-alive task per process for all its streams
(which also wakes the streams of a match where a seat went stale); when the match has a clock
deadline the stream wakes at it to call ``expire_due``. (The bus, not each stream, rereads the
watched matches' versions to heal a lost notification.)
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from typing import Annotated

import anyio
from fastapi import APIRouter, FastAPI, Header, Query, Request
from sse_starlette import EventSourceResponse, ServerSentEvent
from starlette.concurrency import run_in_threadpool
from starlette.types import Receive, Scope, Send

from .limits import client_address
from .live import (
    HEARTBEAT_SECONDS,
    Bus,
    Presence,
    SeatPresence,
    Subscription,
    bus_for,
    presence_data,
    presence_key,
    read_versions,
)
from .routes import ERRORS, MatchId, Player
from .service import NotFound, TableService
from .streams import TRIM_QUIET, TRIM_ROUNDS, Slot, StreamLimits, Streams, give_memory_back

__all__ = ["install", "router", "Live", "MAX_STREAMS", "MAX_STREAMS_PER_ADDRESS",
           "MAX_STREAMS_PER_PLAYER", "PING_SECONDS"]

log = logging.getLogger(__name__)

#: Open streams one player may hold in one worker process (tabs, devices).
MAX_STREAMS_PER_PLAYER = StreamLimits().per_player
#: Open streams one client address may hold in one worker process.
MAX_STREAMS_PER_ADDRESS = StreamLimits().per_address
#: Open streams one worker process holds in all.
MAX_STREAMS = StreamLimits().total
#: How often a keep-alive comment is sent.
PING_SECONDS = 15
#: Longest a stream may take to end by itself once the server shuts down.
_SHUTDOWN_GRACE = 2.0
#: Longest a closing stream spends writing that its seat left.
_CLOSE_SECONDS = 5.0


@contextlib.asynccontextmanager
async def _lifespan(app: FastAPI) -> AsyncIterator[None]:
    live: Live | None = getattr(app.state, "live", None)
    if live is not None:
        await live.start()
    try:
        yield
    finally:
        if live is not None:
            await live.close()


router = APIRouter(prefix="/api", lifespan=_lifespan)


@dataclass
class Live:
    """The live events of one app: its bus, the presence rows, the open streams' bounds."""

    service: TableService
    bus: Bus
    presence: Presence
    streams: Streams = field(default_factory=Streams)
    #: Open streams by ``(match id, seat)``, for the keep-alive.
    seats: Counter[tuple[str, int]] = field(default_factory=Counter)
    #: The matches among them that are tables for two people (where presence has deadlines).
    people: set[str] = field(default_factory=set)
    _keepalive: asyncio.Task[None] | None = None
    _shown: dict[str, object] = field(default_factory=dict)
    _trimming: asyncio.Task[None] | None = None

    def __post_init__(self) -> None:
        self.streams.on_many_closed = self._give_memory_back

    async def start(self) -> None:
        """Start the bus and the keep-alive on the running loop (again if its loop has gone)."""
        await self.bus.start()
        task = self._keepalive
        if task is None or task.done() or task.get_loop() is not asyncio.get_running_loop():
            self._keepalive = asyncio.get_running_loop().create_task(self._keep_alive())

    async def close(self) -> None:
        task, self._keepalive = self._keepalive, None
        if task is not None and task.get_loop() is asyncio.get_running_loop():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await self.bus.close()

    async def _keep_alive(self) -> None:
        """Every :data:`~.live.HEARTBEAT_SECONDS`, for all this process's streams at once:
        refresh their seats' presence rows, tell the service each seat is still seen, and wake
        the streams of a match whose presence changed otherwise (a seat gone stale)."""
        while True:
            await asyncio.sleep(HEARTBEAT_SECONDS)
            seats = [k for k, n in self.seats.items() if n > 0]
            if not seats:
                continue
            seen = [(m, seat) for m, seat in seats if m in self.people]
            try:
                found = await run_in_threadpool(self._beat, seats, seen)
            except Exception:
                log.warning("refreshing the presence rows failed", exc_info=True)
                continue
            for match_id, key in found.items():
                if self._shown.get(match_id, key) != key:
                    self.bus.publish_presence(match_id)
                self._shown[match_id] = key
            for gone in set(self._shown) - set(found):
                del self._shown[gone]

    def take(self, player_id: int, address: str) -> Slot:
        """Count a new stream of the player from ``address`` (see :class:`Streams`), or refuse
        it (429). Called on the event loop only."""
        return self.streams.take(player_id, address)

    def give_back(self, slot: Slot) -> None:
        self.streams.give_back(slot)

    def _give_memory_back(self) -> None:
        """Many streams closed: once the closing is over, collect and trim the heap (in a
        thread: the event loop carries on meanwhile)."""
        if self._trimming is None or self._trimming.done():
            self._trimming = asyncio.get_running_loop().create_task(self._trim_when_quiet())

    async def _trim_when_quiet(self) -> None:
        streams = self.streams
        for _round in range(TRIM_ROUNDS):  # again while streams went on closing meanwhile
            while not streams.quiet():
                await asyncio.sleep(TRIM_QUIET)
            streams.closed_since_trim = 0
            await asyncio.get_running_loop().run_in_executor(None, give_memory_back)
            if not streams.closed_since_trim:
                return

    # In the thread pool: the database.

    def arrive(self, match_id: str, seat: int, people: bool
               ) -> tuple[int, list[SeatPresence], float | None]:
        """A stream of ``seat`` opens: presence, the current version, and at a table for two
        people (``people``) the person seen and the next deadline."""
        self.presence.arrive(match_id, seat)
        if people:
            self.service.seen(match_id, seat)
        self.bus.publish_presence(match_id)
        version = read_versions(self.service.store.engine, [match_id]).get(match_id)
        if version is None:
            raise NotFound(match_id)
        deadline = next_deadline(self.service, match_id) if people else None
        return version, self.presence.of(match_id), deadline

    def _beat(self, seats: list[tuple[str, int]],
              people: list[tuple[str, int]]) -> dict[str, object]:
        """Refresh the presence rows of ``seats``; the persons of ``people`` (the seats at
        tables for two people) are seen (their grace period starts again)."""
        self.presence.beat_many(seats)
        for match_id, seat in people:
            self.service.seen(match_id, seat)
        found = self.presence.of_many(sorted({m for m, _s in seats}))
        return {m: presence_key(p) for m, p in found.items()}

    def leave(self, match_id: str, seat: int) -> None:
        self.presence.leave(match_id, seat)
        self.bus.publish_presence(match_id)

def next_deadline(service: TableService, match_id: str) -> float | None:
    """Apply a deadline of the match that has passed (a clock run out, a person gone past the
    grace period), then the next one (seconds since the epoch), or ``None`` when none runs."""
    service.expire_due(match_id)
    return service.deadline(match_id)



def install(app: FastAPI, service: TableService, *, bus: Bus | None = None,
            limits: StreamLimits | None = None) -> Live:
    """Wire the live events into ``app``: the bus (by default the one for the store's
    database) hears every committed change of ``service``, and the stream route is added;
    ``limits``: the open streams' bounds (default :class:`StreamLimits`)."""
    live = Live(service, bus or bus_for(service.store), Presence(service.store),
                Streams(limits or StreamLimits()))
    service.on_change = live.bus.publish
    app.state.live = live
    app.include_router(router)
    return live


class _Stream(EventSourceResponse):
    """An event stream that runs ``on_close`` however it ends (client gone, shutdown, error),
    even if its body never started. On shutdown it stops ``sub``, so the body ends by itself
    and the response is completed rather than cut."""

    def __init__(self, content: AsyncIterator[ServerSentEvent], sub: Subscription,
                 on_close: Callable[[], Awaitable[None]]) -> None:
        shutdown = anyio.Event()

        async def stop_on_shutdown() -> None:
            await shutdown.wait()
            sub.stop()

        super().__init__(content, ping=PING_SECONDS, shutdown_event=shutdown,
                         shutdown_grace_period=_SHUTDOWN_GRACE,
                         data_sender_callable=stop_on_shutdown)
        self._on_close = on_close

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            with anyio.move_on_after(_CLOSE_SECONDS, shield=True):
                await self._on_close()


def _version_event(match_id: str, version: int) -> ServerSentEvent:
    data = {"type": "version", "match": match_id, "version": version}
    return ServerSentEvent(json.dumps(data), event="version", id=str(version))


def _presence_event(data: dict[str, object]) -> ServerSentEvent:
    return ServerSentEvent(json.dumps(data), event="presence")


@router.get(
    "/matches/{match_id}/events",
    response_class=EventSourceResponse,
    responses={
        **ERRORS,
        200: {"content": {"text/event-stream": {}},
              "description": "the match's events: version, presence"},
        429: {"description": "too many open streams for this player or address (see "
              "Retry-After)"},
    },
)
async def events(
    request: Request,
    player: Player,
    match_id: MatchId,
    since: Annotated[
        int | None,
        Query(ge=0, le=10**9, description="the last version seen (as Last-Event-ID)"),
    ] = None,
    last_event_id: Annotated[
        str | None,
        Header(alias="last-event-id", pattern=r"^[0-9]{1,9}$",
               description="the last version seen, sent back by a reconnecting client"),
    ] = None,
) -> EventSourceResponse:
    """The match's live events (``text/event-stream``): ``version`` first and on every change,
    ``presence`` when someone arrives or leaves; resumes from ``Last-Event-ID`` or ``since``."""
    live: Live = request.app.state.live
    service = live.service
    seat, people = await run_in_threadpool(service.seating, player, match_id)
    slot = live.take(player.id, client_address(request))
    sub: Subscription | None = None
    try:
        await live.start()
        sub = live.bus.subscribe(match_id)
        slot.attach(sub.stop)
        version, seats, deadline = await run_in_threadpool(live.arrive, match_id, seat, people)
    except BaseException:
        if sub is not None:
            live.bus.unsubscribe(sub)
        live.give_back(slot)
        live.streams.closed()
        raise
    resume = since if since is not None else (
        int(last_event_id) if last_event_id is not None else None)
    the_sub = sub
    live.seats[match_id, seat] += 1
    if people:
        live.people.add(match_id)

    async def close() -> None:
        live.bus.unsubscribe(the_sub)
        live.give_back(slot)
        live.seats[match_id, seat] -= 1
        if live.seats[match_id, seat] <= 0:
            del live.seats[match_id, seat]
            if (match_id, 1 - seat) not in live.seats:
                live.people.discard(match_id)
        try:
            await run_in_threadpool(live.leave, match_id, seat)
        finally:
            live.streams.closed()  # after the write: the memory is given back after these

    body = _events(live, the_sub, slot, seat, version, resume, seats, deadline, people)
    return _Stream(body, the_sub, close)


@router.get("/matches/{match_id}/presence", responses=ERRORS)
def presence(request: Request, player: Player, match_id: MatchId) -> dict[str, object]:
    """Who is connected to the match's event streams now, and when each seat was last seen:
    the data of the stream's ``presence`` event."""
    live: Live = request.app.state.live
    seat = live.service.seat_of(player, match_id)
    return presence_data(match_id, seat, live.presence.of(match_id))


async def _events(
    live: Live,
    sub: Subscription,
    slot: Slot,
    seat: int,
    version: int,
    resume: int | None,
    seats: list[SeatPresence],
    deadline: float | None,
    people: bool,
) -> AsyncIterator[ServerSentEvent]:
    """The stream's events. Only a table for two people has deadlines (a clock, the grace
    period): after a change its stream reads the next one (a deadline already passed is
    applied when the stream wakes for it, :func:`next_deadline`)."""
    match_id = sub.match_id
    service = live.service
    sent = version
    if resume is None or resume != version:
        yield _version_event(match_id, version)
    shown = presence_key(seats)
    yield _presence_event(presence_data(match_id, seat, seats))
    while True:
        wait = HEARTBEAT_SECONDS
        if deadline is not None:
            wait = min(wait, deadline - time.time())
        await sub.wait(max(wait, 0.0))
        if sub.stopped:
            return
        if deadline is not None and time.time() >= deadline:
            deadline = await run_in_threadpool(next_deadline, service, match_id)
        if sub.version > sent:
            sent = sub.version
            live.streams.sent(slot)  # not idle (only events count: a ping does not)
            yield _version_event(match_id, sent)
            if people:
                deadline = await run_in_threadpool(service.deadline, match_id)
        if sub.take_presence():
            seats = await run_in_threadpool(live.presence.of, match_id)
            if presence_key(seats) != shown:
                shown = presence_key(seats)
                live.streams.sent(slot)
                yield _presence_event(presence_data(match_id, seat, seats))
