"""The search helper: candidate moves valued over shared worlds, and their paired statistics."""

from __future__ import annotations

import math
import random
import statistics

import pytest

from ginrummy import Hand
from ginrummy.players.knowledge import OpponentModel
from ginrummy.players.rollout import PlayoutPolicy
from ginrummy.players.search import mean, paired_difference, value_moves
from ginrummy.players.worlds import sample_worlds
from players_support import positions
from test_players_simple import _deck


def _worlds(count: int, seed: int) -> list[tuple[int, list[str], list[Hand]]]:
    """``(seat, legal moves, worlds)`` at a few real positions."""
    out = []
    for position in positions(1, every=4, seed=seed):
        hand = position.hand()
        view = hand.view(hand.to_play)
        worlds = sample_worlds(view, OpponentModel(view), random.Random(seed), count,
                               develop_per_turn=1.0)
        out.append((view.seat, list(view.legal_moves), worlds))
    return out


def test_a_move_is_worth_the_same_whatever_it_is_valued_with() -> None:
    # Common random numbers: a move's points in a world depend on the world and the move
    # only, so valuing more moves at once (the coach's cache adds moves later) changes nothing.
    policy = PlayoutPolicy()
    for seat, legal, worlds in _worlds(5, seed=21):
        together = value_moves(worlds, seat, legal, policy)
        for move in legal:
            alone = value_moves(worlds, seat, [move], policy)
            assert alone.points[move] == together.points[move]
            assert alone.wins[move] == together.wins[move]
        assert together.worlds == len(worlds)
        assert all(len(p) == len(worlds) for p in together.points.values())


def test_an_ending_move_scores_what_the_engine_says() -> None:
    # A move that ends the hand (gin, a knock) is not played out: its points are the engine's
    # own result, positive for the seat's win, negative for the opponent's (an undercut).
    deck = _deck("Ac2c3c4d5d6d8h9hThKc", "Ts Js Qs Ks 9s 8d 9d Td Jd 2h", upcard="7h")
    hand = Hand("house", deck=deck, dealer=0)
    hand.play("take")
    view = hand.view(1)
    endings = ["knock Kc", "knock Th"]  # gin, and a knock with the Kc's 10
    assert set(endings) <= set(view.legal_moves)
    worlds = sample_worlds(view, OpponentModel(view), random.Random(4), 40, develop_per_turn=1.0)
    valued = value_moves(worlds, 1, endings, PlayoutPolicy())
    for move in endings:
        undercuts = 0
        for world, pts in zip(worlds, valued.points[move], strict=True):
            ended = world.copy()
            ended.play(move)
            result = ended.result
            assert result is not None
            assert pts == (result.points if result.winner_seat == 1 else -result.points)
            undercuts += result.kind == "undercut"
        assert valued.wins[move] == sum(1 for p in valued.points[move] if p > 0)
        assert valued.undercuts[move] == undercuts
    assert valued.wins["knock Kc"] == len(worlds)  # gin cannot be undercut


def test_a_policy_per_world_is_asked_in_world_order() -> None:
    seat, legal, worlds = _worlds(4, seed=23)[0]
    asked: list[int] = []

    def policy(number: int, world: Hand) -> PlayoutPolicy:
        assert world is worlds[number]
        asked.append(number)
        return PlayoutPolicy()

    value_moves(worlds, seat, legal[:2], policy)
    assert asked == list(range(len(worlds)))


def test_a_passed_deadline_stops_after_the_minimum_worlds() -> None:
    seat, legal, worlds = _worlds(6, seed=24)[0]
    valued = value_moves(worlds, seat, legal[:2], PlayoutPolicy(), deadline=0.0, min_worlds=3)
    assert valued.worlds == 3
    assert all(len(p) == 3 for p in valued.points.values())


def test_the_moves_must_be_distinct() -> None:
    seat, legal, worlds = _worlds(1, seed=25)[0]
    with pytest.raises(ValueError, match="distinct"):
        value_moves(worlds, seat, [legal[0], legal[0]], PlayoutPolicy())


def test_paired_statistics_agree_with_the_standard_library() -> None:
    rng = random.Random(3)
    for n in (2, 3, 10, 160):
        xs = [float(rng.randrange(-40, 60)) for _ in range(n)]
        ys = [float(rng.randrange(-40, 60)) for _ in range(n)]
        diffs = [x - y for x, y in zip(xs, ys, strict=True)]
        d = paired_difference(xs, ys)
        assert d.n == n
        assert d.mean == pytest.approx(statistics.fmean(diffs))
        assert d.stderr == pytest.approx(statistics.stdev(diffs) / math.sqrt(n))
        assert d.lower_bound(2.0) == pytest.approx(d.mean - 2.0 * d.stderr)
        assert mean(xs) == pytest.approx(statistics.fmean(xs))


def test_paired_statistics_of_too_few_worlds() -> None:
    assert paired_difference([], []).stderr == 0.0
    assert paired_difference([4.0], [1.0]).stderr == 0.0
    with pytest.raises(ValueError):
        paired_difference([1.0, 2.0], [1.0])
