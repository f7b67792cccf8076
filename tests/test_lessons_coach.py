"""Every sample situation's lesson is confirmed by the coach's search (issue 11, item 3).

:func:`ginrummy.lessons.confirm.confirm` asks the coach about every legal move at the
situation, from the learner's view only: each taught answer must be rated good, each move the
lesson names as wrong must be rated below good, and the coach's best move must be an answer
(or else nothing outside the answers is rated good). The situations are the ones
``load_situations`` finds, so a situation added as a file, without code, is checked too.

The default run uses the Learn panel's own coach (:func:`ginrummy.coach.lesson_coach`, the one
whose remarks the page shows next to the lesson); ``--slow`` repeats the check with other coach
seeds and a bigger budget, so a verdict that hangs on the coach's noise fails.
"""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from ginrummy.coach import LESSON_SAMPLES, Coach, lesson_coach
from ginrummy.engine.view import PlayerView
from ginrummy.lessons import Situation, load_situations
from ginrummy.lessons.confirm import Confirmation, confirm, named_wrong_moves

SITUATIONS = load_situations()
#: The Learn panel's coach: more worlds than at the table, so the check does not hang on noise.
COACH = lesson_coach()
#: The stronger check (``--slow``): other seeds, and more worlds.
SLOW_SEEDS = (1, 2, 3, 4)
SLOW_SAMPLES = 1000


def _report(found: Confirmation) -> str:
    return found.describe() + " | " + ", ".join(
        f"{m} {found.values[m]:+.1f} {found.ratings[m]}"
        for m in sorted(found.values, key=lambda m: -found.values[m])
    )


@pytest.mark.parametrize("situation", SITUATIONS, ids=lambda s: s.id)
def test_the_coach_confirms_the_lesson(situation: Situation) -> None:
    found = confirm(situation, COACH)
    assert found.confirmed, _report(found)


@pytest.mark.slow
@pytest.mark.parametrize("seed", SLOW_SEEDS)
@pytest.mark.parametrize("situation", SITUATIONS, ids=lambda s: s.id)
def test_the_verdict_is_stable_across_coach_seeds(situation: Situation, seed: int) -> None:
    found = confirm(situation, Coach(seed=seed, samples=max(SLOW_SAMPLES, LESSON_SAMPLES)))
    assert found.confirmed, _report(found)


def test_the_named_wrong_moves_are_the_lessons_counter_examples() -> None:
    by_id = {s.id: s for s in SITUATIONS}
    assert named_wrong_moves(by_id["pass-an-upcard-that-does-not-help"]) == ("take",)
    assert named_wrong_moves(by_id["layoffs-chain-along-a-run"]) == ("knock 3c",)
    assert named_wrong_moves(by_id["do-not-feed-your-opponent"]) == ("discard Tc",)
    # A refused move (a knock over Oklahoma's limit) names nothing.
    assert named_wrong_moves(by_id["oklahoma-an-ace-means-gin-only"]) == ()


class _Rated:
    def __init__(self, rating: str) -> None:
        self.rating = rating


class _FakeCoach:
    """A coach with fixed values; a move is good within 2 points of the best."""

    def __init__(self, values: Mapping[str, float]) -> None:
        self.values = dict(values)

    def rate(self, view: PlayerView) -> dict[str, float]:
        return {m: self.values.get(m, -50.0) for m in view.legal_moves}

    def assess(self, view: PlayerView, move: str) -> _Rated:
        top = max(self.rate(view).values())
        return _Rated("good" if self.rate(view)[move] > top - 2 else "mistake")


def test_the_check_fails_when_the_coach_disagrees() -> None:
    upcard = next(s for s in SITUATIONS if s.id == "pass-an-upcard-that-does-not-help")
    assert confirm(upcard, _FakeCoach({"pass": 10.0, "take": 5.0})).confirmed
    # The named wrong move rated good, although the answer is best: a contradiction.
    close = confirm(upcard, _FakeCoach({"pass": 10.0, "take": 9.0}))
    assert not close.confirmed
    assert "calls take wrong" in close.problems[0]
    # The answer itself given up.
    worse = confirm(upcard, _FakeCoach({"pass": 5.0, "take": 10.0}))
    assert not worse.confirmed
    assert any("the answer pass is rated mistake" in p for p in worse.problems)


def test_the_check_allows_good_alternatives_only_below_an_answer_that_is_best() -> None:
    lonely = next(s for s in SITUATIONS if s.id == "throw-the-lonely-card")
    legal = lonely.position.legal_moves
    values = {m: 0.0 for m in legal}
    values.update({"discard Kc": 20.0, "discard 2s": 19.0, "discard Qd": 10.0})
    assert confirm(lonely, _FakeCoach(values)).confirmed
    values["discard 2s"] = 21.0   # now the coach's best is not the answer, and Kc is "good"
    found = confirm(lonely, _FakeCoach(values))
    assert not found.confirmed
    assert found.best == "discard 2s"
