"""Scoring one hand's ending: knock, undercut, gin and big gin, with the defender's layoffs.

This is the single place where a hand's score is computed; :class:`ginrummy.hand.Hand`, the
public :func:`settle_hand` and every table call it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from itertools import product
from typing import Literal

from .cards import (
    CARD_VALUE,
    RANK_MASK,
    SUIT_MASK,
    Card,
    CardSet,
    CardsLike,
    cards_of_mask,
    mask_text,
    to_mask,
)
from .errors import IllegalMoveError, InvalidCardError
from .melds import (
    _LAYOFF_LINES,
    _MELD_ORDER,
    MELD_NEIGHBOURS,
    RUN_DEADWOOD,
    Arrangement,
    _choices,
    _run_parts,
    best_arrangement,
    best_layoff_mask,
    declared_arrangement,
    layoff_spots,
    min_deadwood,
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


# ---------------------------------------------------------------------------------------------
# The knocker's layout, worked out on masks.
#
# Fix which ranks a hand plays as sets and each suit's rest splits into runs on its own: the
# deadwood adds up over the suits, and so do the layoff spots (a run's spots lie in its own
# suit; a set's spot is the card of its rank the hand lacks, which only adds to its suit). So
# the split with the fewest spots, then the fewest runs, is chosen suit by suit; only when a
# suit has two such splits (or several set choices reach the least deadwood) are whole
# arrangements compared, in the order of ``all_arrangements``.

#: ``_SPLITS[suit << 13 | p]``, filled as patterns come up: every least-deadwood split of suit
#: pattern ``p`` into runs, as ``(spots, covered, runs)``: the cards outside ``p`` just past an
#: end of a run (where an opponent could lay off), the cards in runs, and the runs (in the
#: order of :func:`~ginrummy.melds._run_parts`), all shifted into ``suit``.
_Split = tuple[int, int, tuple[int, ...]]
_SPLITS: list[tuple[_Split, ...]] = [()] * (4 << 13)
#: ``_FEWEST[suit << 13 | p]``, filled as patterns come up: the splits of ``_SPLITS`` with the
#: fewest spots, then the fewest runs, when the hand's sets add no spot to the suit.
_FEWEST: list[tuple[_Split, ...]] = [()] * (4 << 13)


def _splits(suit: int, p: int) -> tuple[_Split, ...]:
    held = p << 13 * suit
    out = []
    for runs in _run_parts(suit, p):
        spots = covered = 0
        for m in runs:
            covered |= m
            for line in _LAYOFF_LINES[m]:
                if line:
                    spots |= 1 << line[0]
        out.append((spots & ~held, covered, runs))
    got = _SPLITS[suit << 13 | p] = tuple(out)
    return got


def _fewest(splits: tuple[_Split, ...], extra: int, held: int) -> tuple[_Split, ...]:
    """The splits with the fewest spots, then the fewest runs; ``extra``: the spots the sets
    give, ``held``: the cards of the sets (never a spot)."""
    if len(splits) == 1:
        return splits
    keys = [(((spots | extra) & ~held).bit_count(), len(runs)) for spots, _, runs in splits]
    least = min(keys)
    return tuple(split for split, key in zip(splits, keys, strict=True) if key == least)


def _fewest_plain(suit: int, p: int) -> tuple[_Split, ...]:
    got = _FEWEST[suit << 13 | p] = _fewest(_SPLITS[suit << 13 | p] or _splits(suit, p), 0, 0)
    return got


def knock_layout(mask: int) -> tuple[tuple[int, ...], int, int, int]:
    """The knocker's default arrangement of ``mask`` (see :func:`default_knock_arrangement`)
    as ``(melds in order, deadwood mask, deadwood, spots)``, where ``spots`` are the cards
    outside ``mask`` that an opponent could lay off directly on those melds."""
    a = mask & 8191
    b = mask >> 13 & 8191
    c = mask >> 26 & 8191
    d = mask >> 39
    t = (a & b & (c | d)) | (c & d & (a | b))
    r = RUN_DEADWOOD
    if not t:
        fewest = _FEWEST
        fa = fewest[a] or _fewest_plain(0, a)
        fb = fewest[8192 | b] or _fewest_plain(1, b)
        fc = fewest[16384 | c] or _fewest_plain(2, c)
        fd = fewest[24576 | d] or _fewest_plain(3, d)
        if len(fa) == 1 and len(fb) == 1 and len(fc) == 1 and len(fd) == 1:
            sa, ca, ra = fa[0]
            sb, cb, rb = fb[0]
            sc, cc, rc = fc[0]
            sd, cd, rd = fd[0]
            runs = ra + rb + rc + rd
            if len(runs) > 1:
                runs = tuple(sorted(runs, key=_MELD_ORDER.__getitem__))
            return (
                runs,
                mask & ~(ca | cb | cc | cd),
                r[a] + r[b] + r[c] + r[d],
                sa | sb | sc | sd,
            )
        choices: Iterable[tuple[int, int, int, int]] = ((8191, 8191, 8191, 8191),)
        least = r[a] + r[b] + r[c] + r[d]
    elif not (a & b & c & d):
        # Only three-card ranks, each a set or not (as in melds._three_card_hits): most such
        # hands have one set choice reaching the least deadwood, and each suit's rest one
        # split with the fewest spots.
        least = r[a] + r[b] + r[c] + r[d]
        hits = [0]
        q = t
        while q:
            n = ~q
            v = r[a & n] + r[b & n] + r[c & n] + r[d & n]
            if v < least:
                least = v
                hits = [q]
            elif v == least:
                hits.append(q)
            q = (q - 1) & t
        if len(hits) == 1:
            q = hits[0]
            n = ~q
            xa = a & n
            xb = b & n
            xc = c & n
            xd = d & n
            set_ranks = q * 0x8004002001  # the ranks of q in every suit
            removed = mask & set_ranks
            splits = _SPLITS
            fa = splits[xa] or _splits(0, xa)
            fb = splits[8192 | xb] or _splits(1, xb)
            fc = splits[16384 | xc] or _splits(2, xc)
            fd = splits[24576 | xd] or _splits(3, xd)
            if len(fa) == 1 and len(fb) == 1 and len(fc) == 1 and len(fd) == 1:
                sa, ca, ra = fa[0]
                sb, cb, rb = fb[0]
                sc, cc, rc = fc[0]
                sd, cd, rd = fd[0]
                runs = ra + rb + rc + rd
                if len(runs) > 1:
                    runs = tuple(sorted(runs, key=_MELD_ORDER.__getitem__))
                sets = []
                while q:  # sets first, by rank
                    low = q & -q
                    q ^= low
                    sets.append(mask & RANK_MASK[low.bit_length() - 1])
                return (
                    (*sets, *runs),
                    mask & ~(ca | cb | cc | cd | removed),
                    least,
                    (set_ranks | sa | sb | sc | sd) & ~mask,
                )
        choices = [(n, n, n, n) for n in [8191 ^ h for h in hits]]
    else:
        choices = _choices(a, b, c, d, t)
        least = min_deadwood(mask)
    best: tuple[int, int, tuple[int, ...], int, int] | None = None
    splits = _SPLITS
    order = _MELD_ORDER.__getitem__
    for ka, kb, kc, kd in choices:
        xa = a & ka
        xb = b & kb
        xc = c & kc
        xd = d & kd
        if r[xa] + r[xb] + r[xc] + r[xd] != least:
            continue
        covered = mask & ~(xa | xb << 13 | xc << 26 | xd << 39)  # the cards in sets
        q = (covered | covered >> 13 | covered >> 26 | covered >> 39) & 8191
        set_ranks = q * 0x8004002001  # the ranks of the sets in every suit
        extra = set_ranks & ~mask  # the sets' spots: the cards of their ranks the hand lacks
        sets: list[int] = []
        while q:  # sets first, by rank
            low = q & -q
            q ^= low
            sets.append(covered & RANK_MASK[low.bit_length() - 1])
        fa = splits[xa] or _splits(0, xa)
        fb = splits[8192 | xb] or _splits(1, xb)
        fc = splits[16384 | xc] or _splits(2, xc)
        fd = splits[24576 | xd] or _splits(3, xd)
        if len(fa) == 1 and len(fb) == 1 and len(fc) == 1 and len(fd) == 1:
            sa, ca, ra = fa[0]
            sb, cb, rb = fb[0]
            sc, cc, rc = fc[0]
            sd, cd, rd = fd[0]
            runs = ra + rb + rc + rd
            if len(runs) > 1:
                runs = tuple(sorted(runs, key=order))
            melds = (*sets, *runs)
            spots = (extra | sa | sb | sc | sd) & ~mask
            key = (spots.bit_count(), len(melds), melds, spots, covered | ca | cb | cc | cd)
            if best is None or key[:3] < best[:3]:
                best = key
            continue
        per_suit = [_fewest(f, extra, covered) for f in (fa, fb, fc, fd)]
        for parts in product(*per_suit):
            spots = extra
            cov = covered
            runs = ()
            for s, c_, rs in parts:
                spots |= s
                cov |= c_
                runs += rs
            if len(runs) > 1:
                runs = tuple(sorted(runs, key=order))
            melds = (*sets, *runs)
            spots &= ~mask
            key = (spots.bit_count(), len(melds), melds, spots, cov)
            if best is None or key[:3] < best[:3]:
                best = key
    assert best is not None
    return best[2], mask & ~best[4], least, best[3]


def default_knock_arrangement(mask: int) -> Arrangement:
    """The knocker's arrangement when none is declared: minimum deadwood, and among those the
    one that gives an opponent the fewest places to lay off (judged from the knocker's own
    cards only, never from the defender's hand); among equals, the first of
    :func:`~ginrummy.melds.all_arrangements` (fewest melds, then melds in order)."""
    melds, dead_mask, dead, _ = knock_layout(mask)
    return Arrangement._made(melds, dead_mask, dead)


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
    if count != 10 and not big:
        raise IllegalMoveError(
            f"the knocker must show 10 cards (or 11 for big gin), not {count}"
        )
    if big and not rules.big_gin:
        raise IllegalMoveError(f"big gin is not played under {rules.describe()}")
    if melds is None and not big:
        k_melds, k_dead_mask, k_dw, spots = knock_layout(knocker)
    else:
        if melds is None:
            arrangement = best_arrangement(knocker)
        else:
            try:
                arrangement = declared_arrangement(knocker, melds)
            except ValueError as exc:
                raise IllegalMoveError(f"Invalid melds: {exc}.") from None
        k_melds = arrangement.meld_masks
        k_dead_mask = arrangement.deadwood_mask
        k_dw = arrangement.deadwood
        spots = layoff_spots(k_melds, knocker)
        if big and k_dw:
            raise IllegalMoveError(
                f"big gin needs all eleven cards melded; {mask_text(k_dead_mask)} "
                "are left over"
            )
    if k_dw > knock_limit:
        limit = "gin only" if knock_limit == 0 else f"at most {knock_limit}"
        raise IllegalMoveError(
            f"You cannot knock with {k_dw} deadwood: the knock limit is {limit}."
        )
    layoffs = 0
    if big or k_dw == 0:
        d_dw = min_deadwood(defender)
        kind: ResultKind = "big_gin" if big else "gin"
        bonus = rules.big_gin_bonus if big else rules.gin_bonus
        points = d_dw + bonus
        winner: Literal["knocker", "defender"] = "knocker"
    else:
        d_dw = min_deadwood(defender)
        spot = spots & defender
        if spot:
            if spot & (spot - 1) or (spot << 1 | spot >> 1) & defender & _SAME_SUIT[spot]:
                # Several cards to lay off (or a chain of them): try every choice.
                d_dw, layoffs = best_layoff_mask(k_melds, defender)
            elif not _CLOSE[spot] & defender:
                # One card, which melds with nothing the defender holds (it has no card of
                # its rank, nor of its suit one rank away): laying it off takes its points.
                layoffs = spot
                d_dw -= _SPOT_VALUE[spot]
            else:
                left = min_deadwood(defender ^ spot)
                if left < d_dw:
                    layoffs = spot
                    d_dw = left
        if k_dw < d_dw:
            kind, winner, bonus, points = "knock", "knocker", 0, d_dw - k_dw
        else:
            bonus = rules.undercut_bonus
            kind, winner, points = "undercut", "defender", k_dw - d_dw + bonus
    # Built without the dataclass's __init__ (sixteen checked assignments); the melds and
    # deadwood cards are made when first read (see _Lazy).
    out = _new_result(HandResult)
    out.__dict__.update(
        kind=kind,
        winner=winner,
        points=points * multiplier,
        knocker_seat=knocker_seat,
        winner_seat=knocker_seat if winner == "knocker" else 1 - knocker_seat,
        knocker_deadwood=k_dw,
        defender_deadwood=d_dw,
        layoffs=tuple(cards_of_mask(layoffs)) if layoffs else (),
        knock_discard=None if knock_discard is None else Card(knock_discard),
        multiplier=multiplier,
        knock_limit=knock_limit,
        bonus=bonus,
        _lazy=(k_melds, k_dead_mask, defender & ~layoffs),
    )
    return out


#: By a card's bit: the suit's 13 bits; the cards of its rank and its suit one rank away
#: (every meld through it holds one of them); its points.
_SAME_SUIT = {1 << card: SUIT_MASK << card // 13 * 13 for card in range(52)}
_CLOSE = {1 << card: MELD_NEIGHBOURS[card][0] | MELD_NEIGHBOURS[card][1] for card in range(52)}
_SPOT_VALUE = {1 << card: CARD_VALUE[card] for card in range(52)}

_new_result = object.__new__
_new_card_set = object.__new__


def _card_set(mask: int) -> CardSet:
    out: CardSet = _new_card_set(CardSet)
    out.mask = mask
    return out


class _Lazy:
    """A field of a :class:`HandResult` made by :func:`settle` that is worked out when first
    read, then kept in the instance (which takes precedence over this class attribute): the
    knocker's melds and deadwood cards, and the defender's arrangement after the layoffs."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __get__(self, obj: object, owner: type | None = None) -> object:
        if obj is None:
            return self
        fields = obj.__dict__
        k_melds, k_dead_mask, d_rest = fields["_lazy"]
        if self.name.startswith("knocker"):
            fields["knocker_melds"] = tuple([_card_set(m) for m in k_melds])
            fields["knocker_deadwood_cards"] = _card_set(k_dead_mask)
        else:
            d_arr = best_arrangement(d_rest)
            fields["defender_melds"] = tuple([_card_set(m) for m in d_arr.meld_masks])
            fields["defender_deadwood_cards"] = _card_set(d_arr.deadwood_mask)
        return fields[self.name]


for _name in ("knocker_melds", "knocker_deadwood_cards", "defender_melds",
              "defender_deadwood_cards"):
    setattr(HandResult, _name, _Lazy(_name))
del _name


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
    rule_set = rules if rules.__class__ is RuleSet else get_rules(rules)
    k = knocker.mask if knocker.__class__ is CardSet else to_mask(knocker, what="knocker's hand")
    d = (
        defender.mask if defender.__class__ is CardSet
        else to_mask(defender, what="defender's hand")
    )
    if d.bit_count() != 10:
        raise IllegalMoveError(f"the defender must show 10 cards, not {d.bit_count()}")
    if k & d:
        raise InvalidCardError(f"{mask_text(k & d)} is in both hands")
    if upcard is None and melds is None and not rule_set.oklahoma:  # the common call
        return settle(k, d, rule_set, knock_limit=rule_set.knock_limit)
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
