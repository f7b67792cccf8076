"""``ginrummy db``: the web table's database: bring its schema up to date, say where it is."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:
    from sqlalchemy.engine import Engine

_DB_OPTION = click.option(
    "--db", "db_url", default=None, metavar="URL",
    help="SQLAlchemy database URL (default: the SQLite file in your data directory)",
)


@click.group()
def db() -> None:
    """The web table's database (the schema's migrations)."""


def _engine(db_url: str | None) -> Engine:
    from ..server.store.repository import _make_engine, default_url

    try:
        return _make_engine(db_url or default_url(), echo=False)
    except Exception as exc:
        raise click.ClickException(f"cannot open the database {db_url!r}: {exc}") from None


@contextmanager
def _database(db_url: str | None, doing: str) -> Iterator[Engine]:
    """The database's engine, disposed of afterwards; a failure inside becomes a Click error
    that says what was being done (``doing``: "read the database")."""
    engine = _engine(db_url)
    try:
        yield engine
    except Exception as exc:
        raise click.ClickException(f"cannot {doing}: {exc}") from None
    finally:
        engine.dispose()


@db.command()
@_DB_OPTION
def upgrade(db_url: str | None) -> None:
    """Bring the database's schema to the newest revision (``serve`` does it too)."""
    from ..server.store import migrations

    with _database(db_url, "upgrade the database") as engine:
        before = migrations.current(engine)
        after = migrations.upgrade(engine)
    if before == after:
        click.echo(f"The database is at revision {after} already (the newest).")
    else:
        click.echo(f"Upgraded the database from revision {before or 'none'} to {after}.")


@db.command()
@_DB_OPTION
def current(db_url: str | None) -> None:
    """Print the database's schema revision and the newest one."""
    from ..server.store import migrations

    with _database(db_url, "read the database") as engine:
        found = migrations.current(engine)
    wanted = migrations.head()
    state = "up to date" if found == wanted else "run 'ginrummy db upgrade'"
    click.echo(f"revision {found or 'none'} (newest: {wanted}): {state}")


@db.command("new-key")
def new_key() -> None:
    """Print a fresh key for the live secrets (for GINRUMMY_SECRET_KEY or a key file)."""
    from ..server.store.keys import generate_key

    click.echo(generate_key())


@db.command("rotate-key")
@_DB_OPTION
@click.option("--key-file", default=None, metavar="PATH",
              type=click.Path(dir_okay=False, path_type=str),
              help="the keys, one a line, the new one first (default: GINRUMMY_SECRET_KEY, "
              "or for SQLite the key file beside the database)")
def rotate_key(db_url: str | None, key_file: str | None) -> None:
    """Re-encrypt every live secret with the current (first) key, and encrypt those stored
    plain before encryption existed. Every key still in use must be listed after it."""
    from ..server.store.repository import SecretKeyError, Store

    try:
        store = Store(db_url, key_file=key_file)
    except SecretKeyError as exc:
        raise click.ClickException(str(exc)) from None
    except Exception as exc:
        raise click.ClickException(f"cannot open the database {db_url!r}: {exc}") from None
    try:
        done = store.rotate_keys()
    except SecretKeyError as exc:
        raise click.ClickException(str(exc)) from None
    finally:
        store.close()
    click.echo(f"Re-encrypted the secrets of {done} match(es) with the current key.")
