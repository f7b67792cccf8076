"""Search: the value of candidate moves over sampled worlds, and how to compare those values.

The ``expert`` player and the coach judge moves the same way: in each world (a guess of the
hidden cards, :mod:`.worlds`), play every candidate move, then the hand to its end with a
playout policy (:mod:`.rollout`), and note the points the seat scores (negative when the
opponent scores). :func:`value_moves` is that loop, once.

Every world is shared by all candidates (common random numbers), so two candidates are best
compared by their *paired* differences, world by world: :func:`paired_difference` gives the
mean difference and its standard error, far smaller than the spread of either value.

>>> d = paired_difference([3.0, 1.0, 2.0], [1.0, 1.0, 0.0])
>>> d.n, round(d.mean, 4), round(d.stderr, 4)
(3, 1.3333, 0.6667)
>>> paired_difference([5.0], [2.0])
PairedDifference(n=1, mean=3.0, stderr=0.0)
>>> mean([1.0, 2.0, 4.0]), mean([])
(2.3333333333333335, 0.0)
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from ..engine.hand import Hand
from .rollout import PlayoutPolicy, playout_hand

__all__ = [
    "MoveValues",
    "PairedDifference",
    "PolicyChooser",
    "mean",
    "paired_difference",
    "value_moves",
]

#: The playout policy of one world, from its number and the world itself (the expert varies
#: the opponent's style from world to world).
PolicyChooser = Callable[[int, Hand], PlayoutPolicy]


@dataclass
class MoveValues:
    """What :func:`value_moves` found: per move, its points in each world (in world order),
    the worlds it won and the worlds where the move itself was a knock that got undercut;
    ``worlds``: how many worlds were played."""

    points: dict[str, list[float]]
    wins: dict[str, int]
    undercuts: dict[str, int]
    worlds: int

    def update(self, other: MoveValues) -> None:
        """Add the moves ``other`` valued over the same worlds (the coach's cache grows so)."""
        self.points.update(other.points)
        self.wins.update(other.wins)
        self.undercuts.update(other.undercuts)


def value_moves(
    worlds: Iterable[Hand],
    seat: int,
    moves: Sequence[str],
    policy: PlayoutPolicy | PolicyChooser,
    *,
    deadline: float | None = None,
    min_worlds: int = 1,
) -> MoveValues:
    """Play each of ``moves`` in each world, then the hand to its end; the points for ``seat``.

    For each world, in order, and each move, in order: a copy of the world plays the move; a
    move that ends the hand (a knock, gin) is scored by the engine, otherwise
    :func:`~ginrummy.players.rollout.playout_hand` plays on with ``policy`` (or with
    ``policy(number, world)``, a policy per world). A win counts the points, a loss their
    negative, a cancelled hand 0.

    ``deadline`` (a :func:`time.perf_counter` time) stops after the first world that ends
    past it, once ``min_worlds`` worlds are played; without one every world is played, so the
    values are a function of the worlds alone. The moves must be distinct.
    """
    if len(set(moves)) != len(moves):
        raise ValueError(f"the moves to value must be distinct: {list(moves)}")
    points: dict[str, list[float]] = {m: [] for m in moves}
    wins = dict.fromkeys(moves, 0)
    undercuts = dict.fromkeys(moves, 0)
    played = 0
    for number, world in enumerate(worlds):
        chosen = policy if isinstance(policy, PlayoutPolicy) else policy(number, world)
        for move in moves:
            hand = world.copy()
            hand.play(move)
            result = hand.result
            if result is not None:
                winner, pts = result.winner_seat, result.points
                if result.kind == "undercut":
                    undercuts[move] += 1
            else:
                winner, pts = playout_hand(hand, chosen)
            if winner == seat:
                wins[move] += 1
                points[move].append(float(pts))
            else:
                points[move].append(0.0 if winner is None else -float(pts))
        played += 1
        if deadline is not None and played >= min_worlds and time.perf_counter() > deadline:
            break
    return MoveValues(points, wins, undercuts, played)


def mean(values: Sequence[float]) -> float:
    """The average of ``values`` (0 for none), summed in order."""
    return sum(values) / len(values) if values else 0.0


@dataclass(frozen=True)
class PairedDifference:
    """The mean of ``xs[i] - ys[i]`` over ``n`` shared worlds and its standard error (0 when
    fewer than two worlds give no spread)."""

    n: int
    mean: float
    stderr: float

    def lower_bound(self, confidence: float) -> float:
        """The mean less ``confidence`` standard errors: how much better ``xs`` surely is."""
        return self.mean - confidence * self.stderr


def paired_difference(xs: Sequence[float], ys: Sequence[float]) -> PairedDifference:
    """Statistics of the world-by-world differences ``xs[i] - ys[i]`` (equal lengths).

    The standard error is ``√(s² / n)`` with ``s²`` the sample variance of the differences
    (divisor ``n - 1``); sums run in world order, so the same values give the same bits.
    """
    diffs = [x - y for x, y in zip(xs, ys, strict=True)]
    n = len(diffs)
    average = mean(diffs)
    if n < 2:
        return PairedDifference(n, average, 0.0)
    variance = sum((d - average) ** 2 for d in diffs) / (n - 1)
    return PairedDifference(n, average, math.sqrt(variance / n))
