"""Room for encrypted secrets: ``matches.deal_seed`` becomes TEXT (a Fernet token of a
32-character seed is about 150 characters). ``record`` and ``match_seals.state`` are TEXT
already. Rows written before stay plain until ``ginrummy db rotate-key`` encrypts them; the
store reads both (see :mod:`ginrummy.server.store.keys`).

On SQLite the column's type is changed by rebuilding the table (Alembic's batch mode), with
foreign keys off for the rebuild (:func:`ginrummy.server.store.migrations.upgrade` turns them off),
and the partial index made again after it.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

PLAYING = "status = 'playing'"


def _retype(to: sa.types.TypeEngine[str], old: sa.types.TypeEngine[str]) -> None:
    if op.get_bind().dialect.name != "sqlite":
        op.alter_column("matches", "deal_seed", type_=to, existing_type=old,
                        existing_nullable=False)
        return
    op.drop_index("uq_matches_one_playing", table_name="matches")
    with op.batch_alter_table("matches", recreate="always") as batch:
        batch.alter_column("deal_seed", type_=to, existing_type=old, existing_nullable=False)
    op.create_index("uq_matches_one_playing", "matches", ["player_id"], unique=True,
                    sqlite_where=sa.text(PLAYING))


def upgrade() -> None:
    _retype(sa.Text(), sa.String(64))


def downgrade() -> None:
    _retype(sa.String(64), sa.Text())
