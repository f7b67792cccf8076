"""ginrummy.env: the PettingZoo API and seed tests, the exact action mask, observations that
depend on the seat's view only, rewards that match the engine, opponents, and the policy seat."""

from __future__ import annotations

import pickle
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from ginrummy.engine.cards import FULL_DECK, cards_of_mask, parse_cards
from ginrummy.engine.errors import GinRummyError, IllegalMoveError
from ginrummy.engine.hand import Hand
from ginrummy.engine.match import Match
from ginrummy.engine.melds import min_deadwood
from ginrummy.engine.move import Move
from ginrummy.engine.rules import PROFILE_NAMES
from ginrummy.engine.table import Computer, Table
from ginrummy.env import (
    AGENTS,
    NUM_ACTIONS,
    OBS_SIZE,
    PolicyError,
    PolicyPlayer,
    action_mask,
    action_of,
    encode,
    env,
    legal_actions,
    load_policy,
    move_of,
    raw_env,
)
from ginrummy.env.actions import KNOCK_ALT_BASE, KNOCK_BASE
from ginrummy.players import make
from tui_support import spawn_ginrummy

ROOT = Path(__file__).resolve().parent.parent


def pick(rng: random.Random, mask: np.ndarray[Any, Any]) -> int:
    """A random legal action, preferring a knock or big gin half of the time (random play
    alone rarely reaches the knock positions the mask must also get right)."""
    legal = [int(a) for a in np.flatnonzero(mask)]
    outs = [a for a in legal if a >= KNOCK_BASE]
    if outs and rng.random() < 0.5:
        return rng.choice(outs)
    return rng.choice(legal)


def play_episode(e: Any, rng: random.Random, check: Any = None) -> None:
    """Run one episode of ``e`` (reset already done) with random legal actions."""
    for agent in e.agent_iter():
        obs, _, terminated, truncated, _ = e.last()
        if terminated or truncated:
            e.step(None)
            continue
        if check is not None:
            check(agent, obs)
        e.step(pick(rng, obs["action_mask"]))


# The PettingZoo checks.


@pytest.mark.parametrize(
    "kwargs",
    [
        {},
        {"profile": "oklahoma", "episode": "match", "reward": "match", "rules": {"target": 40}},
        {"profile": "modern", "opponent": "simple", "seat": 1, "info_text": True},
    ],
)
# The observation is a Dict of "observation" and "action_mask", the layout of PettingZoo's own
# card games, which api_test exempts from these two warnings by their names only; it checks
# the mask and the array inside the Dict all the same.
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array:UserWarning")
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably:UserWarning")
def test_pettingzoo_api(kwargs: dict[str, Any]) -> None:
    api_test(env(**kwargs), num_cycles=200)


def test_pettingzoo_seed() -> None:
    seed_test(lambda: env(profile="modern", last_discard_chance=True), num_cycles=200)


def test_spaces_and_metadata() -> None:
    e = env()
    e.reset(seed=0)
    assert e.possible_agents == ["player_0", "player_1"]
    assert e.metadata["name"] == "ginrummy_v0"
    space = e.observation_space("player_0")
    assert space["observation"].shape == (OBS_SIZE,)
    assert space["action_mask"].shape == (NUM_ACTIONS,)
    assert e.action_space("player_1").n == NUM_ACTIONS


# The mask is exactly the legal moves.


def check_mask_against_engine(hand: Hand, view: Any, mask: np.ndarray[Any, Any],
                              rng: random.Random, every_action: bool) -> None:
    legal = [int(a) for a in np.flatnonzero(mask)]
    assert legal == legal_actions(view)
    plain = {str(move_of(a, view)) for a in legal if a < KNOCK_ALT_BASE}
    assert plain == {str(m) for m in hand.legal_moves()}
    for a in legal:
        move = move_of(a, view)
        assert action_of(move, view) == a
        if a >= KNOCK_ALT_BASE:  # a declared arrangement: legal, minimum deadwood, not default
            assert move.meld_masks is not None and move.card is not None
            copy = hand.copy()
            copy.play(move)
            assert copy.result is not None and copy.result.kind in ("knock", "undercut")
            rest = view.hand_mask & ~(1 << move.card)
            assert copy.result.knocker_deadwood == min_deadwood(rest) > 0
            assert action_of(Move.knock(move.card), view) == KNOCK_BASE + move.card
    if every_action:
        for a in rng.sample(range(NUM_ACTIONS), 60):
            if a in legal:
                continue
            with pytest.raises(IllegalMoveError):
                hand.copy().play(move_of(a, view))


