"""The environment's observation: a fixed-size float32 vector built from one seat's
:class:`~ginrummy.engine.view.PlayerView` and nothing else (fairness by construction).

Layout (``docs/env.md``, "Observation"); card planes are indexed by card, ``suit * 13 + rank``
(clubs, diamonds, hearts, spades; ace 0 ... king 12):

=========  ===================================================================================
offset     plane (52 values unless said)
=========  ===================================================================================
0          own cards (1 = held)
52         top of the discard pile (one-hot; all 0 when the pile is empty)
104        the discard pile in order: 1 − depth/52 for each card in the pile (top card 1.0,
           the card under it 51/52, ...), 0 for cards not in the pile
156        cards the opponent took from the discard pile (the upcard included)
208        upcards the opponent passed
260        cards the opponent discarded (face up)
312        cards known to be in the opponent's hand (taken and not thrown back)
364        unseen cards: not held, not in the pile, not known to be the opponent's
416        the card this seat picked up this turn (taken or drawn; one-hot, else 0)
468        phase one-hot, 7 values: opening, opening_draw, draw, discard, last_chance,
           last_chance_knock, over
475        1 when it is this seat's turn
476        1 when this seat dealt the hand
477        stock count / 31
478        opponent's card count / 11
479        knock limit / 30 (the hand's own limit: Oklahoma's comes from the upcard)
480        1 when the hand's score is doubled (Oklahoma's spade upcard)
481        own score / target (capped at 1; the first game's, or the match's under Hollywood)
482        opponent's score / target (capped at 1)
483        1 when big gin is on
484        1 when the last-discard chance is on
485        1 when Hollywood scoring is on
486        own least deadwood / 100 (capped at 1)
=========  ===================================================================================

Every value lies in [0, 1].
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ..engine.cards import FULL_DECK
from ..engine.melds import min_deadwood
from ..engine.view import PlayerView

__all__ = ["OBS_SIZE", "PHASES", "PLANES", "SCALARS", "encode"]

#: The phases in the order of the phase one-hot.
PHASES: tuple[str, ...] = (
    "opening", "opening_draw", "draw", "discard", "last_chance", "last_chance_knock", "over"
)
#: The card planes, in order, each 52 values from offset ``52 * i``.
PLANES: tuple[str, ...] = (
    "hand", "top_discard", "pile_order", "opponent_took", "opponent_passed",
    "opponent_discarded", "opponent_known", "unseen", "picked_up",
)
#: The scalar features after the planes (the phase one-hot counts as seven).
SCALARS: tuple[str, ...] = (
    *(f"phase_{p}" for p in PHASES),
    "my_turn", "dealer", "stock", "opponent_cards", "knock_limit", "doubled",
    "my_score", "opponent_score", "big_gin", "last_discard_chance", "hollywood", "deadwood",
)
OBS_SIZE = 52 * len(PLANES) + len(SCALARS)

_SCALAR = 52 * len(PLANES)
#: The phase one-hot's bit in the packed observation (see :func:`encode`).
_PHASE_BIT = {p: 1 << (_SCALAR + i) for i, p in enumerate(PHASES)}
#: 1 - depth/52 for the pile read bottom to top: the last value (the top card, depth 0) is 1,
#: and a pile of n cards uses the last n values.
_RECENCY = (1.0 - np.arange(51, -1, -1, dtype=np.float32) / 52.0).astype(np.float32)
#: ``bytes(pile).translate(_PILE_ORDER)``: each pile card's index in the observation (the
#: pile-order plane's offset added to the card, all below 256, in C).
_PILE_ORDER = bytes(104 + b if b < 52 else 0 for b in range(256))
#: ``_BYTE_BITS[b]``: the eight bits of byte ``b`` as float32 values, lowest bit first, so that
#: ``_BYTE_BITS.take(bytes, 0)`` unpacks bytes straight into float32 values in one call.
_BYTE_BITS = np.array([[b >> k & 1 for k in range(8)] for b in range(256)], dtype=np.float32)
#: The turn's bit in the packed observation (the deal's is the next), after the phase's.
_TURN_BIT = _SCALAR + len(PHASES)
#: The bytes of the packed observation: every value of the vector, one more bit unused.
_PACKED_BYTES = (OBS_SIZE + 7) // 8
#: The values after the bits: stock, opponent's cards, knock limit, doubled, the two scores,
#: big gin, last-discard chance, Hollywood, deadwood.
_FIRST_VALUE = _SCALAR + len(PHASES) + 2
#: NumPy's dtype as an object, given positionally: ``np.frombuffer(b, dtype=np.uint8)`` spends
#: twice as long parsing its keyword as reading the bytes.
_UINT8 = np.dtype(np.uint8)


_BIT: list[int] = [1 << c for c in range(52)]
_bit = _BIT.__getitem__
#: The scalar features that depend only on the rules: big gin, last-discard chance, Hollywood.
_ZERO_ONE = (0.0, 1.0)


def _mask(cards: tuple[int, ...]) -> int:
    """The mask of these cards (a card may be listed twice: the opponent can discard a card,
    see it taken, and discard it again)."""
    out = 0
    for c in cards:
        out |= 1 << c
    return out


def encode(view: PlayerView) -> npt.NDArray[np.float32]:
    """The observation vector of ``view`` (length :data:`OBS_SIZE`, float32, values in
    [0, 1]). A function of the view alone: two hands that give a seat the same view give it
    the same observation.

    Built for speed (it runs at every step): every value that is 0 or 1 (the nine card planes,
    the phase, the turn and the deal) is a bit of one int, whose bytes become float32 values in
    one NumPy call through a table of each byte's bits; then the pile's order is written over
    its plane and the other scalars after the bits.
    """
    pile = view.discard_pile
    pile_mask = sum(map(_bit, pile))  # the pile's cards are distinct: a sum of bits
    picked = view.taken if view.taken is not None else view.drawn
    hand = view.hand_mask
    known = view.opponent_known_mask
    seat = view.seat
    phase = view.phase
    packed = (
        hand
        | (1 << pile[-1] << 52 if pile else 0)
        | _mask(view.opponent_took) << 156
        | _mask(view.opponent_passed) << 208
        | _mask(view.opponent_discards) << 260
        | known << 312
        | (FULL_DECK & ~hand & ~pile_mask & ~known) << 364
        | (0 if picked is None else 1 << picked << 416)
        | _PHASE_BIT[phase]
        | (view.to_play == seat and phase != "over") << _TURN_BIT
        | (view.dealer == seat) << _TURN_BIT + 1
    )
    # A new array each time (the first OBS_SIZE values of the bytes' bits, the one spare bit
    # cut off).
    out: npt.NDArray[np.float32] = _BYTE_BITS.take(
        np.frombuffer(packed.to_bytes(_PACKED_BYTES, "little"), _UINT8), 0
    ).reshape(8 * _PACKED_BYTES)[:OBS_SIZE]
    n = len(pile)
    if n:  # the cards' places in the vector (all below 256) as the bytes of an index array
        out.put(np.frombuffer(bytes(pile).translate(_PILE_ORDER), _UINT8), _RECENCY[52 - n :])
    rules = view.rules
    target = rules.target
    scores = view.scores
    out[_FIRST_VALUE:] = [
        view.stock_count / 31.0,
        view.opponent_card_count / 11.0,
        view.knock_limit / 30.0,
        1.0 if view.multiplier > 1 else 0.0,
        min(scores[seat] / target, 1.0),
        min(scores[1 - seat] / target, 1.0),
        _ZERO_ONE[rules.big_gin],
        _ZERO_ONE[rules.last_discard_chance],
        _ZERO_ONE[rules.hollywood],
        min(min_deadwood(hand) / 100.0, 1.0),
    ]
    return out
