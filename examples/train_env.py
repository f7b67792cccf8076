"""Train a small gin rummy agent in ``ginrummy.env`` with numpy only, then play it against
``simple``.

    python examples/train_env.py [--minutes 3] [--opponent simple] [--seed 1] [--short]

The agent is a linear softmax policy over a few features of each legal action, all computed
from the observation vector (its own cards, the pile, what the opponent took): the action's
kind, the deadwood left after a discard or knock, the discarded card's value, how much taking
the top discard would lower the deadwood, and how close a discard is to cards the opponent took.
It learns by REINFORCE with a running-mean baseline from whole hands against ``--opponent``,
with the hand's points (scaled) as the return. Then the greedy policy (the most likely action)
plays ``--eval`` hands against ``simple`` and the script prints the share of decided hands it
won, with a 95% Wilson interval. ``--short`` trains for a few seconds (what the test runs).

The trained policy is also a PettingZoo-style policy ``(observation, action_mask) -> action``:
``--save weights.npy`` writes its weights, and ``examples/train_env.py`` itself can then be
seated at the terminal table with ``ginrummy play --opponent-module train_env:saved_policy``
(with ``examples/`` on ``PYTHONPATH`` and ``GINRUMMY_POLICY_WEIGHTS=weights.npy``).
"""

from __future__ import annotations

import argparse
import os
import time
from typing import Any

import numpy as np
import numpy.typing as npt

from ginrummy.engine.melds import best_discard_deadwood, min_deadwood
from ginrummy.env import env
from ginrummy.env.actions import (
    BIG_GIN_ACTION,
    DISCARD_BASE,
    DRAW_ACTION,
    KNOCK_ALT_BASE,
    KNOCK_BASE,
    NUM_ACTIONS,
    PASS_ACTION,
    TAKE_ACTION,
)
from ginrummy.selfplay.stats import wilson