@pytest.mark.parametrize("profile", PROFILE_NAMES)
@pytest.mark.parametrize("options", [{}, {"last_discard_chance": True, "hollywood": True}])
def test_mask_is_exactly_the_legal_moves(profile: str, options: dict[str, bool]) -> None:
    rng = random.Random(f"{profile}{options}")
    e = raw_env(profile=profile, **options)
    seen_alt = seen_knock = 0
    for episode in range(12):
        e.reset(seed=episode)

        def check(agent: str, obs: dict[str, Any]) -> None:
            nonlocal seen_alt, seen_knock
            hand = e.table.match.hand
            seat = int(agent[-1])
            view = hand.view(seat)
            mask = obs["action_mask"]
            assert mask.dtype == np.int8 and mask.shape == (NUM_ACTIONS,)
            check_mask_against_engine(hand, view, mask, rng, every_action=rng.random() < 0.1)
            other = e.observe(f"player_{1 - seat}")["action_mask"]
            assert not other.any()  # not its turn: nothing is legal
            seen_knock += bool(mask[KNOCK_BASE:].any())
            seen_alt += bool(mask[KNOCK_ALT_BASE:].any())

        play_episode(e, rng, check)
    assert seen_knock > 0


def test_knock_with_a_declared_alternative() -> None:
    # Seat 1 (non-dealer) holds 3c3d3h 2h4h and 8s..Qs; after drawing Kd, knocking with Kd
    # leaves two minimum arrangements (3c3d3h, or 2h3h4h), deadwood 6 either way.
    ten = parse_cards("3c 3d 3h 2h 4h 8s 9s Ts Js Qs")
    dealt = parse_cards("Ac 2c 4c 5c 6c 7c Ad 2d 5d 6d")
    rest = [c for c in range(52) if c not in set(ten) | set(dealt) | set(parse_cards("5h Kd"))]
    deck = [c for pair in zip(ten, dealt, strict=True) for c in pair]
    deck += parse_cards("5h Kd") + rest
    hand = Hand("traditional", deck=deck, dealer=0)
    for move in ("pass", "pass", "draw"):
        hand.play(move)
    view = hand.view(1)
    kd = parse_cards("Kd")[0]
    actions = legal_actions(view)
    assert KNOCK_BASE + kd in actions and KNOCK_ALT_BASE + kd in actions
    assert KNOCK_ALT_BASE + 52 + kd not in actions  # only one alternative
    check_mask_against_engine(hand, view, action_mask(view), random.Random(0), True)
    default = hand.copy()
    default.play(move_of(KNOCK_BASE + kd, view))
    declared = hand.copy()
    declared.play(move_of(KNOCK_ALT_BASE + kd, view))
    assert default.result is not None and declared.result is not None
    assert default.result.knocker_melds != declared.result.knocker_melds


# Observations are a function of the seat's view.


def test_observation_depends_on_the_view_only() -> None:
    rng = random.Random(5)
    e = raw_env(profile="modern")
    checked = 0
    for episode in range(8):
        e.reset(seed=episode)
        for _ in range(rng.randrange(1, 60)):
            if e.terminations[e.agent_selection]:
                break
            agent = e.agent_selection
            e.step(pick(rng, e.observe(agent)["action_mask"]))
        if e.terminations[e.agent_selection]:
            continue
        for agent in e.agents:
            seat = int(agent[-1])
            before = e.observe(agent)
            match = e.table.match
            view = match.hand.view(seat)
            # Another world the seat cannot tell apart: the opponent's unknown cards and the
            # stock swapped around.
            unseen = cards_of_mask(view.unseen_mask)
            rng.shuffle(unseen)
            need = view.opponent_card_count - view.opponent_known_mask.bit_count()
            opponent = view.opponent_known_mask
            for c in unseen[:need]:
                opponent |= 1 << c
            other = Hand.determinize(view, opponent, unseen[need:])
            assert other.hands[1 - seat] != match.hand.hands[1 - seat] or need == 0
            match.hands[-1], real = other, match.hand
            e._views = {}
            after = e.observe(agent)
            match.hands[-1] = real
            e._views = {}
            np.testing.assert_array_equal(before["observation"], after["observation"])
            np.testing.assert_array_equal(before["action_mask"], after["action_mask"])
            checked += 1
    assert checked >= 8


