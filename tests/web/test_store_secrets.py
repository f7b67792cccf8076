"""Live secrets at rest: the raw database (and a SQLite file's bytes) hold no deck, deal seed or
server seed of a match in progress; the wrong key is a clear error; a row written with an
older key reads, and ``rotate-key`` re-encrypts everything (plain rows from before too)."""

from __future__ import annotations

import json
import os
import re
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from sqlalchemy import text

from ginrummy.cli import main
from ginrummy.server.schemas import NewMatchIn
from ginrummy.server.service import TableService
from ginrummy.server.store import SecretKeyError, Store
from ginrummy.server.store.keys import ENV_KEY, SecretBox, generate_key, load_keys

from .helpers import choose
from .pg_databases import database_url


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    yield from database_url(request, tmp_path)


def _match_in_progress(store: Store) -> tuple[str, list[str]]:
    """A match a few moves into its first hand; its id and the secrets it keeps (deal seed,
    the deck of the hand in play, server seeds)."""
    service = TableService(store)
    player, _ = service.new_player("Ann")
    for _ in range(5):  # a hand may end within a few moves: then another match
        state = service.new_match(player, NewMatchIn(level="random"))
        if state.status == "between_hands" or state.hand is None:
            state = service.next_hand(player, state.id, state.version, "my client seed")
        for _ in range(3):
            if state.status != "playing":
                break
            state = service.play(player, state.id, choose(state.model_dump()), state.version)
        if state.status == "playing":
            break
    info = store.get_match(player.id, state.id)
    assert info is not None and info.status == "playing"
    _version, record, seals = store.load_match(state.id)
    assert seals is not None
    decks = re.findall(r'deck = "([^"]+)"', record)
    servers = [h["server_seed"] for h in json.loads(seals)["hands"] if h.get("server_seed")]
    assert decks and servers
    return state.id, [info.deal_seed, *decks, *servers]


def _raw(store: Store, match_id: str) -> list[str]:
    with store.engine.connect() as conn:
        row = conn.execute(text("SELECT deal_seed, record FROM matches WHERE id = :id"),
                           {"id": match_id}).one()
        seal = conn.execute(text("SELECT state FROM match_seals WHERE match_id = :id"),
                            {"id": match_id}).scalar_one()
    return [row[0], row[1], seal]


def test_the_raw_database_holds_no_secret_of_a_match_in_progress(url: str) -> None:
    store = Store(url)
    try:
        match_id, secrets = _match_in_progress(store)
        raw = _raw(store, match_id)
        assert all(value.startswith("fernet:") for value in raw)
        for secret in secrets:
            assert not any(secret in value for value in raw)
            # A few cards of the deck in a row, in any spelling the record uses.
            assert not any(secret[:20] in value for value in raw)
    finally:
        store.close()
    if url.startswith("sqlite"):
        path = Path(url.removeprefix("sqlite:///"))
        data = b"".join(p.read_bytes() for p in path.parent.glob(path.name + "*")
                        if not p.name.endswith(".key"))
        for secret in secrets:
            assert secret.encode() not in data


def test_the_wrong_key_is_a_clear_error_at_start(url: str, tmp_path: Path) -> None:
    store = Store(url)
    _match_in_progress(store)
    store.close()
    with pytest.raises(SecretKeyError, match="does not open with the keys"):
        Store(url, keys=SecretBox([generate_key()]))
    bad = tmp_path / "other.key"
    bad.write_text(generate_key() + "\n")
    env = {ENV_KEY: ""}
    result = CliRunner(env=env).invoke(main, ["serve", "--db", url, "--key-file", str(bad),
                                              "--port", "0"])
    assert result.exit_code != 0 and "does not open with the keys" in result.output
    result = CliRunner(env={ENV_KEY: "not a key"}).invoke(main, ["serve", "--db", url])
    assert result.exit_code != 0 and "is not a Fernet key" in result.output


def test_an_older_key_reads_and_rotate_key_moves_everything_to_the_new_one(url: str) -> None:
    old, new = generate_key(), generate_key()
    store = Store(url, keys=SecretBox([old]))
    match_id, _ = _match_in_progress(store)
    version, record, seals = store.load_match(match_id)
    # A row written before encryption existed: plain, read as it is.
    with store.engine.begin() as conn:
        conn.execute(text("UPDATE matches SET deal_seed = 'plain-seed' WHERE id = :id"),
                     {"id": match_id})
    store.close()

    both = Store(url, keys=SecretBox([new, old]))
    assert both.load_match(match_id) == (version, record, seals)
    both.close()
    keyfile = Path(os.environ.get("TMPDIR", "/tmp")) / f"keys-{match_id}"
    keyfile.write_text(f"# new first\n{new}\n{old}\n")
    try:
        result = CliRunner(env={ENV_KEY: ""}).invoke(
            main, ["db", "rotate-key", "--db", url, "--key-file", str(keyfile)])
    finally:
        keyfile.unlink()
    assert result.exit_code == 0, result.output
    assert re.search(r"secrets of [1-9][0-9]* match", result.output)

    only_new = Store(url, keys=SecretBox([new]))
    try:
        assert only_new.load_match(match_id) == (version, record, seals)
        assert all(v.startswith("fernet:") for v in _raw(only_new, match_id))
        assert any(m.deal_seed == "plain-seed" for m in
                   only_new.list_matches(1, statuses=("playing",)))
    finally:
        only_new.close()
    with pytest.raises(SecretKeyError):
        Store(url, keys=SecretBox([old]))


def test_a_sqlite_file_gets_a_private_key_file_beside_it(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    first = load_keys(url, environ={})
    key_file = tmp_path / "games.sqlite3.key"
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    sealed = first.seal("secret")
    assert load_keys(url, environ={}).open(sealed) == "secret"  # the same key, read again


def test_postgresql_without_a_key_is_refused() -> None:
    with pytest.raises(SecretKeyError, match=ENV_KEY):
        load_keys("postgresql+psycopg://u@127.0.0.1/db", environ={})
