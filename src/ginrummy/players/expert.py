"""``expert``: Monte Carlo search over the cards it cannot see, on top of ``hard``.

At each decision with a real choice the player:

1. lists a few candidate moves, ranked by ``hard``'s rules: take or not at a draw (a take is
   considered only when it lowers the deadwood, and one ``hard`` makes against a quick knocker
   is made without search); the best few discards by ``hard``'s score at a discard
   (``max_candidates``, three; ``at_once_candidates``, off by default, another number against
   a quick knocker: eleven is every discard). Against an opponent that knocks at its first
   chance, whether to knock is ``hard``'s decision (its sampled estimate of the undercut
   risk): when ``hard`` would knock the expert knocks, otherwise knocks are not searched.
   Against one that holds out (``patient_search_knocks``, on by default) the best knock is a
   candidate beside the best discards, ``hard``'s choice between them first
   (``search_knocks=True``: against every opponent);
2. samples *worlds*: guesses of the opponent's hand drawn from ``hard``'s opponent model, each
   developed by one extra unseen card per opponent turn (in and out again if no better: a hand
   that has been played for a while is better than a fresh deal; one card per turn matches the
   real deadwood of ``hard``'s hands turn by turn), and a random order of the rest of the
   unseen cards as the stock, built with :meth:`ginrummy.engine.hand.Hand.determinize`. Off by
   default (trials of issue 14 found no gain, docs/notes/players-lab.md): with a
   :class:`~.knowledge.Fit` for the opponent's style (``quick_fit``, ``patient_fit``, e.g.
   :data:`~.knowledge.QUICK_FIT`), the guesses are tested against the opponent's moves this
   hand (:class:`~.knowledge.PastPlay`: would it have passed that card, thrown that one,
   played on instead of knocking, holding this hand?) and kept in proportion to how well they
   fit; with ``posterior_model`` as well, the guesses are made first and ``hard``'s ranking of
   the candidates reads its odds of each card and the danger of each discard from them
   (:meth:`~.knowledge.OpponentModel.blended`);
3. plays every candidate in every world and the hand out to its end with a fast greedy policy
   for both seats (:mod:`ginrummy.players.rollout`; the expert's seat holds out for gin, the
   opponent holds out in half the worlds and knocks at once in the others, except that a
   world whose opponent hand could already have knocked, after the opponent has had a turn,
   is one where it holds out: an opponent that knocks at once would not be holding it), scoring
   the ending with the engine's own settlement (layoffs, undercuts and bonuses included);
4. keeps ``hard``'s favourite unless another candidate beats it by more than ``confidence``
   (default 1.5) standard errors of the paired differences (every world is shared by all
   candidates): the search overrules the rules only when the evidence is clear, since a
   noisy overruling costs points against every opponent. While a rival beats the favourite
   on average but not by that margin, another ``samples`` worlds are played, up to
   ``max_samples`` (default 400). The points compared are the hand's; ``loss_weight`` (a trial
   setting, 1 by default) counts the opponent's that many times over.

The opponent's style is read from the match's finished hands (``view.earlier_hands``, every
card shown once a hand is over, :func:`~.knowledge.knock_chances`): an opponent that let one in
ten or more of its chances to knock (without gin) go by holds out; one that took at least
``at_once_after`` and every one (nine in ten) knocks at its first chance; before either is
seen the player assumes the latter (``assume_at_once``). Against a quick knocker every world's
opponent knocks at its first chance in the playouts, and with that picture of the opponent
right the search is trusted further: ``at_once_confidence`` (default 1) standard errors, up to
``at_once_samples`` worlds. Against a player that holds out, the mixed styles and the test of
step 4 stand (with the mix the search misjudges a quick knocker, and trusting it further lost
points against one).

Gin, big gin, a take that goes gin and forced moves are played without search, and so is a take of
the top discard that ``hard`` makes against a quick knocker (``at_once_search_takes`` searches it
against a stock draw instead). The budget is a number of worlds (``samples``), so a decision is a
function of the view and the player's seeded RNG only; ``time_limit`` optionally stops early (then a
busy machine can change a decision; a search stopped after one world keeps ``hard``'s favourite).
All randomness, the worlds included, comes from the player's own RNG."""

from __future__ import annotations

import random
import time

from ..engine.hand import Hand
from ..engine.melds import discard_deadwoods, min_deadwood
from ..engine.move import Move
from ..engine.player import Player
from ..engine.view import PlayerView
from .equity import equity_after
from .hard import HARD, HardPlayer, Style, lowering_discards
from .knowledge import Fit, OpponentModel, knock_chances, opponent_turns
from .rollout import PlayoutPolicy
from .search import MoveValues, paired_difference, value_moves
from .worlds import build_worlds, guess_hands

