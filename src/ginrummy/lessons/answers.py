"""Judging a learner's move at a situation, and the hook where the coach will rate lessons."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Protocol

from ..engine.errors import GinRummyError, IllegalMoveError
from ..engine.move import Move
from ..engine.view import PlayerView
from .model import Fact, Situation
from .position import Outcome

__all__ = ["Answer", "answer", "CoachRater", "CoachVerdict", "coach_check"]


@dataclass(frozen=True)
class Answer:
    """The learner's move judged against the lesson.

    ``yours`` is the engine's outcome of the move; ``taught`` the outcome of the first taught
    answer when the learner chose otherwise (``None`` when it would draw from the stock, which
    stays secret).
    """

    situation: Situation
    move: str
    correct: bool
    yours: Outcome
    taught: Outcome | None
    facts: tuple[tuple[Fact, Outcome], ...]


def answer(situation: Situation, move: str) -> Answer:
    """Judge ``move`` at the situation's position.

    Raises :class:`~ginrummy.engine.errors.IllegalMoveError` (with the engine's sentence) for a move
    the rules do not allow; nothing is changed.
    """
    yours = situation.position.play([move])
    if not yours.legal:
        raise IllegalMoveError(yours.error or f"{move!r} is not legal here")
    played = yours.moves[0]
    base = Move.parse(played).plain
    correct = played in situation.lesson.answers or base in situation.lesson.answers
    taught = None
    first = situation.lesson.answers[0]
    if not correct and first != "draw":
        taught = situation.position.play([first])
    return Answer(
        situation=situation,
        move=played,
        correct=correct,
        yours=yours,
        taught=taught,
        facts=tuple(situation.fact_outcomes()),
    )


class CoachRater(Protocol):
    """What the coach will provide: each legal move of a view rated in expected points for
    that seat (higher is better). It sees the learner's view only, never the hidden cards."""

    def rate(self, view: PlayerView) -> Mapping[str, float]: ...


@dataclass(frozen=True)
class CoachVerdict:
    """Whether the coach agrees with a lesson: its best moves and the taught answers' ratings."""

    best: tuple[str, ...]
    ratings: Mapping[str, float]
    agrees: bool


def coach_check(
    situation: Situation, coach: CoachRater, tolerance: float = 1e-9
) -> CoachVerdict:
    """The hook for the coach: rate every legal move at the position and say whether the taught
    answers are best or equal best (within ``tolerance``)."""
    view = situation.position.view()
    ratings = dict(coach.rate(view))
    missing = [m for m in view.legal_moves if m not in ratings]
    if missing:
        raise GinRummyError(f"the coach did not rate {', '.join(missing)}")
    top = max(ratings[m] for m in view.legal_moves)
    best = tuple(m for m in view.legal_moves if ratings[m] >= top - tolerance)
    agrees = all(ratings[a] >= top - tolerance for a in situation.lesson.answers)
    return CoachVerdict(best=best, ratings=ratings, agrees=agrees)

