"""The coach: rates one decision of a seat against the cards that seat cannot see.

:meth:`Coach.assess` takes the seat's :class:`~ginrummy.engine.view.PlayerView` *before* its move
and the move it made, and answers with an :class:`Assessment`: what kind of decision it was, every
alternative worth showing with its value, the best move, how much the move gave up, a rating
(good, inaccuracy or mistake) and one sentence saying why (:mod:`.reasons`).

How a move is valued (the whole algorithm is in ``docs/coach.md``):

1. **Worlds.** ``samples`` guesses of the hidden cards, each consistent with the view: the
   opponent's hand drawn from the players' opponent model
   (:class:`~ginrummy.players.knowledge.OpponentModel`: the cards it picked up are certain,
   cards near what it threw away or passed are less likely), developed by one extra card per
   opponent turn the way a hand in play is, and the rest of the unseen cards shuffled into the
   stock (:meth:`ginrummy.engine.hand.Hand.determinize`).
2. **Playouts.** Every candidate move is played in every world, then the hand is played to its
   end by :mod:`.playout`'s policy for both seats and scored by the engine. The same worlds
   serve every candidate (common random numbers), so the differences between moves are far
   less noisy than the values themselves.
3. **Value** of a move: its average points for the seat over the worlds (negative when the
   opponent scores), with the share of worlds it wins. **Loss**: the best value minus the
   move's, with the standard error of those paired differences as the noise.
4. **Rating**: the loss less one standard error (benefit of the doubt) is compared with
   :data:`INACCURACY` and :data:`MISTAKE`. Some cases are decided exactly, without the
   thresholds: a move with no alternative is good; a missed gin (or big gin) is a mistake by
   definition; so is throwing a card that completes a meld the opponent is known to hold when
   a safe card leaves as little deadwood (and the playouts agree it costs something).

Everything is a function of the view and the coach's seed: the worlds come from a random
generator seeded with the seed and a digest of the view's public facts, so the same view gets
the same assessment whatever the hidden cards really are (the fairness tests check this).
"""

from __future__ import annotations

import hashlib
import random
import time
from collections import OrderedDict
from collections.abc import Mapping, Sequence

from ..engine.cards import CARD_VALUE
from ..engine.errors import IllegalMoveError
from ..engine.hand import Hand
from ..engine.melds import discard_deadwoods, mask_value, min_deadwood
from ..engine.move import BIG_GIN, DISCARD, KNOCK, InvalidMoveError, Move
from ..engine.view import PlayerView
from ..players.knowledge import OpponentModel, feeds_known_meld
from ..players.search import MoveValues, mean, paired_difference, value_moves
from ..players.worlds import sample_worlds
from .playout import CoachPolicy
from .reasons import reason_for
from .verdict import RATINGS, Alternative, Assessment, DecisionKind, Rating

__all__ = [
    "Alternative",
    "Assessment",
    "Coach",
    "decision_kind",
    "DecisionKind",
    "DEFAULT_SAMPLES",
    "INACCURACY",
    "lesson_coach",
    "LESSON_SAMPLES",
    "MISTAKE",
    "move_deadwood",
    "move_words",
    "Rating",
    "RATINGS",
    "view_key",
]

#: Expected points given up (after the noise allowance) from which a move is an inaccuracy.
INACCURACY = 2.0
#: Expected points given up (after the noise allowance) from which a move is a mistake.
MISTAKE = 6.0
#: Worlds per assessment by default (see ``docs/coach.md`` for the time this takes).
DEFAULT_SAMPLES = 160
#: Worlds per assessment when judging the sample situations' lessons (more than at the table:
#: the verdict on a lesson should not hang on the coach's noise).
LESSON_SAMPLES = 300
#: At a discard, at most this many discards are valued (the least deadwood first), besides
#: every knock and the move itself; :meth:`Coach.rate` values every legal move.
MAX_DISCARDS = 6
#: Discards leaving more than this much deadwood above the least are not worth showing.
DISCARD_SPREAD = 12



