"""Sealed deals at the web table: what the page may see of them, and how they are kept.

Every hand of a web match is dealt by a :class:`~ginrummy.engine.sealer.DealSealer` at the match's
:class:`~ginrummy.engine.table.Table` (which also publishes each next commitment). Its private
state (the server seeds, the unrevealed ones included) is stored beside the match's record
(:meth:`~ginrummy.server.store.Store.save_match`'s ``seals``) and never sent to the browser.
:func:`sealed_out` builds the only sealed data a response carries:

* for the hand waiting to be dealt, its commitment, nonce and dealer (published before the
  person chooses a client seed);
* for the hand on the table, the same plus the client seed; once that hand is over, also the
  revealed server seed and the hand's deck, so the page can check the deal itself. A match
  that ended before its hand did (a resignation, a forfeit, an abandoned match) reveals that
  hand's too: it will never be played on, and every deal dealt must be verifiable.

:func:`record_upto` writes the record of the finished hands only: a record lists every hand's
deck, so the record of a hand still being played is never handed out.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from ..engine.cards import CARD_TEXT
from ..engine.errors import GinRummyError
from ..engine.match import Match
from ..engine.record import dumps
from ..engine.sealer import DealSealer
from ..engine.shuffle import SealError
from ..engine.table import Table
from .schemas import SealedDealOut, SealedOut, Who

__all__ = [
    "dump_seals",
    "finished_hands",
    "load_seals",
    "record_upto",
    "sealed_out",
    "sentence",
]


def dump_seals(sealer: DealSealer) -> str:
    """The sealer's private state as stored in the database (JSON)."""
    return json.dumps(sealer.private_state(), sort_keys=True, separators=(",", ":"))


def load_seals(match: Match, text: str) -> DealSealer:
    """The match's sealer rebuilt from its stored private state (checked against the hands
    the match has dealt: each must be the deck its seal gives)."""
    try:
        state = json.loads(text)
    except ValueError as exc:
        raise SealError(f"the stored sealed deals are not JSON: {exc}") from None
    return DealSealer(match, state=state)


def _who(seat: int, me: int) -> Who:
    return "you" if seat == me else "computer"


def sealed_out(table: Table, me: int, *, ended: bool = False) -> SealedOut | None:
    """What the person in seat ``me`` may see of the table's sealed deals now (``None`` for an
    unsealed match); ``ended``: the match is over although its last hand is not."""
    match, sealer = table.match, table.sealer
    if sealer is None:
        return None
    current = None
    if match.hands:
        n = len(match.hands) - 1
        hand = match.hands[n]
        public = sealer.public(n)
        over = hand.over or ended
        current = SealedDealOut(
            hand=n + 1,
            version=public["version"],
            nonce=public["nonce"],
            dealer=_who(hand.dealer, me),
            dealer_seat=hand.dealer,
            commitment=public["commitment"],
            client_seed=public.get("client_seed"),
            client_seeds=public.get("client_seeds"),
            server_seed=sealer.reveal(n, ended=ended) if over else None,
            deck=[CARD_TEXT[c] for c in hand.deck] if over else None,
        )
    upcoming = None
    if table.waiting_for_deal:
        n = len(match.hands)
        sealed: dict[str, Any] | None
        try:
            sealed = sealer.public(n)
        except SealError:
            sealed = None  # not sealed yet: nothing to show (the deal will refuse too)
        if sealed is not None:
            dealer = match.next_dealer
            upcoming = SealedDealOut(
                hand=n + 1,
                version=sealed["version"],
                nonce=sealed["nonce"],
                dealer=_who(dealer, me),
                dealer_seat=dealer,
                commitment=sealed["commitment"],
                client_seed=None,
                server_seed=None,
                deck=None,
            )
    return SealedOut(your_seat=me, hand=current, next=upcoming)


def finished_hands(match: Match, *, ended: bool = False) -> int:
    """How many hands of the match are over (all but a hand still being played; all once the
    match has ``ended``, as in :func:`sealed_out`)."""
    if match.hands and not match.hand.over and not ended:
        return len(match.hands) - 1
    return len(match.hands)


def record_upto(
    match: Match,
    sealer: DealSealer | None,
    count: int,
    *,
    players: Sequence[str],
    meta: dict[str, Any],
    ended: bool = False,
) -> str:
    """The record of the match's first ``count`` hands, which must all be over (or the match
    ``ended``), with their sealed data (revealed server seeds included): what ``ginrummy
    verify`` checks."""
    done = finished_hands(match, ended=ended)
    if not 0 <= count <= done:
        raise GinRummyError(f"only the first {done} hand(s) are over")
    target = match
    if count < len(match.hands):
        target = Match(match.rules, first_dealer=match.first_dealer, start=False)
        for hand in match.hands[:count]:
            target.next_hand([int(c) for c in hand.deck])
            for event in hand.history:
                target.play(event.text)
    hand_meta = sealer.hand_meta(ended=ended)[:count] if sealer is not None else None
    return dumps(target, players=players, meta=meta, hand_meta=hand_meta)


def sentence(message: str) -> str:
    """An engine message as a sentence for a person: capital first letter, final stop."""
    text = message.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."
