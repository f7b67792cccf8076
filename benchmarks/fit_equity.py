"""Write ``src/ginrummy/data/hand_points.json``: the hand points behind the match equity.

Run from the repository root::

    python benchmarks/fit_equity.py [--simple 1000] [--hard 600] [--seed e1] [--workers 2]
        [--out src/ginrummy/data/hand_points.json]

Plays matches of ``hard`` against ``simple`` and against ``hard`` under the ``house`` profile
(seats and first dealer alternating, every seed derived from ``--seed``, so a run is
reproducible) and counts two things (:mod:`ginrummy.players.equity` reads them):

* ``won``: the points of every hand somebody won, by points;
* ``play_on``: each time ``hard`` could knock (without gin) against ``simple`` and chose to play
  on, what its hand came to in the end (its points, or minus the opponent's; 0 when cancelled);
  ``play_on_against_hard``: the same against ``hard`` (kept for comparison; the equity reads
  ``play_on``, ``hard``'s knock rule having been tuned against ``simple``).

It prints the counts and the mean of each; it is not a test.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from ginrummy.engine.match import Match
from ginrummy.engine.settle import HandResult
from ginrummy.engine.view import PlayerView
from ginrummy.players import make
from ginrummy.players.hard import HardPlayer
from ginrummy.players.knowledge import OpponentModel
from ginrummy.selfplay.play import play_match


class _Recording(HardPlayer):
    """``hard`` noting the hand number of each knock it could make and let go by."""

    def __init__(self, seed: str) -> None:
        super().__init__(seed)
        self.declined: list[int] = []

    def should_knock(self, view: PlayerView, model: OpponentModel, deadwood: int,
                     mask: int, taken: int) -> bool:
        knock = super().should_knock(view, model, deadwood, mask, taken)
        if not knock:
            self.declined.append(view.hand_number)
        return knock


def _signed(result: HandResult, seat: int) -> int:
    if result.winner_seat is None:
        return 0
    return result.points if result.winner_seat == seat else -result.points


def _one(args: tuple[str, str, int]) -> tuple[str, list[int], list[int]]:
    """One match: the points of its won hands, and the outcomes after declined knocks."""
    opponent, seed, index = args
    me = _Recording(f"{seed}-hard-{index}")
    other = make(opponent, seed=f"{seed}-{opponent}-{index}")
    seat = index % 2
    players = [me, other] if seat == 0 else [other, me]
    match: Match = play_match("house", players, seed=f"{seed}-deal-{index}",
                              first_dealer=(index // 2) % 2)
    results = [h.result for h in match.hands if h.result is not None]
    won = [r.points for r in results if r.winner_seat is not None]
    play_on = [_signed(results[n - 1], seat) for n in me.declined]
    return opponent, won, play_on


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--simple", type=int, default=1000, help="matches against simple")
    parser.add_argument("--hard", type=int, default=600, help="matches against hard")
    parser.add_argument("--seed", default="e1")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", default="src/ginrummy/data/hand_points.json")
    args = parser.parse_args(argv)
    jobs = [("simple", args.seed, i) for i in range(args.simple)]
    jobs += [("hard", args.seed, i) for i in range(args.hard)]
    won: Counter[int] = Counter()
    play_on: dict[str, Counter[int]] = {"simple": Counter(), "hard": Counter()}
    with ProcessPoolExecutor(args.workers) as pool:
        for opponent, hands, declined in pool.map(_one, jobs, chunksize=8):
            won.update(hands)
            play_on[opponent].update(declined)
    data = {
        "source": (f"benchmarks/fit_equity.py --simple {args.simple} --hard {args.hard} "
                   f"--seed {args.seed}"),
        "won": sorted(won.items()),
        "play_on": sorted(play_on["simple"].items()),
        "play_on_against_hard": sorted(play_on["hard"].items()),
    }
    Path(args.out).write_text(json.dumps(data) + "\n", encoding="utf-8")
    for name, counts in (("won", won), ("play_on", play_on["simple"]),
                         ("play_on_against_hard", play_on["hard"])):
        total = sum(counts.values())
        mean = sum(p * n for p, n in counts.items()) / max(total, 1)
        print(f"{name}: {total} counted, mean {mean:.2f} points", file=sys.stdout)
    print(f"written to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