def decision_kind(view: PlayerView) -> DecisionKind:
    """What kind of decision the view's seat faces."""
    legal = view.legal_moves
    if len(legal) <= 1:
        return "forced"
    phase = view.phase
    if phase == "opening":
        return "opening"
    if phase == "draw":
        return "draw"
    if phase == "last_chance":
        return "last_chance"
    if phase == "last_chance_knock" or any(Move.parse(m).goes_out for m in legal):
        return "knock"
    return "discard"


def _card_of(move: str) -> int:
    card = Move.parse(move).card
    assert card is not None, f"{move!r} names no card"
    return int(card)


def move_deadwood(view: PlayerView, move: str) -> int | None:
    """The seat's least deadwood after a discard or knock (``None`` for other moves); for a
    knock with declared melds, the declared count."""
    mv = Move.parse(move)
    if mv.code == BIG_GIN:
        return 0
    if mv.card is None:
        return None
    rest = view.hand_mask & ~(1 << int(mv.card))
    if mv.meld_masks is not None:
        melded = 0
        for m in mv.meld_masks:
            melded |= m
        return mask_value(rest & ~melded)
    return min_deadwood(rest)


def move_words(view: PlayerView, move: str) -> str:
    """A move in words from the seat's side (:meth:`ginrummy.engine.move.Move.words`, with the top
    discard, the phase and a knock's deadwood read from the view): ``discard the 7♦``,
    ``knock with 6, discarding the 7♦``, ``take the 9♠``, ``draw from the stock``. A knock's
    declared melds are not read out: the deadwood count says what they leave."""
    mv = Move.parse(move)
    return mv.plain.words(
        top=view.top_discard,
        deadwood=move_deadwood(view, mv) if mv.code == KNOCK else None,
        last_chance=view.phase == "last_chance",
    )


def _is_gin(view: PlayerView, move: str) -> bool:
    mv = Move.parse(move)
    return mv.code == BIG_GIN or (mv.code == KNOCK and move_deadwood(view, mv) == 0)


def _take_gives_gin(view: PlayerView) -> bool:
    """True when taking the top discard lets the seat go gin (or big gin) at once."""
    if "take" not in view.legal_moves or not view.discard_pile:
        return False
    top = int(view.discard_pile[-1])
    with_top = view.hand_mask | 1 << top
    if view.rules.big_gin and min_deadwood(with_top) == 0:
        return True
    return min(dw for c, dw in discard_deadwoods(with_top) if c != top) == 0


def view_key(view: PlayerView) -> str:
    """A digest of the view's facts that matter to one hand (not the match's scores): the
    coach's randomness for this view is seeded from it, and caches are keyed by it."""
    parts = (
        view.seat, view.rules.describe(), view.rules.hand_repr(), view.dealer, view.phase,
        view.to_play, view.hand_mask, tuple(int(c) for c in view.discard_pile),
        view.stock_count, int(view.upcard), view.knock_limit, view.multiplier,
        None if view.taken is None else int(view.taken),
        None if view.drawn is None else int(view.drawn),
        view.opponent_card_count, view.opponent_known_mask,
        tuple((e.seat, e.kind, None if e.card is None else int(e.card)) for e in view.history),
        view.legal_moves,
    )
    return hashlib.sha256(repr(parts).encode()).hexdigest()


