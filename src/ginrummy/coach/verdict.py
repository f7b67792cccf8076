"""The coach's verdict as data: the kind of decision, the rating, the valued alternatives.

:class:`Assessment` is what :meth:`ginrummy.coach.Coach.assess` answers; the sentence-builder
(:mod:`.reasons`) and the coach (:mod:`.assess`) both read these types, so they live here,
below both, and neither imports the other's module for them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import Any, Literal

__all__ = ["Alternative", "Assessment", "DecisionKind", "Rating", "RATINGS"]

DecisionKind = Literal["forced", "opening", "draw", "discard", "knock", "last_chance"]
Rating = Literal["good", "inaccuracy", "mistake"]
RATINGS: tuple[Rating, ...] = ("good", "inaccuracy", "mistake")


@dataclass(frozen=True)
class Alternative:
    """One move the seat could have made, valued over the coach's worlds.

    ``value``: average points for the seat by the end of the hand (negative when the opponent
    scores); ``win_chance``: share of the worlds the seat wins the hand; ``deadwood``: the
    seat's least deadwood after the move when it throws a card (``None`` for take, draw,
    pass); ``undercut_chance``: for a knock, the share of worlds where it is undercut.
    """

    move: str
    words: str
    value: float
    win_chance: float
    deadwood: int | None = None
    undercut_chance: float | None = None


@dataclass(frozen=True)
class Assessment:
    """The coach's judgement of one decision (see the module docstring)."""

    kind: DecisionKind
    move: str
    rating: Rating
    reason: str
    best: str
    loss: float
    noise: float
    alternatives: tuple[Alternative, ...]
    worlds: int
    exact: bool = False

    def alternative(self, move: str) -> Alternative | None:
        """The valued alternative for ``move`` (``None`` if it was not valued)."""
        for a in self.alternatives:
            if a.move == move:
                return a
        return None

    @property
    def better(self) -> Alternative | None:
        """The best move when it is not the one played (what would have been better)."""
        if self.best == self.move:
            return None
        return self.alternative(self.best)

    @property
    def words(self) -> str:
        """The move played, in words (``discard the 7♦``)."""
        own = self.alternative(self.move)
        return own.words if own is not None else self.move

    def as_dict(self) -> dict[str, Any]:
        """Plain data (JSON-ready), read back by :meth:`from_dict`."""
        data = asdict(self)
        data["alternatives"] = [asdict(a) for a in self.alternatives]
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Assessment:
        alts = tuple(Alternative(**a) for a in data["alternatives"])
        fields = {k: v for k, v in data.items() if k != "alternatives"}
        return cls(alternatives=alts, **fields)
