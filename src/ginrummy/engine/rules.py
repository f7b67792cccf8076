"""Rule profiles: the numbers and switches that differ between tables.

A :class:`RuleSet` is frozen; a match fixes one when it starts. The five named profiles come from
RULES.md; any number may be overridden before a match starts, within sane bounds.

>>> rules = get_rules("modern", gin_bonus=30)
>>> rules.gin_bonus, rules.undercut_bonus, rules.describe()
(30, 25, 'modern (gin_bonus=30)')
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Literal, TypeAlias

from .errors import InvalidRulesError

_PROFILE_KEYS = ("traditional", "modern", "browser", "house", "oklahoma")

__all__ = [
    "RuleSet", "PROFILES", "PROFILE_NAMES", "get_rules", "RulesLike", "oklahoma_limit",
    "WinnerRule", "read_override", "from_description",
]

ShutoutRule = Literal["game_bonus", "double", "none"]
WinnerRule = Literal["higher_total", "first_to_target"]
"""Who wins a game: the higher final total (equal totals tie), or the player who reached the
target first, whatever the final totals (RULES.md, "The game")."""


# Sane bounds for numeric overrides, inclusive.
_INT_BOUNDS: dict[str, tuple[int, int]] = {
    "gin_bonus": (0, 1000),
    "undercut_bonus": (0, 1000),
    "big_gin_bonus": (0, 1000),
    "knock_limit": (0, 30),
    "target": (1, 10000),
    "game_bonus": (0, 10000),
    "shutout_game_bonus": (0, 10000),
    "box_bonus": (0, 1000),
}
_BOOL_FIELDS = ("big_gin", "oklahoma", "spade_double", "hollywood", "last_discard_chance")
_CHOICE_FIELDS: dict[str, tuple[str, ...]] = {
    "shutout": ("game_bonus", "double", "none"),
    "shutout_when": ("never_scored", "no_hand_won"),
    "next_dealer": ("winner", "alternate"),
    "after_cancel": ("same", "alternate"),
    "winner": ("higher_total", "first_to_target"),
}
OVERRIDABLE: tuple[str, ...] = (*_INT_BOUNDS, *_BOOL_FIELDS, *_CHOICE_FIELDS)

#: The knock limit of every profile but Oklahoma's; under Oklahoma it must stay at this value
#: (it is ignored there, and an override would be shown on score sheets without effect).
_FIXED_KNOCK_LIMIT = 10
_OKLAHOMA_LIMIT_MESSAGE = (
    "knock_limit cannot be set while oklahoma is on: the first upcard sets the limit"
)

_TRUE = ("1", "true", "yes", "on")
_FALSE = ("0", "false", "no", "off")


def read_override(name: str, value: Any) -> Any:
    """An override as typed (``"40"``, ``"on"``) read into its field's type; any other value
    is passed on unchanged. Checking is :meth:`RuleSet.__post_init__`'s alone."""
    if name not in OVERRIDABLE:
        known = ", ".join(OVERRIDABLE)
        raise InvalidRulesError(f"unknown rule {name!r}; rules that can be changed: {known}")
    if not isinstance(value, str):
        return value
    if name in _INT_BOUNDS:
        text = value.strip()
        # ASCII digits only: int() also reads other scripts' digits ("٣٠" is 30), which no
        # rule book writes.
        if not text.isascii():
            raise InvalidRulesError(f"{name} must be a whole number, not {value!r}")
        try:
            return int(text)
        except ValueError:
            raise InvalidRulesError(f"{name} must be a whole number, not {value!r}") from None
    if name in _BOOL_FIELDS:
        low = value.strip().lower()
        if low in _TRUE:
            return True
        if low in _FALSE:
            return False
    return value


def _invalid(name: str, value: Any) -> str | None:
    """Why ``value`` cannot be the rule ``name``, or None when it can."""
    if name in _INT_BOUNDS:
        if isinstance(value, bool) or not isinstance(value, int):
            return f"{name} must be a whole number, not {value!r}"
        lo, hi = _INT_BOUNDS[name]
        if not lo <= value <= hi:
            return f"{name} must be between {lo} and {hi}, not {value}"
    elif name in _BOOL_FIELDS:
        if not isinstance(value, bool):
            return f"{name} must be on or off, not {value!r}"
    elif value not in _CHOICE_FIELDS[name]:
        return f"{name} must be one of {', '.join(_CHOICE_FIELDS[name])}, not {value!r}"
    return None


