"""A round robin: every pair of players plays the same number of whole matches.

Each pair ``(i, j)`` (``i < j`` in the order given) is a :class:`~ginrummy.selfplay.simulate.Setup`
whose seed is ``"{seed}/pair/{i}-{j}"``, so the whole tournament is reproducible from one seed and
independent of the number of worker processes. Within a pair, seats and the first deal alternate as
in :mod:`ginrummy.selfplay.simulate`, whose :func:`~ginrummy.selfplay.simulate.play_one_match` plays
each match at a :class:`~ginrummy.engine.table.Table` of two computers that keep their own RNG
streams.

>>> t = Tournament.of("traditional", ["random", "random"], matches=0, seed="doc")
>>> t.labels, [job.setup.seed for job in t.jobs()]
(['random', 'random#2'], [])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..engine.errors import GinRummyError
from ..engine.rules import RuleSet, RulesLike
from .simulate import Job, MatchRecord, PlayerSpec, Record, Setup, chunk_size, split
from .stats import bradley_terry, wilson

__all__ = ["Tournament", "summarize_tournament"]


def _labels(players: Sequence[PlayerSpec]) -> list[str]:
    """Distinct labels: a player's name, then ``name#2``, ``name#3`` for repeats."""
    seen: dict[str, int] = {}
    out = []
    for spec in players:
        name = spec if isinstance(spec, str) else str(getattr(spec, "name", spec))
        seen[name] = seen.get(name, 0) + 1
        out.append(name if seen[name] == 1 else f"{name}#{seen[name]}")
    return out


@dataclass(frozen=True)
class Tournament:
    """Players (names, or factories as in :class:`~ginrummy.selfplay.simulate.Setup`; repeated names
    get ``#2``, ``#3`` labels), rules, matches per pair and the master seed."""

    rules: RuleSet
    players: tuple[PlayerSpec, ...]
    labels: list[str]
    matches: int
    seed: str

    @classmethod
    def of(
        cls,
        rules: RulesLike,
        players: Sequence[PlayerSpec],
        *,
        matches: int,
        seed: int | str | None = None,
    ) -> Tournament:
        if len(players) < 2:
            raise GinRummyError("a tournament needs at least two players")
        if matches < 0:
            raise GinRummyError(f"matches per pair must be 0 or more, not {matches}")
        first = Setup.of(rules, [players[0], players[1]], seed=seed)
        for p in players[2:]:
            Setup.of(rules, [p, p], seed=0)
        return cls(first.rules, tuple(players), _labels(players), matches, first.seed)

    def pairs(self) -> list[tuple[int, int]]:
        n = len(self.players)
        return [(i, j) for i in range(n) for j in range(i + 1, n)]

    def setup(self, i: int, j: int) -> Setup:
        return Setup(self.rules, (self.players[i], self.players[j]), f"{self.seed}/pair/{i}-{j}")

    def jobs(self, workers: int = 1) -> list[Job]:
        """Every pair's matches, cut into jobs, pair by pair."""
        total = self.matches * len(self.pairs())
        size = chunk_size("matches", total, workers) if total else 1
        out: list[Job] = []
        for i, j in self.pairs():
            out.extend(split(self.setup(i, j), "matches", self.matches, size))
        return out


def summarize_tournament(t: Tournament, parts: Sequence[Sequence[Record]],
                         anchor: str | None = None) -> dict[str, Any]:
    """The cross-table (each player's score against each other, ties ½, with Wilson
    intervals), each player's overall score, and Bradley–Terry ratings (Elo scale, mean 1500
    or ``anchor`` at 1500). ``parts`` are the results of :meth:`Tournament.jobs`, in order."""
    n = len(t.players)
    by_pair: dict[tuple[int, int], list[MatchRecord]] = {}
    matches = [r for part in parts for r in part if isinstance(r, MatchRecord)]
    pairs = t.pairs()
    if len(matches) != len(pairs) * t.matches:
        raise GinRummyError("the results do not match the tournament's jobs")
    for k, (i, j) in enumerate(pairs):
        by_pair[(i, j)] = matches[k * t.matches:(k + 1) * t.matches]
    wins = [[0.0] * n for _ in range(n)]
    games = [[0] * n for _ in range(n)]
    unfinished = 0
    pair_rows = []
    for (i, j), records in by_pair.items():
        done = [m for m in records if m.finished]
        unfinished += len(records) - len(done)
        score_i = sum(m.score_of(0) for m in done)
        wins[i][j] += score_i
        wins[j][i] += len(done) - score_i
        games[i][j] = games[j][i] = len(done)
        pair_rows.append({
            "players": [t.labels[i], t.labels[j]],
            "matches": len(records),
            "finished": len(done),
            "wins": [sum(m.winner_player == 0 for m in done),
                     sum(m.winner_player == 1 for m in done)],
            "ties": sum(m.winner_seat is None for m in done),
            "score": wilson(score_i, len(done)).as_dict(),
        })
    cross = {
        t.labels[i]: {
            t.labels[j]: wilson(wins[i][j], games[i][j]).as_dict() for j in range(n) if j != i
        }
        for i in range(n)
    }
    overall = {
        t.labels[i]: wilson(sum(wins[i]), sum(games[i])).as_dict() for i in range(n)
    }
    ratings: dict[str, Any] | None = None
    if all(games[i][j] for i, j in pairs):
        ratings = bradley_terry(t.labels, wins, anchor=anchor).as_dict()
    return {
        "pairs": pair_rows,
        "unfinished": unfinished,
        "cross_table": cross,
        "overall": overall,
        "ratings": ratings,
    }
