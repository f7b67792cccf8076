"""Bounds against abuse at tables for two people (issue 37): where each seat sat from and why
a match was not rated.

- ``people_tables.address0`` / ``address1``: the hash of the client address each seat was
  taken from (never the address itself; see :func:`ginrummy.server.store.limits.limit_key`), for the
  lobby's per-address bound and the rated results' per-address bound;
- ``people_tables.unrated``: why a finished match was not rated (a short key: ``no_hand``,
  ``pair``, ``account``, ``address``), ``NULL`` when it was rated or is not over;
- ``rating_changes.address``: the hash of the address the player sat from in that match;
- an index of ``rating_changes`` by player and time, for a player's rated matches and the
  ratings' bounds per account (:mod:`ginrummy.server.store.ratings`).

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("people_tables") as batch:
        batch.add_column(sa.Column("address0", sa.String(64), nullable=True))
        batch.add_column(sa.Column("address1", sa.String(64), nullable=True))
        batch.add_column(sa.Column("unrated", sa.String(16), nullable=True))
    op.create_index("ix_people_tables_address0", "people_tables", ["address0"])
    with op.batch_alter_table("rating_changes") as batch:
        batch.add_column(sa.Column("address", sa.String(64), nullable=True))
    op.create_index("ix_rating_changes_address", "rating_changes", ["address"])
    op.create_index("ix_rating_changes_player_at", "rating_changes", ["player_id", "at"])


def downgrade() -> None:
    op.drop_index("ix_rating_changes_player_at", table_name="rating_changes")
    op.drop_index("ix_rating_changes_address", table_name="rating_changes")
    with op.batch_alter_table("rating_changes") as batch:
        batch.drop_column("address")
    op.drop_index("ix_people_tables_address0", table_name="people_tables")
    with op.batch_alter_table("people_tables") as batch:
        batch.drop_column("unrated")
        batch.drop_column("address1")
        batch.drop_column("address0")
