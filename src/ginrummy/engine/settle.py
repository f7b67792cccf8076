"""Scoring one hand's ending: knock, undercut, gin and big gin, with the defender's layoffs.

This is the single place where a hand's score is computed; :class:`ginrummy.engine.hand.Hand`, the
public :func:`settle_hand` and every table call it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from itertools import product
from typing import Literal

from mypy_extensions import mypyc_attr

from .cards import (
    RANK_MASK,
    SUIT_MASK,
    Card,
    CardSet,
    CardsLike,
    cards_of_mask,
    fast_mask,
    mask_text,
    to_mask,
)
from .errors import IllegalMoveError, InvalidCardError
from .melds import (
    LAYOFF_LINES,
    MELD_NEIGHBOURS,
    MELD_ORDER,
    RUN_DEADWOOD,
    Arrangement,
    best_arrangement,
    best_layoff_mask,
    best_three_card_choice,
    declared_arrangement,
    layoff_spots,
    mask_value,
    min_deadwood,
    run_parts,
    set_choice_keeps,
)
from .rules import RuleSet, RulesLike, get_rules

__all__ = [
    "HandResult",
    "settle",
    "settle_hand",
    "default_knock_arrangement",
    "knock_layout",
    "layout_melds",
    "parse_melds",
]

ResultKind = Literal["knock", "undercut", "gin", "big_gin", "cancelled"]


@mypyc_attr(native_class=False)  # an ordinary class, compiled or not (docs/architecture.md)
@dataclass(frozen=True)
class HandResult:
    """How a hand ended and what it scored.

    ``winner`` is ``"knocker"`` or ``"defender"`` (``None`` when cancelled); ``points`` already
    include bonuses and Oklahoma's doubling. Deadwood counts are the knocker's declared count and
    the defender's count after layoffs. Seats are 0 or 1 (``settle_hand`` calls the knocker 0).

    A result made by :func:`settle` has its scores at once and makes the cards laid off, the
    melds and the deadwood cards when they are first read; it reads, compares and copies as
    one built field by field.
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
#: order of :func:`~ginrummy.engine.melds.run_parts`), all shifted into ``suit``.
_Split = tuple[int, int, tuple[int, ...]]
_SPLITS: list[tuple[_Split, ...]] = [()] * (4 << 13)
#: ``_FEWEST[suit << 13 | p]``, filled as patterns come up: the splits of ``_SPLITS`` with the
#: fewest spots, then the fewest runs, when the hand's sets add no spot to the suit.
_FEWEST: list[tuple[_Split, ...]] = [()] * (4 << 13)


def _splits(suit: int, p: int) -> tuple[_Split, ...]:
    held = p << 13 * suit
    out = []
    for runs in run_parts(suit, p):
        spots = covered = 0
        for m in runs:
            covered |= m
            for line in LAYOFF_LINES[m]:
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


#: ``_FEW_SPOTS[p]``, filled as patterns come up (-2: not yet): the spots of suit pattern
#: ``p``'s split with the fewest spots, then runs (unshifted), when the hand's sets add no
#: spot to the suit; -1 when two splits tie. ``_ONE_SPOTS[p]``: the spots of its split when
#: it splits into runs one way only; -1 otherwise.
_FEW_SPOTS: list[int] = [-2] * 8192
_ONE_SPOTS: list[int] = [-2] * 8192


def _fill_spots(*patterns: int) -> None:
    for p in patterns:
        splits = _SPLITS[p] or _splits(0, p)
        few = _fewest(splits, 0, 0)
        _FEW_SPOTS[p] = few[0][0] if len(few) == 1 else -1
        _ONE_SPOTS[p] = splits[0][0] if len(splits) == 1 else -1


#: A knocker's layout: ``(deadwood, spots, cards in sets, melds, deadwood mask)``, the last
#: two ``None`` when each suit's rest has one best split (see :func:`layout_melds`).
Layout = tuple[int, int, int, tuple[int, ...] | None, int | None]


