"""What knowing the opponent's hand would be worth: ``hard`` (or ``expert``) told the truth.

A diagnostic for work on the players' inference, not a player: the "oracle" below reads the
opponent's real hand, which no player of the product ever sees (they decide from a
``PlayerView``). It plays ``hard``'s rules with an opponent model that holds the real hand
(every card certain), against ``simple``, in the balanced, seeded matches of
``bench_strength.py`` (the same decks, seats and first dealers for every channel), so the gap
between the rows is what perfect inference would add through each channel of ``hard``:

* ``plain``: ``hard`` as it is (its model guesses from public play);
* ``knock``: the truth only where ``hard`` decides whether to knock (its undercut estimate and
  the arrangement it declares);
* ``all``: the truth everywhere (the discard's danger and outlook, the draw, the knock).

With ``--player expert`` the same channels reach the expert through the ``hard`` it builds on
(its candidates and, against a quick knocker, its knock and takes), and in ``all`` every world
of its search also holds the opponent's real hand (the stock still a random order of the
other unseen cards): what perfect inference would add to the search. One more channel is the
expert's alone:

* ``worlds``: only the worlds of its search are told (``hard``'s ranking of the candidates,
  its knock and its takes read public play, as in ``plain``); with ``--told K``, only ``K`` of
  the opponent's cards not already known, picked at random at each decision, the rest of each
  world's hand guessed as usual (how good inference must get to pay).

Run from the repository root::

    python benchmarks/bench_oracle.py [--matches 400] [--start 0] [--workers 2] [--seed s1]
        [--player hard|expert] [--channels plain,knock,all[,worlds]] [--told K]
        [--style KEY=VALUE ...] [--markdown]

``--style`` changes fields of ``hard``'s style for every channel (``danger_cost=0`` shows what
the danger channel is worth). A second table says how the hands ended in each channel, seen
from the oracle's seat (its share of the hands, and the points a hand it scored or gave in each
kind of ending, and the share of its discards that ``simple`` picked up), so it shows where
the truth changes the play. Not a test: it prints figures, whatever they are.
"""

from __future__ import annotations

import argparse
import copy
import dataclasses
import itertools
import random
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from typing import NamedTuple

from _common import environment_lines, load_line, print_rows
from _matches import _setting, balanced_match, ci_text, decisions, wilson
from ginrummy.engine.settle import HandResult
from ginrummy.engine.view import PlayerView
from ginrummy.players import make
from ginrummy.players.expert import ExpertPlayer
from ginrummy.players.hard import HARD, HardPlayer, Style
from ginrummy.players.knowledge import Fit, OpponentModel

#: The channels of ``hard`` (the default run), and the one the expert adds.
HARD_CHANNELS = ("plain", "knock", "all")
CHANNELS = (*HARD_CHANNELS, "worlds")

#: How a hand ended, from the oracle's seat, in the order of the outcomes table.
ENDINGS = ("its knock won", "its knock undercut", "its gin", "simple's knock won",
           "simple undercut", "simple's gin", "wall")


def ending(result: HandResult, seat: int) -> str:
    """Which of :data:`ENDINGS` ``result`` is for the player in ``seat``."""
    if result.knocker_seat is None:
        return "wall"
    own = result.knocker_seat == seat
    if result.kind in ("gin", "big_gin"):
        return "its gin" if own else "simple's gin"
    if own:
        return "its knock won" if result.winner_seat == seat else "its knock undercut"
    return "simple undercut" if result.winner_seat == seat else "simple's knock won"


class OracleHard(HardPlayer):
    """``hard`` whose opponent model is told the opponent's real hand (``truth``, set before
    each decision by the match loop below) in the given channel."""

    def __init__(self, seed: str, style: Style, channel: str) -> None:
        super().__init__(seed, style)
        self.channel = channel
        self.truth = 0

    def _oracle(self, view: PlayerView) -> OpponentModel:
        model = OpponentModel(view, self.style.evidence)
        model.known = self.truth
        model.hidden_count = 0
        model.prob = [float(self.truth >> c & 1) for c in range(52)]
        return model

    def model(self, view: PlayerView) -> OpponentModel:
        if self.channel == "all":
            return self._oracle(view)
        return super().model(view)

    def _sampled_outcomes(self, view: PlayerView, model: OpponentModel, deadwood: int,
                          mask: int, taken: int, *, final: bool) -> list[float] | None:
        if self.channel == "knock":
            model = self._oracle(view)
        return super()._sampled_outcomes(view, model, deadwood, mask, taken, final=final)


class OracleExpert(ExpertPlayer):
    """``expert`` built on an :class:`OracleHard`; in the ``all`` and ``worlds`` channels each
    world of its search holds the opponent's real hand, or ``told`` of its cards."""

    def __init__(self, seed: str, style: Style, channel: str, told: int | None = None) -> None:
        super().__init__(seed, style=style)
        self.channel = channel
        self.told = told
        self.oracle = OracleHard(seed, style, "plain" if channel == "worlds" else channel)
        self._hard = self.oracle
        self._hard.rng = self.rng
        self.picker = random.Random(f"{seed}/told")

    def guesses(self, view: PlayerView, model: OpponentModel, rng: random.Random,
                fit: Fit | None = None, count: int | None = None) -> list[int]:
        truth = self.oracle.truth
        count = self.samples if count is None else count
        if self.channel not in ("all", "worlds"):
            return super().guesses(view, model, rng, fit, count)
        if self.told is None:
            return [truth] * count
        hidden = [c for c in range(52) if truth >> c & 1 and not model.known >> c & 1]
        cards = self.picker.sample(hidden, min(self.told, len(hidden)))
        told = copy.copy(model)
        told.prob = list(model.prob)
        told._dangers = {}
        for c in cards:
            told.known |= 1 << c
            told.unseen &= ~(1 << c)
            told.prob[c] = 1.0
        told.hidden_count -= len(cards)
        # The worlds are built on the untold model (ExpertPlayer.worlds): its unseen cards
        # less each guess, which holds the told cards, make the same stock.
        return super().guesses(view, told, rng, fit, count)


