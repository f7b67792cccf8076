"""The coach's one sentence: why a move was good, or what would have been better.

A reason is built from concrete facts the seat can check on the table, never from a guess at
the hidden cards: the opponent's pickups and when they happened ("your opponent picked up the
7♣ two turns ago"), the deadwood a knock would have left, the gin that was there, a pickup
that showed what the seat collects for no gain, a high card kept for nothing, a pair broken,
the undercut risk measured over the coach's worlds. Every card named is one the seat holds or
has seen: its own cards, the discard pile, or cards the opponent picked up from it.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..engine.cards import CARD_VALUE, RANK_NAMES, SUIT_NAMES, Card
from ..engine.hand import STOCK_FLOOR
from ..engine.melds import (
    START_PARTNERS,
    best_arrangement,
    discard_deadwoods,
    is_meld,
    layoff_candidates,
    meld_neighbours,
    min_deadwood,
)
from ..engine.move import DISCARD, Move
from ..engine.settle import default_knock_arrangement
from ..engine.view import PlayerView
from ..players.knowledge import feeds_known_meld
from .verdict import Alternative, DecisionKind, Rating

__all__ = ["reason_for", "turns_ago", "percent"]

_NUMBERS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
            "ten")


def _sym(card: int) -> str:
    return Card(card).symbol()


def _cards_text(cards: Sequence[int]) -> str:
    names = [f"the {_sym(c)}" for c in cards]
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def _plural_rank(rank: int) -> str:
    name = RANK_NAMES[rank]
    return name + ("es" if name.endswith("x") else "s")


def percent(share: float) -> str:
    """A share as a rounded percentage for a sentence: ``about 85%`` (to the nearest 5)."""
    value = round(share * 20) * 5
    if value <= 0:
        return "almost never"
    if value >= 100:
        return "almost always"
    return f"about {value}% of the time"


def turns_ago(view: PlayerView, card: int, kind: str = "take") -> str:
    """When the opponent last made a move of ``kind`` with ``card``, counted in its turns:
    ``on their last turn``, ``two turns ago``... (``earlier`` when not found)."""
    opponent = 1 - view.seat
    at = None
    for i, e in enumerate(view.history):
        if e.seat == opponent and e.kind == kind and e.card is not None and int(e.card) == card:
            at = i
    if at is None:
        return "earlier"
    if kind == "pass":
        return "at the start"
    back = 1 + sum(1 for e in view.history[at + 1 :]
                   if e.seat == opponent and e.kind in ("draw", "take"))
    if back == 1:
        return "on their last turn"
    return f"{_NUMBERS[back] if back <= 10 else back} turns ago"


def _held_pickups(view: PlayerView) -> list[int]:
    """Cards the opponent picked up from the pile and still holds, in the order taken."""
    known = view.opponent_known_mask
    return [int(c) for c in view.opponent_took if known >> int(c) & 1]


def _near_pickup(view: PlayerView, card: int) -> int | None:
    """A card the opponent picked up and holds that melds with ``card`` (same rank, or same suit
    one or two ranks away), the closest first."""
    held = _held_pickups(view)
    for mask in START_PARTNERS[card]:
        for c in reversed(held):
            if mask >> c & 1:
                return c
    return None


def _near_opponent_throw(view: PlayerView, card: int) -> tuple[int, str] | None:
    """A card the opponent threw or passed that melds with ``card``: evidence it does not
    collect what ``card`` would complete."""
    mask, _ = START_PARTNERS[card]
    for c in reversed(view.opponent_discards):
        if mask >> int(c) & 1:
            return int(c), "discard"
    for c in reversed(view.opponent_passed):
        if mask >> int(c) & 1:
            return int(c), "pass"
    return None


def _partner_in(mask: int, card: int) -> int | None:
    """A card of ``mask`` that makes a two-card start with ``card`` (same rank or same suit
    one or two away), the closest first."""
    for m in START_PARTNERS[card]:
        hit = m & mask
        if hit:
            return (hit & -hit).bit_length() - 1
    return None


def _outs(mask: int, unseen: int) -> int:
    """How many unseen cards would lower the least deadwood of the ten cards ``mask`` (after
    drawing one and throwing the best card)."""
    now = min_deadwood(mask)
    count = 0
    m = unseen
    while m:
        low = m & -m
        m ^= low
        card = low.bit_length() - 1
        if min(dw for c, dw in discard_deadwoods(mask | low) if c != card) < now:
            count += 1
    return count


def _card(move: str) -> int:
    card = Move.parse(move).card
    assert card is not None, f"{move!r} names no card"
    return int(card)


def _is_knock(move: str) -> bool:
    return Move.parse(move).goes_out


def _known_layoffs(view: PlayerView, move: str) -> list[int]:
    """Cards the opponent is known to hold that it could lay off on the knock's melds."""
    mv = Move.parse(move)
    rest = view.hand_mask & ~(1 << _card(mv))
    if mv.meld_masks is not None:
        melds = list(mv.meld_masks)
    else:
        melds = list(default_knock_arrangement(rest).meld_masks)
    hit = layoff_candidates(melds, view.opponent_known_mask)
    return [c for c in range(52) if hit >> c & 1]


