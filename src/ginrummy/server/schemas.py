"""Request and response bodies of the JSON API (pydantic), with their size limits.

Cards travel as engine text: rank letter and suit letter, ``7h``, ``Th``, ``As``. Seats are
named from the person's side: ``"you"`` and ``"computer"``. Nothing here can carry the
computer's cards or the stock before a hand is over: the serializer builds these bodies from the
person's :class:`~ginrummy.engine.view.PlayerView` only.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import Path
from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Discriminator,
    Field,
    Tag,
)
from pydantic_core import PydanticCustomError

from ..engine.errors import InvalidNameError
from ..engine.shuffle import CONTROL_CHARACTERS
from ..words.names import NAME_LENGTH, clean_name

Who = Literal["you", "computer"]
Level = Literal["easy", "medium", "hard", "expert", "random", "agent"]
Profile = Literal["traditional", "modern", "browser", "house", "oklahoma"]

#: Longest move text accepted (a knock declaring every meld is about 60 characters).
MOVE_LENGTH = 120


# No text field of a request may hold a control character (shuffle.CONTROL_CHARACTERS):
# PostgreSQL cannot store a NUL in text at all, and none of them belongs in a name or a move.


def refuse_control_characters(text: str) -> str:
    """``text`` unchanged, or a validation error naming the first control character in it."""
    found = CONTROL_CHARACTERS.search(text)
    if found is not None:
        raise PydanticCustomError(
            "control_character",
            "contains the control character U+{code} at position {position}; control "
            "characters (U+0000 to U+001F, U+007F to U+009F) are refused",
            {"code": f"{ord(found.group()):04X}", "position": found.start()},
        )
    return text


#: A text field of a request: a ``str`` with no control character (422 naming the field).
#: Every text field of every request body uses it; add ``Field(max_length=...)`` beside it.
Text = Annotated[
    str,
    AfterValidator(refuse_control_characters),
    Field(json_schema_extra={"pattern": "^[^\\u0000-\\u001f\\u007f-\\u009f]*$"}),
]


def _whole_number(value: object) -> object:
    """A float with no fraction as the integer it is: JSON (and its schema) count ``10.0`` as
    an integer. Anything else goes on to the strict check as it came."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


#: An integer field of a request: an integer (``10`` or ``10.0``), never ``true`` or ``"10"``.
Integer = Annotated[int, BeforeValidator(_whole_number)]

#: A state's version as a request sends it back.
Version = Annotated[int, Field(ge=0, le=2**31), BeforeValidator(_whole_number)]


class StrictIn(BaseModel):
    """The base of every request body: unknown fields refused, and strict types, so
    ``"hollywood": "yes"``, ``"deal": 0`` or ``"version": "10"`` are 422s, not coerced."""

    model_config = ConfigDict(extra="forbid", strict=True)


_In = StrictIn


def _clean_name(name: str) -> str:
    """The name as kept (:func:`~ginrummy.words.names.clean_name`), or a validation error saying
    why the names rule refuses it (a 422 naming the field)."""
    try:
        return clean_name(name)
    except InvalidNameError as exc:
        raise PydanticCustomError("name", "{reason}", {"reason": exc.reason}) from None


#: A player's name: :data:`Text`, then the names rule (:mod:`ginrummy.words.names`: normalised, no
#: invisible or reordering characters, something visible).
Name = Annotated[Text, AfterValidator(_clean_name),
                 Field(min_length=1, max_length=NAME_LENGTH,
                       description="shown on score sheets and to the other person at a table "
                       "for two; kept normalised (NFKC, spaces collapsed, trimmed)")]


class NewPlayerIn(_In):
    name: Name = "You"


class RenameIn(_In):
    """A new name: required (a body without one changes nothing and is refused)."""

    name: Name


#: Why ``"deal": true`` is refused (the body's ``deal`` may only be false).
NO_SERVER_DEAL = (
    "the server no longer deals the first hand by itself: its client seed would be the "
    "server's choice, so the deal could not be shown to be fair. Leave out \"deal\" (or send "
    "false), read the first hand's commitment in meta.sealed.next, then POST next-hand with "
    "your client_seed."
)


def _no_server_deal(value: object) -> object:
    if value is True:
        raise PydanticCustomError("server_deal", NO_SERVER_DEAL)
    if not isinstance(value, bool):  # strict: 0 is not false
        raise PydanticCustomError("bool_type", "Input should be a valid boolean")
    return value


