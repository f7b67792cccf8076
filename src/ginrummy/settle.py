"""Scoring one hand's ending: knock, undercut, gin and big gin, with the defender's layoffs.

This is the single place where a hand's score is computed; :class:`ginrummy.hand.Hand`, the
public :func:`settle_hand` and every table call it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from .cards import Card, CardSet, CardsLike, cards_of_mask, mask_text, to_mask
from .errors import IllegalMoveError, InvalidCardError
from .melds import (
    Arrangement,
    all_arrangements,
    best_arrangement,
    best_layoffs,
    declared_arrangement,
    layoff_spots,
    only_arrangement,
)
from .rules import RuleSet, RulesLike, get_rules

__all__ = ["HandResult", "settle", "settle_hand", "default_knock_arrangement", "parse_melds"]

ResultKind = Literal["knock", "undercut", "gin", "big_gin", "cancelled"]


@dataclass(frozen=True)
class HandResult:
    """How a hand ended and what it scored.

    ``winner`` is ``"knocker"`` or ``"defender"`` (``None`` when cancelled); ``points`` already
    include bonuses and Oklahoma's doubling. Deadwood counts are the knocker's declared count and
    the defender's count after layoffs. Seats are 0 or 1 (``settle_hand`` calls the knocker 0).
    """

    kind: ResultKind
    winner: Literal["knocker", "defender"] | None
    points: int
    knocker_seat: int | None
    winner_seat: int | None
    knocker_deadwood: int
    defender_deadwood: int
    layoffs: tuple[Card, ...]
    knocker_melds: tuple[CardSet, ...]
    knocker_deadwood_cards: CardSet
    defender_melds: tuple[CardSet, ...]
    defender_deadwood_cards: CardSet
    knock_discard: Card | None = None
    multiplier: int = 1
    knock_limit: int = 10
    bonus: int = 0

    @property
    def scored(self) -> bool:
        """True unless the hand was cancelled."""
        return self.kind != "cancelled"

    def summary(self) -> str:
        """One line for records and logs: ``knock: seat 0 scores 12``."""
        if self.kind == "cancelled":
            return "cancelled"
        return f"{self.kind}: seat {self.winner_seat} scores {self.points}"

    @classmethod
    def cancelled(cls, knock_limit: int = 10, multiplier: int = 1) -> HandResult:
        empty = CardSet()
        return cls(
            kind="cancelled",
            winner=None,
            points=0,
            knocker_seat=None,
            winner_seat=None,
            knocker_deadwood=0,
            defender_deadwood=0,
            layoffs=(),
            knocker_melds=(),
            knocker_deadwood_cards=empty,
            defender_melds=(),
            defender_deadwood_cards=empty.copy(),
            multiplier=multiplier,
            knock_limit=knock_limit,
        )


def default_knock_arrangement(mask: int) -> Arrangement:
    """The knocker's arrangement when none is declared: minimum deadwood, and among those the
    one that gives an opponent the fewest places to lay off (judged from the knocker's own
    cards only, never from the defender's hand)."""
    only = only_arrangement(mask)
    if only is not None:
        return only
    arrangements = all_arrangements(mask)
    return min(arrangements, key=lambda a: layoff_spots(a.meld_masks, mask).bit_count())


def settle(
    knocker: int,
    defender: int,
    rules: RuleSet,
    *,
    knock_limit: int,
    multiplier: int = 1,
    melds: Iterable[int] | None = None,
    knocker_seat: int = 0,
    knock_discard: int | None = None,
) -> HandResult:
    """Score a knock (10 cards) or big gin (11 cards) from masks; raises IllegalMoveError."""
    count = knocker.bit_count()
    big = count == 11
    if count not in (10, 11):
        raise IllegalMoveError(
            f"the knocker must show 10 cards (or 11 for big gin), not {count}"
        )
    if big and not rules.big_gin:
        raise IllegalMoveError(f"big gin is not played under {rules.describe()}")
    if melds is None:
        arrangement = best_arrangement(knocker) if big else default_knock_arrangement(knocker)
    else:
        try:
            arrangement = declared_arrangement(knocker, melds)
        except ValueError as exc:
            raise IllegalMoveError(f"Invalid melds: {exc}.") from None
    if big and arrangement.deadwood:
        raise IllegalMoveError(
            f"big gin needs all eleven cards melded; {mask_text(arrangement.deadwood_mask)} "
            "are left over"
        )
    if arrangement.deadwood > knock_limit:
        limit = "gin only" if knock_limit == 0 else f"at most {knock_limit}"
        raise IllegalMoveError(
            f"You cannot knock with {arrangement.deadwood} deadwood: the knock limit is {limit}."
        )
    defender_seat = 1 - knocker_seat
    k_dw = arrangement.deadwood
    if big or k_dw == 0:
        d_arr = best_arrangement(defender)
        d_dw = d_arr.deadwood
        layoffs = 0
        kind: ResultKind = "big_gin" if big else "gin"
        bonus = rules.big_gin_bonus if big else rules.gin_bonus
        points = d_dw + bonus
        winner: Literal["knocker", "defender"] = "knocker"
    else:
        d_dw, layoffs, d_arr = best_layoffs(arrangement.meld_masks, defender)
        if k_dw < d_dw:
            kind, winner, bonus, points = "knock", "knocker", 0, d_dw - k_dw
        else:
            bonus = rules.undercut_bonus
            kind, winner, points = "undercut", "defender", k_dw - d_dw + bonus
    return HandResult(
        kind=kind,
        winner=winner,
        points=points * multiplier,
        knocker_seat=knocker_seat,
        winner_seat=knocker_seat if winner == "knocker" else defender_seat,
        knocker_deadwood=k_dw,
        defender_deadwood=d_dw,
        layoffs=tuple(cards_of_mask(layoffs)),
        knocker_melds=tuple([CardSet.from_mask(m) for m in arrangement.meld_masks]),
        knocker_deadwood_cards=CardSet.from_mask(arrangement.deadwood_mask),
        defender_melds=tuple([CardSet.from_mask(m) for m in d_arr.meld_masks]),
        defender_deadwood_cards=CardSet.from_mask(d_arr.deadwood_mask),
        knock_discard=Card(knock_discard) if knock_discard is not None else None,
        multiplier=multiplier,
        knock_limit=knock_limit,
        bonus=bonus,
    )


def parse_melds(melds: Iterable[CardsLike] | str) -> list[int]:
    """Declared melds as masks: a list of melds (each text or cards), or one text where melds
    are separated by spaces, commas or ``|`` and a meld's cards are written together or joined
    with ``-`` (``"7c7d7s 8h-9h-Th"``)."""
    if isinstance(melds, str):
        tokens = [t for t in melds.replace("|", " ").replace(",", " ").split() if t]
        return [to_mask(t.replace("-", ""), what="meld") for t in tokens]
    out = []
    for meld in melds:
        out.append(to_mask(meld, what="meld"))
    return out


def settle_hand(
    knocker: CardsLike,
    defender: CardsLike,
    rules: RulesLike = "traditional",
    *,
    melds: Iterable[CardsLike] | str | None = None,
    upcard: CardsLike | int | None = None,
) -> HandResult:
    """Score a finished hand from the two hands.

    ``knocker``: the knocker's 10 cards after the discard (11 for big gin); ``defender``: the
    defender's 10 cards; ``melds``: the knocker's declared melds (default: the minimum-deadwood
    arrangement); ``upcard``: the hand's first upcard (Oklahoma's knock limit and spade doubling).
    Raises :class:`IllegalMoveError` for an illegal knock or invalid melds.

    >>> r = settle_hand("Ac 2c 3c 7d 7h 7s 9h Th Jh 4d", "4s 4c 4h Qs Qd Qc 8h 5s 6d 9c", "modern")
    >>> r.kind, r.winner, r.points, r.knocker_deadwood, r.defender_deadwood, r.layoffs
    ('knock', 'knocker', 16, 4, 20, (Card.parse('8h'),))
    """
    rule_set = get_rules(rules)
    k = to_mask(knocker, what="knocker's hand")
    d = to_mask(defender, what="defender's hand")
    if d.bit_count() != 10:
        raise IllegalMoveError(f"the defender must show 10 cards, not {d.bit_count()}")
    if k & d:
        raise InvalidCardError(f"{mask_text(k & d)} is in both hands")
    up: int | None = None
    if isinstance(upcard, bool):
        raise InvalidCardError(f"{upcard!r} is not a card")
    if isinstance(upcard, int):
        up = int(Card(upcard))
    elif upcard is not None:
        up_mask = to_mask(upcard, what="upcard")
        if up_mask.bit_count() != 1:
            raise InvalidCardError("the upcard must be exactly one card")
        up = up_mask.bit_length() - 1
    if rule_set.oklahoma and up is None:
        raise IllegalMoveError("Oklahoma needs the hand's first upcard to know the knock limit")
    declared = None if melds is None else parse_melds(melds)
    return settle(
        k,
        d,
        rule_set,
        knock_limit=rule_set.knock_limit_for(up),
        multiplier=rule_set.multiplier_for(up),
        melds=declared,
    )
