"""Opponent levels: a level the players package knows is played as itself; one it does not
know yet is played by ``random``, and the state says so."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ginrummy import players
from ginrummy.players.random_player import RandomPlayer
from ginrummy.web import service


@pytest.fixture()
def fresh_levels() -> Iterator[None]:
    service.resolve_level.cache_clear()
    yield
    service.resolve_level.cache_clear()


def test_unknown_levels_fall_back_to_random(fresh_levels: None,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(players, "LEVELS", {})
    monkeypatch.setattr(players, "PLAYERS", {"random": RandomPlayer})
    assert service.resolve_level("expert") == "random"
    assert service.resolve_level("random") == "random"


def test_a_known_level_is_played_as_itself(fresh_levels: None,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(players, "LEVELS", {"easy": "random"})
    assert service.resolve_level("easy") == "easy"
