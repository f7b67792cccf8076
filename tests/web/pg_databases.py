"""A fresh database on the test PostgreSQL cluster, for tests that need one of their own."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url


def new_pg_database(cluster: str) -> Iterator[str]:
    """Create an empty database on the cluster at ``cluster``, yield its URL, then drop it."""
    name = "t_" + secrets.token_hex(6)
    admin = create_engine(cluster, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f"CREATE DATABASE {name}"))
    try:
        yield make_url(cluster).set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as conn:
            conn.execute(text(f"DROP DATABASE {name} WITH (FORCE)"))
        admin.dispose()


def database_url(request: Any, tmp_path: Path) -> Iterator[str]:
    """For a fixture parametrized ``"sqlite"`` / ``"postgresql"``: the URL of an empty
    database, a new SQLite file or a new database on the test cluster (dropped after)."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'games.sqlite3'}"
        return
    yield from new_pg_database(request.getfixturevalue("pg_url"))
