"""The strategy tips, each with a sample situation that shows it and evidence from self-play.

The data is the package's ``data/strategy_tips.json``, written by
``benchmarks/strategy_tips.py``: for each tip, a player that follows it played 2,000 or 10,000
hands against one that differs only in ignoring it (both built on ``medium``), and the
follower's net points per hand is kept with its 95% interval; the tips come surest first.
:func:`strategy_tips` joins each tip with its situation (:func:`ginrummy.lessons.load_situations`)
and says the figure in one short line (:attr:`Evidence.line`). The web page
(``GET /api/learn/strategy``) and ``ginrummy strategy`` show the same; the commands that made
the figures are in the data and in ``docs/learning.md``, not in front of the player.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

from . import load_situations

__all__ = ["ABOUT", "Evidence", "Tip", "strategy_data", "strategy_tips"]

#: What the tips are and what their figures mean, said once above them (page and terminal).
ABOUT = ("Seven tips, the surest first, each with an example to try on the table. Each figure "
         "is what following the tip gained when our computer played itself with and without "
         "it: points a hand, with a 95% range.")

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
    def line(self) -> str:
        """The figure in one short line, in words that follow the interval."""
        said = f"{self.figure} over {self.hands:,} hands"
        if self.verdict == "holds":
            return f"In self-play, following it gained {said}."
        if self.verdict == "disagrees":
            return f"In self-play, following it cost {said}."
        return (f"In self-play, no clear difference: {said}; it counts in spots like "
                "the example.")


@dataclass(frozen=True)
class Tip:
    """A tip in our words, its situation (id and neutral heading: the player has not answered
    it yet) and the evidence for it (the first run is the one the player is shown)."""

    key: str
    title: str
    text: str
    situation_id: str
    situation_title: str
    evidence: tuple[Evidence, ...]

    @property
    def line(self) -> str:
        """The figure the player is shown, in one short line."""
        return self.evidence[0].line


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
    """Every tip, in the data's order (surest first), with its situation and evidence; raises
    ``KeyError`` when a tip names a situation that does not exist and ``ValueError`` when it
    has no run (the tests check neither happens)."""
    data = strategy_data()
    situations = {s.id: s for s in load_situations()}
    out = []
    for tip in data["tips"]:
        situation = situations[tip["situation"]]
        evidence = tuple(_evidence(r, data.get("players", {})) for r in data["runs"]
                         if r["tip"] == tip["key"])
        if not evidence:
            raise ValueError(f"the strategy tip {tip['key']!r} has no run in the data")
        out.append(Tip(
            key=tip["key"], title=tip["title"], text=tip["tip"],
            situation_id=situation.id, situation_title=situation.lesson.heading,
            evidence=evidence,
        ))
    return out
