"""The coach at the web table: remarks on the person's decisions, hand reviews and revisits.

The coach runs apart from the move round trip: the page asks for a remark after the answer to its
move has arrived, so the computer's reply is never delayed. Every assessment is computed from the
person's own :class:`~ginrummy.engine.view.PlayerView` before the move (a replay of the hand up to
it), never from the hand itself, and kept in :class:`~ginrummy.server.coach_store.CoachNotes` so the
hand's review reuses it. Only the person's (seat 0's) decisions are ever assessed, and a decision of
a hand in play can be asked about only once it has been played.

Speed (issue 16): a review no longer waits for every decision to be assessed. While the hand is
played the page asks the coach to *assess ahead* (:meth:`CoachService.ahead`: every decision of the
person already played and not yet assessed, kept as notes), so at the hand's end only the last one
or two decisions are new; and the review is *streamed* (:meth:`CoachService.review_lines`): the list
of decisions first, then each remark as soon as it is known (the kept ones at once), then the whole
review. One lock per match makes the assessing ahead and a streamed review share the work instead of
doing a decision twice.

CPU (issue 12): every assessment runs in the :class:`~ginrummy.server.limits.CoachPool` (a
separate process), never in the server process, so a coach request does not slow another
player's move; and the answers that cannot change are kept in bounded caches: a move judged at
a decision of a finished hand (keyed by match, hand, decision and move), a reopened decision,
and a sample situation's remark. Each pool job names its owner (the player, or the address for
the sample situations), who may have one job in the pool at a time.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from typing import Literal

from ..coach import (
    DEFAULT_SAMPLES,
    Assessment,
    Coach,
    Decision,
    HandReview,
    decisions_of,
    lesson_coach,
    move_words,
)
from ..engine.errors import IllegalMoveError
from ..engine.hand import Hand
from ..engine.match import Match
from ..engine.move import Move
from ..engine.view import PlayerView
from ..lessons import Position
from .coach_schemas import (
    AheadOut,
    AlternativeOut,
    PendingOut,
    RemarkOut,
    ReviewOut,
    RevisitAnswerOut,
    RevisitOut,
)
from .coach_store import CoachNotes
from .fields import same_fields
from .limits import CoachPool, Recent
from .schemas import Action, MatchMeta, MatchState
from .serialize import NAMES, hand_out, rules_out, score_out, seat_cards
from .service import HUMAN, Conflict, TableService
from .store import PlayerInfo

__all__ = ["CoachService", "NoSuchDecision", "remark_out", "COACH_SEED", "CACHE_SIZE"]

#: The web coach's seed: fixed, so the same decision always gets the same remark.
COACH_SEED = "web-table"

#: How many answers each of the coach's caches keeps (the least recently used go first).
CACHE_SIZE = 2048


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

    def __init__(
        self, table: TableService, samples: int = DEFAULT_SAMPLES, pool: CoachPool | None = None
    ) -> None:
        self.table = table
        self.notes = CoachNotes(table.store)
        self.samples = samples
        self.pool = pool or CoachPool(processes=0)
        self._locks: dict[str, threading.Lock] = {}
        self._locks_lock = threading.Lock()
        self._revisits: Recent[tuple[str, int, int, int], RevisitOut] = Recent(CACHE_SIZE)
        self._answers: Recent[tuple[str, int, int, int, str], RevisitAnswerOut] = Recent(CACHE_SIZE)
        self._lessons: Recent[tuple[str, str], RemarkOut] = Recent(CACHE_SIZE)

    def coach(self) -> Coach:
        return Coach(seed=COACH_SEED, samples=self.samples)

    def lesson_remark(self, situation_id: str, move: str, owner: str) -> RemarkOut:
        """The lesson coach on ``move`` (engine text) at a sample situation (known to exist)."""
        key = (situation_id, move)
        found = self._lessons.get(key)
        if found is None:
            found = remark_out(0, 0, 0, self.pool.run(owner, _assess_lesson, situation_id, move))
            self._lessons.put(key, found)
        return found

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
                return self._remark(_owner(player), match_id, number, index, turn, view, move)
        return None

    def review(self, player: PlayerInfo, match_id: str, number: int) -> ReviewOut:
        """The review of a finished hand: every decision of the person, the costliest first."""
        hand = self._finished(player, match_id, number)
        owner = _owner(player)
        found = [(i, t, self._note(owner, match_id, number, i, t, view, move))
                 for i, t, view, move in decisions_of(hand, HUMAN)]
        return _review_out(number, found)

    def review_lines(self, player: PlayerInfo, match_id: str, number: int) -> Iterator[str]:
        """The review of a finished hand as it is made, one JSON object a line (NDJSON):
        ``{"event": "start", "pending": [...]}`` listing every decision (turn and move in
        words, no verdict yet), then ``{"event": "decision", "remark": ...}`` for each, the
        ones already assessed first, and last ``{"event": "review", "review": ...}`` (what
        :meth:`review` answers). Ownership and "not over yet" are checked before the first
        line, so they are ordinary error answers."""
        hand = self._finished(player, match_id, number)
        return self._stream(_owner(player), match_id, number, hand)

    def _stream(self, owner: str, match_id: str, number: int, hand: Hand) -> Iterator[str]:
        todo = list(decisions_of(hand, HUMAN))
        pending = [PendingOut(hand=number, index=i, turn=t, words=move_words(view, move))
                   for i, t, view, move in todo]
        yield _line({"event": "start", "hand": number,
                     "pending": [p.model_dump() for p in pending]})
        known = self.notes.get(match_id, number)
        done: dict[int, tuple[int, Assessment]] = {}
        for i, t, _view, move in todo:
            note = _kept(known, i, move)
            if note is not None:
                done[i] = (t, note)
                yield _line({"event": "decision",
                             "remark": remark_out(number, i, t, note).model_dump()})
        for i, t, view, move in todo:
            if i in done:
                continue
            found = self._note(owner, match_id, number, i, t, view, move)
            done[i] = (t, found)
            yield _line({"event": "decision",
                         "remark": remark_out(number, i, t, found).model_dump()})
        ordered = [(i, *done[i]) for i, _t, _v, _m in todo]
        yield _line({"event": "review",
                     "review": _review_out(number, ordered).model_dump()})

    def ahead(self, player: PlayerInfo, match_id: str) -> AheadOut:
        """Assess, and keep, every decision of the person in the current hand already played
        and not assessed yet, so the hand's review is ready when it ends. Answers only how many
        were assessed: a remark is read with :meth:`latest` or in the review."""
        found = self.table.hand_copy(player, match_id)
        if found is None:
            return AheadOut(assessed=0, kept=0)
        number, hand = found
        known = self.notes.get(match_id, number)
        assessed = kept = 0
        for index, turn, view, move in decisions_of(hand, HUMAN):
            if _kept(known, index, move) is not None:
                kept += 1
                continue
            self._note(_owner(player), match_id, number, index, turn, view, move)
            assessed += 1
        return AheadOut(assessed=assessed, kept=kept)

    def revisit(self, player: PlayerInfo, match_id: str, number: int, index: int) -> RevisitOut:
        """A decision of a finished hand reopened as a position, from the person's seat (kept:
        a finished hand does not change)."""
        self._finished(player, match_id, number)  # the player's own, and over
        # Kept per seat: at a table for two each person's decisions are their own, and the
        # check that this one is the asker's (in _position) must not be skipped by the cache.
        seat = self.table.seat_of(player, match_id)  # a table for two: seat 1 is yours too
        key = (match_id, number, index, seat)
        found = self._revisits.get(key)
        if found is None:
            found = self._reopen(player, match_id, number, index, seat)
            self._revisits.put(key, found)
        return found

    def _reopen(self, player: PlayerInfo, match_id: str, number: int, index: int,
                seat: int) -> RevisitOut:
        text, played = self._position(player, match_id, number, index)
        match = Position.from_record(text, hand=number, move=index, seat=seat).match()
        return RevisitOut(
            hand=number,
            index=index,
            turn=played.turn,
            question=(f"Hand {number}, your turn {played.turn}: you chose to {played.words}. "
                      "Play it again with the table's controls; the coach then shows every "
                      "alternative it weighed."),
            played=played.words,
            table=_revisit_table(match, f"revisit-{match_id}-{number}-{index}", 0,
                                 self._level(player, match_id), seat),
        )

    def revisit_answer(
        self, player: PlayerInfo, match_id: str, number: int, index: int, move: str
    ) -> RevisitAnswerOut:
        """Judge a new move at a reopened decision: the coach's remark, what the engine makes
        of it, and the computer's hand (the real hand is over, so nothing is secret). Kept per
        match, hand, decision and move: a finished hand does not change."""
        self._finished(player, match_id, number)  # the player's own, and over
        seat = self.table.seat_of(player, match_id)
        key = (match_id, number, index, seat, Move.parse(move).plain)  # per seat, as above
        found = self._answers.get(key)
        if found is None:
            text, played = self._position(player, match_id, number, index)
            found = self.pool.run(
                _owner(player), _judge_revisit, text, number, index, played, move,
                self.samples, f"revisit-{match_id}-{number}-{index}",
                self._level(player, match_id), seat,
            )
            self._answers.put(key, found)
        return found

    # -----------------------------------------------------------------------------------------

    def _remark(self, owner: str, match_id: str, number: int, index: int, turn: int,
                view: PlayerView, move: str) -> RemarkOut:
        found = self._note(owner, match_id, number, index, turn, view, move)
        return remark_out(number, index, turn, found)

    def _note(self, owner: str, match_id: str, number: int, index: int, turn: int,
              view: PlayerView, move: str) -> Assessment:
        """The kept assessment of a decision, or a new one, assessed (in the coach's pool, for
        ``owner``) and kept. Under the match's coach lock, so two requests (assessing ahead, a
        review) never assess the same decision twice: the second finds the first one's note."""
        with self._lock(match_id):
            note = _kept(self.notes.get(match_id, number), index, move)
            if note is not None:
                return note
            found = self.pool.run(owner, _assess, view, move, self.samples)
            self.notes.put(match_id, number, index, turn, found)
            return found

    def _lock(self, match_id: str) -> threading.Lock:
        with self._locks_lock:
            return self._locks.setdefault(match_id, threading.Lock())

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
    ) -> tuple[str, RemarkOut]:
        """The record of the match up to hand ``number`` (all over), where the decision before
        move ``index`` opens as a :class:`Position`, and the remark on the move played there."""
        hand = self._finished(player, match_id, number)
        for i, turn, view, move in decisions_of(hand, HUMAN):
            if i == index:
                played = self._remark(_owner(player), match_id, number, i, turn, view, move)
                break
        else:
            raise NoSuchDecision(f"Hand {number} has no decision of yours before move {index}.")
        # The record of the first ``number`` hands, all over: the table refuses a record
        # that would list the deck of a hand still being played.
        return self.table.record(player, match_id, hands=number), played

    def _level(self, player: PlayerInfo, match_id: str) -> str:
        info = self.table.store.get_match(player.id, match_id)
        return info.level if info is not None else "revisit"


