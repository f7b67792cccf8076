"""Sealed deals at the terminal table: where the server seeds and the offered client seeds
come from, and how the sealer's private state is written into the save file.

Every hand of a new ``ginrummy play`` match is dealt by a
:class:`~ginrummy.engine.sealer.DealSealer` (``docs/sealed-deals.md``): before each deal the table
prints the hand's commitment and takes the person's client seed (``seed TEXT``, ``--client-seed``,
or one drawn at random), and once the hand is over it prints the revealed server seed. The save file
keeps the sealer's private state, so a resumed match deals with the seeds it committed to before the
interruption. The next hand's commitment is published by
:meth:`ginrummy.engine.table.Table.seal_next`, the one place for it.

Server seeds come from :mod:`secrets`, as the protocol says. A match started with ``--seed`` is
reproducible instead: its server seeds and offered client seeds are derived from that seed, so
the same seed and the same moves give the same match. Anyone who knows the seed can compute
those server seeds, so such a seal only shows that the deals follow the algorithm; it protects
nobody from whoever chose the seed.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from typing import Any

from ..engine.match import Match
from ..engine.sealer import DealSealer
from ..engine.shuffle import SealError, new_server_seed, random_client_seed

__all__ = [
    "derived_client_seed",
    "derived_server_seed",
    "make_sealer",
    "offered_client_seed",
    "short_commitment",
    "state_for_save",
]

_SERVER = "ginrummy play/server seed"
_CLIENT = "ginrummy play/client seed"


def derived_server_seed(seed: str, number: int) -> bytes:
    """The server seed of hand ``number`` (0-based) of a match played with ``--seed``."""
    return hashlib.sha256(f"{_SERVER}/{seed}/{number}".encode()).digest()


def derived_client_seed(seed: str, number: int) -> str:
    """The client seed offered for hand ``number`` of a match played with ``--seed``."""
    return hashlib.sha256(f"{_CLIENT}/{seed}/{number}".encode()).hexdigest()[:16]


def make_sealer(
    match: Match, *, reproducible_from: str | None, state: Mapping[str, Any] | None = None
) -> DealSealer:
    """The match's sealer (restored from ``state`` when given). With ``reproducible_from``,
    new server seeds are derived from that seed; otherwise they come from :mod:`secrets`."""
    new_seed: Callable[[], bytes] = new_server_seed
    if reproducible_from is not None:
        seed = reproducible_from
        # A hand is sealed only when it is the next one to deal: its number is len(hands).
        new_seed = lambda: derived_server_seed(seed, len(match.hands))  # noqa: E731
    return DealSealer(match, state=state, new_seed=new_seed)


def offered_client_seed(number: int, reproducible_from: str | None) -> str:
    """The client seed used when the person does not choose one."""
    if reproducible_from is not None:
        return derived_client_seed(reproducible_from, number)
    return random_client_seed()


def state_for_save(sealer: DealSealer) -> dict[str, Any]:
    """The sealer's private state in a form TOML can hold (a hand not dealt yet has no client
    seed: the key is left out rather than written as a null TOML does not have)."""
    state = sealer.private_state()
    hands = [{k: v for k, v in h.items() if v is not None} for h in state["hands"]]
    return {**state, "hands": hands}


def short_commitment(commitment: str) -> str:
    """The first and last eight hex digits, for a line of text: ``72ec4863…ac70513f``."""
    if len(commitment) <= 20:
        return commitment
    return f"{commitment[:8]}…{commitment[-8:]}"


def check_state(state: object) -> Mapping[str, Any]:
    """The saved private state's outer shape (the sealer checks the rest)."""
    if not isinstance(state, Mapping):
        raise SealError("its sealed deals are not a table")
    return state
