"""``ginrummy play``: a whole match against the computer at the terminal, saved after every move
and resumed on the next start."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import click
from click.core import ParameterSource
from platformdirs import user_data_dir
from rich.console import Console
from rich.text import Text

from ..coach import Coach
from ..engine.errors import GinRummyError, InvalidNameError
from ..engine.rules import RuleSet
from ..engine.shuffle import SealError, check_client_seed
from ..players import Player, make, names
from ..tui.pages import rules_title
from ..tui.render import asciify
from ..tui.saves import CorruptSaveError, SavedMatch, SaveLockedError, SaveStore, new_saved_match
from ..tui.table import COACH_SEED, TerminalTable
from ..tui.tutorial import tutorial_tip
from ..words.names import clean_name
from .options import build_rules, rule_options

__all__ = ["play"]

#: Level used when none is given, best first: the first one this version has.
DEFAULT_LEVELS = ("medium", "easy", "random")
COMPUTER = "Computer"
#: Options that only shape a new match; ignored (with a note) when a saved match resumes.
_NEW_MATCH_OPTIONS = ("profile", "level", "hollywood", "last_discard_chance", "rule_overrides",
                      "seed", "name", "opponent_module")


def _console(plain: bool) -> Console:
    if plain:
        return Console(color_system=None, emoji=False, highlight=False, safe_box=True)
    return Console(highlight=False, emoji=False)


def _make_player(level: str, seed: str) -> Player:
    if ":" in level:  # a policy seated with --opponent-module (ginrummy.env.policy)
        try:
            from ..env.policy import PolicyPlayer, load_policy

            return PolicyPlayer(load_policy(level), seed=seed)
        except (ImportError, GinRummyError) as exc:
            raise click.BadParameter(str(exc), param_hint="--opponent-module") from None
    try:
        return make(level, seed=seed)
    except GinRummyError:
        raise click.BadParameter(
            f"there is no level {level!r} in this version; choose one of {', '.join(names())}",
            param_hint="--level",
        ) from None


def _default_level() -> str:
    available = names()
    return next((lv for lv in DEFAULT_LEVELS if lv in available), available[0])


def _easiest_level() -> str:
    """The level of the tutorial's first round: easy, or the weakest this version has."""
    available = names()
    return next((lv for lv in ("easy", "random") if lv in available), available[0])


def _explicit(ctx: click.Context, name: str) -> bool:
    source = ctx.get_parameter_source(name)
    return source in (ParameterSource.COMMANDLINE, ParameterSource.ENVIRONMENT)


def _confirm(console: Console, question: str) -> bool:
    try:
        answer = console.input(Text(question + " [y/N] "))  # text, not markup
    except (EOFError, KeyboardInterrupt):
        console.print()
        return False
    return answer.strip().lower() in ("y", "yes")


def _describe_saved(saved: SavedMatch) -> str:
    match = saved.match
    a, b = match.score.totals
    where = f"hand {len(match.hands)}" if match.hands else "hand 1 not dealt yet"
    return (
        f"{where}, {saved.names[0]} {a} to {saved.names[1]} {b}, "
        f"{match.rules.describe()}, level {saved.meta.level}"
    )