@dataclass(frozen=True)
class RuleSet:
    """Everything that varies between gin rummy tables; see ``docs/rules.md``.

    ``knock_limit`` is ignored when ``oklahoma`` is on (the first upcard sets it then).
    ``shutout``: ``"game_bonus"`` pays ``shutout_game_bonus`` instead of ``game_bonus`` when
    the loser qualifies (``shutout_when``), ``"double"`` doubles the winner's final total after
    all bonuses, ``"none"`` does nothing.
    ``winner``: ``"higher_total"`` (the higher final total wins a game, equal totals tie) or
    ``"first_to_target"`` (the player who reached the target wins it, even when the other's
    final total is higher after the bonuses).
    """

    profile: str = "traditional"
    gin_bonus: int = 20
    undercut_bonus: int = 10
    big_gin: bool = False
    big_gin_bonus: int = 31
    knock_limit: int = 10
    oklahoma: bool = False
    spade_double: bool = False
    target: int = 100
    game_bonus: int = 100
    shutout: ShutoutRule = "game_bonus"
    shutout_game_bonus: int = 200
    shutout_when: Literal["never_scored", "no_hand_won"] = "never_scored"
    box_bonus: int = 20
    next_dealer: Literal["winner", "alternate"] = "winner"
    after_cancel: Literal["same", "alternate"] = "same"
    winner: WinnerRule = "higher_total"
    hollywood: bool = False
    last_discard_chance: bool = False
    overrides: tuple[tuple[str, Any], ...] = field(default=(), compare=False)

    def __post_init__(self) -> None:
        if self.profile not in _PROFILE_KEYS:
            known = ", ".join(_PROFILE_KEYS)
            raise InvalidRulesError(f"unknown rule profile {self.profile!r}; choose one of {known}")
        for name in OVERRIDABLE:
            problem = _invalid(name, getattr(self, name))
            if problem is not None:
                raise InvalidRulesError(problem)
        if self.oklahoma and self.knock_limit != _FIXED_KNOCK_LIMIT:
            raise InvalidRulesError(_OKLAHOMA_LIMIT_MESSAGE)

    def knock_limit_for(self, upcard: int | None) -> int:
        """The knock limit of a hand whose first upcard is ``upcard`` (a card index)."""
        if self.oklahoma:
            if upcard is None:
                raise InvalidRulesError("Oklahoma's knock limit needs the hand's first upcard")
            return oklahoma_limit(upcard)
        return self.knock_limit

    def multiplier_for(self, upcard: int | None) -> int:
        """2 when the hand's score is doubled (a spade first upcard under spade doubling)."""
        if self.spade_double and upcard is not None and upcard // 13 == 3:
            return 2
        return 1

    def describe(self) -> str:
        """Profile name and every override, as shown on score sheets: ``modern (gin_bonus=30)``."""
        parts = [f"{k}={_fmt(v)}" for k, v in self.overrides]
        return f"{self.profile} ({', '.join(parts)})" if parts else self.profile

    def hand_repr(self) -> str:
        """``repr`` of the rule set without ``winner``, which no hand depends on (it only says
        who wins a finished game). The coach seeds its randomness from this, so adding the
        match-level rule left every assessment as it was."""
        parts = [
            f"{f.name}={getattr(self, f.name)!r}"
            for f in dataclasses.fields(self)
            if f.repr and f.name != "winner"
        ]
        return f"{type(self).__qualname__}({', '.join(parts)})"

    def with_overrides(self, **changes: Any) -> RuleSet:
        """A copy with some fields changed, each checked against its bounds."""
        return _apply(self, changes)

    def as_dict(self) -> dict[str, Any]:
        """Every field, for display and JSON."""
        out = dataclasses.asdict(self)
        out["overrides"] = dict(self.overrides)
        return out


