"""Bodies of the coach's API (``/api/matches/{id}/coach/...``): remarks on the person's own
decisions, a finished hand's review, and a decision reopened to play again.

A remark is built from the person's :class:`~ginrummy.engine.view.PlayerView` before the move (the
coach sees nothing else): the move, the alternatives the coach weighed with their values, the
rating and the reason. Nothing in it can name a card the person has not seen.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from .schemas import MOVE_LENGTH, MatchState, SeatCards, StrictIn, Text


class AlternativeOut(BaseModel):
    move: str = Field(description="engine notation")
    words: str = Field(description="the move in words: 'discard the 7♦'")
    value: float = Field(description="expected points for you by the end of the hand")
    win_chance: float = Field(description="share of the coach's worlds you win the hand")
    deadwood: int | None = Field(None, description="your deadwood after it, when it throws")


class RemarkOut(BaseModel):
    """The coach on one of your decisions."""

    hand: int = Field(description="the hand's number in the match (1-based)")
    index: int = Field(description="how many moves of the hand were played before it")
    turn: int = Field(description="your turn in the hand (1-based)")
    kind: Literal["forced", "opening", "draw", "discard", "knock", "last_chance"]
    move: str
    words: str = Field(description="your move in words")
    rating: Literal["good", "inaccuracy", "mistake"]
    reason: str = Field(description="one sentence: why")
    best: str
    best_words: str
    loss: float = Field(description="expected points given up against the best move")
    exact: bool = Field(description="decided by definition (a missed gin), not by sampling")
    alternatives: list[AlternativeOut] = Field(description="best first")


class LatestOut(BaseModel):
    remark: RemarkOut | None = Field(
        None, description="your latest decision in the current hand, or null before any"
    )


class PendingOut(BaseModel):
    """A decision of yours in a streamed review, before its verdict arrives."""

    hand: int
    index: int = Field(description="how many moves of the hand were played before it")
    turn: int = Field(description="your turn in the hand (1-based)")
    words: str = Field(description="your move in words")


class AheadOut(BaseModel):
    """What assessing ahead did: the decisions of the current hand newly assessed and kept."""

    assessed: int = Field(description="decisions assessed by this request")
    kept: int = Field(description="decisions already assessed before it")


class ReviewOut(BaseModel):
    """A finished hand's review: every decision of yours and the costliest of them."""

    hand: int
    summary: str
    counts: dict[str, int]
    decisions: list[RemarkOut]
    costliest: list[RemarkOut] = Field(description="the poor decisions, most expensive first")


class RevisitOut(BaseModel):
    """A decision of a finished hand, reopened: the table as you saw it then."""

    hand: int
    index: int
    turn: int
    question: str
    played: str = Field(description="what you played then, in words")
    table: MatchState


class RevisitIn(StrictIn):
    move: Text = Field(min_length=1, max_length=MOVE_LENGTH, examples=["discard Ks"])


class RevisitAnswerOut(BaseModel):
    """Your new move at a reopened decision, judged by the coach, and what it leads to."""

    remark: RemarkOut
    played: RemarkOut = Field(description="the coach on the move you made in the game")
    outcome: str = Field(description="what the engine makes of the new move")
    opponent: SeatCards = Field(description="the computer's hand at the decision")
    table: MatchState = Field(description="the table after the new move, from your seat")
