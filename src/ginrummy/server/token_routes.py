"""The endpoints of a player's tokens: sign out everywhere, and carry the account to another
browser with a one-time transfer code (:mod:`ginrummy.server.store.tokens`)."""

from __future__ import annotations

from fastapi import APIRouter, Depends, HTTPException, Request
from pydantic import BaseModel, Field

from .limits import limit_claims, limit_pair
from .routes import LIMITED, Player, Service
from .schemas import PlayerOut, StrictIn, Text, error_answers
from .store.tokens import CODE_LIFETIME, TransferCodeError

__all__ = ["router"]

router = APIRouter(prefix="/api")

ERRORS = error_answers(
    "e401", "e413", "e422",
    e400="a body that is not JSON",
    e404="the transfer code is unknown, used already or expired (one answer for the three)",
)


class TransferCodeOut(BaseModel):
    code: str = Field(description="type it on the other browser; good once")
    expires_at: str = Field(description="UTC, ISO 8601")
    lifetime_seconds: int


class ClaimIn(StrictIn):
    code: Text = Field(min_length=1, max_length=40, description="the code shown in Settings on "
                      "the browser that has the account, e.g. ABCD-EFGH-JKMN")


@router.post("/me/sign-out-everywhere", response_model=PlayerOut, responses=ERRORS)
def sign_out_everywhere(player: Player, service: Service) -> PlayerOut:
    """Revoke every token of this player, on every browser, and any unused transfer code; the
    answer holds a fresh token for the browser that asked (keep it)."""
    token = service.store.sign_out_everywhere(player.id)
    return PlayerOut(id=player.id, name=player.name, token=token)


def limit_transfer_codes(request: Request, player: Player) -> None:
    """Transfer codes made, per player and per client address (429 with ``Retry-After``)."""
    limit_pair(request, "transfer", player.id, "transfer codes")


@router.post("/me/transfer-code", response_model=TransferCodeOut, status_code=201,
             responses={**ERRORS, **LIMITED}, dependencies=[Depends(limit_transfer_codes)])
def transfer_code(player: Player, service: Service) -> TransferCodeOut:
    """A one-time code that signs another browser in as this player, for ten minutes."""
    code, expires = service.store.new_transfer_code(player.id)
    return TransferCodeOut(code=code, expires_at=expires.isoformat() + "Z",
                           lifetime_seconds=int(CODE_LIFETIME.total_seconds()))


@router.post("/players/claim", response_model=PlayerOut, responses={**ERRORS, **LIMITED},
             dependencies=[Depends(limit_claims)])
def claim(service: Service, body: ClaimIn) -> PlayerOut:
    """Sign this browser in with a transfer code: the answer holds its own token."""
    try:
        info, token = service.store.claim_transfer_code(body.code)
    except TransferCodeError as exc:
        raise HTTPException(404, str(exc)) from None
    return PlayerOut(id=info.id, name=info.name, token=token)