Vector = npt.NDArray[np.float64]
N_FEATURES = 14
_VALUE = np.array([min(c % 13 + 1, 10) for c in range(52)], dtype=np.float64)
# Cards "near" each card: same rank, or same suit within two ranks (what melds with it).
_NEAR = np.zeros((52, 52), dtype=np.float64)
for _a in range(52):
    for _b in range(52):
        if _a != _b and (_a % 13 == _b % 13 or (_a // 13 == _b // 13 and abs(_a - _b) <= 2)):
            _NEAR[_a, _b] = 1.0


def _mask_of(plane: Vector) -> int:
    out = 0
    for c in np.flatnonzero(plane > 0.5):
        out |= 1 << int(c)
    return out


def features(obs: Vector, legal: npt.NDArray[np.intp]) -> npt.NDArray[np.float64]:
    """One row of features per legal action, from the observation only."""
    hand = _mask_of(obs[0:52])
    top = np.flatnonzero(obs[52:104] > 0.5)
    took = obs[156:208]
    stock = obs[477]
    now = min_deadwood(hand)
    gain = 0.0
    if top.size and hand.bit_count() == 10:
        gain = (now - best_discard_deadwood(hand | 1 << int(top[0]))) / 100.0
    rows = np.zeros((legal.size, N_FEATURES))
    for i, a in enumerate(legal):
        a = int(a)
        f = rows[i]
        if a == TAKE_ACTION:
            f[0], f[9] = 1.0, gain
        elif a == PASS_ACTION:
            f[1], f[10] = 1.0, gain
        elif a == DRAW_ACTION:
            f[2] = 1.0
        elif a == BIG_GIN_ACTION:
            f[5] = 1.0
        else:
            if a < KNOCK_BASE:
                card, kind = a - DISCARD_BASE, 3
            elif a < BIG_GIN_ACTION:
                card, kind = a - KNOCK_BASE, 4
            else:
                card, kind = (a - KNOCK_ALT_BASE) % 52, 6
            f[kind] = 1.0
            after = min_deadwood(hand & ~(1 << card)) / 100.0
            f[7] = after
            f[8] = _VALUE[card] / 10.0
            f[11] = float(_NEAR[card] @ took) / 3.0
            if kind != 3:
                f[12] = after
                f[13] = stock
    return rows


def policy_probs(theta: Vector, phi: npt.NDArray[np.float64]) -> Vector:
    z = phi @ theta
    z -= z.max()
    p = np.exp(z)
    return p / p.sum()  # type: ignore[no-any-return]


def make_policy(theta: Vector) -> Any:
    """The greedy policy ``(observation, action_mask) -> action`` of weights ``theta``."""

    def policy(observation: Vector, action_mask: npt.NDArray[np.int8]) -> int:
        legal = np.flatnonzero(action_mask)
        return int(legal[int(np.argmax(features(observation, legal) @ theta))])

    return policy


def saved_policy(observation: Vector, action_mask: npt.NDArray[np.int8]) -> int:
    """The policy whose weights ``GINRUMMY_POLICY_WEIGHTS`` names (for ``ginrummy play
    --opponent-module train_env:saved_policy``)."""
    global _SAVED
    if _SAVED is None:
        path = os.environ.get("GINRUMMY_POLICY_WEIGHTS")
        if not path:
            raise RuntimeError("set GINRUMMY_POLICY_WEIGHTS to the weights file this example "
                               "saved (--save weights.npy)")
        _SAVED = make_policy(np.load(path))
    return int(_SAVED(observation, action_mask))


_SAVED: Any = None


def train(seconds: float, opponent: str, seed: int, profile: str) -> tuple[Vector, int]:
    """REINFORCE from whole hands against ``opponent`` for ``seconds``; returns the weights
    and the number of hands played."""
    rng = np.random.default_rng(seed)
    theta = np.zeros(N_FEATURES)
    e = env(profile=profile, opponent=opponent)
    baseline, lr, hands = 0.0, 0.05, 0
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        e.reset(seed=2 * (seed * 1_000_003 + hands))  # even seeds: never an evaluation deal
        grads: list[Vector] = []
        ret = 0.0
        for _agent in e.agent_iter():
            obs, reward, terminated, truncated, _ = e.last()
            ret += reward
            if terminated or truncated:
                e.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            phi = features(obs["observation"], legal)
            p = policy_probs(theta, phi)
            i = int(rng.choice(legal.size, p=p))
            grads.append(phi[i] - p @ phi)
            e.step(int(legal[i]))
        ret /= 25.0
        advantage = ret - baseline
        baseline += 0.02 * (ret - baseline)
        for g in grads:
            theta += lr * advantage * g
        hands += 1
    return theta, hands


def evaluate(theta: Vector, hands: int, seed: int, profile: str) -> tuple[int, int, int]:
    """Greedy play against ``simple``: (hands won, hands lost, hands cancelled)."""
    policy = make_policy(theta)
    e = env(profile=profile, opponent="simple")
    won = lost = cancelled = 0
    for h in range(hands):
        e.reset(seed=2 * (seed * 1_000_003 + h) + 1)  # odd seeds: never a training deal
        total = 0.0
        for _agent in e.agent_iter():
            obs, reward, terminated, truncated, _ = e.last()
            total += reward
            if terminated or truncated:
                e.step(None)
            else:
                e.step(policy(obs["observation"], obs["action_mask"]))
        if total > 0:
            won += 1
        elif total < 0:
            lost += 1
        else:
            cancelled += 1
    return won, lost, cancelled


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--minutes", type=float, default=3.0, help="training time (3)")
    parser.add_argument("--opponent", default="simple", help="training opponent (simple)")
    parser.add_argument("--eval", type=int, default=2000, help="evaluation hands (2000)")
    parser.add_argument("--profile", default="traditional", help="rule profile (traditional)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--save", default=None, metavar="FILE.npy", help="save the weights")
    parser.add_argument("--short", action="store_true",
                        help="a few seconds: 3 s of training, 100 evaluation hands")
    args = parser.parse_args()
    seconds = 3.0 if args.short else args.minutes * 60.0
    n_eval = 100 if args.short else args.eval
    assert NUM_ACTIONS > BIG_GIN_ACTION

    start = time.perf_counter()
    theta, hands = train(seconds, args.opponent, args.seed, args.profile)
    print(f"trained {hands:,} hands against {args.opponent} in "
          f"{time.perf_counter() - start:.0f} s ({args.profile} rules)")
    print("weights:", " ".join(f"{w:+.2f}" for w in theta))
    if args.save:
        np.save(args.save, theta)
        print(f"saved to {args.save}")

    won, lost, cancelled = evaluate(theta, n_eval, args.seed, args.profile)
    share = wilson(won, won + lost)
    print(f"win rate against simple: {won}/{won + lost} decided hands = "
          f"{(share.estimate or 0.0):.1%} (95% interval {share.low:.1%} to {share.high:.1%});"
          f" {cancelled} hands cancelled")
    untrained = evaluate(np.zeros(N_FEATURES), min(n_eval, 200), args.seed, args.profile)
    base = wilson(untrained[0], untrained[0] + untrained[1])
    print(f"(untrained, zero weights, which plays the first legal action: "
          f"{(base.estimate or 0.0):.1%}, 95% interval "
          f"{base.low:.1%} to {base.high:.1%}, over {untrained[0] + untrained[1]} hands)")


if __name__ == "__main__":
    main()
