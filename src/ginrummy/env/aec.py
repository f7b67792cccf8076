"""``ginrummy_v0``: gin rummy as a PettingZoo AEC environment, played by our engine.

The environment drives a :class:`~ginrummy.engine.table.Table` like every other front end: agents
sit in :class:`~ginrummy.engine.table.Person` seats and their actions go through :meth:`Table.play`;
an ``opponent`` sits in a :class:`~ginrummy.engine.table.Computer` seat and the table plays it, from
its own view, whenever it is to act. Observations, masks, infos and the rendered text are built from
the acting seat's :class:`~ginrummy.engine.view.PlayerView` only (``docs/env.md``).
"""

from __future__ import annotations

import random
from typing import Any, ClassVar, Literal, cast

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped]
from pettingzoo.utils import wrappers  # type: ignore[import-untyped]
from pettingzoo.utils.env_logger import EnvLogger  # type: ignore[import-untyped]
from pettingzoo.utils.wrappers import order_enforcing  # type: ignore[import-untyped]

from ..engine.errors import GinRummyError, IllegalMoveError
from ..engine.match import Match
from ..engine.rules import RuleSet, RulesLike, get_rules
from ..engine.settle import HandResult
from ..engine.table import Computer, Person, Seat, Table
from ..engine.view import PlayerView
from ..players import make
from .actions import NUM_ACTIONS, action_mask, move_of
from .observation import OBS_SIZE, encode
from .text import view_text

__all__ = ["AGENTS", "Observation", "env", "raw_env"]

#: The agents, by seat: ``player_0`` sits in seat 0, ``player_1`` in seat 1.
AGENTS: tuple[str, str] = ("player_0", "player_1")

#: ``render()`` prints the acting seat's view (``human``) or returns it (``ansi``).
RENDER_MODES = ("human", "ansi")

Observation = dict[str, npt.NDArray[Any]]
Episode = Literal["hand", "match"]
Reward = Literal["points", "match"]


def env(**kwargs: Any) -> Any:
    """The environment as agents should use it: :class:`raw_env` with ``illegal_reward=-1``
    (an illegal action ends the episode with that reward to the agent that made it, as
    PettingZoo's ``TerminateIllegalWrapper`` does) inside PettingZoo's
    ``OrderEnforcingWrapper`` (no step, observe or render before reset). Takes the arguments
    of :class:`raw_env`.

    The raw environment checks actions itself (the range, and legality against the exact
    mask), so the ``TerminateIllegalWrapper`` and ``AssertOutOfBoundsWrapper`` layers are not
    stacked on: their attribute forwarding alone costs about a third of a step.
    """
    kwargs.setdefault("illegal_reward", -1.0)
    return _OrderEnforcing(raw_env(**kwargs))


class _OrderEnforcing(wrappers.OrderEnforcingWrapper):  # type: ignore[misc]
    """PettingZoo's ``OrderEnforcingWrapper``, with ``last()`` handed to the environment in
    one call once it has been reset (the inherited one reads six attributes and ``observe``
    through the wrapper's forwarding, a tenth of a step). Before reset it behaves as the
    original: it refuses."""

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if not self._has_reset:
            return cast(tuple[Any, float, bool, bool, dict[str, Any]], super().last(observe))
        return cast(tuple[Any, float, bool, bool, dict[str, Any]], self.env.last(observe))

    # What the AEC loop reads or calls at every step, handed over directly once reset (the
    # inherited ways go through two __getattr__ layers); before reset, the original checks.

    def step(self, action: Any) -> None:
        if self._has_reset and self.env.agents:
            self._has_updated = True
            self.env.step(action)
        else:
            super().step(action)

    def agent_iter(self, max_iter: int = 2**63) -> Any:
        if not self._has_reset:
            return super().agent_iter(max_iter)  # PettingZoo's error
        return _AgentIterable(self, max_iter)

    @property
    def agents(self) -> list[str]:
        if not self._has_reset:
            raise AttributeError("agents cannot be accessed before reset")
        return cast(list[str], self.env.agents)

    @property
    def agent_selection(self) -> str:
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        return cast(str, self.env.agent_selection)


class _AgentIterable(order_enforcing.AECOrderEnforcingIterable):  # type: ignore[misc]
    def __iter__(self) -> _AgentIterator:
        return _AgentIterator(self.env, self.max_iter)


class _AgentIterator(order_enforcing.AECOrderEnforcingIterator):  # type: ignore[misc]
    """PettingZoo's ``AECOrderEnforcingIterator`` (the same checks, in the same order),
    reading the wrapped environment's ``agents`` and ``agent_selection`` directly."""

    def __next__(self) -> str:
        raw = self.env.env
        if not raw.agents or self.iters_til_term <= 0:
            raise StopIteration
        self.iters_til_term -= 1
        assert self.env._has_updated, "need to call step() or reset() in a loop over `agent_iter`"
        self.env._has_updated = False
        return cast(str, raw.agent_selection)


