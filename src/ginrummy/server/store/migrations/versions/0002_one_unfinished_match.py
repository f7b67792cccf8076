"""At most one unfinished match per player: a partial unique index on matches(player_id)
where status = 'playing'.

Before the index, a player's extra unfinished matches (left by racing starts on the code
before it) become ``abandoned``, keeping the one played last.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

PLAYING = "status = 'playing'"


def upgrade() -> None:
    op.execute(
        "UPDATE matches SET status = 'abandoned', version = version + 1 "
        "WHERE status = 'playing' AND id NOT IN ("
        " SELECT id FROM ("
        "  SELECT id, ROW_NUMBER() OVER ("
        "   PARTITION BY player_id ORDER BY updated_at DESC, id DESC) AS n"
        "  FROM matches WHERE status = 'playing') AS latest"
        " WHERE n = 1)"
    )
    op.create_index(
        "uq_matches_one_playing", "matches", ["player_id"], unique=True,
        sqlite_where=sa.text(PLAYING), postgresql_where=sa.text(PLAYING),
    )


def downgrade() -> None:
    op.drop_index("uq_matches_one_playing", table_name="matches")
