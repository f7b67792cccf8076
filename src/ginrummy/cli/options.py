"""Options shared by the commands that take a rule set: --profile, --rule, --hollywood,
--last-discard-chance."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import click

from ..engine.errors import GinRummyError
from ..engine.rules import PROFILE_NAMES, RuleSet, get_rules, read_override

F = TypeVar("F", bound=Callable[..., Any])


def rule_options(func: F) -> F:
    """Add the rule-set options to a Click command."""
    options = [
        click.option(
            "--profile",
            type=click.Choice(PROFILE_NAMES, case_sensitive=False),
            default="traditional",
            show_default=True,
            help="Rule profile.",
        ),
        click.option(
            "--rule",
            "rule_overrides",
            multiple=True,
            metavar="NAME=VALUE",
            help="Override one rule, e.g. --rule gin_bonus=30 (repeatable).",
        ),
        click.option("--hollywood", is_flag=True, help="Hollywood scoring: three games at once."),
        click.option(
            "--last-discard-chance",
            is_flag=True,
            help="When the stock runs down, the last discard may be taken to knock.",
        ),
    ]
    for option in reversed(options):
        func = option(func)
    return func


def build_rules(
    profile: str, rule_overrides: Sequence[str], hollywood: bool, last_discard_chance: bool
) -> RuleSet:
    """The RuleSet the options describe; a bad override becomes a Click usage error."""
    overrides: dict[str, Any] = {}
    for item in rule_overrides:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise click.BadParameter(f"{item!r} is not NAME=VALUE", param_hint="--rule")
        overrides[name.strip()] = value.strip()
    for flag, field in ((hollywood, "hollywood"), (last_discard_chance, "last_discard_chance")):
        if not flag:
            continue
        said = overrides.get(field)
        if said is not None and read_override(field, said) is False:
            # Two options that contradict each other: say so rather than pick one.
            option = "--" + field.replace("_", "-")
            raise click.BadParameter(f"{option} and --rule {field}={said} contradict each other",
                                     param_hint="--rule")
        overrides[field] = True
    try:
        return get_rules(profile, **overrides)
    except GinRummyError as exc:
        raise click.BadParameter(str(exc), param_hint="--rule") from None
