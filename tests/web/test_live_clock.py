"""The stream's hooks into the service, with the server in this process (uvicorn in a thread,
on 127.0.0.1), so a test can stand in for the service: an open stream reports its seat as seen
and wakes at the match's clock deadline (``deadline``) to call ``expire_due`` with nobody
moving; the second person of a table for two coming and going reaches the first seat's
stream as ``presence`` events."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
import uvicorn
from fastapi import FastAPI

from ginrummy.server import create_app
from ginrummy.server.store import Store

from .conftest import free_port
from .test_live import Api


@contextmanager
def serving(tmp_path: Path) -> Iterator[tuple[str, FastAPI]]:
    """The app on a SQLite file in ``tmp_path``, served by uvicorn in a thread: its URL."""
    store = Store(f"sqlite:///{tmp_path / 'games.sqlite3'}")
    app = create_app(store=store)
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port,
                                           log_level="warning", lifespan="on"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    for _ in range(1200):  # until it listens (bounded)
        if server.started:
            break
        time.sleep(0.05)
    assert server.started, "the server did not start"
    try:
        yield f"http://127.0.0.1:{port}", app
    finally:
        server.should_exit = True
        thread.join(60)
        assert not thread.is_alive(), "the server did not stop"
        store.close()


@pytest.fixture()
def served(tmp_path: Path) -> Iterator[tuple[str, object]]:
    with serving(tmp_path) as (url, app):
        yield url, app.state.service


def test_a_stream_marks_its_seat_seen_and_wakes_at_the_clock_deadline(
    served: tuple[str, object],
) -> None:
    url, service = served
    seen: list[tuple[str, int]] = []
    asked: list[float] = []
    deadline: list[float] = []
    second = threading.Event()

    def fake_seen(match_id: str, seat: int) -> None:
        seen.append((match_id, seat))

    def fake_expire_due(match_id: str) -> bool:
        asked.append(time.time())
        if len(asked) > 1:
            second.set()
        return False

    def fake_deadline(match_id: str) -> float | None:
        if not deadline:
            deadline.append(time.time() + 0.3)  # a clock runs out soon after the stream opens
            return deadline[0]
        return None

    service.seen = fake_seen  # type: ignore[attr-defined]
    service.expire_due = fake_expire_due  # type: ignore[attr-defined]
    service.deadline = fake_deadline  # type: ignore[attr-defined]
    ann = Api(url)
    try:
        # A table for two people: only there has a seat a grace period and a clock (a
        # computer match's stream calls neither hook).
        r = ann.http.post("/api/matches", json={"opponent": "person", "forfeit_current": True})
        assert r.status_code == 201, r.text
        state = r.json()
        stream = ann.events(state["id"])
        try:
            assert stream.next()["event"] == "version"
            assert seen == [(state["id"], 0)]
            # Nobody moves: only the deadline can bring the second call.
            assert second.wait(30), "expire_due was not called at the deadline"
            assert asked[1] >= deadline[0]  # at the deadline, not before
        finally:
            stream.close()
    finally:
        ann.close()


def test_a_second_seat_coming_and_going_reaches_the_first_seats_stream(
    served: tuple[str, object],
) -> None:
    url, _service = served
    ann, bob = Api(url), Api(url, name="Bob")
    r = ann.http.post("/api/matches", json={"opponent": "person", "forfeit_current": True})
    assert r.status_code == 201, r.text
    state = r.json()
    try:
        anns = ann.events(state["id"])
        try:
            first = anns.until("presence")["data"]
            assert [(s["seat"], s["here"]) for s in first["seats"]] == [(0, True)]
            assert bob.http.post(f"/api/invites/{state['invite']}").status_code == 200
            bobs = bob.events(state["id"])
            try:
                assert bobs.until("presence")["data"]["you"] == 1
                came = anns.until("presence")["data"]
                assert [(s["seat"], s["here"]) for s in came["seats"]] == [(0, True), (1, True)]
            finally:
                bobs.close()
            went = anns.until("presence")["data"]
            assert [(s["seat"], s["here"]) for s in went["seats"]] == [(0, True), (1, False)]
        finally:
            anns.close()
    finally:
        ann.close()
        bob.close()
