"""The numbers of a :class:`~ginrummy.engine.rules.RuleSet` in short lines, for the new-game window.

``bonus_lines`` is what the new-game window shows before a match starts: every number that
differs between tables. It reads the rule set only, so it cannot disagree with the engine. The
rules panel itself is :func:`ginrummy.words.cheatsheet.cheat_sheet`, shared with the terminal.

>>> from ginrummy.engine.rules import get_rules
>>> bonus_lines(get_rules("traditional"))[:2]
['Gin bonus: 20', 'Undercut bonus: 10']
"""

from __future__ import annotations

from ..engine.rules import PROFILE_NAMES, RuleSet, get_rules
from ..words.cheatsheet import PROFILE_TITLES, shutout_condition, winner_rule

__all__ = ["PROFILE_TITLES", "bonus_lines", "profile_catalogue"]


def _knock_limit(rules: RuleSet) -> str:
    if rules.oklahoma:
        return (
            "set by the first upcard: 2–9 its value, 10/J/Q/K 10, an ace means gin only"
        )
    if rules.knock_limit == 0:
        return "0 (gin only)"
    return str(rules.knock_limit)


def _game_bonus(rules: RuleSet) -> str:
    if rules.game_bonus == 0 and rules.shutout != "game_bonus":
        return "none"
    text = str(rules.game_bonus)
    if rules.shutout == "game_bonus":
        text += f" ({rules.shutout_game_bonus} if {shutout_condition(rules)})"
    return text


def _shutout(rules: RuleSet) -> str | None:
    if rules.shutout == "double":
        return "Shutout (the loser won no hand): the winner's final total is doubled"
    return None


def bonus_lines(rules: RuleSet) -> list[str]:
    """Every number of this table that a player should know before starting."""
    lines = [
        f"Gin bonus: {rules.gin_bonus}",
        f"Undercut bonus: {rules.undercut_bonus}",
        f"Big gin: {rules.big_gin_bonus}" if rules.big_gin else "Big gin: not played",
        f"Knock limit: {_knock_limit(rules)}",
        f"Game to {rules.target} points",
        f"Game bonus: {_game_bonus(rules)}",
        f"Box bonus: {rules.box_bonus} per hand won" if rules.box_bonus else "Box bonus: none",
    ]
    lines.append(f"Winner of a game: {winner_rule(rules)}")
    shut = _shutout(rules)
    if shut:
        lines.append(shut)
    if rules.spade_double:
        lines.append("A spade as first upcard doubles the hand's score")
    lines.append(
        "Hollywood: three games at once" if rules.hollywood else "Hollywood: off (one game)"
    )
    lines.append(
        "Last-discard chance: on" if rules.last_discard_chance else "Last-discard chance: off"
    )
    return lines


def profile_catalogue() -> list[tuple[str, str, RuleSet]]:
    """Each profile's key, title and rule set, in menu order."""
    return [(name, PROFILE_TITLES[name], get_rules(name)) for name in PROFILE_NAMES]