def from_description(text: str) -> RuleSet:
    """The rule set that :meth:`RuleSet.describe` wrote as ``text`` (``modern (gin_bonus=30)``),
    checked as :func:`get_rules` checks it; :class:`InvalidRulesError` for anything else."""
    profile, _, rest = text.strip().partition(" (")
    changes: dict[str, Any] = {}
    if rest:
        if not rest.endswith(")"):
            raise InvalidRulesError(f"not a description of rules: {text!r}")
        for part in rest[:-1].split(", "):
            name, eq, value = part.partition("=")
            if not eq:
                raise InvalidRulesError(f"not a description of rules: {text!r}")
            changes[name] = value
    return get_rules(profile, **changes)


def _fmt(v: Any) -> str:
    if isinstance(v, bool):
        return "on" if v else "off"
    return str(v)


def oklahoma_limit(upcard: int) -> int:
    """Knock limit from a first upcard: 2-9 its value, 10/J/Q/K 10, ace 0 (gin only)."""
    rank = upcard % 13
    if rank == 0:
        return 0
    return min(rank + 1, 10)


#: What every profile but ``traditional`` shares (seeds 001, 003, 004): 25-point gin and
#: undercut bonuses, the deal alternating, and the game won by whoever reaches the target.
_MODERN_TABLE: dict[str, Any] = {
    "gin_bonus": 25,
    "undercut_bonus": 25,
    "next_dealer": "alternate",
    "winner": "first_to_target",
}
#: Big gin, a doubled total for a shutout when the loser won no hand, and a 25-point box.
_BIG_GIN_DOUBLE_SHUTOUT: dict[str, Any] = {
    "big_gin": True,
    "big_gin_bonus": 31,
    "shutout": "double",
    "shutout_when": "no_hand_won",
    "box_bonus": 25,
}

PROFILES: dict[str, RuleSet] = {
    "traditional": RuleSet(),
    "modern": RuleSet(
        profile="modern", **_MODERN_TABLE, **_BIG_GIN_DOUBLE_SHUTOUT, after_cancel="alternate"
    ),
    "browser": RuleSet(
        profile="browser",
        **_MODERN_TABLE,
        shutout="game_bonus",
        shutout_when="no_hand_won",
        box_bonus=25,
        after_cancel="same",
    ),
    "house": RuleSet(
        profile="house",
        **_MODERN_TABLE,
        game_bonus=0,
        shutout="none",
        shutout_game_bonus=0,
        box_bonus=0,
        after_cancel="alternate",
    ),
    "oklahoma": RuleSet(
        profile="oklahoma",
        **_MODERN_TABLE,
        **_BIG_GIN_DOUBLE_SHUTOUT,
        oklahoma=True,
        spade_double=True,
        target=150,
        after_cancel="alternate",
    ),
}
PROFILE_NAMES: tuple[str, ...] = tuple(PROFILES)


def _apply(base: RuleSet, changes: dict[str, Any]) -> RuleSet:
    if not changes:
        return base
    read = {name: read_override(name, value) for name, value in changes.items()}
    # Naming a knock limit under Oklahoma is refused even at its fixed value: it would be shown
    # on score sheets without effect. (Any other value is refused by RuleSet itself.)
    if read.get("oklahoma", base.oklahoma) is True and "knock_limit" in read:
        raise InvalidRulesError(_OKLAHOMA_LIMIT_MESSAGE)
    profile = PROFILES[base.profile]
    merged = {**dict(base.overrides), **read}
    kept = tuple((k, v) for k, v in merged.items() if getattr(profile, k) != v)
    return dataclasses.replace(base, **read, overrides=kept)  # RuleSet checks every field


RulesLike: TypeAlias = str | RuleSet
"""A profile name or a :class:`RuleSet`."""


def get_rules(rules: RulesLike = "traditional", **overrides: Any) -> RuleSet:
    """The named profile (or the given rule set) with ``overrides`` applied and checked."""
    if isinstance(rules, RuleSet):
        base = rules
    elif isinstance(rules, str):
        name = rules.strip().lower()
        if name not in PROFILES:
            known = ", ".join(PROFILE_NAMES)
            raise InvalidRulesError(f"unknown rule profile {rules!r}; choose one of {known}")
        base = PROFILES[name]
    else:
        raise InvalidRulesError(f"rules must be a profile name or a RuleSet, not {rules!r}")
    return _apply(base, overrides)