def test_observation_layout() -> None:
    hand = Hand("traditional", seed=3, dealer=0)
    view = hand.view(1)
    obs = encode(view)
    assert obs.shape == (OBS_SIZE,) and obs.dtype == np.float32
    assert ((obs >= 0) & (obs <= 1)).all()
    assert set(np.flatnonzero(obs[:52])) == set(cards_of_mask(view.hand_mask))
    assert list(np.flatnonzero(obs[52:104])) == [view.upcard]
    assert obs[104 + view.upcard] == 1.0  # the top of the pile, depth 0
    unseen = FULL_DECK & ~view.hand_mask & ~(1 << view.upcard)
    assert set(np.flatnonzero(obs[364:416])) == set(cards_of_mask(unseen))
    assert obs[468] == 1.0 and obs[475] == 1.0  # opening phase, this seat's turn


def reference_observation(view: Any) -> np.ndarray[Any, Any]:
    """The observation written out value by value from the layout in docs/env.md, for
    comparison with `encode`, which packs the 0/1 values as bits."""
    out = np.zeros(OBS_SIZE, dtype=np.float32)
    planes = out[:468].reshape(9, 52)
    for c in cards_of_mask(view.hand_mask):
        planes[0, c] = 1.0
    pile = list(view.discard_pile)
    if pile:
        planes[1, pile[-1]] = 1.0
    for depth, c in enumerate(reversed(pile)):
        planes[2, c] = 1.0 - depth / 52.0
    for row, cards in ((3, view.opponent_took), (4, view.opponent_passed),
                       (5, view.opponent_discards)):
        for c in cards:
            planes[row, c] = 1.0
    for c in cards_of_mask(view.opponent_known_mask):
        planes[6, c] = 1.0
    for c in cards_of_mask(view.unseen_mask):
        planes[7, c] = 1.0
    picked = view.taken if view.taken is not None else view.drawn
    if picked is not None:
        planes[8, picked] = 1.0
    phases = ("opening", "opening_draw", "draw", "discard", "last_chance",
              "last_chance_knock", "over")
    out[468 + phases.index(view.phase)] = 1.0
    rules, seat = view.rules, view.seat
    out[475:] = [
        view.my_turn, view.dealer == seat, view.stock_count / 31, view.opponent_card_count / 11,
        view.knock_limit / 30, view.multiplier > 1, min(view.scores[seat] / rules.target, 1),
        min(view.scores[1 - seat] / rules.target, 1), rules.big_gin, rules.last_discard_chance,
        rules.hollywood, min(view.deadwood / 100, 1),
    ]
    return out


@pytest.mark.parametrize("profile", ["traditional", "oklahoma", "modern"])
def test_observation_equals_the_plain_layout(profile: str) -> None:
    rng = random.Random(profile)
    e = raw_env(profile=profile, episode="match", last_discard_chance=True, hollywood=True,
                rules={"target": 60})
    e.reset(seed=1)
    checked = 0
    for _agent in e.agent_iter(3000):
        obs, _, terminated, truncated, _ = e.last()
        for a in e.agents:  # the acting seat and the waiting one, and both at the end
            got = e.observe(a)["observation"]
            assert got.dtype == np.float32 and got.shape == (OBS_SIZE,)
            # The pile's order is 1 - depth/52 in float32 there, in float64 here: a last bit.
            np.testing.assert_allclose(got, reference_observation(e.view(a)), rtol=0, atol=1e-7)
            checked += 1
        e.step(None if terminated or truncated else pick(rng, obs["action_mask"]))
    assert checked > 500


# Rewards.


@pytest.mark.parametrize("profile", ["traditional", "oklahoma"])
def test_hand_rewards_are_the_engines_points(profile: str) -> None:
    rng = random.Random(profile)
    e = raw_env(profile=profile)
    kinds = set()
    for episode in range(40):
        e.reset(seed=episode)
        totals = dict.fromkeys(e.agents, 0.0)
        for agent in e.agent_iter():
            obs, reward, terminated, truncated, _ = e.last()
            totals[agent] = reward  # cumulative since the agent last acted
            if terminated or truncated:
                e.step(None)
            else:
                e.step(pick(rng, obs["action_mask"]))
        result = e.table.match.hand.result
        assert result is not None
        kinds.add(result.kind)
        assert sum(totals.values()) == 0
        if result.winner_seat is None:
            assert totals == {"player_0": 0.0, "player_1": 0.0}
        else:
            assert totals[f"player_{result.winner_seat}"] == result.points > 0
    assert {"cancelled", "knock"} <= kinds


