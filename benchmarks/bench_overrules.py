"""Where the expert departs from ``hard``, which move was better on the real cards?

A diagnostic for work on the expert's search (it reads the opponent's real hand and the real
stock to judge, which no player does). The expert plays ``bench_strength.py``'s seeded matches
against ``simple`` (``house`` rules, seed ``s1``); at each of its decisions ``hard``'s rules
are asked too, on the same view. Where the two differ, both moves are judged on the real hand:
``--continuations`` times, the real position is copied with its stock shuffled (the opponent
keeps its real cards), the move is played, and the rest of the hand is played by ``hard`` for
the expert's seat and by ``simple`` for the opponent (the same shuffles and seeds for both
moves); the judgement is the mean difference of the hand's points, the expert's move less
``hard``'s, from the expert's seat.

Averaged over many positions this is a fair verdict on the departures of each kind (the real
hand is a draw from what the view could not tell apart), given that ``hard`` plays the rest of
the hand; a single position's figure says little. The table groups the departures by the
decision (a draw the expert took or declined, a discard early or late in the hand, a knock),
with the mean difference a departure, its standard error, how many were better and worse, and
what they add up to a match.

Run from the repository root::

    python benchmarks/bench_overrules.py [--matches 60] [--start 0] [--continuations 100]
        [--player expert] [--workers 2] [--markdown]

``--player`` takes ``bench_strength.py``'s player specs (``expert/at_once_search_takes=true``).
Not a test: it prints figures, whatever they are.
"""

from __future__ import annotations

import argparse
import random
import statistics
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from typing import NamedTuple

from _common import environment_lines, load_line, parse_shared_args, print_rows
from _matches import PlayerSpec, balanced_match, decisions
from ginrummy.hand import Hand
from ginrummy.players import make
from ginrummy.players.base import Player
from ginrummy.view import PlayerView


class Departure(NamedTuple):
    """One decision where the expert's move was not ``hard``'s, judged on the real cards."""

    kind: str
    #: Mean over the continuations of the points, the expert's move less hard's.
    difference: float


class Recorder(Player):
    """The expert, with ``hard``'s answer to every view it is asked about kept beside its own."""

    name = "recorder"

    def __init__(self, inner: Player, hard: Player) -> None:
        super().__init__(None)
        self.inner = inner
        self.hard = hard
        #: (the expert's move, hard's move) at each decision, in order.
        self.moves: list[tuple[str, str]] = []

    def decide(self, view: PlayerView) -> str:
        move = self.inner.choose(view)
        self.moves.append((move, self.hard.choose(view)))
        return move


def kind_of(phase: str, ours: str, theirs: str, stock: int) -> str:
    """The row a departure falls in."""
    first, second = ours.split()[0], theirs.split()[0]
    if phase in ("opening", "draw", "last_chance"):
        return f"{phase}: {first} where hard would {second}"
    if first == "knock" or second == "knock":
        return f"discard: {first} where hard would {second}"
    return "discard, stock 16 or more" if stock > 15 else "discard, stock 15 or less"


def points_after(hand: Hand, seat: int, move: str, shuffles: int, seed: str) -> list[int]:
    """The hand's points for ``seat`` after ``move``, over ``shuffles`` shuffles of the stock,
    the rest played by ``hard`` (``seat``) and ``simple``."""
    out = []
    for j in range(shuffles):
        world = hand.copy()
        random.Random(f"{seed}/{j}").shuffle(world.stock)
        world.play(move)
        ours, theirs = make("hard", seed=f"{seed}/us/{j}"), make("simple", seed=f"{seed}/them/{j}")
        while not world.over:
            mover = world.to_play
            world.play((ours if mover == seat else theirs).choose(world.view(mover)))
        result = world.result
        assert result is not None
        winner = result.winner_seat
        out.append(0 if winner is None else result.points if winner == seat else -result.points)
    return out


def departures(args: tuple[PlayerSpec, int, int]) -> list[Departure]:
    """The departures of match ``i``, judged."""
    spec, i, shuffles = args
    seat = i % 2
    recorder = Recorder(spec.build(f"s1/A/{i}"), make("hard", seed=f"s1/H/{i}"))
    match, players = balanced_match("s1", i, recorder, make("simple", seed=f"s1/B/{i}"))
    # The position before each of the expert's moves; the recorder holds both answers to it.
    before = [(hand.copy(), view) for hand, mover, view in decisions(match, players)
              if mover == seat]
    found: list[Departure] = []
    for (hand, view), (ours, theirs) in zip(before, recorder.moves, strict=True):
        if ours != theirs:
            seed = f"{i}/{len(found)}"
            a = points_after(hand, seat, ours, shuffles, seed)
            b = points_after(hand, seat, theirs, shuffles, seed)
            found.append(Departure(kind_of(view.phase, ours, theirs, view.stock_count),
                                   statistics.mean(x - y for x, y in zip(a, b, strict=True))))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=60)
    parser.add_argument("--start", type=int, default=0)
    parser.add_argument("--continuations", type=int, default=100)
    parser.add_argument("--player", default="expert")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--markdown", action="store_true")
    args = parse_shared_args(parser, None)
    spec = PlayerSpec.parse(args.player)
    for line in environment_lines(["ginrummy"]):
        print(line)
    print(f"matches : {args.start}-{args.start + args.matches - 1} of {spec} against simple, "
          f"house rules, seed 's1'; {args.continuations} continuations a move")
    jobs = [(spec, i, args.continuations) for i in range(args.start, args.start + args.matches)]
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        found = [d for match in pool.map(departures, jobs) for d in match]
    groups: dict[str, list[float]] = defaultdict(list)
    for d in found:
        groups[d.kind].append(d.difference)
    groups["all departures"] = [d.difference for d in found]
    rows = []
    for kind, values in sorted(groups.items(), key=lambda kv: -len(kv[1])):
        se = statistics.stdev(values) / len(values) ** 0.5 if len(values) > 1 else float("nan")
        rows.append([kind, str(len(values)), f"{statistics.mean(values):+.2f}", f"{se:.2f}",
                     str(sum(v > 0 for v in values)), str(sum(v < 0 for v in values)),
                     f"{sum(values) / args.matches:+.2f}"])
    print()
    print_rows(["departure", "count", "points each", "se", "better", "worse", "points a match"],
               rows, markdown=args.markdown, right_from=1)
    print(load_line("at the end"))


if __name__ == "__main__":
    main()
