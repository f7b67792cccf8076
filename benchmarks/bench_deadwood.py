"""Minimum deadwood on random 10-card and 11-card hands: ours against OpenSpiel's C++, calls/s.

Run from the repository root (after ``pip install -e .[bench]``)::

    python benchmarks/bench_deadwood.py [--hands 20000] [--reps 7] [--seed 2] [--markdown]

What is timed, on the very same seeded hands for every row:

- ours, ``ginrummy.engine.melds.min_deadwood(mask)`` on 10 cards and
  ``ginrummy.engine.melds.best_discard_deadwood(mask)`` on 11 cards (the deadwood left after the
  best discard, which is what OpenSpiel's ``min_deadwood`` answers for 11 cards), starting from the
  engine's own representation, a 52-bit int;
- ours again starting from a list of card ints, so the list-to-mask conversion is paid, as
  OpenSpiel pays its list-to-vector conversion; and ``ginrummy.deadwood(list)``, the checked
  public entry point;
- the other public calls (``best_melds``, ``parse_cards``, and with ``--settle``
  ``settle_hand`` on random deals whose knocker may knock), in every form a caller may give
  the cards; ``settle_hand`` makes the result's melds when first read, so one row also
  reads them;
- OpenSpiel 2.0.2, ``pyspiel.gin_rummy.GinRummyUtils(13, 4, 10).min_deadwood(list)`` called
  from Python (pybind11 turns the list into a ``std::vector<int>`` on each call).

Card encodings: both are ``suit * 13 + rank`` with ace low; our suits run c, d, h, s and
OpenSpiel's s, c, d, h, so our card ``c`` is OpenSpiel's ``((c // 13 + 1) % 4) * 13 + c % 13``
(the script checks the mapping against OpenSpiel's own card names before timing).

Before timing, the script also compares the answers on every hand: on 10 cards they must agree;
on 11 cards OpenSpiel discards its highest deadwood card after fixing the meld group that is best
for all 11 cards, which is sometimes not the best discard, so it can answer higher than ours
(never lower, unless one of the two engines is wrong).
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable, Sequence
from typing import Any

import pyspiel

import ginrummy
from _common import Measure, environment_lines, load_line, print_table, run_interleaved
from ginrummy.engine.cards import mask_of, mask_text
from ginrummy.engine.melds import (
    best_arrangement,
    best_discard_deadwood,
    discard_deadwoods,
    mask_value,
    min_deadwood,
)


def to_openspiel(card: int) -> int:
    """Our card index (suits c, d, h, s) as OpenSpiel's (suits s, c, d, h)."""
    return ((card // 13 + 1) % 4) * 13 + card % 13


def from_openspiel(card: int) -> int:
    """OpenSpiel's card index as ours (the inverse of :func:`to_openspiel`)."""
    return ((card // 13 + 3) % 4) * 13 + card % 13


def check_card_mapping(utils: Any) -> None:
    """Stop unless OpenSpiel names every mapped card exactly as we do (``7h``, ``Tc``...)."""
    for card in range(52):
        ours = str(ginrummy.Card(card))
        theirs = utils.card_string(to_openspiel(card))
        if ours != theirs or from_openspiel(to_openspiel(card)) != card:
            sys.exit(f"card mapping is wrong: our {ours} became OpenSpiel's {theirs}")


def deal_hands(n: int, size: int, seed: int) -> list[list[int]]:
    """``n`` random hands of ``size`` different cards (our encoding), the same for a seed."""
    rng = random.Random(seed)
    deck = range(52)
    return [rng.sample(deck, size) for _ in range(n)]


def crowded_hands(n: int, size: int, seed: int) -> list[list[int]]:
    """``n`` hands of ``size`` cards from five consecutive ranks (a window chosen per hand).

    Uniformly random hands almost never meld much; these nearly always can, in several
    overlapping ways, which is where a solver must choose (and where OpenSpiel's 11-card
    shortcut goes wrong).
    """
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        low = rng.randrange(9)
        pool = [suit * 13 + rank for suit in range(4) for rank in range(low, low + 5)]
        out.append(rng.sample(pool, size))
    return out


def loop(fn: Callable[[Any], object], items: Sequence[Any]) -> Callable[[], int]:
    """A batch that calls ``fn`` once per item (same loop shape for every engine)."""

    def work() -> int:
        for x in items:
            fn(x)
        return len(items)

    return work


def loop_via_mask(fn: Callable[[int], int], hands: Sequence[list[int]]) -> Callable[[], int]:
    """A batch that converts each card list to a mask, then calls ``fn``."""

    def work() -> int:
        for h in hands:
            fn(mask_of(h))
        return len(hands)

    return work


def agreement_10(hands: Sequence[list[int]], utils: Any) -> None:
    """Print how many 10-card hands the two engines disagree on (and the first one)."""
    md = utils.min_deadwood
    bad = []
    for h in hands:
        ours = min_deadwood(mask_of(h))
        theirs = md([to_openspiel(c) for c in h])
        if ours != theirs:
            bad.append((h, ours, theirs))
    print(f"    answers differ on {len(bad)} of {len(hands):,} hands")
    if bad:
        h, ours, theirs = bad[0]
        print(f"    first: {mask_text(mask_of(h))}: ours {ours}, OpenSpiel {theirs}")


def agreement_11(hands: Sequence[list[int]], utils: Any) -> None:
    """Print how often OpenSpiel's 11-card answer is above (or below) ours, with an example."""
    md = utils.min_deadwood
    higher: list[tuple[list[int], list[int], int, int]] = []
    lower = 0
    for h in hands:
        o = [to_openspiel(c) for c in h]
        ours = best_discard_deadwood(mask_of(h))
        theirs = md(o)
        if theirs > ours:
            higher.append((h, o, ours, theirs))
        elif theirs < ours:
            lower += 1
    n = len(hands)
    print(
        f"    OpenSpiel higher than ours on {len(higher):,} of {n:,} hands"
        f" ({100 * len(higher) / n:.2f}%), lower on {lower}"
    )
    if not higher:
        return
    h, o, ours, theirs = max(higher, key=lambda x: x[3] - x[2])
    mask = mask_of(h)
    card, _ = min(discard_deadwoods(mask), key=lambda x: (x[1], x[0]))
    melds = [mask_of(from_openspiel(c) for c in m) for m in utils.best_meld_group(o)]
    left = mask
    for m in melds:
        left &= ~m
    print(f"    largest gap: {mask_text(mask)}")
    print(
        f"      ours {ours}: discard {ginrummy.Card(card)}, keep"
        f" {best_arrangement(mask & ~(1 << card))}"
    )
    print(
        f"      OpenSpiel {theirs}: best melds of all 11 cards"
        f" {' '.join(mask_text(m) for m in melds) or 'none'}, deadwood {mask_text(left)}"
        f" ({mask_value(left)}), minus its highest card"
    )


def measures(size: int, hands: Sequence[list[int]], utils: Any) -> list[Measure]:
    """The rows timed for one batch of hands of ``size`` cards (10 or 11)."""
    masks = [mask_of(h) for h in hands]
    os_hands = [[to_openspiel(c) for c in h] for h in hands]
    reference = Measure(
        "OpenSpiel", "GinRummyUtils.min_deadwood(list)", loop(utils.min_deadwood, os_hands), True
    )
    if size == 10:
        return [
            Measure("ours", "min_deadwood(mask)", loop(min_deadwood, masks)),
            Measure("ours", "min_deadwood(mask_of(list))", loop_via_mask(min_deadwood, hands)),
            *public_measures(hands),
            reference,
        ]
    return [
        Measure("ours", "best_discard_deadwood(mask)", loop(best_discard_deadwood, masks)),
        Measure(
            "ours",
            "best_discard_deadwood(mask_of(list))",
            loop_via_mask(best_discard_deadwood, hands),
        ),
        reference,
    ]


def public_measures(hands: Sequence[list[int]]) -> list[Measure]:
    """The public, checked calls (issue 14) on the same hands, given in every form a caller
    may have them in; each form is prepared before timing, except where the row says the
    parsing is timed."""
    texts = [" ".join(str(ginrummy.Card(c)) for c in h) for h in hands]
    forms: dict[str, Sequence[Any]] = {
        "list of ints": hands,
        "CardSet": [ginrummy.CardSet.from_mask(mask_of(h)) for h in hands],
        "list of Cards": [[ginrummy.Card(c) for c in h] for h in hands],
        "list of card texts": [[str(ginrummy.Card(c)) for c in h] for h in hands],
        "text": texts,
        "parse_cards(text), already parsed": [ginrummy.parse_cards(t) for t in texts],
    }
    rows = [
        Measure("ours", f"ginrummy.deadwood({form}), checked", loop(ginrummy.deadwood, items))
        for form, items in forms.items()
    ]
    rows.append(
        Measure(
            "ours",
            "ginrummy.deadwood(ginrummy.parse_cards(text)), parse timed",
            loop(lambda t: ginrummy.deadwood(ginrummy.parse_cards(t)), texts),
        )
    )
    for form in ("list of ints", "CardSet"):
        rows.append(
            Measure("ours", f"ginrummy.best_melds({form}), checked",
                    loop(ginrummy.best_melds, forms[form]))
        )
    return rows


def read_result(result: ginrummy.HandResult) -> object:
    """Read the fields of a result that are made when first read."""
    return (result.layoffs, result.knocker_melds, result.knocker_deadwood_cards,
            result.defender_melds, result.defender_deadwood_cards)


def knockable_hands(n: int, seed: int) -> list[tuple[list[int], list[int]]]:
    """``n`` random deals (knocker's 10 cards, defender's 10 cards) where the knocker's least
    deadwood is at most 10, so that a knock is legal under the traditional rules."""
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        cards = rng.sample(range(52), 20)
        knocker, defender = cards[:10], cards[10:]
        if min_deadwood(mask_of(knocker)) <= 10:
            out.append((knocker, defender))
    return out


def settle_measures(deals: Sequence[tuple[list[int], list[int]]], utils: Any) -> list[Measure]:
    """``ginrummy.settle_hand`` (the whole scoring of a knock: the knocker's arrangement, the
    defender's best layoffs, the result) beside OpenSpiel's ``min_deadwood`` of the knocker's
    same 10 cards, the issue's yardstick."""
    rules = ginrummy.get_rules("traditional")
    pairs = [
        (ginrummy.CardSet.from_mask(mask_of(k)), ginrummy.CardSet.from_mask(mask_of(d)))
        for k, d in deals
    ]
    return [
        Measure("ours", "ginrummy.settle_hand(CardSet, CardSet, rules)",
                loop(lambda kd: ginrummy.settle_hand(kd[0], kd[1], rules), pairs)),
        Measure("ours", "ginrummy.settle_hand(list, list, rules)",
                loop(lambda kd: ginrummy.settle_hand(kd[0], kd[1], rules), deals)),
        # The result's melds and deadwood cards are made when first read: read them too.
        Measure("ours", "settle_hand(CardSet, CardSet, rules), every field read",
                loop(lambda kd: read_result(ginrummy.settle_hand(kd[0], kd[1], rules)),
                     pairs)),
        Measure("OpenSpiel", "GinRummyUtils.min_deadwood(knocker's list)",
                loop(utils.min_deadwood, [[to_openspiel(c) for c in k] for k, _ in deals]),
                True),
    ]


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--hands", type=int, default=20_000, help="hands per batch (20000)")
    parser.add_argument("--reps", type=int, default=7, help="repetitions of each batch (7)")
    parser.add_argument("--seed", type=int, default=2, help="seed of the random hands (2)")
    parser.add_argument(
        "--crowded", action="store_true", help="also time the crowded hands (stress case)"
    )
    parser.add_argument(
        "--settle", action="store_true",
        help="also time settle_hand on random deals whose knocker may knock",
    )
    parser.add_argument(
        "--cpu", action="store_true",
        help="time with this process's CPU time instead of the wall clock (a loaded machine)",
    )
    parser.add_argument("--markdown", action="store_true", help="print Markdown tables")
    args = parser.parse_args(argv)
    n = args.hands

    print("Minimum deadwood, calls per second: ours vs OpenSpiel (C++ via pybind11)")
    for line in environment_lines(["ginrummy", "open_spiel", "numpy"]):
        print(line)
    print(
        f"work    : {n:,} random hands of 10 cards and {n:,} of 11 cards (seed {args.seed}),"
        f" the same hands for every row; repetitions of every batch: {args.reps}"
    )

    utils = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
    check_card_mapping(utils)
    batches = {
        "random 10-card hands": (10, deal_hands(n, 10, args.seed)),
        "random 11-card hands": (11, deal_hands(n, 11, args.seed + 1)),
        "crowded 10-card hands": (10, crowded_hands(n, 10, args.seed + 2)),
        "crowded 11-card hands": (11, crowded_hands(n, 11, args.seed + 3)),
    }

    print("\nAgreement, every hand of every batch (checked before timing):")
    for name, (size, hands) in batches.items():
        print(f"  {name}:")
        if size == 10:
            agreement_10(hands, utils)
        else:
            agreement_11(hands, utils)
    print(
        "  (crowded: 10 or 11 cards from the 20 cards of five consecutive ranks, so most"
        " hands have several ways to meld)"
    )

    timed = {
        name: measures(size, hands, utils)
        for name, (size, hands) in batches.items()
        if args.crowded or name.startswith("random")
    }
    if args.settle:
        timed["random deals whose knocker may knock"] = settle_measures(
            knockable_hands(n // 10, args.seed + 4), utils
        )
    print("\nTiming (progress on stderr):", file=sys.stderr)
    run_interleaved([m for rows in timed.values() for m in rows], args.reps, cpu=args.cpu)
    print(f"clock   : {'CPU time of this process' if args.cpu else 'wall clock'}")
    for name, rows in timed.items():
        note = "; OpenSpiel answers the best discard's deadwood" if "11" in name else ""
        calls = len(next(iter(rows)).times) and rows[0].units
        print_table(
            f"{name.capitalize()} ({calls:,} calls per batch, repetitions: {args.reps}{note})",
            "calls",
            rows,
            markdown=args.markdown,
        )
    print(load_line("at the end"))
    print("\n'vs reference' = our median calls/s divided by OpenSpiel's median calls/s.")


if __name__ == "__main__":
    main()