@pytest.mark.parametrize("reward", ["points", "match"])
def test_match_episodes_end_with_the_match(reward: str) -> None:
    rng = random.Random(reward)
    e = raw_env(profile="modern", episode="match", reward=reward, rules={"target": 40})
    for episode in range(3):
        e.reset(seed=episode)
        got = dict.fromkeys(e.agents, 0.0)
        for agent in e.agent_iter():
            obs, _, terminated, truncated, _ = e.last()
            got[agent] += e._cumulative_rewards[agent]
            e._cumulative_rewards[agent] = 0.0
            if terminated or truncated:
                assert e.table.match.over
                e.step(None)
            else:
                e.step(pick(rng, obs["action_mask"]))
        match = e.table.match
        assert match.over and len(match.hands) >= 2
        if reward == "points":
            expect = [0.0, 0.0]
            for result in match.results:
                if result.winner_seat is not None:
                    expect[result.winner_seat] += result.points
                    expect[1 - result.winner_seat] -= result.points
            assert [got["player_0"], got["player_1"]] == expect
        else:
            winner = match.score.winner
            want = {0: [1.0, -1.0], 1: [-1.0, 1.0], None: [0.0, 0.0]}[winner]
            assert [got["player_0"], got["player_1"]] == want


# Opponents inside the env, and illegal actions.


@pytest.mark.parametrize("seat", [0, 1])
def test_opponent_plays_inside(seat: int) -> None:
    e = env(opponent="simple", seat=seat, episode="match", rules={"target": 30})
    rng = random.Random(seat)
    me = f"player_{seat}"
    e.reset(seed=seat)
    assert e.agents == [me]
    total = 0.0
    for agent in e.agent_iter():
        assert agent == me
        obs, reward, terminated, truncated, info = e.last()
        total += reward
        if terminated or truncated:
            e.step(None)
            continue
        assert info["view"].seat == seat and info["view"].my_turn
        e.step(pick(rng, obs["action_mask"]))
    table = e.unwrapped.table
    assert table.match.over and isinstance(table.seat_kind(1 - seat), Computer)


def test_illegal_actions() -> None:
    raw = raw_env()
    raw.reset(seed=1)
    agent = raw.agent_selection
    mask = raw.observe(agent)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    before = len(raw.table.match.hand.history)
    with pytest.raises(IllegalMoveError):
        raw.step(illegal)
    with pytest.raises(IllegalMoveError):
        raw.step(NUM_ACTIONS + 5)
    assert len(raw.table.match.hand.history) == before and raw.agent_selection == agent
    wrapped = env()
    wrapped.reset(seed=1)
    agent = wrapped.agent_selection
    wrapped.step(illegal)
    assert all(wrapped.terminations.values())
    assert wrapped.rewards[agent] == -1.0


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("action", [1.0, 1.99, "1", np.array([1]), np.float32(1), True, None])
def test_an_action_that_is_not_an_integer_is_illegal(action: Any) -> None:
    """Never rounded or parsed: 1.99 and "1" are not 'pass' (action 1), and an array is not
    its element. Raw: refused, nothing changed; wrapped: the episode ends for everyone, as
    for any illegal action, with every agent's view in its info and no move left in any
    mask."""
    raw = raw_env()
    raw.reset(seed=1)
    agent = raw.agent_selection
    before = raw.observe(agent)
    with pytest.raises(IllegalMoveError):
        raw.step(action)
    assert raw.agent_selection == agent and not raw.table.match.hand.history
    after = raw.observe(agent)
    assert all(np.array_equal(before[k], after[k]) for k in before)
    assert after["action_mask"][1]  # 'pass' is legal: the refusal is for the type alone

    wrapped = env()
    wrapped.reset(seed=1)
    wrapped.step(action)
    assert all(wrapped.terminations.values()) and not wrapped.table.match.hand.history
    assert wrapped.rewards == {agent: -1.0, AGENTS[1 - AGENTS.index(agent)]: 0.0}
    for a in wrapped.possible_agents:
        assert wrapped.infos[a]["view"].seat == AGENTS.index(a)
        assert not wrapped.observe(a)["action_mask"].any()


