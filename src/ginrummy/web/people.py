"""Tables for two people at the web server: the pieces the service needs beside the game.

A table for two people is a :class:`~ginrummy.table.Table` with an
:class:`~ginrummy.table.OnlinePerson` in each seat; :class:`~ginrummy.web.service.TableService`
drives it exactly as it drives a table against the computer (the one game loop of the Table),
and adds what only people need, all worked out here from the match and its
:class:`~ginrummy.store.PeopleInfo`:

* the invite (a link token) and its short code to read aloud;
* the clock: per move (and per client seed between hands), whose clock runs and its deadline;
* leaving: a person not seen for the grace period forfeits;
* :func:`due`: the first of those deadlines that has passed, applied at that moment;
* :func:`people_out`: what one seat may see of the table (never the other's pending seed);
* :func:`mirrored`: a finished hand seen from seat 1 as if it were seat 0, so that the coach's
  hand review (which reviews seat 0) gives seat 1 their own decisions only.
"""

from __future__ import annotations

import datetime as dt
import secrets

from ..hand import Hand
from ..store import MatchInfo, PeopleInfo
from ..table import Table
from .schemas import ClockOut, PeopleOut

__all__ = [
    "GRACE_SECONDS",
    "LOBBY_PER_ADDRESS",
    "LOBBY_PRESENT_SECONDS",
    "SEEN_EVERY_SECONDS",
    "clock_of",
    "due",
    "mirrored",
    "new_code",
    "new_invite",
    "people_out",
]

#: How long a person may be away (no request, no event stream) before they forfeit; a table
#: nobody joined is closed when its creator has been away this long.
GRACE_SECONDS = 120.0

#: A table waiting for its second person is listed in the lobby only while its creator was
#: seen in the last this many seconds: their page's event stream records them every
#: :data:`~.live.HEARTBEAT_SECONDS` (15 s), so this is two and a half missed beats, as the
#: streams' own presence (:data:`~.live.STALE_SECONDS`).
LOBBY_PRESENT_SECONDS = 37.5

#: The lobby lists at most this many tables made from one client address (the newest), so
#: that many accounts behind one address cannot push everyone else's tables off its list.
LOBBY_PER_ADDRESS = 3

#: A request that changes nothing records the person as seen only when their last record is
#: at least this old, so that a page reading the table after every event does not write a row
#: each time. The grace period may therefore end up to this much earlier than the last such
#: request plus :data:`GRACE_SECONDS` (a stream's keep-alive or any move records it anew).
SEEN_EVERY_SECONDS = 5.0

#: The short code's letters: no 0/O, 1/I/L, so it can be read aloud and typed back.
_CODE_LETTERS = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 8


def new_invite() -> str:
    """A fresh invite: 16 URL-safe characters (96 random bits), the link's token."""
    return secrets.token_urlsafe(12)


def new_code() -> str:
    """A fresh short code of 8 letters and digits (about 39 bits), shown as ``ABCD-EFGH``."""
    return "".join(secrets.choice(_CODE_LETTERS) for _ in range(CODE_LENGTH))


def show_code(code: str) -> str:
    return f"{code[:4]}-{code[4:]}"


def clock_of(table: Table, people: PeopleInfo) -> tuple[list[int], float] | None:
    """The seats whose clock runs now and the deadline (seconds since the epoch), or ``None``
    when no clock runs (no clock at this table, nobody joined yet, the match over). During a
    hand the clock is the mover's; between hands it runs for each person who has not sent a
    client seed for the next deal."""
    if people.clock is None or people.seats[1] is None or people.ended is not None:
        return None
    if table.match.over:
        return None
    if table.waiting_for_deal:
        seats = [s for s in (0, 1) if s not in people.seeds]
    else:
        seats = [] if table.to_act is None else [table.to_act]
    if not seats:
        return None
    return seats, people.clock_started + people.clock


def due(
    info: MatchInfo, table: Table, people: PeopleInfo, now: float, grace: float
) -> tuple[float, int | None, str] | None:
    """The first deadline of a match between two people that has passed at ``now``: (when,
    the winning seat or ``None``, why: ``"time"``, ``"left"`` or ``"closed"``); ``None`` when
    none has.

    Out of time: the person whose clock ran out loses; when both clocks ran out together
    (neither sent a client seed in time) nobody wins. Left: the person not seen for ``grace``
    seconds loses (the first to go, when both went). Closed: a table nobody joined whose
    creator has not been seen for ``grace`` seconds is closed, nobody winning (as when they
    start another match)."""
    if info.ended or people.ended is not None:
        return None
    if people.seats[1] is None:
        gone = people.seen[0] + grace
        return (gone, None, "closed") if gone <= now else None
    found: list[tuple[float, int | None, str]] = []
    clock = clock_of(table, people)
    if clock is not None and clock[1] <= now:
        seats, deadline = clock
        found.append((deadline, None if len(seats) == 2 else 1 - seats[0], "time"))
    for seat in (0, 1):
        gone = people.seen[seat] + grace
        if gone <= now:
            found.append((gone, 1 - seat, "left"))
    return min(found, key=lambda f: f[0]) if found else None


def _iso(t: float) -> str:
    return dt.datetime.fromtimestamp(t, dt.UTC).isoformat().replace("+00:00", "Z")


def people_out(
    info: MatchInfo, table: Table, people: PeopleInfo, me: int, now: float, grace: float
) -> PeopleOut:
    """What the person in seat ``me`` sees of the table for two people."""
    clock = None
    if people.clock is not None:
        running = clock_of(table, people)
        clock = ClockOut(
            limit=people.clock,
            seats=running[0] if running else [],
            deadline=_iso(running[1]) if running else None,
            seconds_left=round(max(0.0, running[1] - now), 3) if running else None,
        )
    joined = people.seats[1] is not None
    return PeopleOut(
        names=list(people.names),
        code=show_code(people.code),
        open=people.open,
        clock=clock,
        seeds_in=[s in people.seeds for s in (0, 1)],
        your_seed=people.seeds.get(me),
        present=[joined and now - people.seen[s] < grace for s in (0, 1)],
        ended=people.ended,
        winner=info.winner if info.status == "over" else None,
        rematch_offer=people.rematch_offer,
        rematch=people.rematch_id,
    )


def mirrored(hand: Hand) -> Hand:
    """``hand`` replayed with the seats swapped: the same deck dealt by the other seat gives
    each seat the other's cards (``deal_order``), and the same moves follow, so seat 0 of the
    copy is seat 1 of ``hand``. The coach reviews seat 0; this lets it review seat 1."""
    copy = Hand(hand.rules, deck=[int(c) for c in hand.deck], dealer=1 - hand.dealer)
    for event in hand.history:
        copy.play(event.text)
    return copy