def knock_layout(mask: int) -> Layout:
    """The knocker's default arrangement of ``mask`` (see :func:`default_knock_arrangement`)
    in short: ``(deadwood, spots, cards in sets, melds, deadwood mask)``, where ``spots`` are
    the cards outside ``mask`` that an opponent could lay off directly on the melds. The
    melds and deadwood mask are ``None`` when they follow from the cards in sets (most
    hands; then :func:`layout_melds` works them out): settling needs them only when the
    defender holds more than one spot, or when the result's melds are read."""
    a = mask & 8191
    b = mask >> 13 & 8191
    c = mask >> 26 & 8191
    d = mask >> 39
    t = (a & b & (c | d)) | (c & d & (a | b))
    r = RUN_DEADWOOD
    if not t:
        few = _FEW_SPOTS
        sa = few[a]
        sb = few[b]
        sc = few[c]
        sd = few[d]
        if (sa | sb | sc | sd) >= 0:
            return r[a] + r[b] + r[c] + r[d], sa | sb << 13 | sc << 26 | sd << 39, 0, None, None
        if -2 in (sa, sb, sc, sd):
            _fill_spots(a, b, c, d)
            return knock_layout(mask)
        least = r[a] + r[b] + r[c] + r[d]
        choices: list[tuple[int, int, int, int]] = [(8191, 8191, 8191, 8191)]
    elif not (a & b & c & d):
        # Only three-card ranks, each a set or not (as in melds._three_card_hits).
        least, hit, ties = best_three_card_choice(a, b, c, d, t)
        if not ties:
            # One set choice reaches the least deadwood (most such hands): when each suit's
            # rest splits into runs one way, that is the arrangement.
            n = ~hit
            one = _ONE_SPOTS
            sa = one[a & n]
            sb = one[b & n]
            sc = one[c & n]
            sd = one[d & n]
            if (sa | sb | sc | sd) >= 0:
                set_ranks = hit * 0x8004002001  # the ranks of the sets in every suit
                return (
                    least,
                    (set_ranks | sa | sb << 13 | sc << 26 | sd << 39) & ~mask,
                    mask & set_ranks,
                    None,
                    None,
                )
            if -2 in (sa, sb, sc, sd):
                _fill_spots(a & n, b & n, c & n, d & n)
                return knock_layout(mask)
        choices = []
        q = t
        while True:  # every choice reaching the least deadwood, the one with no sets first
            n = ~(q ^ t)
            if r[a & n] + r[b & n] + r[c & n] + r[d & n] == least:
                choices.append((n, n, n, n))
            if not q:
                break
            q = (q - 1) & t
    else:
        rows = [
            (r[a & ka] + r[b & kb] + r[c & kc] + r[d & kd], ka, kb, kc, kd)
            for ka, kb, kc, kd in set_choice_keeps(a, b, c, d, t)
        ]
        least = min(rows)[0]
        choices = [(ka, kb, kc, kd) for v, ka, kb, kc, kd in rows if v == least]
        if len(choices) == 1:
            ka, kb, kc, kd = choices[0]
            one = _ONE_SPOTS
            xa = a & ka
            xb = b & kb
            xc = c & kc
            xd = d & kd
            sa = one[xa]
            sb = one[xb]
            sc = one[xc]
            sd = one[xd]
            if (sa | sb | sc | sd) >= 0:
                in_sets = mask & ~(xa | xb << 13 | xc << 26 | xd << 39)
                q = (in_sets | in_sets >> 13 | in_sets >> 26 | in_sets >> 39) & 8191
                return (
                    least,
                    (q * 0x8004002001 | sa | sb << 13 | sc << 26 | sd << 39) & ~mask,
                    in_sets,
                    None,
                    None,
                )
            if -2 in (sa, sb, sc, sd):
                _fill_spots(xa, xb, xc, xd)
                return knock_layout(mask)
    splits = _SPLITS
    # Several set choices, or a suit with several splits: compare whole arrangements in the
    # order of all_arrangements.
    best: tuple[int, int, tuple[int, ...], int, int] | None = None
    order = MELD_ORDER.__getitem__
    for ka, kb, kc, kd in choices:
        xa = a & ka
        xb = b & kb
        xc = c & kc
        xd = d & kd
        covered = mask & ~(xa | xb << 13 | xc << 26 | xd << 39)  # the cards in sets
        q = (covered | covered >> 13 | covered >> 26 | covered >> 39) & 8191
        extra = q * 0x8004002001 & ~mask  # the sets' spots: the cards of their ranks not held
        sets: list[int] = []
        while q:  # sets first, by rank
            low = q & -q
            q ^= low
            sets.append(covered & RANK_MASK[low.bit_length() - 1])
        per_suit = [
            _fewest(splits[suit << 13 | x] or _splits(suit, x), extra, covered)
            for suit, x in enumerate((xa, xb, xc, xd))
        ]
        for parts in product(*per_suit):
            spots = extra
            cov = covered
            runs: tuple[int, ...] = ()
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
    return least, best[3], 0, best[2], mask & ~best[4]


