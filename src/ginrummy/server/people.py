"""Tables for two people at the web server: the pieces the service needs beside the game.

A table for two people is a :class:`~ginrummy.engine.table.Table` with an
:class:`~ginrummy.engine.table.OnlinePerson` in each seat;
:class:`~ginrummy.server.service.TableService` drives it exactly as it drives a table against the
computer (the one game loop of the Table), and adds what only people need, all worked out here from
the match and its :class:`~ginrummy.server.store.PeopleInfo`:

* the invite (a link token) and its short code to read aloud;
* the clock: per move, during a hand only, whose clock runs and its deadline;
* leaving: a person not seen for the grace period forfeits, and so does one whose page sends
  no client seed for the next deal within it;
* :func:`deadlines` and :func:`due`: those deadlines, and the first that has passed, applied
  at that moment;
* :func:`people_out`: what one seat may see of the table (never the other's pending seed),
  and once it is over whether it was rated and, if not, why
  (:data:`~ginrummy.server.store.ratings.WHY_UNRATED`);
* :func:`mirrored`: a finished hand seen from seat 1 as if it were seat 0, so that the coach's
  hand review (which reviews seat 0) gives seat 1 their own decisions only.
"""

from __future__ import annotations

import datetime as dt
import secrets

from ..engine.hand import Hand
from ..engine.table import Table
from .schemas import ClockOut, PeopleOut
from .store import MatchInfo, PeopleInfo
from .store.ratings import WHY_UNRATED

__all__ = [
    "GRACE_SECONDS",
    "LOBBY_PER_ADDRESS",
    "LOBBY_PRESENT_SECONDS",
    "SEEN_EVERY_SECONDS",
    "clock_of",
    "deadlines",
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
    when no clock runs (no clock at this table, nobody joined yet, no hand on the table, the
    match over). A clock runs only during a hand, for the person to move: never before a
    hand is dealt (each page sends its client seed by itself; see :func:`deadlines` for a
    seed that never comes)."""
    if people.clock is None or people.seats[1] is None or people.ended is not None:
        return None
    if table.match.over or table.waiting_for_deal or table.to_act is None:
        return None
    return [table.to_act], people.clock_started + people.clock


def deadlines(
    table: Table, people: PeopleInfo, grace: float
) -> list[tuple[float, int | None, str]]:
    """Every deadline of a match between two people that is running now, passed or not:
    (when, the winning seat or ``None``, why: ``"time"``, ``"left"`` or ``"closed"``).

    - Out of time: the mover's clock (:func:`clock_of`); the mover loses.
    - Left: a person not seen for ``grace`` seconds loses.
    - Left too: between hands, a person whose page has not sent its client seed ``grace``
      seconds after the hand ended (or the table was joined) loses; both missing, nobody wins.
      A page sends its seed by itself within seconds, so only a page that stopped, or a
      client that holds the table hostage, meets this.
    - Closed: a table nobody joined whose creator has not been seen for ``grace`` seconds is
      closed, nobody winning (as when they start another match).
    """
    if people.ended is not None or table.match.over:
        return []
    if people.seats[1] is None:
        return [(people.seen[0] + grace, None, "closed")]
    found: list[tuple[float, int | None, str]] = []
    clock = clock_of(table, people)
    if clock is not None:
        found.append((clock[1], 1 - clock[0][0], "time"))
    for seat in (0, 1):
        found.append((people.seen[seat] + grace, 1 - seat, "left"))
    if table.waiting_for_deal:
        missing = [s for s in (0, 1) if s not in people.seeds]
        if missing:
            found.append((people.clock_started + grace,
                          None if len(missing) == 2 else 1 - missing[0], "left"))
    return found


def due(
    info: MatchInfo, table: Table, people: PeopleInfo, now: float, grace: float
) -> tuple[float, int | None, str] | None:
    """The first deadline of a match between two people that has passed at ``now`` (see
    :func:`deadlines`), or ``None`` when none has (the first to pass wins a tie of kinds)."""
    if info.ended or people.ended is not None:
        return None
    passed = [d for d in deadlines(table, people, grace) if d[0] <= now]
    return min(passed, key=lambda d: d[0]) if passed else None


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
    over = info.status == "over"
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
        rated=people.rated if over else None,
        unrated=people.unrated if over else None,  # type: ignore[arg-type]
        unrated_why=WHY_UNRATED.get(people.unrated or "") if over else None,
    )


def mirrored(hand: Hand) -> Hand:
    """``hand`` replayed with the seats swapped: the same deck dealt by the other seat gives
    each seat the other's cards (``deal_order``), and the same moves follow, so seat 0 of the
    copy is seat 1 of ``hand``. The coach reviews seat 0; this lets it review seat 1."""
    copy = Hand(hand.rules, deck=[int(c) for c in hand.deck], dealer=1 - hand.dealer)
    for event in hand.history:
        copy.play(event.text)
    return copy
