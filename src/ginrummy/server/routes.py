"""The JSON API's routes. Each reads the player from the ``Authorization: Bearer <token>``
header and acts only on that player's matches; the work is done by
:class:`~ginrummy.server.service.TableService`."""

from __future__ import annotations

import dataclasses
from typing import Annotated

from fastapi import APIRouter, Body, Depends, HTTPException, Query, Request
from fastapi.responses import PlainTextResponse
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from ..engine.rules import from_description
from ..words.cheatsheet import rules_name
from .fields import same_fields
from .limits import client_address, limit_new_players, limit_pair
from .rules_text import profile_catalogue
from .schemas import (
    InviteOut,
    JoinIn,
    LobbyTable,
    MatchIn,
    MatchState,
    MatchSummary,
    MoveIn,
    NewPlayerIn,
    NextHandIn,
    OptionsOut,
    PlayerOut,
    RatedMatchOut,
    RatingOut,
    RenameIn,
    StatsOut,
    error_answers,
    id_in_path,
)
from .serialize import rules_out
from .service import AGENT, TableService
from .store import PERSON, InviteError, MatchInfo, PlayerInfo, PlayerStats
from .store.limits import address_hash

__all__ = ["router", "LEVELS", "limit_joins", "limit_new_matches"]

router = APIRouter(prefix="/api")

#: The opponent levels offered in the new-game window, weakest first.
LEVELS = ["easy", "medium", "hard", "expert"]

_bearer = HTTPBearer(auto_error=False, description="the player token from POST /api/players")

MatchId = Annotated[str, id_in_path("match id", r"^[A-Za-z0-9_-]+$", 32)]

ERRORS = error_answers(
    "e401", "e413", "e422",
    e400="illegal move or bad input",
    e404="no such match for this player",
    e409="the match is not in a state for this request",
)


def _service(request: Request) -> TableService:
    service: TableService = request.app.state.service
    return service


def _player(
    request: Request,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
) -> PlayerInfo:
    if credentials is None or not credentials.credentials:
        raise HTTPException(401, "Send your player token: 'Authorization: Bearer <token>'.")
    token = credentials.credentials
    if len(token) > 200:
        raise HTTPException(401, "Unknown player token.")
    player = _service(request).player(token)
    if player is None:
        raise HTTPException(401, "Unknown player token.")
    return player


Player = Annotated[PlayerInfo, Depends(_player)]
Service = Annotated[TableService, Depends(_service)]


def limit_new_matches(request: Request, player: Player) -> None:
    """A dependency of ``POST /api/matches``: new matches per player and per client address
    (429 with ``Retry-After``; see :class:`~.limits.RateLimits`)."""
    limit_pair(request, "matches", player.id, "new matches")


def limit_joins(request: Request, player: Player) -> None:
    """A dependency of every request that tries an invite or its short code (joining, and
    looking at an invite first): per player and per client address, which bounds guessing."""
    limit_pair(request, "joins", player.id, "invites tried")


#: The answer a rate-limited route adds to its errors.
LIMITED = error_answers(e429="too many requests: wait for Retry-After seconds")


@router.get("/options", response_model=OptionsOut)
def options(service: Service) -> OptionsOut:
    """The rule profiles (with every bonus) and opponent levels of the new-game window (with
    ``"agent"`` when the server seats a trained policy)."""
    return OptionsOut(
        profiles=[rules_out(rules) for _key, _title, rules in profile_catalogue()],
        levels=LEVELS + ([AGENT] if service.agent is not None else []),
        agent=service.agent,
        default_profile="traditional",
        default_level="medium",
    )


@router.post("/players", response_model=PlayerOut, status_code=201,
             responses={**ERRORS, **error_answers(e429="too many new players from your address")},
             dependencies=[Depends(limit_new_players)])
def new_player(
    service: Service, body: Annotated[NewPlayerIn | None, Body()] = None
) -> PlayerOut:
    """Create a player. The token in the answer is shown once: keep it (the page keeps it in
    localStorage) and send it as ``Authorization: Bearer <token>``."""
    info, token = service.new_player(body.name if body else "You")
    return PlayerOut(id=info.id, name=info.name, token=token)


