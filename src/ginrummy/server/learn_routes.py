"""The sample situations over HTTP: list them, open one, answer it.

Situations are the package's own data (:func:`ginrummy.lessons.load_situations`), loaded and
checked once. Nothing here is per player, so no token is needed. The position is replayed on
every request and judged by the engine; before the answer a response carries only what the
learner's seat sees (:func:`ginrummy.server.serialize.hand_out` of its
:class:`~ginrummy.engine.view.PlayerView`), and after it the opponent's hand and the lesson's lines,
which never draw from the stock.
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from typing import Annotated, Any, Literal

from fastapi import APIRouter, HTTPException

from ..engine.match import Match
from ..lessons import NAMES, Outcome, Situation, answer, load_situations
from ..lessons.strategy import ABOUT, strategy_data, strategy_tips
from ..lessons.text import line_words, proof_text, rules_label, verdict_text
from .learn_schemas import AnswerIn, AnswerOut, LineOut, SituationOut, SituationSummary
from .schemas import Action, MatchMeta, MatchState, error_answers, id_in_path
from .serialize import hand_out, rules_out, score_out, seat_cards

__all__ = ["router", "numbers_router", "catalogue", "by_the_numbers"]

router = APIRouter(prefix="/api/situations", tags=["learn"])
#: The figures of the Learn panel's "By the numbers" view.
numbers_router = APIRouter(prefix="/api/learn", tags=["learn"])

SituationId = Annotated[str, id_in_path("situation id", r"^[a-z0-9-]+$", 80)]

ERRORS = error_answers(
    "e422",
    e400="a move the rules do not allow here",
    e404="no such situation",
)


@lru_cache(maxsize=1)
def catalogue() -> dict[str, Situation]:
    """Every shipped situation by id, in the Learn panel's order (loaded and checked once)."""
    return {s.id: s for s in load_situations()}


def find_situation(situation_id: str) -> Situation:
    found = catalogue().get(situation_id)
    if found is None:
        raise HTTPException(404, "No such situation.")
    return found


def _summary(s: Situation) -> SituationSummary:
    lesson = s.lesson
    return SituationSummary(
        id=s.id,
        title=lesson.title,
        heading=lesson.heading,
        topic=lesson.topic,
        topic_title=lesson.topic_title,
        rules=rules_label(s),
        profiles=list(lesson.profiles),
        proof=lesson.proof,
    )


def _table(s: Situation, match: Match, version: int) -> MatchState:
    """The table as the learner's seat sees it, in the shape the page draws."""
    seat = s.position.seat
    view = match.view(seat)
    status: Literal["playing", "between_hands", "over"] = (
        "over" if match.over else "between_hands" if match.hand.over else "playing"
    )
    return MatchState(
        id=f"situation-{s.id}",
        version=version,
        status=status,
        level="lesson",
        names=list(NAMES),
        rules=rules_out(match.rules),
        hand=hand_out(view),
        score=score_out(match, seat),
        computer_moves=[],
        meta=MatchMeta(sealed=None, situation=s.id, revisit=None),
        coach=None,
    )


def _line(moves: tuple[str, ...], outcome: Outcome, note: str = "") -> LineOut:
    return LineOut(moves=list(moves), words=line_words(moves), text=outcome.sentence(),
                   note=note)


@lru_cache(maxsize=1)
def by_the_numbers() -> dict[str, Any]:
    """The package's ``data/by_the_numbers.json``: how hands end between two copies of a
    level, from the self-play runs ``scripts/by_the_numbers.py`` makes (each run's command is
    in the file)."""
    text = (resources.files("ginrummy") / "data" / "by_the_numbers.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


@numbers_router.get("/numbers")
def get_numbers() -> dict[str, Any]:
    """How hands end between two copies of `medium` (knocks at once) and of `hard` (holds out
    for gin), 2,000 hands each, every figure with its 95% interval and the command."""
    return by_the_numbers()


@numbers_router.get("/strategy")
def get_strategy() -> dict[str, Any]:
    """The strategy tips, surest first, each with its sample situation, the figure the player
    is shown in one line, and the self-play evidence (figure, interval, verdict, and the
    command that made it, for the curious)."""
    return {
        "about": ABOUT,
        "made_by": strategy_data()["made_by"],
        "tips": [
            {
                "key": t.key, "title": t.title, "tip": t.text, "line": t.line,
                "situation": {"id": t.situation_id, "title": t.situation_title},
                "evidence": [
                    {"follower": e.follower, "ignorer": e.ignorer, "hands": e.hands,
                     "mean": e.mean, "low": e.low, "high": e.high, "figure": e.figure,
                     "verdict": e.verdict, "line": e.line, "command": e.command}
                    for e in t.evidence
                ],
            }
            for t in strategy_tips()
        ],
    }


@router.get("", response_model=list[SituationSummary])
def list_situations() -> list[SituationSummary]:
    """Every sample situation, grouped by topic (in the order to learn them)."""
    return [_summary(s) for s in catalogue().values()]


@router.get("/{situation_id}", response_model=SituationOut, responses=ERRORS)
def get_situation(situation_id: SituationId) -> SituationOut:
    """A situation's question and the table from the learner's seat (nothing hidden from it)."""
    s = find_situation(situation_id)
    return SituationOut(
        **_summary(s).model_dump(),
        question=s.lesson.question,
        table=_table(s, s.position.match(), 0),
    )


@router.post("/{situation_id}/answer", response_model=AnswerOut, responses=ERRORS)
def answer_situation(situation_id: SituationId, body: AnswerIn) -> AnswerOut:
    """Judge a move: the engine plays it from the position; the answer says whether it is the
    lesson's, what it leads to against the taught answer, why, and shows the opponent's hand.
    A move the rules do not allow is refused with the engine's sentence (400)."""
    s = find_situation(situation_id)
    result = answer(s, body.move)  # IllegalMoveError -> 400
    table = _table(s, result.yours.match, 1)
    hand = table.hand
    assert hand is not None  # a situation always has a hand on the table
    done = Action(enabled=False, reason="You have answered: read the explanation, then try "
                  "again or open another situation.")
    updates: dict[str, object] = {
        "prompt": f"You chose to {line_words((result.move,))}.",
        "actions": dict.fromkeys(hand.actions, done),
        "legal_moves": [],
        "card_options": [],
    }
    if hand.result is not None:
        updates["result"] = hand.result.model_copy(
            update={"explanation": result.yours.sentence()}
        )
    table = table.model_copy(update={"hand": hand.model_copy(update=updates)})
    taught = None
    if result.taught is not None:
        taught = _line(result.taught.moves, result.taught)
    return AnswerOut(
        id=s.id,
        move=result.move,
        correct=result.correct,
        verdict=verdict_text(result),
        answers=list(s.lesson.answers),
        yours=_line(result.yours.moves, result.yours),
        taught=taught,
        why=s.lesson.why,
        takeaway=s.lesson.takeaway,
        proof=s.lesson.proof,
        proof_text=proof_text(s),
        facts=[
            LineOut(moves=list(f.moves), words=line_words(f.moves), text=o.sentence(),
                    note=f.note)
            for f, o in result.facts
        ],
        opponent=seat_cards(s.position.opponent_mask()),
        table=table,
        coach=None,
    )

