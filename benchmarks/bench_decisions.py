"""Decision speed of each computer player, and ``simple`` self-play beside OpenSpiel's bot.

Run from the repository root::

    python benchmarks/bench_decisions.py [--positions 300] [--expert-positions 100]
        [--hands 300] [--reps 5] [--seed 1] [--expert-matches 0] [--markdown]

Decision time: positions are collected from real hands (``hard`` against ``simple`` and
``hard`` against ``hard``, ``house`` profile), keeping those where the seat to play has more
than one legal move; each player is timed on each position (``player.choose(view)``, the view
built beforehand), and the table shows the median, the 95th percentile and the maximum.
``expert`` runs at its default budget on the first ``--expert-positions`` positions. Those are
lone hands, where the expert assumes an opponent that knocks at once; ``--expert-matches N``
also times its decisions with a choice in N whole matches against ``hard`` and N against
``simple`` (seats alternating), where it reads the opponent's style from the finished hands
and searches longer against one that holds out.

Self-play: whole hands of ``simple`` against ``simple`` through
``ginrummy.selfplay.play.play_hand`` (which builds each seat's view before every move, as real play
does), beside OpenSpiel's ``SimpleGinRummyBot`` against itself in OpenSpiel's ``gin_rummy``
(``pyspiel.make_simple_gin_rummy_bot``; chance nodes drawn with Python's ``random``), one
process, batches interleaved. Hands differ in length between the two games: the table shows
player moves per hand (OpenSpiel's include laying melds and layoffs one action at a time).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from typing import Any

import pyspiel

from _common import (
    Measure,
    environment_lines,
    load_line,
    parse_shared_args,
    print_rows,
    print_table,
    run_interleaved,
)
from ginrummy import Hand
from ginrummy.engine.view import PlayerView
from ginrummy.players import PLAYERS, make
from ginrummy.selfplay.play import play_hand, play_match


def collect_positions(count: int, seed: int) -> list[PlayerView]:
    """Views of the seat to play, from real hands, where there is a choice to make."""
    out: list[PlayerView] = []
    game = 0
    pairings = (("hard", "simple"), ("hard", "hard"), ("simple", "hard"))
    while len(out) < count:
        names = pairings[game % len(pairings)]
        hand = Hand("house", seed=seed + game, dealer=game % 2)
        players = [make(names[0], seed=game), make(names[1], seed=game + 1)]
        while hand.result is None:
            view = hand.view(hand.to_play)
            if len(view.legal_moves) > 1 and len(out) < count:
                out.append(view)
            hand.play(players[hand.to_play].choose(view))
        game += 1
    return out


def time_decisions(name: str, views: list[PlayerView]) -> list[float]:
    player = make(name, seed=1)
    times = []
    for view in views:
        start = time.perf_counter()
        player.choose(view)
        times.append(time.perf_counter() - start)
    return times


def ours_selfplay(n: int, seed: int) -> int:
    players = [make("simple", seed=seed), make("simple", seed=seed + 1)]
    moves = 0
    for i in range(n):
        hand = Hand("house", seed=seed + i, dealer=i % 2)
        play_hand(hand, players)
        moves += len(hand.history)
    return moves


def openspiel_selfplay(n: int, seed: int) -> int:
    game = pyspiel.load_game("gin_rummy")
    params = game.get_parameters()
    bots = [pyspiel.make_simple_gin_rummy_bot(params, p) for p in range(2)]
    rng = random.Random(seed)
    moves = 0
    for _ in range(n):
        state: Any = game.new_initial_state()
        for bot in bots:
            bot.restart()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
            else:
                state.apply_action(bots[state.current_player()].step(state))
                moves += 1
    return moves


class _Timed:
    """Stands in for a player in ``play_match`` and times each of its decisions that has a
    choice to make."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.name = inner.name
        self.times: list[float] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def choose(self, view: PlayerView) -> str:
        start = time.perf_counter()
        move: str = self.inner.choose(view)
        if len(view.legal_moves) > 1:
            self.times.append(time.perf_counter() - start)
        return move


def expert_in_matches(opponent: str, matches: int, seed: int) -> list[float]:
    """The default expert's decision times in whole ``house`` matches against ``opponent``."""
    times: list[float] = []
    for i in range(matches):
        expert = _Timed(make("expert", seed=f"{seed}/{i}/expert"))
        other = make(opponent, seed=f"{seed}/{i}/{opponent}")
        play_match("house", [expert, other] if i % 2 == 0 else [other, expert],
                   seed=f"{seed}/{i}")
        times += expert.times
    return times


def time_row(label: str, times: list[float]) -> list[str]:
    times = sorted(times)
    p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
    return [label, str(len(times)), f"{1000 * statistics.median(times):.2f}",
            f"{1000 * p95:.2f}", f"{1000 * times[-1]:.2f}",
            f"{1000 * statistics.fmean(times):.2f}"]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--positions", type=int, default=300)
    parser.add_argument("--expert-positions", type=int, default=100)
    parser.add_argument("--hands", type=int, default=300)
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--expert-matches", type=int, default=0)
    parser.add_argument("--markdown", action="store_true")
    args = parse_shared_args(parser, argv)
    print("command : python benchmarks/bench_decisions.py " + " ".join(sys.argv[1:]))
    for line in environment_lines(["ginrummy", "open_spiel"]):
        print(line)

    views = collect_positions(args.positions, args.seed)
    print(f"\nDecision time over {len(views)} positions from real hands (house profile); "
          f"expert on the first {min(args.expert_positions, len(views))}")
    header = ["player", "decisions", "median ms", "p95 ms", "max ms", "mean ms"]
    rows = []
    for name in PLAYERS:
        subset = views[: args.expert_positions] if name == "expert" else views
        rows.append(time_row(name, time_decisions(name, subset)))
        print(f"  timed {name}", file=sys.stderr, flush=True)
    for opponent in ("hard", "simple") if args.expert_matches > 0 else ():
        times = expert_in_matches(opponent, args.expert_matches, args.seed)
        rows.append(time_row(f"expert, {args.expert_matches} matches vs {opponent}", times))
        print(f"  timed expert against {opponent}", file=sys.stderr, flush=True)
    print_rows(header, rows, markdown=args.markdown, right_from=1)

    ours = Measure("ours", "simple vs simple, selfplay.play_hand (views each move)",
                   lambda: args.hands)
    theirs = Measure("OpenSpiel", "SimpleGinRummyBot vs itself, gin_rummy", lambda: args.hands,
                     reference=True)
    moves: dict[str, int] = {}

    def ours_work() -> int:
        moves["ours"] = ours_selfplay(args.hands, args.seed)
        return args.hands

    def theirs_work() -> int:
        moves["theirs"] = openspiel_selfplay(args.hands, args.seed)
        return args.hands

    ours.work = ours_work
    theirs.work = theirs_work
    run_interleaved([ours, theirs], args.reps)
    ours.extra["moves/hand"] = f"{moves['ours'] / args.hands:.1f}"
    theirs.extra["moves/hand"] = f"{moves['theirs'] / args.hands:.1f}"
    print_table(f"Self-play, {args.hands} hands per batch, {args.reps} repetitions, one process",
                "hands", [ours, theirs], markdown=args.markdown, time_unit="ms")
    print(load_line("at the end"))


if __name__ == "__main__":
    main()
