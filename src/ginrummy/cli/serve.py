"""``ginrummy serve``: start the web table and print the address to open.

With ``--workers N`` the schema is brought up to date once, here, and then N uvicorn worker
processes share the one listening socket made by :func:`bind_socket`; each builds its app with
:func:`worker_app` from the settings this process leaves in its environment, opening the
database without touching its schema. uvicorn's supervisor starts a new worker when one dies.
"""

from __future__ import annotations

import functools
import json
import os
import socket
from typing import TYPE_CHECKING, Any

import click

from ..server.bounds import (
    BODY_SECONDS,
    HEADER_SECONDS,
    KEEP_ALIVE_SECONDS,
    STREAMS_PER_ADDRESS,
    STREAMS_TOTAL,
)

if TYPE_CHECKING:
    from fastapi import FastAPI

#: How many ports after the asked one are tried when it is taken.
PORT_TRIES = 50

#: The environment variables that carry the settings to worker processes.
ENV_DB, ENV_AGENT, ENV_KEY_FILE = "GINRUMMY_DB_URL", "GINRUMMY_AGENT", "GINRUMMY_KEY_FILE"
#: The bounds changed on the command line (JSON: ``rate``, ``streams``).
ENV_BOUNDS = "GINRUMMY_BOUNDS"


def worker_app() -> FastAPI:
    """The app of one worker process (a uvicorn factory): the database and opponent policy
    from :data:`ENV_DB` and :data:`ENV_AGENT`, the bounds from :data:`ENV_BOUNDS`; a database
    not at the newest schema revision is refused (the parent upgraded it before starting the
    workers)."""
    from ..server.store.repository import Store

    store = Store(os.environ[ENV_DB], migrate=False,
                  key_file=os.environ.get(ENV_KEY_FILE) or None)
    return _app(store, os.environ.get(ENV_AGENT) or None,
                json.loads(os.environ.get(ENV_BOUNDS) or "{}"))


def _app(store: Any, agent: str | None, bounds: dict[str, Any]) -> FastAPI:
    """The app over ``store`` with the bounds given on the command line (``rate``: rate limits
    changed by kind; ``streams``: the event streams' bounds changed)."""
    import dataclasses

    from ..server import create_app
    from ..server.limits import RateLimits
    from ..server.streams import StreamLimits

    return create_app(store=store, agent=agent,
                      limits=RateLimits().changed(bounds.get("rate", {})),
                      streams=dataclasses.replace(StreamLimits(), **bounds.get("streams", {})))


def _rate_limits(values: tuple[str, ...]) -> dict[str, str]:
    """``--rate-limit KIND=LIMIT`` options as a checked mapping (a bad one: a usage error)."""
    from ..server.limits import RateLimits

    changes: dict[str, str] = {}
    for value in values:
        kind, sep, limit = value.partition("=")
        if not sep:
            raise click.BadParameter(f"{value!r} is not KIND=LIMIT (e.g. "
                                     "players_address=20/minute;200/hour)",
                                     param_hint="--rate-limit")
        changes[kind.strip()] = limit
    try:
        RateLimits().changed(changes)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--rate-limit") from None
    return changes


