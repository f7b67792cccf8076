"""The schema's migrations on SQLite and on PostgreSQL: they agree with the models, a database
written before migrations (with a match in progress) upgrades and the match plays on, racing
upgrades are safe, and a worker refuses a database that is not up to date."""

from __future__ import annotations

import secrets
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from click.testing import CliRunner
from sqlalchemy import create_engine, inspect, text
from sqlalchemy.engine import Engine

from ginrummy.cli import main
from ginrummy.server.schemas import MatchState, NewMatchIn
from ginrummy.server.service import TableService
from ginrummy.server.store import PlayerInfo, Store, migrations

from .helpers import choose
from .pg_databases import database_url

SCHEMA_0001 = Path(__file__).with_name("schema_0001")


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def empty_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """The URL of an empty database: a new SQLite file, or a new database on the cluster."""
    yield from database_url(request, tmp_path)


def _play(service: TableService, player: PlayerInfo, state: MatchState, moves: int) -> MatchState:
    """Play up to ``moves`` of the person's moves (dealing when a hand is to be dealt)."""
    for _ in range(moves):
        if state.status == "over":
            break
        if state.status == "between_hands" or state.hand is None:
            state = service.next_hand(player, state.id, state.version, secrets.token_hex(8))
        else:
            state = service.play(player, state.id, choose(state.model_dump()), state.version)
    return state


def test_the_migrations_at_head_agree_with_the_models(empty_url: str) -> None:
    engine = create_engine(empty_url)
    try:
        assert migrations.current(engine) is None
        assert migrations.upgrade(engine) == migrations.head()
        with engine.connect() as conn:
            diff = compare_metadata(MigrationContext.configure(conn), migrations.model_metadata())
        assert diff == []
    finally:
        engine.dispose()


def test_an_old_database_with_a_match_in_progress_upgrades_and_plays_on(empty_url: str) -> None:
    # A match in progress, played on a scratch store; its rows are written below into a
    # database laid out by the code before migrations (the DDL it issued, kept in schema_0001).
    scratch = Store("sqlite://")
    service = TableService(scratch)
    player, token = service.new_player("Ann")
    state = _play(service, player, service.new_match(player, NewMatchIn(level="random")), 6)
    if state.status == "between_hands":  # the hand ended in those moves: deal the next
        state = _play(service, player, state, 1)
    assert state.status == "playing"
    info = scratch.get_match(player.id, state.id)
    assert info is not None
    version, record, seals = scratch.load_match(state.id)
    scratch.close()

    dialect = "postgresql" if empty_url.startswith("postgresql") else "sqlite"
    old = create_engine(empty_url)
    ddl = (SCHEMA_0001 / f"{dialect}.sql").read_text()
    with old.begin() as conn:
        for statement in filter(str.strip, ddl.split(";")):
            conn.execute(text(statement))
        conn.execute(
            text("INSERT INTO players (id, token_hash, name, created_at) "
                 "VALUES (:id, :hash, 'Ann', :now)"),
            {"id": player.id, "hash": _sha256(token), "now": info.created_at},
        )
        conn.execute(
            text("INSERT INTO matches (id, player_id, level, profile, rules, hollywood, status, "
                 "version, deal_seed, hands_played, score_0, score_1, winner, created_at, "
                 "updated_at, record) VALUES (:id, :pid, :level, :profile, :rules, :hw, "
                 "'playing', :version, :seed, :hp, 0, 0, NULL, :now, :now, :record)"),
            {"id": info.id, "pid": player.id, "level": info.level, "profile": info.profile,
             "rules": info.rules, "hw": info.hollywood, "version": version,
             "seed": info.deal_seed, "hp": info.hands_played, "now": info.created_at,
             "record": record},
        )
        conn.execute(text("INSERT INTO match_seals (match_id, state) VALUES (:id, :state)"),
                     {"id": info.id, "state": seals})
    assert migrations.current(old) is None
    old.dispose()

    store = Store(empty_url)  # the new code opens the old database: upgraded to head
    try:
        assert migrations.current(store.engine) == migrations.head()
        service = TableService(store)
        me = service.player(token)
        assert me == player
        again = service.state(me, state.id)
        assert again.model_dump() == {**state.model_dump(), "computer_moves": []}
        after = _play(service, me, again, 1)
        assert after.version == again.version + 1
    finally:
        store.close()