class _MatchRulesIn(_In):
    profile: Profile = "traditional"
    hollywood: bool = False
    last_discard_chance: bool = False
    forfeit_current: bool = Field(
        False,
        description="your yes to ending your unfinished match (against the computer: "
        "abandoned, a loss; against a person: a forfeit; a table nobody joined: closed). "
        "Without it, a player with an unfinished match gets 409 saying what would end, and "
        "nothing changes",
    )


class NewMatchIn(_MatchRulesIn):
    """``POST /api/matches`` against the computer (``opponent`` left out or ``"computer"``)."""

    opponent: Literal["computer"] = "computer"
    level: Level = "medium"
    deal: Annotated[Literal[False], BeforeValidator(_no_server_deal)] = Field(
        False,
        description="only false (the default): the match waits, showing the first hand's "
        "sealed commitment in meta.sealed.next, for POST next-hand with your own client seed. "
        "The server never deals at once with a seed it chose: that deal would not be provably "
        "fair",
    )


class MoveIn(_In):
    move: Text = Field(
        min_length=1,
        max_length=MOVE_LENGTH,
        description="engine notation: take, pass, draw, discard 7h, knock 7h, "
        "knock 7h with 7c7d7s 8h9hTh (declared melds), big gin",
        examples=["draw", "discard 7h"],
    )
    version: Version | None = Field(
        None,
        description="the version of the state this move was chosen on; a stale one gets 409",
    )


#: Longest client seed text accepted by the schema; the engine's own rule (1 to 256 bytes of
#: UTF-8, no control characters, no space at either end) is checked after, with its message.
CLIENT_SEED_LENGTH = 1024


class NextHandIn(_In):
    version: Version | None = Field(None, description="the version of the state it was chosen on")
    # Not ``Text``: the engine's own seed rule refuses control characters too, with the
    # sentence the page shows beside the seed field (400), before anything is stored.
    client_seed: str | None = Field(
        None,
        max_length=CLIENT_SEED_LENGTH,
        description="your client seed for the sealed deal (1 to 256 bytes of UTF-8, no control "
        "characters, no space at either end); required: without one nothing is dealt (400)",
    )


class PlayerOut(BaseModel):
    id: int
    name: str
    token: str | None = Field(None, description="only when the player is created")
    current_match: str | None = None


class Action(BaseModel):
    enabled: bool
    reason: str = Field(description="why it is disabled, or what it does when enabled")


class KnockArrangement(BaseModel):
    """One way to lay down the hand when knocking with a card: one of the least-deadwood
    arrangements of the ten cards left, and where cards could be laid off on it."""

    move: str = Field(
        description="the move that knocks with this arrangement: the plain knock for the "
        "default, 'knock 7h with 7c7d7s 8h9hTh' for the others",
    )
    default: bool = Field(description="the arrangement the engine lays down for a plain knock")
    melds: list[list[str]]
    deadwood_cards: list[str]
    deadwood: int
    spots: list[list[str]] = Field(
        description="per meld, the cards that would extend it (a set's fourth card, the card "
        "past each end of a run), judged from your own cards and the discard pile only: cards "
        "you hold or that lie in the discard pile are left out; nothing says who holds the rest"
    )


class CardOption(BaseModel):
    """What discarding one card of the person's hand would do (discard phase only)."""

    card: str
    deadwood_after: int
    discard: bool
    knock: bool
    gin: bool
    reason: str = Field(description="why this card cannot be discarded, or empty")
    actions: dict[str, Action] = Field(
        description="the discard, knock and gin buttons with this card selected: usable or "
        "not, with what they do or the engine's sentence for why not"
    )
    arrangements: list[KnockArrangement] = Field(
        default_factory=list,
        description="when this card can be knocked with (not gin): every least-deadwood "
        "arrangement of the cards left, the default first; more than one means you may choose",
    )


class PublicMove(BaseModel):
    who: Who
    kind: str
    card: str | None = Field(description="null where the card is hidden from you")
    text: str


class Opponent(BaseModel):
    card_count: int
    took: list[str] = Field(description="discards the computer picked up, in order")
    known: list[str] = Field(description="cards known to be in the computer's hand now")
    passed: list[str]
    discards: list[str]


class SeatCards(BaseModel):
    cards: list[str]
    melds: list[list[str]]
    deadwood_cards: list[str]
    deadwood: int
    laid_off: list[str]


