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

A second table asks what matters most against ``simple`` (docs/notes/players-lab.md, "What
knowing the opponent's hand is worth"): does a discard feed it? In ``bench_strength.py``'s
matches of ``hard`` against ``simple`` (seed ``s1``), every card ``hard`` holds at each of its
discard decisions is labelled by whether ``simple``'s real hand melds with it, and predicted by:

* ``hard's danger``: ``OpponentModel.danger`` (each card's odds taken as independent);
* ``learned``: a small network (numpy, two layers, seeded) on features read from the view
  alone (the card's rank and the stock; for each card that melds with it, whether it is
  unseen, held, in the pile, known in the opponent's hand or off the suit's end, its odds in
  ``hard``'s model, and whether the opponent threw or passed it; the opponent's discards near
  it; and ``hard``'s danger itself), trained on the first ``--feed-train`` matches and scored
  on the next ``--feed-test`` (other decks).

Each is scored by its AUC (the chance that a card that feeds is ranked above one that does
not) and its log loss on the held-out matches.

A third table (``--deadwood-hands``) asks whether the expert's guesses of ``simple``'s hand are
as good as its real hand, turn by turn: at every draw of ``hard`` (seat 0) against ``simple``,
the mean least deadwood of ``simple``'s real ten cards beside that of the expert's developed
guesses, as they are (``develop_per_turn``), and kept above the knock limit
(``sample_developed_hands(above=...)``: a player that knocks at its first chance cannot hold
less after its turn; the expert's trial setting ``quick_worlds`` at commit 13d1d63), with the
share of the plain guesses that are at or under it.

Run from the repository root::

    python benchmarks/bench_inference.py [--hands 60] [--guesses 200]
        [--feed-train 800] [--feed-test 400] [--deadwood-hands 300] [--markdown]

Not a test: it prints figures, whatever they are.
"""

from __future__ import annotations

import argparse
import random
import statistics
from collections.abc import Callable, Iterator

import numpy as np

from _common import environment_lines, load_line, parse_shared_args, print_rows
from _matches import balanced_match, decisions
from ginrummy import Hand
from ginrummy.engine.melds import melds_with, min_deadwood
from ginrummy.engine.view import PlayerView
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
    """:func:`log_loss` of each card's probability against whether ``truth`` holds it."""
    return log_loss(np.array(list(prob.values())),
                    np.array([truth >> card & 1 for card in prob], dtype=float))


def _shares(hands: list[int], unseen: list[int]) -> dict[int, float]:
    n = len(hands)
    return {c: (sum(h >> c & 1 for h in hands) + 0.5) / (n + 1) for c in unseen}


def hard_draws(opponent: str, hands: int, *,
               deck_seeds: int = 0) -> Iterator[tuple[Hand, PlayerView]]:
    """``hands`` hands of ``hard`` (seat 0) against ``opponent`` under ``house`` rules, the
    decks seeded from ``deck_seeds`` on: the hand and ``hard``'s view at each of its draws
    (the move is played after the caller has read them)."""
    for number in range(hands):
        hand = Hand("house", seed=deck_seeds + number)
        players = [make("hard", seed=number), make(opponent, seed=number + 1000)]
        while hand.result is None:
            seat = hand.to_play
            view = hand.view(seat)
            if seat == 0 and view.phase == "draw":
                yield hand, view
            hand.play(players[seat].choose(view))


def measure(opponent: str, hands: int, guesses: int) -> tuple[dict[str, float], int, int]:
    """Mean log loss per way of guessing, the positions scored, and how many of them the
    real hand fitted with no contradiction."""
    expert = ExpertPlayer(0)
    fit = QUICK_FIT if opponent == "simple" else PATIENT_FIT
    losses: dict[str, list[float]] = {"count only": [], "model": [], "developed": [],
                                      "fitted": []}
    clean = 0
    rng = random.Random(5)
    for hand, view in hard_draws(opponent, hands):
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
    count = len(losses["model"])
    return {k: statistics.mean(v) for k, v in losses.items()}, count, clean


def deadwood_by_turn(hands: int, guesses: int) -> list[list[str]]:
    """Rows of the third table: per opponent turn, the positions, the real mean least
    deadwood, the plain guesses' mean and share within the knock limit, and the mean of the
    guesses kept above it."""
    expert = ExpertPlayer(0)
    rng = random.Random(7)
    real: dict[int, list[int]] = {}
    plain: dict[int, list[float]] = {}
    low: dict[int, list[float]] = {}
    above: dict[int, list[float]] = {}
    for hand, view in hard_draws("simple", hands, deck_seeds=10000):
        turns = opponent_turns(view)
        if turns == 0:
            continue
        model = OpponentModel(view)
        extra = round(expert.develop_per_turn * turns)
        free = sample_developed_hands(model, rng, guesses, extra=extra)
        kept = sample_developed_hands(model, rng, guesses, extra=extra,
                                      above=view.knock_limit, tries=expert.fit_tries)
        free_dw = [min_deadwood(h) for h in free]
        real.setdefault(turns, []).append(min_deadwood(hand.hands[1]))
        plain.setdefault(turns, []).append(statistics.mean(free_dw))
        low.setdefault(turns, []).append(
            sum(dw <= view.knock_limit for dw in free_dw) / len(free_dw))
        above.setdefault(turns, []).append(statistics.mean(min_deadwood(h) for h in kept))
    return [[str(t), str(len(real[t])), f"{statistics.mean(real[t]):.1f}",
             f"{statistics.mean(plain[t]):.1f}", f"{100 * statistics.mean(low[t]):.0f}%",
             f"{statistics.mean(above[t]):.1f}"]
            for t in sorted(real) if len(real[t]) >= 20]


def _card_features(view: PlayerView, model: OpponentModel, masks: tuple[int, int, int],
                   card: int) -> list[float]:
    """What the view says about ``card`` (a card that may meld with the discard; -1 past the
    end of its suit): unseen, held, in the pile, known in the opponent's hand, off the end,
    its odds, thrown by the opponent, passed by it."""
    pile, thrown, passed = masks
    if card < 0:
        return [0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0]
    known = model.known >> card & 1
    return [float(view.unseen_mask >> card & 1 and not known), float(view.hand_mask >> card & 1),
            float(pile >> card & 1), float(known), 0.0, model.prob[card],
            float(thrown >> card & 1), float(passed >> card & 1)]


def feed_features(view: PlayerView, model: OpponentModel, card: int) -> list[float]:
    """The learned predictor's inputs for discarding ``card`` (from the view alone)."""
    pile, thrown, passed = (sum(1 << int(c) for c in cards) for cards in (
        view.discard_pile, view.opponent_discards, view.opponent_passed))
    masks = (pile, thrown, passed)
    rank, suit = card % 13, card // 13
    features = [model.danger(card), rank / 12.0, min(rank, 9) / 9.0, view.stock_count / 31.0,
                len(view.opponent_discards) / 15.0, len(view.opponent_took) / 5.0]
    same = sorted((_card_features(view, model, masks, c)
                   for c in range(rank, 52, 13) if c != card), reverse=True)
    for f in same:
        features += f
    for d in (-2, -1, 1, 2):
        near = suit * 13 + rank + d if 0 <= rank + d < 13 else -1
        features += _card_features(view, model, masks, near)
    cards = [int(c) for c in view.opponent_discards]
    features.append(sum(c // 13 == suit and abs(c % 13 - rank) <= 2 for c in cards) / 3.0)
    features.append(sum(c % 13 == rank for c in cards) / 2.0)
    return features


def feed_rows(first: int, count: int) -> tuple[np.ndarray, np.ndarray]:
    """(features, fed) for every card ``hard`` held at its discards in matches ``first`` to
    ``first + count`` against ``simple``, seeded as ``bench_strength.py`` seeds them."""
    rows: list[list[float]] = []
    fed: list[bool] = []
    for i in range(first, first + count):
        match, players = balanced_match(
            "s1", i, make("hard", seed=f"s1/A/{i}"), make("simple", seed=f"s1/B/{i}"))
        for hand, mover, view in decisions(match, players):
            if mover == i % 2 and view.phase == "discard":
                model = OpponentModel(view)
                truth = hand.hands[1 - mover]
                for card in range(52):
                    if view.hand_mask >> card & 1:
                        rows.append(feed_features(view, model, card))
                        fed.append(melds_with(truth, card))
    return np.array(rows), np.array(fed, dtype=float)


def train_network(x: np.ndarray, y: np.ndarray, *, hidden: int = 64, epochs: int = 4,
                  seed: int = 0) -> Callable[[np.ndarray], np.ndarray]:
    """A two-layer network (ReLU, then a logistic output) fitted by Adam to the log loss;
    returns the function that predicts from rows like ``x``."""
    rng = np.random.default_rng(seed)
    mean, scale = x.mean(0), x.std(0) + 1e-6
    z = (x - mean) / scale
    params = [rng.normal(0, 1 / np.sqrt(z.shape[1]), (z.shape[1], hidden)), np.zeros(hidden),
              rng.normal(0, 1 / np.sqrt(hidden), hidden), np.zeros(1)]
    first = [np.zeros_like(p) for p in params]
    second = [np.zeros_like(p) for p in params]

    def forward(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        h = np.maximum(rows @ params[0] + params[1], 0.0)
        return h, 1.0 / (1.0 + np.exp(-(h @ params[2] + params[3][0])))

    step = 0
    for _ in range(epochs):
        order = rng.permutation(len(z))
        for k in range(0, len(order), 512):
            batch = order[k:k + 512]
            h, p = forward(z[batch])
            g = (p - y[batch]) / len(batch)
            gh = np.outer(g, params[2]) * (h > 0)
            grads = [z[batch].T @ gh, gh.sum(0), h.T @ g, np.array([g.sum()])]
            step += 1
            for j, grad in enumerate(grads):
                first[j] = 0.9 * first[j] + 0.1 * grad
                second[j] = 0.999 * second[j] + 0.001 * grad * grad
                params[j] -= 1e-3 * (first[j] / (1 - 0.9 ** step)) / (
                    np.sqrt(second[j] / (1 - 0.999 ** step)) + 1e-8)
    return lambda rows: forward((rows - mean) / scale)[1]


def auc(p: np.ndarray, y: np.ndarray) -> float:
    """The chance that a random positive is ranked above a random negative (ties half)."""
    _, inverse, counts = np.unique(p, return_inverse=True, return_counts=True)
    ranks = np.empty(len(p))
    ranks[np.argsort(p, kind="stable")] = np.arange(1, len(p) + 1)
    ranks = (np.bincount(inverse, ranks) / counts)[inverse]  # tied values share their rank
    pos = y.sum()
    return float((ranks[y == 1].sum() - pos * (pos + 1) / 2) / (pos * (len(y) - pos)))


def log_loss(p: np.ndarray, y: np.ndarray) -> float:
    """The mean log loss of the probabilities ``p`` against the outcomes ``y`` (0 or 1), each
    probability kept within 0.001 of 0 and 1."""
    q = np.clip(p, 1e-3, 1 - 1e-3)
    return float(-np.mean(y * np.log(q) + (1 - y) * np.log(1 - q)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=60)
    parser.add_argument("--guesses", type=int, default=200)
    parser.add_argument("--feed-train", type=int, default=800)
    parser.add_argument("--feed-test", type=int, default=400)
    parser.add_argument("--deadwood-hands", type=int, default=300)
    parser.add_argument("--markdown", action="store_true")
    args = parse_shared_args(parser, None)
    for line in environment_lines(["ginrummy"]):
        print(line)
    print(f"hands   : {args.hands} per opponent, house rules, {args.guesses} guesses a position")
    if args.hands:
        rows = []
        for opponent in ("simple", "hard"):
            loss, count, clean = measure(opponent, args.hands, args.guesses)
            rows.append([opponent, str(count), *(f"{loss[k]:.4f}" for k in loss),
                         f"{100 * clean / count:.1f}%"])
        print()
        print_rows(["opponent", "positions", "count only", "model", "developed", "fitted",
                    "real hand fits"], rows, markdown=args.markdown, right_from=1)
    if args.feed_train and args.feed_test:
        x, y = feed_rows(0, args.feed_train)
        x_test, y_test = feed_rows(args.feed_train, args.feed_test)
        predict = train_network(x, y)
        print()
        print(f"Does a discard feed simple? hard's cards at its discards, matches 0-"
              f"{args.feed_train - 1} to train, {args.feed_train}-"
              f"{args.feed_train + args.feed_test - 1} to score ({len(y_test)} cards, "
              f"{100 * y_test.mean():.1f}% feed)")
        feeds: list[tuple[str, np.ndarray]] = [("hard's danger", x_test[:, 0]),
                                               ("learned", predict(x_test))]
        print_rows(["predictor", "AUC", "log loss"],
                   [[name, f"{auc(p, y_test):.3f}", f"{log_loss(p, y_test):.3f}"]
                    for name, p in feeds], markdown=args.markdown, right_from=1)
    if args.deadwood_hands:
        print()
        print(f"simple's least deadwood at hard's draws ({args.deadwood_hands} hands), real and "
              f"guessed ({args.guesses} guesses a position)")
        print_rows(["simple's turns", "positions", "real", "guesses", "guesses within the limit",
                    "guesses above it"],
                   deadwood_by_turn(args.deadwood_hands, args.guesses), markdown=args.markdown,
                   right_from=1)
    print(load_line("at the end"))


if __name__ == "__main__":
    main()
