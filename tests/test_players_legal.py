"""Every computer player, in every profile and option, always answers with a legal move."""

from __future__ import annotations

import pytest

from ginrummy import Hand
from ginrummy.players import LEVELS, PLAYERS, make, names
from ginrummy.players.expert import ExpertPlayer
from ginrummy.players.hard import HardPlayer
from players_support import RULE_SETS, is_legal_choice, play_out, positions, stalled_positions

FAST = ["random", "simple", "medium", "hard"]


@pytest.mark.parametrize("name", FAST)
def test_fast_players_answer_legally_in_many_positions(name: str) -> None:
    checked = 0
    for i, position in enumerate(positions(40, every=2, seed=11)):
        hand = position.hand()
        move = make(name, seed=i).choose(hand.view(hand.to_play))
        assert is_legal_choice(hand, move), (name, position, move)
        checked += 1
    assert checked == 40 * len(RULE_SETS)


def test_expert_answers_legally_in_many_positions() -> None:
    for i, position in enumerate(positions(8, every=4, seed=12)):
        hand = position.hand()
        move = ExpertPlayer(i, samples=4).choose(hand.view(hand.to_play))
        assert is_legal_choice(hand, move), (position, move)


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: r.describe())
@pytest.mark.parametrize("pairing", [("hard", "simple"), ("medium", "hard"), ("simple", "simple")])
def test_whole_hands_between_players_reach_an_end(rules: object, pairing: tuple[str, str]) -> None:
    for seed in range(3):
        hand = play_out(rules, seed, pairing)  # type: ignore[arg-type]
        assert hand.result is not None
        hand.check_conservation()


def test_expert_plays_whole_hands_in_every_profile() -> None:
    for seed, rules in enumerate(RULE_SETS):
        hand = Hand(rules, seed=seed, dealer=seed % 2)
        players = [ExpertPlayer(seed, samples=3), HardPlayer(seed)]
        while hand.result is None:
            view = hand.view(hand.to_play)
            move = players[hand.to_play].choose(view)
            assert is_legal_choice(hand, move), (rules.describe(), move)
            hand.play(move)


def test_the_registry_and_levels() -> None:
    assert set(PLAYERS) >= {"random", "simple", "medium", "hard", "expert"}
    assert list(LEVELS) == ["easy", "medium", "hard", "expert"]
    for level, player in LEVELS.items():
        assert player in PLAYERS
        assert make(level, seed=1).name == player
    assert set(names()) >= set(PLAYERS) | set(LEVELS)
    assert make(" Hard ", seed=3).name == "hard"


def test_a_player_refuses_a_position_where_it_is_not_to_play() -> None:
    hand = Hand("house", seed=1, dealer=0)
    view = hand.view(0)  # seat 1 (the non-dealer) is to play
    for name in PLAYERS:
        with pytest.raises(ValueError, match="not this seat's turn"):
            make(name, seed=1).choose(view)


@pytest.mark.parametrize("name", list(PLAYERS))
def test_players_answer_legally_at_the_end_of_the_stock(name: str) -> None:
    seen_phases = set()
    for rules in RULE_SETS:
        for seed in range(2):
            for position in stalled_positions(rules, seed):
                hand = position.hand()
                seen_phases.add(hand.phase)
                player = (
                    ExpertPlayer(seed, samples=4) if name == "expert" else make(name, seed=seed)
                )
                move = player.choose(hand.view(hand.to_play))
                assert is_legal_choice(hand, move), (name, rules.describe(), move)
    assert seen_phases == {"last_chance", "last_chance_knock"}
