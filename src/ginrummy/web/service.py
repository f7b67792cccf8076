"""The web table's keeper: loads a match's :class:`~ginrummy.table.Table`, lets it play the
person's move and the computer's answers, and saves the match in one transaction before
anything is returned.

The game flow (whose turn it is, dealing, the computer's moves, publishing the next sealed
commitment) belongs to the :class:`~ginrummy.table.Table`; this service keeps persistence,
caching and locking. Here the person sits in seat 0 and the computer in seat 1 (``HUMAN`` and
``COMPUTER``: the web's choice, not the table's). A match lives in the store as its record;
this service keeps a small in-process cache of replayed matches keyed by id and version, so a
move costs one replay only after a restart (or when another process changed the match). Every
change goes through :meth:`Store.save_match` with the version it started from: a cached match
is never ahead of the database, and a request that lost a race changes nothing.

The computer is ``ginrummy.players.make(level)``, or at level ``"agent"`` the policy the server
was started with (``ginrummy serve --opponent-module``) in a
:class:`~ginrummy.env.policy.PolicyPlayer`; either decides from its own seat's
:class:`~ginrummy.view.PlayerView`; the table reseeds its RNG before every decision with
:func:`~ginrummy.table.decision_seed` from the match's secret deal seed and the position, so a
replayed match gets the same answers.

Every hand is dealt from a sealed deal (:mod:`.sealing`): the next hand's commitment is
published in the same save that ends a hand (or creates the match), the person's client seed
comes with the request that deals, and the server seed is revealed once the hand is over. A
match saved before sealed deals existed can finish the hand on the table, but the server no
longer deals it another (it would be unsealed): that request is refused with a
:class:`Conflict`.
"""

from __future__ import annotations

import secrets
import threading
import zlib
from collections import OrderedDict
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Literal

from ..errors import GinRummyError
from ..hand import Hand
from ..match import Match
from ..players import Player, make
from ..record import dumps, loads
from ..rules import get_rules
from ..sealer import DealSealer
from ..shuffle import SealError
from ..store import HandSummary, MatchInfo, PlayerInfo, Store
from ..table import Computer, Person, Seat, Table, TurnError
from ..view import PublicEvent
from .schemas import MatchMeta, MatchState, NewMatchIn
from .sealing import (
    dump_seals,
    finished_hands,
    load_seals,
    record_upto,
    sealed_out,
    sentence,
)
from .serialize import hand_out, public_moves, rules_out, score_out

if TYPE_CHECKING:
    from ..env.policy import Policy

__all__ = ["TableService", "NotFound", "Conflict", "HUMAN", "COMPUTER", "AGENT"]

#: The level of a match against the policy the server was started with.
AGENT = "agent"

HUMAN, COMPUTER = 0, 1

#: Why ``"deal": true`` is refused: a deal the server starts by itself has a client seed the
#: server chose, so it proves nothing.
NO_SERVER_DEAL = (
    "The server no longer deals the first hand by itself: its client seed would be the "
    "server's choice, so the deal could not be shown to be fair. Leave out \"deal\" (or send "
    "false), read the first hand's commitment in meta.sealed.next, then POST next-hand with "
    "your client_seed."
)
#: Why a next-hand request without a client seed is refused.
SEND_CLIENT_SEED = (
    "Send your client seed (\"client_seed\": 1 to 256 bytes of text) to deal the hand: the "
    "server does not choose one for you, so that the deal stays provably fair."
)

#: How many locks serialize requests on matches (see ``TableService._lock``).
LOCK_STRIPES = 64


class NotFound(Exception):
    """No such match for this player (whether it exists for another is not said)."""


class Conflict(Exception):
    """The request does not fit the match's current state (stale version, match over)."""


@dataclass
class _Entry:
    """A cached match: its table, as of the stored ``version``."""

    version: int
    table: Table


