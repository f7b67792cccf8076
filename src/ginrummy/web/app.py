"""The web table's FastAPI application: ``create_app(db_url=...)``.

The JSON API lives under ``/api`` (schema at ``/api/openapi.json``); the page is served from
``static/`` at ``/``. Every error a client can cause comes back as a 4xx with
``{"detail": "a sentence"}``; request bodies over :data:`MAX_BODY` bytes are refused before they
are read.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .. import __version__
from ..errors import GinRummyError
from ..store import ConflictError, Store
from .coach_routes import lessons_router as coach_lessons_router
from .coach_routes import router as coach_router
from .coach_service import CoachService, NoSuchDecision
from .learn_routes import numbers_router
from .learn_routes import router as learn_router
from .live_routes import install as install_live
from .routes import router
from .service import Conflict, NotFound, TableService

__all__ = ["create_app", "MAX_BODY", "STATIC"]

#: Largest request body accepted, in bytes (the largest real one is well under 1 KiB).
MAX_BODY = 8 * 1024

STATIC = Path(__file__).with_name("static")

_CSP = (
    "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; "
    "form-action 'self'"
)


class _Limits:
    """ASGI middleware: bounded request bodies (413) and the page's security headers."""

    def __init__(self, app: ASGIApp, max_body: int) -> None:
        self.app = app
        self.max_body = max_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", []):
            if name == b"content-length":
                try:
                    too_big = int(value) > self.max_body
                except ValueError:
                    too_big = True
                if too_big:
                    await _refuse(send, self.max_body)
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

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                headers += [
                    (b"x-content-type-options", b"nosniff"),
                    (b"referrer-policy", b"no-referrer"),
                    (b"content-security-policy", _CSP.encode()),
                    (b"cache-control", b"no-store"),
                ]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, limited_receive, send_with_headers)


async def _refuse(send: Send, limit: int) -> None:
    body = f'{{"detail": "The request body is over {limit} bytes."}}'.encode()
    await send(
        {
            "type": "http.response.start",
            "status": 413,
            "headers": [(b"content-type", b"application/json"),
                        (b"content-length", str(len(body)).encode())],
        }
    )
    await send({"type": "http.response.body", "body": body})


def _validation_message(exc: RequestValidationError) -> str:
    parts = []
    for err in exc.errors()[:5]:
        where = ".".join(str(p) for p in err.get("loc", ()) if p != "body") or "request"
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
    db_url: str | None = None, *, store: Store | None = None, agent: str | None = None
) -> FastAPI:
    """The web table over the database at ``db_url`` (default: the user's SQLite file).
    ``agent``: a policy reference (``package.module:attr``) offered as opponent level
    ``"agent"``, loaded once here (a bad one raises :class:`~ginrummy.errors.GinRummyError`)."""
    service = TableService(store or Store(db_url), agent=agent)
    the_store = service.store
    app = FastAPI(
        title="ginrummy web table",
        version=__version__,
        description="Play gin rummy against the computer. The server is the referee: it "
        "holds the deck and the computer's hand, and answers with your view only.",
        openapi_url="/api/openapi.json",
        docs_url=None,
        redoc_url=None,
    )
    app.state.service = service
    app.state.store = the_store
    app.state.coach = CoachService(service)
    app.include_router(router)
    app.include_router(learn_router)
    app.include_router(numbers_router)
    app.include_router(coach_router)
    app.include_router(coach_lessons_router)
    install_live(app, service)  # the live events: GET /api/matches/{id}/events

    def _error(status: int, detail: str) -> JSONResponse:
        return JSONResponse({"detail": detail}, status_code=status)

    # Each failure the API reports: its status and its message (``None``: the exception's own).
    answers: list[tuple[type[Exception], int, str | None]] = [
        (GinRummyError, 400, None),
        (NotFound, 404, "No such match (or it is not yours)."),
        (NoSuchDecision, 404, None),
        (Conflict, 409, None),
        (ConflictError, 409, "The table changed while this move was played; reload it."),
    ]
    for kind, status, message in answers:
        app.add_exception_handler(kind, _answer(status, message))

    @app.exception_handler(RequestValidationError)
    async def _invalid(_r: Request, exc: RequestValidationError) -> JSONResponse:
        return _error(422, _validation_message(exc))

    @app.get("/", include_in_schema=False)
    def index() -> FileResponse:
        return FileResponse(STATIC / "index.html", media_type="text/html")

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.add_middleware(_Limits, max_body=MAX_BODY)
    return app
