"""The keys that encrypt the store's live secrets at rest.

Three things in the database would let a reader see hands in play: a match's record (it lists
the deck of every hand, the one being played included), its deal seed (the computer's
decisions are seeded from it) and its sealed-deal private state (server seeds not revealed
yet). The store keeps them encrypted with Fernet (AES-128-CBC with HMAC-SHA256, from
``cryptography``), as ``fernet:<token>``.

Where the keys come from (the first found):

1. ``GINRUMMY_SECRET_KEY``: one or more Fernet keys separated by commas;
2. a key file (``--key-file``): one key per line (``#`` comments allowed);
3. for a SQLite file: ``<database file>.key`` beside it, generated on first use (mode 0600);
4. for an in-memory SQLite database: a fresh key that lives as long as the process.

Any other database (PostgreSQL) without a key is refused. The first key encrypts; every key
listed decrypts, so a key is rotated by putting a new one first, running
``ginrummy db rotate-key`` (which re-encrypts every stored secret with it) and then dropping
the old one. Values written before encryption existed (plain text) are read as they are until
``rotate-key`` encrypts them.

>>> box = SecretBox([generate_key()])
>>> sealed = box.seal("deck 7h 8h 9h")
>>> sealed.startswith("fernet:") and "deck 7h" not in sealed, box.open(sealed)
(True, 'deck 7h 8h 9h')
>>> box.open("a plain value from before")
'a plain value from before'
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path

from cryptography.fernet import Fernet, InvalidToken, MultiFernet

__all__ = ["ENV_KEY", "PREFIX", "SecretBox", "SecretKeyError", "generate_key", "load_keys"]

#: The environment variable holding the keys (comma-separated, the current one first).
ENV_KEY = "GINRUMMY_SECRET_KEY"

#: What an encrypted value starts with (anything else is a plain value from before).
PREFIX = "fernet:"


class SecretKeyError(Exception):
    """No usable key, a malformed one, or a stored secret the keys do not open."""


def generate_key() -> str:
    """A fresh random key (32 bytes, URL-safe base64)."""
    return Fernet.generate_key().decode("ascii")


class SecretBox:
    """Encrypts with the first of ``keys`` and decrypts with any of them."""

    def __init__(self, keys: Sequence[str]) -> None:
        if not keys:
            raise SecretKeyError("No secret key was given.")
        fernets = []
        for n, key in enumerate(keys, 1):
            try:
                fernets.append(Fernet(key.strip().encode("ascii")))
            except (ValueError, UnicodeEncodeError):
                raise SecretKeyError(
                    f"Secret key {n} is not a Fernet key (32 bytes in URL-safe base64, as "
                    "'ginrummy db new-key' prints)."
                ) from None
        self._fernet = MultiFernet(fernets)

    def seal(self, value: str) -> str:
        """``value`` encrypted with the current key."""
        return PREFIX + self._fernet.encrypt(value.encode("utf-8")).decode("ascii")

    def open(self, stored: str) -> str:
        """The value of ``stored`` (returned as it is when it was stored plain)."""
        if not stored.startswith(PREFIX):
            return stored
        try:
            return self._fernet.decrypt(stored[len(PREFIX):].encode("ascii")).decode("utf-8")
        except InvalidToken:
            raise SecretKeyError(
                "A secret in the database does not open with the keys this server was given: "
                f"the key is wrong or missing (set {ENV_KEY} or --key-file to the key the "
                "database was written with; after a rotation keep the old key listed until "
                "'ginrummy db rotate-key' has run)."
            ) from None

    def rotate(self, stored: str) -> str:
        """``stored`` encrypted with the current key (a plain value gets encrypted)."""
        if not stored.startswith(PREFIX):
            return self.seal(stored)
        self.open(stored)  # a clear error for a value no key opens
        return PREFIX + self._fernet.rotate(stored[len(PREFIX):].encode("ascii")).decode("ascii")


def _read_key_file(path: Path) -> list[str]:
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise SecretKeyError(f"Cannot read the key file {path}: {exc.strerror}.") from None
    keys = [line.strip() for line in lines if line.strip() and not line.startswith("#")]
    if not keys:
        raise SecretKeyError(f"The key file {path} holds no key.")
    return keys


def _beside(database: Path) -> Path:
    """The key file of a SQLite database, made with a fresh key if there is none yet."""
    path = database.with_name(database.name + ".key")
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return path
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write("# The key that encrypts this database's live secrets (ginrummy). Keep it\n"
                "# beside the database and out of its backups; without it, matches in\n"
                "# progress cannot be read.\n" + generate_key() + "\n")
    return path


def load_keys(
    url: str, key_file: str | os.PathLike[str] | None = None,
    environ: Mapping[str, str] = os.environ,
) -> SecretBox:
    """The keys for the database at ``url`` (see the module for where they come from)."""
    given = environ.get(ENV_KEY, "").strip()
    if given:
        return SecretBox([k for k in given.split(",") if k.strip()])
    if key_file is not None:
        return SecretBox(_read_key_file(Path(key_file)))
    from sqlalchemy.engine import make_url

    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        if parsed.database in (None, "", ":memory:"):
            return SecretBox([generate_key()])
        return SecretBox(_read_key_file(_beside(Path(parsed.database).resolve())))
    raise SecretKeyError(
        f"Live secrets are kept encrypted, and no key was given for this database: set "
        f"{ENV_KEY} (comma-separated Fernet keys, current first) or pass --key-file "
        "('ginrummy db new-key' makes a key)."
    )