def test_numpy_integers_are_actions_and_seeds() -> None:
    """What a policy or an experiment hands on as NumPy's own integers plays as Python's."""
    runs = []
    for kind in (int, np.int64):
        e = env()
        e.reset(seed=kind(7))
        rng = random.Random(3)
        trail = []
        for _agent in e.agent_iter():
            obs, reward, terminated, truncated, _ = e.last()
            trail.append(reward)
            if terminated or truncated:
                e.step(None)
                continue
            action = pick(rng, obs["action_mask"])
            trail.append(action)
            e.step(kind(action))
        runs.append(trail)
    assert runs[0] == runs[1] and len(runs[0]) > 10


def test_an_environment_pickles_in_the_middle_of_an_episode() -> None:
    """A reset environment (its match, deck source and opponent included) pickles, and the
    copy plays on exactly as the original."""
    e = raw_env(opponent="hard")
    e.reset(seed=5)
    rng = random.Random(1)
    for _ in range(4):
        e.step(pick(rng, e.observe(e.agent_selection)["action_mask"]))
        if not e.agents or any(e.terminations.values()):
            break
    copy = pickle.loads(pickle.dumps(e))
    trails = []
    for one in (e, copy):
        rng = random.Random(9)
        trail = []
        while one.agents and not all(one.terminations.values()):
            obs = one.observe(one.agent_selection)
            trail.append(obs["observation"].tobytes())
            one.step(pick(rng, obs["action_mask"]))
        trails.append((trail, dict(one.rewards)))
    assert trails[0] == trails[1]


def test_the_opponents_view_is_not_the_learners_to_read() -> None:
    """With a built-in opponent only the learner's seat is an agent; asking for the other
    seat's view (its hand) is refused."""
    for seat in (0, 1):
        e = env(opponent="simple", seat=seat)
        e.reset(seed=3)
        mine, theirs = AGENTS[seat], AGENTS[1 - seat]
        assert e.unwrapped.view(mine).seat == seat
        with pytest.raises(GinRummyError, match=f"'{theirs}' is not an agent"):
            e.unwrapped.view(theirs)


def test_render_and_infos_show_the_acting_seat_only() -> None:
    e = env(render_mode="ansi", info_text=True)
    e.reset(seed=2)
    text = e.render()
    assert isinstance(text, str) and e.agent_selection in text and "moves" in text
    _, _, _, _, info = e.last()
    assert info["text"] == text
    seat = int(e.agent_selection[-1])
    opponent = e.unwrapped.table.match.hand.hands[1 - seat]
    hidden = [str(c) for c in cards_of_mask(opponent)]
    line = next(x for x in text.splitlines() if "hand     :" in x)
    assert not any(card in line for card in hidden)


# Policies at our tables.


def test_policy_player_sits_at_a_table() -> None:
    calls = []

    def policy(obs: np.ndarray[Any, Any], mask: np.ndarray[Any, Any]) -> int:
        calls.append(obs.shape)
        return int(np.flatnonzero(mask)[-1])  # the highest legal action: knocks first

    table = Table(Match("traditional", seed="policy", first_dealer=0),
                  (Computer(PolicyPlayer(policy)), Computer(make("simple", seed=2))))
    table.play_to_end(max_hands=60)
    assert table.match.over and calls and set(calls) == {(OBS_SIZE,)}

    with pytest.raises(IllegalMoveError, match="not legal"):
        bad = PolicyPlayer(lambda obs, mask: int(np.flatnonzero(mask == 0)[0]))
        bad.choose(Hand(seed=1).view(1))
    # A policy that raises, or answers anything but an integer, is named in a PolicyError.
    view = Hand(seed=1).view(1)

    def broken(obs: np.ndarray[Any, Any], mask: np.ndarray[Any, Any]) -> int:
        raise KeyError("GINRUMMY_POLICY_WEIGHTS")

    with pytest.raises(PolicyError, match=r"'.*broken' failed: KeyError: 'GINRUMMY_POLICY"):
        PolicyPlayer(broken).choose(view)
    with pytest.raises(PolicyError, match=r"answered float 1\.5"):
        PolicyPlayer(lambda obs, mask: 1.5).choose(view)
    with pytest.raises(PolicyError, match="answered ndarray"):
        PolicyPlayer(lambda obs, mask: np.flatnonzero(mask)[:1]).choose(view)
    legal = int(np.flatnonzero(action_mask(view))[0])
    assert PolicyPlayer(lambda obs, mask: np.int64(legal)).choose(view) == str(
        move_of(legal, view))