__all__ = ["ExpertPlayer", "DEFAULT_SAMPLES"]

#: Worlds per decision by default.
DEFAULT_SAMPLES = 100

#: Knock thresholds in the playouts: the expert's own seat holds out for gin; the opponent,
#: whose style the view cannot tell, holds out for gin in half the worlds and knocks as soon
#: as it can in the other half.
OWN_THRESHOLD = 0
OPPONENT_THRESHOLDS = (0, 10)


class ExpertPlayer(Player):
    """Determinized Monte Carlo over ``hard``'s candidate moves (see the module docstring)."""

    name = "expert"

    def __init__(
        self,
        seed: int | str | None = None,
        *,
        samples: int = DEFAULT_SAMPLES,
        max_candidates: int = 3,
        time_limit: float | None = None,
        style: Style = HARD,
        own_threshold: int = OWN_THRESHOLD,
        opponent_thresholds: tuple[int, ...] = OPPONENT_THRESHOLDS,
        develop_per_turn: float = 1.0,
        search_knocks: bool = False,
        patient_search_knocks: bool = True,
        confidence: float = 1.5,
        consistent_styles: bool = True,
        keep_pairs: float = 0.0,
        feed: float = 0.0,
        max_samples: int | None = 400,
        read_style: bool = True,
        at_once_after: int = 2,
        at_once_confidence: float = 1.0,
        at_once_samples: int = 300,
        assume_at_once: bool = True,
        quick_fit: Fit | None = None,
        patient_fit: Fit | None = None,
        fit_tries: int = 8,
        posterior_model: bool = False,
        prior_weight: float = 10.0,
        match_equity: bool = False,
        at_once_search_takes: bool = False,
        at_once_candidates: int | None = None,
        loss_weight: float = 1.0,
    ) -> None:
        super().__init__(seed)
        if samples < 1:
            raise ValueError(f"samples must be at least 1, not {samples}")
        if max_candidates < 1:
            raise ValueError(f"max_candidates must be at least 1, not {max_candidates}")
        if at_once_candidates is not None and at_once_candidates < 1:
            raise ValueError(
                f"at_once_candidates must be at least 1 (or None), not {at_once_candidates}")
        self.samples = samples
        self.max_samples = samples if max_samples is None else max(samples, max_samples)
        self.max_candidates = max_candidates
        self.time_limit = time_limit
        if not opponent_thresholds:
            raise ValueError("give the opponent at least one knock threshold")
        self.own_threshold = own_threshold
        self.opponent_thresholds = tuple(opponent_thresholds)
        self.develop_per_turn = develop_per_turn
        self.search_knocks = search_knocks
        self.patient_search_knocks = patient_search_knocks
        self.confidence = confidence
        self.consistent_styles = consistent_styles
        self.keep_pairs = keep_pairs
        self.feed = feed
        self.read_style = read_style
        self.at_once_after = at_once_after
        self.at_once_confidence = at_once_confidence
        self.at_once_samples = at_once_samples
        self.assume_at_once = assume_at_once
        self.quick_fit = quick_fit
        self.patient_fit = patient_fit
        self.fit_tries = fit_tries
        self.posterior_model = posterior_model
        self.prior_weight = prior_weight
        self.match_equity = match_equity
        self.at_once_search_takes = at_once_search_takes
        self.at_once_candidates = at_once_candidates
        self.loss_weight = loss_weight
        self._style_of: tuple[tuple[PlayerView, ...], bool] = ((), False)
        self._hard = HardPlayer(None, style)
        self._hard.rng = self.rng

    def reseed(self, seed: int | str | None) -> None:
        super().reseed(seed)
        self._hard.rng = self.rng

    # -------------------------------------------------------------------------------------

    def decide(self, view: PlayerView) -> str:
        legal = view.legal_moves
        if len(legal) == 1:
            return legal[0]
        hard = self._hard
        model = hard.model(view)
        ranking = model
        guesses = None
        fit = self.fit_for(view)
        if self.posterior_model and fit is not None:
            # The worlds' hands, guessed first, also give hard's ranking its odds of each card.
            guesses = self.guesses(view, model, self.rng, fit)
            ranking = model.blended(guesses, self.prior_weight)
        candidates = self.candidates(view, ranking)
        if len(candidates) == 1:
            return candidates[0]
        return self.search(view, model, candidates, guesses)

    def candidates(self, view: PlayerView, model: OpponentModel) -> list[str]:
        """The moves worth searching, ``hard``'s favourite first (one move: no search)."""
        hard = self._hard
        phase = view.phase
        if phase in ("opening", "draw"):
            other = "pass" if phase == "opening" else "draw"
            if hard.wants_top(view, model):
                # Against a quick knocker the search's stock draws instead of hard's takes
                # were all worse on the real cards (docs/notes/players-lab.md, "Issue 14,
                # twelfth round").
                if _take_goes_gin(view) or (phase == "draw" and not self.at_once_search_takes
                                            and self.knocks_at_once(view)):
                    return ["take"]
                return ["take", other]
            # Only a take that lowers the deadwood is worth a search (and a player whose every
            # take lowers its deadwood can never go round in circles with the discard pile).
            return [other, "take"] if _lowers_deadwood(view) else [other]
        if phase == "last_chance":
            if _take_goes_gin(view):
                return ["take"]
            return ["take", "pass"] if hard.wants_last_chance(view, model) else ["pass", "take"]
        if view.legal_moves[-1] == "big gin":
            return ["big gin"]
        mask = view.hand_mask
        taken = -1 if view.taken is None else int(view.taken)
        options = lowering_discards(mask, taken, lower=phase == "discard")
        knockable = [(c, dw) for c, dw in options if dw <= view.knock_limit]
        out: list[str] = []
        hard_knocks = False
        search_knocks = self.search_knocks or (
            self.patient_search_knocks and not self.knocks_at_once(view))
        if knockable:
            least = min(dw for _, dw in knockable)
            plan = hard.knock_plan(model, mask, [c for c, dw in knockable if dw == least])
            knock = hard.knock_text(plan)
            if least == 0 or phase == "last_chance_knock":
                return [knock]
            hard_knocks = hard.should_knock(view, model, least, mask, taken)
            if not search_knocks:
                if hard_knocks:
                    return [knock]
            else:
                out.append(knock)
        ranked = hard.rank_discards(view, model, options)
        count = self.max_candidates
        if self.at_once_candidates is not None and self.knocks_at_once(view):
            count = self.at_once_candidates
        out.extend(Move.discard(card) for _, card in ranked[:count])
        if len(out) > 1 and knockable and search_knocks and not hard_knocks:
            out.append(out.pop(0))  # hard would play on: its favourite is the best discard
        return out

    def guesses(self, view: PlayerView, model: OpponentModel, rng: random.Random,
                fit: Fit | None = None, count: int | None = None) -> list[int]:
        """``count`` (default ``samples``) guesses of the opponent's hand, drawn by the model
        and, with a ``fit``, tested against the opponent's moves."""
        return guess_hands(view, model, rng, self.samples if count is None else count,
                           develop_per_turn=self.develop_per_turn, fit=fit,
                           tries=self.fit_tries)

    def worlds(self, view: PlayerView, model: OpponentModel, rng: random.Random,
               fit: Fit | None = None, count: int | None = None) -> list[Hand]:
        """A world for each of :meth:`guesses`."""
        return build_worlds(view, model, rng, self.guesses(view, model, rng, fit, count))

    def fit_for(self, view: PlayerView) -> Fit | None:
        """How the guesses are tested against the opponent's moves, by its style."""
        return self.quick_fit if self.knocks_at_once(view) else self.patient_fit

    def knocks_at_once(self, view: PlayerView) -> bool:
        """Whether to play the opponent as one that knocks at its first chance, from its
        chances to knock without gin in this match's finished hands
        (:func:`~.knowledge.knock_chances`): no when it let one in ten or more go by, yes
        when it had at least ``at_once_after`` and took them, ``assume_at_once`` before
        there is evidence either way."""
        if not self.read_style:
            return False
        earlier, verdict = self._style_of
        if earlier is not view.earlier_hands or not earlier:  # once per hand of the match
            chances, taken = knock_chances(view)
            if taken < 0.9 * chances:
                verdict = False
            elif chances >= self.at_once_after:
                verdict = True
            else:
                verdict = self.assume_at_once
            self._style_of = (view.earlier_hands, verdict)
        return verdict

    def world_policy(self, seat: int, index: int, opponent: int, played: bool,
                     knock_limit: int, thresholds: tuple[int, ...] | None = None,
                     ) -> PlayoutPolicy:
        """The playout policy of world number ``index``, whose opponent hand is ``opponent``.

        The opponent's knock threshold cycles through ``opponent_thresholds``. With
        ``consistent_styles``, once the opponent has had a turn, a world whose opponent hand is
        already within that threshold and the knock limit cannot belong to an opponent of that
        style (it would have knocked): that world gets the most patient style instead. (A
        world whose opponent holds gin fits no style; it is kept, as the rare guess it is.)
        """
        if thresholds is None:
            thresholds = self.opponent_thresholds
        theirs = thresholds[index % len(thresholds)]
        if (self.consistent_styles and played and theirs > 0
                and min_deadwood(opponent) <= min(theirs, knock_limit)):
            theirs = min(thresholds)
        pair = [theirs, theirs]
        pair[seat] = self.own_threshold
        return PlayoutPolicy((pair[0], pair[1]), self.keep_pairs, self.feed)

    def search(self, view: PlayerView, model: OpponentModel, candidates: list[str],
               guesses: list[int] | None = None) -> str:
        """Points of each candidate in each sampled world; the best candidate.

        ``hard``'s favourite (the first candidate) is kept unless another beats it by more
        than ``confidence`` standard errors of the paired differences over the worlds (each
        world is shared by all candidates, so the differences are paired).
        """
        seat = view.seat
        deadline = None if self.time_limit is None else time.perf_counter() + self.time_limit
        played = opponent_turns(view) > 0
        confidence, max_samples = self.confidence, self.max_samples
        thresholds = self.opponent_thresholds
        fit = self.fit_for(view)
        if self.knocks_at_once(view):
            # The opponent's style is known: every world's opponent knocks at its first
            # chance, and the playouts, now a fair picture of it, are trusted further.
            thresholds = (OPPONENT_THRESHOLDS[-1],)
            confidence = self.at_once_confidence
            max_samples = max(self.samples, self.at_once_samples)

        def policy(number: int, world: Hand) -> PlayoutPolicy:
            return self.world_policy(seat, number, world.hands[1 - seat], played,
                                     world.knock_limit, thresholds)

        if guesses is None:
            worlds = self.worlds(view, model, self.rng, fit)
        else:
            worlds = build_worlds(view, model, self.rng, guesses)
        valued = value_moves(worlds, seat, candidates, policy, deadline=deadline)
        while True:
            if valued.worlds < 2:
                return candidates[0]  # one world gives no spread: not evidence enough
            best, unclear = self._verdict(candidates, self._valued(view, valued), confidence)
            done = valued.worlds
            if not unclear or done >= max_samples or (
                    deadline is not None and time.perf_counter() > deadline):
                return candidates[best]
            # A rival looks better but not surely so: more worlds, the same candidates.
            count = min(self.samples, max_samples - done)
            more = self.worlds(view, model, self.rng, fit, count)

            def shifted(number: int, world: Hand, offset: int = done) -> PlayoutPolicy:
                return policy(number + offset, world)

            extra = value_moves(more, seat, candidates, shifted, deadline=deadline)
            for move in candidates:
                valued.points[move].extend(extra.points[move])
            valued.worlds += extra.worlds

    def _valued(self, view: PlayerView, valued: MoveValues) -> MoveValues:
        """The playouts' values as the search weighs them: points (the opponent's counted
        ``loss_weight`` times), or with ``match_equity`` (outside Hollywood) the chance of
        winning the match after each playout's points."""
        if not self.match_equity or view.rules.hollywood:
            if self.loss_weight == 1.0:
                return valued
            weight = self.loss_weight
            points = {move: [p if p >= 0 else weight * p for p in values]
                      for move, values in valued.points.items()}
            return MoveValues(points, valued.wins, valued.undercuts, valued.worlds)
        mine, theirs = view.scores[view.seat], view.scores[1 - view.seat]
        need, opponent_need = view.rules.target - mine, view.rules.target - theirs
        points = {move: [equity_after(need, opponent_need, round(p)) for p in values]
                  for move, values in valued.points.items()}
        return MoveValues(points, valued.wins, valued.undercuts, valued.worlds)

    def _verdict(self, candidates: list[str], valued: MoveValues,
                 confidence: float | None = None) -> tuple[int, bool]:
        """The index of the candidate to play, and whether the evidence is unclear: some
        rival beats ``hard``'s favourite on average but not by ``confidence`` standard errors
        (more worlds could settle it)."""
        if confidence is None:
            confidence = self.confidence
        favourite = valued.points[candidates[0]]
        best, best_score = 0, 0.0
        unclear = False
        for i in range(1, len(candidates)):
            diff = paired_difference(valued.points[candidates[i]], favourite)
            score = diff.lower_bound(confidence)
            if score > best_score:
                best, best_score = i, score
            elif diff.mean > 0.0:
                unclear = True
        return best, unclear and best == 0


def _take_goes_gin(view: PlayerView) -> bool:
    """True when taking the top discard lets the player go gin (or big gin) at once."""
    top = int(view.discard_pile[-1])
    return min(dw for c, dw in discard_deadwoods(view.hand_mask | 1 << top) if c != top) == 0


def _lowers_deadwood(view: PlayerView) -> bool:
    """True when taking the top discard (and discarding another card) lowers the deadwood."""
    top = int(view.discard_pile[-1])
    mask = view.hand_mask
    after = min(dw for c, dw in discard_deadwoods(mask | 1 << top) if c != top)
    return after < min_deadwood(mask)