@router.get("/me", response_model=PlayerOut, responses=ERRORS)
def me(player: Player, service: Service) -> PlayerOut:
    """The player and their current unfinished match, if any."""
    current = service.store.current_match(player.id) or next(
        iter(service.store.joined_matches(player.id, statuses=("playing",), limit=1)), None)
    return PlayerOut(
        id=player.id, name=player.name, token=None, current_match=current.id if current else None
    )


@router.post("/me/name", response_model=PlayerOut, responses=ERRORS)
def rename(player: Player, service: Service, body: RenameIn) -> PlayerOut:
    """Change your name: the one the other person sees at a table for two people."""
    info = service.store.rename_player(player.id, body.name)
    return PlayerOut(id=info.id, name=info.name, token=None)


@router.post("/matches", response_model=MatchState, status_code=201,
             responses={**ERRORS, **LIMITED}, dependencies=[Depends(limit_new_matches)])
def new_match(request: Request, player: Player, service: Service, body: MatchIn) -> MatchState:
    """Start a match against the computer, or with ``"opponent": "person"`` a table for two
    people (the answer's ``invite`` and ``people.code`` let the other person join). The
    player's unfinished match ends (against a person: a forfeit, counted). The first hand is
    sealed and waits for ``next-hand`` with your client seed."""
    return service.new_match(player, body, address=address_hash(client_address(request)))


InviteId = Annotated[str, id_in_path("invite or short code", r"^[A-Za-z0-9_-]+$", 32)]


@router.get("/invites/{invite}", response_model=InviteOut, responses={**ERRORS, **LIMITED},
            dependencies=[Depends(limit_joins)])
def invite(player: Player, service: Service, invite: InviteId) -> InviteOut:
    """A table's terms before taking its seat: who made it, its rules and clock, the first
    hand's commitment (choose your client seed after reading it), and your unfinished match
    that joining would end. Changes nothing. An invite that is unknown, used or closed: 404,
    one sentence for all three."""
    try:
        return service.invite(player, invite)
    except InviteError as exc:
        raise HTTPException(exc.status, str(exc)) from None


@router.post("/invites/{invite}", response_model=MatchState, responses={**ERRORS, **LIMITED},
             dependencies=[Depends(limit_joins)])
def join(
    request: Request, player: Player, service: Service, invite: InviteId,
    body: Annotated[JoinIn | None, Body()] = None,
) -> MatchState:
    """Take the free seat of a table for two people with its invite (or its short code), with
    your ``client_seed`` for the first deal (dealt at once when the other person's is in).
    Your unfinished match ends only with ``"forfeit_current": true`` (else 409 saying what
    would end, nothing changed). Taking a seat you hold answers the table, nothing changed.
    Unknown, used by someone else or closed: one 404 (a guesser learns nothing more); your
    own table still waiting: 409."""
    body = body or JoinIn(client_seed=None, forfeit_current=False)
    try:
        return service.join(player, invite, address=address_hash(client_address(request)),
                            client_seed=body.client_seed, consent=body.forfeit_current)
    except InviteError as exc:
        raise HTTPException(exc.status, str(exc)) from None


@router.get("/lobby", response_model=list[LobbyTable])
def lobby(service: Service) -> list[LobbyTable]:
    """Open tables for two people whose creator let anyone join and is here now (their page
    open), newest first, at most a few made from one client address."""
    return [
        LobbyTable(**same_fields(t, "invite code creator profile rules hollywood clock"),
                   name=rules_name(from_description(t.rules)),
                   created_at=t.created_at.isoformat() + "Z")
        for t in service.lobby()
    ]


@router.post("/matches/{match_id}/resign", response_model=MatchState, responses=ERRORS)
def resign(player: Player, service: Service, match_id: MatchId) -> MatchState:
    """Resign: the match ends now, lost (it counts in both players' history and figures)."""
    return service.resign(player, match_id)


@router.post("/matches/{match_id}/rematch", response_model=MatchState, responses=ERRORS)
def rematch(player: Player, service: Service, match_id: MatchId) -> MatchState:
    """Offer a rematch of a finished match between two people, or accept the other's offer
    (then ``people.rematch`` holds the new match's id; the other seat deals first)."""
    return service.rematch(player, match_id)