def layout_melds(mask: int, in_sets: int) -> tuple[tuple[int, ...], int]:
    """``(melds, deadwood mask)`` of the layout of ``mask`` whose sets hold the cards
    ``in_sets``, each suit's rest split the one best way (a layout of :func:`knock_layout`
    without its melds). The melds are not always in an arrangement's order."""
    q = (in_sets | in_sets >> 13 | in_sets >> 26 | in_sets >> 39) & 8191
    extra = q * 0x8004002001 & ~mask
    melds: list[int] = []
    while q:  # sets first, by rank
        low = q & -q
        q ^= low
        melds.append(in_sets & RANK_MASK[low.bit_length() - 1])
    covered = in_sets
    rest = mask & ~in_sets
    splits = _SPLITS
    for suit in (0, 8192, 16384, 24576):
        x = rest & 8191
        rest >>= 13
        found = splits[suit | x] or _splits(suit >> 13, x)
        if len(found) > 1:
            found = _fewest(found, extra, in_sets)
        (_, cov, runs), = found
        melds += runs
        covered |= cov
    return tuple(melds), mask & ~covered


def _in_order(melds: tuple[int, ...]) -> tuple[int, ...]:
    """Melds in an arrangement's order: sets by rank, then runs by lowest rank and suit."""
    return tuple(sorted(melds, key=MELD_ORDER.__getitem__)) if len(melds) > 1 else melds


def default_knock_arrangement(mask: int) -> Arrangement:
    """The knocker's arrangement when none is declared: minimum deadwood, and among those the
    one that gives an opponent the fewest places to lay off (judged from the knocker's own
    cards only, never from the defender's hand); among equals, the first of
    :func:`~ginrummy.engine.melds.all_arrangements` (fewest melds, then melds in order)."""
    dead, _, in_sets, melds, dead_mask = knock_layout(mask)
    if melds is None or dead_mask is None:
        melds, dead_mask = layout_melds(mask, in_sets)
    return Arrangement._made(_in_order(melds), dead_mask, dead)


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
    k_melds: tuple[int, ...] | None
    k_dead_mask: int | None
    in_sets = 0
    if melds is None and not big:
        k_dw, spots, in_sets, k_melds, k_dead_mask = knock_layout(knocker)
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
            # Cards that meld with nothing the defender holds (no card of their rank, nor of
            # their suit one rank away, so no chain of layoffs either) are deadwood in every
            # arrangement: laying them all off takes their points, the best choice for them.
            # The others may be worth keeping in the defender's own melds: try them.
            free = 0
            q = spot
            while q:
                low = q & -q
                q ^= low
                if not _CLOSE[low] & defender:
                    free |= low
            if free:
                layoffs = free
                d_dw -= mask_value(free)
            other = spot ^ free
            if not other:
                pass
            elif other & (other - 1) or _chains(other, knocker, defender):
                # Several such cards, or a chain of them: try every choice.
                if k_melds is None:
                    k_melds, k_dead_mask = layout_melds(knocker, in_sets)
                d_dw, laid = best_layoff_mask(k_melds, defender ^ free)
                layoffs |= laid
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
    # Built without the dataclass's __init__ (sixteen checked assignments); the cards laid
    # off, the melds and the deadwood cards are made when first read (see _Lazy).
    out = _new_result(HandResult)
    _set_fields(out, "__dict__", {
        "kind": kind,
        "winner": winner,
        "points": points * multiplier,
        "knocker_seat": knocker_seat,
        "winner_seat": knocker_seat if winner == "knocker" else 1 - knocker_seat,
        "knocker_deadwood": k_dw,
        "defender_deadwood": d_dw,
        "knock_discard": None if knock_discard is None else Card(knock_discard),
        "multiplier": multiplier,
        "knock_limit": knock_limit,
        "bonus": bonus,
        "_lazy": (knocker, in_sets, k_melds, k_dead_mask, defender, layoffs),
    })
    return out


