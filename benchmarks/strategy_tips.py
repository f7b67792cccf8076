"""Evidence for the seven strategy tips: each tip's follower against a player that ignores it.

For every tip, two players that differ only in that tip play ``--hands`` independent hands
through :mod:`ginrummy.selfplay.simulate` (the same seats, deals and seeds scheme as ``ginrummy
simulate``), and the figure is the follower's net points per hand against the ignorer, with
its 95% interval (normal, over hands). Positive: following the tip pays against a player that
ignores it. Every player here is built on ``medium`` (rules, no opponent model, knocks at its
first chance), so the one change is the tip:

1. knock when it pays: ``medium`` with ``hard``'s knock rule (knock only when an undercut is
   unlikely and the knock is worth enough points) against ``medium``, which knocks at every
   chance;
2. throw high deadwood first: ``medium`` against ``medium`` that throws its lowest loose card;
3. keep flexible cards: ``medium`` against ``medium`` without the outlook (flexibility) term;
4. watch what the opponent picks up: ``medium`` reading the opponent's pickups (danger of
   feeding them) against ``medium``;
5. use their discards: ``medium`` reading the opponent's discards and passes against ``medium``;
6. take the discard only when it helps: ``medium`` against ``medium`` that also takes a card
   that does not beat a stock draw (a "maybe");
7. late in the hand, play safe: ``medium`` with a danger cost only near the end of the stock
   against ``medium``.

Writes ``src/ginrummy/data/strategy_tips.json`` (the Strategy window's data: the tips in our
words, each with its situation and figures), the tips ordered by their evidence: the surest
gain first (the highest lower end of the interval)::

    python benchmarks/strategy_tips.py --hands 2000 --seed tips --workers 2
    python benchmarks/strategy_tips.py --only keep-flexible --hands 10000 --seed tips \\
        --merge src/ginrummy/data/strategy_tips.json     # more hands for one tip, others kept
    python benchmarks/strategy_tips.py --merge src/ginrummy/data/strategy_tips.json --only ""
                                                          # new text, every figure kept

Each run is seeded from ``--seed`` and its two players only, so a run gives the same figure
alone (``--only``) or with the others, with any number of workers; every run keeps the command
that reproduces it (``docs/learning.md`` lists them). The text of the tips lives here, next to
the evidence; a tip is advice we stand behind, so no tip's run may show it costing points.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any

from ginrummy.engine.cards import CARD_VALUE
from ginrummy.engine.melds import best_arrangement
from ginrummy.engine.move import Move
from ginrummy.engine.view import PlayerView
from ginrummy.players.hard import MEDIUM, HardPlayer, Style
from ginrummy.players.knowledge import Evidence
from ginrummy.selfplay.simulate import Setup, run_hands
from ginrummy.selfplay.summary import summarize_hands

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "src" / "ginrummy" / "data" / "strategy_tips.json"
PROFILE = "modern"

#: The opponent model reading only pickups, or only discards and passes.
PICKUPS_ONLY = Evidence(discard_rank=1.0, discard_near=1.0, discard_far=1.0,
                        passed_rank=1.0, passed_near=1.0, passed_far=1.0)
DISCARDS_ONLY = Evidence(took_rank=1.0, took_near=1.0, took_far=1.0)

STYLES: dict[str, Style] = {
    "medium": MEDIUM,
    "medium-holds-out": replace(MEDIUM, knock_at_once=False),
    "medium-no-flexibility": replace(MEDIUM, outlook_weight=0.0, outlook_late=0.0),
    "medium-reads-pickups": replace(MEDIUM, read_opponent=True, danger_cost=6.0,
                                    danger_late=6.0, evidence=PICKUPS_ONLY),
    "medium-reads-discards": replace(MEDIUM, read_opponent=True, danger_cost=6.0,
                                     danger_late=6.0, evidence=DISCARDS_ONLY),
    "medium-takes-maybes": replace(MEDIUM, take_margin=-4.0),
    "medium-safe-late": replace(MEDIUM, read_opponent=True, danger_cost=0.0, danger_late=12.0),
}


class ThrowLowPlayer(HardPlayer):
    """``medium`` that ignores "throw high deadwood first": when it discards without knocking,
    it throws its lowest loose card (of the 11-card hand's best arrangement) instead."""

    name = "medium-throws-low"
    style = MEDIUM

    def choose(self, view: PlayerView) -> str:
        move = super().choose(view)
        if not move.startswith("discard "):
            return move
        taken = -1 if view.taken is None else int(view.taken)
        loose = [c for c in range(52)
                 if best_arrangement(view.hand_mask).deadwood_mask >> c & 1 and c != taken]
        if not loose:
            return move
        low = str(Move.discard(min(loose, key=lambda c: (CARD_VALUE[c], c))))
        return low if low in view.legal_moves else move


def player(name: str) -> Any:
    """The player spec ``simulate`` takes: a picklable maker."""
    if name == "medium-throws-low":
        return ThrowLowPlayer
    return partial(HardPlayer, style=STYLES[name])


#: The players of the runs, in words (the kind of opponent each tip is measured against).
PLAYER_WORDS: dict[str, str] = {
    "medium": "medium (knocks at its first chance)",
    "medium-holds-out": "medium that knocks only when an undercut is unlikely and the knock "
                        "scores enough (hard's knock rule)",
    "medium-throws-low": "medium that throws its lowest loose card first",
    "medium-no-flexibility": "medium that ignores how many ways a card can still meld",
    "medium-reads-pickups": "medium that avoids feeding what its opponent picked up",
    "medium-reads-discards": "medium that prefers cards next to its opponent's discards",
    "medium-takes-maybes": "medium that also takes a discard for a maybe",
    "medium-safe-late": "medium that plays safe when the stock runs low",
}

#: (tip key, follower, ignorer): each a run of the follower against the ignorer.
RUNS: list[tuple[str, str, str]] = [
    ("knock-when-it-pays", "medium-holds-out", "medium"),
    ("throw-high", "medium", "medium-throws-low"),
    ("keep-flexible", "medium", "medium-no-flexibility"),
    ("watch-pickups", "medium-reads-pickups", "medium"),
    ("use-discards", "medium-reads-discards", "medium"),
    ("take-when-it-helps", "medium", "medium-takes-maybes"),
    ("safe-late", "medium-safe-late", "medium"),
]

#: The tips in our own words, each with the situation that shows it. Each says only what its
#: run and its situation (confirmed by the coach) show; the caveats are in docs/learning.md.
TIPS: list[dict[str, str]] = [
    {"key": "knock-when-it-pays", "title": "Knock when it pays, not at every chance",
     "tip": "Knock when your opponent is unlikely to undercut you and the knock scores well, "
            "as with a low count early in the hand; otherwise play on toward gin.",
     "situation": "knock-early-with-low-deadwood"},
    {"key": "throw-high", "title": "Throw high cards first",
     "tip": "Loose kings, queens and jacks cost 10 points each if your opponent knocks; get "
            "rid of them before low loose cards.",
     "situation": "qka-not-a-run"},
    {"key": "keep-flexible", "title": "Keep the cards that can still meld",
     "tip": "Between two discards that leave the same count, keep the one with more ways to "
            "meld: a pair, or two cards of a suit close together, beats a lonely card.",
     "situation": "throw-the-lonely-card"},
    {"key": "watch-pickups", "title": "Watch what your opponent picks up",
     "tip": "A card your opponent took from the pile tells you what they collect: do not "
            "throw the cards that go with it.",
     "situation": "do-not-feed-your-opponent"},
    {"key": "use-discards", "title": "Use their discards",
     "tip": "What your opponent throws away, and the cards next to it, they are unlikely to "
            "want: those are the safer cards to throw.",
     "situation": "use-their-discards"},
    {"key": "take-when-it-helps", "title": "Take the discard only when it helps",
     "tip": "Pick up the top discard to make or extend a meld; taking it for a maybe costs "
            "you a stock draw and shows your opponent what you want.",
     "situation": "pass-an-upcard-that-does-not-help"},
    {"key": "safe-late", "title": "Late in the hand, play safe",
     "tip": "When the stock runs low, a card your opponent cannot use is worth more than a "
            "point or two of deadwood.",
     "situation": "late-in-the-hand-play-safe"},
]


def surest_first(tips: list[dict[str, str]], runs: list[dict[str, Any]]) -> list[dict[str, str]]:
    """The tips ordered by their evidence: the highest lower end of a run's interval first
    (a tip without runs last), ties in the order of ``TIPS``."""
    low = {t["key"]: max((r["net_points_per_hand"]["low"] for r in runs
                          if r["tip"] == t["key"]), default=float("-inf")) for t in tips}
    return sorted(tips, key=lambda t: -low[t["key"]])


def command(key: str, hands: int, seed: str) -> str:
    """The command that reproduces the runs of one tip."""
    return f"python benchmarks/strategy_tips.py --only {key} --hands {hands} --seed {seed}"


def run(follower: str, ignorer: str, hands: int, seed: str, workers: int) -> dict[str, Any]:
    """One run: the follower's net points per hand against the ignorer, and hand shares."""
    setup = Setup.of(PROFILE, [player(follower), player(ignorer)], seed=f"{seed}/{follower}"
                     f"-vs-{ignorer}")
    records = run_hands(setup, hands, workers=workers)
    summary = summarize_hands(records, [follower, ignorer])
    net = summary["players"][0]["net_points_per_hand"]
    won = summary["players"][0]["hand_wins"]
    return {
        "follower": follower,
        "ignorer": ignorer,
        "hands": hands,
        "seed": seed,
        "net_points_per_hand": {k: net[k] for k in ("mean", "low", "high", "n")},
        "hand_wins": {k: won[k] for k in ("share", "low", "high", "n")},
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--seed", default="tips")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--only", help="comma-separated tip keys to run (others: --merge)")
    parser.add_argument("--merge", type=Path, help="keep the other tips' runs from this file")
    parser.add_argument("-o", "--output", type=Path, default=OUT)
    args = parser.parse_args(argv)
    keys = [t["key"] for t in TIPS]
    only = keys if args.only is None else [k for k in args.only.split(",") if k]
    unknown = set(only) - set(keys)
    if unknown:
        parser.error(f"unknown tip(s): {', '.join(sorted(unknown))}")
    kept: list[dict[str, Any]] = []
    if args.merge:
        old = json.loads(args.merge.read_text(encoding="utf-8"))
        known = set(RUNS)  # a run of a tip or player pair no longer measured is dropped
        kept = [r for r in old["runs"] if r["tip"] not in only
                and (r["tip"], r["follower"], r["ignorer"]) in known]
    fresh = []
    for key, follower, ignorer in RUNS:
        if key not in only:
            continue
        start = time.perf_counter()
        found = run(follower, ignorer, args.hands, args.seed, args.workers)
        found["tip"] = key
        fresh.append(found)
        net = found["net_points_per_hand"]
        print(f"{key}: {follower} vs {ignorer}: {net['mean']:+.2f} "
              f"({net['low']:+.2f} to {net['high']:+.2f}) "
              f"[{time.perf_counter() - start:.0f} s]", file=sys.stderr, flush=True)
    order = {(k, f, i): n for n, (k, f, i) in enumerate(RUNS)}
    runs = sorted(kept + fresh, key=lambda r: order[(r["tip"], r["follower"], r["ignorer"])])
    for r in runs:
        r["command"] = command(r["tip"], r["hands"], r.get("seed", args.seed))
    doc = {"profile": PROFILE, "players": PLAYER_WORDS, "tips": surest_first(TIPS, runs),
           "runs": runs,
           "made_by": "python benchmarks/strategy_tips.py (each run's command is beside it)"}
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n",
                           encoding="utf-8")
    print(f"Wrote {args.output}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
