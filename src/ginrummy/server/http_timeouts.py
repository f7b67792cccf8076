"""Time limits on reading a request (issue 37, item 6): uvicorn's HTTP/1.1 protocol with a
request-head timeout and a body timeout.

uvicorn (0.55) closes a kept-alive connection that stays silent
:data:`~.bounds.KEEP_ALIVE_SECONDS`
after an answer, but nothing bounds a request that is *being* sent: a connection that opens
and sends half a request head (or one byte after an answer, which stops the keep-alive clock)
stays open as long as the client likes, and a few thousand of them hold a worker's file
descriptors and memory. :class:`TimedH11Protocol` adds two clocks to uvicorn's h11 protocol
(the one ``serve`` runs, chosen explicitly so that installing ``httptools`` changes nothing):

- the request head must be complete ``header_timeout`` seconds after the connection opened,
  or, on a kept-alive connection, after the first byte of the next request came (before that,
  silence after an answer is uvicorn's keep-alive's to end; a byte stops its clock, and starts
  this one);
- the request body must be complete ``body_timeout`` seconds after its head.

Past either, the connection is closed: with a ``408`` and a JSON sentence when part of a
request had come (a real client too slow, or a proxy that stalled, learns why), silently when
nothing had. An answer that takes long (an event stream) is not limited: the clocks run only
while the server waits for the client.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from .bounds import BODY_SECONDS, HEADER_SECONDS

__all__ = ["TimedH11Protocol"]


def _answer_408(what: str) -> bytes:
    body = json.dumps({"detail": f"The request's {what} did not arrive in time; send it "
                       "again."}).encode()
    head = (b"HTTP/1.1 408 Request Timeout\r\ncontent-type: application/json\r\n"
            b"content-length: " + str(len(body)).encode() + b"\r\nconnection: close\r\n\r\n")
    return head + body


class TimedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with a request-head and a request-body timeout (seconds)."""

    def __init__(self, *args: Any, header_timeout: float = HEADER_SECONDS,
                 body_timeout: float = BODY_SECONDS, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.header_timeout = header_timeout
        self.body_timeout = body_timeout
        #: What the running clock waits for: ``"head"``, ``"body"`` or ``None``.
        self.waiting_for: str | None = None
        self._timer: asyncio.TimerHandle | None = None
        #: Whether a request head has come on this connection yet.
        self._answered = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)  # type: ignore[arg-type]
        self._follow()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        self._follow()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._follow()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_clock()
        super().connection_lost(exc)

    def _follow(self) -> None:
        """Run the clock the client's side of the exchange calls for: the head while a request
        is awaited (on a fresh connection) or has begun (later ones), the body while one is
        being sent, none otherwise."""
        if self.transport.is_closing():
            self._stop_clock()
            return
        state = self.conn.their_state
        if state is not h11.IDLE:
            self._answered = True
        # Between requests on a kept-alive connection the head's clock waits for a first byte.
        head = state is h11.IDLE and (not self._answered or bool(self.conn.trailing_data[0]))
        want = "head" if head else "body" if state is h11.SEND_BODY else None
        if want == self.waiting_for:
            return
        self._stop_clock()
        if want is not None:
            seconds = self.header_timeout if want == "head" else self.body_timeout
            self.waiting_for = want
            self._timer = self.loop.call_later(seconds, self._expired)

    def _stop_clock(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        self._timer, self.waiting_for = None, None

    def _expired(self) -> None:
        what, self._timer = self.waiting_for, None
        if self.transport.is_closing() or what is None:
            return
        cycle = self.cycle
        if what == "head":  # a 408 only when part of a head came (silence: just close)
            answer = bool(self.conn.trailing_data[0])
        else:  # a 408 unless the app has answered already
            answer = cycle is not None and not cycle.response_started
            if cycle is not None and not cycle.response_complete:
                # The app waits for the body: it hears a disconnect; its answer goes nowhere.
                cycle.disconnected = True
                cycle.message_event.set()
        if answer:
            self.transport.write(_answer_408(what))
        self.transport.close()