class ResultOut(BaseModel):
    kind: Literal["knock", "undercut", "gin", "big_gin", "cancelled"]
    winner: Who | None
    knocker: Who | None
    points: int
    bonus: int
    multiplier: int
    knocker_deadwood: int
    defender_deadwood: int
    layoffs: list[str]
    knock_discard: str | None
    explanation: str
    you: SeatCards
    computer: SeatCards


class HandOut(BaseModel):
    number: int
    dealer: Who
    phase: str
    to_play: Who | None
    your_turn: bool
    prompt: str
    cards: list[str]
    melds: list[list[str]]
    deadwood_cards: list[str]
    deadwood: int
    discard_pile: list[str] = Field(description="bottom card first")
    stock_count: int
    upcard: str
    knock_limit: int
    multiplier: int
    taken: str | None
    drawn: str | None
    opponent: Opponent
    legal_moves: list[str]
    actions: dict[str, Action]
    card_options: list[CardOption]
    history: list[PublicMove]
    result: ResultOut | None


class GameOut(BaseModel):
    index: int
    target: int
    points: list[int]
    hands_won: list[int]
    game_bonus: list[int]
    box_bonus: list[int]
    doubled: list[int]
    shutout: bool
    totals: list[int]
    over: bool
    winner: Who | None
    margin: int | None = Field(
        None, description="the winner's final total minus the other's, once over (0 for a tie; "
        "negative when the player who reached the target first has the lower total)"
    )
    outcome: str | None = Field(None, description="who won and by how much, in words, once over")


class SheetRowOut(BaseModel):
    hand: int
    dealer: Who
    outcome: str
    winner: Who | None
    points: int
    entered: list[bool]
    running: list[list[int]]


class ScoreOut(BaseModel):
    hollywood: bool
    target: int
    games: list[GameOut]
    rows: list[SheetRowOut]
    totals: list[int]
    over: bool
    winner: Who | None
    margin: int | None = Field(
        None, description="the match winner's total minus the other's, once over (summed over "
        "the games under Hollywood; can be negative under the first-to-reach rule)"
    )
    outcome: str | None = Field(
        None, description="who won the match and by how much, in words, once over"
    )


class SheetLine(BaseModel):
    label: str
    text: str


class SheetSection(BaseModel):
    title: str
    lines: list[SheetLine]


class RulesOut(BaseModel):
    profile: str
    title: str
    describe: str
    name: str = Field(description="the rules in plain words: the profile's name and every "
                      "change to it (the cheat sheet's title)")
    hollywood: bool
    last_discard_chance: bool
    big_gin: bool
    bonuses: list[str] = Field(description="every number of this table, for the new-game window")
    sheet: list[SheetSection] = Field(description="the rules panel (the shared cheat sheet)")


class SealedDealOut(BaseModel):
    """One hand's sealed deal as the person may see it (see docs/sealed-deals.md): the
    commitment from before the deal, the client seed once dealt, the server seed and the deck
    only once the hand is over."""

    hand: int = Field(description="the hand's number in the match (1 for the first)")
    version: str = Field(description="the shuffle algorithm, ginrummy-shuffle-v1")
    nonce: int = Field(description="the hand's nonce: its number in the match")
    dealer: Who
    dealer_seat: int = Field(description="the dealer's seat as hashed into the commitment")
    commitment: str = Field(description="SHA-256 commitment to the server seed, 64 hex digits")
    client_seed: str | None = Field(None, description="the client seed, once the hand is dealt")
    client_seeds: list[str] | None = Field(
        default=None, description="at a table for two people, once the hand is dealt: both "
        "people's client seeds by seat; client_seed is their ginrummy-two-party-v1 combination"
    )
    server_seed: str | None = Field(
        None, description="the server seed (64 hex digits), revealed once the hand is over"
    )
    deck: list[str] | None = Field(
        None, description="the hand's whole deck, index 0 on top, once the hand is over"
    )


class SealedOut(BaseModel):
    your_seat: int = Field(0, description="your seat number in the commitments (always 0)")
    hand: SealedDealOut | None = Field(
        None, description="the hand on the table (or just finished)"
    )
    next: SealedDealOut | None = Field(
        None, description="the hand waiting to be dealt: its commitment, before your seed"
    )


class MatchMeta(BaseModel):
    sealed: SealedOut | None = Field(
        None, description="sealed deals; null for a match started before they existed"
    )
    situation: str | None = Field(
        None, description="the sample situation this table shows (Learn panel), if any"
    )
    revisit: str | None = Field(
        None, description="the decision of a finished hand this table reopens (the coach's "
        "Revisit), if any: a position, not a dealt hand"
    )


