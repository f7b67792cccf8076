"""Where the web table keeps the coach's remarks: one row per assessed decision of a match.

A table of its own beside the store's tables on the same database (created by the store's
migrations, :mod:`ginrummy.server.store.migrations`, like every other table), so a review lists
the remarks made during play without assessing anything twice. Rows are plain JSON of
:meth:`ginrummy.coach.Assessment.as_dict`; writing one never touches the match's row or its
version, so a remark computed after a move can never make the next move stale.
"""

from __future__ import annotations

import datetime as dt
import json

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import sessionmaker

from ..coach import Assessment
from .store import Store
from .store.models import _Note

__all__ = ["CoachNotes"]


class CoachNotes:
    """The coach's remarks of every match, over a :class:`~ginrummy.server.store.Store`'s engine."""

    def __init__(self, store: Store) -> None:
        self._sessions = sessionmaker(store.engine, expire_on_commit=False)

    def get(self, match_id: str, hand: int) -> dict[int, tuple[int, Assessment]]:
        """The remarks of one hand: ``{move index: (turn, assessment)}``."""
        with self._sessions() as s:
            rows = s.scalars(
                select(_Note).where(_Note.match_id == match_id, _Note.hand == hand)
            ).all()
            return {r.idx: (r.turn, Assessment.from_dict(json.loads(r.data))) for r in rows}

    def put(self, match_id: str, hand: int, idx: int, turn: int, found: Assessment) -> None:
        """Keep a remark (a second writer of the same decision changes nothing)."""
        now = dt.datetime.now(dt.UTC).replace(tzinfo=None)
        row = _Note(match_id=match_id, hand=hand, idx=idx, turn=turn,
                    data=json.dumps(found.as_dict(), ensure_ascii=False), created_at=now)
        try:
            with self._sessions() as s, s.begin():
                s.add(row)
        except IntegrityError:
            pass
