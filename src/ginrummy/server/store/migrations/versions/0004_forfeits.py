"""Abandoned matches are forfeits: the computer (seat 1) is their winner, so they count as
losses in the history and the statistics, those abandoned before this revision too.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute("UPDATE matches SET winner = 1 WHERE status = 'abandoned' AND winner IS NULL")


def downgrade() -> None:
    op.execute("UPDATE matches SET winner = NULL WHERE status = 'abandoned'")
