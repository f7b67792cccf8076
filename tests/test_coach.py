"""The coach: positions with a known best move are rated as they must be, the reason names
the facts, assessments are deterministic and plain data, and bad input is refused."""

from __future__ import annotations

import json
import re

import pytest

from coach_support import dealt, feeding_position, gin_position, last_turn_knock_position, play
from ginrummy import Hand
from ginrummy.coach import INACCURACY, MISTAKE, Assessment, Coach, decision_kind
from ginrummy.engine.cards import Card
from ginrummy.engine.errors import IllegalMoveError
from ginrummy.engine.rules import get_rules
from ginrummy.players import make

SAMPLES = 64


def coach(seed: int = 1) -> Coach:
    return Coach(seed=seed, samples=SAMPLES)


def test_feeding_the_opponents_known_meld_is_a_mistake_that_names_the_pickup() -> None:
    view = feeding_position().view(0)
    assert {"discard Td", "discard Kc", "discard Qh"} <= set(view.legal_moves)
    found = coach().assess(view, "discard Td")
    assert found.kind == "discard"
    assert found.rating == "mistake"
    assert found.best in ("discard Kc", "discard Qh")
    assert found.reason == "The 10♦ was risky: your opponent picked up the 9♦ two turns ago."
    # The safe cards that leave the same deadwood are no mistakes.
    for safe in ("discard Kc", "discard Qh"):
        assert coach().assess(view, safe).rating != "mistake"


def test_a_missed_knock_is_a_mistake() -> None:
    hand = last_turn_knock_position()
    view = hand.view(0)
    assert view.stock_count == 2 and "knock 9s" in view.legal_moves
    found = coach().assess(view, "discard 9s")
    assert found.kind == "knock"
    assert found.rating == "mistake"
    assert found.best == "knock 9s"
    assert found.loss >= MISTAKE
    assert found.reason.startswith("You could have knocked with 4 (discarding the 9♠)")
    assert coach().assess(view, "knock 9s").rating == "good"
    worse = coach().assess(view, "knock 4d")  # knocks with 9 instead of 4
    assert worse.rating != "good"
    assert "would have left 4 instead of 9" in worse.reason


def test_a_missed_gin_is_a_mistake_by_definition() -> None:
    view = gin_position().view(0)
    found = coach().assess(view, "discard Kd")
    assert found.rating == "mistake" and found.exact
    assert found.best == "knock Kd"
    assert found.reason == "You could have gone gin by discarding the K♦."
    gin = coach().assess(view, "knock Kd")
    assert gin.rating == "good" and gin.exact and gin.loss == 0


def test_a_missed_big_gin_is_a_mistake() -> None:
    hand = dealt("Ac 2c 3c 4h 5h 6h 7s 7d 7c 7h", "Jc Js 5c 6c 9c 3s 4s Qd Kh 2h", "Qs",
                 "8h", rules="modern")
    view = play(hand, "pass", "pass", "draw").view(0)
    assert "big gin" in view.legal_moves
    found = coach().assess(view, "knock 8h")  # gin, but big gin was there
    assert found.rating == "mistake" and found.best == "big gin"
    assert "big gin" in found.reason
    assert coach().assess(view, "big gin").rating == "good"


def test_not_taking_a_card_that_gives_gin_is_a_mistake() -> None:
    hand = dealt("Ac 2c 3c 4h 5h 6h 7s 7d 7c Kd", "Jc Js 5c 6c 9c 3s 4s Qd Kh 2h", "7h")
    view = hand.view(0)
    assert view.phase == "opening"
    found = coach().assess(view, "pass")
    assert found.rating == "mistake" and found.best == "take"
    assert found.reason == "Taking the 7♥ would have given you gin."


def test_the_coachs_best_move_is_rated_good() -> None:
    for hand in (feeding_position(), last_turn_knock_position(), gin_position()):
        view = hand.view(0)
        first = coach().assess(view, view.legal_moves[0])
        best = coach().assess(view, first.best)
        assert best.rating == "good" and best.loss == 0 and best.best == first.best


def test_ratings_follow_the_thresholds() -> None:
    """Over real decisions: a move is good when its loss (less the noise) is under the
    inaccuracy threshold, unless decided exactly; the best move always comes first."""
    seen = set()
    for view, move in _real_decisions(12):
        found = coach(3).assess(view, move)
        seen.add(found.kind)
        assert found.alternatives[0].move == found.best
        assert found.alternative(move) is not None
        if not found.exact:
            rated = found.loss - found.noise
            expected = ("mistake" if rated >= MISTAKE else "inaccuracy" if rated >= INACCURACY
                        else "good")
            assert found.rating == expected, found
        if found.rating == "good":
            assert found.better is None or found.loss - found.noise < INACCURACY
    assert {"draw", "discard"} <= seen


