"""The bounds on one worker process's open event streams (issue 37, item 5), and giving their
memory back after a flood.

A stream holds a connection, a task and a little memory for as long as a page is open, so each
worker process bounds how many it holds (:class:`StreamLimits`):

- per player (tabs, devices): a player's stream past the bound *replaces* their oldest one,
  when that one is at least :data:`REPLACE_AFTER` seconds old (a phone that slept, a tab whose
  connection died without a word: the fresh page wins); a younger one is a 429;
- per client address: a stream past the bound is a 429 (the address's other streams are
  people playing; the new one waits for one of them to go);
- in all: a fresh stream is never refused for a full worker; the stream that has been idle
  longest (no event sent for the longest time: a flood's streams sit silent, a game's streams
  hear every move) is shed to make room.

A shed stream ends cleanly (its response is completed, as at shutdown), so the page's reconnect
(``follow`` in ``static/js/people.js``) resumes it later with ``Last-Event-ID``.

Each process counts its own streams (with ``--workers N`` a player or an address may hold N
times as many in all): a stream lives in one process, and counting in the database would
cost a write per stream opened and closed. When many streams have closed (:data:`TRIM_AFTER`)
and the closing is over (:data:`TRIM_QUIET` after the last closing stream's last write, not its
slot's release: a flood's closing writes queue for the thread pool for seconds, their streams'
objects alive meanwhile), the process collects its garbage and hands the
freed heap back to the operating system (glibc's ``malloc_trim``). That gives back most of a
flood's memory only when objects are allocated by glibc's ``malloc`` (``PYTHONMALLOC=malloc``,
which ``serve --workers N`` sets for its workers): Python's own allocator frees an arena only
when it is wholly empty, and the few objects that outlive a flood keep most of its arenas.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from fastapi import HTTPException

from .bounds import STREAMS_PER_ADDRESS, STREAMS_PER_PLAYER, STREAMS_TOTAL

__all__ = ["StreamLimits", "Slot", "Streams", "give_memory_back", "REPLACE_AFTER",
           "RETRY_AFTER", "TRIM_AFTER", "TRIM_QUIET", "TRIM_ROUNDS"]

#: The ``Retry-After`` of a refused stream, in seconds.
RETRY_AFTER = 5
#: A player's stream past their bound replaces their oldest one only when that one is at least
#: this old (seconds): so two tabs of one player do not take turns shedding each other.
REPLACE_AFTER = 15.0
#: After this many streams have closed, the process gives their memory back...
TRIM_AFTER = 200
#: ... once no stream has closed for this many seconds (the flood is over, its objects gone),
#: and again, up to this many times in all, while more closed meanwhile.
TRIM_QUIET = 2.0
TRIM_ROUNDS = 5


@dataclass(frozen=True)
class StreamLimits:
    """How many event streams one worker process holds: per player, per client address, in
    all."""

    per_player: int = STREAMS_PER_PLAYER
    per_address: int = STREAMS_PER_ADDRESS
    total: int = STREAMS_TOTAL


@dataclass(eq=False)
class Slot:
    """One open stream: whose, from where, since when, and when it last sent an event
    (``time.monotonic`` seconds). ``stop`` ends the stream (set once it is running)."""

    player_id: int
    address: str
    opened: float
    active: float
    stop: Callable[[], None] | None = None
    shed: bool = False
    counted: bool = True

    def attach(self, stop: Callable[[], None]) -> None:
        """The stream is running: ``stop`` ends it (at once if it was shed meanwhile)."""
        self.stop = stop
        if self.shed:
            stop()


@dataclass
class Streams:
    """The open streams of one process, bounded by ``limits``. Used on the event loop only."""

    limits: StreamLimits = field(default_factory=StreamLimits)
    clock: Callable[[], float] = time.monotonic
    #: Called (on the event loop) when :data:`TRIM_AFTER` streams have closed since the memory
    #: was last given back: the caller waits until :meth:`quiet`, then gives it back.
    on_many_closed: Callable[[], None] = lambda: None
    slots: set[Slot] = field(default_factory=set)
    by_player: dict[int, list[Slot]] = field(default_factory=dict)
    by_address: Counter[str] = field(default_factory=Counter)
    closed_since_trim: int = 0
    last_close: float = 0.0
    shed_count: int = 0

    def __len__(self) -> int:
        return len(self.slots)

    def take(self, player_id: int, address: str) -> Slot:
        """Count a new stream of the player from ``address``, shedding the player's oldest
        or the longest idle stream when a bound is reached, or refuse it (429 with
        ``Retry-After``). A refused stream sheds nothing."""
        now = self.clock()
        limits = self.limits
        mine = self.by_player.get(player_id, [])
        replaced: Slot | None = None
        if len(mine) >= limits.per_player:
            oldest = min(mine, key=lambda s: s.opened)
            if now - oldest.opened < REPLACE_AFTER:
                raise _refused(f"You already have {limits.per_player} live streams open here; "
                               "close one (another tab?) and try again.")
            replaced = oldest
        here = self.by_address[address] - (replaced is not None and replaced.address == address)
        if here >= limits.per_address:
            raise _refused(f"Your address already has {limits.per_address} live streams open "
                           "here; try again when one of them has closed.")
        if replaced is not None:
            self.shed(replaced)
        while len(self.slots) >= limits.total:
            self.shed(min(self.slots, key=lambda s: s.active))
        slot = Slot(player_id, address, now, now)
        self.slots.add(slot)
        self.by_player.setdefault(player_id, []).append(slot)
        self.by_address[address] += 1
        return slot

    def sent(self, slot: Slot) -> None:
        """The stream sent an event: it is not idle."""
        slot.active = self.clock()

    def shed(self, slot: Slot) -> None:
        """End ``slot``'s stream to make room: it stops counting now and ends cleanly."""
        self._uncount(slot)
        slot.shed = True
        self.shed_count += 1
        if slot.stop is not None:
            slot.stop()

    def give_back(self, slot: Slot) -> None:
        """The stream ended (however: its client went, it was shed, the server stops): it
        stops counting at once. Call :meth:`closed` when its closing is done."""
        self._uncount(slot)

    def closed(self) -> None:
        """A stream's closing is done (its last write made, its objects about to go): this,
        not :meth:`give_back`, counts toward giving the memory back, so that the trim comes
        after a flood's closing writes rather than in the middle of them."""
        self.closed_since_trim += 1
        self.last_close = self.clock()
        if self.closed_since_trim == TRIM_AFTER:
            self.on_many_closed()

    def quiet(self) -> bool:
        """Whether no stream has closed for :data:`TRIM_QUIET` seconds."""
        return self.clock() - self.last_close >= TRIM_QUIET

    def _uncount(self, slot: Slot) -> None:
        if not slot.counted:
            return
        slot.counted = False
        self.slots.discard(slot)
        mine = self.by_player.get(slot.player_id, [])
        if slot in mine:
            mine.remove(slot)
        if not mine:
            self.by_player.pop(slot.player_id, None)
        self.by_address[slot.address] -= 1
        if self.by_address[slot.address] <= 0:
            del self.by_address[slot.address]


def _refused(detail: str) -> HTTPException:
    return HTTPException(429, detail, headers={"Retry-After": str(RETRY_AFTER)})


def _malloc_trim() -> Callable[[int], int] | None:
    name = ctypes.util.find_library("c")
    if name is None:
        return None
    try:
        trim = ctypes.CDLL(name).malloc_trim  # glibc only (not musl, not macOS)
    except (OSError, AttributeError):
        return None
    trim.argtypes, trim.restype = [ctypes.c_size_t], ctypes.c_int
    return trim


_TRIM = _malloc_trim()


def give_memory_back() -> None:
    """Collect garbage, then hand the heap's free pages back to the operating system (glibc's
    ``malloc_trim(0)``, where there is one; elsewhere the collection alone)."""
    gc.collect()
    if _TRIM is not None:
        _TRIM(0)
