"""The database schema's history: Alembic migrations, run from code (no ``alembic.ini``).

Revision ``0001`` is the schema as it stood before migrations existed (players, matches,
match_seals, hands, coach_notes); every later change is a revision of its own in
``versions/``. :func:`upgrade` brings any database to the newest revision (``head``):

- an empty database gets every revision in turn;
- a database written by the code before migrations (its tables, no ``alembic_version``) is
  taken for revision 0001: revision 0001 creates only the tables missing from it (a database
  from before sealed deals lacks ``match_seals``), so such a database is stamped 0001 by running
  it, and then upgraded like any other.

On PostgreSQL the upgrade runs in one transaction holding an advisory lock, so processes that
start together upgrade one after the other (the second finds the database at head and does
nothing). On a SQLite file the same is done with an exclusive lock on a file beside it.
A process that must not change the schema (a web worker) calls :func:`check` instead, which
refuses a database that is not at head with the command that fixes it.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import MetaData, text
from sqlalchemy.engine import Connection, Engine

__all__ = ["SchemaError", "check", "current", "head", "upgrade", "model_metadata"]

HERE = Path(__file__).resolve().parent

#: The advisory lock key that serializes upgrades on PostgreSQL (any constant of our own).
PG_LOCK_KEY = 0x67696E72  # "ginr"


class SchemaError(Exception):
    """The database's schema is not the one this code needs."""


def _config(connection: Connection | None = None) -> Config:
    config = Config()
    config.set_main_option("script_location", str(HERE))
    config.attributes["connection"] = connection
    return config


def head() -> str:
    """The newest revision."""
    found = ScriptDirectory.from_config(_config()).get_current_head()
    assert found is not None
    return found


def current(engine: Engine) -> str | None:
    """The database's revision: ``None`` for an empty database or one written before
    migrations (see :func:`upgrade`)."""
    with engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()


def check(engine: Engine) -> None:
    """Raise :class:`SchemaError` unless the database is at :func:`head`."""
    found, wanted = current(engine), head()
    if found != wanted:
        url = engine.url.render_as_string(hide_password=True)
        raise SchemaError(
            f"The database {url} is at schema revision {found or 'none'}, and this version of "
            f"ginrummy needs {wanted}: run 'ginrummy db upgrade --db {url}' first."
        )


def upgrade(engine: Engine) -> str:
    """Bring the database to :func:`head` (safe when several processes do it at once);
    returns the revision it is at."""
    with _file_lock(engine), engine.connect() as conn:
        sqlite = conn.dialect.name == "sqlite"
        if sqlite:
            # A table rebuilt by a migration (SQLite's way to change a column) must not
            # cascade into the rows that refer to it; this pragma works only outside a
            # transaction, so it comes first, and is set back before the connection returns.
            conn.exec_driver_sql("PRAGMA foreign_keys=OFF")
            conn.commit()
        try:
            with conn.begin():
                if conn.dialect.name == "postgresql":
                    conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": PG_LOCK_KEY})
                command.upgrade(_config(conn), "head")
        finally:
            if sqlite:
                conn.rollback()
                conn.exec_driver_sql("PRAGMA foreign_keys=ON")
                conn.commit()
    return head()


@contextlib.contextmanager
def _file_lock(engine: Engine) -> Iterator[None]:
    """An exclusive lock on ``<database>.migrate-lock`` for a SQLite file (else nothing)."""
    path = engine.url.database if engine.dialect.name == "sqlite" else None
    if not path or path == ":memory:":
        yield
        return
    import fcntl

    with open(os.path.abspath(path) + ".migrate-lock", "a") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


def model_metadata() -> MetaData:
    """Every table the code's models declare (the store's, its transfer codes' and rate-limit
    hits', the coach notes' and the live streams' presence): the one declarative base's
    :class:`MetaData`, what the migrations at head must agree with."""
    from .. import limits, tokens  # noqa: F401  (their tables join the base's metadata)
    from ..models import _Base

    return _Base.metadata
