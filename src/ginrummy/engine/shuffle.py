"""Sealed deals: a shuffle anyone can recompute, fixed by a commitment before the player's seed.

The algorithm is versioned; this module implements ``ginrummy-shuffle-v1`` exactly as
``docs/sealed-deals.md`` specifies it, byte for byte. In short, with ``V`` the ASCII bytes of
:data:`VERSION`, ``u16``/``u32``/``u64`` big-endian unsigned integers and ``||`` concatenation:

* ``message = V || 0x00 || u16(len(C)) || C || u64(nonce)`` where ``C`` is the UTF-8 encoding of
  the client seed (1 to 256 bytes);
* the random stream is ``HMAC-SHA256(server_seed, message || u32(0))``, then ``u32(1)``, and so
  on, 32 bytes per block, read one byte at a time;
* a uniform integer below ``n`` is the next byte ``b`` with ``b < 256 - 256 % n``, taken
  ``b % n``; larger bytes are thrown away (rejection sampling, so no card is favoured);
* the deck starts as the cards 0..51 in engine order (``Ac 2c .. Kc Ad .. Ks``); for ``i`` from
  51 down to 1, ``j`` is a uniform integer below ``i + 1`` and cards ``i`` and ``j`` swap
  (Fisher–Yates); index 0 is the top card, dealt as in :func:`ginrummy.engine.hand.deal_order`;
* ``commitment = SHA-256(V || 0x00 || server_seed || u64(nonce) || u8(dealer))``, in hex.

The commitment is published before the player chooses the client seed, so the server can no
longer change its seed, the nonce or the dealer; the deck depends on both seeds, so neither side
chose it. :class:`DealSealer` runs that protocol for a :class:`~ginrummy.engine.match.Match`.

>>> seed = bytes(range(32))
>>> deck = shuffle_deck(seed, "player seed", 1)
>>> sorted(deck) == list(range(52)), deck == shuffle_deck(seed, "player seed", 1)
(True, True)
>>> deck == shuffle_deck(seed, "player seed", 2)
False
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from collections.abc import Callable, Iterator, MutableSequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from .errors import GinRummyError

__all__ = [
    "VERSION",
    "SERVER_SEED_BYTES",
    "MAX_CLIENT_SEED_BYTES",
    "MAX_NONCE",
    "SealError",
    "CONTROL_CHARACTERS",
    "check_client_seed",
    "random_client_seed",
    "new_server_seed",
    "shuffle_message",
    "random_stream",
    "accept_below",
    "uniform_below",
    "fisher_yates",
    "shuffle_deck",
    "commitment",
    "SealedDeal",
    "TWO_PARTY",
    "combine_client_seeds",
]

#: The name of the algorithm; it is hashed into every message and every commitment.
VERSION = "ginrummy-shuffle-v1"
_V = VERSION.encode("ascii")
#: Length of a server seed in bytes (drawn from :mod:`secrets`).
SERVER_SEED_BYTES = 32
#: The longest client seed, in bytes of UTF-8.
MAX_CLIENT_SEED_BYTES = 256
#: Nonces are unsigned 64-bit integers.
MAX_NONCE = 2**64 - 1

T = TypeVar("T")


class SealError(GinRummyError):
    """Sealed-deal data that is malformed, or a request the protocol forbids (such as revealing
    a server seed while its hand is still being played)."""


# -------------------------------------------------------------------------------------------
# Inputs.

#: The control characters no text a person gives may hold (a client seed here; the web API's
#: text fields and the terminal's names use it too): the C0 controls U+0000 to U+001F (NUL,
#: tab and line breaks included), DEL U+007F and the C1 controls U+0080 to U+009F.
CONTROL_CHARACTERS = re.compile("[\x00-\x1f\x7f-\x9f]")


def check_client_seed(client_seed: object) -> bytes:
    """The UTF-8 bytes of a valid client seed, or :class:`SealError` saying what is wrong.

    A client seed is text of 1 to 256 UTF-8 bytes, without control characters (U+0000-U+001F,
    U+007F-U+009F) and without a space at either end. It is used exactly as given: no Unicode
    normalisation, no trimming.
    """
    if not isinstance(client_seed, str):
        raise SealError(f"a client seed is text, not {type(client_seed).__name__}")
    try:
        data = client_seed.encode("utf-8")
    except UnicodeEncodeError:
        raise SealError("the client seed is not valid Unicode text") from None
    if not data:
        raise SealError("the client seed is empty; type at least one character")
    if len(data) > MAX_CLIENT_SEED_BYTES:
        raise SealError(
            f"the client seed is {len(data)} bytes of UTF-8; the limit is {MAX_CLIENT_SEED_BYTES}"
        )
    control = CONTROL_CHARACTERS.search(client_seed)
    if control is not None:
        raise SealError(
            f"the client seed contains a control character (U+{ord(control.group()):04X})"
        )
    if client_seed[0] == " " or client_seed[-1] == " ":
        raise SealError("the client seed may not begin or end with a space")
    return data


def random_client_seed() -> str:
    """A fresh client seed of 16 hex digits, for a player who does not type one."""
    return secrets.token_hex(8)


def new_server_seed() -> bytes:
    """A fresh secret server seed: 32 bytes from :mod:`secrets`."""
    return secrets.token_bytes(SERVER_SEED_BYTES)


def _check_server_seed(server_seed: object) -> bytes:
    if not isinstance(server_seed, bytes) or len(server_seed) != SERVER_SEED_BYTES:
        raise SealError(f"a server seed is exactly {SERVER_SEED_BYTES} bytes")
    return server_seed


def _check_nonce(nonce: object) -> int:
    if isinstance(nonce, bool) or not isinstance(nonce, int) or not 0 <= nonce <= MAX_NONCE:
        raise SealError(f"a nonce is a whole number from 0 to 2**64-1, not {nonce!r}")
    return nonce


def _check_dealer(dealer: object) -> int:
    if dealer not in (0, 1) or isinstance(dealer, bool):
        raise SealError(f"the dealer is seat 0 or 1, not {dealer!r}")
    assert isinstance(dealer, int)
    return dealer


# -------------------------------------------------------------------------------------------
# The algorithm.


def shuffle_message(client_seed: str, nonce: int) -> bytes:
    """``V || 0x00 || u16(len(C)) || C || u64(nonce)``: what every HMAC block starts with."""
    data = check_client_seed(client_seed)
    nonce = _check_nonce(nonce)
    return _V + b"\x00" + len(data).to_bytes(2, "big") + data + nonce.to_bytes(8, "big")


def random_stream(server_seed: bytes, message: bytes) -> Iterator[int]:
    """The shuffle's bytes: ``HMAC-SHA256(server_seed, message || u32(k))`` for k = 0, 1, ..."""
    key = _check_server_seed(server_seed)
    counter = 0
    while True:
        yield from hmac.digest(key, message + counter.to_bytes(4, "big"), "sha256")
        counter += 1


