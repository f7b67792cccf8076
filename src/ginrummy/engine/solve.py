"""The public solver calls -- :func:`deadwood`, :func:`best_melds`, :func:`all_melds` -- on any
form of cards the API accepts, checked, in front of the mask solver of :mod:`ginrummy.engine.melds`.

``ginrummy`` exports them; they live here so that the build can compile them with the solver
(docs/architecture.md, "The compiled core").

>>> deadwood("7s 7h 7c 8s 9s")
14
>>> best_melds("7s 7h 7c 7d 8s 9s 6s").deadwood
0
"""

from __future__ import annotations

from .cards import CardSet, CardsLike, fast_mask, to_mask
from .errors import GinRummyError
from .melds import Arrangement, all_arrangements, best_arrangement, min_deadwood

#: The most cards the solver takes: a hand of ten and the card just drawn.
MAX_SOLVER_CARDS = 11


def _hand_mask(cards: CardsLike) -> int:
    """The mask of a hand given to the solver, checked (a card twice, too many cards, text
    that is not cards...). A ``CardSet`` gives its mask, the other common forms take
    :func:`ginrummy.engine.cards.fast_mask`; anything else goes to
    :func:`ginrummy.engine.cards.to_mask`, which explains what is wrong."""
    mask = cards.mask if isinstance(cards, CardSet) else fast_mask(cards)
    if mask < 0 or mask.bit_count() > MAX_SOLVER_CARDS:
        mask = to_mask(cards, what="hand")
        if mask.bit_count() > MAX_SOLVER_CARDS:
            raise GinRummyError(
                f"a gin rummy hand has at most {MAX_SOLVER_CARDS} cards, not {mask.bit_count()}"
            )
    return mask


def deadwood(cards: CardsLike) -> int:
    """Minimum deadwood of exactly these cards (0 to 11 cards; every card counts)."""
    return min_deadwood(_hand_mask(cards))


def best_melds(cards: CardsLike) -> Arrangement:
    """A minimum-deadwood arrangement: ``.melds``, ``.deadwood_cards``, ``.deadwood``."""
    return best_arrangement(_hand_mask(cards))


def all_melds(cards: CardsLike) -> list[Arrangement]:
    """Every minimum-deadwood arrangement of these cards."""
    return all_arrangements(_hand_mask(cards))
