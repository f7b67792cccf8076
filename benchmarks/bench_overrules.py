"""Where the expert departs from ``hard`` (or another player), which move was better on the
real cards?

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

With ``--near Z`` the table also asks what a less cautious search would have done. The search
keeps its favourite (``hard``'s move) unless a rival beats it by enough standard errors of
their paired differences (``confidence``); each departure is grouped again by the rival's lead
in those standard errors (its *z*) at the search's last look, and every decision where the
search kept its favourite while a rival led it by ``Z`` or more is judged too, the rival
against the move played, by the same band: were those rivals better on the real cards?

With ``--against SPEC`` the answers compared are another player's instead of ``hard``'s (the
rest of the hand is still played by ``hard``): ``--player expert/max_candidates=5 --against
expert`` judges a setting by the decisions where it differs from the default, on the real
cards, which takes far fewer matches than telling the two apart by match wins. When the other
player is an expert too, both are reseeded alike before each decision, so that their searches
start from the same worlds and differ by the setting, not by luck.

Run from the repository root::

    python benchmarks/bench_overrules.py [--matches 60] [--start 0] [--continuations 100]
        [--player expert] [--against hard] [--workers 2] [--near 0.25] [--markdown]

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
from ginrummy.engine.hand import Hand
from ginrummy.engine.player import Player
from ginrummy.engine.view import PlayerView
from ginrummy.players import make
from ginrummy.players.expert import ExpertPlayer
from ginrummy.players.search import MoveValues, paired_difference


class Departure(NamedTuple):
    """One decision where the expert's move was not the other player's, judged on the real
    cards."""

    kind: str
    #: Mean over the continuations of the points, the expert's move less the other's.
    difference: float


class Answer(NamedTuple):
    """The answers to one view: the expert's, the other player's, and the search's favourite
    and leading rival at its last look with the rival's lead in standard errors (``""`` and 0
    when there was no search or no rival led)."""

    ours: str
    theirs: str
    favourite: str
    rival: str
    z: float


class Recorder(Player):
    """The expert, with another player's answer to every view it is asked about kept beside
    its own, and what the expert's search saw last."""

    name = "recorder"

    def __init__(self, inner: Player, other: Player, seed: str | None = None) -> None:
        super().__init__(None)
        self.inner = inner
        self.other = other
        #: With a seed, both players are reseeded from it before each decision.
        self.same_seed = seed
        #: The answers at each decision, in order.
        self.moves: list[Answer] = []
        self._lead: tuple[str, str, float] = ("", "", 0.0)
        if isinstance(inner, ExpertPlayer):
            verdict = inner._verdict

            def watched(candidates: list[str], valued: MoveValues,
                        confidence: float | None = None) -> tuple[int, bool]:
                favourite = valued.points[candidates[0]]
                self._lead = (candidates[0], "", 0.0)
                for move in candidates[1:]:
                    diff = paired_difference(valued.points[move], favourite)
                    z = diff.mean / diff.stderr if diff.stderr > 0 else 0.0
                    if diff.mean > 0 and z > self._lead[2]:
                        self._lead = (candidates[0], move, z)
                return verdict(candidates, valued, confidence)

            inner._verdict = watched  # type: ignore[method-assign]

    def decide(self, view: PlayerView) -> str:
        self._lead = ("", "", 0.0)
        if self.same_seed is not None:
            for player in (self.inner, self.other):
                player.reseed(f"{self.same_seed}/{len(self.moves)}")
        move = self.inner.choose(view)
        self.moves.append(Answer(move, self.other.choose(view), *self._lead))
        return move


def kind_of(phase: str, ours: str, theirs: str, stock: int, other: str = "hard") -> str:
    """The row a departure from ``other``'s move falls in."""
    first, second = ours.split()[0], theirs.split()[0]
    if phase in ("opening", "draw", "last_chance"):
        return f"{phase}: {first} where {other} would {second}"
    if first == "knock" or second == "knock":
        return f"discard: {first} where {other} would {second}"
    return "discard, stock 16 or more" if stock > 15 else "discard, stock 15 or less"


#: The bands of the search's z by which decisions are grouped again with ``--near``.
BANDS = (0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0)


