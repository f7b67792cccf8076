"""``hard``: a strong rule-based player that reads the opponent from public play.

How it decides (every number below is a field of :class:`Style`, tuned by self-play):

* **What it knows.** An :class:`~ginrummy.players.knowledge.OpponentModel` built from the
  view: the cards the opponent picked up (certain), what it threw away and declined
  (evidence against the cards that meld with those), and the unseen cards. Each unseen card
  gets a probability of being in the opponent's hand; one minus that is the chance it is in
  the stock.
* **Discard.** Each legal discard is scored as ``deadwood now + outlook weight x expected
  deadwood after the next stock draw + danger cost x probability the opponent can use the
  card``. The outlook term is the hand's flexibility: it is low when many unseen cards would
  complete or extend a meld. Its weight fades as the stock runs down (late in the hand only
  the deadwood held when someone knocks counts), and the danger cost rises.
* **Draw.** Takes the top discard only when it clearly helps: it lets the player go gin or
  knock now, or the deadwood after taking it (and discarding the best other card) beats the
  expected deadwood of a stock draw by a margin. Taking tells the opponent something, so a
  tie goes to the stock.
* **Knock.** Gin and big gin always. Otherwise it estimates the opponent's deadwood after
  layoffs by sampling opponent hands from the model, each "developed" the way a real hand is
  (drawn from more cards than it holds, keeping the best), and knocks when the expected gain
  is positive and the undercut risk acceptable; when the stock is about to run out any safe
  knock beats a cancelled hand. With ``match_equity`` (a trial setting, off) the knock's
  sampled outcomes and playing on are weighed as chances of winning the match
  (:mod:`.equity`) instead of points.
* **Knock arrangement.** Among the minimum-deadwood arrangements it declares the one whose
  layoff spots the opponent is least likely to hold (weighted by their points).

``medium`` is the same player with the opponent model switched off and knocking at the first
chance (:data:`MEDIUM`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from ..engine.cards import CARD_VALUE
from ..engine.melds import all_arrangements, discard_deadwoods, layoff_deadwood, min_deadwood
from ..engine.move import Move
from ..engine.player import Player
from ..engine.settle import default_knock_arrangement
from ..engine.view import PlayerView
from .equity import equity_after, match_equity, play_on_mean, play_on_points
from .knowledge import Evidence, OpponentModel, draw_outlook, feeds_known_meld, opponent_turns
from .worlds import sample_developed_hands

__all__ = [
    "HardPlayer",
    "MediumPlayer",
    "Style",
    "HARD",
    "MEDIUM",
    "KnockPlan",
    "lowering_discards",
]



@dataclass(frozen=True)
class Style:
    """The knobs of the rule-based player."""

    #: Weight of the expected deadwood after the next draw, at the start of the hand.
    outlook_weight: float = 3.0
    #: How much of the outlook weight is left when the stock is nearly empty.
    outlook_late: float = 0.3
    #: Points charged for a discard the opponent surely can use (scaled by the danger).
    danger_cost: float = 3.0
    #: Extra danger cost when the stock is nearly empty.
    danger_late: float = 6.0
    #: Take the top discard when it beats a stock draw by more than this (deadwood points).
    take_margin: float = 1.0
    #: Use the opponent model (off: every unseen card equally likely, no danger).
    read_opponent: bool = True
    #: Knock at the first chance (``medium``); off: weigh the undercut risk.
    knock_at_once: bool = False
    #: Knock only when the estimated undercut probability is below this.
    max_undercut: float = 0.3
    #: Knock only when the expected points of the knock are at least this.
    min_knock_gain: float = 18.0
    #: Weigh a knock by the chance of winning the match (:mod:`.equity`) instead of points:
    #: the sampled outcomes of the knock against playing on (worth ``min_knock_gain`` points
    #: on average at an even score, spread as :func:`~.equity.play_on_points`).
    match_equity: bool = False
    #: Opponent hands sampled to estimate its deadwood.
    samples: int = 24
    #: How many extra cards a sampled opponent hand is developed from, per opponent turn.
    develop_per_turn: float = 2.0
    #: Evidence factors of the opponent model.
    evidence: Evidence = field(default_factory=Evidence)


HARD = Style()
MEDIUM = Style(read_opponent=False, knock_at_once=True, danger_cost=0.0, danger_late=0.0)


@dataclass(frozen=True)
class KnockPlan:
    """A knock the player could make: discard, deadwood and the melds it would declare."""

    card: int
    rest: int
    deadwood: int
    melds: tuple[int, ...]
    exposure: float


class HardPlayer(Player):
    """Rule-based play on top of an opponent model (see the module docstring)."""

    name = "hard"
    style: Style = HARD

    def __init__(self, seed: int | str | None = None, style: Style | None = None) -> None:
        super().__init__(seed)
        if style is not None:
            self.style = style

    # -------------------------------------------------------------------------------------
    # The decision.

    def decide(self, view: PlayerView) -> str:
        phase = view.phase
        if phase in ("discard", "last_chance_knock"):
            return self.discard(view, self.model(view))
        if phase in ("opening", "draw"):
            take = self.wants_top(view, self.model(view))
            if take:
                return "take"
            return "pass" if phase == "opening" else "draw"
        if phase == "last_chance":
            if "take" in view.legal_moves and self.wants_last_chance(view, self.model(view)):
                return "take"
            return "pass"
        return "draw"

    def model(self, view: PlayerView) -> OpponentModel:
        if self.style.read_opponent:
            return OpponentModel(view, self.style.evidence)
        return OpponentModel(view, _NO_EVIDENCE)

    # -------------------------------------------------------------------------------------
    # Drawing.

    def wants_top(self, view: PlayerView, model: OpponentModel) -> bool:
        """Take the top discard (or the upcard) only when it clearly helps."""
        top = int(view.discard_pile[-1])
        mask = view.hand_mask
        with_top = mask | 1 << top
        after = [dw for c, dw in discard_deadwoods(with_top) if c != top]
        best = min(after)
        if best == 0:
            return True  # gin (or better) at once
        now = min_deadwood(mask)
        if best >= now:
            return False
        if (
            best <= view.knock_limit
            and self.knock_gain(view, model, best, with_top, top) is not None
        ):
            return True
        stock = model.stock_weights()
        if not stock:
            return True
        outlook = draw_outlook(mask, stock)
        return best + self.style.take_margin < outlook

    def wants_last_chance(self, view: PlayerView, model: OpponentModel) -> bool:
        """The last discard may be taken only to knock: do it when the knock gains."""
        top = int(view.discard_pile[-1])
        with_top = view.hand_mask | 1 << top
        best = min(dw for c, dw in discard_deadwoods(with_top) if c != top)
        if best == 0:
            return True
        gain = self._sampled_gain(view, model, best, with_top, top, final=True)
        return gain > 0.0

    # -------------------------------------------------------------------------------------
    # Discarding and knocking.

    def discard(self, view: PlayerView, model: OpponentModel) -> str:
        legal = view.legal_moves
        if legal[-1] == "big gin":
            return "big gin"
        mask = view.hand_mask
        taken = -1 if view.taken is None else int(view.taken)
        options = lowering_discards(mask, taken, lower=view.phase == "discard")
        limit = view.knock_limit
        knockable = [(c, dw) for c, dw in options if dw <= limit]
        must_knock = view.phase == "last_chance_knock"
        if knockable:
            least = min(dw for _, dw in knockable)
            if least == 0 or must_knock or self.should_knock(view, model, least, mask, taken):
                plan = self.knock_plan(model, mask, [c for c, dw in knockable if dw == least])
                return self.knock_text(plan)
        return Move.discard(self.choose_discard(view, model, options))

    def choose_discard(
        self, view: PlayerView, model: OpponentModel, options: list[tuple[int, int]]
    ) -> int:
        """The discard with the lowest score (deadwood, outlook, danger)."""
        return self.rank_discards(view, model, options)[0][1]

    def rank_discards(
        self, view: PlayerView, model: OpponentModel, options: list[tuple[int, int]]
    ) -> list[tuple[float, int]]:
        """``(score, card)`` for the discards in ``options`` (``(card, deadwood)`` pairs), best
        (lowest) first; discards far worse in deadwood than the best are left out."""
        style = self.style
        late = _lateness(view.stock_count)
        w_out = style.outlook_weight * (1.0 - (1.0 - style.outlook_late) * late)
        w_danger = style.danger_cost + style.danger_late * late
        stock = model.stock_weights() if w_out > 0.0 else []
        mask = view.hand_mask
        known = model.known
        if known:
            # Never hand the opponent a card it surely uses when an equally good discard is
            # safe: a feeding discard stays only if it leaves strictly less deadwood.
            safe = [dw for c, dw in options if not feeds_known_meld(c, known)]
            if safe:
                floor = min(safe)
                options = [(c, dw) for c, dw in options
                           if dw < floor or not feeds_known_meld(c, known)]
        least = min(dw for _, dw in options)
        scored: list[tuple[float, int]] = []
        for card, dw in options:
            if dw > least + 15:
                continue
            rest = mask & ~(1 << card)
            score = float(dw)
            if stock:
                score += w_out * draw_outlook(rest, stock)
            if w_danger:
                score += w_danger * model.danger(card)
            # Tie-break: shed the higher card, then the lower card index (deterministic).
            score -= CARD_VALUE[card] * 1e-3
            scored.append((score, card))
        scored.sort()
        return scored

    def should_knock(self, view: PlayerView, model: OpponentModel, deadwood: int,
                     mask: int, taken: int) -> bool:
        if self.style.knock_at_once:
            return True
        return self.knock_gain(view, model, deadwood, mask, taken) is not None

    def knock_gain(self, view: PlayerView, model: OpponentModel, deadwood: int,
                   mask: int, taken: int) -> float | None:
        """Expected points of knocking with ``deadwood`` from the 11 cards ``mask`` (never
        discarding ``taken``), or ``None`` when the player would rather play on."""
        if deadwood == 0:
            return 99.0
        if self.style.knock_at_once:
            return 0.0
        final = view.stock_count <= 3
        outcomes = self._sampled_outcomes(view, model, deadwood, mask, taken, final=final)
        if outcomes is None:
            return None
        gain = sum(outcomes) / len(outcomes) if outcomes else 0.0
        if self.style.match_equity and outcomes and not view.rules.hollywood:
            return gain if self._knock_equity(view, outcomes, final) else None
        if (final and gain > 0.0) or gain >= self.style.min_knock_gain:
            return gain
        return None

    def _knock_equity(self, view: PlayerView, outcomes: list[float], final: bool) -> bool:
        """Whether the knock's outcomes (points, signed) are worth more of the match than
        playing on (or, when the stock is about to run out, than a cancelled hand)."""
        mine, theirs = view.scores[view.seat], view.scores[1 - view.seat]
        need, opponent_need = view.rules.target - mine, view.rules.target - theirs
        scale = view.multiplier
        knock = sum(equity_after(need, opponent_need, round(p * scale))
                    for p in outcomes) / len(outcomes)
        if final:
            return knock > match_equity(need, opponent_need)
        shift = self.style.min_knock_gain - play_on_mean()
        on = sum(q * equity_after(need, opponent_need, round((p + shift) * scale))
                 for p, q in play_on_points())
        return knock >= on

    def _sampled_gain(self, view: PlayerView, model: OpponentModel, deadwood: int, mask: int,
                      taken: int, *, final: bool) -> float:
        """Average points of a knock with the best arrangement against sampled opponent
        hands (negative when undercuts dominate); ``-inf`` when the risk is too high."""
        outcomes = self._sampled_outcomes(view, model, deadwood, mask, taken, final=final)
        if outcomes is None:
            return float("-inf")
        return sum(outcomes) / len(outcomes) if outcomes else 0.0

    def _sampled_outcomes(self, view: PlayerView, model: OpponentModel, deadwood: int,
                          mask: int, taken: int, *, final: bool) -> list[float] | None:
        """The points of a knock with the best arrangement against each sampled opponent
        hand (negative: an undercut); ``None`` when the undercut risk is too high."""
        rules = view.rules
        options = [c for c, dw in discard_deadwoods(mask) if dw == deadwood and c != taken]
        plan = self.knock_plan(model, mask, options)
        rng = random.Random(self.rng.getrandbits(64))
        hands = sample_developed_hands(model, rng, self.style.samples,
                                       extra=self._extra_cards(view))
        outcomes: list[float] = []
        undercuts = 0
        for opp in hands:
            dw = layoff_deadwood(plan.melds, opp)
            if dw <= deadwood:
                undercuts += 1
                outcomes.append(-(deadwood - dw + rules.undercut_bonus))
            else:
                outcomes.append(dw - deadwood)
        if hands and not final and undercuts > self.style.max_undercut * len(hands):
            return None
        return outcomes

    def _extra_cards(self, view: PlayerView) -> int:
        return round(self.style.develop_per_turn * opponent_turns(view))

    def knock_plan(self, model: OpponentModel, mask: int, cards: list[int]) -> KnockPlan:
        """Among the given knock discards, the arrangement with the least expected layoff."""
        best: KnockPlan | None = None
        for card in cards:
            rest = mask & ~(1 << card)
            for arrangement in all_arrangements(rest):
                exposure = model.layoff_exposure(arrangement.meld_masks, rest)
                if best is None or exposure < best.exposure - 1e-9:
                    best = KnockPlan(
                        card, rest, arrangement.deadwood, arrangement.meld_masks, exposure
                    )
        assert best is not None
        return best

    def knock_text(self, plan: KnockPlan) -> str:
        rest_default = default_knock_arrangement(plan.rest)
        if plan.deadwood == 0 or tuple(rest_default.meld_masks) == plan.melds:
            return Move.knock(plan.card)
        return Move.knock(plan.card, plan.melds)


class MediumPlayer(HardPlayer):
    """``medium``: the rule-based player without the opponent model, knocking at once."""

    name = "medium"
    style = MEDIUM


_NO_EVIDENCE = Evidence(1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0)


def lowering_discards(mask: int, taken: int, *, lower: bool = True) -> list[tuple[int, int]]:
    """``(card, deadwood after discarding it)`` for the legal discards of ``mask``.

    After taking ``taken`` from the discard pile only the discards that leave less deadwood
    than before the take are offered (when there are any): a player whose every take lowers
    its deadwood can never go round in circles with its opponent through the discard pile.
    ``lower=False`` offers every legal discard.
    """
    options = [(c, dw) for c, dw in discard_deadwoods(mask) if c != taken]
    if taken >= 0 and lower:
        before = min_deadwood(mask & ~(1 << taken))
        lowering = [(c, dw) for c, dw in options if dw < before]
        if lowering:
            return lowering
    return options


def _lateness(stock_count: int) -> float:
    """0 at the deal (31 cards in the stock), 1 when the stock is about to run out."""
    return min(1.0, max(0.0, (31 - stock_count) / 27))
