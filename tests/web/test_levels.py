"""Opponent levels: every level a person can pick is a computer player the players package
makes, and the web table plays it as itself (no stand-in)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, get_args

import pytest

from ginrummy.players import Player, make
from ginrummy.server import service
from ginrummy.server.routes import LEVELS
from ginrummy.server.schemas import Level, NewMatchIn
from ginrummy.server.store import Store

#: Level "agent" is the policy the server was started with (tests/web/test_agent.py).
OURS = [level for level in get_args(Level) if level != service.AGENT]


@pytest.mark.parametrize("level", OURS)
def test_every_level_is_a_player(level: str) -> None:
    assert isinstance(make(level), Player)


def test_the_offered_levels_are_the_levels_a_match_accepts() -> None:
    assert set(LEVELS) <= set(OURS)


@pytest.mark.parametrize("level", ["easy", "expert"])
def test_a_level_is_played_as_itself(
    level: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    made: list[str] = []

    def spy(name: str, **kw: Any) -> Player:
        made.append(name)
        return make(name, **kw)

    monkeypatch.setattr(service, "make", spy)
    store = Store(f"sqlite:///{tmp_path / 'games.sqlite3'}")
    try:
        tables = service.TableService(store)
        player, _ = tables.new_player("Ann")
        state = tables.new_match(player, NewMatchIn(level=level, deal=False))  # type: ignore[arg-type]
        assert state.level == level
        # A second server (no cache) rebuilds the same table from the store.
        again = service.TableService(store).state(player, state.id)
        assert again.level == level
        assert made == [level, level]
    finally:
        store.close()
