"""The web table's FastAPI application: ``create_app(db_url=...)``.

The JSON API lives under ``/api`` (schema at ``/api/openapi.json``); the page is served from
``static/`` at ``/``. Every error a client can cause comes back as a 4xx with
``{"detail": "a sentence"}``, and an unexpected failure as a 500 with the same body, all with
the security headers; request bodies over :data:`MAX_BODY` bytes are refused before they are
read. The rate limits and the coach's worker process are in :mod:`ginrummy.server.limits`.
"""

from __future__ import annotations

import json
import logging
import re
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .. import __version__
from ..engine.errors import GinRummyError, PlayerError
from .coach_routes import lessons_router as coach_lessons_router
from .coach_routes import router as coach_router
from .coach_service import CoachService, NoSuchDecision
from .learn_routes import numbers_router
from .learn_routes import router as learn_router
from .limits import CoachPool, RateLimiter, RateLimits
from .live_routes import install as install_live
from .routes import router
from .schemas import MATCH_KINDS
from .service import Conflict, NotFound, TableService
from .store import ConflictError, Store, UnfinishedMatchError
from .streams import StreamLimits
from .token_routes import router as token_router

__all__ = ["create_app", "MAX_BODY", "STATIC"]

#: Largest request body accepted, in bytes (the largest real one is well under 1 KiB).
MAX_BODY = 8 * 1024

STATIC = Path(__file__).with_name("static")

#: A random name for this process, answered by ``GET /api/health`` (with several workers it
#: tells which one answered).
WORKER = secrets.token_hex(6)

_log = logging.getLogger("ginrummy.server")

_CSP = (
    "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; "
    "form-action 'self'"
)


class _Limits:
    """ASGI middleware around the whole API: bounded request bodies (413), the security
    headers on every answer (errors included), ``OPTIONS`` answered with ``Allow``, and an
    unexpected failure answered as the JSON 500 with ``Connection: close``."""

    def __init__(self, app: ASGIApp, max_body: int) -> None:
        self.app = app
        self.max_body = max_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False
        https = scope.get("scheme") == "https"

        async def send_with_headers(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                headers = list(message.get("headers", []))
                headers += _SECURITY_HEADERS
                if https:
                    headers.append((b"strict-transport-security", HSTS.encode()))
                message = {**message, "headers": headers}
            await send(message)

        for name, value in scope.get("headers", []):
            if name == b"content-length":
                try:
                    too_big = int(value) > self.max_body
                except ValueError:
                    too_big = True
                if too_big:
                    detail = f"The request body is over {self.max_body} bytes."
                    await _send_json(send_with_headers, 413, detail)
                    return
        seen = 0

        async def limited_receive() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_body:
                    # An HTTPException passes through FastAPI's body parsing as it is.
                    raise HTTPException(413, f"The request body is over {self.max_body} bytes.")
            return message

        answer = _options(send_with_headers) if scope["method"] == "OPTIONS" else send_with_headers
        try:
            await self.app(scope, limited_receive, answer)
        except Exception:
            if started:  # too late for an answer: the server drops the connection
                raise
            _log.exception("%s %s failed", scope["method"], scope.get("path"))
            # ``Connection: close``: the server drops the connection after an unexpected
            # error, so a kept-alive client must not send its next request on it.
            await _send_json(send_with_headers, 500, SERVER_ERROR,
                             [(b"connection", b"close")])


#: The answer to a request the server failed on (the failure itself goes to the log only).
SERVER_ERROR = "The server failed to answer this request; try again in a moment."

#: Strict-Transport-Security on answers over HTTPS: a year, subdomains included.
HSTS = "max-age=31536000; includeSubDomains"

_SECURITY_HEADERS = [
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"content-security-policy", _CSP.encode()),
    (b"x-frame-options", b"DENY"),
    (b"cache-control", b"no-store"),
]


