"""The server's bounds that the command line shows as its defaults, kept apart from the web
stack so that reading them loads nothing (``ginrummy --help`` stays quick). Where each is
enforced: :mod:`ginrummy.server.http_timeouts` (the timeouts) and :mod:`ginrummy.server.streams`
(the event streams); every limit with its number: docs/web.md."""

from __future__ import annotations

__all__ = [
    "BODY_SECONDS",
    "HEADER_SECONDS",
    "KEEP_ALIVE_SECONDS",
    "STREAMS_PER_ADDRESS",
    "STREAMS_PER_PLAYER",
    "STREAMS_TOTAL",
]

#: Time for a request head to arrive, after the connection opened or the previous answer.
HEADER_SECONDS = 10.0
#: Time for a request body to arrive after its head.
BODY_SECONDS = 10.0
#: uvicorn's keep-alive: an idle kept-alive connection is closed this long after an answer.
KEEP_ALIVE_SECONDS = 5

#: Open event streams one player may hold in one worker process (tabs, devices).
STREAMS_PER_PLAYER = 4
#: Open event streams one client address may hold in one worker process.
STREAMS_PER_ADDRESS = 40
#: Open event streams one worker process holds in all.
STREAMS_TOTAL = 2000