class Coach:
    """Rates decisions from a seat's view only (see the module docstring).

    ``seed``: the coach's randomness (with the view's digest); ``samples``: worlds per
    assessment; ``time_budget``: optional seconds after which no more worlds are started (at
    least ``min_samples`` are always played; a budget makes the result depend on the machine's
    speed, so the default is none); ``policy``: how the playouts play; ``develop_per_turn``:
    extra cards a guessed opponent hand is developed from, per opponent turn.

    A coach keeps small caches (assessments, and the values of moves already played out in
    a view's worlds); use one per thread.
    """

    def __init__(
        self,
        seed: int | str = 0,
        *,
        samples: int = DEFAULT_SAMPLES,
        time_budget: float | None = None,
        min_samples: int = 16,
        policy: CoachPolicy | None = None,
        develop_per_turn: float = 1.0,
        cache_size: int = 512,
    ) -> None:
        if samples < 1:
            raise ValueError(f"samples must be at least 1, not {samples}")
        self.seed = seed
        self.samples = samples
        self.time_budget = time_budget
        self.min_samples = max(1, min(min_samples, samples))
        self.policy = policy or CoachPolicy()
        self.develop_per_turn = develop_per_turn
        self._cache: OrderedDict[tuple[str, str], Assessment] = OrderedDict()
        self._cache_size = cache_size
        self._valued: OrderedDict[str, MoveValues] = OrderedDict()

    # -----------------------------------------------------------------------------------------
    # Public API.

    def assess(self, view: PlayerView, move: str) -> Assessment:
        """Judge ``move`` made by the view's seat at the position the view describes.

        Raises :class:`~ginrummy.engine.errors.IllegalMoveError` when it is not the seat's turn or
        the move is not legal there.
        """
        if not isinstance(view, PlayerView):
            raise TypeError(f"the coach judges from a PlayerView, not a {type(view).__name__}")
        if not view.legal_moves:
            raise IllegalMoveError("it is not this seat's turn: there is no decision to judge")
        move = self._legal_form(view, move)
        key = (view_key(view), move)
        hit = self._cache.get(key)
        if hit is not None:
            self._cache.move_to_end(key)
            return hit
        found = self._assess(view, move)
        self._cache[key] = found
        while len(self._cache) > self._cache_size:
            self._cache.popitem(last=False)
        return found

    def rate(self, view: PlayerView) -> dict[str, float]:
        """Every legal move's value (expected points for the seat) over the same worlds; what
        :func:`ginrummy.lessons.coach_check` asks of a coach."""
        legal = list(view.legal_moves)
        if len(legal) == 1:
            return {legal[0]: 0.0}
        valued = self._value(view, legal)
        return {m: mean(valued.points[m]) for m in legal}

    # -----------------------------------------------------------------------------------------
    # Inside.

    @staticmethod
    def _legal_form(view: PlayerView, move: str) -> str:
        try:
            mv = Move.parse(move)
        except InvalidMoveError:
            mv = None
        if mv is not None and mv.plain in view.legal_moves:
            return str(mv)
        raise IllegalMoveError(
            f"{move!r} is not a legal move here; legal: {', '.join(view.legal_moves)}"
        )

    def _candidates(self, view: PlayerView, move: str) -> list[str]:
        legal = list(view.legal_moves)
        if view.phase not in ("discard", "last_chance_knock"):
            out = legal
        else:
            out = [m for m in legal if Move.parse(m).goes_out]
            taken = -1 if view.taken is None else int(view.taken)
            options = sorted(
                ((dw, -CARD_VALUE[c], c) for c, dw in discard_deadwoods(view.hand_mask)
                 if c != taken),
            )
            if options and any(Move.parse(m).code == DISCARD for m in legal):
                least = options[0][0]
                picked = [c for dw, _, c in options if dw <= least + DISCARD_SPREAD]
                discards = {Move.discard(c) for c in picked[:MAX_DISCARDS]}
                out += [m for m in legal if m in discards]
        if move not in out:
            out.append(move)
        return out

    def _rng(self, view: PlayerView) -> random.Random:
        return random.Random(f"{self.seed}/{view_key(view)}")

    def _worlds(self, view: PlayerView, rng: random.Random) -> list[Hand]:
        return sample_worlds(view, OpponentModel(view), rng, self.samples,
                             develop_per_turn=self.develop_per_turn)

    def _value(self, view: PlayerView, moves: Sequence[str]) -> MoveValues:
        """Every move's points in every world. Without a time budget the worlds of a view are
        always the same, so moves already valued for this view are reused, not played again."""
        key = view_key(view)
        known = self._valued.get(key) if self.time_budget is None else None
        missing = [m for m in moves if known is None or m not in known.points]
        if known is not None and not missing:
            self._valued.move_to_end(key)
            return known
        fresh = self._play_out(view, missing)
        if known is not None:
            known.update(fresh)
            return known
        if self.time_budget is None:
            self._valued[key] = fresh
            while len(self._valued) > 64:
                self._valued.popitem(last=False)
        return fresh

    def _play_out(self, view: PlayerView, moves: Sequence[str]) -> MoveValues:
        deadline = None if self.time_budget is None else time.perf_counter() + self.time_budget
        worlds = self._worlds(view, self._rng(view))
        return value_moves(worlds, view.seat, moves, self.policy, deadline=deadline,
                           min_worlds=self.min_samples)

    def _assess(self, view: PlayerView, move: str) -> Assessment:
        kind = decision_kind(view)
        if kind == "forced":
            alt = Alternative(move, move_words(view, move), 0.0, 0.0, move_deadwood(view, move))
            return Assessment(kind, move, "good", "There was nothing else to do.", move, 0.0,
                              0.0, (alt,), 0, exact=True)
        exact: Rating | None = None
        gins = [m for m in view.legal_moves if _is_gin(view, m)]
        if gins:
            best_gin = "big gin" if "big gin" in gins else gins[0]
            if _is_gin(view, move) and (move == "big gin" or best_gin != "big gin"):
                exact, candidates = "good", [move]
            else:
                exact, candidates = "mistake", [best_gin, move]
        elif _take_gives_gin(view):
            exact = "good" if move == "take" else "mistake"
            candidates = ["take"] if move == "take" else ["take", move]
        else:
            candidates = self._candidates(view, move)
        valued = self._value(view, candidates)
        n = max(1, valued.worlds)
        means = {m: mean(valued.points[m]) for m in candidates}
        if exact is not None:
            best = move if exact == "good" else candidates[0]
        else:
            best = max(candidates, key=lambda m: (means[m], m == move))
            safe = _safe_instead(view, move, candidates, means)
            if safe is not None:
                exact = "mistake"
                if Move.parse(best).code != DISCARD or feeds_known_meld(
                    _card_of(best), view.opponent_known_mask
                ):
                    best = safe
        given_up = paired_difference(valued.points[best], valued.points[move])
        loss = max(0.0, given_up.mean)
        noise = given_up.stderr
        rating: Rating = exact if exact is not None else _rating(loss - noise)
        alternatives = tuple(
            Alternative(
                move=m,
                words=move_words(view, m),
                value=round(means[m], 2),
                win_chance=round(valued.wins[m] / n, 3),
                deadwood=move_deadwood(view, m),
                undercut_chance=(round(valued.undercuts[m] / n, 3)
                                 if Move.parse(m).code == KNOCK else None),
            )
            for m in sorted(candidates, key=lambda m: (m != best, -means[m]))
        )
        reason = reason_for(view, kind, move, best, rating, alternatives)
        return Assessment(
            kind=kind,
            move=move,
            rating=rating,
            reason=reason,
            best=best,
            loss=round(loss, 2),
            noise=round(noise, 2),
            alternatives=alternatives,
            worlds=valued.worlds,
            exact=exact is not None,
        )


