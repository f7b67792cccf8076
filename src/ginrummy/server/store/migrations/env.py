"""Alembic's environment: run the migrations on the connection
:mod:`ginrummy.server.store.migrations` passes in ``config.attributes["connection"]`` (never from a
URL in a file)."""

from __future__ import annotations

from alembic import context

connection = context.config.attributes.get("connection")
if connection is None:
    raise RuntimeError("run the migrations through ginrummy.server.store.migrations.upgrade()")
context.configure(
    connection=connection,
    render_as_batch=connection.dialect.name == "sqlite",
)
with context.begin_transaction():
    context.run_migrations()
