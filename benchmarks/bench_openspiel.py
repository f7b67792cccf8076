"""Our players against OpenSpiel's ``SimpleGinRummyBot`` inside OpenSpiel's own ``gin_rummy``.

Run from the repository root::

    python benchmarks/bench_openspiel.py [--hands 1000] [--players simple,hard,expert]
        [--workers 2] [--seed 1] [--markdown]

Each hand is dealt from a seeded shuffle and played in OpenSpiel's game (OpenSpiel scores it)
with our player in one seat, through ``benchmarks/openspiel_adapter.py``, and OpenSpiel's bot
(``pyspiel.make_simple_gin_rummy_bot``) in the other. Our player alternates between
OpenSpiel's player 0 (who acts first, our non-dealer) and player 1, on the same decks for every
player of ours. A hand is won when OpenSpiel's return for our seat is positive, lost when
negative; a 0 is a cancelled hand (the wall) or a knock that tied. The table gives hands won
among all hands with the 95% Wilson interval, hands lost, points per hand, and CPU time.

Where OpenSpiel's rules differ from ours, OpenSpiel's apply (see the adapter's docstring):
a knock that ties scores 0 (no undercut), layoffs extend a run at most two cards deep, there
is no big gin, and at the wall (two cards left) the next player may knock with the upcard.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor

from _common import environment_lines, load_line, parse_shared_args, print_rows
from _matches import ci_text, wilson
from ginrummy.players import make
from openspiel_adapter import HandOutcome, OpenSpielTable

RULE_NOTES = (
    "OpenSpiel gin_rummy defaults: knock card 10, gin bonus 25, undercut bonus 25.",
    "Differences from our rules (OpenSpiel's apply): a knock that ties scores 0 (ours: an "
    "undercut, 25 to the defender); layoffs extend a run at most two cards deep (ours: any "
    "length); no big gin; at the wall (two stock cards left) the next player may knock with "
    "the upcard (ours: the last_discard_chance option, on in the shadow game); OpenSpiel lets "
    "a player throw back the upcard it just took (ours: not allowed).",
)

_TABLE: OpenSpielTable | None = None


def _one(args: tuple[str, int, int]) -> tuple[HandOutcome, float]:
    global _TABLE
    name, i, seed = args
    if _TABLE is None:
        _TABLE = OpenSpielTable()
    deck = list(range(52))
    random.Random(f"{seed}/deck/{i // 2}").shuffle(deck)
    start = time.perf_counter()
    outcome = _TABLE.play(make(name, seed=f"{seed}/{name}/{i}"), i % 2, deck)
    return outcome, time.perf_counter() - start


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=1000)
    parser.add_argument("--players", default="simple,hard,expert")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--markdown", action="store_true")
    args = parse_shared_args(parser, argv)
    print("command : python benchmarks/bench_openspiel.py " + " ".join(sys.argv[1:]))
    for line in environment_lines(["ginrummy", "open_spiel"]):
        print(line)
    for note in RULE_NOTES:
        print("rules   : " + note)
    header = ["ours", "hands", "won", "lost", "zero", "hands won %", "95% CI", "points/hand",
              "target", "CPU s/hand"]
    rows = []
    for name in args.players.split(","):
        jobs = [(name, i, args.seed) for i in range(args.hands)]
        results: list[tuple[HandOutcome, float]] = []
        start = time.perf_counter()
        with ProcessPoolExecutor(max_workers=args.workers) as pool:
            for r in pool.map(_one, jobs, chunksize=4):
                results.append(r)
                if len(results) % 100 == 0:
                    print(f"  {name}: {len(results)}/{args.hands} hands, "
                          f"{time.perf_counter() - start:.0f}s", file=sys.stderr, flush=True)
        n = len(results)
        won = sum(1 for o, _ in results if o.ours > 0)
        lost = sum(1 for o, _ in results if o.ours < 0)
        lo, hi = wilson(won, n)
        points = sum(o.ours for o, _ in results) / n
        cpu = sum(t for _, t in results) / n
        rows.append([name, str(n), str(won), str(lost), str(n - won - lost),
                     f"{100 * won / n:.1f}", ci_text((100 * lo, 100 * hi)), f"{points:+.2f}",
                     ">= 70%" if name == "expert" else "-", f"{cpu:.3f}"])
    print()
    print(f"Our player against OpenSpiel's SimpleGinRummyBot, {args.hands} hands each "
          "(same decks for every player of ours)")
    print_rows(header, rows, markdown=args.markdown)
    print(load_line("at the end"))


if __name__ == "__main__":
    main()
