"""The table: a match, the two seats around it, the sealer that deals, and the game flow.

Every front end drives a :class:`Table` instead of writing its own loop: self-play
(:mod:`ginrummy.selfplay.play`, :mod:`ginrummy.selfplay.simulate`,
:mod:`ginrummy.selfplay.tournament`), the terminal (:mod:`ginrummy.tui.table`) and the web server
(:mod:`ginrummy.server.service`). A table keeps no game state of its own: everything it answers is
read from its :class:`~ginrummy.engine.match.Match` (and
:class:`~ginrummy.engine.sealer.DealSealer`), so a table built around a reloaded match is the table
that was saved.

Seats are kinds:

* :class:`Person`: a person at this table; the front end reads the move and calls
  :meth:`Table.play`;
* :class:`RemotePerson`: a person elsewhere; it waits for :meth:`Table.play` like a person
  here. :class:`OnlinePerson` is the one the web server seats at a table of two people: a
  player of its store, who alone may speak for the seat;
* :class:`Computer`: a :class:`~ginrummy.players.Player` that :meth:`Table.advance` asks for its
  moves, always with its own seat's :class:`~ginrummy.engine.view.PlayerView`, never the hand.

A computer either keeps its player's own RNG stream (self-play: the golden records depend on
it) or is reseeded before each decision with :func:`decision_seed` from a base seed and the
position (tables that are saved and reloaded: a reloaded match gets the same answers).

>>> from ginrummy.engine.match import Match
>>> from ginrummy.players import make
>>> table = Table(Match("modern", seed="doc", first_dealer=0),
...               (Person("Ann"), Computer(make("simple"), reseed_from="doc")))
>>> table.to_act                      # seat 1, the non-dealer, opens: the computer
1
>>> played = table.advance()          # it plays until the person must act
>>> [seat for seat, _ in played], table.to_act
([1], 0)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeAlias

from .errors import GinRummyError, IllegalMoveError
from .hand import Hand, seat_number
from .match import Match
from .sealer import DealSealer
from .settle import HandResult
from .view import PlayerView

if TYPE_CHECKING:  # only annotations: `import ginrummy` does not load the players
    from .player import Player

__all__ = [
    "MAX_MOVES",
    "Computer",
    "OnlinePerson",
    "Person",
    "RemotePerson",
    "Seat",
    "Table",
    "TurnError",
    "decision_seed",
    "play_turn",
    "play_turns",
]

#: Computer moves one :meth:`Table.advance` may play: far more than any hand lasts, so hitting
#: it means a player that cannot finish a hand (a bug), not a long game.
MAX_MOVES = 1000


def decision_seed(base: str, hand_number: int, move_index: int) -> str:
    """The seed a reseeded computer gets before deciding move ``move_index`` (0-based, the
    length of the hand's history) of hand ``hand_number`` (1-based): the same match and the
    same position always give the same seed, so a reloaded match gets the same answers.

    The terminal uses its save's computer seed as ``base`` and the web server its match's
    secret deal seed. (Before issue 10 the web used ``"{deal_seed}/{n}/{i}"``; its computer's
    moves for a given deal seed changed when it moved to this one scheme.)

    >>> decision_seed("abc", 2, 7)
    'abc/hand/2/move/7'
    """
    return f"{base}/hand/{hand_number}/move/{move_index}"


@dataclass(frozen=True)
class Person:
    """A person at this table: the front end reads the move and calls :meth:`Table.play`."""

    name: str = "You"


@dataclass(frozen=True)
class RemotePerson(Person):
    """A person elsewhere, playing over the network. Like :class:`Person`, the seat waits for
    :meth:`Table.play`; the table does not care where the move came from.

    Who may speak for the seat and how the seat learns that the other one moved belong to
    the kinds below, not to the table's flow.
    """


@dataclass(frozen=True)
class OnlinePerson(RemotePerson):
    """A person playing another person through the web server: ``player_id`` is the store's
    player who alone may move for this seat (the server checks it before :meth:`Table.play`).
    """

    player_id: int = 0


@dataclass
class Computer:
    """A computer player in a seat. With ``reseed_from`` the player's RNG is restarted before
    each decision from :func:`decision_seed`; without it the player keeps its own stream."""

    player: Player
    reseed_from: str | None = None

    def decide(self, view: PlayerView, hand_number: int, move_index: int) -> str:
        """The player's move from its seat's ``view`` (the position is only for the seed)."""
        if self.reseed_from is not None:
            self.player.reseed(decision_seed(self.reseed_from, hand_number, move_index))
        return self.player.choose(view)


Seat: TypeAlias = Person | Computer
"""A seat's kind: :class:`Person` (or :class:`RemotePerson`) waits for moves from outside;
:class:`Computer` is asked for them."""

Played: TypeAlias = tuple[int, str]
"""A move played at the table: (seat, the move's canonical text as the engine recorded it)."""


class TurnError(IllegalMoveError):
    """A move offered at the wrong moment: not this seat's turn, no hand on the table, the
    hand or the match over. Nothing changes."""


def play_turns(
    game: Match | Hand, seats: Sequence[Seat], max_moves: int = MAX_MOVES
) -> list[Played]:
    """The one loop that asks computer seats for moves: play them on ``game`` until a person
    must act or the hand (or the match) is over; return what was played.

    ``game`` is a :class:`Match` (each view carries the match's scores) or a lone
    :class:`Hand` (hand number 1), which is how :func:`ginrummy.selfplay.play.play_hand` plays a
    hand that belongs to no match. :meth:`Table.advance` is the usual way in.
    """
    played: list[Played] = []
    while (due := _due(game, seats)) is not None:
        if len(played) >= max_moves:
            raise GinRummyError(
                f"the computer players did not finish the hand within {max_moves} moves"
            )
        played.append(_play(game, due))
    return played


def play_turn(game: Match | Hand, seats: Sequence[Seat]) -> Played | None:
    """Play one move of the computer seat to act in ``game`` (the loop's step, for a front
    end that saves or shows each move); ``None``, and nothing played, when no computer is to
    act."""
    due = _due(game, seats)
    return None if due is None else _play(game, due)


_Due: TypeAlias = tuple[Hand, int, int, Computer]


def _due(game: Match | Hand, seats: Sequence[Seat]) -> _Due | None:
    """The hand being played, its number, and the computer seat to act in it, if any."""
    if isinstance(game, Match):
        if game.over or not game.hands:
            return None
        hand, number = game.hand, len(game.hands)
    else:
        hand, number = game, 1
    if hand.over:
        return None
    computer = seats[hand.to_play]
    if not isinstance(computer, Computer):
        return None
    return hand, number, hand.to_play, computer


class Table:
    """A :class:`Match` with its two seats and, for sealed deals, its :class:`DealSealer`.

    The seats are given by seat number (``seats[0]`` sits in seat 0). No seat is special: a
    person may sit in either seat, or two people may play each other.

    The flow: :meth:`deal` the next hand when :attr:`waiting_for_deal`; :meth:`advance` to let
    the computer seats play; :meth:`play` a person's move when :attr:`to_act` is their seat;
    repeat. After every change that ends a hand, a sealed table publishes the next hand's
    commitment (:meth:`seal_next`), so a front end that saves after each change never shows a
    commitment that is not saved.
    """

    def __init__(
        self,
        match: Match,
        seats: Sequence[Seat],
        *,
        sealer: DealSealer | None = None,
        max_moves: int = MAX_MOVES,
    ) -> None:
        if not isinstance(match, Match):
            raise GinRummyError(f"a table is built around a Match, not {type(match).__name__}")
        if not isinstance(seats, Sequence) or isinstance(seats, str):
            raise GinRummyError(
                f"a table's seats are a sequence of two, not {type(seats).__name__}"
            )
        if len(seats) != 2:
            raise GinRummyError(f"a table has two seats, not {len(seats)}")
        for seat in seats:
            if not isinstance(seat, (Person, Computer)):
                raise GinRummyError(
                    f"a seat holds a Person or a Computer, not {type(seat).__name__}"
                )
        if sealer is not None and sealer.match is not match:
            raise GinRummyError("the sealer deals another match")
        self.match = match
        self.seats: tuple[Seat, Seat] = (seats[0], seats[1])
        self.sealer = sealer
        self.max_moves = max_moves

    # Reading.

    @property
    def waiting_for_deal(self) -> bool:
        """True when the next hand is to be dealt: before the first hand, or between hands."""
        return not self.match.over and (not self.match.hands or self.match.hand.over)

    @property
    def to_act(self) -> int | None:
        """The seat that must act now, ``None`` between hands and once the match is over."""
        if self.waiting_for_deal or self.match.over:
            return None
        return self.match.hand.to_play

    def seat_kind(self, seat: int) -> Seat:
        """Who sits in ``seat`` (0 or 1)."""
        return self.seats[seat_number(seat)]

    def view(self, seat: int) -> PlayerView:
        """What ``seat`` knows now, with the match's scores."""
        return self.match.view(seat)

    # Playing.

    def play(self, seat: int, move: str) -> HandResult | None:
        """Play ``move`` for ``seat``, which must be the seat to act; returns the hand's result
        when the move ends it. A move at the wrong moment raises :class:`TurnError`, an
        illegal one the engine's :class:`~ginrummy.engine.errors.IllegalMoveError`; either way
        nothing changes."""
        self._check_turn(seat)
        result = self.match.play(move)
        self.seal_next()
        return result

    def step(self) -> Played | None:
        """Play one move of the computer seat to act (``None`` when no computer is to act)."""
        played = play_turn(self.match, self.seats)
        self.seal_next()
        return played

    def advance(self) -> list[Played]:
        """Play the computer seats until a person must act, the hand is over or the match is;
        returns the moves played, in order, for front ends to tell."""
        played = play_turns(self.match, self.seats, self.max_moves)
        self.seal_next()
        return played

    def deal(self, deck: Sequence[int] | None = None, *, client_seed: str | None = None) -> Hand:
        """Deal the next hand. A sealed table deals from its sealer, with ``client_seed`` when
        given (checked before anything changes; drawn at random otherwise); an unsealed table
        deals ``deck`` or the match's own next deck."""
        if not self.waiting_for_deal:
            raise TurnError("The match is over." if self.match.over
                            else "The current hand is not over yet.")
        n = len(self.match.hands)
        if self.sealer is not None:
            if deck is not None:
                raise GinRummyError("a sealed table deals from its sealer, not a given deck")
            if client_seed is not None:
                self.sealer.set_client_seed(n, client_seed)
        elif client_seed is not None:
            raise GinRummyError("this table's hands are not sealed: there is no client seed")
        hand = self.match.next_hand(deck)
        self.seal_next()
        return hand

    def seal_next(self) -> None:
        """Publish the next hand's commitment once the match waits for it (idempotent;
        nothing for an unsealed table)."""
        if self.sealer is not None and self.waiting_for_deal:
            self.sealer.commitment(len(self.match.hands))

    def play_to_end(self, max_hands: int) -> Match:
        """Deal and play hands until the match is over or ``max_hands`` hands have been played
        (the match is then left unfinished); for tables of computers only."""
        for seat, kind in enumerate(self.seats):
            if not isinstance(kind, Computer):
                raise GinRummyError(f"seat {seat} waits for a person; play_to_end needs computers")
        while not self.match.over:
            if self.waiting_for_deal:
                if len(self.match.hands) >= max_hands:
                    break
                self.deal()
            self.advance()
        return self.match

    # Inside.

    def _check_turn(self, seat: int) -> None:
        seat_number(seat)  # not a seat at all: a GinRummyError, not a TurnError
        match = self.match
        hands = match.hands
        # A match ends only when a hand does: with a hand in play the match is not over, and
        # asking the match (every game's score) is left to the moments between hands.
        if not hands or hands[-1].over:
            if match.over:
                raise TurnError("The match is over.")
            if not hands:
                raise TurnError("No hand has been dealt yet: deal the first hand first.")
            raise TurnError("The hand is over: deal the next hand first.")
        hand = hands[-1]
        if hand.to_play != seat:
            raise TurnError(f"It is not your turn: seat {hand.to_play} is to play.")
        if isinstance(self.seats[seat], Computer):
            raise TurnError(f"Seat {seat} is a computer player: it moves when the table advances.")

    def __repr__(self) -> str:
        kinds = "/".join(type(s).__name__ for s in self.seats)
        return f"<Table {kinds} hands={len(self.match.hands)} to_act={self.to_act}>"


def _play(game: Match | Hand, due: _Due) -> Played:
    """Ask the computer of ``due`` for its move, from its seat's view only, and play it."""
    hand, number, seat, computer = due
    game.play(computer.decide(game.view(seat), number, len(hand.history)))
    return seat, hand.history[-1].text