def accept_below(n: int) -> int:
    """The first byte value that is thrown away when drawing below ``n`` (1 <= n <= 256).

    It is the largest multiple of ``n`` that fits in a byte's 256 values, so each of the ``n``
    results ``b % n`` comes from exactly ``256 // n`` accepted byte values.
    """
    if not 1 <= n <= 256:
        raise ValueError(f"can only draw below 1..256 from bytes, not {n}")
    return 256 - 256 % n


def uniform_below(n: int, stream: Iterator[int]) -> int:
    """A uniform integer in ``[0, n)`` from a stream of uniform bytes (rejection sampling)."""
    limit = accept_below(n)
    for b in stream:
        if b < limit:
            return b % n
    raise SealError("the random stream ran dry")  # pragma: no cover - the HMAC stream is endless


def fisher_yates(items: MutableSequence[T], draw: Callable[[int], int]) -> None:
    """Shuffle ``items`` in place: for i from the last index down to 1, swap item i with item
    ``draw(i + 1)`` (a uniform integer below i + 1)."""
    for i in range(len(items) - 1, 0, -1):
        j = draw(i + 1)
        items[i], items[j] = items[j], items[i]


def shuffle_deck(server_seed: bytes, client_seed: str, nonce: int) -> list[int]:
    """The deck of ``ginrummy-shuffle-v1`` (card indices, index 0 on top)."""
    stream = random_stream(server_seed, shuffle_message(client_seed, nonce))
    deck = list(range(52))
    fisher_yates(deck, lambda n: uniform_below(n, stream))
    return deck


def commitment(server_seed: bytes, nonce: int, dealer: int) -> str:
    """``SHA-256(V || 0x00 || server_seed || u64(nonce) || u8(dealer))`` as 64 hex digits."""
    data = (
        _V
        + b"\x00"
        + _check_server_seed(server_seed)
        + _check_nonce(nonce).to_bytes(8, "big")
        + bytes([_check_dealer(dealer)])
    )
    return hashlib.sha256(data).hexdigest()


