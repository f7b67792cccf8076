"""Bounds on what one player, or one address, can make the server do (issue 12, item 3).

Three pieces, each small:

- :class:`RateLimits` and :class:`RateLimiter`: how many requests of a kind a player or a
  client address may send in a window (moving windows, in the ``limits`` library's notation),
  counted in the database (:mod:`ginrummy.server.store.limits`), so every server process and machine
  on it counts the same requests; over the limit the answer is 429 with ``Retry-After``.
- :class:`CoachPool`: the coach's CPU work (assessing a decision, judging a revisited move)
  runs in a separate process (one by default) at a lower scheduling priority, so it never
  holds the server process's interpreter lock while another player's move is being answered,
  and the operating system serves the move first when both want a CPU. At most ``queue`` jobs wait
  behind the running ones, and one player (or address) has at most one job in it at a time;
  past either, the answer is 503 or 429 with ``Retry-After``.
- :class:`Recent`: a small least-recently-used cache for answers that cannot change (a move
  judged at a decision of a finished hand, a sample situation's remark).

The coach's pool and the cache are each process's own (with ``--workers N``, N coach
processes at most).
"""

from __future__ import annotations

import math
import multiprocessing
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from dataclasses import dataclass, fields, replace
from typing import Generic, TypeVar

from fastapi import HTTPException, Request
from limits import RateLimitItem, parse_many

from .store import Store

__all__ = [
    "RateLimits", "RateLimiter", "CoachPool", "Recent", "TooMany", "client_address",
    "limit_claims", "limit_new_players", "limit_lesson_coach", "limit_pair",
]

T = TypeVar("T")
K = TypeVar("K", bound=Hashable)


@dataclass(frozen=True)
class RateLimits:
    """How many requests of each kind are allowed, in the ``limits`` notation
    (``"60/minute;600/hour"``); ``""`` means no limit for that kind."""

    #: The coach's endpoints (remarks, assessing ahead, reviews, revisits), per player. The
    #: page asks twice per move of the person at most (assess ahead, and the remark).
    coach_player: str = "120/minute;2000/hour"
    #: The same, per client address (several players behind one address share it).
    coach_address: str = "360/minute;6000/hour"
    #: The coach's view at a sample situation (no token needed), per client address.
    lesson_address: str = "60/minute;600/hour"
    #: New players (accounts), per client address. The page makes one per new browser, so a
    #: household or a classroom behind one address makes a few at a time and a few dozen a
    #: day; a script making accounts to farm ratings or flood the lobby is held to 100 an hour.
    players_address: str = "10/minute;100/hour;300/day"
    #: New matches and tables (``POST /api/matches``), per player: a match against the
    #: computer or a table for two lasts minutes, and each new one ends the player's last.
    matches_player: str = "30/minute;300/hour"
    #: The same, per client address.
    matches_address: str = "120/minute;1500/hour"
    #: Joins (``POST /api/invites/{invite}``, and a look at an invite before joining), per
    #: player: each request tries one invite or short code, so this bounds guessing them.
    joins_player: str = "20/minute;200/hour"
    #: The same, per client address.
    joins_address: str = "60/minute;600/hour;2000/day"
    #: Transfer codes made (``POST /api/me/transfer-code``), per player.
    transfer_player: str = "5/minute;30/hour"
    #: The same, per client address.
    transfer_address: str = "20/minute;200/hour"
    #: Transfer codes tried (``POST /api/players/claim``, no token), per client address: a
    #: person types one code, and again after a typing mistake.
    claims_address: str = "5/minute;20/hour;100/day"

    @classmethod
    def off(cls) -> RateLimits:
        """No rate limits at all (for a benchmark of the worst case)."""
        return cls(**{f.name: "" for f in fields(cls)})

    def changed(self, changes: Mapping[str, str]) -> RateLimits:
        """These limits with some kinds changed (``{"players_address": "20/minute"}``; ``""``
        or ``"off"``: no limit), each checked: an unknown kind or a limit the ``limits``
        notation cannot read is a :class:`ValueError` saying so."""
        kinds = [f.name for f in fields(self)]
        out: dict[str, str] = {}
        for kind, value in changes.items():
            if kind not in kinds:
                raise ValueError(f"there is no rate limit {kind!r}; the kinds are "
                                 f"{', '.join(kinds)}")
            value = value.strip()
            if value.lower() in ("", "off"):
                out[kind] = ""
                continue
            try:
                parse_many(value)
            except ValueError:
                raise ValueError(f"{kind}: {value!r} is not a limit such as '10/minute;100/hour'"
                                 ) from None
            out[kind] = value
        return replace(self, **out)


