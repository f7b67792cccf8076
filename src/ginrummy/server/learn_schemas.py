"""Request and response bodies of the sample-situation API (``/api/situations``).

Before the learner answers, a situation travels as its question and the learner's own view
(the same :class:`~ginrummy.server.schemas.MatchState` the table draws); the lesson's answer, its
explanation and the opponent's hand travel only in the answer to ``POST .../answer``.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from .schemas import MOVE_LENGTH, MatchState, SeatCards, StrictIn, Text


class SituationSummary(BaseModel):
    """One entry of the Learn panel's list."""

    id: str
    title: str = Field(description="the lesson's title, which may say the answer: the page "
                       "shows it once the situation is answered")
    heading: str = Field(description="a neutral title, shown until the situation is answered")
    topic: str
    topic_title: str
    rules: str = Field(description="the rules in plain words: 'Traditional, Hollywood'")
    profiles: list[str] = Field(description="the profiles whose rules this situation shows")
    proof: str = Field(description="how the answer is checked (see docs/learning.md)")


class SituationOut(SituationSummary):
    """A situation as the learner meets it: the question and the table from their seat."""

    question: str
    table: MatchState


class AnswerIn(StrictIn):
    move: Text = Field(
        min_length=1,
        max_length=MOVE_LENGTH,
        description="engine notation: take, pass, draw, discard 7h, knock 7h, big gin",
        examples=["discard Ks"],
    )


class LineOut(BaseModel):
    """A line of play from the position and the engine's outcome of it."""

    moves: list[str]
    words: str = Field(description="the line in words: 'take the card, then knock with the 6♦'")
    text: str = Field(description="what the engine makes of it")
    note: str = ""


class AnswerOut(BaseModel):
    """The learner's move judged: right or not, why, and what the engine says of each line."""

    id: str
    move: str = Field(description="the move as the engine recorded it")
    correct: bool
    verdict: str
    answers: list[str] = Field(description="every accepted move, engine notation")
    yours: LineOut
    taught: LineOut | None = Field(
        None, description="the lesson's answer played instead, when yours differs"
    )
    why: str
    takeaway: str
    proof: str
    proof_text: str
    facts: list[LineOut]
    opponent: SeatCards = Field(description="the opponent's hand at the decision")
    table: MatchState = Field(description="the table after your move, from your seat")
    coach: dict[str, str] | None = Field(None, description="reserved for the coach's rating")