def lesson_coach() -> Coach:
    """The coach that judges the sample situations: the one their tests check the taught
    answers with, and the one the Learn panel quotes."""
    return Coach(seed=0, samples=LESSON_SAMPLES)


def _rating(rated_loss: float) -> Rating:
    if rated_loss >= MISTAKE:
        return "mistake"
    if rated_loss >= INACCURACY:
        return "inaccuracy"
    return "good"


def _safe_instead(
    view: PlayerView, move: str, candidates: Sequence[str], means: Mapping[str, float]
) -> str | None:
    """When ``move`` throws a card that completes a meld the opponent is known to hold (it
    picked the cards up and kept them), the best valued discard that feeds nothing known and
    leaves no more deadwood; ``None`` when the move feeds nothing known or there is no such
    discard. Such a move is a mistake by definition."""
    if Move.parse(move).code != DISCARD:
        return None
    known = view.opponent_known_mask
    if not feeds_known_meld(_card_of(move), known):
        return None
    mine = move_deadwood(view, move)
    assert mine is not None
    safe = [
        m for m in candidates
        if Move.parse(m).code == DISCARD and not feeds_known_meld(_card_of(m), known)
        and (move_deadwood(view, m) or 0) <= mine
    ]
    if not safe:
        return None
    return max(safe, key=lambda m: means[m])