class Outcome(NamedTuple):
    """One match, from the oracle's seat."""

    won: bool | None
    margin: int
    seconds: float
    #: Its hands by :func:`ending`.
    hands: Counter[str]
    #: Its points by ending: plus when it scored, minus when it gave.
    points: Counter[str]
    #: How many of its discards ``simple`` took, of how many it made.
    taken: int
    discards: int


def _one_match(args: tuple[str, str, Style, str, int, int | None]) -> Outcome:
    """Match ``i`` as ``bench_strength.py`` seeds it."""
    player, channel, style, seed, i, told = args
    start = time.perf_counter()
    seat = i % 2
    oracle: OracleHard | OracleExpert
    if player == "expert":
        oracle = OracleExpert(f"{seed}/A/{i}", style, channel, told)
    else:
        oracle = OracleHard(f"{seed}/A/{i}", style, channel)
    # The hard player that holds the truth (the expert's is the one it builds on).
    holder = oracle.oracle if isinstance(oracle, OracleExpert) else oracle
    match, players = balanced_match(seed, i, oracle, make("simple", seed=f"{seed}/B/{i}"))
    for hand, mover, _ in decisions(match, players):
        holder.truth = hand.hands[1 - mover]
    hands: Counter[str] = Counter()
    points: Counter[str] = Counter()
    taken = discards = 0
    for hand in match.hands:
        history = hand.history
        discards += sum(e.seat == seat and e.kind == "discard" for e in history)
        # simple's takes of the oracle's own discards (not of the upcard it passed on)
        taken += sum(e.kind == "take" and before.seat == seat and before.kind == "discard"
                     for before, e in itertools.pairwise(history))
        assert hand.result is not None
        kind = ending(hand.result, seat)
        hands[kind] += 1
        points[kind] += hand.result.points * (1 if hand.result.winner_seat == seat else -1)
    winner = match.score.winner
    totals = match.score.totals
    won = None if winner is None else winner == seat
    return Outcome(won, totals[seat] - totals[1 - seat], time.perf_counter() - start, hands,
                   points, taken, discards)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--matches", type=int, default=400)
    parser.add_argument("--start", type=int, default=0, help="the first match's number")
    parser.add_argument("--player", choices=("hard", "expert"), default="hard")
    parser.add_argument("--told", type=int, default=None,
                        help="worlds channel: how many of the opponent's cards its worlds are told "
                             "(default every one)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", default="s1")
    parser.add_argument("--channels", default=",".join(HARD_CHANNELS))
    parser.add_argument("--style", nargs="*", default=[], metavar="KEY=VALUE")
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args(argv)
    channels = args.channels.split(",")
    for channel in channels:
        if channel not in CHANNELS:
            parser.error(f"unknown channel {channel!r}; choose from {', '.join(CHANNELS)}")
        if channel == "worlds" and args.player != "expert":
            parser.error("the worlds channel is the expert's: add --player expert")
    settings = {}
    for pair in args.style:
        key, sep, value = pair.partition("=")
        if not sep:
            parser.error(f"write a style setting as KEY=VALUE, not {pair!r}")
        settings[key] = _setting(value)
    style = dataclasses.replace(HARD, **settings)
    for line in environment_lines(["ginrummy"]):
        print(line)
    print(f"rules   : house; {args.player} told the truth; {args.matches} matches per channel "
          f"(numbers {args.start} to {args.start + args.matches - 1}) against simple, seed "
          f"{args.seed!r}; style changes: {' '.join(args.style) or 'none'}")
    print()
    rows = []
    endings = []
    for channel in channels:
        jobs = [(args.player, channel, style, args.seed, i, args.told)
                for i in range(args.start, args.start + args.matches)]
        with ProcessPoolExecutor(max_workers=args.workers) as pool:
            results = list(pool.map(_one_match, jobs, chunksize=4))
        n = len(results)
        score = sum(1.0 if r.won else 0.5 if r.won is None else 0.0 for r in results)
        lo, hi = wilson(score, n)
        label = f"{args.player}, truth: {channel}"
        if channel == "worlds" and args.told is not None:
            label += f" ({args.told} cards)"
        rows.append([label, str(n), f"{100 * score / n:.1f}",
                     ci_text((100 * lo, 100 * hi)),
                     f"{sum(r.margin for r in results) / n:+.1f}",
                     f"{sum(r.seconds for r in results) / n:.2f}"])
        hands: Counter[str] = Counter()
        points: Counter[str] = Counter()
        for r in results:  # update, not +: a Counter sum drops the negative totals
            hands.update(r.hands)
            points.update(r.points)
        played = sum(hands.values())
        taken = sum(r.taken for r in results)
        discards = sum(r.discards for r in results)
        endings.append([label, str(played)] + [
            f"{100 * hands[k] / played:.1f} ({points[k] / hands[k]:+.1f})" if hands[k] else "-"
            for k in ENDINGS
        ] + [f"{sum(points.values()) / played:+.2f}", f"{100 * taken / discards:.1f}"])
    header = ["player", "matches", "match win %", "95% CI", "margin a match", "s/match"]
    print_rows(header, rows, markdown=args.markdown)
    print()
    print("How the hands ended: % of the hands (points a hand, + scored, - given)")
    print_rows(["player", "hands", *ENDINGS, "points a hand", "% of its discards taken"], endings,
               markdown=args.markdown)
    print(load_line("end"))


if __name__ == "__main__":
    main()
