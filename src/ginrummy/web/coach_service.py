"""The coach at the web table: remarks on the person's decisions, hand reviews and revisits.

The coach runs apart from the move round trip: the page asks for a remark after the answer to
its move has arrived, so the computer's reply is never delayed. Every assessment is computed
from the person's own :class:`~ginrummy.view.PlayerView` before the move (a replay of the hand
up to it), never from the hand itself, and kept in :class:`~ginrummy.web.coach_store.CoachNotes`
so the hand's review reuses it. Only the person's (seat 0's) decisions are ever assessed, and a
decision of a hand in play can be asked about only once it has been played.
"""

from __future__ import annotations

from typing import Literal

from ..coach import DEFAULT_SAMPLES, Assessment, Coach, decisions_of, review_hand
from ..errors import IllegalMoveError
from ..fields import same_fields
from ..hand import Hand
from ..lessons import Position
from ..match import Match
from ..store import PlayerInfo
from ..view import PlayerView
from .coach_schemas import (
    AlternativeOut,
    RemarkOut,
    ReviewOut,
    RevisitAnswerOut,
    RevisitOut,
)
from .coach_store import CoachNotes
from .schemas import Action, MatchMeta, MatchState
from .serialize import NAMES, hand_out, rules_out, score_out, seat_cards
from .service import HUMAN, Conflict, TableService

__all__ = ["CoachService", "NoSuchDecision", "remark_out", "COACH_SEED"]

#: The web coach's seed: fixed, so the same decision always gets the same remark.
COACH_SEED = "web-table"


class NoSuchDecision(Exception):
    """No such hand, or no decision of the person at that point of it."""


def remark_out(hand: int, index: int, turn: int, found: Assessment) -> RemarkOut:
    """An assessment as the API shows it."""
    better = found.alternative(found.best)
    return RemarkOut(
        hand=hand,
        index=index,
        turn=turn,
        **same_fields(found, "kind move words rating reason best loss exact"),
        best_words=better.words if better is not None else found.words,
        alternatives=[
            AlternativeOut(**same_fields(a, "move words value win_chance deadwood"))
            for a in found.alternatives
        ],
    )


