"""``GET /api/stats`` gives the History window its forfeits (issue 37, item 8: the page said
"Forfeits (counted as lost): undefined", the answer's schema dropped the store's figure), on
SQLite and on PostgreSQL, and the History window shows the number (Chromium)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from ginrummy.server import create_app
from ginrummy.server.store import Store

from .conftest import Server
from .helpers import dealt_match, new_player
from .test_page import deal, open_table


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def any_client(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[TestClient]:
    if request.param == "sqlite":
        store = Store(f"sqlite:///{tmp_path / 'games.sqlite3'}")
    else:
        store = Store(request.getfixturevalue("pg_url"))
    try:
        with TestClient(create_app(store=store, coach_processes=0)) as client:
            yield client
    finally:
        store.close()


def test_stats_count_forfeits_among_the_lost(any_client: TestClient) -> None:
    client = any_client
    auth = new_player(client, "Kim")
    fresh = client.get("/api/stats", headers=auth).json()
    assert fresh["forfeits"] == 0 and fresh["matches_lost"] == 0
    for _ in range(2):  # each new match abandons the one before: a forfeit
        dealt_match(client, auth)
    dealt_match(client, auth)
    stats = client.get("/api/stats", headers=auth).json()
    assert stats["forfeits"] == 2 and stats["matches_lost"] == 2 and stats["matches"] == 2
    listed = client.get("/api/matches", headers=auth).json()
    assert [m["status"] for m in listed] == ["abandoned", "abandoned"]


def test_the_history_window_shows_the_forfeits(browser: Any, live_server: Server) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900},
                                  reduced_motion="reduce", bypass_csp=True)
    try:
        page = context.new_page()
        open_table(page, live_server)
        deal(page)
        page.click("#btn-new")  # a new match over the one in play: a forfeit
        deal(page)
        page.click("#btn-history")
        page.wait_for_selector("#matches table")
        figures = {
            (row.locator("dt").text_content() or ""): (row.locator("dd").text_content() or "")
            for row in page.locator("#stats > div").all()
        }
        assert figures["Forfeits (counted as lost)"] == "1", figures
        assert figures["Matches (won–lost)"] == "1 (0–1)"
        assert "undefined" not in (page.text_content("#stats") or "")
        assert not page.errors  # type: ignore[attr-defined]
    finally:
        context.close()
