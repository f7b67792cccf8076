"""Every sample situation replayed through the engine: the taught answer is legal and the coach,
from the learner's view only, rates it best or equal best (equal: within the smallest loss it
would call an inaccuracy, :data:`ginrummy.coach.INACCURACY` points)."""

from __future__ import annotations

import pytest

from ginrummy.coach import INACCURACY, lesson_coach
from ginrummy.lessons import Situation, coach_check, load_situations

SITUATIONS = load_situations()
#: The Learn panel's coach: more worlds than at the table, so the check does not hang on noise.
COACH = lesson_coach()


@pytest.mark.parametrize("situation", SITUATIONS, ids=lambda s: s.id)
def test_the_coach_rates_the_taught_answer_best_or_equal_best(situation: Situation) -> None:
    view = situation.position.view()
    for answer in situation.lesson.answers:
        assert answer in view.legal_moves
    verdict = coach_check(situation, COACH, tolerance=INACCURACY)
    top = max(verdict.ratings.values())
    assert verdict.agrees, (
        f"the coach prefers {', '.join(verdict.best)} ({top:+.1f}); the lesson's "
        + ", ".join(f"{a} {verdict.ratings[a]:+.1f}" for a in situation.lesson.answers)
    )
    for answer in situation.lesson.answers:
        assert COACH.assess(view, answer).rating == "good"