def _sha256(token: str) -> str:
    import hashlib

    return hashlib.sha256(token.encode()).hexdigest()


def test_a_database_from_before_sealed_deals_gains_the_missing_table(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'old.sqlite3'}"
    engine = create_engine(url)
    with engine.begin() as conn:
        for statement in filter(str.strip, (SCHEMA_0001 / "sqlite.sql").read_text().split(";")):
            conn.execute(text(statement))
        conn.execute(text("DROP TABLE match_seals"))
    Store(url).close()
    assert "match_seals" in inspect(engine).get_table_names()
    assert migrations.current(engine) == migrations.head()
    engine.dispose()


def test_racing_upgrades_leave_one_schema(empty_url: str) -> None:
    """Four processes' worth of engines upgrade the same empty database at once."""
    # On PostgreSQL a lock wait gives up after two minutes: unserialized upgrades block one
    # another, and the test should then fail, not hang.
    extra = ({"connect_args": {"options": "-c lock_timeout=120s"}}
             if empty_url.startswith("postgresql") else {})
    engines = [create_engine(empty_url, **extra) for _ in range(4)]
    errors: list[BaseException] = []
    start = threading.Barrier(len(engines))

    def go(engine: Engine) -> None:
        start.wait()
        try:
            migrations.upgrade(engine)
        except BaseException as exc:  # reported below
            errors.append(exc)

    threads = [threading.Thread(target=go, args=(e,)) for e in engines]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    try:
        assert errors == []
        assert migrations.current(engines[0]) == migrations.head()
    finally:
        for e in engines:
            e.dispose()


def test_a_worker_refuses_a_database_that_is_not_up_to_date(empty_url: str) -> None:
    with pytest.raises(migrations.SchemaError, match="ginrummy db upgrade"):
        Store(empty_url, migrate=False)
    Store(empty_url).close()
    Store(empty_url, migrate=False).close()


def test_db_upgrade_and_current_commands(empty_url: str) -> None:
    runner = CliRunner()
    result = runner.invoke(main, ["db", "current", "--db", empty_url])
    assert result.exit_code == 0 and "revision none" in result.output
    result = runner.invoke(main, ["db", "upgrade", "--db", empty_url])
    assert result.exit_code == 0 and f"to {migrations.head()}" in result.output
    result = runner.invoke(main, ["db", "current", "--db", empty_url])
    assert result.exit_code == 0 and "up to date" in result.output
    result = runner.invoke(main, ["db", "upgrade", "--db", empty_url])
    assert result.exit_code == 0 and "already" in result.output


def test_an_old_database_with_two_unfinished_matches_keeps_the_latest(empty_url: str) -> None:
    """Racing starts on the code before revision 0002 could leave a player two unfinished
    matches; the upgrade abandons all but the one played last, then adds the index."""
    dialect = "postgresql" if empty_url.startswith("postgresql") else "sqlite"
    old = create_engine(empty_url)
    with old.begin() as conn:
        for statement in filter(str.strip, (SCHEMA_0001 / f"{dialect}.sql").read_text().split(";")):
            conn.execute(text(statement))
        conn.execute(text("INSERT INTO players (id, token_hash, name, created_at) "
                          "VALUES (1, 'h', 'Ann', '2026-01-01 00:00:00')"))
        for mid, when in (("older", "2026-01-02 00:00:00"), ("newer", "2026-01-03 00:00:00")):
            conn.execute(
                text("INSERT INTO matches VALUES (:id, 1, 'easy', 'traditional', 'r', false, "
                     "'playing', 3, 's', 0, 0, 0, NULL, :when, :when, 'record')"),
                {"id": mid, "when": when},
            )
    old.dispose()
    store = Store(empty_url)
    try:
        got = {m.id: (m.status, m.version, m.winner) for m in
               store.list_matches(1, statuses=("playing", "abandoned"))}
        # The older one is a forfeit (revision 0004): the computer's win.
        assert got == {"newer": ("playing", 3, None), "older": ("abandoned", 4, 1)}
    finally:
        store.close()