class CoachService:
    """The coach's side of the web table (see the module docstring)."""

    def __init__(self, table: TableService, samples: int = DEFAULT_SAMPLES) -> None:
        self.table = table
        self.notes = CoachNotes(table.store)
        self.samples = samples

    def coach(self) -> Coach:
        return Coach(seed=COACH_SEED, samples=self.samples)

    # -----------------------------------------------------------------------------------------

    def latest(self, player: PlayerInfo, match_id: str) -> RemarkOut | None:
        """The remark on the person's latest move of the current hand (``None`` before their
        first move, or when that move was forced)."""
        found = self.table.hand_copy(player, match_id)
        if found is None:
            return None
        number, hand = found
        last = max((i for i, e in enumerate(hand.history) if e.seat == HUMAN), default=None)
        if last is None:
            return None
        for index, turn, view, move in decisions_of(hand, HUMAN):
            if index == last:
                return self._remark(match_id, number, index, turn, view, move)
        return None

    def review(self, player: PlayerInfo, match_id: str, number: int) -> ReviewOut:
        """The review of a finished hand: every decision of the person, the costliest first."""
        hand = self._finished(player, match_id, number)
        known = self.notes.get(match_id, number)
        review = review_hand(hand, HUMAN, self.coach(), number=number,
                             known={i: a for i, (_t, a) in known.items()})
        for d in review.decisions:
            if d.index not in known:
                self.notes.put(match_id, number, d.index, d.turn, d.assessment)
        return ReviewOut(
            hand=number,
            summary=review.summary(),
            counts=review.counts,
            decisions=[remark_out(number, d.index, d.turn, d.assessment)
                       for d in review.decisions],
            costliest=[remark_out(number, d.index, d.turn, d.assessment)
                       for d in review.costliest()],
        )

    def revisit(self, player: PlayerInfo, match_id: str, number: int, index: int) -> RevisitOut:
        """A decision of a finished hand reopened as a position, from the person's seat."""
        position, played = self._position(player, match_id, number, index)
        match = position.match()
        return RevisitOut(
            hand=number,
            index=index,
            turn=played.turn,
            question=(f"Hand {number}, your turn {played.turn}: you chose to {played.words}. "
                      "Play it again with the table's controls; the coach then shows every "
                      "alternative it weighed."),
            played=played.words,
            table=self._table(match, f"revisit-{match_id}-{number}-{index}", 0,
                              self._level(player, match_id)),
        )

    def revisit_answer(
        self, player: PlayerInfo, match_id: str, number: int, index: int, move: str
    ) -> RevisitAnswerOut:
        """Judge a new move at a reopened decision: the coach's remark, what the engine makes
        of it, and the computer's hand (the real hand is over, so nothing is secret)."""
        position, played = self._position(player, match_id, number, index)
        outcome = position.play([move])
        if not outcome.legal:
            raise IllegalMoveError(outcome.error or f"{move!r} is not legal here")
        found = self.coach().assess(position.view(), outcome.moves[0])
        table = self._table(outcome.match, f"revisit-{match_id}-{number}-{index}", 1,
                            self._level(player, match_id))
        done = Action(enabled=False, reason="You have played it again: read the coach's view, "
                      "then try again or go back to your game.")
        assert table.hand is not None  # a reopened decision always has a hand on the table
        hand = table.hand.model_copy(update={
            "prompt": f"You chose to {found.words}.",
            "actions": dict.fromkeys(table.hand.actions, done),
            "legal_moves": [],
            "card_options": [],
        })
        return RevisitAnswerOut(
            remark=remark_out(number, index, played.turn, found),
            played=played,
            outcome=outcome.sentence(),
            opponent=seat_cards(position.opponent_mask()),
            table=table.model_copy(update={"hand": hand}),
        )

    # -----------------------------------------------------------------------------------------

    def _remark(self, match_id: str, number: int, index: int, turn: int, view: PlayerView,
                move: str) -> RemarkOut:
        known = self.notes.get(match_id, number)
        if index in known:
            return remark_out(number, index, *known[index])
        found = self.coach().assess(view, move)
        self.notes.put(match_id, number, index, turn, found)
        return remark_out(number, index, turn, found)

    def _finished(self, player: PlayerInfo, match_id: str, number: int) -> Hand:
        found = self.table.hand_copy(player, match_id, number)
        if found is None:
            raise NoSuchDecision(f"This match has no hand {number}.")
        hand = found[1]
        if hand.result is None:
            raise Conflict("The hand is not over yet: its review comes when it ends.")
        return hand

    def _position(
        self, player: PlayerInfo, match_id: str, number: int, index: int
    ) -> tuple[Position, RemarkOut]:
        hand = self._finished(player, match_id, number)
        for i, turn, view, move in decisions_of(hand, HUMAN):
            if i == index:
                played = self._remark(match_id, number, i, turn, view, move)
                break
        else:
            raise NoSuchDecision(f"Hand {number} has no decision of yours before move {index}.")
        # The record of the first ``number`` hands, all over: the table refuses a record
        # that would list the deck of a hand still being played.
        text = self.table.record(player, match_id, hands=number)
        return Position.from_record(text, hand=number, move=index, seat=HUMAN), played

    def _level(self, player: PlayerInfo, match_id: str) -> str:
        info = self.table.store.get_match(player.id, match_id)
        return info.level if info is not None else "revisit"

    @staticmethod
    def _table(match: Match, table_id: str, version: int, level: str) -> MatchState:
        view = match.view(HUMAN)
        status: Literal["playing", "between_hands", "over"] = (
            "over" if match.over else "between_hands" if match.hand.over else "playing"
        )
        return MatchState(
            id=table_id,
            version=version,
            status=status,
            level=level,
            names=list(NAMES),
            rules=rules_out(match.rules),
            hand=hand_out(view),
            score=score_out(match, HUMAN),
            computer_moves=[],
            meta=MatchMeta(sealed=None, situation=None, revisit=table_id),
            coach=None,
        )
