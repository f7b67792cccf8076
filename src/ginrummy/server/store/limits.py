"""Rate-limit counts in the database, kept by :class:`~ginrummy.server.store.Store`, so that every
server process and machine on one database counts the same requests
(:class:`ginrummy.server.limits.RateLimiter`).

Each request let through is one row of ``rate_hits``: the hash of what is counted (a kind of
request and who sent it: a player id or a client address, never stored in plain) and the
time. A limit of *n* requests in *s* seconds refuses a request when *n* rows of the key are
younger than *s* seconds (a moving window, exact: no burst at a window's edge); a refused
request is not counted. The rows of a key are checked and added in one transaction that holds
the key's turn (on PostgreSQL a transaction-scoped advisory lock on the key's hash; on SQLite
the store's writer lock, one writer at a time), so two workers cannot both let in the last
request of a window. A request let through but then refused as malformed is taken back
(:func:`unhit`): bad input changes nothing, its allowance included. A row is deleted once it
is older than the longest window of its kind (``expires``): those of the key on each check,
everyone's now and then.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence

from sqlalchemy import Float, Index, Integer, String, delete, func, select, text
from sqlalchemy.orm import Mapped, mapped_column

from .models import Database, _Base

__all__ = ["address_hash", "limit_key", "hit", "unhit"]

#: One check in this many also deletes every key's expired rows (not only its own).
SWEEP_ONE_IN = 200
_sweeps = random.Random()


class _Hit(_Base):
    __tablename__ = "rate_hits"
    __table_args__ = (Index("ix_rate_hits_key_at", "key", "at"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    key: Mapped[str] = mapped_column(String(64))
    #: When the request came (seconds since the epoch).
    at: Mapped[float] = mapped_column(Float)
    #: When the row stops counting for every limit of its kind.
    expires: Mapped[float] = mapped_column(Float, index=True)


def limit_key(kind: str, who: str) -> str:
    """The stored key of ``kind`` of requests from ``who``: a SHA-256 hex digest."""
    return hashlib.sha256(f"{kind}\0{who}".encode()).hexdigest()


def address_hash(who: str) -> str:
    """The stored form of a client address (``who`` as :func:`ginrummy.server.limits.
    client_address` gives it): a SHA-256 hex digest, so the database never holds the address
    itself (the lobby's and the ratings' per-address bounds compare these)."""
    return hashlib.sha256(f"address\0{who}".encode()).hexdigest()


def hit(store: Database, key: str, windows: Sequence[tuple[int, float]],
        now: float) -> tuple[int, float] | None:
    """Count one request of ``key`` at ``now`` against ``windows`` (``(amount, seconds)``
    each). ``None``: let through, and counted. Otherwise ``(index of the first window it is
    over, seconds until that window lets one more in)``, and nothing is counted."""
    longest = max(seconds for _, seconds in windows)
    with store._tx() as s:
        if store.engine.dialect.name == "postgresql":
            turn = int.from_bytes(bytes.fromhex(key[:16]), "big", signed=True)
            s.execute(text("SELECT pg_advisory_xact_lock(:turn)"), {"turn": turn})
        s.execute(delete(_Hit).where(_Hit.key == key, _Hit.expires <= now))
        for index, (amount, seconds) in enumerate(windows):
            since = now - seconds
            count = s.scalar(select(func.count()).select_from(_Hit)
                             .where(_Hit.key == key, _Hit.at > since)) or 0
            if count >= amount:
                # The window lets one more in when its (count - amount + 1)th oldest row
                # leaves it.
                leaves = s.scalar(select(_Hit.at).where(_Hit.key == key, _Hit.at > since)
                                  .order_by(_Hit.at).offset(count - amount).limit(1))
                return index, (leaves if leaves is not None else now) + seconds - now
        s.add(_Hit(key=key, at=now, expires=now + longest))
        if _sweeps.random() * SWEEP_ONE_IN < 1:
            s.execute(delete(_Hit).where(_Hit.expires <= now))
    return None


def unhit(store: Database, key: str, at: float) -> None:
    """Take back one request of ``key`` counted by :func:`hit` at ``at`` (the server refused
    it as malformed after the limit let it through)."""
    with store._tx() as s:
        row = s.scalar(select(_Hit.id).where(_Hit.key == key, _Hit.at == at).limit(1))
        if row is not None:
            s.execute(delete(_Hit).where(_Hit.id == row))
