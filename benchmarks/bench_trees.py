"""Two source trees side by side in one run: the expert's decision time, playouts and random
hands through ``Hand``, each tree in its own process, rounds alternating.

Run from the repository root, giving the ``src`` folder of each tree::

    git worktree add --detach /tmp/before b3b57f4     # the tree before a change
    python benchmarks/bench_trees.py --old /tmp/before/src --new src [--rounds 3]

Each round runs one child process per tree (old, then new; the next round new, then old, so a
machine whose load drifts favours neither). A child imports ``ginrummy`` from its tree only
and measures, in CPU seconds (``time.process_time``: other processes' load does not count):

* ``expert decision``: the median time of ``expert.choose(view)`` over positions collected from
  fixed ``hard`` self-play hands (``house`` profile), with the expert's default budget;
* ``playout``: the mean time of one ``playout_hand`` (the expert's and the coach's playout) from
  those positions;
* ``random hands/s``: whole hands through ``Hand.play`` with random legal moves.

The table shows the median of the rounds for each tree and the ratio new / old. Not a test.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from typing import Any


def _child(positions: int, hands: int) -> dict[str, float]:
    from ginrummy.engine.hand import Hand
    from ginrummy.players import make
    from ginrummy.players.rollout import PlayoutPolicy, playout_hand

    # Positions: the seat to play's view in fixed hard self-play hands.
    collected: list[tuple[Hand, int]] = []
    seed = 0
    while len(collected) < positions:
        hand = Hand("house", seed=f"trees/{seed}")
        players = [make("hard", seed=f"trees/{seed}/0"), make("hard", seed=f"trees/{seed}/1")]
        while hand.result is None:
            seat = hand.to_play
            view = hand.view(seat)
            if len(view.legal_moves) > 1 and len(collected) < positions:
                collected.append((hand.copy(), seat))
            hand.play(players[seat].choose(view))
        seed += 1

    expert = make("expert", seed=1)
    times = []
    for hand, seat in collected:
        view = hand.view(seat)
        start = time.process_time()
        expert.choose(view)
        times.append(time.process_time() - start)

    policy = PlayoutPolicy()
    start = time.process_time()
    count = 0
    for _ in range(20):
        for hand, _seat in collected:
            playout_hand(hand, policy)
            count += 1
    playout = (time.process_time() - start) / count

    rng = random.Random(7)
    start = time.process_time()
    for i in range(hands):
        hand = Hand("modern", seed=f"random/{i}")
        while hand.result is None:
            hand.play(rng.choice(hand.legal_moves()))
    per_second = hands / (time.process_time() - start)
    return {
        "expert decision (ms, median)": statistics.median(times) * 1000,
        "playout (µs, mean)": playout * 1e6,
        "random hands/s (Hand.play)": per_second,
    }


def _run(src: str, positions: int, hands: int) -> dict[str, float]:
    env = {**os.environ, "PYTHONPATH": os.path.abspath(src)}
    out = subprocess.run(
        [sys.executable, __file__, "--child", "--positions", str(positions),
         "--hands", str(hands)],
        env=env, check=True, capture_output=True, text=True,
    )
    result: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old", help="the src folder of the tree before")
    parser.add_argument("--new", default="src", help="the src folder of the tree after")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--positions", type=int, default=60)
    parser.add_argument("--hands", type=int, default=300)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(_child(args.positions, args.hands)))
        return
    if not args.old:
        parser.error("--old is required")
    runs: dict[str, list[dict[str, float]]] = {"old": [], "new": []}
    for r in range(args.rounds):
        order = ("old", "new") if r % 2 == 0 else ("new", "old")
        for which in order:
            src = args.old if which == "old" else args.new
            runs[which].append(_run(src, args.positions, args.hands))
            print(f"round {r + 1} {which}: {runs[which][-1]}", file=sys.stderr)
    rows: list[tuple[str, Any, Any, Any]] = []
    for key in runs["old"][0]:
        old = statistics.median(x[key] for x in runs["old"])
        new = statistics.median(x[key] for x in runs["new"])
        rows.append((key, f"{old:,.2f}", f"{new:,.2f}", f"{new / old:.2f}"))
    print(f"| measure (CPU time, median of {args.rounds} rounds) | old | new | new / old |")
    print("|---|--:|--:|--:|")
    for row in rows:
        print("| " + " | ".join(str(x) for x in row) + " |")
    print(f"\nload average at the end: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
