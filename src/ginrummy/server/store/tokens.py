"""Player tokens and transfer codes, kept by :class:`~ginrummy.server.store.Store`.

A player may hold several tokens, one for each browser, each stored as its SHA-256 hash (a
token is 256 random bits, so a copy of the database does not let anyone act as a player). A
token lives :data:`TOKEN_LIFETIME` after it was last used: using it renews it, and the renewal
is written at most once every :data:`RENEW_EVERY` (not on every request). "Sign out everywhere"
deletes every token of the player and gives the browser that asked a fresh one.

A transfer code carries an account to another browser: short enough to type (:data:`CODE_LENGTH`
letters and digits without look-alikes, in groups of four), good once, for
:data:`CODE_LIFETIME`, and stored as a hash. Claiming it gives the new browser a token of its
own. Times come from the store's clock (``Store(clock=...)``), so tests move time instead of
waiting.
"""

from __future__ import annotations

import datetime as dt
import functools
import secrets

from sqlalchemy import (
    DateTime,
    ForeignKey,
    Integer,
    Select,
    String,
    bindparam,
    delete,
    select,
    update,
)
from sqlalchemy.orm import Mapped, mapped_column

from .models import Database, PlayerInfo, _Base, _Player, hash_token

__all__ = [
    "CODE_LIFETIME",
    "CODE_REFUSED",
    "RENEW_EVERY",
    "TOKEN_LIFETIME",
    "TransferCodeError",
]

#: How long a token lives after its last use.
TOKEN_LIFETIME = dt.timedelta(days=90)
#: A token's use is written down (renewing it) at most this often.
RENEW_EVERY = dt.timedelta(hours=1)
#: How long a transfer code can be claimed.
CODE_LIFETIME = dt.timedelta(minutes=10)
#: Characters of a transfer code (59 bits), from an alphabet without 0/O, 1/I/L or U.
CODE_LENGTH = 12
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTVWXYZ23456789"


class TransferCodeError(Exception):
    """A transfer code that does not give a token: unknown, used already, or expired."""


#: The one answer to a transfer code that gives no token, whether it is unknown, used already
#: or expired: telling them apart would tell someone guessing codes which ones exist.
CODE_REFUSED = (
    "This transfer code is unknown, used already or expired: check it, or make a new one in "
    "Settings on the browser that has your account (a code works once, for "
    f"{CODE_LIFETIME.seconds // 60} minutes)."
)


def _normal_code(code: str) -> str:
    """A typed code as stored: upper case, without spaces or dashes."""
    return "".join(c for c in code.upper() if c not in " -\t")


class _Token(_Base):
    __tablename__ = "tokens"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True, index=True)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime)
    last_used_at: Mapped[dt.datetime] = mapped_column(DateTime)
    expires_at: Mapped[dt.datetime] = mapped_column(DateTime)


class _TransferCode(_Base):
    __tablename__ = "transfer_codes"

    code_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime)
    expires_at: Mapped[dt.datetime] = mapped_column(DateTime)
    used_at: Mapped[dt.datetime | None] = mapped_column(DateTime, nullable=True)


def _token_row(player_id: int, now: dt.datetime) -> tuple[_Token, str]:
    token = secrets.token_urlsafe(32)
    row = _Token(player_id=player_id, token_hash=hash_token(token), created_at=now,
                 last_used_at=now, expires_at=now + TOKEN_LIFETIME)
    return row, token


def create_player(store: Database, name: str) -> tuple[PlayerInfo, str]:
    now = store.clock()
    with store._tx() as s:
        player = _Player(name=name, created_at=now)
        s.add(player)
        s.flush()
        row, token = _token_row(player.id, now)
        s.add(row)
        return PlayerInfo(player.id, player.name), token


def player_by_token(store: Database, token: str) -> PlayerInfo | None:
    now = store.clock()
    # Every request asks this: one prebuilt query on a plain connection, and a transaction
    # only for the (at most hourly) renewal.
    with store.reader.connect() as conn:
        found = conn.execute(_by_token(), {"hash": hash_token(token), "now": now}).first()
    if found is None:
        return None
    if now - found[3] < RENEW_EVERY:
        return PlayerInfo(found[0], found[1])
    with store._tx() as s:
        s.execute(
            update(_Token)
            .where(_Token.id == found[2])
            .values(last_used_at=now, expires_at=now + TOKEN_LIFETIME)
        )
        # The player's browsers that stayed away too long are forgotten meanwhile.
        s.execute(delete(_Token).where(_Token.player_id == found[0], _Token.expires_at <= now))
    return PlayerInfo(found[0], found[1])


@functools.cache
def _by_token() -> Select[int, str, int, dt.datetime]:
    """The player and token row of a token's hash (parameters ``hash`` and ``now``)."""
    return (select(_Player.id, _Player.name, _Token.id, _Token.last_used_at)
            .join(_Token, _Token.player_id == _Player.id)
            .where(_Token.token_hash == bindparam("hash"), _Token.expires_at > bindparam("now")))


def sign_out_everywhere(store: Database, player_id: int) -> str:
    now = store.clock()
    with store._tx() as s:
        s.execute(delete(_Token).where(_Token.player_id == player_id))
        s.execute(delete(_TransferCode).where(_TransferCode.player_id == player_id))
        row, token = _token_row(player_id, now)
        s.add(row)
    return token


def new_transfer_code(store: Database, player_id: int) -> tuple[str, dt.datetime]:
    now = store.clock()
    plain = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
    expires = now + CODE_LIFETIME
    with store._tx() as s:
        s.execute(delete(_TransferCode).where(_TransferCode.expires_at <= now))
        s.add(_TransferCode(code_hash=hash_token(plain), player_id=player_id, created_at=now,
                            expires_at=expires))
    shown = "-".join(plain[i:i + 4] for i in range(0, CODE_LENGTH, 4))
    return shown, expires


def claim_transfer_code(store: Database, code: str) -> tuple[PlayerInfo, str]:
    now = store.clock()
    digest = hash_token(_normal_code(code))
    with store._tx() as s:
        row = s.get(_TransferCode, digest)
        if row is None or row.used_at is not None or row.expires_at <= now:
            raise TransferCodeError(CODE_REFUSED)
        taken = s.execute(
            update(_TransferCode)
            .where(_TransferCode.code_hash == digest, _TransferCode.used_at.is_(None))
            .values(used_at=now)
        )
        if getattr(taken, "rowcount", 1) != 1:  # another claim of it won just now
            raise TransferCodeError(CODE_REFUSED)
        player = s.get(_Player, row.player_id)
        assert player is not None
        token_row, token = _token_row(player.id, now)
        s.add(token_row)
        return PlayerInfo(player.id, player.name), token
