"""The web table's keeper: loads a match's :class:`~ginrummy.engine.table.Table`, lets it play the
person's move and the computer's answers, and saves the match in one transaction before
anything is returned.

The game flow (whose turn it is, dealing, the computer's moves, publishing the next sealed
commitment) belongs to the :class:`~ginrummy.engine.table.Table`; this service keeps persistence,
caching and locking. Here the person sits in seat 0 and the computer in seat 1 (``HUMAN`` and
``COMPUTER``: the web's choice, not the table's). A match lives in the store as its record;
this service keeps a small in-process cache of replayed matches keyed by id and version, so a
move costs one replay only after a restart (or when another process changed the match). Every
change goes through :meth:`Store.save_match` with the version it started from: a cached match
is never ahead of the database, and a request that lost a race changes nothing.

The computer is ``ginrummy.players.make(level)``, or at level ``"agent"`` the policy the server
was started with (``ginrummy serve --opponent-module``) in a
:class:`~ginrummy.env.policy.PolicyPlayer`; either decides from its own seat's
:class:`~ginrummy.engine.view.PlayerView`; the table reseeds its RNG before every decision with
:func:`~ginrummy.engine.table.decision_seed` from the match's secret deal seed and the position, so
a replayed match gets the same answers.

Every hand is dealt from a sealed deal (:mod:`.sealing`): the next hand's commitment is
published in the same save that ends a hand (or creates the match), the person's client seed
comes with the request that deals, and the server seed is revealed once the hand is over. A
match saved before sealed deals existed can finish the hand on the table, but the server no
longer deals it another (it would be unsealed): that request is refused with a
:class:`Conflict`. The server never chooses a client seed: a match starts undealt, and a deal
without the person's client seed is refused (``docs/sealed-deals.md``, "Which flows are
provably fair").

The same service runs tables for two people (level ``"person"``): the same Table with an
:class:`~ginrummy.engine.table.OnlinePerson` in each seat, the creator in seat 0 and whoever joins
with the invite in seat 1, each answered from their own seat. What only people need (the invite,
the clock, presence, the two client seeds of a deal, early ends) is worked out in
:mod:`.people` and kept in the store's people tables; a passed deadline is applied at the
start of any request touching the match, and :meth:`TableService.expire_due` applies it
without one (the event stream calls it).
"""

from __future__ import annotations

import secrets
import threading
import time
import zlib
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Literal

from ..engine.errors import GinRummyError
from ..engine.hand import Hand
from ..engine.match import Match
from ..engine.record import catch_up, dumps, loads
from ..engine.rules import RuleSet, get_rules
from ..engine.sealer import DealSealer
from ..engine.shuffle import SealError, check_client_seed
from ..engine.table import Computer, OnlinePerson, Person, Seat, Table, TurnError
from ..engine.view import PublicEvent
from ..players import Player, make
from .limits import put_newest
from .people import (
    GRACE_SECONDS,
    LOBBY_PER_ADDRESS,
    LOBBY_PRESENT_SECONDS,
    SEEN_EVERY_SECONDS,
    deadlines,
    due,
    mirrored,
    new_code,
    new_invite,
    people_out,
)
from .schemas import CurrentMatchOut, InviteOut, MatchMeta, MatchState, NewMatchIn, PeopleMatchIn
from .sealing import dump_seals, finished_hands, load_seals, record_upto, sealed_out, sentence
from .serialize import hand_out, public_moves, rules_out, score_out
from .store import (
    NO_OPEN_TABLE,
    PERSON,
    ConflictError,
    HandSummary,
    InviteError,
    MatchSave,
    PlayerInfo,
    Store,
    UnfinishedMatchError,
)

if TYPE_CHECKING:
    from ..env.policy import Policy
    from .store import LobbyEntry, MatchInfo, PeopleInfo, SavedMatch, SeatedMatch

__all__ = ["TableService", "NotFound", "Conflict", "HUMAN", "COMPUTER", "AGENT"]

#: The level of a match against the policy the server was started with.
AGENT = "agent"

HUMAN, COMPUTER = 0, 1

#: Why a next-hand request without a client seed is refused.
SEND_CLIENT_SEED = (
    "Send your client seed (\"client_seed\": 1 to 256 bytes of text) to deal the hand: the "
    "server does not choose one for you, so that the deal stays provably fair."
)

#: Why the coach and the learning tools refuse a table for two people during play.
COACH_OFF = (
    "The coach and the learning tools are off at a table against a person while the match "
    "is played; the hand review opens, for your own decisions, once the match is over."
)

#: How often a client seed is judged again when the table changed under it (the other
#: person's seed stored meanwhile, by another worker): then it always succeeds.
SEED_TRIES = 3

#: Why a rematch waits: one of the two is playing another match (it would end it unasked).
REMATCH_BUSY = ("One of you is playing another match now; the rematch can start once that "
                "match is over.")

#: How many locks serialize requests on matches (see ``TableService._lock``).
LOCK_STRIPES = 64

