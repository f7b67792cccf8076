"""How well the players guess the opponent's hidden cards: log loss on the real hand.

A diagnostic for work on inference (it reads the opponent's real hand to score the guesses,
which no player does). ``hard`` plays seat 0 against the opponent (``simple`` or ``hard``)
under ``house`` rules; at every draw of seat 0, each way of guessing gives each unseen card a
probability of being in the opponent's hand, scored by the mean log loss per unseen card on
the real hand (lower is better):

* ``count only``: every unseen card equally likely (the number of hidden cards, nothing more);
* ``model``: ``hard``'s per-card evidence (``knowledge.OpponentModel``);
* ``developed``: how often each card is in the expert's developed guesses
  (``worlds.sample_developed_hands``), without testing them against the opponent's moves;
* ``fitted``: the same guesses kept by their fit to the opponent's moves
  (``worlds.fitting_hands`` with ``QUICK_FIT`` against ``simple``, ``PATIENT_FIT`` against
  ``hard``), as the expert makes them when told to (``quick_fit``, ``patient_fit``).

It also counts how often the opponent's real hand, walked back along its real draws,
contradicts none of its moves (``knowledge.PastPlay``): every time against ``simple``, whose
rules ``QUICK_FIT`` describes.

Run from the repository root::

    python benchmarks/bench_inference.py [--hands 60] [--guesses 200] [--markdown]

Not a test: it prints figures, whatever they are.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics

from _common import environment_lines, load_line, parse_shared_args, print_rows
from ginrummy import Hand
from ginrummy.players import make
from ginrummy.players.expert import ExpertPlayer
from ginrummy.players.knowledge import (
    PATIENT_FIT,
    QUICK_FIT,
    OpponentModel,
    PastPlay,
    opponent_turns,
)
from ginrummy.players.worlds import fitting_hands, sample_developed_hands


def _log_loss(prob: dict[int, float], truth: int) -> float:
    total = 0.0
    for card, p in prob.items():
        p = min(max(p, 1e-3), 1 - 1e-3)
        total += -math.log(p) if truth >> card & 1 else -math.log(1 - p)
    return total / len(prob)


def _shares(hands: list[int], unseen: list[int]) -> dict[int, float]:
    n = len(hands)
    return {c: (sum(h >> c & 1 for h in hands) + 0.5) / (n + 1) for c in unseen}


def measure(opponent: str, hands: int, guesses: int) -> tuple[dict[str, float], int, int]:
    """Mean log loss per way of guessing, the positions scored, and how many of them the
    real hand fitted with no contradiction."""
    expert = ExpertPlayer(0)
    fit = QUICK_FIT if opponent == "simple" else PATIENT_FIT
    losses: dict[str, list[float]] = {"count only": [], "model": [], "developed": [],
                                      "fitted": []}
    clean = 0
    rng = random.Random(5)
    for number in range(hands):
        hand = Hand("house", seed=number)
        players = [make("hard", seed=number), make(opponent, seed=number + 1000)]
        while hand.result is None:
            seat = hand.to_play
            view = hand.view(seat)
            if seat == 0 and view.phase == "draw":
                truth = hand.hands[1]
                draws = [int(e.card) for e in hand.history
                         if e.seat == 1 and e.kind == "draw" and e.card is not None]
                past = PastPlay(view)
                clean += past.weight(truth, rng, fit, drawn=draws) == 1.0
                model = OpponentModel(view)
                unseen = [c for c in range(52) if view.unseen_mask >> c & 1]
                extra = round(expert.develop_per_turn * opponent_turns(view))
                developed = sample_developed_hands(model, rng, guesses, extra=extra)
                fitted = fitting_hands(past, fit, model, rng, guesses, extra=extra,
                                       tries=expert.fit_tries)
                even = model.hidden_count / len(unseen)
                losses["count only"].append(_log_loss(dict.fromkeys(unseen, even), truth))
                losses["model"].append(_log_loss({c: model.prob[c] for c in unseen}, truth))
                losses["developed"].append(_log_loss(_shares(developed, unseen), truth))
                losses["fitted"].append(_log_loss(_shares(fitted, unseen), truth))
            hand.play(players[seat].choose(view))
    count = len(losses["model"])
    return {k: statistics.mean(v) for k, v in losses.items()}, count, clean


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=60)
    parser.add_argument("--guesses", type=int, default=200)
    parser.add_argument("--markdown", action="store_true")
    args = parse_shared_args(parser, None)
    for line in environment_lines(["ginrummy"]):
        print(line)
    print(f"hands   : {args.hands} per opponent, house rules, {args.guesses} guesses a position")
    rows = []
    for opponent in ("simple", "hard"):
        loss, count, clean = measure(opponent, args.hands, args.guesses)
        rows.append([opponent, str(count), *(f"{loss[k]:.4f}" for k in loss),
                     f"{100 * clean / count:.1f}%"])
    print()
    print_rows(["opponent", "positions", "count only", "model", "developed", "fitted",
                "real hand fits"], rows, markdown=args.markdown, right_from=1)
    print(load_line("at the end"))


if __name__ == "__main__":
    main()
