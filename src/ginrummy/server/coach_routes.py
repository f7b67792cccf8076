"""The coach's routes: remarks on the person's decisions, hand reviews, revisits.

Every route reads the player from the token, like the table's routes, and acts only on that
player's matches; the work is done by :class:`~ginrummy.server.coach_service.CoachService`.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Path, Request
from fastapi.responses import StreamingResponse

from ..engine.move import Move
from .coach_schemas import (
    AheadOut,
    LatestOut,
    RemarkOut,
    ReviewOut,
    RevisitAnswerOut,
    RevisitIn,
    RevisitOut,
)
from .coach_service import CoachService
from .learn_routes import ERRORS as _LEARN_ERRORS
from .learn_routes import SituationId, find_situation
from .limits import client_address, limit_lesson_coach, limit_pair
from .routes import ERRORS, MatchId, Player
from .schemas import error_answers

__all__ = ["router", "lessons_router"]

def _limit(request: Request, player: Player) -> None:
    """Coach requests per player and per client address (429 with ``Retry-After``)."""
    limit_pair(request, "coach", player.id, "coach requests")


#: The answers a rate-limited route adds to its errors.
LIMITED = error_answers(
    e429="too many requests: wait for Retry-After seconds",
    e503="the coach is busy with other players: wait for Retry-After seconds",
)

router = APIRouter(prefix="/api/matches/{match_id}/coach", tags=["coach"],
                   dependencies=[Depends(_limit)], responses=LIMITED)
lessons_router = APIRouter(prefix="/api/situations", tags=["learn"])

HandNumber = Annotated[int, Path(ge=1, le=10_000, description="hand number (1-based)")]
MoveIndex = Annotated[
    int, Path(ge=0, le=10_000, description="moves of the hand played before the decision")
]


def _coach(request: Request) -> CoachService:
    coach: CoachService = request.app.state.coach
    return coach


Coach = Annotated[CoachService, Depends(_coach)]


@router.get("/latest", response_model=LatestOut, responses=ERRORS)
def latest(player: Player, coach: Coach, match_id: MatchId) -> LatestOut:
    """The coach on your latest move of the current hand (null before your first decision,
    or after a forced move). Computed on request, from what your seat knew then."""
    return LatestOut(remark=coach.latest(player, match_id))


@router.post("/ahead", response_model=AheadOut, responses=ERRORS)
def ahead(player: Player, coach: Coach, match_id: MatchId) -> AheadOut:
    """Assess, and keep, each of your decisions of the current hand already played and not yet
    assessed, so its review is ready when the hand ends (the page asks after each of your
    moves, with the coach on or off). Answers only how many; no verdict is shown."""
    return coach.ahead(player, match_id)


@router.get("/hands/{number}/stream", responses=ERRORS,
            response_class=StreamingResponse)
def review_stream(
    player: Player, coach: Coach, match_id: MatchId, number: HandNumber
) -> StreamingResponse:
    """The review of a finished hand as it is made (``application/x-ndjson``, one JSON object
    a line): ``start`` with every decision pending, one ``decision`` line per remark as soon as
    it is known (kept ones first), then the whole ``review`` (as ``GET /hands/{number}``)."""
    lines = coach.review_lines(player, match_id, number)
    return StreamingResponse(lines, media_type="application/x-ndjson",
                             headers={"Cache-Control": "no-store"})


@router.get("/hands/{number}", response_model=ReviewOut, responses=ERRORS)
def review(player: Player, coach: Coach, match_id: MatchId, number: HandNumber) -> ReviewOut:
    """The review of a finished hand: each of your decisions rated, the costliest first
    (409 while the hand is being played)."""
    return coach.review(player, match_id, number)


@router.get("/hands/{number}/decisions/{index}", response_model=RevisitOut, responses=ERRORS)
def revisit(
    player: Player, coach: Coach, match_id: MatchId, number: HandNumber, index: MoveIndex
) -> RevisitOut:
    """One of your decisions in a finished hand, reopened as a position to play again."""
    return coach.revisit(player, match_id, number, index)


@router.post(
    "/hands/{number}/decisions/{index}/answer",
    response_model=RevisitAnswerOut,
    responses=ERRORS,
)
def revisit_answer(
    player: Player,
    coach: Coach,
    match_id: MatchId,
    number: HandNumber,
    index: MoveIndex,
    body: RevisitIn,
) -> RevisitAnswerOut:
    """Play a reopened decision again: the coach's remark on the new move, every alternative
    it weighed, and what the engine makes of it (400 for a move the rules do not allow)."""
    return coach.revisit_answer(player, match_id, number, index, body.move)


@lessons_router.post("/{situation_id}/coach", response_model=RemarkOut,
                     responses={**_LEARN_ERRORS, **LIMITED},
                     dependencies=[Depends(limit_lesson_coach)])
def lesson_remark(
    request: Request, coach: Coach, situation_id: SituationId, body: RevisitIn
) -> RemarkOut:
    """The coach's view of a move at a sample situation, from the learner's seat only (the
    same coach that checks every lesson's answer); 400 for a move the rules do not allow."""
    find_situation(situation_id)  # 404 before anything else
    move = str(Move.parse(body.move))  # InvalidMoveError: 400
    return coach.lesson_remark(situation_id, move, client_address(request))