#: How many times a rematch press is judged again after another press changed the match
#: first (an offer, then the rematch: the state can move on twice).
REMATCH_TRIES = 3


class NotFound(Exception):
    """No such match for this player (whether it exists for another is not said)."""


class Conflict(Exception):
    """The request does not fit the match's current state (stale version, match over)."""


@dataclass
class _Entry:
    """A cached match: its table, as of the stored ``version``, and the sealed-deal state
    its sealer was built from or saved as (``None`` for an unsealed match)."""

    version: int
    table: Table
    seals: str | None
    record: str | None = None  # the record text at that version, when known


@dataclass(frozen=True)
class _Seated:
    """A match as one of its seated people reaches it: the listing, the cached table, the
    person's seat, and for a table of two people its people row (read fresh every time)."""

    info: MatchInfo
    entry: _Entry
    seat: int
    people: PeopleInfo | None


def _check_seed(client_seed: str) -> None:
    """A person's client seed checked before anything is stored: the seed rule's sentence
    (:class:`~ginrummy.engine.errors.GinRummyError`, 400) when it breaks the rule."""
    try:
        check_client_seed(client_seed)
    except SealError as exc:
        raise GinRummyError(sentence(str(exc))) from None


def _no_change(match_id: str, version: int) -> None:
    """The default change hook: nothing listens."""