def _options(send: Send) -> Send:
    """``send`` for an ``OPTIONS`` request: the router's 405 for a known address becomes a
    204 whose ``Allow`` lists that address's methods and ``OPTIONS``; anything else (404)
    passes through as it is."""
    converted = False

    async def answer(message: Message) -> None:
        nonlocal converted
        if message["type"] == "http.response.start" and message["status"] == 405:
            allow = dict(message.get("headers", [])).get(b"allow")
            if allow:
                converted = True
                await send({"type": "http.response.start", "status": 204,
                            "headers": [(b"allow", allow + b", OPTIONS")]})
                return
        if converted and message["type"] == "http.response.body":
            if not message.get("more_body", False):
                await send({"type": "http.response.body", "body": b""})
            return
        await send(message)

    return answer


async def _send_json(
    send: Send, status: int, detail: str, extra: list[tuple[bytes, bytes]] | None = None
) -> None:
    body = json.dumps({"detail": detail}).encode()
    headers = [(b"content-type", b"application/json"),
               (b"content-length", str(len(body)).encode()), *(extra or [])]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


#: FastAPI's answer to a body it could not decode at all (its JSON errors are validation
#: errors; this one covers the rest).
FASTAPI_BODY_ERROR = "There was an error parsing the body"

#: What the API answers instead (422).
UNREADABLE_BODY = (
    "The request's body cannot be read as JSON: send UTF-8 text, numbers of at most 4,300 "
    "digits and objects or lists nested at most a few hundred deep."
)


def _validation_message(exc: RequestValidationError) -> str:
    parts = []
    for err in exc.errors()[:5]:
        # Leave out "body" and the tag of the new-match body's kind ("computer", "person").
        loc = [str(p) for p in err.get("loc", ()) if p != "body"]
        if len(loc) > 0 and loc[0] in MATCH_KINDS:
            loc = loc[1:]
        where = ".".join(loc) or "request"
        parts.append(f"{where}: {err.get('msg', 'invalid')}")
    return "; ".join(parts) or "The request is not valid."


def _answer(
    status: int, message: str | None
) -> Callable[[Request, Exception], Awaitable[JSONResponse]]:
    """An exception handler answering ``status`` with ``message`` (or the exception's text)."""

    async def handle(_r: Request, exc: Exception) -> JSONResponse:
        return JSONResponse({"detail": message or str(exc)}, status_code=status)

    return handle