#: By a card's bit: the suit's 13 bits; the cards of its rank and its suit one rank away
#: (every meld through it holds one of them).
_SAME_SUIT = {1 << card: SUIT_MASK << card // 13 * 13 for card in range(52)}
_CLOSE = {1 << card: MELD_NEIGHBOURS[card][0] | MELD_NEIGHBOURS[card][1] for card in range(52)}



def _chains(card: int, knocker: int, defender: int) -> int:
    """Nonzero when the defender could lay off a chain from ``card`` (a bit): it lies next to a
    card of the knocker's on one side (perhaps a run's end) and of the defender's on the
    other, in its suit."""
    suit = _SAME_SUIT[card]
    up = card << 1 & suit
    down = card >> 1 & suit
    return (down & knocker and up & defender) or (up & knocker and down & defender)


_new_result = object.__new__
_set_fields = object.__setattr__
_new_card_set = object.__new__


def _card_set(mask: int) -> CardSet:
    out: CardSet = _new_card_set(CardSet)
    out.mask = mask
    return out


@mypyc_attr(native_class=False)  # a descriptor that writes the instance's __dict__
class _Lazy:
    """A field of a :class:`HandResult` made by :func:`settle` that is worked out when first
    read, then kept in the instance (which takes precedence over this class attribute): the
    cards laid off, the knocker's melds and deadwood cards, and the defender's arrangement
    after the layoffs."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __get__(self, obj: object, owner: type | None = None) -> object:
        if obj is None:
            return self
        fields = obj.__dict__
        knocker, in_sets, k_melds, k_dead_mask, defender, layoffs = fields["_lazy"]
        if self.name == "layoffs":
            fields["layoffs"] = tuple(cards_of_mask(layoffs))
        elif self.name.startswith("knocker"):
            if k_melds is None or k_dead_mask is None:
                k_melds, k_dead_mask = layout_melds(knocker, in_sets)
            fields["knocker_melds"] = tuple([_card_set(m) for m in _in_order(k_melds)])
            fields["knocker_deadwood_cards"] = _card_set(k_dead_mask)
        else:
            d_arr = best_arrangement(defender & ~layoffs)
            fields["defender_melds"] = tuple([_card_set(m) for m in d_arr.meld_masks])
            fields["defender_deadwood_cards"] = _card_set(d_arr.deadwood_mask)
        return fields[self.name]


for _name in ("layoffs", "knocker_melds", "knocker_deadwood_cards", "defender_melds",
              "defender_deadwood_cards"):
    setattr(HandResult, _name, _Lazy(_name))
del _name


def parse_melds(melds: object) -> list[int]:
    """Declared melds as masks: a list of melds (each text or cards), or one text where melds
    are separated by spaces, commas or ``|`` and a meld's cards are written together or joined
    with ``-`` (``"7c7d7s 8h-9h-Th"``). Anything else raises :class:`InvalidCardError`.

    (Typed ``object``: compiled, a narrower annotation would refuse other input with a
    ``TypeError`` before the first line.)"""
    if isinstance(melds, str):
        tokens = [t for t in melds.replace("|", " ").replace(",", " ").split() if t]
        return [to_mask(t.replace("-", ""), what="meld") for t in tokens]
    if not isinstance(melds, Iterable):
        raise InvalidCardError(
            "declared melds are text such as '7c7d7s 8h9hTh' or a list of melds, "
            f"not {type(melds).__name__}"
        )
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
    # The common forms through cards.fast_mask; anything else through to_mask, which says
    # what is wrong.
    k = knocker.mask if knocker.__class__ is CardSet else fast_mask(knocker)
    if k < 0:
        k = to_mask(knocker, what="knocker's hand")
    d = defender.mask if defender.__class__ is CardSet else fast_mask(defender)
    if d < 0:
        d = to_mask(defender, what="defender's hand")
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