class TableService:
    """Matches saved in a :class:`Store`: a person against the computer, or two people.

    ``now`` is the clock (seconds since the epoch; tests inject one), ``grace`` how long a
    person at a table for two may be away before forfeiting, and ``on_change(match_id,
    version)`` is called after every committed change of any match (a move, a deal, a client
    seed, a join, an early end): the live event stream wires it to its bus. It must not raise.
    """

    def __init__(
        self,
        store: Store,
        *,
        cache_size: int = 256,
        agent: str | None = None,
        now: Callable[[], float] = time.time,
        grace: float = GRACE_SECONDS,
        on_change: Callable[[str, int], None] = _no_change,
    ) -> None:
        """``agent``: a policy reference (``package.module:attr``, see
        :func:`~ginrummy.env.policy.load_policy`) offered as level ``"agent"``; it is loaded
        here, once, and a bad one raises :class:`~ginrummy.engine.errors.GinRummyError`."""
        self.store = store
        self.agent = agent
        self._policy: Policy | None = None
        if agent is not None:
            from ..env.policy import load_policy  # the env extra, needed only for an agent

            self._policy = load_policy(agent)
        self.cache_size = cache_size
        self.now = now
        self.grace = grace
        self.on_change = on_change
        self._cache: OrderedDict[str, _Entry] = OrderedDict()
        self._stripes = [threading.Lock() for _ in range(LOCK_STRIPES)]
        self._guard = threading.Lock()

    # Players.

    def new_player(self, name: str) -> tuple[PlayerInfo, str]:
        return self.store.create_player(name)

    def player(self, token: str) -> PlayerInfo | None:
        return self.store.player_by_token(token)

    # Matches.

    def new_match(self, player: PlayerInfo, options: NewMatchIn | PeopleMatchIn,
                  *, address: str | None = None) -> MatchState:
        """Start a match (the player's unfinished one ends: abandoned against the computer,
        forfeited against a person), its first hand sealed and waiting for the client seed.
        ``options`` with ``opponent="person"`` (:class:`PeopleMatchIn`) opens a table for two
        people with an invite; ``address``: the hashed client address it is made from
        (:func:`~ginrummy.server.store.limits.address_hash`)."""
        rules = get_rules(
            options.profile,
            hollywood=options.hollywood,
            last_discard_chance=options.last_discard_chance,
        )
        consent = options.forfeit_current
        if isinstance(options, PeopleMatchIn):
            return self._new_people_match(player, rules, options.open, options.clock,
                                          addresses=(address, None), consent=consent)
        computer = self._computer(options.level)  # refuses "agent" when there is none
        deal_seed = secrets.token_hex(16)
        match = Match(rules, seed=deal_seed, start=False)
        sealer = DealSealer(match)
        table = _table(match, sealer, computer, deal_seed)
        table.seal_next()  # the first hand's commitment, saved below before it is shown
        # Without the person's yes, any unfinished match refuses the start (changing nothing),
        # and the insert below abandons nothing either (a match made meanwhile by another tab
        # is refused by the one-unfinished-match index).
        self._notify(self.store.leave_unfinished(player.id, self.now(), computer=False,
                                                 consent=consent))
        record = self._record(match, options.level, sealer)
        info = self.store.create_match(
            player_id=player.id,
            level=options.level,
            profile=rules.profile,
            rules=rules.describe(),
            hollywood=match.score.hollywood,
            deal_seed=deal_seed,
            record=record,
            status="over" if match.over else "playing",
            scores=match.score.totals,
            winner=match.score.winner,
            hands=self._finished(match, 0),
            seals=dump_seals(sealer),
            abandon_others=consent,
        )
        entry = _Entry(info.version, table, dump_seals(sealer), record)
        self._remember(info.id, entry)
        self._notify([(info.id, info.version)])
        return self._state(_Seated(info, entry, HUMAN, None), None)

    def invite(self, player: PlayerInfo, invite: str) -> InviteOut:
        """The terms of the table of ``invite`` (its link token or short code), read before
        taking its seat: who made it, the rules, the clock, the first hand's commitment from
        the free seat, and the player's unfinished match that joining would end. An invite
        that is unknown, used by someone else or closed is one and the same
        :class:`~ginrummy.server.store.InviteError` (404), so a guess learns nothing."""
        people = self.store.find_invite(invite)
        if people is None or people.seats[1] not in (None, player.id):
            raise InviteError(404, NO_OPEN_TABLE)
        self.expire_due(people.match_id)  # a table whose creator is gone closes now
        with self._lock(people.match_id):
            found = self._read(people.match_id)
            if found is None or found[0].info.ended:
                raise InviteError(404, NO_OPEN_TABLE)
            seated, entry = found
            people = seated.people or people
        seat: Literal["free", "yours", "taken"] = (
            "yours" if people.seats[0] == player.id
            else "taken" if people.seats[1] == player.id else "free")
        return InviteOut(
            match_id=people.match_id,
            creator=people.names[0],
            rules=rules_out(entry.table.match.rules),
            clock=people.clock,
            open=people.open,
            seat=seat,
            current=self.current(player, but=people.match_id) if seat == "free" else None,
            sealed=sealed_out(entry.table, 1) if seat != "yours" else None,
        )

    def current(self, player: PlayerInfo, *, but: str | None = None) -> CurrentMatchOut | None:
        """The player's unfinished match (other than ``but``) and what ending it means."""
        mine = self.store.current_match(player.id)
        found = [m for m in [mine, *self.store.joined_matches(
            player.id, statuses=("playing",), limit=2)] if m is not None and m.id != but]
        if not found:
            return None
        info = found[0]
        if info.level != PERSON:
            return CurrentMatchOut(
                id=info.id, against="computer", name=None, scores=list(info.scores),
                ends="It ends as a forfeit: it counts as a loss.")
        people = self.store.people_of(info.id)
        assert people is not None
        if people.seats[1] is None:
            return CurrentMatchOut(
                id=info.id, against="nobody", name=None, scores=[0, 0],
                ends="Your table waiting for someone to join is closed.")
        other = people.names[1] if people.seats[0] == player.id else people.names[0]
        return CurrentMatchOut(
            id=info.id, against="person", name=other, scores=list(info.scores),
            ends=f"It ends as a forfeit: {other} wins, and it counts in both histories.")

    def join(self, player: PlayerInfo, invite: str, *, address: str | None = None,
             client_seed: str | None = None, consent: bool = False) -> MatchState:
        """Take the free seat of the table of ``invite`` (its link token or short code), with
        the person's ``client_seed`` for the first deal (the hand is dealt at once when the
        other person's is in). An unfinished match of theirs ends only with their
        ``consent`` (else :class:`~ginrummy.server.store.UnfinishedMatchError`, nothing changed).
        ``address``: the hashed client address they join from. Taking a seat you hold
        already answers the table as it is. An invite that is unknown, used or closed (its
        creator gone past the grace period: the table is closed now) is one and the same
        :class:`~ginrummy.server.store.InviteError` (404)."""
        if client_seed is not None:
            _check_seed(client_seed)
        try:
            match_id, ended, joined = self.store.join_people_match(
                invite, player.id, self.now(), address=address, seed=client_seed,
                consent=consent, grace=self.grace)
        except InviteError as exc:
            self._notify(exc.changed)
            raise
        self._notify(ended)
        with self._lock(match_id):
            seated = self._load(player, match_id)
            people = seated.people
            assert people is not None
            if joined and len(people.seeds) == 2 and seated.entry.table.waiting_for_deal:
                return self._deal_people(seated, people.seeds)
            if joined:
                self._notify([(match_id, seated.info.version)])
            return self._state(seated, None)

    def lobby(self) -> list[LobbyEntry]:
        """Open tables for two people that nobody has joined yet, whose creator is here
        (:data:`~.people.LOBBY_PRESENT_SECONDS`), a few per creator's address
        (:data:`~.people.LOBBY_PER_ADDRESS`); tables whose creator is gone past the grace
        period are closed on the way."""
        entries, closed = self.store.lobby(
            self.now(), present=LOBBY_PRESENT_SECONDS, gone=self.grace,
            per_address=LOBBY_PER_ADDRESS)
        self._notify(closed)
        return entries

    def state(self, player: PlayerInfo, match_id: str) -> MatchState:
        with self._lock(match_id):
            seated = self._load(player, match_id, touch=True)
            return self._state(seated, None)

    def play(
        self, player: PlayerInfo, match_id: str, move: str, version: int | None
    ) -> MatchState:
        """Play the person's move at the table, then the computer's replies; save; return the
        new state.

        A move out of turn is a :class:`Conflict`; an illegal move raises
        :class:`~ginrummy.engine.errors.IllegalMoveError`; neither changes anything.
        """
        with self._lock(match_id):
            seated = self._load(player, match_id)
            self._check_open(seated, version)
            try:
                seated.entry.table.play(seated.seat, move)
            except TurnError as exc:
                raise Conflict(str(exc)) from None
            return self._advance_and_save(seated)

    def next_hand(
        self,
        player: PlayerInfo,
        match_id: str,
        version: int | None,
        client_seed: str | None = None,
    ) -> MatchState:
        """Deal the next hand (the first, or after a finished one) from its sealed deal, with
        the person's ``client_seed``, and let the computer open if it must. Without a client
        seed nothing is dealt (the server never chooses one: it could then search for a deck
        it likes); a client seed that breaks the rules changes nothing either.

        At a table for two people each person sends their own client seed; the first one is
        kept (hidden from the other person) and the hand is dealt with the second, from the
        combination of both (:func:`~ginrummy.engine.shuffle.combine_client_seeds`)."""
        with self._lock(match_id):
            seated = self._load(player, match_id)
            if seated.people is not None:
                # A person's seed is for the hand waiting to be dealt, whatever changed since
                # their page read the table (the other person's seed, say), and may come
                # before anyone has joined: no version, no free-seat check.
                self._check_open(seated, None, waiting=True)
            else:
                self._check_open(seated, version)
            table = seated.entry.table
            if not table.waiting_for_deal:
                raise Conflict("The current hand is not over yet.")
            if table.sealer is None:
                raise Conflict(
                    "This match was started before sealed deals: the server deals only sealed "
                    "hands now, so it cannot deal this match another hand. Start a new match."
                )
            if client_seed is None:
                raise GinRummyError(SEND_CLIENT_SEED)
            if seated.people is not None:
                return self._people_seed(player, seated, client_seed)
            try:
                # The sealer checks the client seed before anything changes and refuses a hand
                # without a published commitment.
                table.deal(client_seed=client_seed)
            except SealError as exc:
                self._forget(match_id)
                raise GinRummyError(sentence(str(exc))) from None
            return self._advance_and_save(seated)

    def resign(self, player: PlayerInfo, match_id: str) -> MatchState:
        """End the match now, lost by the person who resigns (counted as any other loss)."""
        with self._lock(match_id):
            seated = self._load(player, match_id)
            self._check_open(seated, None)
            self._end_early(seated, 1 - seated.seat, "resigned", self.now())
            return self._state(self._load(player, match_id), None)

    def rematch(self, player: PlayerInfo, match_id: str) -> MatchState:
        """Offer a rematch of a finished match between two people, or accept the other's
        offer: the same people in the same seats and rules, the other seat dealing first.
        Answers the state of the finished match (``people.rematch`` is the new match's id once
        both want it)."""
        with self._lock(match_id):
            for attempt in range(REMATCH_TRIES):
                seated = self._load(player, match_id)
                people = seated.people
                if people is None:
                    raise Conflict("A rematch is for a match between two people; start a new "
                                   "match against the computer instead.")
                if seated.info.status != "over":
                    raise Conflict("The match is not over: a rematch can be offered at its "
                                   "end.")
                # Offered already by this person (or the rematch made): nothing changes, so
                # no new version wakes either person's event stream.
                if people.rematch_id is not None or people.rematch_offer == seated.seat:
                    break
                try:
                    if people.rematch_offer is None:
                        version = self.store.update_people(
                            match_id, seated.info.version, rematch_offer=seated.seat)
                    else:
                        version = self._start_rematch(seated)
                except UnfinishedMatchError:
                    # A rematch never ends another match: nobody said yes to that.
                    raise Conflict(REMATCH_BUSY) from None
                except ConflictError:
                    # The other person's press (this lock holds only within this process)
                    # changed the match first: judge the press again on what it is now.
                    if attempt == REMATCH_TRIES - 1:
                        raise
                    continue
                self._notify([(match_id, version)])
                break
            return self._state(self._load(player, match_id), None)

    def expire_due(self, match_id: str) -> bool:
        """Apply a passed deadline of a match between two people (a clock run out, a person
        gone longer than the grace period): the forfeit is recorded at the deadline, and
        ``on_change`` is told. True when something was applied. Every request touching the
        match does this first; the event stream calls it when a deadline passes."""
        with self._lock(match_id):
            found = self._read(match_id)
            if found is None or found[0].people is None:
                return False
            try:
                return self._expire(found[0].info, found[1], found[0].people) is not None
            except ConflictError:  # it changed meanwhile: the next call judges the new state
                return False

    def seen(self, match_id: str, seat: int) -> None:
        """The person in ``seat`` is here (their event stream is open): presence for the
        grace period. A deadline already passed is applied first."""
        if self.expire_due(match_id):
            return
        self.store.touch_people(match_id, seat, self.now())

    def seat_of(self, player: PlayerInfo, match_id: str) -> int:
        """The player's seat at the match (who may watch it); :class:`NotFound` otherwise."""
        return self.seating(player, match_id)[0]

    def seating(self, player: PlayerInfo, match_id: str) -> tuple[int, bool]:
        """The player's seat at the match and whether it is a table for two people (where
        deadlines run); :class:`NotFound` unless they sit at it."""
        found = self.store.read_seated(match_id, player.id, record=False)
        if found is None:
            raise NotFound(match_id)
        return found.seat, found.people is not None

    def deadline(self, match_id: str) -> float | None:
        """The next deadline of a match between two people (its clock or a person's grace
        period), for the event stream to call :meth:`expire_due` then; ``None`` if none."""
        with self._lock(match_id):
            found = self._read(match_id)
            if found is None:
                return None
            seated, entry = found
            info, people = seated.info, seated.people
            if people is None or info.ended:
                return None
            times = [d[0] for d in deadlines(entry.table, people, self.grace)]
            return min(times) if times else None

    def hand_copy(
        self, player: PlayerInfo, match_id: str, number: int | None = None
    ) -> tuple[int, Hand] | None:
        """An independent copy of hand ``number`` (1-based; by default the current one) of the
        player's match and its number, for read-only uses such as the coach; ``None`` when the
        match has no such hand (NotFound when the match is not the player's).

        Between two people the coach is off during play (:class:`Conflict`); after the match
        the copy is seen from the player's seat as seat 0 (:func:`~.people.mirrored`), so the
        coach, which reviews seat 0, reviews the player's own decisions only."""
        with self._lock(match_id):
            seated = self._load(player, match_id)
            if seated.people is not None and seated.info.status != "over":
                raise Conflict(COACH_OFF)
            hands = seated.entry.table.match.hands
            n = len(hands) if number is None else number
            if not 1 <= n <= len(hands):
                return None
            hand = hands[n - 1]
            return n, mirrored(hand) if seated.seat == 1 else hand.copy()

    def record(self, player: PlayerInfo, match_id: str, hands: int | None = None) -> str:
        """The record of the match's finished hands, with their sealed data (revealed server
        seeds included), for ``ginrummy verify``: of the first ``hands`` hands, or of the
        whole match. A record lists every hand's deck, so a hand still being played is never
        in it: asking for it is refused."""
        with self._lock(match_id):
            seated = self._load(player, match_id)
            match = seated.entry.table.match
            # A match that ended before its hand did (resigned, forfeited, abandoned): that
            # hand will never be played on, so it is in the record with its server seed.
            ended = seated.info.ended
            done = finished_hands(match, ended=ended)
            if hands is None:
                if done < len(match.hands):
                    raise Conflict(
                        f"Hand {len(match.hands)} is still being played: a record lists its "
                        "deck, so it is available once the hand is over."
                    )
                hands = done
            elif hands > done:
                raise Conflict(
                    f"Only {done} hand(s) of this match are over; a record of a hand still "
                    "being played (or not dealt) is not available."
                )
            return record_upto(
                match, seated.entry.table.sealer, hands,
                players=self._players(seated.info.level, seated.people),
                meta=self._meta(seated.info.level), ended=ended,
            )

    # Tables for two people.

    def _new_people_match(
        self, player: PlayerInfo, rules: RuleSet, open: bool, clock: int | None,
        *, seat1: int | None = None, first_dealer: int | None = None,
        rematch_of: str | None = None, rematch_version: int | None = None,
        addresses: tuple[str | None, str | None] = (None, None), consent: bool = True,
    ) -> MatchState:
        deal_seed = secrets.token_hex(16)
        match = Match(rules, seed=deal_seed, first_dealer=first_dealer, start=False)
        sealer = DealSealer(match)
        table = Table(match, [OnlinePerson(player.name, player_id=player.id)] * 2, sealer=sealer)
        table.seal_next()  # the first hand's commitment, saved below before it is shown
        names = (player.name, "Seat 1")
        info, ended = self.store.create_people_match(
            player_id=player.id, seat1=seat1, invite=new_invite(), code=new_code(), open=open,
            clock=clock, now=self.now(), rematch_of=rematch_of,
            rematch_version=rematch_version, addresses=addresses, consent=consent,
            level=PERSON, profile=rules.profile, rules=rules.describe(),
            hollywood=match.score.hollywood, deal_seed=deal_seed, status="playing",
            record=dumps(match, players=names, meta=self._meta(PERSON),
                         hand_meta=sealer.hand_meta()),
            seals=dump_seals(sealer),
        )
        self._notify(ended)
        entry = _Entry(info.version, table, dump_seals(sealer))
        self._remember(info.id, entry)
        self._notify([(info.id, info.version)])
        return self._state(_Seated(info, entry, 0, self.store.people_of(info.id)), None)

    def _start_rematch(self, seated: _Seated) -> int:
        """Both want a rematch: start it (the old match's first dealer's opponent deals first)
        and return the old match's new version."""
        people = seated.people
        assert people is not None and people.seats[1] is not None
        old = seated.entry.table.match
        creator = PlayerInfo(people.seats[0], people.names[0])
        self._new_people_match(
            creator, old.rules, False, people.clock, seat1=people.seats[1],
            first_dealer=1 - old.first_dealer, rematch_of=seated.info.id,
            rematch_version=seated.info.version, addresses=people.addresses, consent=False)
        info = self.store.get_match(people.seats[0], seated.info.id)
        assert info is not None
        return info.version

    def _people_seed(self, player: PlayerInfo, seated: _Seated, client_seed: str
                     ) -> MatchState:
        """One person's client seed for the next deal: kept until the other's arrives, then
        the hand is dealt from both. When the other person's seed was stored meanwhile (two
        seeds sent at once, perhaps to two workers), the table is read again and the seed
        judged anew: both seeds are kept, and the hand is dealt once."""
        _check_seed(client_seed)
        match_id = seated.info.id
        for attempt in range(SEED_TRIES):
            people = seated.people
            assert people is not None
            if seated.seat in people.seeds:
                raise Conflict("You sent your client seed for this hand already; the hand is "
                               "dealt when the other person sends theirs.")
            seeds = {**people.seeds, seated.seat: client_seed}
            try:
                if len(seeds) == 2 and people.seats[1] is not None:
                    return self._deal_people(seated, seeds)
                version = self.store.update_people(
                    match_id, seated.info.version, seeds=seeds,
                    **{f"seen{seated.seat}": self.now()})
            except ConflictError:
                if attempt == SEED_TRIES - 1:
                    raise
                seated = self._load(player, match_id)
                self._check_open(seated, None, waiting=True)
                if not seated.entry.table.waiting_for_deal:
                    raise Conflict("The hand was dealt meanwhile.") from None
                continue
            seated.entry.version = version
            self._remember(match_id, seated.entry)
            self._notify([(match_id, version)])
            info = replace(seated.info, version=version)
            return self._state(replace(seated, info=info,
                                       people=self.store.people_of(info.id)), None)
        raise AssertionError("unreachable")

    def _deal_people(self, seated: _Seated, seeds: dict[int, str]) -> MatchState:
        """Deal the hand waiting at a table for two people from both people's seeds."""
        table = seated.entry.table
        assert table.sealer is not None
        try:
            table.sealer.set_client_seeds(len(table.match.hands), seeds[0], seeds[1])
            table.deal()
        except SealError as exc:
            self._forget(seated.info.id)
            raise GinRummyError(sentence(str(exc))) from None
        return self._advance_and_save(seated)

    def _expire(self, info: MatchInfo, entry: _Entry, people: PeopleInfo) -> int | None:
        """Apply the first passed deadline (see :func:`~.people.due`); the new version, or
        ``None`` when none has passed."""
        found = due(info, entry.table, people, self.now(), self.grace)
        if found is None:
            return None
        at, winner, reason = found
        if reason == "closed":  # a table nobody joined, its creator gone: nothing to count
            version = self.store.close_waiting(info.id, expected_version=info.version)
        else:
            version = self.store.end_match_early(
                info.id, expected_version=info.version, winner=winner, reason=reason, at=at)
        self._notify([(info.id, version)])
        return version

    def _end_early(self, seated: _Seated, winner: int | None, reason: str, at: float) -> None:
        version = self.store.end_match_early(
            seated.info.id, expected_version=seated.info.version, winner=winner, reason=reason,
            at=at)
        self._notify([(seated.info.id, version)])

    def _notify(self, changed: Iterable[tuple[str, int]]) -> None:
        for match_id, version in changed:
            self.on_change(match_id, version)

    # Inside.

    def _lock(self, match_id: str) -> threading.Lock:
        """The lock that serializes requests on this match (striped: a fixed set of locks, so
        requests for unknown ids cannot grow it; two matches may share a stripe)."""
        return self._stripes[zlib.crc32(match_id.encode("utf-8", "replace")) % len(self._stripes)]

    def _remember(self, match_id: str, entry: _Entry) -> None:
        with self._guard:
            put_newest(self._cache, match_id, entry, self.cache_size)

    def _forget(self, match_id: str) -> None:
        with self._guard:
            self._cache.pop(match_id, None)

    def _load(self, player: PlayerInfo, match_id: str, *, touch: bool = False) -> _Seated:
        """The match as the player reaches it (:class:`NotFound` unless they sit at it). At a
        table for two people a passed deadline is applied first, and the request counts as
        the person being here (``touch``: also for a request that changes nothing; written
        only when the last record is :data:`~.people.SEEN_EVERY_SECONDS` old)."""
        found = self._read(match_id, player.id)
        if found is None:
            raise NotFound(match_id)
        seated, entry = found
        info, seat, people = seated.info, seated.seat, seated.people
        if people is not None:
            if self._expire(info, entry, people) is not None:
                return self._load(player, match_id)
            now = self.now()
            if touch and now - people.seen[seat] >= SEEN_EVERY_SECONDS:
                self.store.touch_people(match_id, seat, now)
                people = replace(people, seen=_with(people.seen, seat, now))
        return _Seated(info, entry, seat, people)

    def _read(self, match_id: str,
              player_id: int | None = None) -> tuple[SeatedMatch, _Entry] | None:
        """The match as ``player_id`` reaches it (``None``: as seat 0) with its table at the
        stored version, in one read of the database: the record comes only when the cached
        table is not at that version (see :meth:`_entry`). ``None`` if they do not sit at it.
        Called with the match's lock held."""
        with self._guard:
            cached = self._cache.get(match_id)
        found = self.store.read_seated(
            match_id, player_id, have=cached.version if cached is not None else None)
        if found is None:
            return None
        if found.saved is None:
            assert cached is not None
            return found, cached
        return found, self._entry(found.info, found.saved, cached)

    def _entry(self, info: MatchInfo, saved: SavedMatch, cached: _Entry | None) -> _Entry:
        """The match's table at the saved version. A cached table of an earlier version (the
        match was changed by another process, or this one's save failed) is brought up to it
        by playing the moves the record adds (:func:`~ginrummy.engine.record.catch_up`); otherwise,
        or when the record does not continue it, the whole record is replayed."""
        if cached is not None and cached.version < saved.version:
            table = cached.table
            hands = len(table.match.hands)
            try:
                if catch_up(table.match, saved.record, cached.record):
                    if saved.seals != cached.seals or len(table.match.hands) != hands:
                        table.sealer = (load_seals(table.match, saved.seals)
                                        if saved.seals is not None else None)
                    entry = _Entry(saved.version, table, saved.seals, saved.record)
                    self._remember(info.id, entry)
                    return entry
            except (GinRummyError, SealError):
                pass  # a broken record: the replay below says what is wrong with it
            self._forget(info.id)  # it may be half advanced
        match = loads(saved.record)
        sealer = load_seals(match, saved.seals) if saved.seals is not None else None
        if info.level == PERSON:
            table = Table(match, [OnlinePerson()] * 2, sealer=sealer)
        else:
            computer = self._computer(info.level, resuming=True)
            table = _table(match, sealer, computer, info.deal_seed)
        entry = _Entry(saved.version, table, saved.seals, saved.record)
        self._remember(info.id, entry)
        return entry

    @staticmethod
    def _check_open(seated: _Seated, version: int | None, *, waiting: bool = False) -> None:
        """Refuse (:class:`Conflict`) a request on a match that is not being played, or on a
        stale ``version``; ``waiting``: a table for two whose second seat is free is open
        (a client seed may come before anyone joins)."""
        info, entry = seated.info, seated.entry
        if info.status == "abandoned":
            raise Conflict("This match was abandoned when a new one started.")
        if info.status == "cancelled":
            raise Conflict("This table was closed before anyone joined it.")
        if info.status == "over" or entry.table.match.over:
            raise Conflict("The match is over.")
        if seated.people is not None and seated.people.seats[1] is None and not waiting:
            raise Conflict("Nobody has taken the other seat yet: send the invite.")
        if version is not None and version != info.version:
            raise Conflict(
                "The table changed since this move was chosen (another tab?); reload it."
            )

    @staticmethod
    def _finished(match: Match, done_before: int) -> list[HandSummary]:
        """Summaries of the hands that ended after the first ``done_before`` finished ones."""
        out = []
        for number, hand in enumerate(match.hands, 1):
            if number > done_before and hand.result is not None:
                out.append(HandSummary.of(number, hand.result))
        return out

    def _advance_and_save(self, seated: _Seated) -> MatchState:
        """Let the computer seats play, then save. From the person's move (or the deal) until
        the save succeeds the cached table is ahead of the database: on any failure it is
        dropped from the cache, so the next request replays the saved record."""
        try:
            since = _advance(seated.entry.table)
            return self._save(seated, since)
        except BaseException:
            self._forget(seated.info.id)
            raise

    def _save(self, seated: _Seated, since: tuple[int, int]) -> MatchState:
        info, entry, people = seated.info, seated.entry, seated.people
        match, sealer = entry.table.match, entry.table.sealer
        finished = self._finished(match, info.hands_played)
        status = "over" if match.over else "playing"
        seals = dump_seals(sealer) if sealer is not None else None
        record = self._record(match, info.level, sealer, people, after=entry.record)
        common = MatchSave(
            expected_version=entry.version,
            record=record,
            status=status,
            hands_played=len(match.results),
            scores=match.score.totals,
            winner=match.score.winner,
            new_hands=finished,
            seals=seals,
        )
        fresh = None
        if people is None:
            version = self.store.save_match(info.id, **common)
        else:
            now = self.now()
            presence: dict[str, Any] = {f"seen{seated.seat}": now}
            version, fresh = self.store.save_people_match(
                info.id, **common, seeds={}, clock_started=now,
                at=now, **presence)
        entry.version, entry.seals, entry.record = version, seals, record
        self._remember(info.id, entry)
        self._notify([(info.id, version)])
        new_info = replace(info, version=version, status=status,
                           winner=match.score.winner if match.over else info.winner)
        return self._state(replace(seated, info=new_info, people=fresh), since)

    def _computer(self, level: str, *, resuming: bool = False) -> Player:
        """The computer player of ``level``: one of ours, or the server's policy for
        ``"agent"`` (refused, with the reason, when the server was started without one)."""
        if level != AGENT:
            return make(level)
        if self._policy is None:
            why = ("This match is against a trained agent, and this server was started "
                   "without one" if resuming else
                   "There is no agent at this table: the server was started without one")
            exc = Conflict if resuming else GinRummyError
            raise exc(why + " (ginrummy serve --opponent-module MODULE:ATTR).")
        from ..env.policy import PolicyPlayer

        return PolicyPlayer(self._policy)

    def _players(self, level: str, people: PeopleInfo | None = None) -> tuple[str, str]:
        """The seat names written in a match's record."""
        if people is not None:
            return (people.names[0], people.names[1] or "Seat 1")
        if level == AGENT:
            return ("You", f"Computer (agent {self.agent})")
        return ("You", f"Computer ({level})")

    def _meta(self, level: str) -> dict[str, str]:
        if level == AGENT and self.agent is not None:
            return {"level": level, "agent": self.agent}
        return {"level": level}

    def _record(self, match: Match, level: str, sealer: DealSealer | None = None,
                people: PeopleInfo | None = None, *, after: str | None = None) -> str:
        """The match's record; ``after``: its record at the cached version (its finished
        hands are reused, see :func:`~ginrummy.engine.record.dumps`)."""
        return dumps(
            match,
            players=self._players(level, people),
            meta=self._meta(level),
            hand_meta=sealer.hand_meta() if sealer is not None else None,
            after=after,
        )

    def _state(self, seated: _Seated, since: tuple[int, int] | None) -> MatchState:
        info, table, me, people = seated.info, seated.entry.table, seated.seat, seated.people
        match = table.match
        meta = MatchMeta(sealed=sealed_out(table, me, ended=info.ended), situation=None,
                         revisit=None)
        view = match.view(me) if match.hands else None
        moves: list[PublicEvent] = []
        if view is not None and since is not None and since[0] == len(match.hands):
            moves = [e for e in view.history[since[1]:] if e.seat != me]
        status: Literal["waiting", "playing", "between_hands", "over", "abandoned"]
        if info.status in ("abandoned", "cancelled"):
            status = "abandoned"
        elif info.status == "over" or match.over:
            status = "over"
        elif people is not None and people.seats[1] is None:
            status = "waiting"
        elif table.waiting_for_deal:
            status = "between_hands"
        else:
            status = "playing"
        hand = hand_out(view) if view is not None else None
        names = ["You", "Computer"]
        extra: dict[str, Any] = {}
        if people is not None:
            mine, theirs = people.names[me], people.names[1 - me]
            names = [mine or "You", theirs or "(a free seat)"]
            if hand is not None and not hand.your_turn and hand.phase != "over":
                hand.prompt = f"{theirs} is playing."
            extra = dict(
                seat=me, opponent="person", invite=people.invite,
                people=people_out(info, table, people, me, self.now(), self.grace),
            )
        return MatchState(
            id=info.id,
            version=info.version,
            status=status,
            level=info.level,
            names=names,
            rules=rules_out(match.rules),
            hand=hand,
            score=score_out(match, me),
            computer_moves=public_moves(moves, me),
            meta=meta,
            coach=None,
            **extra,
        )


def _with(pair: tuple[float, float], seat: int, value: float) -> tuple[float, float]:
    return (value, pair[1]) if seat == 0 else (pair[0], value)


def _table(match: Match, sealer: DealSealer | None, computer: Player, deal_seed: str) -> Table:
    """The match's table: the person in seat ``HUMAN``, ``computer`` in seat ``COMPUTER``,
    reseeded before each decision from the match's secret deal seed."""
    seats: list[Seat] = [Person("You")] * 2
    seats[COMPUTER] = Computer(computer, reseed_from=deal_seed)
    return Table(match, seats, sealer=sealer)


def _advance(table: Table) -> tuple[int, int]:
    """Let the computer play until the person must act or the hand ends. Returns (hand number,
    first history index): the computer's moves of this request are that hand's history from
    that index on (the response tells them from the person's view)."""
    played = table.advance()
    hand = table.match.hand
    return len(table.match.hands), len(hand.history) - len(played)

