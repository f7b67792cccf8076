"""The bus and the presence rows on their own: a version published from a worker thread wakes
an async subscription; versions only go forward; presence counts streams and goes stale."""

from __future__ import annotations

import asyncio
import datetime as dt
import threading
from pathlib import Path

from sqlalchemy import text

from ginrummy.server.live import LocalBus, Presence, bus_for, presence_key
from ginrummy.server.store import Store


def test_a_version_published_from_a_thread_wakes_the_subscription(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'g.sqlite3'}")
    bus = LocalBus(store, poll=None)

    async def main() -> list[int]:
        sub = bus.subscribe("m1")
        other = bus.subscribe("m2")
        got = []
        for version in (3, 2, 5):  # 2 is older than 3: it wakes nobody
            t = threading.Thread(target=bus.publish, args=("m1", version))
            t.start()
            t.join()
        for _ in range(3):
            if not await sub.wait(30):
                break
            got.append(sub.version)
            if sub.version == 5:
                break
        assert other.version == 0 and not other.presence
        bus.unsubscribe(sub)
        bus.unsubscribe(other)
        assert bus.streams == 0
        return got

    # In a thread of its own: a test before this one in the process (Playwright's sync API)
    # may have left an event loop running in this thread.
    out: list[list[int]] = []
    runner = threading.Thread(target=lambda: out.append(asyncio.run(main())))
    try:
        runner.start()
        runner.join(120)
    finally:
        store.close()
    assert out, "the subscription did not finish"
    got = out[0]
    assert got[-1] == 5 and got == sorted(got)


def test_presence_counts_streams_and_goes_stale(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'g.sqlite3'}")
    try:
        presence = Presence(store)
        assert presence.of("m") == []
        presence.arrive("m", 0)
        presence.arrive("m", 0)
        presence.arrive("m", 1)
        presence.leave("m", 0)
        assert [(p.seat, p.here) for p in presence.of("m")] == [(0, True), (1, True)]
        presence.leave("m", 0)
        presence.leave("m", 0)  # one more leave than arrivals: the count stays at zero
        assert [(p.seat, p.here) for p in presence.of("m")] == [(0, False), (1, True)]
        presence.arrive("m", 0)
        assert presence.of("m")[0].here
        # A worker killed with a stream open leaves its count behind, but no longer refreshes
        # the row: after the stale time the seat is not here.
        hour_ago = dt.datetime.now(dt.UTC).replace(tzinfo=None) - dt.timedelta(hours=1)
        with store.engine.begin() as conn:
            conn.execute(text("UPDATE live_presence SET last_seen = :t WHERE seat = 1"),
                         {"t": hour_ago})
        seats = presence.of("m")
        assert [(p.seat, p.here) for p in seats] == [(0, True), (1, False)]
        assert seats[1].last_seen == hour_ago
        assert seats[1].as_dict()["last_seen"] == hour_ago.isoformat(timespec="seconds") + "Z"
    finally:
        store.close()


def test_the_bus_is_chosen_from_the_database_url(tmp_path: Path) -> None:
    memory, file = Store("sqlite://"), Store(f"sqlite:///{tmp_path / 'g.sqlite3'}")
    try:
        a, b = bus_for(memory), bus_for(file)
        assert isinstance(a, LocalBus) and a.poll is None  # no other process can open it
        assert isinstance(b, LocalBus) and b.poll is not None
    finally:
        memory.close()
        file.close()


def test_one_keep_alive_refreshes_many_seats_and_only_staleness_is_news(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'g.sqlite3'}")
    try:
        presence = Presence(store)
        for match_id in ("a", "b"):
            presence.arrive(match_id, 0)
            presence.arrive(match_id, 1)
        hour_ago = dt.datetime.now(dt.UTC).replace(tzinfo=None) - dt.timedelta(hours=1)
        with store.engine.begin() as conn:
            conn.execute(text("UPDATE live_presence SET last_seen = :t"), {"t": hour_ago})
        before = presence.of_many(["a", "b"])
        assert all(not p.here for seats in before.values() for p in seats)
        presence.beat_many([("a", 0), ("a", 1), ("b", 1)])
        after = presence.of_many(["a", "b", "nosuch"])
        assert set(after) == {"a", "b"}
        assert [(p.seat, p.here) for p in after["a"]] == [(0, True), (1, True)]
        assert [(p.seat, p.here) for p in after["b"]] == [(0, False), (1, True)]
        # A present seat's newer last_seen is no news; a seat coming or going is.
        assert presence_key(after["b"]) != presence_key(before["b"])
        presence.beat_many([("a", 0), ("a", 1)])
        assert presence_key(presence.of("a")) == presence_key(after["a"])
    finally:
        store.close()