def bind_socket(host: str, port: int, *, tries: int = PORT_TRIES) -> socket.socket:
    """A listening socket on ``host`` at ``port`` or the next free port after it."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    last: OSError | None = None
    for candidate in range(port, min(port + tries, 65536)):
        # IPPROTO_TCP named explicitly: asyncio turns on TCP_NODELAY only for sockets whose
        # proto says TCP, and without it a keep-alive answer waits ~40 ms for a delayed ACK.
        sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((host, candidate))
        except OSError as exc:
            sock.close()
            last = exc
            if port == 0:
                break
            continue
        sock.listen(128)
        sock.set_inheritable(True)
        return sock
    if port == 0:
        raise click.ClickException(f"cannot listen on {host}: {last}")
    raise click.ClickException(
        f"no free port on {host} from {port} to {port + tries - 1}: {last}"
    )


def url_of(sock: socket.socket, scheme: str = "http") -> str:
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    return f"{scheme}://{shown}:{port}/"


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True,
              help="address to listen on (keep 127.0.0.1 unless you mean to share the table)")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535),
              help="port to listen on; the next free one is used when it is taken")
@click.option("--db", "db_url", default=None, metavar="URL",
              help="SQLAlchemy database URL (default: a SQLite file in your data directory)")
@click.option("--opponent-module", "agent", default=None, metavar="MODULE:ATTR",
              help="Also offer a PettingZoo-style policy as opponent level 'agent': ATTR of "
              "MODULE, called as policy(observation, action_mask) -> action (see docs/env.md; "
              "needs the env extra).")
@click.option("--key-file", default=None, metavar="PATH",
              type=click.Path(dir_okay=False, path_type=str),
              help="file of the keys that encrypt live secrets in the database, one a line, "
              "current first (default: GINRUMMY_SECRET_KEY, or for SQLite a key file beside "
              "the database, made on first start)")
@click.option("--workers", default=1, show_default=True, type=click.IntRange(1, 64),
              help="worker processes sharing the port (the database is shared: use "
              "PostgreSQL, or SQLite for a few)")
@click.option("--ssl-certfile", type=click.Path(exists=True, dir_okay=False), default=None,
              help="serve HTTPS with this certificate (PEM, chain included); see docs/web.md")
@click.option("--ssl-keyfile", type=click.Path(exists=True, dir_okay=False), default=None,
              help="the certificate's private key (PEM), when not in --ssl-certfile")
@click.option("--header-timeout", default=HEADER_SECONDS, show_default=True,
              type=click.FloatRange(0.1, 3600), metavar="SECONDS",
              help="close a connection whose request head is not complete this long after it "
              "opened or after its previous answer")
@click.option("--body-timeout", default=BODY_SECONDS, show_default=True,
              type=click.FloatRange(0.1, 3600), metavar="SECONDS",
              help="close a connection whose request body is not complete this long after its "
              "head")
@click.option("--rate-limit", "rate_limits", multiple=True, metavar="KIND=LIMIT",
              help="change one rate limit, e.g. players_address=20/minute;200/hour or "
              "joins_address=off (repeat for more; the kinds and defaults: docs/web.md)")
@click.option("--max-streams", default=STREAMS_TOTAL, show_default=True,
              type=click.IntRange(1, 1_000_000),
              help="live event streams one worker process holds; when full, the longest idle "
              "one is shed for a new one")
@click.option("--streams-per-address", default=STREAMS_PER_ADDRESS, show_default=True,
              type=click.IntRange(1, 1_000_000),
              help="live event streams one client address may hold in one worker process")
def serve(
    host: str, port: int, db_url: str | None, agent: str | None, key_file: str | None,
    workers: int, ssl_certfile: str | None, ssl_keyfile: str | None, header_timeout: float,
    body_timeout: float, rate_limits: tuple[str, ...], max_streams: int,
    streams_per_address: int,
) -> None:
    """Start the web table: play gin rummy against the computer in your browser."""
    import uvicorn

    from ..engine.errors import GinRummyError
    from ..server.http_timeouts import TimedH11Protocol
    from ..server.store.repository import SecretKeyError, Store

    if not host.strip():
        # An empty host would listen on every network interface: say one to mean it.
        raise click.BadParameter("give an address (127.0.0.1 for this machine only, 0.0.0.0 "
                                 "for every network interface)", param_hint="--host")
    if ssl_keyfile and not ssl_certfile:
        raise click.BadParameter("a key needs its certificate", param_hint="--ssl-certfile")
    if ssl_certfile:  # load them once now: a bad pair is refused before "ready" is printed
        import ssl

        try:
            ssl.create_default_context(ssl.Purpose.CLIENT_AUTH).load_cert_chain(
                ssl_certfile, ssl_keyfile)
        except (ssl.SSLError, OSError) as exc:
            raise click.BadParameter(
                f"cannot use {ssl_certfile}{f' with {ssl_keyfile}' if ssl_keyfile else ''} as "
                f"the server's certificate and key (PEM): {exc.strerror or exc}",
                param_hint="--ssl-certfile") from None
    bounds = {"rate": _rate_limits(rate_limits),
              "streams": {"total": max_streams, "per_address": streams_per_address}}
    # uvicorn's h11 protocol with the request's head and body timeouts (a partial of a class,
    # so it travels to the worker processes).
    protocol: Any = functools.partial(TimedH11Protocol, header_timeout=header_timeout,
                                      body_timeout=body_timeout)
    if agent is not None:  # refuse a bad reference before anything starts
        agent = agent.strip()
        try:
            from ..env.policy import load_policy

            load_policy(agent)
        except (ImportError, GinRummyError) as exc:
            raise click.BadParameter(str(exc), param_hint="--opponent-module") from None

    try:
        store = Store(db_url, key_file=key_file)  # the schema is brought up to date here, once
    except SecretKeyError as exc:
        raise click.ClickException(str(exc)) from None
    except Exception as exc:  # a bad URL or an unreachable database: say which
        raise click.ClickException(f"cannot open the database {db_url!r}: {exc}") from None
    sock = bind_socket(host, port)
    address = url_of(sock, "https" if ssl_certfile else "http")
    click.echo(f"Gin rummy is ready: open {address}")
    click.echo(f"Saved games: {store.url}")
    if agent is not None:
        click.echo(f"Opponent level 'agent': {agent}")
    if workers > 1:
        click.echo(f"Worker processes: {workers}")
    click.echo("Press Ctrl+C to stop.")
    try:
        if workers == 1:
            app = _app(store, agent, bounds)
            config = uvicorn.Config(app, log_level="warning", access_log=False, http=protocol,
                                    timeout_keep_alive=KEEP_ALIVE_SECONDS,
                                    ssl_certfile=ssl_certfile, ssl_keyfile=ssl_keyfile)
            uvicorn.Server(config).run(sockets=[sock])
        else:
            from uvicorn.supervisors import Multiprocess

            url = store.url
            store.close()
            os.environ[ENV_DB] = url
            os.environ[ENV_AGENT] = agent or ""
            os.environ[ENV_KEY_FILE] = os.path.abspath(key_file) if key_file else ""
            os.environ[ENV_BOUNDS] = json.dumps(bounds)
            # The workers allocate through glibc's malloc rather than Python's arenas, so
            # that the memory of a flood of streams goes back to the system when they close
            # (an arena is freed only when wholly empty; a few objects that outlive the flood
            # keep most of them): see docs/web.md, "Limits".
            os.environ.setdefault("PYTHONMALLOC", "malloc")
            config = uvicorn.Config(
                f"{__name__}:worker_app", factory=True, workers=workers,
                log_level="warning", access_log=False, http=protocol,
                timeout_keep_alive=KEEP_ALIVE_SECONDS,
                ssl_certfile=ssl_certfile, ssl_keyfile=ssl_keyfile,
            )
            Multiprocess(config, sockets=[sock]).run()
    finally:
        sock.close()
        store.close()
