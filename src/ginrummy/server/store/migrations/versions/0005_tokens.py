"""Tokens with a lifetime, several per player, and transfer codes: the tables ``tokens`` and
``transfer_codes``. Each player's token hash moves from ``players`` to ``tokens`` (so every
browser signed in before keeps working, for 90 days from the upgrade, renewed on use), and
``players.token_hash`` goes.

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import datetime as dt

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

#: The lifetime of a token (as :data:`ginrummy.server.store.tokens.TOKEN_LIFETIME` was when
# written).
LIFETIME = dt.timedelta(days=90)


def upgrade() -> None:
    op.create_table(
        "tokens",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime, nullable=False),
        sa.Column("last_used_at", sa.DateTime, nullable=False),
        sa.Column("expires_at", sa.DateTime, nullable=False),
    )
    op.create_index("ix_tokens_player_id", "tokens", ["player_id"])
    op.create_index("ix_tokens_token_hash", "tokens", ["token_hash"], unique=True)
    op.create_table(
        "transfer_codes",
        sa.Column("code_hash", sa.String(64), primary_key=True),
        sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False),
        sa.Column("created_at", sa.DateTime, nullable=False),
        sa.Column("expires_at", sa.DateTime, nullable=False),
        sa.Column("used_at", sa.DateTime, nullable=True),
    )
    op.create_index("ix_transfer_codes_player_id", "transfer_codes", ["player_id"])
    now = dt.datetime.now(dt.UTC).replace(tzinfo=None)
    op.execute(
        sa.text(
            "INSERT INTO tokens (player_id, token_hash, created_at, last_used_at, expires_at) "
            "SELECT id, token_hash, created_at, :now, :expires FROM players"
        ).bindparams(now=now, expires=now + LIFETIME)
    )
    op.drop_index("ix_players_token_hash", table_name="players")
    with op.batch_alter_table("players") as batch:
        batch.drop_column("token_hash")


def downgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("token_hash", sa.String(64), nullable=True))
    op.execute(
        "UPDATE players SET token_hash = (SELECT MIN(token_hash) FROM tokens "
        "WHERE tokens.player_id = players.id)"
    )
    op.create_index("ix_players_token_hash", "players", ["token_hash"], unique=True)
    op.drop_table("transfer_codes")
    op.drop_table("tokens")