class TableService:
    """Matches between a person and the computer, saved in a :class:`Store`."""

    def __init__(
        self, store: Store, *, cache_size: int = 256, agent: str | None = None
    ) -> None:
        """``agent``: a policy reference (``package.module:attr``, see
        :func:`~ginrummy.env.policy.load_policy`) offered as level ``"agent"``; it is loaded
        here, once, and a bad one raises :class:`~ginrummy.errors.GinRummyError`."""
        self.store = store
        self.agent = agent
        self._policy: Policy | None = None
        if agent is not None:
            from ..env.policy import load_policy  # the env extra, needed only for an agent

            self._policy = load_policy(agent)
        self.cache_size = cache_size
        self._cache: OrderedDict[str, _Entry] = OrderedDict()
        self._stripes = [threading.Lock() for _ in range(LOCK_STRIPES)]
        self._guard = threading.Lock()

    # Players.

    def new_player(self, name: str) -> tuple[PlayerInfo, str]:
        return self.store.create_player(name)

    def player(self, token: str) -> PlayerInfo | None:
        return self.store.player_by_token(token)

    # Matches.

    def new_match(self, player: PlayerInfo, options: NewMatchIn) -> MatchState:
        """Start a match (the player's unfinished one is abandoned) and let the computer open
        if it is the non-dealer."""
        if options.deal:
            raise GinRummyError(NO_SERVER_DEAL)
        rules = get_rules(
            options.profile,
            hollywood=options.hollywood,
            last_discard_chance=options.last_discard_chance,
        )
        computer = self._computer(options.level)  # refuses "agent" when there is none
        deal_seed = secrets.token_hex(16)
        match = Match(rules, seed=deal_seed, start=False)
        sealer = DealSealer(match)
        table = _table(match, sealer, computer, deal_seed)
        table.seal_next()  # the first hand's commitment, saved below before it is shown
        info = self.store.create_match(
            player_id=player.id,
            level=options.level,
            profile=rules.profile,
            rules=rules.describe(),
            hollywood=match.score.hollywood,
            deal_seed=deal_seed,
            record=self._record(match, options.level, sealer),
            status="over" if match.over else "playing",
            scores=match.score.totals,
            winner=match.score.winner,
            hands=self._finished(match, 0),
            seals=dump_seals(sealer),
        )
        entry = _Entry(info.version, table)
        self._remember(info.id, entry)
        return self._state(info, entry, None)

    def state(self, player: PlayerInfo, match_id: str) -> MatchState:
        with self._lock(match_id):
            info, entry = self._load(player, match_id)
            return self._state(info, entry, None)

    def play(
        self, player: PlayerInfo, match_id: str, move: str, version: int | None
    ) -> MatchState:
        """Play the person's move at the table, then the computer's replies; save; return the
        new state.

        A move out of turn is a :class:`Conflict`; an illegal move raises
        :class:`~ginrummy.errors.IllegalMoveError`; neither changes anything.
        """
        with self._lock(match_id):
            info, entry = self._load(player, match_id)
            self._check_open(info, entry, version)
            table = entry.table
            try:
                table.play(HUMAN, move)
            except TurnError as exc:
                raise Conflict(str(exc)) from None
            return self._advance_and_save(info, entry)

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
        it likes); a client seed that breaks the rules changes nothing either."""
        with self._lock(match_id):
            info, entry = self._load(player, match_id)
            self._check_open(info, entry, version)
            table = entry.table
            if not table.waiting_for_deal:
                raise Conflict("The current hand is not over yet.")
            if table.sealer is None:
                raise Conflict(
                    "This match was started before sealed deals: the server deals only sealed "
                    "hands now, so it cannot deal this match another hand. Start a new match."
                )
            if client_seed is None:
                raise GinRummyError(SEND_CLIENT_SEED)
            try:
                # The sealer checks the client seed before anything changes and refuses a hand
                # without a published commitment.
                table.deal(client_seed=client_seed)
            except SealError as exc:
                self._forget(match_id)
                raise GinRummyError(sentence(str(exc))) from None
            return self._advance_and_save(info, entry)

    def hand_copy(
        self, player: PlayerInfo, match_id: str, number: int | None = None
    ) -> tuple[int, Hand] | None:
        """An independent copy of hand ``number`` (1-based; by default the current one) of the
        player's match and its number, for read-only uses such as the coach; ``None`` when the
        match has no such hand (NotFound when the match is not the player's)."""
        with self._lock(match_id):
            _info, entry = self._load(player, match_id)
            hands = entry.table.match.hands
            n = len(hands) if number is None else number
            if not 1 <= n <= len(hands):
                return None
            return n, hands[n - 1].copy()

    def record(self, player: PlayerInfo, match_id: str, hands: int | None = None) -> str:
        """The record of the match's finished hands, with their sealed data (revealed server
        seeds included), for ``ginrummy verify``: of the first ``hands`` hands, or of the
        whole match. A record lists every hand's deck, so a hand still being played is never
        in it: asking for it is refused."""
        with self._lock(match_id):
            info, entry = self._load(player, match_id)
            match = entry.table.match
            done = finished_hands(match)
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
                match, entry.table.sealer, hands, players=self._players(info.level),
                meta=self._meta(info.level),
            )

    # Inside.

    def _lock(self, match_id: str) -> threading.Lock:
        """The lock that serializes requests on this match (striped: a fixed set of locks, so
        requests for unknown ids cannot grow it; two matches may share a stripe)."""
        return self._stripes[zlib.crc32(match_id.encode("utf-8", "replace")) % len(self._stripes)]

    def _remember(self, match_id: str, entry: _Entry) -> None:
        with self._guard:
            self._cache[match_id] = entry
            self._cache.move_to_end(match_id)
            while len(self._cache) > self.cache_size:
                self._cache.popitem(last=False)

    def _forget(self, match_id: str) -> None:
        with self._guard:
            self._cache.pop(match_id, None)

    def _load(self, player: PlayerInfo, match_id: str) -> tuple[MatchInfo, _Entry]:
        info = self.store.get_match(player.id, match_id)
        if info is None:
            raise NotFound(match_id)
        with self._guard:
            entry = self._cache.get(match_id)
        if entry is None or entry.version != info.version:
            version, text, seals = self.store.load_match(match_id)
            match = loads(text)
            sealer = load_seals(match, seals) if seals is not None else None
            computer = self._computer(info.level, resuming=True)
            entry = _Entry(version, _table(match, sealer, computer, info.deal_seed))
            if version != info.version:  # changed between the two reads: read again
                return self._load(player, match_id)
            self._remember(match_id, entry)
        return info, entry

    @staticmethod
    def _check_open(info: MatchInfo, entry: _Entry, version: int | None) -> None:
        if info.status == "abandoned":
            raise Conflict("This match was abandoned when a new one started.")
        if entry.table.match.over:
            raise Conflict("The match is over.")
        if version is not None and version != entry.version:
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

    def _advance_and_save(self, info: MatchInfo, entry: _Entry) -> MatchState:
        """Let the computer seats play, then save. From the person's move (or the deal) until
        the save succeeds the cached table is ahead of the database: on any failure it is
        dropped from the cache, so the next request replays the saved record."""
        try:
            since = _advance(entry.table)
            return self._save(info, entry, since)
        except BaseException:
            self._forget(info.id)
            raise

    def _save(self, info: MatchInfo, entry: _Entry, since: tuple[int, int]) -> MatchState:
        match, sealer = entry.table.match, entry.table.sealer
        finished = self._finished(match, info.hands_played)
        status = "over" if match.over else "playing"
        version = self.store.save_match(
            info.id,
            expected_version=entry.version,
            record=self._record(match, info.level, sealer),
            status=status,
            hands_played=len(match.results),
            scores=match.score.totals,
            winner=match.score.winner,
            new_hands=finished,
            seals=dump_seals(sealer) if sealer is not None else None,
        )
        entry.version = version
        self._remember(info.id, entry)
        new_info = replace(info, version=version, status=status)
        return self._state(new_info, entry, since)

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

    def _players(self, level: str) -> tuple[str, str]:
        """The seat names written in a match's record."""
        if level == AGENT:
            return ("You", f"Computer (agent {self.agent})")
        return ("You", f"Computer ({level})")

    def _meta(self, level: str) -> dict[str, str]:
        if level == AGENT and self.agent is not None:
            return {"level": level, "agent": self.agent}
        return {"level": level}

    def _record(self, match: Match, level: str, sealer: DealSealer | None = None) -> str:
        return dumps(
            match,
            players=self._players(level),
            meta=self._meta(level),
            hand_meta=sealer.hand_meta() if sealer is not None else None,
        )

    def _state(
        self, info: MatchInfo, entry: _Entry, since: tuple[int, int] | None
    ) -> MatchState:
        table = entry.table
        match = table.match
        meta = MatchMeta(sealed=sealed_out(table, HUMAN), situation=None, revisit=None)
        view = match.view(HUMAN) if match.hands else None
        moves: list[PublicEvent] = []
        if view is not None and since is not None and since[0] == len(match.hands):
            moves = [e for e in view.history[since[1]:] if e.seat == COMPUTER]
        status: Literal["playing", "between_hands", "over", "abandoned"]
        if info.status == "abandoned":
            status = "abandoned"
        elif match.over:
            status = "over"
        elif table.waiting_for_deal:
            status = "between_hands"
        else:
            status = "playing"
        hand = hand_out(view) if view is not None else None
        return MatchState(
            id=info.id,
            version=info.version,
            status=status,
            level=info.level,
            names=["You", "Computer"],
            rules=rules_out(match.rules),
            hand=hand,
            score=score_out(match, HUMAN),
            computer_moves=public_moves(moves, HUMAN),
            meta=meta,
            coach=None,
        )


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

