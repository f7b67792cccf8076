"""The PettingZoo environment: random legal actions through the full AEC loop, steps/s, beside
OpenSpiel's ``gin_rummy`` and PettingZoo 1.25's ``gin_rummy_v4``.

Run from the repository root (after ``pip install -e .[bench,env]``)::

    python benchmarks/bench_env.py [--hands 200] [--reps 5] [--seed 1] [--rules browser]
                                   [--pz125-python /tmp/pz125/bin/python] [--markdown]

Every row plays the same number of whole hands per batch, one hand per episode, and counts
steps: the actions agents take (not the ``None`` steps of finished agents, not chance nodes).

- ours, ``ginrummy.env.env()`` (what agents use: the raw env inside PettingZoo's
  ``OrderEnforcingWrapper``) and ``ginrummy.env.raw_env()``: the AEC loop below;
- PettingZoo 1.25's ``gin_rummy_v4`` (RLCard 1.2.0 inside): the same loop, the same source
  text, run in a worker process of another virtual environment (``--pz125-python``; PettingZoo
  dropped the env after 1.25, so it cannot live beside the current PettingZoo). Make one with
  ``python3 -m venv /tmp/pz125 && /tmp/pz125/bin/pip install "pettingzoo[classic]==1.25.0"``.
  The worker imports once and then times batches on request, so process start-up is not timed;
- OpenSpiel 2.0.2's ``gin_rummy`` through its Python API: ``new_initial_state()``, a random
  element of ``legal_actions()`` at every player node (chance nodes sampled uniformly, not
  counted) until terminal. Not an AEC loop: OpenSpiel has none.

The AEC loop (``LOOP``, executed as written in both processes)::

    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        action = None if terminated or truncated else random legal action from obs["action_mask"]
        env.step(action)

The issue's target: ours at least 5x ``gin_rummy_v4``'s steps/s.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
from collections.abc import Callable, Sequence
from typing import Any

import pyspiel

from _common import (
    Measure,
    environment_lines,
    load_line,
    parse_shared_args,
    print_table,
    run_interleaved,
)
from ginrummy.engine.rules import PROFILE_NAMES
from ginrummy.env import env as ginrummy_env
from ginrummy.env import raw_env

#: The timed loop, as source text so that the reference's worker runs exactly the same code.
LOOP = '''
def run_hands(env, n, seed):
    """Play ``n`` hands (episodes seeded ``seed + i``) with random legal actions from the
    mask; return the number of actions taken."""
    import random
    import numpy as np
    rng = random.Random(seed)
    steps = 0
    for i in range(n):
        env.reset(seed=seed + i)
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, info = env.last()
            if terminated or truncated:
                action = None
            else:
                legal = np.flatnonzero(obs["action_mask"])
                action = int(legal[rng.randrange(len(legal))])
                steps += 1
            env.step(action)
    return steps
'''

#: The worker of the reference: reads "hands seed" lines, answers with the steps taken.
WORKER = LOOP + '''
import sys
import warnings
warnings.filterwarnings("ignore")
from pettingzoo.classic import gin_rummy_v4
env = gin_rummy_v4.env()
print("ready", flush=True)
for line in sys.stdin:
    n, seed = map(int, line.split())
    print(run_hands(env, n, seed), flush=True)
'''

_namespace: dict[str, Any] = {}
exec(LOOP, _namespace)
run_hands: Callable[[Any, int, int], int] = _namespace["run_hands"]


def aec_measure(engine: str, what: str, make_env: Callable[[], Any], hands: int, seed: int,
                *, reference: bool = False) -> Measure:
    """A row that plays ``hands`` hands through the AEC loop in this process."""
    env = make_env()
    m = Measure(engine, what, lambda: 0, reference=reference)

    def work() -> int:
        steps = run_hands(env, hands, seed)
        m.extra["steps/hand"] = f"{steps / hands:.1f}"
        return steps

    m.work = work
    return m


def openspiel_measure(hands: int, seed: int) -> Measure:
    """OpenSpiel's gin_rummy: random legal actions at player nodes (counted) and chance nodes
    (sampled uniformly: OpenSpiel's deal and stock outcomes are equally likely)."""
    game = pyspiel.load_game("gin_rummy")
    m = Measure("OpenSpiel", "gin_rummy state, random legal actions", lambda: 0)

    def work() -> int:
        choice = random.Random(seed).choice
        steps = 0
        for _ in range(hands):
            state = game.new_initial_state()
            while not state.is_terminal():
                if not state.is_chance_node():
                    steps += 1
                state.apply_action(choice(state.legal_actions()))
        m.extra["steps/hand"] = f"{steps / hands:.1f}"
        return steps

    m.work = work
    return m


class Worker:
    """The reference's process: started once, asked for one batch at a time."""

    def __init__(self, python: str) -> None:
        self.proc = subprocess.Popen(
            [python, "-c", WORKER], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )
        assert self.proc.stdout is not None
        ready = self.proc.stdout.readline().strip()
        if ready != "ready":
            self.close()
            sys.exit(f"the gin_rummy_v4 worker did not start ({python}): {ready!r}")

    def run(self, hands: int, seed: int) -> int:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(f"{hands} {seed}\n")
        self.proc.stdin.flush()
        return int(self.proc.stdout.readline())

    def version(self, python: str) -> str:
        out = subprocess.run(
            [python, "-c", "import importlib.metadata as m, platform; print("
             "'python', platform.python_version(), '| pettingzoo', m.version('pettingzoo'),"
             " '| rlcard', m.version('rlcard'), '| numpy', m.version('numpy'))"],
            capture_output=True, text=True, check=True,
        )
        return out.stdout.strip()

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        self.proc.wait(timeout=30)


def worker_measure(worker: Worker, hands: int, seed: int) -> Measure:
    m = Measure("PettingZoo 1.25", "gin_rummy_v4 env(), AEC loop", lambda: 0, reference=True)

    def work() -> int:
        steps = worker.run(hands, seed)
        m.extra["steps/hand"] = f"{steps / hands:.1f}"
        return steps

    m.work = work
    return m


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--hands", type=int, default=200, help="hands per batch (200)")
    parser.add_argument("--reps", type=int, default=5, help="repetitions of each batch (5)")
    parser.add_argument("--seed", type=int, default=1, help="seed of deals and actions (1)")
    parser.add_argument("--rules", default="browser", choices=PROFILE_NAMES,
                        help="our rule profile (browser: the closest to OpenSpiel's defaults)")
    parser.add_argument("--pz125-python", default=None, metavar="PYTHON",
                        help="python of a venv with pettingzoo[classic]==1.25.0 (the reference)")
    parser.add_argument("--markdown", action="store_true", help="print Markdown tables")
    args = parse_shared_args(parser, argv)
    n, seed = args.hands, args.seed

    print("PettingZoo AEC loop, random legal actions, steps per second")
    for line in environment_lines(["ginrummy", "pettingzoo", "gymnasium", "open_spiel",
                                   "numpy"]):
        print(line)
    print(f"work    : {n:,} hands per batch (seed {seed}), repetitions: {args.reps};"
          f" our rules: {args.rules}")

    rows = [
        aec_measure("ours", "ginrummy.env.env(), AEC loop",
                    lambda: ginrummy_env(profile=args.rules), n, seed),
        aec_measure("ours", "ginrummy.env.raw_env(), AEC loop",
                    lambda: raw_env(profile=args.rules), n, seed),
        openspiel_measure(n, seed),
    ]
    worker = None
    if args.pz125_python:
        worker = Worker(args.pz125_python)
        print(f"reference: {worker.version(args.pz125_python)} ({args.pz125_python})")
        rows.append(worker_measure(worker, n, seed))
    else:
        rows[2].reference = True
        print("No --pz125-python: gin_rummy_v4 is left out; OpenSpiel is the reference.")

    print("\nTiming (progress on stderr):", file=sys.stderr)
    try:
        run_interleaved(rows, args.reps)
    finally:
        if worker is not None:
            worker.close()
    print_table(f"AEC loop with random legal actions ({n:,} hands per batch, "
                f"repetitions: {args.reps})", "steps", rows, markdown=args.markdown)
    ref = next(m for m in rows if m.reference)
    print(f"\n'vs reference' = median steps/s divided by {ref.engine} {ref.what}'s median."
          " A step is one agent action (None steps of finished agents and chance nodes are"
          " not counted).")
    print(load_line("at the end"))


if __name__ == "__main__":
    main()
