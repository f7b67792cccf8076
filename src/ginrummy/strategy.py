"""The strategy tips, each with a sample situation that shows it and evidence from self-play.

The data is the package's ``data/strategy_tips.json``, written by
``benchmarks/strategy_tips.py``: for each tip, a player that follows it played 2,000 hands
against one that ignores it (both built on ``medium``; ``hard`` too for "knock early"), and the
follower's net points per hand is kept with its 95% interval. :func:`strategy_tips` joins each
tip with its situation (:func:`ginrummy.lessons.load_situations`) and says in words what the
figure shows, against which kind of opponent, and plainly when our measurements disagree with
the tip. The web page (``GET /api/learn/strategy``) and ``ginrummy strategy`` show the same.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

from .lessons import load_situations

__all__ = ["Evidence", "Tip", "strategy_data", "strategy_tips"]

@dataclass(frozen=True)
class Evidence:
    """One self-play run: the follower's net points per hand against the ignorer (each named
    in words too), and the command that reproduces it."""

    follower: str
    ignorer: str
    hands: int
    mean: float
    low: float
    high: float
    hand_share: float
    follower_words: str = ""
    ignorer_words: str = ""
    command: str = ""

    @property
    def verdict(self) -> str:
        """``holds`` (the interval is above 0), ``disagrees`` (below 0) or ``unclear``."""
        if self.low > 0:
            return "holds"
        if self.high < 0:
            return "disagrees"
        return "unclear"

    @property
    def figure(self) -> str:
        """The figure with its interval: ``+1.9 points a hand (+1.0 to +2.8)``."""
        return f"{self.mean:+.1f} points a hand ({self.low:+.1f} to {self.high:+.1f})"

    @property
    def sentence(self) -> str:
        """What the run shows, in words, naming both players."""
        follower = self.follower_words or self.follower
        ignorer = self.ignorer_words or self.ignorer
        head = f"{follower} against {ignorer}: {self.figure} over {self.hands:,} hands"
        if self.verdict == "holds":
            return f"{head}. Following the tip pays against this opponent."
        if self.verdict == "disagrees":
            return (f"{head}. Our measurements disagree with the tip here: against this "
                    "opponent it costs points.")
        return f"{head}. No clear difference at this sample size."


@dataclass(frozen=True)
class Tip:
    """A tip in our words, its situation (id and title) and the evidence for it."""

    key: str
    title: str
    text: str
    situation_id: str
    situation_title: str
    evidence: tuple[Evidence, ...]
    note: str


@lru_cache(maxsize=1)
def strategy_data() -> dict[str, Any]:
    """The raw data file (tips, runs, the command that made them)."""
    text = (resources.files("ginrummy") / "data" / "strategy_tips.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def _evidence(run: dict[str, Any], words: dict[str, str]) -> Evidence:
    net = run["net_points_per_hand"]
    return Evidence(
        follower=run["follower"], ignorer=run["ignorer"], hands=int(run["hands"]),
        mean=float(net["mean"]), low=float(net["low"]), high=float(net["high"]),
        hand_share=float(run["hand_wins"]["share"]),
        follower_words=words.get(run["follower"], ""),
        ignorer_words=words.get(run["ignorer"], ""),
        command=str(run.get("command", "")),
    )


def strategy_tips() -> list[Tip]:
    """Every tip, in order, with its situation and evidence; raises ``KeyError`` when a tip
    names a situation that does not exist (the tests check it never does)."""
    data = strategy_data()
    situations = {s.id: s for s in load_situations()}
    out = []
    for tip in data["tips"]:
        situation = situations[tip["situation"]]
        evidence = tuple(_evidence(r, data.get("players", {})) for r in data["runs"]
                         if r["tip"] == tip["key"])
        out.append(Tip(
            key=tip["key"], title=tip["title"], text=tip["tip"],
            situation_id=situation.id, situation_title=situation.lesson.title,
            evidence=evidence, note=tip.get("note", ""),
        ))
    return out