class MatchState(BaseModel):
    id: str
    version: int
    status: Literal["waiting", "playing", "between_hands", "over", "abandoned"] = Field(
        description="waiting: a table for two people whose second seat is free"
    )
    level: str
    names: list[str]
    rules: RulesOut
    hand: HandOut | None = Field(
        description="the hand on the table; null before the first hand is dealt"
    )
    score: ScoreOut
    computer_moves: list[PublicMove] = Field(
        description="the computer's moves since your last request, in order, for animation"
    )
    meta: MatchMeta = Field(
        default_factory=lambda: MatchMeta(sealed=None, situation=None, revisit=None),
        description="per-hand facts for the page: sealed deals",
    )
    coach: dict[str, str] | None = Field(None, description="reserved for the coach")
    seat: int = Field(default=0, description="your seat (0 or 1): the seat of the commitments")
    opponent: Literal["computer", "person"] = "computer"
    invite: str | None = Field(
        default=None, description="the invite of a table for two people (for the link), for "
        "its seated people; with people.code, the short code to read aloud"
    )
    people: PeopleOut | None = Field(
        default=None, description="a table for two people: its state"
    )


class MatchSummary(BaseModel):
    id: str
    status: str
    level: str
    rules: str
    hollywood: bool
    hands_played: int
    totals: list[int]
    winner: Literal["you", "computer", "opponent"] | None = Field(
        description="seen from your side; \"opponent\" is the other person at a table for two"
    )
    created_at: str
    updated_at: str


class OptionsOut(BaseModel):
    profiles: list[RulesOut]
    levels: list[str] = Field(
        description="the levels offered, weakest first; 'agent' (a trained policy) only when "
        "the server was started with --opponent-module"
    )
    agent: str | None = Field(
        None, description="the policy played at level 'agent' (package.module:attr), if any"
    )
    default_profile: str
    default_level: str


class ErrorOut(BaseModel):
    detail: str


def id_in_path(what: str, pattern: str, max_length: int) -> Any:
    """The ``Path`` parameter of an id in a route's URL: non-empty, at most ``max_length``
    characters, all matching ``pattern`` (anything else is a 422 before the route runs)."""
    return Path(min_length=1, max_length=max_length, pattern=pattern, description=what)


#: The errors that mean the same on every route that has them, named to :func:`error_answers`
#: by status alone.
STANDARD_ERRORS = {
    "e401": "missing or unknown player token",
    "e413": "request body too large",
    "e422": "malformed request",
}


def error_answers(*standard: str, **by_status: str) -> dict[int | str, dict[str, object]]:
    """The OpenAPI ``responses`` of a route, by status: each error status (``e400="..."``,
    or one of :data:`STANDARD_ERRORS` named alone, ``"e422"``) documented with its meaning and
    the one JSON error body, :class:`ErrorOut`."""
    texts = {**{status: STANDARD_ERRORS[status] for status in standard}, **by_status}
    return {
        int(status.removeprefix("e")): {"model": ErrorOut, "description": text}
        for status, text in sorted(texts.items())
    }


# -------------------------------------------------------------------------------------------
# Tables for two people (issue 13).

Clock = Literal[30, 60, 120]


class PeopleMatchIn(_MatchRulesIn):
    """``POST /api/matches`` with ``"opponent": "person"``: a table for two people, joined
    with its invite."""

    opponent: Literal["person"]
    open: bool = Field(False, description="list the table in the lobby: anyone may join")
    clock: Clock | None = Field(
        None, description="seconds per move, during a hand only; null: off"
    )


def _opponent(body: object) -> str:
    found = body.get("opponent", "computer") if isinstance(body, dict) else getattr(
        body, "opponent", "computer")
    return found if found in ("computer", "person") else "computer"


#: The body of ``POST /api/matches``: against the computer, or a table for two people, told
#: apart by ``opponent`` (so a clock or the lobby at a computer table is an unknown field).
MATCH_KINDS = ("computer", "person")
MatchIn = Annotated[
    Annotated[NewMatchIn, Tag("computer")] | Annotated[PeopleMatchIn, Tag("person")],
    Discriminator(_opponent),
]


class JoinIn(_In):
    """``POST /api/invites/{invite}``: take the free seat (the body may be left out)."""

    # Not ``Text``: the engine's own seed rule refuses control characters, as next-hand's.
    client_seed: str | None = Field(
        None,
        max_length=CLIENT_SEED_LENGTH,
        description="your client seed for the first deal, chosen after reading its commitment "
        "(GET /api/invites/{invite}); the hand is dealt at once when the other person's is in",
    )
    forfeit_current: bool = Field(
        False, description="your yes to ending your unfinished match (as for POST /api/matches)"
    )


