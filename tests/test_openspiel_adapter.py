"""The adapter that seats our players in OpenSpiel's gin_rummy (benchmarks/openspiel_adapter.py).

OpenSpiel referees; the adapter's shadow hand must follow every move, and our player's moves
must all be legal in OpenSpiel (an illegal action raises inside OpenSpiel).
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

pytest.importorskip("pyspiel")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

from ginrummy.players import make
from openspiel_adapter import OpenSpielTable, os_card, our_card


def test_card_numbers_round_trip() -> None:
    assert sorted(os_card(c) for c in range(52)) == list(range(52))
    assert all(our_card(os_card(c)) == c for c in range(52))


@pytest.mark.parametrize("name", ["simple", "hard", "random"])
def test_hands_play_to_the_end_in_both_seats(name: str) -> None:
    table = OpenSpielTable()
    outcomes = []
    for i in range(16):
        deck = list(range(52))
        random.Random(i).shuffle(deck)
        outcome = table.play(make(name, seed=i), i % 2, deck)
        outcomes.append(outcome)
        assert outcome.our_seat == i % 2
        assert abs(outcome.ours) <= 150
    # The bot knocked against ours (our layoffs were played) in some hands.
    assert any(o.knocker is not None and o.knocker != o.our_seat for o in outcomes)
    if name == "simple":  # and ours knocked (its melds were laid) in others
        assert any(o.knocker == o.our_seat for o in outcomes)
