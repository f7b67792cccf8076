"""A decision point of any match, and what the engine makes of moves played from it.

:meth:`Position.from_record` opens the decision before any move of any hand of a record: a
sample situation is one, and so is a decision reopened from a finished hand's review. Each
:meth:`Position.match` replays the match afresh, so outcomes never disturb each other.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..engine.cards import Card
from ..engine.errors import GinRummyError
from ..engine.match import Match
from ..engine.melds import discard_deadwoods, min_deadwood
from ..engine.move import DISCARD, Move
from ..engine.record import loads
from ..engine.rules import RuleSet
from ..engine.settle import HandResult
from ..engine.view import PlayerView
from ..words.explain import explain_result

__all__ = ["NAMES", "InvalidSituationError", "Outcome", "Position"]

#: How the two seats are named in lessons, from the learner's side.
NAMES = ("You", "Opponent")


class InvalidSituationError(GinRummyError):
    """A situation file that cannot be loaded, or whose lesson the engine does not confirm."""


@dataclass(frozen=True)
class Outcome:
    """What the engine makes of some moves played from a position.

    ``error`` is the engine's sentence when the last move was refused (the moves before it
    were legal); ``result`` is set when the hand ended; ``deadwood`` is the learner's least
    deadwood when it goes on. ``match`` is the match after the moves.
    """

    moves: tuple[str, ...]
    seat: int
    match: Match
    error: str | None = None

    @property
    def legal(self) -> bool:
        return self.error is None

    @property
    def result(self) -> HandResult | None:
        return self.match.hand.result

    @property
    def deadwood(self) -> int | None:
        """The learner's deadwood as things stand: with ten cards their least deadwood, with
        eleven (after taking or drawing) the least left by a discard the rules allow."""
        if self.result is not None:
            return None
        hand = self.match.hand
        mask = hand.hands[self.seat]
        if mask.bit_count() == 11:
            return min(dw for c, dw in discard_deadwoods(mask) if c != hand.taken)
        return min_deadwood(mask)

    @property
    def net(self) -> int:
        """Points the learner wins by this line (negative when the opponent scores)."""
        result = self.result
        if result is None or result.winner_seat is None:
            return 0
        return result.points if result.winner_seat == self.seat else -result.points

    def sentence(self) -> str:
        """The outcome in words, from the learner's side (the engine's explanation)."""
        if self.error is not None:
            return f"{self.error}"
        result = self.result
        names = NAMES if self.seat == 0 else (NAMES[1], NAMES[0])
        if result is not None:
            return explain_result(result, names, you=self.seat)
        last = self.moves[-1]
        move = Move.parse(last)
        if move.code == DISCARD:
            assert move.card is not None
            card = move.card
            return (f"You discard the {card.symbol()} and keep {self.deadwood} deadwood; "
                    "the hand goes on.")
        if last == "take":
            taken = self.match.hand.taken
            what = f"the {Card(taken).symbol()}" if taken >= 0 else "the card"
            return (f"You take {what}; your best discard then leaves {self.deadwood} "
                    "deadwood.")
        if last == "pass":
            return f"You pass and keep your {self.deadwood} deadwood; the hand goes on."
        return f"You {last}; you hold {self.deadwood} deadwood."


@dataclass(frozen=True)
class Position:
    """A decision point: a match replayed up to one move, and the seat whose turn it is.

    Each call to :meth:`match` replays it afresh, so outcomes never disturb each other.
    """

    rules: RuleSet
    first_dealer: int
    decks: tuple[tuple[int, ...], ...]
    moves: tuple[tuple[str, ...], ...]
    seat: int

    @classmethod
    def from_match(cls, match: Match, seat: int | None = None) -> Position:
        """The position at the end of ``match`` (its last hand must not be over)."""
        if not match.hands:
            raise InvalidSituationError("the record has no hand")
        hand = match.hand
        if hand.over:
            raise InvalidSituationError(
                f"hand {len(match.hands)} is over: there is no decision left to make"
            )
        if seat is None:
            seat = hand.to_play
        if seat != hand.to_play:
            raise InvalidSituationError(
                f"the learner is seat {seat}, but it is seat {hand.to_play}'s turn"
            )
        return cls(
            rules=match.rules,
            first_dealer=match.first_dealer,
            decks=tuple(tuple(int(c) for c in h.deck) for h in match.hands),
            moves=tuple(tuple(h.moves) for h in match.hands),
            seat=seat,
        )

    @classmethod
    def from_record(
        cls,
        text: str,
        *,
        hand: int | None = None,
        move: int | None = None,
        seat: int | None = None,
    ) -> Position:
        """The decision before move ``move`` (0-based: the number of moves already played) of
        hand ``hand`` (1-based) of the record ``text``; by default the end of its last hand.

        This is how a decision of any finished hand is reopened; raises
        :class:`InvalidSituationError` when the point does not exist or is not a decision.
        """
        full = loads(text)
        if not full.hands:
            raise InvalidSituationError("the record has no hand")
        number = len(full.hands) if hand is None else hand
        if not 1 <= number <= len(full.hands):
            raise InvalidSituationError(
                f"the record has {len(full.hands)} hand(s); there is no hand {number}"
            )
        played = full.hands[number - 1].moves
        upto = len(played) if move is None else move
        if not 0 <= upto <= len(played):
            raise InvalidSituationError(
                f"hand {number} has {len(played)} moves; there is no move {upto}"
            )
        match = Match(full.rules, first_dealer=full.first_dealer, start=False)
        for h in full.hands[: number - 1]:
            match.next_hand(list(h.deck))
            for m in h.moves:
                match.play(m)
        match.next_hand(list(full.hands[number - 1].deck))
        for m in played[:upto]:
            match.play(m)
        return cls.from_match(match, seat)

    def match(self) -> Match:
        """A fresh match at this position."""
        match = Match(self.rules, first_dealer=self.first_dealer, start=False)
        for deck, moves in zip(self.decks, self.moves, strict=True):
            match.next_hand(list(deck))
            for m in moves:
                match.play(m)
        return match

    def view(self) -> PlayerView:
        """What the learner's seat knows here: the only thing a table may show before the
        answer."""
        return self.match().view(self.seat)

    @property
    def legal_moves(self) -> list[str]:
        return list[str](self.match().hand.legal_moves())

    def opponent_mask(self) -> int:
        """The opponent's cards here: shown only after the learner has answered."""
        return self.match().hand.hands[1 - self.seat]

    def play(self, moves: Sequence[str]) -> Outcome:
        """Play ``moves`` from here on a fresh match; a refused move stops the line."""
        match = self.match()
        done: list[str] = []
        for m in moves:
            try:
                match.play(m)
            except GinRummyError as exc:
                return Outcome((*done, m), self.seat, match, error=str(exc))
            done.append(match.hand.history[-1].text)
        return Outcome(tuple(done), self.seat, match)


