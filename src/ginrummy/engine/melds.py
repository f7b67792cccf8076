"""The meld solver: minimum deadwood, best arrangements, knock discards and layoffs.

Everything here works on int masks (see :mod:`ginrummy.engine.cards`). The idea that makes it fast:
a hand's only choice that couples the suits is which ranks it plays as sets. Fix that choice and
each suit's remaining 13-bit pattern is independent, so its best runs are one lookup in
:data:`RUN_DEADWOOD`, a table of all 8,192 suit patterns built at import. Ranks with fewer than
three cards can never be sets, so most hands have no choice at all and cost four lookups.

>>> from ginrummy.engine.cards import to_mask
>>> min_deadwood(to_mask("7s 7h 7c 8s 9s"))
14
>>> min_deadwood(to_mask("7s 7h 7c 7d 8s 9s"))
0

The geometry of melds around one card, as tables computed once: :func:`meld_neighbours` (the
cards that meld with it: same rank, same suit one away, two away), :data:`START_PARTNERS` (the
cards that make a two-card start with it) and :func:`melds_with` (does it complete a meld with
cards of a mask).

>>> from ginrummy.engine.cards import Card, mask_text
>>> same_rank, near, far = meld_neighbours(Card.parse("7h"))
>>> mask_text(same_rank), mask_text(near), mask_text(far)
('7c7d7s', '6h8h', '5h9h')
>>> close, gapped = START_PARTNERS[Card.parse("Ah")]
>>> mask_text(close), mask_text(gapped)
('AcAd2hAs', '3h')
>>> seven = Card.parse("7h")
>>> melds_with(to_mask("5h 6h Kc"), seven), melds_with(to_mask("5h Kc"), seven)
(True, False)
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import product
from typing import Final

from mypy_extensions import mypyc_attr

from .cards import CARD_VALUE, RANK_MASK, SUIT_MASK, CardSet, mask_text

__all__ = [
    "RUN_DEADWOOD",
    "ALL_MELDS",
    "min_deadwood",
    "deadwood_after_discard",
    "discard_deadwoods",
    "best_discard_deadwood",
    "best_discard",
    "draw_deadwoods",
    "best_arrangement",
    "all_arrangements",
    "only_arrangement",
    "Arrangement",
    "is_meld",
    "is_run",
    "is_set",
    "declared_arrangement",
    "layoff_candidates",
    "best_layoffs",
    "best_layoff_mask",
    "layoff_deadwood",
    "layoff_spots",
    "layoff_lines",
    "mask_value",
    "meld_neighbours",
    "melds_with",
    "MELD_NEIGHBOURS",
    "START_PARTNERS",
]

_SUIT_BITS: Final = 13
#: Deadwood value by rank (a suit block's values): the first suit of the card value table.
_RANK_VALUE: Final[tuple[int, ...]] = CARD_VALUE[:13]
#: Larger than any deadwood; marks "no card to discard" in the drop table.
_NO_DROP: Final = 1 << 20


def _build_run_tables() -> tuple[list[int], list[int], list[int]]:
    """Minimum deadwood of every suit pattern using runs only; value sums; best single drop.

    ``run_dw[p]`` is built from smaller patterns: the lowest card of ``p`` is either deadwood
    or the first card of a run, and removing cards only makes the pattern number smaller.
    """
    size = 1 << _SUIT_BITS
    run_dw = [0] * size
    value = [0] * size
    for p in range(1, size):
        low = p & -p
        i = low.bit_length() - 1
        rest = p ^ low
        value[p] = value[rest] + _RANK_VALUE[i]
        best = _RANK_VALUE[i] + run_dw[rest]
        run = low
        length = 1
        while i + length < _SUIT_BITS and p >> (i + length) & 1:
            run |= 1 << (i + length)
            length += 1
            if length >= 3:
                cand = run_dw[p & ~run]
                if cand < best:
                    best = cand
        run_dw[p] = best
    drop = [_NO_DROP] * size
    for p in range(1, size):
        base = run_dw[p]
        best = _NO_DROP
        q = p
        while q:
            low = q & -q
            q ^= low
            cand = run_dw[p ^ low] - base
            if cand < best:
                best = cand
        drop[p] = best
    return run_dw, value, drop


#: RUN_DEADWOOD[p]: least deadwood of the 13-bit suit pattern p when only runs may be melded.
_RUN_TABLES = _build_run_tables()
RUN_DEADWOOD: Final[list[int]] = _RUN_TABLES[0]
SUIT_VALUE: Final[list[int]] = _RUN_TABLES[1]
BEST_DROP: Final[list[int]] = _RUN_TABLES[2]


def _build_all_melds() -> tuple[int, ...]:
    melds: list[int] = []
    for rank in range(13):
        bits = [1 << (suit * 13 + rank) for suit in range(4)]
        full = sum(bits)
        melds.append(full)
        melds.extend(full ^ b for b in bits)
    for suit in range(4):
        for start in range(13):
            for end in range(start + 3, 14):
                melds.append(((1 << (end - start)) - 1) << (suit * 13 + start))
    return tuple(melds)


#: Every legal meld as a mask: 65 sets and 264 runs.
ALL_MELDS: Final[tuple[int, ...]] = _build_all_melds()
_MELD_SET: Final = frozenset(ALL_MELDS)


def mask_value(mask: int) -> int:
    """Sum of the card values in a mask (deadwood if none of them is melded)."""
    return (
        SUIT_VALUE[mask & SUIT_MASK]
        + SUIT_VALUE[mask >> 13 & SUIT_MASK]
        + SUIT_VALUE[mask >> 26 & SUIT_MASK]
        + SUIT_VALUE[mask >> 39]
    )


def is_meld(mask: int) -> bool:
    """True when the cards form one legal set or run."""
    return mask in _MELD_SET


def is_set(mask: int) -> bool:
    """True for three or four cards of one rank."""
    if mask not in _MELD_SET:
        return False
    low = (mask & -mask).bit_length() - 1
    return not mask >> (low + 1) & 1 or low // 13 != (low + 1) // 13


def is_run(mask: int) -> bool:
    """True for three or more consecutive cards of one suit."""
    return mask in _MELD_SET and not is_set(mask)


# ---------------------------------------------------------------------------------------------
# Geometry around one card.


def _build_neighbours() -> tuple[tuple[int, int, int], ...]:
    out = []
    for card in range(52):
        rank = card % 13
        same_rank = RANK_MASK[rank] & ~(1 << card)
        near = far = 0
        if rank > 0:
            near |= 1 << (card - 1)
        if rank < 12:
            near |= 1 << (card + 1)
        if rank > 1:
            far |= 1 << (card - 2)
        if rank < 11:
            far |= 1 << (card + 2)
        out.append((same_rank, near, far))
    return tuple(out)


#: ``MELD_NEIGHBOURS[card]``: ``(same rank, same suit one rank away, same suit two ranks
#: away)`` as masks: every card that can share a meld with ``card`` in a three-card meld.
MELD_NEIGHBOURS: Final[tuple[tuple[int, int, int], ...]] = _build_neighbours()

#: ``START_PARTNERS[card]``: ``(close, gapped)`` masks of the cards that make a two-card start
#: with ``card``: close (same rank, or same suit one rank away: either of two cards completes
#: it) and gapped (same suit two ranks away: only the card between does).
START_PARTNERS: Final[tuple[tuple[int, int], ...]] = tuple(
    (same_rank | near, far) for same_rank, near, far in MELD_NEIGHBOURS
)


def meld_neighbours(card: int) -> tuple[int, int, int]:
    """Masks of the cards that meld with ``card``: same rank; same suit one away; two away."""
    return MELD_NEIGHBOURS[card]


def melds_with(mask: int, card: int) -> bool:
    """True when ``card`` completes a meld with two other cards of ``mask`` (a set of its rank
    or a run through it; every longer meld through a card holds a three-card one through it).
    """
    rank = card % 13
    others = mask & ~(1 << card)
    if (RANK_MASK[rank] & others).bit_count() >= 2:
        return True
    suit = card - rank
    pattern = (others >> suit & SUIT_MASK) | 1 << rank
    # A run through `rank`: three consecutive bits of the suit containing it (written out: this
    # runs in every playout step).
    if rank >= 2 and pattern >> (rank - 2) & 7 == 7:
        return True
    if 1 <= rank <= 11 and pattern >> (rank - 1) & 7 == 7:
        return True
    return rank <= 10 and pattern >> rank & 7 == 7


# ---------------------------------------------------------------------------------------------
# Set choices.


def _rank_options(rank: int, a: int, b: int, c: int, d: int) -> list[tuple[int, int, int, int]]:
    """Ways to play one rank held three or four times: per-suit bits removed as a set."""
    bit = 1 << rank
    held = (a & bit, b & bit, c & bit, d & bit)
    options: list[tuple[int, int, int, int]] = [(0, 0, 0, 0), held]
    if all(held):
        for keep in range(4):
            options.append(
                (
                    0 if keep == 0 else bit,
                    0 if keep == 1 else bit,
                    0 if keep == 2 else bit,
                    0 if keep == 3 else bit,
                )
            )
    return options


def _build_rank_option_table() -> tuple[tuple[tuple[tuple[int, int, int, int], ...], ...], ...]:
    """``[rank][held]``: :func:`_rank_options` for every rank and every 4-bit pattern of the
    suits holding it (bit 0 = clubs ... bit 3 = spades), computed once."""
    table = []
    for rank in range(13):
        bit = 1 << rank
        row = []
        for held in range(16):
            suits = [bit if held >> s & 1 else 0 for s in range(4)]
            row.append(tuple(_rank_options(rank, *suits)))
        table.append(tuple(row))
    return tuple(table)


_RANK_OPTIONS: Final = _build_rank_option_table()


def _set_choices(a: int, b: int, c: int, d: int, t: int) -> Iterator[tuple[int, int, int, int]]:
    """Every choice of sets, as the per-suit bits the sets remove."""
    per_rank = []
    while t:
        low = t & -t
        t ^= low
        rank = low.bit_length() - 1
        per_rank.append(_RANK_OPTIONS[rank][
            (a >> rank & 1) | (b >> rank & 1) << 1 | (c >> rank & 1) << 2 | (d >> rank & 1) << 3
        ])
    if len(per_rank) == 1:
        yield from per_rank[0]
        return
    for combo in product(*per_rank):
        ra = rb = rc = rd = 0
        for xa, xb, xc, xd in combo:
            ra |= xa
            rb |= xb
            rc |= xc
            rd |= xd
        yield ra, rb, rc, rd


#: Set choices by the cards of the ranks a hand holds three or four times (``set_choice_keeps``):
#: filled as hands come up, and bounded by the deck (at most three such ranks in 11 cards).
_CHOICES: Final[dict[int, tuple[tuple[int, int, int, int], ...]]] = {}


def set_choice_keeps(
    a: int, b: int, c: int, d: int, t: int
) -> tuple[tuple[int, int, int, int], ...]:
    """:func:`_set_choices` as the per-suit bits each choice *keeps* (``x & keep`` is what is
    left for runs), the choice of no sets first; worked out once per pattern of the cards of
    the ranks in ``t``, which is all the choices depend on."""
    key = (a & t) | (b & t) << 13 | (c & t) << 26 | (d & t) << 39
    got = _CHOICES.get(key)
    if got is None:
        got = _CHOICES[key] = tuple(
            (8191 ^ ra, 8191 ^ rb, 8191 ^ rc, 8191 ^ rd)
            for ra, rb, rc, rd in _set_choices(a, b, c, d, t)
        )
    return got


def _sets_min(a: int, b: int, c: int, d: int, t: int) -> int:
    r = RUN_DEADWOOD
    if not (a & b & c & d):
        # Only three-card ranks: each is a set or not, so try every submask of t.
        best = r[a] + r[b] + r[c] + r[d]
        s = t
        while s:
            n = ~s
            v = r[a & n] + r[b & n] + r[c & n] + r[d & n]
            if v < best:
                best = v
            s = (s - 1) & t
        return best
    best = _NO_DROP
    for ka, kb, kc, kd in set_choice_keeps(a, b, c, d, t):
        v = r[a & ka] + r[b & kb] + r[c & kc] + r[d & kd]
        if v < best:
            best = v
    return best


def min_deadwood(mask: int) -> int:
    """Least deadwood of exactly the cards in ``mask`` (every card counted, none discarded)."""
    a = mask & 8191
    b = mask >> 13 & 8191
    c = mask >> 26 & 8191
    d = mask >> 39
    t = (a & b & (c | d)) | (c & d & (a | b))
    if not t:
        r = RUN_DEADWOOD
        return r[a] + r[b] + r[c] + r[d]
    return _sets_min(a, b, c, d, t)


def best_discard_deadwood(mask: int) -> int:
    """Least deadwood left after discarding the best card (for an 11-card hand after a draw).

    For an empty mask returns a large number.
    """
    a = mask & 8191
    b = mask >> 13 & 8191
    c = mask >> 26 & 8191
    d = mask >> 39
    t = (a & b & (c | d)) | (c & d & (a | b))
    r = RUN_DEADWOOD
    bd = BEST_DROP
    if not t:
        return r[a] + r[b] + r[c] + r[d] + min(bd[a], bd[b], bd[c], bd[d])
    best = _NO_DROP
    for ka, kb, kc, kd in set_choice_keeps(a, b, c, d, t):
        xa = a & ka
        xb = b & kb
        xc = c & kc
        xd = d & kd
        v = r[xa] + r[xb] + r[xc] + r[xd] + min(bd[xa], bd[xb], bd[xc], bd[xd])
        if v < best:
            best = v
    return best


def draw_deadwoods(mask: int, cards: Iterable[int]) -> list[int]:
    """``best_discard_deadwood(mask | 1 << card)`` for each of ``cards``, in order: the
    deadwood after drawing each card and discarding the best one.

    A drawn card whose rank the hand holds at most once changes no set choice, only its own
    suit's pattern: per set choice the other suits' run deadwood and best drop are worked out
    once, and each card costs a few lookups. Cards whose rank the hand holds twice or more
    (and cards already held) take the plain way.
    """
    a = mask & 8191
    b = mask >> 13 & 8191
    c = mask >> 26 & 8191
    d = mask >> 39
    t = (a & b & (c | d)) | (c & d & (a | b))
    # Ranks held twice or more (a card already held takes the plain way too).
    pairs = (a & b) | (a & c) | (a & d) | (b & c) | (b & d) | (c & d)
    r = RUN_DEADWOOD
    bd = BEST_DROP
    suit_of = _SUIT_OF
    rank_bit = _RANK_BIT
    per_choice = []
    for ka, kb, kc, kd in set_choice_keeps(a, b, c, d, t) if t else ((8191, 8191, 8191, 8191),):
        xa = a & ka
        xb = b & kb
        xc = c & kc
        xd = d & kd
        total = r[xa] + r[xb] + r[xc] + r[xd]
        per_choice.append((
            (xa, xb, xc, xd),
            (total - r[xa], total - r[xb], total - r[xc], total - r[xd]),
            (min(bd[xb], bd[xc], bd[xd]), min(bd[xa], bd[xc], bd[xd]),
             min(bd[xa], bd[xb], bd[xd]), min(bd[xa], bd[xb], bd[xc])),
        ))
    out = []
    if len(per_choice) == 1:
        xs, base, others = per_choice[0]
        for card in cards:
            s = suit_of[card]
            bit = rank_bit[card]
            if pairs & bit or mask >> card & 1:
                out.append(best_discard_deadwood(mask | 1 << card))
                continue
            p = xs[s] | bit
            drop = bd[p]
            other = others[s]
            out.append(base[s] + r[p] + (drop if drop < other else other))
        return out
    for card in cards:
        s = suit_of[card]
        bit = rank_bit[card]
        if pairs & bit or mask >> card & 1:
            out.append(best_discard_deadwood(mask | 1 << card))
            continue
        best = _NO_DROP
        for xs, base, others in per_choice:
            p = xs[s] | bit
            drop = bd[p]
            other = others[s]
            v = base[s] + r[p] + (drop if drop < other else other)
            if v < best:
                best = v
        out.append(best)
    return out


#: A card's suit (0 to 3) and its bit within the suit's 13-bit pattern.
_SUIT_OF: Final[tuple[int, ...]] = tuple(card // 13 for card in range(52))
_RANK_BIT: Final[tuple[int, ...]] = tuple(1 << card % 13 for card in range(52))


def deadwood_after_discard(mask: int, card: int) -> int:
    """Least deadwood of ``mask`` without ``card``."""
    return min_deadwood(mask & ~(1 << card))


#: ``_DROPS[suit << 13 | p]``, filled as patterns come up: ``(card, run deadwood of the
#: pattern without that card)`` for every card of suit pattern ``p``, low card first.
_DROPS: Final[list[tuple[tuple[int, int], ...]]] = [()] * (4 << 13)


def _suit_drops(suit: int, p: int) -> tuple[tuple[int, int], ...]:
    listed = tuple(
        (13 * suit + rank, RUN_DEADWOOD[p ^ 1 << rank]) for rank in range(13) if p >> rank & 1
    )
    _DROPS[suit << 13 | p] = listed
    return listed


def discard_deadwoods(mask: int) -> list[tuple[int, int]]:
    """``(card, least deadwood after discarding it)`` for every card of ``mask``, low card first."""
    a = mask & 8191
    b = mask >> 13 & 8191
    c = mask >> 26 & 8191
    d = mask >> 39
    t = (a & b & (c | d)) | (c & d & (a | b))
    r = RUN_DEADWOOD
    drops = _DROPS
    la = drops[a] or _suit_drops(0, a)
    lb = drops[8192 | b] or _suit_drops(1, b)
    lc = drops[16384 | c] or _suit_drops(2, c)
    ld = drops[24576 | d] or _suit_drops(3, d)
    ra = r[a]
    rb = r[b]
    rc = r[c]
    rd = r[d]
    if not t:
        total = ra + rb + rc + rd
        base = total - ra
        out = [(card, base + rest) for card, rest in la]
        base = total - rb
        out += [(card, base + rest) for card, rest in lb]
        base = total - rc
        out += [(card, base + rest) for card, rest in lc]
        base = total - rd
        out += [(card, base + rest) for card, rest in ld]
        return out
    # Possible sets: go through the set choices once. Discarding card c leaves, under a set
    # choice that does not use c, the run deadwood of the other cards; take the best choice.
    # The first choice (no sets) holds every card.
    best = [_NO_DROP] * 52
    for ka, kb, kc, kd in set_choice_keeps(a, b, c, d, t):
        xa = a & ka
        xb = b & kb
        xc = c & kc
        xd = d & kd
        ya = r[xa]
        yb = r[xb]
        yc = r[xc]
        yd = r[xd]
        total = ya + yb + yc + yd
        if xa:
            base = total - ya
            for card, rest in drops[xa] or _suit_drops(0, xa):
                v = base + rest
                if v < best[card]:
                    best[card] = v
        if xb:
            base = total - yb
            for card, rest in drops[8192 | xb] or _suit_drops(1, xb):
                v = base + rest
                if v < best[card]:
                    best[card] = v
        if xc:
            base = total - yc
            for card, rest in drops[16384 | xc] or _suit_drops(2, xc):
                v = base + rest
                if v < best[card]:
                    best[card] = v
        if xd:
            base = total - yd
            for card, rest in drops[24576 | xd] or _suit_drops(3, xd):
                v = base + rest
                if v < best[card]:
                    best[card] = v
    return [(card, best[card]) for listed in (la, lb, lc, ld) for card, _ in listed]


#: ``_LEAST_DROP[p]``, filled as patterns come up (0: not yet): the discard from suit pattern
#: ``p`` that leaves the least run deadwood, the highest card among equals, then the lowest
#: rank, coded as one int that orders the same way: ``rest << 10 | (15 - value) << 6 | rank``.
_LEAST_DROP: Final[list[int]] = [0] * 8192
#: The same when some cards of the pattern may not be discarded, by ``p << 13 | allowed``
#: (filled as they come up; at most one entry per pattern and subset of it).
_LEAST_DROP_KEPT: Final[dict[int, int]] = {}


def _least_drop(p: int, allowed: int) -> int:
    """The coded best discard among the cards ``allowed`` of suit pattern ``p`` (see
    ``_LEAST_DROP``; ``_NO_DROP << 10`` when none is allowed)."""
    best = _NO_DROP << 10
    q = allowed
    while q:
        low = q & -q
        q ^= low
        rank = low.bit_length() - 1
        code = RUN_DEADWOOD[p ^ low] << 10 | (15 - _RANK_VALUE[rank]) << 6 | rank
        if code < best:
            best = code
    if allowed == p:
        _LEAST_DROP[p] = best
    else:
        _LEAST_DROP_KEPT[p << 13 | allowed] = best
    return best


def _choice_discard(xa: int, xb: int, xc: int, xd: int, fa: int, fb: int, fc: int, fd: int,
                    best: int) -> int:
    """The better of ``best`` and the best discard (coded ``deadwood << 10 | least drop
    code``, the card's suit added to its rank) when the suits' run patterns are ``xa`` to
    ``xd`` and only the cards ``fa`` to ``fd`` of each may go."""
    r = RUN_DEADWOOD
    ya = r[xa]
    yb = r[xb]
    yc = r[xc]
    yd = r[xd]
    total = ya + yb + yc + yd
    if xa:
        v = (total - ya << 10) + _suit_drop(xa, xa & fa)
        if v < best:
            best = v
    if xb:
        v = (total - yb << 10) + _suit_drop(xb, xb & fb) + 13
        if v < best:
            best = v
    if xc:
        v = (total - yc << 10) + _suit_drop(xc, xc & fc) + 26
        if v < best:
            best = v
    if xd:
        v = (total - yd << 10) + _suit_drop(xd, xd & fd) + 39
        if v < best:
            best = v
    return best


def _suit_drop(p: int, allowed: int) -> int:
    """The coded best discard among the cards ``allowed`` of the suit pattern ``p`` (see
    ``_LEAST_DROP``). The pattern's best discard is also the best of those allowed when it is
    one of them (the usual case: one table lookup)."""
    code = _LEAST_DROP[p] or _least_drop(p, p)
    if allowed != p and not allowed >> (code & 63) & 1:
        code = _LEAST_DROP_KEPT.get(p << 13 | allowed) or _least_drop(p, allowed)
    return code


def best_discard(mask: int, keep: int = 0) -> tuple[int, int]:
    """``(card, least deadwood after discarding it)`` for the best discard of ``mask``: the
    least deadwood left, then the highest card, then the lowest index; never a card of
    ``keep``. ``(-1, a large number)`` when every card is kept.

    The same card as the least of :func:`discard_deadwoods` by that order, found without
    listing every card: for each set choice, each suit's best discard is one lookup.

    Here the queen and the king of spades leave the same deadwood and count the same; the
    queen has the lower index:

    >>> from ginrummy.engine.cards import CARD_TEXT, to_mask
    >>> card, left = best_discard(to_mask("7c 7d 7h 8h 9h Ks Qs 2c 3c 4c 5d"))
    >>> CARD_TEXT[card], left
    ('Qs', 29)
    """
    a = mask & 8191
    b = mask >> 13 & 8191
    c = mask >> 26 & 8191
    d = mask >> 39
    t = (a & b & (c | d)) | (c & d & (a | b))
    # The cards each suit may give up.
    fa = ~keep & 8191
    fb = ~keep >> 13 & 8191
    fc = ~keep >> 26 & 8191
    fd = ~keep >> 39 & 8191
    if not t:
        best = _choice_discard(a, b, c, d, fa, fb, fc, fd, _NO_DROP << 11)
    else:
        # Each set choice by its run deadwood, least first: a discard takes at most 10 points
        # off a choice's deadwood, so once a choice's is more than 10 above the best discard
        # found, it and every later one can be skipped. (Among choices of equal deadwood the
        # order does not matter: the best is the least over all of them.)
        r = RUN_DEADWOOD
        choices = set_choice_keeps(a, b, c, d, t)
        rows = sorted([(r[a & ka] + r[b & kb] + r[c & kc] + r[d & kd], i)
                       for i, (ka, kb, kc, kd) in enumerate(choices)])
        best = _NO_DROP << 11
        for total, i in rows:
            if total - 10 > best >> 10:
                break
            ka, kb, kc, kd = choices[i]
            best = _choice_discard(a & ka, b & kb, c & kc, d & kd, fa, fb, fc, fd, best)
    if best >= _NO_DROP << 10:
        return -1, _NO_DROP
    return best & 63, best >> 10


# ---------------------------------------------------------------------------------------------
# Arrangements: the melds themselves.


@mypyc_attr(native_class=False)  # an ordinary class, compiled or not (docs/architecture.md)
class Arrangement:
    """A way to lay out a hand: disjoint melds plus the deadwood cards.

    ``melds`` are :class:`CardSet` objects (sets first, then runs, each group by lowest card);
    ``deadwood`` is the points of ``deadwood_cards``.
    """

    __slots__ = ("meld_masks", "deadwood_mask", "deadwood")

    meld_masks: tuple[int, ...]
    deadwood_mask: int
    deadwood: int

    def __init__(self, meld_masks: Iterable[int], deadwood_mask: int) -> None:
        self.meld_masks = tuple(sorted(meld_masks, key=_meld_sort_key))
        self.deadwood_mask = deadwood_mask
        self.deadwood = mask_value(deadwood_mask)

    @classmethod
    def _made(cls, meld_masks: tuple[int, ...], deadwood_mask: int, deadwood: int) -> Arrangement:
        """An arrangement from melds already in order and the deadwood already counted."""
        out = object.__new__(cls)
        out.meld_masks = meld_masks
        out.deadwood_mask = deadwood_mask
        out.deadwood = deadwood
        return out

    @property
    def melds(self) -> list[CardSet]:
        return [CardSet.from_mask(m) for m in self.meld_masks]

    @property
    def deadwood_cards(self) -> CardSet:
        return CardSet.from_mask(self.deadwood_mask)

    @property
    def mask(self) -> int:
        """Every card of the arrangement."""
        out = self.deadwood_mask
        for m in self.meld_masks:
            out |= m
        return out

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Arrangement):
            return NotImplemented
        return self.meld_masks == other.meld_masks and self.deadwood_mask == other.deadwood_mask

    def __hash__(self) -> int:
        return hash((self.meld_masks, self.deadwood_mask))

    def __str__(self) -> str:
        melds = " ".join(mask_text(m) for m in self.meld_masks) or "no melds"
        dead = mask_text(self.deadwood_mask) or "none"
        return f"{melds} | deadwood {dead} ({self.deadwood})"

    def __repr__(self) -> str:
        return f"<Arrangement {self}>"


_new_arrangement = object.__new__
def _meld_sort_key(m: int) -> tuple[int, int, int]:
    low = (m & -m).bit_length() - 1
    return (1 if is_run(m) else 0, low % 13, low // 13)


def _suit_run_partitions(p: int) -> list[list[int]]:
    """Every split of suit pattern ``p`` into runs plus deadwood that reaches RUN_DEADWOOD[p].

    Each partition is a list of run patterns (13-bit, unshifted).
    """
    if p == 0:
        return [[]]
    target = RUN_DEADWOOD[p]
    low = p & -p
    i = low.bit_length() - 1
    out: list[list[int]] = []
    rest = p ^ low
    if _RANK_VALUE[i] + RUN_DEADWOOD[rest] == target:
        out.extend(_suit_run_partitions(rest))
    run = low
    length = 1
    while i + length < _SUIT_BITS and p >> (i + length) & 1:
        run |= 1 << (i + length)
        length += 1
        if length >= 3 and RUN_DEADWOOD[p & ~run] == target:
            out.extend([run, *tail] for tail in _suit_run_partitions(p & ~run))
    return out


def _choice_melds(ra: int, rb: int, rc: int, rd: int) -> list[int]:
    """The set melds (as full masks) that a per-suit removal choice stands for."""
    removed = ra | rb << 13 | rc << 26 | rd << 39
    sets: list[int] = []
    for rank in range(13):
        m = removed & RANK_MASK[rank]
        if m:
            sets.append(m)
    return sets


def all_arrangements(mask: int) -> list[Arrangement]:
    """Every arrangement of ``mask`` that reaches its minimum deadwood."""
    a = mask & 8191
    b = mask >> 13 & 8191
    c = mask >> 26 & 8191
    d = mask >> 39
    t = (a & b & (c | d)) | (c & d & (a | b))
    target = min_deadwood(mask)
    r = RUN_DEADWOOD
    choices = list(_set_choices(a, b, c, d, t)) if t else [(0, 0, 0, 0)]
    out: list[Arrangement] = []
    seen: set[Arrangement] = set()
    for ra, rb, rc, rd in choices:
        rest = (a & ~ra, b & ~rb, c & ~rc, d & ~rd)
        if r[rest[0]] + r[rest[1]] + r[rest[2]] + r[rest[3]] != target:
            continue
        sets = _choice_melds(ra, rb, rc, rd)
        per_suit = [_suit_run_partitions(p) for p in rest]
        for parts in product(*per_suit):
            melds = list(sets)
            for s, runs in enumerate(parts):
                melds.extend(run << (13 * s) for run in runs)
            covered = 0
            for m in melds:
                covered |= m
            arr = Arrangement(melds, mask & ~covered)
            if arr not in seen:
                seen.add(arr)
                out.append(arr)
    out.sort(key=lambda x: (len(x.meld_masks), x.meld_masks))
    return out


#: Sort key of every meld (as Arrangement orders them), looked up instead of worked out.
MELD_ORDER: Final[dict[int, tuple[int, int, int]]] = {m: _meld_sort_key(m) for m in ALL_MELDS}
#: ``_RUN_PARTS[suit << 13 | p]``: :func:`run_parts`, filled as patterns come up (never
#: empty once filled: every pattern splits at least one way).
_RUN_PARTS: Final[list[tuple[tuple[int, ...], ...]]] = [()] * (4 << 13)


def run_parts(suit: int, p: int) -> tuple[tuple[int, ...], ...]:
    """:func:`_suit_run_partitions` of suit pattern ``p``, the runs shifted into ``suit``
    (worked out once per suit and pattern, then looked up)."""
    parts = _RUN_PARTS[suit << 13 | p]
    if not parts:
        shift = 13 * suit
        parts = tuple(
            tuple(run << shift for run in runs) for runs in _suit_run_partitions(p)
        )
        _RUN_PARTS[suit << 13 | p] = parts
    return parts


#: ``_ONLY_SPLIT[suit << 13 | p]``, filled as patterns come up: ``(cards in runs, runs)`` of
#: suit pattern ``p``'s split into runs when it splits one way only, shifted into ``suit``;
#: ``(-1, ())`` when it splits several ways; None until filled.
_ONLY_SPLIT: Final[list[tuple[int, tuple[int, ...]] | None]] = [None] * (4 << 13)


def _only_split(suit: int, p: int) -> tuple[int, tuple[int, ...]]:
    parts = run_parts(suit, p)
    got = (-1, ()) if len(parts) > 1 else (sum(parts[0]), parts[0])
    _ONLY_SPLIT[suit << 13 | p] = got
    return got


def best_three_card_choice(a: int, b: int, c: int, d: int,
                            t: int) -> tuple[int, int, bool]:
    """For a hand whose ranks in ``t`` are each held exactly three times: the least deadwood,
    the first set choice reaching it (a mask of the ranks played as sets; 0, no sets, first)
    and whether another choice reaches it too (the cheap question of
    :func:`_three_card_hits`)."""
    r = RUN_DEADWOOD
    least = r[a] + r[b] + r[c] + r[d]
    hit = 0
    ties = False
    q = t
    while q:
        n = ~q
        v = r[a & n] + r[b & n] + r[c & n] + r[d & n]
        if v < least:
            least = v
            hit = q
            ties = False
        elif v == least:
            ties = True
        q = (q - 1) & t
    return least, hit, ties


def _three_card_hits(a: int, b: int, c: int, d: int, t: int) -> tuple[int, list[int]]:
    """For a hand whose ranks in ``t`` are each held exactly three times: the least deadwood
    and the set choices (as masks of the ranks played as sets) that reach it."""
    r = RUN_DEADWOOD
    least = r[a] + r[b] + r[c] + r[d]
    hits = [0]
    s = t
    while s:
        n = ~s
        v = r[a & n] + r[b & n] + r[c & n] + r[d & n]
        if v < least:
            least = v
            hits = [s]
        elif v == least:
            hits.append(s)
        s = (s - 1) & t
    return least, hits


def _one_choice_arrangement(mask: int, s: int, least: int) -> Arrangement | None:
    """The arrangement of ``mask`` with the ranks in ``s`` (each held three times) as sets,
    when that set choice alone reaches the ``least`` deadwood and each suit's rest splits
    into runs one way only (then it is the only minimum arrangement); ``None`` otherwise."""
    n = ~s
    xa = mask & n & 8191
    xb = mask >> 13 & n & 8191
    xc = mask >> 26 & n & 8191
    xd = mask >> 39 & n
    parts = _RUN_PARTS
    pa = parts[xa] or run_parts(0, xa)
    pb = parts[8192 | xb] or run_parts(1, xb)
    pc = parts[16384 | xc] or run_parts(2, xc)
    pd = parts[24576 | xd] or run_parts(3, xd)
    if len(pa) != 1 or len(pb) != 1 or len(pc) != 1 or len(pd) != 1:
        return None
    runs = pa[0] + pb[0] + pc[0] + pd[0]
    if len(runs) > 1:
        runs = tuple(sorted(runs, key=MELD_ORDER.__getitem__))
    set_melds: list[int] = []
    while s:  # sets first, by rank
        low = s & -s
        s ^= low
        set_melds.append(mask & RANK_MASK[low.bit_length() - 1])
    melds = (*set_melds, *runs) if set_melds else runs
    covered = 0
    for m in melds:
        covered |= m
    out = _new_arrangement(Arrangement)
    out.meld_masks = melds
    out.deadwood_mask = mask & ~covered
    out.deadwood = least
    return out


def best_arrangement(mask: int) -> Arrangement:
    """One minimum-deadwood arrangement of ``mask`` (the first of :func:`all_arrangements`).

    The same answer as ``all_arrangements(mask)[0]``, the least by (number of melds, melds in
    order: sets by rank, then runs by lowest rank and suit), found without building or
    sorting the others; when no rank is held three times and each suit splits into runs one
    way only (most hands) it is the only one."""
    a = mask & 8191
    b = mask >> 13 & 8191
    c = mask >> 26 & 8191
    d = mask >> 39
    t = (a & b & (c | d)) | (c & d & (a | b))
    r = RUN_DEADWOOD
    parts = _RUN_PARTS
    if not t:
        least = r[a] + r[b] + r[c] + r[d]
        sv = SUIT_VALUE
        if least == sv[a] + sv[b] + sv[c] + sv[d]:  # no run anywhere: nothing melds
            out = _new_arrangement(Arrangement)
            out.meld_masks = ()
            out.deadwood_mask = mask
            out.deadwood = least
            return out
        split = _ONLY_SPLIT
        oa = split[a] or _only_split(0, a)
        ob = split[8192 | b] or _only_split(1, b)
        oc = split[16384 | c] or _only_split(2, c)
        od = split[24576 | d] or _only_split(3, d)
        if (oa[0] | ob[0] | oc[0] | od[0]) >= 0:
            # Each suit splits into runs one way only: the one arrangement.
            runs = oa[1] + ob[1] + oc[1] + od[1]
            if len(runs) > 1:
                runs = tuple(sorted(runs, key=MELD_ORDER.__getitem__))
            out = _new_arrangement(Arrangement)
            out.meld_masks = runs
            out.deadwood_mask = mask & ~(oa[0] | ob[0] | oc[0] | od[0])
            out.deadwood = least
            return out
        choices: Iterable[tuple[int, int, int, int]] = ((0, 0, 0, 0),)
        rank_masks: list[int] = []
    elif not (a & b & c & d):
        # Only three-card ranks: each is a set or not (as in _sets_min); keep the choices
        # that reach the least deadwood.
        least, hit, ties = best_three_card_choice(a, b, c, d, t)
        if not ties:
            # One set choice reaches the least deadwood (most such hands): when each suit's
            # rest splits into runs one way only, that is the one arrangement.
            n = ~hit
            xa = a & n
            xb = b & n
            xc = c & n
            xd = d & n
            split = _ONLY_SPLIT
            oa = split[xa] or _only_split(0, xa)
            ob = split[8192 | xb] or _only_split(1, xb)
            oc = split[16384 | xc] or _only_split(2, xc)
            od = split[24576 | xd] or _only_split(3, xd)
            if (oa[0] | ob[0] | oc[0] | od[0]) >= 0:
                runs = oa[1] + ob[1] + oc[1] + od[1]
                if len(runs) > 1:
                    runs = tuple(sorted(runs, key=MELD_ORDER.__getitem__))
                in_sets = mask & hit * 0x8004002001  # the ranks of the sets in every suit
                set_melds = []
                q = hit
                while q:  # sets first, by rank
                    low = q & -q
                    q ^= low
                    set_melds.append(in_sets & RANK_MASK[low.bit_length() - 1])
                out = _new_arrangement(Arrangement)
                out.meld_masks = (*set_melds, *runs)
                out.deadwood_mask = mask & ~(in_sets | oa[0] | ob[0] | oc[0] | od[0])
                out.deadwood = least
                return out
        least, hits = _three_card_hits(a, b, c, d, t)
        choices = [(a & s, b & s, c & s, d & s) for s in hits]
        rank_masks = []
        while t:
            low = t & -t
            t ^= low
            rank_masks.append(RANK_MASK[low.bit_length() - 1])
    else:
        choices = _set_choices(a, b, c, d, t)
        least = _NO_DROP
        rank_masks = []
        while t:
            low = t & -t
            t ^= low
            rank_masks.append(RANK_MASK[low.bit_length() - 1])
    order = MELD_ORDER.__getitem__
    best: tuple[int, tuple[int, ...]] | None = None
    for ra, rb, rc, rd in choices:
        xa = a & ~ra
        xb = b & ~rb
        xc = c & ~rc
        xd = d & ~rd
        v = r[xa] + r[xb] + r[xc] + r[xd]
        if v > least:
            continue
        if v < least:
            least = v
            best = None
        # Sets first, by rank (rank_masks ascend), then the runs in order.
        removed = ra | rb << 13 | rc << 26 | rd << 39
        sets = tuple([m for m in [removed & k for k in rank_masks] if m])
        pa = parts[xa] or run_parts(0, xa)
        pb = parts[8192 | xb] or run_parts(1, xb)
        pc = parts[16384 | xc] or run_parts(2, xc)
        pd = parts[24576 | xd] or run_parts(3, xd)
        for runs_a, runs_b, runs_c, runs_d in product(pa, pb, pc, pd):
            runs = runs_a + runs_b + runs_c + runs_d
            if len(runs) > 1:
                runs = tuple(sorted(runs, key=order))
            melds = sets + runs
            key = (len(melds), melds)
            if best is None or key < best:
                best = key
    assert best is not None
    covered = 0
    for m in best[1]:
        covered |= m
    return Arrangement._made(best[1], mask & ~covered, least)


def only_arrangement(mask: int) -> Arrangement | None:
    """The minimum-deadwood arrangement of ``mask`` when it is certainly the only one (no rank
    held four times, one choice of sets reaching the least deadwood, and each suit's rest
    splitting into runs one way only: most hands); ``None`` when there may be others (then
    ask :func:`all_arrangements`)."""
    a = mask & 8191
    b = mask >> 13 & 8191
    c = mask >> 26 & 8191
    d = mask >> 39
    t = (a & b & (c | d)) | (c & d & (a | b))
    if not t:
        r = RUN_DEADWOOD
        return _one_choice_arrangement(mask, 0, r[a] + r[b] + r[c] + r[d])
    if a & b & c & d:
        return None
    least, hits = _three_card_hits(a, b, c, d, t)
    return _one_choice_arrangement(mask, hits[0], least) if len(hits) == 1 else None


def declared_arrangement(mask: int, melds: Iterable[int]) -> Arrangement:
    """The arrangement of ``mask`` made of the declared ``melds``; raises ValueError if invalid.

    The caller turns the ``ValueError`` into the right game error with context.
    """
    covered = 0
    meld_list = list(melds)
    for m in meld_list:
        if not is_meld(m):
            raise ValueError(f"{mask_text(m) or 'nothing'} is not a set or a run")
        if m & ~mask:
            missing = mask_text(m & ~mask)
            raise ValueError(f"the meld {mask_text(m)} uses {missing}, which is not in the hand")
        if m & covered:
            raise ValueError(f"{mask_text(m & covered)} is used in two melds")
        covered |= m
    return Arrangement(meld_list, mask & ~covered)


# ---------------------------------------------------------------------------------------------
# Layoffs.


def _build_layoff_lines(meld: int) -> tuple[tuple[int, ...], ...]:
    if is_set(meld):
        if meld.bit_count() == 3:
            rank = ((meld & -meld).bit_length() - 1) % 13
            return (((RANK_MASK[rank] & ~meld).bit_length() - 1,),)
        return ()
    low = (meld & -meld).bit_length() - 1
    high = meld.bit_length() - 1
    suit_low = low // 13 * 13
    return (tuple(range(low - 1, suit_low - 1, -1)), tuple(range(high + 1, suit_low + 13)))


LAYOFF_LINES: Final[dict[int, tuple[tuple[int, ...], ...]]] = {
    m: _build_layoff_lines(m) for m in ALL_MELDS
}
#: The first card of each of a meld's layoff lines, as a mask.
_LINE_STARTS: Final[dict[int, int]] = {
    m: sum(1 << line[0] for line in lines if line) for m, lines in LAYOFF_LINES.items()
}


def layoff_lines(meld: int) -> tuple[tuple[int, ...], ...]:
    """The cards that could ever be laid off on ``meld``, line by line, each line in the order
    its cards must be laid: the fourth card of a three-card set (nothing on a four-card set);
    a run's cards below it, nearest first, and its cards above it, nearest first.

    The one statement of layoff geometry: layoffs, layoff spots and the players' layoff
    exposure all read it.

    >>> from ginrummy.engine.cards import CARD_TEXT, to_mask
    >>> [[CARD_TEXT[c] for c in line] for line in layoff_lines(to_mask("8c 8d 8h"))]
    [['8s']]
    >>> [[CARD_TEXT[c] for c in line] for line in layoff_lines(to_mask("3s 4s 5s 6s 7s 8s 9s Ts"))]
    [['2s', 'As'], ['Js', 'Qs', 'Ks']]
    """
    lines = LAYOFF_LINES.get(meld)
    return _build_layoff_lines(meld) if lines is None else lines


def _layoff_options(melds: Iterable[int], defender: int) -> list[int]:
    """Every set of defender cards that can be laid off together on ``melds`` (as masks; the
    empty set first, the others in no particular order, some perhaps twice).

    Each line of each meld (see :func:`layoff_lines`) takes a prefix of the defender's cards
    along it, and the lines are independent, so the options are the unions of one prefix per
    line (a card on two lines, such as the fourth card of a set that also extends a run,
    gives the same unions twice)."""
    options = [0]
    lines_of = LAYOFF_LINES
    starts = _LINE_STARTS
    for m in melds:
        if not starts.get(m, -1) & defender:
            continue  # no defender card next to this meld
        lines = lines_of.get(m)
        for line in _build_layoff_lines(m) if lines is None else lines:
            if not line or not defender >> line[0] & 1:
                continue
            grown = list(options)
            acc = 0
            for card in line:
                if not defender >> card & 1:
                    break
                acc |= 1 << card
                grown += [o | acc for o in options]
            options = grown
    return options


def layoff_candidates(melds: Iterable[int], defender: int) -> int:
    """Every defender card that could be laid off on ``melds`` in some legal way."""
    out = 0
    for o in _layoff_options(melds, defender):
        out |= o
    return out


def best_layoffs(melds: Iterable[int], defender: int) -> tuple[int, int, Arrangement]:
    """The defender's best reply to a knock: ``(deadwood, layoff mask, own arrangement)``.

    Minimises the defender's deadwood over every choice of own melds and layoffs; among equal
    choices, lays off the fewest cards.
    """
    dw, option = best_layoff_mask(melds, defender)
    return dw, option, best_arrangement(defender & ~option)


def best_layoff_mask(melds: Iterable[int], defender: int) -> tuple[int, int]:
    """``(deadwood, layoff mask)`` of :func:`best_layoffs`, without the arrangement."""
    whole = best_dw = min_deadwood(defender)
    best = 0
    for option in _layoff_options(melds, defender):
        # Laying off cards takes at most their points off (put back as deadwood, they make
        # an arrangement of the whole hand): skip the options that cannot do better.
        if option and whole - mask_value(option) <= best_dw:
            dw = min_deadwood(defender & ~option)
            if dw < best_dw or (
                # Among equals, the fewest cards, then the least mask.
                dw == best_dw and (option.bit_count(), option) < (best.bit_count(), best)
            ):
                best_dw = dw
                best = option
    return best_dw, best


def layoff_deadwood(melds: Iterable[int], defender: int) -> int:
    """The defender's least deadwood after laying off on ``melds``: the deadwood of
    :func:`best_layoffs`, without working out the arrangement (for estimates that only need
    the points). When no defender card lies next to a meld there is nothing to lay off."""
    meld_masks = tuple(melds)
    if not layoff_spots(meld_masks, 0) & defender:
        return min_deadwood(defender)
    return min(min_deadwood(defender & ~o) for o in _layoff_options(meld_masks, defender))


def layoff_spots(melds: Iterable[int], held: int) -> int:
    """Cards outside ``held`` that an opponent could lay off directly on ``melds``.

    Counts the fourth card of each three-card set and the card just past each end of each
    run (a chained layoff needs that card first): the first card of each of
    :func:`layoff_lines`.
    """
    out = 0
    for m in melds:
        for line in layoff_lines(m):
            if line:
                out |= 1 << line[0]
    return out & ~held
