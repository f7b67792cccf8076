"""Match equity: the table against matches simulated hand by hand, and ``hard``'s knock weighed
by it (the same as by points at an even score, sooner when one knock wins the match)."""

from __future__ import annotations

import dataclasses
import random

import pytest

from ginrummy import Hand
from ginrummy.engine.view import PlayerView
from ginrummy.players import make
from ginrummy.players.equity import equity_after, hand_points, match_equity, play_on_points
from ginrummy.players.hard import HARD, HardPlayer
from ginrummy.players.knowledge import OpponentModel
from ginrummy.selfplay.play import play_hand


def _simulated(need: int, opponent_need: int, matches: int, rng: random.Random) -> float:
    """Matches played out hand by hand from the same distribution, by a plain loop."""
    points, weights = zip(*hand_points(), strict=True)
    won = 0
    for _ in range(matches):
        a, b = need, opponent_need
        while a > 0 and b > 0:
            x = rng.choices(points, weights)[0]
            if rng.random() < 0.5:
                a -= x
            else:
                b -= x
        won += a <= 0
    return won / matches


@pytest.mark.parametrize("need, opponent_need", [(100, 100), (30, 70), (90, 8), (5, 60)])
def test_the_table_agrees_with_simulated_matches(need: int, opponent_need: int) -> None:
    matches = 4000
    share = _simulated(need, opponent_need, matches, random.Random(need * 1000 + opponent_need))
    expected = match_equity(need, opponent_need)
    sd = (expected * (1 - expected) / matches) ** 0.5
    assert abs(share - expected) < 4 * sd + 1e-9, (share, expected)


def test_the_table_is_a_chance_that_moves_the_right_way() -> None:
    assert match_equity(0, 50) == 1.0 and match_equity(50, 0) == 0.0
    assert match_equity(100, 100) == pytest.approx(0.5)
    for a, b in [(10, 90), (45, 55), (99, 3)]:
        assert match_equity(a, b) + match_equity(b, a) == pytest.approx(1.0)
        assert match_equity(a, b) > match_equity(a + 10, b)
        assert match_equity(a, b) < match_equity(a, b + 10)
    assert equity_after(30, 40, 30) == 1.0 and equity_after(30, 40, -40) == 0.0
    assert equity_after(30, 40, 0) == match_equity(30, 40)
    assert sum(q for _, q in hand_points()) == pytest.approx(1.0)
    assert sum(q for _, q in play_on_points()) == pytest.approx(1.0)


class _Declines(HardPlayer):
    """``hard``, keeping every position where it could knock without gin and did not."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.declined: list[tuple[PlayerView, int, int, int]] = []

    def should_knock(self, view: PlayerView, model: OpponentModel, deadwood: int,
                     mask: int, taken: int) -> bool:
        knock = super().should_knock(view, model, deadwood, mask, taken)
        if not knock:
            self.declined.append((view, deadwood, mask, taken))
        return knock


def _declined_knocks(count: int) -> list[tuple[PlayerView, int, int, int]]:
    found: list[tuple[PlayerView, int, int, int]] = []
    seed = 0
    while len(found) < count:
        me = _Declines(seed)
        play_hand(Hand("house", seed=seed), [me, make("simple", seed=seed)])
        found += me.declined
        seed += 1
    return found[:count]


def _knocks(style: object, view: PlayerView, deadwood: int, mask: int, taken: int,
            seed: int) -> bool:
    player = HardPlayer(seed, style)  # type: ignore[arg-type]
    return player.should_knock(view, player.model(view), deadwood, mask, taken)


def test_the_knock_weighed_by_the_match() -> None:
    equity = dataclasses.replace(HARD, match_equity=True)
    positions = _declined_knocks(60)
    same = sooner = 0
    for i, (view, deadwood, mask, taken) in enumerate(positions):
        even = dataclasses.replace(view, scores=(40, 40))
        by_points = _knocks(HARD, even, deadwood, mask, taken, i)
        same += _knocks(equity, even, deadwood, mask, taken, i) == by_points
        # Needing 1 point, any knock that is not undercut wins the match (and an undercut
        # all but loses it).
        scores = [90, 90]
        scores[view.seat] = 99
        close = dataclasses.replace(view, scores=(scores[0], scores[1]))
        sooner += _knocks(equity, close, deadwood, mask, taken, i) and not by_points
    # At an even score the match barely bends the points: the same decisions, nearly always.
    assert same >= 0.9 * len(positions)
    # One knock from the target, some of the knocks let go by for want of points are taken
    # (most of these positions are let go by for their undercut risk, which the match does not
    # change: needing one point, an undercut here all but loses the match).
    assert sooner >= 3
