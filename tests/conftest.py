"""Shared test setup: the --slow and --fast flags, the browser and postgres markers, how the
tests are shared out between xdist workers, and Hypothesis profiles.

- ``--slow`` runs the long cross-checks (tests marked ``slow``) too.
- ``--fast`` leaves out ``tests/web/``: the web table's tests, which start servers, drive
  Chromium or need PostgreSQL. The engine, players, coach, CLI and terminal tests (and the
  doctests and golden records) all run.
- ``browser`` (every test using the ``browser`` or ``live_server`` fixture) and ``postgres``
  (every test using ``pg_url``, or so marked) are set here from the fixtures a test uses, so a
  new page test is marked without remembering to: ``-m "not browser and not postgres"``.
- ``./scripts/test`` shares the tests out with ``--dist worksteal``. The web tests (many of
  the longest: a server, a coach, whole matches) are collected first, so that the tail is made
  of short engine tests and neither worker is left alone with a long test at the end.
  (``--dist loadgroup`` with ``xdist_group`` marks would keep every browser test on one
  worker, but with pytest 9.2 it silently stops grouping: pytest-xdist issue #1386.)
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import settings

settings.register_profile("default", deadline=None)
settings.register_profile("slow", deadline=None, max_examples=2000)
settings.load_profile("default")

#: A test using any of these fixtures is marked so.
_MARK_BY_FIXTURE = {"browser": "browser", "live_server": "browser", "pg_url": "postgres"}
_WEB = Path(__file__).resolve().parent / "web"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--slow", action="store_true", help="run the long cross-checks too")
    parser.addoption(
        "--fast", action="store_true",
        help="leave out tests/web (servers, browser, PostgreSQL): ./scripts/test --fast",
    )


def pytest_configure(config: pytest.Config) -> None:
    if config.getoption("--slow"):
        settings.load_profile("slow")


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    if config.getoption("--fast") and (collection_path == _WEB or _WEB in collection_path.parents):
        return True
    return None


def _kind(item: pytest.Item) -> str | None:
    """``browser`` or ``postgres`` for the tests needing either, else None."""
    names = getattr(item, "fixturenames", ())
    for fixture, mark in _MARK_BY_FIXTURE.items():
        if fixture in names:
            return mark
    for mark in ("browser", "postgres"):
        if item.get_closest_marker(mark) is not None:
            return mark
    return None


def pytest_itemcollected(item: pytest.Item) -> None:
    # Marked as each test is collected: before -m reads the marks, whatever the plugins' order.
    kind = _kind(item)
    if kind is not None:
        item.add_marker(kind)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    # Stable: the order within each folder is kept.
    items.sort(key=lambda item: _WEB not in item.path.parents)
    if config.getoption("--slow"):
        return
    skip = pytest.mark.skip(reason="long check: run with --slow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)
