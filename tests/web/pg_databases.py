"""A fresh database on the test PostgreSQL cluster, for tests that need one of their own."""

from __future__ import annotations

import secrets
from collections.abc import Iterator

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