def create_app(
    db_url: str | None = None,
    *,
    store: Store | None = None,
    agent: str | None = None,
    limits: RateLimits | None = None,
    coach_processes: int = 1,
    coach_queue: int = 4,
    streams: StreamLimits | None = None,
) -> FastAPI:
    """The web table over the database at ``db_url`` (default: the user's SQLite file).
    ``agent``: a policy reference (``package.module:attr``) offered as opponent level
    ``"agent"``, loaded once here (a bad one raises :class:`~ginrummy.engine.errors.GinRummyError`).
    ``limits``: the rate limits (default :class:`RateLimits`). The coach's work runs in
    ``coach_processes`` worker processes (``0``: in the request's thread), started at its first
    use, with at most ``coach_queue`` requests waiting (see :mod:`ginrummy.server.limits`).
    ``streams``: the bounds on open event streams (default :class:`~.streams.StreamLimits`)."""
    service = TableService(store or Store(db_url), agent=agent)
    pool = CoachPool(processes=coach_processes, queue=coach_queue)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        yield
        pool.close()

    the_store = service.store
    app = FastAPI(
        title="ginrummy web table",
        version=__version__,
        description="Play gin rummy against the computer. The server is the referee: it "
        "holds the deck and the computer's hand, and answers with your view only.",
        openapi_url="/api/openapi.json",
        docs_url=None,
        redoc_url=None,
        lifespan=lifespan,
    )
    app.state.service = service
    app.state.store = the_store
    app.state.coach = CoachService(service, pool=pool)
    app.state.limiter = RateLimiter(limits or RateLimits(), the_store)
    app.include_router(router)
    app.include_router(token_router)
    app.include_router(learn_router)
    app.include_router(numbers_router)
    app.include_router(coach_router)
    app.include_router(coach_lessons_router)
    install_live(app, service, limits=streams)  # the live events: GET /api/matches/{id}/events

    def _error(status: int, detail: str) -> JSONResponse:
        return JSONResponse({"detail": detail}, status_code=status)

    # Each failure the API reports: its status and its message (``None``: the exception's own).
    answers: list[tuple[type[Exception], int, str | None]] = [
        (GinRummyError, 400, None),
        (NotFound, 404, "No such match (or it is not yours)."),
        (NoSuchDecision, 404, None),
        (Conflict, 409, None),
        (ConflictError, 409, "The table changed while this move was played; reload it."),
        (UnfinishedMatchError, 409, None),
    ]
    for kind, status, message in answers:
        app.add_exception_handler(kind, _answer(status, message))

    @app.exception_handler(PlayerError)
    async def _player_failed(_r: Request, exc: PlayerError) -> JSONResponse:
        # The seated agent (--opponent-module) failed to move: the server's fault, not the
        # person's (so not a 400); the table was dropped from the cache, nothing was saved.
        return _error(500, f"The computer player failed to move, so nothing was played: {exc}.")

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        # A malformed request the rate limits let through is not counted after all.
        if getattr(request.state, "rate_hits", None):
            await run_in_threadpool(app.state.limiter.refund, request)
        return _error(422, _validation_message(exc))

    @app.get("/api/health", include_in_schema=False)
    def health() -> dict[str, object]:
        return {"ok": True, "worker": WORKER}

    @app.exception_handler(HTTPException)
    async def _http(request: Request, exc: HTTPException) -> JSONResponse:
        detail = exc.detail
        status = exc.status_code
        if status == 404 and detail == "Not Found":
            detail = "There is nothing at this address."
        if status == 400 and detail == FASTAPI_BODY_ERROR:
            # A body FastAPI could not decode (not UTF-8, a number too long for Python, nesting
            # too deep): malformed like any other, so a 422 saying what to send; 400 is for
            # moves the rules refuse.
            status, detail = 422, UNREADABLE_BODY
        headers = exc.headers
        if status == 405:
            # Every method the address takes: the router names only its first route's.
            allow = _methods_at(app.openapi(), request.url.path) or (headers or {}).get(
                "Allow", "")
            headers = {**(headers or {}), "Allow": allow}
            detail = f"This address does not take {request.method}; it takes {allow}."
        return JSONResponse({"detail": detail}, status_code=status, headers=headers)

    plain_openapi = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            _finish_schema(plain_openapi(), agent=service.agent is not None)
        assert app.openapi_schema is not None
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]

    @app.get("/", include_in_schema=False)
    def index() -> FileResponse:
        return FileResponse(STATIC / "index.html", media_type="text/html")

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.add_middleware(_Limits, max_body=MAX_BODY)
    return app


def _methods_at(schema: dict[str, Any], path: str) -> str:
    """The methods the API's schema documents at ``path``, as an ``Allow`` value."""
    methods: set[str] = set()
    for template, operations in schema.get("paths", {}).items():
        pattern = re.sub(r"\\\{[^/]+?\\\}", "[^/]+", re.escape(template))
        if re.fullmatch(pattern, path):
            methods |= {m.upper() for m in operations}
    return ", ".join(sorted(methods))


def _finish_schema(schema: dict[str, Any], *, agent: bool) -> None:
    """``schema`` as this server answers: level ``"agent"`` only when it seats a policy, and
    every error answer documented as the JSON :class:`ErrorOut`, whatever the route's own
    media type (the record is text, its 401 is JSON like every error)."""
    if not agent:
        for model in schema["components"]["schemas"].values():  # the new-match bodies
            level = model.get("properties", {}).get("level", {})
            if "enum" in level:
                level["enum"] = [v for v in level["enum"] if v != "agent"]
    error = {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorOut"}}}
    for operations in schema.get("paths", {}).values():
        for operation in operations.values():
            for status, answer in operation.get("responses", {}).items():
                if status.isdigit() and int(status) >= 400:
                    answer["content"] = error
