"""Live events across processes on PostgreSQL: two separate servers share one throwaway
cluster; a stream held by one hears moves made through the other (``LISTEN/NOTIFY``), also
after its listening connection was cut; the presence rows are shared."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import text

from ginrummy.server.live import APPLICATION_NAME, Presence
from ginrummy.server.store import Store

from .conftest import Server
from .test_live import Api


@pytest.fixture(scope="module")
def servers(pg_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[Server]]:
    folder = tmp_path_factory.mktemp("live-pg")
    started: list[Server] = []
    try:
        for name in ("a", "b"):
            started.append(Server(pg_url, folder / f"{name}.log").start())
        yield started
    finally:
        for s in started:
            s.stop()
    for name in ("a", "b"):
        log = (folder / f"{name}.log").read_text()
        assert "Traceback" not in log and "ERROR" not in log, log


def test_a_move_through_one_server_reaches_a_stream_on_the_other(
    servers: list[Server],
) -> None:
    a, b = servers
    ann_a = Api(a.url)
    ann_b = Api(b.url, ann_a.token)
    try:
        state = ann_a.new_match()
        stream = ann_a.events(state["id"])
        try:
            assert stream.next()["data"]["version"] == state["version"]
            for _ in range(5):
                state = ann_b.move(state)
                e = stream.until("version")
                assert e["data"]["version"] == state["version"]
        finally:
            stream.close()
    finally:
        ann_a.close()
        ann_b.close()


def listeners(store: Store) -> set[int]:
    """The process ids of the cluster's listening connections."""
    with store.engine.connect() as conn:
        return set(conn.execute(
            text("SELECT pid FROM pg_stat_activity WHERE application_name = :n"),
            {"n": APPLICATION_NAME},
        ).scalars())


def test_the_listener_reconnects_after_its_connection_is_cut(
    servers: list[Server], pg_url: str
) -> None:
    a, b = servers
    ann_a = Api(a.url)
    ann_b = Api(b.url, ann_a.token)
    store = Store(pg_url)
    try:
        state = ann_a.new_match()
        stream = ann_a.events(state["id"])
        try:
            assert stream.next()["data"]["version"] == state["version"]
            old = listeners(store)
            assert len(old) == 2  # one per server
            with store.engine.connect() as conn:
                for pid in old:
                    conn.execute(text("SELECT pg_terminate_backend(:p)"), {"p": pid})
            # Each server connects again: poll the cluster's list of connections.
            for _ in range(1200):
                if len(listeners(store) - old) == 2:
                    break
                time.sleep(0.05)
            else:
                raise AssertionError("the listeners did not reconnect")
            # A move made while (or after) the listener reconnects: the resync after the
            # reconnection or the notification itself brings it.
            state = ann_b.move(state)
            assert stream.until("version")["data"]["version"] == state["version"]
            state = ann_b.move(state)
            assert stream.until("version")["data"]["version"] == state["version"]
        finally:
            stream.close()
    finally:
        ann_a.close()
        ann_b.close()
        store.close()


def test_presence_rows_are_shared_by_every_process(pg_url: str, tmp_path: Path) -> None:
    one, two = Store(pg_url), Store(pg_url)
    try:
        p1, p2 = Presence(one), Presence(two)
        p1.arrive("m-presence", 0)
        p2.arrive("m-presence", 1)
        assert [(s.seat, s.here) for s in p1.of("m-presence")] == [(0, True), (1, True)]
        p2.leave("m-presence", 1)
        assert [(s.seat, s.here) for s in p1.of("m-presence")] == [(0, True), (1, False)]
    finally:
        one.close()
        two.close()