class raw_env(AECEnv):  # type: ignore[misc]
    """Gin rummy for two agents (or one, against our ``opponent``), one hand or one match per
    episode.

    ``profile`` is a rule profile name or a :class:`~ginrummy.engine.rules.RuleSet`; ``hollywood``,
    ``last_discard_chance`` and ``rules`` (a dict of overrides such as ``{"gin_bonus": 30}``)
    change it, checked by :func:`~ginrummy.engine.rules.get_rules`. ``episode`` is ``"hand"`` or
    ``"match"``. ``reward`` is ``"points"`` (each hand's points to its winner, minus to the
    loser, when the hand ends) or ``"match"`` (+1/-1/0 for the episode's outcome: the match's
    winner, or the hand's). ``opponent`` names one of our players (``"random"``, ``"simple"``,
    ``"hard"``, ...): it takes the seat other than ``seat`` and only ``player_{seat}`` is an
    agent. Each agent's info, when it is to act and at the end, holds its ``view``
    (:class:`~ginrummy.engine.view.PlayerView`), and with ``info_text`` its ``text`` too
    (:func:`~ginrummy.env.text.view_text`; off by default because it costs a fifth of a step).
    """

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": list(RENDER_MODES),
        "name": "ginrummy_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        profile: RulesLike = "traditional",
        *,
        hollywood: bool | None = None,
        last_discard_chance: bool | None = None,
        rules: dict[str, Any] | None = None,
        episode: Episode = "hand",
        reward: Reward = "points",
        opponent: str | None = None,
        seat: int = 0,
        info_text: bool = False,
        illegal_reward: float | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        overrides = dict(rules or {})
        if hollywood is not None:
            overrides["hollywood"] = hollywood
        if last_discard_chance is not None:
            overrides["last_discard_chance"] = last_discard_chance
        self.rules: RuleSet = get_rules(profile, **overrides)
        if episode not in ("hand", "match"):
            raise GinRummyError(f"episode is 'hand' or 'match', not {episode!r}")
        if reward not in ("points", "match"):
            raise GinRummyError(f"reward is 'points' or 'match', not {reward!r}")
        if seat not in (0, 1) or isinstance(seat, bool):
            raise GinRummyError(f"seat is 0 or 1, not {seat!r}")
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise GinRummyError(f"render_mode is 'human' or 'ansi', not {render_mode!r}")
        if opponent is not None:
            make(opponent)  # refuse an unknown player now, not at the first reset
        self.episode: Episode = episode
        self.reward_kind: Reward = reward
        self.opponent = opponent
        self.info_text = info_text
        self.illegal_reward = illegal_reward
        self.learner_seats: tuple[int, ...] = (0, 1) if opponent is None else (seat,)
        self.render_mode = render_mode
        self.possible_agents = [AGENTS[s] for s in self.learner_seats]
        self.agents = self.possible_agents[:]
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(0.0, 1.0, (OBS_SIZE,), dtype=np.float32),
                    "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), dtype=np.int8),
                }
            )
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(NUM_ACTIONS) for a in self.possible_agents}
        self._rng = random.Random()
        self._table: Table | None = None
        self._views: dict[int, PlayerView] = {}
        self._rewarded = 0  # hands of the match whose reward has been given
        self._halted = False  # ended by an illegal action, the hand left unfinished

    # The AEC API.

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new episode: a new match (its seed, first dealer and deals drawn from the
        env's RNG, which ``seed`` restarts) with its first hand dealt; the opponent, if any,
        plays until an agent is to act."""
        if seed is not None:
            # NumPy's integers too (what a seeded experiment often hands on).
            self._rng = random.Random(int(seed) if isinstance(seed, np.integer) else seed)
        match_seed = f"{self._rng.getrandbits(64):016x}"
        seats: list[Seat] = []
        for s in (0, 1):
            if s in self.learner_seats:
                seats.append(Person(AGENTS[s]))
            else:
                assert self.opponent is not None
                seats.append(Computer(make(self.opponent, seed=f"{match_seed}/opponent")))
        self._table = Table(Match(self.rules, seed=match_seed), seats)
        self._views = {}
        self._rewarded = 0
        self._halted = False
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.agents[0]
        self._skip_agent_selection = None
        self._carry_on()
        self._accumulate_rewards()

    def step(self, action: int | None) -> None:
        """Play ``action`` (see :mod:`ginrummy.env.actions`) for :attr:`agent_selection`.

        An action outside the mask raises the engine's
        :class:`~ginrummy.engine.errors.IllegalMoveError` and changes nothing; with
        ``illegal_reward`` set (as :func:`env` does) it ends the episode instead, with that reward
        to the agent and 0 to the other. An action is an integer (Python's or NumPy's); anything
        else (a float, a string, an array) is an illegal action too.
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        table = self._live_table()
        seat = AGENTS.index(agent)
        view = self._view(seat)
        try:
            if action is None or isinstance(action, bool):
                raise IllegalMoveError(f"{agent} is to act: None is only for finished agents")
            move = move_of(action, view)
            table.play(seat, move)
        except IllegalMoveError:
            if self.illegal_reward is None:
                raise
            self._end_illegal(agent)
            return
        self._views = {}
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._carry_on()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _end_illegal(self, agent: str) -> None:
        """What PettingZoo's ``TerminateIllegalWrapper`` does: end the episode for everyone,
        ``illegal_reward`` to ``agent``."""
        assert self.illegal_reward is not None
        EnvLogger.warn_on_illegal_move()
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self.rewards[agent] = float(self.illegal_reward)
        self.terminations = dict.fromkeys(self.agents, True)
        self.truncations = dict.fromkeys(self.agents, True)
        # Over for everyone: no agent has a move left (every mask all zeros), and every agent
        # gets its view, as at any episode's end.
        self._halted = True
        self._views = {}
        self.infos = {a: self._info(AGENTS.index(a), a) for a in self.agents}
        self._accumulate_rewards()
        self._deads_step_first()

    def observe(self, agent: str) -> Observation:
        """``agent``'s observation: ``{"observation": float32[OBS_SIZE], "action_mask":
        int8[NUM_ACTIONS]}``, from its seat's view only (the mask is all zeros when it is not
        its turn, and once an illegal action has ended the episode)."""
        view = self._view(AGENTS.index(agent))
        mask = action_mask(view)
        if self._halted:
            mask = np.zeros_like(mask)
        return {"observation": encode(view), "action_mask": mask}

    def render(self) -> str | None:
        """The acting agent's view as text (``ansi`` returns it, ``human`` prints it); what it
        shows is what that seat may see."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode; nothing to show.")
            return None
        text = view_text(self._view(self._selected_seat()), self.agent_selection)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass

    # Beyond the AEC API.

    def view(self, agent: str) -> PlayerView:
        """``agent``'s :class:`~ginrummy.engine.view.PlayerView` now (also in its info when it is to
        act). Only an agent's: with a built-in opponent, its seat is not an agent, and its
        view (its hand) is not the learner's to read."""
        if agent not in self.possible_agents:
            raise GinRummyError(f"{agent!r} is not an agent of this environment "
                                f"({', '.join(self.possible_agents)})")
        return self._view(AGENTS.index(agent))

    @property
    def table(self) -> Table:
        """The table being played (for tests and tools; agents learn only from views)."""
        return self._live_table()

    # Inside.

    def _live_table(self) -> Table:
        if self._table is None:
            raise GinRummyError("call reset() before playing")
        return self._table

    def _selected_seat(self) -> int:
        return AGENTS.index(self.agent_selection)

    def _view(self, seat: int) -> PlayerView:
        view = self._views.get(seat)
        if view is None:
            table = self._live_table()
            # In a one-hand episode the match's view (scores 0 to 0, hand 1) equals the hand's,
            # and the hand's is cheaper to build.
            view = table.match.hand.view(seat) if self.episode == "hand" else table.view(seat)
            self._views[seat] = view
        return view

    def _carry_on(self) -> None:
        """After a change: reward a finished hand, deal the next hand of a match, let the
        opponent play, until an agent must act or the episode is over; then set the agent to
        act and the infos."""
        table = self._live_table()
        match = table.match
        learners = self.learner_seats
        while True:
            hand = match.hand
            if hand.over:
                if len(match.hands) > self._rewarded:
                    self._rewarded = len(match.hands)
                    self._reward_hand(hand.result)
                if self.episode == "hand" or match.over:
                    self._finish(match)
                    return
                table.deal()
            elif hand.to_play in learners:
                break
            else:
                table.advance()
        self._views = {}
        seat = hand.to_play
        agent = AGENTS[seat]
        self.agent_selection = agent
        infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        infos[agent] = self._info(seat, agent)
        self.infos = infos

    def _finish(self, match: Match) -> None:
        self._views = {}
        if self.reward_kind == "match":
            self._reward_outcome(match)
        self.terminations = dict.fromkeys(self.agents, True)
        self.infos = {a: self._info(AGENTS.index(a), a) for a in self.agents}
        if self.agent_selection not in self.agents:
            self.agent_selection = self.agents[0]

    def _info(self, seat: int, agent: str) -> dict[str, Any]:
        view = self._view(seat)
        if self.info_text:
            return {"view": view, "text": view_text(view, agent)}
        return {"view": view}

    def _reward_hand(self, result: HandResult | None) -> None:
        if result is None or self.reward_kind != "points" or result.winner_seat is None:
            return
        winner = result.winner_seat
        self._give(winner, float(result.points))
        self._give(1 - winner, -float(result.points))

    def _reward_outcome(self, match: Match) -> None:
        if self.episode == "match":
            winner = match.score.winner
        else:
            result = match.hand.result
            winner = None if result is None else result.winner_seat
        if winner is not None:
            self._give(winner, 1.0)
            self._give(1 - winner, -1.0)

    def _give(self, seat: int, amount: float) -> None:
        agent = AGENTS[seat]
        if agent in self.rewards:
            self.rewards[agent] += amount
