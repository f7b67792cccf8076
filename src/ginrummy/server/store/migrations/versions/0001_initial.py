"""The schema as it stood before migrations: players, matches, match_seals, hands, coach_notes.

Each table is created only when it is missing, so this revision also brings a database written
before migrations to revision 0001 (one from before sealed deals gains ``match_seals`` here).
The tables are written out as they were, not imported from the models, which move on.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def _tables() -> sa.MetaData:
    meta = sa.MetaData()
    sa.Table(
        "players", meta,
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("token_hash", sa.String(64), nullable=False, unique=True, index=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("created_at", sa.DateTime, nullable=False),
    )
    sa.Table(
        "matches", meta,
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False,
                  index=True),
        sa.Column("level", sa.String(20), nullable=False),
        sa.Column("profile", sa.String(20), nullable=False),
        sa.Column("rules", sa.String(400), nullable=False),
        sa.Column("hollywood", sa.Boolean, nullable=False),
        sa.Column("status", sa.String(12), nullable=False, index=True),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("deal_seed", sa.String(64), nullable=False),
        sa.Column("hands_played", sa.Integer, nullable=False),
        sa.Column("score_0", sa.Integer, nullable=False),
        sa.Column("score_1", sa.Integer, nullable=False),
        sa.Column("winner", sa.Integer, nullable=True),
        sa.Column("created_at", sa.DateTime, nullable=False),
        sa.Column("updated_at", sa.DateTime, nullable=False, index=True),
        sa.Column("record", sa.Text, nullable=False),
    )
    sa.Table(
        "match_seals", meta,
        sa.Column("match_id", sa.String(32), sa.ForeignKey("matches.id"), primary_key=True),
        sa.Column("state", sa.Text, nullable=False),
    )
    sa.Table(
        "hands", meta,
        sa.Column("match_id", sa.String(32), sa.ForeignKey("matches.id"), primary_key=True),
        sa.Column("number", sa.Integer, primary_key=True),
        sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False,
                  index=True),
        sa.Column("kind", sa.String(12), nullable=False),
        sa.Column("winner_seat", sa.Integer, nullable=True),
        sa.Column("knocker_seat", sa.Integer, nullable=True),
        sa.Column("knocker_deadwood", sa.Integer, nullable=False),
        sa.Column("defender_deadwood", sa.Integer, nullable=False),
        sa.Column("points", sa.Integer, nullable=False),
    )
    sa.Table(
        "coach_notes", meta,
        sa.Column("match_id", sa.String(32), primary_key=True),
        sa.Column("hand", sa.Integer, primary_key=True),
        sa.Column("idx", sa.Integer, primary_key=True),
        sa.Column("turn", sa.Integer, nullable=False),
        sa.Column("data", sa.Text, nullable=False),
        sa.Column("created_at", sa.DateTime, nullable=False),
    )
    return meta


def upgrade() -> None:
    _tables().create_all(op.get_bind(), checkfirst=True)


def downgrade() -> None:
    _tables().drop_all(op.get_bind())
