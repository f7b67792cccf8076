"""Tables for two people: ``people_tables`` (the people side of a match between two people:
seats, invite and short code, lobby, clock, presence for the grace period, the client seeds
sent for the next deal, how and when it ended, rematch), and the Glicko-2 ratings
(``ratings``, one row per player, and ``rating_changes``, one row per rated match and player).

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "people_tables",
        sa.Column("match_id", sa.String(32), sa.ForeignKey("matches.id"), primary_key=True),
        sa.Column("seat0", sa.Integer, sa.ForeignKey("players.id"), nullable=False),
        sa.Column("seat1", sa.Integer, sa.ForeignKey("players.id"), nullable=True),
        sa.Column("invite", sa.String(32), nullable=False, unique=True),
        sa.Column("code", sa.String(16), nullable=False, unique=True),
        sa.Column("open", sa.Boolean, nullable=False),
        sa.Column("clock", sa.Integer, nullable=True),
        sa.Column("clock_started", sa.Float, nullable=False),
        sa.Column("seen0", sa.Float, nullable=False),
        sa.Column("seen1", sa.Float, nullable=False),
        sa.Column("seeds", sa.Text, nullable=False),
        sa.Column("ended", sa.String(16), nullable=True),
        sa.Column("ended_at", sa.Float, nullable=True),
        sa.Column("rematch_offer", sa.Integer, nullable=True),
        sa.Column("rematch_id", sa.String(32), nullable=True),
        sa.Column("rated", sa.Boolean, nullable=False),
    )
    op.create_index("ix_people_tables_seat0", "people_tables", ["seat0"])
    op.create_index("ix_people_tables_seat1", "people_tables", ["seat1"])
    op.create_index("ix_people_tables_open", "people_tables", ["open"])
    op.create_table(
        "ratings",
        sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("rd", sa.Float, nullable=False),
        sa.Column("vol", sa.Float, nullable=False),
        sa.Column("matches", sa.Integer, nullable=False),
    )
    op.create_table(
        "rating_changes",
        sa.Column("match_id", sa.String(32), sa.ForeignKey("matches.id"), primary_key=True),
        sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("opponent_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False),
        sa.Column("score", sa.Float, nullable=False),
        sa.Column("before", sa.Float, nullable=False),
        sa.Column("after", sa.Float, nullable=False),
        sa.Column("at", sa.DateTime, nullable=False),
    )
    op.create_index("ix_rating_changes_at", "rating_changes", ["at"])


def downgrade() -> None:
    op.drop_index("ix_rating_changes_at", table_name="rating_changes")
    op.drop_table("rating_changes")
    op.drop_table("ratings")
    for column in ("open", "seat1", "seat0"):
        op.drop_index(f"ix_people_tables_{column}", table_name="people_tables")
    op.drop_table("people_tables")
