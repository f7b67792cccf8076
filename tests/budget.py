"""How many examples a Hypothesis test draws: its own number by default, more under --slow.

A test's ``@settings(max_examples=...)`` wins over the loaded profile, so a test that sets its
own count would draw only that many under ``--slow`` too; ``examples(n)`` gives ``n`` in the
default run and the ``slow`` profile's count (tests/conftest.py) under ``--slow`` (at most
``slow``, for a test whose every example is costly)."""

from __future__ import annotations

from hypothesis import settings


def examples(n: int, slow: int | None = None) -> int:
    """``n``, or under ``--slow`` the slow profile's count (capped at ``slow`` when given).
    Read when a test module is imported, after tests/conftest.py loaded the profile."""
    if settings.get_current_profile_name() != "slow":
        return n
    many = settings().max_examples
    return max(n, min(many, slow)) if slow is not None else max(n, many)