def parse_hex(text: object, size: int, what: str) -> bytes:
    """``size`` bytes written as ``2 * size`` hex digits (either case), or :class:`SealError`."""
    if not isinstance(text, str) or len(text) != 2 * size:
        raise SealError(f"{what} must be {2 * size} hex digits")
    try:
        return bytes.fromhex(text)
    except ValueError:
        raise SealError(f"{what} must be {2 * size} hex digits") from None


#: The name of the rule that joins two people's client seeds into the shuffle's one.
TWO_PARTY = "ginrummy-two-party-v1"


def combine_client_seeds(seat0: str, seat1: str) -> str:
    """The client seed of a hand between two people: both seeds, each length-prefixed, hashed.

    ``hex(SHA-256(T || 0x00 || u16(len(A)) || A || u16(len(B)) || B))`` with ``T`` the ASCII
    bytes of :data:`TWO_PARTY`, ``A`` and ``B`` the UTF-8 bytes of seat 0's and seat 1's client
    seeds (each checked by :func:`check_client_seed`). The result (64 hex digits) is itself a
    valid client seed, and goes into :func:`shuffle_deck` as any other. The length prefixes
    keep ``("ab", "c")`` and ``("a", "bc")`` apart; changing either seed changes it unrelatedly.

    >>> combine_client_seeds("a", "b") == combine_client_seeds("b", "a")
    False
    """
    a, b = check_client_seed(seat0), check_client_seed(seat1)
    data = (TWO_PARTY.encode("ascii") + b"\x00" + len(a).to_bytes(2, "big") + a
            + len(b).to_bytes(2, "big") + b)
    return hashlib.sha256(data).hexdigest()


# -------------------------------------------------------------------------------------------
# One sealed deal.


@dataclass(frozen=True)
class SealedDeal:
    """The sealed data of one hand.

    ``server_seed`` is the secret: it never appears in ``repr`` or in :meth:`public`, and a
    table hands it out only through :meth:`DealSealer.reveal` once the hand is over.
    ``client_seed`` is ``None`` until the player has chosen it. At a table of two people,
    ``client_seeds`` holds both people's seeds (seat 0's first) and ``client_seed`` is
    :func:`combine_client_seeds` of them.
    """

    server_seed: bytes = field(repr=False)
    nonce: int
    dealer: int
    client_seed: str | None = None
    version: str = VERSION
    client_seeds: tuple[str, str] | None = None

    def __post_init__(self) -> None:
        if self.version != VERSION:
            raise SealError(f"unknown shuffle version {self.version!r} (this is {VERSION!r})")
        _check_server_seed(self.server_seed)
        _check_nonce(self.nonce)
        _check_dealer(self.dealer)
        if self.client_seed is not None:
            check_client_seed(self.client_seed)
        if self.client_seeds is not None and (
            self.client_seed != combine_client_seeds(*self.client_seeds)
        ):
            raise SealError("the client seed is not the combination of the two people's seeds")

    @classmethod
    def new(cls, nonce: int, dealer: int) -> SealedDeal:
        """A sealed deal with a fresh secret server seed and no client seed yet."""
        return cls(new_server_seed(), nonce, dealer)

    @property
    def commitment(self) -> str:
        """What is published before the client seed is chosen."""
        return commitment(self.server_seed, self.nonce, self.dealer)

    def with_client_seed(self, client_seed: str) -> SealedDeal:
        """This deal with the player's client seed filled in."""
        return SealedDeal(self.server_seed, self.nonce, self.dealer, client_seed, self.version)

    def with_client_seeds(self, seat0: str, seat1: str) -> SealedDeal:
        """This deal with two people's client seeds filled in (and their combination)."""
        return SealedDeal(self.server_seed, self.nonce, self.dealer,
                          combine_client_seeds(seat0, seat1), self.version, (seat0, seat1))

    def deck(self) -> list[int]:
        """The shuffled deck (needs the client seed)."""
        if self.client_seed is None:
            raise SealError("the deck is not fixed until the client seed is chosen")
        return shuffle_deck(self.server_seed, self.client_seed, self.nonce)

    def public(self) -> dict[str, Any]:
        """What anyone may see while the hand is played (no server seed)."""
        out: dict[str, Any] = {"version": self.version, "commitment": self.commitment}
        if self.client_seed is not None:
            out["client_seed"] = self.client_seed
        if self.client_seeds is not None:
            out["client_seeds"] = list(self.client_seeds)
        out["nonce"] = self.nonce
        return out

    def revealed(self) -> dict[str, Any]:
        """:meth:`public` plus the server seed in hex: only for a hand that is over."""
        return {**self.public(), "server_seed": self.server_seed.hex()}
