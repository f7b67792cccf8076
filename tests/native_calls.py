"""The calls tests/test_native.py makes twice: once in the compiled core, once in its Python
source (a child process with ``GINRUMMY_PURE=1``); every outcome must be the same.

Run as a script it prints the outcomes as JSON, then each compiled module's doctest tally.
"""

from __future__ import annotations

import doctest
import importlib
import json
import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import ginrummy
from ginrummy import Arrangement, Card, CardSet, HandResult
from ginrummy.engine import develop as dv
from ginrummy.engine import melds as m
from ginrummy.engine import native
from ginrummy.engine import settle as s
from test_fast_paths import ODD_INPUTS


def plain(value: Any) -> Any:
    """A result as JSON-able data (classes by their content, so both builds compare)."""
    if isinstance(value, Arrangement):
        return ["Arrangement", list(value.meld_masks), value.deadwood_mask, value.deadwood]
    if isinstance(value, HandResult):
        return ["HandResult", repr(value)]
    if isinstance(value, CardSet):
        return ["CardSet", value.mask]
    if isinstance(value, Card):
        return ["Card", int(value), str(value)]
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if value is None or isinstance(value, (bool, int, str)):
        return value
    return ["other", type(value).__name__, repr(value)]


def outcome(fn: Any, *args: Any, **kwargs: Any) -> Any:
    try:
        return ["ok", plain(fn(*args, **kwargs))]
    except Exception as e:  # the very error is what is compared
        return [type(e).__name__, str(e)]


def _hands(rng: random.Random) -> list[list[int]]:
    """Random hands of 10 and 11 cards, and crowded ones (five ranks' 20 cards)."""
    out = []
    for size in (10, 11):
        out += [rng.sample(range(52), size) for _ in range(150)]
        for _ in range(150):
            low = rng.randrange(9)
            pool = [suit * 13 + rank for suit in range(4) for rank in range(low, low + 5)]
            out.append(rng.sample(pool, size))
    return out


def _mask(cards: list[int]) -> int:
    return sum(1 << c for c in cards)


def outcomes(seed: int = 14) -> list[list[Any]]:
    """Every call as ``[what, outcome]``."""
    rng = random.Random(seed)
    out: list[list[Any]] = []

    def call(what: str, fn: Any, *args: Any, **kwargs: Any) -> None:
        out.append([what, outcome(fn, *args, **kwargs)])

    for hand in _hands(rng):
        mask = _mask(hand)
        text = " ".join(str(Card(c)) for c in hand)
        for form in (hand, tuple(hand), [Card(c) for c in hand], text, text.split(), CardSet(hand)):
            call(f"deadwood {form!r}", ginrummy.deadwood, form)
        call(f"best_melds {text}", ginrummy.best_melds, text)
        call(f"best_melds CardSet {text}", ginrummy.best_melds, CardSet(hand))
        call(f"all_melds {text}", ginrummy.all_melds, hand)
        call(f"parse_cards {text}", ginrummy.parse_cards, text)
        if len(hand) == 11:
            call(f"best_discard_deadwood {text}", m.best_discard_deadwood, mask)
            call(f"discard_deadwoods {text}", m.discard_deadwoods, mask)
            call(f"best_discard {text}", m.best_discard, mask)
        else:
            call(f"min_deadwood {text}", m.min_deadwood, mask)
            unseen = [c for c in range(52) if not mask >> c & 1]
            call(f"draw_deadwoods {text}", m.draw_deadwoods, mask, unseen)
            call(f"knock_layout {text}", lambda x: repr(s.knock_layout(x)), mask)
            call(f"default_knock_arrangement {text}", s.default_knock_arrangement, mask)
            melds = m.best_arrangement(mask).meld_masks
            other = rng.sample(unseen, 10)
            call(f"best_layoffs {text}", m.best_layoffs, melds, _mask(other))
            call(f"layoff_spots {text}", m.layoff_spots, melds, _mask(other))

    # The players' loops (develop.py): the same guesses from the same seed, ties included.
    for trial in range(300):
        deck = rng.sample(range(52), 52)
        known = _mask(deck[: trial % 4])
        unseen = sorted(deck[10:40])
        powers = [rng.choice((1.0, 2.5, 0.4, 1e6)) for _ in unseen]
        stock = [(c, rng.random()) for c in unseen]
        hand = _mask(deck[:10])
        call(f"guess_hand {trial}", dv.guess_hand, unseen, powers, trial % 12, known,
             trial % 20, random.Random(trial))
        call(f"develop_hand {trial}", dv.develop_hand, hand, known, list(unseen), trial % 25,
             random.Random(trial))
        call(f"draw_outlook {trial}", lambda h=hand, st=stock: repr(dv.draw_outlook(h, st)))
    call("guess_hand lengths", dv.guess_hand, [1, 2], [1.0], 1, 0, 0, random.Random(1))

    profiles = list(ginrummy.PROFILE_NAMES)
    for _ in range(400):
        deck = rng.sample(range(52), 21)
        knocker, defender, up = deck[:10], deck[10:20], deck[20]
        rules = rng.choice(profiles)
        call(f"settle_hand {knocker} {defender} {rules}", ginrummy.settle_hand, knocker,
             defender, rules, upcard=up)
        best = m.best_arrangement(_mask(knocker))
        call(f"settle_hand melds {knocker} {defender}", ginrummy.settle_hand, knocker, defender,
             rules, upcard=up, melds=[list(CardSet.from_mask(x)) for x in best.meld_masks])

    odd = [*ODD_INPUTS, [True, 3], [3.0], ["7h", 7], 7, {}, [52], [-1], Card(5), "7h 7h"]
    defender = "Kc Kd Ks Qc Qd Qs 8s 5c 6s 9h"
    for form in odd:
        what = repr(form)
        for name, fn in (("deadwood", ginrummy.deadwood), ("best_melds", ginrummy.best_melds),
                         ("all_melds", ginrummy.all_melds), ("parse_cards", ginrummy.parse_cards),
                         ("Card", Card), ("Card.parse", Card.parse), ("CardSet", CardSet),
                         ("CardSet.from_mask", CardSet.from_mask),
                         ("to_cards", ginrummy.engine.cards.to_cards)):
            call(f"{name} {what}", fn, form)
        call(f"settle_hand knocker {what}", ginrummy.settle_hand, form, defender)
        call(f"settle_hand defender {what}", ginrummy.settle_hand, "", form)
        call(f"settle_hand upcard {what}", ginrummy.settle_hand, "", defender, "oklahoma",
             upcard=form)
        call(f"settle_hand melds {what}", ginrummy.settle_hand, "", defender, melds=form)
        for op in ("add", "remove", "discard", "__contains__", "union", "issubset", "__eq__"):
            cs = CardSet("7h 8h 9h")
            call(f"CardSet.{op} {what}", lambda o=op, c=cs, f=form: (getattr(c, o)(f), c), )
    return out


def doctest_tally() -> dict[str, list[int]]:
    """Each compiled module's doctests run here: ``[failed, attempted]``."""
    tally = {}
    for name in native.COMPILED:
        module = importlib.import_module(f"ginrummy.{name}")
        result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
        tally[name] = [result.failed, result.attempted]
    return tally


if __name__ == "__main__":
    json.dump({"compiled": native.compiled(), "outcomes": outcomes(), "doctests": doctest_tally()},
              sys.stdout)
