"""Presence of the live event streams: the table ``live_presence`` (one row per match and
seat: how many of the seat's streams are open, and when it was last seen), shared by every
worker process and machine (see :mod:`ginrummy.server.live`).

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "live_presence",
        sa.Column("match_id", sa.String(32), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("streams", sa.Integer, nullable=False),
        sa.Column("last_seen", sa.DateTime, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("live_presence")
