"""A one-page summary of the rules of one table, built from the same RuleSet the engine plays.

Every number on the sheet is read from the :class:`~ginrummy.engine.rules.RuleSet`, so the sheet can
never disagree with the game. Tables render :func:`cheat_sheet` (terminal: ``ginrummy rules``;
web: the printable rules page).

>>> sheet = cheat_sheet(get_rules("oklahoma"))
>>> [s.title for s in sheet.sections][:3]
['Card values', 'Melds', 'The deal and the opening']
>>> sheet.title
'Gin rummy cheat sheet: Oklahoma'

A table's rules are named in plain words (:func:`rules_name`), never as the engine's keys:

>>> rules_name(get_rules("traditional", last_discard_chance=True))
'Traditional, last-discard chance'
>>> rules_name(get_rules("modern", gin_bonus=30, hollywood=True))
'Modern, gin bonus 30, Hollywood'
"""

from __future__ import annotations

from dataclasses import dataclass

from ..engine.rules import RuleSet, RulesLike, get_rules

__all__ = ["PROFILE_NAMES_SAID", "PROFILE_TITLES", "CheatSheet", "Section", "cheat_sheet",
           "rules_name", "shutout_condition", "winner_rule"]

#: Each profile's name for players: what it is, not where its rules were found.
PROFILE_NAMES_SAID: dict[str, str] = {
    "traditional": "Traditional",
    "modern": "Modern",
    "browser": "Standard",
    "house": "House",
    "oklahoma": "Oklahoma",
}

#: Each profile's name with what sets it apart, as the new-game window lists them.
PROFILE_TITLES: dict[str, str] = {
    "traditional": "Traditional",
    "modern": "Modern (big gin, 25-point bonuses)",
    "browser": "Standard (25-point bonuses, no big gin)",
    "house": "House (no end-of-game bonuses)",
    "oklahoma": "Oklahoma (the upcard sets the knock limit)",
}

#: Rules whose override is said in other words than the field's name.
_OVERRIDE_WORDS = {
    "hollywood": "Hollywood",
    "last_discard_chance": "last-discard chance",
    "oklahoma": "Oklahoma knock card",
    "spade_double": "spade upcard doubles",
}


def _override_said(name: str, value: object) -> str:
    words = _OVERRIDE_WORDS.get(name, name.replace("_", " "))
    if isinstance(value, bool):
        return words if value else f"no {words}"
    return f"{words} {str(value).replace('_', ' ')}"


def rules_name(r: RuleSet) -> str:
    """The rules of a table in plain words: the profile's name and every override."""
    said = [PROFILE_NAMES_SAID.get(r.profile, r.profile)]
    said += [_override_said(name, value) for name, value in r.overrides]
    return ", ".join(said)


@dataclass(frozen=True)
class Section:
    """One block of the sheet: a title and lines of ``(label, text)``."""

    title: str
    lines: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class CheatSheet:
    """The whole sheet for one rule set; ``title`` names the profile and its overrides in
    plain words (:func:`rules_name`)."""

    title: str
    rules: RuleSet
    sections: tuple[Section, ...]

    def as_dict(self) -> dict[str, object]:
        """Plain data for JSON."""
        return {
            "title": self.title,
            "profile": self.rules.profile,
            "rules": self.rules.as_dict(),
            "sections": [
                {"title": s.title, "lines": [{"label": a, "text": b} for a, b in s.lines]}
                for s in self.sections
            ],
        }


def _knock_line(r: RuleSet) -> tuple[str, str]:
    if r.oklahoma:
        return (
            "Knock limit",
            "set by the first upcard of the hand: 2 to 9 count their value, "
            "10, J, Q and K allow 10, an ace allows gin only",
        )
    return ("Knock limit", f"{r.knock_limit} points of deadwood or less after your discard")


def shutout_condition(r: RuleSet) -> str:
    """When a game counts as a shutout under ``r``, in words."""
    if r.shutout_when == "never_scored":
        return "the opponent scored no points"
    return "the loser won no hand"


def winner_rule(r: RuleSet) -> str:
    """Who wins a game under ``r``, in words (RULES.md, "The game")."""
    if r.winner == "first_to_target":
        return (
            f"the player who reached {r.target} first, even if the other player's final total "
            "is higher after the bonuses"
        )
    return "the higher final total after the bonuses; equal totals tie"


def _hollywood_winner(r: RuleSet) -> str:
    if r.winner == "first_to_target":
        return "the match goes to the player who won two of the three games"
    return "the match goes to the higher sum of the three games' final totals"


