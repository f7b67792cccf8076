"""Rate-limit counts shared by every server process: the table ``rate_hits`` (one row per
request let through, by the hash of its kind and sender; see :mod:`ginrummy.server.store.limits`).

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "rate_hits",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("key", sa.String(64), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
    )
    op.create_index("ix_rate_hits_key_at", "rate_hits", ["key", "at"])
    op.create_index("ix_rate_hits_expires", "rate_hits", ["expires"])


def downgrade() -> None:
    op.drop_table("rate_hits")
