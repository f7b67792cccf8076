"""Rule profiles against RULES.md's table ("The profiles"), overrides and their bounds.

The scoring consequences of these numbers (game bonus, shutout, box bonus, dealer rotation) are
tested by behaviour in test_match.py; here each number is read against the table.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bruteforce as bf
from ginrummy import PROFILE_NAMES, InvalidRulesError, RuleSet, get_rules, settle_hand
from ginrummy.engine.rules import _CHOICE_FIELDS, OVERRIDABLE, from_description, oklahoma_limit

# RULES.md, "The profiles", column by column.
TABLE: dict[str, dict[str, Any]] = {
    "traditional": dict(
        gin_bonus=20, undercut_bonus=10, big_gin=False, knock_limit=10, oklahoma=False,
        spade_double=False, target=100, game_bonus=100, shutout="game_bonus",
        shutout_game_bonus=200, shutout_when="never_scored", box_bonus=20,
        next_dealer="winner", after_cancel="same", winner="higher_total",
    ),
    "modern": dict(
        gin_bonus=25, undercut_bonus=25, big_gin=True, big_gin_bonus=31, knock_limit=10,
        oklahoma=False, spade_double=False, target=100, game_bonus=100, shutout="double",
        shutout_when="no_hand_won", box_bonus=25, next_dealer="alternate",
        after_cancel="alternate", winner="first_to_target",
    ),
    "browser": dict(
        gin_bonus=25, undercut_bonus=25, big_gin=False, knock_limit=10, oklahoma=False,
        spade_double=False, target=100, game_bonus=100, shutout="game_bonus",
        shutout_game_bonus=200, shutout_when="no_hand_won", box_bonus=25,
        next_dealer="alternate", after_cancel="same", winner="first_to_target",
    ),
    "house": dict(
        gin_bonus=25, undercut_bonus=25, big_gin=False, knock_limit=10, oklahoma=False,
        spade_double=False, target=100, game_bonus=0, shutout="none", box_bonus=0,
        next_dealer="alternate", after_cancel="alternate", winner="first_to_target",
    ),
    "oklahoma": dict(
        gin_bonus=25, undercut_bonus=25, big_gin=True, big_gin_bonus=31, oklahoma=True,
        spade_double=True, target=150, game_bonus=100, shutout="double",
        shutout_when="no_hand_won", box_bonus=25, next_dealer="alternate",
        after_cancel="alternate", winner="first_to_target",
    ),
}


def test_profile_names() -> None:
    assert set(PROFILE_NAMES) == set(TABLE)
    assert get_rules().profile == "traditional"  # the default profile


@pytest.mark.parametrize("profile", list(TABLE))
def test_profile_numbers(profile: str) -> None:
    rules = get_rules(profile)
    assert rules.profile == profile
    for name, value in TABLE[profile].items():
        assert getattr(rules, name) == value, f"{profile}.{name}"
    # Options of any profile, off by default (RULES.md "Hollywood", "Last-discard chance").
    assert rules.hollywood is False
    assert rules.last_discard_chance is False
    assert rules.describe() == profile
    assert rules.overrides == ()


def test_profile_names_are_case_and_space_tolerant() -> None:
    assert get_rules(" Modern ") == get_rules("modern")


@pytest.mark.parametrize("profile", ["traditional", "modern", "browser", "house"])
def test_fixed_knock_limit_and_no_doubling(profile: str) -> None:
    rules = get_rules(profile)
    for upcard in range(52):
        assert rules.knock_limit_for(upcard) == 10
        assert rules.multiplier_for(upcard) == 1


def test_oklahoma_knock_limit_from_every_upcard() -> None:
    # RULES.md: first upcard 2-9 its value, 10/J/Q/K 10, ace 0 (gin only).
    expected = {"A": 0, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9,
                "T": 10, "J": 10, "Q": 10, "K": 10}
    rules = get_rules("oklahoma")
    for upcard in range(52):
        want = expected[bf.RANKS[bf.rank(upcard)]]
        assert rules.knock_limit_for(upcard) == want == oklahoma_limit(upcard)
        # "first upcard a spade: every hand score doubled"
        assert rules.multiplier_for(upcard) == (2 if bf.suit(upcard) == 3 else 1)
    with pytest.raises(InvalidRulesError):
        rules.knock_limit_for(None)


def test_oklahoma_spade_doubles_the_whole_score() -> None:
    # Knock with 8 against 5 under a spade ten: (3 + 25) * 2; under a heart ten: 28.
    knocker = "4h 5h 6h Ac 2c 3c 9s 9d 9c 8d"
    defender = "Kc Kd Ks Qc Qd Qs Jc Jd Jh 5s"
    assert settle_hand(knocker, defender, "oklahoma", upcard="Th").points == 28
    r = settle_hand(knocker, defender, "oklahoma", upcard="Ts")
    assert (r.points, r.multiplier) == (56, 2)


# ---------------------------------------------------------------------------------------------
# Overrides.


def test_override_changes_only_that_number() -> None:
    rules = get_rules("modern", gin_bonus=30)
    assert rules.gin_bonus == 30
    for name, value in TABLE["modern"].items():
        if name != "gin_bonus":
            assert getattr(rules, name) == value
    assert rules.describe() == "modern (gin_bonus=30)"
    assert rules.profile == "modern"


def test_several_overrides_and_options_are_described() -> None:
    rules = get_rules("traditional", target=250, hollywood=True, last_discard_chance="on")
    assert (rules.target, rules.hollywood, rules.last_discard_chance) == (250, True, True)
    text = rules.describe()
    assert text.startswith("traditional (")
    for part in ("target=250", "hollywood=on", "last_discard_chance=on"):
        assert part in text


def test_override_equal_to_the_profile_is_not_shown() -> None:
    assert get_rules("traditional", gin_bonus=20).describe() == "traditional"
    # Overriding back to the profile's number removes the override.
    back = get_rules(get_rules("traditional", gin_bonus=30), gin_bonus=20)
    assert back.describe() == "traditional"
    assert back == get_rules("traditional")


def test_overrides_accumulate_on_a_rule_set() -> None:
    rules = get_rules(get_rules("browser", box_bonus=10), target=50)
    assert (rules.box_bonus, rules.target) == (10, 50)
    assert "box_bonus=10" in rules.describe() and "target=50" in rules.describe()
    assert rules.with_overrides(target=60).target == 60


def test_text_values_are_read() -> None:
    rules = get_rules("house", gin_bonus="40", big_gin="yes", knock_limit=" 7 ")
    assert (rules.gin_bonus, rules.big_gin, rules.knock_limit) == (40, True, 7)


def test_rule_set_is_frozen() -> None:
    rules = get_rules()
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.gin_bonus = 50  # type: ignore[misc]


def test_as_dict() -> None:
    d = get_rules("modern", gin_bonus=30).as_dict()
    assert d["gin_bonus"] == 30 and d["profile"] == "modern"
    assert d["overrides"] == {"gin_bonus": 30}


@pytest.mark.parametrize(
    ("profile", "overrides", "words"),
    [
        ("traditional", {"gin_bonus": -1}, "gin_bonus"),
        ("traditional", {"undercut_bonus": -5}, "undercut_bonus"),
        ("traditional", {"box_bonus": 1001}, "box_bonus"),
        ("traditional", {"target": 0}, "target"),
        ("traditional", {"target": -100}, "target"),
        ("traditional", {"knock_limit": -1}, "knock_limit"),
        ("traditional", {"knock_limit": 31}, "knock_limit"),
        ("traditional", {"gin_bonus": 2.5}, "whole number"),
        ("traditional", {"gin_bonus": True}, "whole number"),
        ("traditional", {"gin_bonus": "lots"}, "whole number"),
        ("traditional", {"gin_bonus": None}, "whole number"),
        ("traditional", {"big_gin": "maybe"}, "big_gin"),
        ("traditional", {"big_gin": 1}, "big_gin"),
        ("traditional", {"shutout": "triple"}, "shutout"),
        ("traditional", {"next_dealer": "same"}, "next_dealer"),
        ("traditional", {"after_cancel": "winner"}, "after_cancel"),
        ("traditional", {"jokers": True}, "jokers"),
        ("traditional", {"profile": "modern"}, "profile"),
        ("oklahoma", {"knock_limit": 5}, "knock_limit"),
        ("oklahoma", {"knock_limit": 10}, "knock_limit"),
        ("traditional", {"oklahoma": True, "knock_limit": 5}, "knock_limit"),
        ("canasta", {}, "canasta"),
        ("", {}, "profile"),
    ],
)
def test_nonsense_overrides_raise(profile: str, overrides: dict[str, Any], words: str) -> None:
    with pytest.raises(InvalidRulesError, match=words):
        get_rules(profile, **overrides)


def test_knock_limit_then_oklahoma_raises() -> None:
    # A knock limit set first would be shown on the score sheet but ignored under Oklahoma.
    with pytest.raises(InvalidRulesError, match="knock_limit"):
        get_rules(get_rules("traditional", knock_limit=5), oklahoma=True)
    # Turning Oklahoma off makes the knock limit meaningful again.
    assert get_rules("oklahoma", oklahoma=False, knock_limit=5).knock_limit_for(0) == 5


def test_rules_must_be_a_name_or_rule_set() -> None:
    with pytest.raises(InvalidRulesError):
        get_rules(5)  # type: ignore[arg-type]


def test_rule_set_checks_its_fields() -> None:
    with pytest.raises(InvalidRulesError):
        RuleSet(profile="canasta")
    with pytest.raises(InvalidRulesError):
        RuleSet(target=0)
    with pytest.raises(InvalidRulesError):
        RuleSet(big_gin="yes")  # type: ignore[arg-type]
    with pytest.raises(InvalidRulesError):
        RuleSet(oklahoma=True, knock_limit=5)


@pytest.mark.parametrize("name", PROFILE_NAMES)
def test_hand_repr_is_the_repr_without_the_winner_rule(name: str) -> None:
    # The coach seeds its randomness from the rules a hand is played under; who wins a
    # finished game is not one of them.
    rules = get_rules(name)
    assert rules.hand_repr() == repr(rules).replace(f", winner={rules.winner!r}", "")
    other = "higher_total" if rules.winner == "first_to_target" else "first_to_target"
    assert get_rules(name, winner=other).hand_repr() == rules.hand_repr().replace(
        "overrides=()", f"overrides=(('winner', {other!r}),)"
    )


@pytest.mark.parametrize(
    ("name", "value"),
    [("gin_bonus", -1), ("target", 10001), ("big_gin", 1), ("shutout", "triple"),
     ("knock_limit", 2.5)],
)
def test_one_check_gives_one_message(name: str, value: Any) -> None:
    # An override and a RuleSet built directly are refused by the same check, in the same words.
    with pytest.raises(InvalidRulesError) as direct:
        RuleSet(**{name: value})
    with pytest.raises(InvalidRulesError) as override:
        get_rules("traditional", **{name: value})
    assert str(direct.value) == str(override.value)
    assert name in str(direct.value)


@given(st.sampled_from(PROFILE_NAMES),
       st.dictionaries(st.sampled_from(OVERRIDABLE), st.integers(0, 40) | st.booleans()
                       | st.sampled_from(sorted({c for cs in _CHOICE_FIELDS.values()
                                                 for c in cs})), max_size=4))
@settings(max_examples=300, deadline=None)
def test_a_description_reads_back_as_the_same_rules(profile: str, changes: dict[str, Any]
                                                    ) -> None:
    # Score sheets and the lobby keep a table's rules as describe() wrote them.
    try:
        rules = get_rules(profile, **changes)
    except InvalidRulesError:
        return  # not a rule set at all: nothing to describe
    assert from_description(rules.describe()) == rules


@pytest.mark.parametrize("text", ["", "nosuch", "modern (gin_bonus=30", "modern (gin_bonus)",
                                  "modern (gin_bonus=many)", "modern (colour=red)"])
def test_a_broken_description_is_refused(text: str) -> None:
    with pytest.raises(InvalidRulesError):
        from_description(text)
