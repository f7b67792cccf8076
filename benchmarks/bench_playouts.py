"""Random-move playouts of whole hands: ours against OpenSpiel and RLCard, hands/s.

Run from the repository root (after ``pip install -e .[bench]``)::

    python benchmarks/bench_playouts.py [--hands 400] [--reps 5] [--seed 1] [--markdown]

A playout deals a hand and plays uniformly random legal moves for both seats until the hand is
over (knock, gin, or the stock runs down). What is timed, per hand, deal included:

- ours, through the public API: ``ginrummy.Hand(rules, seed=...)``, then
  ``hand.play(rng.choice(hand.legal_moves()))`` until ``hand.result`` is set; every move is
  checked by ``play`` as it would be for a person;
- ours, as computer players play: ``ginrummy.players.make("random")`` for each seat and
  ``ginrummy.selfplay.play.play_hand``, which builds each seat's ``PlayerView`` before every move;
- OpenSpiel 2.0.2: ``pyspiel.load_game("gin_rummy")``, ``new_initial_state()``, then a random
  element of ``legal_actions()`` at every node (at chance nodes, the deal and the stock, every
  outcome has the same probability, which the script checks before timing) until terminal;
- RLCard 1.2.0 (if installed): ``rlcard.make("gin-rummy")`` with two ``RandomAgent``s, stepping
  ``env.step(agent.step(state))`` until ``env.is_over()`` (``env.run`` does the same plus
  trajectory bookkeeping).

The engines do not play the same game, so the hands differ in length; the table shows the
average number of player moves per hand. Rule differences that matter here: OpenSpiel scores a
tie after a knock as 0 (no undercut), lets layoffs chain only two deep, and has no big gin;
RLCard has no layoffs and no undercut (it pays a knock or gin from its own payoff table).
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import sys
from collections.abc import Callable, Sequence
from typing import Any

import pyspiel

import ginrummy
from _common import Measure, environment_lines, load_line, print_table, run_interleaved
from ginrummy.engine.rules import PROFILE_NAMES, RuleSet, get_rules
from ginrummy.players import make
from ginrummy.selfplay.play import play_hand

#: A playout batch: plays ``n`` hands and returns the number of player moves made.
Batch = Callable[[int], int]


def ours_direct(rules: RuleSet, seed: int) -> Batch:
    """Hands dealt from ``seed + i``, random moves straight from ``Hand.legal_moves()``."""

    def batch(n: int) -> int:
        choice = random.Random(seed).choice
        moves = 0
        for i in range(n):
            hand = ginrummy.Hand(rules, seed=seed + i)
            while hand.result is None:
                hand.play(choice(hand.legal_moves()))
                moves += 1
        return moves

    return batch


def ours_players(rules: RuleSet, seed: int) -> Batch:
    """The same deals, played by two ``random`` players through ``selfplay.play_hand``."""

    def batch(n: int) -> int:
        players = [make("random", seed=seed), make("random", seed=seed + 1)]
        moves = 0
        for i in range(n):
            hand = ginrummy.Hand(rules, seed=seed + i)
            play_hand(hand, players)
            moves += len(hand.history)
        return moves

    return batch


def openspiel_batch(game: Any, seed: int) -> Batch:
    """OpenSpiel's gin_rummy: random legal actions at every node, chance nodes included."""

    def batch(n: int) -> int:
        choice = random.Random(seed).choice
        moves = 0
        for _ in range(n):
            state = game.new_initial_state()
            while not state.is_terminal():
                if not state.is_chance_node():
                    moves += 1
                state.apply_action(choice(state.legal_actions()))
        return moves

    return batch


def check_openspiel_chance(game: Any, hands: int, seed: int) -> None:
    """Stop unless every chance node's outcomes are its legal actions, all equally likely.

    That is what makes ``random.choice(state.legal_actions())`` a correct chance sample.
    """
    choice = random.Random(seed).choice
    for _ in range(hands):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                probs = {p for _, p in outcomes}
                actions = [a for a, _ in outcomes]
                if len(probs) != 1 or sorted(actions) != sorted(state.legal_actions()):
                    sys.exit("OpenSpiel chance node is not uniform over its legal actions")
            state.apply_action(choice(state.legal_actions()))


