"""Bad input from outside (issue 12, items 1 and 9): control characters refused in every text
field on every backend, strict types, and every error (405, OPTIONS, 500 included) answered
as JSON with the security headers."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, get_args

import httpx
import pytest
import uvicorn
from fastapi.testclient import TestClient
from sqlalchemy import text

from ginrummy.cli.serve import bind_socket
from ginrummy.server import create_app
from ginrummy.server.app import SERVER_ERROR
from ginrummy.server.schemas import StrictIn
from ginrummy.server.store import Store

from .conftest import loopback_client
from .helpers import dealt_match

STARTUP_SECONDS = 30


def _players(store: Store) -> int:
    with store.engine.connect() as db:
        count: int = db.execute(text("SELECT count(*) FROM players")).scalar_one()
        return count


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def any_store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    if request.param == "sqlite":
        s = Store(f"sqlite:///{tmp_path / 'games.sqlite3'}")
    else:
        s = Store(request.getfixturevalue("pg_url"))
    yield s
    s.close()


def _request_models() -> list[type[StrictIn]]:
    found: list[type[StrictIn]] = []
    todo = list(StrictIn.__subclasses__())
    while todo:
        model = todo.pop()
        found.append(model)
        todo += model.__subclasses__()
    return found


#: The text fields left to their own rule: the engine refuses a client seed with a control
#: character with the sentence the page shows beside the field (400; see test_sealed.py).
ENGINE_CHECKED = {("NextHandIn", "client_seed"), ("JoinIn", "client_seed")}


def test_every_request_body_is_strict_and_refuses_control_characters_in_text() -> None:
    app = create_app("sqlite://")
    models = {m.__name__: m for m in _request_models()}
    schema = app.openapi()
    bodies = set()
    for operations in schema["paths"].values():
        for operation in operations.values():
            content = operation.get("requestBody", {}).get("content", {})
            for media in content.values():
                # One model, an optional one (anyOf with null) or a union of kinds (oneOf).
                body = media["schema"]
                refs = [body["$ref"]] if "$ref" in body else [
                    s["$ref"] for s in body.get("anyOf", []) + body.get("oneOf", [])
                    if "$ref" in s]
                assert refs, body
                bodies.update(ref.rsplit("/", 1)[1] for ref in refs)
    assert bodies and bodies <= set(models), bodies - set(models)
    checked = 0
    for name in sorted(bodies):
        model = models[name]
        for field, info in model.model_fields.items():
            if str not in (info.annotation, *get_args(info.annotation)):
                continue
            if (name, field) in ENGINE_CHECKED:
                continue
            for bad in ("a\x00b", "tab\there", "line\nbreak", "del\x7f", "c1\x85"):
                errors = _errors(model, {field: bad})
                assert any(e["loc"] == (field,) and e["type"] == "control_character"
                           for e in errors), (name, field, bad, errors)
            checked += 1
    assert checked >= 4  # name, move, the lesson's move, the revisit's move


def _errors(model: type[StrictIn], data: dict[str, Any]) -> list[Any]:
    try:
        model.model_validate(data)
    except Exception as exc:  # pydantic's ValidationError
        return list(exc.errors())  # type: ignore[attr-defined]
    return []


def test_a_nul_in_a_name_is_a_422_and_stores_nothing(any_store: Store) -> None:
    client = TestClient(create_app(store=any_store))
    before = _players(any_store)
    for name in ("a\u0000b", "\u0085", "new\nline"):
        r = client.post("/api/players", json={"name": name})
        assert r.status_code == 422, r.text
        detail = r.json()["detail"]
        assert detail.startswith("name: ") and "control character U+" in detail
    assert _players(any_store) == before
    assert client.post("/api/players", json={"name": "Ann é ♥"}).status_code == 201
    assert _players(any_store) == before + 1


def test_control_characters_in_moves_paths_and_lessons_are_refused(client: TestClient) -> None:
    token = client.post("/api/players", json={"name": "Kim"}).json()["token"]
    auth = {"Authorization": f"Bearer {token}"}
    state = dealt_match(client, auth)
    r = client.post(f"/api/matches/{state['id']}/moves", headers=auth,
                    json={"move": "draw\x00", "version": state["version"]})
    assert r.status_code == 422 and r.json()["detail"].startswith("move: contains the control")
    r = client.get("/api/matches/ab%00cd", headers=auth)
    assert r.status_code == 422 and "match_id" in r.json()["detail"]
    situation = client.get("/api/situations").json()[0]["id"]
    for path in (f"/api/situations/{situation}/answer", f"/api/situations/{situation}/coach"):
        r = client.post(path, json={"move": "draw\x1b"})
        assert r.status_code == 422 and "U+001B" in r.json()["detail"], r.text
    assert _unchanged(client.get(f"/api/matches/{state['id']}", headers=auth).json(), state)


@pytest.mark.parametrize("body", [
    {"hollywood": "yes"}, {"hollywood": 1}, {"deal": 0}, {"last_discard_chance": "true"},
    {"level": 3},
], ids=str)
def test_new_match_options_are_strictly_typed(client: TestClient, body: dict[str, Any]) -> None:
    token = client.post("/api/players", json={"name": "Kim"}).json()["token"]
    auth = {"Authorization": f"Bearer {token}"}
    r = client.post("/api/matches", json=body, headers=auth)
    assert r.status_code == 422
    assert r.json()["detail"].startswith(f"{next(iter(body))}: ")
    assert client.get("/api/me", headers=auth).json()["current_match"] is None


@pytest.mark.parametrize("version", [True, "10", 1.5, "1", None.__class__.__name__], ids=repr)
def test_a_version_must_be_an_integer(client: TestClient, version: object) -> None:
    token = client.post("/api/players", json={"name": "Kim"}).json()["token"]
    auth = {"Authorization": f"Bearer {token}"}
    state = dealt_match(client, auth)
    r = client.post(f"/api/matches/{state['id']}/moves", headers=auth,
                    json={"move": state["hand"]["legal_moves"][0], "version": version})
    assert r.status_code == 422 and r.json()["detail"].startswith("version: "), r.text
    assert _unchanged(client.get(f"/api/matches/{state['id']}", headers=auth).json(), state)


def _unchanged(now: dict[str, Any], before: dict[str, Any]) -> bool:
    """The same state, but for ``computer_moves`` (the moves since the last request)."""
    return {**now, "computer_moves": []} == {**before, "computer_moves": []}


def _has_security_headers(headers: httpx.Headers) -> None:
    assert headers["x-content-type-options"] == "nosniff"
    assert "default-src 'self'" in headers["content-security-policy"]
    assert headers["cache-control"] == "no-store"


def test_a_wrong_method_gets_405_with_allow_and_options_gets_allow(client: TestClient) -> None:
    r = client.delete("/api/players")
    assert r.status_code == 405 and r.headers["allow"] == "POST"
    assert r.json()["detail"] == "This address does not take DELETE; it takes POST."
    _has_security_headers(r.headers)
    r = client.options("/api/matches/abc/moves")
    assert r.status_code == 204 and r.headers["allow"] == "POST, OPTIONS" and not r.content
    _has_security_headers(r.headers)
    assert client.options("/api/nothing-here").status_code == 404
    r = client.get("/api/nothing-here")
    assert r.status_code == 404 and r.json() == {"detail": "There is nothing at this address."}


def test_the_record_documents_its_errors_as_json() -> None:
    schema = create_app("sqlite://").openapi()
    answers = schema["paths"]["/api/matches/{match_id}/record"]["get"]["responses"]
    assert set(answers["200"]["content"]) == {"text/plain"}
    for status in ("401", "404", "409", "422"):
        assert set(answers[status]["content"]) == {"application/json"}, status


def _boom(*_args: object, **_kwargs: object) -> None:
    raise RuntimeError("a bug")


def test_a_500_is_json_with_the_security_headers(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    client = TestClient(create_app(store=store), raise_server_exceptions=False)
    token = client.post("/api/players", json={"name": "Kim"}).json()["token"]
    monkeypatch.setattr(store, "current_match", _boom)
    r = client.get("/api/me", headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 500 and r.json() == {"detail": SERVER_ERROR}
    assert r.headers["connection"] == "close"
    _has_security_headers(r.headers)


class _LiveApp:
    """The app under uvicorn in a thread, on a free port of 127.0.0.1."""

    def __init__(self, app: Any, **config: Any) -> None:
        self.sock = bind_socket("127.0.0.1", 0)
        self.server = uvicorn.Server(uvicorn.Config(app, log_level="critical", **config))
        self.thread = threading.Thread(target=self.server.run,
                                       kwargs={"sockets": [self.sock]}, daemon=True)
        self.port = self.sock.getsockname()[1]

    def __enter__(self) -> _LiveApp:
        self.thread.start()
        deadline = time.monotonic() + STARTUP_SECONDS
        while not self.server.started:  # poll the readiness flag, bounded
            assert self.thread.is_alive() and time.monotonic() < deadline
            time.sleep(0.01)
        return self

    def __exit__(self, *_exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(STARTUP_SECONDS)
        self.sock.close()


def test_after_a_500_a_kept_alive_client_carries_on(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    with _LiveApp(create_app(store=store)) as live, \
            loopback_client(base_url=f"http://127.0.0.1:{live.port}", timeout=30) as client:
        token = client.post("/api/players", json={"name": "Kim"}).json()["token"]
        client.headers["Authorization"] = f"Bearer {token}"
        assert client.get("/api/me").status_code == 200
        with monkeypatch.context() as m:
            m.setattr(store, "current_match", _boom)
            r = client.get("/api/me")
            assert r.status_code == 500 and r.json() == {"detail": SERVER_ERROR}
            assert r.headers["connection"] == "close"
            _has_security_headers(r.headers)
        # The same client's next requests are answered (on a new connection).
        for _ in range(3):
            assert client.get("/api/me").status_code == 200
