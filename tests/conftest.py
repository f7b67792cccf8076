"""Shared test setup: the --slow and --fast flags, the browser and postgres markers, how the
tests are shared out between xdist workers, and Hypothesis profiles.

- ``--slow`` runs the long cross-checks (tests marked ``slow``) too.
- ``--fast`` leaves out ``tests/web/``: the web table's tests, which start servers, drive
  Chromium or need PostgreSQL. The engine, players, coach, CLI and terminal tests (and the
  doctests and golden records) all run.
- ``browser`` (every test using the ``browser`` or ``live_server`` fixture) and ``postgres``
  (every test using ``pg_url``, or so marked) are set here from the fixtures a test uses, so a
  new page test is marked without remembering to: ``-m "not browser and not postgres"``.
- ``./scripts/test`` shares the tests out with ``--dist worksteal``: each worker takes half of
  the list, in order, and a worker that runs out takes the second half of the other's queue.
  So the modules are ordered by their longest test, longest first: a long test (a whole match
  on two workers, a browser match) starts at once instead of late, when it would leave the
  other worker idle at the end, and the tail is made of short tests that share out well. A
  test's time is what the last run on this machine measured (kept in pytest's cache); a module
  the cache does not know yet (a fresh checkout, as in CI) takes its figure from ``_HINT``, or
  a small default (more for a web module, which starts a server or a browser).
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

#: Where the last run's time of every test is kept (pytest's cache, .pytest_cache/).
_DURATIONS_KEY = "ginrummy/durations"
#: The longest test of the slowest modules in seconds, as a full run on the two-core machine
#: measured them (December 2026, a clean clone's run): only an order (see above), for a run
#: that has no measured times yet. The match on two workers is put first: its length varies
#: from run to run by a factor of two (the deals are random).
_HINT = {
    "tests/web/test_people_workers.py": 45,
    # Its whole match plays known deals (tests/web/conftest.py, known_deals): 16 to 21 s.
    "tests/web/test_people.py": 20,
    "tests/web/test_schema.py": 15,
    "tests/web/test_coach_api.py": 15,
    "tests/web/test_coach_page.py": 15,
    "tests/web/test_page.py": 15,
    "tests/web/test_serve_workers.py": 11,
    "tests/web/test_page_phone.py": 10,
    "tests/web/test_learn_page.py": 10,
    "tests/web/test_page_agent.py": 10,
    "tests/test_simulate_ray.py": 9,
    "tests/web/test_live_workers.py": 9,
    "tests/web/test_api_reasons.py": 8,
    "tests/web/test_page_people.py": 7,
    "tests/web/test_page_sealed.py": 7,
    "tests/test_hand.py": 7,
    "tests/web/test_api.py": 7,
    "tests/web/test_page_knock_melds.py": 7,
    "tests/web/test_page_account.py": 6,
    "tests/web/test_reliability.py": 6,
    "tests/web/test_live_pg.py": 5,
    "tests/web/test_catch_up.py": 5,
    "tests/test_fairness.py": 5,
    "tests/web/test_crash.py": 5,
    "tests/test_env.py": 5,
    "tests/test_players_worlds.py": 4,
    "tests/test_tui_terminal.py": 4,
    "tests/web/test_api_knock_melds.py": 4,
    "tests/web/test_live.py": 4,
    "tests/test_tui_coach.py": 4,
    "tests/test_melds.py": 4,
    "tests/web/test_hardening_cpu.py": 4,
    "tests/web/test_page_match_end.py": 3,
    "tests/test_cards.py": 3,
    "tests/test_golden.py": 3,
}
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


def _module(nodeid: str) -> str:
    return nodeid.split("::", 1)[0]


def _longest_test(config: pytest.Config, items: list[pytest.Item]) -> dict[str, float]:
    """Seconds of each module's longest test: measured by the last run, else the hint."""
    measured: dict[str, float] = {}
    cache = getattr(config, "cache", None)
    if cache is not None:
        for nodeid, seconds in cache.get(_DURATIONS_KEY, {}).items():
            module = _module(nodeid)
            measured[module] = max(measured.get(module, 0.0), float(seconds))
    out: dict[str, float] = {}
    for item in items:
        module = _module(item.nodeid)
        if module not in out:
            web = _WEB in item.path.parents
            out[module] = measured.get(module, _HINT.get(module, 3.0 if web else 0.5))
    return out


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    # Stable: the order within each module is kept (module fixtures are set up once).
    longest = _longest_test(config, items)
    items.sort(key=lambda item: -longest[_module(item.nodeid)])
    if config.getoption("--slow"):
        return
    skip = pytest.mark.skip(reason="long check: run with --slow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


# The time of every test, summed over its setup, call and teardown, kept for the next run's
# order. Under xdist the reports reach the controller, which alone writes the cache.
# A skipped test (a long check without --slow) is not recorded: it ran in no time.
_measured: dict[str, float] = {}
_skipped: set[str] = set()


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    _measured[report.nodeid] = _measured.get(report.nodeid, 0.0) + report.duration
    if report.skipped:
        _skipped.add(report.nodeid)


def pytest_sessionfinish(session: pytest.Session) -> None:
    config = session.config
    cache = getattr(config, "cache", None)
    if cache is None or hasattr(config, "workerinput") or not _measured:
        return
    known: dict[str, float] = cache.get(_DURATIONS_KEY, {})
    known.update({k: round(v, 2) for k, v in _measured.items() if k not in _skipped})
    cache.set(_DURATIONS_KEY, known)
