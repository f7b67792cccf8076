"""A finished hand's review: every decision of one seat, assessed, and the costliest of them.

The decisions are found by replaying the hand from its deck and moves: at each move of the seat
that had more than one legal choice, the seat's :class:`~ginrummy.engine.view.PlayerView` before the
move is what the coach judges. Assessments already made while the hand was played (a table
keeps them as remarks) are passed in ``known`` and reused, so a review after live coaching
costs nothing more.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from ..engine.hand import Hand
from ..engine.move import Move
from ..engine.view import PlayerView
from .assess import Assessment, Coach

__all__ = ["Decision", "HandReview", "decisions_of", "review_hand", "COSTLIEST"]

#: How many decisions a review lists as the costliest.
COSTLIEST = 3


@dataclass(frozen=True)
class Decision:
    """One decision of the seat in a hand: hand ``hand`` (1-based), before move ``index`` (the
    number of the hand's moves already played), the seat's ``turn`` (1-based) in the hand."""

    hand: int
    index: int
    turn: int
    assessment: Assessment

    @property
    def label(self) -> str:
        """``Turn 3: discard the 7♦`` (the seat's own words for its move)."""
        return f"Turn {self.turn}: {self.assessment.words}"


@dataclass(frozen=True)
class HandReview:
    """Every assessed decision of one seat in one hand, in the order played."""

    hand: int
    seat: int
    decisions: tuple[Decision, ...]

    def costliest(self, limit: int = COSTLIEST) -> list[Decision]:
        """The decisions rated worse than good, the most expensive first (at most ``limit``)."""
        poor = [d for d in self.decisions if d.assessment.rating != "good"]
        poor.sort(key=lambda d: (-d.assessment.loss, d.index))
        return poor[:limit]

    @property
    def counts(self) -> dict[str, int]:
        """How many decisions got each rating."""
        out = {"good": 0, "inaccuracy": 0, "mistake": 0}
        for d in self.decisions:
            out[d.assessment.rating] += 1
        return out

    @property
    def total_loss(self) -> float:
        """Expected points given up over the hand's poor decisions."""
        return round(sum(d.assessment.loss for d in self.decisions
                         if d.assessment.rating != "good"), 2)

    def summary(self) -> str:
        """One line: how the decisions were rated."""
        c = self.counts
        total = len(self.decisions)
        if not total:
            return "You had no decision to make this hand."
        parts = [f"{c['good']} good"]
        if c["inaccuracy"]:
            parts.append(f"{c['inaccuracy']} inaccurac{'ies' if c['inaccuracy'] > 1 else 'y'}")
        if c["mistake"]:
            parts.append(f"{c['mistake']} mistake{'s' if c['mistake'] > 1 else ''}")
        head = f"{total} decision{'s' if total > 1 else ''}: " + ", ".join(parts)
        if not c["inaccuracy"] and not c["mistake"]:
            return head + "; well played."
        return head + f"; about {self.total_loss:.0f} points given away in all."


def decisions_of(hand: Hand, seat: int) -> Iterator[tuple[int, int, PlayerView, str]]:
    """``(index, turn, view before the move, move)`` for each of the seat's decisions in the
    hand (moves with more than one legal choice), replayed from the hand's deck and moves."""
    replay = Hand(hand.rules, deck=list(hand.deck), dealer=hand.dealer)
    turn = 0
    for index, move in enumerate(hand.moves):
        if replay.to_play == seat:
            if replay.phase in ("opening", "opening_draw", "draw", "last_chance"):
                turn += 1
            if len(replay.legal_moves()) > 1:
                yield index, max(turn, 1), replay.view(seat), move
        replay.play(move)


def review_hand(
    hand: Hand,
    seat: int,
    coach: Coach,
    *,
    number: int = 1,
    known: Mapping[int, Assessment] | None = None,
) -> HandReview:
    """Assess each of the seat's decisions in ``hand`` (hand ``number`` of its match), reusing
    the assessments in ``known`` (by move index)."""
    known = known or {}
    found = []
    for index, turn, view, move in decisions_of(hand, seat):
        assessment = known.get(index)
        if assessment is None or Move.parse(assessment.move).plain != Move.parse(move).plain:
            assessment = coach.assess(view, move)
        found.append(Decision(number, index, turn, assessment))
    return HandReview(number, seat, tuple(found))
