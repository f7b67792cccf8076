"""Is a lesson confirmed by the coach's search? The check every shipped situation must pass.

A learner sees, after each answer, both the lesson's verdict ("Not this time ... the answer is
to pass") and the coach's rating of the same move. The two must never contradict each other,
so :func:`confirm` asks a coach about every legal move of the situation and requires:

1. every taught answer is rated **good**;
2. every move the lesson *names* as wrong (the first move of a fact that is not an answer,
   e.g. ``take`` in "Pass an upcard that does not help", ``knock 3c`` in "Layoffs chain") is
   rated **below good**;
3. the coach's best move is a taught answer, or else every move that is not an answer is rated
   below good (the answer is then within the good band and nothing else is).

Under rule 3 a move outside the answers may still be rated good when the coach's best move is
an answer; the coach's sentence for it then reads "About as good as the coach's choice, to
<the taught answer>", which agrees with the lesson.

The coach is any object with ``rate(view)`` (every legal move's value) and ``assess(view,
move).rating`` (:class:`ginrummy.coach.Coach`); the lessons do not import the coach. A
verdict is only worth something when it holds for several coach seeds: :func:`confirm_seeds`
runs the check once per seed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Protocol

from ..engine.move import Move
from ..engine.view import PlayerView
from .model import Situation

__all__ = ["CoachJudge", "Confirmation", "confirm", "confirm_seeds", "named_wrong_moves"]


class _Rated(Protocol):
    @property
    def rating(self) -> str: ...


class CoachJudge(Protocol):
    """What the check needs of a coach: values of every legal move, and one move's rating."""

    def rate(self, view: PlayerView) -> Mapping[str, float]: ...

    def assess(self, view: PlayerView, move: str) -> _Rated: ...


@dataclass(frozen=True)
class Confirmation:
    """The coach's verdict on one situation: every legal move's value and rating, the best
    move, and the reasons the lesson is not confirmed (``problems``, empty when it is)."""

    situation_id: str
    values: Mapping[str, float]
    ratings: Mapping[str, str]
    best: str
    named_wrong: tuple[str, ...]
    problems: tuple[str, ...]

    @property
    def confirmed(self) -> bool:
        return not self.problems

    def describe(self) -> str:
        """One line: the verdict, the best move, the answers' and the named wrong moves'
        values and ratings."""
        def show(m: str) -> str:
            return f"{m} {self.values[m]:+.1f} {self.ratings[m]}"

        head = "confirmed" if self.confirmed else "NOT confirmed"
        text = f"{self.situation_id}: {head}; best {show(self.best)}"
        if self.problems:
            text += "; " + "; ".join(self.problems)
        return text


def named_wrong_moves(situation: Situation) -> tuple[str, ...]:
    """The moves the lesson itself names as wrong: the legal first moves of its facts that are
    not among the answers (a fact whose move is refused by the rules names no move)."""
    answers = _plain_set(situation.lesson.answers)
    legal = set(situation.position.legal_moves)
    out: list[str] = []
    for fact in situation.lesson.facts:
        first = _plain(fact.moves[0])
        if first in legal and first not in answers and first not in out:
            out.append(first)
    return tuple(out)


def _plain(move: str) -> str:
    return str(Move.parse(move).plain)


def _plain_set(moves: Iterable[str]) -> set[str]:
    return {_plain(m) for m in moves}


def confirm(situation: Situation, coach: CoachJudge) -> Confirmation:
    """Check the lesson against ``coach`` (the rules are in the module docstring)."""
    view = situation.position.view()
    legal = list(view.legal_moves)
    values = dict(coach.rate(view))
    ratings = {m: str(coach.assess(view, m).rating) for m in legal}
    answers = _plain_set(situation.lesson.answers)
    best = max(legal, key=lambda m: (values[m], m in answers))
    wrong = named_wrong_moves(situation)
    problems: list[str] = []
    for a in legal:
        if a in answers and ratings[a] != "good":
            problems.append(f"the answer {a} is rated {ratings[a]}")
    for w in wrong:
        if ratings[w] == "good":
            problems.append(f"the lesson calls {w} wrong, the coach rates it good")
    if best not in answers:
        others = [m for m in legal if m not in answers and m not in wrong
                  and ratings[m] == "good"]
        if others:
            problems.append(
                f"the coach's best is {best} ({values[best]:+.1f}) and it rates "
                + ", ".join(others) + " good too"
            )
    return Confirmation(
        situation_id=situation.id,
        values=values,
        ratings=ratings,
        best=best,
        named_wrong=wrong,
        problems=tuple(problems),
    )


def confirm_seeds(
    situation: Situation, make_coach: Callable[[int], CoachJudge], seeds: Iterable[int]
) -> list[Confirmation]:
    """:func:`confirm` once per coach seed (``make_coach(seed)`` builds each coach)."""
    return [confirm(situation, make_coach(seed)) for seed in seeds]
