"""Saved games on SQL (SQLAlchemy): the store and what it answers with.

- :mod:`.repository`: :class:`Store`, the one way in (players, matches, hands, tables for two).
- :mod:`.models`: the tables and the plain records (:class:`PlayerInfo`, :class:`MatchInfo`...).
- :mod:`.keys`: the secrets' encryption at rest; :mod:`.tokens`: players' tokens and transfer
  codes; :mod:`.limits`: rate-limit hits shared by every worker; :mod:`.ratings`: which
  matches between people are rated.
- :mod:`.migrations`: the schema's Alembic migrations.
"""

from __future__ import annotations

from . import models
from .keys import SecretKeyError
from .models import *  # noqa: F403 (the records, errors and constants models.__all__ names)
from .repository import Store, default_url

__all__ = ["SecretKeyError", "Store", "default_url"]
__all__ += models.__all__