class TooMany(HTTPException):
    """429 or 503 with ``Retry-After`` (whole seconds, at least 1) and a sentence."""

    def __init__(self, status: int, detail: str, retry_after: float) -> None:
        seconds = max(1, math.ceil(retry_after))
        super().__init__(status, detail, headers={"Retry-After": str(seconds)})


class RateLimiter:
    """The :class:`RateLimits`, counted in ``store``'s database for every process that uses
    it (``clock``: seconds since the epoch; tests pass one)."""

    def __init__(self, rules: RateLimits, store: Store,
                 clock: Callable[[], float] = time.time) -> None:
        self.rules = rules
        self.store = store
        self.clock = clock
        self._items: dict[str, list[RateLimitItem]] = {
            f.name: parse_many(getattr(rules, f.name)) if getattr(rules, f.name) else []
            for f in fields(rules)
        }
        #: Each kind's windows as the store counts them: ``(amount, seconds)``.
        self._windows: dict[str, list[tuple[int, float]]] = {
            kind: [(item.amount, float(item.get_expiry())) for item in items]
            for kind, items in self._items.items()
        }

    def check(self, kind: str, who: str, what: str, request: Request | None = None) -> None:
        """Count one request of ``kind`` by ``who``; over a limit, :class:`TooMany` (429)
        saying ``what`` is limited and when to try again, and the request is not counted.
        Given the ``request``, the count is noted on it for :meth:`refund`."""
        self.check_all([(kind, who, what)], request)

    def check_all(self, checks: Sequence[tuple[str, str, str]],
                  request: Request | None = None) -> None:
        """:meth:`check` each ``(kind, who, what)`` in turn, all or nothing: when one is over
        its limit, those counted before it are taken back, so a refused request uses up no
        allowance at all (the player's, say, when the address's limit refuses it)."""
        counted: list[tuple[str, str, float]] = []
        try:
            for kind, who, what in checks:
                at = self._hit(kind, who, what)
                if at is not None:
                    counted.append((kind, who, at))
        except TooMany:
            for kind, who, at in counted:
                self.store.rate_unhit(kind, who, at)
            raise
        if request is not None and counted:
            request.state.rate_hits = [*getattr(request.state, "rate_hits", ()), *counted]

    def _hit(self, kind: str, who: str, what: str) -> float | None:
        """Count one request; the time it was counted at, or ``None`` for a kind without a
        limit. Over a limit: :class:`TooMany`, nothing counted."""
        windows = self._windows[kind]
        if not windows:
            return None
        now = self.clock()
        over = self.store.rate_hit(kind, who, windows, now)
        if over is not None:
            index, wait = over
            raise TooMany(429, f"Too many {what}: at most {_per(self._items[kind][index])}. "
                          f"Try again in {max(1, math.ceil(wait))} s.", wait)
        return now

    def refund(self, request: Request) -> None:
        """Take back every count :meth:`check` noted on ``request``: the request was let
        through, then refused as malformed (422), and bad input changes nothing, the
        allowance included. (FastAPI runs the limits' dependencies before it checks the
        request's parameters and body.)"""
        for kind, who, at in getattr(request.state, "rate_hits", ()):
            self.store.rate_unhit(kind, who, at)
        request.state.rate_hits = []


def _per(item: RateLimitItem) -> str:
    unit = item.GRANULARITY.name
    span = f"{item.multiples} {unit}s" if item.multiples != 1 else unit
    return f"{item.amount} per {span}"


#: How long a client is asked to wait when the coach's queue is full, in seconds.
BUSY_RETRY = 2


