"""The writers' lock of a SQLite file: every transaction of the store takes it (so a second
writer process waits in the kernel, not in SQLite's sleeping busy loop), it is re-entrant
within a thread, and it is free again after each transaction."""

from __future__ import annotations

import fcntl
import os
import threading
from pathlib import Path

import pytest

from ginrummy.server.store import Store


def taken(path: str) -> bool:
    """Whether another holder has the lock (tried without waiting on a descriptor of our own,
    as another process would)."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(fd)  # closing drops a lock we got
    return False


@pytest.fixture()
def store(tmp_path: Path) -> Store:
    return Store(f"sqlite:///{tmp_path / 'w.sqlite3'}")


def test_a_transaction_holds_the_lock_and_lets_it_go(store: Store, tmp_path: Path) -> None:
    lock = str(tmp_path / "w.sqlite3.write-lock")
    assert not taken(lock)
    with store._tx():
        assert taken(lock)
        with store._tx():  # re-entrant in one thread
            assert taken(lock)
        assert taken(lock)
    assert not taken(lock)
    store.create_player("Ann")  # an ordinary write goes through it too, and frees it
    assert not taken(lock)


def test_another_thread_waits_for_the_holder(store: Store) -> None:
    order: list[str] = []

    def second() -> None:
        with store._tx():
            order.append("second")

    with store._tx():
        worker = threading.Thread(target=second)
        worker.start()
        # A bounded look for what must not happen: the other thread getting in meanwhile.
        worker.join(timeout=0.5)
        assert worker.is_alive() and order == []
        order.append("first")
    worker.join(timeout=30)
    assert not worker.is_alive()
    assert order == ["first", "second"]


def test_a_database_in_memory_has_no_lock_file(tmp_path: Path) -> None:
    os.chdir(tmp_path)
    memory = Store("sqlite://")
    with memory._tx():
        pass
    assert not list(tmp_path.glob("*.write-lock"))
