"""The SQLite bus's look for other processes' changes: a counter of commits read every poll,
the watched matches' versions read only when it moved."""

from __future__ import annotations

from pathlib import Path

from ginrummy.server.live import LocalBus
from ginrummy.server.store import Store


def test_the_poll_reads_versions_only_after_a_commit(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'poll.sqlite3'}")
    other = Store(f"sqlite:///{tmp_path / 'poll.sqlite3'}")  # as another process would
    bus = LocalBus(store)
    try:
        assert bus._committed()  # the first look
        assert not bus._committed()
        other.create_player("Ann")  # a commit on another connection
        assert bus._committed()
        assert not bus._committed()
        store.people_of("no such match")  # a read commits nothing
        assert not bus._committed()
    finally:
        if bus._counter is not None:
            bus._counter.close()
        store.close()
        other.close()


def test_another_database_is_read_every_time() -> None:
    store = Store("sqlite://")
    bus = LocalBus(store)
    bus._file = None  # as for a database other than a SQLite file
    assert bus._committed() and bus._committed()
