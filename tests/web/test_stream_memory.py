"""Giving a flood's memory back (issue 37, item 5): a closed stream counts toward the garbage
collection and ``malloc_trim`` only once its closing is done (its seat's presence written), so
the trim comes after a flood's closing writes rather than in the middle of them, while their
objects are still alive. The server in this process (uvicorn in a thread, on 127.0.0.1); the
memory figures themselves are in ``benchmarks/bench_abuse.py``."""

from __future__ import annotations

import threading
import time
from pathlib import Path

from ginrummy.server.live_routes import Live
from ginrummy.server.streams import StreamLimits, Streams

from .test_live import Api
from .test_live_clock import serving


def _until(check: object, what: str) -> None:
    deadline = time.monotonic() + 30
    while not check():  # type: ignore[operator]
        assert time.monotonic() < deadline, f"timed out waiting until {what}"
        time.sleep(0.02)  # polling a condition, bounded by the deadline


def test_a_closed_stream_counts_toward_the_trim_only_after_its_closing_write(
    tmp_path: Path,
) -> None:
    with serving(tmp_path) as (url, app):
        live: Live = app.state.live
        leave = live.presence.leave
        leaving, release = threading.Event(), threading.Event()

        def slow_leave(match_id: str, seat: int) -> None:  # a database busy with a flood
            leaving.set()
            release.wait(30)
            leave(match_id, seat)

        live.presence.leave = slow_leave  # type: ignore[method-assign]
        ann = Api(url)
        try:
            r = ann.http.post("/api/matches", json={"level": "random", "forfeit_current": True})
            assert r.status_code == 201, r.text
            stream = ann.events(r.json()["id"])
            assert stream.next()["event"] == "version"
            before = live.streams.closed_since_trim
            stream.close()
            assert leaving.wait(30), "the closing stream did not write its presence"
            _until(lambda: len(live.streams) == 0, "the stream's slot is given back")
            assert live.streams.closed_since_trim == before  # its write is still going on
            release.set()
            _until(lambda: live.streams.closed_since_trim == before + 1,
                   "the closed stream counts toward the trim")
        finally:
            release.set()
            ann.close()


def test_a_slot_given_back_does_not_count_as_closed_until_its_closing_is_done() -> None:
    calls: list[int] = []
    streams = Streams(StreamLimits(total=3), on_many_closed=lambda: calls.append(1))
    slot = streams.take(1, "a")
    streams.give_back(slot)
    assert len(streams) == 0 and streams.closed_since_trim == 0
    streams.closed()
    assert streams.closed_since_trim == 1 and calls == []