def test_load_policy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert load_policy("ginrummy.env.observation:encode") is encode
    for reference in ("no_colon", "ginrummy.nothing_here:x", "ginrummy.env:nope",
                      "ginrummy.env:OBS_SIZE"):
        with pytest.raises(GinRummyError, match=reference.split(":")[0][:8]):
            load_policy(reference)
    # A module that fails as it is imported: the reference and the reason, as the engine's
    # error (the command line shows it as a usage error, never a traceback).
    (tmp_path / "syntax_slip.py").write_text("def policy(o, m) return 0\n")
    (tmp_path / "raises_at_import.py").write_text("import os\nW = os.environ['NO_SUCH_VAR_X']\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(GinRummyError, match="importing 'syntax_slip' failed: SyntaxError"):
        load_policy("syntax_slip:policy")
    with pytest.raises(GinRummyError, match="'raises_at_import' failed: KeyError"):
        load_policy("raises_at_import:policy")


# The example, in its short form.


def test_example_trains_in_short_form() -> None:
    out = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "train_env.py"), "--short"],
        capture_output=True, text=True, timeout=120, check=True,
        env={"PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin"},
    )
    assert "win rate against simple" in out.stdout


def test_play_against_a_policy_module_in_the_terminal(tmp_path: Path) -> None:
    pexpect = pytest.importorskip("pexpect")
    from test_tui_terminal import answer, prompt

    calls = tmp_path / "calls.txt"
    (tmp_path / "mypolicy.py").write_text(
        "import numpy as np\n"
        "def first_legal(observation, action_mask):\n"
        f"    with open({str(calls)!r}, 'a') as f:\n"
        "        f.write(f'{observation.shape[0]}\\n')\n"
        "    return int(np.flatnonzero(action_mask)[0])\n"
    )
    environ = dict(PYTHONPATH=f"{ROOT / 'src'}:{tmp_path}", GINRUMMY_DATA_DIR=str(tmp_path),
                   TERM="xterm", PATH="/usr/bin:/bin")

    def spawn(*args: str) -> Any:
        return spawn_ginrummy(["play", "--plain", *args], env=environ, dimensions=(60, 200),
                              timeout=30)

    # A fixed seed: the same deals every run (a random one could end the match within the
    # moves below, leaving no save to resume).
    child = spawn("--opponent-module", "mypolicy:first_legal", "--seed", "policy module")
    for _ in range(8):
        question = prompt(child)
        assert question is not None
        child.sendline(answer(child, question))
    assert prompt(child) is not None
    child.sendline("q")
    child.expect(pexpect.EOF)
    assert calls.read_text().split() and set(calls.read_text().split()) == {str(OBS_SIZE)}

    child = spawn()  # the save remembers the policy
    child.expect_exact("level mypolicy:first_legal")
    assert prompt(child) is not None
    child.sendline("q")
    child.expect(pexpect.EOF)

    child = spawn("--new", "--opponent-module", "mypolicy:missing")  # refused before anything
    child.expect_exact("'mypolicy' has no 'missing'")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 2


def test_a_failing_policy_stops_the_terminal_table_with_its_reason(tmp_path: Path) -> None:
    """A policy that raises at its first move: the command says which policy failed and why,
    exits with status 1, and keeps the match saved as it was before that move (no
    traceback)."""
    pytest.importorskip("pexpect")
    from test_tui_terminal import answer, prompt

    (tmp_path / "failing.py").write_text(
        "def policy(observation, action_mask):\n"
        "    raise RuntimeError('weights file missing')\n"
    )
    environ = dict(PYTHONPATH=f"{ROOT / 'src'}:{tmp_path}", GINRUMMY_DATA_DIR=str(tmp_path),
                   TERM="xterm", PATH="/usr/bin:/bin")
    child = spawn_ginrummy(["play", "--plain", "--opponent-module", "failing:policy",
                            "--seed", "failing policy"], env=environ, dimensions=(60, 200),
                           timeout=30)
    for _ in range(6):  # the person's first moves, until the policy is asked for one
        question = prompt(child)
        if question is None:
            break
        child.sendline(answer(child, question))
    else:
        raise AssertionError("the policy was never asked for a move")
    output = (child.before or "")
    child.close()
    assert child.exitstatus == 1
    assert "the policy 'policy' failed: RuntimeError: weights file missing" in output
    assert "saved as it was before that move" in output and "Traceback" not in output
    saves = list(tmp_path.rglob("*.toml"))
    assert saves, "the match was not kept"
