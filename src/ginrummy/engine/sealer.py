"""Dealing a match from sealed deals: commit, take the player's seed, deal, reveal.

A :class:`DealSealer` is the deck source of one :class:`~ginrummy.engine.match.Match`. For each hand
the table follows the protocol of ``docs/sealed-deals.md``:

1. ``sealer.commitment(n)`` draws a fresh secret server seed for hand ``n`` (0-based; its nonce
   is the hand number ``n + 1``), fixes the hand's dealer, and returns the commitment to show
   the player *before* the player chooses a client seed;
2. ``sealer.set_client_seed(n, text)`` records the player's client seed (without one, the deal
   draws a random one);
3. ``match.next_hand()`` deals: the match asks the sealer for the deck, which is now fixed;
4. once the hand is over, ``sealer.reveal(n)`` gives the server seed, and
   ``record.dumps(match, hand_meta=sealer.hand_meta())`` writes a record that
   ``ginrummy verify`` checks. While a hand is played, ``reveal`` refuses and ``hand_meta``
   holds only its public data.

The server seeds live only here; :class:`~ginrummy.engine.view.PlayerView` has no way to them, so
computer players and the coach never see one. A web server keeps :meth:`private_state` with its
saved game (never sends it) and rebuilds the sealer with ``DealSealer(match, state=...)``.

>>> from ginrummy.engine.match import Match
>>> match = Match("modern", seed="doc", start=False)
>>> sealer = DealSealer(match)
>>> len(sealer.commitment(0))
64
>>> sealer.set_client_seed(0, "lucky seven")
>>> hand = match.next_hand()
>>> sealer.reveal(0)  # doctest: +IGNORE_EXCEPTION_DETAIL
Traceback (most recent call last):
...
SealError: hand 1 is still being played; its server seed stays sealed until it ends
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from .errors import GinRummyError
from .hand import Hand
from .match import Match
from .shuffle import (
    SERVER_SEED_BYTES,
    VERSION,
    SealedDeal,
    SealError,
    new_server_seed,
    parse_hex,
    random_client_seed,
)

__all__ = ["DealSealer"]


class DealSealer:
    """The deck source of ``match``: one sealed deal per hand (see the module's docstring).

    Creating it installs it as ``match.decks``. ``state`` restores a saved sealer (from
    :meth:`private_state`); the hands the match has already dealt must agree with it.
    ``new_seed`` is for tests that need known server seeds; tables keep the default.
    """

    def __init__(
        self,
        match: Match,
        *,
        state: Mapping[str, Any] | None = None,
        new_seed: Callable[[], bytes] = new_server_seed,
    ) -> None:
        self.match = match
        self._new_seed = new_seed
        self._deals: list[SealedDeal] = [] if state is None else _restore(state)
        dealt = len(match.hands)
        if len(self._deals) not in (dealt, dealt + 1):
            raise SealError(
                f"the saved sealed deals cover {len(self._deals)} hands; the match has dealt "
                f"{dealt}"
            )
        for n in range(dealt):
            self._check_dealt(n)
        match.decks = self

    # Before the deal.

    def commitment(self, n: int) -> str:
        """Hand ``n``'s commitment, sealing the hand first if it is the next one to deal."""
        if n == len(self._deals) and n == len(self.match.hands):
            try:
                dealer = self.match.next_dealer
            except GinRummyError:
                raise SealError(
                    f"hand {n} is still being played; seal hand {n + 1} once it is over"
                ) from None
            if self.match.over:
                raise SealError("the match is over; there is no next hand to seal")
            self._deals.append(SealedDeal(self._new_seed(), n + 1, dealer))
        return self._deal(n).commitment

    def set_client_seed(self, n: int, client_seed: str) -> None:
        """Record the player's client seed for hand ``n`` (after its commitment, before its deal).

        Raises :class:`SealError` for a seed that breaks the rules of
        :func:`~ginrummy.engine.shuffle.check_client_seed` or a hand that is not waiting for one.
        """
        deal = self._deal(n)
        if n < len(self.match.hands):
            raise SealError(f"hand {n + 1} has been dealt; its client seed is fixed")
        self._deals[n] = deal.with_client_seed(client_seed)

    def set_client_seeds(self, n: int, seat0: str, seat1: str) -> None:
        """Record both people's client seeds for hand ``n`` at a table of two people (after
        its commitment, before its deal); the shuffle uses their combination
        (:func:`~ginrummy.engine.shuffle.combine_client_seeds`)."""
        deal = self._deal(n)
        if n < len(self.match.hands):
            raise SealError(f"hand {n + 1} has been dealt; its client seeds are fixed")
        self._deals[n] = deal.with_client_seeds(seat0, seat1)

    def client_seed(self, n: int) -> str | None:
        """Hand ``n``'s client seed (``None`` while the player has not chosen one)."""
        return self._deal(n).client_seed

    def public(self, n: int) -> dict[str, Any]:
        """Hand ``n``'s public sealed data: version, commitment, client seed, nonce."""
        return self._deal(n).public()

    # The deal (called by Match.next_hand).

    def __call__(self, n: int) -> list[int]:
        """The deck of hand ``n``. A hand that has no client seed yet gets a random one."""
        if n >= len(self._deals):
            raise SealError(
                f"hand {n + 1} has no published commitment; call commitment({n}) and show it "
                "to the player before dealing"
            )
        deal = self._deals[n]
        if n == len(self.match.hands) and deal.dealer != self.match.next_dealer:
            raise SealError(  # pragma: no cover - the dealer is fixed before the deal
                f"hand {n + 1} was sealed for dealer seat {deal.dealer}, but seat "
                f"{self.match.next_dealer} deals"
            )
        if deal.client_seed is None:
            deal = self._deals[n] = deal.with_client_seed(random_client_seed())
        return deal.deck()

    # After the hand.

    def reveal(self, n: int, *, ended: bool = False) -> str:
        """Hand ``n``'s server seed in hex; refused while that hand is being played, unless
        the match has ``ended`` without it (a resignation, a forfeit, an abandoned match: the
        hand will never be played on, so its deal can be shown and checked)."""
        deal = self._deal(n)
        if n >= len(self.match.hands):
            raise SealError(f"hand {n + 1} has not been dealt; its server seed stays sealed")
        if not self.match.hands[n].over and not ended:
            raise SealError(
                f"hand {n + 1} is still being played; its server seed stays sealed until it ends"
            )
        self._check_dealt(n)
        return deal.server_seed.hex()

    def hand_meta(self, *, ended: bool = False) -> list[dict[str, Any]]:
        """Per dealt hand, ``{"sealed": {...}}`` for :func:`ginrummy.engine.record.dumps`: the
        public data, plus ``server_seed`` for each hand that is over (every hand once the match has
        ``ended``, as in :meth:`reveal`)."""
        out: list[dict[str, Any]] = []
        for n, hand in enumerate(self.match.hands):
            self._check_dealt(n)
            deal = self._deals[n]
            out.append({"sealed": deal.revealed() if hand.over or ended else deal.public()})
        return out

    def private_state(self) -> dict[str, Any]:
        """Everything needed to rebuild this sealer, server seeds included: keep it on the
        server, never send it to a player."""
        return {
            "version": VERSION,
            "hands": [
                {
                    "server_seed": d.server_seed.hex(),
                    "nonce": d.nonce,
                    "dealer": d.dealer,
                    "client_seed": d.client_seed,
                    **({"client_seeds": list(d.client_seeds)} if d.client_seeds else {}),
                }
                for d in self._deals
            ],
        }

    # Internals.

    def _deal(self, n: int) -> SealedDeal:
        if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n < len(self._deals):
            raise SealError(f"hand {n!r} has not been sealed")
        return self._deals[n]

    def _check_dealt(self, n: int) -> None:
        """The match's hand ``n`` must be the one this sealer dealt."""
        hand: Hand = self.match.hands[n]
        deal = self._deals[n]
        if deal.dealer != hand.dealer:
            raise SealError(
                f"hand {n + 1} was sealed for dealer seat {deal.dealer}; seat {hand.dealer} dealt"
            )
        if deal.client_seed is None or [int(c) for c in hand.deck] != deal.deck():
            raise SealError(f"hand {n + 1} was not dealt from its sealed deck")

    def __repr__(self) -> str:
        return f"<DealSealer hands={len(self._deals)} dealt={len(self.match.hands)}>"


def _restore(state: Mapping[str, Any]) -> list[SealedDeal]:
    """The sealed deals of a saved :meth:`DealSealer.private_state`, checked."""
    if not isinstance(state, Mapping) or state.get("version") != VERSION:
        raise SealError(f"saved sealed deals must be a table with version {VERSION!r}")
    hands = state.get("hands")
    if not isinstance(hands, list):
        raise SealError("saved sealed deals: 'hands' must be a list")
    deals = []
    for n, entry in enumerate(hands):
        if not isinstance(entry, Mapping):
            raise SealError(f"saved sealed deal {n + 1} is not a table")
        seed = parse_hex(entry.get("server_seed"), SERVER_SEED_BYTES, "a server seed")
        nonce = entry.get("nonce")
        if nonce != n + 1:
            raise SealError(f"saved sealed deal {n + 1} has nonce {nonce!r}, not {n + 1}")
        dealer, client_seed = entry.get("dealer"), entry.get("client_seed")
        if not isinstance(dealer, int) or not (client_seed is None or isinstance(client_seed, str)):
            raise SealError(f"saved sealed deal {n + 1}: a dealer seat and a client seed (text)")
        pair = entry.get("client_seeds")
        if pair is not None and not (
            isinstance(pair, list) and len(pair) == 2 and all(isinstance(x, str) for x in pair)
        ):
            raise SealError(f"saved sealed deal {n + 1}: client_seeds must be two texts")
        try:
            deals.append(SealedDeal(seed, n + 1, dealer, client_seed,
                                    client_seeds=(pair[0], pair[1]) if pair else None))
        except SealError as exc:
            raise SealError(f"saved sealed deal {n + 1}: {exc}") from None
    return deals
