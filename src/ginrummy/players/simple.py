"""``simple``: a port of the EAAI gin rummy challenge's ``SimpleGinRummyPlayer``.

The EAAI challenge (Todd Neller, 2020-21) ships a deliberately weak reference player so that
results against it compare across engines and papers. Its whole policy:

* **Draw.** Take the face-up card only if it would then belong to some meld of the hand
  (a set or a run the card completes with cards already held); otherwise draw from the stock.
  The opening is no different: the upcard offer is accepted by the same rule and declined
  otherwise.
* **Discard.** Among the cards whose discard leaves the least deadwood, pick one uniformly at
  random. Never the card just taken from the discard pile, and never a card that would repeat
  an earlier (card drawn, card discarded) pair of this hand: the pair is unordered, so having
  drawn X and discarded Y once, it never again draws X and throws Y, nor draws Y and throws X.
* **Knock** at the first chance: as soon as the cards left after the discard have deadwood
  within the knock limit, with one of the minimum-deadwood arrangements chosen uniformly at
  random. It ignores everything the opponent does.

It keeps no memory: the (drawn, discarded) pairs it may not repeat are read back from its own
moves in the view's public history, so the same view and RNG state give the same move.

Adaptations to this project's rules and notation (the EAAI game has one fixed rule set):

1. The knock limit is the view's (``knock_limit``): 10 under every profile except Oklahoma,
   where the first upcard sets it (an ace means gin only). EAAI's is always 10.
2. Big gin (profiles ``modern``, ``oklahoma``): when ``big gin`` is legal the player takes it.
   EAAI has no big gin; going out at the first chance is the player's policy, and big gin is
   the way out that the rules offer then.
3. Last-discard chance (option): the offer only exists when the card lets the player knock,
   so the player takes it (knock at the first chance) and then discards and knocks by its
   discard rule. Passing would cancel the hand.
4. Several minimum-deadwood arrangements: EAAI picks one of its "best meld sets" at random;
   here one of :func:`~ginrummy.engine.melds.all_arrangements` is picked at random and declared with
   ``knock XX with ...`` whenever there is more than one (the engine's own default would pick
   the one with the fewest layoff spots, which is smarter than the original).
5. If the no-repeat rule ever excluded every card (EAAI would crash), the rule is dropped for
   that turn; the taken card stays excluded.
6. The RNG is Python's ``random.Random`` seeded by the player, not Java's; the choices are
   uniform over the same candidates, so the policy is the same, not the exact card sequence.
"""

from __future__ import annotations

from ..engine.cards import CARD_TEXT, mask_text
from ..engine.melds import all_arrangements, discard_deadwoods, melds_with
from ..engine.player import Player
from ..engine.view import PlayerView

__all__ = ["SimplePlayer", "melds_with"]

def _used_pairs(view: PlayerView) -> set[int]:
    """Every (card drawn, card discarded) pair of this seat's earlier turns, as a 2-bit mask."""
    seat = view.seat
    pairs: set[int] = set()
    drawn = -1
    for event in view.history:
        if event.seat != seat or event.card is None:
            continue
        kind = event.kind
        if kind == "draw" or kind == "take":
            drawn = int(event.card)
        elif (kind == "discard" or kind == "knock") and drawn >= 0:
            pairs.add(1 << drawn | 1 << int(event.card))
            drawn = -1
    return pairs


class SimplePlayer(Player):
    """The EAAI reference player: melds-only draws, minimum-deadwood discards, knocks at once."""

    name = "simple"

    def decide(self, view: PlayerView) -> str:
        phase = view.phase
        if phase == "discard" or phase == "last_chance_knock":
            return self._discard(view)
        if phase == "opening":
            return "take" if melds_with(view.hand_mask, view.discard_pile[-1]) else "pass"
        if phase == "draw":
            return "take" if melds_with(view.hand_mask, view.discard_pile[-1]) else "draw"
        if phase == "last_chance":
            return "take" if "take" in view.legal_moves else "pass"
        return "draw"  # opening_draw: both passed the upcard.

    def _discard(self, view: PlayerView) -> str:
        legal = view.legal_moves
        if legal[-1] == "big gin":
            return "big gin"
        mask = view.hand_mask
        taken = -1 if view.taken is None else int(view.taken)
        drawn = taken if view.drawn is None else int(view.drawn)
        options = [(c, dw) for c, dw in discard_deadwoods(mask) if c != taken]
        if view.phase == "last_chance_knock":
            # The last discard was taken to knock: only knocking discards are legal.
            options = [(c, dw) for c, dw in options if dw <= view.knock_limit]
        if drawn >= 0:
            used = _used_pairs(view)
            if used:
                allowed = [(c, dw) for c, dw in options if (1 << drawn | 1 << c) not in used]
                if allowed:
                    options = allowed
        least = min(dw for _, dw in options)
        card = self.rng.choice([c for c, dw in options if dw == least])
        if least > view.knock_limit:
            return f"discard {CARD_TEXT[card]}"
        arrangements = all_arrangements(mask & ~(1 << card))
        if len(arrangements) == 1:
            return f"knock {CARD_TEXT[card]}"
        chosen = self.rng.choice(arrangements)
        melds = " ".join(mask_text(m) for m in chosen.meld_masks)
        return f"knock {CARD_TEXT[card]} with {melds}"
