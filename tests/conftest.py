"""Shared test setup: the --slow and --fast flags, the browser and postgres markers, how the
tests are shared out between xdist workers, and Hypothesis profiles.

- ``--slow`` runs the long cross-checks (tests marked ``slow``) too.
- ``--fast`` leaves out the tests that drive Chromium (``browser``: every test using the
  ``browser`` fixture) or need a PostgreSQL cluster (``postgres``: every test using the
  ``pg_url`` fixture or so marked); the markers are set here, from the fixtures a test uses, so
  a new page test is in the right tier without remembering to mark it.
- Under ``--dist loadgroup`` (``./scripts/test``) every browser test runs on one worker, which
  starts Chromium and the live server once, and every PostgreSQL test on one worker, which
  starts one cluster; the other worker takes the rest test by test meanwhile. The web tests
  (many of the longest: a server, a coach, whole matches) are collected first, so that the
  shared-out tail is made of short engine tests and neither worker is left alone with a long
  test at the end.
"""

from __future__ import annotations

import pytest
from hypothesis import settings

settings.register_profile("default", deadline=None)
settings.register_profile("slow", deadline=None, max_examples=2000)
settings.load_profile("default")

#: A test using any of these fixtures is marked (and grouped on one xdist worker) so.
_MARK_BY_FIXTURE = {"browser": "browser", "live_server": "browser", "pg_url": "postgres"}


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--slow", action="store_true", help="run the long cross-checks too")
    parser.addoption(
        "--fast", action="store_true",
        help="leave out the browser and PostgreSQL tests (what ./scripts/test --fast runs)",
    )


def pytest_configure(config: pytest.Config) -> None:
    if config.getoption("--slow"):
        settings.load_profile("slow")


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


@pytest.hookimpl(tryfirst=True)  # before xdist reads the xdist_group marks
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    fast = config.getoption("--fast")
    kept: list[pytest.Item] = []
    left_out: list[pytest.Item] = []
    for item in items:
        kind = _kind(item)
        if kind is not None:
            item.add_marker(kind)
            item.add_marker(pytest.mark.xdist_group(kind))
            if fast:
                left_out.append(item)
                continue
        kept.append(item)
    if left_out:
        config.hook.pytest_deselected(items=left_out)
    # Stable: the order within each folder is kept.
    items[:] = sorted(kept, key=lambda item: not item.nodeid.startswith("tests/web/"))
    if config.getoption("--slow"):
        return
    skip = pytest.mark.skip(reason="long check: run with --slow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)