class CurrentMatchOut(BaseModel):
    """The unfinished match that joining (or starting) another would end."""

    id: str
    against: Literal["computer", "person", "nobody"] = Field(
        description="nobody: your own table that nobody has joined yet"
    )
    name: str | None = Field(None, description="the other person's name, against a person")
    scores: list[int] = Field(description="yours first")
    ends: str = Field(description="what ending it means, in words")


class InviteOut(BaseModel):
    """``GET /api/invites/{invite}``: a table's terms, read before taking its seat."""

    match_id: str
    creator: str
    rules: RulesOut
    clock: int | None = Field(description="seconds per move; null: no clock")
    open: bool
    seat: Literal["free", "yours", "taken"] = Field(
        description="free: you may take it; yours: you made this table; taken: you sit there"
    )
    current: CurrentMatchOut | None = Field(
        None, description="your unfinished match, which taking the seat would end"
    )
    sealed: SealedOut | None = Field(
        None, description="the first hand's commitment (next), from the free seat's side: "
        "choose your client seed after reading it"
    )


class ClockOut(BaseModel):
    limit: int = Field(description="seconds per move")
    seats: list[int] = Field(description="the seats whose clock runs now (empty: none)")
    deadline: str | None = Field(None, description="when it runs out (ISO 8601, UTC)")
    seconds_left: float | None = None


class PeopleOut(BaseModel):
    """A table for two people as one of them sees it."""

    names: list[str | None] = Field(description="by seat; null for a seat nobody took yet")
    code: str = Field(description="the invite as a short code to read aloud")
    open: bool
    clock: ClockOut | None
    seeds_in: list[bool] = Field(
        description="by seat: whether that person sent the client seed of the hand waiting to "
        "be dealt (the seeds themselves stay hidden until the hand is dealt)"
    )
    your_seed: str | None = Field(None, description="the client seed you sent for it")
    present: list[bool] = Field(description="by seat: seen within the grace period")
    ended: str | None = Field(
        None, description="how the match ended early: resigned, time, left (null otherwise)"
    )
    winner: int | None = Field(
        None, description="the winning seat once the match is over, early ends included"
    )
    rematch_offer: int | None = Field(None, description="the seat that offered a rematch")
    rematch: str | None = Field(None, description="the rematch's match id, once accepted")
    rated: bool | None = Field(
        None, description="once the match is over: whether it counted for both ratings (null "
        "before)")
    unrated: Literal["no_hand", "pair", "account", "address"] | None = Field(
        None, description="why the finished match was not rated: no hand finished, the two "
        "had their rated matches together for the day, or an account's or an address's daily "
        "rated results were reached (null when rated or not over)")
    unrated_why: str | None = Field(
        None, description="the same in one sentence to show, e.g. \"Not rated: no hand was "
        "finished.\"")


class LobbyTable(BaseModel):
    invite: str
    code: str
    creator: str
    profile: str
    rules: str = Field(description="the rules as score sheets write them: profile (overrides)")
    name: str = Field(description="the same rules in plain words, as the cheat sheet names them")
    hollywood: bool
    clock: int | None
    created_at: str


class RatingOut(BaseModel):
    rating: float
    rd: float
    matches: int


class RatedMatchOut(BaseModel):
    match_id: str
    opponent: str
    score: float = Field(description="1 won, 0 lost, 0.5 drawn")
    before: float
    after: float


class StatsOut(BaseModel):
    """``GET /api/stats``: the figures over finished matches (both seats of tables for two
    people included), with the rating from people matches and the matches it came from.
    Unknown fields are refused, so a figure the store adds cannot be dropped on the way out
    unnoticed (as ``forfeits`` once was)."""

    model_config = ConfigDict(extra="forbid")

    matches: int
    matches_won: int
    matches_lost: int
    forfeits: int = Field(description="matches against the computer abandoned for a new one: "
                          "lost, and counted in matches_lost too")
    hands: int
    hands_won: int
    gins: int
    undercuts_made: int
    undercuts_suffered: int
    knocks: int
    average_knock_deadwood: float | None
    recent: list[dict[str, Any]]
    rating: RatingOut | None = None
    rated_matches: list[RatedMatchOut] = Field(default_factory=list)


MatchState.model_rebuild()