@click.command()
@rule_options
@click.option(
    "--level",
    default=None,
    metavar="easy|medium|hard|expert",
    help="How well the computer plays (default: medium, or the best this version has).",
)
@click.option(
    "--seed",
    default=None,
    help="Seed of the deals and of the computer (reproducible; the sealed deals' server seeds "
    "are then derived from it, so they protect no one from whoever knows it).",
)
@click.option(
    "--client-seed",
    default=None,
    metavar="TEXT",
    help="Your client seed for every hand dealt in this session (default: drawn at random; "
    "'seed TEXT' before a deal chooses one for that hand).",
)
@click.option(
    "--opponent-module",
    default=None,
    metavar="MODULE:ATTR",
    help="Play against a PettingZoo-style policy instead of a level: ATTR of MODULE, called "
    "as policy(observation, action_mask) -> action (see docs/env.md; needs the env extra).",
)
@click.option("--name", default="You", show_default=True, help="Your name on the score sheet.")
@click.option(
    "--new",
    "new_match",
    is_flag=True,
    help="Abandon the saved match (after asking; its file is kept aside) and start a new one.",
)
@click.option(
    "--data-dir",
    type=click.Path(file_okay=False, path_type=Path),
    envvar="GINRUMMY_DATA_DIR",
    default=None,
    help="Where the save lives (default: your user data directory; env GINRUMMY_DATA_DIR).",
)
@click.option("--plain", is_flag=True, help="No colours, box drawing or card symbols.")
@click.option(
    "--tutorial",
    is_flag=True,
    help="A calm first round: a tip before each decision (type skip to stop them); a new "
    "match is played against the easiest level.",
)
@click.option(
    "--coach",
    "with_coach",
    is_flag=True,
    help="The coach: a remark on each of your decisions and a review after each hand "
    "(type 'coach on' or 'coach off' at the table to switch it).",
)
@click.pass_context
def play(
    ctx: click.Context,
    profile: str,
    rule_overrides: tuple[str, ...],
    hollywood: bool,
    last_discard_chance: bool,
    level: str | None,
    seed: str | None,
    client_seed: str | None,
    name: str,
    new_match: bool,
    data_dir: Path | None,
    plain: bool,
    tutorial: bool,
    with_coach: bool,
    opponent_module: str | None,
) -> None:
    """Play a match against the computer in the terminal.

    The match is saved after every move and resumed the next time you run this command.
    Type ? at the table for the commands.
    """
    console = _console(plain)
    rules = build_rules(profile, rule_overrides, hollywood, last_discard_chance)
    chosen_level = level.strip().lower() if level else (
        _easiest_level() if tutorial else _default_level()
    )
    if opponent_module is not None:
        if level is not None:
            raise click.BadParameter("choose a level or a policy, not both",
                                     param_hint="--opponent-module")
        chosen_level = opponent_module.strip()
    _make_player(chosen_level, "check")  # refuse an unknown level before anything else
    try:
        name = clean_name(name)  # the names rule (ginrummy.words.names), as the web's
    except InvalidNameError as exc:
        raise click.BadParameter(str(exc), param_hint="--name") from None
    if name.lower() == COMPUTER.lower():
        raise click.BadParameter(f"choose a name other than {name!r}", param_hint="--name")
    if client_seed is not None:
        try:
            check_client_seed(client_seed)
        except SealError as exc:
            raise click.BadParameter(str(exc), param_hint="--client-seed") from None
    directory = data_dir if data_dir is not None else Path(user_data_dir("ginrummy"))
    store = SaveStore(directory)
    try:
        store.prepare()
    except OSError as exc:
        raise click.ClickException(f"cannot use {directory}: {exc.strerror or exc}") from None

    def say(text: str) -> None:
        console.print(asciify(text) if plain else text, soft_wrap=True, markup=False)

    try:
        with store.lock():
            saved = _resume(store, say)
            if saved is not None and new_match:
                # The match on a line of its own and a short question: at 40 columns the
                # question fits on its line (docs/terminal.md).
                say(f"Your unfinished match: {_describe_saved(saved)}.")
                if _confirm(console, "Abandon your unfinished match?"):
                    # It will never be played on: the hand it stopped in shows its server seed
                    # in the record kept, so that deal can be checked like any other.
                    cut_short = (saved.sealer is not None and bool(saved.match.hands)
                                 and not saved.match.hand.over)
                    if cut_short:
                        store.write(saved, ended=True)
                    kept = store.set_aside("abandoned")
                    say(f"Abandoned; its record is kept in {kept}."
                        + (f" Hand {len(saved.match.hands)} was not over: its server seed is "
                           "revealed there, and 'ginrummy verify' checks its deal."
                           if cut_short else ""))
                    saved = None
                else:
                    say("Keeping it.")
            if saved is not None and ":" not in saved.meta.level and (
                saved.meta.level not in names()
            ):
                raise click.ClickException(
                    f"the saved match is against level {saved.meta.level!r}, which this version "
                    f"does not have ({', '.join(names())}); the save is left as it is, and "
                    "--new starts over (keeping it aside)"
                )
            if saved is not None:
                say(f"Resuming your match: {_describe_saved(saved)}.")
                ignored = [o for o in _NEW_MATCH_OPTIONS if _explicit(ctx, o)]
                if ignored:
                    say("Options for a new match are ignored while one is saved; "
                        "use --new to start over.")
            else:
                if (level is None and opponent_module is None and not tutorial
                        and chosen_level != DEFAULT_LEVELS[0]):
                    say(f"Level {DEFAULT_LEVELS[0]!r} is not in this version yet; "
                        f"you play against {chosen_level!r}.")
                saved = _start(rules, chosen_level, seed, name)
                store.write(saved)
                target = rules.target
                say(f"New match: {rules_title(rules)}"
                    + f", game to {target}, against the computer (level {chosen_level}). "
                    "Type ? for help.")
            player = _make_player(saved.meta.level, saved.meta.computer_seed)
            try:
                TerminalTable(saved, player, store, console, plain=plain,
                              client_seed=client_seed,
                              tips=tutorial_tip if tutorial else None,
                              coach=Coach(seed=COACH_SEED) if with_coach else None).run()
            except GinRummyError as exc:
                if ":" not in saved.meta.level:
                    raise
                # A policy seated with --opponent-module failed to move (it raised, answered
                # no action number or an illegal one); every move before it is saved.
                raise click.ClickException(
                    f"{exc}. The match is saved as it was before that move: mend the policy "
                    "and run 'ginrummy play' again."
                ) from None
    except SaveLockedError as exc:
        raise click.ClickException(str(exc)) from None
    except OSError as exc:
        raise click.ClickException(
            f"cannot write the save in {directory}: {exc.strerror or exc}"
        ) from None


def _resume(store: SaveStore, say: Callable[[str], None]) -> SavedMatch | None:
    """The saved match to carry on, or ``None``; a corrupt save is reported and set aside, a
    finished one filed under ``finished/``."""
    if not store.exists():
        return None
    try:
        saved = store.read()
    except CorruptSaveError as exc:
        kept = store.set_aside("corrupt")
        say(f"Your saved match could not be read: {exc}.")
        say(f"The file is kept as {kept}; starting a new match.")
        return None
    except OSError as exc:
        raise click.ClickException(
            f"cannot read the save {store.current}: {exc.strerror or exc}; it is left untouched"
        ) from None
    if saved.match.over:
        kept = store.archive()
        say(f"Your last match was over; its record is kept in {kept}.")
        return None
    return saved


def _start(rules: RuleSet, level: str, seed: str | None, name: str) -> SavedMatch:
    return new_saved_match(rules, level, seed, (name, COMPUTER))