def test_the_same_seed_and_view_give_the_same_assessment() -> None:
    view = feeding_position().view(0)
    a = Coach(seed=7, samples=SAMPLES).assess(view, "discard Kc")
    b = Coach(seed=7, samples=SAMPLES).assess(view, "discard Kc")
    assert a == b
    assert Coach(seed=7, samples=SAMPLES).rate(view) == Coach(seed=7, samples=SAMPLES).rate(view)
    # The value of a move does not depend on which move is being judged.
    c = Coach(seed=7, samples=SAMPLES).assess(view, "discard Td")
    assert a.alternative("discard Qh") == c.alternative("discard Qh")


def test_an_assessment_is_plain_data() -> None:
    found = coach().assess(feeding_position().view(0), "discard Td")
    data = json.loads(json.dumps(found.as_dict()))
    assert Assessment.from_dict(data) == found


def test_bad_input_is_refused() -> None:
    hand = feeding_position()
    with pytest.raises(IllegalMoveError):
        coach().assess(hand.view(0), "discard 9d")  # not in the hand
    with pytest.raises(IllegalMoveError):
        coach().assess(hand.view(0), "draw")  # already drawn
    with pytest.raises(IllegalMoveError, match="not this seat's turn"):
        coach().assess(hand.view(1), "draw")
    with pytest.raises(TypeError, match="PlayerView"):
        coach().assess(hand, "discard Kc")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        Coach(samples=0)


def test_a_forced_move_is_good_without_sampling() -> None:
    hand = play(Hand("traditional", seed=4, dealer=1), "pass", "pass")
    view = hand.view(hand.to_play)
    assert view.legal_moves == ("draw",)
    found = coach().assess(view, "draw")
    assert found.kind == "forced" and found.rating == "good" and found.worlds == 0


def test_a_knock_with_declared_melds_is_judged_as_declared() -> None:
    hand = last_turn_knock_position()
    view = hand.view(0)
    found = coach().assess(view, "knock 9s with Ac2c3c 4h5h6h 7c7d7s")
    assert found.move == "knock 9s with Ac2c3c 4h5h6h 7c7d7s"
    assert found.rating == "good"


_CARD = re.compile(r"(10|[2-9AJQK])([♣♦♥♠])")


def _visible(view: object) -> set[str]:
    from ginrummy.engine.view import PlayerView

    assert isinstance(view, PlayerView)
    cards = {int(c) for c in view.hand_cards()} | {int(c) for c in view.discard_pile}
    cards |= {int(e.card) for e in view.history if e.card is not None}
    return {Card(c).symbol() for c in cards}


def test_a_reason_names_only_cards_the_seat_has_seen() -> None:
    for view, move in _real_decisions(30, seed=11):
        found = coach(5).assess(view, move)
        texts = [found.reason] + [a.words for a in found.alternatives]
        named = {m.group(0) for t in texts for m in _CARD.finditer(t)}
        assert named <= _visible(view), (found.reason, named - _visible(view))


def _real_decisions(count: int, seed: int = 2) -> list[tuple[object, str]]:
    """(view, move) of seat 0's decisions with a choice in hands between two players."""
    out: list[tuple[object, str]] = []
    game = 0
    while len(out) < count:
        hand = Hand("traditional", seed=seed + game, dealer=game % 2)
        players = [make("hard", seed=game), make("medium", seed=game + 1)]
        while hand.result is None and len(out) < count:
            view = hand.view(hand.to_play)
            move = players[hand.to_play].choose(view)
            if hand.to_play == 0 and decision_kind(view) != "forced":
                out.append((view, move))
            hand.play(move)
        game += 1
    return out


def test_passing_the_last_discard_that_lets_you_knock_is_a_mistake() -> None:
    hand = dealt("Ac 2c 3c 4h 5h 6h 7s 7d 7c Kd", "Jc Js 5c 6c 9c 3s 4s Qd Kh 2h", "Qs",
                 rules=get_rules("traditional", last_discard_chance=True), dealer=0)
    play(hand, "pass", "pass")  # both pass; both then draw and throw back until the end
    while hand.phase != "last_chance":
        if hand.phase in ("draw", "opening_draw"):
            hand.play("draw")
        hand.play(f"discard {Card(hand.drawn)}")
    assert hand.to_play == 0
    view = hand.view(0)
    found = coach().assess(view, "pass")
    assert found.kind == "last_chance" and found.rating == "mistake" and found.best == "take"
    top = Card(view.discard_pile[-1]).symbol()
    assert found.reason.startswith(f"Taking the {top} would have")
    assert coach().assess(view, "take").rating == "good"
