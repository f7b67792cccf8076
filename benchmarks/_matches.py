"""What the player benchmarks share: player specs, balanced match series in worker processes,
and 95% Wilson intervals.

A series of ``n`` matches between A and B is balanced: match ``i`` seats A in seat ``i % 2``,
lets seat ``(i // 2) % 2`` deal first, and deals from the seed ``"{seed}/{i // 4}"``, so every
four consecutive matches play the same decks with the seats and the first dealer swapped.
Every player gets its own RNG seed derived from the series seed and the match number, so a
series is reproducible (the ``expert`` player's decisions depend on its sample budget, never
on the clock, unless a time limit is given).
"""

from __future__ import annotations

import dataclasses
import math
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from ginrummy.engine.hand import Hand
from ginrummy.engine.match import Match
from ginrummy.engine.player import Player
from ginrummy.engine.view import PlayerView
from ginrummy.players import make
from ginrummy.players.expert import ExpertPlayer
from ginrummy.players.hard import HARD, HardPlayer, Style
from ginrummy.players.knowledge import PATIENT_FIT, QUICK_FIT
from ginrummy.selfplay.play import play_match

__all__ = ["MatchResult", "PlayerSpec", "Series", "balanced_match", "decisions", "run_series",
           "wilson"]


def wilson(k: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion ``k / n`` (as fractions)."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    d = 1 + z * z / n
    centre = p + z * z / (2 * n)
    radius = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (centre - radius) / d, (centre + radius) / d


@dataclass(frozen=True)
class PlayerSpec:
    """A player by name, with an optional ``expert`` budget (``samples``) and other
    :class:`~ginrummy.players.expert.ExpertPlayer` settings (``options``, as text pairs)."""

    name: str
    samples: int | None = None
    options: tuple[tuple[str, str], ...] = ()

    def build(self, seed: str) -> Player:
        if self.samples is not None or self.options:
            settings: dict[str, Any] = {k: _setting(v) for k, v in self.options}
            if self.name == "hard":
                return HardPlayer(seed, _style(settings))
            for name, default in (("quick_fit", QUICK_FIT), ("patient_fit", PATIENT_FIT)):
                fields = {k.removeprefix(name + "."): settings.pop(k)
                          for k in list(settings) if k.startswith(name + ".")}
                if fields:
                    settings[name] = dataclasses.replace(default, **fields)
                elif settings.get(name) is True:
                    settings[name] = default
            style = {k.removeprefix("style."): settings.pop(k)
                     for k in list(settings) if k.startswith("style.")}
            if style:
                settings["style"] = _style(style)
            if self.samples is not None:
                settings["samples"] = self.samples
            return ExpertPlayer(seed, **settings)
        return make(self.name, seed=seed)

    def __str__(self) -> str:
        text = self.name + "".join(f"/{k}={v}" for k, v in self.options)
        return text if self.samples is None else f"{text}({self.samples} samples)"

    @classmethod
    def parse(cls, text: str) -> PlayerSpec:
        """``name``, ``expert:SAMPLES``, ``expert/KEY=VALUE/...`` (settings of the expert,
        e.g. ``expert/search_knocks=true/max_samples=300``; ``style.KEY=VALUE`` sets a field of
        the ``hard`` style it builds on, ``quick_fit.KEY=VALUE`` and ``patient_fit.KEY=VALUE``
        a field of its :class:`~ginrummy.players.knowledge.Fit`s, ``quick_fit=true`` gives it
        ``QUICK_FIT`` as it is) or ``hard/KEY=VALUE/...`` (fields of ``hard``'s
        :class:`~ginrummy.players.hard.Style`, e.g. ``hard/min_knock_gain=8``)."""
        text, _, samples = text.partition(":")
        name, *pairs = text.split("/")
        options = []
        for pair in pairs:
            key, sep, value = pair.partition("=")
            if not sep or not key:
                raise ValueError(f"cannot read the setting {pair!r} of {text!r}; write KEY=VALUE")
            options.append((key, value))
        if options and name not in ("expert", "hard"):
            raise ValueError(f"only expert and hard take settings, not {name!r}")
        return cls(name, int(samples) if samples else None, tuple(options))


def _style(settings: dict[str, Any]) -> Style:
    """``hard``'s default style with these fields changed (``evidence.NAME``: a field of its
    :class:`~ginrummy.players.knowledge.Evidence`)."""
    evidence = {k.removeprefix("evidence."): settings.pop(k)
                for k in list(settings) if k.startswith("evidence.")}
    if evidence:
        settings["evidence"] = dataclasses.replace(HARD.evidence, **evidence)
    return dataclasses.replace(HARD, **settings)


def _setting(text: str) -> Any:
    """A setting's value from its text: true/false, an int, a float, or a tuple of ints
    (``0+10``), or ``none``."""
    if text in ("true", "false"):
        return text == "true"
    if text == "none":
        return None
    if "+" in text:
        return tuple(int(x) for x in text.split("+"))
    try:
        return int(text)
    except ValueError:
        return float(text)


@dataclass(frozen=True)
class MatchResult:
    index: int
    a_won: bool | None  # None: a tie
    hands: int
    a_hands_won: int
    b_hands_won: int
    a_points: int
    b_points: int
    seconds: float


def balanced_match(seed: str, i: int, a: Player, b: Player,
                   rules: str = "house") -> tuple[Match, list[Player]]:
    """Match ``i`` of a balanced series (above) between ``a`` and ``b``, not started, and the
    players by seat."""
    players = [a, b] if i % 2 == 0 else [b, a]
    return Match(rules, seed=f"{seed}/{i // 4}", first_dealer=(i // 2) % 2), players


def decisions(match: Match, players: Sequence[Player]) -> Iterator[tuple[Hand, int, PlayerView]]:
    """Plays ``match`` to its end, yielding the hand, the seat to play and its view before each
    move is chosen (so a diagnostic can read the hidden cards beside the view, or prime a
    player with them)."""
    while not match.over:
        if match.hand.over:
            match.next_hand()
        hand = match.hand
        while not hand.over:
            mover = hand.to_play
            view = match.view(mover)
            yield hand, mover, view
            match.play(players[mover].choose(view))


def _one_match(args: tuple[PlayerSpec, PlayerSpec, str, int, str]) -> MatchResult:
    a, b, rules, i, seed = args
    start = time.perf_counter()
    a_seat = i % 2
    first_dealer = (i // 2) % 2
    pa = a.build(f"{seed}/A/{i}")
    pb = b.build(f"{seed}/B/{i}")
    players = [pa, pb] if a_seat == 0 else [pb, pa]
    match = play_match(rules, players, seed=f"{seed}/{i // 4}", first_dealer=first_dealer)
    winner = match.score.winner
    won = [0, 0]
    for result in match.results:
        if result.winner_seat is not None:
            won[result.winner_seat] += 1
    totals = match.score.totals
    return MatchResult(
        index=i,
        a_won=None if winner is None else winner == a_seat,
        hands=len(match.hands),
        a_hands_won=won[a_seat],
        b_hands_won=won[1 - a_seat],
        a_points=totals[a_seat],
        b_points=totals[1 - a_seat],
        seconds=time.perf_counter() - start,
    )


@dataclass
class Series:
    """The results of one pairing."""

    a: PlayerSpec
    b: PlayerSpec
    results: list[MatchResult]
    wall: float

    @property
    def n(self) -> int:
        return len(self.results)

    @property
    def wins(self) -> int:
        return sum(1 for r in self.results if r.a_won)

    @property
    def ties(self) -> int:
        return sum(1 for r in self.results if r.a_won is None)

    def summary(self) -> dict[str, Any]:
        n = self.n
        lo, hi = wilson(self.wins + 0.5 * self.ties, n)
        hands = sum(r.hands for r in self.results)
        a_hands = sum(r.a_hands_won for r in self.results)
        b_hands = sum(r.b_hands_won for r in self.results)
        decided = a_hands + b_hands
        hlo, hhi = wilson(a_hands, decided)
        return {
            "pairing": f"{self.a} vs {self.b}",
            "matches": n,
            "won": self.wins,
            "tied": self.ties,
            "win %": 100 * (self.wins + 0.5 * self.ties) / n if n else 0.0,
            "ci": (100 * lo, 100 * hi),
            "hands": hands,
            "hand win %": 100 * a_hands / decided if decided else 0.0,
            "hand ci": (100 * hlo, 100 * hhi),
            "cpu s/match": sum(r.seconds for r in self.results) / n if n else 0.0,
        }


def run_series(
    a: PlayerSpec,
    b: PlayerSpec,
    n: int,
    *,
    rules: str,
    seed: str,
    workers: int,
    progress: Callable[[int, int], None] | None = None,
    start: int = 0,
) -> Series:
    """Play ``n`` balanced matches between ``a`` and ``b`` in ``workers`` processes: the
    matches numbered ``start`` to ``start + n - 1``."""
    began = time.perf_counter()
    jobs = [(a, b, rules, i, seed) for i in range(start, start + n)]
    results: list[MatchResult] = []
    if workers <= 1:
        for job in jobs:
            results.append(_one_match(job))
            if progress:
                progress(len(results), n)
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            for result in pool.map(_one_match, jobs, chunksize=1):
                results.append(result)
                if progress:
                    progress(len(results), n)
    return Series(a, b, results, time.perf_counter() - began)


def pct(x: float) -> str:
    return f"{x:5.1f}%"


def ci_text(ci: Sequence[float]) -> str:
    return f"{ci[0]:.1f}-{ci[1]:.1f}%"