def _end_lines(r: RuleSet) -> list[tuple[str, str]]:
    lines = [("Target", f"the first player whose total reaches {r.target} ends the game")]
    if r.game_bonus or (r.shutout == "game_bonus" and r.shutout_game_bonus):
        text = f"{r.game_bonus} to the player who reached {r.target}"
        if r.shutout == "game_bonus":
            text += f", or {r.shutout_game_bonus} if {shutout_condition(r)}"
        lines.append(("Game bonus", text))
    else:
        lines.append(("Game bonus", "none"))
    if r.box_bonus:
        lines.append(("Box bonus", f"{r.box_bonus} to each player for every hand they won"))
    else:
        lines.append(("Box bonus", "none"))
    if r.shutout == "double":
        lines.append(
            ("Shutout", "if the loser won no hand, the winner's final total is doubled")
        )
    elif r.shutout == "none":
        lines.append(("Shutout", "no extra bonus"))
    lines.append(("Winner", f"{winner_rule(r)}; the bonuses never count toward the target"))
    lines.append(
        ("Margin", "the winner's final total minus the other player's"
         + (" (negative when the other player's total is higher)"
            if r.winner == "first_to_target" else ""))
    )
    if r.hollywood:
        lines.append(
            (
                "Hollywood",
                "three games are scored at once: a player's first win goes in game 1, the "
                "second in games 1 and 2, every later one in all three (games still open); "
                "each game gets its own bonuses and its own winner; the match ends when all "
                f"three are over, and {_hollywood_winner(r)}",
            )
        )
    return lines


def cheat_sheet(rules: RulesLike = "traditional") -> CheatSheet:
    """The one-page rules summary for ``rules`` (a profile name or a RuleSet)."""
    r = get_rules(rules)
    scoring = [
        ("Knock", "the knocker scores the difference in deadwood (after layoffs)"),
        (
            "Undercut",
            f"if the defender has equal or less deadwood, the defender scores the difference "
            f"+ {r.undercut_bonus}",
        ),
        ("Gin", f"the opponent's whole deadwood + {r.gin_bonus}; a gin is never undercut"),
    ]
    if r.big_gin:
        scoring.append(("Big gin", f"the opponent's whole deadwood + {r.big_gin_bonus}"))
    if r.spade_double:
        scoring.append(
            ("Spade upcard", "every score of a hand whose first upcard is a spade is doubled")
        )
    knocking = [
        _knock_line(r),
        ("How", "after drawing, discard one card face down and show your hand in melds"),
        ("Gin", "knock with no deadwood at all"),
    ]
    if r.big_gin:
        knocking.append(
            ("Big gin", "all eleven cards melded right after drawing: lay them down without "
             "discarding")
        )
    else:
        knocking.append(("Big gin", "not played at this table"))
    knocking.append(("Optional", "you never have to knock; you may play on for a better hand"))
    stock = [("Two cards left", "if a discard leaves two cards in the stock, the hand ends "
              "with no score")]
    if r.last_discard_chance:
        stock.append(
            ("Last discard", "the other player may take that last discard only to knock or "
             "go gin; otherwise the hand is cancelled")
        )
    after_scored = (
        "the winner of the hand deals next" if r.next_dealer == "winner" else "the deal alternates"
    )
    after_cancel = (
        "the same dealer deals again" if r.after_cancel == "same" else "the deal moves on"
    )
    sections = (
        Section(
            "Card values",
            (("Ace", "1 point (always low)"), ("2 to 10", "their number"),
             ("J, Q, K", "10 points each")),
        ),
        Section(
            "Melds",
            (
                ("Set", "3 or 4 cards of the same rank"),
                ("Run", "3 or more cards in sequence in one suit: A-2-3 is a run, "
                 "Q-K-A and K-A-2 are not"),
                ("One meld", "a card counts in one meld only"),
                ("Deadwood", "the total of the cards outside your melds"),
            ),
        ),
        Section(
            "The deal and the opening",
            (
                ("Deal", "10 cards each; the 21st card is the upcard; the rest is the stock"),
                ("Upcard", "the non-dealer may take it or pass; then the dealer may; if both "
                 "pass, the non-dealer draws from the stock"),
                ("Next deal", f"after a scored hand {after_scored}; after a cancelled hand "
                 f"{after_cancel}"),
            ),
        ),
        Section(
            "A turn",
            (
                ("Draw", "take the top card of the stock or of the discard pile"),
                ("Discard", "then discard one card face up"),
                ("Not back", "a card taken from the discard pile cannot be discarded the same "
                 "turn"),
            ),
        ),
        Section("Knocking", tuple(knocking)),
        Section(
            "Laying off",
            (
                ("When", "after a knock (never after gin), the defender may add deadwood "
                 "cards to the knocker's melds"),
                ("Sets", "a fourth card on a set of three (a set of four takes nothing)"),
                ("Runs", "cards extending a run at either end, one after another"),
                ("Never", "on the knocker's deadwood; the knocker never lays off"),
            ),
        ),
        Section("Scoring a hand", tuple(scoring)),
        Section("The stock runs out", tuple(stock)),
        Section("End of the game", tuple(_end_lines(r))),
    )
    return CheatSheet(title=f"Gin rummy cheat sheet: {rules_name(r)}", rules=r,
                      sections=sections)