def _meld_with(mask: int, card: int) -> list[int] | None:
    """The meld holding ``card`` in the best arrangement of ``mask``, as cards."""
    for m in best_arrangement(mask).meld_masks:
        if m >> card & 1:
            return [c for c in range(52) if m >> c & 1]
    return None


def _take_facts(view: PlayerView) -> tuple[int, int, int, list[int] | None]:
    """Taking the top discard: ``(card, deadwood now, least deadwood after, its meld)``."""
    top = int(view.discard_pile[-1])
    with_top = view.hand_mask | 1 << top
    choices = [(dw, -CARD_VALUE[c], c) for c, dw in discard_deadwoods(with_top) if c != top]
    after, _, throw = min(choices)
    return top, min_deadwood(view.hand_mask), after, _meld_with(with_top & ~(1 << throw), top)


def _collects(view: PlayerView, card: int) -> str | None:
    """What taking ``card`` tells the opponent the seat collects: a suit or a rank (``None``
    when the card goes with nothing in the hand)."""
    same_rank, near, far = meld_neighbours(card)
    if (near | far) & view.hand_mask:
        return SUIT_NAMES[card // 13]
    if same_rank & view.hand_mask:
        return _plural_rank(card % 13)
    return None


def reason_for(
    view: PlayerView,
    kind: DecisionKind,
    move: str,
    best: str,
    rating: Rating,
    alternatives: Sequence[Alternative],
) -> str:
    """One sentence a player understands for this assessment."""
    by_move = {a.move: a for a in alternatives}
    own = by_move[move]
    top = by_move.get(best, own)
    if rating == "good":
        return _good(view, kind, move, best, own, top)
    if best == "big gin" or (_is_knock(best) and top.deadwood == 0):
        return _missed_gin(view, move, best)
    if best == "take" and kind == "last_chance":
        card, _, after, _ = _take_facts(view)
        if after == 0:
            return f"Taking the {_sym(card)} would have given you gin."
        return (f"Taking the {_sym(card)} would have let you knock with {after} instead of "
                "ending the hand with no score.")
    if kind in ("opening", "draw", "last_chance"):
        return _draw_reason(view, kind, move, best, own, top)
    if _is_knock(best) and not _is_knock(move):
        return _missed_knock(view, best, top)
    if _is_knock(move) and not _is_knock(best):
        return _early_knock(view, move, own, top)
    if _is_knock(move) and _is_knock(best):
        return _other_knock(view, move, best, own, top)
    return _discard_reason(view, move, best, own, top)


def _good(view: PlayerView, kind: DecisionKind, move: str, best: str, own: Alternative,
          top: Alternative) -> str:
    if move == "big gin":
        return "Big gin: all eleven of your cards are melded."
    if _is_knock(move) and own.deadwood == 0:
        return "Gin: every card melded, and no layoffs for your opponent."
    if move == "take" and own.value >= top.value and kind != "last_chance":
        t, _, after, _meld = _take_facts(view)
        if after == 0:
            return f"The {_sym(t)} gives you gin."
    if move != best:
        return f"About as good as the coach's choice, to {top.words}."
    if _is_knock(move):
        return (f"Knocking with {own.deadwood} was the best play; it wins "
                f"{percent(own.win_chance)}.")
    if Move.parse(move).code == DISCARD:
        return f"The {_sym(_card(move))} was the best card to throw."
    top_card = _sym(int(view.discard_pile[-1])) if view.discard_pile else ""
    if move == "take":
        return f"Taking the {top_card} was right."
    if kind == "last_chance":
        return "Passing was right: that knock was too likely to be undercut."
    return f"The {top_card} was not worth taking."


def _missed_gin(view: PlayerView, move: str, best: str) -> str:
    if best == "big gin":
        if _is_knock(move):
            return ("All eleven of your cards were melded: big gin scores more than gin.")
        return "You could have gone big gin: all eleven of your cards were melded."
    return f"You could have gone gin by discarding the {_sym(_card(best))}."


def _draw_reason(view: PlayerView, kind: DecisionKind, move: str, best: str,
                 own: Alternative, top: Alternative) -> str:
    card, now, after, meld = _take_facts(view)
    if best == "take":
        if after == 0:
            return f"Taking the {_sym(card)} would have given you gin."
        if after <= view.knock_limit:
            return f"Taking the {_sym(card)} would have let you knock with {after}."
        if meld is not None:
            shown = " ".join(_sym(c) for c in meld)
            return (f"Taking the {_sym(card)} would have made {shown} and cut your deadwood "
                    f"from {now} to {after}.")
        return f"Taking the {_sym(card)} would have cut your deadwood from {now} to {after}."
    if kind == "last_chance":
        return (f"Taking the {_sym(card)} to knock with {after} was risky: that knock wins only "
                f"{percent(own.win_chance)}.")
    if meld is None:
        what = _collects(view, card)
        if what is None:
            return (f"Taking the {_sym(card)} gained nothing: it joined no meld, and showed "
                    "your opponent a card you wanted.")
        return (f"Taking the {_sym(card)} gave away that you collect {what} for nothing: it "
                "joined no meld.")
    what = _collects(view, card) or f"cards like the {_sym(card)}"
    return (f"Taking the {_sym(card)} showed your opponent that you collect {what}, and a "
            "card from the stock was more likely to help.")


def _missed_knock(view: PlayerView, best: str, top: Alternative) -> str:
    card = _sym(_card(best))
    if view.stock_count <= STOCK_FLOOR and not view.rules.last_discard_chance:
        return (f"You could have knocked with {top.deadwood} (discarding the {card}); instead "
                "the hand ended with no score.")
    return (f"You could have knocked with {top.deadwood} (discarding the {card}): that knock "
            f"wins {percent(top.win_chance)}.")


def _early_knock(view: PlayerView, move: str, own: Alternative, top: Alternative) -> str:
    under = own.undercut_chance or 0.0
    if under >= 0.2:
        pickups = _held_pickups(view)
        held = f" (they picked up {_cards_text(pickups)})" if pickups else ""
        return (f"Knocking with {own.deadwood} was risky: your opponent could undercut it "
                f"{percent(under)}{held}.")
    return (f"Knocking with {own.deadwood} was too early: playing on, to {top.words}, kept good "
            "chances of gin or a lower count.")


def _other_knock(view: PlayerView, move: str, best: str, own: Alternative,
                 top: Alternative) -> str:
    better = _sym(_card(best))
    if top.deadwood is not None and own.deadwood is not None and top.deadwood < own.deadwood:
        return (f"Knocking by discarding the {better} would have left {top.deadwood} instead "
                f"of {own.deadwood}.")
    given = _known_layoffs(view, move)
    if given and not _known_layoffs(view, best):
        return (f"Your melds gave {_cards_text(given)}, which your opponent picked up, a place "
                f"to go; knocking with the {better} instead leaves no such layoff.")
    return (f"Knocking with the {better} instead gives your opponent fewer places to lay "
            "off.")


def _discard_reason(view: PlayerView, move: str, best: str, own: Alternative,
                    top: Alternative) -> str:
    card = _card(move)
    better = _card(best)
    known = view.opponent_known_mask
    mine, theirs = own.deadwood or 0, top.deadwood or 0
    pickup = _near_pickup(view, card)
    fed = pickup is not None and feeds_known_meld(card, known) and not feeds_known_meld(
        better, known)
    if fed or (pickup is not None and theirs >= mine - 2
               and _near_pickup(view, better) is None):
        assert pickup is not None
        return (f"The {_sym(card)} was risky: your opponent picked up the {_sym(pickup)} "
                f"{turns_ago(view, pickup)}.")
    rest_best = view.hand_mask & ~(1 << better)
    if theirs < mine:
        broken = _meld_with(rest_best, card)
        if broken is not None and not is_meld(sum(1 << c for c in broken) & ~(1 << card)):
            shown = " ".join(_sym(c) for c in broken)
            return (f"The {_sym(card)} broke up your meld {shown}: throwing the "
                    f"{_sym(better)} would have left {theirs} deadwood instead of {mine}.")
        if CARD_VALUE[better] >= 8 and _partner_in(rest_best, better) is None:
            return (f"You kept the {_sym(better)} for nothing: throwing it would have left "
                    f"{theirs} deadwood instead of {mine}.")
        return f"Throwing the {_sym(better)} would have left {theirs} deadwood instead of {mine}."
    throw = _near_opponent_throw(view, better)
    if throw is not None and _near_opponent_throw(view, card) is None:
        verb = "threw" if throw[1] == "discard" else "passed"
        return (f"The {_sym(better)} was the safer throw: your opponent {verb} the "
                f"{_sym(throw[0])} {turns_ago(view, throw[0], throw[1])}.")
    rest_mine = view.hand_mask & ~(1 << card)
    partner = _partner_in(rest_mine, card)
    if partner is not None and _partner_in(rest_best, better) is None:
        return (f"The {_sym(card)} broke up your {_sym(card)} {_sym(partner)}, while the "
                f"{_sym(better)} went with nothing.")
    unseen = view.unseen_mask
    outs_best, outs_mine = _outs(rest_best, unseen), _outs(rest_mine, unseen)
    if outs_best >= outs_mine + 2:
        return (f"Throwing the {_sym(better)} kept more chances: {outs_best} unseen cards would "
                f"improve your hand, against {outs_mine}.")
    return (f"Throwing the {_sym(better)} did better in the coach's trials, by about "
            f"{own_loss(own, top)} points.")


def own_loss(own: Alternative, top: Alternative) -> str:
    """The difference in value, rounded for a sentence."""
    return f"{max(0.0, top.value - own.value):.0f}"