def rlcard_batch(seed: int) -> Batch:
    """RLCard's gin-rummy env with two RandomAgents (numpy's global RNG, as RLCard uses)."""
    import numpy as np
    import rlcard
    from rlcard.agents import RandomAgent

    env = rlcard.make("gin-rummy", config={"seed": seed})
    agents = [RandomAgent(num_actions=env.num_actions) for _ in range(env.num_players)]

    def batch(n: int) -> int:
        env.seed(seed)
        np.random.seed(seed)
        moves = 0
        for _ in range(n):
            state, seat = env.reset()
            while not env.is_over():
                state, seat = env.step(agents[seat].step(state))
                moves += 1
        return moves

    return batch


def as_measure(engine: str, what: str, batch: Batch, hands: int, ref: bool = False) -> Measure:
    """A table row whose unit is hands; records the moves per hand of the last batch."""
    m = Measure(engine, what, lambda: 0, reference=ref)

    def work() -> int:
        moves = batch(hands)
        m.extra["moves/hand"] = f"{moves / hands:.1f}"
        return hands

    m.work = work
    return m


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--hands", type=int, default=400, help="hands per batch (400)")
    parser.add_argument("--reps", type=int, default=5, help="repetitions of each batch (5)")
    parser.add_argument("--seed", type=int, default=1, help="seed of deals and moves (1)")
    parser.add_argument(
        "--rules",
        default="browser",
        choices=PROFILE_NAMES,
        help="our rule profile (browser: gin and undercut bonus 25, knock at 10, no big gin,"
        " the closest to OpenSpiel's defaults)",
    )
    parser.add_argument(
        "--cpu", action="store_true",
        help="time with this process's CPU time instead of the wall clock (a loaded machine)",
    )
    parser.add_argument("--markdown", action="store_true", help="print Markdown tables")
    args = parser.parse_args(argv)
    n = args.hands
    rules = get_rules(args.rules)
    have_rlcard = importlib.util.find_spec("rlcard") is not None

    print("Random playouts of whole hands, hands per second")
    for line in environment_lines(["ginrummy", "open_spiel", "rlcard", "numpy"]):
        print(line)
    print(
        f"work    : {n:,} hands per batch (seed {args.seed}), repetitions of every batch:"
        f" {args.reps}; our rules: {rules.describe()}"
    )

    game = pyspiel.load_game("gin_rummy")
    print(f"OpenSpiel game parameters: {game.get_parameters()}")
    check_openspiel_chance(game, 20, args.seed)

    rows = [
        as_measure(
            "ours",
            "Hand + random.choice(legal_moves())",
            ours_direct(rules, args.seed),
            n,
        ),
        as_measure(
            "ours",
            'players.make("random") + play_hand',
            ours_players(rules, args.seed),
            n,
        ),
        as_measure(
            "OpenSpiel",
            "gin_rummy state, random legal actions",
            openspiel_batch(game, args.seed),
            n,
            ref=True,
        ),
    ]
    if have_rlcard:
        rows.append(
            as_measure("RLCard", "gin-rummy env, 2 RandomAgents", rlcard_batch(args.seed), n)
        )
    else:
        print("RLCard is not installed (pip install rlcard==1.2.0): its row is left out.")

    print("\nTiming (progress on stderr):", file=sys.stderr)
    run_interleaved(rows, args.reps, cpu=args.cpu)
    print(f"clock   : {'CPU time of this process' if args.cpu else 'wall clock'}")
    print_table(
        f"Random playouts ({n:,} hands per batch, repetitions: {args.reps})",
        "hands",
        rows,
        markdown=args.markdown,
        time_unit="ms",
    )
    print(
        "\n'vs reference' = median hands/s divided by OpenSpiel's median hands/s."
        " moves/hand counts player decisions (not OpenSpiel's chance nodes)."
    )
    print(load_line("at the end"))
    print(
        "Rule differences: OpenSpiel scores a tie after a knock as 0, chains layoffs only two"
        " deep and has no big gin; RLCard has no layoffs and no undercut."
    )


if __name__ == "__main__":
    main()