class CoachPool:
    """Runs the coach's CPU-bound calls in ``processes`` worker processes (``0``: in the
    calling thread, for tests), with at most ``queue`` calls waiting and one call in the pool
    per owner (a player id or an address) at a time.

    :meth:`run` is called from a request's worker thread and blocks that thread (not the
    event loop, and without holding the interpreter lock) until the answer is ready."""

    def __init__(self, processes: int = 1, queue: int = 4) -> None:
        self.processes = processes
        self.capacity = max(1, processes) + queue
        self._lock = threading.Lock()
        self._in_pool = 0
        self._owners: set[str] = set()

    def run(self, owner: str, fn: Callable[..., T], *args: object) -> T:
        with self._slot(owner):
            if self.processes == 0:
                return fn(*args)
            try:
                return self._pool().submit(fn, *args).result()
            except BrokenProcessPool:  # a worker died (killed, out of memory): start afresh
                self._restart()
                raise TooMany(503, "The coach was restarted; ask again in a moment.",
                              BUSY_RETRY) from None

    @contextmanager
    def _slot(self, owner: str) -> Iterator[None]:
        with self._lock:
            if owner in self._owners:
                raise TooMany(429, "The coach is still working on your previous question; "
                              "ask again when it has answered.", 1)
            if self._in_pool >= self.capacity:
                raise TooMany(503, "The coach is busy with other players; ask again in a "
                              "moment.", BUSY_RETRY)
            self._in_pool += 1
            self._owners.add(owner)
        try:
            yield
        finally:
            with self._lock:
                self._in_pool -= 1
                self._owners.discard(owner)

    def _pool(self) -> Executor:
        return _shared_executor(self.processes)

    def _restart(self) -> None:
        _drop_executor(self.processes, wait=False)

    def close(self) -> None:
        """Stop the worker processes (the server's shutdown)."""
        _drop_executor(self.processes, wait=True)


# The worker processes, one set per size, shared by every app of this process (one app in a
# server; many in a test run, which would otherwise start a worker per app).
_executors: dict[int, ProcessPoolExecutor] = {}
_executors_lock = threading.Lock()


def _shared_executor(processes: int) -> ProcessPoolExecutor:
    with _executors_lock:
        found = _executors.get(processes)
        if found is None:
            # "spawn": a fresh interpreter, never a fork of this threaded server.
            context = multiprocessing.get_context("spawn")
            found = _executors[processes] = ProcessPoolExecutor(
                processes, mp_context=context, initializer=_lower_priority)
        return found


def _drop_executor(processes: int, *, wait: bool) -> None:
    with _executors_lock:
        found = _executors.pop(processes, None)
    if found is not None:
        found.shutdown(wait=wait, cancel_futures=True)


#: How much lower the coach's worker processes run than the server (``nice`` increment): the
#: operating system then gives a move's work the CPU first when both want it.
COACH_NICENESS = 10


def _lower_priority() -> None:
    os.nice(COACH_NICENESS)


def put_newest(data: OrderedDict[K, T], key: K, value: T, size: int) -> None:
    """Put ``key`` in ``data`` as its newest entry, dropping the oldest beyond ``size``
    entries (the caller holds the lock that guards ``data``)."""
    data[key] = value
    data.move_to_end(key)
    while len(data) > size:
        data.popitem(last=False)


class Recent(Generic[K, T]):
    """A thread-safe least-recently-used map of at most ``size`` answers."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._data: OrderedDict[K, T] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: K) -> T | None:
        with self._lock:
            found = self._data.get(key)
            if found is not None:
                self._data.move_to_end(key)
            return found

    def put(self, key: K, value: T) -> None:
        with self._lock:
            put_newest(self._data, key, value, self.size)

    def __len__(self) -> int:
        return len(self._data)


def client_address(request: Request) -> str:
    """The client's address as the server sees it (the proxy's, behind a reverse proxy,
    unless uvicorn is told to trust its forwarded headers: see docs/web.md)."""
    return f"address:{request.client.host if request.client else 'unknown'}"


def limiter_of(request: Request) -> RateLimiter:
    limiter: RateLimiter = request.app.state.limiter
    return limiter


def limit_pair(request: Request, kind: str, player_id: int, what: str) -> None:
    """Count a request of ``kind`` by the player (``<kind>_player``) and by the client address
    (``<kind>_address``), all or nothing (429 with ``Retry-After`` over either)."""
    limiter_of(request).check_all([
        (f"{kind}_player", f"player:{player_id}", what),
        (f"{kind}_address", client_address(request), f"{what} from your address"),
    ], request)


def limit_new_players(request: Request) -> None:
    """A dependency of ``POST /api/players``: new players per client address."""
    limiter_of(request).check("players_address", client_address(request), "new players",
                              request)


def limit_claims(request: Request) -> None:
    """A dependency of ``POST /api/players/claim``: transfer codes tried per client address."""
    limiter_of(request).check("claims_address", client_address(request),
                              "transfer codes tried", request)


def limit_lesson_coach(request: Request) -> None:
    """A dependency of the sample situations' coach: requests per client address."""
    limiter_of(request).check("lesson_address", client_address(request), "coach requests",
                              request)
