"""The rules of a :class:`~ginrummy.rules.RuleSet` in plain sentences, for the page.

``bonus_lines`` is what the new-game window shows before a match starts (every number that
differs between tables); ``rule_lines`` is the rules panel: the common rules, then this
table's numbers. Both read the rule set only, so they cannot disagree with the engine.

>>> from ginrummy.rules import get_rules
>>> bonus_lines(get_rules("traditional"))[:2]
['Gin bonus: 20', 'Undercut bonus: 10']
"""

from __future__ import annotations

from ..rules import PROFILE_NAMES, RuleSet, get_rules

__all__ = ["PROFILE_TITLES", "bonus_lines", "rule_lines", "profile_catalogue"]

PROFILE_TITLES = {
    "traditional": "Traditional",
    "modern": "Modern (big gin, 25-point bonuses)",
    "browser": "Browser (25-point bonuses)",
    "house": "House (no end-of-game bonuses)",
    "oklahoma": "Oklahoma (the upcard sets the knock limit)",
}


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
        when = (
            "the opponent never scored"
            if rules.shutout_when == "never_scored"
            else "the loser won no hand"
        )
        text += f" ({rules.shutout_game_bonus} if {when})"
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


_COMMON = [
    "Each player gets ten cards; the next card is turned up to start the discard pile "
    "(the upcard) and the rest form the stock.",
    "The non-dealer may take the upcard or pass; then the dealer may; if both pass, the "
    "non-dealer draws from the stock.",
    "On your turn draw one card (the top of the stock or the top discard), then discard one. "
    "You may not discard the card you just took from the discard pile.",
    "Melds: three or four cards of a rank (a set) or three or more in a row in one suit "
    "(a run). Ace is low: A-2-3 is a run, Q-K-A is not.",
    "Deadwood is the value of the cards outside melds: ace 1, 2–10 their number, "
    "J, Q, K 10.",
    "Knock by discarding when your other ten cards leave deadwood within the knock limit. "
    "With no deadwood at all you go gin.",
    "After a knock the defender lays off cards on the knocker's melds (never against gin) "
    "and counts the rest.",
    "The knocker scores the difference in deadwood. If the defender's count is equal or "
    "lower, that is an undercut: the defender scores the difference plus the undercut bonus.",
    "Gin scores the defender's deadwood plus the gin bonus.",
    "If the stock runs down to two cards without a knock, the hand is cancelled: "
    "nobody scores.",
]


def rule_lines(rules: RuleSet) -> list[str]:
    """The rules panel: the common rules, then this table's numbers and options."""
    lines = list(_COMMON)
    if rules.big_gin:
        lines.append(
            "Big gin: if all eleven cards are in melds right after you draw, lay them all "
            f"down without discarding for the defender's deadwood plus {rules.big_gin_bonus}."
        )
    if rules.oklahoma:
        lines.append(
            "Oklahoma: the first upcard sets the knock limit (2–9 its value, 10/J/Q/K 10, "
            "an ace means only gin is allowed)."
        )
    if rules.spade_double:
        lines.append("If the first upcard is a spade, the hand's score is doubled.")
    lines.append(
        f"A game ends when a player reaches {rules.target} points; then the end-of-game "
        "bonuses are added (they never count toward the target)."
    )
    dealer = (
        "The winner of a hand deals the next."
        if rules.next_dealer == "winner"
        else "The deal alternates."
    )
    cancel = (
        "After a cancelled hand the same player deals again."
        if rules.after_cancel == "same"
        else "After a cancelled hand the deal moves on."
    )
    lines.append(f"{dealer} {cancel}")
    if rules.hollywood:
        lines.append(
            "Hollywood: three games are scored at once. Your first hand won counts in game 1, "
            "your second in games 1 and 2, the third and later in all three still open."
        )
    if rules.last_discard_chance:
        lines.append(
            "Last-discard chance: when a discard leaves two cards in the stock, the other "
            "player may take it only to knock or go gin; otherwise the hand is cancelled."
        )
    return lines


def profile_catalogue() -> list[tuple[str, str, RuleSet]]:
    """Each profile's key, title and rule set, in menu order."""
    return [(name, PROFILE_TITLES[name], get_rules(name)) for name in PROFILE_NAMES]