def _summary(m: MatchInfo) -> MatchSummary:
    """A finished match in your history, seen from your side (a joined table for two is
    turned round by the store: your seat is 0)."""
    who = {0: "you", 1: "opponent" if m.level == PERSON else "computer"}
    return MatchSummary(
        **same_fields(m, "id status level rules hollywood hands_played"),
        totals=list(m.scores),
        winner=who.get(m.winner) if m.winner is not None else None,  # type: ignore[arg-type]
        created_at=m.created_at.isoformat() + "Z",
        updated_at=m.updated_at.isoformat() + "Z",
    )


@router.get("/matches", response_model=list[MatchSummary], responses=ERRORS)
def list_matches(player: Player, service: Service) -> list[MatchSummary]:
    """The player's finished matches, newest first."""
    mine = service.store.list_matches(player.id) + service.store.joined_matches(player.id)
    mine.sort(key=lambda m: m.updated_at, reverse=True)
    return [_summary(m) for m in mine]


@router.get("/matches/{match_id}", response_model=MatchState, responses=ERRORS)
def get_match(player: Player, service: Service, match_id: MatchId) -> MatchState:
    """The match as the player sees it: reload resumes exactly here."""
    return service.state(player, match_id)


@router.post("/matches/{match_id}/moves", response_model=MatchState, responses=ERRORS)
def play(player: Player, service: Service, match_id: MatchId, body: MoveIn) -> MatchState:
    """Play a move; the answer includes the computer's replies (``computer_moves``)."""
    return service.play(player, match_id, body.move, body.version)


@router.post("/matches/{match_id}/next-hand", response_model=MatchState, responses=ERRORS)
def next_hand(
    player: Player,
    service: Service,
    match_id: MatchId,
    body: Annotated[NextHandIn | None, Body()] = None,
) -> MatchState:
    """Deal the next hand (the first one too, for a match started with ``deal: false``) from
    its sealed deal, with your ``client_seed``; the commitment was in the state before."""
    return service.next_hand(
        player, match_id, body.version if body else None, body.client_seed if body else None
    )


@router.get(
    "/matches/{match_id}/record",
    response_class=PlainTextResponse,
    responses={**ERRORS, 200: {"content": {"text/plain": {}}}},
)
def record(
    player: Player,
    service: Service,
    match_id: MatchId,
    hands: Annotated[
        int | None,
        Query(ge=0, le=1000, description="only the first HANDS hands (each must be over)"),
    ] = None,
) -> str:
    """The record of the match's finished hands (TOML, replays move by move) with their
    sealed deals, revealed server seeds included: check it offline with ``ginrummy verify``.
    Refused (409) while a hand it would include is being played: a record lists the deck."""
    return service.record(player, match_id, hands)


@router.get("/stats", response_model=StatsOut, responses=ERRORS)
def stats(player: Player, service: Service) -> StatsOut:
    """The player's figures over finished matches (either seat of a table for two people),
    recent final scores for the chart, and the rating from matches against people with the
    matches it came from."""
    s = _joined(service.store.stats(player.id), service.store.joined_stats(player.id))
    if s.average_knock_deadwood is not None:
        s = dataclasses.replace(s, average_knock_deadwood=round(s.average_knock_deadwood, 2))
    rating, rated = service.store.rating(player.id)
    return StatsOut(
        **{f.name: getattr(s, f.name) for f in dataclasses.fields(s) if f.name != "recent"},
        recent=[dataclasses.asdict(r) for r in s.recent],
        rating=RatingOut(**dataclasses.asdict(rating)) if rating is not None else None,
        rated_matches=[RatedMatchOut(**dataclasses.asdict(r)) for r in rated],
    )


_COUNTS = ("matches", "matches_won", "matches_lost", "hands", "hands_won", "gins",
           "undercuts_made", "undercuts_suffered", "knocks", "forfeits")


def _joined(a: PlayerStats, b: PlayerStats) -> PlayerStats:
    """Figures of the seat-0 matches ``a`` and the joined ones ``b`` together."""
    if not b.matches:
        return a
    knocks = a.knocks + b.knocks
    total = sum((s.average_knock_deadwood or 0) * s.knocks for s in (a, b))
    return PlayerStats(
        **{f: getattr(a, f) + getattr(b, f) for f in _COUNTS},
        average_knock_deadwood=total / knocks if knocks else None,
        recent=a.recent + b.recent,
    )
