"""Match equity: the chance of winning the match from its scores, for decisions near its end.

A player that counts points plays the same at 0-0 and at 95-90, but the match is won by
reaching the target, not by points: a player needing 5 wins the match with any knock that is
not undercut, and a player whose opponent needs 5 loses it to any hand the opponent wins.
:func:`match_equity` gives the chance that the player needing ``need`` points wins against an
opponent needing ``opponent_need``, hands won half the time each and the winner's points drawn
from :data:`HAND_POINTS` (cancelled hands change nothing and are left out). It is the value
``hard`` weighs a knock with when its :class:`~ginrummy.players.hard.Style` has
``match_equity`` on: the knock's sampled outcomes against playing on, both as equity.

The two distributions are the package's ``data/hand_points.json``, written by
``benchmarks/fit_equity.py`` (reproducible from its seed): the points of the hands won in
matches of ``hard`` against ``simple`` and ``hard`` under the ``house`` profile, and what
``hard``'s hand came to when it let a knock go by against ``simple`` (its points, signed:
what playing on was worth).
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources

__all__ = ["hand_points", "play_on_points", "play_on_mean", "match_equity", "equity_after"]

#: Needs beyond this are read as this (far from the target one point more or less barely
#: moves the chance). The table is plain Python (the package's core is compiled by mypyc,
#: whose build does not have numpy) and built once per process, as far as the needs asked.
MAX_NEED = 300


@lru_cache(maxsize=1)
def _data() -> dict[str, list[list[int]]]:
    text = resources.files("ginrummy").joinpath("data/hand_points.json").read_text("utf-8")
    data: dict[str, list[list[int]]] = json.loads(text)
    return data


def hand_points() -> list[tuple[int, float]]:
    """``(points, probability)`` of the winner's points in a hand somebody won."""
    won = [(int(p), int(n)) for p, n in _data()["won"] if int(p) > 0]
    total = sum(n for _, n in won)
    return [(p, n / total) for p, n in won]


def play_on_points() -> list[tuple[int, float]]:
    """``(signed points, probability)``: what ``hard``'s hand came to when it let a knock go
    by (positive: its points; negative: the opponent's; zero: a cancelled hand)."""
    rows = [(int(p), int(n)) for p, n in _data()["play_on"]]
    total = sum(n for _, n in rows)
    return [(p, n / total) for p, n in rows]


@lru_cache(maxsize=1)
def play_on_mean() -> float:
    """The mean of :func:`play_on_points`."""
    return sum(p * q for p, q in play_on_points())


@lru_cache(maxsize=4)
def _table(size: int) -> list[list[float]]:
    """``W[a][b]`` for needs below ``size``: the chance of winning needing ``a`` against an
    opponent needing ``b`` (a smaller table is the corner of a larger one)."""
    points = hand_points()
    top = max(p for p, _ in points)
    prob = [0.0] * (top + 1)
    for p, q in points:
        prob[p] = q
    # tail[k]: the chance a won hand scores k points or more.
    tail = [0.0] * (top + 2)
    for k in range(top, -1, -1):
        tail[k] = tail[k + 1] + prob[k]
    table = [[0.0] * size for _ in range(size)]
    table[0] = [0.0] + [1.0] * (size - 1)
    for a in range(1, size):
        row = table[a]
        reach_a = min(a, top + 1)
        for b in range(1, size):
            # This player wins the hand: reaches the target with x >= a, else needs a - x.
            mine = tail[reach_a] + sum(prob[x] * table[a - x][b] for x in range(1, reach_a))
            # The opponent wins it: this player loses with y >= b, else it needs b - y.
            theirs = sum(prob[y] * row[b - y] for y in range(1, min(b, top + 1)))
            row[b] = 0.5 * (mine + theirs)
    return table


def match_equity(need: int, opponent_need: int) -> float:
    """The chance of winning the match needing ``need`` points against ``opponent_need``
    (0 or less: reached; this player's reach counts first)."""
    if need <= 0:
        return 1.0
    if opponent_need <= 0:
        return 0.0
    a, b = min(need, MAX_NEED), min(opponent_need, MAX_NEED)
    size = -(-(max(a, b) + 1) // 50) * 50  # in steps of 50: few tables per process
    return _table(size)[a][b]


def equity_after(need: int, opponent_need: int, points: int) -> float:
    """The match equity after a hand that scores ``points`` (positive: to this player;
    negative: to the opponent)."""
    if points >= 0:
        return match_equity(need - points, opponent_need)
    return match_equity(need, opponent_need + points)