def _revisit_table(
    match: Match, table_id: str, version: int, level: str, seat: int = HUMAN
) -> MatchState:
    """A reopened decision's table from the person's seat, in the shape the page draws."""
    view = match.view(seat)
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
        score=score_out(match, seat),
        computer_moves=[],
        meta=MatchMeta(sealed=None, situation=None, revisit=table_id),
        coach=None,
    )


def _owner(player: PlayerInfo) -> str:
    return f"player:{player.id}"


# The coach's work in its pool: module functions, so a worker process can run them. ---------


def _assess(view: PlayerView, move: str, samples: int) -> Assessment:
    return Coach(seed=COACH_SEED, samples=samples).assess(view, move)


def _assess_lesson(situation_id: str, move: str) -> Assessment:
    from .learn_routes import find_situation

    return lesson_coach().assess(find_situation(situation_id).position.view(), move)


def _judge_revisit(text: str, number: int, index: int, played: RemarkOut, move: str,
                   samples: int, table_id: str, level: str, seat: int) -> RevisitAnswerOut:
    """A new move at the decision before move ``index`` of hand ``number`` of the record
    ``text`` from ``seat``, judged (see :meth:`CoachService.revisit_answer`)."""
    position = Position.from_record(text, hand=number, move=index, seat=seat)
    outcome = position.play([move])
    if not outcome.legal:
        raise IllegalMoveError(outcome.error or f"{move!r} is not legal here")
    found = _assess(position.view(), outcome.moves[0], samples)
    table = _revisit_table(outcome.match, table_id, 1, level, seat)
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


def _kept(
    known: dict[int, tuple[int, Assessment]], index: int, move: str
) -> Assessment | None:
    """The kept assessment of the decision before move ``index`` when it judged ``move``."""
    note = known.get(index)
    if note is None or Move.parse(note[1].move).plain != Move.parse(move).plain:
        return None
    return note[1]


def _review_out(number: int, found: list[tuple[int, int, Assessment]]) -> ReviewOut:
    """``(index, turn, assessment)`` of each decision, in the order played, as a review."""
    review = HandReview(number, HUMAN, tuple(Decision(number, i, t, a) for i, t, a in found))
    return ReviewOut(
        hand=number,
        summary=review.summary(),
        counts=review.counts,
        decisions=[remark_out(number, d.index, d.turn, d.assessment) for d in review.decisions],
        costliest=[remark_out(number, d.index, d.turn, d.assessment)
                   for d in review.costliest()],
    )


def _line(data: dict[str, object]) -> str:
    return json.dumps(data, ensure_ascii=False) + "\n"
