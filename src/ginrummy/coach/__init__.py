"""The coach: judges a seat's decisions from its :class:`~ginrummy.engine.view.PlayerView` only.

:class:`Coach` rates one decision (:meth:`Coach.assess`) against the cards the seat cannot see,
by playing the hand out in many guessed worlds; :mod:`.review` lists a finished hand's
decisions and the costliest of them. The algorithm, the ratings and their thresholds are in
``docs/coach.md``.

>>> from ginrummy import Hand
>>> from ginrummy.coach import Coach
>>> hand = Hand(seed=3)
>>> view = hand.view(hand.to_play)
>>> found = Coach(seed=1, samples=8).assess(view, "pass")
>>> found.kind, found.rating in ("good", "inaccuracy", "mistake"), found.move
('opening', True, 'pass')
"""

from __future__ import annotations

from .assess import (
    DEFAULT_SAMPLES,
    INACCURACY,
    LESSON_SAMPLES,
    MISTAKE,
    RATINGS,
    Alternative,
    Assessment,
    Coach,
    DecisionKind,
    Rating,
    decision_kind,
    lesson_coach,
    move_words,
    view_key,
)
from .playout import CoachPolicy
from .review import Decision, HandReview, decisions_of, review_hand

__all__ = [
    "Alternative",
    "Assessment",
    "Coach",
    "CoachPolicy",
    "Decision",
    "DecisionKind",
    "HandReview",
    "Rating",
    "RATINGS",
    "INACCURACY",
    "MISTAKE",
    "DEFAULT_SAMPLES",
    "LESSON_SAMPLES",
    "decision_kind",
    "lesson_coach",
    "decisions_of",
    "move_words",
    "review_hand",
    "view_key",
]