def band_of(z: float) -> str:
    """The band ``z`` falls in, as a row's label."""
    low = max(b for b in BANDS if b <= z)
    high = [b for b in BANDS if b > z]
    return f"z {low:.2f}-{high[0]:.2f}" if high else f"z {low:.2f}+"


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


def judged(hand: Hand, seat: int, ours: str, theirs: str, shuffles: int, seed: str) -> float:
    """The mean over the continuations of the points after ``ours`` less after ``theirs``."""
    a = points_after(hand, seat, ours, shuffles, seed)
    b = points_after(hand, seat, theirs, shuffles, seed)
    return statistics.mean(x - y for x, y in zip(a, b, strict=True))


def departures(args: tuple[PlayerSpec, PlayerSpec, int, int, float | None]) -> list[Departure]:
    """The departures of match ``i`` from the other player's moves, judged (with ``near``,
    also the rivals the search kept its favourite against at a lead of ``near`` standard
    errors or more)."""
    spec, other, i, shuffles, near = args
    seat = i % 2
    recorder = Recorder(spec.build(f"s1/A/{i}"), other.build(f"s1/H/{i}"),
                        f"s1/A/{i}" if other.name == "expert" else None)
    match, players = balanced_match("s1", i, recorder, make("simple", seed=f"s1/B/{i}"))
    # The position before each of the expert's moves; the recorder holds both answers to it.
    before = [(hand.copy(), view) for hand, mover, view in decisions(match, players)
              if mover == seat]
    found: list[Departure] = []
    for (hand, view), answer in zip(before, recorder.moves, strict=True):
        ours, theirs = answer.ours, answer.theirs
        seed = f"{i}/{len(found)}"
        if ours != theirs:
            difference = judged(hand, seat, ours, theirs, shuffles, seed)
            found.append(Departure(kind_of(view.phase, ours, theirs, view.stock_count,
                                           str(other)), difference))
            if near is not None and answer.rival == ours:
                found.append(Departure(f"departed, {band_of(answer.z)}", difference))
        elif (near is not None and answer.rival and ours == answer.favourite
              and answer.z >= near):
            found.append(Departure(f"kept the favourite, the rival at {band_of(answer.z)}",
                                   judged(hand, seat, answer.rival, ours, shuffles, seed)))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=60)
    parser.add_argument("--start", type=int, default=0)
    parser.add_argument("--continuations", type=int, default=100)
    parser.add_argument("--player", default="expert")
    parser.add_argument("--against", default="hard",
                        help="the player whose answers the expert's are compared with")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--near", type=float, default=None,
                        help="also judge the rivals the search led with by this many standard "
                             "errors or more and did not play, and group by that lead")
    parser.add_argument("--markdown", action="store_true")
    args = parse_shared_args(parser, None)
    spec, other = PlayerSpec.parse(args.player), PlayerSpec.parse(args.against)
    for line in environment_lines(["ginrummy"]):
        print(line)
    print(f"matches : {args.start}-{args.start + args.matches - 1} of {spec} against simple, "
          f"house rules, seed 's1', its moves against {other}'s; "
          f"{args.continuations} continuations a move")
    jobs = [(spec, other, i, args.continuations, args.near)
            for i in range(args.start, args.start + args.matches)]
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        found = [d for match in pool.map(departures, jobs) for d in match]
    groups: dict[str, list[float]] = defaultdict(list)
    for d in found:
        groups[d.kind].append(d.difference)
    plain = [d for d in found if not d.kind.startswith(("departed, ", "kept the favourite"))]
    groups["all departures"] = [d.difference for d in plain]
    rows = []
    def order(kind: str) -> tuple[int, int | str]:
        # The kinds of departure, the most frequent first, then the bands in order.
        if kind.startswith("departed, "):
            return 1, kind
        if kind.startswith("kept the favourite"):
            return 2, kind
        return 0, -len(groups[kind])

    for kind, values in sorted(groups.items(), key=lambda kv: order(kv[0])):
        if not values:  # the same moves throughout (a player against itself)
            rows.append([kind, "0", "", "", "0", "0", "+0.00"])
            continue
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
