"""What a self-play run measured: its records reduced to shares and means with 95% intervals.

The summaries are plain dictionaries with stable keys, ready for JSON; the terminal table and
``--json`` both print them, so they always agree. See ``docs/simulate.md`` for what each
statistic means.

>>> from ginrummy.selfplay.simulate import Setup, run_hands
>>> records = run_hands(Setup.of("traditional", ["random", "random"], seed=1), 6)
>>> s = summarize_hands(records, ("random", "random"))
>>> sum(o["count"] for o in s["outcomes"].values()) == s["hands"] == 6
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .simulate import KINDS, HandRecord, MatchRecord
from .stats import mean_interval, wilson

__all__ = ["summarize_hands", "summarize_matches"]


def summarize_hands(records: Sequence[HandRecord], names: Sequence[str]) -> dict[str, Any]:
    """Shares of each ending, knock deadwood, points, turns, the first player's edge,
    fresh-deal deadwood and each player's share of the hands, over ``records``."""
    n = len(records)
    scored = [r for r in records if r.winner_seat is not None]
    outcomes = {kind: wilson(sum(r.kind == kind for r in records), n).as_dict() for kind in KINDS}
    knocks = [r.knocker_deadwood for r in records if r.kind in ("knock", "undercut")]
    first_wins = sum(r.winner_seat == r.first for r in scored)
    players = []
    for k, name in enumerate(names):
        wins = sum(r.winner_player == k for r in scored)
        players.append(
            {
                "name": name,
                "hand_wins": wilson(wins, len(scored)).as_dict(),
                "net_points_per_hand": mean_interval(
                    r.net_points(_seat_of(r, k)) for r in records
                ).as_dict(),
            }
        )
    return {
        "hands": n,
        "scored_hands": len(scored),
        "outcomes": outcomes,
        "knock_deadwood": mean_interval(d for d in knocks if d is not None).as_dict(),
        "points_per_scored_hand": mean_interval(r.points for r in scored).as_dict(),
        "turns_per_hand": mean_interval(r.turns for r in records).as_dict(),
        "first_player": {
            "hand_wins": wilson(first_wins, len(scored)).as_dict(),
            "net_points_per_hand": mean_interval(r.net_points(r.first) for r in records).as_dict(),
        },
        "fresh_deadwood": {
            "dealer": mean_interval(r.fresh_deadwood[r.dealer] for r in records).as_dict(),
            "non_dealer": mean_interval(r.fresh_deadwood[r.first] for r in records).as_dict(),
        },
        "players": players,
    }


def _seat_of(record: HandRecord | MatchRecord, player: int) -> int:
    return record.a_seat if player == 0 else 1 - record.a_seat


def summarize_matches(matches: Sequence[MatchRecord], names: Sequence[str]) -> dict[str, Any]:
    """Match results (wins with ties as half, margins, hands per match, the first dealer's
    opponent's edge) plus :func:`summarize_hands` over every hand of every match."""
    n = len(matches)
    finished = [m for m in matches if m.finished]
    ties = sum(m.winner_seat is None for m in finished)
    players = []
    for k, name in enumerate(names):
        players.append(
            {
                "name": name,
                "wins": sum(m.winner_player == k for m in finished),
                "score": wilson(sum(m.score_of(k) for m in finished), len(finished)).as_dict(),
                "margin": mean_interval(
                    m.totals[_seat_of(m, k)] - m.totals[1 - _seat_of(m, k)] for m in finished
                ).as_dict(),
            }
        )
    # The player who does not deal the first hand acts first in the match.
    first = [m for m in finished if m.winner_seat is not None]
    first_wins = sum(m.winner_seat == 1 - m.first_dealer for m in first)
    hands = [h for m in matches for h in m.hands]
    return {
        "matches": n,
        "finished": len(finished),
        "unfinished": n - len(finished),
        "ties": ties,
        "players": players,
        "first_player_wins": wilson(first_wins, len(first)).as_dict(),
        "hands_per_match": mean_interval(len(m.hands) for m in finished).as_dict(),
        "hand_stats": summarize_hands(hands, names),
    }
